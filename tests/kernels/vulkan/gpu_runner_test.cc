// The Vulkan runner under the gpu backend: device selection (a pure function
// of device descriptions), DAEDALUS_VULKAN_DEVICE, the pipeline cache file,
// the shaders' declared limits and push-constant layouts, and the backend's
// error text.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "cdef.spv.h"
#include "daedalus/backend.h"
#include "daedalus/cdef.h"
#include "daedalus/image.h"
#include "deblock.spv.h"
#include "deblock_dct.spv.h"
#include "deblock_vp9.spv.h"
#include "gpu_test_util.h"
#include "mc.spv.h"
#include "test_util.h"
#include "vulkan/vk_context.h"
#include "vulkan/vk_device_select.h"
#include "vulkan/vk_frame.h"
#include "vulkan/vk_instance.h"
#include "vulkan/vk_pipeline_cache.h"

namespace daedalus {
namespace {

using test::ScopedEnv;
using test::TempDir;
using vk::DeviceFacts;
using vk::DeviceRequest;

// ------------------------------------------------------- device selection

DeviceFacts usable(std::string name, VkPhysicalDeviceType type) {
  DeviceFacts d;
  d.name = std::move(name);
  d.type = type;
  d.api_version = VK_API_VERSION_1_2;
  d.has_compute_queue = true;
  d.max_shared_memory = 32768;
  d.max_invocations = 1024;
  d.max_group_size[0] = d.max_group_size[1] = 1024;
  d.max_push_constants = 256;
  return d;
}

const DeviceFacts kCpu =
    usable("llvmpipe (LLVM 15.0.6, 256 bits)", VK_PHYSICAL_DEVICE_TYPE_CPU);
const DeviceFacts kIntegrated =
    usable("Intel(R) UHD Graphics 620", VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU);
const DeviceFacts kDiscrete =
    usable("NVIDIA GeForce RTX 3070", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU);
const DeviceFacts kVirtual =
    usable("Virtio-GPU Venus", VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU);
const DeviceFacts kOther = usable("V3D 7.1", VK_PHYSICAL_DEVICE_TYPE_OTHER);

int choose(std::vector<DeviceFacts> devices, std::string_view request = "",
           std::string* why = nullptr) {
  const Result<int> chosen =
      vk::choose_device(devices, vk::parse_device_request(request));
  if (why) *why = chosen.status().message();
  return chosen ? chosen.value() : -1;
}

TEST(GpuDeviceSelection, PrefersDiscreteThenIntegratedVirtualOtherSoftware) {
  EXPECT_EQ(choose({kCpu, kIntegrated, kDiscrete}), 2);
  EXPECT_EQ(choose({kCpu, kIntegrated, kVirtual}), 1);
  EXPECT_EQ(choose({kCpu, kVirtual, kOther}), 1);
  EXPECT_EQ(choose({kCpu, kOther}), 1);
  EXPECT_EQ(choose({kCpu}), 0);
  // Ties go to the loader's order.
  DeviceFacts second = kDiscrete;
  second.name = "NVIDIA GeForce RTX 4090";
  EXPECT_EQ(choose({kCpu, kDiscrete, second}), 1);
}

TEST(GpuDeviceSelection, SkipsDevicesThatCannotRunTheShaders) {
  DeviceFacts old = kDiscrete;
  old.api_version = VK_API_VERSION_1_0;
  EXPECT_EQ(choose({old, kCpu}), 1);
  DeviceFacts small = kIntegrated;
  small.max_invocations = 128;  // the Vulkan minimum; the shaders use 256
  EXPECT_EQ(choose({small, kCpu}), 1);

  std::string why;
  EXPECT_EQ(choose({old, small}, "", &why), -1);
  EXPECT_NE(why.find("no Vulkan device can run daedalus's shaders"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("Vulkan 1.0 only; 1.1 is needed"), std::string::npos);
  EXPECT_NE(why.find("128 invocations per workgroup; 256 are needed"),
            std::string::npos);
}

// The clause of check_requirements' error, or "" when the device is fine.
std::string unmet(const DeviceFacts& d) {
  const Status s = vk::check_requirements(d);
  EXPECT_EQ(bool(s), s.message().empty());
  return s.message();
}

TEST(GpuDeviceSelection, NamesEveryUnmetRequirement) {
  DeviceFacts d = kDiscrete;
  EXPECT_TRUE(vk::check_requirements(d));
  d.max_push_constants = 64;
  EXPECT_EQ(unmet(d), "it offers 64 bytes of push constants; 128 are needed");
  d.max_group_size[1] = 8;
  EXPECT_EQ(unmet(d),
            "its workgroups are limited to 1024 x 8; 16 x 16 is needed");
  d.max_invocations = 64;
  EXPECT_EQ(unmet(d), "it allows 64 invocations per workgroup; 256 are needed");
  d.max_shared_memory = 8192;
  EXPECT_EQ(
      unmet(d),
      "it offers 8192 bytes of workgroup shared memory; 16384 are needed");
  d.has_compute_queue = false;
  EXPECT_EQ(unmet(d), "it has no compute queue");
  d.api_version = VK_MAKE_API_VERSION(0, 1, 0, 61);
  EXPECT_EQ(unmet(d), "it supports Vulkan 1.0 only; 1.1 is needed");
}

TEST(GpuDeviceSelection, ParsesTheRequest) {
  DeviceRequest r = vk::parse_device_request("");
  EXPECT_EQ(r.kind, DeviceRequest::Kind::Best);
  EXPECT_EQ(vk::parse_device_request(" \t ").kind, DeviceRequest::Kind::Best);
  r = vk::parse_device_request(" 12 ");
  EXPECT_EQ(r.kind, DeviceRequest::Kind::Index);
  EXPECT_EQ(r.index, 12u);
  r = vk::parse_device_request("123456789012345678901234567890");
  EXPECT_EQ(r.kind, DeviceRequest::Kind::Index);
  EXPECT_EQ(r.index, UINT64_MAX);
  r = vk::parse_device_request("GeForce");
  EXPECT_EQ(r.kind, DeviceRequest::Kind::Name);
  EXPECT_EQ(r.name, "geforce");
  r = vk::parse_device_request("1a");
  EXPECT_EQ(r.kind, DeviceRequest::Kind::Name);
  EXPECT_EQ(vk::parse_device_request("-1").kind, DeviceRequest::Kind::Name);
}

TEST(GpuDeviceSelection, TheRequestWins) {
  EXPECT_EQ(choose({kCpu, kDiscrete}, "0"), 0);
  EXPECT_EQ(choose({kCpu, kDiscrete}, "llvmPIPE"), 0);
  EXPECT_EQ(choose({kDiscrete, kCpu, kIntegrated}, "i"), 0);  // all match
  EXPECT_EQ(choose({kCpu, kIntegrated, kDiscrete}, "intel"), 1);

  std::string why;
  EXPECT_EQ(choose({kCpu, kDiscrete}, "2", &why), -1);
  EXPECT_EQ(why,
            "DAEDALUS_VULKAN_DEVICE=2 asks for a Vulkan device that does not "
            "exist; the devices are 0: \"llvmpipe (LLVM 15.0.6, 256 bits)\", "
            "1: \"NVIDIA GeForce RTX 3070\"");
  EXPECT_EQ(choose({kCpu}, "radeon", &why), -1);
  EXPECT_EQ(why,
            "DAEDALUS_VULKAN_DEVICE=radeon matches no Vulkan device; the "
            "devices are 0: \"llvmpipe (LLVM 15.0.6, 256 bits)\"");

  DeviceFacts old = kDiscrete;
  old.api_version = VK_API_VERSION_1_0;
  EXPECT_EQ(choose({kCpu, old}, "1", &why), -1);
  EXPECT_EQ(why,
            "DAEDALUS_VULKAN_DEVICE=1 asks for \"NVIDIA GeForce RTX 3070\", "
            "which cannot run daedalus's shaders: it supports Vulkan 1.0 "
            "only; 1.1 is needed");
  EXPECT_EQ(choose({kCpu, old}, "nvidia", &why), -1);
  EXPECT_EQ(why,
            "DAEDALUS_VULKAN_DEVICE=nvidia matches no Vulkan device that can "
            "run daedalus's shaders (\"NVIDIA GeForce RTX 3070\": it supports "
            "Vulkan 1.0 only; 1.1 is needed)");
}

TEST(GpuDeviceSelection, NoDeviceAtAll) {
  std::string why;
  EXPECT_EQ(choose({}, "", &why), -1);
  EXPECT_EQ(why,
            "no Vulkan device was found (no Vulkan driver is installed, "
            "or none sees a device)");
}

// ------------------------------------------------- shaders' declared needs

// What a SPIR-V module declares about its workgroup and push constants.
struct SpirvFacts {
  uint32_t local_size[3] = {0, 0, 0};
  uint32_t shared_bytes = 0;
  std::vector<uint32_t> push_offsets;  // per member of the block
  bool push_members_are_int32 = true;
  std::vector<uint32_t> capabilities;  // OpCapability operands, in order
  std::vector<uint32_t> int_widths;    // of every OpTypeInt
};

SpirvFacts reflect(std::span<const uint32_t> code) {
  enum : uint32_t {
    kExecutionMode = 16,
    kCapability = 17,
    kTypeInt = 21,
    kTypeArray = 28,
    kTypeStruct = 30,
    kTypePointer = 32,
    kConstant = 43,
    kVariable = 59,
    kMemberDecorate = 72,
    kLocalSize = 17,
    kOffset = 35,
    kWorkgroup = 4,
    kPushConstant = 9,
  };
  std::map<uint32_t, std::vector<uint32_t>> types;  // id -> the instruction
  std::map<uint32_t, uint32_t> constants, pointee;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> offsets;
  std::vector<std::pair<uint32_t, uint32_t>> variables;  // class, pointer type
  SpirvFacts f;
  for (size_t i = 5; i < code.size();) {
    const uint32_t n = code[i] >> 16, op = code[i] & 0xffff;
    if (n == 0 || i + n > code.size()) break;
    const uint32_t* w = &code[i];
    if (op == kCapability) f.capabilities.push_back(w[1]);
    if (op == kTypeInt) f.int_widths.push_back(w[2]);
    if (op == kExecutionMode && w[2] == kLocalSize)
      for (int k = 0; k < 3; k++) f.local_size[k] = w[3 + k];
    if (op == kTypeInt || op == kTypeArray || op == kTypeStruct)
      types[w[1]] = std::vector<uint32_t>(w, w + n);
    if (op == kTypePointer) pointee[w[1]] = w[3];
    if (op == kConstant) constants[w[2]] = w[3];
    if (op == kVariable) variables.emplace_back(w[3], w[1]);
    if (op == kMemberDecorate && w[3] == kOffset) offsets[{w[1], w[2]}] = w[4];
    i += n;
  }
  std::function<uint32_t(uint32_t)> size_of = [&](uint32_t id) -> uint32_t {
    const std::vector<uint32_t>& t = types[id];
    if (t.empty()) return 0;
    if ((t[0] & 0xffff) == kTypeInt) return t[2] / 8;
    if ((t[0] & 0xffff) == kTypeArray) return size_of(t[2]) * constants[t[3]];
    uint32_t sum = 0;
    for (size_t m = 2; m < t.size(); m++) sum += size_of(t[m]);
    return sum;
  };
  for (const auto& [storage, pointer] : variables) {
    const uint32_t type = pointee[pointer];
    if (storage == kWorkgroup) f.shared_bytes += size_of(type);
    if (storage != kPushConstant) continue;
    const std::vector<uint32_t>& t = types[type];
    for (uint32_t m = 0; m + 2 < t.size(); m++) {
      f.push_offsets.push_back(offsets[{type, m}]);
      const std::vector<uint32_t>& member = types[t[m + 2]];
      f.push_members_are_int32 &= !member.empty() &&
                                  (member[0] & 0xffff) == kTypeInt &&
                                  member[2] == 32;
    }
  }
  return f;
}

// The C++ side of every push-constant block: the same member list the
// shader includes.
struct McPushText {
#include "mc/mc_push.h"
};

void expect_push_layout(const SpirvFacts& f, size_t cpp_size) {
  ASSERT_EQ(f.push_offsets.size() * 4, cpp_size);
  EXPECT_TRUE(f.push_members_are_int32);
  for (size_t m = 0; m < f.push_offsets.size(); m++)
    EXPECT_EQ(f.push_offsets[m], 4 * m) << "member " << m;
}

void expect_within_budgets(const SpirvFacts& f) {
  EXPECT_LE(f.local_size[0] * f.local_size[1] * f.local_size[2],
            vk::kInvocationBudget);
  EXPECT_LE(f.local_size[0], vk::kWorkgroupSideBudget);
  EXPECT_LE(f.local_size[1], vk::kWorkgroupSideBudget);
  EXPECT_GT(f.shared_bytes, 0u);
  EXPECT_LE(f.shared_bytes, vk::kSharedMemoryBudget);
}

TEST(GpuShaders, McDeclaresItsLayoutAndStaysWithinBudgets) {
  const SpirvFacts f = reflect(mc_spv);
  expect_push_layout(f, sizeof(McPushText));
  expect_within_budgets(f);
  EXPECT_EQ(f.local_size[0], 16u);
  EXPECT_EQ(f.local_size[1], 16u);
  // Two int arrays: 23 rows x (64 + 14) staged, 23 x 64 filtered.
  EXPECT_EQ(f.shared_bytes, 4u * 23 * (78 + 64));
}

struct CdefPushText {
#include "cdef/cdef_push.h"
};

TEST(GpuShaders, CdefDeclaresItsLayoutAndStaysWithinBudgets) {
  const SpirvFacts f = reflect(cdef_spv);
  expect_push_layout(f, sizeof(CdefPushText));
  expect_within_budgets(f);
  EXPECT_EQ(f.local_size[0], 16u);
  EXPECT_EQ(f.local_size[1], 16u);
  // Staged ints: luma 12 x 132, two 4:2:2 chroma planes of 12 x 68; then
  // 256 half-costs, 16 directions and variances.
  EXPECT_EQ(f.shared_bytes, 4u * (12 * 132 + 2 * 12 * 68 + 256 + 2 * 16));
}

struct DeblockPushText {
#include "deblock/deblock_push.h"
};

TEST(GpuShaders, DeblockDeclaresItsLayoutAndStaysWithinBudgets) {
  const SpirvFacts f = reflect(deblock_spv);
  expect_push_layout(f, sizeof(DeblockPushText));
  EXPECT_EQ(f.local_size[0], 16u);
  EXPECT_EQ(f.local_size[1], 4u);
  EXPECT_EQ(f.local_size[2], 1u);
  // Each invocation keeps its samples in registers.
  EXPECT_EQ(f.shared_bytes, 0u);
}

struct DeblockVp9PushText {
#include "deblock/deblock_vp9_push.h"
};

TEST(GpuShaders, DeblockVp9DeclaresItsLayoutAndStaysWithinBudgets) {
  const SpirvFacts f = reflect(deblock_vp9_spv);
  expect_push_layout(f, sizeof(DeblockVp9PushText));
  // A row of invocations, one edge segment each, samples in registers (the
  // side budget is 2D tiles'; Vulkan guarantees 128 in x, V3D gives 256).
  EXPECT_LE(f.local_size[0], vk::kInvocationBudget);
  EXPECT_EQ(f.local_size[1], 1u);
  EXPECT_EQ(f.local_size[2], 1u);
  EXPECT_EQ(f.shared_bytes, 0u);
}

struct DeblockDctPushText {
#include "deblock/deblock_dct_push.h"
};

TEST(GpuShaders, DeblockDctDeclaresItsLayoutAndStaysWithinBudgets) {
  const SpirvFacts f = reflect(deblock_dct_spv);
  expect_push_layout(f, sizeof(DeblockDctPushText));
  expect_within_budgets(f);
  EXPECT_EQ(f.local_size[0], 16u);
  EXPECT_EQ(f.local_size[1], 16u);
  EXPECT_EQ(f.local_size[2], 1u);
  // Staged values (48 rows of 12 words for each of two 8-bit channels, or
  // of 24 for one 10-bit channel), the 32 x 32 sums, two block buffers of
  // 25 slots x 32 words, and the 10-bit row pass's top bits (25 x 8 words).
  EXPECT_EQ(f.shared_bytes,
            4u * (2 * 48 * 12 + 32 * 32 + 2 * 25 * 32 + 25 * 8));
  // Shader alone (1): no Int8/Int16/Int64, no subgroup capability; 32-bit
  // ints only (what V3D runs).
  EXPECT_EQ(f.capabilities, std::vector<uint32_t>{1});
  EXPECT_EQ(f.int_widths, (std::vector<uint32_t>{32, 32}));
}

// --------------------------------------------------------- pipeline cache

VkPhysicalDeviceProperties fake_device(uint8_t uuid_byte) {
  VkPhysicalDeviceProperties p{};
  p.vendorID = 0x10de;
  p.deviceID = 0x2484;
  std::memset(p.pipelineCacheUUID, uuid_byte, VK_UUID_SIZE);
  return p;
}

// What a driver's vkGetPipelineCacheData returns: its header, then a body.
std::vector<uint8_t> fake_cache_data(const VkPhysicalDeviceProperties& p) {
  VkPipelineCacheHeaderVersionOne h{};
  h.headerSize = sizeof h;
  h.headerVersion = VK_PIPELINE_CACHE_HEADER_VERSION_ONE;
  h.vendorID = p.vendorID;
  h.deviceID = p.deviceID;
  std::memcpy(h.pipelineCacheUUID, p.pipelineCacheUUID, VK_UUID_SIZE);
  std::vector<uint8_t> data(sizeof h + 100);
  std::memcpy(data.data(), &h, sizeof h);
  for (size_t i = sizeof h; i < data.size(); i++) data[i] = uint8_t(i * 7);
  return data;
}

std::vector<uint8_t> read_file(const std::string& path) {
  std::vector<uint8_t> bytes;
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    for (int c; (c = std::fgetc(f)) != EOF;) bytes.push_back(uint8_t(c));
    std::fclose(f);
  }
  return bytes;
}

void write_file(const std::string& path, const std::vector<uint8_t>& bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr) << path;
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
}

TEST(GpuPipelineCacheFile, PathFollowsXdgThenHome) {
  const VkPhysicalDeviceProperties p = fake_device(0xab);
  std::string uuid;
  for (unsigned i = 0; i < VK_UUID_SIZE; i++) uuid += "ab";
  const std::string name =
      "/daedalus/vulkan-pipelines-10de-2484-" + uuid + ".bin";
  {
    ScopedEnv xdg("XDG_CACHE_HOME", "/x/cache");
    EXPECT_EQ(vk::pipeline_cache_path(p), "/x/cache" + name);
  }
  ScopedEnv xdg("XDG_CACHE_HOME", "");
  ScopedEnv home("HOME", "/home/someone");
  EXPECT_EQ(vk::pipeline_cache_path(p), "/home/someone/.cache" + name);
}

TEST(GpuPipelineCacheFile, RoundTripsAndRejectsAnythingElse) {
  TempDir dir;
  const std::string path = dir.path() + "/sub/dir/cache.bin";
  const VkPhysicalDeviceProperties p = fake_device(1);
  const std::vector<uint8_t> data = fake_cache_data(p);
  EXPECT_TRUE(vk::read_pipeline_cache(path, p).empty());  // no file yet
  const Status written = vk::write_pipeline_cache(path, data);
  ASSERT_TRUE(written) << written.message();
  EXPECT_EQ(vk::read_pipeline_cache(path, p), data);
  // Another driver build (UUID) or device.
  EXPECT_TRUE(vk::read_pipeline_cache(path, fake_device(2)).empty());
  VkPhysicalDeviceProperties other = p;
  other.deviceID++;
  EXPECT_TRUE(vk::read_pipeline_cache(path, other).empty());

  const std::vector<uint8_t> good = read_file(path);
  std::vector<uint8_t> bad = good;
  bad[bad.size() - 5] ^= 0x10;  // one flipped bit in the driver's body
  write_file(path, bad);
  EXPECT_TRUE(vk::read_pipeline_cache(path, p).empty());
  bad.assign(good.begin(), good.end() - 1);  // truncated
  write_file(path, bad);
  EXPECT_TRUE(vk::read_pipeline_cache(path, p).empty());
  bad = good;
  bad.push_back(0);  // trailing garbage
  write_file(path, bad);
  EXPECT_TRUE(vk::read_pipeline_cache(path, p).empty());
  write_file(path, {'n', 'o', 't', ' ', 'a', ' ', 'c', 'a', 'c', 'h', 'e'});
  EXPECT_TRUE(vk::read_pipeline_cache(path, p).empty());
}

// A folder that cannot be made (a file is in the way, even for root): the
// error names it and the system's reason.
TEST(GpuPipelineCacheFile, SaysWhyItWasNotWritten) {
  TempDir dir;
  const std::string file = dir.path() + "/a file";
  write_file(file, {'x'});
  const Status s = vk::write_pipeline_cache(file + "/cache.bin",
                                            fake_cache_data(fake_device(1)));
  ASSERT_FALSE(s);
  EXPECT_EQ(s.message().rfind("cannot create the folder " + file + ": ", 0), 0u)
      << s.message();
}

// ---------------------------------------------------- with a real device

class GpuRunner : public test::GpuTest {
 protected:
  // A backend on a device of its own, not the shared backend's (which holds
  // its device, and so its pipeline cache, for the whole run).
  std::unique_ptr<GpuBackend> fresh_backend() {
    Result<std::unique_ptr<GpuBackend>> b =
        create_gpu_backend(test::separate_device(*gpu));
    EXPECT_TRUE(b) << b.status().message();
    return std::move(b).value_or(nullptr);
  }

  void run_mc(GpuBackend& b) {
    Image src(PixelFormat::I420, 20, 10), dst(PixelFormat::I420, 20, 10);
    const Status s =
        b.mc(dst.frame(), src.frame(), {0.5, -0.25, McFilter::Regular});
    EXPECT_TRUE(s) << s.message();
  }
};

TEST_F(GpuRunner, PipelineCacheIsWrittenThenReused) {
  TempDir dir;
  ScopedEnv xdg("XDG_CACHE_HOME", dir.path());
  std::string path;
  {
    std::unique_ptr<GpuBackend> b = fresh_backend();
    ASSERT_TRUE(b);
    path = b->device_info().pipeline_cache_path;
    EXPECT_EQ(path.rfind(dir.path() + "/daedalus/vulkan-pipelines-", 0), 0u)
        << path;
    EXPECT_EQ(b->device_info().pipeline_cache_bytes_loaded, 0u);
    run_mc(*b);
  }
  const std::vector<uint8_t> written = read_file(path);
  ASSERT_GE(written.size(), 24u + sizeof(VkPipelineCacheHeaderVersionOne));
  {
    std::unique_ptr<GpuBackend> b = fresh_backend();
    ASSERT_TRUE(b);
    EXPECT_EQ(b->device_info().pipeline_cache_bytes_loaded,
              written.size() - 24);  // our header is 24 bytes
    run_mc(*b);
  }

  // A corrupt file is ignored, and replaced by a good one.
  std::vector<uint8_t> corrupt = written;
  corrupt[corrupt.size() / 2] ^= 0xff;
  write_file(path, corrupt);
  {
    std::unique_ptr<GpuBackend> b = fresh_backend();
    ASSERT_TRUE(b);
    EXPECT_EQ(b->device_info().pipeline_cache_bytes_loaded, 0u);
    run_mc(*b);
  }
  std::unique_ptr<GpuBackend> b = fresh_backend();
  ASSERT_TRUE(b);
  EXPECT_GT(b->device_info().pipeline_cache_bytes_loaded, 0u);
}

TEST_F(GpuRunner, CreateBackendExplainsAnUnknownDevice) {
  ScopedEnv device("DAEDALUS_VULKAN_DEVICE", "no-such-gpu");
  std::string why = create_backend(BackendKind::Gpu).status().message();
  EXPECT_EQ(
      why.rfind("the gpu backend is unavailable: DAEDALUS_VULKAN_DEVICE="
                "no-such-gpu matches no Vulkan device; the devices are 0: \"",
                0),
      0u)
      << why;

  ScopedEnv index("DAEDALUS_VULKAN_DEVICE", "4000000000");
  why = create_backend(BackendKind::Gpu).status().message();
  EXPECT_NE(
      why.find("DAEDALUS_VULKAN_DEVICE=4000000000 asks for a Vulkan device "
               "that does not exist"),
      std::string::npos)
      << why;
}

// With no Vulkan driver at all the backend is unavailable, with a reason.
TEST(GpuNoDriver, CreateBackendSaysSoInsteadOfCrashing) {
  ScopedEnv icd("VK_ICD_FILENAMES", "/nonexistent/daedalus_icd.json");
  ScopedEnv driver("VK_DRIVER_FILES", "/nonexistent/daedalus_icd.json");
  // A request no open device was made for: the same as the shared backend's
  // would join its device, opened while there was a driver.
  ScopedEnv device("DAEDALUS_VULKAN_DEVICE", "no-driver");
  EXPECT_EQ(vk::vulkan_device_count(), 0);
  const std::string why = create_backend(BackendKind::Gpu).status().message();
  EXPECT_TRUE(why.find("no Vulkan driver is installed") != std::string::npos ||
              why.find("no Vulkan device was found") != std::string::npos)
      << why;
  // The loader reports the missing driver through the validation messenger
  // too: expected here, so not held against the next test.
  vk::clear_debug_messages();
}

TEST_F(GpuRunner, CreateBackendFindsTheDeviceByName) {
  const std::string name = gpu->device_info().name;
  std::string upper = name.substr(0, 5);
  for (char& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
  ScopedEnv device("DAEDALUS_VULKAN_DEVICE", upper);
  Result<std::unique_ptr<Backend>> created = create_backend(BackendKind::Gpu);
  ASSERT_TRUE(created) << created.status().message();
  const std::unique_ptr<Backend>& b = created.value();
  EXPECT_EQ(b->kind(), BackendKind::Gpu);
  EXPECT_EQ(static_cast<GpuBackend*>(b.get())->device_info().name, name);
}

TEST_F(GpuRunner, ReportsTheDeviceAndTimesFrames) {
  const GpuDeviceInfo& info = gpu->device_info();
  EXPECT_FALSE(info.name.empty());
  EXPECT_GE(info.api_version, uint32_t(VK_API_VERSION_1_1));
  run_mc(*gpu);
  const GpuFrameStats& st = gpu->last_frame_stats();
  EXPECT_GE(st.upload_ms, 0.0);
  EXPECT_GT(st.submit_ms, 0.0);
  EXPECT_GE(st.readback_ms, 0.0);
  if (info.timestamps) {
    EXPECT_GE(st.gpu_ms, 0.0);
    EXPECT_LE(st.gpu_ms, st.submit_ms);
  } else {
    EXPECT_LT(st.gpu_ms, 0.0);
  }
  EXPECT_EQ(st.staged_groups, 6);
  EXPECT_EQ(st.zero_copy_groups, 0);
}

TEST_F(GpuRunner, BuffersOutliveTheirBackendAndAreBounded) {
  std::unique_ptr<GpuBuffer> buffer;
  {
    std::unique_ptr<GpuBackend> b = fresh_backend();
    ASSERT_TRUE(b);
    buffer = b->allocate_buffer(4096).value_or(nullptr);
    ASSERT_TRUE(buffer);
    EXPECT_FALSE(b->allocate_buffer(0));
    EXPECT_FALSE(b->allocate_buffer(size_t(1) << 40));
  }
  ASSERT_TRUE(buffer);
  EXPECT_EQ(buffer->size(), 4096u);
  std::memset(buffer->data(), 7, buffer->size());
  EXPECT_EQ(buffer->data()[4095], 7);
}

TEST(GpuOptionsFromEnv, TimeoutIsAPositiveNumberOfMilliseconds) {
  EXPECT_EQ(GpuOptions().wait_timeout_ms, 60000u);
  for (const auto& [text, ms] :
       std::vector<std::pair<std::string, uint64_t>>{{"250", 250},
                                                     {"1", 1},
                                                     {"0", 60000},
                                                     {"-5", 60000},
                                                     {"12x", 60000},
                                                     {"", 60000}}) {
    ScopedEnv timeout("DAEDALUS_GPU_TIMEOUT_MS", text);
    EXPECT_EQ(GpuOptions::from_env().wait_timeout_ms, ms) << '"' << text << '"';
  }
}

// A frame call that gives up waiting fails with gpu_lost, and the backend
// stays lost; the frame's GpuBuffers and the backend may then go at once
// while the GPU still runs the frame: their memory is freed only when it
// has finished (the validation layer reports memory freed in use). On a
// device of its own, whose closing waits for the GPU.
TEST_F(GpuRunner, AWaitThatGivesUpLeavesItsMemoryToTheGpu) {
  GpuOptions options = test::separate_device(*gpu);
  options.wait_timeout_ms = 1;
  std::unique_ptr<GpuBackend> impatient =
      create_gpu_backend(options).value_or(nullptr);
  ASSERT_TRUE(impatient);
  const Image src(PixelFormat::I420, 3840, 2160);
  test::GpuImage in = test::copy_to_gpu(*impatient, src);
  test::GpuImage out = test::copy_to_gpu(*impatient, src);
  const CdefParams strong = {.pri_strength = 15, .sec_strength = 4};
  const Status first = impatient->cdef(out.frame, in.frame, strong);
  if (first) GTEST_SKIP() << "this GPU filtered a 4K frame within 1 ms";
  EXPECT_TRUE(first.is_gpu_lost());
  EXPECT_NE(first.message().find("within 1 ms (DAEDALUS_GPU_TIMEOUT_MS)"),
            std::string::npos)
      << first.message();
  const Status again = impatient->cdef(out.frame, in.frame, strong);
  EXPECT_TRUE(again.is_gpu_lost()) << again.message();
  in.buffer.reset();
  out.buffer.reset();
  impatient.reset();
}

// -------------------------------------------------------- frame staging

TEST(GpuPlaneGroups, PairInterleavedChromaOnlyWhenBothFramesAgree) {
  const Image i420(PixelFormat::I420, 8, 4), nv12(PixelFormat::NV12, 8, 4),
      nv21(PixelFormat::NV21, 8, 4), gray(PixelFormat::GRAY8, 8, 4);
  auto groups = [](const Image& a, const Image& b) {
    std::string out;
    for (const vk::PlaneGroup& g : vk::plane_groups(a.frame(), b.frame()))
      out += std::to_string(g.first) + ":" + std::to_string(g.count) + " ";
    return out;
  };
  EXPECT_EQ(groups(gray, gray), "0:1 ");
  EXPECT_EQ(groups(i420, i420), "0:1 1:1 2:1 ");
  EXPECT_EQ(groups(nv12, nv12), "0:1 1:2 ");
  EXPECT_EQ(groups(nv21, nv21), "0:1 1:2 ");
  // U before V in one, after it in the other: channels would swap.
  EXPECT_EQ(groups(nv12, nv21), "0:1 1:1 2:1 ");
  EXPECT_EQ(groups(nv12, i420), "0:1 1:1 2:1 ");
}

class GpuStager : public test::GpuTest {
 protected:
  void SetUp() override {
    test::GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    Result<std::shared_ptr<vk::Context>> c =
        vk::Context::create({"", vk::validation_requested_by_env()});
    ASSERT_TRUE(c) << c.status().message();
    context = std::move(c).value();
  }

  // Stages every group of `frame` in place (read and written; `apart`:
  // interleaved chroma channels one at a time), copies in and back out with
  // no GPU work between, and returns the slots' planes.
  std::vector<vk::GpuPlane> round_trip(vk::FrameStager& stager,
                                       const Frame& frame, bool apart = false) {
    std::vector<int> slots;
    stager.begin();
    std::vector<vk::PlaneGroup> groups = vk::plane_groups(frame, frame);
    if (apart && groups.size() == 2) groups = {{0, 1}, {1, 1}, {2, 1}};
    for (const vk::PlaneGroup& g : groups)
      slots.push_back(stager.in_out(frame, g));
    Status s = stager.upload();
    EXPECT_TRUE(s) << s.message();
    s = stager.download();
    EXPECT_TRUE(s) << s.message();
    std::vector<vk::GpuPlane> planes;
    for (int slot : slots) planes.push_back(stager.plane(slot));
    return planes;
  }

  std::shared_ptr<vk::Context> context;
};

// Every format of both depths (10-bit words whole, bits outside the values
// included), interleaved chroma as a pair and one channel at a time.
TEST_F(GpuStager, StagedPlanesHaveWordAlignedRowsAndRoundTrip) {
  std::mt19937 gen = test::rng(8);
  vk::FrameStager stager(context);
  for (PixelFormat format : test::all_pixel_formats())
    for (bool apart : {false, true}) {
      SCOPED_TRACE(std::string(pixel_format_name(format)) +
                   (apart ? " apart" : ""));
      Image image(format, 17, 9, 3);
      test::fill_random(image, gen);
      test::set_outside_bits(image, gen);
      const Image before = image;
      const std::vector<vk::GpuPlane> planes =
          round_trip(stager, image.frame(), apart);
      EXPECT_EQ(stager.staged_slots(), int(planes.size()));
      EXPECT_EQ(test::first_difference(before, image), "");
      EXPECT_TRUE(test::guards_intact(image));
      for (const vk::GpuPlane& g : planes) {
        EXPECT_NE(g.buffer, VK_NULL_HANDLE);
        EXPECT_EQ(g.offset % 4, 0);
        EXPECT_EQ(g.stride % 4, 0);
        EXPECT_GE(g.stride, g.row_bytes());
        EXPECT_EQ(g.bit_depth, image.frame().bit_depth());
        EXPECT_EQ(g.lsb, image.frame().planes[0].lsb);
      }
      const bool semi_planar = format == PixelFormat::NV12 ||
                               format == PixelFormat::NV21 ||
                               format == PixelFormat::P010_10LE;
      if (semi_planar && !apart) {
        ASSERT_EQ(planes.size(), 2u);
        EXPECT_EQ(planes[1].step, 2);
        EXPECT_EQ(planes[1].width, 9);
      }
    }
}

TEST_F(GpuStager, FramesInRegisteredBuffersStayInPlace) {
  Image image(PixelFormat::NV12, 40, 24, 8);  // strides 48, offsets 4-aligned
  Result<std::unique_ptr<vk::Buffer>> created =
      vk::Buffer::create(context, image.bytes().size(), vk::MemoryUse::Upload);
  ASSERT_TRUE(created) << created.status().message();
  std::unique_ptr<vk::Buffer>& buffer = created.value();
  Frame frame = image.frame();
  for (int p = 0; p < frame.num_planes; p++)
    frame.planes[p].data =
        buffer->data() + (frame.planes[p].data - image.bytes().data());

  vk::FrameStager stager(context);
  std::vector<vk::GpuPlane> planes = round_trip(stager, frame);
  EXPECT_EQ(stager.zero_copy_slots(), 0);  // not registered yet

  context->registry().add(buffer.get());
  planes = round_trip(stager, frame);
  EXPECT_EQ(stager.zero_copy_slots(), 2);
  ASSERT_EQ(planes.size(), 2u);
  EXPECT_EQ(planes[0].buffer, buffer->get());
  EXPECT_EQ(planes[0].offset, 0);
  EXPECT_EQ(planes[0].stride, 48);
  EXPECT_EQ(planes[1].offset, 48 * 24);
  EXPECT_EQ(planes[1].step, 2);

  // Bytes reaching past the buffer's end are not in it.
  const size_t size = image.bytes().size();
  EXPECT_EQ(context->registry().find(buffer->data() + size - 1, 1),
            buffer.get());
  EXPECT_EQ(context->registry().find(buffer->data() + size - 1, 2), nullptr);
  context->registry().remove(buffer.get());
  EXPECT_EQ(context->registry().find(buffer->data(), 1), nullptr);
}

}  // namespace
}  // namespace daedalus
