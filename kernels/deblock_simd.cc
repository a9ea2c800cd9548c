// PLACEHOLDER: the Highway implementation of the deblock DSP table.
#include "simd_init.h"

namespace daedalus {

void deblock_dsp_init_simd(DeblockDsp*) {}

}  // namespace daedalus
