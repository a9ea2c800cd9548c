// The transform pair of deblock mode=dct, written to be read against
// docs/spec.md: the scalar reference and the tests use it as the oracle.
#include "daedalus/dct8.h"

#include <algorithm>
#include <cstdlib>

namespace daedalus {
namespace {

// M(v, k) of the spec: a product rounded at 15 fractional bits.
int mul15(int v, int k) { return (v * k + (1 << 14)) >> 15; }

// K1..K7 (K4 unused) of pass 1 and pass 2: 2^15 sqrt(2) cos(k pi / 16),
// then halved for pass 2.
constexpr int kPass1[8] = {0, 45451, 42813, 38531, 0, 25746, 17734, 9041};
constexpr int kPass2[8] = {0, 22725, 21407, 19266, 0, 12873, 8867, 4520};

int64_t round_shift(int64_t v, int n) { return (v + (1 << (n - 1))) >> n; }

// VP9's cospi_k_64 = round(2^14 cos(k pi / 64)) for the angles idct8 uses.
constexpr int kCos4 = 16069, kCos8 = 15137, kCos12 = 13623, kCos16 = 11585,
              kCos20 = 9102, kCos24 = 6270, kCos28 = 3196;

// What the inverse stores: values clipped to 7 + bit_depth bits and a sign.
struct Store {
  explicit Store(int bit_depth) : max((1 << (7 + bit_depth)) - 1) {}
  int operator()(int64_t v) const {
    return int(std::clamp<int64_t>(v, -max - 1, max));
  }
  // One butterfly rotation: Round2(a * c1 + b * c2, 14), exact, stored.
  int rotate(int a, int c1, int b, int c2) const {
    return (*this)(round_shift(int64_t(a) * c1 + int64_t(b) * c2, 14));
  }
  int max;
};

}  // namespace

void dct8_forward_1d(int x[8], int pass) {
  const int* k = pass == 1 ? kPass1 : kPass2;
  const int s0 = x[0] + x[7], s1 = x[1] + x[6], s2 = x[2] + x[5],
            s3 = x[3] + x[4];
  const int d0 = x[0] - x[7], d1 = x[1] - x[6], d2 = x[2] - x[5],
            d3 = x[3] - x[4];
  const int e0 = s0 + s3, e1 = s1 + s2, e2 = s1 - s2, e3 = s0 - s3;
  x[0] = pass == 1 ? e0 + e1 : mul15(e0 + e1, 16384);
  x[4] = pass == 1 ? e0 - e1 : mul15(e0 - e1, 16384);
  x[2] = mul15(e2, k[6]) + mul15(e3, k[2]);
  x[6] = mul15(e3, k[6]) - mul15(e2, k[2]);
  const int t0 = mul15(d1 - d2, 23170), t1 = mul15(d1 + d2, 23170);
  const int o0 = d3 + t0, o1 = d3 - t0, o2 = d0 - t1, o3 = d0 + t1;
  x[1] = mul15(o0, k[7]) + mul15(o3, k[1]);
  x[7] = mul15(o3, k[7]) - mul15(o0, k[1]);
  x[5] = mul15(o1, k[3]) + mul15(o2, k[5]);
  x[3] = mul15(o2, k[3]) - mul15(o1, k[5]);
}

template <class S>
void dct8x8_forward(const S* p, ptrdiff_t stride, DctCoef<S> c[64],
                    int bit_depth) {
  const int mid = 128 << (bit_depth - 8);
  int v[8][8];  // v[freq][column] after pass 1
  for (int col = 0; col < 8; col++) {
    int x[8];
    for (int i = 0; i < 8; i++) x[i] = 2 * (p[i * stride + col] - mid);
    dct8_forward_1d(x, 1);
    for (int i = 0; i < 8; i++) v[i][col] = x[i];
  }
  for (int f = 0; f < 8; f++) {
    int x[8];
    std::copy(v[f], v[f] + 8, x);
    dct8_forward_1d(x, 2);
    for (int u = 0; u < 8; u++) c[8 * f + u] = DctCoef<S>(x[u]);
  }
}
template void dct8x8_forward(const uint8_t*, ptrdiff_t, int16_t*, int);
template void dct8x8_forward(const uint16_t*, ptrdiff_t, int32_t*, int);

// libvpx's stage form of the spec's butterfly network (the tests check it
// against the spec's permutation-and-butterfly process).
void vp9_idct8_1d(int t[8], int bit_depth) {
  const Store store(bit_depth);
  // Stage 1: the odd inputs rotated.
  const int a4 = store.rotate(t[1], kCos28, t[7], -kCos4);
  const int a7 = store.rotate(t[1], kCos4, t[7], kCos28);
  const int a5 = store.rotate(t[5], kCos12, t[3], -kCos20);
  const int a6 = store.rotate(t[5], kCos20, t[3], kCos12);
  // Stage 2: the even half's 4-point inverse, the odd half's first sums.
  const int b0 = store.rotate(t[0], kCos16, t[4], kCos16);
  const int b1 = store.rotate(t[0], kCos16, t[4], -kCos16);
  const int b2 = store.rotate(t[2], kCos24, t[6], -kCos8);
  const int b3 = store.rotate(t[2], kCos8, t[6], kCos24);
  const int b4 = store(a4 + a5), b5 = store(a4 - a5);
  const int b6 = store(a7 - a6), b7 = store(a7 + a6);
  // Stage 3.
  const int c0 = store(b0 + b3), c1 = store(b1 + b2);
  const int c2 = store(b1 - b2), c3 = store(b0 - b3);
  const int c5 = store.rotate(b6, kCos16, b5, -kCos16);
  const int c6 = store.rotate(b6, kCos16, b5, kCos16);
  // Stage 4.
  t[0] = store(c0 + b7);
  t[1] = store(c1 + c6);
  t[2] = store(c2 + c5);
  t[3] = store(c3 + b4);
  t[4] = store(c3 - b4);
  t[5] = store(c2 - c5);
  t[6] = store(c1 - c6);
  t[7] = store(c0 - b7);
}

template <class C>
void vp9_idct8x8(const C c[64], C y[64], int bit_depth) {
  int r[8][8];
  for (int v = 0; v < 8; v++) {
    std::copy(c + 8 * v, c + 8 * v + 8, r[v]);
    vp9_idct8_1d(r[v], bit_depth);
  }
  for (int x = 0; x < 8; x++) {
    int t[8];
    for (int v = 0; v < 8; v++) t[v] = r[v][x];
    vp9_idct8_1d(t, bit_depth);
    for (int i = 0; i < 8; i++) y[8 * i + x] = C(round_shift(t[i], 5));
  }
}
template void vp9_idct8x8(const int16_t*, int16_t*, int);
template void vp9_idct8x8(const int32_t*, int32_t*, int);

template <class C>
bool dct8x8_threshold(C c[64], int threshold) {
  bool any = false;
  for (int i = 1; i < 64; i++) {
    if (std::abs(int(c[i])) <= threshold) c[i] = 0;
    any |= c[i] != 0;
  }
  return any;
}
template bool dct8x8_threshold(int16_t*, int);
template bool dct8x8_threshold(int32_t*, int);

int dct_threshold(int plane_qp) {
  static constexpr int kStep16[6] = {10, 11, 13, 14, 16, 18};  // 16 x qstep
  if (plane_qp <= 15) return 0;
  return (kStep16[plane_qp % 6] << (plane_qp / 6)) >> 4;
}

}  // namespace daedalus
