// The damage estimator in the harness's table: DSP rows of DamageDsp's
// entries. The step profiles (steps at 8 bits, steps_hbd at 10): the column
// sums then the row sums of a plane as its output words. The quantiser
// probe (probe, at both depths): the counts of every block of three grids
// whose top row lies in the rows asked for.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
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

// The probe's grids: lines at (0, 0), at the corner's far side and at an
// odd offset each way.
constexpr ProbeBlock kProbeOrigins[] = {{0, 0}, {7, 7}, {3, 5}};

DspCase::Entry probe_entry(DamageProbeFn fn) {
  return [fn](const ConstPlane& plane, int y_begin, int y_end, uint32_t* out) {
    for (const ProbeBlock origin : kProbeOrigins) {
      std::vector<ProbeBlock> blocks;
      for (int y = origin.y; y + 8 <= plane.height; y += 8) {
        if (y < y_begin || y >= y_end) continue;
        for (int x = origin.x; x + 8 <= plane.width; x += 8)
          blocks.push_back({x, y});
      }
      fn(plane, blocks.data(), int(blocks.size()), out);
      out += kProbeBins;
    }
  };
}

DspCase probe_row(const char* name, int depth) {
  return {
      .name = name,
      .bit_depth = depth,
      .words =
          [](const ConstPlane&) {
            return std::size(kProbeOrigins) * kProbeBins;
          },
      .reference =
          [] {
            DamageDsp ref;
            damage_dsp_init_ref(&ref);
            return probe_entry(ref.probe);
          },
      .ladder =
          [] {
            DamageDsp ref, dsp;
            damage_dsp_init_ref(&ref);
            damage_dsp_init(&dsp);
            EXPECT_NE(dsp.probe, ref.probe) << "the ladder picks no SIMD";
            return probe_entry(dsp.probe);
          },
      // Blocks: their AC, within a block, small.
      .typical = ordinary_contents()[4],
      // The largest coefficients (the checkerboard's reach the transform's
      // bound), the most blocks of one call under every threshold (flat)
      // and a plane of many blocks with its last group partly filled.
      .extreme_sizes = {{70, 70}, {1000, 72}},
      .extreme_contents = {"checkerboard 0 / max", "zero", "random 0 / max"},
  };
}

}  // namespace

std::vector<DspCase> damage_cases() {
  return {row("DamageSteps", 8, &DamageDsp::steps),
          row("DamageStepsHbd", 10, &DamageDsp::steps_hbd),
          probe_row("DamageProbe", 8), probe_row("DamageProbeHbd", 10)};
}

}  // namespace daedalus::harness
