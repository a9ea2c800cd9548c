// 10-bit frames on every backend (docs/spec.md "High bit depth"): CDEF and
// MC on the scalar and cpu backends compute the reference's output at any
// thread count; every kernel and backend that does not compute them yet says so
// and leaves its output alone.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>

#include "daedalus/backend.h"
#include "daedalus/image.h"
#include "test_util.h"

namespace daedalus {
namespace {

// One frame of a kernel with its settings drawn: on `backend`, or the
// kernel's scalar reference when null.
using KernelRun = std::function<Status(Backend* backend, const Frame& dst,
                                       const ConstFrame& src)>;

// A kernel on the scalar and cpu backends (1 and 3 threads) against its
// reference, on every 10-bit format: random values with random bits outside
// them in (and in the backend's destination), the reference's words out.
void expect_cpu_backends_match(
    uint32_t salt, const std::function<KernelRun(std::mt19937&)>& draw) {
  std::mt19937 gen = test::rng(salt);
  for (PixelFormat format : kTenBitPixelFormats)
    for (BackendKind kind : {BackendKind::Scalar, BackendKind::Cpu})
      for (int threads : {1, 3}) {
        std::unique_ptr<Backend> backend =
            create_backend(kind, nullptr, {threads});
        ASSERT_TRUE(backend);
        Image src(format, 77, 45, 2);
        test::fill_random(src, gen);
        test::set_outside_bits(src, gen);
        const KernelRun run = draw(gen);
        Image want(format, 77, 45, 2), got(format, 77, 45, 2);
        test::fill_random(got, gen);
        test::set_outside_bits(got, gen);
        ASSERT_TRUE(run(nullptr, want.frame(), src.frame()));
        ASSERT_TRUE(run(backend.get(), got.frame(), src.frame()));
        ASSERT_EQ(test::first_difference(want, got), "")
            << pixel_format_name(format) << " " << backend_name(kind) << " x"
            << threads;
      }
}

TEST(BitDepth, CdefOnTheCpuBackendsMatchesTheReference) {
  CdefDsp ref;
  cdef_dsp_init_ref(&ref);
  expect_cpu_backends_match(401, [&ref](std::mt19937& gen) -> KernelRun {
    const CdefParams params = test::random_cdef_params(gen);
    return [&ref, params](Backend* b, const Frame& dst, const ConstFrame& src) {
      if (b) return b->cdef(dst, src, params);
      cdef_frame(ref, dst, src, params);
      return Status::ok();
    };
  });
}

TEST(BitDepth, McOnTheCpuBackendsMatchesTheReference) {
  McDsp ref;
  mc_dsp_init_ref(&ref);
  expect_cpu_backends_match(403, [&ref](std::mt19937& gen) -> KernelRun {
    std::uniform_real_distribution<double> shift(-9.0, 9.0);
    const McParams params{shift(gen), shift(gen), McFilter(gen() % 4)};
    return [&ref, params](Backend* b, const Frame& dst, const ConstFrame& src) {
      if (b) return b->mc(dst, src, params);
      mc_frame(ref, dst, src, params);
      return Status::ok();
    };
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
    expect_refused(backend->deblock(frame.frame(), {}), src, frame);
    if (kind == BackendKind::Gpu || kind == BackendKind::Hybrid) {
      expect_refused(backend->cdef(frame.frame(), src.frame(), {}), src, frame);
      McParams mc;
      mc.dx = 0.5;
      expect_refused(backend->mc(frame.frame(), src.frame(), mc), src, frame);
    }
  }
}

}  // namespace
}  // namespace daedalus
