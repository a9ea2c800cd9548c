// The Vulkan instance, the optional validation layer and its messages, and
// what the loader reports about each physical device.
#pragma once

#include <vulkan/vulkan.h>

#include <memory>
#include <string>
#include <vector>

#include "daedalus/status.h"
#include "vk_device_select.h"
#include "vk_handle.h"

namespace daedalus::vk {

// True when $DAEDALUS_VULKAN_VALIDATION is "1".
bool validation_requested_by_env();

// Every warning and error a VK_EXT_debug_utils messenger of this process has
// received (validation on only), oldest first. Thread-safe.
std::vector<std::string> debug_messages();
void clear_debug_messages();

class Instance {
 public:
  // With `validation`, enables VK_LAYER_KHRONOS_validation (with
  // synchronisation checks) and a messenger recording into debug_messages();
  // fails when the layer is not installed.
  static Result<std::unique_ptr<Instance>> create(bool validation);
  ~Instance();

  VkInstance get() const { return instance_.get(); }
  bool validation() const { return messenger_ != VK_NULL_HANDLE; }

 private:
  Instance() = default;

  UniqueInstance instance_;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger_ = nullptr;
};

struct PhysicalDevice {
  VkPhysicalDevice handle = VK_NULL_HANDLE;
  DeviceFacts facts;
  VkPhysicalDeviceProperties properties{};
  // The compute queue family to use (meaningful when facts.has_compute_queue)
  // and its timestamp bits (0: no timestamps on it).
  uint32_t queue_family = 0;
  uint32_t timestamp_bits = 0;
};

Result<std::vector<PhysicalDevice>> enumerate_devices(VkInstance instance);

// How many Vulkan devices the loader sees; 0 when there is no driver (or no
// loader-visible device) at all.
int vulkan_device_count();

}  // namespace daedalus::vk
