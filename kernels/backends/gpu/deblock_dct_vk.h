// daedalusdeblock mode=dct on the GPU: records shaders/deblock/deblock_dct.comp
// for one plane group (a plane, or an interleaved NV12/NV21 chroma pair).
#pragma once

#include "daedalus/deblock.h"
#include "daedalus/status.h"
#include "vulkan/vk_batch.h"
#include "vulkan/vk_frame.h"

namespace daedalus::vk {

// The source rows that output rows [0, rows) of a `height`-row plane read:
// blocks reach 7 rows below a row, and mirrored rows lie above them.
Window dct_source_window(int rows, int height);

// Records mode=dct from `src` into rows [0, rows) of `dst`: the same size,
// step, bit depth and lsb, memory that does not overlap, dst's offset and
// stride multiples of 4 (src's may be anything: it is read a sample at a
// time); only rows [0, src_rows) of `src` are read (at least
// dct_source_window()'s). `pp` in 8-bit units (scaled here to dst's depth).
// One dispatch, which writes every word of those rows of `dst` that holds a
// sample, its values with their other bits 0, keeping the units past the
// last sample; nothing for no rows.
Status record_deblock_dct(Batch& batch, const GpuPlane& src,
                          const GpuPlane& dst, const DeblockPlaneParams& pp,
                          int rows, int src_rows);

}  // namespace daedalus::vk
