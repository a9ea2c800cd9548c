// The Highway implementation of the deblock DSP table (docs/spec.md,
// daedalusdeblock, both modes). A vector holds one edge position of many
// independent lines: pass 2 runs a lane per column straight on the plane;
// pass 1 runs a lane per row on strips of rows transposed into a column-major
// buffer (on planar planes, mode=vp9 at block sizes 8 and 16 and 10-bit
// mode=h264 at any: on windows of 16 columns; 10-bit interleaved chroma
// too). Where
// exact, the arithmetic stays in 8 bits (averages and saturating ops); only
// the strong luma filter and VP9's 8 and 16-wide filters widen to 16. VP9's
// edge filter is in deblock_vp9_simd-inl.h.
//
// 10-bit planes (docs/spec.md "High bit depth") take the same code templated
// on the sample type S: lanes of 16 bits holding the values (pass 1 masks
// them, or shifts P010's down, as it loads them; pass 2's input holds values
// alone, P010's shifted; shifted back as they are stored), 8x8 tiles of them
// transposed for pass 1. Where the 8-bit arithmetic leans
// on 8-bit saturation (H.264's p0/q0 update, VP9's 4-tap filter) S = uint16_t
// computes the spec's formulas in signed 16 bits; sums never need widening.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "filters/deblock/deblock_simd.cc"
#include <hwy/aligned_allocator.h>
#include <hwy/cache_control.h>
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "daedalus/deblock.h"
#include "filters/simd_init.h"

HWY_BEFORE_NAMESPACE();
namespace daedalus {
namespace HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;

enum class Kind {
  kLumaNormal,
  kLumaStrong,
  kChromaNormal,
  kChromaStrong,
  kVp9W4,  // mode=vp9, the filter width
  kVp9W8,
  kVp9W16,
};

constexpr bool is_chroma(Kind k) {
  return k == Kind::kChromaNormal || k == Kind::kChromaStrong;
}
constexpr bool is_vp9(Kind k) {
  return k == Kind::kVp9W4 || k == Kind::kVp9W8 || k == Kind::kVp9W16;
}
// Samples an edge's filter reads on its q side (p side: the same).
constexpr int reach(Kind k) {
  return k == Kind::kVp9W16 ? 8 : is_chroma(k) ? 2 : 4;
}

// The strong luma filter sums 8-bit samples in 16 bits, so its lines run
// half as many lanes as the others, in vectors that promote to one full
// 16-bit vector. (VP9's wide filters split full vectors into such parts
// themselves.) 16-bit samples' sums fit their lanes.
template <Kind K, class S>
using LineTag =
    std::conditional_t<K == Kind::kLumaStrong && sizeof(S) == 1,
                       hn::Rebind<uint8_t, hn::ScalableTag<int16_t>>,
                       hn::ScalableTag<S>>;

// A plane's thresholds at its bit depth (deblock_plane_params_at_depth);
// vectors are made where they are used (scalable vectors cannot be members).
template <class S>
struct Limits {
  Limits(const DeblockPlaneParams& params, int bit_depth) {
    const DeblockPlaneParams pp =
        deblock_plane_params_at_depth(params, bit_depth);
    const int cs = bit_depth - 8;
    alpha = S(pp.alpha), beta = S(pp.beta), tc0 = S(pp.tc0);
    tc_chroma = S(pp.tc0 + 1), near_alpha = S((pp.alpha >> 2) + 2);
    limit1 = S(pp.vp9.limit + 1), blimit1 = S(pp.vp9.blimit + 1);
    thresh = S(pp.vp9.thresh), flat1 = S((1 << cs) + 1);
    half = int16_t(128 << cs), max = int16_t((1 << bit_depth) - 1);
  }
  S alpha, beta, tc0, tc_chroma, near_alpha;
  // mode=vp9: limit + 1 <= 64, blimit + 1 <= 194 at 8 bits (253, 773 at
  // 10); flat1 is the flat bound + 1.
  S limit1, blimit1, thresh, flat1;
  // 16-bit samples: VP9's signed offset 128 << cs, the largest value.
  int16_t half, max;
};

#if HWY_TARGET == HWY_NEON
// NEON's unsigned halving add (uhadd) or absolute difference (uabd) of
// sample values, one instruction either, which Highway 1.0.3 has no integer
// op for; by register type (64-bit ones hold vectors of up to 8 bytes).
template <bool kHadd, class V>
HWY_INLINE V neon_hadd_or_abd(V a, V b) {
  using R = decltype(a.raw);
  const R x = a.raw, y = b.raw;
  if constexpr (std::is_same_v<R, uint8x16_t>)
    return V(kHadd ? vhaddq_u8(x, y) : vabdq_u8(x, y));
  else if constexpr (std::is_same_v<R, uint8x8_t>)
    return V(kHadd ? vhadd_u8(x, y) : vabd_u8(x, y));
  else if constexpr (std::is_same_v<R, uint16x8_t>)
    return V(kHadd ? vhaddq_u16(x, y) : vabdq_u16(x, y));
  else
    return V(kHadd ? vhadd_u16(x, y) : vabd_u16(x, y));
}
#endif

// |a - b| of sample values; 16-bit lanes' values (below 2^15) through
// their signed difference, in two instructions, not three (NEON: one).
template <class V>
HWY_INLINE V abs_diff(V a, V b) {
#if HWY_TARGET == HWY_NEON
  return neon_hadd_or_abd<false>(a, b);
#else
  if constexpr (sizeof(hn::TFromV<V>) == 2) {
    const hn::DFromV<V> d;
    const hn::RebindToSigned<decltype(d)> di;
    return hn::BitCast(
        d, hn::Abs(hn::Sub(hn::BitCast(di, a), hn::BitCast(di, b))));
  } else {
    return hn::Or(hn::SaturatedSub(a, b), hn::SaturatedSub(b, a));
  }
#endif
}

// a < b of sample values and thresholds; 16-bit lanes' (below 2^15) as
// signed, which x86 compares in one instruction (unsigned ones: in three
// before AVX-512).
template <class V>
HWY_INLINE hn::Mask<hn::DFromV<V>> less(V a, V b) {
  if constexpr (sizeof(hn::TFromV<V>) == 2) {
    const hn::DFromV<V> d;
    const hn::RebindToSigned<decltype(d)> di;
    return hn::RebindMask(d, hn::Lt(hn::BitCast(di, a), hn::BitCast(di, b)));
  } else {
    return hn::Lt(a, b);
  }
}

// (a + b + 1) >> 1. Highway 1.0.3's AverageRound for SVE (not SVE2) wraps
// the sum at 8 bits, so that target computes it from a | b and a ^ b.
template <class V>
HWY_INLINE V avg_round(V a, V b) {
#if HWY_TARGET == HWY_SVE || HWY_TARGET == HWY_SVE_256
  return hn::Sub(hn::Or(a, b), hn::ShiftRight<1>(hn::Xor(a, b)));
#else
  return hn::AverageRound(a, b);
#endif
}

// (a + b) >> 1 (NEON: one instruction).
template <class D, class V>
HWY_INLINE V avg_floor(D d, V a, V b) {
#if HWY_TARGET == HWY_NEON
  (void)d;
  return neon_hadd_or_abd<true>(a, b);
#else
  return hn::Sub(avg_round(a, b), hn::And(hn::Xor(a, b), hn::Set(d, 1)));
#endif
}

// |p0-q0| < alpha && |p1-p0| < beta && |q1-q0| < beta.
template <class D, class S, class V = hn::VFromD<D>>
HWY_INLINE hn::Mask<D> edge_filtered(D d, V p1, V p0, V q0, V q1,
                                     const Limits<S>& k) {
  return hn::And(
      less(abs_diff(p0, q0), hn::Set(d, k.alpha)),
      less(hn::Max(abs_diff(p1, p0), abs_diff(q1, q0)), hn::Set(d, k.beta)));
}

// p0 + delta and q0 - delta (clipped to 0 .. max), delta = clip3(-tc, tc,
// ((q0 - p0) * 4 + p1 - q1 + 4) >> 3). 16-bit samples: as written, in signed
// 16 bits (at most 5119 before clipping).
// 8-bit ones: in 8 bits. With a = (q0 - p0) >> 1, b = (p1 - q1) >> 1
// and s = (q0 - p0) & 1, delta = a + ((b + 2s + 2) >> 2) before clipping. The
// averages below hold A = a + 128 and G = ((b + 2s + 2) >> 2) + 33, so
// A + G = delta + 161; it saturates at 255 only when delta >= 94 > tc.
template <class D, class V, class S>
HWY_INLINE void p0_q0(D d, V p1, V p0, V q0, V q1, V tc, const Limits<S>& k,
                      V* p0_out, V* q0_out) {
  if constexpr (sizeof(S) == 2) {
    const hn::RebindToSigned<D> di;
    const auto sp1 = hn::BitCast(di, p1), sp0 = hn::BitCast(di, p0);
    const auto sq0 = hn::BitCast(di, q0), sq1 = hn::BitCast(di, q1);
    const auto t = hn::BitCast(di, tc);
    const auto x = hn::ShiftRight<3>(
        hn::Add(hn::Add(hn::ShiftLeft<2>(hn::Sub(sq0, sp0)), hn::Sub(sp1, sq1)),
                hn::Set(di, 4)));
    const auto delta = hn::Min(hn::Max(x, hn::Neg(t)), t);
    const auto zero = hn::Zero(di), max = hn::Set(di, k.max);
    *p0_out = hn::BitCast(d, hn::Min(hn::Max(hn::Add(sp0, delta), zero), max));
    *q0_out = hn::BitCast(d, hn::Min(hn::Max(hn::Sub(sq0, delta), zero), max));
    return;
  }
  const V one = hn::Set(d, 1), bias = hn::Set(d, 161);
  const V a = avg_round(q0, hn::Not(p0));
  const V b = avg_round(p1, hn::Not(q1));
  const V s = hn::And(hn::Xor(q0, p0), one);
  const V g = avg_round(avg_round(b, one), hn::Add(s, one));
  const V sum = hn::SaturatedAdd(a, g);
  const V up = hn::Min(hn::SaturatedSub(sum, bias), tc);
  const V down = hn::Min(hn::SaturatedSub(bias, sum), tc);
  *p0_out = hn::SaturatedSub(hn::SaturatedAdd(p0, up), down);
  *q0_out = hn::SaturatedSub(hn::SaturatedAdd(q0, down), up);
}

// p1 + clip3(-tc, tc, (p2 + avg - 2 * p1) >> 1) == clip3(p1 - tc, p1 + tc,
// (p2 + avg) >> 1), and that average never leaves 0 .. max.
template <class D, class V>
HWY_INLINE V p1_update(D d, V p2, V p1, V avg, V tc) {
  return hn::Min(hn::Max(avg_floor(d, p2, avg), hn::SaturatedSub(p1, tc)),
                 hn::SaturatedAdd(p1, tc));
}

// (2 * p1 + p0 + q1 + 2) >> 2.
template <class D, class V>
HWY_INLINE V p0_weak(D d, V p1, V p0, V q1) {
  return avg_round(p1, avg_floor(d, p0, q1));
}

// How lines are read and written: vectors of sample values at p (S units).
// Every lane of a line.
struct AllLanes {
  template <class D, class T>
  HWY_INLINE hn::VFromD<D> load(D d, const T* p) const {
    return hn::LoadU(d, p);
  }
  template <class D, class T>
  HWY_INLINE void store(D d, hn::VFromD<D> v, T* p) const {
    hn::StoreU(v, d, p);
  }
};

// Writes the lanes i of v with `first + i` even to p + i: one channel of an
// interleaved (step 2 samples) plane, never touching the other channel's.
template <class D, class T>
HWY_INLINE void store_even(D d, hn::VFromD<D> v, size_t first, T* p) {
  const auto odd = hn::And(hn::Iota(d, first), hn::Set(d, 1));
  // A partial vector's mask may have lanes set past Lanes(d) (SVE).
  const auto even =
      hn::And(hn::Eq(odd, hn::Zero(d)), hn::FirstN(d, hn::Lanes(d)));
#if HWY_MEM_OPS_MIGHT_FAULT
  // No per-lane store on this target (BlendedStore goes lane by lane): the
  // other channel's samples are read and written back as they were. The
  // caller loaded this vector already, and never filters the other channel
  // at the same time (deblock.h).
  hn::StoreU(hn::IfThenElse(even, v, hn::LoadU(d, p)), d, p);
#else
  hn::BlendedStore(v, even, d, p);
#endif
}

// The lanes of one channel of an interleaved plane, lane 0 being `first`
// samples (of either channel) from the channel's first sample.
struct ChannelLanes {
  size_t first;
  template <class D, class T>
  HWY_INLINE hn::VFromD<D> load(D d, const T* p) const {
    return hn::LoadU(d, p);
  }
  template <class D, class T>
  HWY_INLINE void store(D d, hn::VFromD<D> v, T* p) const {
    store_even(d, v, first, p);
  }
};

// The value of each 16-bit word of v: bits [lsb, lsb + depth), max the
// largest value. Values in the low bits need only the mask, values in the
// high bits (P010) only the shift.
template <class V>
HWY_INLINE V word_values(V v, int lsb, int depth, V max) {
  if (lsb == 0) return hn::And(v, max);
  v = hn::ShiftRightSame(v, lsb);
  return lsb + depth == 16 ? v : hn::And(v, max);
}

// The lines of a 10-bit plane itself, through `Lanes` (AllLanes or
// ChannelLanes): values from the words, values written back as words.
template <class Lanes>
struct WordLanes {
  Lanes lanes;
  int lsb, depth;
  uint16_t max;
  template <class D>
  HWY_INLINE hn::VFromD<D> load(D d, const uint16_t* p) const {
    return word_values(lanes.load(d, p), lsb, depth, hn::Set(d, max));
  }
  template <class D>
  HWY_INLINE void store(D d, hn::VFromD<D> v, uint16_t* p) const {
    lanes.store(d, hn::ShiftLeftSame(v, lsb), p);
  }
};

// The lines of a plane itself, through `lanes`: 8-bit ones as they are.
template <class S, class Lanes>
HWY_INLINE auto plane_lanes(const Plane& plane, Lanes lanes) {
  if constexpr (sizeof(S) == 1) {
    (void)plane;
    return lanes;
  } else {
    return WordLanes<Lanes>{lanes, plane.lsb, plane.bit_depth,
                            uint16_t(plane.max_value())};
  }
}

// Pass 2's lines of a 10-bit plane, which holds no bits outside its values
// (the DSP contract): values in the high bits shifted down as they are
// loaded and back as they are stored. (Values in the low bits need neither:
// `Lanes` alone.)
template <class Lanes>
struct HighWordLanes {
  Lanes lanes;
  int lsb;
  template <class D>
  HWY_INLINE hn::VFromD<D> load(D d, const uint16_t* p) const {
    return hn::ShiftRightSame(lanes.load(d, p), lsb);
  }
  template <class D>
  HWY_INLINE void store(D d, hn::VFromD<D> v, uint16_t* p) const {
    lanes.store(d, hn::ShiftLeftSame(v, lsb), p);
  }
};

// A plane's sample as S (10-bit planes' strides and steps are even, so rows
// and steps count in S units too).
template <class S>
HWY_INLINE S* samples(const Plane& plane, int x, int y) {
  return reinterpret_cast<S*>(&plane.at(x, y));
}

// ---------------------------------------------------------------------------
// mode=vp9: vp9_filter_edge.
#include "filters/deblock/deblock_vp9_simd-inl.h"

// Filters the H.264 edge across the lines at(i), i = -reach .. reach - 1 (q0
// at 0), writing changed lines with put(i, v). Every line is read before the
// first put.
template <Kind K, class D, class At, class Put, class S>
HWY_INLINE void filter_lines(D d, const At& at, const Put& put,
                             const Limits<S>& k) {
  using V = hn::VFromD<D>;
  const V p1 = at(-2), p0 = at(-1), q0 = at(0), q1 = at(1);
  const auto filtered = edge_filtered(d, p1, p0, q0, q1, k);

  if constexpr (K == Kind::kChromaNormal) {
    V p0n, q0n;
    p0_q0(d, p1, p0, q0, q1,
          hn::IfThenElseZero(filtered, hn::Set(d, k.tc_chroma)), k, &p0n, &q0n);
    put(-1, p0n);
    put(0, q0n);
  } else if constexpr (K == Kind::kChromaStrong) {
    put(-1, hn::IfThenElse(filtered, p0_weak(d, p1, p0, q1), p0));
    put(0, hn::IfThenElse(filtered, p0_weak(d, q1, q0, p1), q0));
  } else if constexpr (K == Kind::kLumaNormal) {
    const V p2 = at(-3), q2 = at(2);
    const V beta = hn::Set(d, k.beta), tc0 = hn::Set(d, k.tc0);
    const auto ap = hn::And(filtered, less(abs_diff(p2, p0), beta));
    const auto aq = hn::And(filtered, less(abs_diff(q2, q0), beta));
    // tc0 + (ap < beta) + (aq < beta) where filtered, else 0 (no change); a
    // true mask is -1.
    const V tc = hn::Sub(
        hn::Sub(hn::IfThenElseZero(filtered, tc0), hn::VecFromMask(d, ap)),
        hn::VecFromMask(d, aq));
    V p0n, q0n;
    p0_q0(d, p1, p0, q0, q1, tc, k, &p0n, &q0n);
    const V avg = avg_round(p0, q0);
    put(-2, p1_update(d, p2, p1, avg, hn::IfThenElseZero(ap, tc0)));
    put(-1, p0n);
    put(0, q0n);
    put(1, p1_update(d, q2, q1, avg, hn::IfThenElseZero(aq, tc0)));
  } else {
    const V p3 = at(-4), p2 = at(-3);
    const V q2 = at(2), q3 = at(3);
    const V beta = hn::Set(d, k.beta);
    const auto near =
        hn::And(filtered, less(abs_diff(p0, q0), hn::Set(d, k.near_alpha)));
    const auto strong_p = hn::And(near, less(abs_diff(p2, p0), beta));
    const auto strong_q = hn::And(near, less(abs_diff(q2, q0), beta));

    // Sums in 16 bits: 8-bit samples promoted, 16-bit ones as they are.
    const hn::Rebind<int16_t, D> dw;
    const auto widen = [&](V v) {
      if constexpr (sizeof(S) == 1)
        return hn::PromoteTo(dw, v);
      else
        return hn::BitCast(dw, v);
    };
    const auto narrow = [&](auto w) -> V {
      if constexpr (sizeof(S) == 1)
        return hn::DemoteTo(d, w);
      else
        return hn::BitCast(d, w);
    };
    const auto P3 = widen(p3), P2 = widen(p2), P1 = widen(p1);
    const auto P0 = widen(p0), Q0 = widen(q0), Q1 = widen(q1);
    const auto Q2 = widen(q2), Q3 = widen(q3);
    const auto two = hn::Set(dw, 2), four = hn::Set(dw, 4);
    // One side's p2', p1', p0' from its own samples a (a[0] nearest the edge)
    // and the other side's b0, b1.
    const auto side = [&](auto a3, auto a2, auto a1, auto a0, auto b0, auto b1,
                          V* out2, V* out1, V* out0) {
      const auto s = hn::Add(hn::Add(a1, a0), b0);
      *out0 = narrow(hn::ShiftRight<3>(
          hn::Add(hn::Add(a2, hn::Add(s, s)), hn::Add(b1, four))));
      *out1 = narrow(hn::ShiftRight<2>(hn::Add(hn::Add(a2, s), two)));
      const auto a32 = hn::Add(a3, a2);
      *out2 = narrow(hn::ShiftRight<3>(
          hn::Add(hn::Add(hn::Add(a32, a32), a2), hn::Add(s, four))));
    };
    V p2s, p1s, p0s, q2s, q1s, q0s;
    side(P3, P2, P1, P0, Q0, Q1, &p2s, &p1s, &p0s);
    side(Q3, Q2, Q1, Q0, P0, P1, &q2s, &q1s, &q0s);
    const V p0w = hn::IfThenElse(filtered, p0_weak(d, p1, p0, q1), p0);
    const V q0w = hn::IfThenElse(filtered, p0_weak(d, q1, q0, p1), q0);
    put(-3, hn::IfThenElse(strong_p, p2s, p2));
    put(-2, hn::IfThenElse(strong_p, p1s, p1));
    put(-1, hn::IfThenElse(strong_p, p0s, p0w));
    put(0, hn::IfThenElse(strong_q, q0s, q0w));
    put(1, hn::IfThenElse(strong_q, q1s, q1));
    put(2, hn::IfThenElse(strong_q, q2s, q2));
  }
}

// Filters the edge whose q0 line is at `q`; lines lie `pitch` samples apart
// and are read and written through `io`.
template <Kind K, class D, class S, class Io>
HWY_INLINE void filter_edge(D d, S* q, ptrdiff_t pitch, const Limits<S>& k,
                            const Io& io) {
  filter_lines<K>(
      d, [&](int i) { return io.load(d, q + i * pitch); },
      [&](int i, hn::VFromD<D> v) { io.store(d, v, q + i * pitch); }, k);
}

// Filters the edges at positions e = first, first + step, ... below `end`, in
// that order, of the lines whose position 0 is at `base`.
template <Kind K, class D, class S, class Io>
HWY_FLATTEN void filter_edges(D d, S* base, ptrdiff_t pitch, int first, int end,
                              int step, const Limits<S>& k, const Io& io) {
  for (int e = first; e < end; e += step) {
    if constexpr (is_vp9(K))
      vp9_filter_edge<K>(d, base + e * pitch, pitch, k, io);
    else
      filter_edge<K>(d, base + e * pitch, pitch, k, io);
  }
}

// ---------------------------------------------------------------------------
// Pass 2: a lane per column.

template <Kind K, class S>
void horizontal_edges_kind(const Plane& plane, const DeblockPlaneParams& pp,
                           int x_begin, int x_end) {
  using D = LineTag<K, S>;
  const D d;
  const ptrdiff_t n = ptrdiff_t(hn::Lanes(d));
  const int b = pp.block_size, h = plane.height;
  const int edges_end = h - reach(K) + 1;
  if (x_begin >= x_end || b >= edges_end) return;
  const Limits<S> k(pp, plane.bit_depth);
  // The columns' samples within each row (S units); with step 2 every other
  // one belongs to the other channel.
  const int step = plane.step / int(sizeof(S));
  const ptrdiff_t stride = plane.stride / ptrdiff_t(sizeof(S));
  S* const row0 = samples<S>(plane, 0, 0);
  const ptrdiff_t begin = ptrdiff_t(x_begin) * step;
  const ptrdiff_t end = ptrdiff_t(x_end - 1) * step + 1;

  // The edges of the lines at `base` (`pitch` samples apart) through
  // `lanes`; 10-bit values in the high bits through HighWordLanes.
  const auto filter = [&](S* base, ptrdiff_t pitch, auto lanes) {
    if constexpr (sizeof(S) == 2) {
      if (plane.lsb != 0)
        return filter_edges<K>(
            d, base, pitch, b, edges_end, b, k,
            HighWordLanes<decltype(lanes)>{lanes, plane.lsb});
    }
    filter_edges<K>(d, base, pitch, b, edges_end, b, k, lanes);
  };
  ptrdiff_t o = begin;
  for (; o + n <= end; o += n) {
    if (step == 1)
      filter(row0 + o, stride, AllLanes());
    else
      filter(row0 + o, stride, ChannelLanes{size_t(o - begin)});
  }
  if (o == end) return;

  // The last columns, too few for a vector: through a buffer of full lines
  // (10-bit: words as in the plane).
  const ptrdiff_t rest = end - o;
  std::vector<S> lines(size_t(n) * h);
  for (int y = 0; y < h; y++)
    std::memcpy(&lines[size_t(y) * n], row0 + y * stride + o,
                size_t(rest) * sizeof(S));
  filter(lines.data(), n, AllLanes());
  for (int y = 0; y < h; y++) {
    S* row = row0 + y * stride + o;
    const S* line = &lines[size_t(y) * n];
    for (ptrdiff_t i = (o - begin) % step; i < rest; i += step)
      row[i] = line[i];
  }
}

// ---------------------------------------------------------------------------
// Pass 1: a lane per row.

#if HWY_TARGET != HWY_SCALAR

// Pass 1 transposes tiles of 128-bit rows: 16 rows x 16 columns of 8-bit
// samples, 8 x 8 of 16-bit ones.
template <class S>
constexpr int kTileOf = 16 / int(sizeof(S));
constexpr int kTile = kTileOf<uint8_t>;

// a, b = the lower and the upper halves of a and b interleaved, on lanes of dw.
template <class DW, class V>
HWY_INLINE void zip(DW dw, V& a, V& b) {
  const hn::DFromV<V> d;
  const auto wa = hn::BitCast(dw, a), wb = hn::BitCast(dw, b);
  a = hn::BitCast(d, hn::InterleaveLower(dw, wa, wb));
  b = hn::BitCast(d, hn::InterleaveUpper(dw, wa, wb));
}

// Transposes the 8x8 16-bit samples that load(i) gives as row i, as
// transpose_tile8 below does bytes (three rounds of zips).
template <class D16, class Load, class Store>
HWY_INLINE void transpose_tile16(D16 d16, const Load& load,
                                 const Store& store) {
  const hn::Repartition<uint32_t, decltype(d16)> d32;
  const hn::Repartition<uint64_t, decltype(d16)> d64;
  auto v0 = load(0), v1 = load(1), v2 = load(2), v3 = load(3);
  auto v4 = load(4), v5 = load(5), v6 = load(6), v7 = load(7);
  zip(d16, v0, v1), zip(d16, v2, v3), zip(d16, v4, v5), zip(d16, v6, v7);
  zip(d32, v0, v2), zip(d32, v1, v3), zip(d32, v4, v6), zip(d32, v5, v7);
  zip(d64, v0, v4), zip(d64, v1, v5), zip(d64, v2, v6), zip(d64, v3, v7);
  store(0, v0), store(4, v1), store(2, v2), store(6, v3);
  store(1, v4), store(5, v5), store(3, v6), store(7, v7);
}

// Transposes the 16x16 bytes that load(i) gives as row i; store(j, v) gets
// column j. Vectors of d8 wider than 16 bytes transpose a tile per 128-bit
// block. Rounds of zips of vi and vi+2^s on lanes of 2^s bytes leave column
// j in v[bit-reversed j]. Named vectors, not an array: scalable vectors cannot
// be array elements.
template <class D8, class Load, class Store>
HWY_INLINE void transpose_tile8(D8 d8, const Load& load, const Store& store) {
  const hn::Repartition<uint16_t, decltype(d8)> d16;
  const hn::Repartition<uint32_t, decltype(d8)> d32;
  const hn::Repartition<uint64_t, decltype(d8)> d64;
  auto v0 = load(0), v1 = load(1), v2 = load(2), v3 = load(3);
  auto v4 = load(4), v5 = load(5), v6 = load(6), v7 = load(7);
  auto v8 = load(8), v9 = load(9), v10 = load(10), v11 = load(11);
  auto v12 = load(12), v13 = load(13), v14 = load(14), v15 = load(15);
  zip(d8, v0, v1), zip(d8, v2, v3), zip(d8, v4, v5), zip(d8, v6, v7);
  zip(d8, v8, v9), zip(d8, v10, v11), zip(d8, v12, v13), zip(d8, v14, v15);
  zip(d16, v0, v2), zip(d16, v1, v3), zip(d16, v4, v6), zip(d16, v5, v7);
  zip(d16, v8, v10), zip(d16, v9, v11), zip(d16, v12, v14), zip(d16, v13, v15);
  zip(d32, v0, v4), zip(d32, v1, v5), zip(d32, v2, v6), zip(d32, v3, v7);
  zip(d32, v8, v12), zip(d32, v9, v13), zip(d32, v10, v14), zip(d32, v11, v15);
  zip(d64, v0, v8), zip(d64, v1, v9), zip(d64, v2, v10), zip(d64, v3, v11);
  zip(d64, v4, v12), zip(d64, v5, v13), zip(d64, v6, v14), zip(d64, v7, v15);
  store(0, v0), store(8, v1), store(4, v2), store(12, v3);
  store(2, v4), store(10, v5), store(6, v6), store(14, v7);
  store(1, v8), store(9, v9), store(5, v10), store(13, v11);
  store(3, v12), store(11, v13), store(7, v14), store(15, v15);
}

// A tile of either sample size.
template <class D, class Load, class Store>
HWY_INLINE void transpose_tile(D d, const Load& load, const Store& store) {
  if constexpr (sizeof(hn::TFromD<D>) == 1)
    transpose_tile8(d, load, store);
  else
    transpose_tile16(d, load, store);
}

// Fetches the line 3 cache lines after p into the cache: a hint, so the
// address is an integer (it may lie past the plane's last row).
HWY_INLINE void prefetch_ahead(const uint8_t* p) {
  hwy::Prefetch(
      reinterpret_cast<const uint8_t*>(reinterpret_cast<uintptr_t>(p) + 192));
}

// Rows y0 .. y0 + rows - 1 of a plane, column-major in `lines`: column x is
// the line at lines + x * pitch(), its lane r row y0 + r. The lines hold
// values (10-bit ones without the words' other bits, and shifted down).
template <class S>
struct Strip {
  static constexpr int kT = kTileOf<S>;
  const Plane& plane;
  S* lines;
  int y0, rows;

  // The lanes of a vector of S: a constant where vectors have a fixed size,
  // so that the transposes address the lines with immediate offsets.
  static ptrdiff_t pitch() {
    return ptrdiff_t(hn::Lanes(hn::ScalableTag<S>()));
  }

  // Whether columns c .. c + kT - 1 go through vectors: they must all exist,
  // and with step 2 samples so must the other channel's sample after them,
  // which is loaded.
  bool whole(int c) const {
    return plane.step == int(sizeof(S)) ? c + kT <= plane.width
                                        : c + kT < plane.width;
  }

  // Whether columns c .. c + kT - 1 go through load_whole and store_whole:
  // one sample per step, every tile whole.
  bool tiles_whole(int c) const {
    return plane.step == int(sizeof(S)) && rows % kT == 0 &&
           c + kT <= plane.width;
  }

  // Transposes columns c .. c + kT - 1 (those that exist) into the lines.
  HWY_INLINE void load(int c) const {
    if (tiles_whole(c))
      load_whole(c);
    else
      load_any(c);
  }

  // Transposes the lines of columns c .. c + kT - 1 (those that exist) back.
  HWY_INLINE void store(int c) const {
    if (tiles_whole(c))
      store_whole(c);
    else
      store_any(c);
  }

  // load and store where tiles_whole(c), the usual case, without a clamp or
  // a test per row. The fields are read into locals first: stores of bytes
  // may alias them, which would have them read again after each store.
  HWY_INLINE void load_whole(int c) const {
    const hn::FixedTag<S, kT> d;
    const ptrdiff_t n = pitch(), stride = plane.stride;
    const int strip_rows = rows, lsb = plane.lsb, depth = plane.bit_depth;
    const auto max = hn::Set(d, S(plane.max_value()));
    const uint8_t* top = &plane.at(c, y0);
    S* const left = lines + c * n;
    // As in load_any: more streams than hardware prefetchers follow.
    const bool prefetch = (c * int(sizeof(S))) % 64 == 0;
    for (int g = 0; g < strip_rows; g += kT) {
      const uint8_t* in = top + g * stride;
      S* out = left + g;
      if (prefetch)
        for (int r = 0; r < kT; r++) prefetch_ahead(in + r * stride);
      transpose_tile(
          d,
          [&](int r) {
            const auto v =
                hn::LoadU(d, reinterpret_cast<const S*>(in + r * stride));
            if constexpr (sizeof(S) == 1)
              return v;
            else
              return word_values(v, lsb, depth, max);
          },
          [&](int x, auto v) { hn::Store(v, d, out + x * n); });
    }
  }
  HWY_INLINE void store_whole(int c) const {
    const hn::FixedTag<S, kT> d;
    const ptrdiff_t n = pitch(), stride = plane.stride;
    const int strip_rows = rows, lsb = plane.lsb;
    uint8_t* top = &plane.at(c, y0);
    const S* const left = lines + c * n;
    for (int g = 0; g < strip_rows; g += kT) {
      uint8_t* out = top + g * stride;
      const S* in = left + g;
      transpose_tile(
          d, [&](int x) { return hn::Load(d, in + x * n); },
          [&](int r, auto v) {
            if constexpr (sizeof(S) == 2) v = hn::ShiftLeftSame(v, lsb);
            hn::StoreU(v, d, reinterpret_cast<S*>(out + r * stride));
          });
    }
  }

  HWY_NOINLINE void load_any(int c) const {
    const hn::FixedTag<S, kT> d;
    const ptrdiff_t n = pitch();
    const int cols = std::min(kT, plane.width - c);
    const auto max = hn::Set(d, S(plane.max_value()));
    const auto value = [&](hn::VFromD<decltype(d)> v) {
      if constexpr (sizeof(S) == 1)
        return v;
      else
        return word_values(v, plane.lsb, plane.bit_depth, max);
    };
    for (int g = 0; g < rows; g += kT) {
      const int last = std::min(kT, rows - g) - 1;
      S* out = lines + c * n + g;
      if (!whole(c)) {
        for (int r = 0; r <= last; r++)
          for (int x = 0; x < cols; x++)
            out[x * n + r] = S(sample_value<S>(plane, c + x, y0 + g + r));
        continue;
      }
      // Rows past the strip repeat its last row; their lanes go unused.
      const uint8_t* in = &plane.at(c, y0 + g);
      const auto row = [&](int r) {
        return reinterpret_cast<const S*>(in +
                                          std::min(r, last) * plane.stride);
      };
      // A strip reads as many streams as it has rows (64 with AVX-512), more
      // than hardware prefetchers follow: fetch each row 3 cache lines ahead.
      if ((c * plane.step) % 64 == 0)
        for (int r = 0; r <= last; r++) prefetch_ahead(in + r * plane.stride);
      if (plane.step == int(sizeof(S))) {
        transpose_tile(
            d, [&](int r) { return value(hn::LoadU(d, row(r))); },
            [&](int x, auto v) { hn::Store(v, d, out + x * n); });
        continue;
      }
      // Step 2 samples: the even columns of two tiles' halves.
      for (int half = 0; half < 2; half++)
        transpose_tile(
            d, [&](int r) { return value(hn::LoadU(d, row(r) + half * kT)); },
            [&](int x, auto v) {
              if (x % 2 == 0)
                hn::Store(v, d, out + (half * kT / 2 + x / 2) * n);
            });
    }
  }

  HWY_NOINLINE void store_any(int c) const {
    const hn::FixedTag<S, kT> d;
    const ptrdiff_t n = pitch();
    const int cols = std::min(kT, plane.width - c);
    const auto word = [&](hn::VFromD<decltype(d)> v) {
      if constexpr (sizeof(S) == 1)
        return v;
      else
        return hn::ShiftLeftSame(v, plane.lsb);
    };
    for (int g = 0; g < rows; g += kT) {
      const int count = std::min(kT, rows - g);
      const S* in = lines + c * n + g;
      if (!whole(c)) {
        for (int r = 0; r < count; r++)
          for (int x = 0; x < cols; x++)
            set_sample_value<S>(plane, c + x, y0 + g + r, in[x * n + r]);
        continue;
      }
      uint8_t* out = &plane.at(c, y0 + g);
      const auto row = [&](int r) {
        return reinterpret_cast<S*>(out + r * plane.stride);
      };
      const auto column = [&](int x) { return hn::Load(d, in + x * n); };
      if (plane.step == int(sizeof(S))) {
        transpose_tile(d, column, [&](int r, auto v) {
          if (r < count) hn::StoreU(word(v), d, row(r));
        });
      } else {
        transpose_tile(d, column, [&](int r, auto v) {
          if (r >= count) return;
          v = word(v);
          store_even(d, hn::InterleaveLower(d, v, v), 0, row(r));
          store_even(d, hn::InterleaveUpper(d, v, v), 0, row(r) + kT);
        });
      }
    }
  }
};

#if !HWY_HAVE_SCALABLE
// A vector whose 128-bit block b holds the 16 bytes at row(first + kT b),
// kT the rows of a tile of its samples (its lanes per block).
template <class D, class Row>
HWY_INLINE hn::VFromD<D> load_blocks(D d, const Row& row, int first) {
  if constexpr (hn::MaxLanes(D()) * sizeof(hn::TFromD<D>) <= 16) {
    return hn::LoadU(d, row(first));
  } else {
    const hn::Half<D> dh;
    return hn::Combine(d, load_blocks(dh, row, first + int(hn::MaxLanes(dh))),
                       load_blocks(dh, row, first));
  }
}

// put(first + kT b, block b of v) for each 128-bit block b of v.
template <class D, class Put>
HWY_INLINE void store_blocks(D, hn::VFromD<D> v, const Put& put, int first) {
  if constexpr (hn::MaxLanes(D()) * sizeof(hn::TFromD<D>) <= 16) {
    put(first, v);
  } else {
    const hn::Half<D> dh;
    store_blocks(dh, hn::LowerHalf(dh, v), put, first);
    store_blocks(dh, hn::UpperHalf(dh, v), put, first + int(hn::MaxLanes(dh)));
  }
}

// Pass 1 on windows of 16 columns (mode=vp9 at block sizes 8 and 16, and
// 10-bit mode=h264), one sample per step: a strip of rows runs as windows,
// each transposed into lines (a vector's block b taking rows kT b .., kT
// the rows of a tile: 16 of 8-bit samples, 8 of 16-bit ones, a window then
// being two tiles wide), its edges filtered in order and transposed back
// while in L1, without the strip's buffer of whole rows. A window starts
// `lead` columns before its first edge (8 for VP9's 16-wide filter, whose
// reach is 8, else 4), or 16 columns before the plane's end where that is
// nearer, and holds the edges whose reach ends within it: one at block size
// 16, two at 8, three at 4. Windows go left to right, and the next starts
// where the last one's edges stop reaching, so a window reloads what an
// earlier one stored where they overlap (at block size 4, 4 columns). Needs
// plane.width >= 16. 10-bit rows are written whole (the DSP contract): every
// window is stored back, and the columns outside the windows are rewritten
// as values. kStep 2: one channel of interleaved chroma (P010's), whose
// windows hold both channels' words, 2 x 16 columns: the other channel's are
// transposed along untouched and stored back as they were (the two
// channels never run at once: deblock.h). Its words start a word early in
// the plane's last window (needs plane.width > 16), whose other channel's
// word after the last column may lie past the row.
template <Kind K, class S, int kStep>
HWY_FLATTEN void vertical_windows(const Plane& plane,
                                  const DeblockPlaneParams& pp, int y_begin,
                                  int y_end) {
  const hn::ScalableTag<S> d;
  using V = hn::VFromD<decltype(d)>;
  constexpr int kT = kTileOf<S>, kWords = kTile * kStep;
  const int n = int(hn::Lanes(d)), w = plane.width, b = pp.block_size;
  const int lead = K == Kind::kVp9W16 ? 8 : 4;
  const int edges_end = w - reach(K) + 1;
  const Limits<S> k(pp, plane.bit_depth);
  const V max = hn::Set(d, S(plane.max_value()));
  // The plane's fields as locals: stores through `rows` cannot change them.
  const int lsb = plane.lsb, depth = plane.bit_depth;
  const auto value = [&](V v) {
    if constexpr (sizeof(S) == 1)
      return v;
    else
      return word_values(v, lsb, depth, max);
  };
  // The windows' first column and the column past the last (they leave no
  // gap between them).
  [[maybe_unused]] const int covered_begin = std::min(b - lead, w - kTile);
  [[maybe_unused]] int covered_end = covered_begin;
  for (int y0 = y_begin; y0 < y_end; y0 += n) {
    const int count = std::min(n, y_end - y0);
    // The strip's rows, once per strip (not a clamp and a multiply per load);
    // rows past the strip repeat its last one, their lanes going unused.
    S* rows[hn::MaxLanes(d)];
    for (int r = 0; r < n; r++)
      rows[r] = samples<S>(plane, 0, y0 + std::min(r, count - 1));
    // The window from column x0, with edges at its columns first, first + b,
    // ... below `last`; its words from o before column x0's.
    const auto window = [&](int x0, int first, int last, auto o_constant) {
      constexpr int o = decltype(o_constant)::value;
      covered_end = x0 + kTile;
      const int x = x0 * kStep - o;  // the window's first word in a row
      // As in Strip::load: more streams than prefetchers follow.
      if (x * int(sizeof(S)) % 64 < kWords * int(sizeof(S)))
        for (int r = 0; r < count; r++)
          prefetch_ahead(reinterpret_cast<const uint8_t*>(rows[r] + x));
      // The window's word columns as vectors (not scalable: an array may
      // hold them), which the filter reads and writes in registers; column
      // x0 + c of the plane is word column c kStep + o.
      V cols[kWords];
      for (int t = 0; t < kWords; t += kT) {
        const auto row = [&](int r) { return rows[r] + x + t; };
        transpose_tile(
            d,
            [&](int i) {
              const V v = load_blocks(d, row, i);
              return kStep == 1 ? value(v) : v;
            },
            [&](int j, V v) { cols[t + j] = v; });
      }
      if constexpr (kStep != 1)
        for (int c = 0; c < kTile; c++)
          cols[c * kStep + o] = value(cols[c * kStep + o]);
      bool changed = false;
      for (int c = first; c < last; c += b) {
        const auto at = [&](int i) { return cols[(c + i) * kStep + o]; };
        const auto put = [&](int i, V v) { cols[(c + i) * kStep + o] = v; };
        if constexpr (is_vp9(K)) {
          changed |= vp9_filter_lines<K>(d, at, put, k);
        } else {
          filter_lines<K>(d, at, put, k);
          changed = true;
        }
      }
      if (sizeof(S) == 1 && !changed) return;
      // 10-bit columns back to words (P010's shifted up), once a window.
      if constexpr (sizeof(S) == 2) {
        if (lsb != 0)
          for (int c = 0; c < kTile; c++)
            cols[c * kStep + o] = hn::ShiftLeftSame(cols[c * kStep + o], lsb);
      }
      for (int t = 0; t < kWords; t += kT) {
        const auto put = [&](int r, auto v) {
          if (r < count)
            hn::StoreU(v, hn::DFromV<decltype(v)>(), rows[r] + x + t);
        };
        transpose_tile(
            d, [&](int j) { return cols[t + j]; },
            [&](int i, V v) { store_blocks(d, v, put, i); });
      }
    };
    for (int e = b; e < edges_end;) {
      const int x0 = std::min(e - lead, w - kTile);
      // Edges whose reach ends within the window.
      const int last = std::min(edges_end, x0 + kTile - reach(K) + 1);
      const auto run = [&](auto o) { window(x0, e - x0, last - x0, o); };
      if constexpr (kStep != 1) {
        if (x0 == w - kTile)
          run(std::integral_constant<int, 1>());
        else
          run(std::integral_constant<int, 0>());
      } else {
        run(std::integral_constant<int, 0>());
      }
      e += (last - e + b - 1) / b * b;
    }
    if constexpr (sizeof(S) == 2) {
      const auto rewrite = [&](int x_begin, int x_end) {
        for (int r = 0; r < count; r++)
          for (int x = x_begin; x < x_end; x++)
            set_sample_value<S>(plane, x, y0 + r,
                                sample_value<S>(plane, x, y0 + r));
      };
      rewrite(0, covered_begin);
      rewrite(covered_end, w);
    }
  }
}
#endif  // !HWY_HAVE_SCALABLE

template <Kind K, class S>
void vertical_edges_kind(const Plane& plane, const DeblockPlaneParams& pp,
                         int y_begin, int y_end) {
#if !HWY_HAVE_SCALABLE
  // mode=h264 at 8 bits keeps the strips: its strong luma filter runs half
  // vectors (LineTag), and a strip's 16x16 byte tiles cost no more.
  constexpr bool kWindows =
      K == Kind::kVp9W8 || K == Kind::kVp9W16 || (sizeof(S) == 2 && !is_vp9(K));
  if constexpr (kWindows) {
    if (plane.step == int(sizeof(S)) && plane.width >= kTile)
      return vertical_windows<K, S, 1>(plane, pp, y_begin, y_end);
    // 10-bit interleaved chroma too (8-bit keeps the strips).
    if constexpr (sizeof(S) == 2) {
      if (plane.step == 2 * int(sizeof(S)) && plane.width > kTile)
        return vertical_windows<K, S, 2>(plane, pp, y_begin, y_end);
    }
  }
#endif
  using DK = LineTag<K, S>;
  const DK dk;
  constexpr int kT = kTileOf<S>;
  const ptrdiff_t n = ptrdiff_t(hn::Lanes(hn::ScalableTag<S>()));
  const ptrdiff_t nk = ptrdiff_t(hn::Lanes(dk));
  const int w = plane.width, b = pp.block_size;
  const int edges_end = w - reach(K) + 1;
  // 10-bit rows are written whole even without an edge (the DSP contract).
  if (y_begin >= y_end || w == 0 || (sizeof(S) == 1 && b >= edges_end)) return;
  const Limits<S> k(pp, plane.bit_depth);
  const hwy::AlignedFreeUniquePtr<S[]> lines =
      hwy::AllocateAligned<S>(size_t(n) * w);

  for (int y0 = y_begin; y0 < y_end; y0 += int(n)) {
    const Strip<S> strip{plane, lines.get(), y0, std::min(int(n), y_end - y0)};
    // Tiles go in, edges are filtered and tiles come out a tile behind.
    int next_edge = b, stored = 0;
    for (int c = 0; c < w; c += kT) {
      strip.load(c);
      const int avail = c + kT >= w ? w : c;  // columns safe to filter
      const int end = std::min(edges_end, avail - reach(K) + 1);
      if (next_edge < end) {
        for (ptrdiff_t lane = 0; lane < n; lane += nk)
          filter_edges<K>(dk, strip.lines + lane, n, next_edge, end, b, k,
                          AllLanes());
        next_edge += (end - next_edge + b - 1) / b * b;
      }
      // Loaded columns left of the next edge's p2 (or p0) are final.
      const int done = next_edge >= edges_end ? std::min(w, c + kT)
                                              : next_edge - reach(K) + 1;
      for (; stored < done && (stored + kT <= done || done == w); stored += kT)
        strip.store(stored);
    }
  }
}

#else  // HWY_SCALAR: one lane, so each row is filtered in place.

template <Kind K, class S>
void vertical_edges_kind(const Plane& plane, const DeblockPlaneParams& pp,
                         int y_begin, int y_end) {
  using D = LineTag<K, S>;
  const D d;
  const int b = pp.block_size, edges_end = plane.width - reach(K) + 1;
  const Limits<S> k(pp, plane.bit_depth);
  for (int y = y_begin; y < y_end; y++) {
    // A 10-bit row is written whole (the DSP contract).
    if constexpr (sizeof(S) == 2)
      for (int x = 0; x < plane.width; x++)
        set_sample_value<S>(plane, x, y, sample_value<S>(plane, x, y));
    filter_edges<K>(d, samples<S>(plane, 0, y), plane.step / int(sizeof(S)), b,
                    edges_end, b, k, plane_lanes<S>(plane, AllLanes()));
  }
}

#endif  // HWY_TARGET != HWY_SCALAR

// Calls fn with the plane's filter kind as a compile-time constant: one choice
// per call, none per edge.
template <class Fn>
void with_kind(const DeblockPlaneParams& pp, const Fn& fn) {
  if (pp.mode == DeblockMode::Vp9) {
    if (pp.block_size == 16)
      return fn(std::integral_constant<Kind, Kind::kVp9W16>());
    if (pp.block_size == 8)
      return fn(std::integral_constant<Kind, Kind::kVp9W8>());
    return fn(std::integral_constant<Kind, Kind::kVp9W4>());
  }
  if (pp.chroma_filter) {
    if (pp.bs < 4)
      return fn(std::integral_constant<Kind, Kind::kChromaNormal>());
    return fn(std::integral_constant<Kind, Kind::kChromaStrong>());
  }
  if (pp.bs < 4) return fn(std::integral_constant<Kind, Kind::kLumaNormal>());
  return fn(std::integral_constant<Kind, Kind::kLumaStrong>());
}

template <class S>
void vertical_edges(const Plane& plane, const DeblockPlaneParams& pp,
                    int y_begin, int y_end) {
  with_kind(pp, [&](auto kind) {
    vertical_edges_kind<kind(), S>(plane, pp, y_begin, y_end);
  });
}

template <class S>
void horizontal_edges(const Plane& plane, const DeblockPlaneParams& pp,
                      int x_begin, int x_end) {
  with_kind(pp, [&](auto kind) {
    horizontal_edges_kind<kind(), S>(plane, pp, x_begin, x_end);
  });
}

}  // namespace

// The DSP entries, per sample size.
void VerticalEdges(const Plane& plane, const DeblockPlaneParams& pp,
                   int y_begin, int y_end) {
  vertical_edges<uint8_t>(plane, pp, y_begin, y_end);
}
void HorizontalEdges(const Plane& plane, const DeblockPlaneParams& pp,
                     int x_begin, int x_end) {
  horizontal_edges<uint8_t>(plane, pp, x_begin, x_end);
}
void VerticalEdgesHbd(const Plane& plane, const DeblockPlaneParams& pp,
                      int y_begin, int y_end) {
  vertical_edges<uint16_t>(plane, pp, y_begin, y_end);
}
void HorizontalEdgesHbd(const Plane& plane, const DeblockPlaneParams& pp,
                        int x_begin, int x_end) {
  horizontal_edges<uint16_t>(plane, pp, x_begin, x_end);
}

}  // namespace HWY_NAMESPACE
}  // namespace daedalus
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace daedalus {

HWY_EXPORT(VerticalEdges);
HWY_EXPORT(HorizontalEdges);
HWY_EXPORT(VerticalEdgesHbd);
HWY_EXPORT(HorizontalEdgesHbd);

void deblock_dsp_init_simd(DeblockDsp* dsp) {
  dsp->vertical_edges = simd_dispatch(HWY_DISPATCH_TABLE(VerticalEdges));
  dsp->horizontal_edges = simd_dispatch(HWY_DISPATCH_TABLE(HorizontalEdges));
  dsp->vertical_edges_hbd = simd_dispatch(HWY_DISPATCH_TABLE(VerticalEdgesHbd));
  dsp->horizontal_edges_hbd =
      simd_dispatch(HWY_DISPATCH_TABLE(HorizontalEdgesHbd));
}

}  // namespace daedalus
#endif  // HWY_ONCE
