// Picture-quality metrics against a reference.
#pragma once

#include <cstdint>

#include "daedalus/frame.h"

namespace daedalus {

// Sum of squared differences over every sample of two same-sized planes.
uint64_t sum_squared_error(const ConstPlane& a, const ConstPlane& b);

// PSNR in dB for 8-bit samples from a total squared error over `samples`
// samples; identical content gives +infinity.
double psnr_from_sse(uint64_t sse, uint64_t samples);

// PSNR of one plane, and of a whole frame (all planes pooled, each sample
// weighted equally).
double plane_psnr(const ConstPlane& a, const ConstPlane& b);
double frame_psnr(const ConstFrame& a, const ConstFrame& b);

}  // namespace daedalus
