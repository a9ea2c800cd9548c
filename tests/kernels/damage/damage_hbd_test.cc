// The damage estimate of 10-bit frames (docs/spec.md "High bit depth": every
// measure, the quantiser probe included, reads a sample's top 8 bits,
// p >> 2): a 10-bit frame whose samples are an 8-bit frame's << 2, whatever
// their low 2 bits and the bits outside them, gives exactly the 8-bit
// frame's estimate, in every 10-bit format (P010 too).
#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>
#include <utility>

#include "daedalus/damage.h"
#include "damage_test_helpers.h"
#include "dct_coded.h"
#include "test_util.h"

namespace daedalus {
namespace {

// The 8-bit format each 10-bit one has the planes of.
constexpr std::pair<PixelFormat, PixelFormat> kTwins[] = {
    {PixelFormat::I420, PixelFormat::I420_10LE},
    {PixelFormat::Y42B, PixelFormat::I422_10LE},
    {PixelFormat::Y444, PixelFormat::Y444_10LE},
    {PixelFormat::NV12, PixelFormat::P010_10LE}};

// Blocks on a grid at (3, 5), luma coded like a DCT coder at qp q (its
// dead zone for the probe), texture that differs from frame to frame.
Image coded_frame(PixelFormat format, int q, uint32_t salt) {
  Image image(format, 256, 144, 3);
  damage_test::fill_blocks(image, 8, 3, 5, 6);
  std::mt19937 gen = test::rng(salt);
  std::uniform_int_distribution<int> texture(-8, 8);
  const Frame f = image.frame();
  for (int p = 0; p < f.num_planes; p++)
    for (int y = 0; y < f.planes[p].height; y++)
      for (int x = 0; x < f.planes[p].width; x++)
        f.planes[p].at(x, y) =
            uint8_t(std::clamp(f.planes[p].at(x, y) + texture(gen), 0, 255));
  test::code_like_a_dct_coder(f.planes[0], q, 3, 5);
  return image;
}

// The 10-bit twin of an 8-bit image: each sample << 2, plus random low 2
// bits, and random bits outside the values.
Image ten_bit_twin(const Image& src, PixelFormat format, std::mt19937& gen) {
  Image out(format, src.width(), src.height(), 1);
  std::uniform_int_distribution<int> low(0, 3);
  const ConstFrame f = src.frame();
  test::fill(out, [&](int p, int x, int y) {
    return (f.planes[p].at(x, y) << 2) | low(gen);
  });
  test::set_outside_bits(out, gen);
  return out;
}

std::string grid(const BlockGrid& g) {
  std::ostringstream s;
  s << g.spacing << " " << g.offset_x << "," << g.offset_y << " blk " << g.blk
    << " half " << g.half << " act " << g.act << " measure " << g.measure;
  return s.str();
}

// Every field of an estimate, as text: equal texts, equal estimates.
std::string describe(const DamageEstimate& e) {
  std::ostringstream s;
  s << "luma " << grid(e.luma) << "; chroma " << grid(e.chroma)
    << "; quantiser " << e.quantiser.zero_excess << " "
    << e.quantiser.dead_zone_qp << " " << e.quantiser.measure << "; level "
    << e.level << " rung " << e.rung << " grid " << e.grid_x << "," << e.grid_y
    << " frames " << e.frames;
  return s.str();
}

TEST(DamageHbd, TenBitGivesTheEightBitEstimate) {
  std::mt19937 gen = test::rng(1);
  for (auto [eight, ten] : kTwins) {
    SCOPED_TRACE(std::string(pixel_format_name(ten)));
    DamageEstimator e8, e10;
    for (int f = 0; f < 10; f++) {
      const Image a = coded_frame(eight, 40, f);
      const Image b = ten_bit_twin(a, ten, gen);
      e8.add_frame(a.frame());
      e10.add_frame(b.frame());
      ASSERT_EQ(describe(e10.estimate()), describe(e8.estimate())) << f;
    }
    // Not a vacuous agreement: the probe found the coder's zeros and the
    // steps their grid.
    EXPECT_GT(e8.estimate().rung, 0);
    EXPECT_GT(e8.estimate().luma.measure, 0);
    EXPECT_EQ(e8.estimate().luma.offset_x % 8, 3);
  }
}

// The pieces on their own, on random content of random sizes: profiles and
// probe counts.
TEST(DamageHbd, ProfilesAndProbeCountsOfTheTopEightBits) {
  std::mt19937 gen = test::rng(2);
  std::uniform_int_distribution<int> size(1, 90), origin(0, 7);
  for (int round = 0; round < 40; round++) {
    const auto [eight, ten] = kTwins[round % 4];
    Image a(eight, size(gen), size(gen), 2);
    test::fill_random(a, gen);
    const Image b = ten_bit_twin(a, ten, gen);
    for (int p = 0; p < a.frame().num_planes; p++) {
      const StepProfile want =
          damage_test::reference_profile(a.frame().planes[p]);
      const StepProfile got =
          damage_test::reference_profile(b.frame().planes[p]);
      ASSERT_EQ(got.cols, want.cols) << round << " plane " << p;
      ASSERT_EQ(got.rows, want.rows) << round << " plane " << p;
    }
    const int ox = origin(gen), oy = origin(gen);
    DamageDsp ref;
    damage_dsp_init_ref(&ref);
    ProbeCounts want, got;
    probe_zeros(ref, a.frame().planes[0], ox, oy, 4, round, &want);
    probe_zeros(ref, b.frame().planes[0], ox, oy, 4, round, &got);
    for (auto [w, g] : {std::pair{&want.on, &got.on}, {&want.off, &got.off}}) {
      ASSERT_EQ(g->total, w->total) << round;
      for (int k = 0; k < kProbeBins; k++)
        ASSERT_EQ(g->below[k], w->below[k]) << round;
    }
  }
}

// Steps of the top 8 bits, worked by hand: a row 0 3 4 1023 1020 is
// 0 0 1 255 255, steps 0 1 32 (clipped) 0; not |a - b| >> 2 (0 0 ...), nor
// the values' own steps (3 1 32 3). Vertically the rows 0 3 4 1023 1020 and
// 2 0 8 1000 1023 (top bits 0 0 2 250 255) step 0 + 0 + 1 + 5 + 0 = 6.
TEST(DamageHbd, StepsOfTheTopEightBitsByHand) {
  for (PixelFormat format : {PixelFormat::Y444_10LE, PixelFormat::P010_10LE}) {
    Image image(format, 5, 2, 1);
    const int rows[2][5] = {{0, 3, 4, 1023, 1020}, {2, 0, 8, 1000, 1023}};
    test::fill(image, [&](int, int x, int y) { return rows[y][x]; });
    const StepProfile s =
        damage_test::reference_profile(image.frame().planes[0]);
    EXPECT_EQ(s.cols, (std::vector<uint32_t>{0 + 0, 1 + 2, 32 + 32, 0 + 5}))
        << pixel_format_name(format);
    EXPECT_EQ(s.rows, (std::vector<uint32_t>{6})) << pixel_format_name(format);
  }
}

}  // namespace
}  // namespace daedalus
