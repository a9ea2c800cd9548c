// The Highway implementation of daedalusmc's rows (docs/spec.md), in 16-bit
// lanes over groups of 2N samples: the even samples of a group in one vector,
// the odd ones in another. Two adjacent 8-bit samples are one 16-bit lane, so
// a mask and a shift split them, and a shift and an or join them again: no
// shuffles. A horizontal pass reads the source row in place where its window
// lies inside the row, and an edge-extended copy elsewhere, so no inner loop
// clamps. The vertical pass reads a cache of the last 8 horizontally filtered
// (or widened) rows, 16-bit and split even/odd, keyed by the clamped row
// number, so each source row is filtered once per band. On x86 one
// instruction multiplies and adds a pair of bytes: there the 8-tap passes
// read pairs of samples unsplit, and pairs of rows interleaved.
//
// 10-bit planes (16-bit words) share the rows' plan (windows, the row
// cache, the writing of rows) through the sample type S; their kernels are
// in mc_words_simd-inl.h.
#include <algorithm>
#include <bit>
#include <climits>
#include <cstring>
#include <type_traits>
#include <vector>

#include "daedalus/mc.h"
#include "filters/cpu_features.h"
#include "filters/mc/mc_dot.h"
#include "filters/simd_init.h"

#if HWY_ARCH_ARM_A64
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "filters/mc/mc_simd.cc"
#include <hwy/cache_control.h>
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace daedalus {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D16 = hn::ScalableTag<int16_t>;
using DU16 = hn::RebindToUnsigned<D16>;
using D8 = hn::Repartition<uint8_t, D16>;
using V16 = hn::Vec<D16>;

// Sample 2j of a group is the low byte of lane j.
static_assert(std::endian::native == std::endian::little);

// The 2N bytes at p as N 16-bit lanes.
HWY_INLINE V16 Pairs(D16 d, const uint8_t* HWY_RESTRICT p) {
#if HWY_TARGET == HWY_SCALAR
  return hn::Set(d, static_cast<int16_t>(p[0] | p[1] << 8));
#else
  return hn::BitCast(d, hn::LoadU(D8(), p));
#endif
}
HWY_INLINE V16 Even(D16 d, V16 pairs) {
  return hn::And(pairs, hn::Set(d, 255));
}
HWY_INLINE V16 Odd(D16 d, V16 pairs) {
  return hn::BitCast(d, hn::ShiftRight<8>(hn::BitCast(DU16(), pairs)));
}

// Stores a group of 8-bit results (lanes in [0, 255]): into a 16-bit row
// split even/odd, or into an 8-bit row in sample order.
HWY_INLINE void StoreGroup(D16 d, V16 even, V16 odd, int16_t* HWY_RESTRICT p) {
  hn::StoreU(even, d, p);
  hn::StoreU(odd, d, p + hn::Lanes(d));
}
HWY_INLINE void StoreGroup(D16, V16 even, V16 odd, uint8_t* HWY_RESTRICT p) {
#if HWY_TARGET == HWY_SCALAR
  p[0] = static_cast<uint8_t>(hn::GetLane(even));
  p[1] = static_cast<uint8_t>(hn::GetLane(odd));
#else
  hn::StoreU(hn::BitCast(D8(), hn::Or(even, hn::ShiftLeft<8>(odd))), D8(), p);
#endif
}

// acc += t * v in wrapping 16-bit lanes.
HWY_INLINE V16 Tap(V16 acc, V16 t, V16 v) {
  return hn::Add(acc, hn::Mul(t, v));
}

// The same for the outer taps 0 and 7, which are both -1 in phases 3 to 13
// of the regular bank, the most used: then a subtraction does.
template <bool kMinusOne>
HWY_INLINE V16 OuterTap(V16 acc, V16 t, V16 v) {
  if constexpr (kMinusOne) return hn::Sub(acc, v);
  return Tap(acc, t, v);
}

bool OuterTapsMinusOne(const int16_t* taps) {
  return taps[0] == -1 && taps[7] == -1;
}

// The 8-tap sums are exact modulo 2^16 whatever the order of summation. A
// phase's sum over 8-bit samples lies in [-255 N, 255 P], N and P the
// magnitudes of its negative and positive taps (at most 54 and 182 in these
// banks, up to 64 and 192 would do), so starting from kBias = 16384 + 64 the
// true value of the accumulator lies in [0, 65535]: read as unsigned and
// shifted it is floor((sum + 64) / 128) + 128 exactly.
constexpr int16_t kBias = 16384 + 64;

// clip255(floor((sum + 64) / 128)) from the biased accumulator.
HWY_INLINE V16 Clip7(D16 d, V16 acc) {
  const DU16 du;
  const auto q = hn::ShiftRight<7>(hn::BitCast(du, acc));
  return hn::BitCast(
      d, hn::Min(hn::SaturatedSub(q, hn::Set(du, 128)), hn::Set(du, 255)));
}

// out[j] = p[2 j], j < n, reading no byte past p[2 (n - 1)]: the next one
// may be padding.
void Deinterleave(const uint8_t* HWY_RESTRICT p, int n,
                  uint8_t* HWY_RESTRICT out) {
  const hn::ScalableTag<uint8_t> d;
  const int N = static_cast<int>(hn::Lanes(d));
  int j = 0;
  for (; j + N < n; j += N) {
    hn::Vec<decltype(d)> even, odd;
    hn::LoadInterleaved2(d, p + 2 * j, even, odd);
    hn::StoreU(even, d, out + j);
  }
  for (; j < n; j++) out[j] = p[2 * j];
}

// out[j] = in(x0 + j, c) for j < len, of a plane with columns: the edges
// by memset, the inside copied.
void Extend(const ConstPlane& src, int c, int x0, int len,
            uint8_t* HWY_RESTRICT out, int /*shift: 0 at 8 bits*/ = 0) {
  const uint8_t* row = src.row(c);
  const int w = src.width;
  const int left = std::clamp(-x0, 0, len);
  const int right = std::clamp(w - x0, left, len);
  std::memset(out, row[0], left);
  if (src.step == 1)
    std::memcpy(out + left, row + x0 + left, right - left);
  else
    Deinterleave(row + (x0 + left) * src.step, right - left, out + left);
  std::memset(out + right, row[(w - 1) * src.step], len - right);
}

// The same for 10-bit words: out[j] = the value of in(x0 + j, c) << shift.
void Extend(const ConstPlane& src, int c, int x0, int len,
            uint16_t* HWY_RESTRICT out, int shift = 0) {
  const int w = src.width;
  const int left = std::clamp(-x0, 0, len);
  const int right = std::clamp(w - x0, left, len);
  const auto value = [&](int x) {
    return static_cast<uint16_t>(sample_value<uint16_t>(src, x, c) << shift);
  };
  std::fill(out, out + left, value(0));
  int j = left;
  const DU16 du;
  using VU = hn::Vec<DU16>;
  const int N = static_cast<int>(hn::Lanes(du));
  const auto* words = reinterpret_cast<const uint16_t*>(src.row(c));
  // Row c + 4, which the calls for the rows after this one read, is fetched
  // into the cache meanwhile: once a frame is larger than the cache, the
  // source stream is what holds the passes back, and the hardware's
  // prefetch alone does not keep ahead of it.
  const auto* ahead = reinterpret_cast<const uint16_t*>(
      src.row(std::min(c + 4, src.height - 1)));
  // The plane's fields as locals: stores to `out` cannot change them.
  const int lsb = src.lsb, step = src.step, bits = src.bit_depth;
  const uint16_t max = static_cast<uint16_t>(src.max_value());
  const auto copy = [&](auto word_value) {
    if (step == 2) {
      for (; j + N <= right; j += N) {
        hwy::Prefetch(ahead + x0 + j);
        hn::StoreU(word_value(hn::LoadU(du, words + x0 + j)), du, out + j);
      }
#if HWY_TARGET <= HWY_AVX3
      // The rest in one masked load and store (AVX-512's touch no word
      // outside the mask), not sample by sample.
      if (j < right) {
        const auto rest = hn::FirstN(du, static_cast<size_t>(right - j));
        hn::BlendedStore(word_value(hn::MaskedLoad(rest, du, words + x0 + j)),
                         rest, du, out + j);
        j = right;
      }
#endif
    } else {
      // P010 chroma: the channel's words are every other one of the row, as
      // Deinterleave reads bytes (stopping a sample short, for the same
      // reason).
      for (; j + N < right; j += N) {
        VU even, odd;
        hwy::Prefetch(ahead + 2 * (x0 + j));
        hwy::Prefetch(ahead + 2 * (x0 + j) + N);
        hn::LoadInterleaved2(du, words + 2 * (x0 + j), even, odd);
        hn::StoreU(word_value(even), du, out + j);
      }
    }
  };
  // One instruction a vector where the value stays in place (a mask) or
  // goes from the top bits to the bottom (P010's into a scratch row).
  if (lsb == shift) {
    const VU mask = hn::Set(du, static_cast<uint16_t>(max << lsb));
    copy([&](VU v) { return hn::And(v, mask); });
  } else if (shift == 0 && lsb + bits == 16) {
    copy([&](VU v) { return hn::ShiftRightSame(v, lsb); });
  } else {
    const VU mask = hn::Set(du, max);
    copy([&](VU v) {
      return hn::ShiftLeftSame(hn::And(hn::ShiftRightSame(v, lsb), mask),
                               shift);
    });
  }
  for (; j < right; j++) out[j] = value(x0 + j);
  std::fill(out + right, out + len, value(w - 1));
}

// Extend into a scratch row with room for a vector past out + len: the
// edges, a few samples where a window meets them, by vector stores (which
// may overrun them) rather than library calls. 10-bit rows as Extend.
void ExtendScratch(const ConstPlane& src, int c, int x0, int len,
                   uint8_t* HWY_RESTRICT out) {
  const hn::ScalableTag<uint8_t> d;
  const int N = static_cast<int>(hn::Lanes(d));
  const uint8_t* row = src.row(c);
  const int w = src.width;
  const int left = std::clamp(-x0, 0, len);
  const int right = std::clamp(w - x0, left, len);
  const auto first = hn::Set(d, row[0]);
  for (int j = 0; j < left; j += N) hn::StoreU(first, d, out + j);
  if (src.step == 1)
    std::memcpy(out + left, row + x0 + left, right - left);
  else
    Deinterleave(row + (x0 + left) * src.step, right - left, out + left);
  const auto last = hn::Set(d, row[(w - 1) * src.step]);
  for (int j = right; j < len; j += N) hn::StoreU(last, d, out + j);
}

// 10-bit words as their values, which the horizontal passes read.
void ExtendScratch(const ConstPlane& src, int c, int x0, int len,
                   uint16_t* HWY_RESTRICT out) {
  Extend(src, c, x0, len, out);
}

// Stores an output row written to tmp into one channel of NV12 or P010
// chroma (step twice the sample), whose other channel's bytes are not ours:
// sample by sample, 8 an iteration, whose stores then have constant
// offsets (one load and one store a sample, where the loop of one sample
// took five instructions).
template <class S>
void Scatter(const Plane& dst, int y, const S* HWY_RESTRICT tmp) {
  uint8_t* HWY_RESTRICT row = dst.row(y);
  const int w = dst.width, step = dst.step;  // not reloaded after each store
  constexpr int kStep = 2 * sizeof(S);
  int x = 0;
  if (step == kStep) {
    for (; x + 8 <= w; x += 8)
      for (int i = 0; i < 8; i++)
        std::memcpy(row + (x + i) * kStep, tmp + x + i, sizeof(S));
  }
  for (; x < w; x++) std::memcpy(row + x * step, tmp + x, sizeof(S));
}

// A horizontal pass reads the bytes e[j] = in(ix - 3 + j, c) of a source
// row, G = 2N at a time: group g (outputs gG .. gG + G - 1) reads
// e[gG .. gG + G + tail - 1], kTail: the 8 taps' bytes and, on x86, the
// rest of a 16-byte block. Groups [lo, hi), whose windows lie inside the
// row, read it in place (where `in_place`); the others an edge-extended
// copy. The same for every row of a call. Interleaved chroma (NV12, P010)
// always reads the copy, and so do the 10-bit rows of the generic passes,
// whose words the copy decodes once for the 8 loads of each sample (the
// AVX-512 island, whose 8 windows come from 2 loads, decodes those in
// place).
constexpr ptrdiff_t kTail = 16;

template <class S>
struct Inside {
  Inside(const ConstPlane& src, int ix, size_t G, size_t groups)
      : Inside(src, ix, G, groups, kTail, sizeof(S) == 1 && src.step == 1) {}

  Inside(const ConstPlane& src, int ix, size_t G, size_t groups, ptrdiff_t tail,
         bool in_place) {
    const ptrdiff_t x0 = ix - 3, w = src.width, g = static_cast<ptrdiff_t>(G);
    // x0 + lo G >= 0 and x0 + hi G + tail <= w.
    const ptrdiff_t first = x0 >= 0 ? 0 : (-x0 + g - 1) / g;
    const ptrdiff_t end = HWY_MIN(w - tail - x0 >= 0 ? (w - tail - x0) / g : 0,
                                  static_cast<ptrdiff_t>(groups));
    if (in_place && first < end) {
      lo = static_cast<size_t>(first);
      hi = static_cast<size_t>(end);
    }
  }

  size_t lo = 0, hi = 0;
};

// The window of source row c, its edge-extended parts filled in `ext`, a
// scratch row (ExtendScratch may write a vector past them).
template <class S>
class Window {
 public:
  Window(const ConstPlane& src, int c, int ix, size_t G, size_t groups,
         const Inside<S>& in, S* HWY_RESTRICT ext)
      : ext_(ext), G_(G), lo_(in.lo), hi_(in.hi) {
    const int x0 = ix - 3;
    const auto extend = [&](size_t begin, size_t end) {
      ExtendScratch(src, c, x0 + static_cast<int>(begin),
                    static_cast<int>(end - begin), ext + begin);
    };
    if (lo_ == hi_) {
      extend(0, groups * G + kTail);
      return;
    }
    inside_ = reinterpret_cast<const S*>(src.row(c)) +
              (x0 + static_cast<ptrdiff_t>(lo_ * G));
    if (lo_ > 0) extend(0, lo_ * G + kTail);
    if (hi_ < groups) extend(hi_ * G, groups * G + kTail);
  }

  bool in_place(size_t g) const { return g - lo_ < hi_ - lo_; }

  const S* group(size_t g) const {
    return in_place(g) ? inside_ + (g - lo_) * G_ : ext_ + g * G_;
  }

  // The end (at most `end`) of the run of groups from g on that lie one
  // after the other, G samples apart, from group(g) on: all in place or
  // all in the copy.
  size_t run_end(size_t g, size_t end) const {
    return std::min(in_place(g) ? hi_ : g < lo_ ? lo_ : end, end);
  }

  // The groups from g on, one after the other, where all are in the copy
  // (10-bit windows).
  const S* copied(size_t g) const { return ext_ + g * G_; }

 private:
  const S* ext_;
  const S* inside_ = nullptr;
  size_t G_, lo_, hi_;
};

// Groups [g0, g0 + count) of the 8-tap horizontal pass, output x from
// e[x .. x + 7], written from `out` on.
template <bool kMinusOne, typename Out>
void Horizontal8(const Window<uint8_t>& e, const int16_t* taps, size_t g0,
                 size_t count, Out out) {
  const D16 d;
  const size_t G = 2 * hn::Lanes(d);
  const V16 t0 = hn::Set(d, taps[0]), t1 = hn::Set(d, taps[1]);
  const V16 t2 = hn::Set(d, taps[2]), t3 = hn::Set(d, taps[3]);
  const V16 t4 = hn::Set(d, taps[4]), t5 = hn::Set(d, taps[5]);
  const V16 t6 = hn::Set(d, taps[6]), t7 = hn::Set(d, taps[7]);
  const V16 bias = hn::Set(d, kBias);
  for (size_t i = 0; i < count; i++) {
    const uint8_t* p = e.group(g0 + i);
    const V16 l0 = Pairs(d, p), l1 = Pairs(d, p + 2), l2 = Pairs(d, p + 4);
    const V16 l3 = Pairs(d, p + 6), l4 = Pairs(d, p + 8);
    const V16 e0 = Even(d, l0), e1 = Even(d, l1), e2 = Even(d, l2);
    const V16 e3 = Even(d, l3), e4 = Even(d, l4);
    const V16 o0 = Odd(d, l0), o1 = Odd(d, l1), o2 = Odd(d, l2);
    const V16 o3 = Odd(d, l3);
    // Output 2j reads samples 2j .. 2j + 7, output 2j + 1 one further.
    V16 even = OuterTap<kMinusOne>(bias, t0, e0);
    even = Tap(even, t1, o0);
    even = Tap(even, t2, e1);
    even = Tap(even, t3, o1);
    even = Tap(even, t4, e2);
    even = Tap(even, t5, o2);
    even = Tap(even, t6, e3);
    even = OuterTap<kMinusOne>(even, t7, o3);
    V16 odd = OuterTap<kMinusOne>(bias, t0, o0);
    odd = Tap(odd, t1, e1);
    odd = Tap(odd, t2, o1);
    odd = Tap(odd, t3, e2);
    odd = Tap(odd, t4, o2);
    odd = Tap(odd, t5, e3);
    odd = Tap(odd, t6, o3);
    odd = OuterTap<kMinusOne>(odd, t7, e4);
    StoreGroup(d, Clip7(d, even), Clip7(d, odd), out + i * G);
  }
}

// Groups [g0, g0 + count) of the 8-tap vertical pass over split rows.
template <bool kMinusOne>
void Vertical8(const int16_t* const* r, const int16_t* taps, size_t g0,
               size_t count, uint8_t* HWY_RESTRICT out) {
  const D16 d;
  const size_t N = hn::Lanes(d), G = 2 * N;
  const V16 t0 = hn::Set(d, taps[0]), t1 = hn::Set(d, taps[1]);
  const V16 t2 = hn::Set(d, taps[2]), t3 = hn::Set(d, taps[3]);
  const V16 t4 = hn::Set(d, taps[4]), t5 = hn::Set(d, taps[5]);
  const V16 t6 = hn::Set(d, taps[6]), t7 = hn::Set(d, taps[7]);
  const V16 bias = hn::Set(d, kBias);
  const size_t x0 = g0 * G;
  const int16_t *r0 = r[0] + x0, *r1 = r[1] + x0, *r2 = r[2] + x0;
  const int16_t *r3 = r[3] + x0, *r4 = r[4] + x0, *r5 = r[5] + x0;
  const int16_t *r6 = r[6] + x0, *r7 = r[7] + x0;
  for (size_t x = 0; x < count * G; x += G) {
    V16 even = OuterTap<kMinusOne>(bias, t0, hn::LoadU(d, r0 + x));
    even = Tap(even, t1, hn::LoadU(d, r1 + x));
    even = Tap(even, t2, hn::LoadU(d, r2 + x));
    even = Tap(even, t3, hn::LoadU(d, r3 + x));
    even = Tap(even, t4, hn::LoadU(d, r4 + x));
    even = Tap(even, t5, hn::LoadU(d, r5 + x));
    even = Tap(even, t6, hn::LoadU(d, r6 + x));
    even = OuterTap<kMinusOne>(even, t7, hn::LoadU(d, r7 + x));
    V16 odd = OuterTap<kMinusOne>(bias, t0, hn::LoadU(d, r0 + x + N));
    odd = Tap(odd, t1, hn::LoadU(d, r1 + x + N));
    odd = Tap(odd, t2, hn::LoadU(d, r2 + x + N));
    odd = Tap(odd, t3, hn::LoadU(d, r3 + x + N));
    odd = Tap(odd, t4, hn::LoadU(d, r4 + x + N));
    odd = Tap(odd, t5, hn::LoadU(d, r5 + x + N));
    odd = Tap(odd, t6, hn::LoadU(d, r6 + x + N));
    odd = OuterTap<kMinusOne>(odd, t7, hn::LoadU(d, r7 + x + N));
    StoreGroup(d, Clip7(d, even), Clip7(d, odd), out + x);
  }
}

// a + ((f (b - a) + 8) >> 4): |f (b - a)| <= 3825 and the result lies
// between a and b, so 16 bits hold it and nothing clips.
HWY_INLINE V16 Lerp(D16 d, V16 a, V16 b, V16 f) {
  return hn::Add(a, hn::ShiftRight<4>(Tap(hn::Set(d, 8), f, hn::Sub(b, a))));
}

// Groups [g0, g0 + count) of the bilinear horizontal pass, output x from
// e[x + 3] and e[x + 4].
template <typename Out>
void LerpHorizontal(const Window<uint8_t>& e, int f, size_t g0, size_t count,
                    Out out) {
  const D16 d;
  const size_t G = 2 * hn::Lanes(d);
  const V16 vf = hn::Set(d, static_cast<int16_t>(f));
  for (size_t i = 0; i < count; i++) {
    const uint8_t* p = e.group(g0 + i);
    const V16 l1 = Pairs(d, p + 2), l2 = Pairs(d, p + 4);
    const V16 e2 = Even(d, l2);
    StoreGroup(d, Lerp(d, Odd(d, l1), e2, vf), Lerp(d, e2, Odd(d, l2), vf),
               out + i * G);
  }
}

// Groups [g0, g0 + count) of the bilinear vertical pass over split rows.
void LerpVertical(const int16_t* HWY_RESTRICT a, const int16_t* HWY_RESTRICT b,
                  int f, size_t g0, size_t count, uint8_t* HWY_RESTRICT out) {
  const D16 d;
  const size_t N = hn::Lanes(d), G = 2 * N;
  const V16 vf = hn::Set(d, static_cast<int16_t>(f));
  a += g0 * G;
  b += g0 * G;
  for (size_t x = 0; x < count * G; x += G)
    StoreGroup(d, Lerp(d, hn::LoadU(d, a + x), hn::LoadU(d, b + x), vf),
               Lerp(d, hn::LoadU(d, a + x + N), hn::LoadU(d, b + x + N), vf),
               out + x);
}

// The groups of in(ix + x, c), split, into 16-bit lanes.
template <typename Out>
void Widen(const Window<uint8_t>& e, size_t groups, Out out) {
  const D16 d;
  const size_t G = 2 * hn::Lanes(d);
  for (size_t g = 0; g < groups; g++) {
    const V16 l = Pairs(d, e.group(g) + 3);
    StoreGroup(d, Even(d, l), Odd(d, l), out + g * G);
  }
}

#if HWY_TARGET <= HWY_SSSE3
// x86 (pmaddubsw) multiplies the two unsigned bytes of each 16-bit lane by
// two signed bytes and adds the products: one instruction for two taps of N
// outputs, where split lanes take two multiplies and two adds. So the
// horizontal pass reads sample pairs instead of splitting them, and the
// vertical one reads rows interleaved in pairs (PairRows). Other targets
// keep the split lanes, which cost them less than splitting pairs would.
HWY_INLINE V16 PairDot(V16 pairs, V16 taps) {
#if HWY_TARGET <= HWY_AVX3
  return V16{_mm512_maddubs_epi16(pairs.raw, taps.raw)};
#elif HWY_TARGET == HWY_AVX2
  return V16{_mm256_maddubs_epi16(pairs.raw, taps.raw)};
#else
  return V16{_mm_maddubs_epi16(pairs.raw, taps.raw)};
#endif
}

// Taps 2m and 2m + 1 of a phase as the low and high byte of a lane. No pair
// saturates: its positive taps add up to at most 128 in these banks (its
// negative ones to less), and 255 * 128 < 32768.
struct TapPairs {
  TapPairs(D16 d, const int16_t* taps) {
    for (int m = 0; m < 4; m++)
      t[m] = hn::Set(d, static_cast<int16_t>((taps[2 * m] & 255) |
                                             (taps[2 * m + 1] & 255) << 8));
  }

  V16 t[4];
};

// bias + the 8-tap sum, samples 2m and 2m + 1 paired in p_m; exact modulo
// 2^16 as with split lanes.
HWY_INLINE V16 Dot8(const TapPairs& t, V16 bias, V16 p0, V16 p1, V16 p2,
                    V16 p3) {
  const V16 lo = hn::Add(PairDot(p0, t.t[0]), PairDot(p1, t.t[1]));
  const V16 hi = hn::Add(PairDot(p2, t.t[2]), PairDot(p3, t.t[3]));
  return hn::Add(hn::Add(bias, lo), hi);
}

// The pairs of bytes from p + k, a and b those from p and p + 16. Unaligned
// vectors wider than a 16-byte block often cross cache lines, and cost twice
// then: there each block of the result joins the same blocks of a and b.
template <int k>
HWY_INLINE V16 PairsAt(D16 d, const uint8_t* p, V16 a, V16 b) {
  if constexpr (hn::MaxLanes(D16()) > 8)
    return hn::CombineShiftRightBytes<k>(d, b, a);
  else
    return Pairs(d, p + k);
}

// Groups [g0, g0 + count) of the 8-tap horizontal pass: output 2j reads the
// pairs from e[2j] on, output 2j + 1 those from e[2j + 1]. The window by
// value, which no store to `out` can change, stays in registers.
template <typename Out>
void Horizontal8Pairs(const Window<uint8_t> e, const int16_t* taps, size_t g0,
                      size_t count, Out out) {
  const D16 d;
  const size_t G = 2 * hn::Lanes(d);
  const TapPairs t(d, taps);
  const V16 bias = hn::Set(d, kBias);
  for (size_t i = 0; i < count; i++) {
    const uint8_t* p = e.group(g0 + i);
    const V16 a = Pairs(d, p), b = Pairs(d, p + 16);
    const V16 even = Dot8(t, bias, a, PairsAt<2>(d, p, a, b),
                          PairsAt<4>(d, p, a, b), PairsAt<6>(d, p, a, b));
    const V16 odd =
        Dot8(t, bias, PairsAt<1>(d, p, a, b), PairsAt<3>(d, p, a, b),
             PairsAt<5>(d, p, a, b), PairsAt<7>(d, p, a, b));
    StoreGroup(d, Clip7(d, even), Clip7(d, odd), out + i * G);
  }
}

// Where the pass over source row clamp(a + 1) stores its output for
// PairRows: into the high bytes of pair row a, whose low bytes, row
// clamp(a), it moves from the high bytes of pair row a - 1.
struct PairSink {
  const int16_t* prev;
  int16_t* pair;
};

HWY_INLINE PairSink operator+(PairSink s, size_t i) {
  return {s.prev + i, s.pair + i};
}

HWY_INLINE void StoreGroup(D16 d, V16 even, V16 odd, PairSink s) {
  const size_t N = hn::Lanes(d);
  const V16 prev_even = Odd(d, hn::LoadU(d, s.prev));
  const V16 prev_odd = Odd(d, hn::LoadU(d, s.prev + N));
  StoreGroup(d, hn::Or(prev_even, hn::ShiftLeft<8>(even)),
             hn::Or(prev_odd, hn::ShiftLeft<8>(odd)), s.pair);
}

// Groups [g0, g0 + count) of the 8-tap vertical pass over pair rows: the
// rows of taps 2m and 2m + 1 in pairs[m]. The taps by value, which no store
// to `out` can change, stay in registers.
void Vertical8Pairs(const int16_t* const* pairs, const TapPairs t, size_t g0,
                    size_t count, uint8_t* HWY_RESTRICT out) {
  const D16 d;
  const size_t N = hn::Lanes(d), G = 2 * N;
  const V16 bias = hn::Set(d, kBias);
  const size_t x0 = g0 * G;
  const int16_t *p0 = pairs[0] + x0, *p1 = pairs[1] + x0;
  const int16_t *p2 = pairs[2] + x0, *p3 = pairs[3] + x0;
  for (size_t x = 0; x < count * G; x += G) {
    const V16 even = Dot8(t, bias, hn::LoadU(d, p0 + x), hn::LoadU(d, p1 + x),
                          hn::LoadU(d, p2 + x), hn::LoadU(d, p3 + x));
    const V16 odd =
        Dot8(t, bias, hn::LoadU(d, p0 + x + N), hn::LoadU(d, p1 + x + N),
             hn::LoadU(d, p2 + x + N), hn::LoadU(d, p3 + x + N));
    StoreGroup(d, Clip7(d, even), Clip7(d, odd), out + x);
  }
}
#endif  // HWY_TARGET <= HWY_SSSE3

#include "filters/mc/mc_words_simd-inl.h"

// The dot-product islands (four taps an instruction), where the target has
// one: MC_DOT_ISLAND says whether this target's McRowsBytesDot uses it.
#undef MC_DOT_ISLAND
#if HWY_TARGET == HWY_AVX3
#define MC_DOT_ISLAND 1
#include "filters/mc/mc_dot_avx512-inl.h"
#include "filters/mc/mc_words_avx512-inl.h"
#elif HWY_TARGET == HWY_NEON && HWY_ARCH_ARM_A64
#define MC_DOT_ISLAND 1
#include "filters/mc/mc_dot_neon-inl.h"
#else
#define MC_DOT_ISLAND 0
#endif

// What the vertical pass reads: 8-bit rows widened and split even/odd,
// 10-bit ones as values in sample order.
template <class S>
using Mid = std::conditional_t<sizeof(S) == 1, int16_t, uint16_t>;

// The scratch rows of one call, each on a 64-byte boundary: `groups` groups
// of G samples cover the width; the extended row has room for the window's
// tail besides. `spares` more rows after the slots.
template <class S>
class Scratch {
 public:
  Scratch(int w, size_t G, int spares = 0)
      : groups(hwy::DivCeil(static_cast<size_t>(w), G)),
        row_bytes_(hwy::RoundUpTo(groups * G * 2 + kTail * sizeof(S), 64)),
        mem_(64 + (10 + spares) * row_bytes_) {
    const uintptr_t base = reinterpret_cast<uintptr_t>(mem_.data());
    uint8_t* first = mem_.data() + (hwy::RoundUpTo(base, 64) - base);
    ext = reinterpret_cast<S*>(first);
    tmp = reinterpret_cast<S*>(first + row_bytes_);
    slots_ = first + 2 * row_bytes_;
  }

  // Slot c & 7 of the 8 rows the vertical pass reads.
  Mid<S>* slot(int c) {
    return reinterpret_cast<Mid<S>*>(slots_ + row_bytes_ * (c & 7));
  }

  // The 8 slots and the spares as rows 0, 1, ... of bytes.
  uint8_t* row(int i) { return slots_ + row_bytes_ * i; }

  size_t groups;
  S* ext;  // the extended parts of a source row
  S* tmp;  // an output row, or its end, not written in place

 private:
  size_t row_bytes_;
  std::vector<uint8_t> mem_;
  uint8_t* slots_;
};

// Writes output row y through kernel(g0, count, out), which writes groups
// [g0, g0 + count) from `out` on: whole groups in place, the last partial
// group through tmp; NV12 and P010 chroma entirely through tmp.
template <class S, class Kernel>
void WriteRow(const Plane& dst, int y, size_t G, S* tmp, const Kernel& kernel) {
  S* row = reinterpret_cast<S*>(dst.row(y));
  const size_t w = static_cast<size_t>(dst.width);
  const size_t whole = w / G, rest = w % G;
  if (dst.step != sizeof(S)) {
    kernel(0, whole + (rest != 0), tmp);
    Scatter(dst, y, tmp);
    return;
  }
  if (whole) kernel(0, whole, row);
  if (rest) {
    kernel(whole, 1, tmp);
    std::memcpy(row + whole * G, tmp, rest * sizeof(S));
  }
}

#if HWY_TARGET <= HWY_SSSE3
// The 8-tap vertical pass over pair rows: pair row a, in slot a & 7, holds
// source rows clamp(a) and clamp(a + 1) in the low and high bytes of its
// lanes, filtered by source_row(c, out); output row y reads pair rows
// y + iy - 3 + {0, 2, 4, 6}, and each pair row serves 4 output rows.
template <class SourceRow>
void PairRows(const Plane& dst, int iy, int h, const int16_t* taps,
              Scratch<uint8_t>& s, const SourceRow& source_row, int y_begin,
              int y_end) {
  const D16 d;
  const size_t G = 2 * hn::Lanes(d);
  const TapPairs t(d, taps);
  const auto clamp_row = [h](int r) { return std::clamp(r, 0, h - 1); };
  int next = y_begin + iy - 3;  // the first pair row not built yet
  // Row clamp(next) into pair row next - 1, whose low bytes nothing reads.
  source_row(clamp_row(next), PairSink{s.slot(next - 1), s.slot(next - 1)});
  for (int y = y_begin; y < y_end; y++) {
    const int a = y + iy - 3;
    for (; next <= a + 6; next++)
      source_row(clamp_row(next + 1), PairSink{s.slot(next - 1), s.slot(next)});
    const int16_t* pairs[4] = {s.slot(a), s.slot(a + 2), s.slot(a + 4),
                               s.slot(a + 6)};
    WriteRow(dst, y, G, s.tmp, [&](size_t g0, size_t count, uint8_t* out) {
      Vertical8Pairs(pairs, t, g0, count, out);
    });
  }
}
#endif

// The 10-bit 8-tap vertical pass over pair rows (PairWords): pair row p,
// in scratch rows 8 + 2 (p & 7) and 9 + 2 (p & 7), pairs source rows
// clamp(p) and clamp(p + 1), filtered by source_row(c, out) into slot c & 7
// (each once: a pair row needs rows at most 7 before the newest, which the
// 8 slots still hold); output row y reads pair rows y + iy - 3 + {0, 2, 4,
// 6}, so each pair row serves 4 output rows.
template <bool kVnni, class SourceRow>
void WordPairRows(const Plane& dst, int iy, int h, const int16_t* taps,
                  int maxv, Scratch<uint16_t>& s, const SourceRow& source_row,
                  int y_begin, int y_end) {
  const size_t G = 2 * hn::Lanes(D16());
  int tags[8], pair_tags[8];
  std::fill(tags, tags + 8, INT_MIN);
  std::fill(pair_tags, pair_tags + 8, INT_MIN);
  const auto row = [&](int c) {
    c = std::clamp(c, 0, h - 1);
    uint16_t* slot = s.slot(c);
    if (tags[c & 7] != c) {
      tags[c & 7] = c;
      source_row(c, slot);
    }
    return slot;
  };
  const auto pair_row = [&](int p) {
    auto* out = reinterpret_cast<uint16_t*>(s.row(8 + 2 * (p & 7)));
    if (pair_tags[p & 7] != p) {
      pair_tags[p & 7] = p;
      const uint16_t* a = row(p);
      PairWords(a, row(p + 1), s.groups * G, out);
    }
    return out;
  };
  for (int y = y_begin; y < y_end; y++) {
    const int a = y + iy - 3;
    const uint16_t* pairs[4] = {pair_row(a), pair_row(a + 2), pair_row(a + 4),
                                pair_row(a + 6)};
    WriteRow(dst, y, G, s.tmp, [&](size_t g0, size_t count, uint16_t* out) {
      Vertical8Words<kVnni>(pairs, taps, maxv, g0, count, out, dst.lsb);
    });
  }
}

#if MC_DOT_ISLAND
// The 8-tap vertical pass of output rows [y_begin, y_end) through the
// island's quad rows: quad row k holds source rows clamp(b + 4k + m), m < 4,
// b = y_begin + iy - 3 (filtered horizontally by fill(c, out), from the
// rows' numbers c[0..3]), and output row y_begin + 4k + s reads quad rows
// k .. k + 2 shifted by s rows, 4 output rows at a time (vertical(q, g0,
// count, rows, ahead): groups [g0, g0 + count) of rows s = 0 .. 3 from
// quad rows q[0..2], row s from rows[s] on where that is not null; `ahead`,
// where not 0, the bytes from rows[s] to the next step's row s, which the
// call may fetch into the cache). Quad row k goes
// into ring place k % 3 (scratch rows 0 .. 5, two each; 10-bit ones, the
// word island's two pair rows, 0 .. 11, four each) once quad row k - 3 is
// no longer read; the rows' partial last groups, or whole rows of
// interleaved chroma, are written through the 4 scratch rows from 10 (16),
// after 4 that the fill may use.
constexpr int kQuadRows = 3;

template <class S>
constexpr int QuadRowScratchRows() {
  return 2 * static_cast<int>(sizeof(S));
}

template <class S>
uint8_t* QuadFillRow(Scratch<S>& s, int m) {
  return s.row(kQuadRows * QuadRowScratchRows<S>() + m);
}

template <class S, class Fill, class Vertical>
void QuadRows(const Plane& dst, int iy, int h, Scratch<S>& s, size_t G,
              const Fill& fill, const Vertical& vertical, int y_begin,
              int y_end) {
  const int b = y_begin + iy - 3;
  const auto quad = [&](int k) {
    return reinterpret_cast<S*>(
        s.row(QuadRowScratchRows<S>() * (k % kQuadRows)));
  };
  const size_t w = static_cast<size_t>(dst.width);
  const size_t whole = dst.step == sizeof(S) ? w / G : 0;
  const size_t rest = s.groups - whole;
  for (int k = 0; y_begin + 4 * k < y_end; k++) {
    for (int built = k == 0 ? 0 : k + 2; built <= k + 2; built++) {
      int c[4];
      for (int m = 0; m < 4; m++)
        c[m] = std::clamp(b + 4 * built + m, 0, h - 1);
      fill(c, quad(built));
    }
    const S* q[3] = {quad(k), quad(k + 1), quad(k + 2)};
    const int y0 = y_begin + 4 * k, n = std::min(4, y_end - y0);
    S* rows[4] = {};
    S* tmp[4] = {};
    for (int r = 0; r < n; r++) {
      rows[r] = reinterpret_cast<S*>(dst.row(y0 + r));
      tmp[r] = reinterpret_cast<S*>(QuadFillRow(s, 4 + r));
    }
    // The next step's rows, where they are whole rows of this band.
    const ptrdiff_t ahead = y0 + 8 <= y_end && n == 4 ? 4 * dst.stride : 0;
    if (whole) vertical(q, 0, whole, rows, ahead);
    if (!rest) continue;
    vertical(q, whole, rest, tmp, ptrdiff_t{0});
    for (int r = 0; r < n; r++) {
      if (dst.step == sizeof(S))
        std::memcpy(rows[r] + whole * G, tmp[r], (w - whole * G) * sizeof(S));
      else
        Scatter(dst, y0 + r, tmp[r]);
    }
  }
}
#endif

// `dot`: the 8-bit 8-tap passes through the target's dot-product island
// (MC_DOT_ISLAND), the 10-bit ones through its vpdpwssd (kWordsVnni);
// the caller has found the CPU to have them.
template <class S, bool kVnni = false>
void McRows(const Plane& dst, const ConstPlane& src, const McPlaneShift& sh,
            McFilter filter, int y_begin, int y_end,
            [[maybe_unused]] bool dot = false) {
  // A plane without columns has nothing to write, nor an edge sample to
  // extend: Extend would read outside the row.
  if (y_begin >= y_end || src.width == 0) return;
  constexpr bool kBytes = sizeof(S) == 1;
  const size_t G = 2 * hn::Lanes(D16());
  const int w = src.width, h = src.height, maxv = src.max_value();
  const bool bilinear = filter == McFilter::Bilinear;
  const int16_t* taps_x =
      bilinear ? nullptr : kVp9Filters[static_cast<int>(filter)][sh.fx];
  const int16_t* taps_y =
      bilinear ? nullptr : kVp9Filters[static_cast<int>(filter)][sh.fy];
  // The spares: the quad rows' (QuadRows), rows 8 .. 13 (10-bit: 8 .. 19);
  // the pair rows' (WordPairRows), rows 8 .. 23.
  const int spares = kBytes ? (MC_DOT_ISLAND && dot ? 6 : 0)
                            : (bilinear || sh.fy == 0 ? 0 : 16);
  Scratch<S> s(w, G, spares);
  const Inside<S> inside(src, sh.ix, G, s.groups);
  const auto clamp_row = [h](int r) { return std::clamp(r, 0, h - 1); };
  // The addresses of the source rows that the quad row after that of rows
  // c[0..3] reads, from the window's first column (which the AVX-512
  // islands fetch into the cache while they filter rows c).
  [[maybe_unused]] const auto next_quad_sources = [&](const int* c,
                                                      uintptr_t* ahead) {
    for (int m = 0; m < 4; m++)
      ahead[m] =
          reinterpret_cast<uintptr_t>(src.row(std::min(c[m] + 4, h - 1))) +
          static_cast<uintptr_t>((sh.ix - 3) * src.step);
  };
  // Into `out` from group g0 on; `shift`: 10-bit values are stored shifted
  // by it (the plane's lsb in an output row).
  const auto horizontal = [&](const Window<S>& e, size_t g0, size_t count,
                              auto out, int shift) {
    if constexpr (!kBytes) {
      if (bilinear)
        LerpHorizontalWords(e, sh.fx, g0, count, out, shift);
      else
        Horizontal8Words<kVnni>(e, taps_x, maxv, g0, count, out, shift);
    } else if (bilinear) {
      LerpHorizontal(e, sh.fx, g0, count, out);
    } else {
#if MC_DOT_ISLAND
      if constexpr (std::is_same_v<decltype(out), uint8_t*>) {
        if (dot) return Horizontal8Dot(e, taps_x, g0, count, out);
      }
#endif
#if HWY_TARGET <= HWY_SSSE3
      Horizontal8Pairs(e, taps_x, g0, count, out);
#else
      if (OuterTapsMinusOne(taps_x))
        Horizontal8<true>(e, taps_x, g0, count, out);
      else
        Horizontal8<false>(e, taps_x, g0, count, out);
#endif
    }
  };
  // Source row c filtered horizontally, or widened, into out.
  const auto source_row = [&](int c, auto out) {
    if constexpr (!kBytes) {
      if (sh.fx == 0)
        return Extend(src, c, sh.ix, static_cast<int>(s.groups * G), out);
    }
    const Window<S> e(src, c, sh.ix, G, s.groups, inside, s.ext);
    if (sh.fx != 0)
      horizontal(e, 0, s.groups, out, 0);
    else if constexpr (kBytes)
      Widen(e, s.groups, out);
  };

  if (sh.fy == 0) {
    for (int y = y_begin; y < y_end; y++) {
      const int c = clamp_row(y + sh.iy);
      if (sh.fx == 0 && dst.step == sizeof(S)) {
        Extend(src, c, sh.ix, w, reinterpret_cast<S*>(dst.row(y)), dst.lsb);
      } else if (sh.fx == 0) {
        Extend(src, c, sh.ix, w, s.tmp, dst.lsb);
        Scatter(dst, y, s.tmp);
      } else {
        const Window<S> e(src, c, sh.ix, G, s.groups, inside, s.ext);
        WriteRow(dst, y, G, s.tmp, [&](size_t g0, size_t count, S* out) {
          horizontal(e, g0, count, out, dst.lsb);
        });
      }
    }
    return;
  }

#if MC_DOT_ISLAND
  if constexpr (kBytes) {
    if (dot && !bilinear) {
      // The 4 fill rows hold 4 windows' extended parts, or 4 source rows.
      const auto fill = [&](const int* c, uint8_t* out) {
        if (sh.fx == 0) {
          const uint8_t* rows[4];
          for (int m = 0; m < 4; m++) {
            rows[m] = QuadFillRow(s, m);
            Extend(src, c[m], sh.ix, w, QuadFillRow(s, m));
          }
          return QuadsOfRows(rows, s.groups, out);
        }
        const Window<S> e[4] = {
            {src, c[0], sh.ix, G, s.groups, inside, QuadFillRow(s, 0)},
            {src, c[1], sh.ix, G, s.groups, inside, QuadFillRow(s, 1)},
            {src, c[2], sh.ix, G, s.groups, inside, QuadFillRow(s, 2)},
            {src, c[3], sh.ix, G, s.groups, inside, QuadFillRow(s, 3)}};
#if HWY_TARGET == HWY_AVX3
        uintptr_t ahead[4];
        next_quad_sources(c, ahead);
        HorizontalQuads(e, taps_x, s.groups, ahead, G * src.step, out);
#else  // (NEON's island fetches nothing ahead: not measured on an A76.)
        HorizontalQuads(e, taps_x, s.groups, out);
#endif
      };
      const auto vertical = [&](const uint8_t* const* q, size_t g0,
                                size_t count, uint8_t* const* rows,
                                [[maybe_unused]] ptrdiff_t ahead) {
#if HWY_TARGET == HWY_AVX3
        VerticalQuads(q, taps_y, g0, count, rows, ahead);
#else
        VerticalQuads(q, taps_y, g0, count, rows);
#endif
      };
      QuadRows(dst, sh.iy, h, s, G, fill, vertical, y_begin, y_end);
      return;
    }
  }
#endif
#if HWY_TARGET == HWY_AVX3
  if constexpr (!kBytes && kVnni) {
    // The word island's 2-D pass; a vertical pass alone reads pair rows.
    if (!bilinear && sh.fx != 0) {
      const auto ext = [&](int m) {
        return reinterpret_cast<uint16_t*>(QuadFillRow(s, m));
      };
      // Where a load's values are one instruction away (WordSource), the
      // rows are read where they lie: the groups inside the row by plain
      // loads, the others by clamped ones. Elsewhere every group reads
      // Extend's copies.
      const WordSource source = WordSourceOf(src);
      const bool copy = source == WordSource::kCopy;
      const Inside<S> inside_row(src, sh.ix, G, s.groups, kHalfColumns, true);
      const auto fill = [&](const int* c, uint16_t* out) {
        WordRows r{{},
                   copy ? 0 : sh.ix - 3,
                   w,
                   copy ? 0 : inside_row.lo,
                   copy ? s.groups : inside_row.hi};
        for (int m = 0; m < 4; m++) {
          if (copy)
            Extend(src, c[m], sh.ix - 3, static_cast<int>(s.groups * G + kTail),
                   ext(m));
          r.row[m] =
              copy ? ext(m) : reinterpret_cast<const uint16_t*>(src.row(c[m]));
        }
        uintptr_t ahead[4];
        next_quad_sources(c, ahead);
        HorizontalWordQuads(r, taps_x, maxv, source, src.lsb, s.groups, ahead,
                            G * src.step, out);
      };
      const auto vertical = [&](const uint16_t* const* q, size_t g0,
                                size_t count, uint16_t* const* rows,
                                ptrdiff_t ahead) {
        if (dst.lsb)
          VerticalWordQuads<true>(q, taps_y, maxv, dst.lsb, g0, count, rows,
                                  ahead);
        else
          VerticalWordQuads<false>(q, taps_y, maxv, 0, g0, count, rows, ahead);
      };
      QuadRows(dst, sh.iy, h, s, G, fill, vertical, y_begin, y_end);
      return;
    }
  }
#endif
#if HWY_TARGET <= HWY_SSSE3
  if constexpr (kBytes) {
    if (!bilinear) {
      PairRows(dst, sh.iy, h, taps_y, s, source_row, y_begin, y_end);
      return;
    }
  }
#endif
  if constexpr (!kBytes) {
    if (!bilinear) {
      WordPairRows<kVnni>(dst, sh.iy, h, taps_y, maxv, s, source_row, y_begin,
                          y_end);
      return;
    }
  }
  // Vertical filtering over rows clamp(y + iy + top + k), k < taps. Within
  // a window the clamped row numbers are consecutive, so c & 7 names a slot
  // no other row of the window uses.
  const int taps = bilinear ? 2 : 8, top = bilinear ? 0 : -3;
  int tags[8];
  std::fill(tags, tags + 8, INT_MIN);
  const Mid<S>* rows[8];
  for (int y = y_begin; y < y_end; y++) {
    for (int k = 0; k < taps; k++) {
      const int c = clamp_row(y + sh.iy + top + k);
      Mid<S>* slot = s.slot(c);
      if (tags[c & 7] != c) {
        tags[c & 7] = c;
        source_row(c, slot);
      }
      rows[k] = slot;
    }
    WriteRow(dst, y, G, s.tmp, [&](size_t g0, size_t count, S* out) {
      if constexpr (!kBytes) {
        LerpVerticalWords(rows[0], rows[1], sh.fy, g0, count, out, dst.lsb);
      } else if (bilinear) {
        LerpVertical(rows[0], rows[1], sh.fy, g0, count, out);
      } else if (OuterTapsMinusOne(taps_y)) {
        Vertical8<true>(rows, taps_y, g0, count, out);
      } else {
        Vertical8<false>(rows, taps_y, g0, count, out);
      }
    });
  }
}

void McRowsBytes(const Plane& dst, const ConstPlane& src,
                 const McPlaneShift& sh, McFilter filter, int y_begin,
                 int y_end) {
  McRows<uint8_t>(dst, src, sh, filter, y_begin, y_end);
}

// The same through the target's dot-product island (if it has one,
// McHasDotIsland), installed only where the CPU has its instructions
// (mc_cpu_has_dot_products).
bool McHasDotIsland() { return MC_DOT_ISLAND; }

void McRowsBytesDot(const Plane& dst, const ConstPlane& src,
                    const McPlaneShift& sh, McFilter filter, int y_begin,
                    int y_end) {
  McRows<uint8_t>(dst, src, sh, filter, y_begin, y_end, MC_DOT_ISLAND);
}

void McRowsWords(const Plane& dst, const ConstPlane& src,
                 const McPlaneShift& sh, McFilter filter, int y_begin,
                 int y_end) {
  McRows<uint16_t>(dst, src, sh, filter, y_begin, y_end);
}

// The same through the target's vpdpwssd (if it has one, McHasWordsIsland),
// installed where the CPU has the 8-bit island's instructions too.
bool McHasWordsIsland() { return kWordsVnni; }

void McRowsWordsDot(const Plane& dst, const ConstPlane& src,
                    const McPlaneShift& sh, McFilter filter, int y_begin,
                    int y_end) {
  McRows<uint16_t, kWordsVnni>(dst, src, sh, filter, y_begin, y_end);
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace daedalus
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace daedalus {

HWY_EXPORT(McRowsBytes);
HWY_EXPORT(McRowsBytesDot);
HWY_EXPORT(McHasDotIsland);
HWY_EXPORT(McRowsWords);
HWY_EXPORT(McHasWordsIsland);
HWY_EXPORT(McRowsWordsDot);

bool mc_cpu_has_dot_products() {
#if HWY_ARCH_X86
  // CPUID leaf 7: ECX bits 1 AVX512_VBMI, 6 AVX512_VBMI2, 11 AVX512_VNNI
  // (the AVX3 target itself has checked AVX-512 F/BW/DQ/VL and the OS's
  // ZMM state).
  return x86_leaf7_ecx_has(1u << 1 | 1u << 6 | 1u << 11);
#elif HWY_ARCH_ARM_A64
  return (getauxval(AT_HWCAP) & HWCAP_ASIMDDP) != 0;
#else
  return false;
#endif
}

void mc_dsp_init_simd(McDsp* dsp, bool islands) {
  const bool cpu = islands && mc_cpu_has_dot_products();
  const bool island =
      cpu && simd_dispatch(HWY_DISPATCH_TABLE(McHasDotIsland))();
  const bool words_island =
      cpu && simd_dispatch(HWY_DISPATCH_TABLE(McHasWordsIsland))();
  dsp->rows = simd_dispatch(island ? HWY_DISPATCH_TABLE(McRowsBytesDot)
                                   : HWY_DISPATCH_TABLE(McRowsBytes));
  dsp->rows_hbd =
      simd_dispatch(words_island ? HWY_DISPATCH_TABLE(McRowsWordsDot)
                                 : HWY_DISPATCH_TABLE(McRowsWords));
}

}  // namespace daedalus
#endif
