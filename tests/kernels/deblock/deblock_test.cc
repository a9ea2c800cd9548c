// Tests of the deblock scalar reference (ELEMENTS.md, daedalusdeblock): tables,
// known answers worked by hand from the spec equations, edge order, and
// properties checked against an independent implementation written here.
#include "daedalus/deblock.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "test_util.h"

namespace daedalus {
namespace {

constexpr int kBlockSizes[] = {4, 8, 16};

DeblockDsp ref_dsp() {
  DeblockDsp dsp;
  deblock_dsp_init_ref(&dsp);
  return dsp;
}

Plane plane_of(Image& image) { return image.frame().planes[0]; }

void copy_samples(const Image& from, Image& to) {
  std::copy(from.bytes().begin(), from.bytes().end(), to.bytes().begin());
}

// Both passes over a whole plane, as deblock_frame runs them.
void deblock_plane(const Plane& plane, const DeblockPlaneParams& pp) {
  const DeblockDsp dsp = ref_dsp();
  dsp.vertical_edges(plane, pp, 0, plane.height);
  dsp.horizontal_edges(plane, pp, 0, plane.width);
}

// Blocks of near-constant level whose levels differ by up to `jump`: content
// on which many edges pass the filter's preconditions and some do not.
void fill_blocky(Image& image, std::mt19937& gen, int block, int jump) {
  const int center = std::uniform_int_distribution<int>(0, 255)(gen);
  test::fill_blocky(image, gen, block, center, jump);
}

// One of the content kinds above, drawn at random.
void fill_any(Image& image, std::mt19937& gen, int block) {
  const int kind = int(gen() % 4);
  const int center = int(gen() % 256);
  const int spread = 1 + int(gen() % 12);
  const int jump = 1 + int(gen() % 40);
  if (kind == 0)
    test::fill_random(image, gen);
  else if (kind == 1)
    test::fill_near(image, gen, center, spread);
  else
    fill_blocky(image, gen, block, jump);
}

DeblockParams random_params(std::mt19937& gen, int qp_min = 0) {
  auto in = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(gen);
  };
  DeblockParams p;
  p.qp = in(qp_min, 51);
  p.alpha_offset = in(-12, 12);
  p.beta_offset = in(-12, 12);
  p.chroma_qp_offset = in(-12, 12);
  p.bs = in(1, 4);
  p.block_size = kBlockSizes[in(0, 2)];
  return p;
}

// Plane parameters with alpha and beta from the active part of the tables.
DeblockPlaneParams random_plane_params(std::mt19937& gen, int block) {
  auto in = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(gen);
  };
  const int alpha = kH264Alpha[in(16, 51)];
  const int beta = kH264Beta[in(16, 51)];
  const int tc0 = in(0, 13);
  const int bs = in(1, 4);
  const bool chroma = in(0, 1);
  return test::plane_params(alpha, beta, tc0, bs, chroma, block);
}

// ---------------------------------------------------------------------------
// An independent implementation, for cross-checks: a plane is a grid of ints,
// and one routine filters either side of an edge, given that side's samples
// (nearest the edge first) and the other side's.

int floor_div(int a, int b) { return (a >= 0 ? a : a - b + 1) / b; }

struct Grid {
  int w = 0, h = 0;
  std::vector<int> v;
  int& at(int x, int y) { return v[size_t(y) * w + x]; }
};

Grid grid_of(const ConstPlane& plane) {
  Grid g{plane.width, plane.height, {}};
  for (int y = 0; y < g.h; y++)
    for (int x = 0; x < g.w; x++) g.v.push_back(plane.at(x, y));
  return g;
}

// s[i] points at the i-th sample of a row or column.
void oracle_edge(const std::vector<int*>& s, int e,
                 const DeblockPlaneParams& pp) {
  const int n = pp.chroma_filter ? 2 : 4;  // samples read on each side
  int P[4] = {}, Q[4] = {};
  for (int i = 0; i < n; i++) P[i] = *s[e - 1 - i], Q[i] = *s[e + i];
  if (std::abs(P[0] - Q[0]) >= pp.alpha || std::abs(P[1] - P[0]) >= pp.beta ||
      std::abs(Q[1] - Q[0]) >= pp.beta)
    return;
  int NP[4], NQ[4];
  std::copy(P, P + 4, NP);
  std::copy(Q, Q + 4, NQ);
  const bool luma = !pp.chroma_filter;
  const bool p_smooth = luma && std::abs(P[2] - P[0]) < pp.beta;
  const bool q_smooth = luma && std::abs(Q[2] - Q[0]) < pp.beta;

  if (pp.bs == 4) {
    const bool near = std::abs(P[0] - Q[0]) < pp.alpha / 4 + 2;
    auto side = [&](const int* a, const int* b, bool smooth, int* out) {
      if (luma && smooth && near) {
        out[0] = (a[2] + 2 * a[1] + 2 * a[0] + 2 * b[0] + b[1] + 4) / 8;
        out[1] = (a[2] + a[1] + a[0] + b[0] + 2) / 4;
        out[2] = (2 * a[3] + 3 * a[2] + a[1] + a[0] + b[0] + 4) / 8;
      } else {
        out[0] = (2 * a[1] + a[0] + b[1] + 2) / 4;
      }
    };
    side(P, Q, p_smooth, NP);
    side(Q, P, q_smooth, NQ);
  } else {
    const int tc = luma ? pp.tc0 + p_smooth + q_smooth : pp.tc0 + 1;
    const int delta =
        std::clamp(floor_div(4 * (Q[0] - P[0]) + P[1] - Q[1] + 4, 8), -tc, tc);
    NP[0] = std::clamp(P[0] + delta, 0, 255);
    NQ[0] = std::clamp(Q[0] - delta, 0, 255);
    const int avg = (P[0] + Q[0] + 1) / 2;
    if (p_smooth)
      NP[1] = P[1] +
              std::clamp(floor_div(P[2] + avg - 2 * P[1], 2), -pp.tc0, pp.tc0);
    if (q_smooth)
      NQ[1] = Q[1] +
              std::clamp(floor_div(Q[2] + avg - 2 * Q[1], 2), -pp.tc0, pp.tc0);
  }
  for (int i = 0; i < n; i++) *s[e - 1 - i] = NP[i], *s[e + i] = NQ[i];
}

void oracle_line(const std::vector<int*>& s, const DeblockPlaneParams& pp) {
  const int reach = pp.chroma_filter ? 2 : 4;
  for (int e = pp.block_size; e + reach <= int(s.size()); e += pp.block_size)
    oracle_edge(s, e, pp);
}

void oracle_plane(Grid& g, const DeblockPlaneParams& pp) {
  for (int y = 0; y < g.h; y++) {
    std::vector<int*> row;
    for (int x = 0; x < g.w; x++) row.push_back(&g.at(x, y));
    oracle_line(row, pp);
  }
  for (int x = 0; x < g.w; x++) {
    std::vector<int*> column;
    for (int y = 0; y < g.h; y++) column.push_back(&g.at(x, y));
    oracle_line(column, pp);
  }
}

// The first sample where `plane` differs from `g`, as text; empty if none.
std::string grid_difference(Grid& g, const ConstPlane& plane) {
  for (int y = 0; y < g.h; y++)
    for (int x = 0; x < g.w; x++)
      if (g.at(x, y) != plane.at(x, y))
        return "(" + std::to_string(x) + ", " + std::to_string(y) +
               "): expected " + std::to_string(g.at(x, y)) + ", got " +
               std::to_string(plane.at(x, y));
  return {};
}

// What deblock_frame must produce for `image`, plane by plane. The filter
// choice is written from the format here, not taken from the library.
std::vector<Grid> oracle_frame(Image& image, const DeblockParams& params) {
  const Frame f = image.frame();
  const bool subsampled = image.format() != PixelFormat::Y444;
  std::vector<Grid> grids;
  for (int p = 0; p < f.num_planes; p++) {
    Grid g = grid_of(f.planes[p]);
    oracle_plane(g, deblock_plane_params(params, p > 0, p > 0 && subsampled));
    grids.push_back(std::move(g));
  }
  return grids;
}

// ---------------------------------------------------------------------------
// Tables.

TEST(DeblockTables, AlphaBetaMatchH264Table8_16) {
  for (int i = 0; i < 16; i++) {
    EXPECT_EQ(kH264Alpha[i], 0) << i;
    EXPECT_EQ(kH264Beta[i], 0) << i;
  }
  const std::pair<int, int> alpha[] = {
      {16, 4},   {17, 4},   {18, 5},   {19, 6},   {20, 7},   {23, 10},
      {24, 12},  {25, 13},  {26, 15},  {27, 17},  {28, 20},  {29, 22},
      {30, 25},  {32, 32},  {35, 45},  {36, 50},  {38, 63},  {40, 80},
      {41, 90},  {42, 101}, {43, 113}, {44, 127}, {45, 144}, {46, 162},
      {47, 182}, {48, 203}, {49, 226}, {50, 255}, {51, 255}};
  for (auto [i, v] : alpha) EXPECT_EQ(kH264Alpha[i], v) << "alpha " << i;
  const std::pair<int, int> beta[] = {
      {16, 2},  {18, 2},  {19, 3},  {22, 3},  {23, 4},  {25, 4},
      {26, 6},  {27, 6},  {28, 7},  {30, 8},  {33, 9},  {34, 10},
      {37, 11}, {38, 12}, {41, 13}, {42, 14}, {45, 15}, {46, 16},
      {48, 17}, {49, 17}, {50, 18}, {51, 18}};
  for (auto [i, v] : beta) EXPECT_EQ(kH264Beta[i], v) << "beta " << i;
  for (int i = 1; i < 52; i++) {
    EXPECT_GE(kH264Alpha[i], kH264Alpha[i - 1]) << i;
    EXPECT_GE(kH264Beta[i], kH264Beta[i - 1]) << i;
  }
}

TEST(DeblockTables, Tc0MatchesH264Table8_17) {
  using Row = std::array<int, 3>;
  const std::pair<int, Row> rows[] = {
      {0, {0, 0, 0}},    {16, {0, 0, 0}},    {17, {0, 0, 1}},
      {20, {0, 0, 1}},   {21, {0, 1, 1}},    {22, {0, 1, 1}},
      {23, {1, 1, 1}},   {26, {1, 1, 1}},    {27, {1, 1, 2}},
      {30, {1, 1, 2}},   {31, {1, 2, 3}},    {33, {2, 2, 3}},
      {34, {2, 2, 4}},   {35, {2, 3, 4}},    {37, {3, 3, 5}},
      {38, {3, 4, 6}},   {40, {4, 5, 7}},    {41, {4, 5, 8}},
      {42, {4, 6, 9}},   {43, {5, 7, 10}},   {44, {6, 8, 11}},
      {45, {6, 8, 13}},  {46, {7, 10, 14}},  {47, {8, 11, 16}},
      {48, {9, 12, 18}}, {49, {10, 13, 20}}, {50, {11, 15, 23}},
      {51, {13, 17, 25}}};
  for (const auto& [i, row] : rows)
    for (int b = 0; b < 3; b++)
      EXPECT_EQ(kH264Tc0[i][b], row[b]) << "indexA " << i << " bS " << b + 1;
  for (int i = 0; i < 17; i++)
    for (int b = 0; b < 3; b++) EXPECT_EQ(kH264Tc0[i][b], 0) << i;
  for (int i = 1; i < 52; i++)
    for (int b = 0; b < 3; b++) {
      EXPECT_GE(kH264Tc0[i][b], kH264Tc0[i - 1][b]) << i;
      if (b > 0) {
        EXPECT_GE(kH264Tc0[i][b], kH264Tc0[i][b - 1]) << i;
      }
    }
}

TEST(DeblockTables, ChromaQpMatchesH264Table8_15) {
  const int expected[22] = {29, 30, 31, 32, 32, 33, 34, 34, 35, 35, 36,
                            36, 37, 37, 37, 38, 38, 38, 39, 39, 39, 39};
  for (int i = 0; i < 22; i++) EXPECT_EQ(kH264ChromaQp[i], expected[i]) << i;
  for (int q = 0; q < 30; q++) EXPECT_EQ(h264_chroma_qp(q), q);
  EXPECT_EQ(h264_chroma_qp(30), 29);
  EXPECT_EQ(h264_chroma_qp(34), 32);
  EXPECT_EQ(h264_chroma_qp(40), 36);
  EXPECT_EQ(h264_chroma_qp(45), 38);
  EXPECT_EQ(h264_chroma_qp(51), 39);
}

// ---------------------------------------------------------------------------
// Parameters.

TEST(DeblockParams, ValidRanges) {
  EXPECT_TRUE(deblock_params_valid({}));
  auto with = [](auto set) {
    DeblockParams p;
    set(p);
    return deblock_params_valid(p);
  };
  for (int v : {0, 51}) EXPECT_TRUE(with([&](auto& p) { p.qp = v; }));
  for (int v : {-1, 52}) EXPECT_FALSE(with([&](auto& p) { p.qp = v; }));
  for (int v : {-12, 12}) {
    EXPECT_TRUE(with([&](auto& p) { p.alpha_offset = v; }));
    EXPECT_TRUE(with([&](auto& p) { p.beta_offset = v; }));
    EXPECT_TRUE(with([&](auto& p) { p.chroma_qp_offset = v; }));
  }
  for (int v : {-13, 13}) {
    EXPECT_FALSE(with([&](auto& p) { p.alpha_offset = v; }));
    EXPECT_FALSE(with([&](auto& p) { p.beta_offset = v; }));
    EXPECT_FALSE(with([&](auto& p) { p.chroma_qp_offset = v; }));
  }
  for (int v : {1, 2, 3, 4}) EXPECT_TRUE(with([&](auto& p) { p.bs = v; }));
  for (int v : {0, 5, -1}) EXPECT_FALSE(with([&](auto& p) { p.bs = v; }));
  for (int v : kBlockSizes)
    EXPECT_TRUE(with([&](auto& p) { p.block_size = v; }));
  for (int v : {0, 1, 2, 3, 5, 6, 12, 32, -8})
    EXPECT_FALSE(with([&](auto& p) { p.block_size = v; })) << v;
}

struct PlaneParamsCase {
  DeblockParams params;
  bool chroma_plane;
  int alpha, beta, tc0;
};

TEST(DeblockParams, PlaneParamsFollowQpMapping) {
  // {qp, alpha_offset, beta_offset, chroma_qp_offset, bs, block_size}
  const PlaneParamsCase cases[] = {
      // Luma: indexA = indexB = 28: ALPHA 20, BETA 7, TC0[28][1] = 1.
      {{28, 0, 0, 0, 2, 8}, false, 20, 7, 1},
      // Chroma: QPc(28) = 28, the same values.
      {{28, 0, 0, 0, 2, 8}, true, 20, 7, 1},
      // Luma qp 40: ALPHA 80, BETA 13, TC0[40][0] = 4.
      {{40, 0, 0, 0, 1, 8}, false, 80, 13, 4},
      // Chroma: QPc(40) = 36: ALPHA 50, BETA 11, TC0[36][0] = 2.
      {{40, 0, 0, 0, 1, 8}, true, 50, 11, 2},
      // Luma: indexA = 45 - 6 = 39, indexB = 45 + 3 = 48: 71, 17, TC0[39][2] 6.
      {{45, -6, 3, 12, 3, 4}, false, 71, 17, 6},
      // Chroma: clip3(0, 51, 57) = 51, QPc 39; indexA 33, indexB 42: 36, 14,
      // TC0[33][2] = 3.
      {{45, -6, 3, 12, 3, 4}, true, 36, 14, 3},
      // Luma: indexA = indexB = 22: ALPHA 9, BETA 3, TC0[22][1] = 1.
      {{10, 12, 12, -12, 2, 16}, false, 9, 3, 1},
      // Chroma: clip3(0, 51, -2) = 0, QPc 0; indexA = indexB = 12: inactive.
      {{10, 12, 12, -12, 2, 16}, true, 0, 0, 0},
      // Luma: indexA = clip3(0, 51, 63) = 51: ALPHA 255, BETA 18.
      {{51, 12, 12, 0, 3, 8}, false, 255, 18, 25},
      // indexA = clip3(0, 51, -12) = 0; indexB = 12.
      {{0, -12, 12, 0, 1, 8}, false, 0, 0, 0},
      // Luma: indexA 16 (first nonzero ALPHA 4), indexB 15 (BETA 0).
      {{16, 0, -1, 0, 3, 8}, false, 4, 0, 0},
      // Chroma: qp 30 + 2 = 32, QPc 31; indexA 31 ALPHA 28, indexB 29 BETA 7,
      // TC0[31][1] = 2.
      {{30, 0, -2, 2, 2, 8}, true, 28, 7, 2},
  };
  for (const PlaneParamsCase& c : cases) {
    for (bool chroma_filter : {false, true}) {
      const DeblockPlaneParams pp =
          deblock_plane_params(c.params, c.chroma_plane, chroma_filter);
      SCOPED_TRACE(testing::Message()
                   << "qp " << c.params.qp << " offsets "
                   << c.params.alpha_offset << "/" << c.params.beta_offset
                   << "/" << c.params.chroma_qp_offset << " chroma plane "
                   << c.chroma_plane);
      EXPECT_EQ(pp.alpha, c.alpha);
      EXPECT_EQ(pp.beta, c.beta);
      EXPECT_EQ(pp.tc0, c.tc0);
      EXPECT_EQ(pp.bs, c.params.bs);
      EXPECT_EQ(pp.block_size, c.params.block_size);
      EXPECT_EQ(pp.chroma_filter, chroma_filter);
      EXPECT_EQ(deblock_plane_active(pp), c.alpha != 0 && c.beta != 0);
    }
  }
}

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

// ---------------------------------------------------------------------------
// Edge order.

TEST(DeblockOrder, OverlappingEdgesFilteredInIncreasingOrder) {
  // Block size 4, strong filter, edges at 4 and 8; the second reads samples
  // 4..6 that the first wrote. alpha 40 (strong below 12), beta 10.
  // Edge 4: p = 66 64 62 60, q = 72 74 76 78: all strong.
  //   p0' = (62+128+132+144+74+4) >> 3 = 68, p1' = (62+64+66+72+2) >> 2 = 66,
  //   p2' = (120+186+64+66+72+4) >> 3 = 64, q0' = (76+148+144+132+64+4) >> 3
  //   = 71, q1' = (76+74+72+66+2) >> 2 = 72, q2' = (156+228+74+72+66+4) >> 3
  //   = 75.  Row: 60 64 66 68 71 72 75 78 84 86 88 90.
  // Edge 8: p = 78 75 72 71, q = 84 86 88 90: ap = 6, aq = 4, gap 6: strong.
  //   p0' = (72+150+156+168+86+4) >> 3 = 79, p1' = (72+75+78+84+2) >> 2 = 77,
  //   p2' = (142+216+75+78+84+4) >> 3 = 74, q0' = (88+172+168+156+75+4) >> 3
  //   = 82, q1' = (88+86+84+78+2) >> 2 = 84, q2' = (180+264+86+84+78+4) >> 3
  //   = 87.
  const int in[12] = {60, 62, 64, 66, 72, 74, 76, 78, 84, 86, 88, 90};
  const int out[12] = {60, 64, 66, 68, 71, 74, 77, 79, 82, 84, 87, 90};
  const auto pp = test::plane_params(40, 10, 0, 4, false);

  Image row(PixelFormat::GRAY8, 12, 1, 2), column(PixelFormat::GRAY8, 1, 12, 2);
  test::fill(row, [&](int, int x, int) { return uint8_t(in[x]); });
  test::fill(column, [&](int, int, int y) { return uint8_t(in[y]); });
  deblock_plane(plane_of(row), pp);
  deblock_plane(plane_of(column), pp);
  for (int i = 0; i < 12; i++) {
    EXPECT_EQ(plane_of(row).at(i, 0), out[i]) << "row " << i;
    EXPECT_EQ(plane_of(column).at(0, i), out[i]) << "column " << i;
  }
}

TEST(DeblockOrder, HorizontalPassSeesVerticalPassOutput) {
  // 6x6, chroma filter bs 4, block size 4: one vertical edge at x = 4 and one
  // horizontal edge at y = 4. Sample = 100 + 8 (x >= 4) + 4 (y >= 4).
  // Pass 1, rows 0..3: 100 100 | 108 108 -> p0' = (200+100+108+2) >> 2 = 102,
  //   q0' = (216+108+100+2) >> 2 = 106; rows 4, 5: 104 104 | 112 112 -> 106,
  //   110.
  // Pass 2, column 0..2: 100 100 | 104 104 -> 101, 103; column 3: 102 102 |
  //   106 106 -> (204+102+106+2) >> 2 = 103, (212+106+102+2) >> 2 = 105;
  //   column 4: 106 | 110 -> 107, 109; column 5: 108 | 112 -> 109, 111.
  // (Pass 2 on the unfiltered input would give 101, 103 in column 3.)
  const int out[6][6] = {
      {100, 100, 100, 102, 106, 108}, {100, 100, 100, 102, 106, 108},
      {100, 100, 100, 102, 106, 108}, {101, 101, 101, 103, 107, 109},
      {103, 103, 103, 105, 109, 111}, {104, 104, 104, 106, 110, 112}};
  Image image(PixelFormat::GRAY8, 6, 6, 1);
  test::fill(image, [](int, int x, int y) {
    return uint8_t(100 + 8 * (x >= 4) + 4 * (y >= 4));
  });
  deblock_plane(plane_of(image), test::plane_params(20, 4, 0, 4, true));
  for (int y = 0; y < 6; y++)
    for (int x = 0; x < 6; x++)
      EXPECT_EQ(plane_of(image).at(x, y), out[y][x]) << x << ", " << y;
}

TEST(DeblockOrder, MatchesIndependentImplementation) {
  std::mt19937 gen = test::rng(1);
  for (int iter = 0; iter < 1500; iter++) {
    const int w = 1 + int(gen() % 48);
    const int h = 1 + int(gen() % 48);
    const int block = kBlockSizes[gen() % 3];
    const DeblockPlaneParams pp = random_plane_params(gen, block);
    Image image(PixelFormat::GRAY8, w, h, 1 + int(gen() % 4));
    fill_any(image, gen, block);
    Grid expected = grid_of(plane_of(image));
    oracle_plane(expected, pp);
    deblock_plane(plane_of(image), pp);
    SCOPED_TRACE(testing::Message()
                 << w << "x" << h << " block " << block << " bs " << pp.bs
                 << " alpha " << pp.alpha << " beta " << pp.beta << " tc0 "
                 << pp.tc0 << " chroma " << pp.chroma_filter);
    ASSERT_EQ(grid_difference(expected, plane_of(image)), "");
    ASSERT_TRUE(test::guards_intact(image));
  }
}

// ---------------------------------------------------------------------------
// Properties.

TEST(DeblockProperties, FlatFramesUnchanged) {
  const DeblockDsp dsp = ref_dsp();
  for (PixelFormat format : kAllPixelFormats)
    for (int value : {0, 1, 128, 254, 255})
      for (int bs = 1; bs <= 4; bs++)
        for (int block : kBlockSizes) {
          DeblockParams params{51, 12, 12, 0, bs, block};
          Image image(format, 40, 36, 2), flat(format, 40, 36, 2);
          test::fill(image, [&](int, int, int) { return uint8_t(value); });
          copy_samples(image, flat);
          deblock_frame(dsp, image.frame(), params);
          ASSERT_EQ(test::first_difference(flat, image), "")
              << "bs " << bs << " block " << block;
        }
}

// True when `v` lies within [e - before, e + after] for some edge e of a line
// of `n` samples.
bool near_edge(int v, int n, const DeblockPlaneParams& pp, int before,
               int after) {
  const int reach = pp.chroma_filter ? 2 : 4;
  for (int e = pp.block_size; e + reach <= n; e += pp.block_size)
    if (v >= e - before && v <= e + after) return true;
  return false;
}

TEST(DeblockProperties, OnlySamplesNearEdgesChange) {
  const DeblockDsp dsp = ref_dsp();
  std::mt19937 gen = test::rng(2);
  for (bool chroma : {false, true})
    for (int bs = 1; bs <= 4; bs++)
      for (int block : kBlockSizes)
        for (bool vertical : {true, false}) {
          const auto pp = test::plane_params(90, 14, 8, bs, chroma, block);
          const int before = chroma ? 1 : 3, after = chroma ? 0 : 2;
          Image image(PixelFormat::GRAY8, 53, 47, 2);
          Image input(PixelFormat::GRAY8, 53, 47, 2);
          fill_blocky(image, gen, block, 30);
          copy_samples(image, input);
          const Plane plane = plane_of(image);
          if (vertical)
            dsp.vertical_edges(plane, pp, 0, plane.height);
          else
            dsp.horizontal_edges(plane, pp, 0, plane.width);
          int changed = 0;
          for (int y = 0; y < plane.height; y++)
            for (int x = 0; x < plane.width; x++) {
              if (plane.at(x, y) == plane_of(input).at(x, y)) continue;
              changed++;
              const bool ok =
                  vertical ? near_edge(x, plane.width, pp, before, after)
                           : near_edge(y, plane.height, pp, before, after);
              ASSERT_TRUE(ok) << "(" << x << ", " << y << ") changed; bs " << bs
                              << " block " << block << " chroma " << chroma
                              << " vertical " << vertical;
            }
          EXPECT_GT(changed, 0) << "the content must exercise the filter";
        }
}

TEST(DeblockProperties, PlaneTooSmallForAnEdgeUnchanged) {
  std::mt19937 gen = test::rng(3);
  for (bool chroma : {false, true})
    for (int block : kBlockSizes) {
      const int reach = chroma ? 2 : 4;
      // One sample short of the first edge in both directions.
      const auto pp = test::plane_params(255, 18, 25, 2, chroma, block);
      Image image(PixelFormat::GRAY8, block + reach - 1, block + reach - 1, 1);
      Image input(PixelFormat::GRAY8, block + reach - 1, block + reach - 1, 1);
      fill_blocky(image, gen, block, 10);
      copy_samples(image, input);
      deblock_plane(plane_of(image), pp);
      EXPECT_EQ(test::first_difference(input, image), "") << block;

      // With exactly enough samples the edge is filtered: a step of 6 across
      // it changes p0 (tc >= 1, delta = (24 + 4) >> 3 = 3).
      Image row(PixelFormat::GRAY8, block + reach, 1, 1);
      test::fill(row,
                 [&](int, int x, int) { return uint8_t(x < block ? 90 : 96); });
      deblock_plane(plane_of(row), pp);
      EXPECT_NE(plane_of(row).at(block - 1, 0), 90) << block;
    }
}

TEST(DeblockProperties, InterleavedChannelMatchesPlanarCopy) {
  const DeblockDsp dsp = ref_dsp();
  std::mt19937 gen = test::rng(4);
  for (int iter = 0; iter < 40; iter++) {
    const int w = 1 + int(gen() % 40);
    const int h = 1 + int(gen() % 40);
    const int block = kBlockSizes[gen() % 3];
    const auto pp = random_plane_params(gen, block);
    // NV12's chroma: channel `c` of interleaved pairs, plus 3 bytes padding.
    Image nv12(PixelFormat::NV12, 2 * w, 2 * h, 3);
    Image planar(PixelFormat::GRAY8, w, h, 3);
    Image untouched(PixelFormat::NV12, 2 * w, 2 * h, 3);
    fill_blocky(nv12, gen, block, 20);
    copy_samples(nv12, untouched);
    const int c = 1 + int(gen() % 2);
    const Plane channel = nv12.frame().planes[c];
    ASSERT_EQ(channel.step, 2);
    test::fill(planar, [&](int, int x, int y) { return channel.at(x, y); });

    for (const Plane& plane : {channel, plane_of(planar)}) {
      dsp.vertical_edges(plane, pp, 0, plane.height);
      dsp.horizontal_edges(plane, pp, 0, plane.width);
    }
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        ASSERT_EQ(channel.at(x, y), plane_of(planar).at(x, y))
            << x << ", " << y;
    const Frame other = untouched.frame();
    for (int p : {0, 3 - c}) {
      const Plane& a = nv12.frame().planes[p];
      for (int y = 0; y < a.height; y++)
        for (int x = 0; x < a.width; x++)
          ASSERT_EQ(a.at(x, y), other.planes[p].at(x, y)) << "plane " << p;
    }
    ASSERT_TRUE(test::guards_intact(nv12));
  }
}

TEST(DeblockProperties, NegativeStrideMatchesPositive) {
  std::mt19937 gen = test::rng(5);
  for (int iter = 0; iter < 20; iter++) {
    const int w = 20 + int(gen() % 20);
    const int h = 20 + int(gen() % 20);
    const int block = kBlockSizes[gen() % 3];
    const auto pp = random_plane_params(gen, block);
    Image image(PixelFormat::GRAY8, w, h, 2),
        flipped(PixelFormat::GRAY8, w, h, 2);
    fill_blocky(image, gen, block, 25);
    const Plane a = plane_of(image);
    // The same logical plane, stored bottom row first.
    Plane b = plane_of(flipped);
    b.data += (h - 1) * b.stride;
    b.stride = -b.stride;
    test::fill(flipped, [&](int, int x, int y) { return a.at(x, h - 1 - y); });
    deblock_plane(a, pp);
    deblock_plane(b, pp);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) ASSERT_EQ(a.at(x, y), b.at(x, y));
    ASSERT_TRUE(test::guards_intact(flipped));
  }
}

TEST(DeblockProperties, SplitRangesMatchOneCall) {
  const DeblockDsp dsp = ref_dsp();
  std::mt19937 gen = test::rng(6);
  for (int iter = 0; iter < 100; iter++) {
    const int w = 1 + int(gen() % 64);
    const int h = 1 + int(gen() % 64);
    const int block = kBlockSizes[gen() % 3];
    const auto pp = random_plane_params(gen, block);
    Image whole(PixelFormat::GRAY8, w, h, 1),
        split(PixelFormat::GRAY8, w, h, 1);
    fill_any(whole, gen, block);
    copy_samples(whole, split);
    deblock_plane(plane_of(whole), pp);
    const Plane plane = plane_of(split);
    for (auto [begin, end] : test::random_pieces(h, gen))
      dsp.vertical_edges(plane, pp, begin, end);
    for (auto [begin, end] : test::random_pieces(w, gen))
      dsp.horizontal_edges(plane, pp, begin, end);
    ASSERT_EQ(test::first_difference(whole, split), "")
        << "block " << block << " bs " << pp.bs << " chroma "
        << pp.chroma_filter;
    ASSERT_TRUE(test::guards_intact(split));
  }
}

TEST(DeblockFrame, EveryFormatMatchesOracleWithGuardsIntact) {
  const DeblockDsp dsp = ref_dsp();
  std::mt19937 gen = test::rng(7);
  const std::pair<int, int> sizes[] = {{1, 1}, {7, 5}, {17, 9}, {33, 65}};
  for (PixelFormat format : kAllPixelFormats)
    for (auto [w, h] : sizes)
      for (int bs = 1; bs <= 4; bs++)
        for (int block : kBlockSizes) {
          DeblockParams params = random_params(gen, 24);
          params.bs = bs;
          params.block_size = block;
          Image image(format, w, h, 3);
          fill_any(image, gen, block);
          std::vector<Grid> expected = oracle_frame(image, params);
          deblock_frame(dsp, image.frame(), params);
          SCOPED_TRACE(testing::Message()
                       << pixel_format_name(format) << " " << w << "x" << h
                       << " bs " << bs << " block " << block << " qp "
                       << params.qp);
          ASSERT_TRUE(test::guards_intact(image));
          for (int p = 0; p < image.frame().num_planes; p++)
            ASSERT_EQ(grid_difference(expected[p], image.frame().planes[p]), "")
                << "plane " << p;
        }
}

// Steps of 3 between neighbouring blocks: every active plane changes, whatever
// the filter: alpha >= 4 and beta >= 2 let every edge through, and each
// filter moves p0 (bs < 4: delta = (12 + 4) >> 3 = 2 with tc >= 1; bs 4:
// (2 p1 + p0 + q1 + 2) >> 2 or the strong p0', both 128 -> 129).
void fill_steps(Image& image, int block) {
  test::fill(image, [&](int, int x, int y) {
    return uint8_t(128 + 3 * ((x / block + y / block) % 2));
  });
}

TEST(DeblockFrame, ChromaQpOffsetSelectsActivePlanes) {
  const DeblockDsp dsp = ref_dsp();
  // qp 14: luma indexA 14, inactive; chroma QPc(14 + 12) = 26: active.
  // qp 20: luma active (ALPHA 7, BETA 3); chroma QPc(20 - 12) = 8: inactive.
  const std::pair<int, int> cases[] = {{14, 12}, {20, -12}};
  for (auto [qp, offset] : cases)
    for (PixelFormat format :
         {PixelFormat::I420, PixelFormat::NV21, PixelFormat::Y444}) {
      DeblockParams params{qp, 0, 0, offset, 2, 4};
      Image image(format, 32, 32, 2), input(format, 32, 32, 2);
      fill_steps(image, 4);
      copy_samples(image, input);
      deblock_frame(dsp, image.frame(), params);
      for (int p = 0; p < 3; p++) {
        const ConstPlane a = image.frame().planes[p];
        const ConstPlane b = input.frame().planes[p];
        bool same = true;
        for (int y = 0; y < a.height; y++)
          for (int x = 0; x < a.width; x++) same &= a.at(x, y) == b.at(x, y);
        const bool active = (p == 0) == (offset < 0);
        EXPECT_EQ(same, !active)
            << pixel_format_name(format) << " qp " << qp << " plane " << p;
      }
    }
}

TEST(DeblockFrame, IsNoopAgreesWithRunning) {
  const DeblockDsp dsp = ref_dsp();
  std::mt19937 gen = test::rng(8);
  int noops = 0, active = 0;
  for (int iter = 0; iter < 600; iter++) {
    const DeblockParams params = random_params(gen);
    const PixelFormat format =
        std::array{PixelFormat::GRAY8, PixelFormat::I420, PixelFormat::Y444,
                   PixelFormat::NV12}[iter % 4];
    const bool has_chroma = format != PixelFormat::GRAY8;
    Image image(format, 48, 40, 1), input(format, 48, 40, 1);
    fill_steps(image, params.block_size);
    copy_samples(image, input);
    deblock_frame(dsp, image.frame(), params);
    const bool unchanged = image.same_samples(input);
    const bool noop = deblock_is_noop(params, has_chroma);
    (noop ? noops : active)++;
    ASSERT_EQ(noop, unchanged)
        << pixel_format_name(format) << " qp " << params.qp << " offsets "
        << params.alpha_offset << "/" << params.beta_offset << "/"
        << params.chroma_qp_offset << " bs " << params.bs;
  }
  EXPECT_GT(noops, 20);
  EXPECT_GT(active, 20);
}

TEST(DeblockFrame, IsNoopAccountsForChroma) {
  // Luma inactive (indexA 14), chroma active (QPc(26)).
  const DeblockParams params{14, 0, 0, 12, 2, 8};
  EXPECT_TRUE(deblock_is_noop(params, false));
  EXPECT_FALSE(deblock_is_noop(params, true));
  EXPECT_FALSE(deblock_is_noop(DeblockParams{}, false));
  EXPECT_TRUE(deblock_is_noop(DeblockParams{15, 0, 0, 0, 4, 8}, true));
}

}  // namespace
}  // namespace daedalus
