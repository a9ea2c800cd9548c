// What the damage estimator tests share: synthetic pictures with a known
// block grid, and the step profiles of the scalar reference.
#pragma once

#include <cmath>
#include <random>

#include "daedalus/damage.h"
#include "test_util.h"

namespace daedalus::damage_test {

inline StepProfile reference_profile(const ConstPlane& plane) {
  DamageDsp dsp;
  damage_dsp_init_ref(&dsp);
  StepProfile profile;
  measure_steps(dsp, plane, &profile);
  return profile;
}

// Smooth content (slow sines, steps of a sample or two) with
// blocks of `spacing` whose lines lie at x = ox, y = oy (mod spacing) offset
// by +-`step` in a checkerboard: steps of `step` on the grid lines only,
// beyond the content's own.
inline void fill_blocks(Image& image, int spacing, int ox, int oy, int step) {
  test::fill(image, [&](int p, int x, int y) {
    const int bx = (x - ox + 64 * spacing) / spacing;
    const int by = (y - oy + 64 * spacing) / spacing;
    // Aperiodic: a ramp such as (x + y) / 8 would step on a grid of its own.
    const int base = 110 +
                     int(30 * std::sin(x / 37.0) + 25 * std::cos(y / 23.0) +
                         10 * std::sin((x + y) / 13.0)) +
                     (p > 0 ? 20 : 0);
    return uint8_t(base + ((bx + by) % 2 ? step : 0));
  });
}

}  // namespace daedalus::damage_test
