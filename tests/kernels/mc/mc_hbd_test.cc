// The scalar MC reference on 10-bit planes against answers worked by hand
// from docs/spec.md "High bit depth": both passes clip to [0, 1023] (the
// 2-D intermediate too, where clipping to 255 or not at all would give
// other samples), the bilinear filter on values past 8 bits, and the
// storage (bits outside the value ignored on input and 0 on output, P010's
// value in the high 10 bits).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>

#include "daedalus/mc.h"
#include "test_util.h"

namespace daedalus {
namespace {

McDsp ref_dsp() {
  McDsp dsp;
  mc_dsp_init_ref(&dsp);
  return dsp;
}

Image translate(const Image& src, double dx, double dy, McFilter filter) {
  Image dst(src.format(), src.width(), src.height(), 2);
  test::fill(dst, [](int, int, int) { return 0x3FF; });
  mc_frame(ref_dsp(), dst.frame(), src.frame(), {dx, dy, filter});
  return dst;
}

int value(const Image& image, int x, int y, int plane = 0) {
  return value_at(image.frame().planes[plane], x, y);
}

uint16_t word(const Image& image, int x, int y, int plane = 0) {
  uint16_t w;
  std::memcpy(&w, &image.frame().planes[plane].at(x, y), 2);
  return w;
}

// A corner of 1023 (x >= 8 and y >= 8) on 0, sharp, dx = dy = 1/2 (phase 8,
// taps {-4, 11, -23, 80, 80, -23, 11, -4}), output (8, 7):
//   horizontal at column 8 reads x = 5..12 = 0 0 0 1023 1023 1023 1023 1023:
//     1023 * (80 + 80 - 23 + 11 - 4) = 1023 * 144 = 147312,
//     (147312 + 64) >> 7 = 1151, clipped to 1023 (rows 8..; rows < 8: 0)
//   vertical over rows 4..11 = 0 0 0 0 1023 1023 1023 1023:
//     1023 * (80 - 23 + 11 - 4) = 1023 * 64 = 65472,
//     (65472 + 64) >> 7 = 512.
// Unclipped, the intermediate 1151 would give (1151 * 64 + 64) >> 7 = 576;
// clipped to 8 bits, 255 would give (255 * 64 + 64) >> 7 = 128.
// Output (7, 7): the horizontal window 0 0 0 0 1023 1023 1023 1023 gives
// 512 on rows 8.., then (512 * 64 + 64) >> 7 = 256.
TEST(McHbd, TheTwoDIntermediateIsClippedTo1023) {
  for (PixelFormat format : kTenBitPixelFormats) {
    SCOPED_TRACE(std::string(pixel_format_name(format)));
    Image src(format, 17, 17, 1);
    test::fill(src, [](int p, int x, int y) {
      return p == 0 && x >= 8 && y >= 8 ? 1023 : 0;
    });
    const Image out = translate(src, 0.5, 0.5, McFilter::Sharp);
    EXPECT_EQ(value(out, 8, 7), 512);
    EXPECT_EQ((1151 * 64 + 64) >> 7, 576);
    EXPECT_EQ(value(out, 7, 7), 256);
    // Deeper in the corner every intermediate row is 1151 clipped: 1023.
    EXPECT_EQ(value(out, 8, 12), 1023);
    EXPECT_TRUE(test::guards_intact(out));
  }
}

// The same step along x only, sharp, dx = 1/2: outputs past both ends of
// the range, clipped to them (x = 8: 1151 -> 1023, x = 10: window
// 0 1023 ... -> 1023 * 132 = 135036 -> 1055 -> 1023; x = 6: window
// 0 0 0 0 0 1023 1023 1023 -> 1023 * -16 = -16368 -> floor(-16304 / 128)
// = -128 -> 0), and inside it (x = 7: 512; x = 9: 1023 * 121 = 123783 ->
// 967; x = 5: 1023 * 7 = 7161 -> 56).
TEST(McHbd, OneAxisClipsTo1023AndZero) {
  Image src(PixelFormat::I420_10LE, 17, 3, 1);
  test::fill(src,
             [](int p, int x, int) { return p == 0 && x >= 8 ? 1023 : 0; });
  const Image out = translate(src, 0.5, 0.0, McFilter::Sharp);
  const int want[17] = {0,   0,    0,    0,    0,    56,   0,    512, 1023,
                        967, 1023, 1023, 1023, 1023, 1023, 1023, 1023};
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 17; x++) EXPECT_EQ(value(out, x, y), want[x]) << x;
}

// Bilinear on values past 8 bits: 1000 then 3, dx = 5/16:
// 1000 + ((5 * -997 + 8) >> 4) = 1000 + floor(-4977 / 16) = 1000 - 312 =
// 688; then 3 then 1000: 3 + ((5 * 997 + 8) >> 4) = 3 + 312 = 315.
TEST(McHbd, BilinearOnTenBitValues) {
  Image src(PixelFormat::Y444_10LE, 6, 2, 1);
  test::fill(src, [](int, int x, int) { return x % 2 ? 3 : 1000; });
  const Image out = translate(src, 5.0 / 16, 0.0, McFilter::Bilinear);
  for (int p = 0; p < 3; p++)
    for (int x = 0; x < 5; x++)
      EXPECT_EQ(value(out, x, 1, p), x % 2 ? 315 : 688) << p << " " << x;
}

// Bits outside the value are ignored on input and written 0, whatever the
// path (copy, one axis, both, bilinear): the output of a source with random
// outside bits equals, word for word, that of the same values without them,
// and every P010 output word has its low 6 bits 0 (the *_10LE words their
// high 6).
TEST(McHbd, OutsideBitsIgnoredAndWrittenZero) {
  std::mt19937 gen = test::rng(1);
  for (PixelFormat format : kTenBitPixelFormats)
    for (McFilter filter : {McFilter::Regular, McFilter::Bilinear})
      for (auto [dx, dy] :
           {std::pair{2.0, -1.0}, {0.25, 0.0}, {0.0, 0.75}, {-1.3, 2.6}}) {
        SCOPED_TRACE(std::string(pixel_format_name(format)) + " " +
                     std::string(mc_filter_name(filter)) + " " +
                     std::to_string(dx) + "," + std::to_string(dy));
        Image clean(format, 23, 11, 2);
        test::fill_random(clean, gen);
        Image dirty = clean;
        test::set_outside_bits(dirty, gen);
        const Image want = translate(clean, dx, dy, filter);
        const Image got = translate(dirty, dx, dy, filter);
        ASSERT_EQ(test::first_difference(want, got), "");
        const ConstFrame f = got.frame();
        for (int p = 0; p < f.num_planes; p++) {
          const uint16_t outside = uint16_t(~(0x3FF << f.planes[p].lsb));
          for (int y = 0; y < f.planes[p].height; y++)
            for (int x = 0; x < f.planes[p].width; x++)
              ASSERT_EQ(word(got, x, y, p) & outside, 0) << p << " " << x;
        }
      }
}

// P010 holds the value in the high 10 bits: its output words are those of
// I420_10LE shifted left by 6 (the same 4:2:0 planes, so the same values).
TEST(McHbd, P010IsI420TenBitShiftedBySix) {
  std::mt19937 gen = test::rng(2);
  Image planar(PixelFormat::I420_10LE, 30, 14, 1);
  Image p010(PixelFormat::P010_10LE, 30, 14, 1);
  test::fill_random(planar, gen);
  test::fill(p010, [&](int p, int x, int y) { return value(planar, x, y, p); });
  const Image a = translate(planar, 0.7, -0.4, McFilter::Smooth);
  const Image b = translate(p010, 0.7, -0.4, McFilter::Smooth);
  for (int p = 0; p < 3; p++) {
    const ConstPlane& plane = a.frame().planes[p];
    for (int y = 0; y < plane.height; y++)
      for (int x = 0; x < plane.width; x++)
        ASSERT_EQ(word(b, x, y, p), word(a, x, y, p) << 6) << p;
  }
}

}  // namespace
}  // namespace daedalus
