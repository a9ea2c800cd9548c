#version 450
#extension GL_GOOGLE_include_directive : require

// daedalusdeblock, mode=h264: bit-exact with
// kernels/filters/deblock/deblock_ref.cc (docs/spec.md). One dispatch per
// pass and plane group: pass 1 filters the vertical edges of every row, pass
// 2 (after a barrier) the horizontal edges of every column, on pass 1's
// output.
//
// Every dispatch reads one plane (src) and writes every word of another
// (dst), so no invocation reads what another writes; no two write the same
// word. Two ways to honour docs/spec.md's edge order
// (kernels/backends/gpu/deblock_vk.cc picks one per plane and says why each is
// exact):
// * GATHER: each word of dst is computed by the item that owns it, which
//   filters the (at most two) edges that write into it. Used where an edge's
//   result does not depend on the edges before it, or only on the previous
//   edge's q1', itself a function of unfiltered samples (the luma filter
//   with bs < 4 at block size 4: edge x + 4 reads the q1' of edge x as p2).
// * Runs: an item walks a whole row or word column in order, for the strong
//   luma filter at block size 4, where every edge depends on the one before.

#include "deblock_group.h"

layout(local_size_x = DEBLOCK_LOCAL_X, local_size_y = DEBLOCK_LOCAL_Y) in;

layout(constant_id = 0) const int PASS = 1;  // 1: vertical edges, 2: horizontal
layout(constant_id = 1) const int STEP = 1;  // 1, or 2 for an interleaved pair
layout(constant_id = 2) const int LUMA = 1;  // the luma filter, else chroma
layout(constant_id = 3) const int GATHER = 1;  // else runs
layout(constant_id = 4) const int DEPTH = 8;   // samples.h
layout(constant_id = 5) const int LSB = 0;

// Samples are units of words (samples.h). A dispatch writes every sample of
// the plane, its bits outside the value 0 (docs/spec.md "Decisions": what
// deblock writes); a row's padding units are copied as they are.
#include "samples.h"

layout(set = 0, binding = 0, std430) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1, std430) buffer Dst { uint dst[]; };

// The block as written: clang-format cannot see its members through the
// #include.
// clang-format off
layout(push_constant, std430) uniform Push {
#include "deblock_push.h"
} pc;
// clang-format on

// Samples an edge's filter reads on each side.
const int REACH = 2 + 2 * LUMA;

// v holds p3 p2 p1 p0 q0 q1 q2 q3 across one edge; the chroma filter reads
// and writes v[2..5] only. Every output comes from the unfiltered inputs;
// nothing changes unless `valid`. Selects rather than branches: neighbouring
// invocations take different paths.
void filter_edge(inout int v[8], bool valid) {
  const int alpha = pc.alpha, beta = pc.beta, tc0 = pc.tc0;
  const int p1 = v[2], p0 = v[3], q0 = v[4], q1 = v[5];
  const bool on = valid && abs(p0 - q0) < alpha && abs(p1 - p0) < beta &&
                  abs(q1 - q0) < beta;
  // bs is the same for the whole dispatch: these branches do not diverge.
  if (LUMA == 0) {
    if (pc.bs < 4) {
      const int tc = tc0 + 1;
      const int delta = clamp((((q0 - p0) << 2) + (p1 - q1) + 4) >> 3, -tc, tc);
      v[3] = on ? clamp(p0 + delta, 0, MAXV) : p0;
      v[4] = on ? clamp(q0 - delta, 0, MAXV) : q0;
    } else {
      v[3] = on ? (2 * p1 + p0 + q1 + 2) >> 2 : p0;
      v[4] = on ? (2 * q1 + q0 + p1 + 2) >> 2 : q0;
    }
    return;
  }

  const int p3 = v[0], p2 = v[1], q2 = v[6], q3 = v[7];
  const bool ap = abs(p2 - p0) < beta, aq = abs(q2 - q0) < beta;
  if (pc.bs < 4) {
    const int tc = tc0 + int(ap) + int(aq);
    const int delta = clamp((((q0 - p0) << 2) + (p1 - q1) + 4) >> 3, -tc, tc);
    const int avg = (p0 + q0 + 1) >> 1;
    v[3] = on ? clamp(p0 + delta, 0, MAXV) : p0;
    v[4] = on ? clamp(q0 - delta, 0, MAXV) : q0;
    v[2] = on && ap ? p1 + clamp((p2 + avg - (p1 << 1)) >> 1, -tc0, tc0) : p1;
    v[5] = on && aq ? q1 + clamp((q2 + avg - (q1 << 1)) >> 1, -tc0, tc0) : q1;
    return;
  }

  const bool small_gap = abs(p0 - q0) < ((alpha >> 2) + 2);
  const bool sp = on && ap && small_gap, sq = on && aq && small_gap;
  v[3] = sp   ? (p2 + 2 * p1 + 2 * p0 + 2 * q0 + q1 + 4) >> 3
         : on ? (2 * p1 + p0 + q1 + 2) >> 2
              : p0;
  v[2] = sp ? (p2 + p1 + p0 + q0 + 2) >> 2 : p1;
  v[1] = sp ? (2 * p3 + 3 * p2 + p1 + p0 + q0 + 4) >> 3 : p2;
  v[4] = sq   ? (q2 + 2 * q1 + 2 * q0 + 2 * p0 + p1 + 4) >> 3
         : on ? (2 * q1 + q0 + p1 + 2) >> 2
              : q0;
  v[5] = sq ? (q2 + q1 + q0 + p0 + 2) >> 2 : q1;
  v[6] = sq ? (2 * q3 + 3 * q2 + q1 + q0 + p0 + 4) >> 3 : q2;
}

// The q1' of the luma filter with bs < 4 (filter_edge), from the edge's
// p1 p0 q0 q1 q2.
int luma_q1(int p1, int p0, int q0, int q1, int q2, bool valid) {
  const int beta = pc.beta, tc0 = pc.tc0;
  const bool on = valid && abs(p0 - q0) < pc.alpha && abs(p1 - p0) < beta &&
                  abs(q1 - q0) < beta;
  const int avg = (p0 + q0 + 1) >> 1;
  return on && abs(q2 - q0) < beta
             ? q1 + clamp((q2 + avg - (q1 << 1)) >> 1, -tc0, tc0)
             : q1;
}

// Unit i of a word: its value when `inside` the row, else (padding) raw.
int get_unit(uint word, int i, bool inside) {
  return inside ? unit_value(word, i) : unit_raw(word, i);
}

uint put_unit(uint word, int i, int v, bool inside) {
  return inside ? set_unit_value(word, i, v) : set_unit_raw(word, i, v);
}

// ------------------------------------------------------------------ gather

// An item owns samples 4 j .. 4 j + 3 along the pass's axis: pass 1 the
// STEP * BYTES words holding them in row y, pass 2 rows 4 j .. 4 j + 3 of
// word column wx. Only edges at 4 j and 4 j + 4 write into them (an edge
// writes at most 3 samples either side), and with the edge before each (for
// q1') they read samples 4 j - 8 .. 4 j + 7: 16 per series, a series being a
// channel (pass 1) or a unit of the word (pass 2).
int g[4 * 16];  // series q, sample 4 j - 8 + i: g[16 q + i]

void gather(int j, int y_or_wx) {
  const int series = PASS == 1 ? STEP : UNITS;
  const int row_units = pc.width * STEP;
  const int words = (row_units * BYTES + 3) >> 2;  // per row
  const int item_words = STEP * BYTES;             // pass 1
  const int len = PASS == 1 ? pc.width : pc.height;

  if (PASS == 1) {
    const int row = (pc.src_offset + y_or_wx * pc.src_stride) >> 2;
    for (int t = 0; t < 4 * item_words; t++) {
      const int w = item_words * (j - 2) + t;
      const uint word = w >= 0 && w < words ? src[row + w] : 0u;
      for (int b = 0; b < UNITS; b++) {
        const int at = UNITS * t + b;  // unit of the window: sample at / STEP
        g[16 * (at & (STEP - 1)) + (at >> (STEP - 1))] =
            get_unit(word, b, UNITS * w + b < row_units);
      }
    }
  } else {
    for (int i = 0; i < 16; i++) {
      const int r = 4 * j - 8 + i;
      const uint word =
          r >= 0 && r < pc.height
              ? src[((pc.src_offset + r * pc.src_stride) >> 2) + y_or_wx]
              : 0u;
      for (int l = 0; l < UNITS; l++)
        g[16 * l + i] = get_unit(word, l, UNITS * y_or_wx + l < row_units);
    }
  }

  // Which of v[] an edge writes: p2..q2, p1..q1 or p0..q0.
  const int wlo = LUMA == 0 ? 3 : pc.bs == 4 ? 1 : 2;
  const bool chained = LUMA == 1 && pc.bs < 4 && pc.block_size == 4;
  int res[4 * 4];  // series q, sample 4 j + i: res[4 q + i]
  for (int q = 0; q < series; q++)
    for (int i = 0; i < 4; i++) res[4 * q + i] = g[16 * q + 8 + i];

  for (int e = 0; e < 2; e++) {
    const int x = 4 * j + 4 * e;  // the edge; v[k] is sample x - 4 + k
    const int i0 = 4 + 4 * e;     // ... that is g[16 q + i0 + k]
    const bool edge = (x & (pc.block_size - 1)) == 0 && x >= pc.block_size &&
                      x + REACH <= len;
    const bool before = chained && x - 4 >= pc.block_size;
    for (int q = 0; q < series; q++) {
      const bool valid = PASS == 1 || UNITS * y_or_wx + q < row_units;
      int v[8];
      for (int k = 4 - REACH; k < 4 + REACH; k++) v[k] = g[16 * q + i0 + k];
      if (chained) {
        // p2 is the q1' of the edge at x - 4, whose p1 .. q2 are v[-2..2].
        const int h = 16 * q + i0 - 4;
        v[1] = before ? luma_q1(g[h + 2], g[h + 3], g[h + 4], g[h + 5],
                                g[h + 6], valid)
                      : v[1];
      }
      filter_edge(v, edge && valid);
      // Only an edge writes: the write ranges of edges are disjoint.
      for (int k = 1; k < 7; k++) {
        const int i = i0 + k - 8;  // in the item when 0 <= i < 4
        if (edge && i >= 0 && i < 4 && k >= wlo && k < 8 - wlo)
          res[4 * q + i] = v[k];
      }
    }
  }

  if (PASS == 1) {
    const int row = (pc.dst_offset + y_or_wx * pc.dst_stride) >> 2;
    for (int t = 0; t < item_words; t++) {
      const int w = item_words * j + t;
      if (w >= words) break;
      uint word = 0u;
      for (int b = 0; b < UNITS; b++) {
        const int at = UNITS * t + b;
        word =
            put_unit(word, b, res[4 * (at & (STEP - 1)) + (at >> (STEP - 1))],
                     UNITS * w + b < row_units);
      }
      dst[row + w] = word;
    }
  } else {
    for (int i = 0; i < 4; i++) {
      const int r = 4 * j + i;
      if (r >= pc.height) break;
      uint word = 0u;
      for (int l = 0; l < UNITS; l++)
        word =
            put_unit(word, l, res[4 * l + i], UNITS * y_or_wx + l < row_units);
      dst[((pc.dst_offset + r * pc.dst_stride) >> 2) + y_or_wx] = word;
    }
  }
}

// -------------------------------------------------------------------- runs

// A run of edges (all of a row's or a word column's, B = 4, the luma filter)
// works on a line of 32-bit elements: pass 1 the words of a row, pass 2 the
// words of a word column, one per row. Edge e reads and writes elements
// [e A, e A + N), its window (starting at element 0: the first edge's p3 is
// sample 0); consecutive windows overlap by C elements. Elements go through
// registers unpacked, in chunks of K edges, the next chunk read ahead of this
// one's filtering; the line's elements past the last window are copied.
const int CHUNK = 4;  // new elements per chunk: K A
int u[4 * (CHUNK +
           4)];  // the chunk's elements: unit b of element i is u[UNITS i + b]
uint ahead[CHUNK];  // the next chunk's new elements

// The units of element e of the line that are samples: pass 1 those before
// the row's end, pass 2 the first `lanes`.
int inside_units(int e, int lanes) {
  return PASS == 1 ? clamp(pc.width * STEP - UNITS * e, 0, UNITS) : lanes;
}

// Element e of the line into u[] slot i, and back.
void unpack(int i, uint word, int e, int lanes) {
  const int inside = inside_units(e, lanes);
  for (int b = 0; b < UNITS; b++)
    u[UNITS * i + b] = get_unit(word, b, b < inside);
}

uint pack(int i, int e, int lanes) {
  const int inside = inside_units(e, lanes);
  uint word = 0u;
  for (int b = 0; b < UNITS; b++)
    word = put_unit(word, b, u[UNITS * i + b], b < inside);
  return word;
}

// Filters the edge whose window starts at element `at`. Pass 1: sample
// x - 4 + k of channel c is unit STEP k + c of the window; pass 2: row
// y - 4 + k is element at + k, whose `lanes` first units are samples.
void filter_at(int at, int lanes) {
  int v[8];
  if (PASS == 1) {
    for (int c = 0; c < STEP; c++) {
      for (int k = 0; k < 8; k++) v[k] = u[UNITS * at + STEP * k + c];
      filter_edge(v, true);
      for (int k = 0; k < 8; k++) u[UNITS * at + STEP * k + c] = v[k];
    }
  } else {
    for (int l = 0; l < UNITS; l++) {
      for (int k = 0; k < 8; k++) v[k] = u[UNITS * (at + k) + l];
      filter_edge(v, l < lanes);
      for (int k = 0; k < 8; k++) u[UNITS * (at + k) + l] = v[k];
    }
  }
}

// Element i of the line is src[s + i * sp] and dst[d + i * dp], i < length.
void run(int s, int d, int sp, int dp, int length, int lanes) {
  // Elements from a window to the next: 4 samples of STEP channels (pass 1),
  // 4 rows (pass 2).
  const int A = PASS == 1 ? STEP * BYTES : 4;
  const int N = 2 * A;  // the window: 8 samples
  const int C = N - A;
  const int K =
      PASS == 1 ? CHUNK >> (STEP + BYTES - 2) : CHUNK >> 2;  // CHUNK / A
  const int count = pc.edges;
  const int total = (count + 1) * A;  // elements the windows cover

  for (int i = 0; i < C; i++) unpack(i, src[s + i * sp], i, lanes);
  for (int i = 0; i < K * A; i++)
    if (C + i < total) ahead[i] = src[s + (C + i) * sp];

  for (int first = 0; first < count; first += K) {
    const int e0 = first * A;  // the element in u[0..UNITS - 1]
    for (int i = 0; i < K * A; i++) unpack(C + i, ahead[i], e0 + C + i, lanes);
    for (int i = 0; i < K * A; i++) {
      const int e = e0 + K * A + C + i;
      if (e < total) ahead[i] = src[s + e * sp];
    }

    for (int k = 0; k < K; k++)
      if (first + k < count) filter_at(k * A, lanes);

    // Later chunks start at element e0 + K A: what lies before is final.
    const int end = first + K >= count ? total : e0 + K * A;
    for (int i = 0; i < K * A + C; i++)
      if (e0 + i < end) dst[d + (e0 + i) * dp] = pack(i, e0 + i, lanes);
    for (int i = 0; i < UNITS * C; i++) u[i] = u[UNITS * K * A + i];
  }
  for (int e = total; e < length; e++)
    dst[d + e * dp] = clean_units(src[s + e * sp], inside_units(e, lanes));
}

void main() {
  // Lanes map to a (1 << items_x_log2) x (INVOCATIONS >> items_x_log2) block
  // of items, x fastest: shifts and masks, no division.
  const int lane = int(gl_LocalInvocationIndex);
  const int shift = pc.items_x_log2;
  const int ix = (int(gl_WorkGroupID.x) << shift) + (lane & ((1 << shift) - 1));
  const int iy =
      int(gl_WorkGroupID.y) * (DEBLOCK_INVOCATIONS >> shift) + (lane >> shift);
  if (ix >= pc.items_x || iy >= pc.items_y)
    return;  // the shader has no barrier

  if (GATHER == 1) {
    // Pass 1: x is the group of 4 samples, y the row; pass 2: x is the word
    // column, y the group of 4 rows.
    if (PASS == 1)
      gather(ix, iy);
    else
      gather(iy, ix);
    return;
  }

  // Runs: pass 1 an item is a row (y), pass 2 a word column (x).
  if (PASS == 1) {
    run((pc.src_offset + iy * pc.src_stride) >> 2,
        (pc.dst_offset + iy * pc.dst_stride) >> 2, 1, 1,
        (pc.width * STEP * BYTES + 3) >> 2, UNITS);
  } else {
    run((pc.src_offset >> 2) + ix, (pc.dst_offset >> 2) + ix,
        pc.src_stride >> 2, pc.dst_stride >> 2, pc.height,
        min(UNITS, pc.width * STEP - UNITS * ix));
  }
}
