#include "contents.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "test_util.h"

namespace daedalus::test {
namespace {

int max_of(const Image& image) { return image.frame().planes[0].max_value(); }
// The sample range over 256: 1, or 4 at 10 bits.
int scale_of(const Image& image) { return (max_of(image) + 1) >> 8; }

// A content given as a value per sample (plane, x, y) of an image whose
// largest value is m and scale s.
Content values(std::string name,
               std::function<int(int m, int s, int p, int x, int y)> value) {
  return {std::move(name), [value](Image& image, std::mt19937&) {
            const int m = max_of(image), s = scale_of(image);
            fill(image,
                 [&](int p, int x, int y) { return value(m, s, p, x, y); });
          }};
}

}  // namespace

const std::vector<Content>& ordinary_contents() {
  static const std::vector<Content> all = {
      {"random",
       [](Image& image, std::mt19937& gen) { fill_random(image, gen); }},
      {"flat",
       [](Image& image, std::mt19937& gen) {
         const int level = int(gen() % (max_of(image) + 1));
         fill(image, [=](int, int, int) { return level; });
       }},
      // Differences around the filters' thresholds.
      {"near a level",
       [](Image& image, std::mt19937& gen) {
         const int s = scale_of(image);
         fill_near(image, gen, (40 + int(gen() % 170)) * s,
                   (1 + int(gen() % 6)) * s);
       }},
      {"wide palette",
       [](Image& image, std::mt19937& gen) {
         fill_near(image, gen, 60 * scale_of(image), 24 * scale_of(image));
       }},
      {"blocky",
       [](Image& image, std::mt19937& gen) {
         const int s = scale_of(image);
         fill_blocky(image, gen, 8, 128 * s, 15 * s);
       }},
      // Smooth gradients with texture: large and varied variances and
      // directions.
      {"textured gradient",
       [](Image& image, std::mt19937& gen) {
         const int s = scale_of(image), m = max_of(image);
         const int a = int(gen() % 7) - 3, b = int(gen() % 7) - 3;
         const uint32_t salt = gen();
         fill(image, [=](int p, int x, int y) {
           const uint32_t h = (uint32_t(x) * 0x9E3779B1u) ^
                              (uint32_t(y) * 0x85EBCA6Bu) ^
                              (uint32_t(p) << 28) ^ salt;
           return std::clamp((128 + a * x + b * y + int(h >> 29) * 3 - 10) * s,
                             0, m);
         });
       }},
  };
  return all;
}

const std::vector<Content>& adversarial_contents() {
  static const std::vector<Content> all = {
      values("zero", [](int, int, int, int, int) { return 0; }),
      values("max", [](int m, int, int, int, int) { return m; }),
      values("checkerboard 0 / max",
             [](int m, int, int, int x, int y) { return (x + y) & 1 ? m : 0; }),
      values("columns 0 / max",
             [](int m, int, int, int x, int) { return x & 1 ? m : 0; }),
      values("rows 0 / max",
             [](int m, int, int, int, int y) { return y % 3 ? 0 : m; }),
      {"random 0 / max",
       [](Image& image, std::mt19937& gen) {
         const int m = max_of(image);
         fill(image, [&](int, int, int) { return gen() & 1 ? m : 0; });
       }},
      values("diagonal stripes",
             [](int m, int, int, int x, int y) {
               return ((x + 2 * y) >> 1) & 1 ? m - 5 : 3;
             }),
      values("0 or 1", [](int, int, int p, int x,
                          int y) { return int((x * 7 + y * 3 + p) % 5 == 0); }),
      values("max - 1 or max",
             [](int m, int, int p, int x, int y) {
               return m - 1 + ((x * 5 + y + p) % 3 == 0);
             }),
      // Differences around every threshold.
      values("ramp",
             [](int, int s, int p, int x, int y) {
               return 100 * s + (x * 3 + y * 5 + p) % (37 * s);
             }),
      values("impulses",
             [](int, int s, int p, int x, int y) {
               return ((x * 13 + y * 7 + p) % 11 == 0 ? 128 + 4 * ((x + y) % 8)
                                                      : 128) *
                      s;
             }),
      // Structure below the top 8 bits only (at 10 bits).
      values("low bits",
             [](int, int s, int p, int x, int y) {
               return 128 * s + ((x ^ y ^ p) & (s - 1));
             }),
  };
  return all;
}

const Content& content_named(const std::string& name) {
  for (const std::vector<Content>* all :
       {&ordinary_contents(), &adversarial_contents()})
    for (const Content& c : *all)
      if (c.name == name) return c;
  ADD_FAILURE() << "no content named " << name;
  return ordinary_contents().front();
}

}  // namespace daedalus::test
