// deblock_frame on pools: the bands of every thread (the edges on their
// first rows after the join, or pass 2 strip by strip behind the band above
// where edges chain) against the two whole passes on one thread, with the
// scalar and the dispatched tables. In the threads suite, which
// ThreadSanitizer runs and qemu-user does not (Debian 12's never finishes a
// program that starts a thread).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "daedalus/deblock.h"
#include "daedalus/thread_pool.h"
#include "test_util.h"

namespace daedalus {
namespace {

int in(std::mt19937& gen, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(gen);
}

class DeblockThreads : public testing::Test {
 protected:
  DeblockThreads() {
    deblock_dsp_init_ref(&ref_);
    deblock_dsp_init(&simd_);
  }

  // `input` through pools of 1 to 4 threads, with both tables, against the
  // whole passes; the filter must change it.
  void check(const Image& input, const DeblockParams& params) {
    const std::string name =
        std::string(pixel_format_name(input.format())) + " " +
        std::to_string(input.width()) + "x" + std::to_string(input.height()) +
        (params.mode == DeblockMode::Vp9 ? ", vp9" : ", h264") + " block " +
        std::to_string(params.block_size) + " grid " +
        std::to_string(params.grid_x) + "," + std::to_string(params.grid_y);
    for (const DeblockDsp* dsp : {&ref_, &simd_}) {
      const Image passes = test::deblock_whole_passes(*dsp, input, params);
      ASSERT_FALSE(passes.same_samples(input)) << name;
      for (ThreadPool* pool : {&one_, &two_, &three_, &four_}) {
        Image bands = input;
        deblock_frame(*dsp, bands.frame(), params, pool);
        ASSERT_EQ(test::first_difference(passes, bands), "")
            << name << ", " << pool->threads() << " threads"
            << (dsp == &ref_ ? ", reference" : ", simd");
      }
    }
  }

  DeblockDsp ref_, simd_;
  ThreadPool one_{1}, two_{2}, three_{3}, four_{4};
};

// Frames wider than two strips and taller than two bands, so that bands
// wait past their first strip: planar and interleaved chroma, 4:4:4 (whose
// chroma takes the luma filter and chains at block size 4), no chroma, both
// depths, both modes, every block size.
TEST_F(DeblockThreads, WideFramesMatchWholePasses) {
  std::mt19937 gen = test::rng(23);
  for (PixelFormat format :
       {PixelFormat::I420, PixelFormat::NV12, PixelFormat::Y444,
        PixelFormat::GRAY8, PixelFormat::I420_10LE, PixelFormat::P010_10LE})
    for (int block : {4, 8, 16})
      for (bool vp9 : {false, true}) {
        DeblockParams params =
            vp9 ? test::vp9_params(in(gen, 40, 63), 0, block)
                : DeblockParams{
                      .qp = 45, .bs = in(gen, 1, 4), .block_size = block};
        params.grid_x = in(gen, 0, 15), params.grid_y = in(gen, 0, 15);
        Image input(format, in(gen, 300, 420), in(gen, 130, 200), 3);
        const int scale = test::bit_depth_of(format) > 8 ? 4 : 1;
        test::fill_blocky(input, gen, block, 128 * scale, 12 * scale);
        check(input, params);
      }
}

// Frames tall enough that every plane, chroma too, splits into one band a
// thread on each pool (deblock_bands): planar and interleaved chroma, 4:4:4,
// both depths.
TEST_F(DeblockThreads, TallFramesMatchWholePasses) {
  std::mt19937 gen = test::rng(31);
  for (PixelFormat format : {PixelFormat::I420, PixelFormat::NV12,
                             PixelFormat::Y444, PixelFormat::P010_10LE})
    for (int block : {4, 8}) {
      DeblockParams params{.qp = 45, .bs = in(gen, 1, 4), .block_size = block};
      params.grid_x = in(gen, 0, 15), params.grid_y = in(gen, 0, 15);
      Image input(format, in(gen, 140, 200), in(gen, 560, 700), 3);
      const int scale = test::bit_depth_of(format) > 8 ? 4 : 1;
      test::fill_blocky(input, gen, block, 128 * scale, 12 * scale);
      check(input, params);
    }
}

// Frames of one to five bands, narrower than a block to a strip: every
// format, thresholds, sharpness and grid origins drawn; content drawn again
// where the whole passes change nothing.
TEST_F(DeblockThreads, SmallFramesMatchWholePasses) {
  std::mt19937 gen = test::rng(29);
  const auto formats = test::all_pixel_formats();
  for (int i = 0; i < 40; i++) {
    const DeblockParams params =
        test::random_band_params(gen, i / 3 % 2, 4 << (i % 3));
    const PixelFormat format = formats[size_t(i) % formats.size()];
    Image input(format, in(gen, 17, 140), in(gen, 60, 300), in(gen, 0, 5));
    const int scale = test::bit_depth_of(format) > 8 ? 4 : 1;
    for (int draw = 0;; draw++) {
      test::fill_blocky(input, gen, params.block_size, in(gen, 40, 215) * scale,
                        in(gen, 1, 30) * scale);
      if (!test::deblock_whole_passes(ref_, input, params).same_samples(input))
        break;
      ASSERT_LT(draw, 100) << "the filter must engage";
    }
    check(input, params);
  }
}

}  // namespace
}  // namespace daedalus
