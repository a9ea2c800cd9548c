// daedalusmc on the GPU: records shaders/mc.comp for one plane group.
#pragma once

#include "daedalus/mc.h"
#include "daedalus/status.h"
#include "vk_batch.h"
#include "vk_frame.h"

namespace daedalus::vk {

// Records the translation of `src` into `dst` (same size and step): one
// dispatch, nothing for an empty plane.
Status record_mc(Batch& batch, const GpuPlane& dst, const GpuPlane& src,
                 const McPlaneShift& shift, McFilter filter);

}  // namespace daedalus::vk
