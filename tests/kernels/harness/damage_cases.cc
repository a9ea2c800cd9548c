// The damage estimator in the harness's table: a DSP row per entry of
// DamageDsp (steps at 8 bits, steps_hbd at 10), the column sums then the
// row sums of a plane as its output words.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "cases.h"
#include "daedalus/damage.h"

namespace daedalus::harness {
namespace {

size_t columns(const ConstPlane& plane) {
  return size_t(std::max(plane.width - 1, 0));
}

size_t words(const ConstPlane& plane) {
  return columns(plane) + size_t(std::max(plane.height - 1, 0));
}

DspCase::Entry entry_of(DamageStepsFn fn) {
  return [fn](const ConstPlane& plane, int y_begin, int y_end, uint32_t* out) {
    fn(plane, y_begin, y_end, out, out + columns(plane));
  };
}

DspCase row(const char* name, int depth, DamageStepsFn DamageDsp::*entry) {
  return {
      .name = name,
      .bit_depth = depth,
      .words = words,
      .reference =
          [entry] {
            DamageDsp ref;
            damage_dsp_init_ref(&ref);
            return entry_of(ref.*entry);
          },
      .ladder =
          [entry] {
            DamageDsp ref, dsp;
            damage_dsp_init_ref(&ref);
            damage_dsp_init(&dsp);
            EXPECT_NE(dsp.*entry, ref.*entry) << "the ladder picks no SIMD";
            return entry_of(dsp.*entry);
          },
      // Blocks: steps on the grid's lines beside smaller ones.
      .typical = ordinary_contents()[4],
      // Every step clipped on the checkerboard, most on random 0 / max:
      // 2100 rows overflow a column's 16-bit lane unless the sums are
      // flushed in strips, 70000 columns a row's lanes (65536 steps of 32 in
      // 16 bits).
      .extreme_sizes = {{37, 2100}, {70000, 2}, {70, 70}},
      .extreme_contents = {"checkerboard 0 / max", "random 0 / max"},
  };
}

}  // namespace

std::vector<DspCase> damage_cases() {
  return {row("DamageSteps", 8, &DamageDsp::steps),
          row("DamageStepsHbd", 10, &DamageDsp::steps_hbd)};
}

}  // namespace daedalus::harness
