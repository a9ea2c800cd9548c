// The transform pair of mode=dct and the damage estimator's probe
// (daedalus/dct8.h, kernels/common/dct8.cc): known answers, exact
// reconstruction, ranges at the extremes, the 16-bit products the SIMD rows
// rely on, the inverse against the VP9 specification's process written here
// from its text, at 8 and 10 bits, and the thresholding (docs/spec.md,
// mode=dct).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "daedalus/dct8.h"
#include "test_util.h"

namespace daedalus {
namespace {

// ---- The VP9 specification's inverse DCT (8.7.1.1-8.7.1.3, n = 3) ----

// 8.7.1.1: cos64 over the table of round(16384 cos(k pi / 64)), k = 0..32.
int cos64(int angle) {
  static constexpr int kTable[33] = {
      16384, 16364, 16305, 16207, 16069, 15893, 15679, 15426, 15137,
      14811, 14449, 14053, 13623, 13160, 12665, 12140, 11585, 11003,
      10394, 9760,  9102,  8423,  7723,  7005,  6270,  5520,  4756,
      3981,  3196,  2404,  1606,  804,   0};
  const int a = angle & 127;
  if (a <= 32) return kTable[a];
  if (a <= 64) return -kTable[64 - a];
  if (a <= 96) return -kTable[a - 64];
  return kTable[128 - a];
}
int sin64(int angle) { return cos64(angle - 32); }
int64_t round2(int64_t v, int n) { return (v + (int64_t(1) << (n - 1))) >> n; }
int brev(int bits, int x) {
  int r = 0;
  for (int i = 0; i < bits; i++) r |= ((x >> i) & 1) << (bits - 1 - i);
  return r;
}

// The largest magnitudes met inside the process, before any clipping: of a
// butterfly's sums of products, and of the values stored (apart from the
// final Hadamards of a column pass, whose outputs are those of the block).
struct IdctExtremes {
  int64_t sum = 0, stored = 0;
  // A row pass's last butterfly's inputs: |T[6] + T[5]| and |T[6] - T[5]|.
  int64_t row_stage3 = 0;
};

struct SpecIdct {
  explicit SpecIdct(int bit_depth = 8, IdctExtremes* seen = nullptr)
      : max((int64_t(1) << (7 + bit_depth)) - 1), seen(seen) {}
  int64_t max;           // docs/spec.md's added rule: stored values clipped
  IdctExtremes* seen;    // null: not recorded
  bool outputs = false;  // the final Hadamards of a column pass are running
  int T[8];
  int store(int64_t v) {
    if (seen && !outputs) seen->stored = std::max(seen->stored, std::abs(v));
    return int(std::clamp(v, -max - 1, max));
  }
  void B(int a, int b, int angle, bool flip) {
    const int64_t x =
        int64_t(T[a]) * cos64(angle) - int64_t(T[b]) * sin64(angle);
    const int64_t y =
        int64_t(T[a]) * sin64(angle) + int64_t(T[b]) * cos64(angle);
    if (seen) seen->sum = std::max({seen->sum, std::abs(x), std::abs(y)});
    T[a] = store(round2(x, 14));
    T[b] = store(round2(y, 14));
    if (flip) std::swap(T[a], T[b]);
  }
  void H(int a, int b, bool flip) {
    if (flip) std::swap(a, b);
    const int x = T[a], y = T[b];
    T[a] = store(int64_t(x) + y);
    T[b] = store(int64_t(x) - y);
  }
  // 8.7.1.3 for n = 3, with the n = 2 process inside it; `column`: the
  // column pass, whose last step makes the block's outputs.
  void run(const int in[8], bool column = false) {
    for (int i = 0; i < 8; i++) T[i] = in[brev(3, i)];  // 8.7.1.2
    B(0, 1, 16, true);                                  // n = 2, step 2
    B(2, 3, 32 - brev(5, 2), false);                    // n = 2, step 3
    H(0, 3, false);                                     // n = 2, step 7
    H(1, 2, false);
    for (int i = 0; i < 2; i++) B(4 + i, 7 - i, 32 - brev(5, 4 + i), false);
    for (int j = 0; j < 2; j++) H(4 + 2 * j, 5 + 2 * j, j == 1);
    if (seen && !column)
      seen->row_stage3 =
          std::max({seen->row_stage3, std::abs(int64_t(T[6]) + T[5]),
                    std::abs(int64_t(T[6]) - T[5])});
    B(6, 5, 16, true);
    outputs = column;
    for (int i = 0; i < 4; i++) H(i, 7 - i, false);
  }
};

// 8.7.2: rows, then columns, then Round2(., Min(6, n + 2)) = Round2(., 5),
// each stored value clipped to 7 + bit_depth bits and a sign.
template <class C>
void spec_idct8x8(const C c[64], C y[64], int bit_depth = 8,
                  IdctExtremes* seen = nullptr) {
  int r[8][8];
  for (int v = 0; v < 8; v++) {
    int in[8];
    std::copy(c + 8 * v, c + 8 * v + 8, in);
    SpecIdct s(bit_depth, seen);
    s.run(in);
    std::copy(s.T, s.T + 8, r[v]);
  }
  for (int x = 0; x < 8; x++) {
    int in[8];
    for (int v = 0; v < 8; v++) in[v] = r[v][x];
    SpecIdct s(bit_depth, seen);
    s.run(in, true);
    for (int i = 0; i < 8; i++) y[8 * i + x] = C(round2(s.T[i], 5));
  }
}

// The orthonormal DCT-II basis value.
double basis(int k, int x) {
  const double a = k == 0 ? std::sqrt(1.0 / 8) : std::sqrt(2.0 / 8);
  return a * std::cos((2 * x + 1) * k * M_PI / 16);
}

// A block of samples of type S (uint8_t: 8 bits, uint16_t: 10) in [lo, hi].
template <class S = uint8_t>
std::vector<S> random_block(std::mt19937& gen, int lo = 0,
                            int hi = sizeof(S) == 1 ? 255 : 1023) {
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<S> b(64);
  for (S& v : b) v = S(d(gen));
  return b;
}

// The pair gives back every sample within 1, and all but about 1 in 10^4
// exactly (docs/spec.md): full-range noise, noise of +-`near` around a
// level, and 0/max blocks.
template <class S>
void expect_pair_within_one_step(uint32_t salt, int bit_depth, int near) {
  std::mt19937 gen = test::rng(salt);
  const int max = (1 << bit_depth) - 1, mid = 128 << (bit_depth - 8);
  long off = 0, samples = 0;
  for (int n = 0; n < 50000; n++) {
    const int kind = n % 3;
    const int level = std::uniform_int_distribution<int>(0, max)(gen);
    std::vector<S> b = kind == 0 ? random_block<S>(gen)
                       : kind == 1
                           ? random_block<S>(gen, std::max(0, level - near),
                                             std::min(max, level + near))
                           : random_block<S>(gen, 0, 1);
    if (kind == 2)
      for (S& v : b) v = S(v ? max : 0);
    DctCoef<S> c[64], y[64];
    dct8x8_forward(b.data(), 8, c, bit_depth);
    vp9_idct8x8(c, y, bit_depth);
    for (int i = 0; i < 64; i++) {
      const int e = std::clamp(mid + int(y[i]), 0, max) - b[size_t(i)];
      ASSERT_LE(std::abs(e), 1) << "block " << n;
      off += e != 0;
      samples++;
    }
  }
  EXPECT_LT(double(off) / samples, 1e-3) << off << " of " << samples;
}

TEST(DctTransform, FlatBlockIsItsSumAndComesBack) {
  for (int level = 0; level < 256; level++) {
    const std::vector<uint8_t> block(64, uint8_t(level));
    int16_t c[64], y[64];
    dct8x8_forward(block.data(), 8, c);
    EXPECT_EQ(c[0], 64 * (level - 128)) << level;
    for (int i = 1; i < 64; i++) ASSERT_EQ(c[i], 0) << level << " at " << i;
    vp9_idct8x8(c, y);
    for (int i = 0; i < 64; i++) ASSERT_EQ(y[i], level - 128) << level;
  }
}

TEST(DctTransform, PairReconstructsWithinOneStep) {
  expect_pair_within_one_step<uint8_t>(1, 8, 4);
}

TEST(DctTransform, ForwardIsEightTimesTheOrthonormalDct) {
  // Single cosine patterns, and random blocks: within 8 units (one
  // sample step) of the exact scaled DCT (rounding in two passes).
  std::mt19937 gen = test::rng(2);
  for (int n = 0; n < 64 + 2000; n++) {
    std::vector<uint8_t> b(64);
    if (n < 64) {
      for (int i = 0; i < 64; i++)
        b[i] = uint8_t(std::lround(128 + 90 * 8 * basis(n / 8, i / 8) *
                                             basis(n % 8, i % 8)));
    } else {
      b = random_block(gen);
    }
    int16_t c[64];
    dct8x8_forward(b.data(), 8, c);
    for (int v = 0; v < 8; v++)
      for (int u = 0; u < 8; u++) {
        double exact = 0;
        for (int i = 0; i < 64; i++)
          exact += (b[i] - 128) * basis(v, i / 8) * basis(u, i % 8);
        ASSERT_NEAR(c[8 * v + u], 8 * exact, 8.0)
            << "block " << n << " coefficient " << v << "," << u;
      }
  }
}

TEST(DctTransform, InverseOfOneCoefficientIsTheScaledBasis) {
  for (int k = 0; k < 64; k++)
    for (int value : {-4000, -800, 64, 1000, 11432}) {
      int16_t c[64] = {}, y[64];
      c[k] = int16_t(value);
      vp9_idct8x8(c, y);
      for (int i = 0; i < 64; i++)
        ASSERT_NEAR(
            y[i], value / 8.0 * basis(k / 8, i / 8) * basis(k % 8, i % 8), 1.0)
            << "coefficient " << k << " = " << value << " sample " << i;
    }
}

// Pass 1 sees x_i = 2 (P - 128) in [-256, 254], pass 2 pass 1's outputs.
// Each output of a 1D pass is a sum of signed terms, largest where every
// input sits at an end of its range: all 2^8 such inputs are tried.
int max_abs_over_extremes(int lo, int hi, int pass) {
  int most = 0;
  for (int bits = 0; bits < 256; bits++) {
    int x[8];
    for (int i = 0; i < 8; i++) x[i] = (bits >> i) & 1 ? hi : lo;
    dct8_forward_1d(x, pass);
    for (int v : x) most = std::max(most, std::abs(v));
  }
  return most;
}

TEST(DctTransform, RangesAtTheExtremes) {
  const int pass1 = max_abs_over_extremes(-256, 254, 1);
  EXPECT_LE(pass1, 2414);
  const int pass2 = max_abs_over_extremes(-pass1, pass1, 2);
  EXPECT_LE(pass2, 11432);
  // Blocks at the sample extremes stay inside the documented bound.
  std::mt19937 gen = test::rng(3);
  for (int n = 0; n < 20000; n++) {
    std::vector<uint8_t> b = random_block(gen, 0, 1);
    for (uint8_t& v : b) v = v ? 255 : 0;
    int16_t c[64];
    dct8x8_forward(b.data(), 8, c);
    for (int i = 0; i < 64; i++) ASSERT_LE(std::abs(c[i]), 11432);
  }
}

// ---- The row pass's last butterfly fits 16 bits ----
// deblock_dct_simd.cc takes the row pass's Round2((b6 -+ b5) * cos16, 14)
// as one 16-bit product of b6 -+ b5 (b5 = T[5], b6 = T[6] before the spec's
// B(6, 5, 16, 1)): exact only while |b6 +- b5| <= 32767 on every row the
// forward transform gives, any of its coefficients zeroed. The proof, made
// here: each coefficient is a linear form of the 64 values P - 128 plus an
// error, each M() of the forward transform off by at most 1/2 (carried
// through the later sums and products), and b6 +- b5 is a linear form of a
// row's odd coefficients that are kept, plus 2 (the four Round2 of its
// stage 1). A linear form f is largest over all blocks where each sample
// sits at 0 or 255 by the sign of its weight: 127 * sum of the positive
// weights - 128 * sum of the negative ones. Over every row, every subset of
// its odd coefficients kept and both signs, the bound is about 11600.

// A linear form of 64 values (a block's P - 128, or its coefficients) plus
// an error within +-err.
struct Affine {
  std::array<double, 64> f{};
  double err = 0;
};
Affine operator+(Affine a, const Affine& b) {
  for (int j = 0; j < 64; j++) a.f[j] += b.f[j];
  a.err += b.err;
  return a;
}
Affine operator*(double k, Affine a) {
  for (double& w : a.f) w *= k;
  a.err *= std::abs(k);
  return a;
}
Affine operator-(const Affine& a, const Affine& b) { return a + -1.0 * b; }
// The spec's M(v, k) = (v * k + 2^14) >> 15: v * k / 2^15, within 1/2.
Affine m15(const Affine& v, int k) {
  Affine r = k / 32768.0 * v;
  r.err += 0.5;
  return r;
}
// The largest value of a.f over P - 128 in [-128, 127], plus a.err.
double largest(const Affine& a) {
  double most = a.err;
  for (double w : a.f) most += std::max(127 * w, -128 * w);
  return most;
}

// docs/spec.md's F_p over affine values.
void affine_forward_1d(Affine x[8], int pass) {
  const bool p1 = pass == 1;
  const int K1 = p1 ? 45451 : 22725, K2 = p1 ? 42813 : 21407,
            K3 = p1 ? 38531 : 19266, K5 = p1 ? 25746 : 12873,
            K6 = p1 ? 17734 : 8867, K7 = p1 ? 9041 : 4520;
  Affine s[4], d[4];
  for (int i = 0; i < 4; i++) {
    s[i] = x[i] + x[7 - i];
    d[i] = x[i] - x[7 - i];
  }
  const Affine e0 = s[0] + s[3], e1 = s[1] + s[2], e2 = s[1] - s[2],
               e3 = s[0] - s[3];
  x[0] = pass == 1 ? e0 + e1 : m15(e0 + e1, 16384);
  x[4] = pass == 1 ? e0 - e1 : m15(e0 - e1, 16384);
  x[2] = m15(e2, K6) + m15(e3, K2);
  x[6] = m15(e3, K6) - m15(e2, K2);
  const Affine t0 = m15(d[1] - d[2], 23170), t1 = m15(d[1] + d[2], 23170);
  const Affine o0 = d[3] + t0, o1 = d[3] - t0, o2 = d[0] - t1, o3 = d[0] + t1;
  x[1] = m15(o0, K7) + m15(o3, K1);
  x[7] = m15(o3, K7) - m15(o0, K1);
  x[5] = m15(o1, K3) + m15(o2, K5);
  x[3] = m15(o2, K3) - m15(o1, K5);
}

// The coefficients C[8 v + u] as forms of the samples: pass 1 on each
// column of x = 2 (P - 128), pass 2 on each row.
std::array<Affine, 64> coefficient_forms() {
  std::array<Affine, 64> c;
  for (int col = 0; col < 8; col++) {
    Affine x[8];
    for (int i = 0; i < 8; i++) x[i].f[8 * i + col] = 2;
    affine_forward_1d(x, 1);
    for (int v = 0; v < 8; v++) c[8 * v + col] = x[v];
  }
  for (int v = 0; v < 8; v++) affine_forward_1d(c.data() + 8 * v, 2);
  return c;
}

constexpr int kCos4 = 16069, kCos8 = 15137, kCos12 = 13623, kCos16 = 11585,
              kCos20 = 9102, kCos24 = 6270, kCos28 = 3196;

TEST(DctTransform, RowPassLastButterflyFitsSixteenBits) {
  const std::array<Affine, 64> c = coefficient_forms();
  double most = 0;
  for (int v = 0; v < 8; v++)
    for (int kept = 0; kept < 16; kept++) {
      Affine t[8];  // the row's odd coefficients of the subset, others 0
      for (int k = 0; k < 4; k++)
        if ((kept >> k) & 1) t[2 * k + 1] = c[8 * v + 2 * k + 1];
      // VP9's stage 1 of the odd half, each product / 2^14 within 1/2 (the
      // stage's four roundings are added to each sum below).
      const double s = 1 / 16384.0;
      const Affine a4 = s * kCos28 * t[1] - s * kCos4 * t[7];
      const Affine a7 = s * kCos4 * t[1] + s * kCos28 * t[7];
      const Affine a5 = s * kCos12 * t[5] - s * kCos20 * t[3];
      const Affine a6 = s * kCos20 * t[5] + s * kCos12 * t[3];
      Affine sum = (a7 - a6) + (a4 - a5), diff = (a7 - a6) - (a4 - a5);
      sum.err += 2;
      diff.err += 2;
      // The bound, and the blocks whose linear parts reach it: through the
      // reference's forward transform and the spec's row process, with the
      // row's odd coefficients outside the subset zeroed.
      double bound = 0;
      int64_t reached = 0;
      for (const Affine* form : {&sum, &diff})
        for (double sign : {1.0, -1.0}) {
          const Affine signed_form = sign * *form;
          bound = std::max(bound, largest(signed_form));
          uint8_t block[64];
          for (int j = 0; j < 64; j++)
            block[j] = signed_form.f[j] >= 0 ? 255 : 0;
          int16_t coef[64];
          dct8x8_forward(block, 8, coef);
          int row[8];
          for (int u = 0; u < 8; u++)
            row[u] =
                u % 2 == 0 || ((kept >> (u / 2)) & 1) ? coef[8 * v + u] : 0;
          IdctExtremes seen;
          SpecIdct(8, &seen).run(row);
          reached = std::max(reached, seen.row_stage3);
        }
      const double err = std::max(sum.err, diff.err);
      EXPECT_LE(reached, bound) << "row " << v << " subset " << kept;
      EXPECT_GE(reached, bound - 2 * err) << "row " << v << " subset " << kept;
      most = std::max(most, bound);
    }
  EXPECT_LT(most, 11700);  // well inside 16 bits
}

// The SIMD rows take every butterfly of VP9's inverse whose two constants
// are cos16 (stage 2's b0, b1 and stage 3's c5, c6, in both passes) as one
// 16-bit product of the sum or difference of its inputs: exact while those
// fit 16 bits, and while no stored value before them is clipped, on every
// block and every subset of its coefficients kept. The proof: the inverse's
// values are linear forms of the 64 coefficients (weights w) plus their
// roundings (each Round2 within 1/2, carried through). Over any subset S
// kept, sum over S of w_k C_k <= sum of max(0, w_k C_k) = (sum |w_k C_k| +
// w.C) / 2 <= (|w| |C| + w.C) / 2; |C| <= sigma |P - 128| <= 1024 sigma
// (sigma the forward transform's largest singular value, about 8: bounded
// by Gershgorin on A A^T), w.C is a linear form of the samples (largest at
// 0/255 samples, as above), and each coefficient's own error adds
// |w_k| err_k. The largest such bound among the values checked: 19456.

// A butterfly output Round2(a * k1 + b * k2, 14).
Affine rotate(const Affine& a, int k1, const Affine& b, int k2) {
  Affine r = k1 / 16384.0 * a + k2 / 16384.0 * b;
  r.err += 0.5;
  return r;
}

TEST(DctTransform, Cos16ButterfliesFitSixteenBits) {
  const std::array<Affine, 64> c = coefficient_forms();
  // sigma^2 <= the largest row sum of |A A^T| (A: coefficients x samples).
  double sigma2 = 0;
  for (int i = 0; i < 64; i++) {
    double row = 0;
    for (int k = 0; k < 64; k++) {
      double dot = 0;
      for (int j = 0; j < 64; j++) dot += c[i].f[j] * c[k].f[j];
      row += std::abs(dot);
    }
    sigma2 = std::max(sigma2, row);
  }
  EXPECT_LT(sigma2, 64.1);  // orthogonal rows of norm 8, up to rounding
  const double norm_c = 1024 * std::sqrt(sigma2);
  double most = 0;
  const auto check = [&](const Affine& f, const char* what) {
    double w2 = 0, err = f.err;
    Affine dot;
    for (int k = 0; k < 64; k++) {
      w2 += f.f[k] * f.f[k];
      err += std::abs(f.f[k]) * c[k].err;
      for (int j = 0; j < 64; j++) dot.f[j] += f.f[k] * c[k].f[j];
    }
    for (double sign : {1.0, -1.0}) {
      const double bound =
          (std::sqrt(w2) * norm_c + largest(sign * dot)) / 2 + err;
      EXPECT_LT(bound, 32767) << what;
      most = std::max(most, bound);
    }
  };
  // VP9's 1D process (dct8.cc's stages), every value it stores before the
  // cos16 butterflies checked; returns its outputs.
  const auto process = [&](const Affine t[8], bool checked) {
    const Affine a4 = rotate(t[1], kCos28, t[7], -kCos4);
    const Affine a7 = rotate(t[1], kCos4, t[7], kCos28);
    const Affine a5 = rotate(t[5], kCos12, t[3], -kCos20);
    const Affine a6 = rotate(t[5], kCos20, t[3], kCos12);
    const Affine b0 = rotate(t[0], kCos16, t[4], kCos16);
    const Affine b1 = rotate(t[0], kCos16, t[4], -kCos16);
    const Affine b2 = rotate(t[2], kCos24, t[6], -kCos8);
    const Affine b3 = rotate(t[2], kCos8, t[6], kCos24);
    const Affine b4 = a4 + a5, b5 = a4 - a5, b6 = a7 - a6, b7 = a7 + a6;
    const Affine c0 = b0 + b3, c1 = b1 + b2, c2 = b1 - b2, c3 = b0 - b3;
    const Affine c5 = rotate(b6, kCos16, b5, -kCos16);
    const Affine c6 = rotate(b6, kCos16, b5, kCos16);
    if (checked) {
      for (const Affine* v :
           {&t[0], &t[1], &t[2], &t[3], &t[4], &t[5], &t[6], &t[7], &a4,
            &a5,   &a6,   &a7,   &b0,   &b1,   &b2,   &b3,   &b4,   &b5,
            &b6,   &b7,   &c0,   &c1,   &c2,   &c3,   &c5,   &c6})
        check(*v, "a stored value");
      check(t[0] + t[4], "t0 + t4");
      check(t[0] - t[4], "t0 - t4");
      check(b6 + b5, "b6 + b5");
      check(b6 - b5, "b6 - b5");
    }
    return std::array<Affine, 8>{c0 + b7, c1 + c6, c2 + c5, c3 + b4,
                                 c3 - b4, c2 - c5, c1 - c6, c0 - b7};
  };
  std::array<Affine, 8> r[8];  // the row pass: r[v][x]
  for (int v = 0; v < 8; v++) {
    Affine t[8];
    for (int u = 0; u < 8; u++) t[u].f[8 * v + u] = 1;
    r[v] = process(t, true);
  }
  for (int x = 0; x < 8; x++) {
    Affine t[8];
    for (int v = 0; v < 8; v++) t[v] = r[v][x];
    process(t, true);
  }
  EXPECT_LT(most, 19500);
}

TEST(DctTransform, InverseMatchesTheVp9Specification) {
  std::mt19937 gen = test::rng(4);
  std::uniform_int_distribution<int> full(-11432, 11432), small(-300, 300),
      pick(0, 63), wide(-32768, 32767);
  for (int n = 0; n < 200000; n++) {
    int16_t c[64] = {};
    switch (n % 4) {
      case 0:  // every coefficient anywhere in the forward's range
        for (int16_t& v : c) v = int16_t(full(gen));
        break;
      case 1:  // a few large ones, as thresholding leaves them
        for (int k = 0; k < 4; k++) c[pick(gen)] = int16_t(full(gen));
        break;
      case 2:  // many small ones
        for (int16_t& v : c) v = int16_t(small(gen));
        break;
      default:  // anything 16 bits hold: the clipping rule at work
        for (int16_t& v : c) v = int16_t(wide(gen));
    }
    int16_t got[64], want[64];
    vp9_idct8x8(c, got);
    spec_idct8x8(c, want);
    for (int i = 0; i < 64; i++)
      ASSERT_EQ(got[i], want[i]) << "vector " << n << " sample " << i;
  }
}

// ---- The transform pair at 10 bits (docs/spec.md "High bit depth") ----

TEST(DctTransform10, FlatBlockIsItsSumAndComesBack) {
  for (int level = 0; level < 1024; level++) {
    const std::vector<uint16_t> block(64, uint16_t(level));
    int32_t c[64], y[64];
    dct8x8_forward(block.data(), 8, c, 10);
    EXPECT_EQ(c[0], 64 * (level - 512)) << level;
    for (int i = 1; i < 64; i++) ASSERT_EQ(c[i], 0) << level << " at " << i;
    vp9_idct8x8(c, y, 10);
    for (int i = 0; i < 64; i++) ASSERT_EQ(y[i], level - 512) << level;
  }
}

TEST(DctTransform10, PairReconstructsWithinOneStep) {
  expect_pair_within_one_step<uint16_t>(11, 10, 16);
}

// 4 P gives the coefficients of P times 4 up to rounding: the DC exactly
// (a sum), every coefficient within 8 units of 8 times the orthonormal DCT
// of 4 P - 512.
TEST(DctTransform10, FourTimesAnEightBitBlock) {
  std::mt19937 gen = test::rng(12);
  for (int n = 0; n < 2000; n++) {
    const std::vector<uint8_t> b8 = random_block(gen);
    std::vector<uint16_t> b10(64);
    for (int i = 0; i < 64; i++) b10[size_t(i)] = uint16_t(4 * b8[size_t(i)]);
    int16_t c8[64];
    int32_t c10[64];
    dct8x8_forward(b8.data(), 8, c8);
    dct8x8_forward(b10.data(), 8, c10, 10);
    ASSERT_EQ(c10[0], 4 * c8[0]) << "block " << n;
    for (int v = 0; v < 8; v++)
      for (int u = 0; u < 8; u++) {
        double exact = 0;
        for (int i = 0; i < 64; i++)
          exact += (b10[size_t(i)] - 512) * basis(v, i / 8) * basis(u, i % 8);
        ASSERT_NEAR(c10[8 * v + u], 8 * exact, 8.0)
            << "block " << n << " coefficient " << v << "," << u;
      }
  }
}

TEST(DctTransform10, RangesAtTheExtremes) {
  // x_i = 2 (P - 512) in [-1024, 1022].
  const int pass1 = max_abs_over_extremes(-1024, 1022, 1);
  EXPECT_LE(pass1, 9656);
  EXPECT_LE(max_abs_over_extremes(-pass1, pass1, 2), 45728);
  std::mt19937 gen = test::rng(13);
  for (int n = 0; n < 20000; n++) {
    std::vector<uint16_t> b = random_block<uint16_t>(gen, 0, 1);
    for (uint16_t& v : b) v = v ? 1023 : 0;
    int32_t c[64];
    dct8x8_forward(b.data(), 8, c, 10);
    for (int i = 0; i < 64; i++) ASSERT_LE(std::abs(c[i]), 45728);
  }
}

// The inverse at 10 bits against the spec's process with its 18-bit
// clipping, on coefficients anywhere in the forward's range and anywhere in
// 18 bits (where the clipping engages: the test counts how often).
TEST(DctTransform10, InverseMatchesTheVp9Specification) {
  std::mt19937 gen = test::rng(14);
  std::uniform_int_distribution<int> full(-45728, 45728), small(-1200, 1200),
      pick(0, 63), wide(-131072, 131071);
  int clipped = 0;
  for (int n = 0; n < 100000; n++) {
    int32_t c[64] = {};
    switch (n % 4) {
      case 0:
        for (int32_t& v : c) v = full(gen);
        break;
      case 1:
        for (int k = 0; k < 4; k++) c[pick(gen)] = full(gen);
        break;
      case 2:
        for (int32_t& v : c) v = small(gen);
        break;
      default:
        for (int32_t& v : c) v = wide(gen);
    }
    int32_t got[64], want[64];
    IdctExtremes seen;
    vp9_idct8x8(c, got, 10);
    spec_idct8x8(c, want, 10, &seen);
    clipped += seen.stored > 131071;
    for (int i = 0; i < 64; i++)
      ASSERT_EQ(got[i], want[i]) << "vector " << n << " sample " << i;
  }
  EXPECT_GT(clipped, 1000);
}

// The clipping worked by hand: a row (131071, 0, 0, 0, 131071, 0, 0, 0)
// makes b0 = Round2(262142 * 11585, 14) = 185359, stored as 131071, and
// c0 = c3 = 131071 go straight to t0, t3, t4 and t7 (t1 = t2 = t5 = t6 = 0:
// b1 = b2 = b3 = 0 and the odd half is 0). Each column then holds 131071
// alone, DC only: Round2(131071 * 11585, 14) = 92679, Round2(., 5) = 2896.
// At 8 bits the clip is at 32767.
TEST(DctTransform10, InverseClipsAtEighteenBits) {
  int t[8] = {131071, 0, 0, 0, 131071, 0, 0, 0};
  vp9_idct8_1d(t, 10);
  EXPECT_EQ(std::vector<int>(t, t + 8),
            (std::vector<int>{131071, 0, 0, 131071, 131071, 0, 0, 131071}));
  int t8[8] = {32767, 0, 0, 0, 32767, 0, 0, 0};
  vp9_idct8_1d(t8, 8);
  EXPECT_EQ(std::vector<int>(t8, t8 + 8),
            (std::vector<int>{32767, 0, 0, 32767, 32767, 0, 0, 32767}));
  int32_t c[64] = {}, y[64];
  c[0] = c[4] = 131071;
  vp9_idct8x8(c, y, 10);
  for (int i = 0; i < 64; i++) {
    const int x = i % 8;
    ASSERT_EQ(y[i], x == 0 || x == 3 || x == 4 || x == 7 ? 2896 : 0) << i;
  }
}

// docs/spec.md's "32 bits suffice": on coefficients of the forward
// transform, thresholded at any level, every sum of a butterfly is below
// 1.6e9 and every value stored before a column pass's outputs within
// +-95000 (the 18-bit clip is at 131071). Blocks that drive single coefficients
// to their extremes (the sign pattern of each basis function at 0 and 1023),
// 0/1023 noise, full-range noise and impulses, at every threshold qp gives and
// at 0 (none zeroed).
TEST(DctTransform10, InverseFitsThirtyTwoBitsOnForwardOutputs) {
  std::mt19937 gen = test::rng(15);
  std::vector<std::vector<uint16_t>> blocks;
  for (int k = 0; k < 64; k++)
    for (bool flip : {false, true}) {
      std::vector<uint16_t> b(64);
      for (int i = 0; i < 64; i++)
        b[size_t(i)] =
            (basis(k / 8, i / 8) * basis(k % 8, i % 8) >= 0) != flip ? 1023 : 0;
      blocks.push_back(b);
    }
  for (int n = 0; n < 2000; n++) {
    std::vector<uint16_t> b = random_block<uint16_t>(gen, 0, 1);
    for (uint16_t& v : b) v = v ? 1023 : 0;
    blocks.push_back(b);
    blocks.push_back(random_block<uint16_t>(gen));
  }
  for (int i = 0; i < 64; i++) {
    std::vector<uint16_t> b(64, 0);
    b[size_t(i)] = 1023;
    blocks.push_back(b);
    for (uint16_t& v : b) v = uint16_t(1023 - v);
    blocks.push_back(b);
  }
  std::vector<int> thresholds = {0};
  for (int q = 16; q <= 51; q++) thresholds.push_back(dct_threshold(q) << 2);
  IdctExtremes seen;
  for (const std::vector<uint16_t>& b : blocks) {
    int32_t c[64];
    dct8x8_forward(b.data(), 8, c, 10);
    for (int t : thresholds) {
      int32_t kept[64], y[64];
      std::copy(c, c + 64, kept);
      dct8x8_threshold(kept, t);
      spec_idct8x8(kept, y, 10, &seen);
    }
  }
  EXPECT_LT(seen.sum, int64_t(1600000000));  // under 2^31
  EXPECT_LE(seen.stored, 95000);             // inside the 18-bit clip
}

TEST(DctThreshold, HardAtTheThreshold) {
  int16_t c[64] = {};
  c[0] = 3;  // DC is kept however small
  c[1] = 160;
  c[2] = 161;
  c[8] = -160;
  c[9] = -161;
  c[63] = 1;
  EXPECT_TRUE(dct8x8_threshold(c, 160));
  EXPECT_EQ(c[0], 3);
  EXPECT_EQ(c[1], 0);
  EXPECT_EQ(c[2], 161);
  EXPECT_EQ(c[8], 0);
  EXPECT_EQ(c[9], -161);
  EXPECT_EQ(c[63], 0);
  int16_t flat[64] = {-500};
  flat[5] = 7;
  EXPECT_FALSE(dct8x8_threshold(flat, 7));
  EXPECT_EQ(flat[0], -500);
}

TEST(DctThreshold, OneQuantiserStep) {
  for (int q = 0; q <= 15; q++) EXPECT_EQ(dct_threshold(q), 0) << q;
  EXPECT_EQ(dct_threshold(16), 4);    // qstep 4
  EXPECT_EQ(dct_threshold(17), 4);    // qstep 4.5, rounded down
  EXPECT_EQ(dct_threshold(24), 10);   // qstep 10
  EXPECT_EQ(dct_threshold(30), 20);   // qstep 20
  EXPECT_EQ(dct_threshold(31), 22);   // qstep 22
  EXPECT_EQ(dct_threshold(51), 224);  // qstep 224
}

}  // namespace
}  // namespace daedalus
