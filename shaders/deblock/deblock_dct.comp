#version 450
#extension GL_GOOGLE_include_directive : require

// daedalusdeblock, mode=dct: bit-exact with
// kernels/filters/deblock/deblock_dct_ref.cc (docs/spec.md). One dispatch
// per plane group, out of place (src and dst never overlap).
//
// A workgroup stages the mirrored source square around its tile (both
// channels of an interleaved pair at 8 bits; at 10 bits, whose samples take
// twice the room, one channel, then the other), then, channel by channel
// and shift by shift, works every block of the shift that meets the tile:
// 8 invocations per block run the forward pass 1 on a column each; after a
// barrier, pass 2 on a row each, the threshold and VP9's inverse on the same
// row (both work on rows of the coefficients, so no exchange is needed
// between them); after another, VP9's inverse on a column each, whose
// reconstructions are added to the tile's per-sample sums. The blocks of one
// shift are disjoint, so a sum has one writer between two barriers. Finally
// every invocation writes whole words of the tile.
//
// Ranges (docs/spec.md, "High bit depth" for DEPTH 10), interval bounds
// at 8 | 10 bits: pass-1 values within +-2414 | +-9656, so they cross
// shared memory as 16-bit halves; pass-2 sums of 8 values within +-19312 |
// +-77248, and their products with M's constants under 2^29 | 2^31 (1.27 *
// 10^9 at most). The inverse clips every value it stores to 7 + DEPTH bits
// and a sign; the products and sums inside a butterfly stay under 2^31 on
// any 16-bit input, and at 10 bits on every coefficient set the forward
// transform and the threshold make (under 1.6 * 10^9: the spec's "32 bits
// suffice"; InverseFitsThirtyTwoBitsOnForwardOutputs in
// deblock_dct_test.cc), so int32 is exact. The row pass's values cross
// shared memory as 16-bit halves plus, at 10 bits, their top two bits in a
// word per row. A sum of reconstructions is at most 64 * MAXV < 2^16, so
// the two channels of a sample share a word. Samples are units of 32-bit
// words (samples.h): no 8- or 16-bit storage. int32 only, no subgroup
// operation, every barrier in uniform control flow.

#include "deblock_dct_tile.h"

layout(local_size_x = DCT_LOCAL_X, local_size_y = DCT_LOCAL_Y) in;

layout(constant_id = 0) const int STEP = 1;   // 1, or 2 for an interleaved pair
layout(constant_id = 1) const int DEPTH = 8;  // samples.h
layout(constant_id = 2) const int LSB = 0;

#include "samples.h"

// Channels staged at a time: s_in holds DCT_STAGED_BYTES of units.
const int STAGED = BYTES == 1 ? STEP : 1;
const int SPAN_WORDS = DCT_SPAN >> UNITS_LOG2;  // words of a staged row

layout(set = 0, binding = 0, std430) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1, std430) buffer Dst { uint dst[]; };

// The block as written: clang-format cannot see its members through the
// #include.
// clang-format off
layout(push_constant, std430) uniform Push {
#include "deblock_dct_push.h"
} pc;
// clang-format on

// Staged values of staged channel c, row y, column x (DCT_SPAN square,
// UNITS a word): plane sample (tx - DCT_HALO + x, ty - DCT_HALO + y),
// mirrored.
shared uint s_in[DCT_STAGED_BYTES / 4];
// The sums of the tile's samples: channel c in bits 16c .. 16c + 15.
shared uint s_sum[DCT_TILE * DCT_TILE];
// Per block slot, 32 words: pass 1's V[v][c], pairs along v at word
// (v / 2) * 8 + c; the inverse rows' R[v][x], pairs along x at v * 4 + x / 2.
shared uint s_v[DCT_SLOTS * 32];
shared uint s_r[DCT_SLOTS * 32];
// At 10 bits, bits 16 and 17 of R[v][x] at bits 2x, 2x + 1 of word v.
shared uint s_r_top[DCT_SLOTS * 8];

// ----------------------------------------------------- the transform pair

// M(v, k) of docs/spec.md.
int mul15(int v, int k) { return (v * k + (1 << 14)) >> 15; }

// K1..K7 of pass 1 (K4 unused); pass 2 uses half of each.
const int K_PASS1[8] = int[8](0, 45451, 42813, 38531, 0, 25746, 17734, 9041);
const int K_PASS2[8] = int[8](0, 22725, 21407, 19266, 0, 12873, 8867, 4520);

// The forward 1D transform F_p of docs/spec.md, in place.
void forward(inout int x[8], bool pass1) {
  const int s0 = x[0] + x[7], s1 = x[1] + x[6], s2 = x[2] + x[5],
            s3 = x[3] + x[4];
  const int d0 = x[0] - x[7], d1 = x[1] - x[6], d2 = x[2] - x[5],
            d3 = x[3] - x[4];
  const int e0 = s0 + s3, e1 = s1 + s2, e2 = s1 - s2, e3 = s0 - s3;
  const int k1 = pass1 ? K_PASS1[1] : K_PASS2[1],
            k2 = pass1 ? K_PASS1[2] : K_PASS2[2];
  const int k3 = pass1 ? K_PASS1[3] : K_PASS2[3],
            k5 = pass1 ? K_PASS1[5] : K_PASS2[5];
  const int k6 = pass1 ? K_PASS1[6] : K_PASS2[6],
            k7 = pass1 ? K_PASS1[7] : K_PASS2[7];
  x[0] = pass1 ? e0 + e1 : mul15(e0 + e1, 16384);
  x[4] = pass1 ? e0 - e1 : mul15(e0 - e1, 16384);
  x[2] = mul15(e2, k6) + mul15(e3, k2);
  x[6] = mul15(e3, k6) - mul15(e2, k2);
  const int t0 = mul15(d1 - d2, 23170), t1 = mul15(d1 + d2, 23170);
  const int o0 = d3 + t0, o1 = d3 - t0, o2 = d0 - t1, o3 = d0 + t1;
  x[1] = mul15(o0, k7) + mul15(o3, k1);
  x[7] = mul15(o3, k7) - mul15(o0, k1);
  x[5] = mul15(o1, k3) + mul15(o2, k5);
  x[3] = mul15(o2, k3) - mul15(o1, k5);
}

// The inverse's clip: 7 + DEPTH bits and a sign (16 bits at 8, 18 at 10).
const int STORED_MAX = (1 << (7 + DEPTH)) - 1;
int clip_stored(int v) { return clamp(v, -STORED_MAX - 1, STORED_MAX); }

// VP9's cospi_k_64 for the angles idct8 uses.
const int COS4 = 16069, COS8 = 15137, COS12 = 13623, COS16 = 11585;
const int COS20 = 9102, COS24 = 6270, COS28 = 3196;

// A butterfly rotation: Round2(a c1 + b c2, 14), stored clipped.
int rotate(int a, int c1, int b, int c2) {
  return clip_stored((a * c1 + b * c2 + (1 << 13)) >> 14);
}

// VP9's idct8 with every stored value clipped, in place (the stage form of
// kernels/common/dct8.cc).
void inverse(inout int t[8]) {
  const int a4 = rotate(t[1], COS28, t[7], -COS4);
  const int a7 = rotate(t[1], COS4, t[7], COS28);
  const int a5 = rotate(t[5], COS12, t[3], -COS20);
  const int a6 = rotate(t[5], COS20, t[3], COS12);
  const int b0 = rotate(t[0], COS16, t[4], COS16);
  const int b1 = rotate(t[0], COS16, t[4], -COS16);
  const int b2 = rotate(t[2], COS24, t[6], -COS8);
  const int b3 = rotate(t[2], COS8, t[6], COS24);
  const int b4 = clip_stored(a4 + a5), b5 = clip_stored(a4 - a5);
  const int b6 = clip_stored(a7 - a6), b7 = clip_stored(a7 + a6);
  const int c0 = clip_stored(b0 + b3), c1 = clip_stored(b1 + b2);
  const int c2 = clip_stored(b1 - b2), c3 = clip_stored(b0 - b3);
  const int c5 = rotate(b6, COS16, b5, -COS16);
  const int c6 = rotate(b6, COS16, b5, COS16);
  t[0] = clip_stored(c0 + b7);
  t[1] = clip_stored(c1 + c6);
  t[2] = clip_stored(c2 + c5);
  t[3] = clip_stored(c3 + b4);
  t[4] = clip_stored(c3 - b4);
  t[5] = clip_stored(c2 - c5);
  t[6] = clip_stored(c1 - c6);
  t[7] = clip_stored(c0 - b7);
}

// ------------------------------------------------------------- helpers

uint pack2(int lo, int hi) { return (uint(lo) & 0xffffu) | (uint(hi) << 16); }
int half_of(uint word, int h) { return bitfieldExtract(int(word), 16 * h, 16); }

// docs/spec.md's refl(t, n) for t >= -16 n; most samples lie inside the
// plane and skip the division (V3D has no integer divider).
int refl(int t, int n) {
  if (uint(t) < uint(n)) return t;
  const int m = (t + 16 * n) % (2 * n);
  return m < n ? m : 2 * n - 1 - m;
}

int staged(int c, int y, int x) {
  return unit_raw(s_in[(c * DCT_SPAN + y) * SPAN_WORDS + (x >> UNITS_LOG2)],
                  x & (UNITS - 1));
}

// The row pass's values R[v][.] of the slot whose s_r words start at v0:
// stored as 16-bit halves, and at 10 bits their top bits; one writer per
// word (the invocation of row v).
void store_row(int v0, int v, int r[8]) {
  for (int i = 0; i < 4; i++)
    s_r[v0 + v * 4 + i] = pack2(r[2 * i], r[2 * i + 1]);
  if (DEPTH > 8) {
    uint top = 0u;
    for (int x = 0; x < 8; x++) top |= uint((r[x] >> 16) & 3) << (2 * x);
    s_r_top[v0 / 4 + v] = top;
  }
}

// R[v][x], sign-extended from 16 or 18 bits.
int row_value(int v0, int v, int x) {
  const uint word = s_r[v0 + v * 4 + (x >> 1)];
  if (DEPTH == 8) return half_of(word, x & 1);
  const int top = bitfieldExtract(int(s_r_top[v0 / 4 + v]), 2 * x, 2);
  return (top << 16) | int(bitfieldExtract(word, 16 * (x & 1), 16));
}

// The offset (sx, sy) of shift k of pc.shifts (dct_shift()).
const int SPREAD[8] = int[8](0, 4, 2, 6, 1, 5, 3, 7);
ivec2 shift_of(int k) {
  if (pc.shifts <= 8) {
    const int m = 8 >> findMSB(pc.shifts);
    return ivec2((3 * m * k) & 7, m * k);
  }
  const int b = k & 7;
  return ivec2((3 * b + SPREAD[k >> 3]) & 7, b);
}

// ------------------------------------------------------------------ main

void main() {
  const int inv = int(gl_LocalInvocationIndex);
  const int tx = int(gl_WorkGroupID.x) * DCT_TILE,
            ty = int(gl_WorkGroupID.y) * DCT_TILE;
  for (int i = inv; i < DCT_TILE * DCT_TILE; i += DCT_INVOCATIONS)
    s_sum[i] = 0u;

  // This invocation's block slot and its column (then row) in the block.
  const int slot = inv >> 3, lane = inv & 7;
  const int bi = slot % DCT_SLOTS_SIDE, bj = slot / DCT_SLOTS_SIDE;
  const int v0 = slot * 32;
  for (int c0 = 0; c0 < STEP; c0 += STAGED) {
    // Stage channels c0 .. c0 + STAGED - 1: a word of UNITS values per
    // step. Rows past the readable ones are only ever mirrored images that
    // no output row needs; they read the last readable row instead. s_in
    // is last read before the last shift's first barrier, so the second
    // channel's staging needs no barrier of its own.
    for (int c = 0; c < STAGED; c++)
      for (int i = inv; i < DCT_SPAN * SPAN_WORDS; i += DCT_INVOCATIONS) {
        const int y = i / SPAN_WORDS, wx = i - y * SPAN_WORDS;
        const int row =
            min(refl(ty - DCT_HALO + y, pc.height), pc.src_rows - 1);
        const int base = pc.src_offset + row * pc.src_stride + BYTES * (c0 + c);
        uint word = 0u;
        for (int b = 0; b < UNITS; b++) {
          const int at =
              base +
              STEP * BYTES * refl(tx - DCT_HALO + UNITS * wx + b, pc.width);
          word = set_unit_raw(
              word, b, unit_value(src[at >> 2], (at & 3) >> (BYTES - 1)));
        }
        s_in[(c * DCT_SPAN + y) * SPAN_WORDS + wx] = word;
      }
    barrier();

    for (int c = 0; c < STAGED; c++)
      for (int k = 0; k < pc.shifts; k++) {
        // Slot (bi, bj) is the block at (tx + sx - 8 + 8 bi, ty + sy - 8 + 8
        // bj): it meets the tile unless its offset is 0 and it is the first
        // (then the block before the tile); it exists while it starts inside
        // the plane, and matters while it meets the output rows.
        const ivec2 s = shift_of(k);
        const int lx = s.x + 8 * bi, ly = s.y + 8 * bj;  // in the staged square
        const int bx = tx - DCT_HALO + lx, by = ty - DCT_HALO + ly;
        const bool present = slot < DCT_SLOTS && bx + 8 > tx && by + 8 > ty &&
                             bx < pc.width && by < pc.rows;
        if (present) {
          int x[8];
          for (int i = 0; i < 8; i++)
            x[i] = 2 * (staged(c, ly + i, lx + lane) - (128 << CS));
          forward(x, true);
          for (int i = 0; i < 4; i++)
            s_v[v0 + i * 8 + lane] = pack2(x[2 * i], x[2 * i + 1]);
        }
        barrier();
        if (present) {
          int x[8];
          for (int u = 0; u < 8; u++)
            x[u] = half_of(s_v[v0 + (lane >> 1) * 8 + u], lane & 1);
          forward(x, false);
          for (int u = 0; u < 8; u++)
            if ((lane != 0 || u != 0) && abs(x[u]) <= pc.threshold) x[u] = 0;
          inverse(x);
          store_row(v0, lane, x);
        }
        barrier();
        if (present) {
          int t[8];
          for (int i = 0; i < 8; i++) t[i] = row_value(v0, i, lane);
          inverse(t);
          const int px = bx + lane - tx;
          for (int i = 0; i < 8; i++) {
            const int py = by + i - ty;
            const int q = clamp((128 << CS) + ((t[i] + 16) >> 5), 0, MAXV);
            if (px >= 0 && px < DCT_TILE && py >= 0 && py < DCT_TILE)
              s_sum[py * DCT_TILE + px] += uint(q) << (16 * (c0 + c));
          }
        }
      }
  }
  barrier();

  // Write: a word of the tile's rows per step, every value with its other
  // bits 0; a row's last word keeps the units past the plane (its padding)
  // as they were.
  const int log2n = findMSB(pc.shifts);
  const int row_units = DCT_TILE * STEP;
  const int row_words = row_units >> UNITS_LOG2;
  for (int i = inv; i < DCT_TILE * row_words; i += DCT_INVOCATIONS) {
    const int r = i / row_words, y = ty + r;
    const int first =
        tx * STEP + UNITS * (i - r * row_words);  // unit of the row
    if (y >= pc.rows || first >= pc.width * STEP) continue;
    const int word = (pc.dst_offset + y * pc.dst_stride + BYTES * first) >> 2;
    const uint old = first + UNITS > pc.width * STEP ? dst[word] : 0u;
    uint packed = 0u;
    for (int b = 0; b < UNITS; b++) {
      const int x = (first + b) / STEP, c = (first + b) - x * STEP;
      const uint sum =
          bitfieldExtract(s_sum[r * DCT_TILE + x - tx], 16 * c, 16);
      packed = x < pc.width
                   ? set_unit_value(packed, b,
                                    int((sum + uint(pc.shifts >> 1)) >> log2n))
                   : set_unit_raw(packed, b, unit_raw(old, b));
    }
    dst[word] = packed;
  }
}
