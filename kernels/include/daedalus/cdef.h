// AV1 CDEF de-ringing as a post-process (docs/spec.md, daedaluscdef).
#pragma once

#include <cstdint>

#include "daedalus/frame.h"
#include "daedalus/status.h"

namespace daedalus {

class ThreadPool;

// Element-level settings. Ranges: pri 0..15, sec 0..4 (3 acts as 4),
// damping 3..6 (chroma uses damping - 1). The defaults are the elements'
// defaults, chosen by the picture-quality benchmark (docs/quality.md).
struct CdefParams {
  int pri_strength = 4;
  int sec_strength = 0;
  int uv_pri_strength = 4;
  int uv_sec_strength = 0;
  int damping = 5;
};

// Ok when every field is in its range (above); else an error naming the
// first that is not and its range ("CDEF: damping 7 out of range 3..6").
Status cdef_params_valid(const CdefParams& params);

// True when all strengths are 0: the output equals the input.
bool cdef_is_noop(const CdefParams& params);

// AV1 Cdef_Directions: [dir][k] = {row offset, column offset}, k = 0, 1.
extern const int8_t kCdefDirections[8][2][2];
// Chroma direction of 4:2:2 content for a luma direction.
extern const uint8_t kCdefDir422[8];

// AV1 direction search on the 8x8 block of `plane` at (x, y) (inside the
// plane), on the samples' top 8 bits at any bit depth. Returns the direction
// 0..7 and stores the variance in *var.
int cdef_find_dir_ref(const ConstPlane& plane, int x, int y, int* var);

// Luma primary strength after the variance adjustment.
int cdef_adjust_strength(int strength, int var);

// What filters one block of one plane, at the plane's bit depth bd: the
// strengths and damping are already shifted by cs = bd - 8 (docs/spec.md,
// "High bit depth").
struct CdefBlockParams {
  int pri = 0;      // primary strength, 0..15 << cs (0: no primary taps)
  int sec = 0;      // secondary strength, 0, 1, 2 or 4, << cs (0: none)
  int dir = 0;      // 0..7
  int damping = 3;  // already reduced by 1 for chroma; plus cs
};

// Filters the `w` x `h` block at (x, y) of `src` into `dst` (same geometry
// and bit depth). Taps read `src` only and are unavailable outside the plane.
void cdef_filter_block_ref(const Plane& dst, const ConstPlane& src, int x,
                           int y, int w, int h, const CdefBlockParams& params);

// Block row `by` covers luma rows [8 by, min(8 by + 8, h)) and chroma rows
// [(8 by) >> sy, min((8 by + 8) >> sy, ch)); there are ceil(h / 8) of them.
// Writes every sample of `dst` in block rows [by_begin, by_end) of every
// plane (filtered blocks, and copies of the rest); reads `src` only.
// Disjoint block-row ranges may run concurrently.
using CdefBlockRowsFn = void (*)(const Frame& dst, const ConstFrame& src,
                                 const CdefParams& params, int by_begin,
                                 int by_end);

struct CdefDsp {
  CdefBlockRowsFn block_rows = nullptr;      // frames of bit depth 8
  CdefBlockRowsFn block_rows_hbd = nullptr;  // of bit depth 10 (16-bit words)
};

// The entry of `dsp` for frames of `frame`'s bit depth.
inline CdefBlockRowsFn cdef_block_rows_fn(const CdefDsp& dsp,
                                          const ConstFrame& frame) {
  return frame.bit_depth() > 8 ? dsp.block_rows_hbd : dsp.block_rows;
}

void cdef_dsp_init_ref(CdefDsp* dsp);

// The init ladder: the reference, then every faster implementation this build
// has and this CPU supports.
void cdef_dsp_init(CdefDsp* dsp);

inline int cdef_block_rows(const ConstFrame& frame) {
  return (frame.planes[0].height + 7) >> 3;
}

// Filters the whole frame from `src` into `dst` (of the same format and bit
// depth), split into bands of block rows on `pool` (the calling thread when
// null); or only block rows from `first_block_row` on (a backend that gives the
// leading ones to a GPU runs the rest here).
void cdef_frame(const CdefDsp& dsp, const Frame& dst, const ConstFrame& src,
                const CdefParams& params, ThreadPool* pool = nullptr,
                int first_block_row = 0);

}  // namespace daedalus
