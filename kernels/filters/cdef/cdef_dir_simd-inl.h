// CDEF's direction search for cdef_simd.cc (docs/spec.md, daedaluscdef,
// "Direction and variance"), which includes it once per Highway target
// inside its target namespace. Hence no include guard and no
// includes of its own.

template <int kShift, class D, class V>
HWY_INLINE void diagonal(D d, V v, V& lo, V& hi) {
  if constexpr (kShift == 0) {
    lo = hn::Add(lo, v);
  } else {
    lo = hn::Add(lo, hn::ShiftLeftLanes<kShift>(d, v));
    hi = hn::Add(hi, hn::ShiftRightLanes<8 - kShift>(d, v));
  }
}

// cost = sum over lanes of line^2 * 840 / count, as (line * f) * (line * g)
// with f * g = 840 / count: each factor stays within int16 for
// |line| <= 128 count, and pairs of products add up in int32.
template <class D32, class V>
HWY_INLINE hn::Vec<D32> line_cost(D32 d32, V lo, V flo, V glo) {
  auto sum1 = hn::Zero(d32);
  const auto sum0 = hn::ReorderWidenMulAccumulate(
      d32, hn::Mul(lo, flo), hn::Mul(lo, glo), hn::Zero(d32), sum1);
  return hn::Add(sum0, sum1);
}

template <class D32, class V>
HWY_INLINE hn::Vec<D32> line_cost(D32 d32, V lo, V hi, V flo, V glo, V fhi,
                                  V ghi) {
  auto sum1 = hn::Zero(d32);
  auto sum0 = hn::ReorderWidenMulAccumulate(
      d32, hn::Mul(lo, flo), hn::Mul(lo, glo), hn::Zero(d32), sum1);
  sum0 = hn::ReorderWidenMulAccumulate(d32, hn::Mul(hi, fhi), hn::Mul(hi, ghi),
                                       sum0, sum1);
  return hn::Add(sum0, sum1);
}

// Per 128-bit lane: the sums of the lanes of a, b, c and e, in that order.
template <class D32, class V>
HWY_INLINE V reduce4(D32 d32, V a, V b, V c, V e) {
  const hn::Repartition<int64_t, D32> d64;
  const V ab =
      hn::Add(hn::InterleaveLower(d32, a, b), hn::InterleaveUpper(d32, a, b));
  const V ce =
      hn::Add(hn::InterleaveLower(d32, c, e), hn::InterleaveUpper(d32, c, e));
  const auto ab64 = hn::BitCast(d64, ab), ce64 = hn::BitCast(d64, ce);
  return hn::Add(hn::BitCast(d32, hn::InterleaveLower(d64, ab64, ce64)),
                 hn::BitCast(d32, hn::InterleaveUpper(d64, ab64, ce64)));
}

// Weights of the lines as int16 factor pairs (see line_cost). Diagonals
// (directions 0, 4): line n < 8 of count n + 1 in lane n of lo, line 8 + k of
// count 7 - k in lane k of hi. Directions 1, 3, 5, 7: counts 2, 4, 6, 8, ...
// in lo, 6, 4, 2 in hi. Directions 2, 6: count 8.
alignas(16) constexpr int16_t kDiagLoF[8] = {28, 20, 14, 14, 12, 10, 10, 7};
alignas(16) constexpr int16_t kDiagLoG[8] = {30, 21, 20, 15, 14, 14, 12, 15};
alignas(16) constexpr int16_t kDiagHiF[8] = {10, 10, 12, 14, 14, 20, 28, 0};
alignas(16) constexpr int16_t kDiagHiG[8] = {12, 14, 14, 15, 20, 21, 30, 0};
alignas(16) constexpr int16_t kHalfLoF[8] = {20, 14, 10, 7, 7, 7, 7, 7};
alignas(16) constexpr int16_t kHalfLoG[8] = {21, 15, 14, 15, 15, 15, 15, 15};
alignas(16) constexpr int16_t kHalfHiF[8] = {10, 14, 20, 0, 0, 0, 0, 0};
alignas(16) constexpr int16_t kHalfHiG[8] = {14, 15, 21, 0, 0, 0, 0, 0};

// Lines of the diagonal directions 0 (i + j) and 4 (7 + i - j, summed as
// 7 - i + j, which has the same counts) of rows x0..x7.
template <class D, class V>
HWY_INLINE void diagonals(D d, V x0, V x1, V x2, V x3, V x4, V x5, V x6, V x7,
                          V& lo0, V& hi0, V& lo4, V& hi4) {
  diagonal<0>(d, x0, lo0, hi0), diagonal<7>(d, x0, lo4, hi4);
  diagonal<1>(d, x1, lo0, hi0), diagonal<6>(d, x1, lo4, hi4);
  diagonal<2>(d, x2, lo0, hi0), diagonal<5>(d, x2, lo4, hi4);
  diagonal<3>(d, x3, lo0, hi0), diagonal<4>(d, x3, lo4, hi4);
  diagonal<4>(d, x4, lo0, hi0), diagonal<3>(d, x4, lo4, hi4);
  diagonal<5>(d, x5, lo0, hi0), diagonal<2>(d, x5, lo4, hi4);
  diagonal<6>(d, x6, lo0, hi0), diagonal<1>(d, x6, lo4, hi4);
  diagonal<7>(d, x7, lo0, hi0), diagonal<0>(d, x7, lo4, hi4);
}

// Lines of directions 7 (i / 2 + j) and 5 (3 - i / 2 + j) from the sums of
// row pairs p0..p3.
template <class D, class V>
HWY_INLINE void half_slopes(D d, V p0, V p1, V p2, V p3, V& lo7, V& hi7, V& lo5,
                            V& hi5) {
  diagonal<0>(d, p0, lo7, hi7), diagonal<3>(d, p0, lo5, hi5);
  diagonal<1>(d, p1, lo7, hi7), diagonal<2>(d, p1, lo5, hi5);
  diagonal<2>(d, p2, lo7, hi7), diagonal<1>(d, p2, lo5, hi5);
  diagonal<3>(d, p3, lo7, hi7), diagonal<0>(d, p3, lo5, hi5);
}

// Per 128-bit lane, from the 2 x 2 transposes lo (rows 0-3) and hi (rows
// 4-7) of two column pairs: the sum of those columns.
template <class D, class V32>
HWY_INLINE hn::Vec<D> column_pair(D d, V32 lo, V32 hi) {
  const hn::Repartition<int64_t, D> d64;
  const auto l = hn::BitCast(d64, lo), h = hn::BitCast(d64, hi);
  return hn::Add(hn::BitCast(d, hn::InterleaveLower(d64, l, h)),
                 hn::BitCast(d, hn::InterleaveUpper(d64, l, h)));
}

// Direction and variance of n staged luma blocks; block j's row i starts at
// rows + i kCdefPitch + 8 j. Each 128-bit lane holds one row of one block; the
// lines of directions 1, 3 and 2 are those of 7, 5 and 6 on the transposed
// block.
template <int kCs>
void find_dirs(const uint16_t* HWY_RESTRICT rows, int n,
               uint8_t* HWY_RESTRICT dir, int* HWY_RESTRICT var) {
  const hn::CappedTag<int16_t, 32> d;
  const hn::RebindToUnsigned<decltype(d)> du;
  const hn::Repartition<int32_t, decltype(d)> d32;
  using V = hn::Vec<decltype(d)>;
  using V32 = hn::Vec<decltype(d32)>;
  const int per = int(hn::Lanes(d)) / 8;  // blocks per vector
  const V dlf = hn::LoadDup128(d, kDiagLoF), dlg = hn::LoadDup128(d, kDiagLoG);
  const V dhf = hn::LoadDup128(d, kDiagHiF), dhg = hn::LoadDup128(d, kDiagHiG);
  const V hlf = hn::LoadDup128(d, kHalfLoF), hlg = hn::LoadDup128(d, kHalfLoG);
  const V hhf = hn::LoadDup128(d, kHalfHiF), hhg = hn::LoadDup128(d, kHalfHiG);
  const V f8 = hn::Set(d, 7), g8 = hn::Set(d, 15), zero = hn::Zero(d);
  const V bias = hn::Set(d, 128);

  for (int b = 0; b < n; b += per) {
    auto row = [&](int i) HWY_ATTR {
      auto v = hn::LoadU(du, rows + i * kCdefPitch + 8 * b);
      if constexpr (kCs > 0) v = hn::ShiftRight<kCs>(v);
      return hn::Sub(hn::BitCast(d, v), bias);
    };
    const V x0 = row(0), x1 = row(1), x2 = row(2), x3 = row(3);
    const V x4 = row(4), x5 = row(5), x6 = row(6), x7 = row(7);

    // Each direction's cost right after its lines, to keep few vectors live.
    V lo0 = zero, hi0 = zero, lo4 = zero, hi4 = zero;
    diagonals(d, x0, x1, x2, x3, x4, x5, x6, x7, lo0, hi0, lo4, hi4);
    const V32 c0 = line_cost(d32, lo0, hi0, dlf, dlg, dhf, dhg);
    const V32 c4 = line_cost(d32, lo4, hi4, dlf, dlg, dhf, dhg);

    const V p0 = hn::Add(x0, x1), p1 = hn::Add(x2, x3);
    const V p2 = hn::Add(x4, x5), p3 = hn::Add(x6, x7);
    V lo7 = zero, hi7 = zero, lo5 = zero, hi5 = zero;
    half_slopes(d, p0, p1, p2, p3, lo7, hi7, lo5, hi5);
    const V32 c5 = line_cost(d32, lo5, hi5, hlf, hlg, hhf, hhg);
    const V32 c7 = line_cost(d32, lo7, hi7, hlf, hlg, hhf, hhg);
    const V32 c6 =
        line_cost(d32, hn::Add(hn::Add(p0, p1), hn::Add(p2, p3)), f8, g8);

    // Transposed: q0..q3 are the sums of column pairs, each a vector of rows.
    const V32 a0 = hn::BitCast(d32, hn::InterleaveLower(d, x0, x1));
    const V32 a1 = hn::BitCast(d32, hn::InterleaveUpper(d, x0, x1));
    const V32 a2 = hn::BitCast(d32, hn::InterleaveLower(d, x2, x3));
    const V32 a3 = hn::BitCast(d32, hn::InterleaveUpper(d, x2, x3));
    const V32 a4 = hn::BitCast(d32, hn::InterleaveLower(d, x4, x5));
    const V32 a5 = hn::BitCast(d32, hn::InterleaveUpper(d, x4, x5));
    const V32 a6 = hn::BitCast(d32, hn::InterleaveLower(d, x6, x7));
    const V32 a7 = hn::BitCast(d32, hn::InterleaveUpper(d, x6, x7));
    const V q0 = column_pair(d, hn::InterleaveLower(d32, a0, a2),
                             hn::InterleaveLower(d32, a4, a6));
    const V q1 = column_pair(d, hn::InterleaveUpper(d32, a0, a2),
                             hn::InterleaveUpper(d32, a4, a6));
    const V q2 = column_pair(d, hn::InterleaveLower(d32, a1, a3),
                             hn::InterleaveLower(d32, a5, a7));
    const V q3 = column_pair(d, hn::InterleaveUpper(d32, a1, a3),
                             hn::InterleaveUpper(d32, a5, a7));
    V lo1 = zero, hi1 = zero, lo3 = zero, hi3 = zero;
    half_slopes(d, q0, q1, q2, q3, lo1, hi1, lo3, hi3);
    const V32 c1 = line_cost(d32, lo1, hi1, hlf, hlg, hhf, hhg);
    const V32 c3 = line_cost(d32, lo3, hi3, hlf, hlg, hhf, hhg);
    const V32 c2 =
        line_cost(d32, hn::Add(hn::Add(q0, q1), hn::Add(q2, q3)), f8, g8);

    const V32 cost_lo = reduce4(d32, c0, c1, c2, c3);
    const V32 cost_hi = reduce4(d32, c4, c5, c6, c7);
    V32 best = hn::Max(cost_lo, cost_hi);
    best = hn::Max(best, hn::Shuffle2301(best));
    best = hn::Max(best, hn::Shuffle1032(best));

    // The first direction of the best cost, and its gain over the orthogonal
    // one (4 lanes on, in the other vector).
    alignas(64) int32_t cost[2][16], top[16];
    uint8_t lo_bits[16] = {}, hi_bits[16] = {};
    hn::Store(cost_lo, d32, cost[0]);
    hn::Store(cost_hi, d32, cost[1]);
    hn::Store(best, d32, top);
    hn::StoreMaskBits(d32, hn::Eq(cost_lo, best), lo_bits);
    hn::StoreMaskBits(d32, hn::Eq(cost_hi, best), hi_bits);
    uint64_t lo_mask, hi_mask;
    std::memcpy(&lo_mask, lo_bits, 8);
    std::memcpy(&hi_mask, hi_bits, 8);
    for (int j = 0; j < per && b + j < n; j++) {
      const unsigned code = unsigned((lo_mask >> (4 * j)) & 15) |
                            unsigned(((hi_mask >> (4 * j)) & 15) << 4);
      const int best_dir = std::countr_zero(code);
      dir[b + j] = uint8_t(best_dir);
      const int other = cost[(best_dir >> 2) ^ 1][4 * j + (best_dir & 3)];
      var[b + j] = (top[4 * j] - other) >> 10;
    }
  }
}
