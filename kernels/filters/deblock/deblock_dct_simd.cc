// The Highway implementation of deblock mode=dct (docs/spec.md). A vector of
// 16-bit lanes holds one row of Lanes/8 horizontally adjacent blocks of one
// shift, a block per 128-bit part, so the 8x8 transposes stay inside parts.
// 10-bit planes go through the same forward pass 1 and row loop, the rest of
// the pair in 32-bit lanes (deblock_dct_hbd_simd-inl.h).
// The forward transform needs only 16-bit adds and pmulhrsw-style products
// (its spec was written for that; dct8_forward_simd-inl.h, which the damage
// estimator's quantiser probe shares); VP9's inverse rotates with exact 32-bit
// pair products (pmaddwd on x86, vpdpwssd where the CPU has AVX-512 VNNI,
// smull/smlal and sqrshrn on NEON) and saturating adds, as its 16-bit
// storage rule allows. Rows are produced a chunk of 8 at a time: every shift's
// block row ending in the chunk is accumulated into a 16-row ring, so each
// source row and sum stays in cache while all shifts pass over it; shifts
// with the same sy (sets of 16 and more) share their block row's pass 1,
// made once over the whole row (Pass1Band). A group of
// blocks whose AC all fall under the threshold skips the inverse: VP9's
// inverse of a DC alone is flat. The loops over the 8 vectors of a block
// are unrolled by pragma: GCC at -O2 keeps them rolled and the arrays in
// memory, a store and a load per vector per step (a third of the time).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "filters/deblock/deblock_dct_simd.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "daedalus/deblock.h"
#include "deblock_dct_ref.h"
#include "filters/simd_constants.h"
#include "filters/simd_init.h"

HWY_BEFORE_NAMESPACE();
namespace daedalus {
namespace HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;

#include "filters/dct8_forward_simd-inl.h"

#if !DAEDALUS_DCT8_SIMD
// One lane cannot hold a block row; SVE's vectors are sizeless and cannot be
// array elements, which the blocks below are: the reference is these
// targets' rung (Arm cores without SVE, the Raspberry Pi 5's, run NEON).
template <class S, bool kVnni>
void DctRows(const ConstPlane& src, const Plane& dst,
             const DeblockPlaneParams& pp, int y_begin, int y_end) {
  dct_rows_ref<S>(src, dst, pp, y_begin, y_end);
}
#else

using D16 = hn::ScalableTag<int16_t>;
using V16 = hn::Vec<D16>;

// Round2(a * C1 + b * C2, 14), saturated to 16 bits: one VP9 butterfly
// output, exact in 32 bits. kVnni (AVX3 only, on CPUs with AVX-512 VNNI):
// vpdpwssd makes the pair products and adds the rounding in one
// instruction, pmaddwd and paddd elsewhere. It is inline assembly because
// Highway 1.0's AVX3 target does not reach it (its AVX3_DL does, but that
// target is opt-in and would be built for every kernel).
template <int C1, int C2, bool kVnni>
HWY_INLINE V16 rotate(D16 d, V16 a, V16 b) {
#if HWY_ARCH_X86
  const hn::Repartition<int32_t, D16> d32;
  const auto round = splat<int32_t, 1 << 13>(d32);
  // The (a, b) pairs; the interleave and the pack both work within 128-bit
  // parts, so lanes come back in order.
  constexpr int32_t kPair =
      int32_t(uint32_t(uint16_t(C2)) << 16 | uint16_t(C1));
  const V16 k = hn::BitCast(d, splat<int32_t, kPair>(d32));
  const V16 ab_lo = hn::InterleaveLower(d, a, b);
  const V16 ab_hi = hn::InterleaveUpper(d, a, b);
  auto lo = round, hi = round;
#if HWY_TARGET == HWY_AVX3
  if constexpr (kVnni) {
    asm("vpdpwssd %2, %1, %0" : "+v"(lo.raw) : "v"(ab_lo.raw), "vm"(k.raw));
    asm("vpdpwssd %2, %1, %0" : "+v"(hi.raw) : "v"(ab_hi.raw), "vm"(k.raw));
  } else
#endif
  {
    static_assert(!kVnni || HWY_TARGET == HWY_AVX3);
    auto unused = hn::Zero(d32);
    lo = hn::ReorderWidenMulAccumulate(d32, ab_lo, k, round, unused);
    hi = hn::ReorderWidenMulAccumulate(d32, ab_hi, k, round, unused);
  }
  return hn::ReorderDemote2To(d, hn::ShiftRight<14>(lo),
                              hn::ShiftRight<14>(hi));
#elif HWY_TARGET == HWY_NEON && HWY_ARCH_ARM_A64
  // smull/smlal make the exact sums, sqrshrn rounds, shifts and saturates
  // in one: 6 instructions per output, where GCC makes 12 of the portable
  // form below (the widenings, mul and mla, the rounding add, sshr, sqxtn).
  const int16x4_t c1 = vdup_n_s16(C1), c2 = vdup_n_s16(C2);
  const int32x4_t lo =
      vmlal_s16(vmull_s16(vget_low_s16(a.raw), c1), vget_low_s16(b.raw), c2);
  const int32x4_t hi = vmlal_high_s16(vmull_high_s16(a.raw, vdupq_n_s16(C1)),
                                      b.raw, vdupq_n_s16(C2));
  (void)d;
  return V16(vqrshrn_high_n_s32(vqrshrn_n_s32(lo, 14), hi, 14));
#else
  const hn::Half<D16> dh;
  const hn::Rebind<int32_t, decltype(dh)> dw;
  const auto c1 = hn::Set(dw, C1), c2 = hn::Set(dw, C2);
  const auto r = hn::Set(dw, 1 << 13);
  // Exact 32-bit products (Highway 1.0 has no integer MulAdd).
  const auto sum = [&](auto ha, auto hb) {
    return hn::Add(hn::Add(hn::Mul(hn::PromoteTo(dw, ha), c1),
                           hn::Mul(hn::PromoteTo(dw, hb), c2)),
                   r);
  };
  const auto lo = sum(hn::LowerHalf(dh, a), hn::LowerHalf(dh, b));
  const auto hi = sum(hn::UpperHalf(dh, a), hn::UpperHalf(dh, b));
  return hn::Combine(d, hn::DemoteTo(dh, hn::ShiftRight<14>(hi)),
                     hn::DemoteTo(dh, hn::ShiftRight<14>(lo)));
#endif
}

constexpr int kCos4 = 16069, kCos8 = 15137, kCos12 = 13623, kCos16 = 11585,
              kCos20 = 9102, kCos24 = 6270, kCos28 = 3196;

// What the inverse's lane type changes. 16-bit lanes (8-bit planes): adds
// saturate, as the spec's 16-bit storage rule says; a single product
// Round2(v * K, 14) is pmulhrsw by 2K, which rounds the same; a pair is
// rotate's. 32-bit lanes (10-bit planes): plain adds and products, which
// on the forward transform's coefficients neither overflow nor reach the
// 18-bit clip (docs/spec.md, "32 bits suffice").
template <class D>
constexpr bool kWide = sizeof(hn::TFromD<D>) == 4;

template <class D, class V = hn::Vec<D> >
HWY_INLINE V stored_add(D, V a, V b) {
  if constexpr (kWide<D>)
    return hn::Add(a, b);
  else
    return hn::SaturatedAdd(a, b);
}
template <class D, class V = hn::Vec<D> >
HWY_INLINE V stored_sub(D, V a, V b) {
  if constexpr (kWide<D>)
    return hn::Sub(a, b);
  else
    return hn::SaturatedSub(a, b);
}

template <int K, class D, class V = hn::Vec<D> >
HWY_INLINE V mul14(D d, V v) {
  if constexpr (kWide<D>)
    return hn::ShiftRight<14>(
        hn::Add(hn::Mul(v, splat<int32_t, K>(d)), splat<int32_t, 1 << 13>(d)));
  else
    return mul15<2 * K>(d, v);
}

template <int C1, int C2, bool kVnni, class D, class V = hn::Vec<D> >
HWY_INLINE V rotate_any(D d, V a, V b) {
  if constexpr (!kWide<D>) {
    return rotate<C1, C2, kVnni>(d, a, b);
  } else {
    const V sum = hn::Add(hn::Mul(a, splat<int32_t, C1>(d)),
                          hn::Mul(b, splat<int32_t, C2>(d)));
    return hn::ShiftRight<14>(hn::Add(sum, splat<int32_t, 1 << 13>(d)));
  }
}

// VP9's 1D inverse over the vectors t[0..7] (dct8.cc's stages), the row
// pass or the column pass. The butterflies whose constants are both cos16
// (b0, b1 and c5, c6) are one product of the sum or difference of their
// inputs, in 16-bit lanes one pmulhrsw: on the forward transform's
// coefficients, any of them zeroed, t0 +- t4 and b6 +- b5 fit 16 bits in
// both passes (|b6 +- b5| <= 11625 in the row pass, every such value within
// 19500 in the column pass) and nothing before them is clipped:
// tests/kernels/common/dct8_test.cc's RowPassLastButterflyFitsSixteenBits and
// Cos16ButterfliesFitSixteenBits prove it. With kLowHalf, t[4..7] are all 0
// (as thresholding mostly leaves them): then every stage-1 and stage-2
// butterfly has a single product, which no lane type can overflow.
// With kOffset, `offset` is added to c0..c3 (stage 3's even half), so to
// every output: the column pass takes the reconstruction's rounding and
// prediction there, 4 adds instead of 8 (block_row says why that is exact).
template <bool kLowHalf, bool kVnni, bool kOffset = false, class D,
          class V = hn::Vec<D> >
HWY_INLINE void inverse(D d, V t[8], V offset = V()) {
  V a4, a5, a6, a7, b0, b1, b2, b3;
  if constexpr (kLowHalf) {
    a4 = mul14<kCos28>(d, t[1]);
    a7 = mul14<kCos4>(d, t[1]);
    a5 = mul14<-kCos20>(d, t[3]);
    a6 = mul14<kCos12>(d, t[3]);
    b0 = b1 = mul14<kCos16>(d, t[0]);
    b2 = mul14<kCos24>(d, t[2]);
    b3 = mul14<kCos8>(d, t[2]);
  } else {
    a4 = rotate_any<kCos28, -kCos4, kVnni>(d, t[1], t[7]);
    a7 = rotate_any<kCos4, kCos28, kVnni>(d, t[1], t[7]);
    a5 = rotate_any<kCos12, -kCos20, kVnni>(d, t[5], t[3]);
    a6 = rotate_any<kCos20, kCos12, kVnni>(d, t[5], t[3]);
    b0 = mul14<kCos16>(d, hn::Add(t[0], t[4]));
    b1 = mul14<kCos16>(d, hn::Sub(t[0], t[4]));
    b2 = rotate_any<kCos24, -kCos8, kVnni>(d, t[2], t[6]);
    b3 = rotate_any<kCos8, kCos24, kVnni>(d, t[2], t[6]);
  }
  const V b4 = stored_add(d, a4, a5), b5 = stored_sub(d, a4, a5);
  const V b6 = stored_sub(d, a7, a6), b7 = stored_add(d, a7, a6);
  const auto even = [&](V c) { return kOffset ? hn::Add(c, offset) : c; };
  const V c0 = even(stored_add(d, b0, b3)), c1 = even(stored_add(d, b1, b2));
  const V c2 = even(stored_sub(d, b1, b2)), c3 = even(stored_sub(d, b0, b3));
  const V c5 = mul14<kCos16>(d, hn::Sub(b6, b5));
  const V c6 = mul14<kCos16>(d, hn::Add(b6, b5));
  t[0] = stored_add(d, c0, b7);
  t[1] = stored_add(d, c1, c6);
  t[2] = stored_add(d, c2, c5);
  t[3] = stored_add(d, c3, b4);
  t[4] = stored_sub(d, c3, b4);
  t[5] = stored_sub(d, c2, c5);
  t[6] = stored_sub(d, c1, c6);
  t[7] = stored_sub(d, c0, b7);
}

// The rows of a plane mirrored about its edges (the spec's refl), each
// padded to columns [-8, width + pad): a ring of 32 rows, each built once
// when first asked for. In place, every row is asked for (copied) before
// its chunk is written, and the rows asked for again later (the bottom
// mirror) are within 15 of the last: still in the ring. Samples of type S:
// bytes, or 10-bit values (from their words, the other bits dropped).
template <class S>
class MirroredRows {
 public:
  MirroredRows(const ConstPlane& src, int pad)
      : src_(src), pitch_(8 + src.width + pad), bytes_(32 * size_t(pitch_)) {
    std::fill(tag_, tag_ + 32, -1);
    // The source column of each padding column, found once (not per row).
    for (int x = -8; x < 0; x++) edge_.push_back(dct_refl(x, src.width));
    for (int x = src.width; x < pitch_ - 8; x++)
      edge_.push_back(dct_refl(x, src.width));
  }
  // Row y (any integer) at its column 0.
  const S* row(int y) {
    const int r = dct_refl(y, src_.height), slot = r & 31;
    S* out = bytes_.data() + size_t(slot) * pitch_;
    if (tag_[slot] != r) {
      tag_[slot] = r;
      const int w = src_.width;
      if constexpr (sizeof(S) == 1) {
        const uint8_t* in = src_.row(r);
        const int step = src_.step;
        if (step == 1)
          std::memcpy(out + 8, in, size_t(w));
        else
          for (int x = 0; x < w; x++) out[8 + x] = in[x * step];
        for (int x = 0; x < 8; x++) out[x] = in[edge_[x] * step];
        for (int x = w; x < pitch_ - 8; x++)
          out[8 + x] = in[edge_[8 + x - w] * step];
      } else {
        const auto value = [&](int x) {
          return S(sample_value<S>(src_, x, r));
        };
        int x = 0;
        if (src_.step == 2) {  // whole vectors of words, then one at a time
          const hn::ScalableTag<uint16_t> du;
          const auto max = hn::Set(du, uint16_t(src_.max_value()));
          const auto* words = reinterpret_cast<const uint16_t*>(src_.row(r));
          for (const int n = int(hn::Lanes(du)); x + n <= w; x += n) {
            const auto v =
                hn::ShiftRightSame(hn::LoadU(du, words + x), src_.lsb);
            hn::StoreU(hn::And(v, max), du, out + 8 + x);
          }
        }
        for (; x < w; x++) out[8 + x] = value(x);
        for (int x = 0; x < 8; x++) out[x] = value(edge_[x]);
        for (int x = w; x < pitch_ - 8; x++)
          out[8 + x] = value(edge_[8 + x - w]);
      }
    }
    return out + 8;
  }

 private:
  ConstPlane src_;
  int pitch_;
  std::vector<S> bytes_;
  std::vector<int> edge_;  // columns -8..-1, then width.. of the padding
  int tag_[32];
};

// The rows of the block row with top `by`: its 8 source rows and the 8 rows
// of the ring its reconstructions are added to.
template <class S, class SumRow>
HWY_INLINE void block_row_rows(MirroredRows<S>& rows, const SumRow& sum, int by,
                               const S* in[8], int16_t* out[8]) {
  for (int i = 0; i < 8; i++) {
    in[i] = rows.row(by + i);
    out[i] = sum(by + i);
  }
}

// The spec's x_i = 2 * (P - mid) of the columns [bx, bx + Lanes) of `in`
// through pass 1: x[v], one column per lane. Pass 1 is linear up to its
// products, which see only differences of x, so the offset is taken from
// X0 alone (`bias` = 8 * 2 mid), once instead of once per row. At 10 bits
// too, every value fits 16 bits (X0 of 2P <= 16368).
template <class S>
HWY_INLINE void forward_pass1_columns(D16 d, const S* const in[8], int bx,
                                      V16 bias, V16 x[8]) {
  const hn::RebindToUnsigned<D16> du;
  HWY_UNROLL(8)
  for (int i = 0; i < 8; i++) {
    hn::Vec<decltype(du)> p;
    if constexpr (sizeof(S) == 1)
      p = hn::PromoteTo(du, hn::LoadU(hn::Rebind<uint8_t, D16>(), in[i] + bx));
    else
      p = hn::LoadU(du, in[i] + bx);
    x[i] = hn::ShiftLeft<1>(hn::BitCast(d, p));
  }
  forward<1>(d, x);
  x[0] = hn::Sub(x[0], bias);
}

// The blocks at column bx of `in` through pass 1 and the transpose: x[c],
// lane v of each block.
template <class S>
HWY_INLINE void forward_pass1(D16 d, const S* const in[8], int bx, V16 bias,
                              V16 x[8]) {
  forward_pass1_columns(d, in, bx, bias, x);
  transpose(d, x);
}

// Pass 1 of a block row's 8 source rows over the whole row, made once for
// all the shifts with that row's sy: pass 1 is vertical, so it is the same
// for each of them (the sets of 16 shifts and more repeat every sy).
class Pass1Band {
 public:
  // Pass 1 of the columns [-8, width + Lanes - 1) of in[] (rows as
  // MirroredRows gives them), which a block row's groups read.
  template <class S>
  void fill(D16 d, const S* const in[8], int width, V16 bias) {
    const int n = int(hn::Lanes(d));
    pitch_ = 8 + width + n;
    values_.resize(8 * size_t(pitch_));
    // The last group ends at width + n - 1 (not past the rows' padding); it
    // may overlap the one before, with the same values.
    for (int x = -8;; x = std::min(x + n, width - 1)) {
      V16 v[8];
      forward_pass1_columns(d, in, x, bias, v);
      HWY_UNROLL(8)
      for (int i = 0; i < 8; i++) hn::StoreU(v[i], d, row(i) + x);
      if (x == width - 1) break;
    }
  }
  // forward_pass1's x for the blocks at column bx.
  void load(D16 d, int bx, V16 x[8]) const {
    HWY_UNROLL(8)
    for (int i = 0; i < 8; i++) x[i] = hn::LoadU(d, row(i) + bx);
    transpose(d, x);
  }

 private:
  int16_t* row(int i) { return values_.data() + size_t(i) * pitch_ + 8; }
  const int16_t* row(int i) const {
    return values_.data() + size_t(i) * pitch_ + 8;
  }

  int pitch_ = 0;
  std::vector<int16_t> values_;
};

// A block row's pass 1: from its band where there is one, else made.
template <class S>
HWY_INLINE void block_row_pass1(D16 d, const Pass1Band* band,
                                const S* const in[8], int bx, V16 bias,
                                V16 x[8]) {
  if (band)
    band->load(d, bx, x);
  else
    forward_pass1(d, in, bx, bias, x);
}

// One shift's block row with top `by`, its reconstructions added to
// `sum(y)` (a row of the ring at its column 0); its pass 1 from `band`
// unless null.
template <bool kVnni, class SumRow>
void block_row(D16 d, MirroredRows<uint8_t>& rows, int width, int sx, int by,
               int threshold, const SumRow& sum, const Pass1Band* band) {
  const size_t n = hn::Lanes(d);
  const hn::RebindToUnsigned<D16> du;
  const V16 bias = hn::Set(d, 8 * 256), t = hn::Set(d, int16_t(threshold));
  // Round2(y, 5) + 128 = (y + 16 + 32 * 128) >> 5: the prediction added
  // before the shift. Saturating there changes nothing: from 28656 up the
  // sample clips to 255 either way.
  const V16 round_pred = hn::Set(d, 16 + 32 * 128), k255 = hn::Set(d, 255);
  const V16 zero = hn::Zero(d);
  const auto dc_lane =
      hn::Eq(hn::And(hn::Iota(du, 0), hn::Set(du, 7)), hn::Zero(du));
  const auto is_dc = hn::RebindMask(d, dc_lane);
  const auto high_v = hn::RebindMask(
      d, hn::Gt(hn::And(hn::Iota(du, 0), hn::Set(du, 7)), hn::Set(du, 3)));
  const uint8_t* in[8];
  int16_t* out[8];
  block_row_rows(rows, sum, by, in, out);
  for (int bx = sx > 0 ? sx - 8 : 0; bx < width; bx += int(n)) {
    V16 x[8];
    block_row_pass1(d, band, in, bx, bias, x);
    forward<2>(d, x);  // x[u], lane v of each block
    x[0] = hn::IfThenElseZero(hn::Or(is_dc, hn::Gt(hn::Abs(x[0]), t)), x[0]);
    HWY_UNROLL(8)
    for (int u = 1; u < 8; u++)
      x[u] = hn::IfThenElseZero(hn::Gt(hn::Abs(x[u]), t), x[u]);
    // Which coefficients survive, from ORs of the kept ones (vector ORs: as
    // mask ORs they were a serial chain through AVX-512's mask registers):
    // any AC at all; any at u >= 4 (the row pass's high half); any at
    // v >= 4 (lanes 4-7: the column pass's).
    const V16 high_u = hn::Or(hn::Or(x[4], x[5]), hn::Or(x[6], x[7]));
    const V16 ac =
        hn::Or(hn::Or(hn::IfThenZeroElse(is_dc, x[0]), hn::Or(x[1], x[2])),
               hn::Or(x[3], high_u));
    if (hn::AllTrue(d, hn::Eq(ac, zero))) {
      // VP9's inverse of a DC alone: Round2(., 14) by cos16 twice (exact
      // as pmulhrsw by twice cos16), Round2(., 5); the DC is lane 0 of
      // each block's part.
      const V16 y = mul15<2 * kCos16>(d, mul15<2 * kCos16>(d, x[0]));
      const V16 q = hn::Broadcast<0>(hn::Min(
          hn::Max(hn::ShiftRight<5>(hn::Add(y, round_pred)), zero), k255));
      HWY_UNROLL(8)
      for (int i = 0; i < 8; i++)
        hn::StoreU(hn::Add(hn::LoadU(d, out[i] + bx), q), d, out[i] + bx);
      continue;
    }
    if (hn::AllTrue(d, hn::Eq(high_u, zero)))
      inverse<true, kVnni>(d, x);
    else
      inverse<false, kVnni>(d, x);
    transpose(d, x);
    // The column pass adds round_pred to c0..c3, which are within 19500
    // (dct8_test.cc's Cos16ButterfliesFitSixteenBits): the sums
    // fit 16 bits, and the last stage's saturating adds then give
    // clip16(t + round_pred) for the spec's output t, which rounds and
    // clips to the same sample as clip16(clip16(t) + round_pred).
    if (hn::AllTrue(d, hn::Eq(hn::IfThenElseZero(high_v, ac), zero)))
      inverse<true, kVnni, true>(d, x, round_pred);
    else
      inverse<false, kVnni, true>(d, x, round_pred);
    HWY_UNROLL(8)
    for (int i = 0; i < 8; i++) {
      const V16 q = hn::Min(hn::Max(hn::ShiftRight<5>(x[i]), zero), k255);
      hn::StoreU(hn::Add(hn::LoadU(d, out[i] + bx), q), d, out[i] + bx);
    }
  }
}

#include "filters/deblock/deblock_dct_hbd_simd-inl.h"

// Planes of samples of type S (uint8_t, or uint16_t words of 10-bit
// values); kVnni: block_row's (8-bit only).
template <class S, bool kVnni>
void DctRows(const ConstPlane& src, const Plane& dst,
             const DeblockPlaneParams& params, int y_begin, int y_end) {
  const int w = dst.width;
  if (y_begin >= y_end || w == 0) return;
  const DeblockPlaneParams pp =
      deblock_plane_params_at_depth(params, src.bit_depth);
  const D16 d;
  const int n = int(hn::Lanes(d));
  // A group of blocks starts before w and reads n samples from there.
  MirroredRows<S> rows(src, n + 8);
  const int pitch = 8 + w + n + 8;
  std::vector<int16_t> ring(16 * size_t(pitch), 0);
  auto sum = [&](int y) { return ring.data() + size_t(y & 15) * pitch + 8; };
  const int shifts = pp.dct_shifts;
  int log2n = 0;
  while ((1 << log2n) < shifts) log2n++;
  std::vector<S> out_row(size_t(w) + n);
  const hn::RebindToUnsigned<D16> du;
  // The sums (at most 64 * 1023) and their means are unsigned 16-bit.
  const auto half = hn::Set(du, uint16_t(shifts / 2));
  // Chunk c is rows [8c, 8c + 8); block rows with tops 8c + sy end in it or
  // the next, so after chunk c's block rows it is complete.
  // The shifts in order of sy (the sums do not depend on the order), and
  // for each sy how many shifts have it: where more than one, their block
  // rows share a band.
  struct Shift {
    int sx, sy;
  };
  std::vector<Shift> order(shifts);
  int with_sy[8] = {};
  for (int k = 0; k < shifts; k++) {
    dct_shift(shifts, k, &order[k].sx, &order[k].sy);
    with_sy[order[k].sy]++;
  }
  std::stable_sort(order.begin(), order.end(),
                   [](Shift a, Shift b) { return a.sy < b.sy; });
  const V16 bias = hn::Set(d, int16_t(16 * (128 << (src.bit_depth - 8))));
  Pass1Band band;
  const int c_first = (y_begin >> 3) - 1, c_last = (y_end - 1) >> 3;
  for (int c = c_first; c <= c_last; c++) {
    int band_sy = -1;
    for (const Shift& s : order) {
      const int by = 8 * c + s.sy;
      if (by + 8 <= y_begin || by >= y_end) continue;
      const Pass1Band* shared = nullptr;
      if (with_sy[s.sy] > 1) {
        if (band_sy != s.sy) {
          const S* in[8];
          for (int i = 0; i < 8; i++) in[i] = rows.row(by + i);
          band.fill(d, in, w, bias);
          band_sy = s.sy;
        }
        shared = &band;
      }
      if constexpr (sizeof(S) == 1)
        block_row<kVnni>(d, rows, w, s.sx, by, pp.dct_threshold, sum, shared);
      else
        block_row_hbd(d, rows, w, s.sx, by, pp.dct_threshold, src.bit_depth,
                      sum, shared);
    }
    for (int y = std::max(8 * c, y_begin); y < std::min(8 * c + 8, y_end);
         y++) {
      const int16_t* s = sum(y);
      const auto mean = [&](int x) {
        return hn::ShiftRightSame(
            hn::Add(hn::BitCast(du, hn::LoadU(d, s + x)), half), log2n);
      };
      // Whole vectors straight into a packed row; the rest through out_row.
      int x0 = 0;
      if constexpr (sizeof(S) == 1) {
        const hn::Rebind<uint8_t, D16> d8;
        const auto mean8 = [&](int x) {
          return hn::DemoteTo(d8, hn::BitCast(d, mean(x)));
        };
        // The row's address once (stores through it could alias dst's).
        uint8_t* const row = dst.row(y);
        if (dst.step == 1)
          for (; x0 + n <= w; x0 += n) hn::StoreU(mean8(x0), d8, row + x0);
        for (int x = x0; x < w; x += n)
          hn::StoreU(mean8(x), d8, out_row.data() + x - x0);
        for (int x = x0; x < w; x++) dst.at(x, y) = out_row[x - x0];
      } else {
        // The words: each value at its plane's lsb, the other bits 0.
        const auto words = [&](int x) {
          return hn::ShiftLeftSame(mean(x), dst.lsb);
        };
        if (dst.step == 2) {
          uint16_t* row = reinterpret_cast<uint16_t*>(dst.row(y));
          for (; x0 + n <= w; x0 += n) hn::StoreU(words(x0), du, row + x0);
        }
        for (int x = x0; x < w; x += n)
          hn::StoreU(words(x), du, out_row.data() + x - x0);
        for (int x = x0; x < w; x++)
          std::memcpy(&dst.at(x, y), &out_row[x - x0], 2);
      }
    }
    // Chunk c's rows of the ring are free for chunk c + 2.
    for (int y = 8 * c; y < 8 * c + 8; y++)
      std::fill_n(sum(y) - 8, pitch, int16_t(0));
  }
}

#endif  // DAEDALUS_DCT8_SIMD

}  // namespace

void dct_rows(const ConstPlane& src, const Plane& dst,
              const DeblockPlaneParams& pp, int y_begin, int y_end) {
  DctRows<uint8_t, false>(src, dst, pp, y_begin, y_end);
}

void dct_rows_hbd(const ConstPlane& src, const Plane& dst,
                  const DeblockPlaneParams& pp, int y_begin, int y_end) {
  DctRows<uint16_t, false>(src, dst, pp, y_begin, y_end);
}

#if HWY_TARGET == HWY_AVX3
// The AVX3 rows with vpdpwssd (rotate's kVnni).
void dct_rows_vnni(const ConstPlane& src, const Plane& dst,
                   const DeblockPlaneParams& pp, int y_begin, int y_end) {
  DctRows<uint8_t, true>(src, dst, pp, y_begin, y_end);
}
#endif

}  // namespace HWY_NAMESPACE
}  // namespace daedalus
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace daedalus {

HWY_EXPORT(dct_rows);
HWY_EXPORT(dct_rows_hbd);

void deblock_dct_dsp_init_simd(DeblockDsp* dsp, [[maybe_unused]] bool islands) {
  dsp->dct_rows = simd_dispatch(HWY_DISPATCH_TABLE(dct_rows));
  dsp->dct_rows_hbd = simd_dispatch(HWY_DISPATCH_TABLE(dct_rows_hbd));
#if HWY_ARCH_X86 && (HWY_TARGETS & HWY_AVX3)
  // Where AVX3 is chosen and the CPU has VNNI, the AVX3 rows with
  // vpdpwssd. Highway's AVX3_DL bit stands for VNNI here (its feature set
  // includes it: Ice Lake and Zen 4 on); this build compiles no AVX3_DL
  // code, but the bit is reported (and restricted by tests) all the same.
  if (islands && dsp->dct_rows == &N_AVX3::dct_rows &&
      (hwy::SupportedTargets() & HWY_AVX3_DL))
    dsp->dct_rows = &N_AVX3::dct_rows_vnni;
#endif
}

}  // namespace daedalus
#endif  // HWY_ONCE
