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

#define DAEDALUS_MC_DOT_ATTR __attribute__((target("arch=armv8.2-a+dotprod")))

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
// e[16g .. 16g + 23].
DAEDALUS_MC_DOT_ATTR HWY_NOINLINE void Horizontal8Dot(
    const Window<uint8_t> e, const int16_t* taps, size_t g0, size_t count,
    uint8_t* HWY_RESTRICT out) {
  const DotHorizontal h = {DotTaps(taps, 0), DotTaps(taps, 1), DotBias(taps),
                           WindowIndex(0),   WindowIndex(4),   WindowIndex(8)};
  for (size_t i = 0; i < count; i++) {
    const uint8_t* p = e.group(g0 + i);
    vst1q_u8(out + 16 * i,
             vqmovn_high_u16(vqmovn_u16(HalfGroup(h, p)), HalfGroup(h, p + 8)));
  }
}

// The 2-D passes go through quad rows, as on x86 (mc_dot_avx512-inl.h): 4
// source rows of a group of 16 columns, centred, in 4 vectors of 32-bit
// lanes, lane j of vector k holding column 4k + j of rows 0 .. 3 in its
// bytes. A quad row of the source rows from r on and the one from r + 4
// give, shifted and inserted (ShiftRows), the one from r + s. 64 bytes a
// group.
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

// The quad row from source row r + s, of the quad rows from r and r + 4.
template <int s>
DAEDALUS_MC_DOT_ATTR inline int8x16_t ShiftRows(int8x16_t a, int8x16_t b) {
  if constexpr (s == 0) {
    return a;
  } else {
    const uint32x4_t high = vshlq_n_u32(vreinterpretq_u32_s8(b), 32 - 8 * s);
    return vreinterpretq_s8_u32(
        vsriq_n_u32(high, vreinterpretq_u32_s8(a), 8 * s));
  }
}

// clip255(acc >> 7) of 4 accumulators, as 16 bytes.
DAEDALUS_MC_DOT_ATTR inline uint8x16_t NarrowBytes(int32x4_t a, int32x4_t b,
                                                   int32x4_t c, int32x4_t d) {
  return vqmovn_high_u16(vqmovn_u16(Narrow(a, b)), Narrow(c, d));
}

// What HorizontalQuads holds in registers.
struct QuadHorizontal {
  int8x16_t t0, t1;
  int32x4_t bias;
  uint8x16_t window;  // WindowIndex(0)
};

// Vector k's accumulators of source row p: windows k (taps 0-3) and k + 1
// (taps 4-7), window m gathered from the 16 bytes at 4m.
DAEDALUS_MC_DOT_ATTR inline void RowSums(const QuadHorizontal& h,
                                         const uint8_t* p, int32x4_t* acc) {
  const int8x16_t v0 = Centred(p), v1 = Centred(p + 16);
  const int8x16_t w[5] = {
      vqtbl1q_s8(v0, h.window), vqtbl1q_s8(vextq_s8(v0, v1, 4), h.window),
      vqtbl1q_s8(vextq_s8(v0, v1, 8), h.window),
      vqtbl1q_s8(vextq_s8(v0, v1, 12), h.window), vqtbl1q_s8(v1, h.window)};
  for (int k = 0; k < 4; k++)
    acc[k] = vdotq_s32(vdotq_s32(h.bias, w[k], h.t0), w[k + 1], h.t1);
}

// The quad row of the 8-tap horizontal pass over windows e[0..3], `groups`
// groups: the results of rows 0 .. 3 for vector k's columns, narrowed
// together, transposed into quads and centred. A group reads e[16g ..
// 16g + 31].
DAEDALUS_MC_DOT_ATTR HWY_NOINLINE void HorizontalQuads(
    const Window<uint8_t>* e, const int16_t* taps, size_t groups,
    uint8_t* HWY_RESTRICT out) {
  const QuadHorizontal h = {DotTaps(taps, 0), DotTaps(taps, 1), DotBias(taps),
                            WindowIndex(0)};
  const uint8x16_t transpose = vld1q_u8(kQuadIndices.transpose);
  for (size_t g = 0; g < groups; g++) {
    int32x4_t acc[4][4];
    for (int r = 0; r < 4; r++) RowSums(h, e[r].group(g), acc[r]);
    for (int k = 0; k < 4; k++) {
      const uint8x16_t rows =
          NarrowBytes(acc[0][k], acc[1][k], acc[2][k], acc[3][k]);
      vst1q_u8(out + kQuadGroupBytes * g + 16 * k,
               veorq_u8(vqtbl1q_u8(rows, transpose), vdupq_n_u8(128)));
    }
  }
}

// The output row of the 8-tap vertical pass from quad rows a, b, c, its
// taps 0-3 on a and b shifted by s, its taps 4-7 on b and c shifted by s:
// 16 columns, clipped to bytes in order at row + x (no row: none).
template <int s>
DAEDALUS_MC_DOT_ATTR inline void StoreVertical(const int8x16_t* a,
                                               const int8x16_t* b,
                                               const int8x16_t* c, int8x16_t t0,
                                               int8x16_t t1, int32x4_t bias,
                                               uint8_t* row, size_t x) {
  if (!row) return;
  uint8_t* out = row + x;
  int32x4_t acc[4];
  for (int k = 0; k < 4; k++)
    acc[k] = vdotq_s32(vdotq_s32(bias, ShiftRows<s>(a[k], b[k]), t0),
                       ShiftRows<s>(b[k], c[k]), t1);
  vst1q_u8(out, NarrowBytes(acc[0], acc[1], acc[2], acc[3]));
}

// Groups [g0, g0 + count) of output rows s = 0 .. 3 of the 8-tap vertical
// pass over quad rows q[0..2] (row s shifted by s), row s written from
// out[s] on where out[s] is not null.
DAEDALUS_MC_DOT_ATTR HWY_NOINLINE void VerticalQuads(const uint8_t* const* q,
                                                     const int16_t* taps,
                                                     size_t g0, size_t count,
                                                     uint8_t* const* out) {
  const int8x16_t t0 = DotTaps(taps, 0), t1 = DotTaps(taps, 1);
  const int32x4_t bias = DotBias(taps);
  for (size_t i = 0; i < count; i++) {
    const size_t group = kQuadGroupBytes * (g0 + i);
    int8x16_t a[4], b[4], c[4];
    for (int k = 0; k < 4; k++) {
      a[k] = vld1q_s8(reinterpret_cast<const int8_t*>(q[0] + group) + 16 * k);
      b[k] = vld1q_s8(reinterpret_cast<const int8_t*>(q[1] + group) + 16 * k);
      c[k] = vld1q_s8(reinterpret_cast<const int8_t*>(q[2] + group) + 16 * k);
    }
    StoreVertical<0>(a, b, c, t0, t1, bias, out[0], 16 * i);
    StoreVertical<1>(a, b, c, t0, t1, bias, out[1], 16 * i);
    StoreVertical<2>(a, b, c, t0, t1, bias, out[2], 16 * i);
    StoreVertical<3>(a, b, c, t0, t1, bias, out[3], 16 * i);
  }
}

#undef DAEDALUS_MC_DOT_ATTR
