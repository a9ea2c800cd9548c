// What a measured speed depends on besides the code: the machine.
#pragma once

#include <string>

namespace daedalus {

// The CPU as the kernel names it: /proc/cpuinfo's "model name" on x86, the
// board and core part numbers on Arm (whose cpuinfo has no model name), so
// a Raspberry Pi 5 reads "Raspberry Pi 5 Model B Rev 1.0 (CPU part 0xd0b)".
// "unknown" when neither is readable.
std::string cpu_model();

}  // namespace daedalus
