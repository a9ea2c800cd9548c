// What the deblock SIMD suites (every mode) share: the scalar and the
// dispatched DSP tables, and a uniform integer draw.
#pragma once

#include <random>

#include "daedalus/deblock.h"

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

}  // namespace daedalus::deblock_simd_test
