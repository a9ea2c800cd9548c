// Vulkan buffers in host-visible memory, mapped for their whole life, and the
// registry that lets kernels use a caller's frame in place (zero-copy).
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

#include "daedalus/status.h"
#include "vk_handle.h"

namespace daedalus::vk {

class Context;

// Who touches a buffer, which decides the memory type tiers it is tried in.
enum class MemoryUse {
  // The CPU writes, the GPU reads and writes: device-local + host-visible +
  // coherent first (the Pi's only type; resizable BAR), then host-visible +
  // coherent, then host-visible.
  Upload,
  // The GPU writes, the CPU reads: host-cached first (uncached reads are
  // slow), then as Upload.
  Readback,
};

class Buffer {
 public:
  // A storage buffer of `size` bytes (at most Context::max_buffer_size()).
  static Result<std::unique_ptr<Buffer>> create(
      std::shared_ptr<Context> context, VkDeviceSize size, MemoryUse use);
  // Unmaps at once; the memory goes through the context's DeferredRelease.
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  VkBuffer get() const { return buffer_.get(); }
  uint8_t* data() const { return data_; }
  VkDeviceSize size() const { return size_; }

  // Make CPU writes visible to the device / device writes visible to the CPU;
  // no-ops on host-coherent memory.
  Status flush() const;
  Status invalidate() const;

 private:
  Buffer() = default;

  std::shared_ptr<Context> context_;  // outlives the handles below
  UniqueMemory memory_;
  UniqueBuffer buffer_;
  uint8_t* data_ = nullptr;
  VkDeviceSize size_ = 0;
  bool coherent_ = true;
};

// The buffers handed to callers, found by the address of a frame's bytes.
// Thread-safe: callers allocate and free buffers on their own threads.
class BufferRegistry {
 public:
  void add(const Buffer* buffer);
  void remove(const Buffer* buffer);
  // The registered buffer holding every byte of [begin, begin + length), or
  // null.
  const Buffer* find(const uint8_t* begin, size_t length) const;

 private:
  mutable std::mutex mutex_;
  std::map<const uint8_t*, const Buffer*> by_address_;
};

}  // namespace daedalus::vk
