// Shared by the gpu test executables: one gpu backend per process, the skip
// rule (skip only when the machine has no Vulkan device at all), the
// validation check (no message from VK_LAYER_KHRONOS_validation, which
// `meson test` enables through DAEDALUS_VULKAN_VALIDATION=1), and scoped
// temporary directories and environment variables.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>

#include "daedalus/backend_choice.h"
#include "daedalus/backend_gpu.h"
#include "daedalus/image.h"

namespace daedalus::test {

// SetUp skips when there is no Vulkan device, fails when there is one but
// the backend cannot be created; TearDown fails when a validation message
// was recorded during the test.
class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  GpuBackend* gpu = nullptr;  // the process's backend, kept across tests
};

// Fails the current test with every recorded validation message, then
// forgets them.
void expect_no_validation_messages();

// The environment's GpuOptions with the device asked for in another way
// (by the name of `backend`'s device, or by default): backends created with
// them run on a Vulkan device of their own, not on `backend`'s.
GpuOptions separate_device(const GpuBackend& backend);

// A fresh directory under the system's temporary one, removed afterwards.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Sets an environment variable for a scope, then restores it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value);
  ~ScopedEnv();

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// A copy of an image's bytes in a GpuBuffer, and the image's frame rebased
// into it (same offsets, strides and steps).
struct GpuImage {
  std::unique_ptr<GpuBuffer> buffer;
  Frame frame;
};

GpuImage copy_to_gpu(GpuBackend& gpu, const Image& image);
// Copies the buffer's bytes back over the image's.
void copy_from_gpu(const GpuImage& gpu_image, Image& image);

// Frames whose plane groups the GPU can or cannot write in place. Strides
// 40 + 8 and 20 + 8 are multiples of 4: every group runs in place. 38 + 2:
// luma (and NV21's chroma pair) in place with a partial last word per row,
// whose padding bytes the shader must write back unchanged; I420's chroma
// rows (19 + 2) are not word-aligned, so its chroma output is staged.
struct ZeroCopyCase {
  PixelFormat format;
  int width, height, padding;
  int groups;            // plane groups: 1 gray, 2 semi-planar, 3 planar
  int in_place_outputs;  // groups written in place
};
extern const ZeroCopyCase kZeroCopyCases[8];
// The same for 10-bit formats (rows of 2w bytes, 4w for P010's chroma pair):
// 40x24 with 8 samples of padding, 37x7 Y444 with 3 (80-byte rows) in place;
// 38 + 1 I422 luma (78 bytes), 19 + 2 I420 chroma (42) and 2 x 19 + 1 P010
// chroma (78) staged.
extern const ZeroCopyCase kTenBitZeroCopyCases[6];

// An out-of-place job (CDEF, MC) with both frames in GpuBuffers, over
// `cases`: the output equals the scalar reference's, guards intact, and the
// frame stats count the inputs and the word-aligned outputs as zero-copy,
// the other outputs as staged. 10-bit sources carry random bits outside
// their values.
void expect_zero_copy_frames(
    GpuBackend& gpu, const FrameJob& job, std::mt19937& gen,
    std::span<const ZeroCopyCase> cases = kZeroCopyCases);

// The job with the source in a GpuBuffer and the output in ordinary memory,
// then the other way round, on a 40x24 `format` frame (two plane groups).
void expect_mixed_placement(GpuBackend& gpu, const FrameJob& job,
                            PixelFormat format, std::mt19937& gen);

}  // namespace daedalus::test
