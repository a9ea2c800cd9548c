// Deblocking as a post-process (docs/spec.md, daedalusdeblock): the H.264
// filter (mode=h264), the VP9 loop filter (mode=vp9) or re-quantisation in
// the DCT domain at shifts of the 8x8 grid (mode=dct).
#pragma once

#include <cstdint>

#include "daedalus/dct8.h"
#include "daedalus/frame.h"
#include "daedalus/status.h"

namespace daedalus {

class ThreadPool;

// Which filter runs (docs/spec.md: daedalusdeblock, mode=h264 / vp9 / dct).
enum class DeblockMode { H264, Vp9, Dct };

// chroma_qp_offset's range: H.264's -12..12, and below it down to the
// value that leaves chroma unchanged at every qp in mode=h264 and dct
// (chroma's qp clip3(0, 51, qp + offset) is then 0).
constexpr int kChromaQpOffsetMin = -51;
constexpr int kChromaQpOffsetMax = 12;

// Element-level settings. Ranges: qp 0..51; alpha/beta offsets -12..12;
// chroma_qp_offset kChromaQpOffsetMin..kChromaQpOffsetMax; bs 1..4;
// block_size 4, 8 or 16; grid_x, grid_y 0..15. The defaults are the
// elements' defaults, chosen by the picture-quality benchmark
// (docs/quality.md).
struct DeblockParams {
  int qp = 30;
  int alpha_offset = 0;
  int beta_offset = 0;
  int chroma_qp_offset = 0;
  int bs = 1;
  int block_size = 8;
  // The block grid's origin, in luma samples: each plane is filtered as if
  // it began at its share of it (deblock_grid_view), in every mode.
  int grid_x = 0;
  int grid_y = 0;
  // mode=vp9 uses filter_level 0..63 (0: the frame is unchanged), sharpness
  // 0..7 and block_size (also the filter width); the fields above it
  // ignores, as mode=h264 ignores these two.
  DeblockMode mode = DeblockMode::H264;
  int filter_level = 10;
  int sharpness = 0;
  // mode=dct uses qp (the strength), chroma_qp_offset, the grid origin and
  // shifts: 1, 2, 4, 8, 16, 32 or 64 shifted grids averaged. Its block size
  // is always 8 (block_size is ignored).
  int shifts = 4;
};

// Ok when every field is in its range (above); else an error naming the
// first that is not and its range ("deblock: qp 60 out of range 0..51").
Status deblock_params_valid(const DeblockParams& params);

// H.264 Tables 8-16 and 8-17, indexed by indexA / indexB (0..51), and the
// chroma QP mapping for qPI 30..51 (Table 8-15).
extern const uint8_t kH264Alpha[52];
extern const uint8_t kH264Beta[52];
extern const uint8_t kH264Tc0[52][3];  // [indexA][bS - 1], bS 1..3
extern const uint8_t kH264ChromaQp[22];

// QPc(q) for q in 0..51.
int h264_chroma_qp(int q);

// VP9's thresholds (docs/spec.md, mode=vp9) for filter_level 0..63 and
// sharpness 0..7: limit 1..63, blimit 5..193, thresh 0..3.
struct Vp9Thresholds {
  int limit = 0;
  int blimit = 0;
  int thresh = 0;
};
Vp9Thresholds vp9_thresholds(int filter_level, int sharpness);

// mode=dct's grid offset (sx, sy), 0..7 each, of shift k (0 <= k < n) of n
// shifts (1, 2, 4, ..., 64).
void dct_shift(int n, int k, int* sx, int* sy);

// Everything one plane's filter needs, derived once per frame. The
// thresholds are in 8-bit units at every bit depth: the kernels scale them
// to the plane's (deblock_plane_params_at_depth).
struct DeblockPlaneParams {
  int alpha = 0;
  int beta = 0;
  int tc0 = 0;  // meaningful for bs < 4
  int bs = 2;
  int block_size = 8;
  bool chroma_filter = false;  // the 2-sample chroma filter, else the luma one
  // mode=vp9 uses block_size (also the filter width) of the fields above,
  // and vp9, which is all 0 when filter_level is 0.
  DeblockMode mode = DeblockMode::H264;
  Vp9Thresholds vp9;
  // mode=dct: the AC threshold (0: the plane is unchanged) and the number
  // of shifted grids.
  int dct_threshold = 0;
  int dct_shifts = 1;
};

// `chroma_plane` selects the chroma QP (mode=h264 and dct); `chroma_filter`
// is true for the chroma planes of subsampled (4:2:0, 4:2:2) formats. mode=vp9
// uses neither: every plane gets the same thresholds.
DeblockPlaneParams deblock_plane_params(const DeblockParams& params,
                                        bool chroma_plane, bool chroma_filter);

// `pp`'s thresholds for a plane of bit depth `bit_depth` (docs/spec.md
// "High bit depth"): alpha, beta, tc0, VP9's limit, blimit and thresh and
// mode=dct's threshold shifted left by bit_depth - 8 (the other fields as
// they are). What else the depth changes (VP9's flat bound
// 1 << (bit_depth - 8) and its 4-tap filter's signed range, mode=dct's
// offset 128 << (bit_depth - 8) and its inverse's wider clipping, the
// clipping to the largest sample value) the filters take from the depth
// themselves.
DeblockPlaneParams deblock_plane_params_at_depth(const DeblockPlaneParams& pp,
                                                 int bit_depth);

// A plane whose alpha or beta (mode=vp9: blimit) is 0 is left unchanged.
inline bool deblock_plane_active(const DeblockPlaneParams& p) {
  if (p.mode == DeblockMode::Vp9) return p.vp9.blimit != 0;
  if (p.mode == DeblockMode::Dct) return p.dct_threshold != 0;
  return p.alpha != 0 && p.beta != 0;
}

// Samples an edge's filter reads on each side: docs/spec.md filters the
// edge at x only where x + reach <= the plane's width (pass 2: height).
inline int deblock_edge_reach(const DeblockPlaneParams& p) {
  if (p.mode == DeblockMode::Vp9) return p.block_size == 16 ? 8 : 4;
  return p.chroma_filter ? 2 : 4;
}

// True when deblock would change nothing in any plane of such a frame.
bool deblock_is_noop(const DeblockParams& params, bool has_chroma);

// Pass 1: the vertical edges of rows [y_begin, y_end), filtered in place.
// Rows are independent, so disjoint row ranges may run concurrently, but not
// the two channels of interleaved chroma: a vector load of one reads the
// other's bytes. The entries for 10-bit planes (*_hbd) write every sample of
// the rows (docs/spec.md "High bit depth": the bits outside the values come
// out 0), so that pass 2 gets planes without such bits, which it requires.
using DeblockVerticalEdgesFn = void (*)(const Plane& plane,
                                        const DeblockPlaneParams& params,
                                        int y_begin, int y_end);
// Pass 2: the horizontal edges of columns [x_begin, x_end), in place, on the
// output of pass 1. Columns are independent, with the same exception.
using DeblockHorizontalEdgesFn = void (*)(const Plane& plane,
                                          const DeblockPlaneParams& params,
                                          int x_begin, int x_end);

// mode=dct: rows [y_begin, y_end) of `dst` from `src`, a plane of the same
// size and bit depth (any of its rows may be read: blocks reach 7 rows
// beyond the range, and mirror at the plane's edges). `src` may be `dst`
// itself only when the range is the whole plane; otherwise they never
// overlap. Every sample of the rows is written (10-bit planes: the bits
// outside the values 0). Disjoint row ranges may run concurrently; `dst` is
// written a sample at a time where its step is not the sample size, so both
// channels of interleaved chroma may too.
using DeblockDctRowsFn = void (*)(const ConstPlane& src, const Plane& dst,
                                  const DeblockPlaneParams& params, int y_begin,
                                  int y_end);

// Every mode has an entry per sample size: planes of bit depth 8 and of bit
// depth 10 (16-bit words, *_hbd).
struct DeblockDsp {
  DeblockVerticalEdgesFn vertical_edges = nullptr;
  DeblockHorizontalEdgesFn horizontal_edges = nullptr;
  DeblockVerticalEdgesFn vertical_edges_hbd = nullptr;
  DeblockHorizontalEdgesFn horizontal_edges_hbd = nullptr;
  DeblockDctRowsFn dct_rows = nullptr;
  DeblockDctRowsFn dct_rows_hbd = nullptr;
};

// The entries of `dsp` for planes of `plane`'s bit depth.
template <class T>
DeblockVerticalEdgesFn deblock_vertical_edges_fn(const DeblockDsp& dsp,
                                                 const PlaneView<T>& plane) {
  return plane.bit_depth > 8 ? dsp.vertical_edges_hbd : dsp.vertical_edges;
}
template <class T>
DeblockHorizontalEdgesFn deblock_horizontal_edges_fn(
    const DeblockDsp& dsp, const PlaneView<T>& plane) {
  return plane.bit_depth > 8 ? dsp.horizontal_edges_hbd : dsp.horizontal_edges;
}
template <class T>
DeblockDctRowsFn deblock_dct_rows_fn(const DeblockDsp& dsp,
                                     const PlaneView<T>& plane) {
  return plane.bit_depth > 8 ? dsp.dct_rows_hbd : dsp.dct_rows;
}

// The scalar reference: the oracle every other implementation must match.
void deblock_dsp_init_ref(DeblockDsp* dsp);

// The init ladder: the reference, then every faster implementation this build
// has and this CPU supports; with `islands` false, without mode=dct's AVX-512
// VNNI rows: what a CPU lacking VNNI runs, which tests compare on a CPU that
// has it.
void deblock_dsp_init(DeblockDsp* dsp, bool islands = true);

// The grid's block size: block_size, or 8 in mode=dct.
int deblock_grid_block(const DeblockParams& params);

// The part of `frame` each plane is filtered as (docs/spec.md, "Grid
// offset"): plane p from column (grid_x >> shift_x) % B and row
// (grid_y >> shift_y) % B on (B = deblock_grid_block), shift 0 for luma;
// samples before them are neither read nor written. Every backend filters
// this view.
Frame deblock_grid_view(const Frame& frame, const DeblockParams& params);

// Deblocks every plane of `frame` in place with `dsp`, in bands of rows,
// both passes on a band while it is in cache: on the calling thread (`pool`
// null or of one thread) top to bottom, on `pool` every band at once (the
// edges on the bands' first rows after the join where edges are
// independent, else each band's pass 2 strip by strip behind the band
// above); a band of interleaved chroma holds both channels. Frames of bit
// depth 8 and 10. mode=dct filters each plane in place on one
// thread; on several, it copies the planes first and filters row bands from
// the copy. The result does not depend on the split.
void deblock_frame(const DeblockDsp& dsp, const Frame& frame,
                   const DeblockParams& params, ThreadPool* pool = nullptr);

// Pass 1 filters vertical edges (rows are independent), pass 2 horizontal
// edges (columns are independent); all of pass 1 comes first.
enum class DeblockPass { VerticalEdges, HorizontalEdges };

// One pass alone over the rest of each plane from `first[p]` on, on a grid
// view (the caller applies the grid offset): rows for pass 1 split into row
// bands on `pool`, columns for pass 2 into column bands (a backend that gives
// the leading part of a frame to a GPU runs the rest here; both passes give
// deblock_frame()'s result). The two channels of interleaved chroma must have
// the same `first`.
void deblock_pass(const DeblockDsp& dsp, const Frame& frame,
                  const DeblockParams& params, DeblockPass pass,
                  const int first[3], ThreadPool* pool);

// mode=dct over rows [first[p], height) of each plane of a grid view (the
// caller applies the grid offset), from the samples the planes hold on entry
// (a backend that gives the leading rows of a frame to a GPU runs the rest
// here, and writes the GPU's rows afterwards). The two channels of
// interleaved chroma must have the same `first`.
void deblock_dct_rows_from(const DeblockDsp& dsp, const Frame& frame,
                           const DeblockParams& params, const int first[3],
                           ThreadPool* pool);

}  // namespace daedalus
