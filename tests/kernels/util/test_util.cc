#include "test_util.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <vector>

namespace daedalus::test {
namespace {

// Marks which bytes of the image's storage are samples (1) and which are
// padding (0); a row's samples at once where they are contiguous (the SIMD
// suites call this for every output they check).
std::vector<uint8_t> sample_mask(const Image& image) {
  std::vector<uint8_t> mask(image.bytes().size(), 0);
  const uint8_t* base = image.bytes().data();
  const ConstFrame f = image.frame();
  for (int p = 0; p < f.num_planes; p++) {
    const ConstPlane& pl = f.planes[p];
    const int bytes = pl.bytes_per_sample();
    for (int y = 0; y < pl.height && pl.width > 0; y++) {
      uint8_t* row = mask.data() + (&pl.at(0, y) - base);
      if (pl.step == bytes)
        std::fill_n(row, size_t(pl.width) * size_t(bytes), uint8_t{1});
      else
        for (int x = 0; x < pl.width; x++)
          std::fill_n(row + ptrdiff_t(x) * pl.step, bytes, uint8_t{1});
    }
  }
  return mask;
}

// The whole storage of a sample (a 10-bit one's word, bits outside the value
// included).
int raw_sample(const ConstPlane& p, int x, int y) {
  return p.bytes_per_sample() == 2 ? p.at(x, y) | (&p.at(x, y))[1] << 8
                                   : p.at(x, y);
}

// Copies every sample of `from` into `to`, a frame of the same geometry.
void copy_samples(const ConstFrame& from, const Frame& to) {
  for (int p = 0; p < from.num_planes; p++) {
    const ConstPlane& in = from.planes[p];
    for (int y = 0; y < in.height; y++)
      for (int x = 0; x < in.width; x++)
        for (int b = 0; b < in.bytes_per_sample(); b++)
          (&to.planes[p].at(x, y))[b] = (&in.at(x, y))[b];
  }
}

// Test setup that cannot go on: says why and stops the test binary.
void require(bool ok, const char* what) {
  if (ok) return;
  std::perror(what);
  std::abort();
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

void fill(Image& image, const std::function<int(int, int, int)>& value) {
  std::fill(image.bytes().begin(), image.bytes().end(), kGuard);
  const Frame f = image.frame();
  for (int p = 0; p < f.num_planes; p++) {
    const Plane& pl = f.planes[p];
    for (int y = 0; y < pl.height; y++)
      for (int x = 0; x < pl.width; x++)
        set_value_at(pl, x, y, value(p, x, y) & pl.max_value());
  }
}

std::vector<std::function<int(int, int, int)>> full_swing_patterns(
    std::mt19937& gen) {
  return {
      [](int, int, int) { return 0; },
      [](int, int, int) { return 255; },
      [](int, int x, int y) { return (x + y) & 1 ? 255 : 0; },
      [](int, int x, int) { return x & 1 ? 255 : 0; },
      [](int, int, int y) { return y & 2 ? 255 : 0; },
      [&gen](int, int, int) { return gen() & 1 ? 255 : 0; },
  };
}

int widen(const Image& image, int level) {
  return image.frame().bit_depth() == 8 ? level : level << 2 | level >> 6;
}

void fill_random(Image& image, std::mt19937& gen) {
  std::uniform_int_distribution<int> d(0, image.frame().planes[0].max_value());
  fill(image, [&](int, int, int) { return d(gen); });
}

void fill_near(Image& image, std::mt19937& gen, int center, int spread) {
  std::uniform_int_distribution<int> d(-spread, spread);
  const int max = image.frame().planes[0].max_value();
  fill(image,
       [&](int, int, int) { return std::clamp(center + d(gen), 0, max); });
}

void set_outside_bits(Image& image, std::mt19937& gen) {
  const Frame f = image.frame();
  for (int p = 0; p < f.num_planes; p++) {
    const Plane& pl = f.planes[p];
    if (pl.bit_depth == 8) continue;
    const int value_bits = pl.max_value() << pl.lsb;
    for (int y = 0; y < pl.height; y++)
      for (int x = 0; x < pl.width; x++) {
        const int word = (value_at(pl, x, y) << pl.lsb) |
                         (int(gen()) & ~value_bits & 0xFFFF);
        pl.at(x, y) = uint8_t(word);
        (&pl.at(x, y))[1] = uint8_t(word >> 8);
      }
  }
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
  // Each block's level, drawn where fill() first meets the block (a flat
  // table per plane: this runs for every sample of the suites' frames).
  constexpr int kUndrawn = std::numeric_limits<int>::min();
  const Frame f = image.frame();
  std::vector<int> columns(size_t(f.num_planes));
  std::vector<std::vector<int>> levels(size_t(f.num_planes));
  for (int p = 0; p < f.num_planes; p++) {
    columns[p] = (f.planes[p].width + block - 1) / block;
    levels[p].assign(
        size_t(columns[p]) * size_t((f.planes[p].height + block - 1) / block),
        kUndrawn);
  }
  const int max = f.planes[0].max_value();
  fill(image, [&](int p, int x, int y) {
    int& l = levels[p][size_t(y / block) * columns[p] + x / block];
    if (l == kUndrawn) l = center + level(gen);
    return std::clamp(l + noise(gen), 0, max);
  });
}

DeblockParams random_band_params(std::mt19937& gen, bool vp9, int block_size) {
  auto r = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(gen);
  };
  DeblockParams params = vp9 ? vp9_params(r(20, 63), r(0, 7), block_size)
                             : DeblockParams{.qp = r(30, 51),
                                             .chroma_qp_offset = r(-6, 6),
                                             .bs = r(1, 4),
                                             .block_size = block_size};
  params.grid_x = r(0, 15), params.grid_y = r(0, 15);
  return params;
}

Image deblock_whole_passes(const DeblockDsp& dsp, Image image,
                           const DeblockParams& params) {
  const Frame view = deblock_grid_view(image.frame(), params);
  const int first[3] = {0, 0, 0};
  for (DeblockPass pass :
       {DeblockPass::VerticalEdges, DeblockPass::HorizontalEdges})
    deblock_pass(dsp, view, params, pass, first, nullptr);
  return image;
}

CdefParams random_cdef_params(std::mt19937& gen) {
  auto r = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(gen);
  };
  return {r(0, 15), r(0, 4), r(0, 15), r(0, 4), r(3, 6)};
}

int cdef_line_of(int dir, int i, int j) {
  switch (dir) {
    case 0:
      return i + j;
    case 1:
      return i + j / 2;
    case 2:
      return i;
    case 3:
      return 3 + i - j / 2;
    case 4:
      return 7 + i - j;
    case 5:
      return 3 - i / 2 + j;
    case 6:
      return j;
    default:
      return i / 2 + j;
  }
}

GuardedFrame::GuardedFrame(const Image& image, GuardSide side) {
  const ConstFrame f = image.frame();
  const bool pair = f.chroma_interleaved();
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  frame_.num_planes = f.num_planes;
  frame_.chroma_shift_x = f.chroma_shift_x;
  frame_.chroma_shift_y = f.chroma_shift_y;
  for (int p = 0; p < f.num_planes; p++) {
    const ConstPlane& in = f.planes[p];
    Plane& out = frame_.planes[p];
    out = {nullptr, 0, in.width, in.height, in.step, in.bit_depth, in.lsb};
    if (p == 2 && pair) {  // in the rows made for plane 1, as far from it
      out.stride = frame_.planes[1].stride;
      out.data = frame_.planes[1].data + (in.data - f.planes[1].data);
      continue;
    }
    // A row runs from its first sample, of either channel of a pair, to its
    // last. The mapping: an inaccessible page, then for every row its own
    // pages and another inaccessible one.
    const bool pair_row = p == 1 && pair;
    const size_t size = size_t(in.bytes_per_sample());
    const size_t lead = pair_row && f.planes[2].data < in.data ? size : 0;
    const size_t row_bytes =
        in.width ? size_t(in.width - 1) * in.step + size * (1 + pair_row) : 0;
    const size_t row_pages = (row_bytes + page - 1) / page;
    const size_t stride = (row_pages + 1) * page;
    const size_t bytes = page + size_t(in.height) * stride;
    void* map = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    require(map != MAP_FAILED, "GuardedFrame: mmap");
    mappings_.push_back({map, bytes});
    uint8_t* base = static_cast<uint8_t*>(map);
    for (int y = 0; y <= in.height; y++)
      require(mprotect(base + y * stride, page, PROT_NONE) == 0,
              "GuardedFrame: mprotect");
    const size_t start =
        side == GuardSide::Before ? page : page + row_pages * page - row_bytes;
    out.data = base + start + lead;
    out.stride = ptrdiff_t(stride);
  }
  copy_samples(f, frame_);
}

GuardedFrame::~GuardedFrame() {
  for (auto [map, bytes] : mappings_) munmap(map, bytes);
}

void GuardedFrame::copy_to(Image& image) const {
  copy_samples(frame_, image.frame());
}

bool guards_intact(const Image& image) {
  const std::vector<uint8_t> mask = sample_mask(image);
  const uint8_t* bytes = image.bytes().data();
  bool intact = true;
  for (size_t i = 0; i < mask.size(); i++)
    intact &= mask[i] || bytes[i] == kGuard;
  return intact;
}

std::string first_difference(const Image& expected, const Image& actual) {
  const ConstFrame e = expected.frame(), a = actual.frame();
  for (int p = 0; p < e.num_planes; p++) {
    const ConstPlane& pe = e.planes[p];
    const ConstPlane& pa = a.planes[p];
    for (int y = 0; y < pe.height; y++)
      for (int x = 0; x < pe.width; x++)
        if (raw_sample(pe, x, y) != raw_sample(pa, x, y)) {
          char buf[160];
          std::snprintf(buf, sizeof buf,
                        "%.*s %dx%d: plane %d (%d, %d): expected %d, got %d",
                        int(pixel_format_name(expected.format()).size()),
                        pixel_format_name(expected.format()).data(),
                        expected.width(), expected.height(), p, x, y,
                        raw_sample(pe, x, y), raw_sample(pa, x, y));
          return buf;
        }
  }
  return {};
}

Image reference_output(const Image& src, const FrameJob& job, int dst_padding) {
  std::unique_ptr<Backend> scalar =
      create_backend(BackendKind::Scalar).value_or(nullptr);
  Image dst = src;
  if (!job.in_place) {
    dst = Image(src.format(), src.width(), src.height(), dst_padding);
    fill(dst, [](int, int, int) { return uint8_t(0); });
  }
  const Status s =
      job.run(*scalar, dst.frame(),
              job.in_place ? ConstFrame(dst.frame()) : src.frame());
  if (!s) ADD_FAILURE() << s.message();
  return dst;
}

}  // namespace daedalus::test
