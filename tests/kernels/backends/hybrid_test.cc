// The hybrid backend (backend_hybrid.h): creation, its share, refusals,
// deblocking's band edges where they once went wrong (chroma beyond an
// empty luma view, edges chained across a band edge, mode=dct's blocks
// across it), frames in GPU buffers, the band API and the stats. Bit-exact
// with the scalar reference on every kernel, format, setting, size and
// content at shares that give a side everything, nothing, or a band whose
// edge falls mid-plane: the harness (tests/kernels/harness, HarnessGpu).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>

#include "backends/gpu/gpu_bands.h"
#include "daedalus/backend_hybrid.h"
#include "daedalus/cdef.h"
#include "daedalus/deblock.h"
#include "daedalus/mc.h"
#include "gpu_test_util.h"
#include "test_util.h"

namespace daedalus {
namespace {

// All on the CPU, all on the GPU, and band edges mid-plane.
constexpr double kShares[] = {0.0, 1.0, 0.5, 0.37, 0.77};

std::string describe(const Image& image, double share) {
  return std::string(pixel_format_name(image.format())) + " " +
         std::to_string(image.width()) + "x" + std::to_string(image.height()) +
         " share " + std::to_string(share);
}

class Hybrid : public test::GpuTest {
 protected:
  void SetUp() override {
    test::GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (!backend_built(BackendKind::Hybrid))
      GTEST_SKIP() << "this build has no hybrid backend (no SIMD)";
    // Three threads: the CPU's part is itself split, even on two cores.
    Result<std::unique_ptr<HybridBackend>> b =
        create_hybrid_backend({.threads = 3});
    ASSERT_TRUE(b) << b.status().message();
    hybrid = std::move(b).value();
  }

  void TearDown() override {
    hybrid.reset();
    test::GpuTest::TearDown();
  }

  // Returns whether the reference changed the frame.
  bool expect_deblock(const Image& in, const DeblockParams& p, double share) {
    SCOPED_TRACE(
        describe(in, share) +
        (p.mode == DeblockMode::Vp9
             ? " vp9 level " + std::to_string(p.filter_level)
             : " qp " + std::to_string(p.qp) + " bs " + std::to_string(p.bs)) +
        " block " + std::to_string(p.block_size));
    const Image want = test::reference_output(in, deblock_job(p));
    Image got = in;
    hybrid->set_gpu_share(share);
    const Status s = hybrid->deblock(got.frame(), p);
    EXPECT_TRUE(s) << s.message();
    EXPECT_EQ(test::first_difference(want, got), "");
    EXPECT_TRUE(test::guards_intact(got));
    return !want.same_samples(in);
  }

  std::unique_ptr<HybridBackend> hybrid;
};

// ---------------------------------------------------------------- creation

TEST_F(Hybrid, CreatedByKindWithTheOptions) {
  Result<std::unique_ptr<Backend>> created =
      create_backend(BackendKind::Hybrid, {.threads = 2, .gpu_share = 0.25});
  ASSERT_TRUE(created) << created.status().message();
  const std::unique_ptr<Backend>& b = created.value();
  EXPECT_EQ(b->kind(), BackendKind::Hybrid);
  EXPECT_EQ(backend_name(BackendKind::Hybrid), "hybrid");
  auto* h = static_cast<HybridBackend*>(b.get());
  EXPECT_EQ(h->gpu_share(), 0.25);
  EXPECT_EQ(h->threads(), 2);
  EXPECT_EQ(h->device_info().name, gpu->device_info().name);
  EXPECT_EQ(hybrid->gpu_share(), 0.5);  // the default
}

TEST_F(Hybrid, ShareIsClamped) {
  hybrid->set_gpu_share(-0.5);
  EXPECT_EQ(hybrid->gpu_share(), 0.0);
  hybrid->set_gpu_share(7);
  EXPECT_EQ(hybrid->gpu_share(), 1.0);
  hybrid->set_gpu_share(std::nan(""));
  EXPECT_EQ(hybrid->gpu_share(), 0.0);
  hybrid->set_gpu_share(0.625);
  EXPECT_EQ(hybrid->gpu_share(), 0.625);
  Result<std::unique_ptr<HybridBackend>> b =
      create_hybrid_backend({.gpu_share = 3});
  ASSERT_TRUE(b);
  EXPECT_EQ(b.value()->gpu_share(), 1.0);
}

// Parameters and geometry are checked whatever the share.
TEST_F(Hybrid, RejectsBadCallsOnEitherSide) {
  Image a(PixelFormat::I420, 16, 16), b(PixelFormat::I420, 16, 18);
  for (double share : {0.0, 0.5, 1.0}) {
    hybrid->set_gpu_share(share);
    EXPECT_FALSE(hybrid->mc(a.frame(), b.frame(), {}));
    EXPECT_FALSE(hybrid->cdef(a.frame(), b.frame(), {}));
    EXPECT_FALSE(hybrid->mc(a.frame(), a.frame(), {.dx = 5000}));
    EXPECT_FALSE(hybrid->cdef(b.frame(), b.frame(), {.damping = 9}));
    EXPECT_FALSE(hybrid->deblock(a.frame(), {.block_size = 5}));
  }
}

// ------------------------------------------------------------------ deblock

// A grid origin past luma's last column (or row) empties luma's view but not
// chroma's: chroma is still filtered, at every share and in every mode (the
// GPU's band was once started only for luma's rows, and chroma's went
// unfiltered).
TEST_F(Hybrid, DeblockGridOriginPastLuma) {
  std::mt19937 gen = test::rng(19);
  int changed = 0;
  for (PixelFormat format :
       {PixelFormat::I420, PixelFormat::NV12, PixelFormat::Y42B})
    for (double share : kShares)
      for (bool columns : {true, false})
        for (DeblockParams p :
             {DeblockParams{.qp = 51, .bs = 4, .block_size = 8},
              test::vp9_params(40, 0, 8), test::dct_params(51, 4)}) {
          // Luma 7 samples wide (or high) with the origin at 7: luma's view
          // is empty; chroma's is 1 sample wide (4 - 3) and 20 or 40 long,
          // with edges across it at 8, 16, ...
          Image in(format, columns ? 7 : 40, columns ? 40 : 7, 2);
          test::fill_near(in, gen, 128, 3);
          (columns ? p.grid_x : p.grid_y) = 7;
          changed += expect_deblock(in, p, share);
          if (HasFailure()) return;
        }
  EXPECT_GE(changed, 1);
}

// Block size 4, where edges chain along a row (a column): bs 4, whose every
// edge depends on the one before, and bs 2, which reads the previous edge's
// q1'. Content every edge filters, so the chains run across the band edges.
TEST_F(Hybrid, DeblockChainedEdgesAcrossBandEdges) {
  std::mt19937 gen = test::rng(4);
  for (PixelFormat format : kAllPixelFormats)
    for (int bs : {4, 2})
      for (double share : {0.5, 0.37, 0.77, 0.13}) {
        Image in(format, 67, 45, 3);
        test::fill_near(in, gen, 128, 4);
        const DeblockParams p{.qp = 51, .bs = bs, .block_size = 4};
        EXPECT_TRUE(expect_deblock(in, p, share));
        if (HasFailure()) return;
      }
}

// mode=dct with grid origins and chroma offsets, band edges mid-block.
TEST_F(Hybrid, DeblockDctGridOffsetsAcrossBandEdges) {
  std::mt19937 gen = test::rng(21);
  for (PixelFormat format : kAllPixelFormats)
    for (double share : {0.13, 0.37, 0.5, 0.77}) {
      Image in(format, 67, 45, int(gen() % 4));
      test::fill_blocky(in, gen, 8, 128, 30);
      DeblockParams p = test::dct_params(44, 1 << (gen() % 7));
      p.chroma_qp_offset = int(gen() % 25) - 12;
      p.grid_x = int(gen() % 16);
      p.grid_y = int(gen() % 16);
      EXPECT_TRUE(expect_deblock(in, p, share));
      if (HasFailure()) return;
    }
}

// ------------------------------------------------------------ other frames

// A frame in a GpuBuffer is staged like any other: the CPU writes its other
// rows while the GPU runs.
TEST_F(Hybrid, FramesInGpuBuffers) {
  std::mt19937 gen = test::rng(6);
  for (PixelFormat format : {PixelFormat::I420, PixelFormat::NV21}) {
    Image src(format, 40, 24, 8);
    test::fill_near(src, gen, 90, 6);
    Image dst(format, 40, 24, 8);
    test::fill(dst, [](int, int, int) { return uint8_t(0x5a); });
    test::GpuImage gsrc = test::copy_to_gpu(*gpu, src);
    test::GpuImage gdst = test::copy_to_gpu(*gpu, dst);
    hybrid->set_gpu_share(0.5);

    const McParams mp{0.7, -1.3, McFilter::Regular};
    ASSERT_TRUE(hybrid->mc(gdst.frame, gsrc.frame, mp));
    copy_from_gpu(gdst, dst);
    EXPECT_EQ(
        test::first_difference(test::reference_output(src, mc_job(mp), 8), dst),
        "");

    ASSERT_TRUE(hybrid->cdef(gdst.frame, gsrc.frame, {}));
    copy_from_gpu(gdst, dst);
    EXPECT_EQ(test::first_difference(
                  test::reference_output(src, cdef_job({}), 8), dst),
              "");

    const DeblockParams dp{.qp = 51, .bs = 4, .block_size = 4};
    ASSERT_TRUE(hybrid->deblock(gsrc.frame, dp));
    copy_from_gpu(gsrc, dst);
    EXPECT_EQ(test::first_difference(
                  test::reference_output(src, deblock_job(dp)), dst),
              "");
    EXPECT_EQ(hybrid->last_frame_stats().gpu.zero_copy_groups, 0);
  }
}

// -------------------------------------------------------- the band API

// What the hybrid backend relies on: a band writes its rows (columns) and
// nothing else of the frame, and its copies in and out respect the frame's
// layout.
class GpuBands : public test::GpuTest {
 protected:
  void SetUp() override {
    test::GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    backend = create_gpu_backend(GpuOptions::from_env()).value_or(nullptr);
    ASSERT_TRUE(backend);
    bands = dynamic_cast<GpuBandBackend*>(backend.get());
    ASSERT_NE(bands, nullptr);
  }

  // Samples of `got` in rows (columns) [0, extent[p]) of each plane equal
  // `band`'s, the others `rest`'s.
  static void expect_split(const Image& got, const Image& band,
                           const Image& rest, const int extent[3],
                           bool columns) {
    const ConstFrame g = got.frame(), b = band.frame(), r = rest.frame();
    for (int p = 0; p < g.num_planes; p++)
      for (int y = 0; y < g.planes[p].height; y++)
        for (int x = 0; x < g.planes[p].width; x++) {
          const bool in_band = (columns ? x : y) < extent[p];
          ASSERT_EQ(g.planes[p].at(x, y), (in_band ? b : r).planes[p].at(x, y))
              << "plane " << p << " (" << x << ", " << y << ")"
              << (in_band ? " in" : " outside") << " the band";
        }
  }

  std::unique_ptr<GpuBackend> backend;
  GpuBandBackend* bands = nullptr;
};

TEST_F(GpuBands, McWritesItsRowsOnly) {
  std::mt19937 gen = test::rng(8);
  for (PixelFormat format : {PixelFormat::I420, PixelFormat::NV12}) {
    Image src(format, 33, 65, 3);
    test::fill_random(src, gen);
    const McParams p{-0.6, 9.4, McFilter::Regular};
    Image got(format, 33, 65, 1);
    test::fill(got, [](int, int, int) { return uint8_t(0x5a); });
    const Image untouched = got;
    const int rows[3] = {21, 11, 11};
    ASSERT_TRUE(bands->start_mc_band(got.frame(), src.frame(), p, rows));
    ASSERT_TRUE(bands->finish_band());
    expect_split(got, test::reference_output(src, mc_job(p), 1), untouched,
                 rows, false);
    EXPECT_TRUE(test::guards_intact(got));
  }
}

TEST_F(GpuBands, DeblockColumnsWriteTheirWordsOnly) {
  std::mt19937 gen = test::rng(9);
  for (PixelFormat format : {PixelFormat::Y42B, PixelFormat::NV21}) {
    Image in(format, 45, 30, 2);
    test::fill_near(in, gen, 128, 4);
    const DeblockParams p{.qp = 51, .bs = 4, .block_size = 4};
    // Pass 2 of columns [0, 24) of luma, [0, 12) of chroma on a frame whose
    // pass 1 is done: those columns as the reference, the others as pass 1
    // left them.
    Image pass1 = in;
    DeblockDsp ref;
    deblock_dsp_init_ref(&ref);
    for (int q = 0; q < 3; q++) {
      const Plane& plane = pass1.frame().planes[q];
      const DeblockPlaneParams pp = deblock_plane_params(p, q > 0, q > 0);
      ref.vertical_edges(plane, pp, 0, plane.height);
    }
    Image got = pass1;
    const int columns[3] = {24, 12, 12};
    ASSERT_TRUE(bands->start_deblock_band(
        got.frame(), p, vk::DeblockPass::HorizontalEdges, columns));
    ASSERT_TRUE(bands->finish_band());
    expect_split(got, test::reference_output(in, deblock_job(p)), pass1,
                 columns, true);
    EXPECT_TRUE(test::guards_intact(got));
  }
}

// mode=dct's band: rows [0, 21) of luma, [0, 11) of chroma as the
// reference gives them (from rows below the band too), the others as they
// were.
TEST_F(GpuBands, DeblockDctWritesItsRowsOnly) {
  std::mt19937 gen = test::rng(10);
  for (PixelFormat format : {PixelFormat::I420, PixelFormat::NV21}) {
    Image in(format, 45, 30, 2);
    test::fill_blocky(in, gen, 8, 128, 30);
    const DeblockParams p = test::dct_params(44, 8);
    Image got = in;
    const int rows[3] = {21, 11, 11};
    ASSERT_TRUE(bands->start_deblock_band(
        got.frame(), p, vk::DeblockPass::VerticalEdges, rows));
    ASSERT_TRUE(bands->finish_band());
    expect_split(got, test::reference_output(in, deblock_job(p)), in, rows,
                 false);
    EXPECT_TRUE(test::guards_intact(got));
    EXPECT_FALSE(bands->start_deblock_band(
        got.frame(), p, vk::DeblockPass::HorizontalEdges, rows));
  }
}

// A band started and never finished is waited for before the buffers it
// uses go (the validation layer would report them destroyed in use).
TEST_F(GpuBands, ABandNeverFinishedIsWaitedFor) {
  Image src(PixelFormat::I420, 640, 360), dst(PixelFormat::I420, 640, 360);
  const int rows[3] = {360, 180, 180};
  ASSERT_TRUE(bands->start_mc_band(dst.frame(), src.frame(),
                                   {0.5, 0.5, McFilter::Sharp}, rows));
  // Nothing else may start meanwhile.
  EXPECT_FALSE(bands->mc(dst.frame(), src.frame(), {}));
  backend.reset();
}

// --------------------------------------------------------------------- stats

TEST_F(Hybrid, StatsSayWhoDidWhat) {
  std::mt19937 gen = test::rng(7);
  Image src(PixelFormat::I420, 64, 48, 0);
  test::fill_near(src, gen, 128, 4);
  Image dst = src;

  hybrid->set_gpu_share(0);
  ASSERT_TRUE(hybrid->mc(dst.frame(), src.frame(), {0.5, 0.5}));
  HybridFrameStats s = hybrid->last_frame_stats();
  EXPECT_EQ(s.share, 0.0);
  EXPECT_EQ(s.gpu.staged_groups, 0);
  EXPECT_EQ(s.gpu_wait_ms, 0.0);
  EXPECT_GT(s.cpu_ms, 0.0);

  hybrid->set_gpu_share(0.5);
  ASSERT_TRUE(hybrid->mc(dst.frame(), src.frame(), {0.5, 0.5}));
  s = hybrid->last_frame_stats();
  EXPECT_EQ(s.share, 0.5);
  EXPECT_EQ(s.gpu.staged_groups, 6);  // 3 planes in, 3 out
  EXPECT_GT(s.gpu_start_ms, 0.0);
  EXPECT_GE(s.gpu_wait_ms, 0.0);
  if (hybrid->device_info().timestamps) {
    EXPECT_GE(s.gpu.gpu_ms, 0.0);
  }

  // Deblock: two submissions, each staging the three planes once; mode=dct
  // one.
  ASSERT_TRUE(hybrid->deblock(dst.frame(), {.qp = 51}));
  EXPECT_EQ(hybrid->last_frame_stats().gpu.staged_groups, 6);
  ASSERT_TRUE(hybrid->deblock(dst.frame(), test::dct_params(51, 4)));
  EXPECT_EQ(hybrid->last_frame_stats().gpu.staged_groups, 3);
}

}  // namespace
}  // namespace daedalus
