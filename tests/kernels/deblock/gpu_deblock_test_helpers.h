// What the gpu deblock suites (gpu_deblock_test.cc, and
// gpu_deblock_dct_test.cc for mode=dct) share: the fixture that compares
// the gpu backend with the scalar reference, a description of the settings
// for failure messages, and the zero-copy check.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "daedalus/deblock.h"
#include "daedalus/frame_jobs.h"
#include "gpu_test_util.h"
#include "test_util.h"

namespace daedalus::gpu_deblock_test {

constexpr int kBlockSizes[] = {4, 8, 16};

inline std::string describe(const Image& image, const DeblockParams& p) {
  const std::string frame = std::string(pixel_format_name(image.format())) +
                            " " + std::to_string(image.width()) + "x" +
                            std::to_string(image.height());
  const std::string grid =
      " grid " + std::to_string(p.grid_x) + "," + std::to_string(p.grid_y);
  if (p.mode == DeblockMode::Dct)
    return frame + " dct qp " + std::to_string(p.qp) + " chroma offset " +
           std::to_string(p.chroma_qp_offset) + " shifts " +
           std::to_string(p.shifts) + grid;
  if (p.mode == DeblockMode::Vp9)
    return frame + " vp9 level " + std::to_string(p.filter_level) +
           " sharpness " + std::to_string(p.sharpness) + " block " +
           std::to_string(p.block_size);
  return frame + " qp " + std::to_string(p.qp) + " offsets " +
         std::to_string(p.alpha_offset) + "/" + std::to_string(p.beta_offset) +
         "/" + std::to_string(p.chroma_qp_offset) + " bs " +
         std::to_string(p.bs) + " block " + std::to_string(p.block_size) + grid;
}

inline Image reference(const Image& in, const DeblockParams& p) {
  return test::reference_output(in, deblock_job(p));
}

// Replaces the guard bytes of every row's padding with blocks of 100 and
// 112, four rows each: a column the filter would change were it to touch
// the padding of a row's last word.
inline void fill_padding_blocky(Image& image) {
  std::vector<bool> sample(image.bytes().size(), false);
  const Frame f = image.frame();
  uint8_t* const base = image.bytes().data();
  for (int p = 0; p < f.num_planes; p++)
    for (int y = 0; y < f.planes[p].height; y++)
      for (int x = 0; x < f.planes[p].width; x++)
        for (int i = 0; i < f.planes[p].bytes_per_sample(); i++)
          sample[&f.planes[p].at(x, y) + i - base] = true;
  for (int p = 0; p < f.num_planes; p++)
    for (int y = 0; y < f.planes[p].height; y++)
      for (ptrdiff_t i = 0; i < f.planes[p].stride; i++) {
        const ptrdiff_t at = f.planes[p].row(y) + i - base;
        if (at < ptrdiff_t(sample.size()) && !sample[size_t(at)])
          base[at] = uint8_t(100 + 12 * ((y / 4) & 1));
      }
}

// Flat blocks `jump` apart (in 8-bit units), with noise up to VP9's flat
// bound (1, or 4 at 10 bits: the wide filters run on some lines and not on
// others); 10-bit samples with random bits outside their values.
inline void fill_flat_blocks(Image& image, std::mt19937& gen, int block,
                             int jump) {
  const int cs = image.frame().bit_depth() - 8;
  const int base = int(gen() % ((256 - jump) << cs));
  test::fill(image, [&](int, int x, int y) {
    return std::min(base + ((x / block + y / block) % 2) * (jump << cs) +
                        int(gen() % ((1 << cs) + 1)),
                    (256 << cs) - 1);
  });
  test::set_outside_bits(image, gen);
}

class GpuDeblockTest : public test::GpuTest {
 protected:
  // Deblocks a copy of `in` on the gpu backend and compares it with the
  // reference, guards included. Returns whether the reference changed it.
  bool expect_exact(const Image& in, const DeblockParams& p) {
    SCOPED_TRACE(describe(in, p));
    const Image want = reference(in, p);
    Image got = in;
    const Status s = gpu->deblock(got.frame(), p);
    EXPECT_TRUE(s) << s.message();
    EXPECT_EQ(test::first_difference(want, got), "");
    EXPECT_TRUE(test::guards_intact(got));
    return !want.same_samples(in);
  }
};

// Each of the zero-copy `cases` in a GpuBuffer, its padding blocky,
// filtered with settings(block) and content from fill(image, block) at every
// block size: in place, bit-exact, padding untouched, nothing staged that
// the case leaves in place.
inline void expect_zero_copy(
    GpuBackend& gpu, const std::function<DeblockParams(int)>& settings,
    const std::function<void(Image&, int)>& fill,
    std::span<const test::ZeroCopyCase> cases = test::kZeroCopyCases) {
  for (const test::ZeroCopyCase& c : cases)
    for (int block : kBlockSizes) {
      Image image(c.format, c.width, c.height, c.padding);
      fill(image, block);
      fill_padding_blocky(image);
      const DeblockParams p = settings(block);
      SCOPED_TRACE(describe(image, p));
      const Image want = reference(image, p);
      ASSERT_FALSE(want.same_samples(image));

      test::GpuImage g = test::copy_to_gpu(gpu, image);
      ASSERT_TRUE(g.buffer);
      const Status s = gpu.deblock(g.frame, p);
      ASSERT_TRUE(s) << s.message();
      test::copy_from_gpu(g, image);
      EXPECT_EQ(test::first_difference(want, image), "");
      EXPECT_TRUE(image.bytes() == want.bytes()) << "padding changed";
      // The VP9 filter at block size 16 has no edge in these cases' chroma
      // (20 or fewer samples: x + 8 <= 20 fails), which is left alone.
      if (p.mode == DeblockMode::Vp9 && block == 16) continue;
      const GpuFrameStats& st = gpu.last_frame_stats();
      EXPECT_EQ(st.zero_copy_groups, c.in_place_outputs);
      EXPECT_EQ(st.staged_groups, c.groups - c.in_place_outputs);
    }
}

}  // namespace daedalus::gpu_deblock_test
