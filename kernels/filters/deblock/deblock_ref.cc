// The scalar reference of docs/spec.md, daedalusdeblock: written to be read
// against the spec equations, not to be fast. Every mode at bit depth 8 and
// 10 ("High bit depth"), as templates on the sample type (mode=dct's in
// deblock_dct_ref.cc).
#include <algorithm>
#include <cstdlib>

#include "daedalus/deblock.h"
#include "deblock_dct_ref.h"
#include "deblock_line_ref.h"
#include "deblock_vp9_ref.h"

namespace daedalus {
namespace {

int clip3(int lo, int hi, int v) { return std::clamp(v, lo, hi); }

// Filters the 8 samples p3 p2 p1 p0 | q0 q1 q2 q3 of `s` across one edge, with
// pp's thresholds already at the plane's depth (whose largest value is
// s.max). Every output is computed from the unfiltered inputs. The chroma
// filter reads p1..q1 only: its edges may lie 2 samples from the plane's end.
template <class S>
void filter_edge(const SampleLine<S>& s, const DeblockPlaneParams& pp, int) {
  const int alpha = pp.alpha, beta = pp.beta, tc0 = pp.tc0;
  const auto clip_max = [&s](int v) { return clip3(0, s.max, v); };
  const int p1 = s.get(-2), p0 = s.get(-1), q0 = s.get(0), q1 = s.get(1);
  if (!(std::abs(p0 - q0) < alpha && std::abs(p1 - p0) < beta &&
        std::abs(q1 - q0) < beta))
    return;

  if (pp.chroma_filter) {
    if (pp.bs < 4) {
      const int tc = tc0 + 1;
      const int delta = clip3(-tc, tc, (((q0 - p0) << 2) + (p1 - q1) + 4) >> 3);
      s.set(-1, clip_max(p0 + delta));
      s.set(0, clip_max(q0 - delta));
    } else {
      s.set(-1, (2 * p1 + p0 + q1 + 2) >> 2);
      s.set(0, (2 * q1 + q0 + p1 + 2) >> 2);
    }
    return;
  }

  const int p3 = s.get(-4), p2 = s.get(-3), q2 = s.get(2), q3 = s.get(3);
  const int ap = std::abs(p2 - p0), aq = std::abs(q2 - q0);
  if (pp.bs < 4) {
    const int tc = tc0 + (ap < beta) + (aq < beta);
    const int delta = clip3(-tc, tc, (((q0 - p0) << 2) + (p1 - q1) + 4) >> 3);
    s.set(-1, clip_max(p0 + delta));
    s.set(0, clip_max(q0 - delta));
    if (ap < beta)
      s.set(-2, p1 + clip3(-tc0, tc0,
                           (p2 + ((p0 + q0 + 1) >> 1) - (p1 << 1)) >> 1));
    if (aq < beta)
      s.set(1, q1 + clip3(-tc0, tc0,
                          (q2 + ((p0 + q0 + 1) >> 1) - (q1 << 1)) >> 1));
    return;
  }

  const bool small_gap = std::abs(p0 - q0) < ((alpha >> 2) + 2);
  if (ap < beta && small_gap) {
    s.set(-1, (p2 + 2 * p1 + 2 * p0 + 2 * q0 + q1 + 4) >> 3);
    s.set(-2, (p2 + p1 + p0 + q0 + 2) >> 2);
    s.set(-3, (2 * p3 + 3 * p2 + p1 + p0 + q0 + 4) >> 3);
  } else {
    s.set(-1, (2 * p1 + p0 + q1 + 2) >> 2);
  }
  if (aq < beta && small_gap) {
    s.set(0, (q2 + 2 * q1 + 2 * q0 + 2 * p0 + p1 + 4) >> 3);
    s.set(1, (q2 + q1 + q0 + p0 + 2) >> 2);
    s.set(2, (2 * q3 + 3 * q2 + q1 + q0 + p0 + 4) >> 3);
  } else {
    s.set(0, (2 * q1 + q0 + p1 + 2) >> 2);
  }
}

// The plane's filter: the same edges and order in either mode.
template <class S>
using EdgeFilterFn = void (*)(const SampleLine<S>&, const DeblockPlaneParams&,
                              int bit_depth);
template <class S>
EdgeFilterFn<S> edge_filter(const DeblockPlaneParams& pp) {
  return pp.mode == DeblockMode::Vp9 ? vp9_filter_edge_ref<S> : filter_edge<S>;
}

// The line across the edge whose q0 is at (x, y), `d` bytes per sample.
template <class S>
SampleLine<S> line_at(const Plane& plane, int x, int y, ptrdiff_t d) {
  return {&plane.at(x, y), d, plane.lsb, plane.max_value()};
}

template <class S>
void vertical_edges_t(const Plane& plane, const DeblockPlaneParams& params,
                      int y_begin, int y_end) {
  const DeblockPlaneParams pp =
      deblock_plane_params_at_depth(params, plane.bit_depth);
  const int b = pp.block_size, reach = deblock_edge_reach(pp);
  const EdgeFilterFn<S> filter = edge_filter<S>(pp);
  for (int y = y_begin; y < y_end; y++) {
    // A 10-bit row is written whole, its samples' other bits 0.
    if constexpr (sizeof(S) == 2)
      for (int x = 0; x < plane.width; x++)
        set_sample_value<S>(plane, x, y, sample_value<S>(plane, x, y));
    for (int x = b; x + reach <= plane.width; x += b)
      filter(line_at<S>(plane, x, y, plane.step), pp, plane.bit_depth);
  }
}

template <class S>
void horizontal_edges_t(const Plane& plane, const DeblockPlaneParams& params,
                        int x_begin, int x_end) {
  const DeblockPlaneParams pp =
      deblock_plane_params_at_depth(params, plane.bit_depth);
  const int b = pp.block_size, reach = deblock_edge_reach(pp);
  const EdgeFilterFn<S> filter = edge_filter<S>(pp);
  for (int x = x_begin; x < x_end; x++)
    for (int y = b; y + reach <= plane.height; y += b)
      filter(line_at<S>(plane, x, y, plane.stride), pp, plane.bit_depth);
}

}  // namespace

void deblock_dsp_init_ref(DeblockDsp* dsp) {
  dsp->vertical_edges = vertical_edges_t<uint8_t>;
  dsp->horizontal_edges = horizontal_edges_t<uint8_t>;
  dsp->vertical_edges_hbd = vertical_edges_t<uint16_t>;
  dsp->horizontal_edges_hbd = horizontal_edges_t<uint16_t>;
  dsp->dct_rows = dct_rows_ref<uint8_t>;
  dsp->dct_rows_hbd = dct_rows_ref<uint16_t>;
}

}  // namespace daedalus
