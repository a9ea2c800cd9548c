#include "daedalus/machine.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

namespace daedalus {
namespace {

// The build-id as the file of this test executable holds it: the bytes of
// its GNU build-id note's descriptor, found by their note header in the file.
std::string build_id_in_file() {
  std::ifstream in("/proc/self/exe", std::ios::binary);
  const std::string elf((std::istreambuf_iterator<char>(in)),
                        std::istreambuf_iterator<char>());
  // namesz 4, descsz 20 (sha1), type 3 (NT_GNU_BUILD_ID), "GNU\0".
  const std::string header("\x04\0\0\0\x14\0\0\0\x03\0\0\0GNU\0", 16);
  const size_t at = elf.find(header);
  if (at == std::string::npos) return "";
  static const char kHex[] = "0123456789abcdef";
  std::string id;
  for (size_t i = 0; i < 20; i++) {
    const auto b = static_cast<unsigned char>(elf[at + header.size() + i]);
    id += {kHex[b >> 4], kHex[b & 15]};
  }
  return id;
}

TEST(Machine, LibraryBuildIdIsTheExecutablesOwn) {
  const std::string id = library_build_id();
  EXPECT_EQ(id.size(), 40u);  // meson.build links with --build-id=sha1
  EXPECT_EQ(id, build_id_in_file());
  EXPECT_EQ(id, library_build_id());
}

}  // namespace
}  // namespace daedalus
