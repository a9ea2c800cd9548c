// A Vulkan device ready for daedalus's kernels: the chosen physical device,
// one compute queue, its memory types, the pipelines and the registry of
// buffers frames may live in. Shared (std::shared_ptr) by every backend
// created with the same options and by every buffer they hand out, so
// buffers may outlive their backend and move between backends zero-copy.
#pragma once

#include <vulkan/vulkan.h>

#include <compare>
#include <memory>
#include <mutex>
#include <string>

#include "daedalus/status.h"
#include "vk_buffer.h"
#include "vk_deferred_release.h"
#include "vk_handle.h"
#include "vk_instance.h"
#include "vk_pipeline.h"

namespace daedalus::vk {

struct ContextOptions {
  // A device request as $DAEDALUS_VULKAN_DEVICE takes it (vk_device_select.h).
  std::string device;
  bool validation = false;

  auto operator<=>(const ContextOptions&) const = default;
};

// Thread-safe: any thread may submit, get pipelines, create buffers and use
// the registry. What is recorded (command buffers, descriptor sets) belongs
// to the caller: each backend keeps its own.
class Context {
 public:
  // A context of its own, shared with nobody.
  static Result<std::shared_ptr<Context>> create(const ContextOptions& options);
  // The process's context for `options`: the one a live backend or buffer
  // already holds, else a new one. It is released with its last holder.
  static Result<std::shared_ptr<Context>> shared(const ContextOptions& options);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  VkDevice device() const { return device_.get(); }
  uint32_t queue_family() const { return physical_.queue_family; }
  const PhysicalDevice& physical() const { return physical_; }
  const VkPhysicalDeviceLimits& limits() const {
    return physical_.properties.limits;
  }
  const VkPhysicalDeviceMemoryProperties& memory() const { return memory_; }
  bool validation() const { return instance_->validation(); }

  // The largest buffer a kernel may bind: byte offsets in shaders are int32.
  VkDeviceSize max_buffer_size() const;

  // vkQueueSubmit on the context's queue, which every user shares; wait on
  // `fence`, not on the queue, for the work to finish.
  Status submit(const VkSubmitInfo& submit, VkFence fence);

  PipelineStore& pipelines() { return *pipelines_; }
  BufferRegistry& registry() { return registry_; }
  // Where buffers and batches go that a submission whose wait gave up may
  // still use; what it holds is destroyed at the latest when the context
  // closes, which waits for the device to be idle.
  DeferredRelease& deferred() { return *deferred_; }

 private:
  Context() = default;

  std::unique_ptr<Instance> instance_;
  PhysicalDevice physical_;
  VkPhysicalDeviceMemoryProperties memory_{};
  UniqueDevice device_;
  std::mutex queue_mutex_;  // the queue is externally synchronised
  VkQueue queue_ = VK_NULL_HANDLE;
  BufferRegistry registry_;
  std::unique_ptr<PipelineStore> pipelines_;   // destroyed before device_
  std::unique_ptr<DeferredRelease> deferred_;  // likewise
};

}  // namespace daedalus::vk
