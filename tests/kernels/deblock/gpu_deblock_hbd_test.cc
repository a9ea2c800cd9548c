// The gpu backend's deblock mode=h264 and mode=vp9 on 10-bit frames
// (docs/spec.md "High bit depth") against the scalar reference: every 10-bit
// format with every block size, bs and level at odd sizes and strides
// (1x1 to 33x65), P010's low bits cleared in filtered planes only (mode=dct
// at 10 bits: gpu_deblock_dct_test.cc). Sources carry random bits outside
// their values and outputs are
// compared word for word, so the rule for what deblock writes (every sample
// of a filtered plane from the grid origin on, its other bits 0; the rest
// kept) is checked everywhere. gpu_deblock_test.cc runs its other suites
// (every qp and offset, VP9's levels and sharpnesses, extremes, grid
// offsets, frames in GPU buffers) over both depths.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <utility>

#include "daedalus/deblock.h"
#include "gpu_deblock_test_helpers.h"
#include "gpu_test_util.h"
#include "test_util.h"

namespace daedalus {
namespace {

using gpu_deblock_test::describe;
using gpu_deblock_test::fill_flat_blocks;
using gpu_deblock_test::GpuDeblockTest;
using gpu_deblock_test::kBlockSizes;
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
            fill_flat_blocks(image, gen, block, in(gen, 1, 12));
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

}  // namespace
}  // namespace daedalus
