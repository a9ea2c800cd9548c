#include "daedalus/metrics.h"

#include <gtest/gtest.h>

#include <cmath>

#include "daedalus/image.h"
#include "test_util.h"

namespace daedalus {
namespace {

TEST(Metrics, KnownPsnr) {
  // One sample off by 255 in 1 sample: MSE = 65025 -> 0 dB.
  EXPECT_DOUBLE_EQ(psnr_from_sse(65025, 1), 0.0);
  // MSE = 65025 / 100 -> 20 dB.
  EXPECT_NEAR(psnr_from_sse(65025, 100), 20.0, 1e-12);
  EXPECT_TRUE(std::isinf(psnr_from_sse(0, 10)));
}

TEST(Metrics, FramePsnrPoolsAllPlanes) {
  Image a(PixelFormat::I420, 4, 4, 1), b(PixelFormat::I420, 4, 4, 1);
  test::fill(a, [](int, int, int) { return uint8_t(100); });
  // Luma off by 2 everywhere (16 samples), chroma equal (2 x 4 samples):
  // SSE = 16 * 4 = 64 over 24 samples.
  test::fill(b, [](int p, int, int) { return uint8_t(p == 0 ? 102 : 100); });
  EXPECT_EQ(sum_squared_error(a.frame().planes[0], b.frame().planes[0]), 64u);
  EXPECT_NEAR(frame_psnr(a.frame(), b.frame()),
              10.0 * std::log10(65025.0 / (64.0 / 24.0)), 1e-9);
  EXPECT_NEAR(plane_psnr(a.frame().planes[0], b.frame().planes[0]),
              10.0 * std::log10(65025.0 / 4.0), 1e-9);
}

TEST(Metrics, InterleavedChromaReadsOnlyItsChannel) {
  Image a(PixelFormat::NV12, 2, 2), b(PixelFormat::NV12, 2, 2);
  test::fill(a, [](int, int, int) { return uint8_t(7); });
  test::fill(b, [](int p, int, int) { return uint8_t(p == 2 ? 9 : 7); });
  EXPECT_EQ(sum_squared_error(a.frame().planes[1], b.frame().planes[1]), 0u);
  EXPECT_EQ(sum_squared_error(a.frame().planes[2], b.frame().planes[2]), 4u);
}

}  // namespace
}  // namespace daedalus
