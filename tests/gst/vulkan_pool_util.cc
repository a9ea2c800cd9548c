#include "vulkan_pool_util.h"

#include <string>

#if DAEDALUS_TEST_HAVE_VULKAN
#include "vulkan/vk_instance.h"
#endif

namespace daedalus::gsttest {

bool have_vulkan_device() {
#if DAEDALUS_TEST_HAVE_VULKAN
  if (vk::vulkan_device_count() > 0) return true;
  g_print("SKIP: no Vulkan device on this machine\n");
#else
  g_print("SKIP: this build has no gpu backend\n");
#endif
  return false;
}

guint64 zero_copy_frames(GstElement* element) {
  guint64 n;
  g_object_get(element, "zero-copy-frames", &n, nullptr);
  return n;
}

bool is_vulkan_memory(GstBuffer* buffer) {
  const guint n = gst_buffer_n_memory(buffer);
  for (guint i = 0; i < n; i++)
    if (!gst_memory_is_type(gst_buffer_peek_memory(buffer, i), kMemoryType))
      return false;
  return n > 0;
}

bool is_our_allocator(GstAllocator* allocator) {
  return allocator &&
         std::string(G_OBJECT_TYPE_NAME(allocator)) == kAllocatorType &&
         std::string(allocator->mem_type) == kMemoryType;
}

GstQuery* allocation_query(GstHarness* h, const GstVideoInfo& info) {
  GstCaps* caps = gst_video_info_to_caps(&info);
  GstQuery* query = gst_query_new_allocation(caps, TRUE);
  gst_caps_unref(caps);
  fail_unless(gst_pad_peer_query(h->srcpad, query),
              "allocation query not answered");
  return query;
}

bool proposes_vulkan(GstQuery* query) {
  bool ours = false;
  for (guint i = 0; i < gst_query_get_n_allocation_pools(query); i++) {
    GstBufferPool* pool = nullptr;
    gst_query_parse_nth_allocation_pool(query, i, &pool, nullptr, nullptr,
                                        nullptr);
    if (pool) {
      ours |= std::string(G_OBJECT_TYPE_NAME(pool)) == kPoolType;
      gst_object_unref(pool);
    }
  }
  for (guint i = 0; i < gst_query_get_n_allocation_params(query); i++) {
    GstAllocator* allocator = nullptr;
    gst_query_parse_nth_allocation_param(query, i, &allocator, nullptr);
    ours |= is_our_allocator(allocator);
    gst_clear_object(&allocator);
  }
  return ours;
}

GstBufferPool* proposed_pool(GstHarness* h, const GstVideoInfo& info,
                             bool video_meta) {
  GstQuery* query = allocation_query(h, info);
  GstBufferPool* pool = nullptr;
  if (gst_query_get_n_allocation_pools(query) > 0)
    gst_query_parse_nth_allocation_pool(query, 0, &pool, nullptr, nullptr,
                                        nullptr);
  gst_query_unref(query);
  fail_unless(pool != nullptr, "no pool proposed");
  GstStructure* config = gst_buffer_pool_get_config(pool);
  if (video_meta)
    gst_buffer_pool_config_add_option(config,
                                      GST_BUFFER_POOL_OPTION_VIDEO_META);
  fail_unless(gst_buffer_pool_set_config(pool, config));
  fail_unless(gst_buffer_pool_set_active(pool, TRUE));
  return pool;
}

void release_pool(GstBufferPool* pool) {
  fail_unless(gst_buffer_pool_set_active(pool, FALSE));
  gst_object_unref(pool);
}

GstBuffer* pool_frame(GstBufferPool* pool, const GstVideoInfo& info,
                      std::mt19937& gen) {
  GstBuffer* buffer = nullptr;
  fail_unless_equals_int(gst_buffer_pool_acquire_buffer(pool, &buffer, nullptr),
                         GST_FLOW_OK);
  fail_unless(is_vulkan_memory(buffer), "a pool frame not in Vulkan memory");
  fill_frame(buffer, info, gen);
  return buffer;
}

}  // namespace daedalus::gsttest
