// The scalar deblock reference (mode=h264 and vp9; mode=dct's answers are in
// deblock_dct_hbd_test.cc, its storage rule here) on 10-bit planes against
// answers worked by hand from docs/spec.md "High bit depth": what differs
// from 8 bits (alpha, beta, tc0 and VP9's limit, blimit, thresh and flat
// bound scaled by 4, the unscaled + 1 and (ap < beta) + (aq < beta), the
// clipping to 1023, VP9's signed range +-512) and the storage of the values
// (bits outside them ignored, written 0; P010's in the high bits).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "daedalus/deblock.h"
#include "deblock_test_helpers.h"
#include "test_util.h"

namespace daedalus {
namespace {

using deblock_test::deblock_plane;

// One row per line of `rows` (all of one length) in luma of a Y444_10LE
// image; the block size puts one edge in the middle of each.
Image lines_image(const std::vector<std::vector<int>>& rows,
                  PixelFormat format = PixelFormat::Y444_10LE) {
  const int w = int(rows[0].size()), h = int(rows.size());
  Image image(format, w, h, 2);
  test::fill(image, [&](int p, int x, int y) {
    return p == 0 ? rows[size_t(y)][size_t(x)] : 512;
  });
  return image;
}

// Luma row y as values.
std::vector<int> row(const Image& image, int y) {
  const ConstPlane luma = image.frame().planes[0];
  std::vector<int> out;
  for (int x = 0; x < luma.width; x++) out.push_back(value_at(luma, x, y));
  return out;
}

using Row = std::vector<int>;

// The 8-bit units of the table values: alpha 20, beta 6, tc0 1 (qp about
// 30) give 80, 24 and 4 at 10 bits. Block size 4 and 8 samples: one
// vertical edge, at 4, and no horizontal one (rows of 1 or 2 samples).
const DeblockPlaneParams kNormal = test::plane_params(20, 6, 1, 2, false, 4);

// p 400 | q 440: |p0 - q0| = 40 is under the scaled alpha 80 (over the 8-bit
// 20); ap = aq = 0 < 24, so tc = 4 + 1 + 1 = 6 (not 4 << 2 plus the scaled
// ones: 12). delta = clip3(-6, 6, (160 - 40 + 4) >> 3 = 15) = 6; p1 moves by
// clip3(-4, 4, (400 + 420 - 800) >> 1 = 10) = 4, q1 by -4.
TEST(DeblockHbd, H264ThresholdsAndTc0Scaled) {
  Image image = lines_image({{400, 400, 400, 400, 440, 440, 440, 440}});
  deblock_plane(image.frame().planes[0], kNormal);
  EXPECT_EQ(row(image, 0), (Row{400, 400, 404, 406, 434, 436, 440, 440}));
}

// |p0 - q0| = 79 < 80 is filtered (delta (316 - 79 + 4) >> 3 = 30, clipped
// to 6; p1 by clip3(-4, 4, (400 + 440 - 800) >> 1) = 4, q1 by -4); 80 is not.
// |p1 - p0| = 23 < 24 is filtered, 24 is not.
TEST(DeblockHbd, H264AlphaAndBetaBoundaries) {
  Image image = lines_image({{400, 400, 400, 400, 479, 479, 479, 479},
                             {400, 400, 400, 400, 480, 480, 480, 480},
                             {400, 400, 423, 400, 440, 440, 440, 440},
                             {400, 400, 424, 400, 440, 440, 440, 440}});
  deblock_plane(image.frame().planes[0], kNormal);
  EXPECT_EQ(row(image, 0), (Row{400, 400, 404, 406, 473, 475, 479, 479}));
  EXPECT_EQ(row(image, 1), (Row{400, 400, 400, 400, 480, 480, 480, 480}));
  // ap = 0: tc 6, delta = (160 + 423 - 440 + 4) >> 3 = 18 -> 6; p1 by
  // clip3(-4, 4, (400 + 420 - 846) >> 1 = -13) = -4.
  EXPECT_EQ(row(image, 2), (Row{400, 400, 419, 406, 434, 436, 440, 440}));
  EXPECT_EQ(row(image, 3), (Row{400, 400, 424, 400, 440, 440, 440, 440}));
}

// bs 4: the strong filter where |p0 - q0| < (80 >> 2) + 2 = 22 (8-bit
// alpha's (20 >> 2) + 2 = 7 would take the weak one):
//   gap 20 (p 100, q 120): p0' = (100 + 200 + 200 + 240 + 120 + 4) >> 3 = 108,
//   p1' = (300 + 120 + 2) >> 2 = 105, p2' = (200 + 300 + 200 + 120 + 4) >> 3
//   = 103; q0' = (120 + 240 + 240 + 200 + 100 + 4) >> 3 = 113, q1' = 115,
//   q2' = (240 + 360 + 240 + 100 + 4) >> 3 = 118;
//   gap 22: p0' = (200 + 100 + 122 + 2) >> 2 = 106, q0' = (244 + 122 + 100
//   + 2) >> 2 = 117.
TEST(DeblockHbd, H264StrongFilterGapFromScaledAlpha) {
  Image image = lines_image({{100, 100, 100, 100, 120, 120, 120, 120},
                             {100, 100, 100, 100, 122, 122, 122, 122}});
  deblock_plane(image.frame().planes[0],
                test::plane_params(20, 6, 0, 4, false, 4));
  EXPECT_EQ(row(image, 0), (Row{100, 103, 105, 108, 113, 115, 118, 120}));
  EXPECT_EQ(row(image, 1), (Row{100, 100, 100, 106, 117, 122, 122, 122}));
}

// Clipping to 1023 and 0: beta 18 -> 72, tc0 2 -> 8, tc 10.
//   p 1023 | q0 1023, q1 990: delta = (0 + 33 + 4) >> 3 = 4, p0' = 1027 ->
//   1023, q0' = 1019; q1 by clip3(-8, 8, (1023 + 1023 - 1980) >> 1 = 33) = 8.
//   The mirror image at 0: delta = (0 - 33 + 4) >> 3 = -4, p0' = -4 -> 0,
//   q0' = 4; q1 by -8.
TEST(DeblockHbd, H264ClipsTo1023) {
  Image image = lines_image({{1023, 1023, 1023, 1023, 1023, 990, 1023, 1023},
                             {0, 0, 0, 0, 0, 33, 0, 0}});
  deblock_plane(image.frame().planes[0],
                test::plane_params(20, 18, 2, 2, false, 4));
  EXPECT_EQ(row(image, 0),
            (Row{1023, 1023, 1023, 1023, 1019, 998, 1023, 1023}));
  EXPECT_EQ(row(image, 1), (Row{0, 0, 0, 0, 4, 25, 0, 0}));
}

// The chroma filter's tc = tc0 + 1 with tc0 scaled, the 1 not: 4 + 1 = 5
// (not 8), so delta = clip3(-5, 5, 15) = 5 on p 400 | q 440.
TEST(DeblockHbd, H264ChromaAddsAnUnscaledOne) {
  Image image = lines_image({{400, 400, 400, 400, 440, 440, 440, 440}});
  deblock_plane(image.frame().planes[0],
                test::plane_params(20, 6, 1, 2, true, 4));
  EXPECT_EQ(row(image, 0), (Row{400, 400, 400, 405, 435, 440, 440, 440}));
}

// mode=vp9 at level 10, sharpness 0: limit 10, blimit 34, thresh 0 in 8-bit
// units, 40, 136 and 0 at 10 bits.
DeblockPlaneParams vp9(int level, int block) {
  return deblock_plane_params(test::vp9_params(level, 0, block), false, false);
}

// Width 4 (the 4-tap filter), p 500 | q 554: |p0 - q0| * 2 + (|p1 - q1| >>
// 1) = 108 + 27 = 135 <= 136 passes, q 555's 137 does not. Not hev (0 > 0
// is false). ps0 = ps1 = -12, qs0 = qs1 = 42; f = c(3 * 54) = 162 (8-bit's
// c would clip it to 127); f1 = 166 >> 3 = 20, f2 = 165 >> 3 = 20; q0' =
// 42 - 20 + 512 = 534, p0' = 520; f = (20 + 1) >> 1 = 10: q1' = 544, p1' =
// 510.
TEST(DeblockHbd, Vp9BlimitScaledAndSignedRange) {
  Image image = lines_image({{500, 500, 500, 500, 554, 554, 554, 554},
                             {500, 500, 500, 500, 555, 555, 555, 555}});
  deblock_plane(image.frame().planes[0], vp9(10, 4));
  EXPECT_EQ(row(image, 0), (Row{500, 500, 510, 520, 534, 544, 554, 554}));
  EXPECT_EQ(row(image, 1), (Row{500, 500, 500, 500, 555, 555, 555, 555}));
}

// c() clips at -512 and 511: level 63 (limit 252, blimit 772, thresh 12),
// p 300 | q 600: 600 + 150 = 750 passes; ps0 = -212, qs0 = 88; f =
// c(3 * 300 = 900) = 511, f1 = c(515) >> 3 = 63, f2 = c(514) >> 3 = 63:
// q0' = 88 - 63 + 512 = 537, p0' = 363; f = 32: q1' = 568, p1' = 332.
// (Unclipped, f1 would be 113.)
TEST(DeblockHbd, Vp9FourTapClipsAt511) {
  Image image = lines_image({{300, 300, 300, 300, 600, 600, 600, 600}});
  deblock_plane(image.frame().planes[0], vp9(63, 4));
  EXPECT_EQ(row(image, 0), (Row{300, 300, 332, 363, 537, 568, 600, 600}));
}

// Width 8 (the edge at 8 of 16 samples): flat with the bound 4 (1 << 2)
// where the steps to p0 and q0 are at most 4, so the 7-tap filter runs on
// [504 496 500 500 | 520 524 516 520]: out[i] = (sum of s over i-3 .. i+3,
// clipped to -4 .. 3, s[i] twice, + 4) >> 3, e.g. p2' = (3 * 504 + 2 * 496
// + 500 + 500 + 520 + 4) >> 3 = 503. |p3 - p0| = 5 is not flat: the 4-tap
// filter, hev (|q1 - q0| = 4 > 0): f = c(-12 - 12) = -24, c(-24 + 3 * 20) =
// 36, f1 = 5, f2 = 4; q0' = 515, p0' = 504; p1, q1 kept.
TEST(DeblockHbd, Vp9FlatBoundScaled) {
  const auto line = [](int p3, Row middle) {
    Row r(4, p3);
    r.insert(r.end(), middle.begin(), middle.end());
    r.insert(r.end(), 4, 520);
    return r;
  };
  Image image =
      lines_image({line(504, {504, 496, 500, 500, 520, 524, 516, 520}),
                   line(505, {505, 496, 500, 500, 520, 524, 516, 520})});
  deblock_plane(image.frame().planes[0], vp9(10, 8));
  EXPECT_EQ(row(image, 0), line(504, {504, 503, 506, 508, 512, 516, 517, 520}));
  EXPECT_EQ(row(image, 1), line(505, {505, 496, 500, 504, 515, 524, 516, 520}));
}

// The widest mask sum, |p0 - q0| * 2 + (|p1 - q1| >> 1) = 2557 at 0 | 1023,
// is over every blimit: the line is kept.
TEST(DeblockHbd, Vp9WidestStepKept) {
  Image image = lines_image({{0, 0, 0, 0, 1023, 1023, 1023, 1023}});
  deblock_plane(image.frame().planes[0], vp9(63, 4));
  EXPECT_EQ(row(image, 0), (Row{0, 0, 0, 0, 1023, 1023, 1023, 1023}));
}

// The raw 16-bit word of a sample.
int word_at(const ConstPlane& p, int x, int y) {
  const uint8_t* b = &p.at(x, y);
  return b[0] | b[1] << 8;
}

// P010 holds the values in the high 10 bits: the first test's row, with
// random low bits, gives its values, written as value << 6.
TEST(DeblockHbd, P010ValuesInTheHighBits) {
  std::mt19937 gen = test::rng(501);
  Image image = lines_image({{400, 400, 400, 400, 440, 440, 440, 440},
                             {400, 400, 400, 400, 440, 440, 440, 440}},
                            PixelFormat::P010_10LE);
  test::set_outside_bits(image, gen);
  const Plane luma = image.frame().planes[0];
  EXPECT_EQ(luma.lsb, 6);
  deblock_plane(luma, kNormal);
  const Row want = {400, 400, 404, 406, 434, 436, 440, 440};
  for (int y = 0; y < 2; y++)
    for (int x = 0; x < 8; x++)
      EXPECT_EQ(word_at(luma, x, y), want[size_t(x)] << 6) << x << "," << y;
}

// Bits outside the values are ignored on input and 0 in every sample of a
// plane deblock filters (pass 1 writes every sample of its rows; mode=dct
// every sample), past the grid offset; a plane it leaves unchanged, and the
// samples before the grid offset, keep their words.
TEST(DeblockHbd, BitsOutsideTheValues) {
  std::mt19937 gen = test::rng(502);
  DeblockParams h264;
  h264.qp = 20;                 // luma alpha 7, beta 3 (28, 12)
  h264.chroma_qp_offset = -12;  // chroma qp 8: alpha 0, unchanged
  h264.grid_x = 2;
  h264.grid_y = 1;
  DeblockParams vp9 = test::vp9_params(30, 2, 8);
  vp9.grid_x = 3;
  DeblockParams dct = test::dct_params(27, 4);  // luma threshold 14 (56)
  dct.chroma_qp_offset = -12;                   // chroma qp 15: unchanged
  dct.grid_x = 13;
  dct.grid_y = 6;
  for (const DeblockParams& params : {h264, vp9, dct})
    for (PixelFormat format : kTenBitPixelFormats) {
      SCOPED_TRACE(pixel_format_name(format));
      Image clean(format, 37, 29, 4);
      test::fill_blocky(clean, gen, 8, 512, 40);
      Image dirty = clean;
      test::set_outside_bits(dirty, gen);
      const Image input = dirty;
      const DeblockDsp dsp = deblock_test::ref_dsp();
      deblock_frame(dsp, clean.frame(), params);
      deblock_frame(dsp, dirty.frame(), params);
      EXPECT_FALSE(clean.same_samples(input)) << "the filter must engage";
      EXPECT_TRUE(clean.same_samples(dirty));
      const ConstFrame f = dirty.frame(), in = input.frame();
      const bool vp9_mode = params.mode == DeblockMode::Vp9;
      for (int p = 0; p < f.num_planes; p++) {
        const ConstPlane& plane = f.planes[p];
        const bool active = p == 0 || vp9_mode;
        const int sx = p ? f.chroma_shift_x : 0, sy = p ? f.chroma_shift_y : 0;
        const int b = deblock_grid_block(params);
        const int ox = (params.grid_x >> sx) % b,
                  oy = (params.grid_y >> sy) % b;
        for (int y = 0; y < plane.height; y++)
          for (int x = 0; x < plane.width; x++) {
            const bool written = active && x >= ox && y >= oy;
            const int want = written ? value_at(plane, x, y) << plane.lsb
                                     : word_at(in.planes[p], x, y);
            ASSERT_EQ(word_at(plane, x, y), want)
                << "plane " << p << " " << x << "," << y;
          }
      }
    }
}

}  // namespace
}  // namespace daedalus
