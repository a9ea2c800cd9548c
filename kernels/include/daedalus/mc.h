// Sub-pixel translation with the VP9 interpolation filters
// (docs/spec.md, daedalusmc): out(x, y) = in(x + dx, y + dy).
#pragma once

#include <cstdint>

#include <string_view>

#include "daedalus/frame.h"
#include "daedalus/status.h"

namespace daedalus {

class ThreadPool;

enum class McFilter { Regular, Sharp, Smooth, Bilinear };

// "regular", "sharp", "smooth", "bilinear": the element's nicks.
std::string_view mc_filter_name(McFilter filter);

// Element-level settings. dx, dy in luma samples, -4096..4096.
struct McParams {
  double dx = 0.0;
  double dy = 0.0;
  McFilter filter = McFilter::Regular;
};

inline constexpr double kMcMaxShift = 4096.0;

// Ok when every field is in its range (above); else an error naming the
// first that is not and its range ("MC: dx 5000 out of range -4096..4096").
Status mc_params_valid(const McParams& params);

// VP9 8-tap filter banks [filter][phase][tap] for Regular, Sharp, Smooth
// (indexed by McFilter); taps of each phase sum to 128. int16_t because phase
// 0 holds 128; phases 1..15 all fit in int8_t.
extern const int16_t kVp9Filters[3][16][8];

// A shift in 1/16 sample units of one plane axis:
// round_half_away_from_zero(d * 16 / (1 << subsampling_shift)).
int mc_subpel(double d, int subsampling_shift);

// One plane's shift: integer part (floor) and 1/16 fraction per axis.
struct McPlaneShift {
  int ix = 0, iy = 0;
  int fx = 0, fy = 0;
};

McPlaneShift mc_plane_shift(double dx, double dy, int shift_x, int shift_y);

// True when the shift is zero on every plane: the output equals the input.
bool mc_is_noop(const McParams& params);

// Writes rows [y_begin, y_end) of `dst` from `src` (same size and bit
// depth). Rows are independent.
using McRowsFn = void (*)(const Plane& dst, const ConstPlane& src,
                          const McPlaneShift& shift, McFilter filter,
                          int y_begin, int y_end);

struct McDsp {
  McRowsFn rows = nullptr;      // planes of bit depth 8
  McRowsFn rows_hbd = nullptr;  // of bit depth 10 (16-bit words)
};

// The entry of `dsp` for planes of `frame`'s bit depth.
inline McRowsFn mc_rows_fn(const McDsp& dsp, const ConstFrame& frame) {
  return frame.bit_depth() > 8 ? dsp.rows_hbd : dsp.rows;
}

void mc_dsp_init_ref(McDsp* dsp);

// The init ladder: the reference, then every faster implementation this build
// has and this CPU supports; with `islands` false, without the dot-product
// islands of the 8-bit rows (AVX-512 VNNI, aarch64 dotprod): what a CPU
// lacking them runs, which tests compare on a CPU that has them.
void mc_dsp_init(McDsp* dsp, bool islands = true);

// Translates every plane of `src` into `dst` (of the same format and bit
// depth), split into row bands on `pool`
// (the calling thread when null); with `first`, only rows [first[p],
// height) of each plane (a backend that gives the leading rows to a GPU
// runs the rest here).
void mc_frame(const McDsp& dsp, const Frame& dst, const ConstFrame& src,
              const McParams& params, ThreadPool* pool = nullptr,
              const int* first = nullptr);

}  // namespace daedalus
