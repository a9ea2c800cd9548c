// The scalar reference's VP9 loop filter across one edge (docs/spec.md,
// daedalusdeblock mode=vp9); deblock_ref.cc runs it over the edges of a pass.
#pragma once

#include "daedalus/deblock.h"
#include "deblock_line_ref.h"

namespace daedalus {

// Filters the line `s` across one edge of an active vp9 plane of bit depth
// `bit_depth`, of width pp.block_size, with pp's thresholds already at that
// depth (deblock_plane_params_at_depth); deblock_edge_reach(pp) samples on
// either side must exist. S: uint8_t or uint16_t (SampleLine).
template <class S>
void vp9_filter_edge_ref(const SampleLine<S>& s, const DeblockPlaneParams& pp,
                         int bit_depth);

}  // namespace daedalus
