#include "daedalus/machine.h"

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

}  // namespace

std::string cpu_model() {
  std::string model = cpuinfo_field("model name");
  if (!model.empty()) return model;
  std::ifstream board("/proc/device-tree/model");
  std::getline(board, model, '\0');
  const std::string part = cpuinfo_field("CPU part");
  if (!part.empty())
    model += (model.empty() ? "" : " ") + std::string("(CPU part ") + part + ")";
  return model.empty() ? "unknown" : model;
}

}  // namespace daedalus
