// The harness's table, a part per family (<family>_cases.cc).
#pragma once

#include <vector>

#include "harness.h"

namespace daedalus::harness {

std::vector<Case> cdef_cases();
std::vector<Case> mc_cases();
std::vector<Case> deblock_cases();
std::vector<DspCase> damage_cases();

}  // namespace daedalus::harness
