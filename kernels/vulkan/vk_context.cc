#include "vk_context.h"

#include <algorithm>
#include <climits>
#include <map>
#include <vector>

#include "vk_status.h"

namespace daedalus::vk {

Result<std::shared_ptr<Context>> Context::create(
    const ContextOptions& options) {
  std::shared_ptr<Context> ctx(new Context);
  DAEDALUS_ASSIGN_OR_RETURN(ctx->instance_,
                            Instance::create(options.validation));

  DAEDALUS_ASSIGN_OR_RETURN(const std::vector<PhysicalDevice> devices,
                            enumerate_devices(ctx->instance_->get()));
  std::vector<DeviceFacts> facts;
  for (const PhysicalDevice& d : devices) facts.push_back(d.facts);
  DAEDALUS_ASSIGN_OR_RETURN(
      const int chosen,
      choose_device(facts, parse_device_request(options.device)));
  ctx->physical_ = devices[chosen];
  vkGetPhysicalDeviceMemoryProperties(ctx->physical_.handle, &ctx->memory_);

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{};
  queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue_info.queueFamilyIndex = ctx->physical_.queue_family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  // The shaders need nothing beyond Vulkan 1.1 core: 32-bit storage buffers,
  // push constants and shared memory.
  VkDeviceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue_info;
  DAEDALUS_VK_TRY(vkCreateDevice(ctx->physical_.handle, &info, nullptr,
                                 ctx->device_.replace()));
  vkGetDeviceQueue(ctx->device(), ctx->physical_.queue_family, 0, &ctx->queue_);
  ctx->deferred_ = std::make_unique<DeferredRelease>(ctx->device());

  DAEDALUS_ASSIGN_OR_RETURN(
      ctx->pipelines_,
      PipelineStore::create(ctx->device(), ctx->physical_.properties));
  return ctx;
}

Result<std::shared_ptr<Context>> Context::shared(
    const ContextOptions& options) {
  // Held while a device is created, so that concurrent first users get one
  // device, not one each.
  static std::mutex mutex;
  static std::map<ContextOptions, std::weak_ptr<Context>> contexts;
  std::lock_guard lock(mutex);
  const auto it = contexts.try_emplace(options).first;
  if (std::shared_ptr<Context> alive = it->second.lock()) return alive;
  Result<std::shared_ptr<Context>> ctx = create(options);
  if (ctx)
    it->second = ctx.value();
  else
    contexts.erase(it);
  return ctx;
}

Status Context::submit(const VkSubmitInfo& submit, VkFence fence) {
  std::lock_guard lock(queue_mutex_);
  return check(vkQueueSubmit(queue_, 1, &submit, fence), "vkQueueSubmit");
}

Context::~Context() {
  // Unbounded: what the deferred release holds may be in use until the
  // device is idle (a lost device's driver says so and returns).
  if (device_) vkDeviceWaitIdle(device_.get());
}

VkDeviceSize Context::max_buffer_size() const {
  return std::min<VkDeviceSize>(limits().maxStorageBufferRange, INT32_MAX);
}

}  // namespace daedalus::vk
