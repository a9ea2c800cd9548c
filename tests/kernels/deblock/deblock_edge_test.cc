// Deblock scalar reference: known answers worked by hand from the spec
// equations, for one edge at a time.
#include "daedalus/deblock.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "deblock_test_helpers.h"
#include "test_util.h"

namespace daedalus {
namespace {

using namespace deblock_test;

// ---------------------------------------------------------------------------
// Known answers across one edge: the 8 samples p3 p2 p1 p0 | q0 q1 q2 q3 lie
// across the only edge (at 4, block size 4) of an 8-sample row or column.

using Line = std::array<int, 8>;

struct EdgeCase {
  const char* name;
  int alpha, beta, tc0, bs;
  bool chroma;
  Line in, out;
};

// clang-format off
const EdgeCase kEdgeCases[] = {
    // |p0-q0| = 7 < 20, |p1-p0| = |q1-q0| = 1 < 6; ap = aq = 2 < 6.
    // tc = 1 + 1 + 1 = 3; delta = (4*7 + (62-71) + 4) >> 3 = 23 >> 3 = 2.
    // p0' = 65, q0' = 68. avg = (63+70+1) >> 1 = 67.
    // p1' = 62 + clip3(-1, 1, (61 + 67 - 124) >> 1 = 2) = 63.
    // q1' = 71 + clip3(-1, 1, (72 + 67 - 142) >> 1 = -2) = 70.
    {"luma bs<4, p1 and q1 filtered", 20, 6, 1, 2, false,
     {60, 61, 62, 63, 70, 71, 72, 73}, {60, 61, 63, 65, 68, 70, 72, 73}},
    // ap = 13, aq = 10, both >= 6: tc = tc0 = 1, delta = 23 >> 3 = 2 -> 1.
    // p0' = 64, q0' = 69, p1 and q1 kept.
    {"luma bs<4, no p1/q1, delta clipped", 20, 6, 1, 2, false,
     {50, 50, 62, 63, 70, 71, 80, 80}, {50, 50, 62, 64, 69, 71, 80, 80}},
    // ap = 2 < 6, aq = 10: tc = 2, delta = 2; p1' = 63 as in the first case.
    {"luma bs<4, p1 only", 20, 6, 1, 2, false,
     {60, 61, 62, 63, 70, 71, 80, 80}, {60, 61, 63, 65, 68, 71, 80, 80}},
    // ap = 13, aq = 2: tc = 2; q1' = 70 as in the first case.
    {"luma bs<4, q1 only", 20, 6, 1, 2, false,
     {50, 50, 62, 63, 70, 71, 72, 73}, {50, 50, 62, 65, 68, 70, 72, 73}},
    // ap = aq = 0: tc = 2 + 2 = 4; delta = (4*(-20) + 20 + 4) >> 3 = -56 >> 3
    // = -7 -> -4: p0' = 96, q0' = 84. avg = 181 >> 1 = 90.
    // p1' = 100 + clip3(-2, 2, (100 + 90 - 200) >> 1 = -5) = 98.
    // q1' = 80 + clip3(-2, 2, (80 + 90 - 160) >> 1 = 5) = 82.
    {"luma bs<4, negative delta clipped", 40, 10, 2, 2, false,
     {100, 100, 100, 100, 80, 80, 80, 80}, {100, 100, 98, 96, 84, 82, 80, 80}},
    // |q1-q0| = 17 < 18; ap = 1, aq = 17: tc = 7.
    // delta = (0 + 18 + 4) >> 3 = 2: p0' = clip255(256) = 255, q0' = 252.
    // avg = 509 >> 1 = 254; p1' = 255 + clip3(-5, 5, (255+254-510) >> 1 = -1)
    // = 254 (>> floors); q1' = 237 + clip3(-5, 5, (237+254-474) >> 1 = 8)
    // = 242.
    {"luma bs<4, clip255 at 255", 50, 18, 5, 2, false,
     {255, 255, 255, 254, 254, 237, 237, 237},
     {255, 255, 254, 255, 252, 242, 237, 237}},
    // delta = (0 - 18 + 4) >> 3 = -14 >> 3 = -2: p0' = clip255(-1) = 0,
    // q0' = 3. avg = 3 >> 1 = 1; p1' = 0 + clip3(-5, 5, (0 + 1 - 0) >> 1 = 0);
    // q1' = 18 + clip3(-5, 5, (18 + 1 - 36) >> 1 = -9) = 13.
    {"luma bs<4, clip255 at 0", 50, 18, 5, 2, false,
     {0, 0, 0, 1, 1, 18, 18, 18}, {0, 0, 0, 0, 3, 13, 18, 18}},
    // Mirror of the above on q0: p1 - q1 = 17; delta = 21 >> 3 = 2: p0' = 2,
    // q0' = clip255(-2) = 0. avg = 0; ap = 17 < 18: p1' = 17 + clip3(-5, 5,
    // (17 + 0 - 34) >> 1 = -9) = 12; aq = 0: q1' = 0 + 0.
    {"luma bs<4, q0 clipped at 0", 50, 18, 5, 2, false,
     {17, 17, 17, 0, 0, 0, 0, 0}, {17, 17, 12, 2, 0, 0, 0, 0}},
    // p1 - q1 = -17; delta = -13 >> 3 = -2: p0' = 253, q0' = clip255(257)
    // = 255. avg = 255; p1' = 238 + clip3(-5, 5, (238 + 255 - 476) >> 1 = 8)
    // = 243; q1' = 255 + (255 + 255 - 510) >> 1 = 255.
    {"luma bs<4, q0 clipped at 255", 50, 18, 5, 2, false,
     {238, 238, 238, 255, 255, 255, 255, 255},
     {238, 238, 243, 253, 255, 255, 255, 255}},
    // tc0 = 0 (low indexA): tc = 2 from ap, aq; delta 2; p1, q1 unchanged
    // because their correction is clipped to [-0, 0].
    {"luma bs<4, tc0 0", 20, 6, 0, 1, false,
     {60, 61, 62, 63, 70, 71, 72, 73}, {60, 61, 62, 65, 68, 71, 72, 73}},
    // |p0-q0| = 8 < (40 >> 2) + 2 = 12; ap = aq = 4 < 10: strong both sides.
    // p0' = (72 + 148 + 152 + 168 + 86 + 4) >> 3 = 630 >> 3 = 78
    // p1' = (72 + 74 + 76 + 84 + 2) >> 2 = 308 >> 2 = 77
    // p2' = (140 + 216 + 74 + 76 + 84 + 4) >> 3 = 594 >> 3 = 74
    // q0' = (88 + 172 + 168 + 152 + 74 + 4) >> 3 = 658 >> 3 = 82
    // q1' = (88 + 86 + 84 + 76 + 2) >> 2 = 336 >> 2 = 84
    // q2' = (180 + 264 + 86 + 84 + 76 + 4) >> 3 = 694 >> 3 = 86
    {"luma bs=4, strong both sides", 40, 10, 0, 4, false,
     {70, 72, 74, 76, 84, 86, 88, 90}, {70, 74, 77, 78, 82, 84, 86, 90}},
    // aq = 16 >= 10: p side as above, q0' = (172 + 84 + 74 + 2) >> 2 = 83.
    {"luma bs=4, strong p, weak q", 40, 10, 0, 4, false,
     {70, 72, 74, 76, 84, 86, 100, 100}, {70, 74, 77, 78, 83, 86, 100, 100}},
    // ap = 26 >= 10: p0' = (148 + 76 + 86 + 2) >> 2 = 78; q side as above.
    {"luma bs=4, weak p, strong q", 40, 10, 0, 4, false,
     {50, 50, 74, 76, 84, 86, 88, 90}, {50, 50, 74, 78, 82, 84, 86, 90}},
    // |p0-q0| = 14 >= 12 (but < 40): weak both sides though ap = aq = 2.
    // p0' = (138 + 70 + 85 + 2) >> 2 = 73, q0' = (170 + 84 + 69 + 2) >> 2 = 81.
    {"luma bs=4, gap too large for strong", 40, 10, 0, 4, false,
     {66, 68, 69, 70, 84, 85, 86, 88}, {66, 68, 69, 73, 81, 85, 86, 88}},
    // Chroma reads p1..q1 only. tc = 1 + 1 = 2; delta = 23 >> 3 = 2.
    {"chroma bs<4", 20, 6, 1, 2, true,
     {10, 200, 62, 63, 70, 71, 5, 250}, {10, 200, 62, 65, 68, 71, 5, 250}},
    // tc = 6; delta = (0 + 17 + 4) >> 3 = 2: p0' = 2, q0' = clip255(-2) = 0.
    {"chroma bs<4, q0 clipped at 0", 50, 18, 5, 2, true,
     {9, 9, 17, 0, 0, 0, 9, 9}, {9, 9, 17, 2, 0, 0, 9, 9}},
    // delta = (0 - 17 + 4) >> 3 = -2: p0' = 253, q0' = clip255(257) = 255.
    {"chroma bs<4, q0 clipped at 255", 50, 18, 5, 2, true,
     {9, 9, 238, 255, 255, 255, 9, 9}, {9, 9, 238, 253, 255, 255, 9, 9}},
    // delta = (0 + 18 + 4) >> 3 = 2: p0' = clip255(256) = 255, q0' = 252.
    {"chroma bs<4, p0 clipped at 255", 50, 18, 5, 2, true,
     {9, 9, 255, 254, 254, 237, 9, 9}, {9, 9, 255, 255, 252, 237, 9, 9}},
    // delta = (0 - 18 + 4) >> 3 = -2: p0' = clip255(-1) = 0, q0' = 3.
    {"chroma bs<4, p0 clipped at 0", 50, 18, 5, 2, true,
     {9, 9, 0, 1, 1, 18, 9, 9}, {9, 9, 0, 0, 3, 18, 9, 9}},
    // tc = 0 + 1 = 1: delta 2 -> 1.
    {"chroma bs<4, delta clipped", 20, 6, 0, 3, true,
     {10, 200, 62, 63, 70, 71, 5, 250}, {10, 200, 62, 64, 69, 71, 5, 250}},
    // p0' = (124 + 63 + 71 + 2) >> 2 = 65, q0' = (142 + 70 + 62 + 2) >> 2 = 69.
    {"chroma bs=4", 20, 6, 0, 4, true,
     {10, 200, 62, 63, 70, 71, 5, 250}, {10, 200, 62, 65, 69, 71, 5, 250}},
    // Preconditions failing: nothing changes.
    {"luma bs<4, |p0-q0| == alpha", 7, 6, 1, 2, false,
     {60, 61, 62, 63, 70, 71, 72, 73}, {60, 61, 62, 63, 70, 71, 72, 73}},
    {"luma bs<4, |p1-p0| == beta", 20, 6, 1, 2, false,
     {60, 61, 57, 63, 70, 71, 72, 73}, {60, 61, 57, 63, 70, 71, 72, 73}},
    {"luma bs<4, |q1-q0| == beta", 20, 6, 1, 2, false,
     {60, 61, 62, 63, 70, 76, 72, 73}, {60, 61, 62, 63, 70, 76, 72, 73}},
    {"luma bs=4, |p0-q0| == alpha", 8, 10, 0, 4, false,
     {70, 72, 74, 76, 84, 86, 88, 90}, {70, 72, 74, 76, 84, 86, 88, 90}},
    {"luma bs=4, |p1-p0| > beta", 40, 10, 0, 4, false,
     {70, 72, 60, 76, 84, 86, 88, 90}, {70, 72, 60, 76, 84, 86, 88, 90}},
    {"luma bs=4, |q1-q0| == beta", 40, 2, 0, 4, false,
     {70, 72, 75, 76, 84, 86, 88, 90}, {70, 72, 75, 76, 84, 86, 88, 90}},
    {"chroma bs<4, |p0-q0| == alpha", 7, 6, 1, 2, true,
     {10, 200, 62, 63, 70, 71, 5, 250}, {10, 200, 62, 63, 70, 71, 5, 250}},
    {"chroma bs=4, |q1-q0| == beta", 20, 1, 0, 4, true,
     {10, 200, 63, 63, 70, 71, 5, 250}, {10, 200, 63, 63, 70, 71, 5, 250}},
    {"alpha 0", 0, 6, 1, 2, false,
     {63, 63, 63, 63, 63, 64, 64, 64}, {63, 63, 63, 63, 63, 64, 64, 64}},
};
// clang-format on

Line filter_vertical_edge(const Line& in, const DeblockPlaneParams& pp) {
  Image image(PixelFormat::GRAY8, 8, 1, 3);
  test::fill(image, [&](int, int x, int) { return uint8_t(in[x]); });
  const Plane plane = plane_of(image);
  ref_dsp().vertical_edges(plane, pp, 0, 1);
  EXPECT_TRUE(test::guards_intact(image));
  Line out;
  for (int x = 0; x < 8; x++) out[x] = plane.at(x, 0);
  return out;
}

Line filter_horizontal_edge(const Line& in, const DeblockPlaneParams& pp) {
  Image image(PixelFormat::GRAY8, 1, 8, 3);
  test::fill(image, [&](int, int, int y) { return uint8_t(in[y]); });
  const Plane plane = plane_of(image);
  ref_dsp().horizontal_edges(plane, pp, 0, 1);
  EXPECT_TRUE(test::guards_intact(image));
  Line out;
  for (int y = 0; y < 8; y++) out[y] = plane.at(0, y);
  return out;
}

TEST(DeblockEdge, KnownAnswersOnVerticalEdge) {
  for (const EdgeCase& c : kEdgeCases) {
    const auto pp = test::plane_params(c.alpha, c.beta, c.tc0, c.bs, c.chroma);
    EXPECT_EQ(filter_vertical_edge(c.in, pp), c.out) << c.name;
  }
}

TEST(DeblockEdge, KnownAnswersOnHorizontalEdge) {
  for (const EdgeCase& c : kEdgeCases) {
    const auto pp = test::plane_params(c.alpha, c.beta, c.tc0, c.bs, c.chroma);
    EXPECT_EQ(filter_horizontal_edge(c.in, pp), c.out) << c.name;
  }
}

TEST(DeblockEdge, OracleAgreesWithKnownAnswers) {
  // The cross-check implementation must itself pass the hand-worked cases.
  for (const EdgeCase& c : kEdgeCases) {
    Line line = c.in;
    std::vector<int*> s;
    for (int& v : line) s.push_back(&v);
    oracle_line(s, test::plane_params(c.alpha, c.beta, c.tc0, c.bs, c.chroma));
    EXPECT_EQ(line, c.out) << c.name;
  }
}

}  // namespace
}  // namespace daedalus
