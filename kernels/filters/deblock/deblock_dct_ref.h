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
template <class S>
void dct_rows_ref(const ConstPlane& src, const Plane& dst,
                  const DeblockPlaneParams& pp, int y_begin, int y_end);

}  // namespace daedalus
