// The scalar CDEF reference on 10-bit frames against answers worked by hand
// from docs/spec.md "High bit depth": what differs from 8 bits (strengths
// and damping shifted by 2, the primary weights' parity, the direction search
// on the top 8 bits, the storage of the values).
#include <gtest/gtest.h>

#include <random>

#include "cdef_test_helpers.h"
#include "daedalus/cdef.h"
#include "test_util.h"

namespace daedalus {
namespace {

using cdef_test::ref_dsp;

// An 8x8 Y444_10LE frame of 512 with one sample of 552 at (4, 4) in `plane`.
Image impulse(int plane) {
  Image image(PixelFormat::Y444_10LE, 8, 8, 2);
  test::fill(image, [plane](int p, int x, int y) {
    return p == plane && x == 4 && y == 4 ? 552 : 512;
  });
  return image;
}

Image run(const Image& src, const CdefParams& params) {
  Image dst(src.format(), src.width(), src.height(), 2);
  test::fill(dst, [](int, int, int) { return 0x3FF; });
  cdef_frame(ref_dsp(), dst.frame(), src.frame(), params);
  return dst;
}

int value(const Image& image, int x, int y, int plane = 0) {
  return value_at(image.frame().planes[plane], x, y);
}

// Secondary taps only (no primary strength: no direction search, dir 0, so
// the secondary taps are the horizontal and vertical neighbours at 1 and 2,
// weights 2 and 1). Luma sec 4 -> 16, damping 6 -> 8, sec_shift 8 - 4 = 4:
// constrain(+-40, 16, 4) = +-min(40, 16 - (40 >> 4)) = +-14.
//   the impulse: sum = -14 (4 * 2 + 4 * 1) = -168, (8 - 168 - 1) >> 4 = -11;
//   neighbours at 1: sum = 28, (8 + 28) >> 4 = 2; at 2: 14 -> 1.
// (8-bit strengths and damping would give constrain 2 and leave the
// neighbours at 512; a shifted strength with an unshifted damping, 6.)
TEST(CdefHbd, SecondaryStrengthAndDampingShifted) {
  const Image src = impulse(0);
  const Image out = run(src, {0, 4, 0, 0, 6});
  for (int y = 0; y < 8; y++)
    for (int x = 0; x < 8; x++) {
      const int d = std::abs(x - 4) + std::abs(y - 4);
      const bool line = x == 4 || y == 4;
      int want = 512;
      if (d == 0) want = 541;
      if (line && d == 1) want = 514;
      if (line && d == 2) want = 513;
      EXPECT_EQ(value(out, x, y), want) << x << "," << y;
    }
  // Chroma copied unchanged (strengths 0).
  EXPECT_EQ(value(out, 4, 4, 1), 512);
}

// sec-strength 3 is 4, mapped before the shift: 16, not 12.
TEST(CdefHbd, SecondaryThreeIsFourThenShifted) {
  const Image src = impulse(0);
  EXPECT_EQ(test::first_difference(run(src, {0, 4, 0, 0, 6}),
                                   run(src, {0, 3, 0, 0, 6})),
            "");
}

// Chroma: uv sec 4 -> 16, damping 6 - 1 + 2 = 7, sec_shift 3:
// constrain(+-40, 16, 3) = +-min(40, 16 - 5) = +-11.
//   the impulse: -11 * 12 = -132, (8 - 132 - 1) >> 4 = -8;
//   at 1: 22 -> (30 >> 4) = 1; at 2: 11 -> 1.
TEST(CdefHbd, ChromaDampingShifted) {
  const Image src = impulse(1);
  const Image out = run(src, {0, 0, 0, 4, 6});
  EXPECT_EQ(value(out, 4, 4, 1), 544);
  EXPECT_EQ(value(out, 3, 4, 1), 513);
  EXPECT_EQ(value(out, 4, 6, 1), 513);
  EXPECT_EQ(value(out, 3, 3, 1), 512);
  EXPECT_EQ(value(out, 4, 4, 2), 512);  // V has no impulse
  EXPECT_EQ(value(out, 4, 4, 0), 512);  // luma copied
}

// The primary weights follow the parity of pri >> 2: pri 20 (strength 5 at
// 10 bits) weighs 3 and 3, as 5 does at 8 bits, not 4 and 2 as 20 would.
// Damping 5 (3 + 2), pri_shift = 5 - floor(log2(20)) = 1:
// constrain(12, 20, 1) = min(12, 20 - 6) = 12. Direction 2: horizontal taps.
TEST(CdefHbd, PrimaryWeightsFromTheUnshiftedParity) {
  auto plane_with = [](int x1, int x2) {
    Image image(PixelFormat::Y444_10LE, 8, 8, 2);
    test::fill(image, [=](int p, int x, int y) {
      return p == 0 && y == 4 && (x == x1 || x == x2) ? 524 : 512;
    });
    return image;
  };
  const CdefBlockParams bp = {20, 0, 2, 5};
  // k = 0, weight 3: sum 36, (8 + 36) >> 4 = 2.
  Image src = plane_with(4, 4), out = plane_with(4, 4);
  cdef_filter_block_ref(out.frame().planes[0], src.frame().planes[0], 0, 0, 8,
                        8, bp);
  EXPECT_EQ(value(out, 3, 4), 514);
  // k = 1 on both sides, weight 3: sum 72, (8 + 72) >> 4 = 5.
  src = plane_with(1, 5);
  out = plane_with(1, 5);
  cdef_filter_block_ref(out.frame().planes[0], src.frame().planes[0], 0, 0, 8,
                        8, bp);
  EXPECT_EQ(value(out, 3, 4), 517);
}

// The direction search reads the top 8 bits: a 10-bit block gives the
// direction and variance of the 8-bit block of its samples >> 2.
TEST(CdefHbd, DirectionSearchOnTheTopEightBits) {
  std::mt19937 gen = test::rng(301);
  for (int round = 0; round < 200; round++) {
    Image deep(PixelFormat::Y444_10LE, 8, 8, 2);
    if (round % 2)
      test::fill_random(deep, gen);
    else
      test::fill_blocky(deep, gen, 2 + round % 5, 512, 200);
    test::set_outside_bits(deep, gen);
    Image shallow(PixelFormat::Y444, 8, 8, 1);
    test::fill(shallow,
               [&](int p, int x, int y) { return value(deep, x, y, p) >> 2; });
    int var_deep = -1, var_shallow = -2;
    const int dir_deep =
        cdef_find_dir_ref(deep.frame().planes[0], 0, 0, &var_deep);
    const int dir_shallow =
        cdef_find_dir_ref(shallow.frame().planes[0], 0, 0, &var_shallow);
    ASSERT_EQ(dir_deep, dir_shallow) << round;
    ASSERT_EQ(var_deep, var_shallow) << round;
  }
}

// Structure in the low 2 bits only: the search sees a flat block (variance
// 0), so the luma primary strength is adjusted to 0 and, with no secondary,
// the block is copied.
TEST(CdefHbd, LowBitsAloneAreNoVariance) {
  Image src(PixelFormat::Y444_10LE, 16, 16, 2);
  test::fill(src, [](int, int x, int y) { return 512 + ((x ^ y) & 3); });
  int var = -1;
  cdef_find_dir_ref(src.frame().planes[0], 8, 8, &var);
  EXPECT_EQ(var, 0);
  const Image out = run(src, {15, 0, 0, 0, 6});
  EXPECT_EQ(test::first_difference(src, out), "");
}

// Bits outside the values are ignored on input and 0 on output, in filtered
// and copied samples (partial blocks at the right and bottom); P010 keeps
// its values in the high bits and writes its low 6 bits as 0.
TEST(CdefHbd, BitsOutsideTheValues) {
  std::mt19937 gen = test::rng(302);
  for (PixelFormat format : kTenBitPixelFormats) {
    Image clean(format, 21, 19, 4);
    test::fill_random(clean, gen);
    Image dirty = clean;
    test::set_outside_bits(dirty, gen);
    const CdefParams params = {9, 2, 7, 4, 4};
    const Image want = run(clean, params), got = run(dirty, params);
    EXPECT_EQ(test::first_difference(want, got), "")
        << pixel_format_name(format);
    const ConstFrame f = got.frame();
    for (int p = 0; p < f.num_planes; p++)
      for (int y = 0; y < f.planes[p].height; y++)
        for (int x = 0; x < f.planes[p].width; x++) {
          const uint8_t* b = &f.planes[p].at(x, y);
          const int word = b[0] | b[1] << 8;
          ASSERT_EQ(word, value_at(f.planes[p], x, y) << f.planes[p].lsb)
              << pixel_format_name(format) << " plane " << p << " " << x << ","
              << y;
        }
  }
}

// P010 computes what I420_10LE computes on the same values.
TEST(CdefHbd, P010LikeI420) {
  std::mt19937 gen = test::rng(303);
  Image planar(PixelFormat::I420_10LE, 45, 30, 2);
  test::fill_near(planar, gen, 512, 30);
  Image packed(PixelFormat::P010_10LE, 45, 30, 2);
  test::fill(packed,
             [&](int p, int x, int y) { return value(planar, x, y, p); });
  const CdefParams params = {12, 4, 10, 2, 5};
  const Image a = run(planar, params), b = run(packed, params);
  EXPECT_TRUE(a.same_samples(b));
  EXPECT_FALSE(a.same_samples(planar));  // it filtered something
}

}  // namespace
}  // namespace daedalus
