// The scalar reference of the damage estimator's passes over the samples
// (docs/spec.md, "Damage estimate" and "Quantiser probe"): written to be
// read against the spec. 10-bit samples are measured by their top 8 bits
// ("High bit depth").
#include <algorithm>
#include <cstdlib>

#include "daedalus/damage.h"
#include "daedalus/dct8.h"

namespace daedalus {
namespace {

int clipped_step(int a, int b) {
  return std::min(std::abs(a - b), kDamageStepClip);
}

template <class S>
void steps_ref(const ConstPlane& plane, int y_begin, int y_end,
               uint32_t* col_steps, uint32_t* row_steps) {
  const int cs = plane.bit_depth - 8;
  const auto p = [&](int x, int y) {
    return sample_value<S>(plane, x, y) >> cs;
  };
  for (int y = y_begin; y < y_end; y++) {
    for (int x = 0; x + 1 < plane.width; x++)
      col_steps[x] += clipped_step(p(x + 1, y), p(x, y));
    if (y + 1 >= plane.height) continue;
    uint32_t sum = 0;
    for (int x = 0; x < plane.width; x++)
      sum += clipped_step(p(x, y + 1), p(x, y));
    row_steps[y] += sum;
  }
}

// Bin of a coefficient magnitude: the first k with |c| <= threshold(k), or
// kProbeBins when above them all. Built once from mode=dct's thresholds.
struct MagnitudeBins {
  static constexpr int kMax = 11432;  // |C| bound of the forward transform
  uint8_t bin[kMax + 1];
  MagnitudeBins() {
    int k = 0;
    for (int m = 0; m <= kMax; m++) {
      while (k < kProbeBins && m > dct_threshold(kProbeFirstQp + k)) k++;
      bin[m] = uint8_t(k);
    }
  }
};

const MagnitudeBins& magnitude_bins() {
  static const MagnitudeBins bins;
  return bins;
}

// The forward transform of the 8x8 block at (x, y) of `plane`. Luma's
// samples are contiguous in every 8-bit format the elements accept; a
// 10-bit block (or one of interleaved chroma) is transformed on its
// samples' top 8 bits (docs/spec.md "High bit depth"), copied out.
void forward(const ConstPlane& plane, int x, int y, int16_t c[64]) {
  if (plane.bit_depth == 8 && plane.step == 1) {
    dct8x8_forward(plane.row(y) + x, plane.stride, c);
    return;
  }
  const int cs = plane.bit_depth - 8;
  uint8_t top[64];
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++)
      top[8 * i + j] = uint8_t(value_at(plane, x + j, y + i) >> cs);
  dct8x8_forward(top, 8, c);
}

// The probe's blocks: a histogram of their AC magnitudes' bins, then
// cumulated.
void probe_ref(const ConstPlane& plane, const ProbeBlock* blocks, int n,
               uint32_t* below) {
  const MagnitudeBins& bins = magnitude_bins();
  uint32_t histogram[kProbeBins + 1] = {};
  int16_t c[64];
  for (int b = 0; b < n; b++) {
    forward(plane, blocks[b].x, blocks[b].y, c);
    for (int k = 1; k < 64; k++) histogram[bins.bin[std::abs(c[k])]]++;
  }
  uint32_t sum = 0;
  for (int k = 0; k < kProbeBins; k++) {
    sum += histogram[k];
    below[k] += sum;
  }
}

}  // namespace

void damage_dsp_init_ref(DamageDsp* dsp) {
  dsp->steps = steps_ref<uint8_t>;
  dsp->steps_hbd = steps_ref<uint16_t>;
  dsp->probe = probe_ref;
}

}  // namespace daedalus
