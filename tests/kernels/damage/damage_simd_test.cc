// The damage estimator's SIMD steps and quantiser probe on every Highway
// target against known answers: planes long or wide enough to overflow a
// 16-bit lane if the sums were not flushed, at both depths (with random
// bits outside the values), whole and in row pieces; more blocks in one
// call than a 16-bit lane counts. Against the scalar reference on random
// and adversarial frames of every format and size: the harness's DSP rows
// (tests/kernels/harness, HarnessSimd.DamageSteps, DamageStepsHbd,
// DamageProbe and DamageProbeHbd).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "daedalus/damage.h"
#include "simd_targets.h"
#include "test_util.h"

namespace daedalus {
namespace {

DAEDALUS_SIMD_TEST_SUITE(DamageSimd);

// 0 and the maximum (255, 1023) alternating along both axes: every step is
// clipped to kDamageStepClip, the most a lane can gather, so a plane of
// w x h adds kDamageStepClip * h to each column sum and kDamageStepClip * w
// to each row sum (docs/spec.md, "Damage estimate"). 2100 rows overflow a
// column's 16-bit lane unless the strips flush it; 70000 columns overflow a
// row's lanes (2048 vectors of up to 32 lanes: 65536 steps of 32 in a lane
// of 16 bits) unless the row sum is flushed.
TEST_P(DamageSimd, ExtremeStepsOnLongAndWidePlanes) {
  DamageDsp dsp;
  damage_dsp_init(&dsp);
  std::mt19937 gen = test::rng(3);
  const std::pair<int, int> sizes[] = {{37, 2100}, {70000, 2}, {70, 70}};
  for (PixelFormat format : {PixelFormat::NV21, PixelFormat::P010_10LE})
    for (auto [w, h] : sizes) {
      Image image(format, w, h, 1);
      const int maxv = image.frame().planes[0].max_value();
      test::fill(image,
                 [maxv](int, int x, int y) { return (x + y) % 2 ? maxv : 0; });
      test::set_outside_bits(image, gen);
      const ConstFrame f = image.frame();
      for (int p = 0; p < f.num_planes; p++) {
        const ConstPlane& plane = f.planes[p];
        SCOPED_TRACE(testing::Message() << pixel_format_name(format) << " " << w
                                        << "x" << h << " plane " << p);
        const std::vector<uint32_t> cols_want(
            size_t(plane.width - 1), 7 + kDamageStepClip * plane.height);
        const std::vector<uint32_t> rows_want(
            size_t(plane.height - 1), 7 + kDamageStepClip * plane.width);
        for (bool whole : {true, false}) {
          std::vector<uint32_t> cols(cols_want.size(), 7);
          std::vector<uint32_t> rows(rows_want.size(), 7);
          const std::vector<std::pair<int, int>> pieces =
              whole ? std::vector<std::pair<int, int>>{{0, plane.height}}
                    : test::random_pieces(plane.height, gen);
          for (auto [begin, end] : pieces)
            damage_steps_fn(dsp, plane)(plane, begin, end, cols.data(),
                                        rows.data());
          ASSERT_EQ(cols, cols_want) << (whole ? "whole" : "in pieces");
          ASSERT_EQ(rows, rows_want) << (whole ? "whole" : "in pieces");
        }
      }
    }
}

// A flat block has every AC coefficient 0, under every threshold: n copies
// of it add 63 n to every count. 70001 blocks in one call count 8 in a lane
// for each group of up to 4 blocks (AVX-512): past a 16-bit lane's 65535
// unless the counts are flushed, with a last group of one block.
TEST_P(DamageSimd, ProbeCountsPastA16BitLane) {
  DamageDsp dsp;
  damage_dsp_init(&dsp);
  std::mt19937 gen = test::rng(4);
  for (PixelFormat format : {PixelFormat::I420, PixelFormat::P010_10LE}) {
    SCOPED_TRACE(pixel_format_name(format));
    Image image(format, 16, 8, 3);
    test::fill(image, [](int, int x, int) { return x < 8 ? 77 : x; });
    test::set_outside_bits(image, gen);
    const ConstPlane luma = image.frame().planes[0];
    const std::vector<ProbeBlock> blocks(70001, ProbeBlock{0, 0});
    std::vector<uint32_t> below(kProbeBins, 5);
    dsp.probe(luma, blocks.data(), int(blocks.size()), below.data());
    EXPECT_EQ(below, std::vector<uint32_t>(kProbeBins, 5 + 63 * 70001));
  }
}

}  // namespace
}  // namespace daedalus
