// Shared by the gpu test executables: one gpu backend per process, the skip
// rule (skip only when the machine has no Vulkan device at all), the
// validation check (no message from VK_LAYER_KHRONOS_validation, which
// `meson test` enables through DAEDALUS_VULKAN_VALIDATION=1), and scoped
// temporary directories and environment variables.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>

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

}  // namespace daedalus::test
