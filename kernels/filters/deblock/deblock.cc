#include "daedalus/deblock.h"

#include "daedalus/thread_pool.h"
#include "daedalus_config.h"
#if DAEDALUS_HAVE_SIMD
#include "filters/simd_init.h"
#endif

#include <algorithm>
#include <atomic>
#include <memory>
#include <span>
#include <vector>

namespace daedalus {

// clang-format off
// H.264 Table 8-16: alpha' by indexA.
const uint8_t kH264Alpha[52] = {
    0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   4,   4,   5,   6,   7,   8,   9,  10,  12,  13,
   15,  17,  20,  22,  25,  28,  32,  36,  40,  45,  50,  56,  63,
   71,  80,  90, 101, 113, 127, 144, 162, 182, 203, 226, 255, 255,
};

// H.264 Table 8-16: beta' by indexB.
const uint8_t kH264Beta[52] = {
    0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   2,   2,   2,   3,   3,   3,   3,   4,   4,   4,
    6,   6,   7,   7,   8,   8,   9,   9,  10,  10,  11,  11,  12,
   12,  13,  13,  14,  14,  15,  15,  16,  16,  17,  17,  18,  18,
};

// H.264 Table 8-17: tC0' by indexA and bS 1..3.
const uint8_t kH264Tc0[52][3] = {
  { 0, 0, 0}, { 0, 0, 0}, { 0, 0, 0}, { 0, 0, 0}, { 0, 0, 0}, { 0, 0, 0},
  { 0, 0, 0}, { 0, 0, 0}, { 0, 0, 0}, { 0, 0, 0}, { 0, 0, 0}, { 0, 0, 0},
  { 0, 0, 0}, { 0, 0, 0}, { 0, 0, 0}, { 0, 0, 0}, { 0, 0, 0}, { 0, 0, 1},
  { 0, 0, 1}, { 0, 0, 1}, { 0, 0, 1}, { 0, 1, 1}, { 0, 1, 1}, { 1, 1, 1},
  { 1, 1, 1}, { 1, 1, 1}, { 1, 1, 1}, { 1, 1, 2}, { 1, 1, 2}, { 1, 1, 2},
  { 1, 1, 2}, { 1, 2, 3}, { 1, 2, 3}, { 2, 2, 3}, { 2, 2, 4}, { 2, 3, 4},
  { 2, 3, 4}, { 3, 3, 5}, { 3, 4, 6}, { 3, 4, 6}, { 4, 5, 7}, { 4, 5, 8},
  { 4, 6, 9}, { 5, 7,10}, { 6, 8,11}, { 6, 8,13}, { 7,10,14}, { 8,11,16},
  { 9,12,18}, {10,13,20}, {11,15,23}, {13,17,25},
};

// H.264 Table 8-15: QPc for qPI 30..51 (below 30, QPc = qPI).
const uint8_t kH264ChromaQp[22] = {
  29, 30, 31, 32, 32, 33, 34, 34, 35, 35, 36,
  36, 37, 37, 37, 38, 38, 38, 39, 39, 39, 39,
};
// clang-format on

int h264_chroma_qp(int q) { return q < 30 ? q : kH264ChromaQp[q - 30]; }

void dct_shift(int n, int k, int* sx, int* sy) {
  static constexpr int kSpread[8] = {0, 4, 2, 6, 1, 5, 3, 7};
  if (n <= 8) {
    const int m = 8 / n;
    *sx = (3 * m * k) % 8;
    *sy = m * k;
    return;
  }
  const int a = k / 8, b = k % 8;
  *sx = (3 * b + kSpread[a]) % 8;
  *sy = b;
}

Status deblock_params_valid(const DeblockParams& params) {
  DAEDALUS_TRY(check_ranges("deblock",
                            {
                                {"qp", params.qp, 0, 51},
                                {"alpha_offset", params.alpha_offset, -12, 12},
                                {"beta_offset", params.beta_offset, -12, 12},
                                {"chroma_qp_offset", params.chroma_qp_offset,
                                 kChromaQpOffsetMin, kChromaQpOffsetMax},
                                {"bs", params.bs, 1, 4},
                                {"grid_x", params.grid_x, 0, 15},
                                {"grid_y", params.grid_y, 0, 15},
                                {"filter_level", params.filter_level, 0, 63},
                                {"sharpness", params.sharpness, 0, 7},
                            }));
  const int b = params.block_size;
  if (b != 4 && b != 8 && b != 16)
    return bad_parameter("deblock", "block_size", std::to_string(b),
                         "is not 4, 8 or 16");
  const int n = params.shifts;
  if (n < 1 || n > 64 || (n & (n - 1)) != 0)
    return bad_parameter("deblock", "shifts", std::to_string(n),
                         "is not 1, 2, 4, 8, 16, 32 or 64");
  const int mode = int(params.mode);
  if (mode < int(DeblockMode::H264) || mode > int(DeblockMode::Dct))
    return bad_parameter("deblock", "mode", std::to_string(mode),
                         "is not h264, vp9 or dct");
  return Status::ok();
}

int deblock_grid_block(const DeblockParams& params) {
  return params.mode == DeblockMode::Dct ? 8 : params.block_size;
}

Frame deblock_grid_view(const Frame& frame, const DeblockParams& params) {
  const int b = deblock_grid_block(params);
  Frame view = frame;
  for (int p = 0; p < frame.num_planes; p++) {
    const int sx = p > 0 ? frame.chroma_shift_x : 0;
    const int sy = p > 0 ? frame.chroma_shift_y : 0;
    Plane& v = view.planes[p];
    const int ox = std::min((params.grid_x >> sx) % b, v.width);
    const int oy = std::min((params.grid_y >> sy) % b, v.height);
    v.data += oy * v.stride + ox * v.step;
    v.width -= ox;
    v.height -= oy;
  }
  return view;
}

Vp9Thresholds vp9_thresholds(int filter_level, int sharpness) {
  const int shift = sharpness > 4 ? 2 : sharpness > 0 ? 1 : 0;
  int limit = filter_level >> shift;
  if (sharpness > 0) limit = std::min(limit, 9 - sharpness);
  limit = std::max(limit, 1);
  return {limit, 2 * (filter_level + 2) + limit, filter_level >> 4};
}

DeblockPlaneParams deblock_plane_params(const DeblockParams& params,
                                        bool chroma_plane, bool chroma_filter) {
  if (params.mode == DeblockMode::Vp9) {
    DeblockPlaneParams p;
    p.block_size = params.block_size;
    p.mode = DeblockMode::Vp9;
    if (params.filter_level > 0)
      p.vp9 = vp9_thresholds(params.filter_level, params.sharpness);
    return p;
  }
  int qp = params.qp;
  if (chroma_plane)
    qp = h264_chroma_qp(std::clamp(qp + params.chroma_qp_offset, 0, 51));
  if (params.mode == DeblockMode::Dct) {
    DeblockPlaneParams p;
    p.block_size = 8;
    p.mode = DeblockMode::Dct;
    p.dct_threshold = dct_threshold(qp);
    p.dct_shifts = params.shifts;
    return p;
  }
  const int index_a = std::clamp(qp + params.alpha_offset, 0, 51);
  const int index_b = std::clamp(qp + params.beta_offset, 0, 51);

  DeblockPlaneParams p;
  p.alpha = kH264Alpha[index_a];
  p.beta = kH264Beta[index_b];
  p.tc0 = params.bs < 4 ? kH264Tc0[index_a][params.bs - 1] : 0;
  p.bs = params.bs;
  p.block_size = params.block_size;
  p.chroma_filter = chroma_filter;
  return p;
}

DeblockPlaneParams deblock_plane_params_at_depth(const DeblockPlaneParams& pp,
                                                 int bit_depth) {
  const int cs = bit_depth - 8;
  DeblockPlaneParams p = pp;
  p.alpha <<= cs;
  p.beta <<= cs;
  p.tc0 <<= cs;
  p.vp9.limit <<= cs;
  p.vp9.blimit <<= cs;
  p.vp9.thresh <<= cs;
  p.dct_threshold <<= cs;
  return p;
}

bool deblock_is_noop(const DeblockParams& params, bool has_chroma) {
  if (params.mode == DeblockMode::Vp9) return params.filter_level == 0;
  // The filter choice does not affect alpha or beta, so it is irrelevant here.
  if (deblock_plane_active(deblock_plane_params(params, false, false)))
    return false;
  return !has_chroma ||
         !deblock_plane_active(deblock_plane_params(params, true, false));
}

void deblock_pass(const DeblockDsp& dsp, const Frame& frame,
                  const DeblockParams& params, DeblockPass pass,
                  const int first[3], ThreadPool* pool) {
  // Row bands in multiples of 16 suit vertical edges filtered 16 rows at a
  // time; column bands in multiples of 64 bytes keep threads off each
  // other's cache lines (interleaved chroma, counted twice below: 8 rows, 32
  // pairs). One fork-join over every plane.
  const bool rows = pass == DeblockPass::VerticalEdges;
  const auto edges = rows ? deblock_vertical_edges_fn(dsp, frame.planes[0])
                          : deblock_horizontal_edges_fn(dsp, frame.planes[0]);
  DeblockPlaneParams pp[3];
  int left[3] = {0, 0, 0};
  for (int p = 0; p < frame.num_planes; p++) {
    pp[p] =
        deblock_plane_params(params, p > 0, p > 0 && frame.chroma_subsampled());
    if (deblock_plane_active(pp[p]))
      left[p] =
          (rows ? frame.planes[p].height : frame.planes[p].width) - first[p];
  }
  // The channels of interleaved chroma share bytes, which the vector loads
  // of either read: one task filters both over the same range, so that no
  // thread reads bytes another writes. The pair is one part, counted twice
  // so that bands weigh it as the two planes it holds.
  const bool pair = frame.chroma_interleaved();
  if (pair) left[1] *= 2;
  run_bands(pool, std::span(left, pair ? 2 : frame.num_planes), rows ? 16 : 64,
            [&](int p, int begin, int end) {
              if (p == 0 || !pair) {
                edges(frame.planes[p], pp[p], first[p] + begin, first[p] + end);
                return;
              }
              for (int c : {1, 2})
                edges(frame.planes[c], pp[c], first[c] + begin / 2,
                      first[c] + end / 2);
            });
}

// One thread over whole planes: each plane filtered in place (dct_rows
// reads every row before it writes it). Otherwise bands would read rows
// their neighbours (or a GPU band) write, so the planes are copied (into
// memory kept per calling thread: a frame's worth, not allocated again for
// every frame; whole, as a small plane's mirror reaches every row; the
// samples' words as they are, packed) and the bands read the copy.
void deblock_dct_rows_from(const DeblockDsp& dsp, const Frame& view,
                           const DeblockParams& params, const int first[3],
                           ThreadPool* pool) {
  const DeblockDctRowsFn dct_rows = deblock_dct_rows_fn(dsp, view.planes[0]);
  const int size = view.planes[0].bytes_per_sample();
  DeblockPlaneParams pp[3];
  int rows[3] = {0, 0, 0}, left[3] = {0, 0, 0};
  bool whole = true, any = false;
  size_t bytes = 0;
  for (int p = 0; p < view.num_planes; p++) {
    pp[p] = deblock_plane_params(params, p > 0, false);
    const Plane& plane = view.planes[p];
    if (!deblock_plane_active(pp[p]) || plane.width == 0) continue;
    rows[p] = plane.height;
    left[p] = std::max(0, plane.height - first[p]);
    whole &= first[p] == 0;
    any |= left[p] > 0;
    bytes += size_t(plane.width) * size * plane.height;
  }
  if (!any) return;
  if (whole && (!pool || pool->threads() == 1)) {
    for (int p = 0; p < view.num_planes; p++)
      if (rows[p]) dct_rows(view.planes[p], view.planes[p], pp[p], 0, rows[p]);
    return;
  }
  thread_local std::vector<uint8_t> copy;
  if (copy.size() < bytes) copy.resize(bytes);
  Plane src[3];
  for (size_t p = 0, at = 0; p < size_t(view.num_planes); p++) {
    const Plane& plane = view.planes[p];
    src[p] = plane;
    src[p].data = copy.data() + at;
    src[p].stride = ptrdiff_t(plane.width) * size;
    src[p].height = rows[p];
    src[p].step = size;
    at += size_t(src[p].stride) * rows[p];
  }
  run_bands(pool, std::span(rows, view.num_planes), 8,
            [&](int p, int begin, int end) {
              const Plane& plane = view.planes[p];
              for (int y = begin; y < end; y++) {
                uint8_t* out = src[p].row(y);
                if (plane.step == size)
                  std::copy_n(plane.row(y), plane.width * size, out);
                else
                  for (int x = 0; x < plane.width; x++)
                    std::copy_n(&plane.at(x, y), size, out + x * size);
              }
            });
  run_bands(pool, std::span(left, view.num_planes), 8,
            [&](int p, int begin, int end) {
              dct_rows(src[p], view.planes[p], pp[p], first[p] + begin,
                       first[p] + end);
            });
}

namespace {

// Rows of a band of deblock_in_bands: a multiple of every block size
// and of the rows pass 1 filters at a time (up to 64), and few enough that a
// 10-bit 4:4:4 plane's band (491 KB at 1080p) stays in a core's L2.
constexpr int kBandRows = 64;

// Rows [top, end) of `plane` as a plane of their own.
Plane plane_rows(const Plane& plane, int top, int end) {
  Plane rows = plane;
  rows.data += ptrdiff_t(top) * plane.stride;
  rows.height = end - top;
  return rows;
}

// Both passes of rows [y_begin, y_end) of a plane, band by band from the
// top (deblock_in_bands), with the horizontal edge on row
// y_begin left out when `skip_first_edge` (it reads rows above y_begin).
void deblock_rows_in_bands(DeblockVerticalEdgesFn vertical,
                           DeblockHorizontalEdgesFn horizontal,
                           const Plane& plane, const DeblockPlaneParams& pp,
                           int y_begin, int y_end, bool skip_first_edge) {
  for (int y = y_begin; y < y_end; y += kBandRows) {
    const int end = std::min(y_end, y + kBandRows);
    vertical(plane, pp, y, end);
    const int top =
        y == y_begin && skip_first_edge ? y : std::max(0, y - pp.block_size);
    horizontal(plane_rows(plane, top, end), pp, 0, plane.width);
  }
}

// The horizontal edge on row y alone (a view of a block on either side).
void deblock_edge_row(DeblockHorizontalEdgesFn horizontal, const Plane& plane,
                      const DeblockPlaneParams& pp, int y) {
  const int b = pp.block_size;
  horizontal(plane_rows(plane, y - b, std::min(plane.height, y + b)), pp, 0,
             plane.width);
}

// Whether a plane's horizontal edges are independent: where an edge's
// filter reaches at most half a block on either side (all but the luma
// filters at block size 4: mode=h264's luma and 4:4:4 chroma, mode=vp9), no
// two edges of a column touch the same sample,
// so they give the same result in any order once pass 1 has finished the
// rows they read. Elsewhere each edge reads what the one above wrote: a
// chain down every column.
bool deblock_edges_independent(const DeblockPlaneParams& pp) {
  return 2 * deblock_edge_reach(pp) <= pp.block_size;
}

// Rows [y_begin, y_end) of a plane (both channels of interleaved chroma)
// on a pool, where a column's edges form a chain (deblock_edges_independent)
// that runs through the band above: pass 1, then pass 2 strip by strip of
// kStripColumns, each strip once the band above (ending at y_begin) has
// finished it, as `above` counts; `done` counts this band's. The band above
// started first and is running (ThreadPool::run's order), so the wait ends;
// two bands then go down the strips a strip apart.
constexpr int kStripColumns = 128;
// A band's count, on a cache line of its own (the band below polls it).
struct alignas(64) StripCount {
  std::atomic<int> done{0};
};
void deblock_rows_in_strips(DeblockVerticalEdgesFn vertical,
                            DeblockHorizontalEdgesFn horizontal,
                            std::span<const Plane> channels,
                            const DeblockPlaneParams& pp, int y_begin,
                            int y_end, const std::atomic<int>* above,
                            std::atomic<int>& done) {
  for (const Plane& plane : channels) vertical(plane, pp, y_begin, y_end);
  const int top = std::max(0, y_begin - pp.block_size);
  const int width = channels[0].width;
  for (int x = 0, strip = 0; x < width; x += kStripColumns, strip++) {
    if (above)
      for (int seen; (seen = above->load(std::memory_order_acquire)) <= strip;)
        above->wait(seen, std::memory_order_acquire);
    for (const Plane& plane : channels)
      horizontal(plane_rows(plane, top, y_end), pp, x,
                 std::min(width, x + kStripColumns));
    done.store(strip + 1, std::memory_order_release);
    done.notify_all();
  }
}

// A band of deblock_in_bands: rows [begin, end) of part p (rows counted
// twice in an interleaved pair).
struct DeblockBand {
  int p, begin, end;
};

// The bands of a frame's parts, in the order the pool's threads claim them:
// each part in one band a thread, the first ones a granule longer where they
// do not divide evenly. Fewer leave a whole plane to whichever thread comes
// last (run_bands' two a thread over the planes' rows counted alike did, at
// 4:2:0 and 4:4:4); more cost time: on the Xeon the band below a boundary
// ran slower a row than the one above (a chained one trails it strip by
// strip), and independent bands of 128 rows made two threads no faster than
// one (docs/benchmarks.md, session 21). One thread (`pool` null) gets each
// part whole.
std::vector<DeblockBand> deblock_bands(std::span<const int> totals,
                                       const ThreadPool* pool) {
  std::vector<DeblockBand> bands;
  for (int p = 0; p < int(totals.size()); p++) {
    if (totals[p] <= 0) continue;
    const int granules = (totals[p] + kBandRows - 1) / kBandRows;
    const int n = pool ? std::min(pool->threads(), granules) : 1;
    for (int i = 0, g = 0; i < n; i++) {
      const int next = g + granules / n + (i < granules % n ? 1 : 0);
      bands.push_back(
          {p, g * kBandRows, std::min(totals[p], next * kBandRows)});
      g = next;
    }
  }
  return bands;
}

// Both passes band by band, so that a plane comes from memory once, not
// once a pass: each band of rows gets pass 1, then pass 2 on the
// horizontal edges in it while it is still in the core's cache (a 10-bit
// plane read twice spent half of pass 2 waiting for rows; at 8 bits the
// Xeon gained a tenth). On one thread (`pool` null) the bands go top to
// bottom, and the result is the passes' one after the other: an edge at
// row e reads and writes rows e - reach .. e + reach - 1, reach <= block
// size, so a band's edges touch only rows that pass 1 has finished and no
// later band's pass 1 touches, and a column's edges still go top to bottom.
// On a pool the bands (deblock_bands) run at once: where a plane's edges are
// independent (deblock_edges_independent) each band filters its rows but the
// edge on its first row, which reads the band above, and those edges go last,
// on the calling thread; where they form chains, a band goes down its pass 2 a
// strip behind the band above (deblock_rows_in_strips). One fork-join, and no
// pass 2 over column bands reading rows other cores wrote.
void deblock_in_bands(const DeblockDsp& dsp, const Frame& frame,
                      const DeblockParams& params, ThreadPool* pool) {
  const auto vertical = deblock_vertical_edges_fn(dsp, frame.planes[0]);
  const auto horizontal = deblock_horizontal_edges_fn(dsp, frame.planes[0]);
  DeblockPlaneParams pp[3];
  int rows[3] = {0, 0, 0};
  for (int p = 0; p < frame.num_planes; p++) {
    pp[p] =
        deblock_plane_params(params, p > 0, p > 0 && frame.chroma_subsampled());
    if (deblock_plane_active(pp[p])) rows[p] = frame.planes[p].height;
  }
  // Interleaved chroma: one band filters both channels (deblock_pass says
  // why), its rows counted twice.
  const bool pair = frame.chroma_interleaved();
  const int parts = pair ? 2 : frame.num_planes,
            scale[3] = {1, pair ? 2 : 1, 1};
  int totals[3];
  for (int p = 0; p < parts; p++) totals[p] = rows[p] * scale[p];
  // On a pool (one band on one thread needs neither): the first row of
  // every band but a plane's first, written by its band alone (a band's
  // first rows differ), read after the join; where edges form chains, each
  // band's strips done, by the granule it ends at.
  std::vector<char> band_top[3];
  std::unique_ptr<StripCount[]> strips_done[3];
  for (int p = 0; p < parts && pool; p++) {
    band_top[p].assign(size_t(rows[p]), 0);
    if (!deblock_edges_independent(pp[p]))
      strips_done[p] =
          std::make_unique<StripCount[]>(size_t(totals[p] / kBandRows + 2));
  }
  const auto each_channel = [&](int p, const auto& filter) {
    filter(p);
    if (pair && p == 1) filter(2);
  };
  const std::vector<DeblockBand> bands =
      deblock_bands(std::span(totals, parts), pool);
  run_tasks(pool, int(bands.size()), [&](int i) {
    const DeblockBand& band = bands[size_t(i)];
    const int p = band.p;
    const int g_begin = band.begin / kBandRows,
              g_end = (band.end + kBandRows - 1) / kBandRows;
    const int begin = band.begin / scale[p], end = band.end / scale[p];
    if (strips_done[p]) {
      const std::atomic<int>* above =
          begin > 0 ? &strips_done[p][g_begin].done : nullptr;
      const Plane channels[2] = {frame.planes[p], frame.planes[2]};
      deblock_rows_in_strips(vertical, horizontal,
                             std::span(channels, pair && p == 1 ? 2 : 1), pp[p],
                             begin, end, above, strips_done[p][g_end].done);
      return;
    }
    if (begin > 0) band_top[p][size_t(begin)] = 1;
    each_channel(p, [&](int c) {
      deblock_rows_in_bands(vertical, horizontal, frame.planes[c], pp[c], begin,
                            end, begin > 0);
    });
  });
  for (int p = 0; p < parts; p++)
    for (size_t y = 1; y < band_top[p].size(); y++)
      if (band_top[p][y])
        each_channel(p, [&](int c) {
          deblock_edge_row(horizontal, frame.planes[c], pp[c], y);
        });
}

}  // namespace

void deblock_frame(const DeblockDsp& dsp, const Frame& frame,
                   const DeblockParams& params, ThreadPool* pool) {
  const int whole[3] = {0, 0, 0};
  const Frame view = deblock_grid_view(frame, params);
  if (params.mode == DeblockMode::Dct) {
    deblock_dct_rows_from(dsp, view, params, whole, pool);
    return;
  }
  // A pool of one thread gets the one-thread order: nothing deferred, no
  // strips.
  deblock_in_bands(dsp, view, params,
                   pool && pool->threads() > 1 ? pool : nullptr);
}

void deblock_dsp_init(DeblockDsp* dsp, [[maybe_unused]] bool islands) {
  deblock_dsp_init_ref(dsp);
#if DAEDALUS_HAVE_SIMD
  deblock_dsp_init_simd(dsp);
  deblock_dct_dsp_init_simd(dsp, islands);
#endif
}

}  // namespace daedalus
