// daedalusmc's kernels for 10-bit planes (docs/spec.md "High bit depth"),
// for mc_simd.cc, which includes it once per Highway target inside its
// target namespace, after Window and Lerp. Hence no include guard and no
// includes of its own.
//
// Rows here are values in sample order: the windows of the horizontal
// pass hold the source words decoded (Extend), the vertical pass reads its
// own intermediate rows. An 8-tap sum of 10-bit
// samples needs 19 bits, but both factors of a product, a value (< 2^10)
// and a tap (|t| <= 128), fit 16-bit lanes, so the taps go two at a time, a
// pair of 16-bit lanes multiplied and summed into one 32-bit lane
// (ReorderWidenMulAccumulate: pmaddwd on x86; vpdpwssd, which adds too, in
// the AVX3 target's island). In the horizontal pass a vector of pairs yields
// the even outputs of a group, another the odd ones, which the store
// interleaves again; the vertical pass reads pair rows, two rows' values
// paired lane by lane (PairWords). The bilinear filter's products fit 16
// bits (|f (b - a)| <= 15 * 1023). Results are stored as 16-bit values
// shifted left by `shift`: the plane's lsb for an output row, 0 for the
// intermediate rows.

template <int K>
using Int = std::integral_constant<int, K>;

// Whether this target has the vpdpwssd island (AVX-512 VNNI, which
// Highway 1.0's AVX3 target does not reach: inline assembly, run only where
// mc_cpu_has_dot_products() says the CPU has it).
constexpr bool kWordsVnni = HWY_TARGET == HWY_AVX3;

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
// 32-bit lane, plus the rounding 64. The taps are separate arguments, not a
// struct: SVE vectors cannot be members. kVnni: through the island.
template <bool kVnni>
HWY_INLINE V32 Sum8(V16 t01, V16 t23, V16 t45, V16 t67, V16 p0, V16 p1, V16 p2,
                    V16 p3) {
  const D32 d;
  const V32 round = hn::Set(d, 64);
  if constexpr (kVnni) {
#if HWY_TARGET == HWY_AVX3
    V32 sum = round;
    asm("vpdpwssd %2, %1, %0" : "+v"(sum.raw) : "v"(t01.raw), "vm"(p0.raw));
    asm("vpdpwssd %2, %1, %0" : "+v"(sum.raw) : "v"(t23.raw), "vm"(p1.raw));
    asm("vpdpwssd %2, %1, %0" : "+v"(sum.raw) : "v"(t45.raw), "vm"(p2.raw));
    asm("vpdpwssd %2, %1, %0" : "+v"(sum.raw) : "v"(t67.raw), "vm"(p3.raw));
    return sum;
#endif
  }
  static_assert(!kVnni || kWordsVnni);
  // pmaddwd (x86) sums each pair in its own lane, so the rounding can start
  // there; elsewhere the accumulators' lanes are rearranged at the end.
  constexpr bool kInPlace = HWY_TARGET <= HWY_SSSE3;
  V32 odd = hn::Zero(d);
  V32 sum = hn::ReorderWidenMulAccumulate(d, p0, t01,
                                          kInPlace ? round : hn::Zero(d), odd);
  sum = hn::ReorderWidenMulAccumulate(d, p1, t23, sum, odd);
  sum = hn::ReorderWidenMulAccumulate(d, p2, t45, sum, odd);
  sum = hn::ReorderWidenMulAccumulate(d, p3, t67, sum, odd);
  sum = hn::RearrangeToOddPlusEven(sum, odd);
  return kInPlace ? sum : hn::Add(sum, round);
}

// clip3(0, maxv, floor(sum / 128)) of two vectors of sums (Sum8's, the
// rounding included) as 16-bit lanes: a's in the even lanes and b's in the
// odd ones, or on x86 (packusdw, packssdw) a's in the lower half of each
// 128-bit block and b's in the upper. |sum| / 128 < 2^15, so only the
// unsigned pack's clip to 0 saturates.
HWY_INLINE V16 Clip(V32 a, V32 b, V16 maxv) {
  a = hn::ShiftRight<7>(a);
  b = hn::ShiftRight<7>(b);
#if HWY_TARGET <= HWY_SSE4
#if HWY_TARGET <= HWY_AVX3
  const V16 v{_mm512_packus_epi32(a.raw, b.raw)};
#elif HWY_TARGET == HWY_AVX2
  const V16 v{_mm256_packus_epi32(a.raw, b.raw)};
#else
  const V16 v{_mm_packus_epi32(a.raw, b.raw)};
#endif
  return hn::Min(v, maxv);
#else
  const D16 d;
#if HWY_TARGET == HWY_SSSE3
  const V16 v = hn::ReorderDemote2To(d, a, b);
#else
  const V16 v =
      hn::OddEven(hn::BitCast(d, hn::ShiftLeft<16>(b)), hn::BitCast(d, a));
#endif
  return hn::Min(hn::Max(v, hn::Zero(d)), maxv);
#endif
}

// Clip of the even outputs' sums and the odd ones', in sample order.
HWY_INLINE V16 ClipEvenOdd(V32 even, V32 odd, V16 maxv) {
  const V16 v = Clip(even, odd, maxv);
#if HWY_TARGET <= HWY_SSSE3
  // Each block holds its even outputs, then its odd ones.
  alignas(16) static constexpr uint8_t kOrder[16] = {
      0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15};
  const hn::Repartition<uint8_t, D16> d8;
  return hn::TableLookupBytes(v,
                              hn::BitCast(D16(), hn::LoadDup128(d8, kOrder)));
#else
  return v;
#endif
}

// Calls f(store), store(v, p) storing the values v at p shifted left by
// `shift`: an instruction fewer where that is 0.
template <class F>
HWY_INLINE void WithShift(int shift, const F& f) {
  const DU16 du;
  if (shift == 0)
    f([&](V16 v, uint16_t* HWY_RESTRICT p) {
      hn::StoreU(hn::BitCast(du, v), du, p);
    });
  else
    f([&](V16 v, uint16_t* HWY_RESTRICT p) {
      hn::StoreU(hn::ShiftLeftSame(hn::BitCast(du, v), shift), du, p);
    });
}

// Calls f(t01, t23, t45, t67, store): the tap pairs of a phase (TapPair),
// and WithShift's store.
template <class F>
HWY_INLINE void WithTaps(const int16_t* taps, int shift, const F& f) {
  const V16 t01 = TapPair(taps[0], taps[1]), t23 = TapPair(taps[2], taps[3]);
  const V16 t45 = TapPair(taps[4], taps[5]), t67 = TapPair(taps[6], taps[7]);
  WithShift(shift, [&](const auto& store) { f(t01, t23, t45, t67, store); });
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

// Groups [g0, g0 + count) of the 8-tap horizontal pass, output x from the
// values e[x .. x + 7], written from `out` on. Lane pair j of the vector at
// e + x + k holds e[x + k + 2j] and the sample after it: with the tap pair
// k, k + 1 it adds to output x + 2j, the vector one further to x + 2j + 1.
template <bool kVnni>
void Horizontal8Words(const Window<uint16_t>& e, const int16_t* taps, int maxv,
                      size_t g0, size_t count, uint16_t* HWY_RESTRICT out,
                      int shift) {
  const size_t N = hn::Lanes(D16()), G = 2 * N;
  const uint16_t* p = e.copied(g0);
#if HWY_TARGET == HWY_SCALAR
  for (size_t x = 0; x < count * G; x++)
    out[x] = Filter8(taps, maxv, shift, [&](int k) { return p[x + k]; });
#else
  const V16 vmax = hn::Set(D16(), static_cast<int16_t>(maxv));
  WithTaps(taps, shift,
           [&](V16 t01, V16 t23, V16 t45, V16 t67, const auto& store) {
             for (size_t x = 0; x < count * G; x += N) {
               const uint16_t* q = p + x;
#if HWY_HAVE_SCALABLE || (HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2)
               // (AVX2 and AVX-512 fold the loads into the multiplies.)
               const auto from = [&](auto k) {
                 return Values(q + decltype(k)::value);
               };
#else
      // The vector at q + k from those at q and q + 8, which hold each
      // 128-bit block's samples and the next 8 (palignr, NEON's ext): two
      // loads instead of eight.
      const D16 d;
      const V16 a = Values(q), b = Values(q + 8);
      const auto from = [&](auto k) {
        constexpr int kK = decltype(k)::value;
        if constexpr (kK == 0)
          return a;
        else
          return hn::CombineShiftRightBytes<2 * kK>(d, b, a);
      };
#endif
               const V32 even =
                   Sum8<kVnni>(t01, t23, t45, t67, from(Int<0>()),
                               from(Int<2>()), from(Int<4>()), from(Int<6>()));
               const V32 odd =
                   Sum8<kVnni>(t01, t23, t45, t67, from(Int<1>()),
                               from(Int<3>()), from(Int<5>()), from(Int<7>()));
               store(ClipEvenOdd(even, odd, vmax), out + x);
             }
           });
#endif
}

// The pair row of the value rows a and b (n samples, a multiple of the
// vector): per vector of samples at x, two vectors at out + 2x, which
// pair a's and b's samples lane by lane in the order Clip puts the sums
// back. On x86 (punpcklwd, punpckhwd, within 128-bit blocks as packusdw
// works): the lower halves of each block's samples, then the upper halves;
// elsewhere (a[2j], b[2j]) in lane pair j of the first, (a[2j + 1],
// b[2j + 1]) of the second: the even samples' pairs and the odd ones'.
void PairWords(const uint16_t* HWY_RESTRICT a, const uint16_t* HWY_RESTRICT b,
               size_t n, uint16_t* HWY_RESTRICT out) {
  const size_t N = hn::Lanes(D16());
  for (size_t x = 0; x < n; x += N) {
#if HWY_TARGET == HWY_SCALAR
    out[2 * x] = a[x];
    out[2 * x + 1] = b[x];
#else
    const D16 d;
    const DU16 du;
    const V16 va = Values(a + x), vb = Values(b + x);
#if HWY_TARGET <= HWY_SSSE3
    const V16 lower = hn::InterleaveLower(d, va, vb);
    const V16 upper = hn::InterleaveUpper(d, va, vb);
#else
    const D32 d32;
    const hn::RebindToUnsigned<D32> du32;
    const V16 lower = hn::OddEven(
        hn::BitCast(d, hn::ShiftLeft<16>(hn::BitCast(d32, vb))), va);
    const V16 upper = hn::OddEven(
        vb, hn::BitCast(d, hn::ShiftRight<16>(hn::BitCast(du32, va))));
#endif
    hn::StoreU(hn::BitCast(du, lower), du, out + 2 * x);
    hn::StoreU(hn::BitCast(du, upper), du, out + 2 * x + N);
#endif
  }
}

// Groups [g0, g0 + count) of the 8-tap vertical pass over pair rows: the
// rows of taps 2m and 2m + 1 in pairs[m] (PairWords).
template <bool kVnni>
void Vertical8Words(const uint16_t* const* pairs, const int16_t* taps, int maxv,
                    size_t g0, size_t count, uint16_t* HWY_RESTRICT out,
                    int shift) {
  const size_t N = hn::Lanes(D16()), G = 2 * N;
  const size_t x0 = g0 * G;
  const uint16_t *p0 = pairs[0] + 2 * x0, *p1 = pairs[1] + 2 * x0;
  const uint16_t *p2 = pairs[2] + 2 * x0, *p3 = pairs[3] + 2 * x0;
#if HWY_TARGET == HWY_SCALAR
  for (size_t x = 0; x < count * G; x++) {
    const uint16_t* p[4] = {p0 + 2 * x, p1 + 2 * x, p2 + 2 * x, p3 + 2 * x};
    out[x] = Filter8(taps, maxv, shift, [&](int k) { return p[k / 2][k % 2]; });
  }
#else
  const V16 vmax = hn::Set(D16(), static_cast<int16_t>(maxv));
  WithTaps(
      taps, shift, [&](V16 t01, V16 t23, V16 t45, V16 t67, const auto& store) {
        for (size_t x = 0; x < count * G; x += N) {
          const size_t i = 2 * x;  // the pairs of samples x ..
          const V32 lo =
              Sum8<kVnni>(t01, t23, t45, t67, Values(p0 + i), Values(p1 + i),
                          Values(p2 + i), Values(p3 + i));
          const V32 hi = Sum8<kVnni>(t01, t23, t45, t67, Values(p0 + i + N),
                                     Values(p1 + i + N), Values(p2 + i + N),
                                     Values(p3 + i + N));
          store(Clip(lo, hi, vmax), out + x);
        }
      });
#endif
}

// a + ((f (b - a) + 8) >> 4) of the values a and b, stored shifted.
HWY_INLINE void LerpWords(V16 a, V16 b, int f, int shift,
                          uint16_t* HWY_RESTRICT out) {
  const D16 d;
  const DU16 du;
  const V16 v = Lerp(d, a, b, hn::Set(d, static_cast<int16_t>(f)));
  hn::StoreU(hn::ShiftLeftSame(hn::BitCast(du, v), shift), du, out);
}

// Groups [g0, g0 + count) of the bilinear horizontal pass, output x from
// the values e[x + 3] and e[x + 4].
void LerpHorizontalWords(const Window<uint16_t>& e, int f, size_t g0,
                         size_t count, uint16_t* HWY_RESTRICT out, int shift) {
  const DU16 du;
  const D16 d;
  const size_t N = hn::Lanes(d), G = 2 * N;
  for (size_t i = 0; i < count; i++) {
    const uint16_t* p = e.group(g0 + i) + 3;
    for (size_t x = 0; x < G; x += N)
      LerpWords(hn::BitCast(d, hn::LoadU(du, p + x)),
                hn::BitCast(d, hn::LoadU(du, p + x + 1)), f, shift,
                out + i * G + x);
  }
}

// Groups [g0, g0 + count) of the bilinear vertical pass over rows a, b.
void LerpVerticalWords(const uint16_t* a, const uint16_t* b, int f, size_t g0,
                       size_t count, uint16_t* HWY_RESTRICT out, int shift) {
  const DU16 du;
  const D16 d;
  const size_t N = hn::Lanes(d), G = 2 * N;
  for (size_t x = g0 * G; x < (g0 + count) * G; x += N)
    LerpWords(hn::BitCast(d, hn::LoadU(du, a + x)),
              hn::BitCast(d, hn::LoadU(du, b + x)), f, shift,
              out + (x - g0 * G));
}
