// Deblock scalar reference (the spec, daedalusdeblock): the H.264 tables
// and the per-plane parameters derived from qp and the offsets.
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
  }
  for (int v : {-13, 13}) {
    EXPECT_FALSE(with([&](auto& p) { p.alpha_offset = v; }));
    EXPECT_FALSE(with([&](auto& p) { p.beta_offset = v; }));
  }
  // chroma-qp-offset goes below H.264's -12, down to chroma off.
  for (int v : {-51, -13, -12, 12})
    EXPECT_TRUE(with([&](auto& p) { p.chroma_qp_offset = v; })) << v;
  for (int v : {-52, 13})
    EXPECT_FALSE(with([&](auto& p) { p.chroma_qp_offset = v; })) << v;
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
      // Chroma: under H.264's -12, qp 51 - 20 = 31, QPc 30: ALPHA 25,
      // BETA 8, TC0[30][0] = 1.
      {{51, 0, 0, -20, 1, 8}, true, 25, 8, 1},
      // Chroma: -51 gives qp 0 from qp 51, indexA 12 at the largest offset:
      // inactive (luma the same as with offset 0).
      {{51, 12, 12, -51, 4, 8}, true, 0, 0, 0},
      {{51, 12, 12, -51, 4, 8}, false, 255, 18, 0},
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

}  // namespace
}  // namespace daedalus
