// The gpu backend's Vulkan buffer pool as an upstream element sees it: the
// ALLOCATION query's answer, the pool it proposes, frames from it. Shared by
// the gpu checks and the fallback's (auto_tests.cc).
#pragma once

#include <random>

#include "test_util.h"

namespace daedalus::gsttest {

inline constexpr const char* kPoolType = "GstDaedalusVkBufferPool";
inline constexpr const char* kAllocatorType = "GstDaedalusVkAllocator";
inline constexpr const char* kMemoryType = "DaedalusVulkanMemory";

// False, saying why, when the gpu backend cannot exist here.
bool have_vulkan_device();

// The element's zero-copy-frames property.
guint64 zero_copy_frames(GstElement* element);

// Whether every memory of the buffer is daedalus Vulkan memory.
bool is_vulkan_memory(GstBuffer* buffer);

bool is_our_allocator(GstAllocator* allocator);

// The element's answer to an ALLOCATION query for `info` from upstream.
GstQuery* allocation_query(GstHarness* h, const GstVideoInfo& info);

// Whether any pool or allocator in the answer is a daedalus Vulkan one.
bool proposes_vulkan(GstQuery* query);

// The first pool the element proposes upstream for `info`, set up as an
// upstream element would (with GstVideoMeta when `video_meta`), active.
GstBufferPool* proposed_pool(GstHarness* h, const GstVideoInfo& info,
                             bool video_meta);

// Deactivates and drops the pool.
void release_pool(GstBufferPool* pool);

// A frame of random samples from `pool` (which must be in Vulkan memory).
GstBuffer* pool_frame(GstBufferPool* pool, const GstVideoInfo& info,
                      std::mt19937& gen);

}  // namespace daedalus::gsttest
