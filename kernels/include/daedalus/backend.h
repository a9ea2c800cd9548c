// Backends: whole-frame entry points the elements call, one per kernel
// family. A backend may split a frame across threads or offload it to a GPU;
// every backend produces exactly the scalar reference's output.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "daedalus/cdef.h"
#include "daedalus/deblock.h"
#include "daedalus/frame.h"
#include "daedalus/mc.h"
#include "daedalus/status.h"

namespace daedalus {

// Hybrid: each frame split between the cpu backend's threads and the gpu
// (backend_hybrid.h).
enum class BackendKind { Scalar, Cpu, Gpu, Hybrid };

inline constexpr BackendKind kAllBackendKinds[] = {
    BackendKind::Scalar, BackendKind::Cpu, BackendKind::Gpu,
    BackendKind::Hybrid};

std::string_view backend_name(BackendKind kind);

// Not thread-safe: one backend object serves one element (one stream) at a
// time. Distinct backend objects may run on distinct threads at once, also
// when they share a thread pool or a device (create_backend). Frames passed
// in must satisfy the geometry their kernel documents; `dst` and `src` of
// cdef/mc never alias.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual BackendKind kind() const = 0;

  // The front door, the same for every backend: it refuses, writing
  // nothing, parameters out of range (the error names the field and its
  // range: *_params_valid), a frame of a bit depth this kind does not
  // compute (require_computed), and for cdef/mc a `dst` whose planes differ
  // from `src`'s in number, size or sample layout; then the backend filters.
  Status deblock(const Frame& frame, const DeblockParams& params);
  Status cdef(const Frame& dst, const ConstFrame& src,
              const CdefParams& params);
  Status mc(const Frame& dst, const ConstFrame& src, const McParams& params);

 protected:
  // What each backend does with what the front door let in.
  virtual Status do_deblock(const Frame& frame,
                            const DeblockParams& params) = 0;
  virtual Status do_cdef(const Frame& dst, const ConstFrame& src,
                         const CdefParams& params) = 0;
  virtual Status do_mc(const Frame& dst, const ConstFrame& src,
                       const McParams& params) = 0;
};

struct BackendOptions {
  // Threads a frame is split across (the cpu backend, and the CPU's part of
  // a hybrid frame); 0 means one per core.
  int threads = 0;
  // Hybrid: the fraction of each plane's rows the GPU filters, the rest
  // going to the CPU threads; clamped to [0, 1] (HybridBackend::
  // set_gpu_share changes it later).
  double gpu_share = 0.5;
  // The cpu backend: whether its SIMD may take the intrinsic islands (CDEF's
  // byte filters, MC's dot products, mode=dct's VNNI rows) where the CPU has
  // their instructions; false runs the Highway code a CPU lacking them runs
  // (the harness walks both on a CPU that has them).
  bool simd_islands = true;
};

// Whether this build has the backend at all; a backend built in may still
// be unusable on this machine (create_backend says why).
bool backend_built(BackendKind kind);

// A backend of `kind`, or an error saying why it is not built or not
// usable on this machine. Backends share what is process-wide: cpu
// backends with the same thread count one pool (their frames take turns on
// it), gpu backends one Vulkan device (backend_gpu.h).
Result<std::unique_ptr<Backend>> create_backend(
    BackendKind kind, const BackendOptions& options = {});

}  // namespace daedalus
