// 10-bit frames on every backend (docs/spec.md "High bit depth"): CDEF and
// deblock mode=h264 and vp9 on the scalar and cpu backends compute the
// reference's output at any thread count; every kernel and backend that does
// not compute them yet says so and leaves its output alone.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>

#include "daedalus/backend.h"
#include "daedalus/image.h"
#include "test_util.h"

namespace daedalus {
namespace {

// Calls run(format, backend) for every 10-bit format on the scalar and cpu
// backends, at 1 and 3 threads; `run` returns what to say on a failure.
void on_cpu_backends(
    const std::function<std::string(PixelFormat, Backend&)>& run) {
  for (PixelFormat format : kTenBitPixelFormats)
    for (BackendKind kind : {BackendKind::Scalar, BackendKind::Cpu})
      for (int threads : {1, 3}) {
        std::unique_ptr<Backend> backend =
            create_backend(kind, nullptr, {threads});
        ASSERT_TRUE(backend);
        ASSERT_EQ(run(format, *backend), "")
            << backend_name(kind) << " x" << threads << " "
            << pixel_format_name(format);
      }
}

TEST(BitDepth, CdefOnTheCpuBackendsMatchesTheReference) {
  std::mt19937 gen = test::rng(401);
  CdefDsp ref;
  cdef_dsp_init_ref(&ref);
  on_cpu_backends([&](PixelFormat format, Backend& backend) -> std::string {
    Image src(format, 77, 45, 2);
    test::fill_random(src, gen);
    test::set_outside_bits(src, gen);
    const CdefParams params = test::random_cdef_params(gen);
    Image want(format, 77, 45, 2), got(format, 77, 45, 2);
    cdef_frame(ref, want.frame(), src.frame(), params);
    if (!backend.cdef(got.frame(), src.frame(), params)) return "refused";
    return test::first_difference(want, got);
  });
}

// mode=h264 and vp9, random settings over blocky content with bits outside
// the values.
TEST(BitDepth, DeblockOnTheCpuBackendsMatchesTheReference) {
  std::mt19937 gen = test::rng(403);
  DeblockDsp ref;
  deblock_dsp_init_ref(&ref);
  on_cpu_backends([&](PixelFormat format, Backend& backend) -> std::string {
    for (bool vp9 : {false, true}) {
      Image frame(format, 93, 71, 2);
      test::fill_blocky(frame, gen, 8, 512, 60);
      test::set_outside_bits(frame, gen);
      DeblockParams params;
      if (vp9)
        params = test::vp9_params(int(gen() % 63) + 1, int(gen() % 8), 8);
      params.qp = 40 + int(gen() % 12);
      params.block_size = 4 << (gen() % 3);
      params.grid_x = int(gen() % 16);
      params.grid_y = int(gen() % 16);
      Image want = frame, got = frame;
      deblock_frame(ref, want.frame(), params);
      if (!backend.deblock(got.frame(), params)) return "refused";
      const std::string diff = test::first_difference(want, got);
      if (!diff.empty()) return diff + (vp9 ? " (vp9)" : " (h264)");
      if (got.same_samples(frame)) return "the filter did not engage";
    }
    return {};
  });
}

// An error naming 10-bit video, and the frame untouched.
void expect_refused(const Status& s, const Image& before, const Image& after) {
  EXPECT_FALSE(s);
  EXPECT_NE(s.message().find("10-bit"), std::string::npos) << s.message();
  EXPECT_EQ(test::first_difference(before, after), "");
}

TEST(BitDepth, WhatIsNotBuiltYetIsRefused) {
  std::mt19937 gen = test::rng(402);
  for (BackendKind kind : kAllBackendKinds) {
    std::unique_ptr<Backend> backend = create_backend(kind, nullptr);
    if (!backend) continue;  // no gpu here
    SCOPED_TRACE(std::string(backend_name(kind)));
    Image src(PixelFormat::I420_10LE, 32, 16);
    test::fill_random(src, gen);
    Image frame = src;
    const bool cpu = kind == BackendKind::Scalar || kind == BackendKind::Cpu;
    if (!cpu) {
      expect_refused(backend->deblock(frame.frame(), {}), src, frame);
      expect_refused(
          backend->deblock(frame.frame(), test::vp9_params(10, 0, 8)), src,
          frame);
    }
    expect_refused(backend->deblock(frame.frame(), test::dct_params(40, 4)),
                   src, frame);
    McParams mc;
    mc.dx = 0.5;
    expect_refused(backend->mc(frame.frame(), src.frame(), mc), src, frame);
    if (kind == BackendKind::Gpu || kind == BackendKind::Hybrid)
      expect_refused(backend->cdef(frame.frame(), src.frame(), {}), src, frame);
  }
}

}  // namespace
}  // namespace daedalus
