// PLACEHOLDER: bit-exactness of the cdef SIMD kernels, per target.
#include "simd_targets.h"
