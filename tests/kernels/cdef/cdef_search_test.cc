// CDEF scalar reference (the spec, daedaluscdef): the direction and
// offset tables, the direction search and the strength adjustment.
#include "daedalus/cdef.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cdef_test_helpers.h"
#include "test_util.h"

namespace daedalus {
namespace {

using namespace cdef_test;

// ---------------------------------------------------------------- tables

TEST(CdefTables, DirectionsMatchSpec) {
  // AV1 spec 7.15.3 Cdef_Directions, {row, col}.
  const int expected[8][2][2] = {{{-1, 1}, {-2, 2}}, {{0, 1}, {-1, 2}},
                                 {{0, 1}, {0, 2}},   {{0, 1}, {1, 2}},
                                 {{1, 1}, {2, 2}},   {{1, 0}, {2, 1}},
                                 {{1, 0}, {2, 0}},   {{1, 0}, {2, -1}}};
  for (int d = 0; d < 8; d++)
    for (int k = 0; k < 2; k++)
      for (int c = 0; c < 2; c++)
        EXPECT_EQ(kCdefDirections[d][k][c], expected[d][k][c])
            << d << " " << k << " " << c;
  const uint8_t dir422[8] = {7, 0, 2, 4, 5, 6, 6, 6};
  for (int d = 0; d < 8; d++) EXPECT_EQ(kCdefDir422[d], dir422[d]) << d;
}

// The second filter tap of a direction steps exactly along a search line:
// ties the offset table to the search's geometry.
TEST(CdefTables, SecondTapStaysOnSearchLine) {
  for (int d = 0; d < 8; d++) {
    const int dy = kCdefDirections[d][1][0], dx = kCdefDirections[d][1][1];
    for (int i = 0; i < 8; i++)
      for (int j = 0; j < 8; j++) {
        if (i + dy < 0 || i + dy > 7 || j + dx < 0 || j + dx > 7) continue;
        EXPECT_EQ(test::cdef_line_of(d, i, j),
                  test::cdef_line_of(d, i + dy, j + dx))
            << d;
      }
  }
}

// ------------------------------------------------------- direction search

TEST(CdefDirection, StripesKnownAnswer) {
  // Rows 0-3 = 144, rows 4-7 = 112: samples - 128 are +-16, constant along
  // rows. partial[2][i] = 8 * +-16 = +-128, cost[2] = 8 * 128^2 * 105 =
  // 13762560; partial[6][j] = 4 * 16 - 4 * 16 = 0, so cost[6] = 0.
  // var = 13762560 >> 10 = 13440. Transposed: direction 6, same var.
  Image h(PixelFormat::GRAY8, 8, 8, kPad), v(PixelFormat::GRAY8, 8, 8, kPad);
  test::fill(h, [](int, int, int y) { return uint8_t(y < 4 ? 144 : 112); });
  test::fill(v, [](int, int x, int) { return uint8_t(x < 4 ? 144 : 112); });
  int var = -1;
  EXPECT_EQ(cdef_find_dir_ref(h.frame().planes[0], 0, 0, &var), 2);
  EXPECT_EQ(var, 13440);
  var = -1;
  EXPECT_EQ(cdef_find_dir_ref(v.frame().planes[0], 0, 0, &var), 6);
  EXPECT_EQ(var, 13440);
}

TEST(CdefDirection, FlatBlockIsDirectionZeroVarZero) {
  // All costs equal (0 for 128, 840 * sum x^2 otherwise): the first wins and
  // the orthogonal cost cancels it.
  for (int value : {0, 128, 200, 255}) {
    Image image = flat(8, 8, uint8_t(value));
    int var = -1;
    EXPECT_EQ(cdef_find_dir_ref(image.frame().planes[0], 0, 0, &var), 0);
    EXPECT_EQ(var, 0);
  }
}

TEST(CdefDirection, PatternConstantAlongEachDirection) {
  // A block constant along the lines of direction d reaches the bound
  // cost = 840 * sum x^2 (Cauchy-Schwarz); no other direction does.
  for (int d = 0; d < 8; d++) {
    Image image(PixelFormat::GRAY8, 16, 16, kPad);
    test::fill(image, [d](int, int x, int y) {
      return uint8_t(128 +
                     5 * (test::cdef_line_of(d, (y - 4) & 7, (x - 5) & 7) - 7));
    });
    int var = 0;
    EXPECT_EQ(cdef_find_dir_ref(image.frame().planes[0], 5, 4, &var), d);
    EXPECT_GT(var, 0);
  }
}

// An independent oracle: cost(d) = sum over lines of sum^2 * 840 / count.
int oracle_dir(const ConstPlane& plane, int x, int y, int* var) {
  int64_t cost[8];
  for (int d = 0; d < 8; d++) {
    int64_t sum[15] = {}, count[15] = {};
    for (int i = 0; i < 8; i++)
      for (int j = 0; j < 8; j++) {
        sum[test::cdef_line_of(d, i, j)] += plane.at(x + j, y + i) - 128;
        count[test::cdef_line_of(d, i, j)]++;
      }
    cost[d] = 0;
    for (int n = 0; n < 15; n++)
      if (count[n]) cost[d] += sum[n] * sum[n] * (840 / count[n]);
  }
  int best = 0;
  for (int d = 1; d < 8; d++)
    if (cost[d] > cost[best]) best = d;
  *var = int((cost[best] - cost[(best + 4) & 7]) >> 10);
  return best;
}

TEST(CdefDirection, MatchesOracleOnRandomBlocks) {
  std::mt19937 gen = test::rng(1);
  Image image(PixelFormat::GRAY8, 64, 64, kPad);
  for (int round = 0; round < 60; round++) {
    fill_content(image, gen, round);
    const ConstPlane p = image.frame().planes[0];
    for (int y = 0; y + 8 <= 64; y += 7)
      for (int x = 0; x + 8 <= 64; x += 5) {
        int var = -1, want_var = -2;
        const int dir = cdef_find_dir_ref(p, x, y, &var);
        ASSERT_EQ(dir, oracle_dir(p, x, y, &want_var)) << x << "," << y;
        ASSERT_EQ(var, want_var) << x << "," << y;
      }
  }
}

TEST(CdefDirection, HonoursStep) {
  // The same samples, interleaved with junk at step 2, give the same answer.
  std::mt19937 gen = test::rng(2);
  Image nv(PixelFormat::NV12, 16, 16, kPad), gray(PixelFormat::GRAY8, 8, 8);
  fill_content(nv, gen, 1);
  const ConstPlane u = nv.frame().planes[1];
  test::fill(gray, [&](int, int x, int y) { return u.at(x, y); });
  int var_a = 0, var_b = 0;
  EXPECT_EQ(cdef_find_dir_ref(u, 0, 0, &var_a),
            cdef_find_dir_ref(gray.frame().planes[0], 0, 0, &var_b));
  EXPECT_EQ(var_a, var_b);
}

TEST(CdefStrength, AdjustKnownAnswers) {
  struct Case {
    int strength, var, expected;
  };
  // i = floor(log2(var >> 6)) capped at 12 (0 when var < 64);
  // result (s * (4 + i) + 8) >> 4, and 0 when var == 0.
  const Case cases[] = {
      {15, 0, 0},            // var 0
      {15, 1, 4},            // i 0: (60 + 8) >> 4
      {15, 63, 4},           // i 0
      {15, 64, 4},           // var >> 6 = 1: i 0
      {15, 127, 4},          // 1: i 0
      {15, 128, 5},          // 2: i 1: (75 + 8) >> 4
      {15, 255, 5},          // 3: i 1
      {15, 256, 6},          // 4: i 2: (90 + 8) >> 4
      {15, 13440, 10},       // 210: i 7: (165 + 8) >> 4
      {15, 262143, 14},      // 4095: i 11: (225 + 8) >> 4
      {15, 262144, 15},      // 4096: i 12: (240 + 8) >> 4
      {15, 524288, 15},      // 8192: log2 13 capped at 12
      {15, 0x7fffffff, 15},  // huge: capped
      {4, 1, 1},             // (16 + 8) >> 4
      {4, 210, 1},           // 3: i 1: (20 + 8) >> 4
      {4, 13440, 3},         // i 7: (44 + 8) >> 4
      {1, 1, 0},             // (4 + 8) >> 4: strength vanishes
      {1, 0x7fffffff, 1},    // (16 + 8) >> 4
      {0, 5000, 0},
  };
  for (const Case& c : cases)
    EXPECT_EQ(cdef_adjust_strength(c.strength, c.var), c.expected)
        << "strength " << c.strength << " var " << c.var;
}

}  // namespace
}  // namespace daedalus
