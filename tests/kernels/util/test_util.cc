#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

namespace daedalus::test {
namespace {

// Marks which bytes of the image's storage are samples.
std::vector<bool> sample_mask(const Image& image) {
  std::vector<bool> mask(image.bytes().size(), false);
  const uint8_t* base = image.bytes().data();
  const ConstFrame f = image.frame();
  for (int p = 0; p < f.num_planes; p++) {
    const ConstPlane& pl = f.planes[p];
    for (int y = 0; y < pl.height; y++)
      for (int x = 0; x < pl.width; x++) mask[&pl.at(x, y) - base] = true;
  }
  return mask;
}

}  // namespace

uint32_t seed() {
  static const uint32_t value = [] {
    uint32_t s;
    if (const char* env = std::getenv("DAEDALUS_TEST_SEED"))
      s = uint32_t(std::strtoul(env, nullptr, 0));
    else
      s = std::random_device{}();
    std::printf("DAEDALUS_TEST_SEED=%u (set it to replay this run)\n", s);
    return s;
  }();
  return value;
}

std::mt19937 rng(uint32_t salt) {
  std::seed_seq seq{seed(), salt};
  return std::mt19937(seq);
}

void fill(Image& image, const std::function<uint8_t(int, int, int)>& value) {
  std::fill(image.bytes().begin(), image.bytes().end(), kGuard);
  const Frame f = image.frame();
  for (int p = 0; p < f.num_planes; p++) {
    const Plane& pl = f.planes[p];
    for (int y = 0; y < pl.height; y++)
      for (int x = 0; x < pl.width; x++) pl.at(x, y) = value(p, x, y);
  }
}

void fill_random(Image& image, std::mt19937& gen) {
  std::uniform_int_distribution<int> d(0, 255);
  fill(image, [&](int, int, int) { return uint8_t(d(gen)); });
}

void fill_near(Image& image, std::mt19937& gen, int center, int spread) {
  std::uniform_int_distribution<int> d(-spread, spread);
  fill(image, [&](int, int, int) {
    return uint8_t(std::clamp(center + d(gen), 0, 255));
  });
}

std::vector<std::pair<int, int>> random_pieces(int n, std::mt19937& gen) {
  std::vector<int> cuts = {0, n};
  for (int i = 0; i < 4; i++)
    cuts.push_back(std::uniform_int_distribution<int>(0, n)(gen));
  std::sort(cuts.begin(), cuts.end());
  std::vector<std::pair<int, int>> pieces;
  for (size_t i = 0; i + 1 < cuts.size(); i++)
    pieces.push_back({cuts[i], cuts[i + 1]});
  std::shuffle(pieces.begin(), pieces.end(), gen);
  return pieces;
}

DeblockPlaneParams plane_params(int alpha, int beta, int tc0, int bs,
                                bool chroma, int block_size) {
  DeblockPlaneParams pp;
  pp.alpha = alpha;
  pp.beta = beta;
  pp.tc0 = tc0;
  pp.bs = bs;
  pp.block_size = block_size;
  pp.chroma_filter = chroma;
  return pp;
}

void fill_blocky(Image& image, std::mt19937& gen, int block, int center,
                 int jump) {
  std::uniform_int_distribution<int> level(-jump, jump), noise(-2, 2);
  std::map<std::tuple<int, int, int>, int> levels;
  fill(image, [&](int p, int x, int y) {
    auto [it, fresh] = levels.try_emplace({p, x / block, y / block}, 0);
    if (fresh) it->second = center + level(gen);
    return uint8_t(std::clamp(it->second + noise(gen), 0, 255));
  });
}

CdefParams random_cdef_params(std::mt19937& gen) {
  auto r = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(gen);
  };
  return {r(0, 15), r(0, 4), r(0, 15), r(0, 4), r(3, 6)};
}

int cdef_line_of(int dir, int i, int j) {
  switch (dir) {
    case 0: return i + j;
    case 1: return i + j / 2;
    case 2: return i;
    case 3: return 3 + i - j / 2;
    case 4: return 7 + i - j;
    case 5: return 3 - i / 2 + j;
    case 6: return j;
    default: return i / 2 + j;
  }
}

bool guards_intact(const Image& image) {
  const std::vector<bool> mask = sample_mask(image);
  for (size_t i = 0; i < mask.size(); i++)
    if (!mask[i] && image.bytes()[i] != kGuard) return false;
  return true;
}

std::string first_difference(const Image& expected, const Image& actual) {
  const ConstFrame e = expected.frame(), a = actual.frame();
  for (int p = 0; p < e.num_planes; p++) {
    const ConstPlane& pe = e.planes[p];
    const ConstPlane& pa = a.planes[p];
    for (int y = 0; y < pe.height; y++)
      for (int x = 0; x < pe.width; x++)
        if (pe.at(x, y) != pa.at(x, y)) {
          char buf[160];
          std::snprintf(buf, sizeof buf,
                        "%.*s %dx%d: plane %d (%d, %d): expected %d, got %d",
                        int(pixel_format_name(expected.format()).size()),
                        pixel_format_name(expected.format()).data(),
                        expected.width(), expected.height(), p, x, y,
                        pe.at(x, y), pa.at(x, y));
          return buf;
        }
  }
  return {};
}

Image reference_output(const Image& src, const FrameJob& job, int dst_padding) {
  std::unique_ptr<Backend> scalar = create_backend(BackendKind::Scalar, nullptr);
  Image dst = src;
  if (!job.in_place) {
    dst = Image(src.format(), src.width(), src.height(), dst_padding);
    fill(dst, [](int, int, int) { return uint8_t(0); });
  }
  const Status s = job.run(*scalar, dst.frame(),
                           job.in_place ? ConstFrame(dst.frame()) : src.frame());
  if (!s) ADD_FAILURE() << s.message();
  return dst;
}

}  // namespace daedalus::test
