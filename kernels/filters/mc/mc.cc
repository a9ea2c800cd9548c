#include "daedalus/mc.h"
#include "daedalus/thread_pool.h"
#include "daedalus_config.h"
#if DAEDALUS_HAVE_SIMD
#include "filters/simd_init.h"
#endif

#include <cmath>
#include <cstdio>
#include <string>

namespace daedalus {

// libvpx vp9_filter.c sub_pel_filters_8 / _8s / _8lp (the same values as
// FFmpeg's ff_vp9_subpel_filters, which orders them smooth, regular, sharp).
const int16_t kVp9Filters[3][16][8] = {
    {
        // Regular (Lagrangian)
        {0, 0, 0, 128, 0, 0, 0, 0},
        {0, 1, -5, 126, 8, -3, 1, 0},
        {-1, 3, -10, 122, 18, -6, 2, 0},
        {-1, 4, -13, 118, 27, -9, 3, -1},
        {-1, 4, -16, 112, 37, -11, 4, -1},
        {-1, 5, -18, 105, 48, -14, 4, -1},
        {-1, 5, -19, 97, 58, -16, 5, -1},
        {-1, 6, -19, 88, 68, -18, 5, -1},
        {-1, 6, -19, 78, 78, -19, 6, -1},
        {-1, 5, -18, 68, 88, -19, 6, -1},
        {-1, 5, -16, 58, 97, -19, 5, -1},
        {-1, 4, -14, 48, 105, -18, 5, -1},
        {-1, 4, -11, 37, 112, -16, 4, -1},
        {-1, 3, -9, 27, 118, -13, 4, -1},
        {0, 2, -6, 18, 122, -10, 3, -1},
        {0, 1, -3, 8, 126, -5, 1, 0},
    },
    {
        // Sharp (DCT based)
        {0, 0, 0, 128, 0, 0, 0, 0},
        {-1, 3, -7, 127, 8, -3, 1, 0},
        {-2, 5, -13, 125, 17, -6, 3, -1},
        {-3, 7, -17, 121, 27, -10, 5, -2},
        {-4, 9, -20, 115, 37, -13, 6, -2},
        {-4, 10, -23, 108, 48, -16, 8, -3},
        {-4, 10, -24, 100, 59, -19, 9, -3},
        {-4, 11, -24, 90, 70, -21, 10, -4},
        {-4, 11, -23, 80, 80, -23, 11, -4},
        {-4, 10, -21, 70, 90, -24, 11, -4},
        {-3, 9, -19, 59, 100, -24, 10, -4},
        {-3, 8, -16, 48, 108, -23, 10, -4},
        {-2, 6, -13, 37, 115, -20, 9, -4},
        {-2, 5, -10, 27, 121, -17, 7, -3},
        {-1, 3, -6, 17, 125, -13, 5, -2},
        {0, 1, -3, 8, 127, -7, 3, -1},
    },
    {
        // Smooth (low pass)
        {0, 0, 0, 128, 0, 0, 0, 0},
        {-3, -1, 32, 64, 38, 1, -3, 0},
        {-2, -2, 29, 63, 41, 2, -3, 0},
        {-2, -2, 26, 63, 43, 4, -4, 0},
        {-2, -3, 24, 62, 46, 5, -4, 0},
        {-2, -3, 21, 60, 49, 7, -4, 0},
        {-1, -4, 18, 59, 51, 9, -4, 0},
        {-1, -4, 16, 57, 53, 12, -4, -1},
        {-1, -4, 14, 55, 55, 14, -4, -1},
        {-1, -4, 12, 53, 57, 16, -4, -1},
        {0, -4, 9, 51, 59, 18, -4, -1},
        {0, -4, 7, 49, 60, 21, -3, -2},
        {0, -4, 5, 46, 62, 24, -3, -2},
        {0, -4, 4, 43, 63, 26, -2, -2},
        {0, -3, 2, 41, 63, 29, -2, -2},
        {0, -3, 1, 38, 64, 32, -1, -3},
    },
};

namespace {

// Ok when |d| <= kMcMaxShift (NaN is not).
Status check_shift(std::string_view field, double d) {
  if (std::isfinite(d) && std::fabs(d) <= kMcMaxShift) return Status::ok();
  char value[32];
  std::snprintf(value, sizeof value, "%g", d);
  const int max = int(kMcMaxShift);
  return bad_parameter(
      "MC", field, value,
      "out of range " + std::to_string(-max) + ".." + std::to_string(max));
}

}  // namespace

Status mc_params_valid(const McParams& params) {
  DAEDALUS_TRY(check_shift("dx", params.dx));
  DAEDALUS_TRY(check_shift("dy", params.dy));
  const int filter = static_cast<int>(params.filter);
  if (filter < 0 || filter > static_cast<int>(McFilter::Bilinear))
    return bad_parameter("MC", "filter", std::to_string(filter),
                         "is not regular, sharp, smooth or bilinear");
  return Status::ok();
}

// d * 16 / 2^s is exact in double for |d| <= 4096, and std::lround rounds
// halves away from zero, as the spec asks.
int mc_subpel(double d, int subsampling_shift) {
  return static_cast<int>(std::lround(d * 16.0 / (1 << subsampling_shift)));
}

McPlaneShift mc_plane_shift(double dx, double dy, int shift_x, int shift_y) {
  const int mx = mc_subpel(dx, shift_x);
  const int my = mc_subpel(dy, shift_y);
  return {mx >> 4, my >> 4, mx & 15, my & 15};
}

// A chroma axis divides |d * 16| by 1 or 2 before rounding, so when luma
// rounds to 0 (|d * 16| < 1/2) every chroma plane does too. Parameters out of
// range are never a no-op: the element rejects them.
bool mc_is_noop(const McParams& params) {
  return mc_params_valid(params).is_ok() && mc_subpel(params.dx, 0) == 0 &&
         mc_subpel(params.dy, 0) == 0;
}

std::string_view mc_filter_name(McFilter filter) {
  switch (filter) {
    case McFilter::Regular:
      return "regular";
    case McFilter::Sharp:
      return "sharp";
    case McFilter::Smooth:
      return "smooth";
    case McFilter::Bilinear:
      return "bilinear";
  }
  return "?";
}

void mc_frame(const McDsp& dsp, const Frame& dst, const ConstFrame& src,
              const McParams& params, ThreadPool* pool, const int* first) {
  static const int kWhole[3] = {0, 0, 0};
  if (!first) first = kWhole;
  const McRowsFn mc_rows = mc_rows_fn(dsp, src);
  McPlaneShift shifts[3];
  int rows[3];
  for (int p = 0; p < src.num_planes; p++) {
    const int sx = p == 0 ? 0 : src.chroma_shift_x;
    const int sy = p == 0 ? 0 : src.chroma_shift_y;
    shifts[p] = mc_plane_shift(params.dx, params.dy, sx, sy);
    rows[p] = src.planes[p].height - first[p];
  }
  run_bands(pool, std::span(rows, src.num_planes), 8,
            [&](int p, int begin, int end) {
              mc_rows(dst.planes[p], src.planes[p], shifts[p], params.filter,
                      first[p] + begin, first[p] + end);
            });
}

void mc_dsp_init(McDsp* dsp, [[maybe_unused]] bool islands) {
  mc_dsp_init_ref(dsp);
#if DAEDALUS_HAVE_SIMD
  mc_dsp_init_simd(dsp, islands);
#endif
}

}  // namespace daedalus
