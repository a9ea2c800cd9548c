#include "daedalus/auto_strength.h"

namespace daedalus {
namespace {

// Per damage level (kDamageLevelStart): the settings the staircase fit of
// docs/estimator.md chose. A refit of the corpus changes this table and
// kDamageLevelStart together.
struct Rung {
  int deblock_qp;  // 0: off
  int cdef_pri, cdef_sec, cdef_damping;  // pri 0 and sec 0: off
};
constexpr Rung kRungs[kDamageLevels] = {
    {0, 0, 0, 5},   {0, 2, 0, 5},   {26, 2, 0, 5},  {30, 2, 0, 5},
    {30, 15, 0, 6}, {34, 15, 0, 6}, {38, 15, 2, 6}, {42, 15, 2, 6},
};

// The halfway lines' share of the grid's excess (per mille) from which the
// 4-sample grid is deblocked: the smallest the fit tried, 0.1.
constexpr int kHalfForBlock4 = 100;

}  // namespace

DamageEstimate strongest_damage() {
  DamageEstimate e;
  e.level = kDamageLevels - 1;
  return e;
}

DeblockParams auto_deblock_params(const DamageEstimate& estimate) {
  DeblockParams p;
  p.qp = kRungs[estimate.level].deblock_qp;
  p.bs = 1;
  p.block_size =
      estimate.luma.spacing == 4 || estimate.luma.half >= kHalfForBlock4 ? 4
                                                                         : 8;
  p.grid_x = estimate.grid_x;
  p.grid_y = estimate.grid_y;
  return p;
}

CdefParams auto_cdef_params(const DamageEstimate& estimate) {
  const Rung& r = kRungs[estimate.level];
  CdefParams p;
  p.pri_strength = p.uv_pri_strength = r.cdef_pri;
  p.sec_strength = p.uv_sec_strength = r.cdef_sec;
  p.damping = r.cdef_damping;
  return p;
}

}  // namespace daedalus
