// daedaluscdef on the GPU: records shaders/cdef/cdef.comp for a whole frame.
#pragma once

#include "daedalus/cdef.h"
#include "daedalus/status.h"
#include "vulkan/vk_batch.h"
#include "vulkan/vk_frame.h"

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

// Records CDEF of block rows [0, block_rows) of every plane (see
// cdef_block_rows(); all of them for a whole frame): one dispatch when the
// chroma groups share their source buffer and their destination buffer
// (always, for staged frames), one more per chroma group that does not.
// The dispatches read source rows up to 2 past the band (CDEF's reach) and
// nothing for an empty band.
Status record_cdef(Batch& batch, const CdefGpuFrame& frame,
                   const CdefParams& params, int block_rows);

// The rows of a plane (chroma: `shift_y` its vertical subsampling) that
// block rows [0, block_rows) write, and those they read; a staged band's
// windows. Clamped to the plane by the stager.
Window cdef_band_rows(int block_rows, int shift_y);
Window cdef_source_rows(int block_rows, int shift_y);

}  // namespace daedalus::vk
