// Bit-exactness of each SIMD leaf of the CDEF DSP table (daedalus/cdef.h:
// staging, direction search, the three block filters) with the reference's
// leaves, once per Highway target, at both bit depths, on staged samples of
// the shared contents (util/contents.h: the ordinary ones at random, every
// adversarial one in turn) with unavailable samples anywhere around the
// blocks, every strength, damping and direction; where the target has the
// byte island of the 8-bit filters and the CPU runs it, with and without it.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "contents.h"
#include "daedalus/cdef.h"
#include "daedalus/image.h"
#include "filters/cdef/cdef_bytes.h"
#include "simd_targets.h"
#include "test_util.h"

namespace daedalus {
namespace {

DAEDALUS_SIMD_TEST_SUITE(CdefLeafSimd);

// The reference's leaves and what cdef_dsp_init picks for the target under
// test (its byte island where the CPU has one), or the leaves without it.
struct Leaves {
  CdefDsp ref, simd;
  explicit Leaves(bool islands = true) {
    cdef_dsp_init_ref(&ref);
    cdef_dsp_init(&simd, islands);
  }
};

// Both where the target under test has an island the CPU runs, else the
// one set of leaves once.
std::vector<bool> island_modes() {
  if (Leaves(true).simd.bd8.filter[kCdef8x8] ==
      Leaves(false).simd.bd8.filter[kCdef8x8])
    return {false};
  return {true, false};
}

// The island is installed exactly where the target has one and the CPU
// reports its instructions (as the compiler's own CPUID check sees them),
// for the 8-bit filters only.
TEST_P(CdefLeafSimd, ByteIslandWhereTheCpuHasIt) {
  const Leaves with(true), without(false);
#if HWY_ARCH_X86
  __builtin_cpu_init();
  EXPECT_EQ(cdef_cpu_has_byte_island(),
            __builtin_cpu_supports("avx512vbmi") &&
                __builtin_cpu_supports("avx512vbmi2") &&
                __builtin_cpu_supports("avx512vnni") &&
                __builtin_cpu_supports("gfni"));
#endif
  const bool island = GetParam() == HWY_AVX3 && cdef_cpu_has_byte_island();
  for (int s = 0; s < kCdefShapes; s++) {
    // (SCALAR keeps the reference's leaves.)
    if (GetParam() != HWY_SCALAR)
      EXPECT_NE(without.simd.bd8.filter[s], without.ref.bd8.filter[s]);
    EXPECT_EQ(with.simd.bd8.filter[s] != without.simd.bd8.filter[s], island);
    EXPECT_EQ(with.simd.bd10.filter[s], without.simd.bd10.filter[s]);
  }
  EXPECT_EQ(with.simd.bd8.find_dirs, without.simd.bd8.find_dirs);
  EXPECT_EQ(with.simd.bd8.stage, without.simd.bd8.stage);
}

// Staged rows as the frame loop lays them out: 12 rows of kCdefPitch for
// luma, or U then V of 12 rows at half the pitch each.
using Staged = std::vector<uint16_t>;

// Staged rows of `content` at `depth` (8 or 10 bits), each sample
// unavailable with probability 1 / holes (0: none).
Staged staged_content(const test::Content& content, int depth, int holes,
                      std::mt19937& gen) {
  Image image(depth == 8 ? PixelFormat::GRAY8 : PixelFormat::I420_10LE,
              kCdefPitch, 12);
  content.fill(image, gen);
  const ConstPlane& plane = image.frame().planes[0];
  Staged s(12 * kCdefPitch);
  for (int y = 0; y < 12; y++)
    for (int x = 0; x < kCdefPitch; x++) {
      uint16_t& v = s[size_t(y) * kCdefPitch + x];
      v = uint16_t(value_at(plane, x, y));
      if (holes && gen() % uint32_t(holes) == 0) v = kCdefUnavailable;
    }
  return s;
}

// One of the shared ordinary contents, at random.
const test::Content& any_ordinary(std::mt19937& gen) {
  const std::vector<test::Content>& all = test::ordinary_contents();
  return all[gen() % all.size()];
}

TEST_P(CdefLeafSimd, StageMatchesTheReference) {
  const Leaves l;
  std::mt19937 gen = test::rng(301);
  for (PixelFormat format : test::all_pixel_formats())
    for (int round = 0; round < 12; round++) {
      const int w = 1 + int(gen() % 90), h = 1 + int(gen() % 20);
      Image src(format, w, h, test::random_padding(gen));
      // The shared contents in turn, adversarial ones every other round.
      const std::vector<test::Content>& contents =
          round % 2 ? test::adversarial_contents() : test::ordinary_contents();
      contents[size_t(round / 2) % contents.size()].fill(src, gen);
      test::set_outside_bits(src, gen);
      const ConstFrame f = src.frame();
      const int p = f.num_planes == 3 ? int(gen() % 3) : 0;
      const ConstPlane& plane = f.planes[p];
      const int x = int(gen() % (plane.width + 24)) - 16;
      const int y = int(gen() % (plane.height + 16)) - 12;
      const int n = 1 + int(gen() % (8 * kCdefChunk + 16));
      const int rows = 1 + int(gen() % 12);
      Staged want(12 * kCdefPitch, 0x1234), got(want);
      cdef_leaves(l.ref, f).stage(plane, x, y, n, rows, kCdefPitch,
                                  want.data());
      cdef_leaves(l.simd, f).stage(plane, x, y, n, rows, kCdefPitch,
                                   got.data());
      ASSERT_EQ(want, got) << pixel_format_name(format) << " plane " << p << " "
                           << w << "x" << h << " at " << x << "," << y << " n "
                           << n << " rows " << rows;
    }
}

TEST_P(CdefLeafSimd, DirectionSearchMatchesTheReference) {
  const Leaves l;
  std::mt19937 gen = test::rng(302);
  for (const CdefLeaves* ref : {&l.ref.bd8, &l.ref.bd10}) {
    const bool deep = ref == &l.ref.bd10;
    const CdefLeaves& simd = deep ? l.simd.bd10 : l.simd.bd8;
    for (int round = 0; round < 30; round++) {
      const Staged s = staged_content(any_ordinary(gen), deep ? 10 : 8, 0, gen);
      const int n = 1 + int(gen() % kCdefChunk);
      uint8_t dir_want[kCdefChunk], dir_got[kCdefChunk];
      int var_want[kCdefChunk], var_got[kCdefChunk];
      ref->find_dirs(s.data() + 2 * kCdefPitch + 8, n, dir_want, var_want);
      simd.find_dirs(s.data() + 2 * kCdefPitch + 8, n, dir_got, var_got);
      for (int j = 0; j < n; j++) {
        ASSERT_EQ(dir_want[j], dir_got[j]) << "block " << j << " of " << n;
        ASSERT_EQ(var_want[j], var_got[j]) << "block " << j << " of " << n;
      }
    }
  }
}

// Blocks of every direction along its lines (the largest costs and
// variances), and flat ones (every cost equal: the first direction wins).
TEST_P(CdefLeafSimd, DirectionSearchOnLines) {
  const Leaves l;
  std::mt19937 gen = test::rng(303);
  for (int deep = 0; deep < 2; deep++) {
    const int max = deep ? 1023 : 255;
    Staged s(12 * kCdefPitch, 0);
    for (int b = 0; b < kCdefChunk; b++) {
      const int dir = b % 9, amp = int(gen() % 19);
      for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
          const int v = dir == 8
                            ? int(b * 37 % (max + 1))
                            : 128 + amp * (test::cdef_line_of(dir, i, j) - 7);
          s[(2 + i) * kCdefPitch + 8 + 8 * b + j] =
              uint16_t(std::clamp(deep ? 4 * v + b % 4 : v, 0, max));
        }
    }
    uint8_t dir_want[kCdefChunk], dir_got[kCdefChunk];
    int var_want[kCdefChunk], var_got[kCdefChunk];
    const CdefLeaves& ref = deep ? l.ref.bd10 : l.ref.bd8;
    const CdefLeaves& simd = deep ? l.simd.bd10 : l.simd.bd8;
    ref.find_dirs(s.data() + 2 * kCdefPitch + 8, kCdefChunk, dir_want,
                  var_want);
    simd.find_dirs(s.data() + 2 * kCdefPitch + 8, kCdefChunk, dir_got, var_got);
    for (int j = 0; j < kCdefChunk; j++) {
      ASSERT_EQ(dir_want[j], dir_got[j]) << "block " << j;
      ASSERT_EQ(var_want[j], var_got[j]) << "block " << j;
    }
  }
}

struct Shape {
  CdefShape shape;
  int w, h, planes;
};
constexpr Shape kShapes[] = {
    {kCdef8x8, 8, 8, 1}, {kCdef4x8Pair, 4, 8, 2}, {kCdef4x4Pair, 4, 4, 2}};

// One filter leaf of each implementation on the same blocks, into
// destinations that start equal (with bytes between and around the blocks
// that must stay as they are): equal bytes afterwards.
testing::AssertionResult same_filtered(const Leaves& l, bool deep,
                                       const Shape& shape, const Staged& u,
                                       const Staged& v, int n,
                                       const uint8_t* pri, const uint8_t* dir,
                                       int sec, int damping, int step_factor,
                                       int lsb, std::mt19937& gen) {
  const int size = deep ? 2 : 1, step = size * step_factor;
  const ptrdiff_t stride = ptrdiff_t(shape.w) * kCdefChunk * step + 16;
  std::vector<uint8_t> want(size_t(stride) * shape.h * 2 + 64);
  for (uint8_t& b : want) b = uint8_t(gen());
  std::vector<uint8_t> got = want;
  const int pitch = shape.planes == 2 ? kCdefPitch / 2 : kCdefPitch;
  const int left = shape.w;
  CdefBlocks blocks = {
      {u.data() + 2 * pitch + left, v.data() + 2 * pitch + left},
      pitch,
      {nullptr, nullptr},
      {stride, stride},
      {step, step},
      lsb,
      n,
      pri,
      dir,
      sec,
      damping};
  // U's rows then V's, one sample apart when interleaved.
  auto run = [&](const CdefLeaves& leaves, std::vector<uint8_t>& out) {
    blocks.dst[0] = out.data() + 32;
    blocks.dst[1] =
        out.data() + 32 + (step_factor == 2 ? size : stride * shape.h);
    leaves.filter[shape.shape](blocks);
  };
  run(deep ? l.ref.bd10 : l.ref.bd8, want);
  run(deep ? l.simd.bd10 : l.simd.bd8, got);
  if (want == got) return testing::AssertionSuccess();
  size_t i = 0;
  while (want[i] == got[i]) i++;
  return testing::AssertionFailure()
         << "byte " << i << ": " << int(want[i]) << " wanted, " << int(got[i])
         << " (" << (deep ? 10 : 8) << "-bit shape " << shape.w << "x"
         << shape.h << " n " << n << " sec " << sec << " damping " << damping
         << " step " << step << " lsb " << lsb << ")";
}

// Every shape's leaf of both implementations on staged `content` with
// unavailable samples (1 / holes of them) around the blocks, secondary
// strength `sec` and `damping` (8-bit units); block j with strength j % 16
// and direction (j / 16) * 2 + round: every pair of them over two rounds.
testing::AssertionResult filters_agree(const Leaves& l, bool deep,
                                       const Shape& shape,
                                       const test::Content& content, int sec,
                                       int damping, int round, int holes,
                                       std::mt19937& gen) {
  const int cs = deep ? 2 : 0, max = deep ? 1023 : 255;
  // The 8x8 leaf filters luma alone: V's rows are U's, unread.
  Staged u = staged_content(content, deep ? 10 : 8, holes, gen);
  Staged v = shape.planes == 2
                 ? staged_content(content, deep ? 10 : 8, holes, gen)
                 : u;
  // Blocks' own samples are in the plane: only their surroundings may be
  // unavailable.
  const int pitch = shape.planes == 2 ? kCdefPitch / 2 : kCdefPitch;
  for (Staged* s : {&u, &v})
    for (int i = 0; i < shape.h; i++)
      for (int j = 0; j < shape.w * kCdefChunk; j++) {
        uint16_t& x = (*s)[(2 + i) * pitch + shape.w + j];
        if (x == kCdefUnavailable) x = uint16_t(gen() % (max + 1));
      }
  uint8_t pri[kCdefChunk], dir[kCdefChunk];
  for (int j = 0; j < kCdefChunk; j++) {
    pri[j] = uint8_t((j % 16) << cs);
    dir[j] = uint8_t((j / 16 * 2 + round) % 8);
  }
  const int n = round ? kCdefChunk : 1 + int(gen() % kCdefChunk);
  const int step_factor = 1 + int(gen() % 2);
  const int lsb = deep && gen() % 2 ? 6 : 0;
  testing::AssertionResult same =
      same_filtered(l, deep, shape, u, v, n, pri, dir, sec << cs, damping + cs,
                    step_factor, lsb, gen);
  if (!same) same << ", " << content.name << " content";
  return same;
}

// Every strength, secondary strength, damping and direction, on the shared
// ordinary contents with unavailable samples around the blocks: none,
// around every block, or around some (the island hands those to the
// Highway filter).
TEST_P(CdefLeafSimd, FiltersMatchTheReferenceEveryParameter) {
  for (bool islands : island_modes()) {
    SCOPED_TRACE(islands ? "byte island allowed" : "no island");
    const Leaves l(islands);
    std::mt19937 gen = test::rng(304);
    for (bool deep : {false, true}) {
      if (deep && islands) continue;  // the island is for 8-bit blocks only
      for (const Shape& shape : kShapes)
        for (int sec : {0, 1, 2, 4})
          for (int damping = 2; damping <= 6; damping++)
            for (int round = 0; round < 2; round++) {
              const test::Content& content = any_ordinary(gen);
              const int holes = std::array{0, 7, 400}[gen() % 3];
              ASSERT_TRUE(filters_agree(l, deep, shape, content, sec, damping,
                                        round, holes, gen));
            }
    }
  }
}

// Every adversarial content at both depths, the shapes in turn, with the
// largest secondary strength at the least damping (the taps' differences
// clipped least) and none at the most, in turn: the directions of one round
// or the other, unavailable samples around the blocks or none.
TEST_P(CdefLeafSimd, FiltersOnAdversarialContent) {
  for (bool islands : island_modes()) {
    SCOPED_TRACE(islands ? "byte island allowed" : "no island");
    const Leaves l(islands);
    std::mt19937 gen = test::rng(305);
    int i = 0;
    for (const test::Content& content : test::adversarial_contents())
      for (bool deep : {false, true}) {
        const Shape& shape = kShapes[i % 3];
        const auto [sec, damping] = i % 2 ? std::pair{4, 2} : std::pair{0, 6};
        const int round = i / 2 % 2;
        i++;
        // The island is for 8-bit blocks only.
        if (deep && islands) continue;
        ASSERT_TRUE(filters_agree(l, deep, shape, content, sec, damping, round,
                                  round * 7, gen));
      }
  }
}

// The direction search on every adversarial content at both depths: a
// whole chunk of blocks each.
TEST_P(CdefLeafSimd, DirectionSearchOnAdversarialContent) {
  const Leaves l;
  std::mt19937 gen = test::rng(306);
  for (const test::Content& content : test::adversarial_contents())
    for (bool deep : {false, true}) {
      const Staged s = staged_content(content, deep ? 10 : 8, 0, gen);
      const CdefLeaves& ref = deep ? l.ref.bd10 : l.ref.bd8;
      const CdefLeaves& simd = deep ? l.simd.bd10 : l.simd.bd8;
      uint8_t dir_want[kCdefChunk], dir_got[kCdefChunk];
      int var_want[kCdefChunk], var_got[kCdefChunk];
      ref.find_dirs(s.data() + 2 * kCdefPitch + 8, kCdefChunk, dir_want,
                    var_want);
      simd.find_dirs(s.data() + 2 * kCdefPitch + 8, kCdefChunk, dir_got,
                     var_got);
      for (int j = 0; j < kCdefChunk; j++) {
        ASSERT_EQ(dir_want[j], dir_got[j]) << content.name << ", block " << j;
        ASSERT_EQ(var_want[j], var_got[j]) << content.name << ", block " << j;
      }
    }
}

}  // namespace
}  // namespace daedalus
