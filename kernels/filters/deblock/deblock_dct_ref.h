// The scalar reference of deblock mode=dct (docs/spec.md); deblock_ref.cc
// puts it in the reference DSP table.
#pragma once

#include "daedalus/deblock.h"

namespace daedalus {

// The spec's refl(t, n): coordinate t of a plane n samples long, mirrored
// about its edges with the edge sample repeated.
inline int dct_refl(int t, int n) {
  const int m = ((t % (2 * n)) + 2 * n) % (2 * n);
  return m < n ? m : 2 * n - 1 - m;
}

// Planes of samples of type S: uint8_t (bit depth 8) or uint16_t (10).

// Adds to `sum` (src.width per row, row y_begin first) the reconstruction Q
// of each sample of rows [y_begin, y_end) by the blocks of the grid at
// offset (sx, sy), `threshold` at the plane's depth.
template <class S>
void dct_add_shift_ref(const ConstPlane& src, int sx, int sy, int threshold,
                       int y_begin, int y_end, int* sum);

template <class S>
void dct_rows_ref(const ConstPlane& src, const Plane& dst,
                  const DeblockPlaneParams& pp, int y_begin, int y_end);

}  // namespace daedalus
