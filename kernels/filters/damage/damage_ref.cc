// The scalar reference of the damage estimator's one pass over the samples
// (docs/spec.md, "Damage estimate"): written to be read against the spec.
#include <algorithm>
#include <cstdlib>

#include "daedalus/damage.h"

namespace daedalus {
namespace {

int clipped_step(int a, int b) { return std::min(std::abs(a - b), kDamageStepClip); }

void steps_ref(const ConstPlane& plane, int y_begin, int y_end,
               uint32_t* col_steps, uint32_t* row_steps) {
  for (int y = y_begin; y < y_end; y++) {
    for (int x = 0; x + 1 < plane.width; x++)
      col_steps[x] += clipped_step(plane.at(x + 1, y), plane.at(x, y));
    if (y + 1 >= plane.height) continue;
    uint32_t sum = 0;
    for (int x = 0; x < plane.width; x++)
      sum += clipped_step(plane.at(x, y + 1), plane.at(x, y));
    row_steps[y] += sum;
  }
}

}  // namespace

void damage_dsp_init_ref(DamageDsp* dsp) { dsp->steps = steps_ref; }

}  // namespace daedalus
