// mode=vp9's edge filter for deblock_simd.cc (docs/spec.md, daedalusdeblock
// mode=vp9), which includes it once per Highway target inside its target
// namespace, after Kind, Limits, abs_diff, less and the store functors it uses.
// Hence no include guard and no includes of its own.

// mode=vp9: 8-bit samples' masks in 8 bits, the 4-tap filter in signed 8
// bits, the wide filters in 16; 16-bit samples' all in 16 bits. The filter
// each lane gets is chosen by selects; a filter no lane gets is skipped, and
// so are the narrower ones where every lane gets the widest (branches on the
// whole vector, which cannot change a lane).

// VP9's 4-tap filter on the lanes of `on`, 16-bit samples: p1 p0 q0 q1 in
// place, the spec's formulas in signed 16 bits (|f + 3 (qs0 - ps0)| <= 3580).
template <class D, class V = hn::VFromD<D>>
HWY_INLINE void vp9_filter4_16(D d, hn::Mask<D> on, hn::Mask<D> hev, V& p1,
                               V& p0, V& q0, V& q1, const Limits<uint16_t>& k) {
  const hn::RebindToSigned<D> di;
  const auto half = hn::Set(di, k.half);
  const auto lo = hn::Neg(half), hi = hn::Sub(half, hn::Set(di, 1));
  const auto c = [&](auto v) { return hn::Min(hn::Max(v, lo), hi); };
  const auto to_signed = [&](V v) { return hn::Sub(hn::BitCast(di, v), half); };
  const auto to_unsigned = [&](auto v) {
    return hn::BitCast(d, hn::Add(v, half));
  };
  const auto ps1 = to_signed(p1), ps0 = to_signed(p0);
  const auto qs0 = to_signed(q0), qs1 = to_signed(q1);
  const auto hev_s = hn::RebindMask(di, hev);
  auto f = hn::IfThenElseZero(hev_s, c(hn::Sub(ps1, qs1)));
  const auto e = hn::Sub(qs0, ps0);
  f = c(hn::Add(f, hn::Add(hn::Add(e, e), e)));
  f = hn::IfThenElseZero(hn::RebindMask(di, on), f);
  const auto f1 = hn::ShiftRight<3>(c(hn::Add(f, hn::Set(di, 4))));
  const auto f2 = hn::ShiftRight<3>(c(hn::Add(f, hn::Set(di, 3))));
  q0 = to_unsigned(c(hn::Sub(qs0, f1)));
  p0 = to_unsigned(c(hn::Add(ps0, f2)));
  const auto g =
      hn::IfThenZeroElse(hev_s, hn::ShiftRight<1>(hn::Add(f1, hn::Set(di, 1))));
  q1 = to_unsigned(c(hn::Sub(qs1, g)));
  p1 = to_unsigned(c(hn::Add(ps1, g)));
}

// VP9's 4-tap filter on the lanes of `on`, 8-bit samples: p1 p0 q0 q1 in
// place. The spec's c(v) is the saturation of signed 8-bit ops.
template <class D, class V = hn::VFromD<D>>
HWY_INLINE void vp9_filter4_8(D d, hn::Mask<D> on, hn::Mask<D> hev, V& p1,
                              V& p0, V& q0, V& q1) {
  const hn::RebindToSigned<D> di;
  const V sign = hn::Set(d, 0x80);
  const auto to_signed = [&](V v) { return hn::BitCast(di, hn::Xor(v, sign)); };
  const auto to_unsigned = [&](auto v) {
    return hn::Xor(hn::BitCast(d, v), sign);
  };
  const auto ps1 = to_signed(p1), ps0 = to_signed(p0);
  const auto qs0 = to_signed(q0), qs1 = to_signed(q1);
  const auto hev_s = hn::RebindMask(di, hev);
  auto f = hn::IfThenElseZero(hev_s, hn::SaturatedSub(ps1, qs1));
  // c(f + 3 (qs0 - ps0)) as three saturating adds of e = c(qs0 - ps0): the
  // addends share a sign, so a sum that saturates stays there, and where e
  // itself was clipped 3 e takes any f past the same end as 3 (qs0 - ps0).
  const auto e = hn::SaturatedSub(qs0, ps0);
  f = hn::SaturatedAdd(hn::SaturatedAdd(hn::SaturatedAdd(f, e), e), e);
  f = hn::IfThenElseZero(hn::RebindMask(di, on), f);
  const auto f1 = hn::ShiftRight<3>(hn::SaturatedAdd(f, hn::Set(di, 4)));
  const auto f2 = hn::ShiftRight<3>(hn::SaturatedAdd(f, hn::Set(di, 3)));
  q0 = to_unsigned(hn::SaturatedSub(qs0, f1));
  p0 = to_unsigned(hn::SaturatedAdd(ps0, f2));
  const auto g =
      hn::IfThenZeroElse(hev_s, hn::ShiftRight<1>(hn::Add(f1, hn::Set(di, 1))));
  q1 = to_unsigned(hn::SaturatedSub(qs1, g));
  p1 = to_unsigned(hn::SaturatedAdd(ps1, g));
}

// VP9's 4-tap filter on the lanes of `on`: p1 p0 q0 q1 in place.
template <class D, class S, class V = hn::VFromD<D>>
HWY_INLINE void vp9_filter4(D d, hn::Mask<D> on, hn::Mask<D> hev, V& p1, V& p0,
                            V& q0, V& q1, const Limits<S>& k) {
  if constexpr (sizeof(S) == 1)
    vp9_filter4_8(d, on, hev, p1, p0, q0, q1);
  else
    vp9_filter4_16(d, on, hev, p1, p0, q0, q1, k);
}

// max(|a - e|, |b - e|, ...) for the samples a, b, ... of one side of the
// edge and e, that side's sample next to it: max - e or e - min, both
// nonzero at once only where the side straddles e. Compared with the flat
// bound + 1 alone: at 8 bits (2) the Or of the two is below it exactly when
// both are; deeper bounds take their Max.
template <class V>
HWY_INLINE V either(V up, V down) {
  if constexpr (sizeof(hn::TFromV<V>) == 1)
    return hn::Or(up, down);
  else
    return hn::Max(up, down);
}
template <class V>
HWY_INLINE V spread(V e, V a, V b, V c) {
  return either(hn::SaturatedSub(hn::Max(hn::Max(a, b), c), e),
                hn::SaturatedSub(e, hn::Min(hn::Min(a, b), c)));
}
template <class V>
HWY_INLINE V spread(V e, V a, V b, V c, V f) {
  return either(hn::SaturatedSub(hn::Max(hn::Max(a, b), hn::Max(c, f)), e),
                hn::SaturatedSub(e, hn::Min(hn::Min(a, b), hn::Min(c, f))));
}

// Calls f(std::integral_constant<int, I>()) for I = First .. End - 1 in order:
// line positions as constants, which pick named vectors at compile time
// (scalable vectors cannot be array elements).
template <int I, int End, class F>
HWY_INLINE void static_for(const F& f) {
  if constexpr (I < End) {
    f(std::integral_constant<int, I>());
    static_for<I + 1, End>(f);
  }
}

// VP9's wide filter with n = N (3 or 7) on the lines lines(i) across an edge
// (i a std::integral_constant), in 16 bits: for 8-bit samples a u16 lane
// holds two lines, its even byte's in the "e" vectors and its odd byte's in
// "o" (split and joined within lanes, no shuffles); 16-bit samples are their
// own "e" (16 of them, at most 16368, fit), and "o" goes unused. out[i] = (W(i)
// + s[i] + 2^(k-1)) >> k, W(i) the sum of s over i - N .. i + N, positions
// clipped to -N-1 .. N: a running sum, which from W(i) to W(i + 1) gains
// s[min(i + 1 + N, N)] and loses s[max(i - N, -N - 1)]. (HWY_SCALAR's one lane
// cannot hold a pair: it promotes instead, and its "o" vectors go unused.)
template <int N, class D, class Lines>
class Wide {
  static constexpr bool kWords = sizeof(hn::TFromD<D>) == 2;
  // Whether a lane holds a pair of lines.
  static constexpr bool kPairs = !kWords && HWY_TARGET != HWY_SCALAR;

 public:
  using DW = std::conditional_t<kPairs, hn::Repartition<uint16_t, D>,
                                hn::Rebind<uint16_t, D>>;
  using VW = hn::VFromD<DW>;
  static constexpr int kShift = N == 3 ? 3 : 4;

  explicit Wide(const Lines& lines) : lines_(lines) {}

  // W(-N), plus the rounding.
  void first(VW& we, VW& wo) const {
    const DW dw;
    const VW n = hn::Set(dw, N), round = hn::Set(dw, 1 << (kShift - 1));
    VW e, o;
    split<-N - 1>(e, o);
    we = hn::Add(hn::Mul(e, n), round);
    if constexpr (kPairs) wo = hn::Add(hn::Mul(o, n), round);
    static_for<-N, 1>([&](auto t) {
      this->template split<decltype(t)::value>(e, o);
      we = hn::Add(we, e);
      if constexpr (kPairs) wo = hn::Add(wo, o);
    });
  }
  // W(I) to W(I + 1).
  template <int I>
  void next(VW& we, VW& wo) const {
    VW ge, go, le, lo;
    split<std::min(I + 1 + N, N)>(ge, go);
    split<std::max(I - N, -N - 1)>(le, lo);
    we = hn::Add(we, hn::Sub(ge, le));
    if constexpr (kPairs) wo = hn::Add(wo, hn::Sub(go, lo));
  }
  template <int I>
  hn::VFromD<D> out(VW we, VW wo) const {
    VW e, o;
    split<I>(e, o);
    e = hn::ShiftRight<kShift>(hn::Add(we, e));
    if constexpr (kWords) {
      (void)wo;
      return hn::BitCast(D(), e);
    } else if constexpr (!kPairs) {
      (void)wo;
      return hn::DemoteTo(D(), e);
    } else {
      o = hn::ShiftRight<kShift>(hn::Add(wo, o));
      return hn::BitCast(D(), hn::Or(e, hn::ShiftLeft<8>(o)));
    }
  }

 private:
  template <int I>
  void split(VW& e, VW& o) const {
    const DW dw;
    const auto line = lines_(std::integral_constant<int, I>());
    if constexpr (kWords) {
      e = o = hn::BitCast(dw, line);
    } else if constexpr (!kPairs) {
      e = o = hn::PromoteTo(dw, line);
    } else {
      const VW v = hn::BitCast(dw, line);
      e = hn::And(v, hn::Set(dw, 0xFF));
      o = hn::ShiftRight<8>(v);
    }
  }
  const Lines& lines_;
};

// Filters the VP9 edge across the lines at(i), i = -reach .. reach - 1 (q0
// at 0), writing changed lines with put(i, v); returns whether any line may
// have changed. Every output comes from the lines as read before the first
// put (named vectors), so puts cannot feed later outputs.
template <Kind K, class D, class At, class Put, class S>
HWY_INLINE bool vp9_filter_lines(D d, const At& at, const Put& put,
                                 const Limits<S>& k) {
  using V = hn::VFromD<D>;
  const V p3 = at(-4), p2 = at(-3), p1 = at(-2), p0 = at(-1);
  const V q0 = at(0), q1 = at(1), q2 = at(2), q3 = at(3);
  const V d_p1 = abs_diff(p1, p0), d_q1 = abs_diff(q1, q0);
  const V steps = hn::Max(
      hn::Max(hn::Max(abs_diff(p3, p2), abs_diff(p2, p1)), hn::Max(d_p1, d_q1)),
      hn::Max(abs_diff(q2, q1), abs_diff(q3, q2)));
  // |p0-q0| * 2 + (|p1-q1| >> 1), saturated: 8-bit blimit < 255 keeps it
  // exact (16-bit lanes never saturate: 2557 at most).
  const V gap = abs_diff(p0, q0);
  const V edge = hn::SaturatedAdd(hn::SaturatedAdd(gap, gap),
                                  hn::ShiftRight<1>(abs_diff(p1, q1)));
  const auto mask = hn::And(less(steps, hn::Set(d, k.limit1)),
                            less(edge, hn::Set(d, k.blimit1)));
  if (hn::AllFalse(d, mask)) return false;

  V f_p1 = p1, f_p0 = p0, f_q0 = q0, f_q1 = q1;
  const auto filter4 = [&] {
    const auto hev = less(hn::Set(d, k.thresh), hn::Max(d_p1, d_q1));
    vp9_filter4(d, mask, hev, f_p1, f_p0, f_q0, f_q1, k);
  };
  const auto filter4_alone = [&] {
    filter4();
    put(-2, f_p1), put(-1, f_p0), put(0, f_q0), put(1, f_q1);
    return true;
  };
  if constexpr (K == Kind::kVp9W4) {
    return filter4_alone();
  } else {
    // The flat bound + 1: 2 at 8 bits.
    const V two = [&] {
      if constexpr (sizeof(S) == 1)
        return hn::Set(d, S(2));
      else
        return hn::Set(d, k.flat1);
    }();
    const auto flat = hn::And(
        mask,
        less(hn::Max(spread(p0, p1, p2, p3), spread(q0, q1, q2, q3)), two));
    if (hn::AllFalse(d, flat)) return filter4_alone();
    const auto line8 = [&](auto ic) -> V {
      constexpr int i = decltype(ic)::value;
      static_assert(i >= -4 && i < 4, "a line of the 8-wide filter");
      if constexpr (i == -4)
        return p3;
      else if constexpr (i == -3)
        return p2;
      else if constexpr (i == -2)
        return p1;
      else if constexpr (i == -1)
        return p0;
      else if constexpr (i == 0)
        return q0;
      else if constexpr (i == 1)
        return q1;
      else if constexpr (i == 2)
        return q2;
      else
        return q3;
    };
    const Wide<3, D, decltype(line8)> w8(line8);
    using VW = typename decltype(w8)::VW;
    VW e8, o8;
    // Line i (-3 .. 2, called in increasing i once w8.first ran): the 8-wide
    // filter's output on flat lanes, the 4-tap filter's (or the line as it
    // was) on the others; the 8-wide filter's alone unless `mixed`.
    const auto narrow = [&](auto ic, bool mixed) -> V {
      constexpr int i = decltype(ic)::value;
      const V w = w8.template out<i>(e8, o8);
      if constexpr (i + 1 < 3) w8.template next<i>(e8, o8);
      if (!mixed) return w;
      V f = line8(ic);
      if constexpr (i == -2) f = f_p1;
      if constexpr (i == -1) f = f_p0;
      if constexpr (i == 0) f = f_q0;
      if constexpr (i == 1) f = f_q1;
      return hn::IfThenElse(flat, w, f);
    };
    if constexpr (K == Kind::kVp9W8) {
      const bool mixed = !hn::AllTrue(d, flat);
      if (mixed) filter4();
      w8.first(e8, o8);
      static_for<-3, 3>(
          [&](auto ic) { put(decltype(ic)::value, narrow(ic, mixed)); });
      return true;
    } else {
      const V p4 = at(-5), p5 = at(-6), p6 = at(-7), p7 = at(-8);
      const V q4 = at(4), q5 = at(5), q6 = at(6), q7 = at(7);
      const auto flat2 = hn::And(flat, less(hn::Max(spread(p0, p4, p5, p6, p7),
                                                    spread(q0, q4, q5, q6, q7)),
                                            two));
      const auto line16 = [&](auto ic) -> V {
        constexpr int i = decltype(ic)::value;
        if constexpr (i == -8)
          return p7;
        else if constexpr (i == -7)
          return p6;
        else if constexpr (i == -6)
          return p5;
        else if constexpr (i == -5)
          return p4;
        else if constexpr (i == 4)
          return q4;
        else if constexpr (i == 5)
          return q5;
        else if constexpr (i == 6)
          return q6;
        else if constexpr (i == 7)
          return q7;
        else
          return line8(ic);
      };
      const Wide<7, D, decltype(line16)> w16(line16);
      VW e16, o16;
      if (hn::AllTrue(d, flat2)) {
        w16.first(e16, o16);
        static_for<-7, 7>([&](auto ic) {
          constexpr int i = decltype(ic)::value;
          put(i, w16.template out<i>(e16, o16));
          if constexpr (i + 1 < 7) w16.template next<i>(e16, o16);
        });
        return true;
      }
      const bool mixed = !hn::AllTrue(d, flat);
      const bool any2 = !hn::AllFalse(d, flat2);
      if (mixed) filter4();
      w8.first(e8, o8);
      e16 = o16 = hn::Zero(typename decltype(w16)::DW());
      if (any2) w16.first(e16, o16);
      static_for<-7, 7>([&](auto ic) {
        constexpr int i = decltype(ic)::value;
        constexpr bool inner = i >= -3 && i < 3;
        V v;
        if constexpr (inner) {
          v = narrow(ic, mixed);
        } else {
          v = line16(ic);
        }
        if (any2) {
          v = hn::IfThenElse(flat2, w16.template out<i>(e16, o16), v);
          if constexpr (i + 1 < 7) w16.template next<i>(e16, o16);
        }
        if (inner || any2) put(i, v);
      });
      return true;
    }
  }
}

// Filters the VP9 edge whose q0 line is at `q` (as filter_edge in
// deblock_simd.cc); returns whether any line may have changed.
template <Kind K, class D, class S, class Io>
HWY_INLINE bool vp9_filter_edge(D d, S* q, ptrdiff_t pitch, const Limits<S>& k,
                                const Io& io) {
  return vp9_filter_lines<K>(
      d, [&](int i) { return io.load(d, q + i * pitch); },
      [&](int i, hn::VFromD<D> v) { io.store(d, v, q + i * pitch); }, k);
}
