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

/* GstDaedalusVkAllocator: GstMemory that is a daedalus::GpuBuffer, Vulkan
 * memory of one gpu backend's device, host-visible and mapped for its whole
 * life. Mapping returns that pointer (no copy); that backend's kernels read
 * and write frames in it in place. On the Raspberry Pi 5 the CPU reads it
 * uncached: only the gpu backend's elements hand it out. */
#pragma once

#include <gst/gst.h>

#include <memory>

#include "daedalus/backend_gpu.h"

G_BEGIN_DECLS

#define GST_DAEDALUS_VK_MEMORY_TYPE "DaedalusVulkanMemory"

#define GST_TYPE_DAEDALUS_VK_ALLOCATOR (gst_daedalus_vk_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstDaedalusVkAllocator, gst_daedalus_vk_allocator, GST,
    DAEDALUS_VK_ALLOCATOR, GstAllocator)

G_END_DECLS

/* (transfer full) An allocator of @backend's buffers. It and every memory it
 * allocated keep @backend alive; it allocates from any thread. */
GstAllocator *gst_daedalus_vk_allocator_new (
    std::shared_ptr<daedalus::GpuBackend> backend);
