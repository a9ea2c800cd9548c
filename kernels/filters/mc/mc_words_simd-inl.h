// daedalusmc's kernels for 10-bit planes (docs/spec.md "High bit depth"),
// for mc_simd.cc, which includes it once per Highway target inside its
// target namespace, after Window and Lerp. Hence no include guard and no
// includes of its own.
//
// Rows here are values in sample order (the window's edge-extended copy
// holds the words' value bits, Extend's doing): an 8-tap sum of 10-bit
// samples needs 19 bits, so the taps multiply in 32-bit lanes, each 16-bit
// word promoted as it is loaded; the bilinear filter's products fit 16
// bits (|f (b - a)| <= 15 * 1023). Results are stored as 16-bit values
// shifted left by `shift`: the plane's lsb for an output row, 0 for the
// intermediate rows.

using D32 = hn::ScalableTag<int32_t>;
using DW = hn::Rebind<uint16_t, D32>;  // the words of one D32 vector
using V32 = hn::Vec<D32>;

// The values at p as 32-bit lanes.
HWY_INLINE V32 Words(const uint16_t* HWY_RESTRICT p) {
  return hn::PromoteTo(D32(), hn::LoadU(DW(), p));
}

// clip3(0, maxv, floor(acc / 128)) << shift at p, acc the sum plus 64.
HWY_INLINE void StoreWords(V32 acc, hn::Vec<DW> maxv, int shift,
                           uint16_t* HWY_RESTRICT p) {
  const DW dw;
  const auto v = hn::Min(hn::DemoteTo(dw, hn::ShiftRight<7>(acc)), maxv);
  hn::StoreU(hn::ShiftLeftSame(v, shift), dw, p);
}

// acc + t * (the values at p).
HWY_INLINE V32 Tap32(V32 acc, V32 t, const uint16_t* HWY_RESTRICT p) {
  return hn::Add(acc, hn::Mul(t, Words(p)));
}

// Groups [g0, g0 + count) of the 8-tap horizontal pass, output x from
// e[x .. x + 7], written from `out` on. (The taps are locals, not an array:
// SVE vectors cannot be array elements.)
void Horizontal8Words(const Window<uint16_t>& e, const int16_t* taps, int maxv,
                      size_t g0, size_t count, uint16_t* HWY_RESTRICT out,
                      int shift) {
  const D32 d;
  const size_t N = hn::Lanes(d), G = 2 * hn::Lanes(D16());
  const V32 t0 = hn::Set(d, taps[0]), t1 = hn::Set(d, taps[1]);
  const V32 t2 = hn::Set(d, taps[2]), t3 = hn::Set(d, taps[3]);
  const V32 t4 = hn::Set(d, taps[4]), t5 = hn::Set(d, taps[5]);
  const V32 t6 = hn::Set(d, taps[6]), t7 = hn::Set(d, taps[7]);
  const V32 bias = hn::Set(d, 64);
  const auto vmax = hn::Set(DW(), static_cast<uint16_t>(maxv));
  for (size_t i = 0; i < count; i++) {
    const uint16_t* p = e.group(g0 + i);
    for (size_t x = 0; x < G; x += N) {
      V32 acc = Tap32(bias, t0, p + x);
      acc = Tap32(acc, t1, p + x + 1);
      acc = Tap32(acc, t2, p + x + 2);
      acc = Tap32(acc, t3, p + x + 3);
      acc = Tap32(acc, t4, p + x + 4);
      acc = Tap32(acc, t5, p + x + 5);
      acc = Tap32(acc, t6, p + x + 6);
      acc = Tap32(acc, t7, p + x + 7);
      StoreWords(acc, vmax, shift, out + i * G + x);
    }
  }
}

// Groups [g0, g0 + count) of the 8-tap vertical pass over rows r[0..7].
void Vertical8Words(const uint16_t* const* r, const int16_t* taps, int maxv,
                    size_t g0, size_t count, uint16_t* HWY_RESTRICT out,
                    int shift) {
  const D32 d;
  const size_t N = hn::Lanes(d), G = 2 * hn::Lanes(D16());
  const V32 t0 = hn::Set(d, taps[0]), t1 = hn::Set(d, taps[1]);
  const V32 t2 = hn::Set(d, taps[2]), t3 = hn::Set(d, taps[3]);
  const V32 t4 = hn::Set(d, taps[4]), t5 = hn::Set(d, taps[5]);
  const V32 t6 = hn::Set(d, taps[6]), t7 = hn::Set(d, taps[7]);
  const V32 bias = hn::Set(d, 64);
  const auto vmax = hn::Set(DW(), static_cast<uint16_t>(maxv));
  const size_t x0 = g0 * G;
  const uint16_t *r0 = r[0] + x0, *r1 = r[1] + x0, *r2 = r[2] + x0;
  const uint16_t *r3 = r[3] + x0, *r4 = r[4] + x0, *r5 = r[5] + x0;
  const uint16_t *r6 = r[6] + x0, *r7 = r[7] + x0;
  for (size_t x = 0; x < count * G; x += N) {
    V32 acc = Tap32(bias, t0, r0 + x);
    acc = Tap32(acc, t1, r1 + x);
    acc = Tap32(acc, t2, r2 + x);
    acc = Tap32(acc, t3, r3 + x);
    acc = Tap32(acc, t4, r4 + x);
    acc = Tap32(acc, t5, r5 + x);
    acc = Tap32(acc, t6, r6 + x);
    acc = Tap32(acc, t7, r7 + x);
    StoreWords(acc, vmax, shift, out + x);
  }
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
