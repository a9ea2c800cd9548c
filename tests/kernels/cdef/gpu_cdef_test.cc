// The gpu backend's CDEF (shaders/cdef/cdef.comp): every direction and
// the whole variance range against the scalar reference, frames in GPU
// buffers (chroma planes in different ones too), and its refusals.
// Bit-exactness on every format, strength, damping, size and content: the
// harness (tests/kernels/harness, HarnessGpu.Cdef).
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "daedalus/cdef.h"
#include "gpu_test_util.h"
#include "test_util.h"

namespace daedalus {
namespace {

std::string describe(const Image& src, const CdefParams& p) {
  return std::string(pixel_format_name(src.format())) + " " +
         std::to_string(src.width()) + "x" + std::to_string(src.height()) +
         " pri=" + std::to_string(p.pri_strength) +
         " sec=" + std::to_string(p.sec_strength) +
         " uv_pri=" + std::to_string(p.uv_pri_strength) +
         " uv_sec=" + std::to_string(p.uv_sec_strength) +
         " damping=" + std::to_string(p.damping);
}

Image reference(const Image& src, const CdefParams& p, int dst_padding) {
  return test::reference_output(src, cdef_job(p), dst_padding);
}

class GpuCdef : public test::GpuTest {
 protected:
  // Runs the gpu backend on `src` into a fresh image and compares it with
  // the reference, guards included.
  void expect_exact(const Image& src, const CdefParams& p, int dst_padding) {
    SCOPED_TRACE(describe(src, p));
    const Image want = reference(src, p, dst_padding);
    Image got(src.format(), src.width(), src.height(), dst_padding);
    test::fill(got, [](int, int, int) { return uint8_t(0x5a); });
    const Status s = gpu->cdef(got.frame(), src.frame(), p);
    ASSERT_TRUE(s) << s.message();
    EXPECT_EQ(test::first_difference(want, got), "");
    EXPECT_TRUE(test::guards_intact(got));
  }
};

// Luma blocks made of lines along direction b % 8, each line 128 +- an
// amplitude that grows every 8 blocks: the search finds every direction
// (4:2:2 chroma remaps each) and the variance spans the whole
// adjust_strength() range. Checked first on the reference's own search. At
// 10 bits the lines are 4 times as far apart plus random low bits, which the
// search shifts off.
TEST_F(GpuCdef, EveryDirectionAndVariance) {
  const int kAmplitude[] = {0,  1,  2,  3,  4,  6,  8,  11,
                            16, 23, 32, 45, 64, 90, 127};
  const int bw = 8, bh = 15, w = 8 * bw, h = 8 * bh;
  std::mt19937 gen = test::rng(20);
  int n = 0;
  for (PixelFormat format : test::all_pixel_formats()) {
    Image src(format, w, h, 3);
    test::fill_random(src, gen);  // chroma stays random
    const int cs = src.frame().bit_depth() - 8;
    std::vector<int> sign(15 * bw * bh);
    for (int& s : sign) s = gen() & 1 ? 1 : -1;
    const Frame f = src.frame();
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        const int b = (y / 8) * bw + x / 8;
        const int line = test::cdef_line_of(b % 8, y % 8, x % 8);
        const int v = 128 + kAmplitude[b / 8] * sign[15 * b + line];
        set_value_at(f.planes[0], x, y, v << cs | int(gen() & ((1 << cs) - 1)));
      }
    test::set_outside_bits(src, gen);

    std::set<int> dirs, strengths;
    for (int by = 0; by < bh; by++)
      for (int bx = 0; bx < bw; bx++) {
        int var = 0;
        dirs.insert(
            cdef_find_dir_ref(src.frame().planes[0], 8 * bx, 8 * by, &var));
        strengths.insert(cdef_adjust_strength(15, var));
      }
    ASSERT_EQ(dirs.size(), 8u);
    ASSERT_TRUE(strengths.count(0) && strengths.count(15));
    ASSERT_GE(strengths.size(), 9u);

    const CdefParams params[] = {
        {15, 2, 7, 4, 5}, {0, 1, 9, 3, 3}, {6, 0, 0, 3, 6}, {5, 3, 15, 0, 4}};
    for (const CdefParams& p : params) {
      expect_exact(src, p, ++n % 3);
      if (HasFailure()) return;
    }
  }
}

// ------------------------------------------------------------- zero-copy

TEST_F(GpuCdef, FramesInGpuBuffersAreUsedInPlace) {
  std::mt19937 gen = test::rng(50);
  test::expect_zero_copy_frames(*gpu, cdef_job({10, 2, 6, 4, 4}), gen);
  test::expect_zero_copy_frames(*gpu, cdef_job({7, 3, 12, 1, 5}), gen,
                                test::kTenBitZeroCopyCases);
}

// One frame in a GpuBuffer, the other in ordinary memory.
TEST_F(GpuCdef, MixedPlacement) {
  std::mt19937 gen = test::rng(60);
  test::expect_mixed_placement(*gpu, cdef_job({13, 1, 3, 2, 6}),
                               PixelFormat::NV21, gen);
  test::expect_mixed_placement(*gpu, cdef_job({5, 4, 9, 2, 3}),
                               PixelFormat::P010_10LE, gen);
}

// U in a GpuBuffer, V in ordinary memory (staged): the two chroma planes
// are in different buffers, so V gets a dispatch of its own, which searches
// the luma directions again.
TEST_F(GpuCdef, ChromaPlanesInDifferentBuffers) {
  std::mt19937 gen = test::rng(70);
  for (PixelFormat format :
       {PixelFormat::I420, PixelFormat::Y42B, PixelFormat::Y444}) {
    Image src(format, 40, 24, 8);
    test::fill_near(src, gen, 60, 24);
    const CdefParams p = {8, 4, 9, 1, 5};
    SCOPED_TRACE(describe(src, p));
    const Image want = reference(src, p, 8);

    // The source split, the destination ordinary.
    test::GpuImage gsrc = test::copy_to_gpu(*gpu, src);
    Frame split_src = gsrc.frame;
    split_src.planes[2] = src.frame().planes[2];
    Image out(format, 40, 24, 8);
    test::fill(out, [](int, int, int) { return uint8_t(0x5a); });
    Status s = gpu->cdef(out.frame(), split_src, p);
    ASSERT_TRUE(s) << s.message();
    EXPECT_EQ(test::first_difference(want, out), "");
    EXPECT_TRUE(test::guards_intact(out));
    EXPECT_EQ(gpu->last_frame_stats().zero_copy_groups, 2);

    // The destination split: Y and U land in the buffer, V in `v_out`.
    Image out2(format, 40, 24, 8), v_out(format, 40, 24, 8);
    test::fill(out2, [](int, int, int) { return uint8_t(0x5a); });
    test::fill(v_out, [](int, int, int) { return uint8_t(0x5a); });
    test::GpuImage gdst = test::copy_to_gpu(*gpu, out2);
    Frame split_dst = gdst.frame;
    split_dst.planes[2] = v_out.frame().planes[2];
    s = gpu->cdef(split_dst, src.frame(), p);
    ASSERT_TRUE(s) << s.message();
    EXPECT_EQ(gpu->last_frame_stats().zero_copy_groups, 2);
    EXPECT_EQ(gpu->last_frame_stats().staged_groups, 4);
    test::copy_from_gpu(gdst, out2);
    const Plane v = out2.frame().planes[2];
    for (int y = 0; y < v.height; y++)
      for (int x = 0; x < v.width; x++)
        v.at(x, y) = v_out.frame().planes[2].at(x, y);
    EXPECT_EQ(test::first_difference(want, out2), "");
    EXPECT_TRUE(test::guards_intact(out2));
    EXPECT_TRUE(test::guards_intact(v_out));
  }
}

// ---------------------------------------------------------------- errors

TEST_F(GpuCdef, RejectsBadParametersAndGeometry) {
  Image a(PixelFormat::I420, 16, 8), b(PixelFormat::I420, 16, 8);
  Image c(PixelFormat::I420, 24, 8);
  EXPECT_FALSE(gpu->cdef(a.frame(), b.frame(), {16, 1, 4, 1, 3}));
  EXPECT_FALSE(gpu->cdef(a.frame(), b.frame(), {4, 5, 4, 1, 3}));
  EXPECT_FALSE(gpu->cdef(a.frame(), b.frame(), {4, 1, -1, 1, 3}));
  EXPECT_FALSE(gpu->cdef(a.frame(), b.frame(), {4, 1, 4, 1, 7}));
  EXPECT_FALSE(gpu->cdef(a.frame(), b.frame(), {4, 1, 4, 1, 2}));
  EXPECT_FALSE(gpu->cdef(a.frame(), c.frame(), {}));
  // The same sizes at another depth or bit position.
  Image d(PixelFormat::I420_10LE, 16, 8), e(PixelFormat::P010_10LE, 16, 8);
  EXPECT_FALSE(gpu->cdef(a.frame(), d.frame(), {}));
  Frame p010_as_i420 = e.frame();
  p010_as_i420.planes[0].lsb = 0;
  EXPECT_FALSE(gpu->cdef(p010_as_i420, e.frame(), {}));
  EXPECT_TRUE(gpu->cdef(a.frame(), b.frame(), {}));
}

}  // namespace
}  // namespace daedalus
