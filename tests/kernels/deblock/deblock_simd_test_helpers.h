// What the deblock SIMD suites (every mode) share: the scalar and the
// dispatched DSP tables, a uniform integer draw, mode=vp9's content at its
// thresholds and mode=dct's kinds of the shared contents (the GPU suite
// draws both).
#pragma once

#include <algorithm>
#include <array>
#include <random>
#include <vector>

#include "contents.h"
#include "daedalus/deblock.h"
#include "test_util.h"

namespace daedalus::deblock_simd_test {

struct Tables {
  DeblockDsp ref, simd;
  Tables() {
    deblock_dsp_init_ref(&ref);
    deblock_dsp_init(&simd);
  }
};

inline int in(std::mt19937& gen, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(gen);
}

// Flat-heavy content: blocks of one level with +-1 noise (flat, and flat2
// unless the noise reaches 2), levels apart by the steps that straddle
// blimit (|p0-q0| * 2 = blimit - 1 .. blimit + 2) or by 0..3, and here and
// there one sample off by limit or limit + 1, thresh or thresh + 1.
inline void fill_vp9_thresholds(Image& image, std::mt19937& gen,
                                const DeblockPlaneParams& pp) {
  const Vp9Thresholds& t = pp.vp9;
  const int half = t.blimit / 2;
  const int steps[] = {0,    1,        2,     3,          half - 1,
                       half, half + 1, -half, -(half + 1)};
  const int offs[] = {t.limit, t.limit + 1, t.thresh, t.thresh + 1, 2};
  const int base = std::array{0, 128, 255, 60}[in(gen, 0, 3)];
  const int noise = in(gen, 0, 2);
  std::vector<int> block_steps(64);
  for (int& v : block_steps) v = steps[in(gen, 0, 8)];
  test::fill(image, [&](int, int x, int y) {
    const int block = (x / pp.block_size * 7 + y / pp.block_size * 3) % 64;
    int v = base + block_steps[size_t(block)] + in(gen, 0, noise);
    if (in(gen, 0, 15) == 0)
      v += offs[in(gen, 0, 4)] * (in(gen, 0, 1) ? 1 : -1);
    return uint8_t(std::clamp(v, 0, 255));
  });
}

// mode=dct's content of kind 0..4 (the GPU suite draws it too), from the
// shared contents (util/contents.h) at the image's depth: random, blocky,
// near a level, random 0 / max, a textured gradient.
inline void fill_dct_kind(Image& image, std::mt19937& gen, int kind) {
  static const char* const kKinds[] = {"random", "blocky", "near a level",
                                       "random 0 / max", "textured gradient"};
  test::content_named(kKinds[kind]).fill(image, gen);
}

}  // namespace daedalus::deblock_simd_test
