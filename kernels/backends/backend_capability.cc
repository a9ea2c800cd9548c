#include "daedalus/backend_capability.h"

#include <string>

namespace daedalus {
namespace {

// At 10 bits (docs/spec.md "High bit depth"), per backend kind in
// BackendKind's order and kernel in Kernel's order.
constexpr bool kTenBit[4][5] = {
    //          h264   vp9    dct    cdef   mc
    /* scalar */ {true, true, true, true, true},
    /* cpu    */ {true, true, true, true, true},
    /* gpu    */ {true, true, true, true, true},
    /* hybrid */ {true, true, true, true, true},
};

}  // namespace

std::string_view kernel_name(Kernel kernel) {
  switch (kernel) {
    case Kernel::DeblockH264:
      return "deblock mode=h264";
    case Kernel::DeblockVp9:
      return "deblock mode=vp9";
    case Kernel::DeblockDct:
      return "deblock mode=dct";
    case Kernel::Cdef:
      return "CDEF";
    case Kernel::Mc:
      return "MC";
  }
  return "?";
}

Kernel deblock_kernel(DeblockMode mode) {
  switch (mode) {
    case DeblockMode::Vp9:
      return Kernel::DeblockVp9;
    case DeblockMode::Dct:
      return Kernel::DeblockDct;
    case DeblockMode::H264:
      break;
  }
  return Kernel::DeblockH264;
}

bool backend_computes(BackendKind kind, Kernel kernel, int bit_depth) {
  if (bit_depth == 8) return true;
  if (bit_depth != 10) return false;
  return kTenBit[int(kind)][int(kernel)];
}

bool any_backend_computes(Kernel kernel, int bit_depth) {
  for (BackendKind kind : kAllBackendKinds)
    if (backend_computes(kind, kernel, bit_depth)) return true;
  return false;
}

Status require_computed(BackendKind kind, Kernel kernel,
                        const ConstFrame& frame) {
  if (backend_computes(kind, kernel, frame.bit_depth())) return Status::ok();
  return Status::error("the " + std::string(backend_name(kind)) +
                       " backend does not compute " +
                       std::string(kernel_name(kernel)) + " on " +
                       std::to_string(frame.bit_depth()) + "-bit video yet");
}

}  // namespace daedalus
