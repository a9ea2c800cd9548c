// The contents every bit-exactness test draws its frames from (the harness's
// rows, and the plane- and leaf-level SIMD suites): ordinary ones (random,
// flat, near a level, blocky, a textured gradient) and adversarial ones
// (0, the maximum, checkerboards, stripes, the two lowest and highest
// values, ramps and impulses around the thresholds), each at the image's bit
// depth, and the row paddings frames get. One generator in the tree: a new
// content pattern goes here, and every suite draws it.
#pragma once

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "daedalus/image.h"

namespace daedalus::test {

// Fills a source image: `fill` writes values of the image's bit depth.
struct Content {
  std::string name;
  std::function<void(Image&, std::mt19937&)> fill;
};

// Random, flat, near a level (thresholds), a wide palette, blocky, a
// textured gradient.
const std::vector<Content>& ordinary_contents();
// 0, the maximum, checkerboards, stripes, random 0 or maximum, the two
// lowest and the two highest values, a ramp and impulses around the
// thresholds, structure below the top 8 bits.
const std::vector<Content>& adversarial_contents();

// The ordinary or adversarial content of that name (a test that draws one
// kind on purpose); a name neither has fails the test.
const Content& content_named(const std::string& name);

// Samples of a row's padding (0..9): strides of every parity.
inline int random_padding(std::mt19937& gen) { return int(gen() % 10); }

}  // namespace daedalus::test
