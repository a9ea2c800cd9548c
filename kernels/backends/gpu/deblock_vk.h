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

// Whether deblocking with `pp` writes `plane` at all: the plane is active
// and has an edge in either pass (mode=dct: is not empty; 10-bit: is not
// empty, as every sample is written).
bool deblock_changes_plane(const DeblockPlaneParams& pp, const Plane& plane);

// Records one pass from `src` into `dst`: the same size, step and sample
// layout, disjoint memory, offsets and strides multiples of 4; `pp`'s
// thresholds in 8-bit units (scaled here to the planes' depth). One dispatch,
// which writes every word of `dst` in rows [0, extent) (pass 1) or columns [0,
// extent) (pass 2: extent * step a multiple of 4, or the whole width), reading
// only those rows or word columns of `src`; the padding bytes of a row's last
// word come from `src`. Pass 2 must read pass 1's `dst` across a
// Batch::barrier().
Status record_deblock(Batch& batch, const GpuPlane& src, const GpuPlane& dst,
                      const DeblockPlaneParams& pp, DeblockPass pass,
                      int extent);

}  // namespace daedalus::vk
