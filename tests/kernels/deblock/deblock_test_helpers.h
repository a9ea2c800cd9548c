// What the deblock scalar reference tests share: generators, random
// parameters and an independent implementation of the spec (the oracle).
#pragma once

#include "daedalus/deblock.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "test_util.h"

namespace daedalus::deblock_test {

constexpr int kBlockSizes[] = {4, 8, 16};

inline DeblockDsp ref_dsp() {
  DeblockDsp dsp;
  deblock_dsp_init_ref(&dsp);
  return dsp;
}

inline Plane plane_of(Image& image) { return image.frame().planes[0]; }

inline void copy_samples(const Image& from, Image& to) {
  std::copy(from.bytes().begin(), from.bytes().end(), to.bytes().begin());
}

// Both passes over a whole plane (of either bit depth), as deblock_frame runs
// them.
inline void deblock_plane(const Plane& plane, const DeblockPlaneParams& pp) {
  const DeblockDsp dsp = ref_dsp();
  deblock_vertical_edges_fn(dsp, plane)(plane, pp, 0, plane.height);
  deblock_horizontal_edges_fn(dsp, plane)(plane, pp, 0, plane.width);
}

// Blocks of near-constant level whose levels differ by up to `jump`: content
// on which many edges pass the filter's preconditions and some do not.
inline void fill_blocky(Image& image, std::mt19937& gen, int block, int jump) {
  const int center = std::uniform_int_distribution<int>(0, 255)(gen);
  test::fill_blocky(image, gen, block, center, jump);
}

// One of the content kinds above, drawn at random.
inline void fill_any(Image& image, std::mt19937& gen, int block) {
  const int kind = int(gen() % 4);
  const int center = int(gen() % 256);
  const int spread = 1 + int(gen() % 12);
  const int jump = 1 + int(gen() % 40);
  if (kind == 0)
    test::fill_random(image, gen);
  else if (kind == 1)
    test::fill_near(image, gen, center, spread);
  else
    fill_blocky(image, gen, block, jump);
}

inline DeblockParams random_params(std::mt19937& gen, int qp_min = 0) {
  auto in = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(gen);
  };
  DeblockParams p;
  p.qp = in(qp_min, 51);
  p.alpha_offset = in(-12, 12);
  p.beta_offset = in(-12, 12);
  p.chroma_qp_offset = in(-12, 12);
  p.bs = in(1, 4);
  p.block_size = kBlockSizes[in(0, 2)];
  p.grid_x = in(0, 1) ? in(0, 15) : 0;
  p.grid_y = in(0, 1) ? in(0, 15) : 0;
  return p;
}

// Plane parameters with alpha and beta from the active part of the tables.
inline DeblockPlaneParams random_plane_params(std::mt19937& gen, int block) {
  auto in = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(gen);
  };
  const int alpha = kH264Alpha[in(16, 51)];
  const int beta = kH264Beta[in(16, 51)];
  const int tc0 = in(0, 13);
  const int bs = in(1, 4);
  const bool chroma = in(0, 1);
  return test::plane_params(alpha, beta, tc0, bs, chroma, block);
}

// ---------------------------------------------------------------------------
// An independent implementation, for cross-checks: a plane is a grid of ints,
// and one routine filters either side of an edge, given that side's samples
// (nearest the edge first) and the other side's.

inline int floor_div(int a, int b) { return (a >= 0 ? a : a - b + 1) / b; }

struct Grid {
  int w = 0, h = 0;
  std::vector<int> v;
  int& at(int x, int y) { return v[size_t(y) * w + x]; }
};

inline Grid grid_of(const ConstPlane& plane) {
  Grid g{plane.width, plane.height, {}};
  for (int y = 0; y < g.h; y++)
    for (int x = 0; x < g.w; x++) g.v.push_back(plane.at(x, y));
  return g;
}

// s[i] points at the i-th sample of a row or column.
inline void oracle_edge(const std::vector<int*>& s, int e,
                        const DeblockPlaneParams& pp) {
  const int n = pp.chroma_filter ? 2 : 4;  // samples read on each side
  int P[4] = {}, Q[4] = {};
  for (int i = 0; i < n; i++) P[i] = *s[e - 1 - i], Q[i] = *s[e + i];
  if (std::abs(P[0] - Q[0]) >= pp.alpha || std::abs(P[1] - P[0]) >= pp.beta ||
      std::abs(Q[1] - Q[0]) >= pp.beta)
    return;
  int NP[4], NQ[4];
  std::copy(P, P + 4, NP);
  std::copy(Q, Q + 4, NQ);
  const bool luma = !pp.chroma_filter;
  const bool p_smooth = luma && std::abs(P[2] - P[0]) < pp.beta;
  const bool q_smooth = luma && std::abs(Q[2] - Q[0]) < pp.beta;

  if (pp.bs == 4) {
    const bool near = std::abs(P[0] - Q[0]) < pp.alpha / 4 + 2;
    auto side = [&](const int* a, const int* b, bool smooth, int* out) {
      if (luma && smooth && near) {
        out[0] = (a[2] + 2 * a[1] + 2 * a[0] + 2 * b[0] + b[1] + 4) / 8;
        out[1] = (a[2] + a[1] + a[0] + b[0] + 2) / 4;
        out[2] = (2 * a[3] + 3 * a[2] + a[1] + a[0] + b[0] + 4) / 8;
      } else {
        out[0] = (2 * a[1] + a[0] + b[1] + 2) / 4;
      }
    };
    side(P, Q, p_smooth, NP);
    side(Q, P, q_smooth, NQ);
  } else {
    const int tc = luma ? pp.tc0 + p_smooth + q_smooth : pp.tc0 + 1;
    const int delta =
        std::clamp(floor_div(4 * (Q[0] - P[0]) + P[1] - Q[1] + 4, 8), -tc, tc);
    NP[0] = std::clamp(P[0] + delta, 0, 255);
    NQ[0] = std::clamp(Q[0] - delta, 0, 255);
    const int avg = (P[0] + Q[0] + 1) / 2;
    if (p_smooth)
      NP[1] = P[1] +
              std::clamp(floor_div(P[2] + avg - 2 * P[1], 2), -pp.tc0, pp.tc0);
    if (q_smooth)
      NQ[1] = Q[1] +
              std::clamp(floor_div(Q[2] + avg - 2 * Q[1], 2), -pp.tc0, pp.tc0);
  }
  for (int i = 0; i < n; i++) *s[e - 1 - i] = NP[i], *s[e + i] = NQ[i];
}

// The edges of one line whose grid starts at `origin`: at origin + B,
// origin + 2B, ... while the filter's reach stays inside the line.
inline void oracle_line(const std::vector<int*>& s,
                        const DeblockPlaneParams& pp, int origin = 0) {
  const int reach = pp.chroma_filter ? 2 : 4;
  for (int e = origin + pp.block_size; e + reach <= int(s.size());
       e += pp.block_size)
    oracle_edge(s, e, pp);
}

// The plane from (ox, oy) on, as a plane of its own; the rest untouched.
inline void oracle_plane(Grid& g, const DeblockPlaneParams& pp, int ox = 0,
                         int oy = 0) {
  for (int y = oy; y < g.h; y++) {
    std::vector<int*> row;
    for (int x = 0; x < g.w; x++) row.push_back(&g.at(x, y));
    oracle_line(row, pp, ox);
  }
  for (int x = ox; x < g.w; x++) {
    std::vector<int*> column;
    for (int y = 0; y < g.h; y++) column.push_back(&g.at(x, y));
    oracle_line(column, pp, oy);
  }
}

// The first sample where `plane` differs from `g`, as text; empty if none.
inline std::string grid_difference(Grid& g, const ConstPlane& plane) {
  for (int y = 0; y < g.h; y++)
    for (int x = 0; x < g.w; x++)
      if (g.at(x, y) != plane.at(x, y))
        return "(" + std::to_string(x) + ", " + std::to_string(y) +
               "): expected " + std::to_string(g.at(x, y)) + ", got " +
               std::to_string(plane.at(x, y));
  return {};
}

// What deblock_frame must produce for `image`, plane by plane. The filter
// choice is written from the format here, not taken from the library.
inline std::vector<Grid> oracle_frame(Image& image,
                                      const DeblockParams& params) {
  const Frame f = image.frame();
  const bool subsampled = image.format() != PixelFormat::Y444;
  std::vector<Grid> grids;
  for (int p = 0; p < f.num_planes; p++) {
    Grid g = grid_of(f.planes[p]);
    // The grid's origin in this plane's samples (docs/spec.md, "Grid offset").
    const int ox =
        (params.grid_x >> (p > 0 ? f.chroma_shift_x : 0)) % params.block_size;
    const int oy =
        (params.grid_y >> (p > 0 ? f.chroma_shift_y : 0)) % params.block_size;
    oracle_plane(g, deblock_plane_params(params, p > 0, p > 0 && subsampled),
                 ox, oy);
    grids.push_back(std::move(g));
  }
  return grids;
}

}  // namespace daedalus::deblock_test
