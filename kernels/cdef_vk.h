// daedaluscdef on the GPU: records shaders/cdef.comp for a whole frame.
#pragma once

#include "daedalus/cdef.h"
#include "daedalus/status.h"
#include "vk_batch.h"
#include "vk_frame.h"

namespace daedalus::vk {

// A frame as cdef.comp addresses it: [0] luma, then its chroma groups (none
// for gray, one interleaved U/V pair of step 2, or U and V apart). An
// interleaved pair must be subsampled chroma (4:4:4 pairs go apart).
struct CdefGpuFrame {
  GpuPlane src[3], dst[3];
  int chroma_groups = 0;
  int chroma_shift_x = 0;
  int chroma_shift_y = 0;
};

// Records CDEF of every plane: one dispatch when the chroma groups share
// their source buffer and their destination buffer (always, for staged
// frames), one more per chroma group that does not. Nothing for an empty
// frame.
Status record_cdef(Batch& batch, const CdefGpuFrame& frame,
                   const CdefParams& params);

}  // namespace daedalus::vk
