// PLACEHOLDER: the Highway implementation of the cdef DSP table.
#include "simd_init.h"

namespace daedalus {

void cdef_dsp_init_simd(CdefDsp*) {}

}  // namespace daedalus
