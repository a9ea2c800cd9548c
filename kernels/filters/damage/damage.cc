#include "daedalus/damage.h"

#include <algorithm>
#include <cstdlib>

#include "daedalus_config.h"
#if DAEDALUS_HAVE_SIMD
#include "filters/simd_init.h"
#endif

namespace daedalus {

// The staircase of docs/estimator.md ("The measure"), in 1/256 sample: the
// lowest measure of a corpus clip the fit put on each level, rounded up.
// Level 1 starts at the largest measure of any single clean frame (the
// safety margin).
const int kDamageLevelStart[kDamageLevels - 1] = {7,   26,  36,  566,
                                                  690, 699, 1891};

// The dct ladder's staircase on the quantiser measure (1/16 qp): the
// lowest measure of a corpus clip the fit put on each rung (docs/
// estimator.md; equal starts: rungs the fit used for no clip).
const int kDctRungStart[kDctRungs - 1] = {412, 412, 412, 445, 487, 487,
                                          487, 496, 501, 512, 544, 575,
                                          585, 588, 648, 652, 652};

void damage_dsp_init(DamageDsp* dsp) {
  damage_dsp_init_ref(dsp);
#if DAEDALUS_HAVE_SIMD
  damage_dsp_init_simd(dsp);
  damage_probe_dsp_init_simd(dsp);
#endif
}

void measure_steps(const DamageDsp& dsp, const ConstPlane& plane,
                   StepProfile* out) {
  out->cols.assign(std::max(plane.width - 1, 0), 0);
  out->rows.assign(std::max(plane.height - 1, 0), 0);
  out->col_weight = uint32_t(std::max(plane.height, 0));
  out->row_weight = uint32_t(std::max(plane.width, 0));
  if (plane.width > 0 && plane.height > 0)
    damage_steps_fn(dsp, plane)(plane, 0, plane.height, out->cols.data(),
                                out->rows.data());
}

namespace {

// E(s, phi): the mean over the lines x = phi (mod s), 1 <= x < n - 1, of
// c[x] - (c[x - 1] + c[x + 1]) / 2, per sample, in 1/256 sample.
int excess(const std::vector<uint32_t>& c, uint32_t weight, int s, int phi) {
  const int n = int(c.size());
  int64_t sum = 0, lines = 0;
  for (int x = phi == 0 ? s : phi; x < n - 1; x += s) {
    sum += 2 * int64_t(c[x]) - c[x - 1] - c[x + 1];
    lines++;
  }
  if (lines == 0 || weight == 0) return 0;
  return int(sum * 128 / (lines * int64_t(weight)));
}

// One direction: the phase of spacing 8 with the largest excess (the first
// of equals), its excess, the halfway lines' and the two 16-phases'.
struct Phase {
  int phase = 0;
  int on = 0, half = 0;
  int sixteen[2] = {0, 0};
};

Phase find_phase(const std::vector<uint32_t>& c, uint32_t weight) {
  Phase p;
  p.on = excess(c, weight, 8, 0);
  for (int phi = 1; phi < 8; phi++) {
    const int e = excess(c, weight, 8, phi);
    if (e > p.on) p.on = e, p.phase = phi;
  }
  p.half = excess(c, weight, 8, (p.phase + 4) % 8);
  p.sixteen[0] = excess(c, weight, 16, p.phase);
  p.sixteen[1] = excess(c, weight, 16, p.phase + 8);
  return p;
}

// A direction's mean step, in 1/128 sample: the two directions' add up to
// their mean in 1/256 sample.
int half_mean_step(const std::vector<uint32_t>& c, uint32_t weight) {
  if (c.empty() || weight == 0) return 0;
  int64_t sum = 0;
  for (uint32_t v : c) sum += v;
  return int(sum * 128 / (int64_t(c.size()) * weight));
}

}  // namespace

BlockGrid find_block_grid(const StepProfile& profile) {
  const Phase x = find_phase(profile.cols, profile.col_weight);
  const Phase y = find_phase(profile.rows, profile.row_weight);
  // Sums of both directions: twice their means. Each direction's stronger
  // 16-phase is its own (a crop moves the two directions apart).
  const int on = x.on + y.on, half = x.half + y.half;
  const int s16_max = std::max(x.sixteen[0], x.sixteen[1]) +
                      std::max(y.sixteen[0], y.sixteen[1]);
  const int s16_min = std::min(x.sixteen[0], x.sixteen[1]) +
                      std::min(y.sixteen[0], y.sixteen[1]);

  BlockGrid g;
  g.half = on > 0 ? int(int64_t(half) * 1000 / on) : 0;
  if (on > 0 && 2 * half >= on) {
    g.spacing = 4;
    g.blk = (on + half) / 4;
    g.offset_x = (x.phase + 1) % 4;
    g.offset_y = (y.phase + 1) % 4;
  } else if (on > 0 && 2 * s16_min < s16_max) {
    g.spacing = 16;
    g.blk = s16_max / 2;
    g.offset_x = (x.phase + 1 + (x.sixteen[1] > x.sixteen[0] ? 8 : 0)) % 16;
    g.offset_y = (y.phase + 1 + (y.sixteen[1] > y.sixteen[0] ? 8 : 0)) % 16;
  } else {
    g.spacing = 8;
    g.blk = on / 2;
    g.offset_x = (x.phase + 1) % 8;
    g.offset_y = (y.phase + 1) % 8;
  }
  g.act = half_mean_step(profile.cols, profile.col_weight) +
          half_mean_step(profile.rows, profile.row_weight);
  g.measure = g.blk >= kDamageMinBlk && g.act > 0
                  ? int(int64_t(g.blk) * g.blk / g.act)
                  : 0;
  return g;
}

int damage_level(int measure, int previous_level) {
  int level = std::clamp(previous_level, 0, kDamageLevels - 1);
  while (level < kDamageLevels - 1 && measure >= kDamageLevelStart[level])
    level++;
  while (level > 0) {
    const int start = kDamageLevelStart[level - 1];
    if (measure >= start - (start >> kDamageHysteresisShift)) break;
    level--;
  }
  return level;
}

int dct_rung(const QuantiserEstimate& q, int previous_rung) {
  const int gate = previous_rung > 0 ? kCodedGate - (kCodedGate >> 2)
                   : q.frames <= 1   ? kCodedGateOneFrame
                                     : kCodedGate;
  if (q.zero_excess < gate) return 0;
  int rung = std::clamp(previous_rung, 0, kDctRungs - 1);
  while (rung < kDctRungs - 1 && q.measure >= kDctRungStart[rung]) rung++;
  while (rung > 0 && q.measure < kDctRungStart[rung - 1] - 16) rung--;
  return rung;
}

namespace {

// The luma origin (0..15) of a grid whose luma lines lie at `luma_offset`
// (mod `spacing`) and whose chroma lines, subsampled by 1 << shift, lie at
// `chroma_offset` (mod chroma_spacing): the first candidate both agree on,
// else luma's own offset.
int grid_origin(int luma_offset, int spacing, int chroma_offset,
                int chroma_spacing, int shift) {
  if (shift == 0 || spacing >= 16) return luma_offset;
  for (int g = luma_offset; g < 16; g += spacing)
    if ((g >> shift) % chroma_spacing == chroma_offset) return g;
  return luma_offset;
}

// A running sum with a frame's folded in: r - r / 8 + f (a time constant
// of 8 frames), for the step profiles and the probe's counts alike.
uint32_t decay(uint32_t r, uint32_t f) { return r - (r >> 3) + f; }

// Folds a frame's profile into a running one, the weights likewise. A
// running profile of another size starts over.
void fold(StepProfile* running, const StepProfile& frame) {
  if (running->cols.size() != frame.cols.size() ||
      running->rows.size() != frame.rows.size() || running->col_weight == 0) {
    *running = frame;
    return;
  }
  for (size_t i = 0; i < frame.cols.size(); i++)
    running->cols[i] = decay(running->cols[i], frame.cols[i]);
  for (size_t i = 0; i < frame.rows.size(); i++)
    running->rows[i] = decay(running->rows[i], frame.rows[i]);
  running->col_weight = decay(running->col_weight, frame.col_weight);
  running->row_weight = decay(running->row_weight, frame.row_weight);
}

// Folds a frame's probe counts into running ones like fold() does profiles.
void fold_probe(ProbeCounts* running, const ProbeCounts& frame) {
  for (auto [r, f] : {std::pair{&running->on, &frame.on},
                      std::pair{&running->off, &frame.off}}) {
    for (int k = 0; k < kProbeBins; k++)
      r->below[k] = decay(r->below[k], f->below[k]);
    r->total = decay(r->total, f->total);
  }
}

}  // namespace

DamageEstimator::DamageEstimator() { damage_dsp_init(&dsp_); }

void DamageEstimator::reset() {
  for (StepProfile& p : running_) p = StepProfile();
  probe_frames_ = 0;
  estimate_ = DamageEstimate();
}

// The probe on the grid luma's profiles found (mod 8), after them.
void DamageEstimator::add_probe(const ConstPlane& luma) {
  const int ox = estimate_.luma.offset_x % 8, oy = estimate_.luma.offset_y % 8;
  const int halfway = estimate_.luma.spacing == 4 ? 2 : 4;
  if (probe_frames_ == 0 || ox != probe_origin_x_ || oy != probe_origin_y_ ||
      halfway != probe_halfway_ || luma.width != probe_width_ ||
      luma.height != probe_height_) {
    probe_frames_ = 0;
    probe_origin_x_ = ox, probe_origin_y_ = oy, probe_halfway_ = halfway;
    probe_width_ = luma.width, probe_height_ = luma.height;
  }
  ProbeCounts counts;
  probe_zeros(dsp_, luma, ox, oy, halfway, probe_frames_, &counts);
  if (probe_frames_ == 0)
    probe_ = counts;
  else
    fold_probe(&probe_, counts);
  probe_frames_++;
}

void DamageEstimator::add_frame(const ConstFrame& frame) {
  const int planes = frame.num_planes >= 3 ? 2 : 1;
  for (int p = 0; p < planes; p++) {
    measure_steps(dsp_, frame.planes[p], &frame_);
    fold(&running_[p], frame_);
  }
  DamageEstimate& e = estimate_;
  e.luma = find_block_grid(running_[0]);
  e.chroma = planes == 2 ? find_block_grid(running_[1]) : e.luma;
  e.level = damage_level(e.luma.measure, e.frames == 0 ? 0 : e.level);
  add_probe(frame.planes[0]);
  e.quantiser = estimate_quantiser(probe_, e.luma.act);
  e.quantiser.frames = probe_frames_;
  e.rung = dct_rung(e.quantiser, e.frames == 0 ? 0 : e.rung);
  const int sx = planes == 2 ? frame.chroma_shift_x : 0;
  const int sy = planes == 2 ? frame.chroma_shift_y : 0;
  e.grid_x = grid_origin(e.luma.offset_x, e.luma.spacing, e.chroma.offset_x,
                         e.chroma.spacing, sx);
  e.grid_y = grid_origin(e.luma.offset_y, e.luma.spacing, e.chroma.offset_y,
                         e.chroma.spacing, sy);
  e.frames++;
}

}  // namespace daedalus
