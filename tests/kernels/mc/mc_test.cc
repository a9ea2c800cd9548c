#include "daedalus/mc.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "mc_test_helpers.h"
#include "test_util.h"

namespace daedalus {
namespace {

using test::kMc8TapFilters;
using test::kMcFilters;

std::string name(McFilter filter) {
  return std::string(mc_filter_name(filter));
}

std::string describe(const Image& image, McFilter filter, double dx,
                     double dy) {
  return std::string(pixel_format_name(image.format())) + " " +
         std::to_string(image.width()) + "x" + std::to_string(image.height()) +
         " " + name(filter) + " dx=" + std::to_string(dx) +
         " dy=" + std::to_string(dy);
}

McDsp ref_dsp() {
  McDsp dsp;
  mc_dsp_init_ref(&dsp);
  return dsp;
}

// Plane 0 of `src` through the rows function, all rows.
void shift_plane(Image& dst, const Image& src, const McPlaneShift& shift,
                 McFilter filter) {
  const Plane out = dst.frame().planes[0];
  ref_dsp().rows(out, src.frame().planes[0], shift, filter, 0, out.height);
}

void translate(Image& dst, const Image& src, double dx, double dy,
               McFilter filter) {
  mc_frame(ref_dsp(), dst.frame(), src.frame(), {dx, dy, filter});
}

// Zero samples, guard bytes in the row padding.
void blank(Image& image) {
  test::fill(image, [](int, int, int) { return uint8_t(0); });
}

int at(const Image& image, int plane, int x, int y) {
  return image.frame().planes[plane].at(x, y);
}

int clamped(const Image& image, int plane, int x, int y) {
  const ConstPlane& p = image.frame().planes[plane];
  return p.at(std::clamp(x, 0, p.width - 1), std::clamp(y, 0, p.height - 1));
}

// ---------------------------------------------------------------- tables

void expect_taps(McFilter filter, int phase, const std::vector<int>& taps) {
  SCOPED_TRACE(name(filter) + " phase " + std::to_string(phase));
  for (int k = 0; k < 8; k++)
    EXPECT_EQ(kVp9Filters[static_cast<int>(filter)][phase][k], taps[k]);
}

// Values as printed in libvpx vp9_filter.c and FFmpeg vp9dsp.c.
TEST(McTables, KnownVp9Taps) {
  expect_taps(McFilter::Regular, 1, {0, 1, -5, 126, 8, -3, 1, 0});
  expect_taps(McFilter::Regular, 4, {-1, 4, -16, 112, 37, -11, 4, -1});
  expect_taps(McFilter::Regular, 8, {-1, 6, -19, 78, 78, -19, 6, -1});
  expect_taps(McFilter::Regular, 13, {-1, 3, -9, 27, 118, -13, 4, -1});
  expect_taps(McFilter::Sharp, 1, {-1, 3, -7, 127, 8, -3, 1, 0});
  expect_taps(McFilter::Sharp, 5, {-4, 10, -23, 108, 48, -16, 8, -3});
  expect_taps(McFilter::Sharp, 8, {-4, 11, -23, 80, 80, -23, 11, -4});
  expect_taps(McFilter::Sharp, 15, {0, 1, -3, 8, 127, -7, 3, -1});
  expect_taps(McFilter::Smooth, 1, {-3, -1, 32, 64, 38, 1, -3, 0});
  expect_taps(McFilter::Smooth, 6, {-1, -4, 18, 59, 51, 9, -4, 0});
  expect_taps(McFilter::Smooth, 8, {-1, -4, 14, 55, 55, 14, -4, -1});
  expect_taps(McFilter::Smooth, 11, {0, -4, 7, 49, 60, 21, -3, -2});
  expect_taps(McFilter::Smooth, 15, {0, -3, 1, 38, 64, 32, -1, -3});
}

TEST(McTables, PhaseZeroIsIdentityAndEveryPhaseSumsTo128) {
  for (McFilter filter : kMc8TapFilters) {
    expect_taps(filter, 0, {0, 0, 0, 128, 0, 0, 0, 0});
    for (int f = 0; f < 16; f++) {
      int sum = 0;
      for (int k = 0; k < 8; k++)
        sum += kVp9Filters[static_cast<int>(filter)][f][k];
      EXPECT_EQ(sum, 128) << name(filter) << " phase " << f;
    }
  }
}

// Phase 16 - f is phase f mirrored about the half-sample point between taps
// 3 and 4: the banks are symmetric.
TEST(McTables, PhasesMirror) {
  for (McFilter filter : kMc8TapFilters) {
    const auto& bank = kVp9Filters[static_cast<int>(filter)];
    for (int f = 1; f < 16; f++)
      for (int k = 0; k < 8; k++)
        EXPECT_EQ(bank[16 - f][k], bank[f][7 - k])
            << name(filter) << " phase " << f << " tap " << k;
  }
}

// ------------------------------------------------- shift arithmetic

TEST(McShift, SubpelRoundsHalvesAwayFromZero) {
  EXPECT_EQ(mc_subpel(0.0, 0), 0);
  EXPECT_EQ(mc_subpel(-0.0, 1), 0);
  EXPECT_EQ(mc_subpel(1.0 / 32, 0), 1);    // 0.5 -> 1
  EXPECT_EQ(mc_subpel(-1.0 / 32, 0), -1);  // -0.5 -> -1
  EXPECT_EQ(mc_subpel(1.0 / 32, 1), 0);    // 0.25 -> 0
  EXPECT_EQ(mc_subpel(1.0 / 16, 1), 1);    // 0.5 -> 1
  EXPECT_EQ(mc_subpel(-1.0 / 16, 1), -1);  // -0.5 -> -1
  EXPECT_EQ(mc_subpel(3.0 / 32, 0), 2);    // 1.5 -> 2
  EXPECT_EQ(mc_subpel(-3.0 / 32, 0), -2);  // -1.5 -> -2
  EXPECT_EQ(mc_subpel(-3.0 / 32, 1), -1);  // -0.75 -> -1
  EXPECT_EQ(mc_subpel(5.0 / 32, 0), 3);    // 2.5 -> 3
  EXPECT_EQ(mc_subpel(5.0 / 32, 1), 1);    // 1.25 -> 1, not luma's 3 / 2
  EXPECT_EQ(mc_subpel(0.03, 0), 0);        // 0.48 -> 0
  EXPECT_EQ(mc_subpel(0.75, 0), 12);
  EXPECT_EQ(mc_subpel(0.75, 1), 6);
  EXPECT_EQ(mc_subpel(-2.2, 0), -35);  // -35.2 -> -35
  EXPECT_EQ(mc_subpel(4096.0, 0), 65536);
  EXPECT_EQ(mc_subpel(-4096.0, 0), -65536);
  EXPECT_EQ(mc_subpel(-4096.0, 1), -32768);
}

void expect_shift(const McPlaneShift& s, int ix, int iy, int fx, int fy) {
  EXPECT_EQ(s.ix, ix);
  EXPECT_EQ(s.iy, iy);
  EXPECT_EQ(s.fx, fx);
  EXPECT_EQ(s.fy, fy);
}

TEST(McShift, PlaneShiftFloorsTheIntegerPart) {
  // m = -1: i = floor(-1 / 16) = -1, f = 15 (-1 + 15/16 = -1/16).
  expect_shift(mc_plane_shift(-0.0625, -1.0 / 32, 0, 0), -1, -1, 15, 15);
  expect_shift(mc_plane_shift(0.0625, 1.0 / 32, 0, 0), 0, 0, 1, 1);
  // Chroma 4:2:0: m_x = round(1.5 * 8) = 12; m_y = round(-2.25 * 8) = -18
  // = 16 * -2 + 14.
  expect_shift(mc_plane_shift(1.5, -2.25, 1, 1), 0, -2, 12, 14);
  // 4:2:2 chroma: x halved, y not; m_x = round(-2.5) = -3 = -16 + 13.
  expect_shift(mc_plane_shift(-5.0 / 16, -5.0 / 16, 1, 0), -1, -1, 13, 11);
  expect_shift(mc_plane_shift(3.0, -7.0, 0, 0), 3, -7, 0, 0);
  expect_shift(mc_plane_shift(3.0, -7.0, 1, 1), 1, -4, 8, 8);
  expect_shift(mc_plane_shift(4096.0, -4096.0, 0, 0), 4096, -4096, 0, 0);
  expect_shift(mc_plane_shift(4096.0, -4096.0, 1, 1), 2048, -2048, 0, 0);
}

TEST(McParams, Validation) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(mc_params_valid({}));
  for (McFilter filter : kMcFilters) {
    EXPECT_TRUE(mc_params_valid({4096.0, -4096.0, filter}));
    EXPECT_TRUE(mc_params_valid({-0.3, 1234.5, filter}));
  }
  for (double bad : {nan, inf, -inf, 4096.0001, -4097.0, 1e300}) {
    EXPECT_FALSE(mc_params_valid({bad, 0.0, McFilter::Regular})) << bad;
    EXPECT_FALSE(mc_params_valid({0.0, bad, McFilter::Regular})) << bad;
  }
  EXPECT_FALSE(mc_params_valid({0.0, 0.0, static_cast<McFilter>(4)}));
  EXPECT_FALSE(mc_params_valid({0.0, 0.0, static_cast<McFilter>(-1)}));
}

TEST(McParams, NoopOnlyWhenLumaRoundsToZero) {
  for (McFilter filter : kMcFilters) {
    EXPECT_TRUE(mc_is_noop({0.0, 0.0, filter}));
    EXPECT_TRUE(mc_is_noop({0.03, -0.031, filter}));  // |16 d| < 0.5
    EXPECT_TRUE(mc_is_noop({-0.0, 1e-9, filter}));
    EXPECT_FALSE(mc_is_noop({1.0 / 32, 0.0, filter}));
    EXPECT_FALSE(mc_is_noop({0.0, -1.0 / 32, filter}));
    EXPECT_FALSE(mc_is_noop({1.0, 0.0, filter}));
  }
  EXPECT_FALSE(mc_is_noop({std::numeric_limits<double>::quiet_NaN(), 0.0}));
}

// ------------------------------------------------- known answers

// A flat 64 with one sample of 64 + 128. Along the filtered axis
//   out(x) = (64 * 128 + 128 * F[f][k] + 64) >> 7 = 64 + F[f][k],
// k = 8 - (x + i) + 3 (the tap that lands on the impulse), so the output
// spells the taps backwards; 64 elsewhere. Bilinear, phase f:
//   c == 8:     192 + ((f * -128 + 8) >> 4) = 192 - 8 f
//   c + 1 == 8:  64 + ((f *  128 + 8) >> 4) =  64 + 8 f.
int impulse_response(McFilter filter, int f, int c) {
  if (filter == McFilter::Bilinear)
    return c == 8 ? 192 - 8 * f : c + 1 == 8 ? 64 + 8 * f : 64;
  const int k = 11 - c;
  return k >= 0 && k < 8 ? 64 + kVp9Filters[static_cast<int>(filter)][f][k]
                         : 64;
}

TEST(McKnownAnswer, ImpulseSpellsTheTaps) {
  for (bool vertical : {false, true}) {
    Image src(PixelFormat::GRAY8, vertical ? 1 : 17, vertical ? 17 : 1, 3);
    Image dst(PixelFormat::GRAY8, vertical ? 1 : 17, vertical ? 17 : 1, 3);
    test::fill(src, [&](int, int x, int y) {
      return uint8_t((vertical ? y : x) == 8 ? 192 : 64);
    });
    for (McFilter filter : kMcFilters)
      for (int i : {0, -1, 2})
        for (int f = 1; f < 16; f++) {
          blank(dst);
          const McPlaneShift s =
              vertical ? McPlaneShift{0, i, 0, f} : McPlaneShift{i, 0, f, 0};
          shift_plane(dst, src, s, filter);
          for (int n = 0; n < 17; n++)
            ASSERT_EQ(vertical ? at(dst, 0, 0, n) : at(dst, 0, n, 0),
                      impulse_response(filter, f, n + i))
                << name(filter) << (vertical ? " vertical" : " horizontal")
                << " i=" << i << " f=" << f << " at " << n;
          ASSERT_TRUE(test::guards_intact(dst));
        }
  }
}

// Regular, phase 8 ({-1, 6, -19, 78, 78, -19, 6, -1}), 255 at x = 8 on 0:
//   x = 7, 8: (255 * 78 + 64) >> 7 = 19954 >> 7 = 155
//   x = 5, 10: (255 * 6 + 64) >> 7 = 1594 >> 7 = 12
//   x = 6, 9: (255 * -19 + 64) >> 7 = -4781 >> 7 = -38 -> 0
//   x = 4, 11: (255 * -1 + 64) >> 7 = -191 >> 7 = -2 -> 0
TEST(McKnownAnswer, HalfSampleRegularImpulseByHand) {
  Image src(PixelFormat::GRAY8, 16, 16, 2), dst(PixelFormat::GRAY8, 16, 16, 2);
  blank(dst);
  const int expected[16] = {0,   0, 0,  0, 0, 12, 0, 155,
                            155, 0, 12, 0, 0, 0,  0, 0};
  test::fill(src, [](int, int x, int) { return uint8_t(x == 8 ? 255 : 0); });
  translate(dst, src, 0.5, 0.0, McFilter::Regular);
  for (int y = 0; y < 16; y++)
    for (int x = 0; x < 16; x++) ASSERT_EQ(at(dst, 0, x, y), expected[x]);
  test::fill(src, [](int, int, int y) { return uint8_t(y == 8 ? 255 : 0); });
  translate(dst, src, 0.0, 0.5, McFilter::Regular);
  for (int y = 0; y < 16; y++)
    for (int x = 0; x < 16; x++) ASSERT_EQ(at(dst, 0, x, y), expected[y]);
  EXPECT_TRUE(test::guards_intact(dst));
}

// A corner of 255 (x >= 8 and y >= 8) on 0, sharp, dx = dy = 1/2 (phase 8,
// taps {-4, 11, -23, 80, 80, -23, 11, -4}), output (8, 9):
//   horizontal at column 8 reads x = 5..12 = 0 0 0 255 255 255 255 255:
//     255 * (80 + 80 - 23 + 11 - 4) = 255 * 144 = 36720,
//     (36720 + 64) >> 7 = 287, clipped to 255 (rows 8..13; rows 6, 7 are 0)
//   vertical over rows 6..13 = 0 0 255 255 255 255 255 255:
//     255 * (-23 + 80 + 80 - 23 + 11 - 4) = 255 * 121 = 30855,
//     (30855 + 64) >> 7 = 241.
// Without the clip between the passes: (287 * 121 + 64) >> 7 = 271 -> 255.
TEST(McKnownAnswer, SharpOvershootIsClippedBetweenPasses) {
  Image src(PixelFormat::GRAY8, 17, 17, 1), dst(PixelFormat::GRAY8, 17, 17, 1);
  blank(dst);
  test::fill(src, [](int, int x, int y) {
    return uint8_t(x >= 8 && y >= 8 ? 255 : 0);
  });
  translate(dst, src, 0.5, 0.5, McFilter::Sharp);
  EXPECT_EQ(at(dst, 0, 8, 9), 241);
  const int unclipped_intermediate = std::clamp((287 * 121 + 64) >> 7, 0, 255);
  EXPECT_EQ(unclipped_intermediate, 255);
  EXPECT_NE(at(dst, 0, 8, 9), unclipped_intermediate);
  // One axis only: the same 287 is just clipped.
  translate(dst, src, 0.5, 0.0, McFilter::Sharp);
  EXPECT_EQ(at(dst, 0, 8, 9), 255);
  EXPECT_TRUE(test::guards_intact(dst));
}

TEST(McKnownAnswer, BilinearOnRamps) {
  Image src(PixelFormat::GRAY8, 16, 8, 2), dst(PixelFormat::GRAY8, 16, 8, 2);
  blank(dst);

  // Rising 10 x, dx = 5/16: 10 x + ((5 * 10 + 8) >> 4) = 10 x + 3; the last
  // column has b = a.
  test::fill(src, [](int, int x, int) { return uint8_t(10 * x); });
  translate(dst, src, 5.0 / 16, 0.0, McFilter::Bilinear);
  for (int x = 0; x < 16; x++)
    EXPECT_EQ(at(dst, 0, x, 3), x < 15 ? 10 * x + 3 : 150) << x;

  // dx = -5/16: i = -1, f = 11: 10 (x - 1) + ((11 * 10 + 8) >> 4) = 10 x - 3;
  // column 0 has a = in(-1) -> in(0) = 0 and b = in(0) = 0.
  translate(dst, src, -5.0 / 16, 0.0, McFilter::Bilinear);
  for (int x = 0; x < 16; x++)
    EXPECT_EQ(at(dst, 0, x, 3), x > 0 ? 10 * x - 3 : 0) << x;

  // Falling 200 - 10 x, dx = 5/16: (5 * -10 + 8) >> 4 = -42 >> 4 = -3.
  test::fill(src, [](int, int x, int) { return uint8_t(200 - 10 * x); });
  translate(dst, src, 5.0 / 16, 0.0, McFilter::Bilinear);
  for (int x = 0; x < 16; x++)
    EXPECT_EQ(at(dst, 0, x, 5), x < 15 ? 197 - 10 * x : 50) << x;

  // 5 x + 10 y, dx = dy = 1/2: rows gain (8 * 5 + 8) >> 4 = 3, then the
  // column gains (8 * 10 + 8) >> 4 = 5, except on the clamped last
  // column / row.
  test::fill(src, [](int, int x, int y) { return uint8_t(5 * x + 10 * y); });
  translate(dst, src, 0.5, 0.5, McFilter::Bilinear);
  for (int y = 0; y < 8; y++)
    for (int x = 0; x < 16; x++)
      EXPECT_EQ(at(dst, 0, x, y),
                5 * x + 10 * y + (x < 15 ? 3 : 0) + (y < 7 ? 5 : 0))
          << x << "," << y;
  EXPECT_TRUE(test::guards_intact(dst));
}

// I420 dx = 1/32: luma phase 1 (round(0.5) = 1), chroma round(0.25) = 0.
TEST(McKnownAnswer, ChromaRoundsOnItsOwnGrid) {
  std::mt19937 gen = test::rng(1);
  Image src(PixelFormat::I420, 17, 9, 2), dst(PixelFormat::I420, 17, 9, 2);
  blank(dst);
  Image luma(PixelFormat::GRAY8, 17, 9, 2), want(PixelFormat::GRAY8, 17, 9, 2);
  test::fill_random(src, gen);
  test::fill(luma,
             [&](int, int x, int y) { return uint8_t(at(src, 0, x, y)); });
  translate(dst, src, 1.0 / 32, 0.0, McFilter::Sharp);
  shift_plane(want, luma, {0, 0, 1, 0}, McFilter::Sharp);
  for (int y = 0; y < 9; y++)
    for (int x = 0; x < 17; x++)
      ASSERT_EQ(at(dst, 0, x, y), at(want, 0, x, y)) << x << "," << y;
  for (int p = 1; p < 3; p++)
    for (int y = 0; y < 5; y++)
      for (int x = 0; x < 9; x++)
        ASSERT_EQ(at(dst, p, x, y), at(src, p, x, y)) << p;
  EXPECT_TRUE(test::guards_intact(dst));
}

// ------------------------------------------------- properties

TEST(McProperty, IntegerShiftsAreClampedCopies) {
  std::mt19937 gen = test::rng(2);
  for (auto [w, h] : {std::pair{1, 1}, {7, 5}, {17, 9}}) {
    Image src(PixelFormat::GRAY8, w, h, 3), dst(PixelFormat::GRAY8, w, h, 3);
    blank(dst);
    test::fill_random(src, gen);
    const int shifts[] = {0, 1, -1, 3, -5, w, -w, h + 7, -h - 7, 4096, -4096};
    for (McFilter filter : kMcFilters)
      for (int ix : shifts)
        for (int iy : shifts) {
          shift_plane(dst, src, {ix, iy, 0, 0}, filter);
          for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
              ASSERT_EQ(at(dst, 0, x, y), clamped(src, 0, x + ix, y + iy))
                  << name(filter) << " " << w << "x" << h << " shift " << ix
                  << "," << iy << " at " << x << "," << y;
          ASSERT_TRUE(test::guards_intact(dst));
        }
  }
}

// Even luma integers are integers on every plane.
TEST(McProperty, EvenIntegerTranslationCopiesEveryPlane) {
  std::mt19937 gen = test::rng(3);
  for (PixelFormat format : kAllPixelFormats) {
    Image src(format, 7, 5, 2), dst(format, 7, 5, 2);
    blank(dst);
    test::fill_random(src, gen);
    for (McFilter filter : kMcFilters)
      for (auto [dx, dy] : {std::pair{2.0, -4.0}, {-6.0, 0.0}, {4096.0, 2.0}}) {
        translate(dst, src, dx, dy, filter);
        const ConstFrame f = src.frame();
        for (int p = 0; p < f.num_planes; p++) {
          const int sx = p ? f.chroma_shift_x : 0,
                    sy = p ? f.chroma_shift_y : 0;
          const int ix = int(dx) >> sx, iy = int(dy) >> sy;
          for (int y = 0; y < f.planes[p].height; y++)
            for (int x = 0; x < f.planes[p].width; x++)
              ASSERT_EQ(at(dst, p, x, y), clamped(src, p, x + ix, y + iy))
                  << describe(src, filter, dx, dy) << " plane " << p;
        }
        ASSERT_TRUE(test::guards_intact(dst));
      }
  }
}

McPlaneShift random_shift(std::mt19937& gen) {
  std::uniform_int_distribution<int> i(-6, 6), f(0, 15);
  return {i(gen), i(gen), f(gen), f(gen)};
}

// Adding (n, m) to the integer part moves the sampling window, nothing
// else: out'(x, y) = out(x + n, y + m) wherever (x + n, y + m) is inside.
TEST(McProperty, IntegerPartOnlyMovesTheWindow) {
  std::mt19937 gen = test::rng(4);
  Image src(PixelFormat::GRAY8, 17, 9, 3);
  Image a(PixelFormat::GRAY8, 17, 9, 3), b(PixelFormat::GRAY8, 17, 9, 3);
  test::fill_random(src, gen);
  for (McFilter filter : kMcFilters)
    for (int trial = 0; trial < 40; trial++) {
      const McPlaneShift s = random_shift(gen);
      const int n = trial % 7 - 3, m = trial % 5 - 2;
      shift_plane(a, src, s, filter);
      shift_plane(b, src, {s.ix + n, s.iy + m, s.fx, s.fy}, filter);
      for (int y = 0; y < 9; y++)
        for (int x = 0; x < 17; x++) {
          if (x + n < 0 || x + n >= 17 || y + m < 0 || y + m >= 9) continue;
          ASSERT_EQ(at(b, 0, x, y), at(a, 0, x + n, y + m))
              << name(filter) << " f=" << s.fx << "," << s.fy << " i=" << s.ix
              << "," << s.iy << " +" << n << "," << m;
        }
    }
  // The same through mc_frame: 0.3 -> m = 5, 2.3 -> m = 37 = 5 + 32.
  translate(a, src, 0.3, -0.7, McFilter::Regular);
  translate(b, src, 2.3, -1.7, McFilter::Regular);
  for (int y = 1; y < 9; y++)
    for (int x = 0; x < 15; x++)
      ASSERT_EQ(at(b, 0, x, y), at(a, 0, x + 2, y - 1)) << x << "," << y;
}

TEST(McProperty, NoopLeavesEveryPlaneUnchanged) {
  std::mt19937 gen = test::rng(5);
  for (PixelFormat format : kAllPixelFormats) {
    Image src(format, 17, 9, 2), dst(format, 17, 9, 2);
    test::fill_random(src, gen);
    for (McFilter filter : kMcFilters) {
      for (auto [dx, dy] :
           {std::pair{0.0, 0.0}, {0.03, -0.031}, {-0.0, 1e-9}}) {
        ASSERT_TRUE(mc_is_noop({dx, dy, filter}));
        blank(dst);
        translate(dst, src, dx, dy, filter);
        ASSERT_EQ(test::first_difference(src, dst), "")
            << describe(src, filter, dx, dy);
        ASSERT_TRUE(test::guards_intact(dst));
      }
      // Just past the threshold, luma moves by 1/16.
      ASSERT_FALSE(mc_is_noop({1.0 / 32, 0.0, filter}));
      translate(dst, src, 1.0 / 32, 0.0, filter);
      EXPECT_FALSE(src.same_samples(dst)) << describe(src, filter, 1.0 / 32, 0);
    }
  }
}

// Marks every sample, so that rows left unwritten can be recognised.
constexpr uint8_t kUnwritten = 0x5A;

bool rows_unwritten(const Image& image, int y_begin, int y_end) {
  const ConstPlane& p = image.frame().planes[0];
  for (int y = y_begin; y < y_end; y++)
    for (int x = 0; x < p.width; x++)
      if (p.at(x, y) != kUnwritten) return false;
  return true;
}

// [0, k) then [k, h), and [k, h) then [0, k), each equal to [0, h), and no
// call writes outside its rows.
TEST(McProperty, RowRangesCompose) {
  std::mt19937 gen = test::rng(6);
  const McDsp dsp = ref_dsp();
  Image src(PixelFormat::GRAY8, 13, 17, 3);
  Image whole(PixelFormat::GRAY8, 13, 17, 3),
      split(PixelFormat::GRAY8, 13, 17, 3);
  test::fill_random(src, gen);
  const ConstPlane in = src.frame().planes[0];
  const Plane out = split.frame().planes[0];
  for (McFilter filter : kMcFilters)
    for (int trial = 0; trial < 4; trial++) {
      const McPlaneShift s = random_shift(gen);
      dsp.rows(whole.frame().planes[0], in, s, filter, 0, 17);
      for (int k = 0; k <= 17; k++) {
        SCOPED_TRACE(name(filter) + " k=" + std::to_string(k));
        test::fill(split, [](int, int, int) { return kUnwritten; });
        dsp.rows(out, in, s, filter, 0, k);
        ASSERT_TRUE(rows_unwritten(split, k, 17));
        dsp.rows(out, in, s, filter, k, 17);
        ASSERT_EQ(test::first_difference(whole, split), "");

        test::fill(split, [](int, int, int) { return kUnwritten; });
        dsp.rows(out, in, s, filter, k, 17);
        ASSERT_TRUE(rows_unwritten(split, 0, k));
        dsp.rows(out, in, s, filter, 0, k);
        ASSERT_EQ(test::first_difference(whole, split), "");
        ASSERT_TRUE(test::guards_intact(split));
      }
    }
}

TEST(McProperty, SemiPlanarChromaMatchesPlanar) {
  std::mt19937 gen = test::rng(7);
  std::uniform_real_distribution<double> d(-5.0, 5.0);
  const auto value = [](int p, int x, int y) {
    return uint8_t((p * 71 + x * 37 + y * y * 13 + x * y * 5) & 255);
  };
  for (PixelFormat semi : {PixelFormat::NV12, PixelFormat::NV21})
    for (auto [w, h] : {std::pair{7, 5}, {17, 9}}) {
      Image planar_src(PixelFormat::I420, w, h, 1),
          planar(PixelFormat::I420, w, h, 1);
      Image semi_src(semi, w, h, 3), semi_dst(semi, w, h, 3);
      blank(semi_dst);
      test::fill(planar_src, value);
      test::fill(semi_src, value);
      for (McFilter filter : kMcFilters)
        for (int trial = 0; trial < 4; trial++) {
          const double dx = d(gen), dy = d(gen);
          translate(planar, planar_src, dx, dy, filter);
          translate(semi_dst, semi_src, dx, dy, filter);
          ASSERT_TRUE(planar.same_samples(semi_dst))
              << describe(semi_dst, filter, dx, dy);
          ASSERT_TRUE(test::guards_intact(semi_dst));
        }
    }
}

// A second formulation to hold the reference against: VP9's uniform
// two-pass put_8tap over an edge-extended copy of the plane. Both passes
// always run (a zero fraction is the identity phase {0,0,0,128,0,0,0,0})
// and bilinear is the 8-tap phase {0,0,0,128-8f,8f,0,0,0}. It equals
// docs/spec.md because (128 v + 64) >> 7 = v and
// (a (128 - 8f) + b 8f + 64) >> 7 = a + ((f (b - a) + 8) >> 4).
std::vector<uint8_t> put_8tap_model(const ConstPlane& p, const McPlaneShift& s,
                                    McFilter filter) {
  const auto tap = [&](int f, int k) {
    if (filter == McFilter::Bilinear)
      return k == 3 ? 128 - 8 * f : k == 4 ? 8 * f : 0;
    return int(kVp9Filters[static_cast<int>(filter)][f][k]);
  };
  const int margin = std::max(std::abs(s.ix), std::abs(s.iy)) + 8;
  const int ew = p.width + 2 * margin, eh = p.height + 2 * margin;
  std::vector<int> ext(size_t(ew) * eh);
  for (int y = 0; y < eh; y++)
    for (int x = 0; x < ew; x++)
      ext[size_t(y) * ew + x] = p.at(std::clamp(x - margin, 0, p.width - 1),
                                     std::clamp(y - margin, 0, p.height - 1));
  const auto e = [&](int x, int y) {
    return ext[size_t(y + margin) * ew + x + margin];
  };
  std::vector<uint8_t> out(size_t(p.width) * p.height);
  for (int y = 0; y < p.height; y++)
    for (int x = 0; x < p.width; x++) {
      int mid[8];
      for (int r = 0; r < 8; r++) {
        int sum = 0;
        for (int k = 0; k < 8; k++)
          sum += tap(s.fx, k) * e(x + s.ix + k - 3, y + s.iy + r - 3);
        mid[r] = std::clamp((sum + 64) >> 7, 0, 255);
      }
      int sum = 0;
      for (int r = 0; r < 8; r++) sum += tap(s.fy, r) * mid[r];
      out[size_t(y) * p.width + x] =
          uint8_t(std::clamp((sum + 64) >> 7, 0, 255));
    }
  return out;
}

// Shifts drawn to include halves of 1/16 (where chroma's rounding is not
// luma's halved) as well as arbitrary reals.
double random_d(std::mt19937& gen) {
  switch (std::uniform_int_distribution<int>(0, 2)(gen)) {
    case 0:
      return std::uniform_int_distribution<int>(-96, 96)(gen) / 32.0;
    case 1:
      return std::uniform_real_distribution<double>(-3.0, 3.0)(gen);
    default:
      return std::uniform_real_distribution<double>(-40.0, 40.0)(gen);
  }
}

TEST(McProperty, EveryFormatMatchesThePut8tapModel) {
  std::mt19937 gen = test::rng(8);
  for (PixelFormat format : kAllPixelFormats)
    for (auto [w, h] : {std::pair{1, 1}, {7, 5}, {17, 9}, {33, 65}}) {
      Image src(format, w, h, 3), dst(format, w, h, 3);
      blank(dst);
      test::fill_random(src, gen);
      for (McFilter filter : kMcFilters)
        for (int trial = 0; trial < 5; trial++) {
          const double dx = random_d(gen), dy = random_d(gen);
          translate(dst, src, dx, dy, filter);
          const ConstFrame f = src.frame();
          for (int p = 0; p < f.num_planes; p++) {
            const McPlaneShift s = mc_plane_shift(
                dx, dy, p ? f.chroma_shift_x : 0, p ? f.chroma_shift_y : 0);
            const std::vector<uint8_t> want =
                put_8tap_model(f.planes[p], s, filter);
            for (int y = 0; y < f.planes[p].height; y++)
              for (int x = 0; x < f.planes[p].width; x++)
                ASSERT_EQ(at(dst, p, x, y),
                          want[size_t(y) * f.planes[p].width + x])
                    << describe(src, filter, dx, dy) << " plane " << p << " at "
                    << x << "," << y;
          }
          ASSERT_TRUE(test::guards_intact(dst));
          ASSERT_TRUE(test::guards_intact(src));
        }
    }
}

// Far past the right and top edges every tap reads the top-right sample.
TEST(McProperty, HugeShiftsReplicateTheCorner) {
  std::mt19937 gen = test::rng(9);
  for (PixelFormat format : kAllPixelFormats)
    for (auto [w, h] : {std::pair{1, 1}, {7, 5}}) {
      Image src(format, w, h, 2), dst(format, w, h, 2);
      blank(dst);
      test::fill_random(src, gen);
      for (McFilter filter : kMcFilters)
        for (auto [dx, dy] : {std::pair{4095.7, -4095.3}, {4096.0, -4096.0}}) {
          translate(dst, src, dx, dy, filter);
          const ConstFrame f = src.frame();
          for (int p = 0; p < f.num_planes; p++)
            for (int y = 0; y < f.planes[p].height; y++)
              for (int x = 0; x < f.planes[p].width; x++)
                ASSERT_EQ(at(dst, p, x, y),
                          at(src, p, f.planes[p].width - 1, 0))
                    << describe(src, filter, dx, dy) << " plane " << p;
          ASSERT_TRUE(test::guards_intact(dst));
        }
    }
}

}  // namespace
}  // namespace daedalus
