// daedalusmc's kernels for 10-bit planes (docs/spec.md "High bit depth"),
// for mc_simd.cc, which includes it once per Highway target inside its
// target namespace, after Window and Lerp. Hence no include guard and no
// includes of its own.
//
// Rows here are values in sample order (the window's edge-extended copy
// holds the words' value bits, Extend's doing): an 8-tap sum of 10-bit
// samples needs 19 bits, but both factors of a product, a value (< 2^10)
// and a tap (|t| <= 128), fit 16-bit lanes, so the taps go two at a time, a
// pair of 16-bit lanes multiplied and summed into one 32-bit lane
// (ReorderWidenMulAccumulate: pmaddwd on x86). A vector of pairs yields the
// even outputs of a group, another the odd ones, which the store
// interleaves again. The bilinear filter's products fit 16 bits
// (|f (b - a)| <= 15 * 1023). Results are stored as 16-bit values shifted
// left by `shift`: the plane's lsb for an output row, 0 for the
// intermediate rows.

#if HWY_TARGET != HWY_SCALAR
using D32 = hn::Repartition<int32_t, D16>;
using V32 = hn::Vec<D32>;

// The values at p (below 2^15) as 16-bit lanes.
HWY_INLINE V16 Values(const uint16_t* HWY_RESTRICT p) {
  return hn::BitCast(D16(), hn::LoadU(DU16(), p));
}

// Taps a and b in each pair of 16-bit lanes (a in the even lane).
HWY_INLINE V16 TapPair(int16_t a, int16_t b) {
  const uint32_t pair = static_cast<uint16_t>(a) |
                        static_cast<uint32_t>(static_cast<uint16_t>(b)) << 16;
  return hn::BitCast(D16(), hn::Set(D32(), static_cast<int32_t>(pair)));
}

// The sums of pairs of products of p0 .. p3 (pairs of samples) with the tap
// pairs t01 .. t67 (TapPair of taps 0 and 1, ...): an 8-tap sum in each
// 32-bit lane. The taps are separate arguments, not a struct: SVE vectors
// cannot be members.
HWY_INLINE V32 Sum8(V16 t01, V16 t23, V16 t45, V16 t67, V16 p0, V16 p1, V16 p2,
                    V16 p3) {
  const D32 d;
  V32 odd = hn::Zero(d);
  V32 sum = hn::ReorderWidenMulAccumulate(d, p0, t01, hn::Zero(d), odd);
  sum = hn::ReorderWidenMulAccumulate(d, p1, t23, sum, odd);
  sum = hn::ReorderWidenMulAccumulate(d, p2, t45, sum, odd);
  sum = hn::ReorderWidenMulAccumulate(d, p3, t67, sum, odd);
  return hn::RearrangeToOddPlusEven(sum, odd);
}

// clip3(0, maxv, floor((sum + 64) / 128)) of the even outputs' sums and the
// odd ones', in sample order and shifted left by `shift`, at p.
HWY_INLINE void StoreWords(V32 even, V32 odd, V32 maxv, int shift,
                           uint16_t* HWY_RESTRICT p) {
  const D32 d;
  const DU16 du;
  const auto clip = [&](V32 sum) {
    const V32 v = hn::ShiftRight<7>(hn::Add(sum, hn::Set(d, 64)));
    return hn::Min(hn::Max(v, hn::Zero(d)), maxv);
  };
  const auto words = hn::OddEven(hn::BitCast(du, hn::ShiftLeft<16>(clip(odd))),
                                 hn::BitCast(du, clip(even)));
  hn::StoreU(hn::ShiftLeftSame(words, shift), du, p);
}
#endif  // HWY_TARGET != HWY_SCALAR

#if HWY_TARGET == HWY_SCALAR
// One lane holds no pair: the sum of output x over s(0) .. s(7), computed as
// an integer.
template <class Sample>
HWY_INLINE uint16_t Filter8(const int16_t* taps, int maxv, int shift,
                            const Sample& s) {
  int sum = 64;
  for (int k = 0; k < 8; k++) sum += taps[k] * s(k);
  return static_cast<uint16_t>(std::clamp(sum >> 7, 0, maxv) << shift);
}
#endif

// Groups [g0, g0 + count) of the 8-tap horizontal pass, output x from
// e[x .. x + 7], written from `out` on. Lane pair j of the vector at e + x
// + k holds e[x + k + 2j] and the sample after it: with the tap pair k,
// k + 1 it adds to output x + 2j, the vector one further to x + 2j + 1.
void Horizontal8Words(const Window<uint16_t>& e, const int16_t* taps, int maxv,
                      size_t g0, size_t count, uint16_t* HWY_RESTRICT out,
                      int shift) {
  const size_t N = hn::Lanes(D16()), G = 2 * N;
#if HWY_TARGET == HWY_SCALAR
  for (size_t x = 0; x < count * G; x++) {
    const uint16_t* p = e.group(g0 + x / G) + x % G;
    out[x] = Filter8(taps, maxv, shift, [&](int k) { return p[k]; });
  }
#else
  const V16 t01 = TapPair(taps[0], taps[1]), t23 = TapPair(taps[2], taps[3]);
  const V16 t45 = TapPair(taps[4], taps[5]), t67 = TapPair(taps[6], taps[7]);
  const V32 vmax = hn::Set(D32(), maxv);
  for (size_t i = 0; i < count; i++) {
    const uint16_t* p = e.group(g0 + i);
    for (size_t x = 0; x < G; x += N) {
      const uint16_t* q = p + x;
      const V32 even = Sum8(t01, t23, t45, t67, Values(q), Values(q + 2),
                            Values(q + 4), Values(q + 6));
      const V32 odd = Sum8(t01, t23, t45, t67, Values(q + 1), Values(q + 3),
                           Values(q + 5), Values(q + 7));
      StoreWords(even, odd, vmax, shift, out + i * G + x);
    }
  }
#endif
}

// Groups [g0, g0 + count) of the 8-tap vertical pass over rows r[0..7]:
// rows a and b paired lane by lane, the even samples' pairs and the odd
// ones'.
void Vertical8Words(const uint16_t* const* r, const int16_t* taps, int maxv,
                    size_t g0, size_t count, uint16_t* HWY_RESTRICT out,
                    int shift) {
#if HWY_TARGET == HWY_SCALAR
  const size_t G = 2 * hn::Lanes(D16());
  for (size_t x = g0 * G; x < (g0 + count) * G; x++)
    out[x - g0 * G] =
        Filter8(taps, maxv, shift, [&](int k) { return r[k][x]; });
#else
  const D16 d;
  const D32 d32;
  const size_t N = hn::Lanes(d), G = 2 * N;
  const V16 t01 = TapPair(taps[0], taps[1]), t23 = TapPair(taps[2], taps[3]);
  const V16 t45 = TapPair(taps[4], taps[5]), t67 = TapPair(taps[6], taps[7]);
  const V32 vmax = hn::Set(d32, maxv);
  const size_t x0 = g0 * G;
  const uint16_t *r0 = r[0] + x0, *r1 = r[1] + x0, *r2 = r[2] + x0;
  const uint16_t *r3 = r[3] + x0, *r4 = r[4] + x0, *r5 = r[5] + x0;
  const uint16_t *r6 = r[6] + x0, *r7 = r[7] + x0;
  // (a[2j], b[2j]) and (a[2j + 1], b[2j + 1]) in lane pair j.
  const auto even = [&](V16 a, V16 b) {
    return hn::OddEven(hn::BitCast(d, hn::ShiftLeft<16>(hn::BitCast(d32, b))),
                       a);
  };
  const auto odd = [&](V16 a, V16 b) {
    const hn::RebindToUnsigned<D32> du32;
    return hn::OddEven(
        b, hn::BitCast(d, hn::ShiftRight<16>(hn::BitCast(du32, a))));
  };
  for (size_t x = 0; x < count * G; x += N) {
    const V16 a0 = Values(r0 + x), a1 = Values(r1 + x), a2 = Values(r2 + x);
    const V16 a3 = Values(r3 + x), a4 = Values(r4 + x), a5 = Values(r5 + x);
    const V16 a6 = Values(r6 + x), a7 = Values(r7 + x);
    StoreWords(Sum8(t01, t23, t45, t67, even(a0, a1), even(a2, a3),
                    even(a4, a5), even(a6, a7)),
               Sum8(t01, t23, t45, t67, odd(a0, a1), odd(a2, a3), odd(a4, a5),
                    odd(a6, a7)),
               vmax, shift, out + x);
  }
#endif
}

// a + ((f (b - a) + 8) >> 4) of the values at a and b, stored shifted.
HWY_INLINE void LerpWords(const uint16_t* a, const uint16_t* b, int f,
                          int shift, uint16_t* HWY_RESTRICT out) {
  const D16 d;
  const DU16 du;
  const V16 v = Lerp(d, hn::BitCast(d, hn::LoadU(du, a)),
                     hn::BitCast(d, hn::LoadU(du, b)),
                     hn::Set(d, static_cast<int16_t>(f)));
  hn::StoreU(hn::ShiftLeftSame(hn::BitCast(du, v), shift), du, out);
}

// Groups [g0, g0 + count) of the bilinear horizontal pass, output x from
// e[x + 3] and e[x + 4].
void LerpHorizontalWords(const Window<uint16_t>& e, int f, size_t g0,
                         size_t count, uint16_t* HWY_RESTRICT out, int shift) {
  const size_t N = hn::Lanes(D16()), G = 2 * N;
  for (size_t i = 0; i < count; i++) {
    const uint16_t* p = e.group(g0 + i) + 3;
    for (size_t x = 0; x < G; x += N)
      LerpWords(p + x, p + x + 1, f, shift, out + i * G + x);
  }
}

// Groups [g0, g0 + count) of the bilinear vertical pass over rows a, b.
void LerpVerticalWords(const uint16_t* a, const uint16_t* b, int f, size_t g0,
                       size_t count, uint16_t* HWY_RESTRICT out, int shift) {
  const size_t N = hn::Lanes(D16()), G = 2 * N;
  for (size_t x = g0 * G; x < (g0 + count) * G; x += N)
    LerpWords(a + x, b + x, f, shift, out + (x - g0 * G));
}
