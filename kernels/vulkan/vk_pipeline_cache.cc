#include "vk_pipeline_cache.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <system_error>

namespace daedalus::vk {
namespace {

// Our file: this header, then the driver's bytes. The driver checks its own
// header too, but a truncated or bit-flipped body can crash some drivers, so
// the checksum keeps such a file away from them.
struct FileHeader {
  char magic[8];
  uint64_t size;
  uint64_t checksum;
};
constexpr char kMagic[8] = {'D', 'D', 'L', 'S', 'V', 'K', 'P', '1'};

uint64_t fnv1a(std::span<const uint8_t> data) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint8_t b : data) h = (h ^ b) * 0x100000001b3ull;
  return h;
}

std::string hex(const uint8_t* bytes, size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; i++) {
    out += digits[bytes[i] >> 4];
    out += digits[bytes[i] & 15];
  }
  return out;
}

struct FileCloser {
  void operator()(FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<FILE, FileCloser>;

// "cannot <doing> <path>: <the system's reason>".
Status file_error(const char* doing, const std::string& path,
                  const std::error_code& ec) {
  return Status::error(std::string("cannot ") + doing + " " + path + ": " +
                       ec.message());
}

// The Vulkan pipeline cache header (VkPipelineCacheHeaderVersionOne) names
// the device and driver it was written for.
bool matches_device(std::span<const uint8_t> data,
                    const VkPhysicalDeviceProperties& device) {
  VkPipelineCacheHeaderVersionOne h;
  if (data.size() < sizeof h) return false;
  std::memcpy(&h, data.data(), sizeof h);
  return h.headerSize >= sizeof h && h.headerSize <= data.size() &&
         h.headerVersion == VK_PIPELINE_CACHE_HEADER_VERSION_ONE &&
         h.vendorID == device.vendorID && h.deviceID == device.deviceID &&
         std::memcmp(h.pipelineCacheUUID, device.pipelineCacheUUID,
                     VK_UUID_SIZE) == 0;
}

}  // namespace

std::string pipeline_cache_path(const VkPhysicalDeviceProperties& device) {
  std::string dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    dir = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home)
    dir = std::string(home) + "/.cache";
  else
    return {};
  char ids[32];
  std::snprintf(ids, sizeof ids, "%04x-%04x-", device.vendorID,
                device.deviceID);
  return dir + "/daedalus/vulkan-pipelines-" + ids +
         hex(device.pipelineCacheUUID, VK_UUID_SIZE) + ".bin";
}

std::vector<uint8_t> read_pipeline_cache(
    const std::string& path, const VkPhysicalDeviceProperties& device) {
  File f(std::fopen(path.c_str(), "rb"));
  if (!f) return {};
  FileHeader h;
  if (std::fread(&h, sizeof h, 1, f.get()) != 1 ||
      std::memcmp(h.magic, kMagic, sizeof kMagic) != 0 || h.size > (1u << 30))
    return {};
  std::vector<uint8_t> data(h.size);
  if (std::fread(data.data(), 1, data.size(), f.get()) != data.size() ||
      std::fgetc(f.get()) != EOF || fnv1a(data) != h.checksum ||
      !matches_device(data, device))
    return {};
  return data;
}

Status write_pipeline_cache(const std::string& path,
                            std::span<const uint8_t> data) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path dir = fs::path(path).parent_path();
  fs::create_directories(dir, ec);
  if (ec) return file_error("create the folder", dir.string(), ec);
  // Another process may write the same file: each writes its own temporary
  // and renames it into place, which is atomic.
  const std::string tmp = path + ".tmp" + std::to_string(getpid());
  FileHeader h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.size = data.size();
  h.checksum = fnv1a(data);
  {
    File f(std::fopen(tmp.c_str(), "wb"));
    if (!f) return file_error("create", tmp, {errno, std::generic_category()});
    const bool written =
        std::fwrite(&h, sizeof h, 1, f.get()) == 1 &&
        std::fwrite(data.data(), 1, data.size(), f.get()) == data.size() &&
        std::fflush(f.get()) == 0;
    if (!written) {
      const std::error_code why(errno, std::generic_category());
      f.reset();
      fs::remove(tmp, ec);
      return file_error("write", tmp, why);
    }
  }
  fs::rename(tmp, path, ec);
  if (!ec) return Status::ok();
  const Status error = file_error("replace", path, ec);
  fs::remove(tmp, ec);
  return error;
}

}  // namespace daedalus::vk
