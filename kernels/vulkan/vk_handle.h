// RAII for Vulkan handles: each owner destroys its handle exactly once.
#pragma once

#include <vulkan/vulkan.h>

#include <utility>

namespace daedalus::vk {

// A handle created from a VkDevice (buffer, memory, pipeline, ...), destroyed
// with `Destroy(device, handle, nullptr)`. Move-only.
template <class T, auto Destroy>
class DeviceHandle {
 public:
  DeviceHandle() = default;
  DeviceHandle(VkDevice device, T handle) : device_(device), handle_(handle) {}
  ~DeviceHandle() { reset(); }
  DeviceHandle(DeviceHandle&& other) noexcept
      : device_(other.device_), handle_(std::exchange(other.handle_, T{})) {}
  DeviceHandle& operator=(DeviceHandle&& other) noexcept {
    if (this != &other) {
      reset();
      device_ = other.device_;
      handle_ = std::exchange(other.handle_, T{});
    }
    return *this;
  }
  DeviceHandle(const DeviceHandle&) = delete;
  DeviceHandle& operator=(const DeviceHandle&) = delete;

  T get() const { return handle_; }
  explicit operator bool() const { return handle_ != T{}; }

  // Destroys the current handle and returns where a vkCreate* call may write
  // the new one, which this object then owns.
  T* replace(VkDevice device) {
    reset();
    device_ = device;
    return &handle_;
  }

  void reset() {
    if (handle_ != T{}) Destroy(device_, std::exchange(handle_, T{}), nullptr);
  }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  T handle_{};
};

// A top-level handle (instance, device) destroyed with `Destroy(handle,
// nullptr)`.
template <class T, auto Destroy>
class RootHandle {
 public:
  RootHandle() = default;
  ~RootHandle() { reset(); }
  RootHandle(RootHandle&& other) noexcept
      : handle_(std::exchange(other.handle_, T{})) {}
  RootHandle& operator=(RootHandle&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, T{});
    }
    return *this;
  }
  RootHandle(const RootHandle&) = delete;
  RootHandle& operator=(const RootHandle&) = delete;

  T get() const { return handle_; }
  explicit operator bool() const { return handle_ != T{}; }
  T* replace() {
    reset();
    return &handle_;
  }
  void reset() {
    if (handle_ != T{}) Destroy(std::exchange(handle_, T{}), nullptr);
  }

 private:
  T handle_{};
};

using UniqueInstance = RootHandle<VkInstance, vkDestroyInstance>;
using UniqueDevice = RootHandle<VkDevice, vkDestroyDevice>;
using UniqueBuffer = DeviceHandle<VkBuffer, vkDestroyBuffer>;
using UniqueMemory = DeviceHandle<VkDeviceMemory, vkFreeMemory>;
using UniqueShaderModule = DeviceHandle<VkShaderModule, vkDestroyShaderModule>;
using UniqueDescriptorSetLayout =
    DeviceHandle<VkDescriptorSetLayout, vkDestroyDescriptorSetLayout>;
using UniquePipelineLayout =
    DeviceHandle<VkPipelineLayout, vkDestroyPipelineLayout>;
using UniquePipeline = DeviceHandle<VkPipeline, vkDestroyPipeline>;
using UniquePipelineCache =
    DeviceHandle<VkPipelineCache, vkDestroyPipelineCache>;
using UniqueCommandPool = DeviceHandle<VkCommandPool, vkDestroyCommandPool>;
using UniqueDescriptorPool =
    DeviceHandle<VkDescriptorPool, vkDestroyDescriptorPool>;
using UniqueFence = DeviceHandle<VkFence, vkDestroyFence>;
using UniqueQueryPool = DeviceHandle<VkQueryPool, vkDestroyQueryPool>;

}  // namespace daedalus::vk
