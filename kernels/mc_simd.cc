// PLACEHOLDER: the Highway implementation of the mc DSP table.
#include "simd_init.h"

namespace daedalus {

void mc_dsp_init_simd(McDsp*) {}

}  // namespace daedalus
