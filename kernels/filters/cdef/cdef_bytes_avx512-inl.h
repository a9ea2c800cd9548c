// The AVX-512 byte island of CDEF's 8-bit block filters, for cdef_simd.cc,
// which includes it inside its AVX3 target's namespace after the Highway
// filter (hence no include guard and no includes of its own). Highway 1.0.3
// has no byte permutes, byte dot products or per-byte shifts: these functions
// are compiled for AVX3 plus AVX512-VBMI, VBMI2, VNNI and GFNI and run only
// where cdef_cpu_has_byte_island() says the CPU has the four.
//
// A block is filtered a quadrant (4x4 outputs) at a time. The quadrant's
// table is the 8x8 samples around it (rows and columns -2..5) as bytes, one
// 512-bit register. Output p = 4 i + j of the quadrant is 32-bit lane p, and
// one vpermb gathers four of its taps into that lane: the primary taps
// (k0, +), (k0, -), (k1, +), (k1, -) of the block's direction, or the same
// secondary taps of one of its two secondary directions. Per byte, |tap - px|
// is two subtractions under a compare mask, the damping shift one
// gf2p8affineqb, and vpdpbusd weights the four constrained magnitudes by
// their signed weights and adds them to the output's sum. Two quadrants
// (side by side, or U's and V's) are finished together in 16-bit lanes,
// and the tables of two side by side are built at once from their staged
// words, of a column of them from rows each read once. A block with an
// unavailable sample anywhere in its tables (at the plane's edges) goes to the
// Highway filter instead.

#define DAEDALUS_CDEF_BYTES_ATTR \
  __attribute__((                \
      target(HWY_TARGET_STR ",avx512vbmi,avx512vbmi2,avx512vnni,gfni")))

// The vpermb indices into a quadrant table: tap b of output p of direction d
// in byte 4 p + b of taps[d] (b = 2 k + (1 for the - tap)); the output's own
// sample in bytes 4 p .. 4 p + 3 of centre.
struct QuadrantIndices {
  constexpr QuadrantIndices() {
    for (int p = 0; p < 16; p++) {
      const int at = 8 * (p / 4 + 2) + p % 4 + 2;
      for (int b = 0; b < 4; b++) {
        centre[4 * p + b] = static_cast<uint8_t>(at);
        const int sign = b & 1 ? -1 : 1;
        for (int d = 0; d < 8; d++)
          taps[d][4 * p + b] = static_cast<uint8_t>(
              at + sign * (8 * kDirs[d][b >> 1][0] + kDirs[d][b >> 1][1]));
      }
    }
  }
  alignas(64) uint8_t taps[8][64] = {};
  alignas(64) uint8_t centre[64] = {};
};
alignas(64) constexpr QuadrantIndices kQuadrantIndices;

// The gf2p8affineqb matrix that shifts every byte right by s (0 .. 8).
constexpr uint64_t ShiftRightMatrix(int s) {
  uint64_t m = 0;
  for (int i = 0; i + s < 8; i++) m |= uint64_t(1) << (i + s) << (8 * (7 - i));
  return m;
}

// One kind of tap of a block: per byte its strength, the matrix of its
// damping shift and its weights (of taps k0, k0, k1, k1 in each 32-bit lane).
struct ByteTapKind {
  __m512i strength, shift, weights;
};

DAEDALUS_CDEF_BYTES_ATTR HWY_INLINE ByteTapKind MakeTapKind(int strength,
                                                            int damping, int w0,
                                                            int w1) {
  const int log2 = int(std::bit_width(unsigned(strength))) - 1;
  const int shift = strength ? std::clamp(damping - log2, 0, 8) : 0;
  return {_mm512_set1_epi8(static_cast<char>(strength)),
          _mm512_set1_epi64(static_cast<int64_t>(ShiftRightMatrix(shift))),
          _mm512_set1_epi32(w0 * 0x0101 + w1 * 0x01010000)};
}

// Adds the weighted constrained differences of the four taps gathered by idx
// to sum; with kClip, they join lo and hi (unsigned bytes).
template <bool kClip>
DAEDALUS_CDEF_BYTES_ATTR HWY_INLINE __m512i ByteTaps(__m512i table, __m512i idx,
                                                     __m512i px,
                                                     const ByteTapKind& kind,
                                                     __m512i sum, __m512i& lo,
                                                     __m512i& hi) {
  const __m512i t = _mm512_permutexvar_epi8(idx, table);
  if constexpr (kClip) {
    lo = _mm512_min_epu8(lo, t);
    hi = _mm512_max_epu8(hi, t);
  }
  const __mmask64 below = _mm512_cmpgt_epu8_mask(px, t);
  const __m512i dist =
      _mm512_mask_sub_epi8(_mm512_sub_epi8(t, px), below, px, t);
  const __m512i limit = _mm512_subs_epu8(
      kind.strength, _mm512_gf2p8affine_epi64_epi8(dist, kind.shift, 0));
  const __m512i weights = _mm512_mask_sub_epi8(
      kind.weights, below, _mm512_setzero_si512(), kind.weights);
  return _mm512_dpbusd_epi32(sum, _mm512_min_epu8(dist, limit), weights);
}

// What filters one block: its tap kinds (null: none) and their gather
// indices.
struct ByteBlock {
  const ByteTapKind* pri;
  const ByteTapKind* sec;
  __m512i pri_idx, sec_idx[2];
};

// What the taps of a quadrant give: its samples (in every byte of their
// 32-bit lane), the sums of their weighted constrained differences plus 8,
// and the least and greatest of each output's taps and sample (bytes).
struct QuadrantSums {
  __m512i px, sum, lo, hi;
};

template <bool kPri, bool kSec>
DAEDALUS_CDEF_BYTES_ATTR HWY_INLINE QuadrantSums
QuadrantTaps(__m512i table, const ByteBlock& blk) {
  constexpr bool kClip = kPri && kSec;
  QuadrantSums q;
  q.px = _mm512_permutexvar_epi8(_mm512_load_si512(kQuadrantIndices.centre),
                                 table);
  q.lo = q.px, q.hi = q.px;
  q.sum = _mm512_set1_epi32(8);
  if constexpr (kPri)
    q.sum =
        ByteTaps<kClip>(table, blk.pri_idx, q.px, *blk.pri, q.sum, q.lo, q.hi);
  if constexpr (kSec) {
    q.sum = ByteTaps<kClip>(table, blk.sec_idx[0], q.px, *blk.sec, q.sum, q.lo,
                            q.hi);
    q.sum = ByteTaps<kClip>(table, blk.sec_idx[1], q.px, *blk.sec, q.sum, q.lo,
                            q.hi);
  }
  return q;
}

// The filtered outputs of two quadrants, interleaved: output p of a in byte
// 2 p, of b in byte 2 p + 1. Two quadrants share each step, in 16-bit
// lanes (|sum| < 2^15). Only with both tap kinds is the result clipped to
// its taps' range (see filter_block).
template <bool kClip>
DAEDALUS_CDEF_BYTES_ATTR HWY_INLINE __m256i
FinishQuadrants(const QuadrantSums& a, const QuadrantSums& b) {
  const __mmask32 odd = 0xAAAAAAAA;
  // Lane 2 p of a's sum and px, lane 2 p + 1 of b's.
  __m512i sum =
      _mm512_mask_blend_epi16(odd, a.sum, _mm512_slli_epi32(b.sum, 16));
  const __m512i px =
      _mm512_srli_epi16(_mm512_mask_blend_epi16(odd, a.px, b.px), 8);
  // px + ((8 + s - (s < 0)) >> 4), sum = 8 + s.
  const __mmask32 negative = _mm512_cmplt_epi16_mask(sum, _mm512_set1_epi16(8));
  sum = _mm512_mask_sub_epi16(sum, negative, sum, _mm512_set1_epi16(1));
  __m512i res = _mm512_add_epi16(px, _mm512_srai_epi16(sum, 4));
  if constexpr (kClip) {
    // The least and greatest of each 32-bit lane's 4 bytes, a's in lane 2 p,
    // b's in 2 p + 1: a's upper halves with b's lower ones (vpshrdd) against
    // a's lower halves with b's upper ones, then the two bytes of a lane.
    __m512i lo = _mm512_min_epu8(_mm512_shrdi_epi32(a.lo, b.lo, 16),
                                 _mm512_mask_blend_epi16(odd, a.lo, b.lo));
    lo = _mm512_min_epu8(lo, _mm512_srli_epi16(lo, 8));
    __m512i hi = _mm512_max_epu8(_mm512_shrdi_epi32(a.hi, b.hi, 16),
                                 _mm512_mask_blend_epi16(odd, a.hi, b.hi));
    hi = _mm512_srli_epi16(_mm512_max_epu8(hi, _mm512_slli_epi16(hi, 8)), 8);
    res = _mm512_min_epi16(_mm512_max_epi16(res, lo), hi);
  }
  return _mm512_cvtepi16_epi8(res);
}

// The vpermb indices that turn 4 staged rows of columns -4..11, packed to
// bytes from two registers of two rows each (vpackuswb: 128-bit block L of
// the first register's words, then of the second's), into the top halves
// (rows -2..1, bytes 0..31) of two quadrants' tables side by side: byte
// 8 i + j of the left one's (row i of the four, column j - 2 of the
// quadrant) in the low 256 bits, of the right one's (column j + 2) in the
// high ones. A quadrant row's tables are then the halves of two such
// registers, the rows above and below, each built once.
struct SideIndices {
  constexpr SideIndices() {
    for (int half = 0; half < 2; half++)
      for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++) {
          const int column = j - 2 + 4 * half + 4;  // from column -4
          const int block = 2 * (i % 2) + column / 8;
          bytes[32 * half + 8 * i + j] =
              static_cast<uint8_t>(16 * block + 8 * (i / 2) + column % 8);
        }
  }
  alignas(64) uint8_t bytes[64] = {};
};
alignas(64) constexpr SideIndices kSideIndices;

// The tables of the kH quadrants of two columns side by side whose outputs
// (0, 0) are staged at s and s + 4, top to bottom: left[h], right[h]. Reads
// columns -4..11 of rows -2..4 kH + 1, each row once (a quadrant's rows
// 2..5 are the next one's -2..1; the staged rows' padding past a chunk's
// last block is read, never used). Returns which column's tables have all
// their samples available: bit 0 the left one's, bit 1 the right one's.
// A single-source vpermb and 128-bit block shuffles only: the two-source
// vpermt2b has half their throughput on the Xeon (docs/benchmarks.md).
template <int kH>
DAEDALUS_CDEF_BYTES_ATTR HWY_INLINE unsigned QuadrantColumns(
    const uint16_t* HWY_RESTRICT s, int pitch, __m512i* left, __m512i* right) {
  const uint16_t* r = s - 2 * pitch - 4;
  const __m512i sides = _mm512_load_si512(kSideIndices.bytes);
  __m512i any = _mm512_setzero_si512();  // the OR of every word read
  auto two_rows = [&](int i) DAEDALUS_CDEF_BYTES_ATTR {
    return _mm512_inserti64x4(
        _mm512_castsi256_si512(_mm256_loadu_si256(
            reinterpret_cast<const __m256i*>(r + 2 * i * pitch))),
        _mm256_loadu_si256(
            reinterpret_cast<const __m256i*>(r + (2 * i + 1) * pitch)),
        1);
  };
  // Rows 4 h - 2 .. 4 h + 1 of both tables (SideIndices). vpackuswb keeps
  // a sample's byte and clips kCdefUnavailable to 0, its low byte; only the
  // staged padding, never used, could pack otherwise than to its low byte.
  auto four_rows = [&](int h) DAEDALUS_CDEF_BYTES_ATTR {
    const __m512i a = two_rows(2 * h), b = two_rows(2 * h + 1);
    any = _mm512_ternarylogic_epi32(any, a, b, 0xFE);
    return _mm512_permutexvar_epi8(sides, _mm512_packus_epi16(a, b));
  };
  __m512i above = four_rows(0);
  for (int h = 0; h < kH; h++) {
    const __m512i below = four_rows(h + 1);
    left[h] = _mm512_shuffle_i64x2(above, below, _MM_SHUFFLE(1, 0, 1, 0));
    right[h] = _mm512_shuffle_i64x2(above, below, _MM_SHUFFLE(3, 2, 3, 2));
    above = below;
  }
  // Bit c of either half: column c - 4 of some row holds kCdefUnavailable.
  const __mmask32 outside = _mm512_test_epi16_mask(
      any, _mm512_set1_epi16(static_cast<int16_t>(kCdefUnavailable)));
  const unsigned columns = (outside | outside >> 16) & 0xFFFF;
  return unsigned((columns & 0x03FC) == 0) | unsigned((columns & 0x3FC0) == 0)
                                                 << 1;
}

// Rows of 4 of a quadrant's outputs to o.
DAEDALUS_CDEF_BYTES_ATTR HWY_INLINE void StoreQuadrant(__m128i r, uint8_t* o,
                                                       ptrdiff_t stride,
                                                       int step) {
  if (step == 1) {
    for (int i = 0; i < 4; i++, r = _mm_srli_si128(r, 4))
      _mm_storeu_si32(o + i * stride, r);
    return;
  }
  alignas(16) uint8_t v[16];
  _mm_store_si128(reinterpret_cast<__m128i*>(v), r);
  put_rows<4>(v, 4, o, stride, step);
}

// Rows of 8 bytes, 4 of them, to o. The upper rows by vmovhps through
// _mm_storeh_pi, a builtin: _mm_storeh_pd stores through a double*, which
// is undefined behaviour at an address not a multiple of 8 (UBSan says so).
DAEDALUS_CDEF_BYTES_ATTR HWY_INLINE void StoreRows8(__m256i rows, uint8_t* o,
                                                    ptrdiff_t stride) {
  const __m128i rows01 = _mm256_castsi256_si128(rows);
  const __m128i rows23 = _mm256_extracti128_si256(rows, 1);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(o), rows01);
  _mm_storeh_pi(reinterpret_cast<__m64*>(o + stride), _mm_castsi128_ps(rows01));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(o + 2 * stride), rows23);
  _mm_storeh_pi(reinterpret_cast<__m64*>(o + 3 * stride),
                _mm_castsi128_ps(rows23));
}

// Block j of b through the Highway filter.
template <bool kPair, int kRows>
void FilterOneBlock(const CdefBlocks& b, int j) {
  constexpr int kW = kPair ? 4 : 8;
  CdefBlocks one = b;
  for (int p = 0; p < 2; p++) {
    one.src[p] += kW * j;
    if (one.dst[p]) one.dst[p] += ptrdiff_t(kW) * j * b.step[p];
  }
  one.n = 1, one.pri += j, one.dir += j;
  one.ahead = nullptr;  // the caller's block loop fetches ahead
  filter<uint8_t, kPair, kRows>(one);
}

// vpermb indices that sort two quadrants' interleaved outputs
// (FinishQuadrants): into rows of 8 (a's row, then b's) in rows[], a's rows
// of 4 then b's in planes[].
struct FinishOrders {
  constexpr FinishOrders() {
    for (int p = 0; p < 16; p++)
      for (int e = 0; e < 2; e++) {
        rows[8 * (p / 4) + 4 * e + p % 4] = static_cast<uint8_t>(2 * p + e);
        planes[16 * e + p] = static_cast<uint8_t>(2 * p + e);
      }
  }
  alignas(32) uint8_t rows[32] = {};
  alignas(32) uint8_t planes[32] = {};
};
alignas(32) constexpr FinishOrders kFinishOrders;

// Filters block j of b from the tables of its quadrants (8x8: the left
// column's top to bottom, then the right one's, as QuadrantColumns gives
// them; a pair: U's top to bottom, then V's) and writes it.
template <bool kPair, int kRows, bool kPri, bool kSec>
DAEDALUS_CDEF_BYTES_ATTR HWY_INLINE void FilterBlockBytes(
    const CdefBlocks& b, int j, const __m512i* tables, const ByteBlock& blk) {
  constexpr int kW = kPair ? 4 : 8, kClip = kPri && kSec;
  auto order = [](const uint8_t* bytes) DAEDALUS_CDEF_BYTES_ATTR {
    return _mm256_load_si256(reinterpret_cast<const __m256i*>(bytes));
  };
  if constexpr (kPair) {
    constexpr int kH = kRows / 4;
    for (int h = 0; h < kH; h++) {
      const __m256i uv =
          FinishQuadrants<kClip>(QuadrantTaps<kPri, kSec>(tables[h], blk),
                                 QuadrantTaps<kPri, kSec>(tables[kH + h], blk));
      uint8_t* u =
          b.dst[0] + ptrdiff_t(kW) * j * b.step[0] + 4 * h * b.stride[0];
      uint8_t* v =
          b.dst[1] + ptrdiff_t(kW) * j * b.step[1] + 4 * h * b.stride[1];
      if (b.step[0] == 2 && v == u + 1 && b.stride[0] == b.stride[1]) {
        StoreRows8(uv, u, b.stride[0]);  // interleaved planes (NV12)
        continue;
      }
      const __m256i sorted =
          _mm256_permutexvar_epi8(order(kFinishOrders.planes), uv);
      StoreQuadrant(_mm256_castsi256_si128(sorted), u, b.stride[0], b.step[0]);
      StoreQuadrant(_mm256_extracti128_si256(sorted, 1), v, b.stride[1],
                    b.step[1]);
    }
  } else {
    uint8_t* o = b.dst[0] + ptrdiff_t(kW) * j * b.step[0];
    for (int h = 0; h < 2; h++) {
      const __m256i rows = _mm256_permutexvar_epi8(
          order(kFinishOrders.rows),
          FinishQuadrants<kClip>(QuadrantTaps<kPri, kSec>(tables[h], blk),
                                 QuadrantTaps<kPri, kSec>(tables[2 + h], blk)));
      uint8_t* r = o + 4 * h * b.stride[0];
      if (b.step[0] == 1) {
        StoreRows8(rows, r, b.stride[0]);
      } else {
        alignas(32) uint8_t v[32];
        _mm256_store_si256(reinterpret_cast<__m256i*>(v), rows);
        put_rows<8>(v, 4, r, b.stride[0], b.step[0]);
      }
    }
  }
}

// The same with the block's tap kinds (null: none) chosen at run time.
template <bool kPair, int kRows>
DAEDALUS_CDEF_BYTES_ATTR HWY_INLINE void FilterBlockBytes(
    const CdefBlocks& b, int j, const __m512i* tables, const ByteTapKind* pri,
    const ByteTapKind* sec) {
  const int dir = b.dir[j];
  const ByteBlock blk = {
      pri,
      sec,
      _mm512_load_si512(kQuadrantIndices.taps[dir]),
      {_mm512_load_si512(kQuadrantIndices.taps[(dir + 2) & 7]),
       _mm512_load_si512(kQuadrantIndices.taps[(dir + 6) & 7])}};
  if (pri && sec)
    FilterBlockBytes<kPair, kRows, true, true>(b, j, tables, blk);
  else if (pri)
    FilterBlockBytes<kPair, kRows, true, false>(b, j, tables, blk);
  else if (sec)
    FilterBlockBytes<kPair, kRows, false, true>(b, j, tables, blk);
  else
    FilterBlockBytes<kPair, kRows, false, false>(b, j, tables, blk);
}

// CdefFilterFn of 8-bit blocks of kRows rows, of one plane (kPair false:
// 8 wide, four quadrants) or of U and V (4 wide: one quadrant per 4 rows of
// each, two blocks' tables at once); blocks with unavailable samples go
// through the Highway filter.
template <bool kPair, int kRows>
DAEDALUS_CDEF_BYTES_ATTR void FilterBytes(const CdefBlocks& b) {
  // A block row at the plane's top or bottom: each block has unavailable
  // taps (its row -2 or kRows + 1 lies outside), all go at once.
  const uint16_t* first = b.src[0];
  if (first[-2 * b.pitch] == kCdefUnavailable ||
      first[(kRows + 1) * b.pitch] == kCdefUnavailable) {
    filter<uint8_t, kPair, kRows>(b);
    return;
  }
  // The tap kinds of every primary strength (0..15 at 8 bits).
  ByteTapKind pri_kinds[16];
  for (int pri = 0; pri < 16; pri++) {
    const int w0 = 4 - (pri & 1);
    pri_kinds[pri] = MakeTapKind(pri, b.damping, w0, (w0 & 3) | 2);
  }
  const ByteTapKind sec_kind = MakeTapKind(b.sec, b.damping, 2, 1);
  const ByteTapKind* sec = b.sec ? &sec_kind : nullptr;
  auto kinds = [&](int j) { return b.pri[j] ? &pri_kinds[b.pri[j]] : nullptr; };
  if constexpr (!kPair) {
    for (int j = 0; j < b.n; j++) {
      __m512i t[4];
      if (QuadrantColumns<2>(b.src[0] + 8 * j, b.pitch, &t[0], &t[2]) == 3) {
        FilterBlockBytes<false, kRows>(b, j, t, kinds(j), sec);
      } else {
        FilterOneBlock<false, kRows>(b, j);
      }
      cdef_fetch_ahead(b.ahead);
    }
  } else {
    constexpr int kH = kRows / 4;
    for (int j = 0; j < b.n; j += 2) {
      __m512i t[2][2 * kH];  // [block j, j + 1][plane * kH + h]
      unsigned ok = 3;
      for (int p = 0; p < 2; p++)
        ok &= QuadrantColumns<kH>(b.src[p] + 4 * j, b.pitch, &t[0][p * kH],
                                  &t[1][p * kH]);
      for (int k = 0; k < 2 && j + k < b.n; k++) {
        if (ok >> k & 1)
          FilterBlockBytes<true, kRows>(b, j + k, t[k], kinds(j + k), sec);
        else
          FilterOneBlock<true, kRows>(b, j + k);
        cdef_fetch_ahead(b.ahead);
      }
    }
  }
}

// Installs the island's filters for 8-bit frames.
void CdefInitByteIsland(CdefDsp* dsp) {
  dsp->bd8.filter[kCdef8x8] = FilterBytes<false, 8>;
  dsp->bd8.filter[kCdef4x8Pair] = FilterBytes<true, 8>;
  dsp->bd8.filter[kCdef4x4Pair] = FilterBytes<true, 4>;
}
