// mode=dct's block row for 10-bit planes (docs/spec.md "High bit depth"),
// for deblock_dct_simd.cc, which includes it once per Highway target inside
// its target namespace, after D16, splat, mul15, forward, MirroredRows,
// block_row_rows and block_row_pass1. Hence no include guard and no includes
// of its own.
//
// Pass 1 of the forward transform fits 16 bits at 10 bits too (|x| <= 9656,
// and X0 of the unbiased input 2P <= 16368), so it and the first transpose
// are the 8-bit code's. From pass 2 on, values take 18 bits: a block row is
// two vectors of 32-bit lanes, "lo" with the lanes 0-3 of each 128-bit part
// and "hi" with lanes 4-7, so a block still lives in one part.
//
// The inverse is computed in 32 bits without its clipping: on coefficients
// of the forward transform neither can change a result (docs/spec.md, "32
// bits suffice"): every sum of products is under 1.6e9 and every stored
// value within +-95000 but the column pass's outputs, which reach the 18-bit
// bound only where Q clips to 0 or 1023 with or without it.

using D32 = hn::Repartition<int32_t, D16>;
using V32 = hn::Vec<D32>;

// The lanes 0-3 (lo) and 4-7 (hi) of each 128-bit part of v, sign-extended.
HWY_INLINE void widen_parts(D16 d, V16 v, V32& lo, V32& hi) {
  const D32 d32;
  const V16 zero = hn::Zero(d);
  lo = hn::ShiftRight<16>(hn::BitCast(d32, hn::InterleaveLower(d, zero, v)));
  hi = hn::ShiftRight<16>(hn::BitCast(d32, hn::InterleaveUpper(d, zero, v)));
}

// widen_parts undone: per 128-bit part, lo's 4 lanes then hi's, saturated
// to 16 bits (x86's packs work within parts; the other targets that get
// here have one part).
HWY_INLINE V16 narrow_parts(D16 d, V32 lo, V32 hi) {
  static_assert(HWY_ARCH_X86 || hn::MaxLanes(D16()) <= 8);
  return hn::ReorderDemote2To(d, lo, hi);
}

// Transposes the 4x4 matrix in each 128-bit part of r[0..3].
HWY_INLINE void transpose4(D32 d, V32* r) {
  const hn::Repartition<int64_t, D32> d64;
  const V32 a0 = hn::InterleaveLower(d, r[0], r[1]);
  const V32 a1 = hn::InterleaveUpper(d, r[0], r[1]);
  const V32 a2 = hn::InterleaveLower(d, r[2], r[3]);
  const V32 a3 = hn::InterleaveUpper(d, r[2], r[3]);
  const auto join = [&](V32 x, V32 y, bool upper) {
    const auto x64 = hn::BitCast(d64, x), y64 = hn::BitCast(d64, y);
    return hn::BitCast(d, upper ? hn::InterleaveUpper(d64, x64, y64)
                                : hn::InterleaveLower(d64, x64, y64));
  };
  r[0] = join(a0, a2, false);
  r[1] = join(a0, a2, true);
  r[2] = join(a1, a3, false);
  r[3] = join(a1, a3, true);
}

// The 8x8 matrices M[i][j] (vector i, lane j; lanes 0-3 in lo, 4-7 in hi)
// transposed, as four 4x4 ones: lo' = (T(lo[0..3]), T(hi[0..3])), hi' =
// (T(lo[4..7]), T(hi[4..7])). With hi_zero, hi is all 0 and so are rows
// 4..7 of the result, which are not made (inverse with kLowHalf does not
// read them).
HWY_INLINE void transpose_halves(D32 d, V32 lo[8], V32 hi[8], bool hi_zero) {
  V32 lo_right[4];
  HWY_UNROLL(4)
  for (int i = 0; i < 4; i++) lo_right[i] = lo[4 + i];
  transpose4(d, lo);
  transpose4(d, lo_right);
  if (!hi_zero) {
    HWY_UNROLL(4)
    for (int i = 0; i < 4; i++) lo[4 + i] = hi[i];
    transpose4(d, lo + 4);
    transpose4(d, hi + 4);
  }
  HWY_UNROLL(4)
  for (int i = 0; i < 4; i++) hi[i] = lo_right[i];
}

// The inverse (deblock_dct_simd.cc's, in 32-bit lanes) of both halves; of
// lo alone where hi is all 0 (its inverse would be too).
template <bool kLowHalf>
HWY_INLINE void inverse_halves(D32 d, V32 lo[8], V32 hi[8], bool hi_zero) {
  inverse<kLowHalf, false>(d, lo);
  if (!hi_zero) inverse<kLowHalf, false>(d, hi);
}

// One shift's block row with top `by` of a plane of bit depth `bit_depth`
// (threshold at that depth), its reconstructions added to `sum(y)`; its
// pass 1 from `band` unless null.
template <class SumRow>
void block_row_hbd(D16 d, MirroredRows<uint16_t>& rows, int width, int sx,
                   int by, int threshold, int bit_depth, const SumRow& sum,
                   const Pass1Band* band) {
  const D32 d32;
  const size_t n = hn::Lanes(d);
  const hn::RebindToUnsigned<D32> du32;
  const int mid = 128 << (bit_depth - 8);
  const V16 bias = hn::Set(d, int16_t(16 * mid));
  const V32 t = hn::Set(d32, threshold);
  // Round2(y, 5) + mid = (y + 16 + 32 mid) >> 5.
  const V32 round_pred = hn::Set(d32, 16 + 32 * mid);
  const V32 zero = hn::Zero(d32), max = hn::Set(d32, (1 << bit_depth) - 1);
  const auto reconstruct = [&](V32 y) {
    return hn::Min(hn::Max(hn::ShiftRight<5>(hn::Add(y, round_pred)), zero),
                   max);
  };
  // The DC is lane 0 of each part of lo[0].
  const auto is_dc = hn::RebindMask(
      d32,
      hn::Eq(hn::And(hn::Iota(du32, 0), hn::Set(du32, 3)), hn::Zero(du32)));
  const uint16_t* in[8];
  int16_t* out[8];
  block_row_rows(rows, sum, by, in, out);
  for (int bx = sx > 0 ? sx - 8 : 0; bx < width; bx += int(n)) {
    V16 x[8];
    block_row_pass1(d, band, in, bx, bias, x);
    V32 lo[8], hi[8];  // x[u], lanes v 0-3 and 4-7 of each block
    HWY_UNROLL(8)
    for (int i = 0; i < 8; i++) widen_parts(d, x[i], lo[i], hi[i]);
    forward<2>(d32, lo);
    forward<2>(d32, hi);
    // Which coefficients survive: any AC at u < 4 with v < 4, any at
    // u >= 4 (the row pass's high half), any at v >= 4 (hi: the column
    // pass's high half).
    const auto keep0 = hn::Or(is_dc, hn::Gt(hn::Abs(lo[0]), t));
    lo[0] = hn::IfThenElseZero(keep0, lo[0]);
    auto low = hn::AndNot(is_dc, keep0), high_u = hn::FirstN(d32, 0);
    auto high_v = hn::Gt(hn::Abs(hi[0]), t);
    hi[0] = hn::IfThenElseZero(high_v, hi[0]);
    HWY_UNROLL(8)
    for (int u = 1; u < 8; u++) {
      const auto keep_lo = hn::Gt(hn::Abs(lo[u]), t);
      const auto keep_hi = hn::Gt(hn::Abs(hi[u]), t);
      lo[u] = hn::IfThenElseZero(keep_lo, lo[u]);
      hi[u] = hn::IfThenElseZero(keep_hi, hi[u]);
      if (u < 4)
        low = hn::Or(low, keep_lo);
      else
        high_u = hn::Or(high_u, hn::Or(keep_lo, keep_hi));
      high_v = hn::Or(high_v, keep_hi);
    }
    if (hn::AllFalse(d32, hn::Or(hn::Or(low, high_u), high_v))) {
      // VP9's inverse of a DC alone (block_row's shortcut).
      const V32 y = mul14<kCos16>(d32, mul14<kCos16>(d32, lo[0]));
      const V32 q = reconstruct(y);
      const V16 q16 = hn::Broadcast<0>(narrow_parts(d, q, q));
      HWY_UNROLL(8)
      for (int i = 0; i < 8; i++)
        hn::StoreU(hn::Add(hn::LoadU(d, out[i] + bx), q16), d, out[i] + bx);
      continue;
    }
    const bool hi_zero = hn::AllFalse(d32, high_v);
    if (hn::AllFalse(d32, high_u))
      inverse_halves<true>(d32, lo, hi, hi_zero);
    else
      inverse_halves<false>(d32, lo, hi, hi_zero);
    transpose_halves(d32, lo, hi, hi_zero);
    if (hi_zero)
      inverse_halves<true>(d32, lo, hi, false);
    else
      inverse_halves<false>(d32, lo, hi, false);
    HWY_UNROLL(8)
    for (int i = 0; i < 8; i++) {
      const V16 q = narrow_parts(d, reconstruct(lo[i]), reconstruct(hi[i]));
      hn::StoreU(hn::Add(hn::LoadU(d, out[i] + bx), q), d, out[i] + bx);
    }
  }
}
