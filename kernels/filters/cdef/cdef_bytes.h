// cdef's byte island (cdef_simd.cc): the 8-bit block filters in byte lanes
// on x86 AVX-512 with VBMI, VBMI2, VNNI and GFNI inside the AVX3 target.
// Highway 1.0.3 has no such ops, so they are intrinsics, used only where the
// CPU reports them.
#pragma once

#include "daedalus/cdef.h"

namespace daedalus {

// Whether this CPU has the island's instructions: CPUID's AVX512_VBMI,
// AVX512_VBMI2, AVX512_VNNI and GFNI on x86.
bool cdef_cpu_has_byte_island();

}  // namespace daedalus
