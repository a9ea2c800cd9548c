// A Vulkan device ready for daedalus's kernels: the chosen physical device,
// one compute queue, its memory types, the pipelines and the registry of
// buffers frames may live in. Shared (std::shared_ptr) by the backend and by
// every buffer it hands out, so buffers may outlive the backend.
#pragma once

#include <vulkan/vulkan.h>

#include <memory>
#include <string>

#include "daedalus/status.h"
#include "vk_buffer.h"
#include "vk_handle.h"
#include "vk_instance.h"
#include "vk_pipeline.h"

namespace daedalus::vk {

struct ContextOptions {
  // A device request as $DAEDALUS_VULKAN_DEVICE takes it (vk_device_select.h).
  std::string device;
  bool validation = false;
};

// Thread-safety: the registry and buffer creation may be used from any
// thread; the queue and the pipelines from one thread at a time.
class Context {
 public:
  static Status create(const ContextOptions& options,
                       std::shared_ptr<Context>* out);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  VkDevice device() const { return device_.get(); }
  VkQueue queue() const { return queue_; }
  uint32_t queue_family() const { return physical_.queue_family; }
  const PhysicalDevice& physical() const { return physical_; }
  const VkPhysicalDeviceLimits& limits() const {
    return physical_.properties.limits;
  }
  const VkPhysicalDeviceMemoryProperties& memory() const { return memory_; }
  bool validation() const { return instance_->validation(); }

  // The largest buffer a kernel may bind: byte offsets in shaders are int32.
  VkDeviceSize max_buffer_size() const;

  PipelineStore& pipelines() { return *pipelines_; }
  BufferRegistry& registry() { return registry_; }

 private:
  Context() = default;

  std::unique_ptr<Instance> instance_;
  PhysicalDevice physical_;
  VkPhysicalDeviceMemoryProperties memory_{};
  UniqueDevice device_;
  VkQueue queue_ = VK_NULL_HANDLE;
  BufferRegistry registry_;
  std::unique_ptr<PipelineStore> pipelines_;  // destroyed before device_
};

}  // namespace daedalus::vk
