// The hybrid backend: every frame split between the gpu backend and the cpu
// backend's threads, which run at the same time; the result is the scalar
// reference's, whatever the split. Built with the gpu backend
// (DAEDALUS_HAVE_VULKAN); usable when both the cpu and the gpu backend are.
//
// The GPU takes the leading part of every plane, the CPU the rest:
// * mc: rows [0, s) of each plane (chroma's s derived from luma's);
// * cdef: block rows [0, s) (8 luma rows each), reading the source frame's
//   rows around them as a whole-frame call does;
// * deblock: pass 1 (vertical edges) by rows as mc, then pass 2 (horizontal
//   edges, on pass 1's output) by columns, the GPU's ending on a 4-byte
//   boundary: two GPU submissions, the pass-1 rows of each side copied into
//   the frame in between.
// The GPU's part is copied into its buffers and back (frames are expected
// in ordinary memory: GpuBuffer memory is slow for the CPU to read).
#pragma once

#include <memory>

#include "daedalus/backend.h"
#include "daedalus/backend_gpu.h"
#include "daedalus/status.h"

namespace daedalus {

// What the last successful frame call cost, in milliseconds of the calling
// thread. A frame takes about gpu_start_ms + cpu_ms + gpu_wait_ms +
// gpu_finish_ms: a share that balances the two sides brings gpu_wait_ms to
// about 0 without making cpu_ms longer than it need be.
struct HybridFrameStats {
  double gpu_start_ms = 0;   // staging and submitting the GPU's part
  double cpu_ms = 0;         // the CPU's part (calling thread and pool)
  double gpu_wait_ms = 0;    // waiting for the GPU once the CPU was done
  double gpu_finish_ms = 0;  // copying the GPU's part into the frame
  // The GPU's part as the gpu backend counts it (both deblock passes
  // summed; gpu_ms < 0 when unmeasured). All zero when the GPU had no rows.
  GpuFrameStats gpu;
  double share = 0;  // the gpu share the frame was split with
};

// Thread-safety as Backend, except the share, which may be set and read
// from any thread.
class HybridBackend : public Backend {
 public:
  // The fraction of each plane's rows (deblock's second pass: columns) the
  // GPU filters, clamped to [0, 1]; the next frame call uses it.
  virtual void set_gpu_share(double share) = 0;
  virtual double gpu_share() const = 0;

  virtual int threads() const = 0;  // the CPU's, calling thread included
  virtual const GpuDeviceInfo& device_info() const = 0;
  virtual const HybridFrameStats& last_frame_stats() const = 0;
};

// Fails, saying why in a sentence, when the cpu or the gpu backend is
// unavailable. options.threads and options.gpu_share as BackendOptions
// documents them.
Result<std::unique_ptr<HybridBackend>> create_hybrid_backend(
    const BackendOptions& options);

}  // namespace daedalus
