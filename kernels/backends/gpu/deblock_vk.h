// daedalusdeblock on the GPU: records shaders/deblock/deblock.comp (mode=h264)
// or deblock_vp9.comp (mode=vp9) for one plane group (a plane, or an
// interleaved NV12/NV21 chroma pair).
#pragma once

#include "daedalus/deblock.h"
#include "daedalus/status.h"
#include "vulkan/vk_batch.h"
#include "vulkan/vk_frame.h"

namespace daedalus::vk {

using daedalus::DeblockPass;

// Whether deblocking with `pp` changes a plane of this size at all: the
// plane is active and has an edge in either pass (mode=dct: is not empty).
bool deblock_changes_plane(const DeblockPlaneParams& pp, int width, int height);

// Records one pass from `src` into `dst`: the same size and step, disjoint
// memory, offsets and strides multiples of 4. One dispatch, which writes
// every word of `dst` in rows [0, extent) (pass 1) or columns [0, extent)
// (pass 2: extent * step a multiple of 4, or the whole width), reading only
// those rows or word columns of `src`; the padding bytes of a row's last
// word come from `src`. Pass 2 must read pass 1's `dst` across a
// Batch::barrier().
Status record_deblock(Batch& batch, const GpuPlane& src, const GpuPlane& dst,
                      const DeblockPlaneParams& pp, DeblockPass pass,
                      int extent);

}  // namespace daedalus::vk
