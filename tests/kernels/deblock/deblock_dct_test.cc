// Deblock mode=dct, scalar reference: the shift sets and the filter's known
// answers (docs/spec.md, mode=dct; the transform pair it runs:
// tests/kernels/common/dct8_test.cc; the filter at 10 bits:
// deblock_dct_hbd_test.cc).
#include <gtest/gtest.h>

#include <set>
#include <utility>
#include <vector>

#include "daedalus/deblock.h"
#include "test_util.h"

namespace daedalus {
namespace {

TEST(DctShifts, SetsAsSpecified) {
  const std::vector<std::pair<int, int>> four = {
      {0, 0}, {6, 2}, {4, 4}, {2, 6}};
  for (int k = 0; k < 4; k++) {
    int sx, sy;
    dct_shift(4, k, &sx, &sy);
    EXPECT_EQ(std::make_pair(sx, sy), four[k]) << k;
  }
  std::set<std::pair<int, int>> previous;
  for (int n = 1; n <= 64; n *= 2) {
    std::set<std::pair<int, int>> set;
    for (int k = 0; k < n; k++) {
      int sx, sy;
      dct_shift(n, k, &sx, &sy);
      ASSERT_TRUE(sx >= 0 && sx < 8 && sy >= 0 && sy < 8);
      set.insert({sx, sy});
    }
    EXPECT_EQ(int(set.size()), n) << "distinct offsets of " << n;
    for (const auto& s : previous) EXPECT_TRUE(set.count(s)) << n;
    if (n <= 8) {  // every row and column phase at most once
      std::set<int> xs, ys;
      for (const auto& [x, y] : set) xs.insert(x), ys.insert(y);
      EXPECT_EQ(int(xs.size()), n);
      EXPECT_EQ(int(ys.size()), n);
    }
    previous = set;
  }
}

DeblockDsp reference() {
  DeblockDsp dsp;
  deblock_dsp_init_ref(&dsp);
  return dsp;
}

TEST(DctFilter, FlatPlanesUnchanged) {
  for (int shifts = 1; shifts <= 64; shifts *= 2)
    for (auto [w, h] : {std::pair{1, 1}, {7, 3}, {16, 16}, {21, 10}}) {
      Image image(PixelFormat::I420, w, h, 5);
      test::fill(image, [](int p, int, int) { return uint8_t(p ? 77 : 200); });
      const Image before = image;
      deblock_frame(reference(), image.frame(), test::dct_params(51, shifts));
      EXPECT_TRUE(image.same_samples(before)) << w << "x" << h << " " << shifts;
      EXPECT_EQ(image.bytes(), before.bytes());  // padding untouched
    }
}

TEST(DctFilter, QpUpTo15ChangesNothing) {
  std::mt19937 gen = test::rng(5);
  for (int qp = 0; qp <= 15; qp++) {
    EXPECT_TRUE(deblock_is_noop(test::dct_params(qp, 8), true)) << qp;
    Image image(PixelFormat::I420, 24, 18, 3);
    test::fill_random(image, gen);
    const Image before = image;
    deblock_frame(reference(), image.frame(), test::dct_params(qp, 8));
    EXPECT_EQ(image.bytes(), before.bytes()) << qp;
  }
  EXPECT_FALSE(deblock_is_noop(test::dct_params(16, 1), false));
}

// A step from 100 to 106 at x = 8, every AC coefficient (at most 174) under
// the threshold of qp 51 (224): shift (0, 0)'s blocks are flat, shift
// (4, 4)'s block over the step comes back as its mean, 103 (DC -1600
// through VP9's inverse: -25); the mean of the two, rounded.
TEST(DctFilter, TwoShiftsAverageKnownAnswer) {
  Image image(PixelFormat::GRAY8, 16, 16, 0);
  test::fill(image, [](int, int x, int) { return uint8_t(x < 8 ? 100 : 106); });
  deblock_frame(reference(), image.frame(), test::dct_params(51, 2));
  const int want[16] = {100, 100, 100, 100, 102, 102, 102, 102,
                        105, 105, 105, 105, 106, 106, 106, 106};
  const Plane p = image.frame().planes[0];
  for (int y = 0; y < 16; y++)
    for (int x = 0; x < 16; x++)
      ASSERT_EQ(p.at(x, y), want[x]) << x << "," << y;
}

// One shift: blocks on the grid. The left block, a step 28 | 228 in its
// middle, has only odd horizontal frequencies, all over 1000: kept, and
// rebuilt exactly. The right one, a 120/121 checkerboard, has AC of 29 at
// most, under qp 36's 40: it comes back flat at 121 (its DC -480 through
// VP9's inverse: -7).
TEST(DctFilter, OneShiftKeepsOrFlattensEachBlock) {
  Image image(PixelFormat::GRAY8, 16, 8, 0);
  test::fill(image, [](int, int x, int y) {
    return uint8_t(x < 8 ? (x < 4 ? 28 : 228) : 120 + ((x + y) & 1));
  });
  const Image before = image;
  deblock_frame(reference(), image.frame(), test::dct_params(36, 1));
  const Plane p = image.frame().planes[0];
  const ConstPlane b = before.frame().planes[0];
  for (int y = 0; y < 8; y++)
    for (int x = 0; x < 16; x++)
      ASSERT_EQ(p.at(x, y), x < 8 ? b.at(x, y) : 121) << x << "," << y;
}

TEST(DctFilter, ChromaUsesItsQp) {
  // Chroma qp 27 - 12 = 15, and 51 - 51 = 0 (the offset's minimum): chroma
  // unchanged, luma filtered.
  for (auto [qp, offset] : {std::pair{27, -12}, std::pair{51, -51}}) {
    std::mt19937 gen = test::rng(6);
    // Noise of +-2: luma's threshold at qp 27 (14) takes much of its AC.
    Image image(PixelFormat::I420, 32, 32, 0);
    test::fill_near(image, gen, 128, 2);
    const Image before = image;
    DeblockParams p = test::dct_params(qp, 4);
    p.chroma_qp_offset = offset;
    deblock_frame(reference(), image.frame(), p);
    const ConstFrame a = image.frame(), b = before.frame();
    bool luma_changed = false;
    for (int y = 0; y < 32; y++)
      for (int x = 0; x < 32; x++)
        luma_changed |= a.planes[0].at(x, y) != b.planes[0].at(x, y);
    EXPECT_TRUE(luma_changed) << qp;
    for (int c = 1; c < 3; c++)
      for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++)
          ASSERT_EQ(a.planes[c].at(x, y), b.planes[c].at(x, y)) << qp;
  }
}

// Samples before the grid origin are neither read nor written; the rest is
// the filter of the sub-plane.
TEST(DctFilter, GridOriginIsTheSubPlane) {
  std::mt19937 gen = test::rng(7);
  Image image(PixelFormat::GRAY8, 30, 20, 2);
  test::fill_random(image, gen);
  Image sub(PixelFormat::GRAY8, 30 - 5, 20 - 3, 0);
  const ConstPlane whole = image.frame().planes[0];
  test::fill(sub, [&](int, int x, int y) { return whole.at(x + 5, y + 3); });
  const Image before = image;
  DeblockParams p = test::dct_params(40, 8);
  p.grid_x = 13;  // 13 mod 8 = 5
  p.grid_y = 3;
  deblock_frame(reference(), image.frame(), p);
  p.grid_x = p.grid_y = 0;
  deblock_frame(reference(), sub.frame(), p);
  const ConstPlane out = image.frame().planes[0], in = before.frame().planes[0],
                   want = sub.frame().planes[0];
  for (int y = 0; y < 20; y++)
    for (int x = 0; x < 30; x++)
      ASSERT_EQ(out.at(x, y),
                x < 5 || y < 3 ? in.at(x, y) : want.at(x - 5, y - 3))
          << x << "," << y;
}

// Any split of the rows gives the same plane.
TEST(DctFilter, RowRangesAreIndependent) {
  std::mt19937 gen = test::rng(8);
  Image image(PixelFormat::GRAY8, 37, 45, 0);
  test::fill_random(image, gen);
  const Image source = image;
  DeblockPlaneParams pp =
      deblock_plane_params(test::dct_params(36, 8), false, false);
  Image whole = image, pieces = image;
  reference().dct_rows(source.frame().planes[0], whole.frame().planes[0], pp, 0,
                       45);
  for (auto [b, e] : test::random_pieces(45, gen))
    reference().dct_rows(source.frame().planes[0], pieces.frame().planes[0], pp,
                         b, e);
  EXPECT_TRUE(whole.same_samples(pieces));
  EXPECT_FALSE(whole.same_samples(source));
}

}  // namespace
}  // namespace daedalus
