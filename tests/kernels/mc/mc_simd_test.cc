// The mc SIMD rows against the scalar reference, bit-exact, once per Highway
// target and at both bit depths: every bank and phase pair, adversarial
// 0/max content aligned with the taps, awkward sizes, strides and shifts,
// NV12 and P010 chroma, and bands, each with the target's dot-product
// island (mc_dot.h, where the CPU has it) and without (what a CPU without
// it runs). 10-bit sources carry random bits outside their values, which
// must count for nothing; 10-bit destinations start with random bits there,
// which must come out 0. Random frames (sizes,
// strides, formats, shifts, filters and content) on every target: the
// shared harness (tests/kernels/harness, HarnessSimd.Mc).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "daedalus/mc.h"
#include "filters/mc/mc_dot.h"
#include "mc_test_helpers.h"
#include "simd_targets.h"
#include "test_util.h"

namespace daedalus {
namespace {

using test::kMc8TapFilters;
using test::kMcFilters;

const int16_t* taps(McFilter filter, int phase) {
  return kVp9Filters[static_cast<int>(filter)][phase];
}

std::string describe(const Image& image, const McPlaneShift& s,
                     McFilter filter) {
  return std::string(pixel_format_name(image.format())) + " " +
         std::to_string(image.width()) + "x" + std::to_string(image.height()) +
         " " + std::string(mc_filter_name(filter)) +
         " i=" + std::to_string(s.ix) + "," + std::to_string(s.iy) +
         " f=" + std::to_string(s.fx) + "," + std::to_string(s.fy);
}

std::string describe(const Image& image, const McParams& p) {
  return std::string(pixel_format_name(image.format())) + " " +
         std::to_string(image.width()) + "x" + std::to_string(image.height()) +
         " " + std::string(mc_filter_name(p.filter)) +
         " dx=" + std::to_string(p.dx) + " dy=" + std::to_string(p.dy);
}

DAEDALUS_SIMD_TEST_SUITE(McSimd);

// A one-plane picture of each depth (Y444_10LE's plane 0 at 10 bits), and
// the semi-planar formats of each.
constexpr PixelFormat kGray[] = {PixelFormat::GRAY8, PixelFormat::Y444_10LE};
constexpr PixelFormat kSemiPlanar[] = {PixelFormat::NV12, PixelFormat::NV21,
                                       PixelFormat::P010_10LE};

int max_of(const Image& image) { return image.frame().planes[0].max_value(); }

// A source's samples from value(), and random bits outside them.
void fill_source(Image& src, std::mt19937& gen,
                 const std::function<int(int, int, int)>& value) {
  test::fill(src, value);
  test::set_outside_bits(src, gen);
}
void fill_source(Image& src, std::mt19937& gen) {
  test::fill_random(src, gen);
  test::set_outside_bits(src, gen);
}

// Destinations (of one format and size, any padding) with the same random
// samples and bits outside them, and guard bytes in the padding: what a
// kernel does not write stays equal, and where it writes, the reference
// writes 0 outside the values.
void prepare_outputs(Image& want, Image& got, std::mt19937& gen) {
  std::mt19937 twin = gen;
  for (auto [image, g] : {std::pair{&want, &twin}, std::pair{&got, &gen}}) {
    test::fill_random(*image, *g);
    test::set_outside_bits(*image, *g);
  }
}

// Both ladders of a test: the reference and what mc_dsp_init picks for the
// target under test (its dot-product island where the CPU has one), or the
// rows without the island.
struct Dsps {
  explicit Dsps(bool dot_products) {
    mc_dsp_init_ref(&ref);
    mc_dsp_init(&simd, dot_products);
  }
  McDsp ref, simd;
};

// f(dsps) for each ladder of the target under test: with its island and
// without where the CPU runs one, else the one set of rows once.
template <class F>
void for_each_island_mode(const F& f) {
  const Dsps with(true), without(false);
  const bool island = with.simd.rows != without.simd.rows ||
                      with.simd.rows_hbd != without.simd.rows_hbd;
  if (island) {
    SCOPED_TRACE("dot-product island allowed");
    f(with);
  }
  SCOPED_TRACE("no island");
  f(without);
}

// Every row of plane 0 through both, compared.
void expect_plane_matches(const Dsps& dsps, const Image& src,
                          const McPlaneShift& s, McFilter filter) {
  Image want(src.format(), src.width(), src.height(), 3);
  Image got(src.format(), src.width(), src.height(), 5);
  std::mt19937 gen(src.width() * 31 + src.height());
  prepare_outputs(want, got, gen);
  const int h = src.frame().planes[0].height;
  mc_rows_fn(dsps.ref, src.frame())(want.frame().planes[0],
                                    src.frame().planes[0], s, filter, 0, h);
  mc_rows_fn(dsps.simd, src.frame())(got.frame().planes[0],
                                     src.frame().planes[0], s, filter, 0, h);
  ASSERT_EQ(test::first_difference(want, got), "") << describe(src, s, filter);
  ASSERT_TRUE(test::guards_intact(got)) << describe(src, s, filter);
}

void expect_frame_matches(const Dsps& dsps, const Image& src,
                          const McParams& params, int padding) {
  Image want(src.format(), src.width(), src.height(), 0);
  Image got(src.format(), src.width(), src.height(), padding);
  std::mt19937 gen(src.width() * 31 + src.height());
  prepare_outputs(want, got, gen);
  mc_frame(dsps.ref, want.frame(), src.frame(), params);
  mc_frame(dsps.simd, got.frame(), src.frame(), params);
  ASSERT_EQ(test::first_difference(want, got), "") << describe(src, params);
  ASSERT_TRUE(test::guards_intact(got)) << describe(src, params);
  ASSERT_TRUE(test::guards_intact(src)) << describe(src, params);
}

// The island is installed exactly where the target has one and the CPU
// reports its instructions (on x86 as the compiler's own CPUID check sees
// them), and the rows without it are the target's own. 10-bit rows have one
// on AVX3 (vpdpwssd) only.
TEST_P(McSimd, DotProductIslandWhereTheCpuHasIt) {
  const Dsps with(true), without(false);
  const bool island_target = GetParam() == HWY_AVX3 || GetParam() == HWY_NEON;
#if HWY_ARCH_X86
  __builtin_cpu_init();
  EXPECT_EQ(mc_cpu_has_dot_products(),
            __builtin_cpu_supports("avx512vnni") &&
                __builtin_cpu_supports("avx512vbmi") &&
                __builtin_cpu_supports("avx512vbmi2"));
#endif
  EXPECT_NE(without.simd.rows, without.ref.rows);
  EXPECT_NE(without.simd.rows_hbd, without.ref.rows_hbd);
  if (island_target && mc_cpu_has_dot_products())
    EXPECT_NE(with.simd.rows, without.simd.rows);
  else
    EXPECT_EQ(with.simd.rows, without.simd.rows);
  if (GetParam() == HWY_AVX3 && mc_cpu_has_dot_products())
    EXPECT_NE(with.simd.rows_hbd, without.simd.rows_hbd);
  else
    EXPECT_EQ(with.simd.rows_hbd, without.simd.rows_hbd);
}

TEST_P(McSimd, InstallsItsOwnRows) {
  for_each_island_mode([&](const Dsps& dsps) {
    EXPECT_NE(dsps.simd.rows, dsps.ref.rows);
    EXPECT_NE(dsps.simd.rows_hbd, dsps.ref.rows_hbd);
    EXPECT_NE(dsps.simd.rows_hbd, nullptr);
  });
}

// Widths around the group sizes of every target (two vectors of 16-bit
// lanes: 2 to 256 samples), where a row ends in a partial group or is
// narrower than one.
TEST_P(McSimd, EveryPhasePairEveryBank) {
  for_each_island_mode([&](const Dsps& dsps) {
    std::mt19937 gen = test::rng(1);
    std::uniform_int_distribution<int> shift(-9, 9);
    const int widths[] = {1,  2,  3,  7,  15,  16,  17,  31, 32,
                          33, 63, 64, 65, 130, 255, 256, 257};
    int trial = 0;
    for (PixelFormat format : kGray)
      for (McFilter filter : kMcFilters)
        for (int fy = 0; fy < 16; fy++)
          for (int fx = 0; fx < 16; fx++) {
            const int w = widths[trial % std::size(widths)];
            const int h = 1 + trial % 13;
            trial++;
            Image src(format, w, h, trial % 4);
            fill_source(src, gen);
            expect_plane_matches(dsps, src, {shift(gen), shift(gen), fx, fy},
                                 filter);
          }
  });
}

// 0 or max (255, 1023) at each tap by the sign of that tap, or the
// opposite, so that the sums reach max * (positive taps) and max *
// (negative taps) for a column (row) residue of 8, whatever the integer
// shift: the largest, 255 * 182 (sharp, phase 8), is past int16_t (1023 *
// 182 past 17 bits). In 2-D the high rows carry the horizontal extreme and
// the low rows are 0, so the vertical pass meets the extremes of its own
// taps too.
bool aligned(const int16_t* t, int coordinate, bool invert) {
  return (t[(coordinate + 3) & 7] > 0) != invert;
}

TEST_P(McSimd, ZeroOrMaxAlignedWithTheTaps) {
  for_each_island_mode([&](const Dsps& dsps) {
    std::mt19937 gen = test::rng(2);
    std::uniform_int_distribution<int> shift(-2, 2);
    for (PixelFormat format : kGray)
      for (McFilter filter : kMc8TapFilters)
        for (int fy = 0; fy < 16; fy++)
          for (int fx = 0; fx < 16; fx++)
            for (int invert = 0; invert < 4; invert++) {
              Image src(format, 40 + fx, 16, 2);
              const int maxv = max_of(src);
              fill_source(src, gen, [&](int, int x, int y) {
                const bool high =
                    fy == 0 || aligned(taps(filter, fy), y, invert & 2);
                return high && aligned(taps(filter, fx), x, invert & 1) ? maxv
                                                                        : 0;
              });
              expect_plane_matches(dsps, src, {shift(gen), shift(gen), fx, fy},
                                   filter);
            }
  });
}

// The kernel's 16-bit accumulator is exact when the sums of a phase lie
// within [-16448, 49087] (its bias is 16384 + 64): 255 * every negative tap
// and 255 * every positive tap. The fill above reaches both ends.
TEST(McSimdBounds, EveryPhaseFitsTheAccumulator) {
  int most = 0;
  for (McFilter filter : kMc8TapFilters)
    for (int f = 0; f < 16; f++) {
      int negative = 0, positive = 0;
      for (int k = 0; k < 8; k++)
        (taps(filter, f)[k] < 0 ? negative : positive) += taps(filter, f)[k];
      EXPECT_GE(16384 + 64 + 255 * negative, 0);
      EXPECT_LE(16384 + 64 + 255 * positive, 65535);
      most = std::max(most, 255 * positive);
    }
  EXPECT_GT(most, 32767);  // so 16 bits do overflow without the bias
}

// The 2-D passes go 4 output rows a step over places of 4 source rows (the
// islands' quad rows; at 10 bits two pair rows, which the rows between
// read with the taps shifted): every height up to 3 steps and a row, every
// vertical shift that clamps rows into the first or last place, widths
// around the groups, planar and interleaved, random and extreme content.
TEST_P(McSimd, TwoDimensionalStepsAndPlaces) {
  for_each_island_mode([&](const Dsps& dsps) {
    std::mt19937 gen = test::rng(9);
    std::uniform_int_distribution<int> phase(1, 15), coin(0, 1);
    for (PixelFormat format : kGray)
      for (int h = 1; h <= 13; h++)
        for (int w : {1, 63, 64, 65, 190}) {
          Image src(format, w, h, 1 + h % 3);
          const int maxv = max_of(src);
          if (h % 2)
            fill_source(src, gen);
          else
            fill_source(src, gen,
                        [&](int, int, int) { return coin(gen) ? maxv : 0; });
          for (int iy : {-h - 4, -5, -1, 0, 2, h - 3, h + 2})
            for (McFilter filter : kMc8TapFilters)
              expect_plane_matches(
                  dsps, src, {w % 7 - 3, iy, phase(gen), phase(gen)}, filter);
        }
    for (PixelFormat format : kSemiPlanar)
      for (int h : {3, 9, 17}) {
        Image src(format, 2 * 65, h, 2);
        fill_source(src, gen);
        for (McFilter filter : kMc8TapFilters)
          expect_frame_matches(dsps, src, {3.3, -2.6, filter}, 2);
      }
  });
}

// Shifts far past the plane (every tap clamps to one edge), and shifts that
// leave the window straddling an edge.
TEST_P(McSimd, ShiftsBeyondThePlane) {
  for_each_island_mode([&](const Dsps& dsps) {
    std::mt19937 gen = test::rng(4);
    for (PixelFormat format : kGray)
      for (auto [w, h] : {std::pair{1, 1}, {5, 3}, {70, 9}})
        for (int ix : {-65536, -w - 5, -w + 2, 3, w - 2, w + 4, 65535})
          for (int iy : {-65536, -h - 5, -1, h - 1, h + 4, 65535}) {
            Image src(format, w, h, 3);
            fill_source(src, gen);
            for (McFilter filter : kMcFilters)
              for (auto [fx, fy] : {std::pair{0, 0}, {5, 0}, {0, 11}, {8, 3}})
                expect_plane_matches(dsps, src, {ix, iy, fx, fy}, filter);
          }
    for (PixelFormat format : {PixelFormat::NV12, PixelFormat::P010_10LE}) {
      Image src(format, 37, 19, 2);
      fill_source(src, gen);
      for (McFilter filter : kMcFilters)
        for (double d : {4096.0, -4096.0, 4095.7, -4095.3, 40.5})
          expect_frame_matches(dsps, src, {d, -d, filter}, 3);
    }
  });
}

// Every way a horizontal window can meet the edges: wholly outside, over
// the left or the right edge or both, or inside, for each integer shift
// around the widths and the group sizes.
TEST_P(McSimd, WindowsAgainstTheEdges) {
  for_each_island_mode([&](const Dsps& dsps) {
    std::mt19937 gen = test::rng(7);
    for (PixelFormat format : kGray)
      for (int w : {5, 40, 77, 150, 300}) {
        Image src(format, w, 4, 1);
        fill_source(src, gen);
        std::vector<int> shifts = {-w - 9, -w, -w + 3, w - 12, w - 3, w + 4};
        for (int ix = -140; ix <= 140; ix += 7) shifts.push_back(ix);
        for (int ix = -6; ix <= 6; ix++) shifts.push_back(ix);
        for (int ix : shifts)
          for (McFilter filter : kMcFilters)
            for (auto [fx, fy] : {std::pair{9, 0}, {0, 4}, {2, 13}})
              expect_plane_matches(dsps, src, {ix, -1, fx, fy}, filter);
      }
  });
}

// 10-bit rows whose windows the AVX-512 island reads in place where a
// group's loads lie inside the row (its words decoded there: the planar
// formats' low bits, P010 luma's high ones) and through the edge-extended
// copy elsewhere: every shift that moves the first and the last in-place
// group against either edge, widths around the groups and narrower than
// the window, odd row padding (a guard pattern the in-place loads must not
// take for samples), random bits outside the values.
TEST_P(McSimd, TenBitWindowsInPlace) {
  for_each_island_mode([&](const Dsps& dsps) {
    std::mt19937 gen = test::rng(10);
    std::uniform_int_distribution<int> phase(1, 15), filter_of(0, 2);
    for (int w : {1, 2, 7, 95, 96, 97, 128, 159, 160, 161, 193, 257, 450}) {
      std::vector<int> shifts = {-w - 5, w + 4};
      for (int ix = -6; ix <= 6; ix++) shifts.push_back(ix);
      for (int ix = -67; ix <= -60; ix++) shifts.push_back(ix);
      for (int ix = w - 100; ix <= w - 36; ix++) shifts.push_back(ix);
      Image src(PixelFormat::Y444_10LE, w, 5, 1 + w % 4);
      fill_source(src, gen);
      for (int ix : shifts)
        expect_plane_matches(dsps, src, {ix, -2, phase(gen), phase(gen)},
                             kMc8TapFilters[filter_of(gen)]);
      Image p010(PixelFormat::P010_10LE, 2 * w, 6, 1 + w % 3);
      fill_source(p010, gen);
      for (int ix : shifts)
        expect_frame_matches(dsps, p010,
                             {ix + 0.3, -1.6, kMc8TapFilters[filter_of(gen)]},
                             1 + w % 2);
    }
  });
}

// The 10-bit island's groups whose windows leave the row read it by clamped
// loads, a column outside the row taking the word of its nearest edge:
// random sizes from 1x1, odd widths, random row padding and bits outside
// the values, each row's first and last samples at 0 and the maximum (one
// each, either way round) against random insides, so that the wrong edge
// or a lane of the other one shows; shifts from wholly left of the row to
// wholly right of it; every horizontal phase.
TEST_P(McSimd, TenBitEdgeGroupsTakeTheNearestWord) {
  for_each_island_mode([&](const Dsps& dsps) {
    std::mt19937 gen = test::rng(12);
    std::uniform_int_distribution<int> size(1, 200), padding(0, 5);
    std::uniform_int_distribution<int> phase(1, 15), filter_of(0, 2);
    for (int i = 0; i < 12; i++) {
      const int w = i == 0 ? 1 : size(gen) | 1, h = i == 0 ? 1 : 1 + i % 6;
      for (PixelFormat format :
           {PixelFormat::Y444_10LE, PixelFormat::P010_10LE}) {
        Image src(format, w, h, padding(gen));
        const int maxv = max_of(src);
        std::uniform_int_distribution<int> value(0, maxv);
        fill_source(src, gen, [&](int, int x, int y) {
          const int edge = (y & 1) ? maxv : 0;
          if (x == 0) return edge;
          return x == w - 1 ? maxv - edge : value(gen);
        });
        std::uniform_int_distribution<int> shift(-w - 80, w + 80);
        for (int fx = 1; fx < 16; fx++)
          expect_plane_matches(dsps, src, {shift(gen), -1, fx, phase(gen)},
                               kMc8TapFilters[filter_of(gen)]);
      }
    }
  });
}

// One channel of an interleaved chroma plane: the other channel's bytes are
// never written.
TEST_P(McSimd, SemiPlanarChannelsStayApart) {
  for_each_island_mode([&](const Dsps& dsps) {
    std::mt19937 gen = test::rng(5);
    for (PixelFormat format : kSemiPlanar)
      for (int w : {2, 33, 130, 301}) {
        Image src(format, w, 14, 1), want(format, w, 14, 2),
            got(format, w, 14, 2);
        fill_source(src, gen);
        const McRowsFn ref = mc_rows_fn(dsps.ref, src.frame());
        const McRowsFn simd = mc_rows_fn(dsps.simd, src.frame());
        for (McFilter filter : kMcFilters)
          for (auto [fx, fy] : {std::pair{0, 0}, {7, 0}, {0, 9}, {13, 2}})
            for (int p = 1; p < 3; p++) {
              test::fill(want, [](int, int, int) { return 0x5A; });
              test::fill(got, [](int, int, int) { return 0x5A; });
              const McPlaneShift s{-2, 1, fx, fy};
              const ConstPlane in = src.frame().planes[p];
              ref(want.frame().planes[p], in, s, filter, 0, in.height);
              simd(got.frame().planes[p], in, s, filter, 0, in.height);
              ASSERT_EQ(test::first_difference(want, got), "")
                  << describe(src, s, filter) << " plane " << p;
              ASSERT_TRUE(test::guards_intact(got));
            }
      }
  });
}

// Nothing outside a row is read or written: source and destination rows
// each against an inaccessible page, on either side, for shifts that put
// the window over either edge, past it, or inside (for 300 columns, 10-bit
// rows whose last group read in place ends at the row's end, or would with
// fewer words of tail), and for planes without columns (whose rows Extend
// once read before their first byte).
TEST_P(McSimd, TouchesNothingOutsideTheRows) {
  for_each_island_mode([&](const Dsps& dsps) {
    std::mt19937 gen = test::rng(8);
    for (PixelFormat format : {PixelFormat::I420, PixelFormat::NV21,
                               PixelFormat::I420_10LE, PixelFormat::P010_10LE})
      for (auto [w, h] :
           {std::pair{0, 3}, {1, 1}, {6, 3}, {37, 5}, {130, 4}, {300, 3}}) {
        Image src(format, w, h);
        fill_source(src, gen);
        for (test::GuardSide side :
             {test::GuardSide::Before, test::GuardSide::After}) {
          const test::GuardedFrame in(src, side);
          for (McFilter filter : kMcFilters)
            for (double dx :
                 {-45.5, -3.3, -1.0, 0.0, 0.4, 2.0, 7.7, 15.2, 27.4, 40.0})
              for (double dy : {0.0, -1.6}) {
                const McParams params{dx, dy, filter};
                Image want(format, w, h), got(format, w, h);  // zeros
                mc_frame(dsps.ref, want.frame(), src.frame(), params);
                const test::GuardedFrame out(got, side);
                mc_frame(dsps.simd, out.frame(), in.frame(), params);
                out.copy_to(got);
                ASSERT_EQ(test::first_difference(want, got), "")
                    << describe(src, params) << ", " << side;
              }
        }
      }
  });
}

// Bands in any order, of any size down to one row, compose to the whole
// plane, and a band writes nothing outside its rows.
TEST_P(McSimd, BandsComposeInAnyOrder) {
  for_each_island_mode([&](const Dsps& dsps) {
    std::mt19937 gen = test::rng(6);
    std::uniform_int_distribution<int> shift(-12, 12), phase(0, 15);
    for (int trial = 0; trial < 60; trial++) {
      const int w = 20 + trial * 5, h = 1 + trial % 40;
      const PixelFormat format = kGray[trial % 2];
      Image src(format, w, h, 2);
      Image want(format, w, h, 2), got(format, w, h, 2);
      fill_source(src, gen);
      const McFilter filter = kMcFilters[(trial / 2) % 4];
      const McPlaneShift s{shift(gen), shift(gen), phase(gen), phase(gen)};
      const ConstPlane in = src.frame().planes[0];
      const McRowsFn ref = mc_rows_fn(dsps.ref, src.frame());
      const McRowsFn simd = mc_rows_fn(dsps.simd, src.frame());
      test::fill(want, [](int, int, int) { return 0x5A; });
      ref(want.frame().planes[0], in, s, filter, 0, h);

      std::vector<std::pair<int, int>> bands = test::random_pieces(h, gen);
      if (trial % 6 < 2) {  // one row each, bottom up
        bands.clear();
        for (int y = h - 1; y >= 0; y--) bands.push_back({y, y + 1});
      }

      test::fill(got, [](int, int, int) { return 0x5A; });
      std::vector<bool> written(h, false);
      for (auto [begin, end] : bands) {
        simd(got.frame().planes[0], in, s, filter, begin, end);
        for (int y = begin; y < end; y++) written[y] = true;
        for (int y = 0; y < h; y++)
          for (int x = 0; x < w && !written[y]; x++)
            ASSERT_EQ(value_at(got.frame().planes[0], x, y), 0x5A)
                << describe(src, s, filter) << " band " << begin << ".." << end
                << " wrote row " << y;
      }
      ASSERT_EQ(test::first_difference(want, got), "")
          << describe(src, s, filter);
      ASSERT_TRUE(test::guards_intact(got));
    }
  });
}

}  // namespace
}  // namespace daedalus
