// 10-bit frames on every backend (docs/spec.md "High bit depth"): every
// kernel and backend that does not compute them yet (the capability table,
// backend_capability.h) says so and leaves its output alone. That the
// backends which compute them match the reference, at every thread count:
// the harness (tests/kernels/harness), whose table has both depths.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "daedalus/backend.h"
#include "daedalus/backend_capability.h"
#include "daedalus/image.h"
#include "test_util.h"

namespace daedalus {
namespace {

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
