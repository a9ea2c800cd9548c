// The SIMD CDEF block rows against the reference where the shared harness
// (tests/kernels/harness: every size, format, strength and damping, random
// and adversarial content, rows against inaccessible pages, on every
// target) does not reach: taps outside the plane and their clip, every
// direction, bands in any order, chroma planes of their own size, negative
// strides, and the stripes' known answer. Once per Highway target, on
// 8-bit and 10-bit frames (docs/spec.md "High bit depth": 10-bit inputs
// carry random bits outside their values, which must count for nothing,
// and outputs must have them 0).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "cdef_known_answers.h"
#include "daedalus/cdef.h"
#include "simd_targets.h"
#include "test_util.h"

namespace daedalus {
namespace {

DAEDALUS_SIMD_TEST_SUITE(CdefSimd);

struct Dsps {
  CdefDsp ref, simd;
  Dsps() {
    cdef_dsp_init_ref(&ref);
    cdef_dsp_init(&simd);
  }
};

std::string describe(const Image& src, const CdefParams& p) {
  return std::string(pixel_format_name(src.format())) + " " +
         std::to_string(src.width()) + "x" + std::to_string(src.height()) +
         " pri " + std::to_string(p.pri_strength) + " sec " +
         std::to_string(p.sec_strength) + " uv " +
         std::to_string(p.uv_pri_strength) + "/" +
         std::to_string(p.uv_sec_strength) + " damping " +
         std::to_string(p.damping);
}

// Both implementations on the whole frame, into differently pre-filled
// destinations with guard bytes: equal samples and intact guards. 10-bit
// destinations start with random bits outside the values too, which must
// come out 0.
testing::AssertionResult same_output(const Dsps& dsps, const Image& src,
                                     const CdefParams& params, int pad,
                                     std::mt19937& gen) {
  Image want(src.format(), src.width(), src.height(), pad);
  Image got(src.format(), src.width(), src.height(), pad);
  test::fill(want, [](int, int, int) { return uint8_t(0x5A); });
  test::fill_random(got, gen);
  test::set_outside_bits(got, gen);
  cdef_frame(dsps.ref, want.frame(), src.frame(), params);
  cdef_frame(dsps.simd, got.frame(), src.frame(), params);
  const std::string diff = test::first_difference(want, got);
  if (!diff.empty())
    return testing::AssertionFailure()
           << diff << " (" << describe(src, params) << ")";
  if (!test::guards_intact(got))
    return testing::AssertionFailure()
           << "guard bytes written (" << describe(src, params) << ")";
  return testing::AssertionSuccess();
}

using Fill = std::function<int(int, int, int)>;

// The largest sample value of the image's depth, and how many times 8 bits'
// that range is.
int max_of(const Image& image) { return image.frame().planes[0].max_value(); }
int scale_of(const Image& image) { return (max_of(image) + 1) >> 8; }

// Content kinds, scaled to the depth: random, near-flat around thresholds,
// mid-spread, smooth gradients with texture (large, varied variances and
// directions), blocks of flat levels; 10-bit images also get random bits
// outside their values.
void fill_content(Image& image, std::mt19937& gen, int kind) {
  const int s = scale_of(image), max = max_of(image);
  switch (kind % 5) {
    case 0:
      test::fill_random(image, gen);
      break;
    case 1:
      test::fill_near(image, gen, 128 * s, 6 * s);
      break;
    case 2:
      test::fill_near(image, gen, 60 * s, 24 * s);
      break;
    case 3:
      test::fill_blocky(image, gen, 8, 128 * s, 15 * s);
      break;
    default: {
      const int a = int(gen() % 7) - 3, b = int(gen() % 7) - 3;
      const uint32_t salt = gen();
      test::fill(image, [=](int p, int x, int y) {
        const uint32_t h = (uint32_t(x) * 0x9E3779B1u) ^
                           (uint32_t(y) * 0x85EBCA6Bu) ^ (uint32_t(p) << 28) ^
                           salt;
        return std::clamp((128 + a * x + b * y + int(h >> 29) * 3 - 10) * s, 0,
                          max);
      });
      break;
    }
  }
  test::set_outside_bits(image, gen);
}

// Frames of one or two blocks: every block has taps outside the plane, where
// the SIMD code stages a stand-in value that must count for nothing, with
// every strength and damping (hence every shift), next to samples of 0 and
// the largest value (the extreme distances to the stand-in).
TEST_P(CdefSimd, UnavailableTapsEveryStrength) {
  const Dsps dsps;
  if (GetParam() != HWY_SCALAR) {  // which keeps the reference's leaves
    ASSERT_NE(dsps.simd.bd8.filter[kCdef8x8], dsps.ref.bd8.filter[kCdef8x8]);
    ASSERT_NE(dsps.simd.bd10.filter[kCdef8x8], dsps.ref.bd10.filter[kCdef8x8]);
  }
  std::mt19937 gen = test::rng(108);
  auto fills = [](int m) -> std::vector<Fill> {
    return {
        [](int, int, int) { return 0; },
        [=](int, int, int) { return m; },
        [=](int, int x, int y) { return (x ^ y) & 1 ? m : 0; },
        [=](int p, int x, int y) {
          return x < 2 || y < 2 ? m * (p & 1) : (m + 1) / 2;
        },
    };
  };
  const int sizes[][2] = {{8, 8}, {16, 8}, {9, 10}};
  const std::vector<PixelFormat> formats = test::all_pixel_formats();
  for (int pri = 0; pri <= 15; pri++)
    for (int sec = 0; sec <= 4; sec++)
      for (int damping = 3; damping <= 6; damping++) {
        const int* size = sizes[(pri + sec + damping) % 3];
        const PixelFormat format =
            formats[(pri * 5 + sec + damping) % formats.size()];
        Image src(format, size[0], size[1], 2);
        test::fill(src, fills(max_of(src))[(pri + damping) % 4]);
        ASSERT_TRUE(
            same_output(dsps, src, {pri, sec, pri, sec, damping}, 2, gen));
        fill_content(src, gen, 0);
        ASSERT_TRUE(same_output(
            dsps, src, {pri, sec, 15 - pri, 4 - sec, damping}, 2, gen));
      }
}

// Isolated dips and peaks of 4 on a flat background, at every distance from
// the borders: with both tap kinds on and strengths that pass the whole
// difference, the sum overshoots and is clipped to the range of the
// available taps (chroma strengths are not adjusted by the flat luma's zero
// variance).
TEST_P(CdefSimd, ClipToAvailableTaps) {
  const Dsps dsps;
  std::mt19937 gen = test::rng(109);
  for (PixelFormat format : kAllPixelFormats)
    for (int ox = 0; ox < 5; ox++)
      for (int oy = 0; oy < 5; oy++)
        for (int delta : {-4, 4}) {
          Image src(format, 18 + ox, 13 + oy, 1);
          test::fill(src, [&](int, int x, int y) {
            return uint8_t(132 + (x % 5 == ox && y % 5 == oy ? delta : 0));
          });
          const int pri = 4 + int(gen() % 12), sec = 2 + int(gen() % 3);
          ASSERT_TRUE(same_output(
              dsps, src, {pri, sec, pri, sec, 5 + (ox + oy) % 2}, 0, gen));
        }
}

// Blocks constant along the lines of each direction (one direction per
// block, all 8 in a row, in every 4:2:2 remap too) with strong variances.
TEST_P(CdefSimd, EveryDirection) {
  const Dsps dsps;
  std::mt19937 gen = test::rng(104);
  for (PixelFormat format : test::all_pixel_formats())
    for (int amp : {1, 3, 9}) {
      const int shift = int(gen() % 8);
      Image src(format, 64, 32, 2);
      const int s = scale_of(src);
      test::fill(src, [&](int p, int x, int y) {
        const int dir = ((x >> 3) + shift + (y >> 3)) & 7;
        return std::clamp(
            (128 + amp * (test::cdef_line_of(dir, y & 7, x & 7) - 7) +
             (p ? 5 : 0)) *
                s,
            0, max_of(src));
      });
      for (int round = 0; round < 3; round++)
        ASSERT_TRUE(
            same_output(dsps, src, test::random_cdef_params(gen), 2, gen));
      ASSERT_TRUE(same_output(dsps, src, {15, 4, 15, 4, 6}, 2, gen));
    }
}

TEST_P(CdefSimd, BandsInAnyOrder) {
  const Dsps dsps;
  std::mt19937 gen = test::rng(105);
  for (PixelFormat format : kAllPixelFormats) {
    Image src(format, 57, 75, 4);
    fill_content(src, gen, int(gen() % 4));
    const CdefParams params = test::random_cdef_params(gen);
    Image want(format, 57, 75, 4);
    cdef_frame(dsps.ref, want.frame(), src.frame(), params);
    const int n = cdef_block_rows(src.frame());
    for (int round = 0; round < 6; round++) {
      // Random cut points, bands run from last to first.
      std::vector<int> cuts = {0, n};
      for (int k = 0; k < 3; k++) cuts.push_back(int(gen() % (n + 1)));
      std::sort(cuts.begin(), cuts.end());
      Image got(format, 57, 75, 4);
      test::fill_random(got, gen);
      for (size_t k = cuts.size() - 1; k > 0; k--)
        cdef_filter_rows(dsps.simd, got.frame(), src.frame(), params,
                         cuts[k - 1], cuts[k]);
      ASSERT_EQ(test::first_difference(want, got), "") << describe(src, params);
      ASSERT_TRUE(test::guards_intact(got));
    }
    // A band writes its rows and nothing else.
    Image got(format, 57, 75, 4);
    test::fill(got, [](int, int, int) { return uint8_t(0x33); });
    cdef_filter_rows(dsps.simd, got.frame(), src.frame(), params, 3, 6);
    const ConstFrame g = got.frame(), w = want.frame();
    for (int p = 0; p < g.num_planes; p++) {
      const int sy = p ? g.chroma_shift_y : 0;
      for (int y = 0; y < g.planes[p].height; y++)
        for (int x = 0; x < g.planes[p].width; x++) {
          const bool in = y >= (24 >> sy) && y < (48 >> sy);
          ASSERT_EQ(g.planes[p].at(x, y), in ? w.planes[p].at(x, y) : 0x33)
              << pixel_format_name(format) << " plane " << p << " " << x << ","
              << y;
        }
    }
  }
}

// Chroma planes smaller than the luma implies (as a caller may pass), also of
// different sizes: blocks outside their own plane are copied (those of a
// pair outside one plane go through a spill buffer: P010 shifted there too).
TEST_P(CdefSimd, ChromaPlanesOfTheirOwnSize) {
  const Dsps dsps;
  std::mt19937 gen = test::rng(106);
  for (PixelFormat format :
       {PixelFormat::I420, PixelFormat::Y42B, PixelFormat::Y444,
        PixelFormat::NV12, PixelFormat::I420_10LE, PixelFormat::I422_10LE,
        PixelFormat::Y444_10LE, PixelFormat::P010_10LE}) {
    for (int round = 0; round < 8; round++) {
      Image src(format, 48, 40, 4);
      fill_content(src, gen, round);
      const CdefParams params = test::random_cdef_params(gen);
      Image want(format, 48, 40, 4), got(format, 48, 40, 4);
      test::fill(want, [](int, int, int) { return uint8_t(1); });
      test::fill(got, [](int, int, int) { return uint8_t(1); });
      ConstFrame s = src.frame();
      Frame a = want.frame(), b = got.frame();
      for (int p = 1; p < 3; p++) {
        const int w = s.planes[p].width - int(gen() % 9);
        const int h = s.planes[p].height - int(gen() % 9);
        s.planes[p].width = a.planes[p].width = b.planes[p].width = w;
        s.planes[p].height = a.planes[p].height = b.planes[p].height = h;
      }
      cdef_frame(dsps.ref, a, s, params);
      cdef_frame(dsps.simd, b, s, params);
      for (int p = 0; p < 3; p++)
        for (int y = 0; y < src.height(); y++)
          for (int x = 0; x < src.width(); x++) {
            if (x >= a.planes[p].width || y >= a.planes[p].height) continue;
            ASSERT_EQ(value_at(a.planes[p], x, y), value_at(b.planes[p], x, y))
                << describe(src, params) << " plane " << p << " " << x << ","
                << y << " of " << a.planes[p].width << "x"
                << a.planes[p].height;
          }
      // Samples beyond the narrowed planes are left alone.
      ASSERT_TRUE(got.same_samples(want)) << describe(src, params);
    }
  }
}

// A plane whose data is only reachable through a negative stride (bottom-up).
TEST_P(CdefSimd, NegativeStride) {
  const Dsps dsps;
  std::mt19937 gen = test::rng(107);
  for (PixelFormat format : {PixelFormat::I420, PixelFormat::NV12,
                             PixelFormat::I420_10LE, PixelFormat::P010_10LE}) {
    Image src(format, 70, 34, 6);
    fill_content(src, gen, 0);
    const CdefParams params = {9, 2, 6, 4, 4};
    Image want(format, 70, 34, 6), got(format, 70, 34, 6);
    auto flip = [](auto f) {
      for (int p = 0; p < f.num_planes; p++) {
        f.planes[p].data += (f.planes[p].height - 1) * f.planes[p].stride;
        f.planes[p].stride = -f.planes[p].stride;
      }
      return f;
    };
    cdef_frame(dsps.ref, flip(want.frame()), flip(src.frame()), params);
    cdef_frame(dsps.simd, flip(got.frame()), flip(src.frame()), params);
    ASSERT_EQ(test::first_difference(want, got), "") << describe(src, params);
  }
}

// The example of CdefFrame.StripesKnownAnswer (cdef_frame_test.cc), worked by
// hand there: rows 0-3 = 130, rows 4-7 = 126, pri 4 (adjusted to 1, along the
// rows: no effect), sec 4, damping 6.
TEST_P(CdefSimd, StripesKnownAnswer) {
  const Dsps dsps;
  Image src(PixelFormat::GRAY8, 8, 8, 3), out(PixelFormat::GRAY8, 8, 8, 3);
  test::fill_stripes(src);
  test::fill(out, [](int, int, int) { return uint8_t(0); });
  cdef_frame(dsps.simd, out.frame(), src.frame(), {4, 3, 0, 0, 6});
  for (int y = 0; y < 8; y++)
    for (int x = 0; x < 8; x++)
      EXPECT_EQ(out.frame().planes[0].at(x, y), test::kStripesFiltered[y][x])
          << x << "," << y;
  EXPECT_TRUE(test::guards_intact(out));
}

}  // namespace
}  // namespace daedalus
