// The gpu backend's share of a hybrid frame (backend_hybrid.cc): the leading
// rows (or columns) of each plane. A band is staged, recorded into one
// command buffer and submitted without waiting, so that the calling thread
// can filter the rest of the frame on the CPU meanwhile; finish_band() then
// waits and copies the band's output into the frame.
#pragma once

#include "daedalus/backend_gpu.h"
#include "deblock_vk.h"

namespace daedalus {

// Every gpu backend create_gpu_backend() makes is one. Between a start_*
// call that succeeded and finish_band(), the frames must stay valid, and
// nobody else may write the band's output or (deblock) the samples it reads;
// no other frame call may come in between. Extents are per plane (the two
// planes of interleaved chroma must agree) and clamped to the plane.
// A band always copies the frame's samples it needs, even from a GpuBuffer:
// the CPU writes the frame's other rows while the GPU runs. Parameters and
// frames are those the hybrid backend's front door (Backend) accepted.
class GpuBandBackend : public GpuBackend {
 public:
  // MC into rows [0, rows[p]) of each plane of dst.
  virtual Status start_mc_band(const Frame& dst, const ConstFrame& src,
                               const McParams& params, const int rows[3]) = 0;
  // CDEF of block rows [0, block_rows) (cdef_block_rows()).
  virtual Status start_cdef_band(const Frame& dst, const ConstFrame& src,
                                 const CdefParams& params, int block_rows) = 0;
  // One deblock pass of `frame`, a grid view (deblock_grid_view): the vertical
  // edges of rows [0, extent[p]), or the horizontal edges of columns [0,
  // extent[p]) on pass 1's output (which the whole frame holds by then); a
  // column band ends on a 4-byte boundary (extent * step a multiple of 4) or at
  // the plane's width. mode=dct has one pass, VerticalEdges: rows [0,
  // extent[p]) of its output, from the frame's samples (the rows below the band
  // included), which nobody may write before finish_band().
  virtual Status start_deblock_band(const Frame& frame,
                                    const DeblockParams& params,
                                    vk::DeblockPass pass,
                                    const int extent[3]) = 0;
  // Waits for the band started last, copies its output into the frame and
  // sets last_frame_stats() (upload, submit and wait, GPU, readback of the
  // band). Nothing to do after a band that had no rows.
  virtual Status finish_band() = 0;
};

}  // namespace daedalus
