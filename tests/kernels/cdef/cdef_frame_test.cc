// CDEF scalar reference: whole frames (blocks, chroma, remainders, bands)
// against an oracle composed from the block functions, and parameter ranges.
#include "daedalus/cdef.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cdef_known_answers.h"
#include "cdef_test_helpers.h"
#include "test_util.h"

namespace daedalus {
namespace {

using namespace cdef_test;

// ------------------------------------------------------------ the frame

TEST(CdefFrame, StripesKnownAnswer) {
  // 8x8 GRAY8, rows 0-3 = 130, rows 4-7 = 126. Direction search: samples -
  // 128 = +-2 constant along rows: cost[2] = 8 * 16^2 * 105 = 215040,
  // cost[6] = 0: dir 2, var 215040 >> 10 = 210; pri = adjust(4, 210) = 1
  // (i = log2(3) = 1: (20 + 8) >> 4). The primary taps run along rows: 0.
  // Secondary dirs 4 (+-(1,1), (2,2)) and 0 (+-(-1,1), (-2,2)), sec 4,
  // damping 6 (shift 4): a tap across the edge gives +-4 * w.
  // Row 3 interior: rows 4, 5 via 2 taps of w 2 and 2 of w 1: -24 ->
  // -17 >> 4 = -2: 128. Columns 0, 7 lose w 2 + 1 (-12 -> 129), columns 1, 6
  // lose w 1 (-20 -> -13 >> 4 = -1: 129). Row 2 sees row 4 through two w 1
  // taps: -8 -> -1: 129, columns 0, 1, 6, 7 lose one: -4 -> 0: 130.
  // Rows 4, 5 mirror rows 3, 2.
  Image src(PixelFormat::GRAY8, 8, 8, kPad);
  test::fill_stripes(src);
  for (int sec : {4, 3}) {  // 3 acts as 4
    Image out = run_cdef(src, {4, sec, 0, 0, 6});
    for (int y = 0; y < 8; y++)
      for (int x = 0; x < 8; x++)
        EXPECT_EQ(at(out, x, y), test::kStripesFiltered[y][x])
            << sec << " " << x << "," << y;
    EXPECT_TRUE(test::guards_intact(out));
  }
}

TEST(CdefFrame, ChromaUsesDampingMinusOne) {
  // Y444 16x16, luma flat (dir 0, var 0: luma unfiltered), U has +6 at
  // c + off(0, 0) of the chroma block at (8, 8). uv pri 4, uv sec 0.
  // Chroma damping 3 (damping 4): 4 - (6 >> 1) = 1, w 4: 4 -> 12 >> 4 = 0.
  // Chroma damping 4 (damping 5): 4 - (6 >> 2) = 3: 12 -> 20 >> 4 = 1.
  Image src(PixelFormat::Y444, 16, 16, kPad);
  test::fill(src, [](int p, int x, int y) {
    return uint8_t(p == 1 && x == kC + 1 && y == kC - 1 ? 134 : 128);
  });
  Image d4 = run_cdef(src, {0, 0, 4, 0, 4});
  Image d5 = run_cdef(src, {0, 0, 4, 0, 5});
  EXPECT_EQ(at(d4, kC, kC, 1), 128);
  EXPECT_EQ(at(d5, kC, kC, 1), 129);
  EXPECT_EQ(at(d5, kC, kC, 0), 128);
  EXPECT_EQ(at(d5, kC, kC, 2), 128);
}

TEST(CdefFrame, FlatPlanesUnchanged) {
  std::mt19937 gen = test::rng(5);
  for (PixelFormat format : kAllPixelFormats)
    for (int value : {0, 1, 128, 254, 255}) {
      Image src(format, 33, 17, kPad);
      test::fill(src, [&](int p, int, int) {
        return uint8_t(p == 0 ? value : 255 - value);
      });
      for (int round = 0; round < 4; round++) {
        CdefParams prm = round == 0 ? CdefParams{15, 4, 15, 4, 6}
                                    : test::random_cdef_params(gen);
        Image out = run_cdef(src, prm);
        EXPECT_EQ(test::first_difference(src, out), "");
      }
    }
}

TEST(CdefFrame, MatchesBlockCompositionEveryFormatAndSize) {
  std::mt19937 gen = test::rng(6);
  const int sizes[][2] = {{1, 1},   {7, 5},   {8, 8},   {9, 9},
                          {15, 15}, {16, 8},  {17, 9},  {23, 7},
                          {24, 16}, {31, 23}, {33, 65}, {64, 48}};
  for (PixelFormat format : kAllPixelFormats)
    for (const auto& s : sizes)
      for (int round = 0; round < 6; round++) {
        Image src(format, s[0], s[1], kPad);
        fill_content(src, gen, round);
        const Image src_copy = clone(src);
        const CdefParams prm = test::random_cdef_params(gen);
        const Image out = run_cdef(src, prm);
        const Image want = expected_cdef(src, prm);
        SCOPED_TRACE(testing::Message()
                     << pixel_format_name(format) << " " << s[0] << "x" << s[1]
                     << " pri " << prm.pri_strength << " sec "
                     << prm.sec_strength << " uv " << prm.uv_pri_strength << "/"
                     << prm.uv_sec_strength << " damping " << prm.damping);
        ASSERT_EQ(test::first_difference(want, out), "");
        ASSERT_TRUE(test::guards_intact(out));
        ASSERT_TRUE(test::guards_intact(src));
        ASSERT_TRUE(src.same_samples(src_copy));
        expect_within_window(src, out);
      }
}

TEST(CdefFrame, EveryParameterValue) {
  std::mt19937 gen = test::rng(7);
  Image src(PixelFormat::I420, 24, 16, kPad);
  for (int pri = 0; pri <= 15; pri++)
    for (int sec = 0; sec <= 4; sec++)
      for (int damping = 3; damping <= 6; damping++) {
        fill_content(src, gen, pri + sec + damping);
        const CdefParams prm = {pri, sec, 15 - pri, 4 - sec, damping};
        ASSERT_TRUE(cdef_params_valid(prm));
        const Image out = run_cdef(src, prm);
        SCOPED_TRACE(testing::Message() << pri << " " << sec << " " << damping);
        ASSERT_EQ(test::first_difference(expected_cdef(src, prm), out), "");
        expect_within_window(src, out);
      }
}

TEST(CdefFrame, SecondaryThreeActsAsFour) {
  std::mt19937 gen = test::rng(8);
  Image src(PixelFormat::I420, 32, 32, kPad);
  test::fill_near(src, gen, 128, 8);
  const Image three = run_cdef(src, {6, 3, 6, 3, 6});
  const Image four = run_cdef(src, {6, 4, 6, 4, 6});
  const Image two = run_cdef(src, {6, 2, 6, 2, 6});
  EXPECT_EQ(test::first_difference(four, three), "");
  EXPECT_NE(test::first_difference(four, two), "");
}

TEST(CdefFrame, RemainderIsCopied) {
  std::mt19937 gen = test::rng(9);
  for (PixelFormat format : kAllPixelFormats) {
    Image src(format, 21, 19, kPad);
    test::fill_near(src, gen, 128, 10);
    const Image out = run_cdef(src, {15, 4, 15, 4, 6});
    const ConstFrame s = src.frame(), o = out.frame();
    bool changed = false;
    for (int p = 0; p < s.num_planes; p++) {
      const int sx = p ? s.chroma_shift_x : 0, sy = p ? s.chroma_shift_y : 0;
      for (int y = 0; y < s.planes[p].height; y++)
        for (int x = 0; x < s.planes[p].width; x++) {
          // Full luma blocks cover [0, 16) x [0, 16).
          if (x < (16 >> sx) && y < (16 >> sy)) {
            changed |= s.planes[p].at(x, y) != o.planes[p].at(x, y);
            continue;
          }
          ASSERT_EQ(s.planes[p].at(x, y), o.planes[p].at(x, y))
              << pixel_format_name(format) << " plane " << p << " " << x << ","
              << y;
        }
    }
    EXPECT_TRUE(changed) << pixel_format_name(format);
    EXPECT_TRUE(test::guards_intact(out));
  }
}

TEST(CdefFrame, ChromaBlockOutsideItsPlaneIsCopied) {
  // A caller's chroma planes may be smaller than rounding up gives: viewed
  // as 7x7, the 4x4 chroma blocks at x or y = 4 are not fully inside and are
  // copied; the one at (0, 0) is filtered as in the full 8x8 chroma plane
  // (its taps reach x, y <= 5 only).
  std::mt19937 gen = test::rng(16);
  Image src(PixelFormat::I420, 16, 16, kPad),
      dst(PixelFormat::I420, 16, 16, kPad);
  test::fill_near(src, gen, 128, 8);
  test::fill(dst, [](int, int, int) { return uint8_t(0); });
  const CdefParams prm = {0, 0, 15, 4, 6};
  const Image full = run_cdef(src, prm);
  Frame d = dst.frame();
  ConstFrame s = src.frame();
  for (int p = 1; p < 3; p++) {
    d.planes[p].width = d.planes[p].height = 7;
    s.planes[p].width = s.planes[p].height = 7;
  }
  cdef_frame(ref_dsp(), d, s, prm);
  bool filtered = false;
  for (int p = 1; p < 3; p++)
    for (int y = 0; y < 7; y++)
      for (int x = 0; x < 7; x++) {
        const int want =
            (x < 4 && y < 4) ? at(full, x, y, p) : at(src, x, y, p);
        ASSERT_EQ(at(dst, x, y, p), want) << p << " " << x << "," << y;
        filtered |= x < 4 && y < 4 && want != at(src, x, y, p);
      }
  EXPECT_TRUE(filtered);
}

TEST(CdefFrame, Chroma422UsesRemappedDirection) {
  std::mt19937 gen = test::rng(10);
  Image src(PixelFormat::Y42B, 64, 64, kPad);
  const CdefParams prm = {0, 0, 9, 2, 5};  // chroma only
  int remap_mattered = 0;
  for (int round = 0; round < 4; round++) {
    fill_content(src, gen, round + 1);
    const Image out = run_cdef(src, prm);
    const ConstFrame s = src.frame();
    Image remapped = clone(src), plain = clone(src);
    for (int y = 0; y < 64; y += 8)
      for (int x = 0; x < 64; x += 8) {
        int var;
        const int dir = cdef_find_dir_ref(s.planes[0], x, y, &var);
        for (int p = 1; p < 3; p++) {
          cdef_filter_block_ref(remapped.frame().planes[p], s.planes[p], x / 2,
                                y, 4, 8, {9, 2, kCdefDir422[dir], 4});
          cdef_filter_block_ref(plain.frame().planes[p], s.planes[p], x / 2, y,
                                4, 8, {9, 2, dir, 4});
        }
      }
    ASSERT_EQ(test::first_difference(remapped, out), "");
    remap_mattered += !plain.same_samples(remapped);
  }
  EXPECT_GT(remap_mattered, 0);
}

TEST(CdefFrame, SemiPlanarChromaEqualsPlanar) {
  std::mt19937 gen = test::rng(11);
  for (int round = 0; round < 6; round++) {
    const uint32_t salt = gen();
    auto value = [salt](int p, int x, int y) {
      uint32_t h = salt ^ (uint32_t(p) * 0x9E3779B1u) ^ (uint32_t(x) << 8) ^
                   (uint32_t(y) << 20);
      h *= 0x85EBCA6Bu;
      h ^= h >> 13;
      return uint8_t(112 + (h >> 24) % 32);
    };
    Image nv(PixelFormat::NV12, 41, 27, kPad),
        pl(PixelFormat::I420, 41, 27, kPad);
    test::fill(nv, value);
    test::fill(pl, value);
    const CdefParams prm = test::random_cdef_params(gen);
    EXPECT_EQ(test::first_difference(run_cdef(pl, prm), run_cdef(nv, prm)), "");
  }
}

TEST(CdefFrame, BlockRowSplitsAgree) {
  std::mt19937 gen = test::rng(12);
  const CdefDsp dsp = ref_dsp();
  for (PixelFormat format : kAllPixelFormats) {
    Image src(format, 33, 65, kPad);
    fill_content(src, gen, 1);
    const CdefParams prm = test::random_cdef_params(gen);
    const Image whole = run_cdef(src, prm);
    const int n = cdef_block_rows(src.frame());
    ASSERT_EQ(n, 9);
    for (int k = 0; k <= n; k++) {
      Image dst(format, 33, 65, kPad);
      test::fill_random(dst, gen);
      // The later band first: bands are independent.
      cdef_filter_rows(dsp, dst.frame(), src.frame(), prm, k, n);
      cdef_filter_rows(dsp, dst.frame(), src.frame(), prm, 0, k);
      ASSERT_EQ(test::first_difference(whole, dst), "") << "k " << k;
      ASSERT_TRUE(test::guards_intact(dst));
    }
  }
}

TEST(CdefFrame, BandWritesExactlyItsRows) {
  // Two different garbage fills: samples of the band must equal the whole
  // frame's result in both (so all are written), the rest must keep it.
  std::mt19937 gen = test::rng(13);
  const CdefDsp dsp = ref_dsp();
  for (PixelFormat format : kAllPixelFormats) {
    Image src(format, 30, 43, kPad);
    fill_content(src, gen, 2);
    const CdefParams prm = test::random_cdef_params(gen);
    const Image whole = run_cdef(src, prm);
    const int n = cdef_block_rows(src.frame());
    for (int a = 0; a < n; a++)
      for (int b = a + 1; b <= n; b++)
        for (int garbage : {0x00, 0xFF}) {
          Image dst(format, 30, 43, kPad);
          test::fill(dst, [&](int, int, int) { return uint8_t(garbage); });
          cdef_filter_rows(dsp, dst.frame(), src.frame(), prm, a, b);
          const ConstFrame d = dst.frame(), w = whole.frame();
          for (int p = 0; p < d.num_planes; p++) {
            const int sy = p ? d.chroma_shift_y : 0;
            const int y0 = (8 * a) >> sy;
            const int y1 = std::min((8 * b) >> sy, d.planes[p].height);
            for (int y = 0; y < d.planes[p].height; y++)
              for (int x = 0; x < d.planes[p].width; x++) {
                const int want =
                    (y >= y0 && y < y1) ? w.planes[p].at(x, y) : garbage;
                ASSERT_EQ(d.planes[p].at(x, y), want)
                    << pixel_format_name(format) << " [" << a << ", " << b
                    << ") plane " << p << " " << x << "," << y;
              }
          }
          ASSERT_TRUE(test::guards_intact(dst));
        }
  }
}

TEST(CdefFrame, OutputIndependentOfDestination) {
  std::mt19937 gen = test::rng(14);
  for (PixelFormat format : kAllPixelFormats) {
    Image src(format, 35, 21, kPad);
    fill_content(src, gen, 1);
    const CdefParams prm = test::random_cdef_params(gen);
    Image a(format, 35, 21, kPad), b(format, 35, 21, kPad);
    test::fill_random(a, gen);
    test::fill(b, [](int, int, int) { return uint8_t(0); });
    cdef_frame(ref_dsp(), a.frame(), src.frame(), prm);
    cdef_frame(ref_dsp(), b.frame(), src.frame(), prm);
    EXPECT_EQ(test::first_difference(b, a), "") << pixel_format_name(format);
  }
}

TEST(CdefFrame, NoopCopies) {
  std::mt19937 gen = test::rng(15);
  for (int damping = 3; damping <= 6; damping++) {
    const CdefParams prm = {0, 0, 0, 0, damping};
    ASSERT_TRUE(cdef_is_noop(prm));
    for (PixelFormat format : kAllPixelFormats) {
      Image src(format, 27, 18, kPad);
      fill_content(src, gen, damping);
      EXPECT_EQ(test::first_difference(src, run_cdef(src, prm)), "");
    }
  }
  EXPECT_FALSE(cdef_is_noop({1, 0, 0, 0, 3}));
  EXPECT_FALSE(cdef_is_noop({0, 1, 0, 0, 3}));
  EXPECT_FALSE(cdef_is_noop({0, 0, 1, 0, 3}));
  EXPECT_FALSE(cdef_is_noop({0, 0, 0, 1, 3}));
}

TEST(CdefParamsValid, Ranges) {
  EXPECT_TRUE(cdef_params_valid(CdefParams{}));
  EXPECT_TRUE(cdef_params_valid({0, 0, 0, 0, 3}));
  EXPECT_TRUE(cdef_params_valid({15, 4, 15, 4, 6}));
  const CdefParams bad[] = {
      {-1, 1, 4, 1, 3}, {16, 1, 4, 1, 3}, {4, -1, 4, 1, 3}, {4, 5, 4, 1, 3},
      {4, 1, -1, 1, 3}, {4, 1, 16, 1, 3}, {4, 1, 4, -1, 3}, {4, 1, 4, 5, 3},
      {4, 1, 4, 1, 2},  {4, 1, 4, 1, 7}};
  for (const CdefParams& p : bad)
    EXPECT_FALSE(cdef_params_valid(p))
        << p.pri_strength << " " << p.sec_strength << " " << p.uv_pri_strength
        << " " << p.uv_sec_strength << " " << p.damping;
}

}  // namespace
}  // namespace daedalus
