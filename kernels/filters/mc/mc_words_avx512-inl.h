// The AVX-512 island of mc's 10-bit 2-D 8-tap pass, for mc_simd.cc, which
// includes it inside its AVX3 target's namespace after mc_words_simd-inl.h
// and mc_dot_avx512-inl.h, whose DAEDALUS_MC_DOT_ATTR it takes (VNNI's
// vpdpwssd through Sum8, VBMI's vpermt2b, VBMI2's vpshrdd, prefetchw) and
// undefines. Run only where mc_cpu_has_dot_products() says the CPU has them.
// Hence no include guard and no includes of its own.
//
// The plan of the 8-bit quad rows (QuadRows) at 16 bits: a place holds 4
// horizontally filtered source rows as two pair rows, rows 2p and 2p + 1
// zipped in each 32-bit lane, which is how vpdpwssd reads two vertical
// taps. The horizontal pass filters the 4 rows and zips them as it stores
// (ClipEvenOdd of two rows' sums), so no row is stored twice. Output rows
// s = 0 .. 3 of a step read the places' 6 pair rows: rows 0 and 2 pair
// rows 0 .. 3 and 1 .. 4, rows 1 and 3 the pair rows between them, made by
// a permute from two neighbours (the high row of one, the low of the next).
// So each pair row is loaded once for 4 output rows.
//
// A place's group (64 columns) is 512 bytes: per pair row, per half of 32
// columns, the even columns' lanes (lane j: column 2j of the half), then
// the odd ones'. The vertical pass then sums the even and the odd columns
// apart and ClipEvenOdd puts them in order, as the horizontal pass does.
// No array of vectors (GCC at -O2 keeps those on the stack).

// A group's columns, and a half's; the words of a place's group, from a
// pair row's group to the next pair row's, and from a half to the next.
constexpr size_t kWordColumns = 64, kHalfColumns = 32;
constexpr size_t kWordQuadGroup = 256, kWordPairRow = 128, kWordHalf = 64;
static_assert(2 * hn::MaxLanes(D16()) == kWordColumns);  // McRows' G

// The taps of a phase in pairs (TapPair).
struct WordTaps {
  explicit WordTaps(const int16_t* taps)
      : t01(TapPair(taps[0], taps[1])),
        t23(TapPair(taps[2], taps[3])),
        t45(TapPair(taps[4], taps[5])),
        t67(TapPair(taps[6], taps[7])) {}
  V16 t01, t23, t45, t67;
};

// The 8-tap sum (plus the rounding) of each 32-bit lane's 8 samples, in
// pairs p0 .. p3.
HWY_INLINE V32 Sum8Taps(const WordTaps& t, V16 p0, V16 p1, V16 p2, V16 p3) {
  return Sum8<true>(t.t01, t.t23, t.t45, t.t67, p0, p1, p2, p3);
}

// The sums of the even outputs of a vector, and of the odd ones.
struct EvenOdd {
  V32 even, odd;
};

// vpermt2b's indices for Between: in each 32-bit lane, the high word of
// the first vector's lane, then the low word of the second's.
struct BetweenIndices {
  constexpr BetweenIndices() {
    for (int j = 0; j < 16; j++) {
      bytes[4 * j] = static_cast<uint8_t>(4 * j + 2);
      bytes[4 * j + 1] = static_cast<uint8_t>(4 * j + 3);
      bytes[4 * j + 2] = static_cast<uint8_t>(64 + 4 * j);
      bytes[4 * j + 3] = static_cast<uint8_t>(64 + 4 * j + 1);
    }
  }
  alignas(64) uint8_t bytes[64] = {};
};
alignas(64) constexpr BetweenIndices kBetweenIndices;

// The pair row of rows 2p + 1 and 2p + 2 from pair rows p and p + 1
// (`between`: kBetweenIndices). A byte permute rather than vpshrdd: Intel
// runs vpshrdd, the shifts and vpdpwssd on one port for 512-bit vectors,
// the permutes on another (on the Xeon no slower, on the Zen 5 faster).
DAEDALUS_MC_DOT_ATTR HWY_INLINE V16 Between(V16 a, V16 b, __m512i between) {
  return V16{_mm512_permutex2var_epi8(a.raw, between, b.raw)};
}

// The vector k dwords further than a in a row of values, b the one after a.
template <int k>
DAEDALUS_MC_DOT_ATTR HWY_INLINE V16 Dwords(V16 a, V16 b) {
  return V16{_mm512_alignr_epi32(b.raw, a.raw, k)};
}

// The vector one word further than a in a row of values, b the one a dword
// further.
DAEDALUS_MC_DOT_ATTR HWY_INLINE V16 WordAfter(V16 a, V16 b) {
  return V16{_mm512_shrdi_epi32(a.raw, b.raw, 16)};
}

// Where the horizontal pass takes a group's values: the window's copy
// (Extend's values), or the source row's words in place, whose values are
// the low bits (masked: I420_10LE and the other planar formats) or the
// high ones (shifted: P010's luma). Other layouts read the copy.
enum class WordSource { kCopy, kMasked, kShifted };

WordSource WordSourceOf(const ConstPlane& src) {
  if (src.step != 2) return WordSource::kCopy;  // interleaved chroma
  if (src.lsb == 0) return WordSource::kMasked;
  if (src.lsb + src.bit_depth == 16) return WordSource::kShifted;
  return WordSource::kCopy;
}

// The values of the 32 words at p from kSource (mask: the plane's largest
// value; lsb: its shift).
template <WordSource kSource>
DAEDALUS_MC_DOT_ATTR HWY_INLINE V16 SourceValues(const uint16_t* p, V16 mask,
                                                 int lsb) {
  if constexpr (kSource == WordSource::kMasked) return hn::And(Values(p), mask);
  if constexpr (kSource == WordSource::kShifted) {
    const DU16 du;
    return hn::BitCast(D16(), hn::ShiftRightSame(hn::LoadU(du, p), lsb));
  }
  return Values(p);
}

// The horizontal sums of 32 outputs of the row at p (values from kSource,
// output x from p[x .. x + 7]). The 8 windows (from p + k) come from the
// two vectors at p: in the copy aligned (an unaligned vector crosses a
// cache line, and costs two loads), and each decoded once rather than 8
// times. (Loading the odd windows instead was no faster on the Xeon and
// slower on the Zen 5.)
template <WordSource kSource>
DAEDALUS_MC_DOT_ATTR HWY_INLINE EvenOdd HorizontalSums(
    const WordTaps& t, const uint16_t* HWY_RESTRICT p, V16 mask, int lsb) {
  const V16 a = SourceValues<kSource>(p, mask, lsb);
  const V16 b = SourceValues<kSource>(p + 32, mask, lsb);
  const V16 w2 = Dwords<1>(a, b), w4 = Dwords<2>(a, b);
  const V16 w6 = Dwords<3>(a, b), w8 = Dwords<4>(a, b);
  return {Sum8Taps(t, a, w2, w4, w6),
          Sum8Taps(t, WordAfter(a, w2), WordAfter(w2, w4), WordAfter(w4, w6),
                   WordAfter(w6, w8))};
}

// Fetches into the cache the lines of [at, at + bytes) from each of the 4
// addresses: for writing (prefetchw) or for reading. A hint, so the
// addresses are integers: they may lie outside any row.
template <bool kWrite>
DAEDALUS_MC_DOT_ATTR HWY_INLINE void Prefetch(const uintptr_t* rows, size_t at,
                                              size_t bytes) {
  constexpr _mm_hint kHint = kWrite ? _MM_HINT_ET0 : _MM_HINT_T0;
  for (size_t b = at; b < at + bytes; b += 64)
    for (int r = 0; r < 4; r++)
      _mm_prefetch(reinterpret_cast<const char*>(rows[r] + b), kHint);
}

// A group of the place: the sums of the windows' groups at r[0..3] (values
// from kSource) into q, ClipEvenOdd's.
template <WordSource kSource>
DAEDALUS_MC_DOT_ATTR HWY_INLINE void HorizontalWordGroup(
    const WordTaps& t, V16 vmax, V16 mask, int lsb, const uint16_t* const* r,
    uint16_t* HWY_RESTRICT q) {
  const DU16 du;
  for (size_t p = 0; p < 2; p++) {
    for (size_t h = 0; h < 2; h++) {
      const size_t x = kHalfColumns * h;
      const EvenOdd sa = HorizontalSums<kSource>(t, r[2 * p] + x, mask, lsb);
      const EvenOdd sb =
          HorizontalSums<kSource>(t, r[2 * p + 1] + x, mask, lsb);
      uint16_t* o = q + kWordPairRow * p + kWordHalf * h;
      hn::StoreU(hn::BitCast(du, ClipEvenOdd(sa.even, sb.even, vmax)), du, o);
      hn::StoreU(hn::BitCast(du, ClipEvenOdd(sa.odd, sb.odd, vmax)), du,
                 o + kWordHalf / 2);
    }
  }
}

// The place of the windows e[0..3] (rows 0 and 1 in its first pair row, 2
// and 3 in its second), `groups` groups; the groups a window reads in place
// (the same for the 4) from `in_place` (lsb: the source's). Meanwhile a
// group's `group_bytes` of the source rows that the next place will read,
// from ahead[0..3], are fetched into the cache: once the frame is larger
// than the cache the source stream holds the pass back, and the hardware's
// prefetch alone does not keep ahead of it.
DAEDALUS_MC_DOT_ATTR HWY_NOINLINE void HorizontalWordQuads(
    const Window<uint16_t>* e, const int16_t* taps, int maxv,
    WordSource in_place, int lsb, size_t groups, const uintptr_t* ahead,
    size_t group_bytes, uint16_t* HWY_RESTRICT out) {
  const WordTaps t(taps);
  const V16 vmax = hn::Set(D16(), static_cast<int16_t>(maxv));
  for (size_t g = 0; g < groups; g++) {
    Prefetch<false>(ahead, g * group_bytes, group_bytes);
    const uint16_t* r[4] = {e[0].group(g), e[1].group(g), e[2].group(g),
                            e[3].group(g)};
    uint16_t* q = out + kWordQuadGroup * g;
    if (!e[0].in_place(g))
      HorizontalWordGroup<WordSource::kCopy>(t, vmax, vmax, 0, r, q);
    else if (in_place == WordSource::kMasked)
      HorizontalWordGroup<WordSource::kMasked>(t, vmax, vmax, lsb, r, q);
    else
      HorizontalWordGroup<WordSource::kShifted>(t, vmax, vmax, lsb, r, q);
  }
}

// Output rows 0 .. 3 of one parity (even or odd columns) of a half: the
// sums over pair rows p0 .. p5 (the values at p0 .. p5).
struct FourRows {
  V32 r0, r1, r2, r3;
};

DAEDALUS_MC_DOT_ATTR HWY_INLINE FourRows
VerticalSums(const WordTaps& t, __m512i between, const uint16_t* p0,
             const uint16_t* p1, const uint16_t* p2, const uint16_t* p3,
             const uint16_t* p4, const uint16_t* p5) {
  const V16 a0 = Values(p0), a1 = Values(p1), a2 = Values(p2);
  const V16 a3 = Values(p3), a4 = Values(p4), a5 = Values(p5);
  const V16 b01 = Between(a0, a1, between), b12 = Between(a1, a2, between);
  const V16 b23 = Between(a2, a3, between), b34 = Between(a3, a4, between);
  const V16 b45 = Between(a4, a5, between);
  return {Sum8Taps(t, a0, a1, a2, a3), Sum8Taps(t, b01, b12, b23, b34),
          Sum8Taps(t, a1, a2, a3, a4), Sum8Taps(t, b12, b23, b34, b45)};
}

// Stores an output row's 32 values (kShift: shifted by `shift`) at row + x,
// where there is a row.
template <bool kShift>
DAEDALUS_MC_DOT_ATTR HWY_INLINE void StoreWords(V32 even, V32 odd, V16 vmax,
                                                int shift, uint16_t* row,
                                                size_t x) {
  if (!row) return;
  const DU16 du;
  auto v = hn::BitCast(du, ClipEvenOdd(even, odd, vmax));
  if constexpr (kShift) v = hn::ShiftLeftSame(v, shift);
  hn::StoreU(v, du, row + x);
}

// Groups [g0, g0 + count) of output rows s = 0 .. 3 of the 8-tap vertical
// pass over places q[0..2] (pair rows 0 .. 5; row s reads source rows s ..
// s + 7 of them), row s written from out[s] on where out[s] is not null,
// shifted by `shift` (kShift). Where `ahead` is not 0, the same columns of
// the rows `ahead` bytes after out[0..3] (the next step's) are fetched for
// writing meanwhile, so that the stores do not wait for their lines.
template <bool kShift>
DAEDALUS_MC_DOT_ATTR HWY_NOINLINE void VerticalWordQuads(
    const uint16_t* const* q, const int16_t* taps, int maxv, int shift,
    size_t g0, size_t count, uint16_t* const* out, ptrdiff_t ahead) {
  const WordTaps t(taps);
  const V16 vmax = hn::Set(D16(), static_cast<int16_t>(maxv));
  const __m512i between = _mm512_load_si512(kBetweenIndices.bytes);
  uintptr_t next[4] = {};
  if (ahead)
    for (int r = 0; r < 4; r++)
      next[r] = reinterpret_cast<uintptr_t>(out[r]) + ahead;
  for (size_t i = 0; i < count; i++) {
    if (ahead) Prefetch<true>(next, i * kWordColumns * 2, kWordColumns * 2);
    for (size_t h = 0; h < 2; h++) {
      const size_t at = kWordQuadGroup * (g0 + i) + kWordHalf * h;
      const uint16_t* p0 = q[0] + at;
      const uint16_t* p2 = q[1] + at;
      const uint16_t* p4 = q[2] + at;
      const uint16_t* p1 = p0 + kWordPairRow;
      const uint16_t* p3 = p2 + kWordPairRow;
      const uint16_t* p5 = p4 + kWordPairRow;
      const size_t o = kWordHalf / 2;  // the odd columns' lanes
      const FourRows even = VerticalSums(t, between, p0, p1, p2, p3, p4, p5);
      const FourRows odd = VerticalSums(t, between, p0 + o, p1 + o, p2 + o,
                                        p3 + o, p4 + o, p5 + o);
      const size_t x = kWordColumns * i + kHalfColumns * h;
      StoreWords<kShift>(even.r0, odd.r0, vmax, shift, out[0], x);
      StoreWords<kShift>(even.r1, odd.r1, vmax, shift, out[1], x);
      StoreWords<kShift>(even.r2, odd.r2, vmax, shift, out[2], x);
      StoreWords<kShift>(even.r3, odd.r3, vmax, shift, out[3], x);
    }
  }
}

#undef DAEDALUS_MC_DOT_ATTR
