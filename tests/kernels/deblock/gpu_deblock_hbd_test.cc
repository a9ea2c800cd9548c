// The gpu backend's deblock mode=h264 and mode=vp9 on 10-bit frames
// (docs/spec.md "High bit depth"): P010's low bits cleared in filtered
// planes only. Every 10-bit format with every block size, bs and level at
// odd sizes and strides, sources with random bits outside their values,
// outputs compared word for word: the harness (tests/kernels/harness,
// HarnessGpu.DeblockH264 and DeblockVp9). mode=dct at 10 bits:
// gpu_deblock_dct_test.cc.
#include <gtest/gtest.h>

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
using gpu_deblock_test::GpuDeblockTest;
using test::vp9_params;

using GpuDeblockHbd = GpuDeblockTest;

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
