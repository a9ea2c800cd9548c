// The Highway implementations of CDEF's leaves (daedalus/cdef.h: staging,
// direction search, block filters), which cdef_apply.cc's frame loop drives;
// bit-exact with cdef_ref.cc.
//
// The frame loop stages a chunk of up to kCdefChunk blocks of a block row as
// 16 bits, samples outside the plane as kCdefUnavailable. The direction
// search runs on one block per 128-bit lane. For the filter, each block (and
// one on either side) is laid out as its rows [-2, rows + 2), one row per
// 128 bits: a luma row of 8, or the same chroma row of U and V interleaved
// (4 + 4, 4:2:0 and 4:2:2). A vector then holds whole rows of one block, and
// a tap is one load when dx = 0, otherwise two (the block and its neighbour)
// and a byte shift within 128-bit lanes, which is why the filter is compiled
// once per direction (and per tap kind). The blocks of a chunk are filtered
// grouped by that function.
//
// The direction search is in cdef_dir_simd-inl.h. On AVX3 CPUs with byte
// permutes and dot products, the 8-bit filters are those of the byte island
// (cdef_bytes_avx512-inl.h) instead. On NEON, 8-bit 8x8 blocks with no
// unavailable sample near them are filtered in byte lanes (filter_block8).
//
// 10-bit frames (16-bit samples) take the same path: their values are staged
// as they are, and only the staging, the direction search (on the top 8
// bits), the strengths and the stores differ, by template parameters S (the
// sample type) and kCs (bit depth - 8).
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <utility>

#include "daedalus/cdef.h"
#include "filters/cdef/cdef_bytes.h"
#include "filters/cpu_features.h"
#include "filters/simd_init.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "filters/cdef/cdef_simd.cc"
#include <hwy/cache_control.h>
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
// GCC's scheduling before register allocation (on by default for aarch64,
// off for x86) hoists the filters' dozen independent tap loads and spills
// what they displace: without it the NEON filters execute 6 % fewer
// instructions (tools/insn-count).
#if HWY_ARCH_ARM_A64 && HWY_COMPILER_GCC_ACTUAL
#pragma GCC push_options
#pragma GCC optimize("no-schedule-insns")
#endif
namespace daedalus {
namespace HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR
// Everything below works on 128-bit lanes, which SCALAR lacks: the
// reference's leaves stay in its place.
void CdefInit(CdefDsp*) {}
#define CDEF_BYTE_ISLAND 0
#else

// An unavailable tap holds kCdefUnavailable, 0x8000: the least int16 (signed
// max ignores it) and above every sample as uint16 (unsigned min ignores it).
// Its distance to any sample is 0x8000 - px >= 0x7C01 as uint16 (px <= 1023),
// and 0x7C01 >> 8 = 124 exceeds every strength (<= 15, 60 at 10 bits), so
// constrain() gives 0 for every shift <= 8 (damping <= 6 + 2 minus
// floor(log2(strength)) >= 0).
static_assert(kCdefUnavailable == 0x8000);

constexpr int kChunk = kCdefChunk;
constexpr int kMaxRows = 12;  // 8 block rows and 2 each side
// Laid-out blocks: the chunk, one either side, and what lay_out_pair writes
// past them.
constexpr int kMaxLaidOut = (kChunk + 8) * kMaxRows * 8;

using DU = hn::CappedTag<uint16_t, 32>;

// AV1 Cdef_Directions (kCdefDirections, usable as template arguments).
constexpr int8_t kDirs[8][2][2] = {
    {{-1, 1}, {-2, 2}}, {{0, 1}, {-1, 2}}, {{0, 1}, {0, 2}}, {{0, 1}, {1, 2}},
    {{1, 1}, {2, 2}},   {{1, 0}, {2, 1}},  {{1, 0}, {2, 0}}, {{1, 0}, {2, -1}},
};

// One block's filter (cdef_filter_block_ref's derived constants).
struct Strength {
  int pri, sec;  // 0: no such taps
  int pri_shift, sec_shift;
  int w0, w1;  // primary weights
};

// pri, sec and damping as shifted for bit depth 8 + cs.
HWY_INLINE Strength make_strength(int pri, int sec, int damping, int cs) {
  auto log2 = [](int v) { return int(std::bit_width(unsigned(v))) - 1; };
  const int w0 = 4 - ((pri >> cs) & 1);
  return {pri,
          sec,
          pri ? std::max(0, damping - log2(pri)) : 0,
          sec ? std::max(0, damping - log2(sec)) : 0,
          w0,
          (w0 & 3) | 2};
}

// ------------------------------------------------------------------ staging

// The values of the 16-bit samples [xa, xb) of row y.
void widen_words(const ConstPlane& p, int y, int xa, int xb,
                 uint16_t* HWY_RESTRICT out) {
  const DU d;
  const int n = xb - xa, N = int(hn::Lanes(d));
  const uint16_t max = uint16_t(p.max_value());
  const int lsb = p.lsb;
  const auto mask = hn::Set(d, max);
  const uint8_t* s = &p.at(xa, y);
  auto value = [&](auto word) HWY_ATTR {
    return hn::And(hn::ShiftRightSame(word, lsb), mask);
  };
  int i = 0;
  if (p.step == 2) {
    if (n >= N) {
      const uint16_t* w = reinterpret_cast<const uint16_t*>(s);
      for (; i + N <= n; i += N)
        hn::StoreU(value(hn::LoadU(d, w + i)), d, out + i);
      if (i < n) hn::StoreU(value(hn::LoadU(d, w + n - N)), d, out + n - N);
      return;
    }
  } else if (p.step == 4) {
    // As widen_row's interleaved bytes, in words.
    const uint16_t* w = reinterpret_cast<const uint16_t*>(s);
    hn::Vec<DU> even, odd;
    for (; i + N < n; i += N) {
      hn::LoadInterleaved2(d, w + 2 * i, even, odd);
      hn::StoreU(value(even), d, out + i);
    }
  }
  for (; i < n; i++) out[i] = uint16_t(sample_value<uint16_t>(p, xa + i, y));
}

// Samples [xa, xb) of row y, widened (10-bit ones: their values).
template <class S>
void widen_row(const ConstPlane& p, int y, int xa, int xb,
               uint16_t* HWY_RESTRICT out) {
  if constexpr (sizeof(S) == 2) {
    widen_words(p, y, xa, xb, out);
    return;
  }
  const DU d;
  const hn::Rebind<uint8_t, DU> d8;
  const int n = xb - xa, N = int(hn::Lanes(d));
  const uint8_t* s = &p.at(xa, y);
  int i = 0;
  if (p.step == 1) {
    if (n >= N) {
#if HWY_TARGET == HWY_NEON
      // 16 samples a load, widened by uxtl and uxtl2 (x86 folds each load
      // of 8 into its widening instead).
      for (; i + 16 <= n; i += 16) {
        const uint8x16_t b = vld1q_u8(s + i);
        vst1q_u16(out + i, vmovl_u8(vget_low_u8(b)));
        vst1q_u16(out + i + 8, vmovl_high_u8(b));
      }
#endif
      for (; i + N <= n; i += N)
        hn::StoreU(hn::PromoteTo(d, hn::LoadU(d8, s + i)), d, out + i);
      if (i < n)
        hn::StoreU(hn::PromoteTo(d, hn::LoadU(d8, s + n - N)), d, out + n - N);
      return;
    }
  } else if (p.step == 2) {
    // The loads also read the other channel's byte after each sample; the
    // last sample is left to the scalar loop so that none reads past it.
    hn::Vec<decltype(d8)> even, odd;
    for (; i + N < n; i += N) {
      hn::LoadInterleaved2(d8, s + 2 * i, even, odd);
      hn::StoreU(hn::PromoteTo(d, even), d, out + i);
    }
  }
  for (; i < n; i++) out[i] = s[i * p.step];
}

// Columns [x, x + n) of rows [y, y + rows) of `p`, row r at out + r pitch,
// samples outside the plane as kCdefUnavailable.
template <class S>
void stage(const ConstPlane& p, int x, int y, int n, int rows, int pitch,
           uint16_t* HWY_RESTRICT out) {
  const int xa = std::clamp(x, 0, p.width), xb = std::clamp(x + n, 0, p.width);
  for (int r = 0; r < rows; r++, out += pitch) {
    if (y + r < 0 || y + r >= p.height || xa >= xb) {
      std::fill(out, out + n, kCdefUnavailable);
      continue;
    }
    std::fill(out, out + (xa - x), kCdefUnavailable);
    std::fill(out + (xb - x), out + n, kCdefUnavailable);
    widen_row<S>(p, y + r, xa, xb, out + (xa - x));
  }
}

// v_k holds row k of R = Lanes(d) / 8 (1, 2 or 4) consecutive blocks, one
// per 128-bit lane; afterwards v_k holds rows 0..R-1 of block k.
template <class D, class V>
HWY_INLINE void transpose_blocks(D d, V& v0, V& v1, V& v2, V& v3) {
  const size_t R = hn::Lanes(d) / 8;
  if (R == 2) {
    const V w0 = hn::ConcatLowerLower(d, v1, v0);
    v1 = hn::ConcatUpperUpper(d, v1, v0);
    v0 = w0;
  } else if (R == 4) {
    const V t0 = hn::OddEvenBlocks(hn::SwapAdjacentBlocks(v1), v0);
    const V t1 = hn::OddEvenBlocks(v1, hn::SwapAdjacentBlocks(v0));
    const V t2 = hn::OddEvenBlocks(hn::SwapAdjacentBlocks(v3), v2);
    const V t3 = hn::OddEvenBlocks(v3, hn::SwapAdjacentBlocks(v2));
    v0 = hn::ConcatLowerLower(d, t2, t0);
    v1 = hn::ConcatLowerLower(d, t3, t1);
    v2 = hn::ConcatUpperUpper(d, t2, t0);
    v3 = hn::ConcatUpperUpper(d, t3, t1);
  }
}

// Lays out n blocks of a staged chunk, block j from staged columns
// [8 j, 8 j + 8): its `rows` rows of 8 from out + j rows 8 (and up to 3
// blocks more, from the staged row's padding).
void lay_out(const uint16_t* HWY_RESTRICT staged, int pitch, int rows, int n,
             uint16_t* HWY_RESTRICT out) {
  const DU d;
  const int R = int(hn::Lanes(d)) / 8, block = rows * 8;
  for (int j = 0; j < n; j += R) {
    for (int r = 0; r < rows; r += R) {
      const uint16_t* s = staged + r * pitch + 8 * j;
      auto v0 = hn::LoadU(d, s), v1 = v0, v2 = v0, v3 = v0;
      if (R > 1) v1 = hn::LoadU(d, s + pitch);
      if (R > 2) v2 = hn::LoadU(d, s + 2 * pitch);
      if (R > 2) v3 = hn::LoadU(d, s + 3 * pitch);
      transpose_blocks(d, v0, v1, v2, v3);
      uint16_t* o = out + j * block + r * 8;
      hn::Store(v0, d, o);
      if (R > 1) hn::Store(v1, d, o + block);
      if (R > 2) hn::Store(v2, d, o + 2 * block);
      if (R > 2) hn::Store(v3, d, o + 3 * block);
    }
  }
}

// The same for two staged chroma chunks, block j from columns [4 j, 4 j + 4)
// of U and of V, interleaved (and up to 7 blocks more).
void lay_out_pair(const uint16_t* HWY_RESTRICT u,
                  const uint16_t* HWY_RESTRICT v, int pitch, int rows, int n,
                  uint16_t* HWY_RESTRICT out) {
  const DU d;
  const int R = int(hn::Lanes(d)) / 8, block = rows * 8;
  for (int j = 0; j < n; j += 2 * R) {
    for (int r = 0; r < rows; r += R) {
      // Per 128-bit lane m: blocks j + 2 m (lower) and j + 2 m + 1 (upper).
      const uint16_t* su = u + r * pitch + 4 * j;
      const uint16_t* sv = v + r * pitch + 4 * j;
      auto u0 = hn::LoadU(d, su), u1 = u0, u2 = u0, u3 = u0;
      auto v0 = hn::LoadU(d, sv), v1 = v0, v2 = v0, v3 = v0;
      if (R > 1) u1 = hn::LoadU(d, su + pitch), v1 = hn::LoadU(d, sv + pitch);
      if (R > 2) {
        u2 = hn::LoadU(d, su + 2 * pitch), v2 = hn::LoadU(d, sv + 2 * pitch);
        u3 = hn::LoadU(d, su + 3 * pitch), v3 = hn::LoadU(d, sv + 3 * pitch);
      }
      auto e0 = hn::InterleaveLower(d, u0, v0);
      auto e1 = hn::InterleaveLower(d, u1, v1);
      auto e2 = hn::InterleaveLower(d, u2, v2);
      auto e3 = hn::InterleaveLower(d, u3, v3);
      auto o0 = hn::InterleaveUpper(d, u0, v0);
      auto o1 = hn::InterleaveUpper(d, u1, v1);
      auto o2 = hn::InterleaveUpper(d, u2, v2);
      auto o3 = hn::InterleaveUpper(d, u3, v3);
      transpose_blocks(d, e0, e1, e2, e3);
      transpose_blocks(d, o0, o1, o2, o3);
      uint16_t* o = out + j * block + r * 8;
      hn::Store(e0, d, o), hn::Store(o0, d, o + block);
      if (R > 1) hn::Store(e1, d, o + 2 * block);
      if (R > 1) hn::Store(o1, d, o + 3 * block);
      if (R > 2) {
        hn::Store(e2, d, o + 4 * block), hn::Store(o2, d, o + 5 * block);
        hn::Store(e3, d, o + 6 * block), hn::Store(o3, d, o + 7 * block);
      }
    }
  }
}

// --------------------------------------------------------- direction search

#include "filters/cdef/cdef_dir_simd-inl.h"

// ------------------------------------------------------------------- filter

// The samples at (dy, dx) from those of the vector at p, in a layout of kRows
// rows (and 2 each side) of 8 lanes per block, kColBytes per column.
template <int kDy, int kDx, int kColBytes, int kRows, class D>
HWY_INLINE hn::Vec<D> load_tap(D d, const uint16_t* HWY_RESTRICT p) {
  constexpr int kBlock = (kRows + 4) * 8;
  const uint16_t* q = p + kDy * 8;
  if constexpr (kDx > 0) {
    return hn::CombineShiftRightBytes<kDx * kColBytes>(
        d, hn::LoadU(d, q + kBlock), hn::LoadU(d, q));
  } else if constexpr (kDx < 0) {
    return hn::CombineShiftRightBytes<16 + kDx * kColBytes>(
        d, hn::LoadU(d, q), hn::LoadU(d, q - kBlock));
  } else {
    return hn::LoadU(d, q);
  }
}

// constrain(tap - px, strength, shift) of tap k (sign +-1) of direction kDir;
// with kClip, the tap joins the min/max.
template <int kDir, int kK, int kSign, bool kClip, int kColBytes, int kRows,
          class D, class V = hn::Vec<D>,
          class VI = hn::Vec<hn::RebindToSigned<D> > >
HWY_INLINE VI tap(D d, const uint16_t* HWY_RESTRICT p, V px, V strength,
                  int shift, V& lo, VI& hi) {
  const hn::RebindToSigned<D> di;
  const V v = load_tap<kSign * kDirs[kDir][kK][0], kSign * kDirs[kDir][kK][1],
                       kColBytes, kRows>(d, p);
  if constexpr (kClip) {
    lo = hn::Min(lo, v);
    hi = hn::Max(hi, hn::BitCast(di, v));
  }
  const VI diff = hn::BitCast(di, hn::Sub(v, px));
  const V dist = hn::BitCast(d, hn::Abs(diff));
  const VI limit = hn::BitCast(
      di, hn::SaturatedSub(strength, hn::ShiftRightSame(dist, shift)));
  return hn::Min(hn::Max(diff, hn::Neg(limit)), limit);
}

// The laid-out blocks of a CdefBlocks call and where they go: block j's
// layout at laid + (j + 1) kBlock, its first destination row at dst[0] +
// kW j step[0] (and of V, for an interleaved pair); lsb: of 16-bit samples.
struct Sink {
  const uint16_t* laid;
  const uint8_t* pri;  // per block
  uint8_t* dst[2];
  ptrdiff_t stride[2];
  int step[2];
  int lsb = 0;
  int sec = 0, damping = 0;
  CdefAhead* ahead = nullptr;
};

// Rows of kW samples of type S from v (rows of kW) to o.
template <int kW, class S>
HWY_INLINE void put_rows(const S* HWY_RESTRICT v, int rows, uint8_t* o,
                         ptrdiff_t stride, int step) {
  for (int r = 0; r < rows; r++, o += stride, v += kW) {
    if (step == int(sizeof(S))) {
      std::memcpy(o, v, kW * sizeof(S));
    } else {
      for (int c = 0; c < kW; c++) std::memcpy(o + c * step, v + c, sizeof(S));
    }
  }
}

// v's lanes, rows of kRowBytes, to o, o + stride, ...: straight from the
// register, a row at a time.
template <size_t kRowBytes, class D>
HWY_INLINE void store_rows(D d, hn::Vec<D> v, uint8_t* o, ptrdiff_t stride) {
  using T = hn::TFromD<D>;
  constexpr size_t kBytes = hn::MaxLanes(D()) * sizeof(T);
  if constexpr (kBytes <= kRowBytes) {
    hn::StoreU(v, d, reinterpret_cast<T*>(o));
  } else {
    const hn::Half<D> dh;
    constexpr ptrdiff_t kHalfRows = kBytes / kRowBytes / 2;
    store_rows<kRowBytes>(dh, hn::LowerHalf(dh, v), o, stride);
    store_rows<kRowBytes>(dh, hn::UpperHalf(dh, v), o + kHalfRows * stride,
                          stride);
  }
}

// v's samples, rows of kW, to rows from o: from the register where a row's
// samples are contiguous (and the vector's size known), else through memory.
template <int kW, class D>
HWY_INLINE void put_vector_rows(D d, hn::Vec<D> v, uint8_t* o, ptrdiff_t stride,
                                int step) {
  using S = hn::TFromD<D>;
#if !HWY_HAVE_SCALABLE
  if (step == int(sizeof(S))) {
    store_rows<kW * sizeof(S)>(d, v, o, stride);
    return;
  }
#endif
  alignas(64) S buf[HWY_MAX_BYTES / sizeof(S)];
  hn::Store(v, d, buf);
  put_rows<kW>(buf, int(hn::Lanes(d)) / kW, o, stride, step);
}

// res (values 0..max) as samples of type S, shifted left by lsb.
template <class S, class D, class V>
HWY_INLINE auto to_samples(D d, V res, int lsb) {
  if constexpr (sizeof(S) == 1) {
    return hn::DemoteTo(hn::Rebind<uint8_t, D>(), res);
  } else if constexpr (sizeof(hn::TFromD<D>) == 2) {  // already 16 bits
    return hn::ShiftLeftSame(hn::BitCast(hn::RebindToUnsigned<D>(), res), lsb);
  } else {
    return hn::ShiftLeftSame(hn::DemoteTo(hn::Rebind<uint16_t, D>(), res), lsb);
  }
}

// Writes the filtered rows [row, row + lanes / 8) of a block to rows from
// out[0] (and out[1]).
template <int kColBytes, class S, class D, class VI>
HWY_INLINE void store_result(D d, VI res, int row, uint8_t* const* out,
                             const Sink& sink) {
  // Samples of type S, a lane each of the result's lanes (of U's or V's).
  auto put = [&](auto ds, auto v, int p) HWY_ATTR {
    put_vector_rows<kColBytes == 2 ? 8 : 4>(
        ds, v, out[p] + row * sink.stride[p], sink.stride[p], sink.step[p]);
  };
  if constexpr (kColBytes == 2) {
    put(hn::Rebind<S, D>(), to_samples<S>(d, res, sink.lsb), 0);
  } else if constexpr (!HWY_HAVE_SCALABLE && hn::MaxLanes(D()) == 8) {
    // One row of U and V interleaved: its samples' even and odd lanes.
    const hn::Rebind<S, D> ds;
    const hn::Half<decltype(ds)> dh;
    const auto uv = to_samples<S>(d, res, sink.lsb);
    put(dh, hn::LowerHalf(dh, hn::ConcatEven(ds, uv, uv)), 0);
    put(dh, hn::LowerHalf(dh, hn::ConcatOdd(ds, uv, uv)), 1);
  } else {
    const hn::Repartition<int32_t, D> d32;
    const hn::Rebind<S, decltype(d32)> ds;
    const auto uv = hn::BitCast(d32, res);
    put(ds, to_samples<S>(d32, hn::And(uv, hn::Set(d32, 0xFFFF)), sink.lsb), 0);
    put(ds, to_samples<S>(d32, hn::ShiftRight<16>(uv), sink.lsb), 1);
  }
}

// Filters laid-out block j into the sink. Only with both tap
// kinds can the result leave the range of its taps: with one kind the weights
// add up to 12, and (8 + 12 D) >> 4 <= D for any D >= 1 (the largest
// distance to a tap on the side of the sum), so no clip is needed.
// px + (8 + sum - (sum < 0)) >> 4 (NEON: ssra and srsra, two instructions,
// where Highway 1.0.3 has no rounding shift).
template <class VI>
HWY_INLINE VI add_rounded_sum(VI px, VI sum) {
#if HWY_TARGET == HWY_NEON
  return VI(vrsraq_n_s16(px.raw, vsraq_n_s16(sum.raw, sum.raw, 15), 4));
#else
  const hn::DFromV<VI> di;
  sum = hn::Add(sum, hn::Add(hn::Set(di, 8), hn::ShiftRight<15>(sum)));
  return hn::Add(px, hn::ShiftRight<4>(sum));
#endif
}

template <int kDir, bool kPri, bool kSec, int kColBytes, int kRows, class S>
HWY_INLINE void filter_block(int j, const Sink& sink) {
  constexpr bool kClip = kPri && kSec;
  constexpr int kW = kColBytes == 2 ? 8 : 4, kBlock = (kRows + 4) * 8;
  const uint16_t* const blk = sink.laid + (j + 1) * kBlock;
  uint8_t* const out[2] = {sink.dst[0] + ptrdiff_t(kW) * j * sink.step[0],
                           sink.dst[1] + ptrdiff_t(kW) * j * sink.step[1]};
  constexpr int kD2 = (kDir + 2) & 7, kD6 = (kDir + 6) & 7;
  const DU d;
  const hn::RebindToSigned<DU> di;
  const int N = int(hn::Lanes(d));
  const Strength s = make_strength(sink.pri[j], sink.sec, sink.damping,
                                   sizeof(S) == 1 ? 0 : 2);
  const auto pri = hn::Set(d, uint16_t(s.pri));
  const auto sec = hn::Set(d, uint16_t(s.sec));
  const auto w0 = hn::Set(di, int16_t(s.w0)), w1 = hn::Set(di, int16_t(s.w1));
  const int ps = s.pri_shift, ss = s.sec_shift;
  for (int i = 0; i < kRows * 8; i += N) {
    const uint16_t* p = blk + 16 + i;
    const auto px = hn::LoadU(d, p);
    auto lo = px;
    auto hi = hn::BitCast(di, px);
    auto sum = hn::Zero(di);
#define DAEDALUS_TAP(dir, k, sign, str, shift) \
  tap<dir, k, sign, kClip, kColBytes, kRows>(d, p, px, str, shift, lo, hi)
    if constexpr (kPri) {
      const auto k0 = hn::Add(DAEDALUS_TAP(kDir, 0, 1, pri, ps),
                              DAEDALUS_TAP(kDir, 0, -1, pri, ps));
      const auto k1 = hn::Add(DAEDALUS_TAP(kDir, 1, 1, pri, ps),
                              DAEDALUS_TAP(kDir, 1, -1, pri, ps));
      sum = hn::Add(hn::Mul(k0, w0), hn::Mul(k1, w1));
    }
    if constexpr (kSec) {
      const auto k0 = hn::Add(hn::Add(DAEDALUS_TAP(kD2, 0, 1, sec, ss),
                                      DAEDALUS_TAP(kD2, 0, -1, sec, ss)),
                              hn::Add(DAEDALUS_TAP(kD6, 0, 1, sec, ss),
                                      DAEDALUS_TAP(kD6, 0, -1, sec, ss)));
      const auto k1 = hn::Add(hn::Add(DAEDALUS_TAP(kD2, 1, 1, sec, ss),
                                      DAEDALUS_TAP(kD2, 1, -1, sec, ss)),
                              hn::Add(DAEDALUS_TAP(kD6, 1, 1, sec, ss),
                                      DAEDALUS_TAP(kD6, 1, -1, sec, ss)));
      sum = hn::Add(sum, hn::Add(hn::Add(k0, k0), k1));
    }
#undef DAEDALUS_TAP
    auto res = add_rounded_sum(hn::BitCast(di, px), sum);
    if constexpr (kClip) res = hn::Min(hn::Max(res, hn::BitCast(di, lo)), hi);
    store_result<kColBytes, S>(di, res, i / 8, out, sink);
  }
}

// filter(j, sink) for the blocks j of the bit mask `blocks`.
template <class F>
HWY_INLINE void each_block(uint64_t blocks, const Sink& shared,
                           const F& filter) {
  // A copy, which the stores of samples cannot alias: its fields stay in
  // registers.
  const Sink sink = shared;
  for (; blocks; blocks &= blocks - 1) {
    filter(std::countr_zero(blocks), sink);
    cdef_fetch_ahead(sink.ahead);
  }
}

template <int kDir, bool kPri, bool kSec, int kColBytes, int kRows, class S>
void filter_blocks(uint64_t blocks, const Sink& sink) {
  each_block(blocks, sink, [](int j, const Sink& s) HWY_ATTR {
    filter_block<kDir, kPri, kSec, kColBytes, kRows, S>(j, s);
  });
}

#if HWY_TARGET == HWY_NEON
// 8-bit 8x8 blocks whose taps all lie in the plane, in NEON's byte lanes:
// two rows (16 samples) a vector, half the instructions of 16-bit lanes.
// Without unavailable taps, the constraint and the clip need no sentinel:
// |tap - px| by uabd, the clip by unsigned min and max. Every constrained
// tap is within +-15 and the weighted sum within +-228, so the taps add up
// in bytes, the sum (and its rounding) in 16 bits, and the result, a byte
// again, saturates only outside [0, 255], where the clip (or, with one tap
// kind, the range of the taps) never takes it.

// Rows r and r + 1 of the tap at (dy, dx) from the 16-bit layout, as bytes.
template <int kDy, int kDx>
HWY_INLINE uint8x16_t load_tap8(const uint16_t* HWY_RESTRICT p) {
  const DU d;
  const auto r0 = load_tap<kDy, kDx, 2, 8>(d, p);
  const auto r1 = load_tap<kDy, kDx, 2, 8>(d, p + 8);
  return vuzp1q_u8(vreinterpretq_u8_u16(r0.raw), vreinterpretq_u8_u16(r1.raw));
}

// tap() in bytes.
template <int kDir, int kK, int kSign, bool kClip>
HWY_INLINE int8x16_t tap8(const uint16_t* HWY_RESTRICT p, uint8x16_t px,
                          uint8x16_t strength, int8x16_t shift, uint8x16_t& lo,
                          uint8x16_t& hi) {
  const uint8x16_t v =
      load_tap8<kSign * kDirs[kDir][kK][0], kSign * kDirs[kDir][kK][1]>(p);
  if constexpr (kClip) {
    lo = vminq_u8(lo, v);
    hi = vmaxq_u8(hi, v);
  }
  const uint8x16_t dist = vabdq_u8(v, px);
  const int8x16_t m = vreinterpretq_s8_u8(
      vminq_u8(dist, vqsubq_u8(strength, vshlq_u8(dist, shift))));
  const int8x16_t neg = vreinterpretq_s8_u8(vcltq_u8(v, px));
  return vsubq_s8(veorq_s8(m, neg), neg);
}

// filter_block() of such a block.
template <int kDir, bool kPri, bool kSec>
HWY_INLINE void filter_block8(int j, const Sink& sink) {
  constexpr bool kClip = kPri && kSec;
  constexpr int kBlock = 12 * 8;
  const uint16_t* const blk = sink.laid + (j + 1) * kBlock;
  uint8_t* out = sink.dst[0] + ptrdiff_t(8) * j * sink.step[0];
  const ptrdiff_t stride = sink.stride[0];
  constexpr int kD2 = (kDir + 2) & 7, kD6 = (kDir + 6) & 7;
  const Strength s = make_strength(sink.pri[j], sink.sec, sink.damping, 0);
  const uint8x16_t pri = vdupq_n_u8(uint8_t(s.pri));
  const uint8x16_t sec = vdupq_n_u8(uint8_t(s.sec));
  const int8x16_t ps = vdupq_n_s8(int8_t(-s.pri_shift));
  const int8x16_t ss = vdupq_n_s8(int8_t(-s.sec_shift));
  const int8x16_t w0 = vdupq_n_s8(int8_t(s.w0)), w1 = vdupq_n_s8(int8_t(s.w1));
  for (int r = 0; r < 8; r += 2, out += 2 * stride) {
    const uint16_t* p = blk + 16 + 8 * r;
    const uint8x16_t px = load_tap8<0, 0>(p);
    uint8x16_t lo = px, hi = px;
    int16x8_t sum_lo = vdupq_n_s16(0), sum_hi = sum_lo;
#define DAEDALUS_TAP8(dir, k, sign, str, shift) \
  tap8<dir, k, sign, kClip>(p, px, str, shift, lo, hi)
    if constexpr (kPri) {
      const int8x16_t k0 = vaddq_s8(DAEDALUS_TAP8(kDir, 0, 1, pri, ps),
                                    DAEDALUS_TAP8(kDir, 0, -1, pri, ps));
      const int8x16_t k1 = vaddq_s8(DAEDALUS_TAP8(kDir, 1, 1, pri, ps),
                                    DAEDALUS_TAP8(kDir, 1, -1, pri, ps));
      sum_lo = vmlal_s8(vmull_s8(vget_low_s8(k0), vget_low_s8(w0)),
                        vget_low_s8(k1), vget_low_s8(w1));
      sum_hi = vmlal_high_s8(vmull_high_s8(k0, w0), k1, w1);
    }
    if constexpr (kSec) {
      const int8x16_t k0 =
          vaddq_s8(vaddq_s8(DAEDALUS_TAP8(kD2, 0, 1, sec, ss),
                            DAEDALUS_TAP8(kD2, 0, -1, sec, ss)),
                   vaddq_s8(DAEDALUS_TAP8(kD6, 0, 1, sec, ss),
                            DAEDALUS_TAP8(kD6, 0, -1, sec, ss)));
      const int8x16_t k1 =
          vaddq_s8(vaddq_s8(DAEDALUS_TAP8(kD2, 1, 1, sec, ss),
                            DAEDALUS_TAP8(kD2, 1, -1, sec, ss)),
                   vaddq_s8(DAEDALUS_TAP8(kD6, 1, 1, sec, ss),
                            DAEDALUS_TAP8(kD6, 1, -1, sec, ss)));
      const int8x16_t t = vaddq_s8(vaddq_s8(k0, k0), k1);
      sum_lo = vaddw_s8(sum_lo, vget_low_s8(t));
      sum_hi = vaddw_high_s8(sum_hi, t);
    }
#undef DAEDALUS_TAP8
    // (8 + sum - (sum < 0)) >> 4, narrowed to bytes, added to px.
    sum_lo = vsraq_n_s16(sum_lo, sum_lo, 15);
    sum_hi = vsraq_n_s16(sum_hi, sum_hi, 15);
    const int8x16_t delta =
        vqrshrn_high_n_s16(vqrshrn_n_s16(sum_lo, 4), sum_hi, 4);
    uint8x16_t res = vsqaddq_u8(px, delta);
    if constexpr (kClip) res = vminq_u8(vmaxq_u8(res, lo), hi);
    if (sink.step[0] == 1) {
      vst1_u8(out, vget_low_u8(res));
      vst1_u8(out + stride, vget_high_u8(res));
    } else {
      alignas(16) uint8_t buf[16];
      vst1q_u8(buf, res);
      put_rows<8>(buf, 2, out, stride, sink.step[0]);
    }
  }
}

template <int kDir, bool kPri, bool kSec>
void filter_blocks8(uint64_t blocks, const Sink& sink) {
  each_block(blocks, sink, [](int j, const Sink& s) HWY_ATTR {
    filter_block8<kDir, kPri, kSec>(j, s);
  });
}
#endif  // HWY_TARGET == HWY_NEON

using FilterFn = void (*)(uint64_t, const Sink&);
// [variant: both, primary only, secondary only, neither (a copy)][direction]
using FilterTable = std::array<std::array<FilterFn, 8>, 4>;

template <int kColBytes, int kRows, class S, size_t... kDir>
constexpr FilterTable filter_table(std::index_sequence<kDir...>) {
  return {{{&filter_blocks<int(kDir), true, true, kColBytes, kRows, S>...},
           {&filter_blocks<int(kDir), true, false, kColBytes, kRows, S>...},
           {&filter_blocks<int(kDir), false, true, kColBytes, kRows, S>...},
           {&filter_blocks<int(kDir), false, false, kColBytes, kRows, S>...}}};
}

// The filter function of a block, as an index into a FilterTable (variant
// times 8 plus direction); kCopy for neither kind of tap.
constexpr uint8_t kCopy = 24;

// Calls f(k, blocks) for each key k in the bit mask `present`, with the bit
// mask of the blocks j that have it in key[0..kChunk): blocks are filtered
// grouped by key, one call per key and chunk, though directions vary from
// block to block.
template <class F>
void for_each_key(const uint8_t* HWY_RESTRICT key, uint64_t present, F f) {
  const hn::CappedTag<uint8_t, kChunk> d;
  const int N = int(hn::Lanes(d));
  for (; present; present &= present - 1) {
    const int k = std::countr_zero(present);
    uint64_t blocks = 0;
    for (int j = 0; j < kChunk; j += N) {
      uint8_t bits[8] = {};
      hn::StoreMaskBits(d, hn::Eq(hn::Load(d, key + j), hn::Set(d, uint8_t(k))),
                        bits);
      uint64_t word;
      std::memcpy(&word, bits, 8);
      blocks |= word << j;
    }
    f(k, blocks);
  }
}

// ------------------------------------------------------------ the leaves

#if HWY_TARGET == HWY_NEON
template <size_t... kDir>
constexpr FilterTable filter_table8(std::index_sequence<kDir...>) {
  return {{{&filter_blocks8<int(kDir), true, true>...},
           {&filter_blocks8<int(kDir), true, false>...},
           {&filter_blocks8<int(kDir), false, true>...},
           {&filter_blocks8<int(kDir), false, false>...}}};
}
constexpr FilterTable kLumaBytes = filter_table8(std::make_index_sequence<8>());
#endif
// Keys from kBytes on are kLumaBytes' (kBytes + 24 + 7 < 63, no block).
constexpr int kBytes = 32;

// The filter functions of samples of type S.
template <class S>
struct Tables {
  static constexpr FilterTable kLuma =
      filter_table<2, 8, S>(std::make_index_sequence<8>());
  static constexpr FilterTable kPair420 =
      filter_table<4, 4, S>(std::make_index_sequence<8>());
  static constexpr FilterTable kPair422 =
      filter_table<4, 8, S>(std::make_index_sequence<8>());
};

// CdefFilterFn of blocks of kRows rows, of one plane (kPair false: 8 wide)
// or of U and V interleaved (4 wide each): lays the staged blocks out and
// filters them grouped by filter function.
template <class S, bool kPair, int kRows>
void filter(const CdefBlocks& b) {
  constexpr int kW = kPair ? 4 : 8;
  constexpr const FilterTable& table =
      kPair ? (kRows == 8 ? Tables<S>::kPair422 : Tables<S>::kPair420)
            : Tables<S>::kLuma;
  alignas(64) uint16_t laid[kMaxLaidOut];
  const ptrdiff_t corner = 2 * ptrdiff_t(b.pitch) + kW;  // of the left block
  if constexpr (kPair)
    lay_out_pair(b.src[0] - corner, b.src[1] - corner, b.pitch, kRows + 4,
                 b.n + 2, laid);
  else
    lay_out(b.src[0] - corner, b.pitch, kRows + 4, b.n + 2, laid);

  // Keys of the blocks with and without primary taps (63: no block).
  alignas(64) uint8_t key[kChunk];
  std::memset(key, 63, sizeof key);
  const int with = b.sec ? 0 : 8, without = b.sec ? 16 : kCopy;
  const int n = std::min(b.n, kChunk);
  uint64_t present = 0;
#if HWY_TARGET == HWY_NEON
  // Whether the staged rows [-2, kRows + 2) of block column c hold an
  // unavailable sample (bit 15: no 8-bit sample has it).
  auto has_hole = [&](int c) HWY_ATTR {
    const uint16_t* p = b.src[0] - 2 * ptrdiff_t(b.pitch) + 8 * c;
    uint16x8_t any = vld1q_u16(p);
    for (int r = 1; r < kRows + 4; r++)
      any = vorrq_u16(any, vld1q_u16(p + r * ptrdiff_t(b.pitch)));
    return vmaxvq_u16(any) >= kCdefUnavailable;
  };
  bool prev = false, cur = false;
  if constexpr (sizeof(S) == 1 && !kPair)
    prev = has_hole(-1), cur = has_hole(0);
#endif
  for (int j = 0; j < n; j++) {
    int k = b.pri[j] ? with + b.dir[j] : without + (b.sec ? b.dir[j] : 0);
#if HWY_TARGET == HWY_NEON
    // Blocks with no unavailable sample in their column of staged rows or
    // either neighbour's take kLumaBytes' filters (keys from kBytes on).
    if constexpr (sizeof(S) == 1 && !kPair) {
      const bool next = has_hole(j + 1);
      if (!(prev || cur || next)) k += kBytes;
      prev = cur, cur = next;
    }
#endif
    key[j] = uint8_t(k);
    present |= uint64_t(1) << k;
  }
  const Sink sink = {laid,
                     b.pri,
                     {b.dst[0], kPair ? b.dst[1] : b.dst[0]},
                     {b.stride[0], b.stride[1]},
                     {b.step[0], b.step[1]},
                     b.lsb,
                     b.sec,
                     b.damping,
                     b.ahead};
  for_each_key(key, present, [&](int k, uint64_t blocks) HWY_ATTR {
#if HWY_TARGET == HWY_NEON
    const FilterTable& t = k < kBytes ? table : kLumaBytes;
#else
    const FilterTable& t = table;
#endif
    t[(k >> 3) & 3][k & 7](blocks, sink);
  });
}

// The byte island of the 8-bit filters, where the target has one:
// CDEF_BYTE_ISLAND says whether CdefInitByteIsland installs it.
#if HWY_TARGET == HWY_AVX3
#define CDEF_BYTE_ISLAND 1
#include "filters/cdef/cdef_bytes_avx512-inl.h"
#else
#define CDEF_BYTE_ISLAND 0
#endif

template <class S>
CdefLeaves leaves() {
  constexpr int kCs = sizeof(S) == 1 ? 0 : 2;
  CdefLeaves l;
  l.stage = stage<S>;
  l.find_dirs = find_dirs<kCs>;
  l.filter[kCdef8x8] = filter<S, false, 8>;
  l.filter[kCdef4x8Pair] = filter<S, true, 8>;
  l.filter[kCdef4x4Pair] = filter<S, true, 4>;
  return l;
}

void CdefInit(CdefDsp* dsp) {
  dsp->bd8 = leaves<uint8_t>();
  dsp->bd10 = leaves<uint16_t>();
}

#endif  // HWY_TARGET == HWY_SCALAR

#if !CDEF_BYTE_ISLAND
void CdefInitByteIsland(CdefDsp*) {}
#endif
bool CdefHasByteIsland() { return CDEF_BYTE_ISLAND; }
#undef CDEF_BYTE_ISLAND

}  // namespace
}  // namespace HWY_NAMESPACE
}  // namespace daedalus
#if HWY_ARCH_ARM_A64 && HWY_COMPILER_GCC_ACTUAL
#pragma GCC pop_options
#endif
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace daedalus {

HWY_EXPORT(CdefInit);
HWY_EXPORT(CdefInitByteIsland);
HWY_EXPORT(CdefHasByteIsland);

bool cdef_cpu_has_byte_island() {
  // CPUID leaf 7: ECX bits 1 AVX512_VBMI, 6 AVX512_VBMI2, 8 GFNI, 11
  // AVX512_VNNI (the AVX3 target itself has checked AVX-512 F/BW/DQ/VL and
  // the OS's ZMM state).
  return x86_leaf7_ecx_has(1u << 1 | 1u << 6 | 1u << 8 | 1u << 11);
}

void cdef_dsp_init_simd(CdefDsp* dsp, bool islands) {
  simd_dispatch(HWY_DISPATCH_TABLE(CdefInit))(dsp);
  if (islands && simd_dispatch(HWY_DISPATCH_TABLE(CdefHasByteIsland))() &&
      cdef_cpu_has_byte_island())
    simd_dispatch(HWY_DISPATCH_TABLE(CdefInitByteIsland))(dsp);
}

}  // namespace daedalus
#endif
