// The fallback from a failing GPU (backend_fallback.h) on real gpu and
// hybrid backends that the fault injection (fault_injection.h) makes fail
// mid-stream, after writing part of a frame: every output, before and after
// the failure, equals the scalar reference's byte for byte (samples, and
// the row padding left alone), for frames in ordinary memory (staged), in
// the gpu backend's own buffers (zero-copy: the GPU wrote part of an
// in-place frame) and on the hybrid backend (its CPU rows written). The
// caller is told once and the cpu backend keeps the frames. The injection
// itself is checked to write what the real backend may write, so that a
// fallback that forgot a snapshot fails here.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "backends/frame_snapshot.h"
#include "daedalus/backend_fallback.h"
#include "daedalus/backend_hybrid.h"
#include "daedalus/fault_injection.h"
#include "daedalus/frame_jobs.h"
#include "gpu_test_util.h"
#include "test_util.h"

namespace daedalus {
namespace {

constexpr int kGoodCalls = 2;  // the third frame call fails
constexpr int kFrames = 5;
constexpr char kCause[] = "fallback_test";

struct NamedJob {
  std::string name;
  FrameJob job;
};

// Each element's frame call, deblock in every mode, at settings that change
// most frames.
std::vector<NamedJob> all_jobs() {
  return {
      {"deblock h264", deblock_job({.qp = 45, .bs = 4, .block_size = 4})},
      {"deblock vp9", deblock_job(test::vp9_params(40, 2, 8))},
      {"deblock dct", deblock_job(test::dct_params(45, 4))},
      {"cdef", cdef_job({.pri_strength = 9, .sec_strength = 2, .damping = 4})},
      {"mc", mc_job({0.3, -0.7, McFilter::Sharp})},
  };
}

// The cpu backend where this build has one, else the scalar one.
BackendKind cpu_kind() {
  return backend_built(BackendKind::Cpu) ? BackendKind::Cpu
                                         : BackendKind::Scalar;
}

Image filled(PixelFormat format, int width, int height, int padding,
             uint8_t value) {
  Image image(format, width, height, padding);
  test::fill(image, [value](int, int, int) { return value; });
  return image;
}

// One frame through `job` on `backend`, its frames in GpuBuffers of
// `buffers`' device when given, else in ordinary memory; the output.
Image run_frame(Backend& backend, GpuBackend* buffers, const FrameJob& job,
                const Image& src, int dst_padding, Status* status) {
  Image out = job.in_place ? src
                           : filled(src.format(), src.width(), src.height(),
                                    dst_padding, 0x5a);
  if (!buffers) {
    *status = job.run(backend, out.frame(),
                      job.in_place ? ConstFrame(out.frame()) : src.frame());
    return out;
  }
  test::GpuImage gout = test::copy_to_gpu(*buffers, out);
  test::GpuImage gsrc;
  if (!job.in_place) gsrc = test::copy_to_gpu(*buffers, src);
  *status = job.run(backend, gout.frame,
                    job.in_place ? ConstFrame(gout.frame) : gsrc.frame);
  test::copy_from_gpu(gout, out);
  return out;
}

class Fallback : public test::GpuTest {
 protected:
  // A gpu backend on the fixture's device (so that its GpuBuffers are in
  // place for it), failing after kGoodCalls frame calls.
  std::unique_ptr<Backend> faulty_gpu() {
    Result<std::unique_ptr<GpuBackend>> g =
        create_gpu_backend(GpuOptions::from_env());
    EXPECT_TRUE(g) << g.status().message();
    return inject_gpu_fault(std::move(g).value_or(nullptr), kGoodCalls, kCause);
  }

  std::unique_ptr<Backend> faulty_hybrid(double share) {
    Result<std::unique_ptr<HybridBackend>> h =
        create_hybrid_backend({.threads = 3, .gpu_share = share});
    EXPECT_TRUE(h) << h.status().message();
    return inject_gpu_fault(std::move(h).value_or(nullptr), kGoodCalls, kCause);
  }

  // kFrames random frames of `format` through `job` on a FallbackBackend
  // over `primary`, in GpuBuffers when `in_gpu_memory`: each output equals
  // the reference's, guards intact; the third moves the frames to the cpu
  // backend, which the caller is told once. With `zero_copy`, the frames
  // before the failure were filtered in place.
  void expect_exact_through_failure(std::unique_ptr<Backend> primary,
                                    const NamedJob& named, PixelFormat format,
                                    int width, int height, int padding,
                                    bool in_gpu_memory, bool zero_copy,
                                    std::mt19937& gen) {
    SCOPED_TRACE(named.name + " " + std::string(pixel_format_name(format)) +
                 " " + std::to_string(width) + "x" + std::to_string(height) +
                 (in_gpu_memory ? " in GpuBuffers" : " in ordinary memory"));
    const BackendKind primary_kind = primary->kind();
    std::vector<FallbackNotice> notices;
    FallbackBackend fallback(
        std::move(primary), {.threads = 2},
        [&](const FallbackNotice& n) { notices.push_back(n); });
    for (int i = 0; i < kFrames; i++) {
      SCOPED_TRACE("frame " + std::to_string(i));
      Image src(format, width, height, padding);
      test::fill_random(src, gen);
      const Image want = test::reference_output(src, named.job, padding);
      Status s;
      const Image got = run_frame(fallback, in_gpu_memory ? gpu : nullptr,
                                  named.job, src, padding, &s);
      ASSERT_TRUE(s) << s.message();
      EXPECT_EQ(test::first_difference(want, got), "");
      EXPECT_TRUE(test::guards_intact(got));
      EXPECT_EQ(fallback.fell_back(), i >= kGoodCalls);
      EXPECT_EQ(fallback.kind(), i >= kGoodCalls ? cpu_kind() : primary_kind);
      if (zero_copy && i < kGoodCalls) {
        const auto& active = dynamic_cast<GpuBackend&>(*fallback.active());
        EXPECT_GT(active.last_frame_stats().zero_copy_groups, 0);
        EXPECT_EQ(active.last_frame_stats().staged_groups, 0);
      }
    }
    ASSERT_EQ(notices.size(), 1u);
    EXPECT_EQ(notices[0].failed, primary_kind);
    EXPECT_EQ(notices[0].now, cpu_kind());
    EXPECT_TRUE(notices[0].failure.is_gpu_lost());
    EXPECT_NE(notices[0].failure.message().find(kCause), std::string::npos)
        << notices[0].failure.message();
  }
};

// Frames in ordinary memory: the gpu backend copies them in and out, and
// writes none before the GPU is done.
TEST_F(Fallback, GpuStagedFrames) {
  std::mt19937 gen = test::rng(1);
  int n = 0;
  for (const NamedJob& job : all_jobs())
    for (PixelFormat format : kAllPixelFormats) {
      expect_exact_through_failure(faulty_gpu(), job, format, 33, 17, n++ % 5,
                                   false, false, gen);
      if (HasFailure()) return;
    }
}

// Frames in the gpu backend's buffers, every plane group read and written
// in place (strides of whole words): the GPU wrote part of the frame when
// it was lost, deblock's input included.
TEST_F(Fallback, GpuZeroCopyFrames) {
  std::mt19937 gen = test::rng(2);
  for (const NamedJob& job : all_jobs())
    for (const test::ZeroCopyCase& c : test::kZeroCopyCases) {
      if (c.in_place_outputs != c.groups) continue;
      expect_exact_through_failure(faulty_gpu(), job, c.format, c.width,
                                   c.height, c.padding, true, true, gen);
      if (HasFailure()) return;
    }
}

// Frames of which only some planes lie where the GPU writes them in place
// (I420's chroma rows of 38 / 2 + 2 bytes are not whole words: staged).
TEST_F(Fallback, GpuPartlyZeroCopyFrames) {
  std::mt19937 gen = test::rng(3);
  for (const NamedJob& job : all_jobs()) {
    expect_exact_through_failure(faulty_gpu(), job, PixelFormat::I420, 38, 20,
                                 2, true, false, gen);
    if (HasFailure()) return;
  }
}

// The hybrid backend has written its CPU rows (deblock: pass 1's rows too)
// when it fails, at any share; frames in ordinary memory and in GpuBuffers.
TEST_F(Fallback, HybridFrames) {
  if (!backend_built(BackendKind::Hybrid))
    GTEST_SKIP() << "this build has no hybrid backend (no SIMD)";
  std::mt19937 gen = test::rng(4);
  int n = 0;
  for (const NamedJob& job : all_jobs())
    for (PixelFormat format : kAllPixelFormats)
      for (double share : {0.0, 0.5, 1.0}) {
        const bool in_gpu_memory = n++ % 2;
        expect_exact_through_failure(faulty_hybrid(share), job, format, 40, 24,
                                     in_gpu_memory ? 8 : 3, in_gpu_memory,
                                     false, gen);
        if (HasFailure()) return;
      }
}

// Parameters out of range are refused at the front door, before either
// backend: the frames stay on the GPU, which did not count the call, and
// the caller is not told.
TEST_F(Fallback, ParametersOutOfRangeMoveNothing) {
  int notices = 0;
  FallbackBackend fallback(faulty_gpu(), {},
                           [&](const FallbackNotice&) { notices++; });
  Image frame(PixelFormat::I420, 16, 16);
  for (int i = 0; i <= kGoodCalls; i++) {
    const Status s = fallback.deblock(frame.frame(), {.block_size = 5});
    EXPECT_EQ(s.message(), "deblock: block_size 5 is not 4, 8 or 16");
    EXPECT_FALSE(s.is_gpu_lost());
  }
  EXPECT_EQ(fallback.kind(), BackendKind::Gpu);
  EXPECT_TRUE(fallback.deblock(frame.frame(), {}));
  EXPECT_EQ(fallback.kind(), BackendKind::Gpu);
  EXPECT_EQ(notices, 0);
}

// A backend that does not fail is only passed through: the gpu backend's
// frames stay on it, zero-copy.
TEST_F(Fallback, AGpuThatDoesNotFailKeepsTheFrames) {
  std::unique_ptr<GpuBackend> g =
      create_gpu_backend(GpuOptions::from_env()).value_or(nullptr);
  ASSERT_TRUE(g);
  FallbackBackend fallback(std::move(g), {}, [](const FallbackNotice&) {
    ADD_FAILURE() << "told of a fallback";
  });
  std::mt19937 gen = test::rng(5);
  for (int i = 0; i < kFrames; i++) {
    Image src(PixelFormat::NV12, 40, 24, 8);
    test::fill_random(src, gen);
    const FrameJob job = cdef_job({});
    Status s;
    const Image got = run_frame(fallback, gpu, job, src, 8, &s);
    ASSERT_TRUE(s) << s.message();
    EXPECT_EQ(test::first_difference(test::reference_output(src, job, 8), got),
              "");
    EXPECT_EQ(fallback.kind(), BackendKind::Gpu);
    EXPECT_EQ(dynamic_cast<GpuBackend&>(*fallback.active())
                  .last_frame_stats()
                  .zero_copy_groups,
              4);
  }
}

// ------------------------------------------------------- the injection

// Inverted leading rows: what the injection writes into a plane it may.
Image with_leading_rows_inverted(const Image& image) {
  Image out = image;
  const Frame f = out.frame();
  for (int p = 0; p < f.num_planes; p++)
    for (int y = 0; y < (f.planes[p].height + 1) / 2; y++)
      for (int x = 0; x < f.planes[p].width; x++) f.planes[p].at(x, y) ^= 0xFF;
  return out;
}

class FaultInjection : public Fallback {};

// The wrapped backend keeps its interface, and its good calls are its own.
TEST_F(FaultInjection, KeepsTheInterface) {
  std::unique_ptr<Backend> g = faulty_gpu();
  auto* faulty = dynamic_cast<GpuBackend*>(g.get());
  ASSERT_NE(faulty, nullptr);
  EXPECT_EQ(faulty->kind(), BackendKind::Gpu);
  EXPECT_EQ(faulty->device_info().name, gpu->device_info().name);
  Image src(PixelFormat::I420, 40, 24, 8);
  std::mt19937 gen = test::rng(6);
  test::fill_random(src, gen);
  test::GpuImage in_buffer = test::copy_to_gpu(*faulty, src);
  ASSERT_NE(in_buffer.buffer, nullptr);
  EXPECT_TRUE(faulty->in_device_memory(in_buffer.frame));
  EXPECT_FALSE(faulty->in_device_memory(src.frame()));
  Image dst = filled(PixelFormat::I420, 40, 24, 8, 0);
  ASSERT_TRUE(faulty->mc(dst.frame(), in_buffer.frame, {1.5, 0.5}));
  EXPECT_EQ(faulty->last_frame_stats().zero_copy_groups, 3);

  if (!backend_built(BackendKind::Hybrid))
    GTEST_SKIP() << "this build has no hybrid backend (no SIMD)";
  std::unique_ptr<Backend> h = faulty_hybrid(0.25);
  auto* hybrid = dynamic_cast<HybridBackend*>(h.get());
  ASSERT_NE(hybrid, nullptr);
  EXPECT_EQ(hybrid->gpu_share(), 0.25);
  hybrid->set_gpu_share(0.75);
  EXPECT_EQ(hybrid->gpu_share(), 0.75);
  EXPECT_EQ(hybrid->threads(), 3);

  std::unique_ptr<Backend> cpu =
      create_backend(BackendKind::Scalar).value_or(nullptr);
  Backend* before = cpu.get();
  EXPECT_EQ(inject_gpu_fault(std::move(cpu), 0, kCause).get(), before);
}

// The gpu backend fails leaving staged frames as they were and the leading
// rows of frames in its buffers written; the hybrid one, the leading rows of
// every output. A source is never written.
TEST_F(FaultInjection, WritesWhatTheBackendMayWrite) {
  std::mt19937 gen = test::rng(7);
  Image src(PixelFormat::NV12, 40, 24, 8);
  test::fill_random(src, gen);
  const Image inverted = with_leading_rows_inverted(src);
  const DeblockParams dp{.qp = 45, .bs = 4, .block_size = 4};

  for (bool in_gpu_memory : {false, true}) {
    SCOPED_TRACE(in_gpu_memory ? "in GpuBuffers" : "in ordinary memory");
    std::unique_ptr<Backend> g = inject_gpu_fault(
        [] {
          Result<std::unique_ptr<GpuBackend>> b =
              create_gpu_backend(GpuOptions::from_env());
          EXPECT_TRUE(b);
          return std::unique_ptr<Backend>(std::move(b).value_or(nullptr));
        }(),
        0, kCause);
    Status s;
    Image got = run_frame(*g, in_gpu_memory ? gpu : nullptr, deblock_job(dp),
                          src, 8, &s);
    EXPECT_TRUE(s.is_gpu_lost());
    EXPECT_EQ(test::first_difference(in_gpu_memory ? inverted : src, got), "");
    EXPECT_TRUE(test::guards_intact(got));

    Image dst = filled(PixelFormat::NV12, 40, 24, 8, 0x5a);
    got = run_frame(*g, in_gpu_memory ? gpu : nullptr, mc_job({}), src, 8, &s);
    EXPECT_TRUE(s.is_gpu_lost());
    EXPECT_EQ(test::first_difference(
                  in_gpu_memory ? with_leading_rows_inverted(dst) : dst, got),
              "");
    EXPECT_TRUE(test::guards_intact(got));
  }

  if (!backend_built(BackendKind::Hybrid))
    GTEST_SKIP() << "this build has no hybrid backend (no SIMD)";
  std::unique_ptr<Backend> h = faulty_hybrid(0.5);
  for (int i = 0; i < kGoodCalls; i++) {
    Image frame = src;
    ASSERT_TRUE(h->deblock(frame.frame(), dp));
  }
  Image frame = src;
  const Status s = h->deblock(frame.frame(), dp);
  EXPECT_TRUE(s.is_gpu_lost());
  EXPECT_NE(s.message().find(kCause), std::string::npos) << s.message();
  EXPECT_EQ(test::first_difference(inverted, frame), "");
  EXPECT_TRUE(test::guards_intact(frame));
}

// ------------------------------------------------------- the snapshot

// Every format and bit depth, 1x1 and odd sizes: restore puts back every
// sample's bytes (a 10-bit word's other bits too) and no padding byte.
TEST(FrameSnapshot, RestoresSamplesNotPadding) {
  std::mt19937 gen = test::rng(8);
  std::vector<PixelFormat> formats(std::begin(kAllPixelFormats),
                                   std::end(kAllPixelFormats));
  formats.insert(formats.end(), std::begin(kTenBitPixelFormats),
                 std::end(kTenBitPixelFormats));
  for (PixelFormat format : formats)
    for (auto [w, h] : {std::pair{1, 1}, {7, 5}, {33, 2}}) {
      SCOPED_TRACE(std::string(pixel_format_name(format)) + " " +
                   std::to_string(w) + "x" + std::to_string(h));
      Image image(format, w, h, 3);
      test::fill_random(image, gen);
      if (image.frame().bit_depth() > 8) test::set_outside_bits(image, gen);
      const Image original = image;
      const FrameSnapshot kept(image.frame());
      for (uint8_t& b : image.bytes()) b = uint8_t(~b);
      kept.restore(image.frame());

      // The bytes of each row from its first sample to its last.
      std::vector<bool> sample(image.bytes().size(), false);
      const ConstFrame f = image.frame();
      for (int p = 0; p < f.num_planes; p++) {
        const ConstPlane& pl = f.planes[p];
        const size_t row =
            size_t(pl.width - 1) * pl.step + size_t(pl.bytes_per_sample());
        for (int y = 0; y < pl.height; y++) {
          const size_t at = size_t(pl.row(y) - image.bytes().data());
          for (size_t b = 0; b < row; b++) sample[at + b] = true;
        }
      }
      for (size_t i = 0; i < sample.size(); i++)
        ASSERT_EQ(image.bytes()[i], sample[i] ? original.bytes()[i]
                                              : uint8_t(~original.bytes()[i]))
            << "byte " << i << (sample[i] ? " (a sample's)" : " (padding)");
    }
}

}  // namespace
}  // namespace daedalus
