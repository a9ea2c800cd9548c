// daedalusmc on the GPU: records shaders/mc/mc.comp for one plane group.
#pragma once

#include "daedalus/mc.h"
#include "daedalus/status.h"
#include "vulkan/vk_batch.h"
#include "vulkan/vk_frame.h"

namespace daedalus::vk {

// Records the translation of `src` into rows [0, rows) of `dst` (same size
// and step; rows <= height): one dispatch, nothing for no rows.
Status record_mc(Batch& batch, const GpuPlane& dst, const GpuPlane& src,
                 const McPlaneShift& shift, McFilter filter, int rows);

// The rows of a `height`-row source plane that rows [0, rows) of the output
// read (rows >= 1): what a staged band must upload.
Window mc_source_window(const McPlaneShift& shift, McFilter filter, int rows,
                        int height);

}  // namespace daedalus::vk
