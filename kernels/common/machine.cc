#include "daedalus/machine.h"

#include <elf.h>
#include <link.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>

namespace daedalus {
namespace {

// The value of the first "key : value" line of /proc/cpuinfo with this key.
std::string cpuinfo_field(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    name.erase(name.find_last_not_of(" \t") + 1);
    if (name != key) continue;
    const size_t value = line.find_first_not_of(" \t", colon + 1);
    return value == std::string::npos ? "" : line.substr(value);
  }
  return "";
}

// The hex string of a GNU build-id note in the PT_NOTE segment `ph` of a
// loaded object based at `base`, or "".
std::string build_id_note(ElfW(Addr) base, const ElfW(Phdr) & ph) {
  // A note's name and descriptor each start at the segment's alignment
  // from the note's start (4, or 8 for .note.gnu.property's segment).
  const size_t align = ph.p_align == 8 ? 8 : 4;
  const auto aligned = [align](size_t n) {
    return (n + align - 1) & ~(align - 1);
  };
  const char* p = reinterpret_cast<const char*>(base + ph.p_vaddr);
  const char* end = p + ph.p_memsz;
  while (end - p >= ptrdiff_t(sizeof(ElfW(Nhdr)))) {
    const auto* note = reinterpret_cast<const ElfW(Nhdr)*>(p);
    const size_t desc_at = aligned(sizeof(ElfW(Nhdr)) + note->n_namesz);
    const size_t left = size_t(end - p);
    if (desc_at + note->n_descsz > left) break;
    const char* name = p + sizeof(ElfW(Nhdr));
    const auto* desc = reinterpret_cast<const uint8_t*>(p + desc_at);
    if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
        std::memcmp(name, "GNU", 4) == 0) {
      static const char kHex[] = "0123456789abcdef";
      std::string id;
      for (size_t i = 0; i < note->n_descsz; i++)
        id += {kHex[desc[i] >> 4], kHex[desc[i] & 15]};
      return id;
    }
    p += std::min(aligned(desc_at + note->n_descsz), left);
  }
  return "";
}

struct BuildIdSearch {
  uintptr_t address;  // code of the object whose id is wanted
  std::string id;
};

// dl_iterate_phdr's callback: stops at the object holding the address.
int find_build_id(dl_phdr_info* info, size_t, void* data) {
  auto* search = static_cast<BuildIdSearch*>(data);
  bool holds = false;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    const uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    if (ph.p_type == PT_LOAD && search->address - start < ph.p_memsz)
      holds = true;
  }
  if (!holds) return 0;
  for (int i = 0; i < info->dlpi_phnum && search->id.empty(); i++)
    if (info->dlpi_phdr[i].p_type == PT_NOTE)
      search->id = build_id_note(info->dlpi_addr, info->dlpi_phdr[i]);
  return 1;
}

}  // namespace

std::string library_build_id() {
  BuildIdSearch search{reinterpret_cast<uintptr_t>(&library_build_id), ""};
  dl_iterate_phdr(find_build_id, &search);
  return search.id;
}

std::string cpu_model() {
  std::string model = cpuinfo_field("model name");
  if (!model.empty()) return model;
  std::ifstream board("/proc/device-tree/model");
  std::getline(board, model, '\0');
  const std::string part = cpuinfo_field("CPU part");
  if (!part.empty())
    model +=
        (model.empty() ? "" : " ") + std::string("(CPU part ") + part + ")";
  return model.empty() ? "unknown" : model;
}

}  // namespace daedalus
