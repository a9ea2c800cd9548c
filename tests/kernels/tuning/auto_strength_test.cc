// Auto strength: each level's settings, their order, and what the estimate's
// grid turns into (docs/spec.md, "Auto strength").
#include <gtest/gtest.h>

#include "daedalus/auto_strength.h"

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

}  // namespace
}  // namespace daedalus
