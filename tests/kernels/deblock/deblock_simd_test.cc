// Bit-exactness of the deblock SIMD kernels against the scalar reference, once
// per Highway target: the shared contents (util/contents.h: ordinary ones on
// random planes, every adversarial one at the hardest settings) and each
// mode's own at its thresholds, every parameter value,
// odd sizes and strides, interleaved chroma (step 2), guard bytes, and the
// sub-range calls the DSP contract allows; each at bit depth 8 and 10
// (docs/spec.md "High bit depth": the 8-bit content times 4 plus 0..3, with
// random bits outside the values, which must count for nothing and come out
// 0). Whole frames with every value of every DeblockParams field, on every
// format: the shared harness (tests/kernels/harness, HarnessSimd).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "contents.h"
#include "daedalus/deblock.h"
#include "deblock_simd_test_helpers.h"
#include "simd_targets.h"
#include "test_util.h"

namespace daedalus {
namespace {

DAEDALUS_SIMD_TEST_SUITE(DeblockSimd);

constexpr int kBlockSizes[] = {4, 8, 16};
constexpr int kDepths[] = {8, 10};

using deblock_simd_test::fill_vp9_thresholds;
using deblock_simd_test::in;
using deblock_simd_test::Tables;

// Any plane parameters deblock_plane_params can produce, inactive ones too.
DeblockPlaneParams random_plane_params(std::mt19937& gen) {
  const int index_a = in(gen, 0, 51), bs = in(gen, 1, 4);
  return test::plane_params(kH264Alpha[index_a], kH264Beta[in(gen, 0, 51)],
                            bs < 4 ? kH264Tc0[index_a][bs - 1] : 0, bs,
                            in(gen, 0, 1) == 1, kBlockSizes[in(gen, 0, 2)]);
}

std::string describe(const DeblockPlaneParams& pp) {
  std::ostringstream s;
  if (pp.mode == DeblockMode::Vp9) {
    s << "vp9 limit " << pp.vp9.limit << " blimit " << pp.vp9.blimit
      << " thresh " << pp.vp9.thresh << " block " << pp.block_size;
    return s.str();
  }
  s << "alpha " << pp.alpha << " beta " << pp.beta << " tc0 " << pp.tc0
    << " bs " << pp.bs << " block " << pp.block_size << " chroma "
    << pp.chroma_filter;
  return s.str();
}

std::string describe(const DeblockParams& p) {
  std::ostringstream s;
  if (p.mode == DeblockMode::Vp9) {
    s << "vp9 level " << p.filter_level << " sharpness " << p.sharpness
      << " block " << p.block_size << " grid " << p.grid_x << "," << p.grid_y;
    return s.str();
  }
  s << "qp " << p.qp << " offsets " << p.alpha_offset << "/" << p.beta_offset
    << "/" << p.chroma_qp_offset << " bs " << p.bs << " block " << p.block_size
    << " grid " << p.grid_x << "," << p.grid_y;
  return s.str();
}

// Sample values around a block grid that straddle the filter's thresholds:
// blocks differ by alpha - 1, alpha, (alpha >> 2) + 1 or (alpha >> 2) + 2 and
// neighbouring samples by 0, 1, beta - 1 or beta, around 0, 64, 128 or 255.
void fill_thresholds(Image& image, std::mt19937& gen,
                     const DeblockPlaneParams& pp) {
  const int a = pp.alpha, b = pp.beta, n = a / 4;
  const int steps[] = {0, a - 1, a, n + 1, n + 2, -(a - 1), -a, -(n + 1)};
  const int jitters[] = {0, b - 1, b, 1};
  const int base = std::array{0, 128, 255, 64}[in(gen, 0, 3)];
  std::vector<int> block_steps(64);
  for (int& s : block_steps) s = steps[in(gen, 0, 7)];
  test::fill(image, [&](int, int x, int y) {
    const int block = (x / pp.block_size * 7 + y / pp.block_size * 3) % 64;
    const int v = base + block_steps[block] +
                  jitters[in(gen, 0, 3)] * (in(gen, 0, 1) ? 1 : -1);
    return uint8_t(std::clamp(v, 0, 255));
  });
}

// The 10-bit format whose planes match an 8-bit format's (GRAY8: Y444_10LE's
// luma).
PixelFormat ten_bit_format(PixelFormat format) {
  switch (format) {
    case PixelFormat::NV12:
    case PixelFormat::NV21:
      return PixelFormat::P010_10LE;
    case PixelFormat::I420:
    case PixelFormat::YV12:
      return PixelFormat::I420_10LE;
    case PixelFormat::Y42B:
      return PixelFormat::I422_10LE;
    default:
      return PixelFormat::Y444_10LE;
  }
}

// `image` (8-bit content) at bit depth `depth`: at 10 bits, in the matching
// format with twice the row padding (strides stay even), every value v as
// 4 v + 0..3 (255 as
// 1023, 0 as 0: the extremes stay extreme), the planes GRAY8 lacks random,
// and random bits outside the values unless `outside_bits` is false.
Image at_depth(const Image& image, int depth, std::mt19937& gen,
               bool outside_bits = true) {
  if (depth == 8) return image;
  const ConstFrame f = image.frame();
  const int pad = int(f.planes[0].stride) - f.planes[0].width;
  Image deep(ten_bit_format(image.format()), image.width(), image.height(),
             2 * pad);
  test::fill(deep, [&](int p, int x, int y) {
    if (p >= f.num_planes) return in(gen, 0, 1023);
    const int v = value_at(f.planes[p], x, y);
    return 4 * v + (v == 255 ? 3 : v == 0 ? 0 : in(gen, 0, 3));
  });
  if (outside_bits) test::set_outside_bits(deep, gen);
  return deep;
}

// A copy of `image` with no bits set outside its values (pass 2's input).
Image without_outside_bits(const Image& image) {
  Image clean = image;
  const Frame f = clean.frame();
  for (int p = 0; p < f.num_planes; p++)
    for (int y = 0; y < f.planes[p].height; y++)
      for (int x = 0; x < f.planes[p].width; x++)
        set_value_at(f.planes[p], x, y, value_at(f.planes[p], x, y));
  return clean;
}

// Runs `run` on plane `p` of two copies of `input`, with the reference and
// with the SIMD table. Empty when the results agree sample for sample and no
// padding byte changed; else what went wrong.
std::string compare(
    const Tables& t, const Image& input, int p,
    const std::function<void(const DeblockDsp&, const Plane&)>& run) {
  Image expected = input, actual = input;
  run(t.ref, expected.frame().planes[p]);
  run(t.simd, actual.frame().planes[p]);
  const std::string diff = test::first_difference(expected, actual);
  if (!diff.empty()) return diff;
  if (!test::guards_intact(actual)) return "padding written";
  return {};
}

void vertical(const DeblockDsp& dsp, const Plane& plane,
              const DeblockPlaneParams& pp) {
  deblock_vertical_edges_fn(dsp, plane)(plane, pp, 0, plane.height);
}

void horizontal(const DeblockDsp& dsp, const Plane& plane,
                const DeblockPlaneParams& pp) {
  deblock_horizontal_edges_fn(dsp, plane)(plane, pp, 0, plane.width);
}

// Checks each pass on its own, then both, on plane `p` of `image` (pass 2
// alone without bits outside the values: the DSP contract).
void expect_plane_matches(const Tables& t, const Image& image, int p,
                          const DeblockPlaneParams& pp) {
  using namespace std::placeholders;
  const ConstPlane plane = image.frame().planes[p];
  SCOPED_TRACE(testing::Message()
               << pixel_format_name(image.format()) << " plane " << p << " "
               << plane.width << "x" << plane.height << " step " << plane.step
               << " stride " << plane.stride << ", " << describe(pp));
  EXPECT_EQ(compare(t, image, p, std::bind(vertical, _1, _2, pp)), "")
      << "vertical edges";
  EXPECT_EQ(compare(t, without_outside_bits(image), p,
                    std::bind(horizontal, _1, _2, pp)),
            "")
      << "horizontal edges";
  EXPECT_EQ(compare(t, image, p,
                    [&](const DeblockDsp& dsp, const Plane& plane) {
                      vertical(dsp, plane, pp);
                      horizontal(dsp, plane, pp);
                    }),
            "")
      << "both passes";
}

// ---------------------------------------------------------------------------
// mode=vp9's draws

// Any plane parameters deblock_plane_params can give mode=vp9, level 0 too.
DeblockPlaneParams random_vp9_plane_params(std::mt19937& gen) {
  return deblock_plane_params(test::vp9_params(in(gen, 0, 63), in(gen, 0, 7),
                                               kBlockSizes[in(gen, 0, 2)]),
                              false, false);
}

// ---------------------------------------------------------------------------
// Checks both modes share, given what to draw.

// Plane parameters of one mode, its own content at their thresholds, and
// on how many frames of three the sweeps draw that content.
struct Draws {
  DeblockPlaneParams (*params)(std::mt19937&);
  void (*own)(Image&, std::mt19937&, const DeblockPlaneParams&);
  int own_in_3;
};
const Draws kH264 = {random_plane_params, fill_thresholds, 1};
const Draws kVp9 = {random_vp9_plane_params, fill_vp9_thresholds, 2};

// Content of a sweep's 8-bit frame (at_depth widens it): the mode's own at
// `pp`'s thresholds, or one of the shared ordinary contents
// (util/contents.h). The adversarial contents: check_adversarial_planes.
void fill_sweep(const Draws& draws, Image& image, std::mt19937& gen,
                const DeblockPlaneParams& pp) {
  if (in(gen, 0, 2) < draws.own_in_3) return draws.own(image, gen, pp);
  const std::vector<test::Content>& ordinary = test::ordinary_contents();
  ordinary[size_t(in(gen, 0, int(ordinary.size()) - 1))].fill(image, gen);
}

// Random sizes from 1x1 to a few hundred, row padding, planar and interleaved
// planes, any parameters and content.
void check_random_planes(const Draws& draws, uint32_t salt) {
  const Tables t;
  std::mt19937 gen = test::rng(salt);
  // The adversarial contents are check_adversarial_planes's, every one.
  for (int iter = 0; iter < 480; iter++) {
    const int depth = kDepths[iter % 2];
    const bool small = iter % 3 != 0;
    const int w = in(gen, 1, small ? 40 : 300);
    const int h = in(gen, 1, small ? 40 : 200);
    const DeblockPlaneParams pp = draws.params(gen);
    // NV12 and NV21 give step-2 planes.
    const PixelFormat format =
        std::array{PixelFormat::GRAY8, PixelFormat::NV12, PixelFormat::NV21,
                   PixelFormat::I420}[in(gen, 0, 3)];
    const int p = format == PixelFormat::GRAY8 ? 0 : in(gen, 1, 2);
    const int scale = format == PixelFormat::GRAY8 ? 1 : 2;
    Image image(format, w * scale, h * scale, test::random_padding(gen));
    fill_sweep(draws, image, gen, pp);
    expect_plane_matches(t, at_depth(image, depth, gen), p, pp);
    if (testing::Test::HasFailure()) return;
  }
}

// Every shared adversarial content (util/contents.h) at both depths, with
// random bits outside 10-bit values, on a plane of its own and an
// interleaved one (NV12's U), with each of `cases` (a mode's hardest
// settings).
void check_adversarial_planes(const std::vector<DeblockPlaneParams>& cases,
                              uint32_t salt) {
  const Tables t;
  std::mt19937 gen = test::rng(salt);
  for (const test::Content& content : test::adversarial_contents())
    for (const DeblockPlaneParams& pp : cases)
      for (int depth : kDepths)
        for (PixelFormat format : {PixelFormat::GRAY8, PixelFormat::NV12}) {
          Image image(depth == 8 ? format : ten_bit_format(format),
                      in(gen, 1, 64), in(gen, 1, 48),
                      test::random_padding(gen));
          content.fill(image, gen);
          test::set_outside_bits(image, gen);
          SCOPED_TRACE(content.name + " content");
          expect_plane_matches(t, image, format == PixelFormat::NV12, pp);
          if (testing::Test::HasFailure()) return;
        }
}

// deblock_frame with each of `cases` on a frame of every pixel format in
// turn, odd sizes from 1x1.
void check_frames(
    const std::vector<DeblockParams>& cases, std::mt19937& gen,
    const std::function<void(Image&, const DeblockParams&)>& fill) {
  const Tables t;
  for (size_t i = 0; i < 2 * cases.size(); i++) {
    const DeblockParams& params = cases[i / 2];
    Image shallow(kAllPixelFormats[i / 2 % 7], in(gen, 1, 90), in(gen, 1, 60),
                  in(gen, 0, 5));
    fill(shallow, params);
    const Image input = at_depth(shallow, kDepths[i % 2], gen);
    const PixelFormat format = input.format();
    Image expected = input, actual = input;
    deblock_frame(t.ref, expected.frame(), params);
    deblock_frame(t.simd, actual.frame(), params);
    ASSERT_EQ(test::first_difference(expected, actual), "")
        << pixel_format_name(format) << " " << input.width() << "x"
        << input.height() << ", " << describe(params);
    ASSERT_TRUE(test::guards_intact(actual)) << describe(params);
  }
}

// Each line of `lines` across the edges of a plane with each of `cases`:
// pass 2 sees the lines as columns, pass 1 (through its transposes) as rows.
// At 10 bits a random quarter of them (each value of the 8-bit line times 4
// plus 0..3), which keeps the suite's time within its limit under qemu.
void check_lines(const std::vector<std::vector<uint8_t>>& lines,
                 const std::vector<DeblockPlaneParams>& cases) {
  const Tables t;
  std::mt19937 gen = test::rng(lines.size());
  std::vector<std::vector<uint8_t>> quarter;
  for (const std::vector<uint8_t>& line : lines)
    if (gen() % 4 == 0) quarter.push_back(line);
  const int length = int(lines[0].size());
  for (const DeblockPlaneParams& pp : cases)
    for (bool as_rows : {false, true})
      for (int depth : kDepths) {
        const auto& some = depth == 8 ? lines : quarter;
        const int n = int(some.size());
        const int w = as_rows ? length : n, h = as_rows ? n : length;
        Image image(PixelFormat::GRAY8, w, h, 1);
        test::fill(image, [&](int, int x, int y) {
          return as_rows ? some[size_t(y)][size_t(x)]
                         : some[size_t(x)][size_t(y)];
        });
        // Pass 2 alone: without bits outside the values.
        const Image input = at_depth(image, depth, gen, as_rows);
        const auto run = as_rows ? vertical : horizontal;
        using namespace std::placeholders;
        ASSERT_EQ(compare(t, input, 0, std::bind(run, _1, _2, pp)), "")
            << describe(pp) << (as_rows ? ", rows" : ", columns") << ", "
            << depth << " bits";
      }
}

// Bands of rows (pass 1) and of columns (pass 2) at any offsets, as threads
// call them, match the reference run on the whole plane.
void check_sub_ranges(const Draws& draws, uint32_t salt) {
  const Tables t;
  std::mt19937 gen = test::rng(salt);
  for (int iter = 0; iter < 160; iter++) {
    const DeblockPlaneParams pp = draws.params(gen);
    const bool nv12 = iter % 2;
    const int w = in(gen, 1, 200), h = in(gen, 1, 120);
    Image shallow(nv12 ? PixelFormat::NV12 : PixelFormat::GRAY8,
                  w * (nv12 ? 2 : 1), h * (nv12 ? 2 : 1),
                  test::random_padding(gen));
    fill_sweep(draws, shallow, gen, pp);
    const Image image = at_depth(shallow, kDepths[iter / 2 % 2], gen);
    const int p = nv12 ? in(gen, 1, 2) : 0;
    Image expected = image, actual = image;
    const Plane whole = expected.frame().planes[p];
    vertical(t.ref, whole, pp);
    horizontal(t.ref, whole, pp);
    const Plane plane = actual.frame().planes[p];
    for (auto [begin, end] : test::random_pieces(plane.height, gen))
      deblock_vertical_edges_fn(t.simd, plane)(plane, pp, begin, end);
    for (auto [begin, end] : test::random_pieces(plane.width, gen))
      deblock_horizontal_edges_fn(t.simd, plane)(plane, pp, begin, end);
    ASSERT_EQ(test::first_difference(expected, actual), "")
        << plane.width << "x" << plane.height << " step " << plane.step << ", "
        << describe(pp);
    ASSERT_TRUE(test::guards_intact(actual));
  }
}

// Nothing outside a row is read or written: every row against an
// inaccessible page, on either side, through both passes with each of
// `cases`, on content from `fill`.
void check_guard_pages(const std::vector<DeblockParams>& cases,
                       const std::function<void(Image&, int block)>& fill) {
  const Tables t;
  std::mt19937 gen = test::rng(cases.size());
  for (PixelFormat shallow : {PixelFormat::I420, PixelFormat::NV12})
    for (auto [w, h] : {std::pair{0, 3}, {1, 1}, {9, 5}, {40, 20}, {130, 37}})
      for (const DeblockParams& params : cases)
        for (test::GuardSide side :
             {test::GuardSide::Before, test::GuardSide::After})
          for (int depth : kDepths) {
            Image content(shallow, w, h);
            fill(content, params.block_size);
            Image want = at_depth(content, depth, gen);
            const PixelFormat format = want.format();
            const test::GuardedFrame frame(want, side);
            deblock_frame(t.ref, want.frame(), params);
            deblock_frame(t.simd, frame.frame(), params);
            Image got(format, w, h);
            frame.copy_to(got);
            ASSERT_EQ(test::first_difference(want, got), "")
                << describe(params) << ", " << side << ", "
                << pixel_format_name(format);
          }
}

// A full-HD I420 frame from `fill` with each of `cases`, which must change it.
void check_full_hd(const std::vector<DeblockParams>& cases,
                   const std::function<void(Image&, int block)>& fill) {
  const Tables t;
  std::mt19937 gen = test::rng(cases.size());
  Image shallow(PixelFormat::I420, 1920, 1080, 32);
  for (const DeblockParams& params : cases)
    for (int depth : kDepths) {
      fill(shallow, params.block_size);
      const Image input = at_depth(shallow, depth, gen);
      Image expected = input, actual = input;
      deblock_frame(t.ref, expected.frame(), params);
      deblock_frame(t.simd, actual.frame(), params);
      ASSERT_EQ(test::first_difference(expected, actual), "")
          << describe(params);
      ASSERT_TRUE(test::guards_intact(actual));
      ASSERT_FALSE(actual.same_samples(input)) << "the filter must engage";
    }
}

// deblock_frame on one thread (both passes a band of rows at a time; on
// pools: deblock_threads_test.cc) against pass 1 over whole planes and then
// pass 2 (deblock_pass), with either table: frames of one to five bands,
// every format and depth, both modes, every block size, grid origins.
TEST_P(DeblockSimd, BandsMatchWholePasses) {
  const Tables t;
  std::mt19937 gen = test::rng(19);
  for (int i = 0; i < 48; i++) {
    const int block = kBlockSizes[i % 3];
    const DeblockParams params =
        test::random_band_params(gen, i / 3 % 2, block);
    Image shallow(kAllPixelFormats[i % 7], in(gen, 17, 80), in(gen, 60, 300),
                  in(gen, 0, 5));
    const int center = in(gen, 40, 215), jump = in(gen, 1, 30);
    // Content the filter changes: a draw where no edge passes the filter's
    // masks (a plane narrower than a block at sharpness 7 can have few
    // edges, each likely to fail) is drawn again.
    Image input = shallow;
    for (int draw = 0;; draw++) {
      test::fill_blocky(shallow, gen, block, center, jump);
      input = at_depth(shallow, kDepths[i / 7 % 2], gen);
      if (!test::deblock_whole_passes(t.ref, input, params).same_samples(input))
        break;
      ASSERT_LT(draw, 100) << "the filter must engage: "
                           << pixel_format_name(input.format()) << " "
                           << input.width() << "x" << input.height() << ", "
                           << describe(params);
    }
    for (const DeblockDsp* dsp : {&t.ref, &t.simd}) {
      const Image passes = test::deblock_whole_passes(*dsp, input, params);
      Image bands = input;
      deblock_frame(*dsp, bands.frame(), params);
      ASSERT_EQ(test::first_difference(passes, bands), "")
          << pixel_format_name(input.format()) << " " << input.width() << "x"
          << input.height() << ", " << describe(params)
          << (dsp == &t.ref ? ", reference" : ", simd");
    }
  }
}

// ---------------------------------------------------------------------------
// mode=h264

TEST_P(DeblockSimd, LadderPicksSimd) {
  const Tables t;
  EXPECT_NE(t.simd.vertical_edges, t.ref.vertical_edges);
  EXPECT_NE(t.simd.horizontal_edges, t.ref.horizontal_edges);
  EXPECT_NE(t.simd.vertical_edges_hbd, t.ref.vertical_edges_hbd);
  EXPECT_NE(t.simd.horizontal_edges_hbd, t.ref.horizontal_edges_hbd);
}

TEST_P(DeblockSimd, RandomPlanes) { check_random_planes(kH264, 1); }

// Every alpha, beta and tc0 the tables hold, with every bs, block size and
// filter.
TEST_P(DeblockSimd, EveryPlaneParameter) {
  const Tables t;
  std::mt19937 gen = test::rng(2);
  for (int index = 0; index < 52; index++)
    for (int bs = 1; bs <= 4; bs++)
      for (int block : kBlockSizes)
        for (bool chroma : {false, true}) {
          const int index_b = (index + in(gen, -3, 3) + 52) % 52;
          const DeblockPlaneParams pp = test::plane_params(
              kH264Alpha[index], kH264Beta[index_b],
              bs < 4 ? kH264Tc0[index][bs - 1] : 0, bs, chroma, block);
          Image image(PixelFormat::GRAY8, in(gen, 20, 70), in(gen, 20, 50),
                      in(gen, 0, 3));
          if (bs % 2)
            fill_thresholds(image, gen, pp);
          else
            test::fill_blocky(image, gen, block, in(gen, 0, 255),
                              in(gen, 1, 40));
          for (int depth : kDepths)
            expect_plane_matches(t, at_depth(image, depth, gen), 0, pp);
          if (HasFailure()) return;
        }
}

// Lines through one edge (block size 4, the edge at 4) that cover every
// (p0, q0) pair with random p3..p1, q1..q3 near them: the 8-bit delta, p1/q1
// and averaging arithmetic against the reference's 16-bit sums, lane by lane.
TEST_P(DeblockSimd, EveryP0Q0Pair) {
  std::mt19937 gen = test::rng(4);
  std::vector<std::vector<uint8_t>> lines(256 * 256);
  for (size_t i = 0; i < lines.size(); i++) {
    const int p0 = int(i & 255), q0 = int(i >> 8);
    auto near = [&](int v, int spread) {
      return uint8_t(std::clamp(v + in(gen, -spread, spread), 0, 255));
    };
    lines[i] = {near(p0, 30), near(p0, 20), near(p0, 18), uint8_t(p0),
                uint8_t(q0),  near(q0, 18), near(q0, 20), near(q0, 30)};
  }
  check_lines(lines, {
                         test::plane_params(255, 18, 25, 3, false,
                                            4),  // widest tc: 25 + 2
                         test::plane_params(255, 18, 0, 1, false, 4),
                         test::plane_params(101, 14, 9, 2, false, 4),
                         test::plane_params(255, 18, 25, 3, true, 4),
                         test::plane_params(255, 18, 0, 4, false, 4),
                         test::plane_params(203, 17, 0, 4, true, 4),
                     });
}

// The widest tc, the strong filter, chroma's filter, at each block size.
TEST_P(DeblockSimd, AdversarialPlanes) {
  check_adversarial_planes({test::plane_params(255, 18, 25, 3, false, 4),
                            test::plane_params(255, 18, 0, 4, false, 8),
                            test::plane_params(255, 18, 25, 3, true, 16),
                            test::plane_params(203, 17, 0, 4, true, 4)},
                           9);
}

TEST_P(DeblockSimd, SubRangesMatchWholePlane) { check_sub_ranges(kH264, 5); }

// A plane stored bottom row first (negative stride) filters like any other.
TEST_P(DeblockSimd, NegativeStride) {
  const Tables t;
  std::mt19937 gen = test::rng(6);
  for (int iter = 0; iter < 40; iter++) {
    const DeblockPlaneParams pp = random_plane_params(gen);
    const int w = in(gen, 1, 150), h = in(gen, 1, 100);
    Image shallow(PixelFormat::GRAY8, w, h, test::random_padding(gen));
    fill_sweep(kH264, shallow, gen, pp);
    const Image image = at_depth(shallow, kDepths[iter % 2], gen);
    EXPECT_EQ(compare(t, image, 0,
                      [&](const DeblockDsp& dsp, Plane plane) {
                        plane.data += (plane.height - 1) * plane.stride;
                        plane.stride = -plane.stride;
                        vertical(dsp, plane, pp);
                        horizontal(dsp, plane, pp);
                      }),
              "")
        << w << "x" << h << ", " << describe(pp);
  }
}

TEST_P(DeblockSimd, TouchesNothingOutsideTheRows) {
  std::mt19937 gen = test::rng(8);
  check_guard_pages({{45, 0, 0, 0, 2, 4}, {45, 0, 0, 0, 4, 4}},
                    [&](Image& image, int block) {
                      test::fill_blocky(image, gen, block, 128, 12);
                    });
}

// A full-HD I420 frame with every edge filtered (qp 51, smooth content), the
// configuration the speed target is set for, and its bs 4 counterpart.
TEST_P(DeblockSimd, FullHdFrame) {
  std::mt19937 gen = test::rng(7);
  check_full_hd({{51, 0, 0, 0, 2, 4}, {51, 0, 0, 0, 4, 4}},
                [&](Image& image, int) {
                  test::fill(image, [&](int, int x, int y) {
                    return uint8_t(100 + (x + y) / 64 + in(gen, 0, 4));
                  });
                });
}

// ---------------------------------------------------------------------------
// mode=vp9

TEST_P(DeblockSimd, Vp9RandomPlanes) { check_random_planes(kVp9, 11); }

// Every filter level with every sharpness and block size.
TEST_P(DeblockSimd, Vp9EveryPlaneParameter) {
  const Tables t;
  std::mt19937 gen = test::rng(12);
  for (int level = 0; level <= 63; level++)
    for (int sharpness = 0; sharpness <= 7; sharpness++)
      for (int block : kBlockSizes) {
        const DeblockPlaneParams pp = deblock_plane_params(
            test::vp9_params(level, sharpness, block), false, false);
        Image image(PixelFormat::GRAY8, in(gen, 20, 70), in(gen, 20, 50),
                    in(gen, 0, 3));
        fill_sweep(kVp9, image, gen, pp);
        for (int depth : kDepths)
          expect_plane_matches(t, at_depth(image, depth, gen), 0, pp);
        if (HasFailure()) return;
      }
}

// deblock_frame on every pixel format with random levels, sharpnesses,
// block sizes and, every other frame, grid origins.
TEST_P(DeblockSimd, Vp9EveryFormat) {
  std::mt19937 gen = test::rng(13);
  std::vector<DeblockParams> cases;
  for (int i = 0; i < 140; i++) {
    cases.push_back(
        test::vp9_params(in(gen, 0, 63), in(gen, 0, 7), kBlockSizes[i % 3]));
    if (i % 2)
      cases.back().grid_x = in(gen, 0, 15),
      cases.back().grid_y = in(gen, 0, 15);
  }
  check_frames(cases, gen, [&](Image& image, const DeblockParams& params) {
    fill_sweep(kVp9, image, gen, deblock_plane_params(params, false, false));
  });
}

// Lines through one edge (the edge at 16 of 24-sample lines) covering every
// (p0, q0) pair, the other samples near them: the 4-tap filter's saturating
// arithmetic, and the wide filters where the neighbours are within 1.
TEST_P(DeblockSimd, Vp9EveryP0Q0Pair) {
  std::mt19937 gen = test::rng(14);
  std::vector<std::vector<uint8_t>> lines(256 * 256);
  for (size_t i = 0; i < lines.size(); i++) {
    const int p0 = int(i & 255), q0 = int(i >> 8);
    const int spread = in(gen, 0, 1) ? 1 : 12;
    for (int x = 0; x < 24; x++) {
      const int v = x < 16 ? p0 : q0;
      const bool edge = x == 15 || x == 16;
      lines[i].push_back(
          uint8_t(edge ? v : std::clamp(v + in(gen, -spread, spread), 0, 255)));
    }
  }
  std::vector<DeblockPlaneParams> cases;
  for (int block : kBlockSizes)
    for (int level : {63, 40, 9})
      cases.push_back(deblock_plane_params(test::vp9_params(level, 0, block),
                                           false, false));
  check_lines(lines, cases);
}

// The highest level at each sharpness's extremes and block size, and a low
// one (the narrow filter alone).
TEST_P(DeblockSimd, Vp9AdversarialPlanes) {
  std::vector<DeblockPlaneParams> cases;
  for (int block : kBlockSizes)
    for (auto [level, sharpness] : {std::pair{63, 0}, {63, 7}, {9, 0}})
      cases.push_back(deblock_plane_params(
          test::vp9_params(level, sharpness, block), false, false));
  check_adversarial_planes(cases, 18);
}

TEST_P(DeblockSimd, Vp9SubRangesMatchWholePlane) { check_sub_ranges(kVp9, 15); }

TEST_P(DeblockSimd, Vp9TouchesNothingOutsideTheRows) {
  std::mt19937 gen = test::rng(16);
  std::vector<DeblockParams> cases;
  for (int block : kBlockSizes) cases.push_back(test::vp9_params(40, 0, block));
  check_guard_pages(cases, [&](Image& image, int block) {
    test::fill(image, [&](int, int x, int y) {
      return uint8_t(100 + (x / block + y / block) % 2 * 6 + in(gen, 0, 1));
    });
  });
}

// The benchmark's configuration: a full-HD I420 frame of flat blocks, so
// that the wide filters run on every edge.
TEST_P(DeblockSimd, Vp9FullHdFlatFrame) {
  std::mt19937 gen = test::rng(17);
  check_full_hd(
      {test::vp9_params(32, 0, 8), test::vp9_params(32, 0, 16)},
      [&](Image& image, int block) {
        test::fill(image, [&](int, int x, int y) {
          return uint8_t(100 + (x / block + y / block) % 2 * 4 + in(gen, 0, 1));
        });
      });
}

}  // namespace
}  // namespace daedalus
