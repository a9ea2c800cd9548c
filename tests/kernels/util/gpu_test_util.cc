#include "gpu_test_util.h"

#include <stdlib.h>

#include <cstring>
#include <filesystem>
#include <string>

#include "test_util.h"
#include "vulkan/vk_instance.h"

namespace daedalus::test {
namespace {

// Owns the backend so that its destruction, after the last test, is
// checked for validation messages too.
class GpuEnvironment : public ::testing::Environment {
 public:
  static GpuEnvironment* instance;

  void TearDown() override {
    backend_.reset();
    expect_no_validation_messages();
  }

  GpuBackend* backend(std::string* why_not) {
    if (!created_) {
      created_ = true;
      Result<std::unique_ptr<GpuBackend>> b =
          create_gpu_backend(GpuOptions::from_env());
      why_not_ = b.status().message();
      backend_ = std::move(b).value_or(nullptr);
    }
    *why_not = why_not_;
    return backend_.get();
  }

 private:
  bool created_ = false;
  std::unique_ptr<GpuBackend> backend_;
  std::string why_not_;
};

GpuEnvironment* GpuEnvironment::instance = static_cast<GpuEnvironment*>(
    ::testing::AddGlobalTestEnvironment(new GpuEnvironment));

}  // namespace

void GpuTest::SetUp() {
  static const int devices = vk::vulkan_device_count();
  if (devices == 0) GTEST_SKIP() << "no Vulkan device on this machine";
  std::string why_not;
  gpu = GpuEnvironment::instance->backend(&why_not);
  ASSERT_NE(gpu, nullptr) << why_not;
  if (vk::validation_requested_by_env()) {
    ASSERT_TRUE(gpu->device_info().validation);
  }
}

void GpuTest::TearDown() { expect_no_validation_messages(); }

void expect_no_validation_messages() {
  for (const std::string& m : vk::debug_messages()) ADD_FAILURE() << m;
  vk::clear_debug_messages();
}

GpuOptions separate_device(const GpuBackend& backend) {
  // Devices are shared by equal options, not by the device they resolve to.
  GpuOptions options = GpuOptions::from_env();
  const std::string& name = backend.device_info().name;
  options.device = options.device == name ? "" : name;
  return options;
}

TempDir::TempDir() {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "daedalus-gpu-XXXXXX").string();
  path_ = mkdtemp(pattern.data());
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

ScopedEnv::ScopedEnv(const char* name, const std::string& value) : name_(name) {
  if (const char* old = std::getenv(name)) old_ = old;
  setenv(name, value.c_str(), 1);
}

ScopedEnv::~ScopedEnv() {
  if (old_)
    setenv(name_, old_->c_str(), 1);
  else
    unsetenv(name_);
}

GpuImage copy_to_gpu(GpuBackend& gpu, const Image& image) {
  GpuImage g;
  Result<std::unique_ptr<GpuBuffer>> buffer =
      gpu.allocate_buffer(image.bytes().size());
  EXPECT_TRUE(buffer) << buffer.status().message();
  if (!buffer) return g;
  g.buffer = std::move(buffer).value();
  std::memcpy(g.buffer->data(), image.bytes().data(), image.bytes().size());
  const ConstFrame f = image.frame();
  g.frame.num_planes = f.num_planes;
  g.frame.chroma_shift_x = f.chroma_shift_x;
  g.frame.chroma_shift_y = f.chroma_shift_y;
  for (int p = 0; p < f.num_planes; p++) {
    const ConstPlane& pl = f.planes[p];
    g.frame.planes[p] = {g.buffer->data() + (pl.data - image.bytes().data()),
                         pl.stride,
                         pl.width,
                         pl.height,
                         pl.step,
                         pl.bit_depth,
                         pl.lsb};
  }
  return g;
}

void copy_from_gpu(const GpuImage& gpu_image, Image& image) {
  std::memcpy(image.bytes().data(), gpu_image.buffer->data(),
              image.bytes().size());
}

const ZeroCopyCase kZeroCopyCases[8] = {
    {PixelFormat::I420, 40, 24, 8, 3, 3}, {PixelFormat::NV12, 40, 24, 8, 2, 2},
    {PixelFormat::NV21, 40, 24, 8, 2, 2}, {PixelFormat::Y444, 40, 24, 8, 3, 3},
    {PixelFormat::Y42B, 40, 24, 8, 3, 3}, {PixelFormat::GRAY8, 38, 7, 2, 1, 1},
    {PixelFormat::I420, 38, 20, 2, 3, 1}, {PixelFormat::NV21, 38, 20, 2, 2, 2},
};

const ZeroCopyCase kTenBitZeroCopyCases[6] = {
    {PixelFormat::I420_10LE, 40, 24, 8, 3, 3},
    {PixelFormat::P010_10LE, 40, 24, 8, 2, 2},
    {PixelFormat::Y444_10LE, 37, 7, 3, 3, 3},
    {PixelFormat::I422_10LE, 38, 20, 1, 3, 2},
    {PixelFormat::I420_10LE, 38, 20, 2, 3, 1},
    {PixelFormat::P010_10LE, 37, 20, 1, 2, 1},
};

namespace {

Image filled(PixelFormat format, int width, int height, int padding,
             uint8_t value) {
  Image image(format, width, height, padding);
  fill(image, [value](int, int, int) { return value; });
  return image;
}

}  // namespace

void expect_zero_copy_frames(GpuBackend& gpu, const FrameJob& job,
                             std::mt19937& gen,
                             std::span<const ZeroCopyCase> cases) {
  for (const ZeroCopyCase& c : cases) {
    Image src(c.format, c.width, c.height, c.padding);
    fill_random(src, gen);
    set_outside_bits(src, gen);
    SCOPED_TRACE(testing::Message() << pixel_format_name(c.format) << " "
                                    << c.width << "x" << c.height << " padding "
                                    << c.padding << " " << job.cost_key);
    const Image want = reference_output(src, job, c.padding);

    Image out = filled(c.format, c.width, c.height, c.padding, 0x5a);
    GpuImage gsrc = copy_to_gpu(gpu, src);
    GpuImage gdst = copy_to_gpu(gpu, out);
    ASSERT_TRUE(gsrc.buffer && gdst.buffer);
    const Status s = job.run(gpu, gdst.frame, gsrc.frame);
    ASSERT_TRUE(s) << s.message();
    copy_from_gpu(gdst, out);
    EXPECT_EQ(first_difference(want, out), "");
    EXPECT_TRUE(guards_intact(out));

    // Inputs are always used in place; they need no alignment.
    const GpuFrameStats& st = gpu.last_frame_stats();
    EXPECT_EQ(st.zero_copy_groups, c.groups + c.in_place_outputs);
    EXPECT_EQ(st.staged_groups, c.groups - c.in_place_outputs);
  }
}

void expect_mixed_placement(GpuBackend& gpu, const FrameJob& job,
                            PixelFormat format, std::mt19937& gen) {
  Image src(format, 40, 24, 8);
  fill_random(src, gen);
  set_outside_bits(src, gen);
  const Image want = reference_output(src, job, 8);

  GpuImage gsrc = copy_to_gpu(gpu, src);
  Image out = filled(format, 40, 24, 8, 0);
  Status s = job.run(gpu, out.frame(), gsrc.frame);
  ASSERT_TRUE(s) << s.message();
  EXPECT_EQ(first_difference(want, out), "");
  EXPECT_TRUE(guards_intact(out));
  EXPECT_EQ(gpu.last_frame_stats().zero_copy_groups, 2);
  EXPECT_EQ(gpu.last_frame_stats().staged_groups, 2);

  Image out2 = filled(format, 40, 24, 8, 0);
  GpuImage gdst = copy_to_gpu(gpu, out2);
  s = job.run(gpu, gdst.frame, src.frame());
  ASSERT_TRUE(s) << s.message();
  copy_from_gpu(gdst, out2);
  EXPECT_EQ(first_difference(want, out2), "");
  EXPECT_TRUE(guards_intact(out2));
  EXPECT_EQ(gpu.last_frame_stats().zero_copy_groups, 2);
}

}  // namespace daedalus::test
