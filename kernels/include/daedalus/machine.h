// What a measured speed depends on besides the source: the machine, and the
// build of the code.
#pragma once

#include <string>

namespace daedalus {

// The CPU as the kernel names it: /proc/cpuinfo's "model name" on x86, the
// board and core part numbers on Arm (whose cpuinfo has no model name), so
// a Raspberry Pi 5 reads "Raspberry Pi 5 Model B Rev 1.0 (CPU part 0xd0b)".
// "unknown" when neither is readable.
std::string cpu_model();

// The GNU build-id of the binary this library is linked into (the plugin,
// a test, daedalus-bench) as lowercase hex: it changes with every build
// that changes the code, where the version does not. "" when the linker
// wrote none (meson.build asks for one).
std::string library_build_id();

}  // namespace daedalus
