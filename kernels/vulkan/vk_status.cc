#include "vk_status.h"

#include <string>

namespace daedalus::vk {

std::string_view result_name(VkResult result) {
  switch (result) {
#define NAME(r) \
  case r:       \
    return #r;
    NAME(VK_SUCCESS)
    NAME(VK_NOT_READY)
    NAME(VK_TIMEOUT)
    NAME(VK_INCOMPLETE)
    NAME(VK_ERROR_OUT_OF_HOST_MEMORY)
    NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    NAME(VK_ERROR_INITIALIZATION_FAILED)
    NAME(VK_ERROR_DEVICE_LOST)
    NAME(VK_ERROR_MEMORY_MAP_FAILED)
    NAME(VK_ERROR_LAYER_NOT_PRESENT)
    NAME(VK_ERROR_EXTENSION_NOT_PRESENT)
    NAME(VK_ERROR_FEATURE_NOT_PRESENT)
    NAME(VK_ERROR_INCOMPATIBLE_DRIVER)
    NAME(VK_ERROR_TOO_MANY_OBJECTS)
    NAME(VK_ERROR_FORMAT_NOT_SUPPORTED)
    NAME(VK_ERROR_FRAGMENTED_POOL)
    NAME(VK_ERROR_OUT_OF_POOL_MEMORY)
    NAME(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    NAME(VK_ERROR_FRAGMENTATION)
    NAME(VK_ERROR_UNKNOWN)
#undef NAME
    default:
      break;
  }
  return "an unknown VkResult";
}

Status check(VkResult result, std::string_view what) {
  if (result >= 0) return Status::ok();
  // DAEDALUS_VK_TRY passes the whole call: name the function only.
  what = what.substr(0, what.find('('));
  std::string message = "Vulkan " + std::string(what) +
                        " failed: " + std::string(result_name(result));
  if (result == VK_ERROR_DEVICE_LOST)
    return Status::gpu_lost(std::move(message));
  return Status::error(std::move(message));
}

}  // namespace daedalus::vk
