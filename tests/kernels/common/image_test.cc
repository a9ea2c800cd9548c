#include "daedalus/image.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace daedalus {
namespace {

struct Expected {
  PixelFormat format;
  int num_planes, chroma_w, chroma_h, chroma_step;
};

// 7x5 frames: chroma sizes round up, as GStreamer's do.
TEST(Image, PlaneGeometryMatchesGStreamer) {
  const Expected cases[] = {
      {PixelFormat::I420, 3, 4, 3, 1}, {PixelFormat::YV12, 3, 4, 3, 1},
      {PixelFormat::Y42B, 3, 4, 5, 1}, {PixelFormat::Y444, 3, 7, 5, 1},
      {PixelFormat::NV12, 3, 4, 3, 2}, {PixelFormat::NV21, 3, 4, 3, 2},
      {PixelFormat::GRAY8, 1, 0, 0, 0}};
  for (const Expected& c : cases) {
    Image image(c.format, 7, 5, 3);
    const Frame f = image.frame();
    SCOPED_TRACE(std::string(pixel_format_name(c.format)));
    EXPECT_EQ(f.num_planes, c.num_planes);
    EXPECT_EQ(f.planes[0].width, 7);
    EXPECT_EQ(f.planes[0].height, 5);
    EXPECT_EQ(f.planes[0].stride, 7 + 3);
    if (c.num_planes == 1) continue;
    for (int p = 1; p < 3; p++) {
      EXPECT_EQ(f.planes[p].width, c.chroma_w);
      EXPECT_EQ(f.planes[p].height, c.chroma_h);
      EXPECT_EQ(f.planes[p].step, c.chroma_step);
      EXPECT_EQ(f.planes[p].stride, c.chroma_w * c.chroma_step + 3);
    }
  }
}

TEST(Image, PlanesDoNotOverlapAndGuardsHold) {
  for (PixelFormat format : kAllPixelFormats) {
    Image image(format, 5, 3, 2);
    // Write each plane's index into its samples: overlap would clobber one.
    test::fill(image, [](int p, int, int) { return uint8_t(p + 1); });
    const Frame f = image.frame();
    for (int p = 0; p < f.num_planes; p++)
      for (int y = 0; y < f.planes[p].height; y++)
        for (int x = 0; x < f.planes[p].width; x++)
          ASSERT_EQ(f.planes[p].at(x, y), p + 1);
    EXPECT_TRUE(test::guards_intact(image));
    image.bytes().back() = 0;  // the last byte is padding
    EXPECT_FALSE(test::guards_intact(image));
  }
}

TEST(Image, CopiesAreDeep) {
  Image a(PixelFormat::NV12, 3, 3, 1);
  test::fill(a, [](int p, int x, int y) { return uint8_t(p * 50 + x + y); });
  Image b = a;
  EXPECT_TRUE(b.same_samples(a));
  b.frame().planes[2].at(1, 1) = 0;
  EXPECT_NE(a.frame().planes[2].at(1, 1), 0);
  Image c(PixelFormat::GRAY8, 1, 1);
  c = b;
  EXPECT_TRUE(c.same_samples(b));
  EXPECT_NE(c.frame().planes[0].data, b.frame().planes[0].data);
  EXPECT_TRUE(test::guards_intact(c));
}

// 10-bit formats: 16-bit words, strides and steps in bytes; P010's values in
// the high bits, U and V one word apart.
TEST(Image, TenBitLayouts) {
  const Expected cases[] = {{PixelFormat::I420_10LE, 3, 4, 3, 2},
                            {PixelFormat::I422_10LE, 3, 4, 5, 2},
                            {PixelFormat::Y444_10LE, 3, 7, 5, 2},
                            {PixelFormat::P010_10LE, 3, 4, 3, 4}};
  for (const Expected& c : cases) {
    Image image(c.format, 7, 5, 2);
    const Frame f = image.frame();
    SCOPED_TRACE(std::string(pixel_format_name(c.format)));
    EXPECT_EQ(f.bit_depth(), 10);
    EXPECT_EQ(f.planes[0].stride, 2 * (7 + 2));
    EXPECT_EQ(f.planes[0].step, 2);
    const int lsb = c.format == PixelFormat::P010_10LE ? 6 : 0;
    for (int p = 0; p < 3; p++) {
      EXPECT_EQ(f.planes[p].bit_depth, 10);
      EXPECT_EQ(f.planes[p].lsb, lsb);
    }
    for (int p = 1; p < 3; p++) {
      EXPECT_EQ(f.planes[p].width, c.chroma_w);
      EXPECT_EQ(f.planes[p].height, c.chroma_h);
      EXPECT_EQ(f.planes[p].step, c.chroma_step);
      EXPECT_EQ(f.planes[p].stride, c.chroma_w * c.chroma_step + 2 * 2);
    }
    EXPECT_EQ(f.chroma_interleaved(), c.format == PixelFormat::P010_10LE);
    // Values read and written through the planes land where GStreamer has
    // them: the word's low bits, or (P010) its high bits.
    test::fill(image, [](int p, int x, int y) { return 1000 - 7 * x - y - p; });
    for (int p = 0; p < 3; p++) {
      const uint8_t* b = &f.planes[p].at(1, 2);
      EXPECT_EQ(b[0] | b[1] << 8, (1000 - 7 - 2 - p) << lsb);
      EXPECT_EQ(value_at(f.planes[p], 1, 2), 1000 - 7 - 2 - p);
    }
    EXPECT_TRUE(test::guards_intact(image));
  }
  Image p010(PixelFormat::P010_10LE, 2, 2);
  EXPECT_EQ(p010.frame().planes[2].data - p010.frame().planes[1].data, 2);
}

TEST(Image, NV21StoresVFirst) {
  Image nv12(PixelFormat::NV12, 2, 2), nv21(PixelFormat::NV21, 2, 2);
  EXPECT_EQ(nv12.frame().planes[2].data - nv12.frame().planes[1].data, 1);
  EXPECT_EQ(nv21.frame().planes[1].data - nv21.frame().planes[2].data, 1);
}

}  // namespace
}  // namespace daedalus
