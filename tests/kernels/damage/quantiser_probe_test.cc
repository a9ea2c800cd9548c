// The damage estimator's quantiser probe against answers worked from
// docs/spec.md ("Quantiser probe", "Rung"): the log, the estimate from
// counts, which blocks a frame probes, and what it finds on pictures coded
// with a known dead zone.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <tuple>

#include "daedalus/damage.h"
#include "daedalus/dct8.h"
#include "daedalus/deblock.h"
#include "damage_test_helpers.h"
#include "dct_coded.h"
#include "test_util.h"

namespace daedalus {
namespace {

TEST(QuantiserProbe, Log2KnownAnswers) {
  EXPECT_EQ(log2_16(1), 0);
  EXPECT_EQ(log2_16(2), 16);
  EXPECT_EQ(log2_16(3), 24);  // 16 + (48 >> 1) - 16: the linear fraction
  EXPECT_EQ(log2_16(256), 128);
  EXPECT_EQ(log2_16(384), 136);
  EXPECT_EQ(log2_16(1024), 160);
  EXPECT_EQ(log2_16(16384), 224);
}

// On the grid every coefficient is under every threshold; off it 63 k of
// 630 are under threshold k: D(k) = 65536 - floor(63 k * 65536 / 630),
// 65536 at k = 0, and 4 D(k) >= 65536 up to k = 7 (D = 19661; k = 8:
// 13108): the dead zone reaches qp 23. Up to act 512 (L = 144) the measure
// is 16 * 23; at act 1024 (L = 160) 368 - 3 * 16 = 320, at 768 (L = 152)
// 368 - 3 * 8 = 344.
TEST(QuantiserProbe, EstimateKnownAnswer) {
  ProbeCounts c;
  c.on.total = c.off.total = 630;
  for (int k = 0; k < kProbeBins; k++) {
    c.on.below[k] = 630;
    c.off.below[k] = std::min(630, 63 * k);
  }
  QuantiserEstimate q = estimate_quantiser(c, 256);
  EXPECT_EQ(q.zero_excess, 65536);
  EXPECT_EQ(q.dead_zone_qp, 23);
  EXPECT_EQ(q.measure, 368);
  EXPECT_EQ(estimate_quantiser(c, 512).measure, 368);
  EXPECT_EQ(estimate_quantiser(c, 768).measure, 344);
  EXPECT_EQ(estimate_quantiser(c, 1024).measure, 320);
  EXPECT_EQ(estimate_quantiser(c, 0).measure, 0);
  EXPECT_EQ(estimate_quantiser(c, 0).dead_zone_qp, 23);
}

TEST(QuantiserProbe, NoExcessNoDeadZone) {
  ProbeCounts c;
  EXPECT_EQ(estimate_quantiser(c, 256).zero_excess, 0);  // nothing counted
  c.on.total = c.off.total = 63;
  for (int k = 0; k < kProbeBins; k++) c.on.below[k] = c.off.below[k] = k;
  const QuantiserEstimate q = estimate_quantiser(c, 256);
  EXPECT_EQ(q.zero_excess, 0);
  EXPECT_EQ(q.dead_zone_qp, 0);
  EXPECT_EQ(q.measure, 0);
  // Fewer zeros on the grid than off it is no excess either.
  for (int k = 0; k < kProbeBins; k++) c.on.below[k] = 0;
  EXPECT_EQ(estimate_quantiser(c, 256).zero_excess, 0);
}

TEST(QuantiserProbe, PeriodKnownAnswers) {
  EXPECT_EQ(probe_period(7, 7), 1);  // no whole block
  EXPECT_EQ(probe_period(64, 48), 1);
  EXPECT_EQ(probe_period(256, 256), 1);      // 1024 blocks
  EXPECT_EQ(probe_period(264, 256), 2);      // 1056
  EXPECT_EQ(probe_period(1040, 264), 8);     // 4290
  EXPECT_EQ(probe_period(1920, 1080), 32);   // 32400
  EXPECT_EQ(probe_period(3840, 2160), 128);  // 129600
}

// Constant 8x8 blocks on a grid at (3, 5): on it every AC coefficient is
// exactly 0; off it the blocks straddle four constants. A 1040x264 plane
// (period 8) has 129 x 32 whole blocks on the grid and 129 x 32 off it
// (lines at 7, 1); frame f probes those with (i + j + f) % 8 == 0, and 8
// frames probe each block once.
TEST(QuantiserProbe, WhichBlocksAFrameProbes) {
  Image image(PixelFormat::GRAY8, 1040, 264, 3);
  test::fill(image, [](int, int x, int y) {
    const int bx = (x + 5) / 8, by = (y + 3) / 8;  // lines at x = 3, y = 5
    return uint8_t((bx * 37 + by * 91) % 200 + 20);
  });
  const ConstPlane luma = image.frame().planes[0];
  ASSERT_EQ(probe_period(luma.width, luma.height), 8);
  DamageDsp dsp;
  damage_dsp_init(&dsp);
  int blocks = 0;
  for (int f = 0; f < 8; f++) {
    ProbeCounts c;
    probe_zeros(dsp, luma, 3, 5, 4, f, &c);
    int expected = 0;
    for (int j = 0; j < 32; j++)
      for (int i = 0; i < 129; i++) expected += (i + j + f) % 8 == 0;
    EXPECT_EQ(c.on.total, uint32_t(63 * expected)) << f;
    EXPECT_EQ(c.off.total, uint32_t(63 * expected)) << f;
    for (int k = 0; k < kProbeBins; k++) EXPECT_EQ(c.on.below[k], c.on.total);
    EXPECT_LT(c.off.below[0], c.off.total) << f;
    for (int k = 1; k < kProbeBins; k++)
      EXPECT_GE(c.off.below[k], c.off.below[k - 1]);
    blocks += expected;
  }
  EXPECT_EQ(blocks, 129 * 32);
  ProbeCounts tiny;
  Image one(PixelFormat::GRAY8, 7, 7, 0);
  probe_zeros(dsp, one.frame().planes[0], 0, 0, 4, 0, &tiny);
  EXPECT_EQ(tiny.on.total, 0u);
  EXPECT_EQ(estimate_quantiser(tiny, 256).zero_excess, 0);
}

// Smooth content with texture, coded at qp q on the grid at (ox, oy): all
// of it, or `share` 64ths of its blocks (code_some_blocks) on content with
// block steps of `step` on that grid (which show the grid to the step
// profiles however few blocks are coded).
Image coded(int q, int ox, int oy, uint32_t salt, int share = 64,
            int step = 0) {
  Image image(PixelFormat::GRAY8, 256, 144, 0);
  damage_test::fill_blocks(image, 8, ox, oy, step);  // smooth content
  // The same texture on every run (not the run's seed): how many frames the
  // grid search needs, and on which phase it settles, depend on the texture
  // (a few run seeds in a hundred made the q 34 clip settle a phase off);
  // these tests check the probe, not that search.
  std::mt19937 gen(salt);
  std::uniform_int_distribution<int> texture(-8, 8);
  const Plane y = image.frame().planes[0];
  for (int r = 0; r < y.height; r++)
    for (int x = 0; x < y.width; x++)
      y.at(x, r) = uint8_t(std::clamp(y.at(x, r) + texture(gen), 0, 255));
  test::code_some_blocks(y, q, ox, oy, share);
  return image;
}

// probe_zeros against a count written from the spec's words, with the
// transform as its oracle: random content, sizes (1x1 and odd ones
// included), origins and frames; through the reference's probe and the
// init ladder's.
TEST(QuantiserProbe, CountsMatchTheSpec) {
  std::mt19937 gen = test::rng(11);
  std::uniform_int_distribution<int> size(1, 300), origin(0, 7), frame(0, 20);
  DamageDsp dsps[2];
  damage_dsp_init_ref(&dsps[0]);
  damage_dsp_init(&dsps[1]);
  for (int round = 0; round < 40; round++) {
    const DamageDsp& dsp = dsps[round % 2];
    Image image(PixelFormat::GRAY8, size(gen), size(gen), origin(gen));
    test::fill_random(image, gen);
    const ConstPlane luma = image.frame().planes[0];
    const int ox = origin(gen), oy = origin(gen), f = frame(gen);
    const int halfway = gen() % 2 ? 4 : 2;
    ProbeCounts c;
    probe_zeros(dsp, luma, ox, oy, halfway, f, &c);
    for (auto [set, x0, y0] :
         {std::tuple{&c.on, ox, oy},
          std::tuple{&c.off, (ox + halfway) % 8, (oy + halfway) % 8}}) {
      ZeroCounts want;
      for (int j = 0; y0 + 8 * j + 8 <= luma.height; j++) {
        for (int i = 0; x0 + 8 * i + 8 <= luma.width; i++) {
          if ((i + j + f) % probe_period(luma.width, luma.height) != 0)
            continue;
          int16_t coef[64];
          dct8x8_forward(luma.row(y0 + 8 * j) + x0 + 8 * i, luma.stride, coef);
          for (int a = 1; a < 64; a++)
            for (int k = 0; k < kProbeBins; k++)
              want.below[k] +=
                  std::abs(coef[a]) <= dct_threshold(kProbeFirstQp + k);
          want.total += 63;
        }
      }
      ASSERT_EQ(set->total, want.total) << round;
      for (int k = 0; k < kProbeBins; k++)
        ASSERT_EQ(set->below[k], want.below[k]) << round;
    }
  }
}

// The estimator finds the grid from the steps, then the coder's zeros on
// it (far more of them than off it), and its rung follows the staircase.
TEST(QuantiserProbe, TheEstimatorFindsACodersZeros) {
  for (int q : {34, 40, 46}) {
    const Image image = coded(q, 3, 5, q);
    DamageEstimator e;
    for (int f = 0; f < 8; f++) e.add_frame(image.frame());
    const DamageEstimate& d = e.estimate();
    EXPECT_EQ(d.luma.offset_x % 8, 3) << q;
    EXPECT_EQ(d.luma.offset_y % 8, 5) << q;
    EXPECT_GE(d.quantiser.zero_excess, 2 * kCodedGate) << q;
    EXPECT_GT(d.quantiser.dead_zone_qp, 0) << q;
    EXPECT_GT(d.quantiser.measure, 0) << q;
    // Where the hysteresis holds it: at or above the rung the measure
    // gives from 0, and a fixed point of the staircase.
    EXPECT_GE(d.rung, dct_rung(d.quantiser, 0)) << q;
    EXPECT_EQ(dct_rung(d.quantiser, d.rung), d.rung) << q;
    // Probed on a grid beside the coder's, the zeros are not there.
    DamageDsp dsp;
    damage_dsp_init(&dsp);
    ProbeCounts beside;
    for (int f = 0; f < 8; f++)
      probe_zeros(dsp, image.frame().planes[0], 5, 7, 4, f, &beside);
    EXPECT_LT(estimate_quantiser(beside, 256).zero_excess,
              d.quantiser.zero_excess / 4)
        << q;
  }
}

// Uncoded pictures have no zeros of their own on any grid: the gate stays
// shut and the rung 0.
TEST(QuantiserProbe, UncodedPicturesStayOnRungZero) {
  std::mt19937 gen = test::rng(5);
  Image noise(PixelFormat::GRAY8, 256, 144, 0),
      smooth(PixelFormat::GRAY8, 256, 144, 0);
  test::fill_random(noise, gen);
  damage_test::fill_blocks(smooth, 8, 0, 0, 0);
  for (const Image* image : {&noise, &smooth}) {
    DamageEstimator e;
    for (int f = 0; f < 8; f++) e.add_frame(image->frame());
    EXPECT_LT(e.estimate().quantiser.zero_excess,
              kCodedGate - (kCodedGate >> 2));
    EXPECT_EQ(e.estimate().rung, 0);
  }
}

// Up from rung 0: as many rungs as starts at or under the measure (equal
// starts are rungs the fit used for no clip: they are passed together).
int rungs_up_to(int measure) {
  int n = 0;
  for (int start : kDctRungStart) n += measure >= start;
  return n;
}

TEST(QuantiserProbe, RungStaircaseWithGateAndHysteresis) {
  for (int i = 0; i + 1 < kDctRungs - 1; i++)
    EXPECT_LE(kDctRungStart[i], kDctRungStart[i + 1]);
  const int first = kDctRungStart[0];
  ASSERT_GT(rungs_up_to(first), 0);
  QuantiserEstimate q;
  q.frames = 2;  // counts of more than one frame: the gate of OneFrameAlone
  q.zero_excess = kCodedGate;
  q.measure = first - 1;
  EXPECT_EQ(dct_rung(q, 0), 0);
  q.measure = first;
  EXPECT_EQ(dct_rung(q, 0), rungs_up_to(first));
  // The gate: shut from rung 0 under kCodedGate, open from a rung above 0
  // down to 3/4 of it.
  q.zero_excess = kCodedGate - 1;
  EXPECT_EQ(dct_rung(q, 0), 0);
  EXPECT_EQ(dct_rung(q, 1), rungs_up_to(first));
  q.zero_excess = kCodedGate - (kCodedGate >> 2);
  EXPECT_GT(dct_rung(q, 1), 0);
  q.zero_excess = kCodedGate - (kCodedGate >> 2) - 1;
  EXPECT_EQ(dct_rung(q, kDctRungs - 1), 0);
  q.zero_excess = kCodedGate;
  q.measure = 1 << 20;
  EXPECT_EQ(dct_rung(q, 0), kDctRungs - 1);
  // Down only a qp (16) under the rung's start.
  const int top = kDctRungStart[kDctRungs - 2];
  q.measure = top - 16;
  EXPECT_EQ(dct_rung(q, kDctRungs - 1), kDctRungs - 1);
  q.measure = top - 17;
  EXPECT_LT(dct_rung(q, kDctRungs - 1), kDctRungs - 1);
  // Every rung holds at its start less 16 and leaves under it.
  for (int rung = 1; rung < kDctRungs; rung++) {
    q.measure = kDctRungStart[rung - 1] - 16;
    EXPECT_EQ(dct_rung(q, rung), rung) << rung;
    q.measure = kDctRungStart[rung - 1] - 17;
    EXPECT_LT(dct_rung(q, rung), rung) << rung;
  }
  q.measure = 0;
  EXPECT_EQ(dct_rung(q, kDctRungs - 1), 0);
}

// Counts of one frame alone open the gate only from twice kCodedGate; from
// two frames on kCodedGate does; once open, the hysteresis holds whatever
// the counts hold.
TEST(QuantiserProbe, OneFrameAloneNeedsTwiceTheGate) {
  ASSERT_EQ(kCodedGateOneFrame, 2 * kCodedGate);
  QuantiserEstimate q;
  q.measure = kDctRungStart[0];
  const int rung = rungs_up_to(q.measure);
  for (int frames : {0, 1}) {
    q.frames = frames;
    q.zero_excess = kCodedGateOneFrame - 1;
    EXPECT_EQ(dct_rung(q, 0), 0) << frames;
    q.zero_excess = kCodedGate;
    EXPECT_EQ(dct_rung(q, 0), 0) << frames;
    q.zero_excess = kCodedGateOneFrame;
    EXPECT_EQ(dct_rung(q, 0), rung) << frames;
    // A rung already open (the grid moved: the counts started over) holds
    // down to 3/4 of kCodedGate.
    q.zero_excess = kCodedGate - (kCodedGate >> 2);
    EXPECT_EQ(dct_rung(q, rung), rung) << frames;
  }
  q.frames = 2;
  q.zero_excess = kCodedGate;
  EXPECT_EQ(dct_rung(q, 0), rung);
  q.zero_excess = kCodedGate - 1;
  EXPECT_EQ(dct_rung(q, 0), 0);
}

// In the estimator: a first frame whose zeros pass kCodedGate but not twice
// it (the fewest coded blocks that pass kCodedGate, in 64ths of the
// picture: each adds about a fifth of it) stays on rung 0, and the same
// picture again opens the gate; a picture coded all over opens it at once.
// Every frame has its estimate when it is added (nothing waits for the
// next).
TEST(QuantiserProbe, AMarginalFirstFrameWaitsForTheSecond) {
  Image marginal = coded(40, 3, 5, 7, 0, 4);
  for (int share = 1; share <= 64; share++) {
    marginal = coded(40, 3, 5, 7, share, 4);
    DamageEstimator probe;
    probe.add_frame(marginal.frame());
    if (probe.estimate().quantiser.zero_excess >= kCodedGate) break;
  }
  DamageEstimator e;
  e.add_frame(marginal.frame());
  const DamageEstimate first = e.estimate();
  ASSERT_EQ(first.luma.offset_x % 8, 3);
  ASSERT_EQ(first.luma.offset_y % 8, 5);
  EXPECT_EQ(first.quantiser.frames, 1);
  ASSERT_GE(first.quantiser.zero_excess, kCodedGate);
  ASSERT_LT(first.quantiser.zero_excess, kCodedGateOneFrame);
  ASSERT_GE(first.quantiser.measure, kDctRungStart[0]);
  EXPECT_EQ(first.rung, 0);
  e.add_frame(marginal.frame());
  EXPECT_EQ(e.estimate().quantiser.frames, 2);
  ASSERT_GE(e.estimate().quantiser.zero_excess, kCodedGate);
  EXPECT_GT(e.estimate().rung, 0);

  DamageEstimator clear;
  clear.add_frame(coded(40, 3, 5, 7).frame());
  ASSERT_GE(clear.estimate().quantiser.zero_excess, kCodedGateOneFrame);
  EXPECT_EQ(clear.estimate().quantiser.frames, 1);
  EXPECT_GT(clear.estimate().rung, 0);
}

// The probe's counts start over where the grid's origin moves: the same
// frames after a moved grid give what a fresh estimator gives.
TEST(QuantiserProbe, AMovedGridStartsTheCountsOver) {
  const Image a = coded(40, 3, 5, 1), b = coded(34, 6, 2, 2);
  DamageEstimator e, fresh;
  for (int f = 0; f < 6; f++) e.add_frame(a.frame());
  // The step profiles decay slowly: feed b until they find its grid.
  int frames = 0;
  while ((e.estimate().luma.offset_x % 8 != 6 ||
          e.estimate().luma.offset_y % 8 != 2) &&
         frames < 40) {
    e.add_frame(b.frame());
    frames++;
  }
  ASSERT_EQ(e.estimate().luma.offset_x % 8, 6);
  ASSERT_EQ(e.estimate().luma.offset_y % 8, 2);
  // The frame that moved the grid last was the probe's frame 0: two more make
  // three, as three make for a fresh estimator.
  for (int f = 0; f < 2; f++) e.add_frame(b.frame());
  for (int f = 0; f < 3; f++) fresh.add_frame(b.frame());
  ASSERT_EQ(fresh.estimate().luma.offset_x % 8, 6);
  EXPECT_EQ(e.estimate().quantiser.zero_excess,
            fresh.estimate().quantiser.zero_excess);
  EXPECT_EQ(e.estimate().quantiser.dead_zone_qp,
            fresh.estimate().quantiser.dead_zone_qp);
}

}  // namespace
}  // namespace daedalus
