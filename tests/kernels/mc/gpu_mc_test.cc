// The gpu backend's MC (shaders/mc/mc.comp) against the scalar reference:
// bit-exact for every format of both depths (10-bit sources with random bits
// outside their values), filter and kind of shift, odd sizes and strides,
// random and adversarial content, frames staged or in place.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "daedalus/mc.h"
#include "gpu_test_util.h"
#include "test_util.h"

namespace daedalus {
namespace {

constexpr McFilter kFilters[] = {McFilter::Regular, McFilter::Sharp,
                                 McFilter::Smooth, McFilter::Bilinear};

std::string filter_name(McFilter filter) {
  return std::string(mc_filter_name(filter));
}

std::string describe(const Image& src, const McParams& p) {
  return std::string(pixel_format_name(src.format())) + " " +
         std::to_string(src.width()) + "x" + std::to_string(src.height()) +
         " " + filter_name(p.filter) + " dx=" + std::to_string(p.dx) +
         " dy=" + std::to_string(p.dy);
}

// Shifts in luma samples, as (dx, dy).
struct Shift {
  double dx, dy;
};

// Integer, one axis fractional, both axes, halves, mc_subpel's rounding edges
// (1/32 luma is 1/16 after rounding but 0 in chroma), and far outside the
// plane, where every tap is clamped.
const Shift kShifts[] = {
    {0, 0},
    {3, -2},
    {-1, 5},
    {0.25, 0},
    {-2.75, 0},
    {0, 0.5625},
    {0, -1.0625},
    {1.3, -2.7},
    {-0.4, 0.9},
    {1.0 / 32, -1.0 / 32},
    {3.0 / 32, 5.0 / 32},
    {0.5, 0.5},
    {4096, -4096},
    {-4000.4375, 3000.8125},
    {37.5, -20.25},
    {-9.9375, 13.0625},
};

// A few of the above for the many-size sweeps: integer, each 1-D case, 2-D,
// a chroma rounding edge and far outside.
const Shift kFewShifts[] = {
    {3, -2},     {-2.75, 0},           {0, 0.5625},
    {1.3, -2.7}, {3.0 / 32, 5.0 / 32}, {-4000.4375, 3000.8125}};

Image reference(const Image& src, const McParams& p, int dst_padding) {
  return test::reference_output(src, mc_job(p), dst_padding);
}

class GpuMc : public test::GpuTest {
 protected:
  // Runs the gpu backend on `src` into a fresh image and compares it with
  // the reference, guards included.
  void expect_exact(const Image& src, const McParams& p, int dst_padding) {
    SCOPED_TRACE(describe(src, p));
    const Image want = reference(src, p, dst_padding);
    Image got(src.format(), src.width(), src.height(), dst_padding);
    test::fill(got, [](int, int, int) { return uint8_t(0x5a); });
    const Status s = gpu->mc(got.frame(), src.frame(), p);
    ASSERT_TRUE(s) << s.message();
    EXPECT_EQ(test::first_difference(want, got), "");
    EXPECT_TRUE(test::guards_intact(got));
  }

  // Every format: the 8-bit ones with `shifts`, the 10-bit ones with
  // `deep_shifts`.
  void sweep(int w, int h, std::span<const Shift> shifts,
             std::span<const Shift> deep_shifts, uint32_t salt) {
    std::mt19937 gen = test::rng(salt);
    int padding = 0;
    for (PixelFormat format : test::all_pixel_formats()) {
      Image src(format, w, h, padding % 7);
      test::fill_random(src, gen);
      test::set_outside_bits(src, gen);
      const bool deep = src.frame().bit_depth() > 8;
      for (McFilter filter : kFilters)
        for (const Shift& s : deep ? deep_shifts : shifts) {
          expect_exact(src, {s.dx, s.dy, filter}, ++padding % 5);
          if (HasFailure()) return;
        }
    }
  }
};

TEST_F(GpuMc, EveryShiftFormatAndFilterAt17x9) {
  sweep(17, 9, kShifts, kShifts, 1);
}

TEST_F(GpuMc, EveryShiftFormatAndFilterAt33x65) {
  sweep(33, 65, kShifts, kFewShifts, 2);
}

// 1x1 and 7x5: every tap clamped; 65x17 and 64x16: one sample past a tile
// and exactly one tile; 2x3: interleaved chroma of a single word.
TEST_F(GpuMc, SmallAndTileEdgeSizes) {
  const int sizes[][2] = {{1, 1}, {2, 3}, {7, 5}, {64, 16}, {65, 17}};
  for (const auto& s : sizes) {
    sweep(s[0], s[1], kFewShifts, kFewShifts, 3 + s[0]);
    if (HasFailure()) return;
  }
}

// Content that drives the 8-tap sums to their extremes, so that both
// clippings (the intermediate of the sample depth and the output) happen;
// at 10 bits 255 is 1023.
TEST_F(GpuMc, AdversarialContent) {
  std::mt19937 gen = test::rng(4);
  const auto fills = test::full_swing_patterns(gen);
  const Shift shifts[] = {{0.5, 0.5}, {0.5625, -0.4375}, {-1.25, 0.25}};
  for (PixelFormat format : test::all_pixel_formats()) {
    Image src(format, 23, 19, 1);
    for (const auto& fill : fills) {
      test::fill(src, [&](int p, int x, int y) {
        return test::widen(src, fill(p, x, y));
      });
      test::set_outside_bits(src, gen);
      for (McFilter filter : kFilters)
        for (const Shift& s : shifts) {
          expect_exact(src, {s.dx, s.dy, filter}, 2);
          if (HasFailure()) return;
        }
    }
  }
}

TEST_F(GpuMc, FullHd) {
  std::mt19937 gen = test::rng(5);
  const struct {
    PixelFormat format;
    McParams params;
  } cases[] = {
      {PixelFormat::I420, {0.3, -0.7, McFilter::Regular}},
      {PixelFormat::NV12, {-1.55, 2.2, McFilter::Sharp}},
      {PixelFormat::NV12, {7.25, -3.8, McFilter::Bilinear}},
      {PixelFormat::P010_10LE, {-0.45, 1.3, McFilter::Smooth}},
  };
  for (const auto& c : cases) {
    Image src(c.format, 1920, 1080);
    test::fill_random(src, gen);
    test::set_outside_bits(src, gen);
    expect_exact(src, c.params, 0);
    if (gpu->device_info().timestamps) {
      EXPECT_GE(gpu->last_frame_stats().gpu_ms, 0.0);
    }
  }
}

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
