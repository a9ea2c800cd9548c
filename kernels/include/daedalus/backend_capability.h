// What each backend computes, by kernel and bit depth: the one table the
// backends check frames against (require_computed), backend=auto chooses
// among and the elements negotiate by. A backend that learns a kernel at a
// new depth flips its entry in backend_capability.cc, and nothing else.
#pragma once

#include <string_view>

#include "daedalus/backend.h"

namespace daedalus {

// A kernel as the elements run it: deblock per mode, CDEF, MC.
enum class Kernel { DeblockH264, DeblockVp9, DeblockDct, Cdef, Mc };

inline constexpr Kernel kAllKernels[] = {Kernel::DeblockH264,
                                         Kernel::DeblockVp9, Kernel::DeblockDct,
                                         Kernel::Cdef, Kernel::Mc};

// "deblock mode=h264", "CDEF", ...: as a message to a user names it.
std::string_view kernel_name(Kernel kernel);

Kernel deblock_kernel(DeblockMode mode);

// Whether backends of `kind` compute `kernel` on frames of `bit_depth` (8
// or 10; any other depth: no). Every backend computes every kernel at 8
// bits. Thread-safe (a constant table).
bool backend_computes(BackendKind kind, Kernel kernel, int bit_depth);

// Whether any backend kind does (what an element on backend=auto may run).
bool any_backend_computes(Kernel kernel, int bit_depth);

// Ok when backends of `kind` compute `kernel` on `frame`'s bit depth; else
// an error naming the kernel, the backend and the depth.
Status require_computed(BackendKind kind, Kernel kernel,
                        const ConstFrame& frame);

}  // namespace daedalus
