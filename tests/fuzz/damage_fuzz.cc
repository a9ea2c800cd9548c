// The damage estimator on fuzzed frames: for every plane, the SIMD pass
// over the samples (the init ladder's best, as the elements use it), run
// over two row bands split at a fuzzed row, must add exactly the step sums
// the scalar reference adds over the whole plane, to sums that did not
// start at 0, writing nothing past either array; and the running estimate
// over such frames must stay within its documented ranges.
#include <string>
#include <vector>

#include "daedalus/damage.h"
#include "fuzz_frame.h"

using namespace daedalus;

namespace {

struct Sums {
  std::vector<uint32_t> cols, rows;
};

// Sums sized exactly (AddressSanitizer sees a write one past the end), all
// starting at `start`.
Sums sums_of(const ConstPlane& plane, uint32_t start) {
  return {std::vector<uint32_t>(plane.width - 1, start),
          std::vector<uint32_t>(plane.height - 1, start)};
}

void check_plane(const ConstPlane& plane, int split, uint32_t start,
                 const fuzz::FuzzFrame& frame, int index) {
  // measure_steps() passes no empty plane (field 1 of a one-row chroma
  // plane is one).
  if (plane.width < 1 || plane.height < 1) return;
  static const DamageDsp ref = [] {
    DamageDsp d;
    damage_dsp_init_ref(&d);
    return d;
  }();
  static const DamageDsp best = [] {
    DamageDsp d;
    damage_dsp_init(&d);
    return d;
  }();
  Sums a = sums_of(plane, start), b = sums_of(plane, start);
  ref.steps(plane, 0, plane.height, a.cols.data(), a.rows.data());
  split = split % (plane.height + 1);
  best.steps(plane, 0, split, b.cols.data(), b.rows.data());
  best.steps(plane, split, plane.height, b.cols.data(), b.rows.data());
  const std::string what = "plane " + std::to_string(index) + " split at " +
                           std::to_string(split) + ", sums from " +
                           std::to_string(start);
  fuzz::require(a.cols == b.cols, "column sums differ, " + what, frame);
  fuzz::require(a.rows == b.rows, "row sums differ, " + what, frame);
}

bool grid_in_range(const BlockGrid& g) {
  return (g.spacing == 4 || g.spacing == 8 || g.spacing == 16) &&
         g.offset_x >= 0 && g.offset_x < g.spacing && g.offset_y >= 0 &&
         g.offset_y < g.spacing && g.measure >= 0;
}

// The documented ranges (daedalus/damage.h).
bool estimate_in_range(const DamageEstimate& e) {
  const QuantiserEstimate& q = e.quantiser;
  return grid_in_range(e.luma) && grid_in_range(e.chroma) && e.level >= 0 &&
         e.level < kDamageLevels && e.grid_x >= 0 && e.grid_x < 16 &&
         e.grid_y >= 0 && e.grid_y < 16 && e.rung >= 0 && e.rung < kDctRungs &&
         q.zero_excess >= 0 && q.zero_excess <= 65536 && q.measure >= 0 &&
         (q.dead_zone_qp == 0 ||
          (q.dead_zone_qp >= kProbeFirstQp &&
           q.dead_zone_qp < kProbeFirstQp + kProbeBins)) &&
         (e.rung == 0 || q.zero_excess >= kCodedGate - (kCodedGate >> 2)) &&
         q.frames >= 1 && q.frames <= e.frames &&
         // The first frame opens the gate only from kCodedGateOneFrame.
         (e.frames > 1 || e.rung == 0 || q.zero_excess >= kCodedGateOneFrame);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  const int split = in.ConsumeIntegralInRange(0, 600);
  const uint32_t start = in.ConsumeIntegral<uint32_t>();
  const int frames = in.ConsumeIntegralInRange(1, 3);
  const fuzz::FuzzFrame frame(in);
  const ConstFrame view = frame.view();
  for (int p = 0; p < view.num_planes; p++)
    check_plane(view.planes[p], split, start, frame, p);

  DamageEstimator estimator;
  for (int i = 0; i < frames; i++) estimator.add_frame(view);
  const DamageEstimate& e = estimator.estimate();
  fuzz::require(
      estimate_in_range(e) && e.frames == frames,
      "estimate out of range after " + std::to_string(frames) + " frames",
      frame);
  return 0;
}
