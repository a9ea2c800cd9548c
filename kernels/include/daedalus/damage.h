// The damage estimator (docs/spec.md, "Damage estimate"): measures how
// blocky a stream is from the steps between neighbouring samples, finds the
// block grid (spacing and phase) and keeps a running estimate over frames.
// Integer arithmetic throughout: the same frames give the same estimate on
// every machine, backend and thread count.
#pragma once

#include <cstdint>
#include <vector>

#include "daedalus/frame.h"

namespace daedalus {

// A step larger than this is an edge of the picture, not a block's.
inline constexpr int kDamageStepClip = 32;

// Adds the clipped steps of rows [y_begin, y_end) of `plane`:
// col_steps[x] += min(|p(x + 1, y) - p(x, y)|, kDamageStepClip) for every
// x < width - 1, and row_steps[y] += the sum over x of
// min(|p(x, y + 1) - p(x, y)|, kDamageStepClip) for every y < height - 1.
// Disjoint row ranges touch disjoint row_steps and add to col_steps, so a
// frame split into bands gives the same sums in any order.
using DamageStepsFn = void (*)(const ConstPlane& plane, int y_begin, int y_end,
                               uint32_t* col_steps, uint32_t* row_steps);

struct DamageDsp {
  DamageStepsFn steps = nullptr;
};

// The scalar reference, and the init ladder (then the SIMD implementation
// for the best target this CPU supports, where built).
void damage_dsp_init_ref(DamageDsp* dsp);
void damage_dsp_init(DamageDsp* dsp);

// Step profiles of one plane, summed over frames. `col_weight` is the
// number of samples each column sum stands for (rows times frames, decayed
// like the sums), `row_weight` the same for row sums.
struct StepProfile {
  std::vector<uint32_t> cols;  // width - 1 entries
  std::vector<uint32_t> rows;  // height - 1 entries
  uint32_t col_weight = 0;
  uint32_t row_weight = 0;
};

// Measures one plane into a fresh profile (weights: one frame).
void measure_steps(const DamageDsp& dsp, const ConstPlane& plane,
                   StepProfile* out);

// The block grid of one plane. Lines at x = offset_x (mod spacing) are the
// left edges of blocks (a step between columns x - 1 and x), likewise rows.
// Measures in fixed point: 1/256 of a sample step.
struct BlockGrid {
  int spacing = 8;   // 4, 8 or 16
  int offset_x = 0;  // 0 .. spacing - 1
  int offset_y = 0;
  int blk = 0;   // the step across grid lines beyond the steps beside them
  int half = 0;  // per mille: the halfway lines' excess over the grid's
  int act = 0;   // the picture's mean step, both directions
  int measure = 0;  // blk * blk / act: the level's measure
};

// Finds the grid of a profile (docs/spec.md, "Damage estimate").
BlockGrid find_block_grid(const StepProfile& profile);

// What the running estimate knows after the last frame.
struct DamageEstimate {
  BlockGrid luma;
  BlockGrid chroma;     // the first chroma plane; luma's when gray
  int level = 0;        // 0 (clean) .. kDamageLevels - 1, with hysteresis
  int grid_x = 0;       // the grid's origin in luma samples, 0..15: the
  int grid_y = 0;       // deblock element's grid-x / grid-y
  int frames = 0;       // frames folded in since the last reset
};

inline constexpr int kDamageLevels = 8;

// A blk under this (5/16 sample) is no damage, however smooth the picture:
// its measure is 0. Single clean frames reach 6/16 on texture, and a light
// clip's first frame alone would otherwise deblock smooth content.
inline constexpr int kDamageMinBlk = 80;

// The measure (1/256 sample) from which each level starts, level 1 first:
// the staircase fitted on the quality corpus (docs/estimator.md). Going
// down a level needs the measure below the threshold less
// kDamageHysteresisShift of it.
extern const int kDamageLevelStart[kDamageLevels - 1];
inline constexpr int kDamageHysteresisShift = 2;  // 1/4 of the threshold

// The level of luma's measure given the previous level (the hysteresis).
int damage_level(int measure, int previous_level);

// A stream's running estimate: profiles decay by 1/8 per frame (a time
// constant of 8 frames), and the grid and level are found on the sums.
// Not thread-safe; one per stream.
class DamageEstimator {
 public:
  DamageEstimator();

  // Forgets every frame (a flush, a seek, new caps, a discontinuity).
  void reset();

  // Measures `frame` and folds it into the running estimate.
  void add_frame(const ConstFrame& frame);

  const DamageEstimate& estimate() const { return estimate_; }

 private:
  DamageDsp dsp_;
  StepProfile running_[2];  // luma, first chroma plane
  StepProfile frame_;       // scratch: one plane of the last frame
  DamageEstimate estimate_;
};

}  // namespace daedalus
