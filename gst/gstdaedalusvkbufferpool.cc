/* daedalus
 * Copyright (C) 2026 The daedalus authors
 *
 * This library is free software; you can redistribute it and/or modify it
 * under the terms of the GNU Lesser General Public License as published by
 * the Free Software Foundation; either version 2.1 of the License, or (at
 * your option) any later version.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "gstdaedalusvkbufferpool.h"

#include <gst/video/video.h>

GST_DEBUG_CATEGORY_STATIC (gst_daedalus_vk_buffer_pool_debug);
#define GST_CAT_DEFAULT gst_daedalus_vk_buffer_pool_debug

/* A GstVideoAlignment mask: strides are multiples of 4 bytes. */
static constexpr guint kStrideAlign = 3;

struct _GstDaedalusVkBufferPool
{
  GstVideoBufferPool parent;

  GstAllocator *allocator;
};

G_DEFINE_TYPE (GstDaedalusVkBufferPool, gst_daedalus_vk_buffer_pool,
    GST_TYPE_VIDEO_BUFFER_POOL);

/* Whoever configures the pool (upstream, for a proposed one) keeps its
 * allocation parameters, but not its choice of allocator. */
static gboolean
gst_daedalus_vk_buffer_pool_set_config (GstBufferPool *pool,
    GstStructure *config)
{
  GstDaedalusVkBufferPool *self = GST_DAEDALUS_VK_BUFFER_POOL (pool);

  GstAllocationParams params;
  gst_allocation_params_init (&params);
  gst_buffer_pool_config_get_allocator (config, nullptr, &params);
  gst_buffer_pool_config_set_allocator (config, self->allocator, &params);

  /* GstVideoBufferPool applies an alignment only with GstVideoMeta. */
  if (gst_buffer_pool_config_has_option (config,
          GST_BUFFER_POOL_OPTION_VIDEO_META)) {
    GstVideoAlignment align;
    gst_video_alignment_reset (&align);
    if (gst_buffer_pool_config_has_option (config,
            GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT)) {
      gst_buffer_pool_config_get_video_alignment (config, &align);
    } else {
      gst_buffer_pool_config_add_option (config,
          GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT);
    }
    for (guint &mask : align.stride_align)
      mask |= kStrideAlign;
    gst_buffer_pool_config_set_video_alignment (config, &align);
  }

  return GST_BUFFER_POOL_CLASS (gst_daedalus_vk_buffer_pool_parent_class)
      ->set_config (pool, config);
}

static void
gst_daedalus_vk_buffer_pool_dispose (GObject *object)
{
  gst_clear_object (&GST_DAEDALUS_VK_BUFFER_POOL (object)->allocator);

  G_OBJECT_CLASS (gst_daedalus_vk_buffer_pool_parent_class)->dispose (object);
}

static void
gst_daedalus_vk_buffer_pool_class_init (GstDaedalusVkBufferPoolClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_daedalus_vk_buffer_pool_debug,
      "daedalusvkbufferpool", 0, "daedalus Vulkan buffer pool");

  gobject_class->dispose = gst_daedalus_vk_buffer_pool_dispose;
  pool_class->set_config = gst_daedalus_vk_buffer_pool_set_config;
}

static void
gst_daedalus_vk_buffer_pool_init (GstDaedalusVkBufferPool *)
{
}

static GstBufferPool *
gst_daedalus_vk_buffer_pool_new (GstAllocator *allocator)
{
  auto self = GST_DAEDALUS_VK_BUFFER_POOL (
      g_object_new (GST_TYPE_DAEDALUS_VK_BUFFER_POOL, nullptr));
  gst_object_ref_sink (self);
  self->allocator = GST_ALLOCATOR (gst_object_ref (allocator));
  return GST_BUFFER_POOL (self);
}

/* Sets @pool up for @caps; *size becomes the size of its buffers. */
static gboolean
configure (GstBufferPool *pool, GstCaps *caps, guint *size, guint min,
    guint max, gboolean video_meta)
{
  GstStructure *config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, *size, min, max);
  if (video_meta)
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_WARNING_OBJECT (pool, "cannot configure for %" GST_PTR_FORMAT, caps);
    return FALSE;
  }

  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, nullptr, size, nullptr, nullptr);
  gst_structure_free (config);
  return TRUE;
}

/* Makes @pool the query's first pool; the one it displaces goes last. */
static void
put_pool_first (GstQuery *query, GstBufferPool *pool, guint size, guint min,
    guint max)
{
  if (gst_query_get_n_allocation_pools (query) == 0) {
    gst_query_add_allocation_pool (query, pool, size, min, max);
    return;
  }
  GstBufferPool *other;
  guint other_size, other_min, other_max;
  gst_query_parse_nth_allocation_pool (query, 0, &other, &other_size,
      &other_min, &other_max);
  gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  gst_query_add_allocation_pool (query, other, other_size, other_min,
      other_max);
  gst_clear_object (&other);
}

/* The same for allocators, keeping the first one's parameters (alignment,
 * padding) for ours. */
static void
put_allocator_first (GstQuery *query, GstAllocator *allocator)
{
  GstAllocationParams params;
  gst_allocation_params_init (&params);
  if (gst_query_get_n_allocation_params (query) == 0) {
    gst_query_add_allocation_param (query, allocator, &params);
    return;
  }
  GstAllocator *other;
  gst_query_parse_nth_allocation_param (query, 0, &other, &params);
  gst_query_set_nth_allocation_param (query, 0, allocator, &params);
  gst_query_add_allocation_param (query, other, &params);
  gst_clear_object (&other);
}

gboolean
gst_daedalus_vk_propose_pool (GstQuery *query, GstAllocator *allocator)
{
  GstCaps *caps;
  GstVideoInfo info;
  gst_query_parse_allocation (query, &caps, nullptr);
  if (!caps || !gst_video_info_from_caps (&info, caps))
    return FALSE;

  /* Upstream adds GstVideoMeta to the config if the query allows it. */
  guint size = GST_VIDEO_INFO_SIZE (&info);
  GstBufferPool *pool = gst_daedalus_vk_buffer_pool_new (allocator);
  const gboolean ok = configure (pool, caps, &size, 0, 0, FALSE);
  if (ok) {
    put_pool_first (query, pool, size, 0, 0);
    put_allocator_first (query, allocator);
  }
  gst_object_unref (pool);
  return ok;
}

gboolean
gst_daedalus_vk_decide_pool (GstQuery *query, GstAllocator *allocator)
{
  GstCaps *caps;
  GstVideoInfo info;
  gst_query_parse_allocation (query, &caps, nullptr);
  if (!caps || !gst_video_info_from_caps (&info, caps))
    return FALSE;

  guint size = GST_VIDEO_INFO_SIZE (&info), min = 0, max = 0;
  GstBufferPool *pool = nullptr;
  if (gst_query_get_n_allocation_pools (query) > 0) {
    guint their_size;
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &their_size, &min,
        &max);
    size = MAX (size, their_size);
  }
  const gboolean video_meta =
      gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, nullptr);

  /* Another daedalus gpu element downstream (with a device of its own):
   * writing into its pool, through this backend's host-cached readback
   * buffer, costs one copy; writing into our own pool would make it copy the
   * frame in (reading memory the CPU may read uncached) and, in place, out. */
  if (pool && GST_IS_DAEDALUS_VK_BUFFER_POOL (pool) &&
      configure (pool, caps, &size, min, max, video_meta)) {
    GST_DEBUG_OBJECT (pool, "output into the downstream Vulkan pool");
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
    gst_object_unref (pool);
    return TRUE;
  }
  gst_clear_object (&pool);

  pool = gst_daedalus_vk_buffer_pool_new (allocator);
  if (!configure (pool, caps, &size, min, max, video_meta)) {
    gst_object_unref (pool);
    return FALSE;
  }
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);

  GstAllocationParams params;
  gst_allocation_params_init (&params);
  if (gst_query_get_n_allocation_params (query) > 0) {
    gst_query_parse_nth_allocation_param (query, 0, nullptr, &params);
    gst_query_set_nth_allocation_param (query, 0, allocator, &params);
  } else {
    gst_query_add_allocation_param (query, allocator, &params);
  }
  return TRUE;
}
