// The gpu backend's deblock mode=dct (shaders/deblock/deblock_dct.comp)
// against the scalar reference: bit-exact for every shift count, a spread of
// strengths from passthrough up, every format of both depths (docs/spec.md
// "High bit depth" for the 10-bit ones), odd sizes down to 1x1 and sizes
// around the shader's 32-sample tiles, row padding, random, blocky,
// near-flat, extreme (0 and the depth's maximum) and ramp content, grid
// origins and chroma offsets, frames staged or in GpuBuffers. 10-bit
// sources carry random bits outside their values and outputs are compared
// word for word: a filtered plane's words lose them, the others keep them.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <span>
#include <utility>
#include <vector>

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

// Content of fill_dct_kind's `kind`, with random bits outside 10-bit values.
void fill_any_depth(Image& image, std::mt19937& gen, int kind) {
  fill_dct_kind(image, gen, kind);
  test::set_outside_bits(image, gen);
}

// Every shift count with every qp of the spread, on random sizes, formats
// of both depths in turn, paddings and content; the active ones must change
// most frames.
TEST_F(GpuDeblockDct, EveryShiftCountAndStrength) {
  std::mt19937 gen = test::rng(41);
  const std::vector<PixelFormat> formats = test::all_pixel_formats();
  int changed = 0, active = 0, i = 0;
  for (int shifts : kShifts)
    for (int qp : kQps) {
      const PixelFormat format = formats[size_t(i) % formats.size()];
      Image image(format, in(gen, 1, 80), in(gen, 1, 70), in(gen, 0, 5));
      fill_any_depth(image, gen, i++ % 5);
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
// every 8-bit format with a random shift count; the 10-bit formats (16-bit
// units, P010's pair staged a channel at a time) at the smallest sizes and
// those around the tile.
TEST_F(GpuDeblockDct, OddSizesAndTileEdges) {
  std::mt19937 gen = test::rng(42);
  const std::pair<int, int> sizes[] = {{1, 1},   {1, 2},   {2, 1},   {3, 3},
                                       {7, 5},   {8, 8},   {9, 9},   {1, 40},
                                       {40, 1},  {31, 33}, {32, 32}, {33, 31},
                                       {63, 65}, {65, 63}, {97, 34}, {34, 97}};
  const std::pair<int, int> ten_bit_sizes[] = {{1, 1}, {2, 1},   {7, 5},
                                               {9, 9}, {33, 31}, {65, 34}};
  int i = 0;
  const auto check = [&](std::span<const std::pair<int, int>> sizes,
                         std::span<const PixelFormat> formats) {
    for (auto [w, h] : sizes)
      for (PixelFormat format : formats) {
        Image image(format, w, h, in(gen, 0, 5));
        fill_any_depth(image, gen, i++ % 5);
        expect_exact(image,
                     dct_params(in(gen, 20, 51), kShifts[in(gen, 0, 6)]));
        if (HasFailure()) return;
      }
  };
  check(sizes, kAllPixelFormats);
  check(ten_bit_sizes, kTenBitPixelFormats);
}

// The extremes: samples at 0 and the depth's maximum drive the transforms
// furthest (at 10 bits pass 2's sums near 77248, products near 2^31); one-
// sample and block checkerboards at the lowest and highest thresholds.
// Every shift count at 8 bits; at 10 bits 1, 4 and 64 (the others: above).
TEST_F(GpuDeblockDct, ExtremeContent) {
  std::mt19937 gen = test::rng(43);
  const int ten_bit_shifts[] = {1, 4, 64};
  int i = 0;
  const auto check = [&](std::span<const PixelFormat> formats,
                         std::span<const int> shift_counts) {
    for (int qp : {16, 33, 51})
      for (int shifts : shift_counts)
        for (int fill = 0; fill < 3; fill++) {
          Image image(formats[size_t(i++) % formats.size()], 45, 37, 3);
          const int max = image.frame().planes[0].max_value();
          if (fill == 0)
            fill_dct_kind(image, gen, 3);
          else
            test::fill(image, [&](int, int x, int y) {
              const int cell = fill == 1 ? x + y : x / 8 + y / 8;
              return cell & 1 ? max : 0;
            });
          test::set_outside_bits(image, gen);
          expect_exact(image, dct_params(qp, shifts));
          if (HasFailure()) return;
        }
  };
  check(std::array{PixelFormat::I420}, kShifts);
  check(std::array{PixelFormat::I420_10LE, PixelFormat::P010_10LE},
        ten_bit_shifts);
}

// Grid origins and chroma offsets move and change each plane's work: views
// that begin mid-word, chroma planes inactive while luma is not (and the
// other way round); every format of both depths.
TEST_F(GpuDeblockDct, GridOriginsAndChromaOffsets) {
  std::mt19937 gen = test::rng(44);
  int i = 0;
  for (PixelFormat format : test::all_pixel_formats())
    for (int n = 0; n < 6; n++) {
      DeblockParams p = dct_params(in(gen, 10, 51), kShifts[in(gen, 0, 6)]);
      p.chroma_qp_offset = in(gen, -12, 12);
      p.grid_x = in(gen, 0, 15);
      p.grid_y = in(gen, 0, 15);
      Image image(format, in(gen, 1, 60), in(gen, 1, 50), in(gen, 0, 4));
      fill_any_depth(image, gen, i++ % 5);
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
// of both depths at 4, 8 and 16 shifts.
TEST_F(GpuDeblockDct, FramesInGpuBuffersAreFilteredInPlace) {
  std::mt19937 gen = test::rng(46);
  using Cases = std::span<const test::ZeroCopyCase>;
  for (Cases cases :
       {Cases(test::kZeroCopyCases), Cases(test::kTenBitZeroCopyCases)})
    expect_zero_copy(
        *gpu, [](int shifts) { return dct_params(44, shifts); },
        [&](Image& image, int) { fill_any_depth(image, gen, 1); }, cases);
}

// qp 15 and under leave every plane as it is: nothing is staged.
TEST_F(GpuDeblockDct, PassthroughStagesNothing) {
  std::mt19937 gen = test::rng(47);
  for (PixelFormat format : {PixelFormat::I420, PixelFormat::I420_10LE}) {
    Image image(format, 40, 24, 3);
    fill_any_depth(image, gen, 1);
    EXPECT_FALSE(expect_exact(image, dct_params(15, 8)));
    EXPECT_EQ(gpu->last_frame_stats().staged_groups, 0);
    // Chroma QPc(clip3(0, 51, 20 - 12)) = 8: luma alone.
    DeblockParams p = dct_params(20, 4);
    p.chroma_qp_offset = -12;
    expect_exact(image, p);
    EXPECT_EQ(gpu->last_frame_stats().staged_groups, 1);
  }
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
