// 10-bit frames on every backend (docs/spec.md "High bit depth"): CDEF, MC
// and deblock (every mode) on the scalar and cpu backends compute the
// reference's output at any thread count (the gpu and hybrid backends: their
// own suites, gpu_*_test.cc and hybrid_test.cc); every kernel and backend
// that does not compute them yet (the capability table,
// backend_capability.h) says so and leaves its output alone.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>

#include "daedalus/backend.h"
#include "daedalus/backend_capability.h"
#include "daedalus/image.h"
#include "test_util.h"

namespace daedalus {
namespace {

// One frame of a kernel with its settings drawn: on `backend`, or the
// kernel's scalar reference when null.
using KernelRun = std::function<Status(Backend* backend, const Frame& dst,
                                       const ConstFrame& src)>;

// How a kernel's source is made: random values by default.
using Fill = std::function<void(std::mt19937&, Image&)>;
void fill_random(std::mt19937& gen, Image& image) {
  test::fill_random(image, gen);
}

// A kernel on the scalar and cpu backends (1 and 3 threads) against its
// reference, on every 10-bit format: `fill`'s values with random bits outside
// them in, the reference's words out. The backend's destination starts with
// random words, or, `in_place`, as a copy of the source (which the kernel
// must then change).
void expect_cpu_backends_match(
    uint32_t salt, const std::function<KernelRun(std::mt19937&)>& draw,
    const Fill& fill = fill_random, bool in_place = false) {
  std::mt19937 gen = test::rng(salt);
  for (PixelFormat format : kTenBitPixelFormats)
    for (BackendKind kind : {BackendKind::Scalar, BackendKind::Cpu})
      for (int threads : {1, 3}) {
        std::unique_ptr<Backend> backend =
            create_backend(kind, {threads}).value_or(nullptr);
        ASSERT_TRUE(backend);
        Image src(format, 77, 45, 2);
        fill(gen, src);
        test::set_outside_bits(src, gen);
        const KernelRun run = draw(gen);
        Image want = src, got = src;
        if (!in_place) {
          test::fill_random(got, gen);
          test::set_outside_bits(got, gen);
        }
        ASSERT_TRUE(run(nullptr, want.frame(), src.frame()));
        ASSERT_TRUE(run(backend.get(), got.frame(), src.frame()));
        ASSERT_EQ(test::first_difference(want, got), "")
            << pixel_format_name(format) << " " << backend_name(kind) << " x"
            << threads;
        if (in_place) {
          ASSERT_FALSE(want.same_samples(src)) << "the kernel did not engage";
        }
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

// Deblock with settings `draw` makes, over blocky content (so that the
// filters engage) with bits outside the values, in place.
void expect_deblock_matches(
    uint32_t salt, const std::function<DeblockParams(std::mt19937&)>& draw) {
  DeblockDsp ref;
  deblock_dsp_init_ref(&ref);
  const Fill blocky = [](std::mt19937& gen, Image& image) {
    test::fill_blocky(image, gen, 8, 512, 60);
  };
  expect_cpu_backends_match(
      salt,
      [&](std::mt19937& gen) -> KernelRun {
        const DeblockParams params = draw(gen);
        return [&ref, params](Backend* b, const Frame& dst, const ConstFrame&) {
          if (b) return b->deblock(dst, params);
          deblock_frame(ref, dst, params);
          return Status::ok();
        };
      },
      blocky, /*in_place=*/true);
}

// mode=h264 and vp9 at random settings.
TEST(BitDepth, DeblockOnTheCpuBackendsMatchesTheReference) {
  expect_deblock_matches(404, [](std::mt19937& gen) {
    DeblockParams params;
    if (gen() % 2)
      params = test::vp9_params(int(gen() % 63) + 1, int(gen() % 8), 8);
    params.qp = 40 + int(gen() % 12);
    params.block_size = 4 << (gen() % 3);
    params.grid_x = int(gen() % 16);
    params.grid_y = int(gen() % 16);
    return params;
  });
}

// mode=dct at random settings (strength, shift count, chroma offset, grid
// origin).
TEST(BitDepth, DeblockDctOnTheCpuBackendsMatchesTheReference) {
  expect_deblock_matches(405, [](std::mt19937& gen) {
    DeblockParams params =
        test::dct_params(30 + int(gen() % 22), 1 << (gen() % 7));
    params.chroma_qp_offset = int(gen() % 25) - 12;
    params.grid_x = int(gen() % 16);
    params.grid_y = int(gen() % 16);
    return params;
  });
}

// An error naming 10-bit video, and the frame untouched.
void expect_refused(const Status& s, const Image& before, const Image& after) {
  EXPECT_FALSE(s);
  EXPECT_NE(s.message().find("10-bit"), std::string::npos) << s.message();
  EXPECT_EQ(test::first_difference(before, after), "");
}

// One frame of `kernel` on `backend`, `frame` its destination (and, in
// place, its source).
Status run_kernel(Backend& backend, Kernel kernel, Image& frame,
                  const Image& src) {
  McParams mc;
  mc.dx = 0.5;
  switch (kernel) {
    case Kernel::DeblockH264:
      return backend.deblock(frame.frame(), {});
    case Kernel::DeblockVp9:
      return backend.deblock(frame.frame(), test::vp9_params(10, 0, 8));
    case Kernel::DeblockDct:
      return backend.deblock(frame.frame(), test::dct_params(40, 4));
    case Kernel::Cdef:
      return backend.cdef(frame.frame(), src.frame(), {});
    case Kernel::Mc:
      return backend.mc(frame.frame(), src.frame(), mc);
  }
  return Status::error("no such kernel");
}

// The capability table is what the backends do: every (backend, kernel) it
// says computes 10-bit frames runs one, every other refuses it.
TEST(BitDepth, BackendsDoWhatTheCapabilityTableSays) {
  std::mt19937 gen = test::rng(402);
  for (BackendKind kind : kAllBackendKinds) {
    std::unique_ptr<Backend> backend = create_backend(kind).value_or(nullptr);
    if (!backend) continue;  // no gpu here
    for (Kernel kernel : kAllKernels) {
      SCOPED_TRACE(std::string(backend_name(kind)) + " " +
                   std::string(kernel_name(kernel)));
      Image src(PixelFormat::I420_10LE, 32, 16);
      test::fill_random(src, gen);
      Image frame = src;
      const Status s = run_kernel(*backend, kernel, frame, src);
      if (backend_computes(kind, kernel, 10))
        EXPECT_TRUE(s) << s.message();
      else
        expect_refused(s, src, frame);
    }
  }
}

// What the table must hold whatever lands: everything at 8 bits, nothing
// at depths the formats do not have, the cpu backend only what its
// reference (scalar) computes, hybrid only what both its halves do.
TEST(BitDepth, CapabilityTableIsConsistent) {
  for (Kernel kernel : kAllKernels) {
    SCOPED_TRACE(std::string(kernel_name(kernel)));
    for (BackendKind kind : kAllBackendKinds) {
      EXPECT_TRUE(backend_computes(kind, kernel, 8));
      EXPECT_FALSE(backend_computes(kind, kernel, 12));
    }
    const auto at10 = [kernel](BackendKind kind) {
      return backend_computes(kind, kernel, 10);
    };
    EXPECT_TRUE(!at10(BackendKind::Cpu) || at10(BackendKind::Scalar));
    EXPECT_TRUE(!at10(BackendKind::Hybrid) ||
                (at10(BackendKind::Cpu) && at10(BackendKind::Gpu)));
    EXPECT_EQ(any_backend_computes(kernel, 10),
              at10(BackendKind::Scalar) || at10(BackendKind::Gpu));
  }
  // Today's state (docs/spec.md "High bit depth"), which CPU and GPU work
  // changes together with this line.
  EXPECT_TRUE(backend_computes(BackendKind::Cpu, Kernel::Cdef, 10));
  EXPECT_TRUE(backend_computes(BackendKind::Cpu, Kernel::DeblockH264, 10));
}

}  // namespace
}  // namespace daedalus
