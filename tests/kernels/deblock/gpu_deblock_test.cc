// The gpu backend's deblock (shaders/deblock/deblock.comp, and
// deblock_vp9.comp for mode=vp9) against the scalar reference: content at
// the thresholds, the edge order at block size 4, interleaved chroma with
// the luma filter, every VP9 level with every sharpness, frames staged or
// in place, skipped planes. Every format, size, setting and content on the
// gpu and hybrid backends: the harness (tests/kernels/harness,
// HarnessGpu.DeblockH264 and DeblockVp9). mode=dct: gpu_deblock_dct_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "daedalus/deblock.h"
#include "deblock_simd_test_helpers.h"
#include "gpu_deblock_test_helpers.h"
#include "gpu_test_util.h"
#include "test_util.h"

namespace daedalus {
namespace {

using gpu_deblock_test::describe;
using gpu_deblock_test::expect_zero_copy;
using gpu_deblock_test::fill_flat_blocks;
using gpu_deblock_test::GpuDeblockTest;
using gpu_deblock_test::kBlockSizes;
using gpu_deblock_test::reference;

// Random, near-flat, blocky, or blocky against 0 or 255 (the clippings).
void fill_any(Image& image, std::mt19937& gen, int block) {
  const int kind = int(gen() % 5);
  const int center = int(gen() % 256);
  if (kind == 0)
    test::fill_random(image, gen);
  else if (kind == 1)
    test::fill_near(image, gen, center, 1 + int(gen() % 12));
  else if (kind == 2)
    test::fill_blocky(image, gen, block, center, 1 + int(gen() % 40));
  else
    test::fill_blocky(image, gen, block, kind == 3 ? 1 : 254, 6);
}

using GpuDeblock = GpuDeblockTest;

// ---------------------------------------------------------- known answers

// `in` deblocked as a 12-sample row and as a 12-sample column (vertical
// edges, then horizontal ones), with the given row padding each: both give
// `out`.
void expect_row_and_column(GpuBackend& gpu, const int (&in)[12],
                           const int (&out)[12], const DeblockParams& p,
                           int row_padding, int column_padding) {
  Image row(PixelFormat::GRAY8, 12, 1, row_padding);
  Image column(PixelFormat::GRAY8, 1, 12, column_padding);
  test::fill(row, [&](int, int x, int) { return uint8_t(in[x]); });
  test::fill(column, [&](int, int, int y) { return uint8_t(in[y]); });
  ASSERT_TRUE(gpu.deblock(row.frame(), p));
  ASSERT_TRUE(gpu.deblock(column.frame(), p));
  for (int i = 0; i < 12; i++) {
    EXPECT_EQ(row.frame().planes[0].at(i, 0), out[i]) << "row " << i;
    EXPECT_EQ(column.frame().planes[0].at(0, i), out[i]) << "column " << i;
  }
  EXPECT_TRUE(test::guards_intact(row));
  EXPECT_TRUE(test::guards_intact(column));
}

// docs/spec.md's edge order at block size 4, worked by hand for the scalar
// test (deblock_frame_test.cc, DeblockOrder): qp 34 gives alpha 40 and beta 10;
// strong filter, edges at 4 and 8, the second reading samples 4..6 the first
// wrote. Edge 4: p = 66 64 62 60, q = 72 74 76 78, all strong:
// p0' = (62+128+132+144+74+4) >> 3 = 68, p1' = (62+64+66+72+2) >> 2 = 66,
// p2' = (120+186+64+66+72+4) >> 3 = 64, q0' = 71, q1' = 72, q2' = 75.
// Edge 8 then sees p = 78 75 72 71, q = 84 86 88 90 (ap 6, aq 4, gap 6):
// p0' = (72+150+156+168+86+4) >> 3 = 79, p1' = (72+75+78+84+2) >> 2 = 77,
// p2' = (142+216+75+78+84+4) >> 3 = 74, q0' = 82, q1' = 84, q2' = 87.
// Edge 8 on the unfiltered row (p = 78 76 74 72) would give
// p2' = (144+222+76+78+84+4) >> 3 = 76 instead.
TEST_F(GpuDeblock, OverlappingEdgesFollowTheEdgeOrder) {
  const int in[12] = {60, 62, 64, 66, 72, 74, 76, 78, 84, 86, 88, 90};
  const int out[12] = {60, 64, 66, 68, 71, 74, 77, 79, 82, 84, 87, 90};
  const DeblockParams p{34, 0, 0, 0, 4, 4};
  expect_row_and_column(*gpu, in, out, p, 2, 3);
}

// The luma filter with bs < 4 at block size 4, where edge x + 4 reads edge
// x's q1' as its p2 (the shader recomputes it rather than walking the row).
// qp 34: alpha 40, beta 10, tc0 2 (bs 2). Row 60 60 60 60 | 68 60 70 70 |
// 74 74 74 74. Edge 4: ap 0, aq 2, tc 4, delta = (32 + 0 + 4) >> 3 = 4:
// p0' = q0' = 64; avg 64, p1' = 60 + clip(2, (60+64-120) >> 1) = 62,
// q1' = 60 + clip(2, (70+64-120) >> 1 = 7) = 62. Edge 8: p = 70 70 62 64,
// q = 74 74 74 74; ap = |62-70| = 8 < 10 (10 with the unfiltered 60: no p1'),
// tc 4, delta = (16 - 4 + 4) >> 3 = 2: p0' = q0' = 72; avg 72,
// p1' = 70 + clip(2, (62+72-140) >> 1 = -3) = 68, q1' = 74 + (-2 >> 1) = 73.
TEST_F(GpuDeblock, EdgeReadsThePreviousEdgesQ1) {
  const int in[12] = {60, 60, 60, 60, 68, 60, 70, 70, 74, 74, 74, 74};
  const int out[12] = {60, 60, 62, 64, 64, 62, 68, 72, 72, 73, 74, 74};
  const DeblockParams p{34, 0, 0, 0, 2, 4};
  expect_row_and_column(*gpu, in, out, p, 1, 2);
}

// Pass 2 runs on pass 1's output (hand-worked in deblock_frame_test.cc,
// DeblockOrder): a 6x6 chroma plane, chroma filter bs 4, block size 4, alpha
// 20 and beta 4 (qp 28, beta-offset -4: indexA 28, indexB 24), samples
// 100 + 8 (x >= 4) + 4 (y >= 4). Pass 1 turns columns 3, 4 of rows 0..3 into
// 102, 106 and of rows 4, 5 into 106, 110; pass 2 then gives column 3
// (102 102 | 106 106) 103, 105 in rows 3, 4, where the unfiltered input
// would give 101, 103. Luma (12x12, flat) stays as it is.
TEST_F(GpuDeblock, HorizontalPassSeesVerticalPassOutput) {
  const int out[6][6] = {
      {100, 100, 100, 102, 106, 108}, {100, 100, 100, 102, 106, 108},
      {100, 100, 100, 102, 106, 108}, {101, 101, 101, 103, 107, 109},
      {103, 103, 103, 105, 109, 111}, {104, 104, 104, 106, 110, 112}};
  for (PixelFormat format : {PixelFormat::I420, PixelFormat::NV12}) {
    SCOPED_TRACE(pixel_format_name(format));
    Image image(format, 12, 12, 4);
    test::fill(image, [](int p, int x, int y) {
      return uint8_t(p == 0 ? 50 : 100 + 8 * (x >= 4) + 4 * (y >= 4));
    });
    ASSERT_TRUE(gpu->deblock(image.frame(), {28, 0, -4, 0, 4, 4}));
    const ConstFrame f = std::as_const(image).frame();
    for (int y = 0; y < 12; y++)
      for (int x = 0; x < 12; x++)
        ASSERT_EQ(f.planes[0].at(x, y), 50) << x << ", " << y;
    for (int p = 1; p < 3; p++)
      for (int y = 0; y < 6; y++)
        for (int x = 0; x < 6; x++)
          EXPECT_EQ(f.planes[p].at(x, y), out[y][x])
              << "plane " << p << " at " << x << ", " << y;
    EXPECT_TRUE(test::guards_intact(image));
  }
}

// ------------------------------------------------------------- bit-exact

// Content at the filter's thresholds and extremes, on every format of both
// depths (thresholds and levels scaled to the depth: 255 is 1023): steps of
// exactly alpha - 1 and alpha (VP9: blimit / 2) across the edges, beta - 1
// and beta (limit) inside blocks, 0/max blocks (|p0 - q0| = max fails every
// precondition, strong averaging of 0..max ramps), one-sample
// checkerboards, and samples at the clipping ends.
TEST_F(GpuDeblock, AdversarialContent) {
  std::mt19937 gen = test::rng(7);
  const DeblockParams params[] = {
      {51, 0, 0, 0, 4, 4},       {51, 0, 0, 0, 3, 4},
      {40, 3, -2, 5, 2, 8},      {36, 0, 0, 0, 4, 16},
      {51, 12, 12, 12, 1, 4},    test::vp9_params(63, 0, 4),
      test::vp9_params(40, 3, 8)};
  for (const DeblockParams& p : params)
    for (PixelFormat format : test::all_pixel_formats()) {
      Image image(format, 25, 21, 3);
      const int cs = image.frame().bit_depth() - 8, max = (256 << cs) - 1;
      const DeblockPlaneParams luma = deblock_plane_params_at_depth(
          deblock_plane_params(p, false, false), 8 + cs);
      const bool vp9 = p.mode == DeblockMode::Vp9;
      const int a = vp9 ? luma.vp9.blimit / 2 : luma.alpha;
      const int b = vp9 ? luma.vp9.limit : luma.beta;
      const int base = max - a;
      auto at = [max](int v) { return std::clamp(v, 0, max); };
      const std::function<int(int, int, int)> fills[] = {
          [&](int, int x, int y) {
            return at(base + (((x / 4) + (y / 4)) & 1 ? a - 1 : 0) -
                      ((x + y) & 1 ? b - 1 : 0));
          },
          [&](int, int x, int y) {
            return at(base + (((x / 4) + (y / 4)) & 1 ? a : 0));
          },
          [&](int, int x, int y) {
            return at((120 << cs) + ((x & 3) == 1 ? b : 0) +
                      ((y & 3) == 2 ? b - 1 : 0));
          },
          [&](int, int x, int y) { return ((x / 4) + (y / 4)) & 1 ? max : 0; },
          [&](int, int x, int y) { return (x * 37 + y * 11) << cs & max; },
          [&](int, int x, int y) { return (x + y) & 1 ? max : 0; },
          [&](int, int, int) {
            return gen() & 1 ? max - int(gen() % (4 << cs)) : 3;
          },
      };
      for (const auto& fill : fills) {
        test::fill(image, fill);
        test::set_outside_bits(image, gen);
        expect_exact(image, p);
        if (HasFailure()) return;
      }
    }
}

// A 4:4:4 frame with interleaved chroma (NV24), built by hand: the luma
// filter on a pair of channels, which no Image format has.
TEST_F(GpuDeblock, InterleavedChromaWithTheLumaFilter) {
  std::mt19937 gen = test::rng(9);
  const int w = 29, h = 23, luma_stride = 32, chroma_stride = 60;
  for (int block : kBlockSizes)
    for (int bs = 1; bs <= 4; bs++)
      for (bool in_gpu_memory : {false, true}) {
        const DeblockParams p{44, 0, 0, 2, bs, block};
        SCOPED_TRACE(testing::Message() << "NV24 block " << block << " bs "
                                        << bs << " in place " << in_gpu_memory);
        const size_t size = size_t(h) * (luma_stride + chroma_stride);
        std::vector<uint8_t> bytes(size, test::kGuard);
        std::uniform_int_distribution<int> noise(-3, 3);
        for (int y = 0; y < h; y++)
          for (int x = 0; x < w; x++) {
            const int level = 100 + 9 * (((x / block) + (y / block)) & 1);
            bytes[size_t(y) * luma_stride + x] = uint8_t(level + noise(gen));
            for (int c = 0; c < 2; c++)
              bytes[size_t(h) * luma_stride + size_t(y) * chroma_stride +
                    2 * x + c] = uint8_t(level + 20 * c + noise(gen));
          }
        std::unique_ptr<GpuBuffer> buffer;
        uint8_t* base = bytes.data();
        if (in_gpu_memory) {
          buffer = gpu->allocate_buffer(size).value_or(nullptr);
          ASSERT_TRUE(buffer);
          base = buffer->data();
          std::memcpy(base, bytes.data(), size);
        }
        auto frame_at = [&](uint8_t* data) {
          Frame f;
          f.num_planes = 3;
          f.planes[0] = {data, luma_stride, w, h, 1};
          uint8_t* chroma = data + size_t(h) * luma_stride;
          f.planes[1] = {chroma, chroma_stride, w, h, 2};
          f.planes[2] = {chroma + 1, chroma_stride, w, h, 2};
          return f;
        };
        std::vector<uint8_t> want = bytes;
        DeblockDsp dsp;
        deblock_dsp_init_ref(&dsp);
        deblock_frame(dsp, frame_at(want.data()), p);
        ASSERT_NE(want, bytes);

        ASSERT_TRUE(gpu->deblock(frame_at(base), p));
        EXPECT_EQ(std::vector<uint8_t>(base, base + size), want);
        EXPECT_EQ(gpu->last_frame_stats().zero_copy_groups,
                  in_gpu_memory ? 2 : 0);
        EXPECT_EQ(gpu->last_frame_stats().staged_groups, in_gpu_memory ? 0 : 2);
        if (HasFailure()) return;
      }
}

// ------------------------------------------------------------- zero-copy

// The 8-bit cases, then the 10-bit ones (sources with bits outside their
// values, which the filtered planes' words lose).
TEST_F(GpuDeblock, FramesInGpuBuffersAreFilteredInPlace) {
  std::mt19937 gen = test::rng(10);
  using Cases = std::span<const test::ZeroCopyCase>;
  for (Cases cases :
       {Cases(test::kZeroCopyCases), Cases(test::kTenBitZeroCopyCases)})
    expect_zero_copy(
        *gpu,
        [](int block) {
          return DeblockParams{45, 0, 0, 0, block == 4 ? 4 : block / 4, block};
        },
        [&](Image& image, int block) {
          const int cs = image.frame().bit_depth() - 8;
          test::fill_blocky(image, gen, block, 128 << cs, 15 << cs);
          test::set_outside_bits(image, gen);
        },
        cases);
}

// Grid offsets move every plane's view by an amount that is rarely a whole
// word: staged, and in a GPU buffer; both modes; every format of both depths
// (10-bit samples before the origin keep their words, outside bits and all).
TEST_F(GpuDeblock, GridOffsetsStagedAndInPlace) {
  std::mt19937 gen = test::rng(12);
  int changed = 0;
  for (PixelFormat format : test::all_pixel_formats())
    for (int block : kBlockSizes)
      for (int i = 0; i < 3; i++) {
        DeblockParams p = i < 2 ? DeblockParams{.qp = 45,
                                                .bs = 1 + int(gen() % 4),
                                                .block_size = block}
                                : test::vp9_params(40, int(gen() % 8), block);
        p.grid_x = int(gen() % 16);
        p.grid_y = int(gen() % 16);
        Image image(format, 20 + int(gen() % 30), 9 + int(gen() % 30),
                    int(gen() % 3));
        const int cs = image.frame().bit_depth() - 8;
        test::fill_blocky(image, gen, block, 128 << cs, 15 << cs);
        test::set_outside_bits(image, gen);
        changed += expect_exact(image, p);
        if (HasFailure()) return;

        const Image want = reference(image, p);
        test::GpuImage g = test::copy_to_gpu(*gpu, image);
        ASSERT_TRUE(g.buffer);
        const Status s = gpu->deblock(g.frame, p);
        ASSERT_TRUE(s) << s.message();
        Image got = image;
        test::copy_from_gpu(g, got);
        ASSERT_EQ(test::first_difference(want, got), "") << describe(image, p);
      }
  EXPECT_GE(changed, 70);
}

// ------------------------------------------------- skipped planes, errors

// Planes whose alpha or beta is 0 (or that have no edge) are not staged
// and not touched.
TEST_F(GpuDeblock, InactivePlanesAreSkipped) {
  std::mt19937 gen = test::rng(11);
  const struct {
    DeblockParams params;
    int groups;  // of an I420 40x24 frame
  } cases[] = {
      {{15, 0, 0, 0, 2, 8}, 0},    // indexA 15: alpha 0 everywhere
      {{27, 0, -12, 0, 2, 8}, 0},  // indexB 15: beta 0 everywhere
      {{20, 0, 0, -12, 2, 4}, 1},  // chroma QPc(8): inactive
      {{14, 0, 0, 12, 2, 4}, 2},   // luma inactive, chroma QPc(26) active
      {{30, 0, 0, 0, 2, 16}, 3},
  };
  for (const auto& c : cases) {
    Image image(PixelFormat::I420, 40, 24, 3);
    test::fill_blocky(image, gen, c.params.block_size, 128, 10);
    expect_exact(image, c.params);
    const GpuFrameStats& st = gpu->last_frame_stats();
    EXPECT_EQ(st.zero_copy_groups + st.staged_groups, c.groups)
        << describe(image, c.params);
  }
  // Planes too small for an edge: 10x10 luma has one at x = 4 (and y = 4)
  // at block size 4 (x + 4 <= 10) but none at 8; its 5x5 chroma has none
  // (x + 2 <= 5 fails at 4).
  Image small(PixelFormat::I420, 10, 10, 1);
  test::fill_blocky(small, gen, 4, 128, 10);
  expect_exact(small, {40, 0, 0, 0, 2, 8});
  EXPECT_EQ(gpu->last_frame_stats().staged_groups, 0);
  expect_exact(small, {40, 0, 0, 0, 2, 4});
  EXPECT_EQ(gpu->last_frame_stats().staged_groups, 1);
}

// ------------------------------------------------------------- mode=vp9

using test::vp9_params;

// Every format, block size and a spread of levels and sharpnesses, on random,
// blocky and flat content, and on content at the thresholds (steps that
// straddle blimit, samples off by limit or thresh, +-1).
TEST_F(GpuDeblock, Vp9EveryFormatBlockSizeAndLevel) {
  std::mt19937 gen = test::rng(21);
  int changed = 0, i = 0;
  for (auto [w, h] : {std::pair{17, 9}, {33, 65}, {1, 1}, {12, 12}})
    for (PixelFormat format : kAllPixelFormats)
      for (int block : kBlockSizes)
        for (int level : {1, 9, 30, 63}) {
          const DeblockParams p = vp9_params(level, i % 8, block);
          Image image(format, w, h, ++i % 6);
          if (i % 3 == 0)
            fill_any(image, gen, block);
          else if (i % 3 == 1)
            fill_flat_blocks(image, gen, block, 1 + int(gen() % 12));
          else
            deblock_simd_test::fill_vp9_thresholds(
                image, gen, deblock_plane_params(p, false, false));
          changed += expect_exact(image, p);
          if (HasFailure()) return;
        }
  EXPECT_GE(changed, 120);
}

// Every level with every sharpness (the thresholds on the GPU side), two
// sharpnesses of each level at 10 bits (the thresholds scaled there).
TEST_F(GpuDeblock, Vp9EveryLevelAndSharpness) {
  std::mt19937 gen = test::rng(22);
  int changed = 0;
  for (int level = 0; level <= 63; level++)
    for (int sharpness = 0; sharpness <= 7; sharpness++) {
      const DeblockParams p =
          vp9_params(level, sharpness, kBlockSizes[level % 3]);
      const bool deep = sharpness == level % 8 || sharpness == 7 - level % 8;
      Image image(deep ? kTenBitPixelFormats[level % 4] : PixelFormat::GRAY8,
                  20, 18, 1);
      const int cs = image.frame().bit_depth() - 8;
      test::fill_blocky(image, gen, p.block_size, int(gen() % 256) << cs,
                        12 << cs);
      test::set_outside_bits(image, gen);
      changed += expect_exact(image, p);
      if (HasFailure()) return;
    }
  EXPECT_GE(changed, 300);
}

// The scalar test's OverlappingEdgesAtBlockSize4 (deblock_vp9_test.cc): the
// edge at 8 reads the edge at 4's output and, there, is left alone.
TEST_F(GpuDeblock, Vp9OverlappingEdgesFollowTheEdgeOrder) {
  const int in[12] = {100, 100, 100, 100, 110, 110,
                      117, 117, 120, 120, 120, 120};
  const int out[12] = {100, 100, 102, 104, 106, 108,
                       117, 117, 120, 120, 120, 120};
  expect_row_and_column(*gpu, in, out, vp9_params(8, 0, 4), 1, 3);
}

TEST_F(GpuDeblock, Vp9FullHdFlat) {
  std::mt19937 gen = test::rng(23);
  for (PixelFormat format : {PixelFormat::I420, PixelFormat::NV12})
    for (int block : kBlockSizes) {
      Image image(format, 1920, 1080);
      fill_flat_blocks(image, gen, block, 4);
      EXPECT_TRUE(expect_exact(image, vp9_params(32, 0, block)));
      if (HasFailure()) return;
    }
}

TEST_F(GpuDeblock, Vp9FramesInGpuBuffersAreFilteredInPlace) {
  std::mt19937 gen = test::rng(24);
  using Cases = std::span<const test::ZeroCopyCase>;
  for (Cases cases :
       {Cases(test::kZeroCopyCases), Cases(test::kTenBitZeroCopyCases)})
    expect_zero_copy(
        *gpu, [](int block) { return vp9_params(20, 0, block); },
        [&](Image& image, int block) {
          fill_flat_blocks(image, gen, block, 6);
        },
        cases);
}

// Level 0 stages nothing; 12x12 luma has an edge at block size 8 (8 + 4 <=
// 12) but none at 16 (16 + 8 > 12).
TEST_F(GpuDeblock, Vp9InactivePlanesAreSkipped) {
  std::mt19937 gen = test::rng(25);
  Image image(PixelFormat::I420, 40, 24, 3);
  fill_flat_blocks(image, gen, 8, 6);
  expect_exact(image, vp9_params(0, 0, 8));
  EXPECT_EQ(gpu->last_frame_stats().staged_groups, 0);
  Image small(PixelFormat::GRAY8, 12, 12, 1);
  fill_flat_blocks(small, gen, 8, 6);
  expect_exact(small, vp9_params(30, 0, 16));
  EXPECT_EQ(gpu->last_frame_stats().staged_groups, 0);
  expect_exact(small, vp9_params(30, 0, 8));
  EXPECT_EQ(gpu->last_frame_stats().staged_groups, 1);
}

TEST_F(GpuDeblock, Vp9RejectsBadParameters) {
  Image image(PixelFormat::I420, 16, 8);
  EXPECT_FALSE(gpu->deblock(image.frame(), vp9_params(64, 0, 8)));
  EXPECT_FALSE(gpu->deblock(image.frame(), vp9_params(10, 8, 8)));
  EXPECT_FALSE(gpu->deblock(image.frame(), vp9_params(10, 0, 12)));
  EXPECT_TRUE(gpu->deblock(image.frame(), vp9_params(10, 7, 16)));
}

TEST_F(GpuDeblock, RejectsBadParameters) {
  Image image(PixelFormat::I420, 16, 8);
  EXPECT_FALSE(gpu->deblock(image.frame(), {52, 0, 0, 0, 2, 8}));
  EXPECT_FALSE(gpu->deblock(image.frame(), {28, 13, 0, 0, 2, 8}));
  EXPECT_FALSE(gpu->deblock(image.frame(), {28, 0, 0, 0, 5, 8}));
  EXPECT_FALSE(gpu->deblock(image.frame(), {28, 0, 0, 0, 2, 12}));
  EXPECT_TRUE(gpu->deblock(image.frame(), {28, 0, 0, 0, 2, 8}));
}

}  // namespace
}  // namespace daedalus
