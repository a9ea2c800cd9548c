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

// Adds the clipped steps of rows [y_begin, y_end) of `plane`, p(x, y) its
// samples' top 8 bits (the sample itself at 8 bits, its value >> 2 at 10:
// docs/spec.md "High bit depth"):
// col_steps[x] += min(|p(x + 1, y) - p(x, y)|, kDamageStepClip) for every
// x < width - 1, and row_steps[y] += the sum over x of
// min(|p(x, y + 1) - p(x, y)|, kDamageStepClip) for every y < height - 1.
// Disjoint row ranges touch disjoint row_steps and add to col_steps, so a
// frame split into bands gives the same sums in any order.
using DamageStepsFn = void (*)(const ConstPlane& plane, int y_begin, int y_end,
                               uint32_t* col_steps, uint32_t* row_steps);

// The quantiser probe's thresholds (docs/spec.md, "Quantiser probe"): the
// probe counts small coefficients at mode=dct's thresholds
// dct_threshold(kProbeFirstQp + k), k < kProbeBins: a quantiser in qp units.
inline constexpr int kProbeFirstQp = 16;
inline constexpr int kProbeBins = 48;  // qp 16..63

// An 8x8 block of the probe: its top-left sample.
struct ProbeBlock {
  int x, y;
};

// Adds to below[k], for every k < kProbeBins, how many of the 63 AC
// coefficients of each block blocks[0..n) of `plane` (wholly inside it)
// have |C| <= dct_threshold(kProbeFirstQp + k): C mode=dct's forward
// transform of the block's samples' top 8 bits.
using DamageProbeFn = void (*)(const ConstPlane& plane,
                               const ProbeBlock* blocks, int n,
                               uint32_t* below);

struct DamageDsp {
  DamageStepsFn steps = nullptr;      // planes of bit depth 8
  DamageStepsFn steps_hbd = nullptr;  // of bit depth 10 (16-bit words)
  DamageProbeFn probe = nullptr;      // planes of any bit depth
};

// The entry of `dsp` for planes of `plane`'s bit depth.
inline DamageStepsFn damage_steps_fn(const DamageDsp& dsp,
                                     const ConstPlane& plane) {
  return plane.bit_depth > 8 ? dsp.steps_hbd : dsp.steps;
}

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
  int blk = 0;      // the step across grid lines beyond the steps beside them
  int half = 0;     // per mille: the halfway lines' excess over the grid's
  int act = 0;      // the picture's mean step, both directions
  int measure = 0;  // blk * blk / act: the level's measure
};

// Finds the grid of a profile (docs/spec.md, "Damage estimate").
BlockGrid find_block_grid(const StepProfile& profile);

// The quantiser probe (docs/spec.md, "Quantiser probe"): a decoder leaves
// exact zeros among the DCT coefficients of the blocks on its own grid and
// nowhere else, in a dead zone as wide as its quantiser. The probe counts
// small coefficients of luma's 8x8 blocks on the found grid ("on") and of
// the blocks halfway between ("off"), at the thresholds of DamageProbeFn.
// Block (i, j) of a set is transformed in the probe's frame f when
// (i + j + f) % probe_period(w, h) == 0: about kProbeBlocks blocks a set
// and frame, whatever the size, which keeps the probe's cost a fixed few
// tenths of a millisecond.
inline constexpr int kProbeBlocks = 1024;

// The smallest power of two P with (w / 8) * (h / 8) <= kProbeBlocks * P.
int probe_period(int width, int height);

struct ZeroCounts {
  // below[k]: AC coefficients with |c| <= dct_threshold(kProbeFirstQp + k)
  uint32_t below[kProbeBins] = {};
  uint32_t total = 0;  // AC coefficients counted
};

struct ProbeCounts {
  ZeroCounts on, off;
};

// Adds the probed blocks of `luma` (the top 8 bits of its samples at any
// bit depth) in the probe's frame `frame` to
// `counts`: "on" has the grid's lines at x = origin_x, y = origin_y (mod
// 8), "off" `halfway` samples further (4, or 2 where the grid's spacing
// is 4: halfway between its lines), through `dsp`'s probe.
void probe_zeros(const DamageDsp& dsp, const ConstPlane& luma, int origin_x,
                 int origin_y, int halfway, int frame, ProbeCounts* counts);

struct QuantiserEstimate {
  int zero_excess = 0;   // max over k of D(k), in 1/65536
  int dead_zone_qp = 0;  // the largest qp whose D is a quarter of it; 0: none
  int measure = 0;       // dead_zone_qp less texture's share, in 1/16 qp
  int frames = 0;        // frames the running counts hold (1: one alone)
};

// Texture widens the dead zone a coder leaves at a given quantiser and
// wants less filtering: the measure is 3/16 qp less per 1/16 of log2 of
// the picture's activity above log2_16(512), a mean step of 2 samples
// (fitted on the corpus, docs/estimator.md).
inline constexpr int kProbeTextureFrom = 144;

// The estimate from running counts and the picture's activity (BlockGrid::
// act, 1/256 sample).
QuantiserEstimate estimate_quantiser(const ProbeCounts& counts, int act);

// 16 log2(x) for x >= 1, its fraction linear between powers of two.
int log2_16(uint32_t x);

// What the running estimate knows after the last frame.
struct DamageEstimate {
  BlockGrid luma;
  BlockGrid chroma;             // the first chroma plane; luma's when gray
  QuantiserEstimate quantiser;  // luma's
  int level = 0;  // 0 (clean) .. kDamageLevels - 1, with hysteresis
  // 1 .. kDctRungs - 1 where the probe finds a DCT coder's quantiser (its
  // zero_excess passed kCodedGate): the dct ladder's rung, which then
  // decides the settings instead of `level`; 0 otherwise.
  int rung = 0;
  int grid_x = 0;  // the grid's origin in luma samples, 0..15: the
  int grid_y = 0;  // deblock element's grid-x / grid-y
  int frames = 0;  // frames folded in since the last reset
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

// The probe's gate: a zero_excess from this (1/65536) on means the frame
// was coded on the found grid (clean clips of the corpus reach 366; MPEG
// and MJPEG ones 5000 and more, H.264 ones 1000 to 6000). Once passed, it
// holds down to 3/4 of it. Counts of one frame alone (after a reset or a
// moved grid) must reach kCodedGateOneFrame to open it: an H.264 stream's
// first, intra, frame keeps zeros its decoder's loop filter takes from the
// frames after it (docs/estimator.md, session 9).
inline constexpr int kCodedGate = 2000;  // 0.03
inline constexpr int kCodedGateOneFrame = 2 * kCodedGate;

// The dct ladder (kernels/tuning/auto_strength.cc): rung k from the
// quantiser measure kDctRungStart[k - 1] on; going down a rung needs the
// measure one qp (16) under its start.
inline constexpr int kDctRungs = 18;
extern const int kDctRungStart[kDctRungs - 1];

// The rung of a quantiser estimate given the previous rung (0: the gate
// was closed) and how many frames its counts hold.
int dct_rung(const QuantiserEstimate& q, int previous_rung);

// A stream's running estimate: profiles decay by 1/8 per frame (a time
// constant of 8 frames), and the grid and level are found on the sums.
// Not thread-safe; one per stream.
class DamageEstimator {
 public:
  DamageEstimator();

  // Forgets every frame (a flush, a seek, new caps, a discontinuity).
  void reset();

  // Measures `frame` (of any bit depth: its samples' top 8 bits) and folds
  // it into the running estimate.
  void add_frame(const ConstFrame& frame);

  const DamageEstimate& estimate() const { return estimate_; }

 private:
  void add_probe(const ConstPlane& luma);

  DamageDsp dsp_;
  StepProfile running_[2];  // luma, first chroma plane
  StepProfile frame_;       // scratch: one plane of the last frame
  ProbeCounts probe_;       // running, on the grid origin below
  // Where probe_ was counted: a change of grid origin, halfway offset or
  // plane size starts it over.
  int probe_origin_x_ = -1, probe_origin_y_ = -1, probe_halfway_ = 0;
  int probe_width_ = 0, probe_height_ = 0;
  int probe_frames_ = 0;  // folded into probe_ since it started
  DamageEstimate estimate_;
};

}  // namespace daedalus
