// Which Vulkan device the gpu backend runs on: pure functions of the devices'
// descriptions, so the policy is testable without any device.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "daedalus/status.h"

namespace daedalus::vk {

// What every shader of daedalus stays within (the Raspberry Pi 5's V3D 7.1
// limits); a device must offer at least this much.
inline constexpr uint32_t kSharedMemoryBudget = 16384;  // bytes per workgroup
inline constexpr uint32_t kInvocationBudget = 256;      // per workgroup
inline constexpr uint32_t kWorkgroupSideBudget = 16;    // local size x and y
inline constexpr uint32_t kPushConstantBudget = 128;    // bytes
inline constexpr uint32_t kMinApiVersion = VK_API_VERSION_1_1;

// What selection needs to know about one physical device.
struct DeviceFacts {
  std::string name;
  VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  uint32_t api_version = 0;
  bool has_compute_queue = false;
  uint32_t max_shared_memory = 0;
  uint32_t max_invocations = 0;
  uint32_t max_group_size[2] = {0, 0};  // x, y
  uint32_t max_push_constants = 0;
};

// Ok when the device can run every shader; otherwise an error saying why
// not, as a clause ("it supports Vulkan 1.0 only; 1.1 is needed").
Status check_requirements(const DeviceFacts& device);

// The user's choice, from $DAEDALUS_VULKAN_DEVICE: empty means "the best",
// all digits an index into the loader's device list, anything else a
// case-insensitive substring of the device name.
struct DeviceRequest {
  enum class Kind { Best, Index, Name };
  Kind kind = Kind::Best;
  uint64_t index = 0;
  std::string name;
  std::string text;  // as given, for messages
};

DeviceRequest parse_device_request(std::string_view text);

// Picks a usable device: the requested one, else the first of the best type
// (discrete > integrated > virtual > other > software): its index in
// `devices`, or an error saying in a sentence why none fits.
Result<int> choose_device(std::span<const DeviceFacts> devices,
                          const DeviceRequest& request);

}  // namespace daedalus::vk
