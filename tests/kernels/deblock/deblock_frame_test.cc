// Deblock scalar reference: edge order, properties against the oracle,
// and whole frames of every format.
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

// The grid's origin in each plane: luma's modulo the block size, chroma's
// the luma origin shifted by the subsampling first (docs/spec.md, "Grid
// offset"); a plane narrower than its origin keeps no sample.
TEST(DeblockGrid, ViewKnownAnswers) {
  Image image(PixelFormat::I420, 33, 20, 2);
  const Frame f = image.frame();
  struct Case {
    int grid_x, grid_y, block, luma_x, luma_y, chroma_x, chroma_y;
  };
  const Case cases[] = {{13, 6, 8, 5, 6, 6, 3},
                        {13, 6, 16, 13, 6, 6, 3},
                        {13, 6, 4, 1, 2, 2, 3},
                        {0, 15, 8, 0, 7, 0, 7},
                        {15, 15, 16, 15, 15, 7, 7}};
  for (const Case& c : cases) {
    const DeblockParams params{
        .block_size = c.block, .grid_x = c.grid_x, .grid_y = c.grid_y};
    const Frame v = deblock_grid_view(f, params);
    SCOPED_TRACE(testing::Message() << "grid " << c.grid_x << "," << c.grid_y
                                    << " block " << c.block);
    EXPECT_EQ(v.planes[0].data, &f.planes[0].at(c.luma_x, c.luma_y));
    EXPECT_EQ(v.planes[0].width, 33 - c.luma_x);
    EXPECT_EQ(v.planes[0].height, 20 - c.luma_y);
    for (int p : {1, 2}) {
      EXPECT_EQ(v.planes[p].data, &f.planes[p].at(c.chroma_x, c.chroma_y));
      EXPECT_EQ(v.planes[p].width, 17 - c.chroma_x);
      EXPECT_EQ(v.planes[p].height, 10 - c.chroma_y);
    }
  }
  Image tiny(PixelFormat::GRAY8, 3, 2, 0);
  const Frame v = deblock_grid_view(
      tiny.frame(), {.block_size = 16, .grid_x = 9, .grid_y = 9});
  EXPECT_EQ(v.planes[0].width, 0);
  EXPECT_EQ(v.planes[0].height, 0);
}

TEST(DeblockGrid, OutOfRangeOriginIsRejected) {
  EXPECT_TRUE(deblock_params_valid({.grid_x = 15, .grid_y = 0}));
  EXPECT_FALSE(deblock_params_valid({.grid_x = 16}));
  EXPECT_FALSE(deblock_params_valid({.grid_y = -1}));
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
    DeblockParams params = random_params(gen);
    // fill_steps puts its steps on the grid from (0, 0).
    params.grid_x = params.grid_y = 0;
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
