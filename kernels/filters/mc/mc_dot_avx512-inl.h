// The AVX-512 dot-product island of mc's 8-bit 8-tap passes, for
// mc_simd.cc, which includes it inside its AVX3 target's namespace after
// Window (hence no include guard and no includes of its own). Highway 1.0.3
// has no such ops: these functions are compiled for AVX3 plus AVX512-VNNI,
// VBMI (and VBMI2's vpshrdd) and run only where mc_cpu_has_dot_products()
// says the CPU has the three. (PRFCHW too, for the islands' prefetchw,
// which every CPU with them has, and older ones run as a no-op.)
//
// vpdpbusd multiplies 4 unsigned bytes (samples) by 4 signed bytes (taps)
// and adds the 4 products to a 32-bit lane: two of them give an output's 8
// taps, exactly (no 16-bit wrap or saturation). vpermb builds each lane's 4
// samples from one load of the row.
//
// No array of vectors: GCC 12 at -O2 does not unroll the loops over one,
// so it stays on the stack and every vector goes through memory (5x slower
// than at -O3, issue 14). Groups of vectors are Quads of named fields,
// built and consumed by always-inlined functions.

#define DAEDALUS_MC_DOT_ATTR \
  __attribute__((            \
      target(HWY_TARGET_STR ",avx512vnni,avx512vbmi,avx512vbmi2,prfchw")))

// Taps 4h .. 4h + 3 of a phase, as signed bytes in every 32-bit lane.
DAEDALUS_MC_DOT_ATTR inline __m512i DotTaps(const int16_t* taps, int h) {
  uint32_t quad = 0;
  for (int b = 0; b < 4; b++)
    quad |= static_cast<uint32_t>(taps[4 * h + b] & 255) << (8 * b);
  return _mm512_set1_epi32(static_cast<int32_t>(quad));
}

// bias + the products of taps 0-3 (t0) with a and of taps 4-7 (t1) with b.
DAEDALUS_MC_DOT_ATTR HWY_INLINE __m512i Dot8Taps(__m512i bias, __m512i a,
                                                 __m512i t0, __m512i b,
                                                 __m512i t1) {
  return _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(bias, a, t0), b, t1);
}

// Two vectors of 32-bit sums packed to 16 bits and shifted (saturated: a
// sum past 32767 clips to 255 all the same).
DAEDALUS_MC_DOT_ATTR HWY_INLINE __m512i Words(__m512i a, __m512i b) {
  return _mm512_srai_epi16(_mm512_packs_epi32(a, b), 7);
}

// The vpermb indices of the windows: window k of half h gathers, in lane j
// of 128-bit block i, bytes 16h + 4k + 8i + j .. + 3 (the samples of
// output 8i + j + 4k - 4s for taps 4s .. 4s + 3).
struct WindowIndices {
  constexpr WindowIndices() {
    for (int h = 0; h < 2; h++)
      for (int k = 0; k < 3; k++)
        for (int i = 0; i < 4; i++)
          for (int j = 0; j < 4; j++)
            for (int b = 0; b < 4; b++)
              bytes[h][k][16 * i + 4 * j + b] =
                  static_cast<uint8_t>(16 * h + 4 * k + 8 * i + j + b);
  }
  alignas(64) uint8_t bytes[2][3][64] = {};
};
alignas(64) constexpr WindowIndices kWindowIndices;

// The 8-tap horizontal outputs 0 .. 31 of the samples from byte `off` of
// a load (0 or 16): in block i, accumulator a holds outputs 8i .. 8i + 3, b
// outputs 8i + 4 .. 8i + 7; a reads windows w0 (taps 0-3) and w4 (taps
// 4-7), b w4 and w8. Saturated to 16 bits (a sum past 32767 clips to 255
// all the same) and shifted, as 32 words in output order.
class DotHorizontal {
 public:
  DAEDALUS_MC_DOT_ATTR explicit DotHorizontal(const int16_t* taps)
      : t0_(DotTaps(taps, 0)),
        t1_(DotTaps(taps, 1)),
        half0_(kWindowIndices.bytes[0]),
        half1_(kWindowIndices.bytes[1]) {}

  // half 0 from byte 0 of v, half 1 from byte 16.
  template <int half>
  DAEDALUS_MC_DOT_ATTR HWY_INLINE __m512i Half(__m512i v) const {
    const Windows& i = half == 0 ? half0_ : half1_;
    const __m512i w0 = _mm512_permutexvar_epi8(i.w0, v);
    const __m512i w4 = _mm512_permutexvar_epi8(i.w4, v);
    const __m512i w8 = _mm512_permutexvar_epi8(i.w8, v);
    const __m512i bias = _mm512_set1_epi32(64);
    return Words(Dot8Taps(bias, w0, t0_, w4, t1_),
                 Dot8Taps(bias, w4, t0_, w8, t1_));
  }

 private:
  // A half's vpermb indices of windows 0, 4 and 8.
  struct Windows {
    DAEDALUS_MC_DOT_ATTR explicit Windows(const uint8_t (*bytes)[64])
        : w0(_mm512_load_si512(bytes[0])),
          w4(_mm512_load_si512(bytes[1])),
          w8(_mm512_load_si512(bytes[2])) {}
    __m512i w0, w4, w8;
  };
  __m512i t0_, t1_;
  Windows half0_, half1_;
};

// Groups [g0, g0 + count) of 64 outputs of the 8-tap horizontal pass,
// output x from e[x .. x + 7], clipped to bytes in order at out. A group
// reads e[64g .. 64g + 79]: outputs 32 .. 63 from the load at 16.
DAEDALUS_MC_DOT_ATTR HWY_NOINLINE void Horizontal8Dot(
    const Window<uint8_t> e, const int16_t* taps, size_t g0, size_t count,
    uint8_t* HWY_RESTRICT out) {
  const DotHorizontal h(taps);
  const __m512i order = _mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0);
  for (size_t i = 0; i < count; i++) {
    const uint8_t* p = e.group(g0 + i);
    const __m512i lo = h.Half<0>(_mm512_loadu_si512(p));
    const __m512i hi = h.Half<1>(_mm512_loadu_si512(p + 16));
    // packus leaves block i with outputs 8i .. 8i + 7 and 32 + 8i ..
    const __m512i bytes = _mm512_packus_epi16(lo, hi);
    _mm512_storeu_si512(out + 64 * i, _mm512_permutexvar_epi64(order, bytes));
  }
}

// 4 rows' addresses, as integers: a prefetch is a hint, so they may lie
// outside any row. Named fields rather than an array, which GCC at -O2
// keeps on the stack and walks in a loop of its own.
struct FourAddresses {
  explicit FourAddresses(const uintptr_t* a)
      : r0(a[0]), r1(a[1]), r2(a[2]), r3(a[3]) {}
  // `bytes` after each of rows[0..3]; all 0 where `bytes` is 0.
  template <class S>
  FourAddresses(ptrdiff_t bytes, S* const* rows)
      : r0(After(bytes, rows[0])),
        r1(After(bytes, rows[1])),
        r2(After(bytes, rows[2])),
        r3(After(bytes, rows[3])) {}
  uintptr_t r0, r1, r2, r3;

 private:
  template <class S>
  static uintptr_t After(ptrdiff_t bytes, S* row) {
    return bytes ? reinterpret_cast<uintptr_t>(row) +
                       static_cast<uintptr_t>(bytes)
                 : 0;
  }
};

// Fetches the line at a into the cache: for writing (prefetchw) or for
// reading.
template <bool kWrite>
DAEDALUS_MC_DOT_ATTR HWY_INLINE void PrefetchLine(uintptr_t a) {
  _mm_prefetch(reinterpret_cast<const char*>(a),
               kWrite ? _MM_HINT_ET0 : _MM_HINT_T0);
}

// The same for the lines of [at, at + bytes) from each of the 4 addresses.
template <bool kWrite>
DAEDALUS_MC_DOT_ATTR HWY_INLINE void Prefetch(FourAddresses rows, size_t at,
                                              size_t bytes) {
  for (size_t b = at; b < at + bytes; b += 64) {
    PrefetchLine<kWrite>(rows.r0 + b);
    PrefetchLine<kWrite>(rows.r1 + b);
    PrefetchLine<kWrite>(rows.r2 + b);
    PrefetchLine<kWrite>(rows.r3 + b);
  }
}

// The 2-D passes go through quad rows: 4 source rows of a group of 64
// columns in 4 vectors of 32-bit lanes, lane j of 128-bit block i of vector
// k holding column 16i + 4k + j of rows 0 .. 3 in its bytes (the order in
// which unpacking 4 rows leaves them, and in which packing 4 such vectors of
// results restores the columns). A quad row of the source rows from r on
// and the one from r + 4 give, shifted by s bytes (vpshrdd), the one from
// r + s: so the horizontal pass runs 4 rows at a time, and each output row
// reads 3 quad rows. 256 bytes a group.
constexpr size_t kQuadGroupBytes = 256;

// One vector per 64 bytes of a quad row's group, or per vector of a quad
// row's columns (k0 .. k3).
struct Quads {
  __m512i k0, k1, k2, k3;
};

DAEDALUS_MC_DOT_ATTR HWY_INLINE Quads LoadQuads(const uint8_t* p) {
  return {_mm512_load_si512(p), _mm512_load_si512(p + 64),
          _mm512_load_si512(p + 128), _mm512_load_si512(p + 192)};
}

DAEDALUS_MC_DOT_ATTR inline void StoreQuads(__m512i r0, __m512i r1, __m512i r2,
                                            __m512i r3, uint8_t* out) {
  const __m512i lo01 = _mm512_unpacklo_epi8(r0, r1);
  const __m512i hi01 = _mm512_unpackhi_epi8(r0, r1);
  const __m512i lo23 = _mm512_unpacklo_epi8(r2, r3);
  const __m512i hi23 = _mm512_unpackhi_epi8(r2, r3);
  _mm512_store_si512(out, _mm512_unpacklo_epi16(lo01, lo23));
  _mm512_store_si512(out + 64, _mm512_unpackhi_epi16(lo01, lo23));
  _mm512_store_si512(out + 128, _mm512_unpacklo_epi16(hi01, hi23));
  _mm512_store_si512(out + 192, _mm512_unpackhi_epi16(hi01, hi23));
}

// The quad row of byte rows r[0..3] (in sample order), `groups` groups.
DAEDALUS_MC_DOT_ATTR HWY_NOINLINE void QuadsOfRows(const uint8_t* const* r,
                                                   size_t groups,
                                                   uint8_t* HWY_RESTRICT out) {
  for (size_t g = 0; g < groups; g++) {
    const size_t x = 64 * g;
    StoreQuads(_mm512_loadu_si512(r[0] + x), _mm512_loadu_si512(r[1] + x),
               _mm512_loadu_si512(r[2] + x), _mm512_loadu_si512(r[3] + x),
               out + kQuadGroupBytes * g);
  }
}

// vpermb indices of the quad rows' windows: window m, in lane j of block
// i, gathers samples 16i + 4m + j .. + 3 of a group, which span 4m .. 4m +
// 54: windows 0 .. 2 from the load at 0, 3 and 4 as windows 0 and 1 of the
// load at 12 (kSecondLoad). Single-source vpermb, where the two-source
// vpermt2b overwrites a source (a register copy each) and has half
// vpermb's throughput on the Xeon (docs/benchmarks.md).
constexpr int kSecondLoad = 12;
struct QuadWindowIndices {
  constexpr QuadWindowIndices() {
    for (int m = 0; m < 3; m++)
      for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
          for (int b = 0; b < 4; b++)
            bytes[m][16 * i + 4 * j + b] =
                static_cast<uint8_t>(16 * i + 4 * m + j + b);
    // Bytes 4r + c of a block (row r, column c) to 4c + r.
    for (int i = 0; i < 4; i++)
      for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
          transpose[16 * i + 4 * c + r] = static_cast<uint8_t>(4 * r + c);
  }
  alignas(64) uint8_t bytes[3][64] = {};
  alignas(64) uint8_t transpose[64] = {};
};
alignas(64) constexpr QuadWindowIndices kQuadWindowIndices;

// The constants of the quad rows' horizontal pass.
struct QuadTaps {
  DAEDALUS_MC_DOT_ATTR explicit QuadTaps(const int16_t* taps)
      : t0(DotTaps(taps, 0)),
        t1(DotTaps(taps, 1)),
        bias(_mm512_set1_epi32(64)),
        w0(_mm512_load_si512(kQuadWindowIndices.bytes[0])),
        w1(_mm512_load_si512(kQuadWindowIndices.bytes[1])),
        w2(_mm512_load_si512(kQuadWindowIndices.bytes[2])),
        transpose(_mm512_load_si512(kQuadWindowIndices.transpose)) {}
  __m512i t0, t1, bias;
  __m512i w0, w1, w2;  // windows 0 .. 2 of a load
  __m512i transpose;
};

// One row's accumulators of a group from p: k from windows k and k + 1.
DAEDALUS_MC_DOT_ATTR HWY_INLINE Quads RowDots(const uint8_t* p,
                                              const QuadTaps& c) {
  const __m512i lo = _mm512_loadu_si512(p);
  const __m512i hi = _mm512_loadu_si512(p + kSecondLoad);
  const __m512i w0 = _mm512_permutexvar_epi8(c.w0, lo);
  const __m512i w1 = _mm512_permutexvar_epi8(c.w1, lo);
  const __m512i w2 = _mm512_permutexvar_epi8(c.w2, lo);
  const __m512i w3 = _mm512_permutexvar_epi8(c.w0, hi);
  const __m512i w4 = _mm512_permutexvar_epi8(c.w1, hi);
  return {Dot8Taps(c.bias, w0, c.t0, w1, c.t1),
          Dot8Taps(c.bias, w1, c.t0, w2, c.t1),
          Dot8Taps(c.bias, w2, c.t0, w3, c.t1),
          Dot8Taps(c.bias, w3, c.t0, w4, c.t1)};
}

// Rows r and r + 1 of group g, packed to 16 bits and shifted: vector k's
// columns.
DAEDALUS_MC_DOT_ATTR HWY_INLINE Quads TwoRows(const Window<uint8_t>* e,
                                              size_t g, int r,
                                              const QuadTaps& c) {
  const Quads a = RowDots(e[r].group(g), c);
  const Quads b = RowDots(e[r + 1].group(g), c);
  return {Words(a.k0, b.k0), Words(a.k1, b.k1), Words(a.k2, b.k2),
          Words(a.k3, b.k3)};
}

// The quads of a vector's columns from its words of rows 0, 1 and 2, 3.
DAEDALUS_MC_DOT_ATTR HWY_INLINE __m512i QuadBytes(__m512i w01, __m512i w23,
                                                  const QuadTaps& c) {
  return _mm512_shuffle_epi8(_mm512_packus_epi16(w01, w23), c.transpose);
}

// The quad row of the 8-tap horizontal pass over windows e[0..3], `groups`
// groups. Accumulator k of a row holds the outputs of vector k's columns,
// from windows k (taps 0-3) and k + 1 (taps 4-7); packing rows 0 and 1, 2
// and 3, then the two, leaves block i with rows 0 .. 3 of 4 columns each,
// which a byte shuffle turns into 4 quads. Meanwhile a group's
// `group_bytes` of the source rows that the next quad row will read, from
// ahead[0..3], are fetched into the cache, as the 10-bit island does: a
// stream's frames come from memory, and the hardware's prefetch alone
// leaves the pass waiting for them.
DAEDALUS_MC_DOT_ATTR HWY_NOINLINE void HorizontalQuads(
    const Window<uint8_t>* e, const int16_t* taps, size_t groups,
    const uintptr_t* ahead, size_t group_bytes, uint8_t* HWY_RESTRICT out) {
  const QuadTaps c(taps);
  const FourAddresses next(ahead);
  for (size_t g = 0; g < groups; g++) {
    Prefetch<false>(next, g * group_bytes, group_bytes);
    const Quads w01 = TwoRows(e, g, 0, c);
    const Quads w23 = TwoRows(e, g, 2, c);
    uint8_t* q = out + kQuadGroupBytes * g;
    _mm512_store_si512(q, QuadBytes(w01.k0, w23.k0, c));
    _mm512_store_si512(q + 64, QuadBytes(w01.k1, w23.k1, c));
    _mm512_store_si512(q + 128, QuadBytes(w01.k2, w23.k2, c));
    _mm512_store_si512(q + 192, QuadBytes(w01.k3, w23.k3, c));
  }
}

// The quad row from source row r + s, of the quad rows from r and r + 4.
template <int s>
DAEDALUS_MC_DOT_ATTR inline __m512i ShiftRows(__m512i a, __m512i b) {
  if constexpr (s == 0) return a;
  return _mm512_shrdi_epi32(a, b, 8 * s);
}

// The output row of the 8-tap vertical pass from quad rows a, b, c, its
// taps 0-3 on a and b shifted by s, its taps 4-7 on b and c shifted by s:
// 64 columns, clipped to bytes in order at row + x (no row: none).
template <int s>
DAEDALUS_MC_DOT_ATTR HWY_INLINE void StoreVertical(Quads a, Quads b, Quads c,
                                                   __m512i t0, __m512i t1,
                                                   uint8_t* row, size_t x) {
  if (!row) return;
  const __m512i bias = _mm512_set1_epi32(64);
  const auto dot = [&](__m512i ak, __m512i bk, __m512i ck) {
    return Dot8Taps(bias, ShiftRows<s>(ak, bk), t0, ShiftRows<s>(bk, ck), t1);
  };
  // Block i of each pack: columns 16i .. 16i + 7, then 16i + 8 ..
  const __m512i lo = Words(dot(a.k0, b.k0, c.k0), dot(a.k1, b.k1, c.k1));
  const __m512i hi = Words(dot(a.k2, b.k2, c.k2), dot(a.k3, b.k3, c.k3));
  _mm512_storeu_si512(row + x, _mm512_packus_epi16(lo, hi));
}

// Groups [g0, g0 + count) of output rows s = 0 .. 3 of the 8-tap vertical
// pass over quad rows q[0..2] (row s shifted by s), row s written from
// out[s] on where out[s] is not null. Each group's quad rows are loaded
// once for the 4 rows. Where `ahead` is not 0, the same columns of the
// rows `ahead` bytes after out[0..3] (the next step's) are fetched for
// writing meanwhile, so that the stores do not wait for their lines.
DAEDALUS_MC_DOT_ATTR HWY_NOINLINE void VerticalQuads(const uint8_t* const* q,
                                                     const int16_t* taps,
                                                     size_t g0, size_t count,
                                                     uint8_t* const* out,
                                                     ptrdiff_t ahead) {
  const __m512i t0 = DotTaps(taps, 0), t1 = DotTaps(taps, 1);
  const FourAddresses next(ahead, out);
  for (size_t i = 0; i < count; i++) {
    if (ahead) Prefetch<true>(next, 64 * i, 64);
    const size_t group = kQuadGroupBytes * (g0 + i);
    const Quads a = LoadQuads(q[0] + group);
    const Quads b = LoadQuads(q[1] + group);
    const Quads c = LoadQuads(q[2] + group);
    StoreVertical<0>(a, b, c, t0, t1, out[0], 64 * i);
    StoreVertical<1>(a, b, c, t0, t1, out[1], 64 * i);
    StoreVertical<2>(a, b, c, t0, t1, out[2], 64 * i);
    StoreVertical<3>(a, b, c, t0, t1, out[3], 64 * i);
  }
}

// (DAEDALUS_MC_DOT_ATTR serves mc_words_avx512-inl.h too, which undefines
// it.)
