// The scalar reference of docs/spec.md, daedalusdeblock: written to be read
// against the spec equations, not to be fast.
#include <algorithm>
#include <cstdlib>

#include "daedalus/deblock.h"
#include "deblock_dct_ref.h"
#include "deblock_vp9_ref.h"

namespace daedalus {
namespace {

int clip3(int lo, int hi, int v) { return std::clamp(v, lo, hi); }
int clip255(int v) { return clip3(0, 255, v); }

// Filters the 8 samples p3 p2 p1 p0 | q0 q1 q2 q3 across one edge; `q` points
// at q0 and `d` is the byte distance from one sample to the next across the
// edge. Every output is computed from the unfiltered inputs. The chroma filter
// reads p1..q1 only: its edges may lie 2 samples from the plane's end.
void filter_edge(uint8_t* q, ptrdiff_t d, const DeblockPlaneParams& pp) {
  const int alpha = pp.alpha, beta = pp.beta, tc0 = pp.tc0;
  const int p1 = q[-2 * d], p0 = q[-d], q0 = q[0], q1 = q[d];
  if (!(std::abs(p0 - q0) < alpha && std::abs(p1 - p0) < beta &&
        std::abs(q1 - q0) < beta))
    return;

  if (pp.chroma_filter) {
    if (pp.bs < 4) {
      const int tc = tc0 + 1;
      const int delta = clip3(-tc, tc, (((q0 - p0) << 2) + (p1 - q1) + 4) >> 3);
      q[-d] = uint8_t(clip255(p0 + delta));
      q[0] = uint8_t(clip255(q0 - delta));
    } else {
      q[-d] = uint8_t((2 * p1 + p0 + q1 + 2) >> 2);
      q[0] = uint8_t((2 * q1 + q0 + p1 + 2) >> 2);
    }
    return;
  }

  const int p3 = q[-4 * d], p2 = q[-3 * d], q2 = q[2 * d], q3 = q[3 * d];
  const int ap = std::abs(p2 - p0), aq = std::abs(q2 - q0);
  if (pp.bs < 4) {
    const int tc = tc0 + (ap < beta) + (aq < beta);
    const int delta = clip3(-tc, tc, (((q0 - p0) << 2) + (p1 - q1) + 4) >> 3);
    q[-d] = uint8_t(clip255(p0 + delta));
    q[0] = uint8_t(clip255(q0 - delta));
    if (ap < beta)
      q[-2 * d] = uint8_t(
          p1 + clip3(-tc0, tc0, (p2 + ((p0 + q0 + 1) >> 1) - (p1 << 1)) >> 1));
    if (aq < beta)
      q[d] = uint8_t(
          q1 + clip3(-tc0, tc0, (q2 + ((p0 + q0 + 1) >> 1) - (q1 << 1)) >> 1));
    return;
  }

  const bool small_gap = std::abs(p0 - q0) < ((alpha >> 2) + 2);
  if (ap < beta && small_gap) {
    q[-d] = uint8_t((p2 + 2 * p1 + 2 * p0 + 2 * q0 + q1 + 4) >> 3);
    q[-2 * d] = uint8_t((p2 + p1 + p0 + q0 + 2) >> 2);
    q[-3 * d] = uint8_t((2 * p3 + 3 * p2 + p1 + p0 + q0 + 4) >> 3);
  } else {
    q[-d] = uint8_t((2 * p1 + p0 + q1 + 2) >> 2);
  }
  if (aq < beta && small_gap) {
    q[0] = uint8_t((q2 + 2 * q1 + 2 * q0 + 2 * p0 + p1 + 4) >> 3);
    q[d] = uint8_t((q2 + q1 + q0 + p0 + 2) >> 2);
    q[2 * d] = uint8_t((2 * q3 + 3 * q2 + q1 + q0 + p0 + 4) >> 3);
  } else {
    q[0] = uint8_t((2 * q1 + q0 + p1 + 2) >> 2);
  }
}

// The plane's filter: the same edges and order in either mode.
using EdgeFilterFn = void (*)(uint8_t*, ptrdiff_t, const DeblockPlaneParams&);
EdgeFilterFn edge_filter(const DeblockPlaneParams& pp) {
  return pp.mode == DeblockMode::Vp9 ? vp9_filter_edge_ref : filter_edge;
}

void vertical_edges_c(const Plane& plane, const DeblockPlaneParams& pp,
                      int y_begin, int y_end) {
  const int b = pp.block_size, reach = deblock_edge_reach(pp);
  const EdgeFilterFn filter = edge_filter(pp);
  for (int y = y_begin; y < y_end; y++)
    for (int x = b; x + reach <= plane.width; x += b)
      filter(&plane.at(x, y), plane.step, pp);
}

void horizontal_edges_c(const Plane& plane, const DeblockPlaneParams& pp,
                        int x_begin, int x_end) {
  const int b = pp.block_size, reach = deblock_edge_reach(pp);
  const EdgeFilterFn filter = edge_filter(pp);
  for (int x = x_begin; x < x_end; x++)
    for (int y = b; y + reach <= plane.height; y += b)
      filter(&plane.at(x, y), plane.stride, pp);
}

}  // namespace

void deblock_dsp_init_ref(DeblockDsp* dsp) {
  dsp->vertical_edges = vertical_edges_c;
  dsp->horizontal_edges = horizontal_edges_c;
  dsp->dct_rows = dct_rows_ref;
}

}  // namespace daedalus
