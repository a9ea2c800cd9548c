// CDEF scalar reference: the block filter, from single-tap known answers
// to the clipping and availability rules.
#include "daedalus/cdef.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cdef_test_helpers.h"
#include "test_util.h"

namespace daedalus {
namespace {

using namespace cdef_test;

// ----------------------------------------------------------- the filter

TEST(CdefFilter, SingleTapImpulseEachDirection) {
  struct Case {
    Tap tap;
    int k, pri, sec, damping, delta;
    int center;                   // expected output at c
    int peak;                     // expected output at the impulse
    bool even_dirs_only = false;  // see OddDirectionsShareATap
  };
  // c: sum = w * constrain(delta, s, shift), out = 128 + ((8 + sum -
  // (sum < 0)) >> 4). The impulse sees its own taps (all 128) at -delta.
  const Case cases[] = {
      // pri 4, damping 3: shift 1. constrain(4) = min(4, 4 - 2) = 2, w 4:
      // sum 8 -> 1. Impulse: 4 taps of -2, w 4,4,2,2: -24 -> -2.
      {Tap::Pri, 0, 4, 0, 3, 4, 129, 130},
      {Tap::Pri, 0, 4, 0, 3, -4, 127, 126},
      // |delta| 10: 4 - (10 >> 1) < 0: a large difference is ignored.
      {Tap::Pri, 0, 4, 0, 3, 10, 128, 138},
      // pri 8, damping 6: shift 3. constrain(8) = min(8, 8 - 1) = 7.
      // k0 (w 4): 28 -> 36 >> 4 = 2. k1 (w 2): 14 -> 1. Impulse: 12 * -7 =
      // -84 -> (8 - 84 - 1) >> 4 = -5.
      {Tap::Pri, 0, 8, 0, 6, 8, 130, 131},
      {Tap::Pri, 1, 8, 0, 6, 8, 129, 131},
      {Tap::Pri, 1, 8, 0, 6, -8, 127, 125},
      // delta 1: 4 -> 12 >> 4 = 0; impulse -12 -> -5 >> 4 = -1.
      {Tap::Pri, 0, 8, 0, 6, 1, 128, 128},
      // delta 4: constrain 4, 16 -> 1; impulse -48 -> -41 >> 4 = -3.
      {Tap::Pri, 0, 8, 0, 6, 4, 129, 129},
      // sec 4, damping 6: shift 4. constrain(8) = min(8, 4 - 0) = 4.
      // k0 (w 2): 8 -> 1. k1 (w 1): 4 -> 0. Impulse: 8 taps, w 2,2,2,2,1,1,
      // 1,1, of -4: -48 -> -3.
      {Tap::SecPlus2, 0, 0, 4, 6, 8, 129, 133},
      {Tap::SecMinus2, 0, 0, 4, 6, 8, 129, 133},
      {Tap::SecPlus2, 0, 0, 4, 6, -8, 127, 123},
      {Tap::SecMinus2, 0, 0, 4, 6, -8, 127, 123},
      {Tap::SecPlus2, 1, 0, 4, 6, 8, 128, 133},
      {Tap::SecMinus2, 1, 0, 4, 6, 8, 128, 133},
      // sec 4, damping 3: shift 1, 4 - (8 >> 1) = 0: ignored.
      {Tap::SecPlus2, 0, 0, 4, 3, 8, 128, 136},
      // A secondary impulse with only primary taps on is not seen (the
      // impulse itself still is filtered as above).
      {Tap::SecPlus2, 0, 8, 0, 6, 8, 128, 131, true},
      {Tap::SecMinus2, 0, 8, 0, 6, 8, 128, 131, true},
      {Tap::SecPlus2, 1, 8, 0, 6, 8, 128, 131},
      // A primary impulse with only secondary taps on is not seen.
      {Tap::Pri, 0, 0, 4, 6, 8, 128, 133, true},
      {Tap::Pri, 1, 0, 4, 6, 8, 128, 133},
  };
  for (int dir = 0; dir < 8; dir++) {
    for (const Case& c : cases) {
      if (c.even_dirs_only && dir % 2) continue;
      for (int sign = -1; sign <= 1; sign += 2) {
        const int tap_dir = c.tap == Tap::Pri        ? dir
                            : c.tap == Tap::SecPlus2 ? (dir + 2) & 7
                                                     : (dir + 6) & 7;
        const std::vector<Impulse> list = {
            {sign * kCdefDirections[tap_dir][c.k][0],
             sign * kCdefDirections[tap_dir][c.k][1], c.delta}};
        const Image src = impulses(list);
        const Image out =
            filter_center_block(src, {c.pri, c.sec, dir, c.damping});
        SCOPED_TRACE(testing::Message()
                     << "dir " << dir << " tap " << int(c.tap) << " k " << c.k
                     << " sign " << sign << " pri " << c.pri << " sec " << c.sec
                     << " damping " << c.damping << " delta " << c.delta);
        EXPECT_EQ(at(out, kC, kC), c.center);
        EXPECT_EQ(at(out, kC + list[0].dx, kC + list[0].dy), c.peak);
        expect_untouched_far_from(out, list);
      }
    }
  }
}

TEST(CdefFilter, OddPrimaryWeightsAreThreeThree) {
  // Impulses of +7 at c +- off(dir, k). pri 15 (odd): weights 3, 3; pri 14
  // (even): 4, 2. damping 6, shift 3: constrain(7) = 7 for both.
  // pri 15: 2 * 3 * 7 = 42 -> 50 >> 4 = 3 for k 0 and k 1.
  // pri 14: k 0: 2 * 4 * 7 = 56 -> 4; k 1: 2 * 2 * 7 = 28 -> 36 >> 4 = 2.
  for (int dir = 0; dir < 8; dir++) {
    for (int k = 0; k < 2; k++) {
      const int dy = kCdefDirections[dir][k][0],
                dx = kCdefDirections[dir][k][1];
      const Image src = impulses({{dy, dx, 7}, {-dy, -dx, 7}});
      Image odd = filter_center_block(src, {15, 0, dir, 6});
      Image even = filter_center_block(src, {14, 0, dir, 6});
      EXPECT_EQ(at(odd, kC, kC), 131) << dir << " " << k;
      EXPECT_EQ(at(even, kC, kC), k == 0 ? 132 : 130) << dir << " " << k;
    }
  }
}

TEST(CdefFilter, DampingWidensWhatIsSeen) {
  // +12 at c +- off(dir, 0), pri 4: threshold 4 - (12 >> (damping - 2)).
  // damping 3: 4 - 6 -> 0: 128. 4: 4 - 3 = 1, 8 -> 129. 5: 4 - 1 = 3, 24 ->
  // 32 >> 4 = 2: 130. 6: 4 - 0 = 4, 32 -> 40 >> 4 = 2: 130.
  const int expected[4] = {128, 129, 130, 130};
  for (int dir = 0; dir < 8; dir++) {
    const int dy = kCdefDirections[dir][0][0], dx = kCdefDirections[dir][0][1];
    const Image src = impulses({{dy, dx, 12}, {-dy, -dx, 12}});
    for (int damping = 3; damping <= 6; damping++) {
      Image out = filter_center_block(src, {4, 0, dir, damping});
      EXPECT_EQ(at(out, kC, kC), expected[damping - 3])
          << dir << " " << damping;
    }
  }
}

TEST(CdefFilter, PrimaryAndSecondaryAdd) {
  // +4 at c +- off(dir, 1) and at c +- off(dir + 2, 1) (no two second taps
  // coincide); damping 6, pri 4 (shift 4), sec 4 (shift 4): constrain(4) = 4.
  // Primary: 2 * w 2 * 4 = 16; secondary: 2 * w 1 * 4 = 8.
  // pri only: 16 -> 24 >> 4 = 1; sec only: 8 -> 16 >> 4 = 1;
  // both: 24 -> 32 >> 4 = 2 (within [128, 132]); neither: a copy.
  for (int dir = 0; dir < 8; dir++) {
    const int s = (dir + 2) & 7;
    const int py = kCdefDirections[dir][1][0], px = kCdefDirections[dir][1][1];
    const int sy = kCdefDirections[s][1][0], sx = kCdefDirections[s][1][1];
    const Image src =
        impulses({{py, px, 4}, {-py, -px, 4}, {sy, sx, 4}, {-sy, -sx, 4}});
    Image pri = filter_center_block(src, {4, 0, dir, 6});
    Image sec = filter_center_block(src, {0, 4, dir, 6});
    Image both = filter_center_block(src, {4, 4, dir, 6});
    Image none = filter_center_block(src, {0, 0, dir, 6});
    EXPECT_EQ(at(pri, kC, kC), 129) << dir;
    EXPECT_EQ(at(sec, kC, kC), 129) << dir;
    EXPECT_EQ(at(both, kC, kC), 130) << dir;
    EXPECT_TRUE(none.same_samples(src)) << dir;
  }
}

TEST(CdefFilter, OddDirectionsShareATap) {
  // The first taps of directions 1, 2, 3 are all (0, 1), those of 5, 6, 7
  // all (1, 0): for an odd direction, the first primary tap is also the
  // first tap of one secondary direction (1: 3, 3: 1, 5: 7, 7: 5), and
  // counts twice. +4 there, damping 6, pri 4 (w 4) and sec 4 (w 2), both
  // constrain(4) = 4: pri only 16 -> 1; sec only 8 -> 1 for odd directions
  // (0 for even ones, where the tap is not a secondary one); both 24 -> 2.
  for (int dir = 0; dir < 8; dir++) {
    const Image src =
        impulses({{kCdefDirections[dir][0][0], kCdefDirections[dir][0][1], 4}});
    Image pri = filter_center_block(src, {4, 0, dir, 6});
    Image sec = filter_center_block(src, {0, 4, dir, 6});
    Image both = filter_center_block(src, {4, 4, dir, 6});
    const bool odd = dir % 2;
    EXPECT_EQ(at(pri, kC, kC), 129) << dir;
    EXPECT_EQ(at(sec, kC, kC), odd ? 129 : 128) << dir;
    EXPECT_EQ(at(both, kC, kC), odd ? 130 : 129) << dir;
  }
}

TEST(CdefFilter, ClipsToRangeOfAvailableTaps) {
  // pri 4, sec 4, damping 6: every constrain passes |delta| 4 whole.
  // Interior px 128 among 132: sum 4 * (4 + 2 + 4 + 2 + 2 + 1 + 2 + 1 + 2 +
  // 1 + 2 + 1) = 96 -> 104 >> 4 = 6: 134, clipped to 132.
  Image src = flat(24, 24, 132);
  at(src, kC, kC) = 128;
  Image out = filter_center_block(src, {4, 4, 2, 6});
  EXPECT_EQ(at(out, kC, kC), 132);

  // At (1, 4) of an 8x8 plane, dir 2: taps at x = -1 are unavailable, the
  // rest weigh 4+2+4 (primary) + 2+1+2+2+1+2 (secondary) = 20.
  // px 128 among 132: 80 -> 88 >> 4 = 5: 133, clipped to the available max
  // 132. px 132 among 128: -80 -> -73 >> 4 = -5: 127, clipped to 128.
  Image up = flat(8, 8, 132), down = flat(8, 8, 128);
  at(up, 1, 4) = 128;
  at(down, 1, 4) = 132;
  Image up_out = clone(up), down_out = clone(down);
  filter(up_out, up, 0, 0, 8, 8, {4, 4, 2, 6});
  filter(down_out, down, 0, 0, 8, 8, {4, 4, 2, 6});
  EXPECT_EQ(at(up_out, 1, 4), 132);
  EXPECT_EQ(at(down_out, 1, 4), 128);
}

TEST(CdefFilter, UnavailableTapsAreIgnoredNotClamped) {
  // 8x8 plane of 128 with one edge line at 132; primary only along the
  // normal of that edge (dir 2 horizontal, 6 vertical), pri 4, damping 6:
  // constrain(+-4) = +-4. Distance from the edge line:
  // 0: two inner taps at -4, w 4 + 2: -24 -> -17 >> 4 = -2: 130.
  // 1: tap at the line +4 (w 4), the tap beyond the plane is ignored: 16 ->
  //    24 >> 4 = 1: 129 (clamping it onto the line would give 24 -> 130).
  // 2: tap at the line, w 2: 8 -> 1: 129. 3 and on: 128.
  const int profile[8] = {130, 129, 129, 128, 128, 128, 128, 128};
  struct Edge {
    const char* name;
    int dir;
    bool vertical_line, far_side;
  };
  const Edge edges[] = {{"left", 2, true, false},
                        {"right", 2, true, true},
                        {"top", 6, false, false},
                        {"bottom", 6, false, true}};
  for (const Edge& e : edges) {
    Image src(PixelFormat::GRAY8, 8, 8, kPad);
    test::fill(src, [&](int, int x, int y) {
      const int pos = e.vertical_line ? x : y;
      return uint8_t(pos == (e.far_side ? 7 : 0) ? 132 : 128);
    });
    Image out = clone(src);
    filter(out, src, 0, 0, 8, 8, {4, 0, e.dir, 6});
    for (int y = 0; y < 8; y++)
      for (int x = 0; x < 8; x++) {
        int d = e.vertical_line ? x : y;
        if (e.far_side) d = 7 - d;
        EXPECT_EQ(at(out, x, y), profile[d]) << e.name << " " << x << "," << y;
      }
    EXPECT_TRUE(test::guards_intact(out));
  }
}

TEST(CdefFilter, OutputWithinRangeOfItsTaps) {
  std::mt19937 gen = test::rng(3);
  for (int round = 0; round < 300; round++) {
    Image src(PixelFormat::GRAY8, 24, 16, kPad);
    fill_content(src, gen, round);
    const CdefBlockParams bp = {int(gen() % 16), int("\0\1\2\4"[gen() % 4]),
                                int(gen() % 8), 2 + int(gen() % 5)};
    Image out = clone(src);
    for (int y = 0; y < 16; y += 8)
      for (int x = 0; x < 24; x += 8) filter(out, src, x, y, 8, 8, bp);
    for (int y = 0; y < 16; y++)
      for (int x = 0; x < 24; x++) {
        int lo = at(src, x, y), hi = lo;
        auto see = [&](int dir, int k, int sign) {
          const int ty = y + sign * kCdefDirections[dir][k][0];
          const int tx = x + sign * kCdefDirections[dir][k][1];
          if (tx < 0 || ty < 0 || tx >= 24 || ty >= 16) return;
          lo = std::min<int>(lo, at(src, tx, ty));
          hi = std::max<int>(hi, at(src, tx, ty));
        };
        for (int k = 0; k < 2; k++)
          for (int sign = -1; sign <= 1; sign += 2) {
            if (bp.pri) see(bp.dir, k, sign);
            if (bp.sec) {
              see((bp.dir + 2) & 7, k, sign);
              see((bp.dir + 6) & 7, k, sign);
            }
          }
        const int v = at(out, x, y);
        ASSERT_TRUE(v >= lo && v <= hi)
            << "(" << x << ", " << y << ") " << v << " outside [" << lo << ", "
            << hi << "] pri " << bp.pri << " sec " << bp.sec << " dir "
            << bp.dir << " damping " << bp.damping;
      }
  }
}

TEST(CdefFilter, ReadsSourceOnlyAndHonoursStep) {
  // Filtering into garbage gives the same result; an NV12 chroma plane
  // (step 2) gives what the same samples give in a planar layout.
  std::mt19937 gen = test::rng(4);
  Image nv(PixelFormat::NV12, 32, 32, kPad),
      i420(PixelFormat::I420, 32, 32, kPad);
  fill_content(nv, gen, 1);
  const ConstFrame n = nv.frame();
  test::fill(i420, [&](int p, int x, int y) { return n.planes[p].at(x, y); });
  for (int dir = 0; dir < 8; dir++) {
    const CdefBlockParams bp = {5, 2, dir, 4};
    Image a(PixelFormat::NV12, 32, 32, kPad),
        b(PixelFormat::I420, 32, 32, kPad);
    test::fill_random(a, gen);
    test::fill(b, [](int, int, int) { return uint8_t(0); });
    for (int p = 1; p < 3; p++)
      for (int y = 0; y < 16; y += 8)
        for (int x = 0; x < 16; x += 8) {
          cdef_filter_block_ref(a.frame().planes[p], n.planes[p], x, y, 8, 8,
                                bp);
          cdef_filter_block_ref(b.frame().planes[p], i420.frame().planes[p], x,
                                y, 8, 8, bp);
        }
    for (int p = 1; p < 3; p++)
      for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++)
          ASSERT_EQ(a.frame().planes[p].at(x, y), b.frame().planes[p].at(x, y))
              << dir << " plane " << p << " " << x << "," << y;
    EXPECT_TRUE(test::guards_intact(a));
  }
}

}  // namespace
}  // namespace daedalus
