// The Highway implementation of the damage estimator's pass over the
// samples (docs/spec.md, "Damage estimate"). Samples are widened to 16-bit
// lanes, a lane per column: column steps add up in a 16-bit array over
// strips of rows short enough not to overflow, row steps in a vector that
// is summed at the end of the row. One channel of interleaved chroma is
// loaded as 16-bit pairs whose high byte (the other channel) is masked off.
// 10-bit samples (16-bit words, docs/spec.md "High bit depth") are loaded
// as words shifted down to their top 8 bits; one channel of P010 chroma
// de-interleaved from pairs of words.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "filters/damage/damage_simd.cc"
#include <hwy/aligned_allocator.h>
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstdlib>

#include "daedalus/damage.h"
#include "filters/simd_init.h"

HWY_BEFORE_NAMESPACE();
namespace daedalus {
namespace HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;

using D16 = hn::ScalableTag<uint16_t>;
using V16 = hn::Vec<D16>;

// 2047 steps of at most 32 fit a 16-bit lane.
constexpr int kStripRows = 2047;

// Samples x .. x + lanes - 1 of a row whose samples of type S are kStep
// bytes apart, as 8-bit values: `shift` moves a 10-bit word's top 8 value
// bits (lsb + 2 up) to the bottom.
template <class S, int kStep>
HWY_INLINE V16 load_samples(D16 d16, const uint8_t* p, int shift) {
  if constexpr (sizeof(S) == 2) {
    const auto* w = reinterpret_cast<const uint16_t*>(p);
    V16 v;
    if constexpr (kStep == 2) {
      v = hn::LoadU(d16, w);
    } else {
      V16 other;  // the other channel
      hn::LoadInterleaved2(d16, w, v, other);
    }
    return hn::And(hn::ShiftRightSame(v, shift), hn::Set(d16, 0xFF));
  } else if constexpr (kStep == 1) {
    const hn::Rebind<uint8_t, D16> d8;
    return hn::PromoteTo(d16, hn::LoadU(d8, p));
  } else {
#if HWY_TARGET == HWY_SCALAR
    return hn::Set(d16, p[0]);
#else
    static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
                  "the sample is the low byte of a pair");
    const hn::Repartition<uint8_t, D16> d8;
    return hn::And(hn::BitCast(d16, hn::LoadU(d8, p)), hn::Set(d16, 0xFF));
#endif
  }
}

HWY_INLINE V16 clipped_step(V16 a, V16 b, V16 clip) {
  return hn::Min(hn::Or(hn::SaturatedSub(a, b), hn::SaturatedSub(b, a)), clip);
}

int clipped_step(int a, int b) {
  return std::min(std::abs(a - b), kDamageStepClip);
}

template <class S, int kStep>
void steps_strided(const ConstPlane& plane, int y_begin, int y_end,
                   uint32_t* col_steps, uint32_t* row_steps) {
  const D16 d16;
  const int lanes = int(hn::Lanes(d16));
  const int w = plane.width;
  const int cs = plane.bit_depth - 8, shift = plane.lsb + cs;
  // The tails' samples, as the vectors see them.
  const auto p = [&](int x, int y) {
    return sample_value<S>(plane, x, y) >> cs;
  };
  // Vectors cover columns [0, vec_end): loads reach sample x + lanes and,
  // for a channel of interleaved chroma, the other channel's sample after it.
  int vec_end = 0;
  while (vec_end + lanes + 2 <= w) vec_end += lanes;
  const V16 clip = hn::Set(d16, kDamageStepClip);
  auto acc = hwy::AllocateAligned<uint16_t>(size_t(std::max(vec_end, 1)));
  HWY_ALIGN uint16_t lane_sums[HWY_MAX_BYTES / 2];

  for (int strip = y_begin; strip < y_end; strip += kStripRows) {
    const int strip_end = std::min(strip + kStripRows, y_end);
    std::fill(acc.get(), acc.get() + vec_end, uint16_t(0));
    for (int y = strip; y < strip_end; y++) {
      const uint8_t* row = plane.row(y);
      const bool below = y + 1 < plane.height;
      const uint8_t* next = below ? plane.row(y + 1) : row;
      uint32_t row_sum = 0;
      V16 vertical = hn::Zero(d16);
      int pending = 0;  // vectors summed into `vertical`
      for (int x = 0; x < vec_end; x += lanes) {
        const V16 s = load_samples<S, kStep>(d16, row + x * kStep, shift);
        const V16 right =
            load_samples<S, kStep>(d16, row + (x + 1) * kStep, shift);
        hn::Store(
            hn::Add(hn::Load(d16, acc.get() + x), clipped_step(right, s, clip)),
            d16, acc.get() + x);
        if (!below) continue;
        vertical = hn::Add(
            vertical,
            clipped_step(load_samples<S, kStep>(d16, next + x * kStep, shift),
                         s, clip));
        if (++pending == kStripRows || x + lanes >= vec_end) {
          hn::Store(vertical, d16, lane_sums);
          for (int i = 0; i < lanes; i++) row_sum += lane_sums[i];
          vertical = hn::Zero(d16);
          pending = 0;
        }
      }
      for (int x = vec_end; x + 1 < w; x++)
        col_steps[x] += clipped_step(p(x + 1, y), p(x, y));
      if (!below) continue;
      for (int x = vec_end; x < w; x++)
        row_sum += clipped_step(p(x, y + 1), p(x, y));
      row_steps[y] += row_sum;
    }
    for (int x = 0; x < vec_end; x++) col_steps[x] += acc[x];
  }
}

// Frames have planar or two-channel interleaved planes.
void steps(const ConstPlane& plane, int y_begin, int y_end, uint32_t* col_steps,
           uint32_t* row_steps) {
  if (plane.step == 1)
    steps_strided<uint8_t, 1>(plane, y_begin, y_end, col_steps, row_steps);
  else if (plane.step == 2)
    steps_strided<uint8_t, 2>(plane, y_begin, y_end, col_steps, row_steps);
  else
    HWY_ASSERT(false);
}

void steps_hbd(const ConstPlane& plane, int y_begin, int y_end,
               uint32_t* col_steps, uint32_t* row_steps) {
  if (plane.step == 2)
    steps_strided<uint16_t, 2>(plane, y_begin, y_end, col_steps, row_steps);
  else if (plane.step == 4)
    steps_strided<uint16_t, 4>(plane, y_begin, y_end, col_steps, row_steps);
  else
    HWY_ASSERT(false);
}

}  // namespace
// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace daedalus
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace daedalus {

HWY_EXPORT(steps);
HWY_EXPORT(steps_hbd);

void damage_dsp_init_simd(DamageDsp* dsp) {
  dsp->steps = simd_dispatch(HWY_DISPATCH_TABLE(steps));
  dsp->steps_hbd = simd_dispatch(HWY_DISPATCH_TABLE(steps_hbd));
}

}  // namespace daedalus
#endif  // HWY_ONCE
