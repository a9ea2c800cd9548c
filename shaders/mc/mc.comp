#version 450
#extension GL_GOOGLE_include_directive : require

// daedalusmc: out(x, y) = in(x + dx, y + dy) with the VP9 filters, bit-exact
// with kernels/mc_ref.cc (docs/spec.md). One dispatch per plane, or per
// interleaved NV12/NV21 chroma pair (step 2: both channels at once).
//
// A workgroup writes MC_TILE_H rows x MC_TILE_W bytes; each invocation one
// 32-bit word, so no two invocations share a word. The source window of the
// tile (halo included) is staged in shared memory, each sample clamped into
// the plane on its own coordinates as the reference clamps every tap: a halo
// copied from an already clamped tile would be wrong at the plane's edges.

#include "mc_tile.h"

layout(local_size_x = MC_LOCAL_X, local_size_y = MC_LOCAL_Y) in;

// Taps per axis: 1 (no fraction: a plain read), 2 (bilinear) or 8 (VP9).
layout(constant_id = 0) const int TAPS_X = 1;
layout(constant_id = 1) const int TAPS_Y = 1;

layout(set = 0, binding = 0, std430) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1, std430) buffer Dst { uint dst[]; };

layout(push_constant, std430) uniform Push {
#include "mc_push.h"
} pc;

shared int s_in[MC_MAX_ROWS * MC_MAX_IN_W];  // source window (TAPS_X > 1)
// After the horizontal pass, 8-bit; the source window itself if TAPS_X == 1.
shared int s_mid[MC_MAX_ROWS * MC_TILE_W];

int read_byte(int address) {
  return int(src[address >> 2] >> (8 * (address & 3))) & 0xff;
}

int weight(int lo, int hi, int k) {
  return bitfieldExtract(k < 4 ? lo : hi, 8 * (k & 3), 8);
}

// 8 taps: (sum + 64) >> 7; bilinear: (sum + 8) >> 4, already in 0..255.
int round_clip(int sum, int taps) {
  const int shift = taps == 8 ? 7 : 4;
  return clamp((sum + (1 << (shift - 1))) >> shift, 0, 255);
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
  // - 1) is the sample of byte b and b & (step - 1) its channel.
  // Tile rows past what row_end - 1 reads are never used: they repeat that
  // row rather than read source rows a band's staging may not hold.
  const int last = pc.row_end + TAPS_Y - 2;
  for (int r = ly; r < rows; r += MC_LOCAL_Y) {
    const int y = clamp(min(y0 + r, last) - oy + pc.iy, 0, pc.height - 1);
    const int row = pc.src_offset + y * pc.src_stride;
    for (int b = lx; b < in_w; b += MC_LOCAL_X) {
      const int x = clamp(((x0 + b) >> (step - 1)) - ox + pc.ix, 0, pc.width - 1);
      const int v = read_byte(row + x * step + (b & (step - 1)));
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

  const int row_bytes = pc.width * step;
  const int gx = x0 + lx * 4;
  const int y = y0 + ly;
  if (gx < row_bytes && y < pc.row_end) {
    const int word = (pc.dst_offset + y * pc.dst_stride + gx) >> 2;
    // The last word of a row may reach into the row's padding: those bytes
    // are written back as they were.
    const uint old = gx + 4 > row_bytes ? dst[word] : 0u;
    uint packed = 0u;
    for (int j = 0; j < 4; j++) {
      const int b = lx * 4 + j;
      int v;
      if (gx + j >= row_bytes) {
        v = int(old >> (8 * j)) & 0xff;
      } else if (TAPS_Y > 1) {
        int sum = 0;
        for (int k = 0; k < TAPS_Y; k++)
          sum += wy[k] * s_mid[(ly + k) * MC_TILE_W + b];
        v = round_clip(sum, TAPS_Y);
      } else {
        v = s_mid[ly * MC_TILE_W + b];
      }
      packed |= uint(v) << (8 * j);
    }
    dst[word] = packed;
  }
}
