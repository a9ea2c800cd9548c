#version 450
#extension GL_GOOGLE_include_directive : require

// daedalusmc: out(x, y) = in(x + dx, y + dy) with the VP9 filters, bit-exact
// with kernels/filters/mc/mc_ref.cc (docs/spec.md). One dispatch per plane,
// or per interleaved NV12/NV21 chroma pair (step 2: both channels at once).
//
// A workgroup writes MC_TILE_H rows x MC_TILE_W units (samples of either
// channel, samples.h); each invocation 4 units, one 32-bit word at 8 bits,
// two at 10, so no two invocations share a word. The source window of the
// tile (halo included) is staged in shared memory, each sample clamped into
// the plane on its own coordinates as the reference clamps every tap: a halo
// copied from an already clamped tile would be wrong at the plane's edges.

#include "mc_tile.h"

layout(local_size_x = MC_LOCAL_X, local_size_y = MC_LOCAL_Y) in;

// Taps per axis: 1 (no fraction: a plain read), 2 (bilinear) or 8 (VP9).
layout(constant_id = 0) const int TAPS_X = 1;
layout(constant_id = 1) const int TAPS_Y = 1;
layout(constant_id = 2) const int DEPTH = 8;  // samples.h
layout(constant_id = 3) const int LSB = 0;

#include "samples.h"

layout(set = 0, binding = 0, std430) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1, std430) buffer Dst { uint dst[]; };

// The block as written: clang-format cannot see its members through the
// #include.
// clang-format off
layout(push_constant, std430) uniform Push {
#include "mc_push.h"
} pc;
// clang-format on

shared int s_in[MC_MAX_ROWS * MC_MAX_IN_W];  // source window (TAPS_X > 1)
// After the horizontal pass, DEPTH bits; the source window itself if
// TAPS_X == 1.
shared int s_mid[MC_MAX_ROWS * MC_TILE_W];

// The value of the sample at byte `address`.
int read_sample(int address) {
  return unit_value(src[address >> 2], (address & 3) >> (BYTES - 1));
}

int weight(int lo, int hi, int k) {
  return bitfieldExtract(k < 4 ? lo : hi, 8 * (k & 3), 8);
}

// 8 taps: (sum + 64) >> 7; bilinear: (sum + 8) >> 4, already in 0..MAXV.
int round_clip(int sum, int taps) {
  const int shift = taps == 8 ? 7 : 4;
  return clamp((sum + (1 << (shift - 1))) >> shift, 0, MAXV);
}

void main() {
  const int step = pc.step;
  const int lx = int(gl_LocalInvocationID.x);
  const int ly = int(gl_LocalInvocationID.y);
  const int x0 = int(gl_WorkGroupID.x) * MC_TILE_W;  // a multiple of step
  const int y0 = int(gl_WorkGroupID.y) * MC_TILE_H;
  // Tap k of an 8-tap filter reads sample c + k - 3, of bilinear c + k.
  const int ox = TAPS_X == 8 ? 3 : 0;
  const int oy = TAPS_Y == 8 ? 3 : 0;
  const int in_w = MC_TILE_W + (TAPS_X - 1) * step;
  const int rows = MC_TILE_H + TAPS_Y - 1;

  int wx[8], wy[8];
  for (int k = 0; k < 8; k++) {
    wx[k] = weight(pc.taps_x_lo, pc.taps_x_hi, k);
    wy[k] = weight(pc.taps_y_lo, pc.taps_y_hi, k);
  }

  // Loops stride by the workgroup's shape rather than dividing a flat
  // index: V3D has no integer divider. With step 1 or 2, (x0 + b) >> (step
  // - 1) is the sample of unit b and b & (step - 1) its channel.
  // Tile rows past what row_end - 1 reads are never used: they repeat that
  // row rather than read source rows a band's staging may not hold.
  const int last = pc.row_end + TAPS_Y - 2;
  for (int r = ly; r < rows; r += MC_LOCAL_Y) {
    const int y = clamp(min(y0 + r, last) - oy + pc.iy, 0, pc.height - 1);
    const int row = pc.src_offset + y * pc.src_stride;
    for (int b = lx; b < in_w; b += MC_LOCAL_X) {
      const int x =
          clamp(((x0 + b) >> (step - 1)) - ox + pc.ix, 0, pc.width - 1);
      const int v = read_sample(row + (x * step + (b & (step - 1))) * BYTES);
      if (TAPS_X > 1)
        s_in[r * in_w + b] = v;
      else
        s_mid[r * MC_TILE_W + b] = v;
    }
  }
  memoryBarrierShared();
  barrier();

  if (TAPS_X > 1) {
    for (int r = ly; r < rows; r += MC_LOCAL_Y)
      for (int b = lx; b < MC_TILE_W; b += MC_LOCAL_X) {
        int sum = 0;
        for (int k = 0; k < TAPS_X; k++)
          sum += wx[k] * s_in[r * in_w + b + k * step];
        s_mid[r * MC_TILE_W + b] = round_clip(sum, TAPS_X);
      }
    memoryBarrierShared();
    barrier();
  }

  const int row_units = pc.width * step;
  const int y = y0 + ly;
  // Store h writes words h * MC_LOCAL_X + lx of the tile row, so the lanes
  // of one store write consecutive words (at 10 bits, a lane's two words
  // side by side made every store strided: 24x slower into host memory on
  // NVIDIA).
  for (int h = 0; h < BYTES && y < pc.row_end; h++) {
    const int u0 = (h * MC_LOCAL_X + lx) * UNITS;  // the word's first unit
    const int gx = x0 + u0;
    if (gx >= row_units) break;
    const int word = (pc.dst_offset + y * pc.dst_stride + gx * BYTES) >> 2;
    // The last word of a row may reach into the row's padding: those units
    // are written back as they were.
    uint packed = gx + UNITS > row_units ? dst[word] : 0u;
    for (int j = 0; j < UNITS; j++) {
      if (gx + j >= row_units) break;
      const int b = u0 + j;
      int v;
      if (TAPS_Y > 1) {
        int sum = 0;
        for (int k = 0; k < TAPS_Y; k++)
          sum += wy[k] * s_mid[(ly + k) * MC_TILE_W + b];
        v = round_clip(sum, TAPS_Y);
      } else {
        v = s_mid[ly * MC_TILE_W + b];
      }
      packed = set_unit_value(packed, j, v);
    }
    dst[word] = packed;
  }
}
