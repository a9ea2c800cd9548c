// The Highway implementation of the quantiser probe's blocks (docs/spec.md,
// "Quantiser probe"): mode=dct's forward transform on a block per 128-bit
// part (dct8_forward_simd-inl.h, as deblock mode=dct runs it), then, for
// each of the probe's thresholds, a compare of every coefficient's
// magnitude and a count in 16-bit lanes, added up into the caller's
// 32-bit counts before a lane could overflow. The blocks are gathered a row
// at a time, a block row per part: 8 bytes of an 8-bit plane, 8 words of a
// 10-bit one (their values' top 8 bits); other layouts (a channel of
// interleaved chroma, which the probe, on luma, never sees) sample by sample.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "filters/damage/quantiser_probe_simd.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>

#include "daedalus/damage.h"
#include "daedalus/dct8.h"
#include "filters/simd_constants.h"
#include "filters/simd_init.h"

HWY_BEFORE_NAMESPACE();
namespace daedalus {
namespace HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;

#include "filters/dct8_forward_simd-inl.h"

#if DAEDALUS_DCT8_SIMD

using D16 = hn::ScalableTag<int16_t>;
using V16 = hn::Vec<D16>;
using DU = hn::RebindToUnsigned<D16>;
using VU = hn::Vec<DU>;
using D128 = hn::Full128<uint16_t>;  // one block row

constexpr int kLanes = int(hn::MaxLanes(D16()));
constexpr int kParts = kLanes / 8;  // blocks a vector holds
// A lane counts at most 8 coefficients (x[0..7]) a group: 8191 groups fit
// its 16 bits.
constexpr int kFlushGroups = 8191;

// How a block row's samples are loaded.
enum class Layout { kBytes, kWords, kOther };

// Row `i` of block `b` of `plane` as 16-bit lanes: its samples' top 8 bits.
template <Layout kLayout>
HWY_INLINE hn::Vec<D128> block_row(const ConstPlane& plane, ProbeBlock b,
                                   int i) {
  const D128 d;
  const uint8_t* p = plane.row(b.y + i) + ptrdiff_t(b.x) * plane.step;
  if constexpr (kLayout == Layout::kBytes) {
    return hn::PromoteTo(d, hn::LoadU(hn::Rebind<uint8_t, D128>(), p));
  } else if constexpr (kLayout == Layout::kWords) {
    const auto v = hn::LoadU(d, reinterpret_cast<const uint16_t*>(p));
    return hn::And(hn::ShiftRightSame(v, plane.lsb + plane.bit_depth - 8),
                   hn::Set(d, 0xFF));
  } else {
    HWY_ALIGN uint16_t s[8];
    const int cs = plane.bit_depth - 8;
    for (int x = 0; x < 8; x++)
      s[x] = uint16_t(value_at(plane, b.x + x, b.y + i) >> cs);
    return hn::Load(d, s);
  }
}

// Row `i` of blocks[first ..] in the parts of a vector of `d`, the parts
// from `parts` on repeating the block before them (their counts are
// dropped).
template <Layout kLayout, class D>
HWY_INLINE hn::Vec<D> group_row(D d, const ConstPlane& plane,
                                const ProbeBlock* blocks, int first, int parts,
                                int i) {
  if constexpr (hn::MaxLanes(d) == 8) {
    (void)d;
    return block_row<kLayout>(plane, blocks[std::min(first, parts - 1)], i);
  } else {
    const hn::Half<D> dh;
    constexpr int kHalf = int(hn::MaxLanes(dh)) / 8;
    return hn::Combine(
        d, group_row<kLayout>(dh, plane, blocks, first + kHalf, parts, i),
        group_row<kLayout>(dh, plane, blocks, first, parts, i));
  }
}

template <Layout kLayout>
void count_blocks(const ConstPlane& plane, const ProbeBlock* blocks, int n,
                  uint32_t* below) {
  const D16 d;
  const DU du;
  // Threshold k + 1 in every lane of line k: |C| <= T is T + 1 > |C|.
  HWY_ALIGN int16_t above[kProbeBins * kLanes];
  for (int k = 0; k < kProbeBins; k++)
    std::fill_n(above + k * kLanes, kLanes,
                int16_t(dct_threshold(kProbeFirstQp + k) + 1));
  HWY_ALIGN uint16_t counts[kProbeBins * kLanes] = {};
  const auto flush = [&] {
    for (int k = 0; k < kProbeBins; k++)
      for (int l = 0; l < kLanes; l++) {
        below[k] += counts[k * kLanes + l];
        counts[k * kLanes + l] = 0;
      }
  };
  // |C| <= 11432: a magnitude no threshold reaches, for the lanes not
  // counted (the DC, parts past the last block).
  const V16 never = hn::Set(d, 0x7FFF);
  const V16 bias = hn::Set(d, 8 * 256);  // pass 1 on 2P: X0 less 8 * 2 * 128
  const auto lane = hn::Iota(du, 0);
  const auto is_dc =
      hn::RebindMask(d, hn::Eq(hn::And(lane, hn::Set(du, 7)), hn::Zero(du)));
  int groups = 0;
  for (int g = 0; g < n; g += kParts) {
    const int parts = std::min(kParts, n - g);
    V16 x[8];
    HWY_UNROLL(8)
    for (int i = 0; i < 8; i++)
      x[i] = hn::ShiftLeft<1>(hn::BitCast(
          d, group_row<kLayout>(du, plane, blocks + g, 0, parts, i)));
    forward<1>(d, x);
    x[0] = hn::Sub(x[0], bias);
    transpose(d, x);
    forward<2>(d, x);  // x[u], lane v of each block: C[8 v + u]
    V16 a[8];
    HWY_UNROLL(8)
    for (int u = 0; u < 8; u++) a[u] = hn::Abs(x[u]);
    a[0] = hn::IfThenElse(is_dc, never, a[0]);
    if (parts < kParts) {
      const auto counted =
          hn::RebindMask(d, hn::Lt(lane, hn::Set(du, uint16_t(8 * parts))));
      HWY_UNROLL(8)
      for (int u = 0; u < 8; u++) a[u] = hn::IfThenElse(counted, a[u], never);
    }
    for (int k = 0; k < kProbeBins; k++) {
      const V16 t = hn::Load(d, above + k * kLanes);
      VU c = hn::Load(du, counts + k * kLanes);
      HWY_UNROLL(8)
      for (int u = 0; u < 8; u++)
        c = hn::Sub(c, hn::BitCast(du, hn::VecFromMask(d, hn::Gt(t, a[u]))));
      hn::Store(c, du, counts + k * kLanes);
    }
    if (++groups == kFlushGroups) {
      flush();
      groups = 0;
    }
  }
  flush();
}

void probe_blocks(const ConstPlane& plane, const ProbeBlock* blocks, int n,
                  uint32_t* below) {
  if (plane.bit_depth == 8 && plane.step == 1)
    count_blocks<Layout::kBytes>(plane, blocks, n, below);
  else if (plane.bit_depth > 8 && plane.step == 2)
    count_blocks<Layout::kWords>(plane, blocks, n, below);
  else
    count_blocks<Layout::kOther>(plane, blocks, n, below);
}

#else

// The reference is these targets' rung (as deblock mode=dct's).
void probe_blocks(const ConstPlane& plane, const ProbeBlock* blocks, int n,
                  uint32_t* below) {
  DamageDsp ref;
  damage_dsp_init_ref(&ref);
  ref.probe(plane, blocks, n, below);
}

#endif  // DAEDALUS_DCT8_SIMD

}  // namespace

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace daedalus
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace daedalus {

HWY_EXPORT(probe_blocks);

void damage_probe_dsp_init_simd(DamageDsp* dsp) {
  dsp->probe = simd_dispatch(HWY_DISPATCH_TABLE(probe_blocks));
}

}  // namespace daedalus
#endif  // HWY_ONCE
