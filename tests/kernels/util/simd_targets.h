// Runs a test once per Highway target this build compiles and this CPU
// supports, named after the target (e.g. DeblockSimd.Random/AVX2): while it
// runs, the DSP init ladders pick exactly that target.
#pragma once

#include <hwy/tests/hwy_gtest.h>

#define DAEDALUS_SIMD_TEST_SUITE(suite)                                  \
  class suite : public hwy::TestWithParamTarget {};                      \
  INSTANTIATE_TEST_SUITE_P(                                              \
      , suite, testing::ValuesIn(::hwy::SupportedAndGeneratedTargets()), \
      ::hwy::TestParamTargetName)
