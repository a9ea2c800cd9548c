// mc's dot-product islands (mc_simd.cc): on x86 AVX-512 VNNI, VBMI and VBMI2
// inside the AVX3 target (8-bit rows: vpdpbusd, vpermb, vpshrdd; 10-bit rows:
// vpdpwssd, valignd), on aarch64 the dot-product instructions inside the NEON
// target. Highway 1.0.3 has no such ops, so they are intrinsics, used only
// where the CPU reports them.
#pragma once

#include "daedalus/mc.h"

namespace daedalus {

// Whether this CPU has the island's instructions: CPUID's AVX512_VNNI,
// AVX512_VBMI and AVX512_VBMI2 on x86, HWCAP_ASIMDDP (getauxval) on
// aarch64.
bool mc_cpu_has_dot_products();

}  // namespace daedalus
