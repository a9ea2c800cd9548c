// The 8x8 transform pair of deblock mode=dct (docs/spec.md, "Forward
// transform" and "Inverse transform"): the project's own 16-bit forward DCT
// and the VP9 inverse DCT. Coefficients are stored C[8 * v + u], v the
// vertical and u the horizontal frequency; blocks row by row.
#pragma once

#include <cstddef>
#include <cstdint>

namespace daedalus {

// The 1D forward transform F_p of x[0..7] (pass 1 or 2), in place.
void dct8_forward_1d(int x[8], int pass);

// The forward 2D transform of the 8x8 block of samples at `p` (row stride
// `stride`): |c| <= 11432, c[0] the sum of p - 128.
void dct8x8_forward(const uint8_t* p, ptrdiff_t stride, int16_t c[64]);

// VP9's 1D inverse DCT of t[0..7], in place, each stored value clipped to
// 16 bits (the spec's one added rule).
void vp9_idct8_1d(int t[8]);

// VP9's 2D inverse: rows, then columns, then Round2(., 5): y = the residual
// the block reconstructs (before the prediction 128 is added).
void vp9_idct8x8(const int16_t c[64], int16_t y[64]);

// mode=dct's AC threshold for a plane's qp (docs/spec.md): the H.264
// quantiser step (rounded down), in coefficient units; 0 for qp <= 15 (the
// plane is unchanged). The damage estimator's quantiser probe counts at
// these thresholds up to qp 63.
int dct_threshold(int plane_qp);

// Hard thresholding of the AC coefficients: |c| <= threshold becomes 0.
// Returns whether any AC coefficient is left.
bool dct8x8_threshold(int16_t c[64], int threshold);

}  // namespace daedalus
