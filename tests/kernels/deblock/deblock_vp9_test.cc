// Deblock mode=vp9, scalar reference: known answers worked from docs/spec.md
// (thresholds, each mask condition at its boundary, the three filters, the
// plane border, overlapping edges at block size 4).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "daedalus/deblock.h"
#include "deblock_test_helpers.h"
#include "test_util.h"

namespace daedalus {
namespace {

using namespace deblock_test;
using Samples = std::vector<int>;

DeblockPlaneParams vp9_params(int block, int level, int sharpness = 0) {
  return deblock_plane_params(test::vp9_params(level, sharpness, block), false,
                              false);
}

// The line as one row (pass 1) or one column (pass 2) of a plane.
Samples filter_line(const Samples& in, const DeblockPlaneParams& pp,
                    bool as_row) {
  const int n = int(in.size());
  Image image(PixelFormat::GRAY8, as_row ? n : 1, as_row ? 1 : n, 3);
  test::fill(image, [&](int, int x, int y) { return uint8_t(in[x + y]); });
  deblock_plane(plane_of(image), pp);
  EXPECT_TRUE(test::guards_intact(image));
  Samples out;
  for (int i = 0; i < n; i++)
    out.push_back(plane_of(image).at(as_row ? i : 0, as_row ? 0 : i));
  return out;
}

struct LineCase {
  const char* name;
  int block, level;
  Samples in, out;
};

// Block size 4: the edge at 4 of an 8-sample line. Level 8: limit 8,
// blimit 2 * 10 + 8 = 28, thresh 0.
// clang-format off
const LineCase kFilter4Cases[] = {
    // Mask: all steps 0, 10 * 2 + 0 <= 28. No hev. ps0 = -28, qs0 = -18:
    // f = 30, f1 = 34 >> 3 = 4, f2 = 33 >> 3 = 4; q0' = -22 + 128 = 106,
    // p0' = 104; f = (4 + 1) >> 1 = 2: q1' = 108, p1' = 102.
    {"filter4 without hev", 4, 8,
     {100, 100, 100, 100, 110, 110, 110, 110},
     {100, 100, 102, 104, 106, 108, 110, 110}},
    // |p3-p2| = 8 <= limit: filtered as above (p3 is read, never written).
    {"|p3-p2| == limit", 4, 8,
     {92, 100, 100, 100, 110, 110, 110, 110},
     {92, 100, 102, 104, 106, 108, 110, 110}},
    {"|p3-p2| > limit", 4, 8,
     {91, 100, 100, 100, 110, 110, 110, 110},
     {91, 100, 100, 100, 110, 110, 110, 110}},
    {"|p2-p1| == limit", 4, 8,
     {92, 92, 100, 100, 110, 110, 110, 110},
     {92, 92, 102, 104, 106, 108, 110, 110}},
    {"|p2-p1| > limit", 4, 8,
     {91, 91, 100, 100, 110, 110, 110, 110},
     {91, 91, 100, 100, 110, 110, 110, 110}},
    // |p1-p0| = 8: hev (8 > 0). |p1-q1| = 2: 20 + 1 <= 28. ps1 = -20:
    // f = c(-20 + 18) = -2, f = c(-2 + 30) = 28, f1 = 32 >> 3 = 4,
    // f2 = 31 >> 3 = 3: q0' = 106, p0' = 103; p1, q1 kept (hev).
    {"|p1-p0| == limit, filter4 with hev", 4, 8,
     {108, 108, 108, 100, 110, 110, 110, 110},
     {108, 108, 108, 103, 106, 110, 110, 110}},
    {"|p1-p0| > limit", 4, 8,
     {109, 109, 109, 100, 110, 110, 110, 110},
     {109, 109, 109, 100, 110, 110, 110, 110}},
    // |q1-q0| = 8, hev: f = c(-28 + 26) = -2, then as above.
    {"|q1-q0| == limit", 4, 8,
     {100, 100, 100, 100, 110, 102, 102, 102},
     {100, 100, 100, 103, 106, 102, 102, 102}},
    {"|q1-q0| > limit", 4, 8,
     {100, 100, 100, 100, 110, 101, 101, 101},
     {100, 100, 100, 100, 110, 101, 101, 101}},
    {"|q2-q1| == limit", 4, 8,
     {100, 100, 100, 100, 110, 110, 118, 118},
     {100, 100, 102, 104, 106, 108, 118, 118}},
    {"|q2-q1| > limit", 4, 8,
     {100, 100, 100, 100, 110, 110, 119, 119},
     {100, 100, 100, 100, 110, 110, 119, 119}},
    {"|q3-q2| == limit", 4, 8,
     {100, 100, 100, 100, 110, 110, 110, 118},
     {100, 100, 102, 104, 106, 108, 110, 118}},
    {"|q3-q2| > limit", 4, 8,
     {100, 100, 100, 100, 110, 110, 110, 119},
     {100, 100, 100, 100, 110, 110, 110, 119}},
    // |p0-q0| * 2 + (|p1-q1| >> 1) = 26 + (5 >> 1) = 28 <= blimit. hev:
    // f = c(-20 + 15) = -5, f = c(-5 + 39) = 34, f1 = 38 >> 3 = 4,
    // f2 = 37 >> 3 = 4: q0' = -19 + 128 = 109, p0' = -24 + 128 = 104.
    {"edge difference == blimit", 4, 8,
     {108, 108, 108, 100, 113, 113, 113, 113},
     {108, 108, 108, 104, 109, 113, 113, 113}},
    // 26 + (6 >> 1) = 29 > blimit.
    {"edge difference > blimit", 4, 8,
     {107, 107, 107, 100, 113, 113, 113, 113},
     {107, 107, 107, 100, 113, 113, 113, 113}},
    // Level 63: limit 63, blimit 193, thresh 3. |p1-p0| = 30: hev.
    // f = c(-58 + 28) = -30, f = c(-30 + 3 * 60) = 127 (clipped),
    // f1 = c(131) >> 3 = 15, f2 = c(130) >> 3 = 15: q0' = c(-28 - 15) + 128
    // = 85, p0' = c(-88 + 15) + 128 = 55.
    {"filter4 with hev, f clipped", 4, 63,
     {70, 70, 70, 40, 100, 100, 100, 100},
     {70, 70, 70, 55, 85, 100, 100, 100}},
    // No hev (3 <= thresh): f = c(150) = 127, f1 = f2 = 15: q0' = 75,
    // p0' = 55; f = 8: q1' = 85, p1' = 45.
    {"filter4 without hev, f clipped", 4, 63,
     {37, 37, 37, 40, 90, 93, 93, 93},
     {37, 37, 45, 55, 75, 85, 93, 93}},
    // f = c(ps1 - qs1) = c(-100): f = c(-100 + 120) = 20, f1 = 24 >> 3 = 3,
    // f2 = 23 >> 3 = 2: q0' = 97, p0' = 62.
    {"filter4, hev term negative", 4, 63,
     {0, 0, 0, 60, 100, 100, 100, 100},
     {0, 0, 0, 62, 97, 100, 100, 100}},
    // f = c(100), f = c(100 - 120) = -20, f1 = -16 >> 3 = -2, f2 = -17 >> 3
    // = -3 (>> floors): q0' = -66 + 128 = 62, p0' = -31 + 128 = 97.
    {"filter4, f negative", 4, 63,
     {100, 100, 100, 100, 60, 0, 0, 0},
     {100, 100, 100, 97, 62, 0, 0, 0}},
};

// Block size 8: the edge at 8 of a 12-sample line reads samples 4 .. 11.
const LineCase kFilter8Cases[] = {
    // Flat (every |pi-p0|, |qi-q0| <= 1). p3..q3 = 101 100 101 100 | 101 100
    // 101 100: p2' = (3*101 + 2*100 + 101 + 100 + 101 + 4) >> 3 = 809 >> 3
    // = 101, p1' = (202 + 100 + 202 + 100 + 101 + 100 + 4) >> 3 = 101,
    // p0' = (101 + 100 + 101 + 200 + 101 + 100 + 101 + 4) >> 3 = 101,
    // q0' = 808 >> 3 = 101, q1' = 807 >> 3 = 100, q2' = 807 >> 3 = 100.
    {"filter8, flat", 8, 8,
     {9, 9, 9, 9, 101, 100, 101, 100, 101, 100, 101, 100},
     {9, 9, 9, 9, 101, 101, 101, 101, 101, 100, 100, 100}},
    // |p3-p0| = 2: not flat, filter4 (hev: |p1-p0| = 1 > 0): f = c(1 + 3)
    // = 4, f1 = 1, f2 = 0: q0' = 100.
    {"filter8, not flat: filter4", 8, 8,
     {9, 9, 9, 9, 102, 100, 101, 100, 101, 100, 101, 100},
     {9, 9, 9, 9, 102, 100, 101, 100, 100, 100, 101, 100}},
};

// Block size 16: the edge at 16 of a 24-sample line reads samples 8 .. 23;
// the line alternates 101, 100 from sample 8.
const LineCase kFilter16Cases[] = {
    // Flat and flat2: out[i] = (sum over j = -7..7 of s[clip3(-8, 7, i + j)]
    // + s[i] + 8) >> 4; e.g. p6' = (7 * 101 + 2 * 100 + 4 * 101 + 4 * 100
    // + 8) >> 4 = 1619 >> 4 = 101.
    {"filter16, flat2", 16, 8,
     {7, 7, 7, 7, 7, 7, 7, 7, 101, 100, 101, 100, 101, 100, 101, 100,
      101, 100, 101, 100, 101, 100, 101, 100},
     {7, 7, 7, 7, 7, 7, 7, 7, 101, 101, 101, 101, 101, 101, 101, 101,
      101, 100, 100, 100, 100, 100, 100, 100}},
    // |p7-p0| = 3: flat but not flat2, so the 8-wide filter on p3..q3 (the
    // answer of "filter8, flat" above).
    {"filter16, flat but not flat2", 16, 8,
     {7, 7, 7, 7, 7, 7, 7, 7, 103, 100, 101, 100, 101, 100, 101, 100,
      101, 100, 101, 100, 101, 100, 101, 100},
     {7, 7, 7, 7, 7, 7, 7, 7, 103, 100, 101, 100, 101, 101, 101, 101,
      101, 100, 100, 100, 101, 100, 101, 100}},
};
// clang-format on

void expect_cases(const LineCase* cases, size_t count) {
  for (size_t i = 0; i < count; i++) {
    const LineCase& c = cases[i];
    const DeblockPlaneParams pp = vp9_params(c.block, c.level);
    EXPECT_EQ(filter_line(c.in, pp, true), c.out) << c.name << " (row)";
    EXPECT_EQ(filter_line(c.in, pp, false), c.out) << c.name << " (column)";
  }
}

TEST(DeblockVp9, Filter4AndMaskBoundaries) {
  expect_cases(kFilter4Cases, std::size(kFilter4Cases));
}

TEST(DeblockVp9, Filter8) {
  expect_cases(kFilter8Cases, std::size(kFilter8Cases));
}

TEST(DeblockVp9, Filter16) {
  expect_cases(kFilter16Cases, std::size(kFilter16Cases));
}

TEST(DeblockVp9, ThresholdsKnownAnswers) {
  struct Case {
    int level, sharpness, limit, blimit, thresh;
  };
  // blimit = 2 * (L + 2) + limit; thresh = L >> 4.
  const Case cases[] = {
      {32, 0, 32, 100, 2},  // no shift, no cap
      {63, 0, 63, 193, 3},  // the largest values
      {63, 7, 2, 132, 3},   // 63 >> 2 = 15, capped at 9 - 7 = 2
      {1, 3, 1, 7, 0},      // 1 >> 1 = 0, raised to 1
      {20, 4, 5, 49, 1},    // 20 >> 1 = 10, capped at 5
      {20, 5, 4, 48, 1},    // 20 >> 2 = 5, capped at 4
      {7, 1, 3, 21, 0},     // 7 >> 1 = 3 < 8: no cap
      {0, 0, 1, 5, 0},      // the formulas at level 0 (the filter is off)
  };
  for (const Case& c : cases) {
    const Vp9Thresholds t = vp9_thresholds(c.level, c.sharpness);
    EXPECT_EQ(t.limit, c.limit) << c.level << "/" << c.sharpness;
    EXPECT_EQ(t.blimit, c.blimit) << c.level << "/" << c.sharpness;
    EXPECT_EQ(t.thresh, c.thresh) << c.level << "/" << c.sharpness;
  }
}

TEST(DeblockVp9, ThresholdsEveryLevelAndSharpness) {
  // libvpx's form of the same formula: shift by (S > 0) + (S > 4).
  for (int level = 0; level <= 63; level++) {
    for (int s = 0; s <= 7; s++) {
      int limit = level >> (int(s > 0) + int(s > 4));
      if (s > 0 && limit > 9 - s) limit = 9 - s;
      if (limit < 1) limit = 1;
      const Vp9Thresholds t = vp9_thresholds(level, s);
      ASSERT_EQ(t.limit, limit) << level << "/" << s;
      ASSERT_EQ(t.blimit, 2 * level + 4 + limit) << level << "/" << s;
      ASSERT_EQ(t.thresh, level / 16) << level << "/" << s;
      // What the element's parameters give every plane: level 0 is off.
      const DeblockPlaneParams pp = vp9_params(8, level, s);
      EXPECT_EQ(deblock_plane_active(pp), level > 0);
      if (level > 0) EXPECT_EQ(pp.vp9.blimit, t.blimit);
    }
  }
}

TEST(DeblockVp9, LevelZeroIsANoop) {
  DeblockParams p = test::vp9_params(0, 0, 8);
  EXPECT_TRUE(deblock_is_noop(p, true));
  p.filter_level = 1;
  EXPECT_FALSE(deblock_is_noop(p, true));
  // mode=vp9 ignores the h264 strength: qp 0 turns mode=h264 off only.
  p.qp = 0;
  EXPECT_FALSE(deblock_is_noop(p, true));
  p.mode = DeblockMode::H264;
  EXPECT_TRUE(deblock_is_noop(p, true));
}

TEST(DeblockVp9, ParameterRanges) {
  DeblockParams p = test::vp9_params(10, 0, 8);
  EXPECT_TRUE(deblock_params_valid(p));
  for (auto [level, sharpness, valid] : {std::tuple{63, 7, true},
                                         {0, 0, true},
                                         {64, 0, false},
                                         {-1, 0, false},
                                         {10, 8, false},
                                         {10, -1, false}}) {
    p.filter_level = level;
    p.sharpness = sharpness;
    EXPECT_EQ(deblock_params_valid(p).is_ok(), valid)
        << level << "/" << sharpness;
  }
}

// The line of "filter4 without hev" with its edge `offset` samples from the
// end of a line of `length`: filtered only where the filter's reads fit.
TEST(DeblockVp9, EdgesNextToThePlaneBorder) {
  for (int block : kBlockSizes) {
    const int reach = block == 16 ? 8 : 4;
    for (int length : {block + reach - 1, block + reach}) {
      Samples in(size_t(length), 100);
      for (int i = block; i < length; i++) in[size_t(i)] = 110;
      const DeblockPlaneParams pp = vp9_params(block, 8);
      for (bool row : {true, false}) {
        const Samples out = filter_line(in, pp, row);
        // Filtered: p0 moves towards q0 (every filter width does that here).
        EXPECT_EQ(out[size_t(block - 1)] != 100, length == block + reach)
            << "block " << block << " length " << length << " row " << row;
      }
    }
  }
}

// Block size 4: the edge at 8 reads samples 4 and 5, which the edge at 4
// wrote (106, 108). Its |p2-p1| is then |108 - 117| = 9 > limit, so it is
// left alone; on the unfiltered line (|110 - 117| = 7) it would filter.
TEST(DeblockVp9, OverlappingEdgesAtBlockSize4) {
  const Samples in = {100, 100, 100, 100, 110, 110,
                      117, 117, 120, 120, 120, 120};
  const Samples out = {100, 100, 102, 104, 106, 108,
                       117, 117, 120, 120, 120, 120};
  const DeblockPlaneParams pp = vp9_params(4, 8);
  EXPECT_EQ(filter_line(in, pp, true), out);
  EXPECT_EQ(filter_line(in, pp, false), out);
}

// Pass 2 filters pass 1's output: an 8x8 plane of four blocks, 10 apart
// across x = 4 and y = 4. Pass 1 turns each row into "filter4 without hev"'s
// answer (v v v+2 v+4 | v+6 v+8 v+10 v+10, v = 100 above y = 4, 110 below);
// pass 2 then filters each column of that, e.g. column 2, 102 x4 | 112 x4,
// into 102 102 104 106 | 108 110 112 112 (from the input's 100 | 110 it
// would have given 100 100 102 104 | 106 108 110 110).
TEST(DeblockVp9, HorizontalEdgesSeePass1Output) {
  Image image(PixelFormat::GRAY8, 8, 8, 0);
  test::fill(image, [](int, int x, int y) {
    return uint8_t((x < 4 ? 100 : 110) + (y < 4 ? 0 : 10));
  });
  deblock_plane(plane_of(image), vp9_params(4, 8));
  const int ramp[8] = {0, 0, 2, 4, 6, 8, 10, 10};
  for (int y = 0; y < 8; y++)
    for (int x = 0; x < 8; x++)
      EXPECT_EQ(plane_of(image).at(x, y), 100 + ramp[x] + ramp[y])
          << x << ", " << y;
}

}  // namespace
}  // namespace daedalus
