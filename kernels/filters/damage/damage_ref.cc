// The scalar reference of the damage estimator's one pass over the samples
// (docs/spec.md, "Damage estimate"): written to be read against the spec.
// Templated on the sample type S; 10-bit samples are measured by their top
// 8 bits ("High bit depth").
#include <algorithm>
#include <cstdlib>

#include "daedalus/damage.h"

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

}  // namespace

void damage_dsp_init_ref(DamageDsp* dsp) {
  dsp->steps = steps_ref<uint8_t>;
  dsp->steps_hbd = steps_ref<uint16_t>;
}

}  // namespace daedalus
