// The gpu backend (Vulkan compute) beyond the Backend interface: the device
// it runs on, per-frame timings, and buffers a caller may place frames in so
// that the GPU uses them in place (zero-copy). Built when the meson option
// `vulkan` found Vulkan and glslangValidator (DAEDALUS_HAVE_VULKAN).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "daedalus/backend.h"
#include "daedalus/status.h"

namespace daedalus {

// A block of Vulkan memory on a gpu backend's device: host-visible, coherent
// when the device has such memory, mapped for the buffer's whole life.
// Frames whose planes lie inside one (any planes, any layout) are read and
// written in place by the kernels of every backend on its device (all those
// created with the same GpuOptions); other frames are copied into the
// backend's own buffers and back. On devices like the Raspberry Pi 5 the
// CPU reads this memory uncached: fill it, do not read it back on the CPU
// more than once.
//
// A buffer keeps its device alive: it may outlive the backend. It may be
// created and destroyed on any thread, while the backend processes frames on
// another, but not while a frame call that uses it is running. After a frame
// call that gave up waiting for the GPU (GpuOptions::wait_timeout_ms) it may
// be destroyed: its memory is freed once the GPU has finished with it.
class GpuBuffer {
 public:
  virtual ~GpuBuffer() = default;
  virtual uint8_t* data() const = 0;
  virtual size_t size() const = 0;
};

struct GpuDeviceInfo {
  std::string name;  // as the driver names it
  std::string type;  // "discrete", "integrated", "virtual", "software", "other"
  uint32_t api_version = 0;         // VK_MAKE_API_VERSION
  uint32_t driver_version = 0;      // vendor-specific encoding
  std::string pipeline_cache_uuid;  // 32 hex digits: shader binaries' identity
  bool timestamps = false;          // whether GpuFrameStats::gpu_ms is measured
  bool validation = false;          // VK_LAYER_KHRONOS_validation enabled
  std::string pipeline_cache_path;  // "" when not persisted
  size_t pipeline_cache_bytes_loaded = 0;  // 0: no usable cache was found
};

// What the last successful frame call cost, in milliseconds.
struct GpuFrameStats {
  double upload_ms = 0;    // host: copying planes into the backend's buffers
  double submit_ms = 0;    // host: recording, submitting, waiting for the GPU
  double gpu_ms = -1;      // GPU execution (timestamps); < 0 when unmeasured
  double readback_ms = 0;  // host: copying results out
  // Plane groups (a plane, or NV12/NV21's interleaved chroma) read or
  // written in place in a GpuBuffer, and copied; a group that is both read
  // and written counts once, an input and an output group twice.
  int zero_copy_groups = 0;
  int staged_groups = 0;
};

struct GpuOptions {
  // Which device: "" for the best (discrete > integrated > virtual > other >
  // software), an index into the Vulkan loader's list, or a case-insensitive
  // substring of the device name.
  std::string device;
  // Enables VK_LAYER_KHRONOS_validation and records its messages; creation
  // fails when the layer is missing.
  bool validation = false;
  // How long a frame call waits for the GPU before it fails with
  // Status::gpu_lost. The GPU may still be running that frame: the backend
  // is then unusable, and the memory the frame uses (staging buffers, and
  // GpuBuffers the caller frees meanwhile) is freed only once the GPU is
  // done with it, or the device is lost or closes.
  uint64_t wait_timeout_ms = 60000;

  // device from $DAEDALUS_VULKAN_DEVICE, validation from
  // $DAEDALUS_VULKAN_VALIDATION=1, wait_timeout_ms from
  // $DAEDALUS_GPU_TIMEOUT_MS (a positive integer; otherwise the default).
  static GpuOptions from_env();
};

// Thread-safety as Backend, except allocate_buffer(), which may be called
// from any thread.
class GpuBackend : public Backend {
 public:
  // A buffer of `size` bytes frames may be placed in (see GpuBuffer).
  virtual Result<std::unique_ptr<GpuBuffer>> allocate_buffer(size_t size) = 0;
  // Whether some plane of `frame` starts inside a GpuBuffer of this
  // backend's device: a frame call may then write that plane in place, and
  // one that fails may leave it partly written (FallbackBackend).
  virtual bool in_device_memory(const ConstFrame& frame) const = 0;
  virtual const GpuDeviceInfo& device_info() const = 0;
  virtual const GpuFrameStats& last_frame_stats() const = 0;
};

// Fails, saying why in a sentence, when there is no usable Vulkan device.
// Backends created with equal options share one Vulkan device (queue,
// pipelines, pipeline cache), opened by the first and closed when the last
// of them and of their buffers is gone; each has its own command buffer and
// staging buffers, and may run on its own thread.
Result<std::unique_ptr<GpuBackend>> create_gpu_backend(
    const GpuOptions& options);

}  // namespace daedalus
