// What the MC suites share (mc_test.cc, mc_simd_test.cc): the filter banks to
// walk.
#pragma once

#include "daedalus/mc.h"

namespace daedalus::test {

// Every bank of daedalus/mc.h.
inline constexpr McFilter kMcFilters[] = {McFilter::Regular, McFilter::Sharp,
                                          McFilter::Smooth, McFilter::Bilinear};
// The 8-tap banks (bilinear has two taps).
inline constexpr McFilter kMc8TapFilters[] = {
    McFilter::Regular, McFilter::Sharp, McFilter::Smooth};

}  // namespace daedalus::test
