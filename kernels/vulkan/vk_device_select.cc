#include "vk_device_select.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace daedalus::vk {
namespace {

int type_rank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return 4;
    default:
      return 3;
  }
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string version_text(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." +
         std::to_string(VK_API_VERSION_MINOR(v));
}

std::string device_list(std::span<const DeviceFacts> devices) {
  std::string out;
  for (size_t i = 0; i < devices.size(); i++) {
    if (i) out += ", ";
    out += std::to_string(i) + ": \"" + devices[i].name + "\"";
  }
  return out;
}

std::string env_prefix(const DeviceRequest& request) {
  return "DAEDALUS_VULKAN_DEVICE=" + request.text;
}

}  // namespace

Status check_requirements(const DeviceFacts& d) {
  if (d.api_version < kMinApiVersion)
    return Status::error("it supports Vulkan " + version_text(d.api_version) +
                         " only; " + version_text(kMinApiVersion) +
                         " is needed");
  if (!d.has_compute_queue) return Status::error("it has no compute queue");
  if (d.max_shared_memory < kSharedMemoryBudget)
    return Status::error("it offers " + std::to_string(d.max_shared_memory) +
                         " bytes of workgroup shared memory; " +
                         std::to_string(kSharedMemoryBudget) + " are needed");
  if (d.max_invocations < kInvocationBudget)
    return Status::error("it allows " + std::to_string(d.max_invocations) +
                         " invocations per workgroup; " +
                         std::to_string(kInvocationBudget) + " are needed");
  if (d.max_group_size[0] < kWorkgroupSideBudget ||
      d.max_group_size[1] < kWorkgroupSideBudget)
    return Status::error("its workgroups are limited to " +
                         std::to_string(d.max_group_size[0]) + " x " +
                         std::to_string(d.max_group_size[1]) + "; " +
                         std::to_string(kWorkgroupSideBudget) + " x " +
                         std::to_string(kWorkgroupSideBudget) + " is needed");
  if (d.max_push_constants < kPushConstantBudget)
    return Status::error("it offers " + std::to_string(d.max_push_constants) +
                         " bytes of push constants; " +
                         std::to_string(kPushConstantBudget) + " are needed");
  return Status::ok();
}

DeviceRequest parse_device_request(std::string_view text) {
  DeviceRequest r;
  r.text = std::string(text);
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return r;
  text = text.substr(first, text.find_last_not_of(" \t") - first + 1);
  const bool digits = std::all_of(text.begin(), text.end(),
                                  [](char c) { return c >= '0' && c <= '9'; });
  if (digits) {
    r.kind = DeviceRequest::Kind::Index;
    // An index too large for uint64_t names no device either.
    if (std::from_chars(text.data(), text.data() + text.size(), r.index).ec !=
        std::errc())
      r.index = UINT64_MAX;
    return r;
  }
  r.kind = DeviceRequest::Kind::Name;
  r.name = lower(text);
  return r;
}

Result<int> choose_device(std::span<const DeviceFacts> devices,
                          const DeviceRequest& request) {
  auto fail = [](std::string message) {
    return Result<int>(Status::error(std::move(message)));
  };
  if (devices.empty())
    return fail(
        "no Vulkan device was found (no Vulkan driver is installed, "
        "or none sees a device)");

  if (request.kind == DeviceRequest::Kind::Index) {
    if (request.index >= devices.size())
      return fail(env_prefix(request) +
                  " asks for a Vulkan device that does "
                  "not exist; the devices are " +
                  device_list(devices));
    const DeviceFacts& d = devices[request.index];
    if (const Status why = check_requirements(d); !why)
      return fail(env_prefix(request) + " asks for \"" + d.name +
                  "\", which cannot run daedalus's shaders: " + why.message());
    return int(request.index);
  }

  int best = -1;
  std::string unusable;
  bool matched = false;
  for (size_t i = 0; i < devices.size(); i++) {
    const DeviceFacts& d = devices[i];
    if (request.kind == DeviceRequest::Kind::Name &&
        lower(d.name).find(request.name) == std::string::npos)
      continue;
    matched = true;
    if (const Status why = check_requirements(d); !why) {
      unusable += (unusable.empty() ? "" : "; ") + ("\"" + d.name + "\": ") +
                  why.message();
      continue;
    }
    if (best < 0 || type_rank(d.type) < type_rank(devices[best].type))
      best = int(i);
  }
  if (best >= 0) return best;
  if (!matched)
    return fail(env_prefix(request) +
                " matches no Vulkan device; the "
                "devices are " +
                device_list(devices));
  const std::string who = request.kind == DeviceRequest::Kind::Name
                              ? env_prefix(request) +
                                    " matches no Vulkan "
                                    "device that can run daedalus's shaders"
                              : "no Vulkan device can run daedalus's shaders";
  return fail(who + " (" + unusable + ")");
}

}  // namespace daedalus::vk
