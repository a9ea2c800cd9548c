#version 450
#extension GL_GOOGLE_include_directive : require

// daedalusdeblock, mode=vp9: bit-exact with
// kernels/filters/deblock/deblock_vp9_ref.cc (docs/spec.md). One dispatch
// per pass and plane group: pass 1 filters the vertical edges of every row,
// pass 2 (after a barrier) the horizontal edges of every column, on pass 1's
// output. A line is a row (both channels of an interleaved pair) in pass 1,
// a word column (4 units, samples.h: 4 8-bit columns, 2 of each channel, or
// 2 10-bit columns, 1 of each channel) in pass 2; lines share no word.
// Every sample of the plane is written, its bits outside the value 0
// (docs/spec.md "Decisions"); a row's padding units as they were.
// * Block size 8 and 16 (SEGMENTS): the edge at x = j B reads x - R ..
//   x + R - 1 (R = 4 at width 8, 8 at 16), within [x - B/2, x + B/2), which
//   no other edge reads or writes. An item is such a segment of a line: it
//   copies the segment from src to dst and filters its edge into dst.
// * Block size 4 (runs): the edge at x + 4 reads x and x + 1, which the edge
//   at x may have written, so an item walks a whole line: it copies it, then
//   filters its edges in increasing position in dst, each reading what the
//   one before it wrote (docs/spec.md's edge order).
// Every item reads src and its own words of dst only. int32 arithmetic, no
// shared memory, no barrier. Loops are few per item: lavapipe's llvmpipe
// ends a shader invocation's loops after 65535 iterations in all.

#include "deblock_group.h"

layout(local_size_x = DEBLOCK_INVOCATIONS) in;  // items_x fastest

layout(constant_id = 0) const int PASS = 1;  // 1: vertical edges, 2: horizontal
layout(constant_id = 1) const int STEP = 1;  // 1, or 2 for an interleaved pair
layout(constant_id = 2) const int WD = 8;    // block size and filter width
layout(constant_id = 3) const int DEPTH = 8;  // samples.h
layout(constant_id = 4) const int LSB = 0;
const bool SEGMENTS = WD >= 8;

#include "samples.h"

layout(set = 0, binding = 0, std430) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1, std430) buffer Dst { uint dst[]; };

// The block as written: clang-format cannot see its members through the
// #include.
// clang-format off
layout(push_constant, std430) uniform Push {
#include "deblock_vp9_push.h"
} pc;
// clang-format on

// Samples an edge's filter reads on each side.
const int REACH = WD == 16 ? 8 : 4;

// The 4-tap filter's signed range: HALF = 128 << CS.
const int HALF = 128 << CS;
int c(int v) { return clamp(v, -HALF, HALF - 1); }

// v[8 + i] is the sample at signed position i across the edge (q0 at 0, p0
// at -1), i = -REACH .. REACH-1; filtered in place.
void filter_line(inout int v[16]) {
  const int p3 = v[4], p2 = v[5], p1 = v[6], p0 = v[7];
  const int q0 = v[8], q1 = v[9], q2 = v[10], q3 = v[11];
  const int steps =
      max(max(max(abs(p3 - p2), abs(p2 - p1)), max(abs(p1 - p0), abs(q1 - q0))),
          max(abs(q2 - q1), abs(q3 - q2)));
  if (steps > pc.limit || abs(p0 - q0) * 2 + (abs(p1 - q1) >> 1) > pc.blimit)
    return;
  const bool hev = abs(p1 - p0) > pc.thresh || abs(q1 - q0) > pc.thresh;
  const int flat_bound = 1 << CS;
  const bool wide1 =
      WD >= 8 &&
      max(max(max(abs(p1 - p0), abs(q1 - q0)), max(abs(p2 - p0), abs(q2 - q0))),
          max(abs(p3 - p0), abs(q3 - q0))) <= flat_bound;
  int outer = 0;
  for (int i = 4; i < REACH; i++)
    outer = max(outer, max(abs(v[7 - i] - p0), abs(v[8 + i] - q0)));
  const bool wide2 = WD == 16 && outer <= flat_bound;

  const int n = wide1 && wide2 ? 7 : wide1 ? 3 : 0;
  if (n > 0) {
    const int k = n == 3 ? 3 : 4;
    int o[16];
    for (int i = -n; i < n; i++) {
      int sum = 1 << (k - 1);
      for (int j = -n; j <= n; j++)
        sum += v[8 + clamp(i + j, -(n + 1), n)] * (j == 0 ? 2 : 1);
      o[8 + i] = sum >> k;
    }
    for (int i = -n; i < n; i++) v[8 + i] = o[8 + i];
    return;
  }

  const int ps1 = p1 - HALF, ps0 = p0 - HALF, qs0 = q0 - HALF, qs1 = q1 - HALF;
  int f = hev ? c(ps1 - qs1) : 0;
  f = c(f + 3 * (qs0 - ps0));
  const int f1 = c(f + 4) >> 3, f2 = c(f + 3) >> 3;
  v[8] = c(qs0 - f1) + HALF;
  v[7] = c(ps0 + f2) + HALF;
  if (!hev) {
    f = (f1 + 1) >> 1;
    v[9] = c(qs1 - f) + HALF;
    v[6] = c(ps1 + f) + HALF;
  }
}

// Pass 1: the edge at x of the row whose first word in dst is d, which
// already holds the samples (their values: dst is written clean before any
// edge). Its window is units STEP (x - REACH) .. STEP (x + REACH) - 1: whole
// words, as x and REACH are multiples of 4.
void row_edge(int d, int x) {
  const int first = d + ((STEP * (x - REACH)) >> UNITS_LOG2);
  const int count = (2 * REACH * STEP) >> UNITS_LOG2;
  uint win[16];
  for (int w = 0; w < count; w++) win[w] = dst[first + w];
  for (int ch = 0; ch < STEP; ch++) {
    int v[16];
    for (int k = 0; k < 2 * REACH; k++) {
      const int at = STEP * k + ch;  // unit of the window
      v[8 - REACH + k] = unit_value(win[at >> UNITS_LOG2], at & (UNITS - 1));
    }
    filter_line(v);
    for (int k = 0; k < 2 * REACH; k++) {
      const int at = STEP * k + ch;
      win[at >> UNITS_LOG2] = set_unit_value(
          win[at >> UNITS_LOG2], at & (UNITS - 1), v[8 - REACH + k]);
    }
  }
  for (int w = 0; w < count; w++) dst[first + w] = win[w];
}

// Pass 2: the edge at y of the word column whose word in row r of dst is
// d + r dp; its first `lanes` units are samples, the rest row padding.
void column_edge(int d, int dp, int y, int lanes) {
  uint win[16];
  for (int k = 0; k < 2 * REACH; k++) win[k] = dst[d + (y - REACH + k) * dp];
  for (int l = 0; l < UNITS; l++) {
    if (l >= lanes) break;
    int v[16];
    for (int k = 0; k < 2 * REACH; k++)
      v[8 - REACH + k] = unit_value(win[k], l);
    filter_line(v);
    for (int k = 0; k < 2 * REACH; k++)
      win[k] = set_unit_value(win[k], l, v[8 - REACH + k]);
  }
  for (int k = 0; k < 2 * REACH; k++) dst[d + (y - REACH + k) * dp] = win[k];
}

// Samples [a, b) of the line (pass 1: of each channel) go from src to dst
// and the edges at x = WD, 2 WD, ... within [a, b) that fit the plane are
// filtered in increasing x.
void line_part(int line, int a, int b) {
  const int len = PASS == 1 ? pc.width : pc.height;
  if (PASS == 1) {
    const int s = (pc.src_offset + line * pc.src_stride) >> 2;
    const int d = (pc.dst_offset + line * pc.dst_stride) >> 2;
    const int row_units = pc.width * STEP;
    const int w1 = min((STEP * b + UNITS - 1) >> UNITS_LOG2,
                       (row_units + UNITS - 1) >> UNITS_LOG2);
    for (int w = (STEP * a) >> UNITS_LOG2; w < w1; w++)
      dst[d + w] = clean_units(src[s + w], row_units - UNITS * w);
    for (int x = max(WD, (a + WD - 1) / WD * WD); x < b && x + REACH <= len;
         x += WD)
      row_edge(d, x);
  } else {
    const int s = (pc.src_offset >> 2) + line, sp = pc.src_stride >> 2;
    const int d = (pc.dst_offset >> 2) + line, dp = pc.dst_stride >> 2;
    const int lanes = min(UNITS, pc.width * STEP - UNITS * line);
    for (int r = a; r < b; r++)
      dst[d + r * dp] = clean_units(src[s + r * sp], lanes);
    for (int y = max(WD, (a + WD - 1) / WD * WD); y < b && y + REACH <= len;
         y += WD)
      column_edge(d, dp, y, lanes);
  }
}

void main() {
  const int ix = int(gl_GlobalInvocationID.x),
            iy = int(gl_GlobalInvocationID.y);
  if (ix >= pc.items_x || iy >= pc.items_y)
    return;  // the shader has no barrier
  const int len = PASS == 1 ? pc.width : pc.height;
  if (!SEGMENTS) {
    line_part(ix, 0, len);  // runs: x is the line
    return;
  }
  // Segments: pass 1 x is the segment, y the row; pass 2 x the word column,
  // y the segment. Segment j is [j WD - WD/2, j WD + WD/2) within the line.
  const int j = PASS == 1 ? ix : iy;
  line_part(PASS == 1 ? iy : ix, max(0, j * WD - WD / 2),
            min(len, j * WD + WD / 2));
}
