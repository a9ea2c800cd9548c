#include "vk_buffer.h"

#include <iterator>
#include <span>
#include <string>

#include "vk_context.h"
#include "vk_status.h"

namespace daedalus::vk {
namespace {

constexpr VkMemoryPropertyFlags kVisible = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
constexpr VkMemoryPropertyFlags kCoherent =
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
constexpr VkMemoryPropertyFlags kCached = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
constexpr VkMemoryPropertyFlags kLocal = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;

std::span<const VkMemoryPropertyFlags> tiers(MemoryUse use) {
  static constexpr VkMemoryPropertyFlags upload[] = {kLocal | kCoherent,
                                                     kCoherent, kVisible};
  static constexpr VkMemoryPropertyFlags readback[] = {
      kCached | kCoherent, kCached | kVisible, kLocal | kCoherent, kCoherent,
      kVisible};
  if (use == MemoryUse::Readback) return readback;
  return upload;
}

}  // namespace

Result<std::unique_ptr<Buffer>> Buffer::create(std::shared_ptr<Context> context,
                                               VkDeviceSize size,
                                               MemoryUse use) {
  if (size == 0 || size > context->max_buffer_size())
    return Status::error("a GPU buffer of " + std::to_string(size) +
                         " bytes is outside what this device can bind (1 to " +
                         std::to_string(context->max_buffer_size()) + ")");
  std::unique_ptr<Buffer> b(new Buffer);
  b->context_ = std::move(context);
  const VkDevice device = b->context_->device();

  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = size;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  DAEDALUS_VK_TRY(
      vkCreateBuffer(device, &info, nullptr, b->buffer_.replace(device)));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device, b->get(), &req);

  // The first tier with a matching type whose allocation succeeds: a heap
  // can be too small (a 256 MiB BAR) while a slower one has room.
  const VkPhysicalDeviceMemoryProperties& mem = b->context_->memory();
  Status last = Status::error(
      "no host-visible Vulkan memory type can hold a "
      "storage buffer on this device");
  for (VkMemoryPropertyFlags want : tiers(use)) {
    for (uint32_t t = 0; t < mem.memoryTypeCount; t++) {
      const VkMemoryPropertyFlags have = mem.memoryTypes[t].propertyFlags;
      if (!(req.memoryTypeBits & (1u << t)) || (have & want) != want) continue;
      VkMemoryAllocateInfo alloc{};
      alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
      alloc.allocationSize = req.size;
      alloc.memoryTypeIndex = t;
      last = check(
          vkAllocateMemory(device, &alloc, nullptr, b->memory_.replace(device)),
          "vkAllocateMemory");
      if (!last) continue;
      b->coherent_ = have & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
      DAEDALUS_VK_TRY(
          vkBindBufferMemory(device, b->get(), b->memory_.get(), 0));
      void* mapped = nullptr;
      DAEDALUS_VK_TRY(
          vkMapMemory(device, b->memory_.get(), 0, VK_WHOLE_SIZE, 0, &mapped));
      b->data_ = static_cast<uint8_t*>(mapped);
      b->size_ = size;
      return b;
    }
  }
  return last;
}

Buffer::~Buffer() {
  if (data_) vkUnmapMemory(context_->device(), memory_.get());
  // A submission whose wait gave up may still use the memory.
  struct Storage {
    UniqueMemory memory;
    UniqueBuffer buffer;  // destroyed first
  };
  context_->deferred().release(std::make_shared<Storage>(
      Storage{std::move(memory_), std::move(buffer_)}));
}

Status Buffer::flush() const {
  if (coherent_) return Status::ok();
  VkMappedMemoryRange range{};
  range.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE;
  range.memory = memory_.get();
  range.size = VK_WHOLE_SIZE;
  return check(vkFlushMappedMemoryRanges(context_->device(), 1, &range),
               "vkFlushMappedMemoryRanges");
}

Status Buffer::invalidate() const {
  if (coherent_) return Status::ok();
  VkMappedMemoryRange range{};
  range.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE;
  range.memory = memory_.get();
  range.size = VK_WHOLE_SIZE;
  return check(vkInvalidateMappedMemoryRanges(context_->device(), 1, &range),
               "vkInvalidateMappedMemoryRanges");
}

void BufferRegistry::add(const Buffer* buffer) {
  std::lock_guard lock(mutex_);
  by_address_[buffer->data()] = buffer;
}

void BufferRegistry::remove(const Buffer* buffer) {
  std::lock_guard lock(mutex_);
  by_address_.erase(buffer->data());
}

const Buffer* BufferRegistry::find(const uint8_t* begin, size_t length) const {
  std::lock_guard lock(mutex_);
  auto it = by_address_.upper_bound(begin);
  if (it == by_address_.begin()) return nullptr;
  const Buffer* b = std::prev(it)->second;
  // Compared as offsets: pointers into different objects are unordered.
  const uintptr_t base = reinterpret_cast<uintptr_t>(b->data());
  const uintptr_t first = reinterpret_cast<uintptr_t>(begin);
  if (first - base > b->size() || length > b->size() - (first - base))
    return nullptr;
  return b;
}

}  // namespace daedalus::vk
