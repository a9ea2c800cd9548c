// The 8x8 transform pair of deblock mode=dct (docs/spec.md, "Forward
// transform" and "Inverse transform", and "High bit depth"): the project's
// own forward DCT and the VP9 inverse DCT, for samples of bit depth 8
// (uint8_t, 16-bit coefficients) and 10 (uint16_t values, 32-bit
// coefficients). Coefficients are stored C[8 * v + u], v the vertical and u
// the horizontal frequency; blocks row by row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace daedalus {

// The coefficients of blocks of samples of type S: 8-bit samples' fit 16
// bits (|C| <= 11432), 10-bit ones' need 18 (|C| <= 45728).
template <class S>
using DctCoef = std::conditional_t<sizeof(S) == 1, int16_t, int32_t>;

// The 1D forward transform F_p of x[0..7] (pass 1 or 2), in place.
void dct8_forward_1d(int x[8], int pass);

// The forward 2D transform of the 8x8 block of sample values at `p` (row
// stride `stride` samples) of bit depth `bit_depth` (8 for uint8_t, 10 for
// uint16_t): |c| <= 11432 << (bit_depth - 8), c[0] the sum of
// p - (128 << (bit_depth - 8)).
template <class S>
void dct8x8_forward(const S* p, ptrdiff_t stride, DctCoef<S> c[64],
                    int bit_depth = 8);

// VP9's 1D inverse DCT of t[0..7], in place, each stored value clipped to
// 7 + bit_depth bits and a sign (16 bits at bit depth 8, 18 at 10: the
// spec's one added rule); the products and sums inside a butterfly exact.
void vp9_idct8_1d(int t[8], int bit_depth = 8);

// VP9's 2D inverse: rows, then columns, then Round2(., 5): y = the residual
// the block reconstructs (before the prediction 128 << (bit_depth - 8) is
// added). C is int16_t at bit depth 8, int32_t at 10.
template <class C>
void vp9_idct8x8(const C c[64], C y[64], int bit_depth = 8);

// mode=dct's AC threshold for a plane's qp (docs/spec.md), in 8-bit units:
// the H.264 quantiser step (rounded down), in coefficient units; 0 for
// qp <= 15 (the plane is unchanged). The damage estimator's quantiser probe
// counts at these thresholds up to qp 63.
int dct_threshold(int plane_qp);

// Hard thresholding of the AC coefficients: |c| <= threshold becomes 0.
// Returns whether any AC coefficient is left.
template <class C>
bool dct8x8_threshold(C c[64], int threshold);

}  // namespace daedalus
