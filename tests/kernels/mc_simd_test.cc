// PLACEHOLDER: bit-exactness of the mc SIMD kernels, per target.
#include "simd_targets.h"
