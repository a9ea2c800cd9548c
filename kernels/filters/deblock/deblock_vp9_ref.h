// The scalar reference's VP9 loop filter across one edge (docs/spec.md,
// daedalusdeblock mode=vp9); deblock_ref.cc runs it over the edges of a pass.
#pragma once

#include <cstddef>
#include <cstdint>

#include "daedalus/deblock.h"

namespace daedalus {

// Filters the line across one edge of an active vp9 plane, of width
// pp.block_size: `q` points at q0, `d` is the byte distance from one sample
// to the next across the edge, and deblock_edge_reach(pp) samples on either
// side must exist.
void vp9_filter_edge_ref(uint8_t* q, ptrdiff_t d, const DeblockPlaneParams& pp);

}  // namespace daedalus
