// The AVX-512 dot-product island of mc's 8-bit 8-tap passes, for
// mc_simd.cc, which includes it inside its AVX3 target's namespace after
// Window (hence no include guard and no includes of its own). Highway 1.0.3
// has no such ops: these functions are compiled for AVX3 plus AVX512-VNNI and
// VBMI and run only where mc_cpu_has_dot_products() says the CPU has both.
//
// vpdpbusd multiplies 4 unsigned bytes (samples) by 4 signed bytes (taps)
// and adds the 4 products to a 32-bit lane: two of them give an output's 8
// taps, exactly (no 16-bit wrap or saturation). vpermb builds each lane's 4
// samples from one load of the row.

#define DAEDALUS_MC_DOT_ATTR \
  __attribute__((target(HWY_TARGET_STR ",avx512vnni,avx512vbmi")))

// Taps 4h .. 4h + 3 of a phase, as signed bytes in every 32-bit lane.
DAEDALUS_MC_DOT_ATTR inline __m512i DotTaps(const int16_t* taps, int h) {
  uint32_t quad = 0;
  for (int b = 0; b < 4; b++)
    quad |= static_cast<uint32_t>(taps[4 * h + b] & 255) << (8 * b);
  return _mm512_set1_epi32(static_cast<int32_t>(quad));
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
      : t0_(DotTaps(taps, 0)), t1_(DotTaps(taps, 1)) {
    for (int h = 0; h < 2; h++)
      for (int k = 0; k < 3; k++)
        index_[h][k] = _mm512_load_si512(kWindowIndices.bytes[h][k]);
  }

  // half 0 from byte 0 of v, half 1 from byte 16.
  DAEDALUS_MC_DOT_ATTR __m512i Half(__m512i v, int half) const {
    const __m512i w0 = _mm512_permutexvar_epi8(index_[half][0], v);
    const __m512i w4 = _mm512_permutexvar_epi8(index_[half][1], v);
    const __m512i w8 = _mm512_permutexvar_epi8(index_[half][2], v);
    const __m512i bias = _mm512_set1_epi32(64);
    const __m512i a =
        _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(bias, w0, t0_), w4, t1_);
    const __m512i b =
        _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(bias, w4, t0_), w8, t1_);
    return _mm512_srai_epi16(_mm512_packs_epi32(a, b), 7);
  }

 private:
  __m512i t0_, t1_;
  __m512i index_[2][3];
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
    const __m512i lo = h.Half(_mm512_loadu_si512(p), 0);
    const __m512i hi = h.Half(_mm512_loadu_si512(p + 16), 1);
    // packus leaves block i with outputs 8i .. 8i + 7 and 32 + 8i ..
    const __m512i bytes = _mm512_packus_epi16(lo, hi);
    _mm512_storeu_si512(out + 64 * i, _mm512_permutexvar_epi64(order, bytes));
  }
}

// The 4 rows at r as 4 vectors of 32-bit lanes, lane j of block i of
// vector k holding column 16i + 4k + j of rows 0 .. 3 in its bytes.
struct Quads {
  __m512i q[4];
};

DAEDALUS_MC_DOT_ATTR inline Quads QuadsOf(__m512i r0, __m512i r1, __m512i r2,
                                          __m512i r3) {
  const __m512i lo01 = _mm512_unpacklo_epi8(r0, r1);
  const __m512i hi01 = _mm512_unpackhi_epi8(r0, r1);
  const __m512i lo23 = _mm512_unpacklo_epi8(r2, r3);
  const __m512i hi23 = _mm512_unpackhi_epi8(r2, r3);
  return {{_mm512_unpacklo_epi16(lo01, lo23), _mm512_unpackhi_epi16(lo01, lo23),
           _mm512_unpacklo_epi16(hi01, hi23),
           _mm512_unpackhi_epi16(hi01, hi23)}};
}

// Groups [g0, g0 + count) of 64 outputs of the 8-tap vertical pass over the
// byte rows r[0..7].
DAEDALUS_MC_DOT_ATTR HWY_NOINLINE void Vertical8Dot(
    const uint8_t* const* r, const int16_t* taps, size_t g0, size_t count,
    uint8_t* HWY_RESTRICT out) {
  const __m512i t0 = DotTaps(taps, 0), t1 = DotTaps(taps, 1);
  const __m512i bias = _mm512_set1_epi32(64);
  const size_t x0 = 64 * g0;
  const auto row = [&](int k, size_t x) {
    return _mm512_loadu_si512(r[k] + x0 + x);
  };
  for (size_t x = 0; x < 64 * count; x += 64) {
    const Quads top = QuadsOf(row(0, x), row(1, x), row(2, x), row(3, x));
    const Quads bottom = QuadsOf(row(4, x), row(5, x), row(6, x), row(7, x));
    __m512i acc[4];
    for (int k = 0; k < 4; k++)
      acc[k] = _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(bias, top.q[k], t0),
                                   bottom.q[k], t1);
    // Block i of each pack: columns 16i .. 16i + 7, then 16i + 8 ..
    const __m512i a = _mm512_srai_epi16(_mm512_packs_epi32(acc[0], acc[1]), 7);
    const __m512i b = _mm512_srai_epi16(_mm512_packs_epi32(acc[2], acc[3]), 7);
    _mm512_storeu_si512(out + x, _mm512_packus_epi16(a, b));
  }
}

#undef DAEDALUS_MC_DOT_ATTR
