#include "daedalus/cdef.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "test_util.h"

namespace daedalus {
namespace {

constexpr int kPad = 3;

CdefDsp ref_dsp() {
  CdefDsp dsp;
  cdef_dsp_init_ref(&dsp);
  return dsp;
}

Image flat(int w, int h, uint8_t value) {
  Image image(PixelFormat::GRAY8, w, h, kPad);
  test::fill(image, [value](int, int, int) { return value; });
  return image;
}

// Image is not copyable (its views point into its own bytes): build a twin.
Image clone(const Image& src) {
  Image out(src.format(), src.width(), src.height(), kPad);
  const ConstFrame f = src.frame();
  test::fill(out, [&](int p, int x, int y) { return f.planes[p].at(x, y); });
  return out;
}

uint8_t& at(Image& image, int x, int y, int p = 0) {
  return image.frame().planes[p].at(x, y);
}
int at(const Image& image, int x, int y, int p = 0) {
  return image.frame().planes[p].at(x, y);
}

void filter(Image& dst, const Image& src, int x, int y, int w, int h,
            const CdefBlockParams& bp) {
  cdef_filter_block_ref(dst.frame().planes[0], src.frame().planes[0], x, y, w,
                        h, bp);
}

Image run_cdef(const Image& src, const CdefParams& params) {
  Image dst(src.format(), src.width(), src.height(), kPad);
  test::fill(dst, [](int, int, int) { return uint8_t(0x5A); });
  cdef_frame(ref_dsp(), dst.frame(), src.frame(), params);
  return dst;
}

void fill_content(Image& image, std::mt19937& gen, int kind) {
  switch (kind % 3) {
    case 0: test::fill_random(image, gen); break;
    case 1: test::fill_near(image, gen, 128, 6); break;
    default: test::fill_near(image, gen, 60, 24); break;
  }
}

// ELEMENTS.md "Blocks" and "Direction and variance", composed independently
// of the block-rows function: every block is filtered (strength 0 included)
// and the direction is always searched.
Image expected_cdef(const Image& src, const CdefParams& prm) {
  Image out = clone(src);
  const ConstFrame s = src.frame();
  const Frame o = out.frame();
  auto sec = [](int v) { return v == 3 ? 4 : v; };
  const int sx = s.chroma_shift_x, sy = s.chroma_shift_y;
  for (int y = 0; y + 8 <= src.height(); y += 8) {
    for (int x = 0; x + 8 <= src.width(); x += 8) {
      int var = 0;
      const int dir = cdef_find_dir_ref(s.planes[0], x, y, &var);
      cdef_filter_block_ref(
          o.planes[0], s.planes[0], x, y, 8, 8,
          {cdef_adjust_strength(prm.pri_strength, var), sec(prm.sec_strength),
           prm.pri_strength ? dir : 0, prm.damping});
      const int uv_dir = (sx == 1 && sy == 0) ? kCdefDir422[dir] : dir;
      for (int p = 1; p < s.num_planes; p++) {
        const int cx = x >> sx, cy = y >> sy, cw = 8 >> sx, ch = 8 >> sy;
        if (cx + cw > s.planes[p].width || cy + ch > s.planes[p].height)
          continue;
        cdef_filter_block_ref(o.planes[p], s.planes[p], cx, cy, cw, ch,
                              {prm.uv_pri_strength, sec(prm.uv_sec_strength),
                               prm.uv_pri_strength ? uv_dir : 0,
                               prm.damping - 1});
      }
    }
  }
  return out;
}

// Every tap lies within 2 samples in x and y: the output of any sample must
// lie within the range of its available 5x5 neighbourhood.
void expect_within_window(const Image& src, const Image& out) {
  const ConstFrame s = src.frame(), o = out.frame();
  for (int p = 0; p < s.num_planes; p++) {
    const ConstPlane& sp = s.planes[p];
    for (int y = 0; y < sp.height; y++) {
      for (int x = 0; x < sp.width; x++) {
        int lo = 255, hi = 0;
        for (int ty = std::max(0, y - 2); ty <= std::min(sp.height - 1, y + 2);
             ty++)
          for (int tx = std::max(0, x - 2);
               tx <= std::min(sp.width - 1, x + 2); tx++) {
            lo = std::min<int>(lo, sp.at(tx, ty));
            hi = std::max<int>(hi, sp.at(tx, ty));
          }
        const int v = o.planes[p].at(x, y);
        ASSERT_TRUE(v >= lo && v <= hi)
            << "plane " << p << " (" << x << ", " << y << "): " << v
            << " outside [" << lo << ", " << hi << "]";
      }
    }
  }
}

// ---------------------------------------------------------------- tables

TEST(CdefTables, DirectionsMatchSpec) {
  // AV1 spec 7.15.3 Cdef_Directions, {row, col}.
  const int expected[8][2][2] = {
      {{-1, 1}, {-2, 2}}, {{0, 1}, {-1, 2}}, {{0, 1}, {0, 2}},
      {{0, 1}, {1, 2}},   {{1, 1}, {2, 2}},  {{1, 0}, {2, 1}},
      {{1, 0}, {2, 0}},   {{1, 0}, {2, -1}}};
  for (int d = 0; d < 8; d++)
    for (int k = 0; k < 2; k++)
      for (int c = 0; c < 2; c++)
        EXPECT_EQ(kCdefDirections[d][k][c], expected[d][k][c])
            << d << " " << k << " " << c;
  const uint8_t dir422[8] = {7, 0, 2, 4, 5, 6, 6, 6};
  for (int d = 0; d < 8; d++) EXPECT_EQ(kCdefDir422[d], dir422[d]) << d;
}

// The second filter tap of a direction steps exactly along a search line:
// ties the offset table to the search's geometry.
TEST(CdefTables, SecondTapStaysOnSearchLine) {
  for (int d = 0; d < 8; d++) {
    const int dy = kCdefDirections[d][1][0], dx = kCdefDirections[d][1][1];
    for (int i = 0; i < 8; i++)
      for (int j = 0; j < 8; j++) {
        if (i + dy < 0 || i + dy > 7 || j + dx < 0 || j + dx > 7) continue;
        EXPECT_EQ(test::cdef_line_of(d, i, j),
                  test::cdef_line_of(d, i + dy, j + dx))
            << d;
      }
  }
}

// ------------------------------------------------------- direction search

TEST(CdefDirection, StripesKnownAnswer) {
  // Rows 0-3 = 144, rows 4-7 = 112: samples - 128 are +-16, constant along
  // rows. partial[2][i] = 8 * +-16 = +-128, cost[2] = 8 * 128^2 * 105 =
  // 13762560; partial[6][j] = 4 * 16 - 4 * 16 = 0, so cost[6] = 0.
  // var = 13762560 >> 10 = 13440. Transposed: direction 6, same var.
  Image h(PixelFormat::GRAY8, 8, 8, kPad), v(PixelFormat::GRAY8, 8, 8, kPad);
  test::fill(h, [](int, int, int y) { return uint8_t(y < 4 ? 144 : 112); });
  test::fill(v, [](int, int x, int) { return uint8_t(x < 4 ? 144 : 112); });
  int var = -1;
  EXPECT_EQ(cdef_find_dir_ref(h.frame().planes[0], 0, 0, &var), 2);
  EXPECT_EQ(var, 13440);
  var = -1;
  EXPECT_EQ(cdef_find_dir_ref(v.frame().planes[0], 0, 0, &var), 6);
  EXPECT_EQ(var, 13440);
}

TEST(CdefDirection, FlatBlockIsDirectionZeroVarZero) {
  // All costs equal (0 for 128, 840 * sum x^2 otherwise): the first wins and
  // the orthogonal cost cancels it.
  for (int value : {0, 128, 200, 255}) {
    Image image = flat(8, 8, uint8_t(value));
    int var = -1;
    EXPECT_EQ(cdef_find_dir_ref(image.frame().planes[0], 0, 0, &var), 0);
    EXPECT_EQ(var, 0);
  }
}

TEST(CdefDirection, PatternConstantAlongEachDirection) {
  // A block constant along the lines of direction d reaches the bound
  // cost = 840 * sum x^2 (Cauchy-Schwarz); no other direction does.
  for (int d = 0; d < 8; d++) {
    Image image(PixelFormat::GRAY8, 16, 16, kPad);
    test::fill(image, [d](int, int x, int y) {
      return uint8_t(
          128 + 5 * (test::cdef_line_of(d, (y - 4) & 7, (x - 5) & 7) - 7));
    });
    int var = 0;
    EXPECT_EQ(cdef_find_dir_ref(image.frame().planes[0], 5, 4, &var), d);
    EXPECT_GT(var, 0);
  }
}

// An independent oracle: cost(d) = sum over lines of sum^2 * 840 / count.
int oracle_dir(const ConstPlane& plane, int x, int y, int* var) {
  int64_t cost[8];
  for (int d = 0; d < 8; d++) {
    int64_t sum[15] = {}, count[15] = {};
    for (int i = 0; i < 8; i++)
      for (int j = 0; j < 8; j++) {
        sum[test::cdef_line_of(d, i, j)] += plane.at(x + j, y + i) - 128;
        count[test::cdef_line_of(d, i, j)]++;
      }
    cost[d] = 0;
    for (int n = 0; n < 15; n++)
      if (count[n]) cost[d] += sum[n] * sum[n] * (840 / count[n]);
  }
  int best = 0;
  for (int d = 1; d < 8; d++)
    if (cost[d] > cost[best]) best = d;
  *var = int((cost[best] - cost[(best + 4) & 7]) >> 10);
  return best;
}

TEST(CdefDirection, MatchesOracleOnRandomBlocks) {
  std::mt19937 gen = test::rng(1);
  Image image(PixelFormat::GRAY8, 64, 64, kPad);
  for (int round = 0; round < 60; round++) {
    fill_content(image, gen, round);
    const ConstPlane p = image.frame().planes[0];
    for (int y = 0; y + 8 <= 64; y += 7)
      for (int x = 0; x + 8 <= 64; x += 5) {
        int var = -1, want_var = -2;
        const int dir = cdef_find_dir_ref(p, x, y, &var);
        ASSERT_EQ(dir, oracle_dir(p, x, y, &want_var)) << x << "," << y;
        ASSERT_EQ(var, want_var) << x << "," << y;
      }
  }
}

TEST(CdefDirection, HonoursStep) {
  // The same samples, interleaved with junk at step 2, give the same answer.
  std::mt19937 gen = test::rng(2);
  Image nv(PixelFormat::NV12, 16, 16, kPad), gray(PixelFormat::GRAY8, 8, 8);
  fill_content(nv, gen, 1);
  const ConstPlane u = nv.frame().planes[1];
  test::fill(gray, [&](int, int x, int y) { return u.at(x, y); });
  int var_a = 0, var_b = 0;
  EXPECT_EQ(cdef_find_dir_ref(u, 0, 0, &var_a),
            cdef_find_dir_ref(gray.frame().planes[0], 0, 0, &var_b));
  EXPECT_EQ(var_a, var_b);
}

TEST(CdefStrength, AdjustKnownAnswers) {
  struct Case {
    int strength, var, expected;
  };
  // i = floor(log2(var >> 6)) capped at 12 (0 when var < 64);
  // result (s * (4 + i) + 8) >> 4, and 0 when var == 0.
  const Case cases[] = {
      {15, 0, 0},             // var 0
      {15, 1, 4},             // i 0: (60 + 8) >> 4
      {15, 63, 4},            // i 0
      {15, 64, 4},            // var >> 6 = 1: i 0
      {15, 127, 4},           // 1: i 0
      {15, 128, 5},           // 2: i 1: (75 + 8) >> 4
      {15, 255, 5},           // 3: i 1
      {15, 256, 6},           // 4: i 2: (90 + 8) >> 4
      {15, 13440, 10},        // 210: i 7: (165 + 8) >> 4
      {15, 262143, 14},       // 4095: i 11: (225 + 8) >> 4
      {15, 262144, 15},       // 4096: i 12: (240 + 8) >> 4
      {15, 524288, 15},       // 8192: log2 13 capped at 12
      {15, 0x7fffffff, 15},   // huge: capped
      {4, 1, 1},              // (16 + 8) >> 4
      {4, 210, 1},            // 3: i 1: (20 + 8) >> 4
      {4, 13440, 3},          // i 7: (44 + 8) >> 4
      {1, 1, 0},              // (4 + 8) >> 4: strength vanishes
      {1, 0x7fffffff, 1},     // (16 + 8) >> 4
      {0, 5000, 0},
  };
  for (const Case& c : cases)
    EXPECT_EQ(cdef_adjust_strength(c.strength, c.var), c.expected)
        << "strength " << c.strength << " var " << c.var;
}

// ----------------------------------------------------------- the filter

// A 24x24 plane of 128 with impulses; the 8x8 block at (8, 8) is filtered
// and c = (12, 12) is looked at.
constexpr int kC = 12;

struct Impulse {
  int dy, dx, delta;
};

Image impulses(const std::vector<Impulse>& list) {
  Image image = flat(24, 24, 128);
  for (const Impulse& i : list)
    at(image, kC + i.dx, kC + i.dy) = uint8_t(128 + i.delta);
  return image;
}

Image filter_center_block(const Image& src, const CdefBlockParams& bp) {
  Image dst = clone(src);
  filter(dst, src, 8, 8, 8, 8, bp);
  return dst;
}

// Samples of the block whose 5x5 window holds no impulse stay 128.
void expect_untouched_far_from(const Image& out,
                               const std::vector<Impulse>& list) {
  for (int y = 8; y < 16; y++)
    for (int x = 8; x < 16; x++) {
      bool near = false;
      for (const Impulse& i : list)
        near |= std::abs(x - (kC + i.dx)) <= 2 && std::abs(y - (kC + i.dy)) <= 2;
      if (!near) {
        ASSERT_EQ(at(out, x, y), 128) << x << "," << y;
      }
    }
}

enum class Tap { Pri, SecPlus2, SecMinus2 };

TEST(CdefFilter, SingleTapImpulseEachDirection) {
  struct Case {
    Tap tap;
    int k, pri, sec, damping, delta;
    int center;  // expected output at c
    int peak;    // expected output at the impulse
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
                     << " sign " << sign << " pri " << c.pri << " sec "
                     << c.sec << " damping " << c.damping << " delta "
                     << c.delta);
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
      const int dy = kCdefDirections[dir][k][0], dx = kCdefDirections[dir][k][1];
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
      EXPECT_EQ(at(out, kC, kC), expected[damping - 3]) << dir << " " << damping;
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
    const Image src = impulses(
        {{kCdefDirections[dir][0][0], kCdefDirections[dir][0][1], 4}});
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
  Image nv(PixelFormat::NV12, 32, 32, kPad), i420(PixelFormat::I420, 32, 32,
                                                  kPad);
  fill_content(nv, gen, 1);
  const ConstFrame n = nv.frame();
  test::fill(i420, [&](int p, int x, int y) { return n.planes[p].at(x, y); });
  for (int dir = 0; dir < 8; dir++) {
    const CdefBlockParams bp = {5, 2, dir, 4};
    Image a(PixelFormat::NV12, 32, 32, kPad), b(PixelFormat::I420, 32, 32,
                                                kPad);
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
  const uint8_t expected[8][8] = {
      {130, 130, 130, 130, 130, 130, 130, 130},
      {130, 130, 130, 130, 130, 130, 130, 130},
      {130, 130, 129, 129, 129, 129, 130, 130},
      {129, 129, 128, 128, 128, 128, 129, 129},
      {127, 127, 128, 128, 128, 128, 127, 127},
      {126, 126, 127, 127, 127, 127, 126, 126},
      {126, 126, 126, 126, 126, 126, 126, 126},
      {126, 126, 126, 126, 126, 126, 126, 126}};
  Image src(PixelFormat::GRAY8, 8, 8, kPad);
  test::fill(src, [](int, int, int y) { return uint8_t(y < 4 ? 130 : 126); });
  for (int sec : {4, 3}) {  // 3 acts as 4
    Image out = run_cdef(src, {4, sec, 0, 0, 6});
    for (int y = 0; y < 8; y++)
      for (int x = 0; x < 8; x++)
        EXPECT_EQ(at(out, x, y), expected[y][x]) << sec << " " << x << "," << y;
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
                     << prm.sec_strength << " uv " << prm.uv_pri_strength
                     << "/" << prm.uv_sec_strength << " damping "
                     << prm.damping);
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
              << pixel_format_name(format) << " plane " << p << " " << x
              << "," << y;
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
  Image src(PixelFormat::I420, 16, 16, kPad), dst(PixelFormat::I420, 16, 16,
                                                  kPad);
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
        const int want = (x < 4 && y < 4) ? at(full, x, y, p) : at(src, x, y, p);
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
    Image nv(PixelFormat::NV12, 41, 27, kPad), pl(PixelFormat::I420, 41, 27,
                                                  kPad);
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
      dsp.block_rows(dst.frame(), src.frame(), prm, k, n);
      dsp.block_rows(dst.frame(), src.frame(), prm, 0, k);
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
          dsp.block_rows(dst.frame(), src.frame(), prm, a, b);
          const ConstFrame d = dst.frame(), w = whole.frame();
          for (int p = 0; p < d.num_planes; p++) {
            const int sy = p ? d.chroma_shift_y : 0;
            const int y0 = (8 * a) >> sy;
            const int y1 = std::min((8 * b) >> sy, d.planes[p].height);
            for (int y = 0; y < d.planes[p].height; y++)
              for (int x = 0; x < d.planes[p].width; x++) {
                const int want = (y >= y0 && y < y1) ? w.planes[p].at(x, y)
                                                     : garbage;
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
