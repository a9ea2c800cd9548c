// deblock_frame on pools: the bands of every thread (the edges on their
// first rows after the join, or pass 2 strip by strip behind the band above
// where edges chain) against the two whole passes on one thread. In the
// threads suite, which ThreadSanitizer runs: frames wider than two strips and
// taller than two bands, so that bands wait past their first strip.
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

TEST(DeblockThreads, PoolsMatchWholePasses) {
  DeblockDsp dsp;
  deblock_dsp_init(&dsp);
  ThreadPool two(2), three(3), four(4);
  std::mt19937 gen = test::rng(23);
  // Planar and interleaved chroma, 4:4:4 (whose chroma takes the luma filter
  // and chains at block size 4), no chroma, both depths.
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
        const std::string name = std::string(pixel_format_name(format)) + " " +
                                 std::to_string(input.width()) + "x" +
                                 std::to_string(input.height()) + ", block " +
                                 std::to_string(block) +
                                 (vp9 ? ", vp9" : ", h264");
        Image passes = input;
        const Frame view = deblock_grid_view(passes.frame(), params);
        const int first[3] = {0, 0, 0};
        for (DeblockPass pass :
             {DeblockPass::VerticalEdges, DeblockPass::HorizontalEdges})
          deblock_pass(dsp, view, params, pass, first, nullptr);
        ASSERT_FALSE(passes.same_samples(input)) << name;
        for (ThreadPool* pool : {&two, &three, &four}) {
          Image bands = input;
          deblock_frame(dsp, bands.frame(), params, pool);
          ASSERT_EQ(test::first_difference(passes, bands), "")
              << name << ", " << pool->threads() << " threads";
        }
      }
}

}  // namespace
}  // namespace daedalus
