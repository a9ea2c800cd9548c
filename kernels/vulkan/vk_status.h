// The one place where Vulkan results become daedalus::Status values.
#pragma once

#include <vulkan/vulkan.h>

#include <string_view>

#include "daedalus/status.h"

namespace daedalus::vk {

// "VK_ERROR_OUT_OF_DEVICE_MEMORY", ...
std::string_view result_name(VkResult result);

// Ok for VK_SUCCESS and the other non-negative codes, otherwise the error
// "Vulkan <what> failed: <result name>" (`what` is cut at its first '('),
// Status::gpu_lost for VK_ERROR_DEVICE_LOST.
Status check(VkResult result, std::string_view what);

}  // namespace daedalus::vk

// Evaluates a Vulkan call and returns its error Status from the enclosing
// function when it failed.
#define DAEDALUS_VK_TRY(call)                                              \
  do {                                                                     \
    if (::daedalus::Status s_ = ::daedalus::vk::check((call), #call); !s_) \
      return s_;                                                           \
  } while (0)
