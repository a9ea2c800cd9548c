// The AVX-512 island of mc's 10-bit 2-D 8-tap pass, for mc_simd.cc, which
// includes it inside its AVX3 target's namespace after mc_words_simd-inl.h
// and mc_dot_avx512-inl.h, whose DAEDALUS_MC_DOT_ATTR it takes (VNNI's
// vpdpwssd, prefetchw) and undefines. Run only where
// mc_cpu_has_dot_products() says the CPU has them.
// Hence no include guard and no includes of its own.
//
// The plan of the 8-bit quad rows (QuadRows) at 16 bits: a place holds 4
// horizontally filtered source rows as two pair rows, rows 2p and 2p + 1
// zipped in each 32-bit lane, which is how vpdpwssd reads two vertical
// taps. The horizontal pass filters the 4 rows and zips them as it stores
// (ClipEvenOdd of two rows' sums), so no row is stored twice. Output rows
// s = 0 .. 3 of a step read the places' 6 pair rows: rows 0 and 2 pair
// rows 0 .. 3 and 1 .. 4, rows 1 and 3 pair rows 0 .. 4 and 1 .. 5 with
// the taps shifted by a row (WordTaps), so each pair row is loaded once
// for 4 output rows, and no pair row of the rows between is built. The
// horizontal pass's odd outputs likewise read the even ones' pairs.
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

// The taps of a phase in pairs (TapPair), and shifted by one: 0 and tap
// 0, taps 1 and 2, .., tap 7 and 0.
struct WordTaps {
  explicit WordTaps(const int16_t* taps)
      : t01(TapPair(taps[0], taps[1])),
        t23(TapPair(taps[2], taps[3])),
        t45(TapPair(taps[4], taps[5])),
        t67(TapPair(taps[6], taps[7])),
        s0(TapPair(0, taps[0])),
        s12(TapPair(taps[1], taps[2])),
        s34(TapPair(taps[3], taps[4])),
        s56(TapPair(taps[5], taps[6])),
        s7(TapPair(taps[7], 0)) {}
  V16 t01, t23, t45, t67;
  V16 s0, s12, s34, s56, s7;
};

// The 8-tap sum (plus the rounding) of each 32-bit lane's 8 samples, in
// pairs p0 .. p3.
HWY_INLINE V32 Sum8Taps(const WordTaps& t, V16 p0, V16 p1, V16 p2, V16 p3) {
  return Sum8<true>(t.t01, t.t23, t.t45, t.t67, p0, p1, p2, p3);
}

// The same for the sample after each lane's first, from the pairs p0 ..
// p4 that Sum8Taps's pairs begin (and the one after them): the shifted
// taps, one vpdpwssd more instead of the 4 pairs between (a shuffle each).
DAEDALUS_MC_DOT_ATTR HWY_INLINE V32 Sum8Shifted(const WordTaps& t, V16 p0,
                                                V16 p1, V16 p2, V16 p3,
                                                V16 p4) {
  const V32 sum = Sum8<true>(t.s0, t.s12, t.s34, t.s56, p0, p1, p2, p3);
  return V32{_mm512_dpwssd_epi32(sum.raw, p4.raw, t.s7.raw)};
}

// The sums of the even outputs of a vector, and of the odd ones.
struct EvenOdd {
  V32 even, odd;
};

// The vector k dwords further than a in a row of values, b the one after a.
template <int k>
DAEDALUS_MC_DOT_ATTR HWY_INLINE V16 Dwords(V16 a, V16 b) {
  return V16{_mm512_alignr_epi32(b.raw, a.raw, k)};
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

// The values of the 32 words v from kSource (mask: the plane's largest
// value; lsb: its shift).
template <WordSource kSource>
DAEDALUS_MC_DOT_ATTR HWY_INLINE V16 Decode(__m512i v, V16 mask, int lsb) {
  if constexpr (kSource == WordSource::kMasked) return hn::And(V16{v}, mask);
  if constexpr (kSource == WordSource::kShifted) {
    const DU16 du;
    return hn::BitCast(D16(), hn::ShiftRightSame(hn::VFromD<DU16>{v}, lsb));
  }
  return V16{v};
}

// The 32 words of the row from column x on, where a column outside [0, w)
// takes the word of the nearest edge (Extend's rule): one load, which
// touches no word outside the row (AVX-512 masks a load's lanes).
DAEDALUS_MC_DOT_ATTR HWY_INLINE __m512i ClampedWords(const uint16_t* row,
                                                     ptrdiff_t x, ptrdiff_t w) {
  const ptrdiff_t before = std::clamp<ptrdiff_t>(-x, 0, kHalfColumns);
  const ptrdiff_t inside = std::clamp<ptrdiff_t>(w - x, before, kHalfColumns);
  const __mmask32 left = _bzhi_u32(~0u, static_cast<unsigned>(before));
  const __mmask32 in = _bzhi_u32(~0u, static_cast<unsigned>(inside)) & ~left;
  const __m512i edges = _mm512_mask_blend_epi16(
      left, _mm512_set1_epi16(row[w - 1]), _mm512_set1_epi16(row[0]));
  // (As an integer: the lanes before the row have no address in it.)
  const uintptr_t at = reinterpret_cast<uintptr_t>(row) +
                       static_cast<uintptr_t>(x * ptrdiff_t{sizeof(*row)});
  return _mm512_mask_loadu_epi16(edges, in, reinterpret_cast<const void*>(at));
}

// Where a place's 4 source rows are read: group g (columns x0 + gG ..) of
// row m from row[m] + x0 + gG for g in [lo, hi), by ClampedWords from row
// m (of width w) for the others.
struct WordRows {
  const uint16_t* row[4];
  ptrdiff_t x0, w;
  size_t lo, hi;
};

// The values (from kSource) of the 32 words of row m of r from the group's
// column x on: in place, or (kClamped) by ClampedWords.
template <WordSource kSource, bool kClamped>
DAEDALUS_MC_DOT_ATTR HWY_INLINE V16 RowValues(const WordRows& r, int m,
                                              ptrdiff_t x, V16 mask, int lsb) {
  if constexpr (kClamped)
    return Decode<kSource>(ClampedWords(r.row[m], x, r.w), mask, lsb);
  return Decode<kSource>(_mm512_loadu_si512(r.row[m] + x), mask, lsb);
}

// The horizontal sums of 32 outputs of row m of r from column x (values
// from kSource, output x from columns x .. x + 7). The 5 windows of pairs
// (from x + 2k) come from the two vectors at x: in the copy aligned (an
// unaligned vector crosses a cache line, and costs two loads), and each
// decoded once rather than 5 times. The even outputs read the first 4, the
// odd ones all 5 with the shifted taps (Sum8Shifted). (Loading the odd
// windows instead, or making them by vpshrdd for the taps unshifted, was
// slower.)
template <WordSource kSource, bool kClamped>
DAEDALUS_MC_DOT_ATTR HWY_INLINE EvenOdd HorizontalSums(const WordTaps& t,
                                                       const WordRows& r, int m,
                                                       ptrdiff_t x, V16 mask,
                                                       int lsb) {
  const V16 a = RowValues<kSource, kClamped>(r, m, x, mask, lsb);
  const V16 b = RowValues<kSource, kClamped>(r, m, x + 32, mask, lsb);
  const V16 w2 = Dwords<1>(a, b), w4 = Dwords<2>(a, b);
  const V16 w6 = Dwords<3>(a, b), w8 = Dwords<4>(a, b);
  return {Sum8Taps(t, a, w2, w4, w6), Sum8Shifted(t, a, w2, w4, w6, w8)};
}

// The place's group from column x of the rows r (values from kSource,
// kClamped: by ClampedWords) into q, ClipEvenOdd's.
template <WordSource kSource, bool kClamped>
DAEDALUS_MC_DOT_ATTR HWY_INLINE void HorizontalWordGroup(
    const WordTaps& t, V16 vmax, V16 mask, int lsb, const WordRows& r,
    ptrdiff_t x, uint16_t* HWY_RESTRICT q) {
  const DU16 du;
  for (int p = 0; p < 2; p++) {
    for (size_t h = 0; h < 2; h++) {
      const ptrdiff_t xh = x + static_cast<ptrdiff_t>(kHalfColumns * h);
      const EvenOdd sa =
          HorizontalSums<kSource, kClamped>(t, r, 2 * p, xh, mask, lsb);
      const EvenOdd sb =
          HorizontalSums<kSource, kClamped>(t, r, 2 * p + 1, xh, mask, lsb);
      uint16_t* o = q + kWordPairRow * p + kWordHalf * h;
      hn::StoreU(hn::BitCast(du, ClipEvenOdd(sa.even, sb.even, vmax)), du, o);
      hn::StoreU(hn::BitCast(du, ClipEvenOdd(sa.odd, sb.odd, vmax)), du,
                 o + kWordHalf / 2);
    }
  }
}

// The place of the rows r (rows 0 and 1 in its first pair row, 2 and 3 in
// its second), `groups` groups, their words decoded as `source` says (lsb:
// the source's); kCopy rows are Extend's copies, read in place. Meanwhile
// a group's `group_bytes` of the source rows that the next place will read,
// from ahead[0..3], are fetched into the cache: once the frame is larger
// than the cache the source stream holds the pass back, and the hardware's
// prefetch alone does not keep ahead of it.
DAEDALUS_MC_DOT_ATTR HWY_NOINLINE void HorizontalWordQuads(
    const WordRows& r, const int16_t* taps, int maxv, WordSource source,
    int lsb, size_t groups, const uintptr_t* ahead, size_t group_bytes,
    uint16_t* HWY_RESTRICT out) {
  using S = WordSource;
  const WordTaps t(taps);
  const V16 vmax = hn::Set(D16(), static_cast<int16_t>(maxv));
  const FourAddresses next(ahead);
  for (size_t g = 0; g < groups; g++) {
    Prefetch<false>(next, g * group_bytes, group_bytes);
    const ptrdiff_t x = r.x0 + static_cast<ptrdiff_t>(kWordColumns * g);
    uint16_t* q = out + kWordQuadGroup * g;
    if (g - r.lo >= r.hi - r.lo) {
      if (source == S::kMasked)
        HorizontalWordGroup<S::kMasked, true>(t, vmax, vmax, lsb, r, x, q);
      else
        HorizontalWordGroup<S::kShifted, true>(t, vmax, vmax, lsb, r, x, q);
    } else if (source == S::kCopy) {
      HorizontalWordGroup<S::kCopy, false>(t, vmax, vmax, 0, r, x, q);
    } else if (source == S::kMasked) {
      HorizontalWordGroup<S::kMasked, false>(t, vmax, vmax, lsb, r, x, q);
    } else {
      HorizontalWordGroup<S::kShifted, false>(t, vmax, vmax, lsb, r, x, q);
    }
  }
}

// Output rows 0 .. 3 of one parity (even or odd columns) of a half: the
// sums over pair rows p0 .. p5 (the values at p0 .. p5).
struct FourRows {
  V32 r0, r1, r2, r3;
};

DAEDALUS_MC_DOT_ATTR HWY_INLINE FourRows
VerticalSums(const WordTaps& t, const uint16_t* p0, const uint16_t* p1,
             const uint16_t* p2, const uint16_t* p3, const uint16_t* p4,
             const uint16_t* p5) {
  const V16 a0 = Values(p0), a1 = Values(p1), a2 = Values(p2);
  const V16 a3 = Values(p3), a4 = Values(p4), a5 = Values(p5);
  return {Sum8Taps(t, a0, a1, a2, a3), Sum8Shifted(t, a0, a1, a2, a3, a4),
          Sum8Taps(t, a1, a2, a3, a4), Sum8Shifted(t, a1, a2, a3, a4, a5)};
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
  const FourAddresses next(ahead, out);
  for (size_t i = 0; i < count; i++) {
    for (size_t h = 0; h < 2; h++) {
      // The line that this half writes, in each of the next step's rows.
      if (ahead)
        Prefetch<true>(next, 2 * (kWordColumns * i + kHalfColumns * h), 64);
      const size_t at = kWordQuadGroup * (g0 + i) + kWordHalf * h;
      const uint16_t* p0 = q[0] + at;
      const uint16_t* p2 = q[1] + at;
      const uint16_t* p4 = q[2] + at;
      const uint16_t* p1 = p0 + kWordPairRow;
      const uint16_t* p3 = p2 + kWordPairRow;
      const uint16_t* p5 = p4 + kWordPairRow;
      const size_t o = kWordHalf / 2;  // the odd columns' lanes
      const FourRows even = VerticalSums(t, p0, p1, p2, p3, p4, p5);
      const FourRows odd =
          VerticalSums(t, p0 + o, p1 + o, p2 + o, p3 + o, p4 + o, p5 + o);
      const size_t x = kWordColumns * i + kHalfColumns * h;
      StoreWords<kShift>(even.r0, odd.r0, vmax, shift, out[0], x);
      StoreWords<kShift>(even.r1, odd.r1, vmax, shift, out[1], x);
      StoreWords<kShift>(even.r2, odd.r2, vmax, shift, out[2], x);
      StoreWords<kShift>(even.r3, odd.r3, vmax, shift, out[3], x);
    }
  }
}

#undef DAEDALUS_MC_DOT_ATTR
