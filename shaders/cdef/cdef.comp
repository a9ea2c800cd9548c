#version 450
#extension GL_GOOGLE_include_directive : require

// daedaluscdef: AV1 CDEF as a post-process, bit-exact with
// kernels/filters/cdef/cdef_ref.cc (docs/spec.md). Out of place: every tap
// reads the source.
//
// A workgroup owns a row of CDEF_BLOCKS luma 8x8 blocks and their
// co-located chroma blocks, in every plane of the frame (one dispatch per
// frame; a second only when the chroma planes live in different buffers).
// It stages each plane's tile plus a 2-sample halo in shared memory,
// unavailable samples (outside the plane, judged on each sample's own
// coordinates) marked NONE. The 16 invocations of a block search its
// direction, one direction and half of the lines each; then every
// invocation writes whole 32-bit words: the luma words of 4 samples of a
// block row (one word at 8 bits, two at 10), then its share of the chroma
// words (an NV12/NV21 word holds 2 U and 2 V samples of one block, a P010
// word one of each).

#include "cdef_tile.h"

layout(local_size_x = CDEF_LOCAL_X, local_size_y = CDEF_LOCAL_Y) in;

// Chroma subsampling (log2) and the chroma groups' step: 2 for one
// interleaved U/V group (subsampled chroma only), else 1.
layout(constant_id = 0) const int SSX = 1;
layout(constant_id = 1) const int SSY = 1;
layout(constant_id = 2) const int C_STEP = 1;
layout(constant_id = 3) const int DEPTH = 8;  // samples.h
layout(constant_id = 4) const int LSB = 0;

#include "samples.h"

// Staged chroma planes: C_ROWS x C_PITCH each, two at a time when
// subsampled, else one (CDEF_CHROMA_INTS holds either).
const int C_TILE_W = CDEF_TILE_W >> SSX;
const int C_TILE_H = CDEF_TILE_H >> SSY;
const int C_PITCH = C_TILE_W + 2 * CDEF_HALO;
const int C_ROWS = C_TILE_H + 2 * CDEF_HALO;
const int C_PLANE = C_PITCH * C_ROWS;
const int PASS_GROUPS = SSX + SSY != 0 ? 2 : 1;
const int C_WORDS_LOG2 = CDEF_TILE_W_LOG2 - SSX + (C_STEP - 1) - UNITS_LOG2;
const int C_ROWS_LOG2 = CDEF_TILE_H_LOG2 - SSY;

layout(set = 0, binding = 0, std430) readonly buffer LumaSrc {
  uint luma_src[];
};
layout(set = 0, binding = 1, std430) buffer LumaDst { uint luma_dst[]; };
layout(set = 0, binding = 2, std430) readonly buffer ChromaSrc {
  uint chroma_src[];
};
layout(set = 0, binding = 3, std430) buffer ChromaDst { uint chroma_dst[]; };

// The block as written: clang-format cannot see its members through the
// #include.
// clang-format off
layout(push_constant, std430) uniform Push {
#include "cdef_push.h"
} pc;
// clang-format on

// An unavailable tap: it adds nothing to the sum (constrain() of a
// difference this large is 0 for every strength and shift), nothing to the
// minimum, and nothing to the maximum once masked to DEPTH bits (0 <= px).
const int NONE = 0x10000;

shared int s_px[CDEF_LUMA_INTS + CDEF_CHROMA_INTS];  // luma, then chroma
shared int s_cost[CDEF_INVOCATIONS];  // [block][parity][direction]
shared int s_dir[CDEF_BLOCKS];
shared int s_var[CDEF_BLOCKS];

// AV1 Cdef_Directions as {row, column}, [dir * 2 + k].
const ivec2 kDirections[16] =
    ivec2[16](ivec2(-1, 1), ivec2(-2, 2), ivec2(0, 1), ivec2(-1, 2),
              ivec2(0, 1), ivec2(0, 2), ivec2(0, 1), ivec2(1, 2), ivec2(1, 1),
              ivec2(2, 2), ivec2(1, 0), ivec2(2, 1), ivec2(1, 0), ivec2(2, 0),
              ivec2(1, 0), ivec2(2, -1));
const int kDir422[8] = int[8](7, 0, 2, 4, 5, 6, 6, 6);

// The direction search's lines: line n of direction d holds the samples
// (i, j) = (a k + b n + c) for k = 0..7 that lie in the block (kLineI for
// the row i, kLineJ for the column j), each with its neighbour at (.w of
// both) when the direction pairs samples. This is cdef_ref.cc's partial[d]
// index inverted, e.g. d = 1: n = i + j / 2, so i = k, j = 2 n - 2 k (+1).
const ivec4 kLineI[8] =
    ivec4[8](ivec4(1, 0, 0, 0), ivec4(1, 0, 0, 0), ivec4(0, 1, 0, 0),
             ivec4(1, 0, 0, 0), ivec4(1, 0, 0, 0), ivec4(2, -2, 6, 1),
             ivec4(1, 0, 0, 0), ivec4(-2, 2, 0, 1));
const ivec4 kLineJ[8] =
    ivec4[8](ivec4(-1, 1, 0, 0), ivec4(-2, 2, 0, 1), ivec4(1, 0, 0, 0),
             ivec4(2, -2, 6, 1), ivec4(1, -1, 7, 0), ivec4(1, 0, 0, 0),
             ivec4(0, 1, 0, 0), ivec4(1, 0, 0, 0));
// 840 / samples on the line.
const int kDiv[9] = int[9](0, 840, 420, 280, 210, 168, 140, 120, 105);

// The value of the sample at byte `address`.
int read_luma(int address) {
  return unit_value(luma_src[address >> 2], (address & 3) >> (BYTES - 1));
}

int read_chroma(int address) {
  return unit_value(chroma_src[address >> 2], (address & 3) >> (BYTES - 1));
}

// s_px index of a tile sample: luma, or staged chroma plane `slot`.
int luma_at(int row, int col) {
  return (CDEF_HALO + row) * CDEF_PITCH + CDEF_HALO + col;
}

int chroma_at(int slot, int row, int col) {
  return CDEF_LUMA_INTS + slot * C_PLANE + (CDEF_HALO + row) * C_PITCH +
         CDEF_HALO + col;
}

int constrain(int diff, int threshold, int shift) {
  const int mag = min(abs(diff), max(0, threshold - (abs(diff) >> shift)));
  return diff < 0 ? -mag : mag;
}

int adjust_strength(int strength, int var) {
  if (var == 0) return 0;
  const int i = (var >> 6) != 0 ? min(findMSB(var >> 6), 12) : 0;
  return (strength * (4 + i) + 8) >> 4;
}

// One block's filter: strengths, shifts, weights and the taps' offsets in
// s_px (each tap is read at +offset and -offset). Strengths and damping come
// shifted by CS; the primary weights take the parity of the unshifted pri.
struct Taps {
  int pri, sec, pri_shift, sec_shift, pri_w0, pri_w1;
  int p0, p1, s0, s1, s2, s3;
};

int tap_offset(int dir, int k, int pitch) {
  const ivec2 o = kDirections[dir * 2 + k];
  return o.x * pitch + o.y;
}

Taps make_taps(int pri, int sec, int dir, int damping, int pitch) {
  Taps t;
  t.pri = pri;
  t.sec = sec;
  t.pri_shift = pri != 0 ? max(0, damping - findMSB(pri)) : 0;
  t.sec_shift = sec != 0 ? max(0, damping - findMSB(sec)) : 0;
  t.pri_w0 = 4 - ((pri >> CS) & 1);
  t.pri_w1 = (t.pri_w0 & 3) | 2;
  t.p0 = tap_offset(dir, 0, pitch);
  t.p1 = tap_offset(dir, 1, pitch);
  t.s0 = tap_offset((dir + 2) & 7, 0, pitch);
  t.s1 = tap_offset((dir + 2) & 7, 1, pitch);
  t.s2 = tap_offset((dir + 6) & 7, 0, pitch);
  t.s3 = tap_offset((dir + 6) & 7, 1, pitch);
  return t;
}

void tap_pair(int c, int offset, int px, int strength, int shift, int weight,
              inout int sum, inout int lo, inout int hi) {
  const int a = s_px[c + offset], b = s_px[c - offset];
  sum += weight * (constrain(a - px, strength, shift) +
                   constrain(b - px, strength, shift));
  lo = min(lo, min(a, b));
  hi = max(hi, max(a & MAXV, b & MAXV));
}

// The filtered sample at s_px[c], or the sample itself when both strengths
// are 0.
int filter_px(int c, Taps t) {
  const int px = s_px[c];
  int sum = 0, lo = px, hi = px;
  // Odd directions share a position between a primary and a secondary tap:
  // it counts in both sums, as in the reference.
  if (t.pri != 0) {
    tap_pair(c, t.p0, px, t.pri, t.pri_shift, t.pri_w0, sum, lo, hi);
    tap_pair(c, t.p1, px, t.pri, t.pri_shift, t.pri_w1, sum, lo, hi);
  }
  if (t.sec != 0) {
    tap_pair(c, t.s0, px, t.sec, t.sec_shift, 2, sum, lo, hi);
    tap_pair(c, t.s1, px, t.sec, t.sec_shift, 1, sum, lo, hi);
    tap_pair(c, t.s2, px, t.sec, t.sec_shift, 2, sum, lo, hi);
    tap_pair(c, t.s3, px, t.sec, t.sec_shift, 1, sum, lo, hi);
  }
  return clamp(px + ((8 + sum - int(sum < 0)) >> 4), lo, hi);
}

// Luma block (bx, by) of the frame lies wholly inside the plane.
bool whole_block(int bx, int by) {
  return 8 * bx + 8 <= pc.width && 8 * by + 8 <= pc.height;
}

// ... and its chroma block lies wholly inside the chroma planes.
bool whole_chroma_block(int bx, int by) {
  return whole_block(bx, by) &&
         ((8 * bx) >> SSX) + (8 >> SSX) <= pc.chroma_width &&
         ((8 * by) >> SSY) + (8 >> SSY) <= pc.chroma_height;
}

void main() {
  const int t = int(gl_LocalInvocationIndex);
  const int bx0 = int(gl_WorkGroupID.x) << CDEF_BLOCKS_X_LOG2;
  const int by0 = int(gl_WorkGroupID.y) << CDEF_BLOCKS_Y_LOG2;
  const int x0 = bx0 * 8, y0 = by0 * 8;
  const int cx0 = x0 >> SSX, cy0 = y0 >> SSY;
  // Staging loops walk (row, column) from (t >> 5, t & 31) in steps of
  // (8, 32): no division by a pitch.
  const int r0 = t >> 5, c0 = t & 31;

  for (int r = r0; r < CDEF_ROWS; r += CDEF_INVOCATIONS >> 5) {
    const int y = y0 - CDEF_HALO + r;
    for (int c = c0; c < CDEF_PITCH; c += 32) {
      const int x = x0 - CDEF_HALO + c;
      const bool inside = x >= 0 && y >= 0 && x < pc.width && y < pc.height;
      s_px[r * CDEF_PITCH + c] =
          inside ? read_luma(pc.luma_src_offset + y * pc.luma_src_stride +
                             x * BYTES)
                 : NONE;
    }
  }
  memoryBarrierShared();
  barrier();

  // Direction search: invocation t computes direction t & 7 over the lines
  // of parity (t >> 3) & 1 of block t >> 4.
  {
    const int b = t >> 4, d = t & 7, parity = (t >> 3) & 1;
    const int bx = b & ((1 << CDEF_BLOCKS_X_LOG2) - 1);
    const int by = b >> CDEF_BLOCKS_X_LOG2;
    int cost = 0;
    if ((pc.pri_strength > 0 || pc.uv_pri_strength > 0) &&
        whole_block(bx0 + bx, by0 + by)) {
      const ivec4 li = kLineI[d], lj = kLineJ[d];
      const int base = luma_at(8 * by, 8 * bx);
      const bool paired = li.w + lj.w != 0;
      const int neighbour = li.w * CDEF_PITCH + lj.w;
      for (int n = parity; n < 15; n += 2) {
        int sum = 0, count = 0;
        for (int k = 0; k < 8; k++) {
          const int i = li.x * k + li.y * n + li.z;
          const int j = lj.x * k + lj.y * n + lj.z;
          if (uint(i) < 8u && uint(j) < 8u) {
            const int c = base + i * CDEF_PITCH + j;
            sum += (s_px[c] >> CS) - 128;
            count++;
            if (paired) {
              sum += (s_px[c + neighbour] >> CS) - 128;
              count++;
            }
          }
        }
        cost += sum * sum * kDiv[count];
      }
    }
    s_cost[t] = cost;
  }
  memoryBarrierShared();
  barrier();

  if ((t & 15) == 0) {
    int cost[8];
    int best = 0, best_cost = 0;
    for (int d = 0; d < 8; d++) {
      cost[d] = s_cost[t + d] + s_cost[t + 8 + d];
      if (cost[d] > best_cost) {
        best_cost = cost[d];
        best = d;
      }
    }
    s_dir[t >> 4] = best;
    // The gain over the orthogonal direction, divided by 1024 instead of 840.
    s_var[t >> 4] = (best_cost - cost[(best + 4) & 7]) >> 10;
  }
  memoryBarrierShared();
  barrier();

  // Luma: 4 samples of tile row t >> 5 per invocation, in BYTES words; store
  // h writes words h * 32 + (t & 31) of the row, so the lanes of one store
  // write consecutive words (at 10 bits, a lane's two words side by side
  // made every store strided: 24x slower into host memory on NVIDIA).
  {
    const int lane = t & ((1 << CDEF_WORDS_LOG2) - 1);
    const int row = t >> CDEF_WORDS_LOG2;
    const int y = y0 + row;
    for (int h = 0; h < BYTES; h++) {
      const int col = ((h << CDEF_WORDS_LOG2) + lane) * UNITS;
      const int xw = x0 + col;  // the word's first sample
      if (pc.luma_out == 0 || xw >= pc.width || y >= pc.height) break;
      const int b = ((row >> 3) << CDEF_BLOCKS_X_LOG2) + (col >> 3);
      int pri = 0, sec = 0, dir = 0;
      if (whole_block(bx0 + (col >> 3), by0 + (row >> 3))) {
        pri = adjust_strength(pc.pri_strength << CS, s_var[b]);
        sec = pc.sec_strength << CS;
        dir = pc.pri_strength > 0 ? s_dir[b] : 0;
      }
      const Taps taps = make_taps(pri, sec, dir, pc.damping + CS, CDEF_PITCH);
      const int word =
          (pc.luma_dst_offset + y * pc.luma_dst_stride + xw * BYTES) >> 2;
      // The last word of a row may reach into the row's padding: those
      // bytes are written back as they were.
      uint packed = xw + UNITS > pc.width ? luma_dst[word] : 0u;
      for (int q = 0; q < UNITS; q++)
        if (xw + q < pc.width)
          packed =
              set_unit_value(packed, q, filter_px(luma_at(row, col + q), taps));
      luma_dst[word] = packed;
    }
  }

  // Chroma, in passes of PASS_GROUPS groups: words of UNITS units in rows of
  // C_TILE_W * C_STEP units. Blocks are 4 or 8 samples wide, so a word
  // never spans two of them.
  const int row_units = pc.chroma_width * C_STEP;
  for (int g0 = 0; g0 < pc.chroma_groups; g0 += PASS_GROUPS) {
    const int groups = min(PASS_GROUPS, pc.chroma_groups - g0);
    if (g0 > 0) {  // the previous pass has read its planes
      memoryBarrierShared();
      barrier();
    }
    // Slot s holds group g0 + (s >> (C_STEP - 1)), channel s & (C_STEP - 1).
    for (int s = 0; s < groups * C_STEP; s++) {
      const bool first = g0 + (s >> (C_STEP - 1)) == 0;
      const int offset = (first ? pc.c0_src_offset : pc.c1_src_offset) +
                         (s & (C_STEP - 1)) * BYTES;
      const int stride = first ? pc.c0_src_stride : pc.c1_src_stride;
      for (int r = r0; r < C_ROWS; r += CDEF_INVOCATIONS >> 5) {
        const int y = cy0 - CDEF_HALO + r;
        for (int c = c0; c < C_PITCH; c += 32) {
          const int x = cx0 - CDEF_HALO + c;
          const bool inside =
              x >= 0 && y >= 0 && x < pc.chroma_width && y < pc.chroma_height;
          s_px[CDEF_LUMA_INTS + s * C_PLANE + r * C_PITCH + c] =
              inside ? read_chroma(offset + y * stride + x * C_STEP * BYTES)
                     : NONE;
        }
      }
    }
    memoryBarrierShared();
    barrier();

    const int words = groups << (C_WORDS_LOG2 + C_ROWS_LOG2);
    for (int i = t; i < words; i += CDEF_INVOCATIONS) {
      const int slot_group = i >> (C_WORDS_LOG2 + C_ROWS_LOG2);
      const bool first = g0 + slot_group == 0;
      const int r = (i >> C_WORDS_LOG2) & ((1 << C_ROWS_LOG2) - 1);
      const int u0 = (i & ((1 << C_WORDS_LOG2) - 1)) * UNITS;  // tile unit
      const int cy = cy0 + r, cu = cx0 * C_STEP + u0;
      if (cy >= pc.chroma_height || cu >= row_units) continue;

      const int bx = (u0 >> (C_STEP - 1)) >> (3 - SSX), by = r >> (3 - SSY);
      int pri = 0, sec = 0, dir = 0;
      if (whole_chroma_block(bx0 + bx, by0 + by)) {
        const int d = s_dir[(by << CDEF_BLOCKS_X_LOG2) + bx];
        pri = pc.uv_pri_strength << CS;
        sec = pc.uv_sec_strength << CS;
        dir = pri > 0 ? (SSX == 1 && SSY == 0 ? kDir422[d] : d) : 0;
      }
      const Taps taps = make_taps(pri, sec, dir, pc.damping - 1 + CS, C_PITCH);
      const int word =
          ((first ? pc.c0_dst_offset : pc.c1_dst_offset) +
           cy * (first ? pc.c0_dst_stride : pc.c1_dst_stride) + cu * BYTES) >>
          2;
      uint packed = cu + UNITS > row_units ? chroma_dst[word] : 0u;
      for (int q = 0; q < UNITS; q++) {
        // Unit u0 + q: channel (u0 + q) & 1 of an interleaved pair.
        const int unit = u0 + q;
        const int slot = slot_group * C_STEP + (unit & (C_STEP - 1));
        if (cu + q < row_units)
          packed = set_unit_value(
              packed, q,
              filter_px(chroma_at(slot, r, unit >> (C_STEP - 1)), taps));
      }
      chroma_dst[word] = packed;
    }
  }
}
