// CDEF in the harness's table: every strength of luma and chroma with every
// damping.
#include <string>
#include <utility>
#include <vector>

#include "cases.h"
#include "daedalus/frame_jobs.h"
#include "test_util.h"

namespace daedalus::harness {
namespace {

Setting cdef(const CdefParams& p) {
  return {cdef_job(p), "pri " + std::to_string(p.pri_strength) + " sec " +
                           std::to_string(p.sec_strength) + " uv " +
                           std::to_string(p.uv_pri_strength) + "/" +
                           std::to_string(p.uv_sec_strength) + " damping " +
                           std::to_string(p.damping)};
}

// For each damping the 80 luma (pri, sec) pairs, each with a chroma pair
// from a permutation of them (27 is prime to 80).
std::vector<Setting> every_strength_and_damping(std::mt19937&) {
  std::vector<Setting> all;
  for (int damping = 3; damping <= 6; damping++)
    for (int i = 0; i < 80; i++) {
      const int j = (i * 27 + 5) % 80;
      all.push_back(cdef({i / 5, i % 5, j / 5, j % 5, damping}));
    }
  return all;
}

// A content from 8-bit levels (plane, x, y), at the image's depth.
Content levels(std::string name, int (*level)(int p, int x, int y)) {
  return {std::move(name), [level](Image& image, std::mt19937&) {
            test::fill(image, [&](int p, int x, int y) {
              return test::widen(image, level(p, x, y));
            });
          }};
}

// Dots 4 below a flat level (chroma; luma: along its first rows or
// columns, then stripes that make the direction 2 or 6): every available
// tap pulls a dot up by 4 and the sum overshoots, so the maximum clips it,
// also on the border, where taps are unavailable. Flat luma: every
// direction costs 0, so the search keeps direction 0 (strict >), which
// chroma then uses.
std::vector<Content> adversarial() {
  return {
      levels("near-extreme diagonals",
             [](int, int x, int y) { return (x - 2 * y) % 5 ? 250 : 3; }),
      levels("dots below a level, rows",
             [](int p, int x, int y) {
               if (p) return x % 4 || y % 4 ? 104 : 100;
               if (y < 3) return y == 0 && x % 4 == 0 ? 100 : 104;
               return y & 1 ? 200 : 30;
             }),
      levels("dots below a level, columns",
             [](int p, int x, int y) {
               if (p) return x % 4 || y % 4 ? 104 : 100;
               if (x < 3) return x == 0 && y % 4 == 0 ? 100 : 104;
               return x & 1 ? 200 : 30;
             }),
      {"flat luma, random chroma",
       [](Image& image, std::mt19937& gen) {
         test::fill(image, [&](int p, int, int) {
           return test::widen(image, p ? int(gen() & 255) : 128);
         });
       }},
  };
}

}  // namespace

std::vector<Case> cdef_cases() {
  return {{
      .name = "Cdef",
      .kernel = Kernel::Cdef,
      .random =
          [](std::mt19937& gen) { return cdef(test::random_cdef_params(gen)); },
      .every_value = every_strength_and_damping,
      // Everything at its largest and the weakest shifts, sec 3 (taken as
      // 4), primary or secondary only, luma or chroma only.
      .extremes = {cdef({15, 4, 15, 4, 6}), cdef({15, 4, 15, 4, 3}),
                   cdef({1, 1, 1, 1, 6}), cdef({4, 1, 4, 1, 3}),
                   cdef({15, 0, 0, 4, 6}), cdef({0, 4, 15, 0, 5}),
                   cdef({7, 3, 9, 2, 4}), cdef({15, 3, 15, 3, 3}),
                   cdef({14, 2, 2, 4, 4})},
      .adversarial = adversarial(),
      .typical = ordinary_contents()[2],  // near a level: the thresholds
      .min_changed = 0.5,
  }};
}

}  // namespace daedalus::harness
