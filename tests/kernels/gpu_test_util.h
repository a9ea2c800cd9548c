// Shared by the gpu test executables: one gpu backend per process, the skip
// rule (skip only when the machine has no Vulkan device at all) and the
// validation check (no message from VK_LAYER_KHRONOS_validation, which
// `meson test` enables through DAEDALUS_VULKAN_VALIDATION=1).
#pragma once

#include <gtest/gtest.h>

#include <memory>

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
