// What backends share across a process: cpu backends with the same thread
// count one thread pool (suite threads: SharedPool), gpu backends with the
// same GpuOptions one Vulkan device (suite gpu: SharedGpu). Backends used on
// two threads at once stay bit-exact with the scalar reference.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <latch>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "backends/cpu/backend_dsp.h"
#include "daedalus/backend.h"
#include "daedalus/image.h"
#include "daedalus_config.h"
#include "test_util.h"
#if DAEDALUS_HAVE_VULKAN
#include "daedalus/backend_gpu.h"
#include "gpu_test_util.h"
#include "vulkan/vk_context.h"
#include "vulkan/vk_instance.h"
#endif

namespace daedalus {
namespace {

enum class Kernel { Deblock, Cdef, Mc };
constexpr Kernel kKernels[] = {Kernel::Deblock, Kernel::Cdef, Kernel::Mc};

std::string kernel_name(Kernel k) {
  switch (k) {
    case Kernel::Deblock:
      return "deblock";
    case Kernel::Cdef:
      return "cdef";
    case Kernel::Mc:
      return "mc";
  }
  return "?";
}

// Parameters that change every plane. Deblock filters `dst` in place, so
// callers pass a copy of `src` as `dst` to every kernel.
Status run_kernel(Backend& backend, Kernel k, const Frame& dst,
                  const ConstFrame& src) {
  switch (k) {
    case Kernel::Deblock: {
      DeblockParams p;
      p.qp = 45;
      p.bs = 2;
      p.block_size = 4;
      return backend.deblock(dst, p);
    }
    case Kernel::Cdef: {
      CdefParams p;
      p.pri_strength = 9;
      p.sec_strength = 2;
      p.uv_pri_strength = 5;
      p.uv_sec_strength = 1;
      return backend.cdef(dst, src, p);
    }
    case Kernel::Mc:
      return backend.mc(dst, src, {3.3, -1.7, McFilter::Sharp});
  }
  return Status::error("unknown kernel");
}

Image reference_output(Kernel k, const Image& src) {
  std::unique_ptr<Backend> scalar =
      create_backend(BackendKind::Scalar).value_or(nullptr);
  Image out = src;
  const Status s = run_kernel(*scalar, k, out.frame(), src.frame());
  EXPECT_TRUE(s) << s.message();
  return out;
}

std::string describe(Kernel k, const Image& image) {
  return kernel_name(k) + " " + std::string(pixel_format_name(image.format())) +
         " " + std::to_string(image.width()) + "x" +
         std::to_string(image.height());
}

// Filters `src` with `backend` on the calling thread and compares with the
// reference; "" when bit-exact with guard bytes intact, else what differs.
std::string filter_and_compare(Backend& backend, Kernel k, const Image& src) {
  const Image want = reference_output(k, src);
  Image out = src;
  if (const Status s = run_kernel(backend, k, out.frame(), src.frame()); !s)
    return describe(k, src) + ": " + s.message();
  const std::string diff = test::first_difference(want, out);
  if (!diff.empty()) return describe(k, src) + ": " + diff;
  if (!test::guards_intact(out)) return describe(k, src) + ": guards written";
  return "";
}

// Runs `work(i)` on `n` threads started together; returns every non-empty
// string they returned.
std::vector<std::string> on_threads(
    int n, const std::function<std::string(int)>& work) {
  std::latch start(n);
  std::vector<std::string> results(n);
  std::vector<std::thread> threads;
  for (int i = 0; i < n; i++)
    threads.emplace_back([&, i] {
      start.arrive_and_wait();
      results[i] = work(i);
    });
  for (std::thread& t : threads) t.join();
  std::vector<std::string> failures;
  for (std::string& r : results)
    if (!r.empty()) failures.push_back(std::move(r));
  return failures;
}

// ------------------------------------------------------------ thread pool

class SharedPool : public ::testing::Test {
 protected:
  void SetUp() override {
    if (Result<std::unique_ptr<Backend>> b = create_backend(BackendKind::Cpu);
        !b)
      GTEST_SKIP() << b.status().message();
  }

  static std::unique_ptr<Backend> cpu(int threads) {
    Result<std::unique_ptr<Backend>> b =
        create_backend(BackendKind::Cpu, {threads});
    EXPECT_TRUE(b) << b.status().message();
    return std::move(b).value_or(nullptr);
  }
};

// Backends of n threads hold the process's one pool of n (the caller and
// n - 1 workers), which lives as long as one of them does: its workers are
// joined when it goes. Seen through the pools' owners, not the process's
// thread count, which a sanitizer's threads change too.
TEST_F(SharedPool, EqualThreadCountsShareOnePool) {
  std::unique_ptr<Backend> a = cpu(4);
  const std::weak_ptr<ThreadPool> four = shared_thread_pool(4);
  ASSERT_EQ(four.use_count(), 1) << "a alone holds the pool of 4";
  std::unique_ptr<Backend> b = cpu(4);
  EXPECT_EQ(four.use_count(), 2) << "b shares a's pool";
  std::unique_ptr<Backend> c = cpu(3);
  const std::weak_ptr<ThreadPool> three = shared_thread_pool(3);
  ASSERT_EQ(three.use_count(), 1) << "c has a pool of its own";
  EXPECT_EQ(four.lock()->threads(), 4);
  EXPECT_EQ(three.lock()->threads(), 3);
  std::unique_ptr<Backend> one = cpu(1);  // the calling thread only
  EXPECT_EQ(four.use_count(), 2);
  EXPECT_EQ(three.use_count(), 1);

  a.reset();
  EXPECT_EQ(four.use_count(), 1) << "b still holds the pool of 4";
  b.reset();
  EXPECT_TRUE(four.expired());
  c.reset();
  EXPECT_TRUE(three.expired());

  // A pool made again after the last one went works as the first did.
  std::unique_ptr<Backend> again = cpu(4);
  EXPECT_EQ(shared_thread_pool(4)->threads(), 4);
  std::mt19937 gen = test::rng(1);
  Image src(PixelFormat::I420, 130, 47, 5);
  test::fill_random(src, gen);
  for (Kernel k : kKernels) EXPECT_EQ(filter_and_compare(*again, k, src), "");
}

// Three backends, two of them on one pool, filter every kernel and format on
// three threads at once, twice over.
TEST_F(SharedPool, BackendsOnThreadsAtOnceStayBitExact) {
  const int thread_counts[] = {3, 3, 2};
  std::vector<std::unique_ptr<Backend>> backends;
  for (int n : thread_counts) backends.push_back(cpu(n));
  ASSERT_TRUE(backends[0] && backends[1] && backends[2]);
  const std::vector<std::string> failures = on_threads(3, [&](int t) {
    std::mt19937 gen = test::rng(100 + t);
    for (int round = 0; round < 2; round++)
      for (PixelFormat format : kAllPixelFormats)
        for (Kernel k : kKernels) {
          Image src(format, 37 + 64 * t, 21 + 26 * round, 5);
          test::fill_random(src, gen);
          if (std::string f = filter_and_compare(*backends[t], k, src);
              !f.empty())
            return "thread " + std::to_string(t) + ", " + f;
        }
    return std::string();
  });
  for (const std::string& f : failures) ADD_FAILURE() << f;
}

// ------------------------------------------------------------ Vulkan device

#if DAEDALUS_HAVE_VULKAN

class SharedGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (vk::vulkan_device_count() == 0)
      GTEST_SKIP() << "no Vulkan device on this machine";
  }
  void TearDown() override { test::expect_no_validation_messages(); }

  static std::unique_ptr<GpuBackend> gpu(
      const GpuOptions& options = GpuOptions::from_env()) {
    Result<std::unique_ptr<GpuBackend>> b = create_gpu_backend(options);
    EXPECT_TRUE(b) << b.status().message();
    return std::move(b).value_or(nullptr);
  }
};

// Like filter_and_compare, with both frames in GpuBuffers of `owner`. Rows of
// a multiple of 4 bytes let outputs be written in place too, so nothing is
// staged when `backend` shares `owner`'s device.
std::string filter_in_buffers_and_compare(GpuBackend& backend,
                                          GpuBackend& owner, Kernel k,
                                          const Image& src,
                                          bool expect_zero_copy) {
  const Image want = reference_output(k, src);
  const test::GpuImage in = test::copy_to_gpu(owner, src);
  const test::GpuImage out = test::copy_to_gpu(owner, src);
  if (!in.buffer || !out.buffer) return describe(k, src) + ": no GpuBuffer";
  if (const Status s = run_kernel(backend, k, out.frame, in.frame); !s)
    return describe(k, src) + ": " + s.message();
  Image got = src;
  test::copy_from_gpu(out, got);
  const std::string diff = test::first_difference(want, got);
  if (!diff.empty()) return describe(k, src) + " in GpuBuffers: " + diff;
  if (!test::guards_intact(got))
    return describe(k, src) + " in GpuBuffers: guards written";
  const GpuFrameStats& st = backend.last_frame_stats();
  if (expect_zero_copy != (st.staged_groups == 0 && st.zero_copy_groups > 0))
    return describe(k, src) +
           " in GpuBuffers: " + std::to_string(st.zero_copy_groups) +
           " groups in place, " + std::to_string(st.staged_groups) + " staged";
  return "";
}

TEST_F(SharedGpu, EqualOptionsShareOneDeviceAndItsBuffers) {
  std::unique_ptr<GpuBackend> a = gpu(), b = gpu();
  ASSERT_TRUE(a && b);
  std::mt19937 gen = test::rng(2);
  Image src(PixelFormat::I420, 64, 36);
  test::fill_random(src, gen);
  // A's buffers are B's too, and the other way round: 3 planes in, 3 out.
  EXPECT_EQ(filter_in_buffers_and_compare(*b, *a, Kernel::Mc, src, true), "");
  EXPECT_EQ(b->last_frame_stats().zero_copy_groups, 6);
  EXPECT_EQ(filter_in_buffers_and_compare(*a, *b, Kernel::Mc, src, true), "");
  EXPECT_EQ(a->last_frame_stats().zero_copy_groups, 6);

  // The same device asked for in other words is a device of its own: it
  // copies A's frames in and out.
  std::unique_ptr<GpuBackend> other = gpu(test::separate_device(*a));
  ASSERT_TRUE(other);
  EXPECT_EQ(other->device_info().name, a->device_info().name);
  EXPECT_EQ(filter_in_buffers_and_compare(*other, *a, Kernel::Mc, src, false),
            "");
  EXPECT_EQ(other->last_frame_stats().staged_groups, 6);
}

// The device's pipeline cache file is written when the device closes: after
// its last backend and its last buffer, not before.
TEST_F(SharedGpu, TheDeviceClosesWithItsLastUserAndOpensAfresh) {
  test::TempDir dir;
  test::ScopedEnv xdg("XDG_CACHE_HOME", dir.path());
  const GpuOptions options = GpuOptions::from_env();
  std::unique_ptr<GpuBackend> a = gpu(), b = gpu();
  ASSERT_TRUE(a && b);
  const std::string path = a->device_info().pipeline_cache_path;
  ASSERT_FALSE(path.empty());
  EXPECT_EQ(b->device_info().pipeline_cache_path, path);
  EXPECT_EQ(a->device_info().pipeline_cache_bytes_loaded, 0u);
  std::weak_ptr<vk::Context> context;
  {
    Result<std::shared_ptr<vk::Context>> c =
        vk::Context::shared({options.device, options.validation});
    ASSERT_TRUE(c);
    context = c.value();
  }

  std::mt19937 gen = test::rng(3);
  Image src(PixelFormat::NV12, 33, 17, 3);
  test::fill_random(src, gen);
  EXPECT_EQ(filter_and_compare(*a, Kernel::Mc, src), "");
  EXPECT_EQ(filter_and_compare(*b, Kernel::Mc, src), "");
  std::unique_ptr<GpuBuffer> buffer =
      b->allocate_buffer(4096).value_or(nullptr);
  ASSERT_TRUE(buffer);

  a.reset();
  b.reset();
  EXPECT_FALSE(context.expired()) << "the buffer holds the device";
  EXPECT_FALSE(std::filesystem::exists(path));
  buffer.reset();
  EXPECT_TRUE(context.expired());
  EXPECT_TRUE(std::filesystem::exists(path));

  // A new device, which found the file the old one left.
  std::unique_ptr<GpuBackend> c = gpu();
  ASSERT_TRUE(c);
  EXPECT_GT(c->device_info().pipeline_cache_bytes_loaded, 0u);
  EXPECT_EQ(filter_and_compare(*c, Kernel::Mc, src), "");
}

// Two threads create their backends at the same moment (one device between
// them), then filter every kernel and format at once: staged frames, and
// frames in buffers the other thread's backend allocates meanwhile.
TEST_F(SharedGpu, TwoThreadsFilterAtOnceBitExact) {
  std::unique_ptr<GpuBackend> backends[2];
  std::latch created(2);
  const std::vector<std::string> failures = on_threads(2, [&](int t) {
    backends[t] = gpu();
    created.arrive_and_wait();
    if (!backends[0] || !backends[1]) return std::string("no backend");
    GpuBackend& mine = *backends[t];
    GpuBackend& theirs = *backends[1 - t];
    std::mt19937 gen = test::rng(200 + t);
    const std::string who = "thread " + std::to_string(t) + ", ";
    for (PixelFormat format : kAllPixelFormats)
      for (Kernel k : kKernels) {
        Image staged(format, 37 + 2 * t, 21, 5);
        test::fill_random(staged, gen);
        if (std::string f = filter_and_compare(mine, k, staged); !f.empty())
          return who + f;
        // Rows of 48 bytes (luma, 4:4:4, interleaved chroma) or 28.
        Image aligned(format, 40, 23 + t, 8);
        test::fill_random(aligned, gen);
        if (std::string f =
                filter_in_buffers_and_compare(mine, theirs, k, aligned, true);
            !f.empty())
          return who + f;
      }
    return std::string();
  });
  for (const std::string& f : failures) ADD_FAILURE() << f;
}

#endif  // DAEDALUS_HAVE_VULKAN

}  // namespace
}  // namespace daedalus
