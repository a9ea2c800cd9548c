// One frame's GPU work: a command buffer recording every dispatch of an
// element (all planes, all passes, or one phase of a hybrid frame),
// submitted once, waited for, and timed with timestamp queries. Record,
// submit and wait are kept apart as in Kompute's Sequence, so the caller may
// work while the GPU runs; one batch is in flight at a time. A wait gives up
// after a limit; the batch is then lost, and its command buffer, sets and
// fence go through the context's DeferredRelease, as do the buffers the
// caller frees meanwhile.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <span>

#include "daedalus/status.h"
#include "vk_handle.h"
#include "vk_pipeline.h"

namespace daedalus::vk {

class Context;

class Batch {
 public:
  // A wait gives up after `wait_ms` milliseconds (GpuOptions).
  static Result<std::unique_ptr<Batch>> create(std::shared_ptr<Context> context,
                                               uint64_t wait_ms);
  ~Batch();
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;

  // Starts recording a frame (the previous one has been waited for).
  Status begin();

  // Records one dispatch of `kernel` specialised with `spec`: `push` is its
  // push-constant block (kernel.push_size bytes), `buffers` are bound whole
  // at bindings 0..n-1, `groups_x` x `groups_y` workgroups.
  Status dispatch(const KernelDesc& kernel, std::span<const int32_t> spec,
                  const void* push, std::span<const VkBuffer> buffers,
                  uint32_t groups_x, uint32_t groups_y);

  // Makes every shader write recorded so far visible to the dispatches
  // recorded after it (between two passes over the same samples).
  void barrier();

  // Ends recording and submits without waiting.
  Status submit();
  // Waits until the GPU has finished the submitted frame and its writes are
  // visible to the host. Status::gpu_lost when it has not within the limit
  // or the device was lost: the batch cannot be used again.
  Status wait();
  Status submit_and_wait();

  // GPU execution time of the last waited-for frame in milliseconds, from
  // timestamps; negative when the queue has no timestamps.
  double gpu_ms() const { return gpu_ms_; }

 private:
  Batch() = default;

  // Waits for the fence within the limit; when that fails, the batch is
  // lost and the fence watched by the context's DeferredRelease.
  VkResult wait_for_fence();

  std::shared_ptr<Context> context_;
  uint64_t wait_ms_ = 0;
  UniqueCommandPool pool_;
  VkCommandBuffer commands_ = VK_NULL_HANDLE;  // freed with pool_
  UniqueDescriptorPool descriptors_;
  UniqueFence fence_;
  UniqueQueryPool queries_;  // two timestamps: start, end
  bool recording_ = false;
  bool in_flight_ = false;  // submitted, not yet waited for
  bool lost_ = false;  // a wait timed out: the command buffer may still run
  double gpu_ms_ = -1.0;
};

}  // namespace daedalus::vk
