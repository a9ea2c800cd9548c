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

/* GstDaedalusVkBufferPool: video frames in a GstDaedalusVkAllocator's
 * memory, which its gpu backend reads and writes in place; and the two
 * answers of an element on that backend to ALLOCATION queries. */
#pragma once

#include <gst/video/gstvideopool.h>

G_BEGIN_DECLS

/* A GstVideoBufferPool whose buffers are one memory of its
 * GstDaedalusVkAllocator each, whatever allocator a config names. With
 * GST_BUFFER_POOL_OPTION_VIDEO_META in its config the frames carry a
 * GstVideoMeta and their strides are multiples of 4 (a GstVideoAlignment), so
 * shaders write whole 32-bit words of a row in place; without it they have
 * the default layout, whose strides are multiples of 4 for every format the
 * elements take. */
#define GST_TYPE_DAEDALUS_VK_BUFFER_POOL \
  (gst_daedalus_vk_buffer_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstDaedalusVkBufferPool, gst_daedalus_vk_buffer_pool, GST,
    DAEDALUS_VK_BUFFER_POOL, GstVideoBufferPool)

/* Puts a pool of @allocator, and @allocator itself, first in @query, an
 * ALLOCATION query an element answers upstream, so that frames arrive in
 * memory its gpu backend uses in place. */
gboolean gst_daedalus_vk_propose_pool (GstQuery *query,
    GstAllocator *allocator);

/* Makes @query, an ALLOCATION query downstream has answered, name the pool
 * of the element's output: downstream's own when it is a
 * GstDaedalusVkBufferPool (another gpu element's), else a new pool of
 * @allocator (with GstVideoMeta when downstream takes it, and downstream's
 * buffer counts). */
gboolean gst_daedalus_vk_decide_pool (GstQuery *query, GstAllocator *allocator);

G_END_DECLS
