// daedalusmc's kernels for 10-bit planes (docs/spec.md "High bit depth"),
// for mc_simd.cc, which includes it once per Highway target inside its
// target namespace, after Window and Lerp. Hence no include guard and no
// includes of its own.
//
// Rows here are values in sample order (the horizontal pass takes them
// from the words as it loads them, Decode; the vertical pass reads its
// own intermediate rows): an 8-tap sum of 10-bit
// samples needs 19 bits, but both factors of a product, a value (< 2^10)
// and a tap (|t| <= 128), fit 16-bit lanes, so the taps go two at a time, a
// pair of 16-bit lanes multiplied and summed into one 32-bit lane
// (ReorderWidenMulAccumulate: pmaddwd on x86). A vector of pairs yields the
// even outputs of a group, another the odd ones, which the store
// interleaves again. The bilinear filter's products fit 16 bits
// (|f (b - a)| <= 15 * 1023). Results are stored as 16-bit values shifted
// left by `shift`: the plane's lsb for an output row, 0 for the
// intermediate rows.

// The values of a source plane's words: as 16-bit lanes, one instruction
// each (a mask for values in the low bits; a shift for values in the high
// bits, P010's: lsb + bit depth = 16), or one at a time.
struct Decode {
  explicit Decode(const ConstPlane& src)
      : lsb(src.lsb), mask(static_cast<int16_t>(src.max_value())) {}
  template <bool kHigh>
  HWY_INLINE V16 at(const uint16_t* HWY_RESTRICT p) const {
    const auto v = hn::LoadU(DU16(), p);
    if constexpr (kHigh)
      return hn::BitCast(D16(), hn::ShiftRightSame(v, lsb));
    else
      return hn::And(hn::BitCast(D16(), v), hn::Set(D16(), mask));
  }
  int value(uint16_t word) const { return word >> lsb & mask; }
  int lsb;
  int16_t mask;
};

template <int K>
using Int = std::integral_constant<int, K>;

// Calls f(std::bool_constant<kHigh>()) for the plane's Decode.
template <class F>
HWY_INLINE void WithDecode(const Decode& dec, const F& f) {
  if (dec.lsb != 0)
    f(std::true_type());
  else
    f(std::false_type());
}

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
// struct: SVE vectors cannot be members.
HWY_INLINE V32 Sum8(V16 t01, V16 t23, V16 t45, V16 t67, V16 p0, V16 p1, V16 p2,
                    V16 p3) {
  const D32 d;
  const V32 round = hn::Set(d, 64);
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
// odd ones, or on x86 (packssdw) a's in the lower half of each 128-bit block
// and b's in the upper. |sum| / 128 < 2^15, so nothing saturates.
HWY_INLINE V16 Clip(V32 a, V32 b, V16 maxv) {
  const D16 d;
  a = hn::ShiftRight<7>(a);
  b = hn::ShiftRight<7>(b);
#if HWY_TARGET <= HWY_SSSE3
  const V16 v = hn::ReorderDemote2To(d, a, b);
#else
  const V16 v =
      hn::OddEven(hn::BitCast(d, hn::ShiftLeft<16>(b)), hn::BitCast(d, a));
#endif
  return hn::Min(hn::Max(v, hn::Zero(d)), maxv);
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

// The values v stored at p shifted left by `shift`.
HWY_INLINE void StoreShifted(V16 v, int shift, uint16_t* HWY_RESTRICT p) {
  const DU16 du;
  hn::StoreU(hn::ShiftLeftSame(hn::BitCast(du, v), shift), du, p);
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
// e[x .. x + 7] (words, decoded by `dec`), written from `out` on. Lane pair j
// of the vector at e + x + k holds e[x + k + 2j] and the sample after it:
// with the tap pair k, k + 1 it adds to output x + 2j, the vector one
// further to x + 2j + 1.
void Horizontal8Words(const Window<uint16_t>& e, const int16_t* taps, int maxv,
                      const Decode& dec, size_t g0, size_t count,
                      uint16_t* HWY_RESTRICT out, int shift) {
  const size_t N = hn::Lanes(D16()), G = 2 * N;
#if HWY_TARGET == HWY_SCALAR
  for (size_t x = 0; x < count * G; x++) {
    const uint16_t* p = e.group(g0 + x / G) + x % G;
    out[x] = Filter8(taps, maxv, shift, [&](int k) { return dec.value(p[k]); });
  }
#else
  const V16 t01 = TapPair(taps[0], taps[1]), t23 = TapPair(taps[2], taps[3]);
  const V16 t45 = TapPair(taps[4], taps[5]), t67 = TapPair(taps[6], taps[7]);
  const V16 vmax = hn::Set(D16(), static_cast<int16_t>(maxv));
  WithDecode(dec, [&](auto high) {
    const auto at = [&](const uint16_t* p) {
      return dec.template at<decltype(high)::value>(p);
    };
    for (size_t i = 0; i < count; i++) {
      const uint16_t* p = e.group(g0 + i);
      for (size_t x = 0; x < G; x += N) {
        const uint16_t* q = p + x;
#if HWY_HAVE_SCALABLE || (HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2)
        // (AVX2 and AVX-512 fold the load into the decode's instruction.)
        const auto from = [&](auto k) { return at(q + decltype(k)::value); };
#else
        // The vector at q + k from those at q and q + 8, which hold each
        // 128-bit block's samples and the next 8 (palignr, NEON's ext): two
        // loads and decodes instead of eight.
        const D16 d;
        const V16 a = at(q), b = at(q + 8);
        const auto from = [&](auto k) {
          constexpr int kK = decltype(k)::value;
          if constexpr (kK == 0)
            return a;
          else
            return hn::CombineShiftRightBytes<2 * kK>(d, b, a);
        };
#endif
        const V32 even = Sum8(t01, t23, t45, t67, from(Int<0>()),
                              from(Int<2>()), from(Int<4>()), from(Int<6>()));
        const V32 odd = Sum8(t01, t23, t45, t67, from(Int<1>()), from(Int<3>()),
                             from(Int<5>()), from(Int<7>()));
        StoreShifted(ClipEvenOdd(even, odd, vmax), shift, out + i * G + x);
      }
    }
  });
#endif
}

// Groups [g0, g0 + count) of the 8-tap vertical pass over rows r[0..7] of
// values: rows a and b paired lane by lane.
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
  const size_t N = hn::Lanes(d), G = 2 * N;
  const V16 t01 = TapPair(taps[0], taps[1]), t23 = TapPair(taps[2], taps[3]);
  const V16 t45 = TapPair(taps[4], taps[5]), t67 = TapPair(taps[6], taps[7]);
  const V16 vmax = hn::Set(d, static_cast<int16_t>(maxv));
  const size_t x0 = g0 * G;
  const uint16_t *r0 = r[0] + x0, *r1 = r[1] + x0, *r2 = r[2] + x0;
  const uint16_t *r3 = r[3] + x0, *r4 = r[4] + x0, *r5 = r[5] + x0;
  const uint16_t *r6 = r[6] + x0, *r7 = r[7] + x0;
#if HWY_TARGET <= HWY_SSSE3
  // x86 interleaves (punpcklwd, punpckhwd) within 128-bit blocks as Clip
  // packs: the lower halves of each block's samples of a and b zipped give
  // the pairs of one vector of sums, the upper halves another's, and Clip
  // puts the outputs back in sample order.
  const auto lower = [&](V16 a, V16 b) { return hn::InterleaveLower(d, a, b); };
  const auto upper = [&](V16 a, V16 b) { return hn::InterleaveUpper(d, a, b); };
#else
  // (a[2j], b[2j]) and (a[2j + 1], b[2j + 1]) in lane pair j: the even
  // outputs' sums and the odd ones', as Clip joins them.
  const D32 d32;
  const auto lower = [&](V16 a, V16 b) {
    return hn::OddEven(hn::BitCast(d, hn::ShiftLeft<16>(hn::BitCast(d32, b))),
                       a);
  };
  const auto upper = [&](V16 a, V16 b) {
    const hn::RebindToUnsigned<D32> du32;
    return hn::OddEven(
        b, hn::BitCast(d, hn::ShiftRight<16>(hn::BitCast(du32, a))));
  };
#endif
  for (size_t x = 0; x < count * G; x += N) {
    const V16 a0 = Values(r0 + x), a1 = Values(r1 + x), a2 = Values(r2 + x);
    const V16 a3 = Values(r3 + x), a4 = Values(r4 + x), a5 = Values(r5 + x);
    const V16 a6 = Values(r6 + x), a7 = Values(r7 + x);
    const V32 lo = Sum8(t01, t23, t45, t67, lower(a0, a1), lower(a2, a3),
                        lower(a4, a5), lower(a6, a7));
    const V32 hi = Sum8(t01, t23, t45, t67, upper(a0, a1), upper(a2, a3),
                        upper(a4, a5), upper(a6, a7));
    StoreShifted(Clip(lo, hi, vmax), shift, out + x);
  }
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
// e[x + 3] and e[x + 4] (words, decoded by `dec`).
void LerpHorizontalWords(const Window<uint16_t>& e, int f, const Decode& dec,
                         size_t g0, size_t count, uint16_t* HWY_RESTRICT out,
                         int shift) {
  const size_t N = hn::Lanes(D16()), G = 2 * N;
  WithDecode(dec, [&](auto high) {
    const auto at = [&](const uint16_t* p) {
      return dec.template at<decltype(high)::value>(p);
    };
    for (size_t i = 0; i < count; i++) {
      const uint16_t* p = e.group(g0 + i) + 3;
      for (size_t x = 0; x < G; x += N)
        LerpWords(at(p + x), at(p + x + 1), f, shift, out + i * G + x);
    }
  });
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

// The groups of the window's values from e[3] on, in place.
void WidenWords(const Window<uint16_t>& e, const Decode& dec, size_t groups,
                uint16_t* HWY_RESTRICT out) {
  const size_t N = hn::Lanes(D16()), G = 2 * N;
  WithDecode(dec, [&](auto high) {
    for (size_t g = 0; g < groups; g++)
      for (size_t x = 0; x < G; x += N)
        hn::StoreU(hn::BitCast(DU16(), dec.template at<decltype(high)::value>(
                                           e.group(g) + 3 + x)),
                   DU16(), out + g * G + x);
  });
}
