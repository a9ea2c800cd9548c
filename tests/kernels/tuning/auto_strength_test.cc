// Auto strength: each level's settings, their order, and what the estimate's
// grid turns into (docs/spec.md, "Auto strength").
#include "daedalus/auto_strength.h"

#include <gtest/gtest.h>

#include "daedalus/dct8.h"

namespace daedalus {
namespace {

DamageEstimate at_level(int level) {
  DamageEstimate e;
  e.level = level;
  return e;
}

TEST(AutoStrength, CleanChangesNothing) {
  EXPECT_TRUE(deblock_is_noop(auto_deblock_params(at_level(0)), true));
  EXPECT_TRUE(cdef_is_noop(auto_cdef_params(at_level(0))));
}

TEST(AutoStrength, LevelOneDeringsOnly) {
  EXPECT_TRUE(deblock_is_noop(auto_deblock_params(at_level(1)), true));
  EXPECT_FALSE(cdef_is_noop(auto_cdef_params(at_level(1))));
}

TEST(AutoStrength, EveryLevelIsValidAndNoWeakerThanTheOneBelow) {
  for (int level = 0; level < kDamageLevels; level++) {
    const DeblockParams d = auto_deblock_params(at_level(level));
    const CdefParams c = auto_cdef_params(at_level(level));
    EXPECT_TRUE(deblock_params_valid(d)) << level;
    EXPECT_TRUE(cdef_params_valid(c)) << level;
    EXPECT_EQ(c.uv_pri_strength, c.pri_strength);
    EXPECT_EQ(c.uv_sec_strength, c.sec_strength);
    if (level == 0) continue;
    const DeblockParams dl = auto_deblock_params(at_level(level - 1));
    const CdefParams cl = auto_cdef_params(at_level(level - 1));
    EXPECT_GE(d.qp, dl.qp) << level;
    EXPECT_GE(c.pri_strength, cl.pri_strength) << level;
    EXPECT_GE(c.sec_strength, cl.sec_strength) << level;
  }
  EXPECT_EQ(auto_deblock_params(at_level(kDamageLevels - 1)).qp, 42);
  EXPECT_EQ(strongest_damage().level, kDamageLevels - 1);
}

TEST(AutoStrength, DeblocksTheGridTheEstimateFound) {
  DamageEstimate e = at_level(5);
  e.grid_x = 13;
  e.grid_y = 2;
  e.luma.spacing = 8;
  e.luma.half = 99;
  DeblockParams d = auto_deblock_params(e);
  EXPECT_EQ(d.grid_x, 13);
  EXPECT_EQ(d.grid_y, 2);
  EXPECT_EQ(d.block_size, 8);
  EXPECT_EQ(d.bs, 1);
  e.luma.half = 100;  // the halfway lines carry a tenth: H.264's 4x4 grid
  EXPECT_EQ(auto_deblock_params(e).block_size, 4);
  e.luma.half = 0;
  e.luma.spacing = 4;
  EXPECT_EQ(auto_deblock_params(e).block_size, 4);
  e.luma.spacing = 16;  // filtered as 8: its lines are among 8's
  EXPECT_EQ(auto_deblock_params(e).block_size, 8);
}

DamageEstimate at_rung(int rung) {
  DamageEstimate e;
  e.rung = rung;
  return e;
}

// The dct ladder's light rungs (1..4) leave chroma alone: mode=dct's
// chroma-qp-offset -51 (chroma qp 0: unchanged) and no chroma CDEF; from
// rung 5 on chroma takes luma's settings (docs/spec.md, "Settings per
// rung").
TEST(AutoStrength, LightRungsLeaveChromaAlone) {
  struct Want {
    int rung, qp, chroma_qp_offset, pri, sec, uv_pri, uv_sec, damping;
  };
  for (const Want& w :
       {Want{1, 22, -51, 0, 0, 0, 0, 5}, Want{3, 30, -51, 0, 0, 0, 0, 5},
        Want{4, 30, -51, 2, 0, 0, 0, 5}, Want{5, 34, 0, 0, 0, 0, 0, 5},
        Want{7, 38, 0, 2, 0, 2, 0, 5}, Want{11, 42, 0, 15, 0, 15, 0, 6},
        Want{17, 50, 0, 15, 2, 15, 2, 6}}) {
    const DeblockParams d = auto_deblock_params(at_rung(w.rung));
    const CdefParams c = auto_cdef_params(at_rung(w.rung));
    EXPECT_EQ(d.mode, DeblockMode::Dct) << w.rung;
    EXPECT_EQ(d.shifts, 8) << w.rung;
    EXPECT_EQ(d.qp, w.qp) << w.rung;
    EXPECT_EQ(d.chroma_qp_offset, w.chroma_qp_offset) << w.rung;
    EXPECT_EQ(c.pri_strength, w.pri) << w.rung;
    EXPECT_EQ(c.sec_strength, w.sec) << w.rung;
    EXPECT_EQ(c.uv_pri_strength, w.uv_pri) << w.rung;
    EXPECT_EQ(c.uv_sec_strength, w.uv_sec) << w.rung;
    EXPECT_EQ(c.damping, w.damping) << w.rung;
    // Luma is filtered at every rung, chroma (4:2:0 and 4:4:4) only from
    // rung 5 on.
    EXPECT_TRUE(deblock_plane_active(deblock_plane_params(d, false, false)));
    for (bool subsampled : {false, true})
      EXPECT_EQ(deblock_plane_active(deblock_plane_params(d, true, subsampled)),
                w.rung > 4)
          << w.rung;
  }
  for (int rung = 1; rung < kDctRungs; rung++) {
    const DeblockParams d = auto_deblock_params(at_rung(rung));
    const CdefParams c = auto_cdef_params(at_rung(rung));
    EXPECT_TRUE(deblock_params_valid(d)) << rung;
    EXPECT_TRUE(cdef_params_valid(c)) << rung;
    if (rung > 4) {
      EXPECT_EQ(d.chroma_qp_offset, 0) << rung;
      EXPECT_EQ(c.uv_pri_strength, c.pri_strength) << rung;
      EXPECT_EQ(c.uv_sec_strength, c.sec_strength) << rung;
    }
  }
  // The levels (rung 0) keep chroma at luma's strength.
  DamageEstimate e = at_rung(0);
  e.level = 4;
  EXPECT_EQ(auto_deblock_params(e).chroma_qp_offset, 0);
  EXPECT_EQ(auto_cdef_params(e).uv_pri_strength,
            auto_cdef_params(e).pri_strength);
}

}  // namespace
}  // namespace daedalus
