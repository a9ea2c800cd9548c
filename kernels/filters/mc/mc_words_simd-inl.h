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

// The 8 taps of a phase, broadcast.
struct Taps32 {
  explicit Taps32(const int16_t* taps) {
    for (int k = 0; k < 8; k++) t[k] = hn::Set(D32(), taps[k]);
  }
  V32 t[8];
};

// 64 + sum_k t[k] * r[k][x], the values r[k] + x promoted.
HWY_INLINE V32 Sum8(const Taps32& t, const uint16_t* const* r, size_t x) {
  V32 acc = hn::Set(D32(), 64);
  for (int k = 0; k < 8; k++)
    acc = hn::Add(acc, hn::Mul(t.t[k], Words(r[k] + x)));
  return acc;
}

// Groups [g0, g0 + count) of the 8-tap horizontal pass, output x from
// e[x .. x + 7], written from `out` on.
void Horizontal8Words(const Window<uint16_t>& e, const int16_t* taps, int maxv,
                      size_t g0, size_t count, uint16_t* HWY_RESTRICT out,
                      int shift) {
  const size_t N = hn::Lanes(D32()), G = 2 * hn::Lanes(D16());
  const Taps32 t(taps);
  const auto vmax = hn::Set(DW(), static_cast<uint16_t>(maxv));
  for (size_t i = 0; i < count; i++) {
    const uint16_t* p = e.group(g0 + i);
    const uint16_t* r[8] = {p, p + 1, p + 2, p + 3, p + 4, p + 5, p + 6, p + 7};
    for (size_t x = 0; x < G; x += N)
      StoreWords(Sum8(t, r, x), vmax, shift, out + i * G + x);
  }
}

// Groups [g0, g0 + count) of the 8-tap vertical pass over rows r[0..7].
void Vertical8Words(const uint16_t* const* r, const int16_t* taps, int maxv,
                    size_t g0, size_t count, uint16_t* HWY_RESTRICT out,
                    int shift) {
  const size_t N = hn::Lanes(D32()), G = 2 * hn::Lanes(D16());
  const Taps32 t(taps);
  const auto vmax = hn::Set(DW(), static_cast<uint16_t>(maxv));
  for (size_t x = g0 * G; x < (g0 + count) * G; x += N)
    StoreWords(Sum8(t, r, x), vmax, shift, out + (x - g0 * G));
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
