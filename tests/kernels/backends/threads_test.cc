// Output is identical for every thread count: each family's frame function
// with the init ladder's best implementation on pools of 1..8 threads (2..4
// under ThreadSanitizer) against the reference on the calling thread.
#include <gtest/gtest.h>

#include <memory>
#include <span>
#include <string>

#include "daedalus/cdef.h"
#include "daedalus/deblock.h"
#include "daedalus/image.h"
#include "daedalus/mc.h"
#include "daedalus/thread_pool.h"
#include "test_util.h"

namespace daedalus {
namespace {

struct Size {
  int w, h;
};
// The large size splits into bands as a stream's frames do; under
// ThreadSanitizer a quarter of full HD each way does so on a sixteenth of
// the work.
constexpr Size kLarge =
    test::kThreadSanitizer ? Size{480, 270} : Size{1920, 1080};
constexpr Size kSizes[] = {{1, 1}, {7, 5}, {33, 65}, {130, 47}, kLarge};

// The large size only where it adds something (one planar, one semi-planar
// format of each depth), to keep the run short.
bool worth_running(PixelFormat format, Size size) {
  return size.w < kLarge.w || format == PixelFormat::I420 ||
         format == PixelFormat::NV12 || format == PixelFormat::I420_10LE ||
         format == PixelFormat::P010_10LE;
}

// Under ThreadSanitizer, only pools with workers to race (2 to 4 threads):
// a pool of 1 has none, and 8 threads on a CI machine's few cores mostly
// wait.
constexpr int kThreadCounts[] = {1, 2, 3, 4, 8};
constexpr int kSanitizerThreadCounts[] = {2, 3, 4};
std::span<const int> thread_counts() {
  if (test::kThreadSanitizer) return kSanitizerThreadCounts;
  return kThreadCounts;
}

// ThreadSanitizer sees a race only when two threads happen to take bands
// that share bytes; a pool's workers may sleep through a run. Several runs
// per pool make a miss unlikely.
constexpr int kRunsPerPool = test::kThreadSanitizer ? 4 : 1;

// Runs `filter(dst, src, pool)` once on the reference path and
// kRunsPerPool times per thread count on the ladder's path; every output
// must match.
template <class RunRef, class RunFast>
void expect_same_for_all_threads(PixelFormat format, Size size, uint32_t salt,
                                 RunRef run_ref, RunFast run_fast) {
  if (!worth_running(format, size)) return;
  std::mt19937 gen = test::rng(salt);
  Image src(format, size.w, size.h, 5);
  test::fill_random(src, gen);
  test::set_outside_bits(src, gen);  // 10-bit: ignored, written 0
  Image expected = src;
  run_ref(expected.frame(), src.frame());
  for (int threads : thread_counts()) {
    ThreadPool pool(threads);
    for (int run = 0; run < kRunsPerPool; run++) {
      Image actual = src;
      run_fast(actual.frame(), src.frame(), &pool);
      ASSERT_EQ(test::first_difference(expected, actual), "")
          << threads << " threads";
      ASSERT_TRUE(test::guards_intact(actual));
    }
  }
}

// Every mode: h264 and vp9 split pass 1 into row bands and pass 2 into
// column bands; dct filters row bands from a copy of the planes.
DeblockParams deblock_params_for(DeblockMode mode) {
  DeblockParams params;
  params.mode = mode;
  params.qp = 45;
  params.block_size = 4;
  params.filter_level = 40;
  params.sharpness = 2;
  params.grid_x = 3;
  params.grid_y = 5;
  return params;
}

// Deblock with `params` on `formats`, the reference against the ladder.
void expect_deblock_same(const DeblockParams& params,
                         std::span<const PixelFormat> formats, uint32_t& salt) {
  DeblockDsp ref, fast;
  deblock_dsp_init_ref(&ref);
  deblock_dsp_init(&fast);
  for (PixelFormat format : formats)
    for (Size size : kSizes)
      expect_same_for_all_threads(
          format, size, salt++,
          [&](Frame dst, ConstFrame) { deblock_frame(ref, dst, params); },
          [&](Frame dst, ConstFrame, ThreadPool* pool) {
            deblock_frame(fast, dst, params, pool);
          });
}

TEST(Threads, DeblockIsIdenticalForEveryThreadCount) {
  uint32_t salt = 0;
  for (DeblockMode mode :
       {DeblockMode::H264, DeblockMode::Vp9, DeblockMode::Dct}) {
    SCOPED_TRACE("mode " + std::to_string(static_cast<int>(mode)));
    expect_deblock_same(deblock_params_for(mode), kAllPixelFormats, salt);
  }
}

// mode=dct on 10-bit frames too: its row bands read a copy of the planes'
// words.
TEST(Threads, DeblockDct10IsIdenticalForEveryThreadCount) {
  uint32_t salt = 100;
  expect_deblock_same(deblock_params_for(DeblockMode::Dct), kTenBitPixelFormats,
                      salt);
}

TEST(Threads, CdefIsIdenticalForEveryThreadCount) {
  CdefDsp ref, fast;
  cdef_dsp_init_ref(&ref);
  cdef_dsp_init(&fast);
  CdefParams params;
  params.pri_strength = 9;
  params.sec_strength = 2;
  uint32_t salt = 100;
  for (PixelFormat format : kAllPixelFormats)
    for (Size size : kSizes)
      expect_same_for_all_threads(
          format, size, salt++,
          [&](Frame dst, ConstFrame src) { cdef_frame(ref, dst, src, params); },
          [&](Frame dst, ConstFrame src, ThreadPool* pool) {
            cdef_frame(fast, dst, src, params, pool);
          });
}

TEST(Threads, McIsIdenticalForEveryThreadCount) {
  McDsp ref, fast;
  mc_dsp_init_ref(&ref);
  mc_dsp_init(&fast);
  McParams params;
  params.dx = 3.3;
  params.dy = -1.7;
  uint32_t salt = 200;
  for (PixelFormat format : kAllPixelFormats)
    for (Size size : kSizes)
      expect_same_for_all_threads(
          format, size, salt++,
          [&](Frame dst, ConstFrame src) { mc_frame(ref, dst, src, params); },
          [&](Frame dst, ConstFrame src, ThreadPool* pool) {
            mc_frame(fast, dst, src, params, pool);
          });
}

}  // namespace
}  // namespace daedalus
