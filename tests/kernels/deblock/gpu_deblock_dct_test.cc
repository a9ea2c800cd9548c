// The gpu backend's deblock mode=dct (shaders/deblock/deblock_dct.comp)
// against the scalar reference: bit-exact for every shift count, a spread of
// strengths from passthrough up, every format, odd sizes down to 1x1 and
// sizes around the shader's 32-sample tiles, row padding, random, blocky,
// near-flat, 0/255 and ramp content, grid origins and chroma offsets,
// frames staged or in GpuBuffers.
#include <gtest/gtest.h>

#include <random>
#include <utility>

#include "daedalus/deblock.h"
#include "deblock_simd_test_helpers.h"
#include "gpu_deblock_test_helpers.h"
#include "gpu_test_util.h"
#include "test_util.h"

namespace daedalus {
namespace {

using deblock_simd_test::fill_dct_kind;
using deblock_simd_test::in;
using gpu_deblock_test::expect_zero_copy;
using gpu_deblock_test::GpuDeblockTest;
using test::dct_params;

constexpr int kShifts[] = {1, 2, 4, 8, 16, 32, 64};
// Passthrough (0, 15), the lowest thresholds (16: 4, 17: 4), the default
// (30: 20), damaged clips' range and the top (51: 224).
constexpr int kQps[] = {0, 15, 16, 17, 23, 30, 36, 42, 47, 51};

using GpuDeblockDct = GpuDeblockTest;

// Every shift count with every qp of the spread, on random sizes, formats,
// paddings and content; the active ones must change most frames.
TEST_F(GpuDeblockDct, EveryShiftCountAndStrength) {
  std::mt19937 gen = test::rng(41);
  int changed = 0, active = 0, i = 0;
  for (int shifts : kShifts)
    for (int qp : kQps) {
      const PixelFormat format =
          kAllPixelFormats[size_t(i) % std::size(kAllPixelFormats)];
      Image image(format, in(gen, 1, 80), in(gen, 1, 70), in(gen, 0, 5));
      fill_dct_kind(image, gen, i++ % 5);
      const bool changes = expect_exact(image, dct_params(qp, shifts));
      if (qp <= 15) {
        EXPECT_FALSE(changes);
      }
      changed += changes;
      active += qp > 15 && image.width() * image.height() >= 64;
      if (HasFailure()) return;
    }
  EXPECT_GE(changed, active / 2);
}

// Sizes from 1x1 up, and around the 32-sample tile (a block of a shifted
// grid straddling two tiles, a tile holding one column or row), each in
// every format with a random shift count.
TEST_F(GpuDeblockDct, OddSizesAndTileEdges) {
  std::mt19937 gen = test::rng(42);
  const std::pair<int, int> sizes[] = {{1, 1},   {1, 2},   {2, 1},   {3, 3},
                                       {7, 5},   {8, 8},   {9, 9},   {1, 40},
                                       {40, 1},  {31, 33}, {32, 32}, {33, 31},
                                       {63, 65}, {65, 63}, {97, 34}, {34, 97}};
  int i = 0;
  for (auto [w, h] : sizes)
    for (PixelFormat format : kAllPixelFormats) {
      Image image(format, w, h, in(gen, 0, 5));
      fill_dct_kind(image, gen, i++ % 5);
      expect_exact(image, dct_params(in(gen, 20, 51), kShifts[in(gen, 0, 6)]));
      if (HasFailure()) return;
    }
}

// The extremes: 0/255 samples drive the transforms furthest; one-sample and
// block checkerboards at the lowest and highest thresholds, every shift
// count.
TEST_F(GpuDeblockDct, ExtremeContent) {
  std::mt19937 gen = test::rng(43);
  for (int qp : {16, 33, 51})
    for (int shifts : kShifts)
      for (int fill = 0; fill < 3; fill++) {
        Image image(PixelFormat::I420, 45, 37, 3);
        if (fill == 0)
          fill_dct_kind(image, gen, 3);
        else
          test::fill(image, [&](int, int x, int y) {
            const int cell = fill == 1 ? x + y : x / 8 + y / 8;
            return uint8_t(cell & 1 ? 255 : 0);
          });
        expect_exact(image, dct_params(qp, shifts));
        if (HasFailure()) return;
      }
}

// Grid origins and chroma offsets move and change each plane's work: views
// that begin mid-word, chroma planes inactive while luma is not (and the
// other way round).
TEST_F(GpuDeblockDct, GridOriginsAndChromaOffsets) {
  std::mt19937 gen = test::rng(44);
  int i = 0;
  for (PixelFormat format : kAllPixelFormats)
    for (int n = 0; n < 6; n++) {
      DeblockParams p = dct_params(in(gen, 10, 51), kShifts[in(gen, 0, 6)]);
      p.chroma_qp_offset = in(gen, -12, 12);
      p.grid_x = in(gen, 0, 15);
      p.grid_y = in(gen, 0, 15);
      Image image(format, in(gen, 1, 60), in(gen, 1, 50), in(gen, 0, 4));
      fill_dct_kind(image, gen, i++ % 5);
      expect_exact(image, p);
      if (HasFailure()) return;
    }
}

TEST_F(GpuDeblockDct, FullHd) {
  std::mt19937 gen = test::rng(45);
  for (PixelFormat format : {PixelFormat::I420, PixelFormat::NV12}) {
    Image image(format, 1920, 1080);
    test::fill_blocky(image, gen, 8, 128, 20);
    EXPECT_TRUE(expect_exact(image, dct_params(40, 4)));
    if (HasFailure()) return;
  }
}

// In a GpuBuffer the frame is the shader's output, so its source is first
// copied aside; a row's last word keeps its padding. The zero-copy cases
// at 4, 8 and 16 shifts.
TEST_F(GpuDeblockDct, FramesInGpuBuffersAreFilteredInPlace) {
  std::mt19937 gen = test::rng(46);
  expect_zero_copy(
      *gpu, [](int shifts) { return dct_params(44, shifts); },
      [&](Image& image, int) { fill_dct_kind(image, gen, 1); });
}

// qp 15 and under leave every plane as it is: nothing is staged.
TEST_F(GpuDeblockDct, PassthroughStagesNothing) {
  std::mt19937 gen = test::rng(47);
  Image image(PixelFormat::I420, 40, 24, 3);
  fill_dct_kind(image, gen, 1);
  EXPECT_FALSE(expect_exact(image, dct_params(15, 8)));
  EXPECT_EQ(gpu->last_frame_stats().staged_groups, 0);
  // Chroma QPc(clip3(0, 51, 20 - 12)) = 8: luma alone.
  DeblockParams p = dct_params(20, 4);
  p.chroma_qp_offset = -12;
  expect_exact(image, p);
  EXPECT_EQ(gpu->last_frame_stats().staged_groups, 1);
}

TEST_F(GpuDeblockDct, RejectsBadParameters) {
  Image image(PixelFormat::I420, 16, 8);
  EXPECT_FALSE(gpu->deblock(image.frame(), dct_params(52, 4)));
  EXPECT_FALSE(gpu->deblock(image.frame(), dct_params(30, 3)));
  EXPECT_FALSE(gpu->deblock(image.frame(), dct_params(30, 128)));
  EXPECT_TRUE(gpu->deblock(image.frame(), dct_params(30, 64)));
}

}  // namespace
}  // namespace daedalus
