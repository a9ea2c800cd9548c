// The VkPipelineCache's bytes on disk, so that drivers compile each shader
// once per machine rather than once per process.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "daedalus/status.h"

namespace daedalus::vk {

// $XDG_CACHE_HOME/daedalus (else ~/.cache/daedalus)/vulkan-pipelines-
// <vendor>-<device>-<pipelineCacheUUID>.bin; empty when neither variable is
// set.
std::string pipeline_cache_path(const VkPhysicalDeviceProperties& device);

// The cache data stored at `path`, or nothing when the file is missing,
// truncated, corrupt, or was written for another device or driver.
std::vector<uint8_t> read_pipeline_cache(
    const std::string& path, const VkPhysicalDeviceProperties& device);

// Writes `data` (vkGetPipelineCacheData's bytes) with a checksum, replacing
// the file atomically; creates the directory. An error names the path and
// the system's reason.
Status write_pipeline_cache(const std::string& path,
                            std::span<const uint8_t> data);

}  // namespace daedalus::vk
