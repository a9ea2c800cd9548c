#include "daedalus/auto_strength.h"

namespace daedalus {
namespace {

// Per damage level (kDamageLevelStart): the settings the staircase fit of
// docs/estimator.md chose. A refit of the corpus changes this table and
// kDamageLevelStart together.
struct Rung {
  int deblock_qp;                        // 0: off
  int cdef_pri, cdef_sec, cdef_damping;  // pri 0 and sec 0: off
};
constexpr Rung kRungs[kDamageLevels] = {
    {0, 0, 0, 5},   {0, 2, 0, 5},   {26, 2, 0, 5},  {30, 2, 0, 5},
    {30, 15, 0, 6}, {34, 15, 0, 6}, {38, 15, 2, 6}, {42, 15, 2, 6},
};

// Per rung 1.. of the dct ladder (kDctRungStart; at rung 0 the levels
// decide): mode=dct's qp and shifts, then CDEF, as fitted in
// docs/estimator.md. dct_levels.ladder() in tools/quality lists the same
// luma settings.
struct DctRung {
  int qp, shifts;
  int cdef_pri, cdef_sec, cdef_damping;  // pri 0 and sec 0: off
};
constexpr DctRung kDctLadder[kDctRungs - 1] = {
    {22, 8, 0, 0, 5},  {26, 8, 0, 0, 5},  {30, 8, 0, 0, 5},  {30, 8, 2, 0, 5},
    {34, 8, 0, 0, 5},  {38, 8, 0, 0, 5},  {38, 8, 2, 0, 5},  {38, 8, 15, 0, 6},
    {42, 8, 0, 0, 5},  {42, 8, 2, 0, 5},  {42, 8, 15, 0, 6}, {46, 8, 0, 0, 5},
    {46, 8, 15, 0, 6}, {46, 8, 15, 2, 6}, {50, 8, 0, 0, 5},  {50, 8, 15, 0, 6},
    {50, 8, 15, 2, 6},
};

// Up to this rung (the light damage's) chroma is left alone: mode=dct's
// chroma-qp-offset at its minimum (chroma unchanged) and no chroma CDEF. An
// H.264 coder quantises chroma finer than luma, an MPEG one alike, and the
// probe (luma's) cannot tell them apart; even at chroma qp 18 lightly coded
// H.264 lost chroma SSIM (docs/estimator.md, sessions 9 and 10).
constexpr int kLastLightChromaRung = 4;
constexpr int kLightChromaQpOffset = kChromaQpOffsetMin;

bool light_chroma(const DamageEstimate& estimate) {
  return estimate.rung > 0 && estimate.rung <= kLastLightChromaRung;
}

// The halfway lines' share of the grid's excess (per mille) from which the
// 4-sample grid is deblocked: the smallest the fit tried, 0.1.
constexpr int kHalfForBlock4 = 100;

}  // namespace

DamageEstimate strongest_damage() {
  DamageEstimate e;
  e.level = kDamageLevels - 1;
  e.rung = kDctRungs - 1;
  return e;
}

DeblockParams auto_deblock_params(const DamageEstimate& estimate) {
  DeblockParams p;
  p.grid_x = estimate.grid_x;
  p.grid_y = estimate.grid_y;
  if (estimate.rung > 0) {
    p.mode = DeblockMode::Dct;
    p.qp = kDctLadder[estimate.rung - 1].qp;
    p.shifts = kDctLadder[estimate.rung - 1].shifts;
    if (light_chroma(estimate)) p.chroma_qp_offset = kLightChromaQpOffset;
    return p;
  }
  p.qp = kRungs[estimate.level].deblock_qp;
  p.bs = 1;
  p.block_size =
      estimate.luma.spacing == 4 || estimate.luma.half >= kHalfForBlock4 ? 4
                                                                         : 8;
  return p;
}

CdefParams auto_cdef_params(const DamageEstimate& estimate) {
  CdefParams p;
  if (estimate.rung > 0) {
    const DctRung& r = kDctLadder[estimate.rung - 1];
    p.pri_strength = r.cdef_pri;
    p.sec_strength = r.cdef_sec;
    const bool chroma = !light_chroma(estimate);
    p.uv_pri_strength = chroma ? r.cdef_pri : 0;
    p.uv_sec_strength = chroma ? r.cdef_sec : 0;
    p.damping = r.cdef_damping;
    return p;
  }
  const Rung& r = kRungs[estimate.level];
  p.pri_strength = p.uv_pri_strength = r.cdef_pri;
  p.sec_strength = p.uv_sec_strength = r.cdef_sec;
  p.damping = r.cdef_damping;
  return p;
}

}  // namespace daedalus
