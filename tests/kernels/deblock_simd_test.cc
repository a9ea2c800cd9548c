// PLACEHOLDER: bit-exactness of the deblock SIMD kernels, per target.
#include "simd_targets.h"
