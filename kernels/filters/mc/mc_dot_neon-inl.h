// The aarch64 dot-product island of mc's 8-bit 8-tap passes, for
// mc_simd.cc, which includes it inside its NEON target's namespace after
// Window (hence no include guard and no includes of its own). Highway 1.0.3
// has no such ops: these functions are compiled for NEON plus the Armv8.2
// dot-product instructions and run only where mc_cpu_has_dot_products()
// finds HWCAP_ASIMDDP (the Raspberry Pi 5's Cortex-A76 has them).
//
// sdot multiplies 4 signed bytes by 4 signed bytes and adds the 4 products
// to a 32-bit lane: two of them give an output's 8 taps. Samples are
// unsigned, so they enter as s = u - 128 (an exclusive or of the top bit),
// and the bias adds back 128 * (the sum of the taps), which makes each sum
// exact. tbl builds each lane's 4 samples from one 16-byte load.

// (+crypto: the NEON target's own functions, which Highway compiles with
// it, inline only into functions that have it too.)
#define DAEDALUS_MC_DOT_ATTR \
  __attribute__((target("arch=armv8.2-a+dotprod+crypto")))

// Taps 4h .. 4h + 3 of a phase, as signed bytes in every 32-bit lane.
DAEDALUS_MC_DOT_ATTR inline int8x16_t DotTaps(const int16_t* taps, int h) {
  uint32_t quad = 0;
  for (int b = 0; b < 4; b++)
    quad |= static_cast<uint32_t>(taps[4 * h + b] & 255) << (8 * b);
  return vreinterpretq_s8_u32(vdupq_n_u32(quad));
}

// 64 (the rounding) + 128 * the sum of the taps, which the sample offset
// took from the dot products.
DAEDALUS_MC_DOT_ATTR inline int32x4_t DotBias(const int16_t* taps) {
  int sum = 0;
  for (int k = 0; k < 8; k++) sum += taps[k];
  return vdupq_n_s32(64 + 128 * sum);
}

// The tbl indices of a window: lane j gathers bytes off + j .. off + j + 3.
DAEDALUS_MC_DOT_ATTR inline uint8x16_t WindowIndex(int off) {
  uint8_t idx[16];
  for (int j = 0; j < 4; j++)
    for (int b = 0; b < 4; b++)
      idx[4 * j + b] = static_cast<uint8_t>(off + j + b);
  return vld1q_u8(idx);
}

// The samples at p as signed bytes (u - 128).
DAEDALUS_MC_DOT_ATTR inline int8x16_t Centred(const uint8_t* p) {
  return vreinterpretq_s8_u8(veorq_u8(vld1q_u8(p), vdupq_n_u8(128)));
}

// clip255(acc >> 7) of two accumulators of 4 lanes, as 8 halves.
DAEDALUS_MC_DOT_ATTR inline uint16x8_t Narrow(int32x4_t a, int32x4_t b) {
  return vqshrun_high_n_s32(vqshrun_n_s32(a, 7), b, 7);
}

// What the horizontal pass holds in registers.
struct DotHorizontal {
  int8x16_t t0, t1;
  int32x4_t bias;
  uint8x16_t i0, i4, i8;
};

// Outputs 0 .. 7 of the 8-tap horizontal pass from the 16 bytes at p:
// accumulator a holds the first 4, reading windows w0 (taps 0-3) and w4
// (taps 4-7), b the next 4, reading w4 and w8. (A free function: GCC 12
// does not give an in-class member the target attribute's dot products.)
DAEDALUS_MC_DOT_ATTR inline uint16x8_t HalfGroup(const DotHorizontal& h,
                                                 const uint8_t* p) {
  const int8x16_t v = Centred(p);
  const int8x16_t w0 = vqtbl1q_s8(v, h.i0), w4 = vqtbl1q_s8(v, h.i4);
  const int8x16_t w8 = vqtbl1q_s8(v, h.i8);
  return Narrow(vdotq_s32(vdotq_s32(h.bias, w0, h.t0), w4, h.t1),
                vdotq_s32(vdotq_s32(h.bias, w4, h.t0), w8, h.t1));
}

// Groups [g0, g0 + count) of 16 outputs of the 8-tap horizontal pass,
// output x from e[x .. x + 7], clipped to bytes in order at out: outputs
// 8h .. 8h + 7 of a group from the 16 bytes at 8h. A group reads
// e[16g .. 16g + 23]; the groups of a run (Window::run_end) one after the
// other.
DAEDALUS_MC_DOT_ATTR HWY_NOINLINE void Horizontal8Dot(
    const Window<uint8_t> e, const int16_t* taps, size_t g0, size_t count,
    uint8_t* HWY_RESTRICT out) {
  const DotHorizontal h = {DotTaps(taps, 0), DotTaps(taps, 1), DotBias(taps),
                           WindowIndex(0),   WindowIndex(4),   WindowIndex(8)};
  for (size_t g = g0, end; g < g0 + count; g = end) {
    end = e.run_end(g, g0 + count);
    const uint8_t* p = e.group(g);
    for (uint8_t* o = out + 16 * (g - g0); o < out + 16 * (end - g0);
         o += 16, p += 16)
      vst1q_u8(
          o, vqmovn_high_u16(vqmovn_u16(HalfGroup(h, p)), HalfGroup(h, p + 8)));
  }
}

// The 2-D passes go through quad rows, as on x86 (mc_dot_avx512-inl.h): 4
// source rows of a group of 16 columns, centred, in 4 vectors of 32-bit
// lanes, lane j of vector k holding column 4k + j of rows 0 .. 3 in its
// bytes; output rows r .. r + 3 read the quad rows from r, r + 4 and
// r + 8 (VerticalTaps). 64 bytes a group.
constexpr size_t kQuadGroupBytes = 64;

DAEDALUS_MC_DOT_ATTR inline void StoreQuads(int8x16_t r0, int8x16_t r1,
                                            int8x16_t r2, int8x16_t r3,
                                            int8_t* out) {
  const int16x8_t lo01 = vreinterpretq_s16_s8(vzip1q_s8(r0, r1));
  const int16x8_t hi01 = vreinterpretq_s16_s8(vzip2q_s8(r0, r1));
  const int16x8_t lo23 = vreinterpretq_s16_s8(vzip1q_s8(r2, r3));
  const int16x8_t hi23 = vreinterpretq_s16_s8(vzip2q_s8(r2, r3));
  vst1q_s8(out, vreinterpretq_s8_s16(vzip1q_s16(lo01, lo23)));
  vst1q_s8(out + 16, vreinterpretq_s8_s16(vzip2q_s16(lo01, lo23)));
  vst1q_s8(out + 32, vreinterpretq_s8_s16(vzip1q_s16(hi01, hi23)));
  vst1q_s8(out + 48, vreinterpretq_s8_s16(vzip2q_s16(hi01, hi23)));
}

// The quad row of byte rows r[0..3] (in sample order), `groups` groups.
DAEDALUS_MC_DOT_ATTR HWY_NOINLINE void QuadsOfRows(const uint8_t* const* r,
                                                   size_t groups,
                                                   uint8_t* HWY_RESTRICT out) {
  for (size_t g = 0; g < groups; g++) {
    const size_t x = 16 * g;
    StoreQuads(Centred(r[0] + x), Centred(r[1] + x), Centred(r[2] + x),
               Centred(r[3] + x),
               reinterpret_cast<int8_t*>(out + kQuadGroupBytes * g));
  }
}

// tbl indices: transpose turns rows 0 .. 3 of 4 columns each into their
// quads.
struct QuadIndices {
  constexpr QuadIndices() {
    for (int j = 0; j < 4; j++)
      for (int b = 0; b < 4; b++)
        transpose[4 * j + b] = static_cast<uint8_t>(4 * b + j);
  }
  uint8_t transpose[16] = {};
};
constexpr QuadIndices kQuadIndices;

// What HorizontalQuads holds in registers.
struct QuadHorizontal {
  int8x16_t t0, t1;
  int32x4_t offset;  // 128 * (the sum of the taps - 128), 0 in VP9's banks
  uint8x16_t i0, i4, i8, transpose;
};

// Row p's sums of vector k's columns, less 128 * 128: windows k (taps
// 0-3) and k + 1 (taps 4-7), the first three from the 16 bytes at p, the
// last two from those at p + 8.
DAEDALUS_MC_DOT_ATTR inline void RowSums(const QuadHorizontal& h,
                                         const uint8_t* p, int32x4_t* acc) {
  const int8x16_t v0 = Centred(p), v1 = Centred(p + 8);
  const int8x16_t w[5] = {vqtbl1q_s8(v0, h.i0), vqtbl1q_s8(v0, h.i4),
                          vqtbl1q_s8(v0, h.i8), vqtbl1q_s8(v1, h.i4),
                          vqtbl1q_s8(v1, h.i8)};
  for (int k = 0; k < 4; k++)
    acc[k] = vdotq_s32(vdotq_s32(h.offset, w[k], h.t0), w[k + 1], h.t1);
}

// Round2(sum, 7) - 128 from two rows' sums less 128 * 128, as 8 halves;
// narrowing them to bytes with saturation clips them as the output is
// clipped, leaving it centred.
DAEDALUS_MC_DOT_ATTR inline int16x8_t CentredHalves(int32x4_t a, int32x4_t b) {
  return vqrshrn_high_n_s32(vqrshrn_n_s32(a, 7), b, 7);
}

// The quad row of the 8-tap horizontal pass over windows e[0..3], `groups`
// groups, centred: each group's 4 rows' outputs for vector k's columns,
// narrowed together and transposed into quads. A group reads e[16g ..
// 16g + 23]; the groups of a run (Window::run_end) one after the other.
DAEDALUS_MC_DOT_ATTR HWY_NOINLINE void HorizontalQuads(
    const Window<uint8_t>* e, const int16_t* taps, size_t groups,
    uint8_t* HWY_RESTRICT out) {
  int sum = 0;
  for (int k = 0; k < 8; k++) sum += taps[k];
  const QuadHorizontal h = {DotTaps(taps, 0),
                            DotTaps(taps, 1),
                            vdupq_n_s32(128 * (sum - 128)),
                            WindowIndex(0),
                            WindowIndex(4),
                            WindowIndex(8),
                            vld1q_u8(kQuadIndices.transpose)};
  for (size_t g = 0, end; g < groups; g = end) {
    end = e[0].run_end(g, groups);  // the same for the 4 windows
    const uint8_t* p[4] = {e[0].group(g), e[1].group(g), e[2].group(g),
                           e[3].group(g)};
    for (uint8_t* q = out + kQuadGroupBytes * g;
         q < out + kQuadGroupBytes * end; q += kQuadGroupBytes) {
      int16x8_t rows01[4], rows23[4];
      int32x4_t acc[2][4];
      RowSums(h, p[0], acc[0]);
      RowSums(h, p[1], acc[1]);
      for (int k = 0; k < 4; k++)
        rows01[k] = CentredHalves(acc[0][k], acc[1][k]);
      RowSums(h, p[2], acc[0]);
      RowSums(h, p[3], acc[1]);
      for (int k = 0; k < 4; k++) {
        rows23[k] = CentredHalves(acc[0][k], acc[1][k]);
        const int8x16_t rows =
            vqmovn_high_s16(vqmovn_s16(rows01[k]), rows23[k]);
        vst1q_s8(reinterpret_cast<int8_t*>(q) + 16 * k,
                 vqtbl1q_s8(rows, h.transpose));
      }
      for (int r = 0; r < 4; r++) p[r] += 16;
    }
  }
}

// The vertical pass's taps against quad rows a, b, c (source rows from r,
// r + 4 and r + 8) for output row r + s: byte m of a quad row meets tap
// m - s of a, m + 4 - s of b, m + 8 - s of c (none outside 0 .. 7), so
// every output row takes its 8 source rows in place, without shifting
// rows between quads. The 11 quads of taps that are not all zero, 4 a
// register for sdot's by-element form: row 0 (a, b) in lanes 0, 1 of t[0],
// rows 1 .. 3 (a, b, c) in lanes 2 .. 11.
struct VerticalTaps {
  DAEDALUS_MC_DOT_ATTR explicit VerticalTaps(const int16_t* taps) {
    uint8_t bytes[48] = {};
    int lane = 0;
    for (int s = 0; s < 4; s++) {
      for (int quad = 0; quad < (s == 0 ? 2 : 3); quad++, lane++) {
        for (int m = 0; m < 4; m++) {
          const int k = m + 4 * quad - s;
          if (k >= 0 && k < 8)
            bytes[4 * lane + m] = static_cast<uint8_t>(taps[k] & 255);
        }
      }
    }
    for (int i = 0; i < 3; i++)
      t[i] = vreinterpretq_s8_u8(vld1q_u8(bytes + 16 * i));
  }
  int8x16_t t[3];
};

// clip255(acc >> 7) of 4 accumulators, as 16 bytes.
DAEDALUS_MC_DOT_ATTR inline uint8x16_t NarrowBytes(int32x4_t a, int32x4_t b,
                                                   int32x4_t c, int32x4_t d) {
  return vqmovn_high_u16(vqmovn_u16(Narrow(a, b)), Narrow(c, d));
}

// Groups [g0, g0 + count) of output rows s = 0 .. 3 of the 8-tap vertical
// pass over quad rows q[0..2], row s written from out[s] on; kSink: rows
// whose out[s] is null, where the band ends, go to a scratch vector.
template <bool kSink>
DAEDALUS_MC_DOT_ATTR inline void VerticalQuadRows(const uint8_t* const* q,
                                                  const int16_t* taps,
                                                  size_t g0, size_t count,
                                                  uint8_t* const* out) {
  const VerticalTaps vt(taps);
  const int8x16_t t0 = vt.t[0], t1 = vt.t[1], t2 = vt.t[2];
  const int32x4_t bias = DotBias(taps);
  const size_t first = kQuadGroupBytes * g0;
  const int8_t* qa = reinterpret_cast<const int8_t*>(q[0] + first);
  const int8_t* qb = reinterpret_cast<const int8_t*>(q[1] + first);
  const int8_t* qc = reinterpret_cast<const int8_t*>(q[2] + first);
  // The rows as locals, which the stores cannot change.
  uint8_t* const rows[4] = {out[0], out[1], out[2], out[3]};
  uint8_t sink[16];
  const auto row = [&](int s, size_t x) {
    return kSink && !rows[s] ? sink : rows[s] + x;
  };
  for (size_t x = 0; x < 16 * count; x += 16) {
    int8x16_t a[4], b[4], c[4];
    for (int k = 0; k < 4; k++) {
      a[k] = vld1q_s8(qa + 16 * k);
      b[k] = vld1q_s8(qb + 16 * k);
      c[k] = vld1q_s8(qc + 16 * k);
    }
    int32x4_t r0[4], r1[4], r2[4], r3[4];
    for (int k = 0; k < 4; k++) {
      r0[k] = vdotq_laneq_s32(vdotq_laneq_s32(bias, a[k], t0, 0), b[k], t0, 1);
      r1[k] = vdotq_laneq_s32(
          vdotq_laneq_s32(vdotq_laneq_s32(bias, a[k], t0, 2), b[k], t0, 3),
          c[k], t1, 0);
      r2[k] = vdotq_laneq_s32(
          vdotq_laneq_s32(vdotq_laneq_s32(bias, a[k], t1, 1), b[k], t1, 2),
          c[k], t1, 3);
      r3[k] = vdotq_laneq_s32(
          vdotq_laneq_s32(vdotq_laneq_s32(bias, a[k], t2, 0), b[k], t2, 1),
          c[k], t2, 2);
    }
    vst1q_u8(row(0, x), NarrowBytes(r0[0], r0[1], r0[2], r0[3]));
    vst1q_u8(row(1, x), NarrowBytes(r1[0], r1[1], r1[2], r1[3]));
    vst1q_u8(row(2, x), NarrowBytes(r2[0], r2[1], r2[2], r2[3]));
    vst1q_u8(row(3, x), NarrowBytes(r3[0], r3[1], r3[2], r3[3]));
    qa += kQuadGroupBytes;
    qb += kQuadGroupBytes;
    qc += kQuadGroupBytes;
  }
}

DAEDALUS_MC_DOT_ATTR HWY_NOINLINE void VerticalQuads(const uint8_t* const* q,
                                                     const int16_t* taps,
                                                     size_t g0, size_t count,
                                                     uint8_t* const* out) {
  if (out[0] && out[1] && out[2] && out[3])
    VerticalQuadRows<false>(q, taps, g0, count, out);
  else
    VerticalQuadRows<true>(q, taps, g0, count, out);
}

#undef DAEDALUS_MC_DOT_ATTR
