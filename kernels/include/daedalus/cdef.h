// AV1 CDEF de-ringing as a post-process (docs/spec.md, daedaluscdef).
#pragma once

#include <algorithm>
#include <bit>
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

// Luma primary strength after the variance adjustment (inline: the frame
// loop calls it per block).
inline int cdef_adjust_strength(int strength, int var) {
  if (var == 0) return 0;
  const int i = (var >> 6)
                    ? std::min(int(std::bit_width(unsigned(var >> 6))) - 1, 12)
                    : 0;
  return (strength * (4 + i) + 8) >> 4;
}

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

// The leaves of the DSP table, which one frame loop (cdef_filter_rows)
// drives for every implementation, as dav1d's cdef.h / cdef_apply_tmpl.c
// split the family. They work on staged samples: the values of a plane's
// samples as 16 bits (at its bit depth), kCdefUnavailable where a sample lies
// outside the plane (as the spec's CdefAvailable says: the taps skip it).
constexpr uint16_t kCdefUnavailable = 0x8000;

// A chunk of a block row is staged at once: up to kCdefChunk blocks, one
// block either side, rows [-2, rows + 2) around the block row's. A staged
// row of luma (or a 4:4:4 chroma plane) is kCdefPitch samples apart from the
// next, of a 4:2:0 / 4:2:2 chroma plane kCdefPitch / 2. The leaves may read
// (never use) the rest of each staged row, up to its pitch: a staging buffer
// holds whole rows, initialised.
constexpr int kCdefChunk = 64;
constexpr int kCdefPitch = 8 * kCdefChunk + 64;

// Stages columns [x, x + n) of rows [y, y + rows) of `p` (any of them may
// lie outside it), row r at out + r pitch.
using CdefStageFn = void (*)(const ConstPlane& p, int x, int y, int n, int rows,
                             int pitch, uint16_t* out);

// The direction search (cdef_find_dir_ref) of n <= kCdefChunk staged luma
// blocks side by side: block j's row i at rows + i kCdefPitch + 8 j, every
// sample in the plane. Stores block j's direction in dir[j] and variance in
// var[j].
using CdefDirFn = void (*)(const uint16_t* rows, int n, uint8_t* dir, int* var);

// Cache lines of the source that the filter leaves prefetch while they
// filter, kCdefAheadPerBlock after each block: the frame loop lists the next
// chunk's. Spread so, the loads overlap the filters' arithmetic; in a burst
// (prefetches before the chunk, or the staging's own first touch) they wait
// as long as the loads would.
constexpr int kCdefAheadPerBlock = 4;
struct CdefAhead {
  // Rows of lines: `lines` consecutive cache lines from `first`.
  struct Row {
    const uint8_t* first;
    int lines;
  };
  static constexpr int kMaxRows = 48;  // 12 per plane, and room to spare
  Row rows[kMaxRows];
  int n = 0;              // rows listed
  int row = 0, line = 0;  // the next line to prefetch
};

// Prefetches the next kCdefAheadPerBlock lines of `ahead` (null: none).
inline void cdef_fetch_ahead(CdefAhead* ahead) {
  if (!ahead) return;
  int row = ahead->row, line = ahead->line;
  for (int k = 0; k < kCdefAheadPerBlock && row < ahead->n; k++) {
    const CdefAhead::Row& r = ahead->rows[row];
    __builtin_prefetch(r.first + 64 * line);
    if (++line == r.lines) line = 0, row++;
  }
  ahead->row = row, ahead->line = line;
}

// n <= kCdefChunk blocks side by side of one plane (8x8: luma and 4:4:4
// chroma) or of U and V at once (4x8: 4:2:2, 4x4: 4:2:0), to filter as
// cdef_filter_block_ref does, block j with strengths pri[j] and sec and
// direction dir[j]; a block with pri[j] = sec = 0 is copied.
struct CdefBlocks {
  const uint16_t* src[2];  // staged: block 0, row 0 (of a pair: U, V)
  int pitch;               // of the staged rows
  uint8_t* dst[2];         // block 0's first sample
  ptrdiff_t stride[2];
  int step[2];
  int lsb;  // of 16-bit samples: the value's place in the word
  int n;
  const uint8_t* pri;          // per block, 0..15 << cs
  const uint8_t* dir;          // per block
  int sec;                     // 0, 1, 2 or 4, << cs
  int damping;                 // already reduced by 1 for chroma; plus cs
  CdefAhead* ahead = nullptr;  // lines to prefetch, cdef_fetch_ahead per block
};
using CdefFilterFn = void (*)(const CdefBlocks& blocks);

enum CdefShape { kCdef8x8, kCdef4x8Pair, kCdef4x4Pair, kCdefShapes };

// The leaves for samples of one bit depth.
struct CdefLeaves {
  CdefStageFn stage = nullptr;
  CdefDirFn find_dirs = nullptr;
  CdefFilterFn filter[kCdefShapes] = {};
};

struct CdefDsp {
  CdefLeaves bd8;   // frames of bit depth 8
  CdefLeaves bd10;  // of bit depth 10 (16-bit words)
};

// The leaves of `dsp` for frames of `frame`'s bit depth.
inline const CdefLeaves& cdef_leaves(const CdefDsp& dsp,
                                     const ConstFrame& frame) {
  return frame.bit_depth() > 8 ? dsp.bd10 : dsp.bd8;
}

void cdef_dsp_init_ref(CdefDsp* dsp);

// The init ladder: the reference, then every faster implementation this build
// has and this CPU supports; with `islands` false, without the byte island of
// the 8-bit filters (AVX-512 VBMI, VBMI2, VNNI and GFNI intrinsics): what a
// CPU lacking them runs, which tests compare on a CPU that has them.
void cdef_dsp_init(CdefDsp* dsp, bool islands = true);

inline int cdef_block_rows(const ConstFrame& frame) {
  return (frame.planes[0].height + 7) >> 3;
}

// Block row `by` covers luma rows [8 by, min(8 by + 8, h)) and chroma rows
// [(8 by) >> sy, min((8 by + 8) >> sy, ch)); there are ceil(h / 8) of them.
// The frame loop: writes every sample of `dst` in block rows
// [by_begin, by_end) of every plane (filtered blocks, and copies of the
// rest); reads `src` only. Disjoint block-row ranges may run concurrently.
void cdef_filter_rows(const CdefDsp& dsp, const Frame& dst,
                      const ConstFrame& src, const CdefParams& params,
                      int by_begin, int by_end);

// Filters the whole frame from `src` into `dst` (of the same format and bit
// depth), split into bands of block rows on `pool` (the calling thread when
// null); or only block rows from `first_block_row` on (a backend that gives the
// leading ones to a GPU runs the rest here).
void cdef_frame(const CdefDsp& dsp, const Frame& dst, const ConstFrame& src,
                const CdefParams& params, ThreadPool* pool = nullptr,
                int first_block_row = 0);

}  // namespace daedalus
