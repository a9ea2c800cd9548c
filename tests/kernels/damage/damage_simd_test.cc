// The damage estimator's SIMD pass against the scalar reference, once per
// Highway target: random and extreme content, sizes from 1x1, row padding,
// interleaved chroma (step 2, and P010's step 4), sub-ranges of rows, and
// planes long or wide enough to overflow a 16-bit lane if the sums were not
// flushed; 8-bit and 10-bit formats (with random bits outside the values).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "daedalus/damage.h"
#include "simd_targets.h"
#include "test_util.h"

namespace daedalus {
namespace {

DAEDALUS_SIMD_TEST_SUITE(DamageSimd);

struct Sums {
  std::vector<uint32_t> cols, rows;
};

Sums run(const DamageDsp& dsp, const ConstPlane& plane,
         const std::vector<std::pair<int, int>>& pieces) {
  Sums s{std::vector<uint32_t>(std::max(plane.width - 1, 0), 7),
         std::vector<uint32_t>(std::max(plane.height - 1, 0), 7)};
  for (auto [begin, end] : pieces)
    damage_steps_fn(dsp, plane)(plane, begin, end, s.cols.data(),
                                s.rows.data());
  return s;
}

// Every plane of `image`, whole and in random row pieces: the same sums
// (added to a start value of 7) as the reference.
void expect_exact(const Image& image, std::mt19937& gen) {
  DamageDsp ref, simd;
  damage_dsp_init_ref(&ref);
  damage_dsp_init(&simd);
  const ConstFrame f = image.frame();
  for (int p = 0; p < f.num_planes; p++) {
    const ConstPlane& plane = f.planes[p];
    SCOPED_TRACE(testing::Message()
                 << pixel_format_name(image.format()) << " " << image.width()
                 << "x" << image.height() << " plane " << p);
    const std::vector<std::pair<int, int>> whole = {{0, plane.height}};
    const Sums want = run(ref, plane, whole);
    const Sums got = run(simd, plane, whole);
    ASSERT_EQ(got.cols, want.cols);
    ASSERT_EQ(got.rows, want.rows);
    const Sums pieces =
        run(simd, plane, test::random_pieces(plane.height, gen));
    ASSERT_EQ(pieces.cols, want.cols);
    ASSERT_EQ(pieces.rows, want.rows);
  }
}

TEST_P(DamageSimd, RandomSizesFormatsAndContent) {
  std::mt19937 gen = test::rng(1);
  const std::vector<PixelFormat> formats = test::all_pixel_formats();
  for (int i = 0; i < 275; i++) {
    const PixelFormat format = formats[i % formats.size()];
    Image image(format, 1 + int(gen() % 300), 1 + int(gen() % 80),
                int(gen() % 5));
    const int scale = (image.frame().planes[0].max_value() + 1) >> 8;
    if (i % 3 == 0)
      test::fill_random(image, gen);
    else if (i % 3 == 1)
      test::fill_near(image, gen, int(gen() % 256) * scale,
                      (1 + int(gen() % 40)) * scale);
    else
      test::fill_blocky(image, gen, 4 << (gen() % 3), int(gen() % 256), 30);
    test::set_outside_bits(image, gen);
    expect_exact(image, gen);
  }
}

TEST_P(DamageSimd, SmallSizes) {
  std::mt19937 gen = test::rng(2);
  for (PixelFormat format : {PixelFormat::NV12, PixelFormat::P010_10LE})
    for (int w = 1; w <= 40; w++)
      for (int h : {1, 2, 3}) {
        Image image(format, w, h, int(gen() % 3));
        test::fill_random(image, gen);
        test::set_outside_bits(image, gen);
        expect_exact(image, gen);
      }
}

// 0 and the maximum (255, 1023) alternating along both axes: every step is
// clipped to the maximum, the most a lane can gather. 2100 rows overflow a
// column's 16-bit lane unless the strips flush it; 70000 columns overflow a
// row's lanes (2048 vectors of up to 32 lanes: 65536 steps of 32 in a lane of
// 16 bits) unless the row sum is flushed.
TEST_P(DamageSimd, ExtremeStepsOnLongAndWidePlanes) {
  std::mt19937 gen = test::rng(3);
  const std::pair<int, int> sizes[] = {{37, 2100}, {70000, 2}, {70, 70}};
  for (PixelFormat format : {PixelFormat::NV21, PixelFormat::P010_10LE})
    for (auto [w, h] : sizes) {
      Image image(format, w, h, 1);
      const int maxv = image.frame().planes[0].max_value();
      test::fill(image,
                 [maxv](int, int x, int y) { return (x + y) % 2 ? maxv : 0; });
      test::set_outside_bits(image, gen);
      expect_exact(image, gen);
    }
}

}  // namespace
}  // namespace daedalus
