// mode=dct's forward transform (docs/spec.md, "Forward transform") on
// vectors of 16-bit lanes that hold one 8x8 block in each 128-bit part, for
// the SIMD code that needs it: deblock mode=dct (deblock_dct_simd.cc) and
// the damage estimator's quantiser probe (quantiser_probe_simd.cc). Each
// includes it once per Highway target inside its target namespace, where
// `hn` names hwy::HWY_NAMESPACE, after filters/simd_constants.h. Hence no
// include guard and no includes of its own.
//
// DAEDALUS_DCT8_SIMD is 1 where the target has these functions: not on
// HWY_SCALAR (one lane cannot hold a block row) nor SVE (sizeless vectors
// cannot be array elements, which a block's rows are).
#undef DAEDALUS_DCT8_SIMD
#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_SVE ||   \
    HWY_TARGET == HWY_SVE2 || HWY_TARGET == HWY_SVE_256 || \
    HWY_TARGET == HWY_SVE2_128
#define DAEDALUS_DCT8_SIMD 0
#else
#define DAEDALUS_DCT8_SIMD 1

// A vector of the constant K: loaded from Splat's line on x86 (simd_
// constants.h says why), Set elsewhere.
template <typename T, T K, class D>
HWY_INLINE hn::Vec<D> splat(D d) {
#if HWY_ARCH_X86
  static_assert(hn::MaxLanes(D()) * sizeof(T) <= 64);
  return hn::Load(d, Splat<T, K>::values.data());
#else
  return hn::Set(d, K);
#endif
}

// M(v, k) of the spec for a constant k. 16-bit lanes: pmulhrsw computes it
// exactly for k < 2^15; above, v * k = v * 2^15 + v * (k - 2^15). 32-bit
// lanes (10-bit pass 2, whose products fit 32 bits): as written.
template <int K, class D>
HWY_INLINE hn::Vec<D> mul15(D d, hn::Vec<D> v) {
  if constexpr (sizeof(hn::TFromD<D>) == 4) {
    return hn::ShiftRight<15>(
        hn::Add(hn::Mul(v, splat<int32_t, K>(d)), splat<int32_t, 1 << 14>(d)));
  } else if constexpr (K >= 32768) {
    return hn::Add(v, hn::MulFixedPoint15(v, splat<int16_t, K - 32768>(d)));
  } else {
    return hn::MulFixedPoint15(v, splat<int16_t, K>(d));
  }
}

// The spec's 1D forward transform F_p over the vectors x[0..7]; in 16-bit
// lanes every sum is within 16 bits (docs/spec.md's ranges), in 32-bit
// lanes within 32.
template <int kPass, class D, class V = hn::Vec<D> >
HWY_INLINE void forward(D d, V x[8]) {
  constexpr int K1 = kPass == 1 ? 45451 : 22725,
                K2 = kPass == 1 ? 42813 : 21407,
                K3 = kPass == 1 ? 38531 : 19266,
                K5 = kPass == 1 ? 25746 : 12873, K6 = kPass == 1 ? 17734 : 8867,
                K7 = kPass == 1 ? 9041 : 4520;
  const V s0 = hn::Add(x[0], x[7]), s1 = hn::Add(x[1], x[6]),
          s2 = hn::Add(x[2], x[5]), s3 = hn::Add(x[3], x[4]);
  const V d0 = hn::Sub(x[0], x[7]), d1 = hn::Sub(x[1], x[6]),
          d2 = hn::Sub(x[2], x[5]), d3 = hn::Sub(x[3], x[4]);
  const V e0 = hn::Add(s0, s3), e1 = hn::Add(s1, s2), e2 = hn::Sub(s1, s2),
          e3 = hn::Sub(s0, s3);
  if constexpr (kPass == 1) {
    x[0] = hn::Add(e0, e1);
    x[4] = hn::Sub(e0, e1);
  } else {
    x[0] = mul15<16384>(d, hn::Add(e0, e1));
    x[4] = mul15<16384>(d, hn::Sub(e0, e1));
  }
  x[2] = hn::Add(mul15<K6>(d, e2), mul15<K2>(d, e3));
  x[6] = hn::Sub(mul15<K6>(d, e3), mul15<K2>(d, e2));
  const V t0 = mul15<23170>(d, hn::Sub(d1, d2)),
          t1 = mul15<23170>(d, hn::Add(d1, d2));
  const V o0 = hn::Add(d3, t0), o1 = hn::Sub(d3, t0), o2 = hn::Sub(d0, t1),
          o3 = hn::Add(d0, t1);
  x[1] = hn::Add(mul15<K7>(d, o0), mul15<K1>(d, o3));
  x[7] = hn::Sub(mul15<K7>(d, o3), mul15<K1>(d, o0));
  x[5] = hn::Add(mul15<K3>(d, o1), mul15<K5>(d, o2));
  x[3] = hn::Sub(mul15<K3>(d, o2), mul15<K5>(d, o1));
}

// Transposes the 8x8 block of 16-bit lanes in each 128-bit part of r[0..7].
template <class D, class V = hn::Vec<D> >
HWY_INLINE void transpose(D d, V r[8]) {
  const hn::Repartition<int32_t, D> d32;
  const hn::Repartition<int64_t, D> d64;
  V a[8];
  HWY_UNROLL(8)
  for (int i = 0; i < 4; i++) {
    a[2 * i] = hn::InterleaveLower(d, r[2 * i], r[2 * i + 1]);
    a[2 * i + 1] = hn::InterleaveUpper(d, r[2 * i], r[2 * i + 1]);
  }
  hn::Vec<decltype(d32)> b[8];
  HWY_UNROLL(8)
  for (int h = 0; h < 2; h++) {  // rows 0-3, then 4-7
    HWY_UNROLL(8)
    for (int i = 0; i < 2; i++) {
      const auto x = hn::BitCast(d32, a[4 * h + i]);
      const auto y = hn::BitCast(d32, a[4 * h + i + 2]);
      b[4 * h + 2 * i] = hn::InterleaveLower(d32, x, y);
      b[4 * h + 2 * i + 1] = hn::InterleaveUpper(d32, x, y);
    }
  }
  HWY_UNROLL(8)
  for (int i = 0; i < 4; i++) {
    const auto x = hn::BitCast(d64, b[i]), y = hn::BitCast(d64, b[i + 4]);
    r[2 * i] = hn::BitCast(d, hn::InterleaveLower(d64, x, y));
    r[2 * i + 1] = hn::BitCast(d, hn::InterleaveUpper(d64, x, y));
  }
}

#endif  // DAEDALUS_DCT8_SIMD
