#include "vk_batch.h"

#include <string>

#include "vk_context.h"
#include "vk_status.h"

namespace daedalus::vk {
namespace {

// Per frame: a set per dispatch. Three planes times a few passes is far less.
constexpr uint32_t kMaxSets = 64;
constexpr uint32_t kMaxBuffersPerSet = 4;

}  // namespace

Result<std::unique_ptr<Batch>> Batch::create(std::shared_ptr<Context> context,
                                             uint64_t wait_ms) {
  std::unique_ptr<Batch> b(new Batch);
  b->context_ = std::move(context);
  b->wait_ms_ = wait_ms;
  const VkDevice device = b->context_->device();

  VkCommandPoolCreateInfo pool{};
  pool.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool.queueFamilyIndex = b->context_->queue_family();
  DAEDALUS_VK_TRY(
      vkCreateCommandPool(device, &pool, nullptr, b->pool_.replace(device)));

  VkCommandBufferAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  alloc.commandPool = b->pool_.get();
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  DAEDALUS_VK_TRY(vkAllocateCommandBuffers(device, &alloc, &b->commands_));

  const VkDescriptorPoolSize sizes{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                   kMaxSets * kMaxBuffersPerSet};
  VkDescriptorPoolCreateInfo dpool{};
  dpool.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  dpool.maxSets = kMaxSets;
  dpool.poolSizeCount = 1;
  dpool.pPoolSizes = &sizes;
  DAEDALUS_VK_TRY(vkCreateDescriptorPool(device, &dpool, nullptr,
                                         b->descriptors_.replace(device)));

  VkFenceCreateInfo fence{};
  fence.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  DAEDALUS_VK_TRY(
      vkCreateFence(device, &fence, nullptr, b->fence_.replace(device)));

  if (b->context_->physical().timestamp_bits) {
    VkQueryPoolCreateInfo query{};
    query.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    query.queryType = VK_QUERY_TYPE_TIMESTAMP;
    query.queryCount = 2;
    DAEDALUS_VK_TRY(vkCreateQueryPool(device, &query, nullptr,
                                      b->queries_.replace(device)));
  }
  return b;
}

Batch::~Batch() {
  // A frame submitted and never waited for (a band never finished) gets the
  // usual limit. One still running after it, or after a wait that gave up,
  // keeps its command buffer, sets and fence until it finishes. Its own
  // fence, not the queue: other backends may be submitting to the queue.
  if (!in_flight_ || (!lost_ && wait_for_fence() == VK_SUCCESS)) return;
  struct Running {
    UniqueFence fence;  // destroyed last
    UniqueQueryPool queries;
    UniqueDescriptorPool descriptors;
    UniqueCommandPool pool;
  };
  context_->deferred().release(std::make_shared<Running>(
      Running{std::move(fence_), std::move(queries_), std::move(descriptors_),
              std::move(pool_)}));
}

VkResult Batch::wait_for_fence() {
  const VkFence fence = fence_.get();
  const uint64_t ns =
      wait_ms_ > UINT64_MAX / 1'000'000 ? UINT64_MAX : wait_ms_ * 1'000'000;
  const VkResult waited =
      vkWaitForFences(context_->device(), 1, &fence, VK_TRUE, ns);
  if (waited != VK_SUCCESS) {
    lost_ = true;
    context_->deferred().watch(fence);
  }
  return waited;
}

Status Batch::begin() {
  if (lost_)
    return Status::gpu_lost(
        "the GPU did not finish an earlier frame; this gpu "
        "backend cannot be used any more");
  if (in_flight_)
    return Status::error(
        "internal: a batch begun before the last one was "
        "waited for");
  const VkDevice device = context_->device();
  DAEDALUS_VK_TRY(vkResetDescriptorPool(device, descriptors_.get(), 0));
  DAEDALUS_VK_TRY(vkResetCommandBuffer(commands_, 0));
  VkCommandBufferBeginInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  DAEDALUS_VK_TRY(vkBeginCommandBuffer(commands_, &info));
  recording_ = true;
  if (queries_) {
    vkCmdResetQueryPool(commands_, queries_.get(), 0, 2);
    vkCmdWriteTimestamp(commands_, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                        queries_.get(), 0);
  }
  return Status::ok();
}

Status Batch::dispatch(const KernelDesc& kernel, std::span<const int32_t> spec,
                       const void* push, std::span<const VkBuffer> buffers,
                       uint32_t groups_x, uint32_t groups_y) {
  if (!recording_) return Status::error("internal: dispatch outside a batch");
  if (buffers.size() != kernel.buffers || buffers.size() > kMaxBuffersPerSet)
    return Status::error(
        std::string("internal: wrong buffer count for shader ") + kernel.name);
  DAEDALUS_ASSIGN_OR_RETURN(const Pipeline* p,
                            context_->pipelines().get(kernel, spec));

  VkDescriptorSetAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
  alloc.descriptorPool = descriptors_.get();
  alloc.descriptorSetCount = 1;
  alloc.pSetLayouts = &p->set_layout;
  VkDescriptorSet set;
  DAEDALUS_VK_TRY(vkAllocateDescriptorSets(context_->device(), &alloc, &set));

  VkDescriptorBufferInfo infos[kMaxBuffersPerSet];
  VkWriteDescriptorSet writes[kMaxBuffersPerSet];
  for (uint32_t i = 0; i < buffers.size(); i++) {
    infos[i] = {buffers[i], 0, VK_WHOLE_SIZE};
    writes[i] = {};
    writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[i].dstSet = set;
    writes[i].dstBinding = i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[i].pBufferInfo = &infos[i];
  }
  vkUpdateDescriptorSets(context_->device(), uint32_t(buffers.size()), writes,
                         0, nullptr);

  vkCmdBindPipeline(commands_, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
  vkCmdBindDescriptorSets(commands_, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout,
                          0, 1, &set, 0, nullptr);
  if (kernel.push_size)
    vkCmdPushConstants(commands_, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                       kernel.push_size, push);
  vkCmdDispatch(commands_, groups_x, groups_y, 1);
  return Status::ok();
}

void Batch::barrier() {
  VkMemoryBarrier b{};
  b.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  b.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  vkCmdPipelineBarrier(commands_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &b, 0,
                       nullptr, 0, nullptr);
}

Status Batch::submit() {
  if (!recording_) return Status::error("internal: submit outside a batch");
  recording_ = false;
  // Shader writes become visible to the host's reads after the fence.
  VkMemoryBarrier b{};
  b.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  b.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(commands_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &b, 0, nullptr, 0,
                       nullptr);
  if (queries_)
    vkCmdWriteTimestamp(commands_, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                        queries_.get(), 1);
  DAEDALUS_VK_TRY(vkEndCommandBuffer(commands_));

  const VkDevice device = context_->device();
  const VkFence fence = fence_.get();
  DAEDALUS_VK_TRY(vkResetFences(device, 1, &fence));
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands_;
  DAEDALUS_TRY(context_->submit(submit, fence));
  in_flight_ = true;
  return Status::ok();
}

Status Batch::wait() {
  if (!in_flight_) return Status::error("internal: wait without a submit");
  const VkResult waited = wait_for_fence();
  if (waited == VK_TIMEOUT)
    return Status::gpu_lost("the GPU did not finish a frame within " +
                            std::to_string(wait_ms_) +
                            " ms (DAEDALUS_GPU_TIMEOUT_MS)");
  if (waited != VK_SUCCESS)
    return Status::gpu_lost(check(waited, "vkWaitForFences").message());
  in_flight_ = false;
  const VkDevice device = context_->device();

  gpu_ms_ = -1.0;
  if (queries_) {
    uint64_t t[2];
    DAEDALUS_VK_TRY(vkGetQueryPoolResults(
        device, queries_.get(), 0, 2, sizeof t, t, sizeof t[0],
        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    const uint32_t bits = context_->physical().timestamp_bits;
    const uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    const uint64_t ticks = (t[1] - t[0]) & mask;
    gpu_ms_ = double(ticks) * context_->limits().timestampPeriod * 1e-6;
  }
  return Status::ok();
}

Status Batch::submit_and_wait() {
  DAEDALUS_TRY(submit());
  return wait();
}

}  // namespace daedalus::vk
