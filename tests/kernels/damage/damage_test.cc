// The damage estimator's scalar reference and grid search against answers
// worked from docs/spec.md ("Damage estimate"), and the running estimate's
// behaviour over frames: levels with hysteresis, decay, resets, the grid's
// origin from luma and chroma.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "daedalus/damage.h"
#include "damage_test_helpers.h"
#include "test_util.h"

namespace daedalus {
namespace {

using damage_test::fill_blocks;
using damage_test::reference_profile;

// ----------------------------------------------------------- step profiles

// Columns: x = 0: |10 - 0| + 0 + 0; x = 1: min(40, 32) + 0 + 0; x = 2:
// 0 + min(100, 32) + 0. Rows: y = 0: 0 + 10 + 32 + 32; y = 1: 5 + 5 + 5 +
// min(95, 32).
TEST(DamageSteps, KnownAnswers) {
  Image image(PixelFormat::GRAY8, 4, 3, 3);
  const int v[3][4] = {{0, 10, 50, 50}, {0, 0, 0, 100}, {5, 5, 5, 5}};
  test::fill(image, [&](int, int x, int y) { return uint8_t(v[y][x]); });
  const StepProfile p = reference_profile(image.frame().planes[0]);
  EXPECT_EQ(p.cols, (std::vector<uint32_t>{10, 32, 32}));
  EXPECT_EQ(p.rows, (std::vector<uint32_t>{74, 47}));
  EXPECT_EQ(p.col_weight, 3u);
  EXPECT_EQ(p.row_weight, 4u);
}

TEST(DamageSteps, OneSampleHasNoStep) {
  Image image(PixelFormat::GRAY8, 1, 1, 0);
  const StepProfile p = reference_profile(image.frame().planes[0]);
  EXPECT_TRUE(p.cols.empty());
  EXPECT_TRUE(p.rows.empty());
}

TEST(DamageSteps, InterleavedChannelMatchesItsPlanarCopy) {
  std::mt19937 gen = test::rng(1);
  Image nv12(PixelFormat::NV12, 37, 23, 3), i420(PixelFormat::I420, 37, 23, 1);
  test::fill_random(nv12, gen);
  for (int p = 1; p <= 2; p++) {
    const ConstPlane from = nv12.frame().planes[p];
    const Plane to = i420.frame().planes[p];
    for (int y = 0; y < from.height; y++)
      for (int x = 0; x < from.width; x++) to.at(x, y) = from.at(x, y);
    const StepProfile a = reference_profile(from);
    const StepProfile b = reference_profile(to);
    EXPECT_EQ(a.cols, b.cols) << "plane " << p;
    EXPECT_EQ(a.rows, b.rows) << "plane " << p;
  }
}

TEST(DamageSteps, RowRangesAddUpToTheWholePlane) {
  DamageDsp dsp;
  damage_dsp_init_ref(&dsp);
  std::mt19937 gen = test::rng(2);
  Image image(PixelFormat::GRAY8, 29, 41, 2);
  test::fill_random(image, gen);
  const ConstPlane plane = image.frame().planes[0];
  const StepProfile whole = reference_profile(plane);
  std::vector<uint32_t> cols(28, 0), rows(40, 0);
  for (auto [begin, end] : test::random_pieces(41, gen))
    dsp.steps(plane, begin, end, cols.data(), rows.data());
  EXPECT_EQ(cols, whole.cols);
  EXPECT_EQ(rows, whole.rows);
}

// ------------------------------------------------------------------- grid

// A checkerboard of flat 8x8 blocks 100 and 100 + d: every step on a grid
// line is d and every other 0, so the excess is d samples exactly, 256 d in
// fixed point, and the lines halfway and the 16-phases carry nothing.
TEST(DamageGrid, CheckerboardKnownAnswer) {
  for (int d : {1, 5, 32}) {
    Image image(PixelFormat::GRAY8, 64, 48, 0);
    test::fill(image, [&](int, int x, int y) {
      return uint8_t(100 + ((x / 8 + y / 8) % 2 ? d : 0));
    });
    const BlockGrid g =
        find_block_grid(reference_profile(image.frame().planes[0]));
    EXPECT_EQ(g.spacing, 8);
    EXPECT_EQ(g.offset_x, 0);
    EXPECT_EQ(g.offset_y, 0);
    EXPECT_EQ(g.blk, 256 * d);
    EXPECT_EQ(g.half, 0);
  }
}

// The checkerboard of 100 and 100 + d: 7 of the 63 column steps are d on
// each of 48 rows, 5 of the 47 row steps d on each of 64 columns, so act
// = 7 * 48 d * 128 / (63 * 48) + 5 * 64 d * 128 / (47 * 64) (each term
// truncated) and the measure (256 d)^2 / act.
TEST(DamageGrid, MeasureKnownAnswer) {
  const struct {
    int d, act, measure;
  } cases[] = {{1, 14 + 13, 65536 / 27},
               {4, 56 + 54, 1048576 / 110},
               {32, 455 + 435, 67108864 / 890}};
  for (const auto& c : cases) {
    Image image(PixelFormat::GRAY8, 64, 48, 0);
    test::fill(image, [&](int, int x, int y) {
      return uint8_t(100 + ((x / 8 + y / 8) % 2 ? c.d : 0));
    });
    const BlockGrid g =
        find_block_grid(reference_profile(image.frame().planes[0]));
    SCOPED_TRACE(c.d);
    EXPECT_EQ(g.act, c.act);
    EXPECT_EQ(g.measure, c.measure);
  }
}

// A block step under 5/16 sample measures 0, however smooth the picture:
// steps of 1 everywhere and 2 on the lines x = 7 (mod 8), 16 frames, give
// blk = 2 * (2 * 2 - 1 - 1) * 128 / (2 * 16) / 2 = 16 and act 2 * 8 = 16,
// so blk^2 / act would be 16, level 2.
TEST(DamageGrid, SmallStepsMeasureNothing) {
  StepProfile p;
  p.cols = {1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1};
  p.rows = p.cols;
  p.col_weight = p.row_weight = 16;
  const BlockGrid g = find_block_grid(p);
  EXPECT_EQ(g.blk, 16);
  EXPECT_EQ(g.act, 16);
  EXPECT_EQ(g.measure, 0);
}

// Steps beyond the clip count as kDamageStepClip.
TEST(DamageGrid, StepsAreClipped) {
  Image image(PixelFormat::GRAY8, 64, 48, 0);
  test::fill(image, [&](int, int x, int y) {
    return uint8_t((x / 8 + y / 8) % 2 ? 250 : 0);
  });
  EXPECT_EQ(find_block_grid(reference_profile(image.frame().planes[0])).blk,
            256 * kDamageStepClip);
}

TEST(DamageGrid, FindsEverySpacingAndOffset) {
  for (int spacing : {4, 8, 16})
    for (int ox = 0; ox < spacing; ox += spacing / 4 + 1)
      for (int oy : {0, spacing - 1, spacing / 2}) {
        Image image(PixelFormat::GRAY8, 160, 96, 1);
        fill_blocks(image, spacing, ox, oy, 6);
        const BlockGrid g =
            find_block_grid(reference_profile(image.frame().planes[0]));
        SCOPED_TRACE(testing::Message()
                     << "spacing " << spacing << " at " << ox << ", " << oy);
        EXPECT_EQ(g.spacing, spacing);
        EXPECT_EQ(g.offset_x, ox);
        EXPECT_EQ(g.offset_y, oy);
        // The picture's own steps add little beside the blocks' 6.
        EXPECT_GE(g.blk, 256 * 9 / 2);
        EXPECT_LE(g.blk, 256 * 7);
      }
}

TEST(DamageGrid, BlockingGrowsWithTheStep) {
  int last = -1;
  for (int step = 0; step <= 24; step += 3) {
    Image image(PixelFormat::GRAY8, 128, 72, 0);
    fill_blocks(image, 8, 3, 5, step);
    const int blk =
        find_block_grid(reference_profile(image.frame().planes[0])).blk;
    EXPECT_GT(blk, last) << "step " << step;
    last = blk;
  }
}

// Undamaged content: a ramp, a zone plate and noise have no grid that
// stands out: the level stays 0. The noise is 720p: the largest of the 8
// phases' excesses is biased up, and at 320x180 one seed in a few hundred
// reached level 1 (104/256); at 720p the threshold is over 8 standard
// deviations away.
TEST(DamageGrid, CleanContentIsLevelZero) {
  std::mt19937 gen = test::rng(3);
  Image ramp(PixelFormat::GRAY8, 320, 180, 0),
      zone(PixelFormat::GRAY8, 320, 180, 0),
      noise(PixelFormat::GRAY8, 1280, 720, 0),
      flat(PixelFormat::GRAY8, 320, 180, 0);
  test::fill(ramp,
             [](int, int x, int y) { return uint8_t((x + y) * 255 / 500); });
  test::fill(zone, [](int, int x, int y) {
    const double r2 = (x - 160.0) * (x - 160.0) + (y - 90.0) * (y - 90.0);
    return uint8_t(128 + 100 * std::cos(r2 / 150.0));
  });
  test::fill_random(noise, gen);
  test::fill(flat, [](int, int, int) { return uint8_t(77); });
  for (const Image* image : {&ramp, &zone, &noise, &flat}) {
    const BlockGrid g =
        find_block_grid(reference_profile(image->frame().planes[0]));
    EXPECT_LT(g.measure, kDamageLevelStart[0]);
    EXPECT_EQ(damage_level(g.measure, 0), 0);
  }
}

// ------------------------------------------------------------------ levels

TEST(DamageLevel, StaircaseWithHysteresis) {
  const int t1 = kDamageLevelStart[0];
  EXPECT_EQ(damage_level(t1 - 1, 0), 0);
  EXPECT_EQ(damage_level(t1, 0), 1);
  // Down only below the threshold less a quarter of it.
  const int t3 = kDamageLevelStart[2];
  EXPECT_EQ(damage_level(t3 - 1, 3), 3);
  EXPECT_EQ(damage_level(t3 - (t3 >> 2), 3), 3);
  EXPECT_EQ(damage_level(t3 - (t3 >> 2) - 1, 3), 2);
  EXPECT_EQ(damage_level(t1 - (t1 >> 2) - 1, 1), 0);
  EXPECT_EQ(damage_level(1 << 20, 0), kDamageLevels - 1);
  EXPECT_EQ(damage_level(0, kDamageLevels - 1), 0);
  for (int i = 0; i + 1 < kDamageLevels - 1; i++)
    EXPECT_LT(kDamageLevelStart[i], kDamageLevelStart[i + 1]);
}

// ---------------------------------------------------------- the estimator

Image blocky_i420(int step, int ox = 0, int oy = 0) {
  Image image(PixelFormat::I420, 192, 108, 2);
  fill_blocks(image, 8, ox, oy, step);
  return image;
}

TEST(DamageEstimator, FollowsAChangeWithinASecondAndHoldsSteady) {
  DamageEstimator e;
  const Image clean = blocky_i420(0), heavy = blocky_i420(12);
  int total = 0;
  for (int i = 0; i < 10; i++, total++) e.add_frame(clean.frame());
  EXPECT_EQ(e.estimate().level, 0);
  int frames = 0;
  while (e.estimate().level < kDamageLevels - 1 && frames < 25) {
    e.add_frame(heavy.frame());
    frames++, total++;
  }
  EXPECT_EQ(e.estimate().level, kDamageLevels - 1) << "after " << frames;
  frames = 0;
  while (e.estimate().level > 0 && frames < 25) {
    e.add_frame(clean.frame());
    frames++, total++;
  }
  EXPECT_EQ(e.estimate().level, 0) << "after " << frames;
  EXPECT_EQ(e.estimate().frames, total);
}

// Frames that alternate between two strengths (an I frame and B frames)
// settle on one level that then does not change.
TEST(DamageEstimator, AlternatingFramesDoNotFlicker) {
  DamageEstimator e;
  const Image strong = blocky_i420(6), weak = blocky_i420(3);
  for (int i = 0; i < 16; i++) e.add_frame((i % 3 ? weak : strong).frame());
  const int settled = e.estimate().level;
  EXPECT_GT(settled, 0);
  for (int i = 16; i < 64; i++) {
    e.add_frame((i % 3 ? weak : strong).frame());
    ASSERT_EQ(e.estimate().level, settled) << "frame " << i;
  }
}

TEST(DamageEstimator, ResetForgetsEveryFrame) {
  DamageEstimator e, fresh;
  const Image heavy = blocky_i420(12), light = blocky_i420(2);
  for (int i = 0; i < 8; i++) e.add_frame(heavy.frame());
  e.reset();
  EXPECT_EQ(e.estimate().frames, 0);
  EXPECT_EQ(e.estimate().level, 0);
  e.add_frame(light.frame());
  fresh.add_frame(light.frame());
  EXPECT_EQ(e.estimate().luma.blk, fresh.estimate().luma.blk);
  EXPECT_EQ(e.estimate().level, fresh.estimate().level);
}

// A new frame size starts the profiles over, as a reset does.
TEST(DamageEstimator, ANewSizeStartsOver) {
  DamageEstimator e, fresh;
  const Image heavy = blocky_i420(12);
  Image small(PixelFormat::I420, 64, 48, 0);
  fill_blocks(small, 8, 0, 0, 2);
  for (int i = 0; i < 8; i++) e.add_frame(heavy.frame());
  e.add_frame(small.frame());
  fresh.add_frame(small.frame());
  EXPECT_EQ(e.estimate().luma.blk, fresh.estimate().luma.blk);
}

// The origin in luma samples from luma's lines (mod 8) and chroma's: a
// picture cropped by 6 luma samples has its luma lines at 2 (mod 8) and its
// chroma lines at 5 (mod 8): the origin is 10, where (10 >> 1) % 8 == 5.
TEST(DamageEstimator, GridOriginFromLumaAndChroma) {
  Image image(PixelFormat::I420, 192, 108, 0);
  test::fill(image, [](int p, int x, int y) {
    const int ox = p ? 5 : 2, oy = p ? 3 : 6;  // a crop of (6, 10)
    const int bx = (x - ox + 64) / 8, by = (y - oy + 64) / 8;
    return uint8_t(90 + x / 16 + ((bx + by) % 2 ? 9 : 0));
  });
  DamageEstimator e;
  e.add_frame(image.frame());
  EXPECT_EQ(e.estimate().luma.offset_x, 2);
  EXPECT_EQ(e.estimate().chroma.offset_x, 5);
  EXPECT_EQ(e.estimate().grid_x, 10);
  EXPECT_EQ(e.estimate().grid_y, 6);  // chroma 3 == (6 >> 1) % 8
}

TEST(DamageEstimator, GrayUsesLumaAlone) {
  Image image(PixelFormat::GRAY8, 96, 64, 1);
  fill_blocks(image, 8, 3, 4, 8);
  DamageEstimator e;
  e.add_frame(image.frame());
  EXPECT_EQ(e.estimate().grid_x, 3);
  EXPECT_EQ(e.estimate().grid_y, 4);
  EXPECT_GT(e.estimate().level, 0);
}

}  // namespace
}  // namespace daedalus
