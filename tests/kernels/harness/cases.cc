#include "cases.h"

namespace daedalus::harness {

const std::vector<Case>& all_cases() {
  static const std::vector<Case> all = [] {
    std::vector<Case> cases;
    for (std::vector<Case> family : {deblock_cases(), cdef_cases(), mc_cases()})
      cases.insert(cases.end(), family.begin(), family.end());
    return cases;
  }();
  return all;
}

const std::vector<DspCase>& all_dsp_cases() {
  static const std::vector<DspCase> all = damage_cases();
  return all;
}

}  // namespace daedalus::harness
