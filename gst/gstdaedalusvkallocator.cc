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

#include "gstdaedalusvkallocator.h"

#include <cstring>

GST_DEBUG_CATEGORY_STATIC (gst_daedalus_vk_allocator_debug);
#define GST_CAT_DEFAULT gst_daedalus_vk_allocator_debug

namespace {

struct GstDaedalusVkMemory
{
  GstMemory mem;

  /* Owned by the memory that allocated it; null in a shared sub-memory,
     * whose parent owns it. */
  daedalus::GpuBuffer *buffer;
  guint8 *data; /* aligned; mem.offset counts from here */
};

} /* namespace */

struct _GstDaedalusVkAllocator
{
  GstAllocator parent;

  std::shared_ptr<daedalus::GpuBackend> *backend;
};

G_DEFINE_TYPE (GstDaedalusVkAllocator, gst_daedalus_vk_allocator,
    GST_TYPE_ALLOCATOR);

static GstMemory *
new_memory (GstAllocator *allocator, GstMemoryFlags flags, GstMemory *parent,
    daedalus::GpuBuffer *buffer, guint8 *data, gsize maxsize, gsize align,
    gsize offset, gsize size)
{
  auto mem = new GstDaedalusVkMemory;
  gst_memory_init (GST_MEMORY_CAST (mem), flags, allocator, parent, maxsize,
      align, offset, size);
  mem->buffer = buffer;
  mem->data = data;
  return GST_MEMORY_CAST (mem);
}

/* Laid out as the system allocator does: prefix, data, padding, in a block
 * over-allocated by the alignment. */
static GstMemory *
gst_daedalus_vk_allocator_alloc (GstAllocator *allocator, gsize size,
    GstAllocationParams *params)
{
  GstDaedalusVkAllocator *self = GST_DAEDALUS_VK_ALLOCATOR (allocator);
  const gsize align = params->align | gst_memory_alignment;
  gsize maxsize = params->prefix + size + params->padding + align;

  daedalus::Result<std::unique_ptr<daedalus::GpuBuffer>> allocated =
      (*self->backend)->allocate_buffer (maxsize);
  if (!allocated) {
    GST_ERROR_OBJECT (self, "no Vulkan buffer of %" G_GSIZE_FORMAT " bytes: %s",
        maxsize, allocated.status ().message ().c_str ());
    return nullptr;
  }
  std::unique_ptr<daedalus::GpuBuffer> buffer = std::move (allocated).value ();

  guint8 *data = buffer->data ();
  const gsize skip = (align + 1 - (guintptr (data) & align)) & align;
  data += skip;
  maxsize -= skip;
  if (params->prefix && (params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED))
    std::memset (data, 0, params->prefix);
  const gsize padding = maxsize - params->prefix - size;
  if (padding && (params->flags & GST_MEMORY_FLAG_ZERO_PADDED))
    std::memset (data + params->prefix + size, 0, padding);

  return new_memory (allocator, params->flags, nullptr, buffer.release (), data,
      maxsize, align, params->prefix, size);
}

static void
gst_daedalus_vk_allocator_free (GstAllocator *, GstMemory *memory)
{
  auto mem = reinterpret_cast<GstDaedalusVkMemory *> (memory);
  delete mem->buffer;
  delete mem;
}

static gpointer
gst_daedalus_vk_memory_map (GstMemory *memory, gsize, GstMapFlags)
{
  return reinterpret_cast<GstDaedalusVkMemory *> (memory)->data;
}

static void
gst_daedalus_vk_memory_unmap (GstMemory *)
{
}

/* A copy stays in Vulkan memory, so that a frame copied to be made writable
 * (an in-place element given a buffer someone else holds) is still used in
 * place. */
static GstMemory *
gst_daedalus_vk_memory_copy (GstMemory *memory, gssize offset, gssize size)
{
  auto mem = reinterpret_cast<GstDaedalusVkMemory *> (memory);
  if (size == -1)
    size = gssize (memory->size) > offset ? memory->size - offset : 0;

  GstAllocationParams params;
  gst_allocation_params_init (&params);
  params.align = memory->align;
  GstMemory *copy = gst_allocator_alloc (memory->allocator, size, &params);
  if (!copy)
    return nullptr;
  GST_DEBUG ("memcpy %" G_GSSIZE_FORMAT " bytes of Vulkan memory %p -> %p",
      size, memory, copy);
  std::memcpy (reinterpret_cast<GstDaedalusVkMemory *> (copy)->data,
      mem->data + memory->offset + offset, size);
  return copy;
}

static GstMemory *
gst_daedalus_vk_memory_share (GstMemory *memory, gssize offset, gssize size)
{
  auto mem = reinterpret_cast<GstDaedalusVkMemory *> (memory);
  GstMemory *parent = memory->parent ? memory->parent : memory;
  if (size == -1)
    size = memory->size - offset;

  return new_memory (memory->allocator,
      GstMemoryFlags (
          GST_MINI_OBJECT_FLAGS (parent) | GST_MINI_OBJECT_FLAG_LOCK_READONLY),
      parent, nullptr, mem->data, memory->maxsize, memory->align,
      memory->offset + offset, size);
}

static gboolean
gst_daedalus_vk_memory_is_span (GstMemory *memory1, GstMemory *memory2,
    gsize *offset)
{
  auto mem1 = reinterpret_cast<GstDaedalusVkMemory *> (memory1);
  auto mem2 = reinterpret_cast<GstDaedalusVkMemory *> (memory2);
  if (offset)
    *offset = memory1->offset - memory1->parent->offset;
  return mem1->data + memory1->offset + memory1->size ==
      mem2->data + memory2->offset;
}

static void
gst_daedalus_vk_allocator_finalize (GObject *object)
{
  delete GST_DAEDALUS_VK_ALLOCATOR (object)->backend;

  G_OBJECT_CLASS (gst_daedalus_vk_allocator_parent_class)->finalize (object);
}

static void
gst_daedalus_vk_allocator_class_init (GstDaedalusVkAllocatorClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_daedalus_vk_allocator_debug,
      "daedalusvkallocator", 0, "daedalus Vulkan memory");

  gobject_class->finalize = gst_daedalus_vk_allocator_finalize;
  allocator_class->alloc = gst_daedalus_vk_allocator_alloc;
  allocator_class->free = gst_daedalus_vk_allocator_free;
}

static void
gst_daedalus_vk_allocator_init (GstDaedalusVkAllocator *self)
{
  GstAllocator *allocator = GST_ALLOCATOR (self);

  allocator->mem_type = GST_DAEDALUS_VK_MEMORY_TYPE;
  allocator->mem_map = gst_daedalus_vk_memory_map;
  allocator->mem_unmap = gst_daedalus_vk_memory_unmap;
  allocator->mem_copy = gst_daedalus_vk_memory_copy;
  allocator->mem_share = gst_daedalus_vk_memory_share;
  allocator->mem_is_span = gst_daedalus_vk_memory_is_span;
}

GstAllocator *
gst_daedalus_vk_allocator_new (std::shared_ptr<daedalus::GpuBackend> backend)
{
  auto self = GST_DAEDALUS_VK_ALLOCATOR (
      g_object_new (GST_TYPE_DAEDALUS_VK_ALLOCATOR, nullptr));
  gst_object_ref_sink (self);
  self->backend =
      new std::shared_ptr<daedalus::GpuBackend> (std::move (backend));
  return GST_ALLOCATOR (self);
}
