// The gpu backend's deblock mode=h264 and mode=vp9 on 10-bit frames
// (docs/spec.md "High bit depth") against the scalar reference: every 10-bit
// format, block size, bs and level, the thresholds scaled at every qp,
// extremes (0, 1023), odd sizes and strides, frames staged or in place
// (grid offsets: gpu_deblock_test.cc, over both depths). Sources carry random bits outside their values; the comparison
// is of whole words, so the rule for what deblock writes (every sample of a
// filtered plane from the grid origin on, its other bits 0; the rest kept)
// is checked everywhere. The 8-bit suites (gpu_deblock_test.cc) run the full
// cross-products; these cover each parameter at 10 bits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>

#include "daedalus/deblock.h"
#include "gpu_deblock_test_helpers.h"
#include "gpu_test_util.h"
#include "test_util.h"

namespace daedalus {
namespace {

using gpu_deblock_test::describe;
using gpu_deblock_test::expect_zero_copy;
using gpu_deblock_test::GpuDeblockTest;
using gpu_deblock_test::kBlockSizes;
using gpu_deblock_test::reference;
using test::vp9_params;

int in(std::mt19937& gen, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(gen);
}

// 10-bit content with random bits outside the values: random, near-flat,
// blocky (steps up to 160, 40 at 8 bits), or blocky against 0 or 1023.
void fill_any(Image& image, std::mt19937& gen, int block) {
  const int kind = in(gen, 0, 4);
  const int center = in(gen, 0, 1023);
  if (kind == 0)
    test::fill_random(image, gen);
  else if (kind == 1)
    test::fill_near(image, gen, center, in(gen, 1, 48));
  else if (kind == 2)
    test::fill_blocky(image, gen, block, center, in(gen, 4, 160));
  else
    test::fill_blocky(image, gen, block, kind == 3 ? 3 : 1020, 24);
  test::set_outside_bits(image, gen);
}

// Flat blocks `jump` apart with noise 0..4: VP9's flat bound at 10 bits is 4,
// so the wide filters run on some lines and not on others.
void fill_flat_blocks(Image& image, std::mt19937& gen, int block, int jump) {
  const int base = in(gen, 0, 1023 - jump - 4);
  test::fill(image, [&](int, int x, int y) {
    return base + ((x / block + y / block) % 2) * jump + in(gen, 0, 4);
  });
  test::set_outside_bits(image, gen);
}

class GpuDeblockHbd : public GpuDeblockTest {
 protected:
  // Every 10-bit format, block size and bs (mode=h264), or level
  // (mode=vp9), at one size; at least `min_changed` of the frames must be
  // changed by the reference.
  void sweep(int w, int h, uint32_t salt, int min_changed) {
    std::mt19937 gen = test::rng(salt);
    int padding = 0, changed = 0;
    for (PixelFormat format : kTenBitPixelFormats)
      for (int block : kBlockSizes)
        for (int i = 0; i < 8; i++) {
          DeblockParams p;
          if (i < 4) {
            p = {.qp = in(gen, 30, 51), .bs = i + 1, .block_size = block};
            p.alpha_offset = in(gen, -12, 12);
            p.beta_offset = in(gen, -6, 12);
            p.chroma_qp_offset = in(gen, -6, 12);
          } else {
            p = vp9_params(std::array{1, 9, 30, 63}[i - 4], in(gen, 0, 7),
                           block);
          }
          Image image(format, w, h, ++padding % 6);
          if (i >= 4 && i % 2)
            fill_flat_blocks(image, gen, block, in(gen, 4, 48));
          else
            fill_any(image, gen, block);
          changed += expect_exact(image, p);
          if (HasFailure()) return;
        }
    EXPECT_GE(changed, min_changed);
  }
};

// 96 frames each; 1x1 and 7x5 have no edge, but every active plane is
// written (its words' other bits cleared), which the reference does too.
TEST_F(GpuDeblockHbd, EveryFormatBlockSizeStrengthAndLevel) {
  sweep(17, 9, 101, 30);
  sweep(33, 65, 102, 40);
  sweep(1, 1, 103, 0);
  sweep(7, 5, 104, 0);
  sweep(12, 12, 105, 20);
}

// Every qp with the offsets at 0, and every offset at one qp: every alpha,
// beta and tc0 of the tables, scaled by 4, the inactive ones included.
TEST_F(GpuDeblockHbd, EveryQpAndOffset) {
  std::mt19937 gen = test::rng(106);
  int changed = 0, i = 0;
  auto run = [&](const DeblockParams& p) {
    Image image(kTenBitPixelFormats[i++ % 4], 20, 18, 1);
    test::fill_blocky(image, gen, p.block_size, in(gen, 0, 1023), 48);
    test::set_outside_bits(image, gen);
    changed += expect_exact(image, p);
  };
  for (int qp = 0; qp <= 51; qp++) {
    run({qp, 0, 0, 0, 1 + i % 4, kBlockSizes[i % 3]});
    if (HasFailure()) return;
  }
  for (int offset = -12; offset <= 12; offset++) {
    run({36, offset, 0, 0, 1 + i % 4, 4});
    run({36, 0, offset, 0, 1 + i % 4, 8});
    run({36, 0, 0, offset, 1 + i % 4, 4});
    if (HasFailure()) return;
  }
  EXPECT_GE(changed, 60);
}

// Steps of exactly alpha - 1 and alpha (scaled) across the edges, beta - 1
// and beta inside blocks, 0/1023 blocks and checkerboards, ramps, and
// samples at the clipping ends.
TEST_F(GpuDeblockHbd, AdversarialContent) {
  std::mt19937 gen = test::rng(107);
  const DeblockParams params[] = {{51, 0, 0, 0, 4, 4},
                                  {51, 0, 0, 0, 3, 4},
                                  {40, 3, -2, 5, 2, 8},
                                  {36, 0, 0, 0, 4, 16},
                                  {51, 12, 12, 12, 1, 4},
                                  vp9_params(63, 0, 4),
                                  vp9_params(40, 3, 8),
                                  vp9_params(63, 0, 16)};
  for (const DeblockParams& p : params) {
    const DeblockPlaneParams luma = deblock_plane_params_at_depth(
        deblock_plane_params(p, false, false), 10);
    const int a = p.mode == DeblockMode::Vp9 ? luma.vp9.blimit / 2 : luma.alpha;
    const int b = p.mode == DeblockMode::Vp9 ? luma.vp9.limit : luma.beta;
    const int base = 1023 - a;
    auto at = [](int v) { return std::clamp(v, 0, 1023); };
    const std::function<int(int, int, int)> fills[] = {
        [&](int, int x, int y) {
          return at(base + (((x / 4) + (y / 4)) & 1 ? a - 1 : 0) -
                    ((x + y) & 1 ? b - 1 : 0));
        },
        [&](int, int x, int y) {
          return at(base + (((x / 4) + (y / 4)) & 1 ? a : 0));
        },
        [&](int, int x, int y) {
          return at(480 + ((x & 3) == 1 ? b : 0) + ((y & 3) == 2 ? b - 1 : 0));
        },
        [](int, int x, int y) { return ((x / 4) + (y / 4)) & 1 ? 1023 : 0; },
        [](int, int x, int y) { return (x * 149 + y * 43) & 1023; },
        [](int, int x, int y) { return (x + y) & 1 ? 1023 : 0; },
        [&](int, int, int) { return gen() & 1 ? in(gen, 1016, 1023) : 5; },
    };
    for (PixelFormat format : kTenBitPixelFormats)
      for (const auto& fill : fills) {
        Image image(format, 25, 21, 3);
        test::fill(image, fill);
        test::set_outside_bits(image, gen);
        expect_exact(image, p);
        if (HasFailure()) return;
      }
  }
}

// Every level with two sharpnesses (the thresholds at 10 bits).
TEST_F(GpuDeblockHbd, Vp9EveryLevel) {
  std::mt19937 gen = test::rng(108);
  int changed = 0;
  for (int level = 0; level <= 63; level++)
    for (int sharpness : {level % 8, 7 - level % 8}) {
      const DeblockParams p =
          vp9_params(level, sharpness, kBlockSizes[level % 3]);
      Image image(kTenBitPixelFormats[level % 4], 20, 18, 1);
      test::fill_blocky(image, gen, p.block_size, in(gen, 0, 1023), 48);
      test::set_outside_bits(image, gen);
      changed += expect_exact(image, p);
      if (HasFailure()) return;
    }
  EXPECT_GE(changed, 60);
}

TEST_F(GpuDeblockHbd, FramesInGpuBuffersAreFilteredInPlace) {
  std::mt19937 gen = test::rng(110);
  expect_zero_copy(
      *gpu,
      [](int block) {
        return DeblockParams{45, 0, 0, 0, block == 4 ? 4 : block / 4, block};
      },
      [&](Image& image, int block) {
        test::fill_blocky(image, gen, block, 512, 60);
        test::set_outside_bits(image, gen);
      },
      test::kTenBitZeroCopyCases);
  expect_zero_copy(
      *gpu, [](int block) { return vp9_params(20, 0, block); },
      [&](Image& image, int block) { fill_flat_blocks(image, gen, block, 24); },
      test::kTenBitZeroCopyCases);
}

// P010 keeps its values in the high 10 bits: after deblocking, every
// sample word of a filtered plane has its low 6 bits 0, the values equal
// the reference's, and a plane left alone (mode=h264's chroma: qp 27 with
// chroma offset -12 is QPc(15), alpha 0) keeps its words, low bits and all.
TEST_F(GpuDeblockHbd, P010LowBitsClearedInFilteredPlanesOnly) {
  std::mt19937 gen = test::rng(111);
  for (const DeblockParams& p :
       {DeblockParams{27, 0, 0, -12, 2, 4}, vp9_params(30, 0, 8)}) {
    Image image(PixelFormat::P010_10LE, 34, 18, 2);
    test::fill_blocky(image, gen, p.block_size, 512, 60);
    test::set_outside_bits(image, gen);
    const Image before = image;
    ASSERT_TRUE(expect_exact(image, p)) << describe(image, p);
    Image got = image;
    ASSERT_TRUE(gpu->deblock(got.frame(), p));
    const ConstFrame f = std::as_const(got).frame(),
                     b = std::as_const(before).frame();
    const bool chroma_active = p.mode == DeblockMode::Vp9;
    for (int pl = 0; pl < 3; pl++)
      for (int y = 0; y < f.planes[pl].height; y++)
        for (int x = 0; x < f.planes[pl].width; x++) {
          const uint8_t* s = &f.planes[pl].at(x, y);
          const uint8_t* s0 = &b.planes[pl].at(x, y);
          if (pl == 0 || chroma_active)
            ASSERT_EQ(s[0] & 0x3f, 0) << pl << " " << x << "," << y;
          else
            ASSERT_TRUE(s[0] == s0[0] && s[1] == s0[1]) << x << "," << y;
        }
  }
}

// mode=dct is not computed at 10 bits on the gpu: refused, frame untouched.
TEST_F(GpuDeblockHbd, DctRefused) {
  std::mt19937 gen = test::rng(112);
  Image image(PixelFormat::I420_10LE, 32, 16);
  test::fill_random(image, gen);
  const Image before = image;
  const Status s = gpu->deblock(image.frame(), test::dct_params(40, 4));
  EXPECT_FALSE(s);
  EXPECT_NE(s.message().find("10-bit"), std::string::npos) << s.message();
  EXPECT_EQ(test::first_difference(before, image), "");
}

}  // namespace
}  // namespace daedalus
