// The gpu backend's MC (shaders/mc/mc.comp) on frames in GPU buffers, in
// place or mixed with ordinary memory, and its refusals. Bit-exactness
// with the scalar reference on every format, filter, shift, size and
// content: the harness (tests/kernels/harness, HarnessGpu.Mc).
#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "daedalus/mc.h"
#include "gpu_test_util.h"
#include "test_util.h"

namespace daedalus {
namespace {

class GpuMc : public test::GpuTest {};

// ------------------------------------------------------------- zero-copy

TEST_F(GpuMc, FramesInGpuBuffersAreUsedInPlace) {
  std::mt19937 gen = test::rng(6);
  test::expect_zero_copy_frames(*gpu, mc_job({-2.3, 1.6, McFilter::Sharp}),
                                gen);
  test::expect_zero_copy_frames(*gpu, mc_job({1.7, -0.2, McFilter::Regular}),
                                gen, test::kTenBitZeroCopyCases);
}

// One frame in a GpuBuffer, the other in ordinary memory.
TEST_F(GpuMc, MixedPlacement) {
  std::mt19937 gen = test::rng(7);
  test::expect_mixed_placement(*gpu, mc_job({0.75, -5.5, McFilter::Smooth}),
                               PixelFormat::NV12, gen);
  test::expect_mixed_placement(*gpu, mc_job({-3.25, 0.5, McFilter::Bilinear}),
                               PixelFormat::P010_10LE, gen);
}

// ---------------------------------------------------------------- errors

TEST_F(GpuMc, RejectsBadParametersAndGeometry) {
  Image a(PixelFormat::I420, 16, 8), b(PixelFormat::I420, 16, 8);
  Image c(PixelFormat::I420, 18, 8);
  EXPECT_FALSE(gpu->mc(a.frame(), b.frame(), {5000.0, 0, McFilter::Regular}));
  EXPECT_FALSE(gpu->mc(
      a.frame(), b.frame(),
      {std::numeric_limits<double>::quiet_NaN(), 0, McFilter::Regular}));
  EXPECT_FALSE(gpu->mc(a.frame(), c.frame(), {0.5, 0, McFilter::Regular}));
  EXPECT_TRUE(gpu->mc(a.frame(), b.frame(), {0.5, 0, McFilter::Regular}));
}

}  // namespace
}  // namespace daedalus
