// The scalar reference of deblock mode=dct on 10-bit planes against answers
// worked from docs/spec.md "High bit depth" (by hand for the DC paths; the
// others from the spec's steps, quoted): what differs from 8 bits (the
// offset 512, the threshold times 4, the reconstruction clipped to 1023, the
// two bits the 8-bit output does not have) and the storage of the values
// (bits outside them ignored, written 0 in every sample the filter writes;
// P010's in the high bits). The transform pair at 10 bits:
// tests/kernels/common/dct8_test.cc.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <vector>

#include "daedalus/deblock.h"
#include "test_util.h"

namespace daedalus {
namespace {

DeblockDsp reference() {
  DeblockDsp dsp;
  deblock_dsp_init_ref(&dsp);
  return dsp;
}

// Luma of `format` from `value(x, y)`, chroma flat at 512.
Image luma_image(PixelFormat format, int w, int h,
                 const std::function<int(int, int)>& value) {
  Image image(format, w, h, 2);
  test::fill(image, [&](int p, int x, int y) { return p ? 512 : value(x, y); });
  return image;
}

int word_at(const ConstPlane& p, int x, int y) {
  const uint8_t* b = &p.at(x, y);
  return b[0] | b[1] << 8;
}

// Luma row y as values.
std::vector<int> row(const Image& image, int y) {
  const ConstPlane luma = image.frame().planes[0];
  std::vector<int> out;
  for (int x = 0; x < luma.width; x++) out.push_back(value_at(luma, x, y));
  return out;
}

// deblock_dct_test.cc's step 100 | 106 times 4. qp 51's threshold is 896 at
// 10 bits: every AC coefficient (696 at most, over the 8-bit 224) falls.
// Shift (0, 0)'s blocks are flat; shift (4, 4)'s block over the step has DC
// 32 (400 - 512) + 32 (424 - 512) = -6400; VP9's inverse of it:
// Round2(-6400 * 11585, 14) = -4525, Round2(-4525 * 11585, 14) = -3200,
// Round2(., 5) = -100: Q = 412, the mean. Averaged: (400 + 412 + 1) >> 1 =
// 406 and (424 + 412 + 1) >> 1 = 418, where the 8-bit plane gives 102 and
// 105 (times 4: 408, 420): the two bits below the 8-bit step are kept. In
// P010 the same values, at bit 6 of the words.
TEST(DctFilterHbd, TwoShiftsAverageKnownAnswer) {
  const std::vector<int> want = {400, 400, 400, 400, 406, 406, 406, 406,
                                 418, 418, 418, 418, 424, 424, 424, 424};
  for (PixelFormat format : {PixelFormat::Y444_10LE, PixelFormat::P010_10LE}) {
    SCOPED_TRACE(pixel_format_name(format));
    Image image = luma_image(format, 16, 16,
                             [](int x, int) { return x < 8 ? 400 : 424; });
    deblock_frame(reference(), image.frame(), test::dct_params(51, 2));
    const ConstPlane luma = image.frame().planes[0];
    for (int y = 0; y < 16; y++) {
      ASSERT_EQ(row(image, y), want) << y;
      for (int x = 0; x < 16; x++)
        ASSERT_EQ(word_at(luma, x, y), want[size_t(x)] << luma.lsb);
    }
  }
}

// deblock_dct_test.cc's blocks times 4, one shift, qp 36 (threshold 160):
// the step 112 | 912 has only odd horizontal frequencies, all kept, and is
// rebuilt exactly; the 480/484 checkerboard's AC (116 at most) fall, and its
// DC, 32 (480 - 512) + 32 (484 - 512) = -1920, comes back as Round2(
// Round2(Round2(-1920 * 11585, 14) * 11585, 14), 5) = -30: 482, the mean
// exactly (8 bits: 121, the mean 120.5 rounded up).
TEST(DctFilterHbd, OneShiftKeepsOrFlattensEachBlock) {
  Image image = luma_image(PixelFormat::I420_10LE, 16, 8, [](int x, int y) {
    return x < 8 ? (x < 4 ? 112 : 912) : 480 + 4 * ((x + y) & 1);
  });
  deblock_frame(reference(), image.frame(), test::dct_params(36, 1));
  for (int y = 0; y < 8; y++)
    ASSERT_EQ(row(image, y),
              (std::vector<int>{112, 112, 112, 112, 912, 912, 912, 912, 482,
                                482, 482, 482, 482, 482, 482, 482}))
        << y;
}

// The reconstruction clipped to 0..1023: a step 923 | 1023 in one block,
// qp 51 (threshold 896). Its coefficients are C[0][u] = (29504, -2900, 0,
// 1019, 0, -681, 0, 577), the rest 0; -681 and 577 fall, and the inverse
// of what is left overshoots: 512 + Y = (929, 915, 915, 948, 998, 1031,
// 1031, 1017) in every row, 1031 clipped to 1023. Mirrored (100 | 0), the
// undershoot -8 clips to 0.
TEST(DctFilterHbd, ReconstructionClipsTo1023) {
  Image high = luma_image(PixelFormat::Y444_10LE, 8, 8,
                          [](int x, int) { return x < 4 ? 923 : 1023; });
  Image low = luma_image(PixelFormat::Y444_10LE, 8, 8,
                         [](int x, int) { return x < 4 ? 100 : 0; });
  deblock_frame(reference(), high.frame(), test::dct_params(51, 1));
  deblock_frame(reference(), low.frame(), test::dct_params(51, 1));
  for (int y = 0; y < 8; y++) {
    ASSERT_EQ(row(high, y),
              (std::vector<int>{929, 915, 915, 948, 998, 1023, 1023, 1017}));
    ASSERT_EQ(row(low, y), (std::vector<int>{94, 108, 108, 75, 25, 0, 0, 6}));
  }
}

// Flat planes at every level come back as they are, at every shift count.
TEST(DctFilterHbd, FlatPlanesUnchanged) {
  for (int level : {0, 1, 511, 512, 513, 1022, 1023})
    for (int shifts = 1; shifts <= 64; shifts *= 2)
      for (PixelFormat format : kTenBitPixelFormats) {
        Image image(format, 21, 10, 3);
        test::fill(image, [&](int, int, int) { return level; });
        const Image before = image;
        deblock_frame(reference(), image.frame(), test::dct_params(51, shifts));
        ASSERT_EQ(image.bytes(), before.bytes())
            << pixel_format_name(format) << " " << level << " " << shifts;
      }
}

// qp <= 15 leaves every plane as it came, the bits outside the values too.
TEST(DctFilterHbd, QpUpTo15ChangesNothing) {
  std::mt19937 gen = test::rng(601);
  for (int qp = 0; qp <= 15; qp++)
    for (PixelFormat format : kTenBitPixelFormats) {
      Image image(format, 24, 18, 3);
      test::fill_random(image, gen);
      test::set_outside_bits(image, gen);
      const Image before = image;
      deblock_frame(reference(), image.frame(), test::dct_params(qp, 8));
      ASSERT_EQ(image.bytes(), before.bytes()) << qp;
    }
}

// Any split of the rows gives the same plane.
TEST(DctFilterHbd, RowRangesAreIndependent) {
  std::mt19937 gen = test::rng(602);
  for (PixelFormat format : {PixelFormat::I420_10LE, PixelFormat::P010_10LE}) {
    Image image(format, 37, 45, 0);
    test::fill_random(image, gen);
    test::set_outside_bits(image, gen);
    const Image source = image;
    const DeblockPlaneParams pp =
        deblock_plane_params(test::dct_params(36, 8), false, false);
    Image whole = image, pieces = image;
    const ConstPlane src = source.frame().planes[0];
    reference().dct_rows_hbd(src, whole.frame().planes[0], pp, 0, 45);
    for (auto [b, e] : test::random_pieces(45, gen))
      reference().dct_rows_hbd(src, pieces.frame().planes[0], pp, b, e);
    EXPECT_EQ(whole.bytes(), pieces.bytes());
    EXPECT_FALSE(whole.same_samples(source));
  }
}

}  // namespace
}  // namespace daedalus
