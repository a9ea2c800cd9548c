// MC in the harness's table: every filter, every phase of each axis,
// integer and far shifts and the rounding edges of chroma's.
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "cases.h"
#include "daedalus/frame_jobs.h"
#include "daedalus/mc.h"

namespace daedalus::harness {
namespace {

constexpr McFilter kFilters[] = {McFilter::Regular, McFilter::Sharp,
                                 McFilter::Smooth, McFilter::Bilinear};

Setting mc(double dx, double dy, McFilter filter) {
  return {mc_job({dx, dy, filter}), std::string(mc_filter_name(filter)) +
                                        " dx " + std::to_string(dx) + " dy " +
                                        std::to_string(dy)};
}

// Mostly shifts of a few samples, some far ones, a few past the plane
// (every tap clamped).
Setting random_shift(std::mt19937& gen) {
  const double range = gen() % 5 ? 6.0 : gen() % 2 ? 400.0 : kMcMaxShift;
  std::uniform_real_distribution<double> d(-range, range);
  return mc(d(gen), d(gen), kFilters[gen() % 4]);
}

// Shifts as (dx, dy): integer, one axis fractional, both, halves, the
// rounding edges of mc_subpel (1/32 luma is 1/16 after rounding but 0 in
// 4:2:0 chroma), and far outside the plane.
constexpr double kShifts[][2] = {{0, 0},
                                 {3, -2},
                                 {-1, 5},
                                 {0.25, 0},
                                 {-2.75, 0},
                                 {0, 0.5625},
                                 {0, -1.0625},
                                 {1.3, -2.7},
                                 {-0.4, 0.9},
                                 {1.0 / 32, -1.0 / 32},
                                 {3.0 / 32, 5.0 / 32},
                                 {0.5, 0.5},
                                 {4096, -4096},
                                 {-4000.4375, 3000.8125},
                                 {37.5, -20.25},
                                 {-9.9375, 13.0625}};

// Every filter with every sixteenth on each axis (integer parts drawn), and
// with each of kShifts.
std::vector<Setting> every_phase_and_shift(std::mt19937& gen) {
  std::vector<Setting> all;
  for (McFilter filter : kFilters) {
    for (int k = 0; k < 16; k++) {
      const int ix = int(gen() % 9) - 4, iy = int(gen() % 9) - 4;
      all.push_back(mc(ix + k / 16.0, iy - (15 - k) / 16.0, filter));
    }
    for (const auto& s : kShifts) all.push_back(mc(s[0], s[1], filter));
  }
  return all;
}

// Halves and near-halves (the 8-tap sums' extremes on full-swing content),
// and the largest shifts either way.
std::vector<Setting> extremes() {
  std::vector<Setting> all;
  for (McFilter filter : kFilters)
    for (const auto& s : {std::pair{0.5, 0.5},
                          {0.5625, -0.4375},
                          {-1.25, 0.25},
                          {kMcMaxShift, -kMcMaxShift},
                          {-4095.3, 4095.7}})
      all.push_back(mc(s.first, s.second, filter));
  return all;
}

}  // namespace

std::vector<Case> mc_cases() {
  return {{
      .name = "Mc",
      .kernel = Kernel::Mc,
      .random = random_shift,
      .every_value = every_phase_and_shift,
      .extremes = extremes(),
      .typical = ordinary_contents()[0],  // random
      .min_changed = 0.5,
  }};
}

}  // namespace daedalus::harness
