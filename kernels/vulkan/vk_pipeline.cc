#include "vk_pipeline.h"

#include <cstdio>

#include "vk_pipeline_cache.h"
#include "vk_status.h"

namespace daedalus::vk {

Result<std::unique_ptr<PipelineStore>> PipelineStore::create(
    VkDevice device, const VkPhysicalDeviceProperties& props) {
  std::unique_ptr<PipelineStore> store(new PipelineStore);
  store->device_ = device;
  store->cache_path_ = pipeline_cache_path(props);
  std::vector<uint8_t> data;
  if (!store->cache_path_.empty())
    data = read_pipeline_cache(store->cache_path_, props);

  VkPipelineCacheCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO;
  info.initialDataSize = data.size();
  info.pInitialData = data.data();
  VkResult r = vkCreatePipelineCache(device, &info, nullptr,
                                     store->cache_.replace(device));
  if (r != VK_SUCCESS && !data.empty()) {
    // The driver refused data we believed valid: start empty instead.
    data.clear();
    info.initialDataSize = 0;
    info.pInitialData = nullptr;
    r = vkCreatePipelineCache(device, &info, nullptr,
                              store->cache_.replace(device));
  }
  DAEDALUS_TRY(check(r, "vkCreatePipelineCache"));
  store->cache_bytes_loaded_ = data.size();
  return store;
}

PipelineStore::~PipelineStore() {
  if (!dirty_) return;
  // The runner's one other message to stderr is the validation layer's
  // (vk_instance.cc); a cache not kept costs only the next process's time.
  if (const Status s = save(); !s)
    std::fprintf(stderr,
                 "daedalus: the Vulkan pipeline cache was not kept: %s\n",
                 s.message().c_str());
}

Status PipelineStore::save() {
  std::lock_guard lock(mutex_);
  if (cache_path_.empty() || !cache_) return Status::ok();
  size_t size = 0;
  DAEDALUS_VK_TRY(
      vkGetPipelineCacheData(device_, cache_.get(), &size, nullptr));
  std::vector<uint8_t> data(size);
  DAEDALUS_VK_TRY(
      vkGetPipelineCacheData(device_, cache_.get(), &size, data.data()));
  data.resize(size);
  dirty_ = false;
  return write_pipeline_cache(cache_path_, data);
}

Result<const Pipeline*> PipelineStore::get(const KernelDesc& kernel,
                                           std::span<const int32_t> spec) {
  // One lock for lookups and creation: a pipeline is created once per
  // device, and std::map keeps the returned pointers valid.
  std::lock_guard lock(mutex_);
  auto key = std::make_pair(kernel.spirv.data(),
                            std::vector<int32_t>(spec.begin(), spec.end()));
  if (auto it = pipelines_.find(key); it != pipelines_.end())
    return &it->second.view;

  UniqueShaderModule& module = modules_[kernel.spirv.data()];
  if (!module) {
    VkShaderModuleCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    info.codeSize = kernel.spirv.size_bytes();
    info.pCode = kernel.spirv.data();
    DAEDALUS_VK_TRY(
        vkCreateShaderModule(device_, &info, nullptr, module.replace(device_)));
  }

  Layout& layout = layouts_[{kernel.buffers, kernel.push_size}];
  if (!layout.layout) {
    std::vector<VkDescriptorSetLayoutBinding> bindings(kernel.buffers);
    for (uint32_t i = 0; i < kernel.buffers; i++) {
      bindings[i].binding = i;
      bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      bindings[i].descriptorCount = 1;
      bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    VkDescriptorSetLayoutCreateInfo set_info{};
    set_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    set_info.bindingCount = kernel.buffers;
    set_info.pBindings = bindings.data();
    DAEDALUS_VK_TRY(vkCreateDescriptorSetLayout(
        device_, &set_info, nullptr, layout.set_layout.replace(device_)));

    const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0,
                                   kernel.push_size};
    const VkDescriptorSetLayout set_layout = layout.set_layout.get();
    VkPipelineLayoutCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    info.setLayoutCount = 1;
    info.pSetLayouts = &set_layout;
    info.pushConstantRangeCount = kernel.push_size ? 1 : 0;
    info.pPushConstantRanges = &push;
    DAEDALUS_VK_TRY(vkCreatePipelineLayout(device_, &info, nullptr,
                                           layout.layout.replace(device_)));
  }

  std::vector<VkSpecializationMapEntry> entries(spec.size());
  for (uint32_t i = 0; i < spec.size(); i++)
    entries[i] = {i, uint32_t(i * sizeof(int32_t)), sizeof(int32_t)};
  VkSpecializationInfo spec_info{};
  spec_info.mapEntryCount = uint32_t(entries.size());
  spec_info.pMapEntries = entries.data();
  spec_info.dataSize = spec.size_bytes();
  spec_info.pData = spec.data();

  VkComputePipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module.get();
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = &spec_info;
  info.layout = layout.layout.get();
  Entry entry;
  if (Status s = check(
          vkCreateComputePipelines(device_, cache_.get(), 1, &info, nullptr,
                                   entry.pipeline.replace(device_)),
          "vkCreateComputePipelines");
      !s)
    return Status::error(s.message() + " (shader " + kernel.name + ")");
  entry.view = {entry.pipeline.get(), layout.layout.get(),
                layout.set_layout.get()};
  dirty_ = true;
  return &pipelines_.emplace(std::move(key), std::move(entry))
              .first->second.view;
}

}  // namespace daedalus::vk
