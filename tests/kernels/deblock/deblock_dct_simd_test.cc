// Bit-exactness of deblock mode=dct's SIMD kernel against the scalar
// reference, once per Highway target and at both bit depths (10-bit values
// in the low bits of their words and in the high, P010's, with random bits
// outside them): random, blocky, near-flat and extreme content, every shift
// count and strength, odd sizes down to 1x1, row padding (guard bytes), row
// ranges as threads get them, every pixel format (interleaved chroma) and
// grid origin through deblock_frame.
#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>

#include "daedalus/deblock.h"
#include "deblock_simd_test_helpers.h"
#include "simd_targets.h"
#include "test_util.h"

namespace daedalus {
namespace {

DAEDALUS_SIMD_TEST_SUITE(DeblockDctSimd);

constexpr int kShifts[] = {1, 2, 4, 8, 16, 32, 64};

using deblock_simd_test::fill_dct_kind;
using deblock_simd_test::in;
using deblock_simd_test::Tables;

// The planes each check draws at `depth` 0 (8-bit) or 1 (10-bit: in the low
// bits of the words and in the high ones, taken in turn by `n`).
PixelFormat plane_format(int depth, int n) {
  if (depth == 0) return PixelFormat::GRAY8;
  return n % 2 ? PixelFormat::P010_10LE : PixelFormat::I420_10LE;
}

// Content of `kind`, and at 10 bits random bits outside the values, which
// the kernels must ignore.
void fill(Image& image, std::mt19937& gen, int kind) {
  fill_dct_kind(image, gen, kind);
  test::set_outside_bits(image, gen);
}

// One plane through dct_rows of both tables, the rows cut into random
// pieces for the SIMD side; every byte compared (padding included).
void expect_plane_matches(const Tables& t, const Image& source,
                          const DeblockPlaneParams& pp, std::mt19937& gen,
                          const std::string& what) {
  const ConstPlane src = source.frame().planes[0];
  Image want = source, got = source;
  // dct_rows reads a plane that never aliases dst: the copy.
  deblock_dct_rows_fn(t.ref, src)(src, want.frame().planes[0], pp, 0,
                                  src.height);
  for (auto [b, e] : test::random_pieces(src.height, gen))
    deblock_dct_rows_fn(t.simd, src)(src, got.frame().planes[0], pp, b, e);
  ASSERT_EQ(got.bytes(), want.bytes())
      << pixel_format_name(source.format()) << " " << what;
}

TEST_P(DeblockDctSimd, LadderPicksSimd) {
  const Tables t;
  EXPECT_NE(t.simd.dct_rows, t.ref.dct_rows);
  EXPECT_NE(t.simd.dct_rows_hbd, t.ref.dct_rows_hbd);
}

// The checks below, each a function of the tables so that the AVX3 rows'
// VNNI form (DeblockDctVnni) runs them too.
void random_planes(const Tables& t, int depth) {
  std::mt19937 gen = test::rng(1 + 100 * depth);
  for (int n = 0; n < 300; n++) {
    const int w = n < 10 ? 1 + n : in(gen, 1, 90);
    const int h = n < 10 ? 1 + (n * 3) % 7 : in(gen, 1, 40);
    Image image(plane_format(depth, n), w, h, in(gen, 0, 5));
    const int kind = n % 5;
    fill(image, gen, kind);
    const int shifts = kShifts[n % 7], qp = in(gen, 16, 51);
    const DeblockPlaneParams pp =
        deblock_plane_params(test::dct_params(qp, shifts), false, false);
    std::ostringstream what;
    what << w << "x" << h << " kind " << kind << " qp " << qp << " shifts "
         << shifts;
    expect_plane_matches(t, image, pp, gen, what.str());
    if (::testing::Test::HasFailure()) return;
  }
}

// Every strength with every shift count, on blocky content where both the
// flat shortcut and the full inverse run.
void every_strength_and_shift_count(const Tables& t, int depth) {
  std::mt19937 gen = test::rng(2 + 100 * depth);
  for (int qp = 16; qp <= 51; qp++)
    for (int shifts : kShifts) {
      Image image(plane_format(depth, qp + shifts), in(gen, 17, 41),
                  in(gen, 9, 25), 3);
      fill(image, gen, qp % 2 ? 1 : 2);
      const DeblockPlaneParams pp =
          deblock_plane_params(test::dct_params(qp, shifts), false, false);
      expect_plane_matches(
          t, image, pp, gen,
          "qp " + std::to_string(qp) + " shifts " + std::to_string(shifts));
      if (::testing::Test::HasFailure()) return;
    }
}

// The extremes: 0/max content at the lowest and highest thresholds drives
// the inverse's values furthest (and its saturation, if it is ever hit).
void extreme_content(const Tables& t, int depth) {
  std::mt19937 gen = test::rng(3 + 100 * depth);
  for (int qp : {16, 17, 33, 51})
    for (int shifts : kShifts) {
      Image image(plane_format(depth, shifts), 35, 19, 1);
      fill(image, gen, 3);
      const DeblockPlaneParams pp =
          deblock_plane_params(test::dct_params(qp, shifts), false, false);
      expect_plane_matches(t, image, pp, gen, "qp " + std::to_string(qp));
      if (::testing::Test::HasFailure()) return;
    }
}

// A whole plane in place (src is dst), as deblock_frame runs it on one
// thread: every row is read before it is written, the bottom mirror too.
void whole_plane_in_place(const Tables& t, int depth) {
  std::mt19937 gen = test::rng(5 + 100 * depth);
  for (int n = 0; n < 120; n++) {
    Image image(plane_format(depth, n), in(gen, 1, 70),
                n < 40 ? 1 + n : in(gen, 1, 90), in(gen, 0, 3));
    fill(image, gen, n % 5);
    const DeblockPlaneParams pp = deblock_plane_params(
        test::dct_params(in(gen, 16, 51), kShifts[n % 7]), false, false);
    Image want = image;
    const Plane plane = image.frame().planes[0];
    deblock_dct_rows_fn(t.ref, plane)(plane, want.frame().planes[0], pp, 0,
                                      plane.height);
    deblock_dct_rows_fn(t.simd, plane)(plane, plane, pp, 0, plane.height);
    ASSERT_EQ(image.bytes(), want.bytes())
        << pixel_format_name(image.format()) << " " << n;
  }
}

// Whole frames of every format (NV12/NV21 interleaved chroma written a
// sample at a time), with grid origins and chroma offsets, through
// deblock_frame in place on the calling thread. No thread pool here: this
// suite also runs under qemu-user, whose futex emulation made a pool of 3
// crawl past 25 minutes; frames split in bands across threads are checked
// natively by gst-deblock_dct (the element's output against the scalar
// library's).
void frames(const Tables& t) {
  std::mt19937 gen = test::rng(4);
  for (PixelFormat format : test::all_pixel_formats())
    for (int n = 0; n < 12; n++) {
      Image image(format, in(gen, 1, 50), in(gen, 1, 40), in(gen, 0, 4));
      fill(image, gen, n % 5);
      DeblockParams p =
          test::dct_params(in(gen, 10, 51), kShifts[in(gen, 0, 6)]);
      p.chroma_qp_offset = in(gen, -12, 12);
      p.grid_x = in(gen, 0, 15);
      p.grid_y = in(gen, 0, 15);
      Image want = image;
      deblock_frame(t.ref, want.frame(), p);
      deblock_frame(t.simd, image.frame(), p);
      ASSERT_EQ(image.bytes(), want.bytes())
          << pixel_format_name(format) << " qp " << p.qp << " shifts "
          << p.shifts << " grid " << p.grid_x << "," << p.grid_y;
    }
}

TEST_P(DeblockDctSimd, RandomPlanes8) { random_planes(Tables(), 0); }
TEST_P(DeblockDctSimd, RandomPlanes10) { random_planes(Tables(), 1); }
TEST_P(DeblockDctSimd, EveryStrengthAndShiftCount8) {
  every_strength_and_shift_count(Tables(), 0);
}
TEST_P(DeblockDctSimd, EveryStrengthAndShiftCount10) {
  every_strength_and_shift_count(Tables(), 1);
}
TEST_P(DeblockDctSimd, ExtremeContent8) { extreme_content(Tables(), 0); }
TEST_P(DeblockDctSimd, ExtremeContent10) { extreme_content(Tables(), 1); }
TEST_P(DeblockDctSimd, WholePlaneInPlace8) {
  whole_plane_in_place(Tables(), 0);
}
TEST_P(DeblockDctSimd, WholePlaneInPlace10) {
  whole_plane_in_place(Tables(), 1);
}
TEST_P(DeblockDctSimd, Frames) { frames(Tables()); }

// The AVX3 rows' VNNI form (vpdpwssd), which the init ladder takes in place
// of the AVX3 rows where the CPU reports Highway's AVX3_DL feature set (VNNI
// among it). The suite above restricts the targets to one at a time, so its
// AVX3 run checks the rows without VNNI; this one allows AVX3_DL too.
TEST(DeblockDctVnni, MatchesReference) {
#if HWY_ARCH_X86 && (HWY_TARGETS & HWY_AVX3)
  if (!(hwy::SupportedTargets() & HWY_AVX3) ||
      !(hwy::SupportedTargets() & HWY_AVX3_DL))
    GTEST_SKIP() << "this CPU has no AVX-512 VNNI";
  hwy::SetSupportedTargetsForTest(HWY_AVX3);
  const Tables plain;
  hwy::SetSupportedTargetsForTest(HWY_AVX3 | HWY_AVX3_DL);
  const Tables t;
  DeblockDsp no_islands;
  deblock_dsp_init(&no_islands, false);
  hwy::SetSupportedTargetsForTest(0);
  ASSERT_NE(t.simd.dct_rows, plain.simd.dct_rows);  // the VNNI form, chosen
  // ... unless the islands are left out (the harness's "without islands").
  ASSERT_EQ(no_islands.dct_rows, plain.simd.dct_rows);
  // 8-bit only: the 10-bit rows have no VNNI form.
  random_planes(t, 0);
  every_strength_and_shift_count(t, 0);
  extreme_content(t, 0);
  whole_plane_in_place(t, 0);
  frames(t);
#else
  GTEST_SKIP() << "this build has no AVX3 target";
#endif
}

}  // namespace
}  // namespace daedalus
