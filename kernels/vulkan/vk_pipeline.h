// Compute pipelines: one per shader and specialisation, created on first use
// and kept for the device's life, through a VkPipelineCache persisted on disk.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "daedalus/status.h"
#include "vk_handle.h"

namespace daedalus::vk {

// What a kernel's recording function tells the runner about its shader.
struct KernelDesc {
  const char* name;                 // for messages
  std::span<const uint32_t> spirv;  // embedded at build time; identifies it
  uint32_t push_size;               // bytes of its push-constant block
  uint32_t buffers;                 // storage buffers at set 0, bindings 0..n-1
};

struct Pipeline {
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
};

// Thread-safe: the backends sharing a device ask for pipelines from their
// own threads.
class PipelineStore {
 public:
  // Starts from the on-disk cache of this device when a valid one exists.
  static Result<std::unique_ptr<PipelineStore>> create(
      VkDevice device, const VkPhysicalDeviceProperties& props);
  // Saves the cache when pipelines were created since it was loaded.
  ~PipelineStore();

  // The pipeline of `kernel` with specialisation constants 0..n-1 set to
  // `spec`, created on first use.
  Result<const Pipeline*> get(const KernelDesc& kernel,
                              std::span<const int32_t> spec);

  // Where the cache lives ("" when nowhere) and how many bytes of it were
  // read back at creation (0: none, or it was unusable).
  const std::string& cache_path() const { return cache_path_; }
  size_t cache_bytes_loaded() const { return cache_bytes_loaded_; }

  // Writes the cache file now, where it has one (cache_path() not empty);
  // an error says why it could not.
  Status save();

 private:
  PipelineStore() = default;

  struct Entry {
    UniquePipeline pipeline;
    Pipeline view;
  };
  struct Layout {
    UniqueDescriptorSetLayout set_layout;
    UniquePipelineLayout layout;
  };

  VkDevice device_ = VK_NULL_HANDLE;
  std::string cache_path_;
  size_t cache_bytes_loaded_ = 0;
  std::mutex mutex_;  // guards what follows
  bool dirty_ = false;
  UniquePipelineCache cache_;
  std::map<const uint32_t*, UniqueShaderModule> modules_;
  std::map<std::pair<uint32_t, uint32_t>, Layout> layouts_;  // buffers, push
  std::map<std::pair<const uint32_t*, std::vector<int32_t>>, Entry> pipelines_;
};

}  // namespace daedalus::vk
