// The scalar reference of daedalusmc, written as docs/spec.md states it, one
// output sample at a time: it is the oracle, so clarity beats speed.
#include <algorithm>

#include "daedalus/mc.h"

namespace daedalus {
namespace {

int clip255(int v) { return std::clamp(v, 0, 255); }

// in(x, y) with the coordinates clamped into the plane.
int in(const ConstPlane& src, int x, int y) {
  return src.at(std::clamp(x, 0, src.width - 1),
                std::clamp(y, 0, src.height - 1));
}

int taps8(const int16_t* f, const int v[8]) {
  int sum = 0;
  for (int k = 0; k < 8; k++) sum += f[k] * v[k];
  return clip255((sum + 64) >> 7);
}

int horizontal8(const ConstPlane& src, const int16_t* f, int cx, int cy) {
  int v[8];
  for (int k = 0; k < 8; k++) v[k] = in(src, cx + k - 3, cy);
  return taps8(f, v);
}

int vertical8(const ConstPlane& src, const int16_t* f, int cx, int cy) {
  int v[8];
  for (int k = 0; k < 8; k++) v[k] = in(src, cx, cy + k - 3);
  return taps8(f, v);
}

int sample_8tap(const ConstPlane& src, const int16_t (*bank)[8],
                const McPlaneShift& s, int x, int y) {
  const int cx = x + s.ix, cy = y + s.iy;
  if (s.fx == 0 && s.fy == 0) return in(src, cx, cy);
  if (s.fy == 0) return horizontal8(src, bank[s.fx], cx, cy);
  if (s.fx == 0) return vertical8(src, bank[s.fy], cx, cy);
  // Two passes, as VP9's put_8tap: each horizontal result is clipped to
  // 8 bits before the vertical filter sees it.
  int mid[8];
  for (int k = 0; k < 8; k++)
    mid[k] = horizontal8(src, bank[s.fx], cx, cy + k - 3);
  return taps8(bank[s.fy], mid);
}

int lerp16(int a, int b, int f) { return a + ((f * (b - a) + 8) >> 4); }

// The horizontal result lies between a and b, so it is already 8-bit.
int sample_bilinear(const ConstPlane& src, const McPlaneShift& s, int x,
                    int y) {
  const int cx = x + s.ix, cy = y + s.iy;
  auto row = [&](int r) {
    const int a = in(src, cx, r);
    return s.fx == 0 ? a : lerp16(a, in(src, cx + 1, r), s.fx);
  };
  if (s.fy == 0) return row(cy);
  return lerp16(row(cy), row(cy + 1), s.fy);
}

void mc_rows_ref(const Plane& dst, const ConstPlane& src,
                 const McPlaneShift& shift, McFilter filter, int y_begin,
                 int y_end) {
  for (int y = y_begin; y < y_end; y++)
    for (int x = 0; x < dst.width; x++)
      dst.at(x, y) = static_cast<uint8_t>(
          filter == McFilter::Bilinear
              ? sample_bilinear(src, shift, x, y)
              : sample_8tap(src, kVp9Filters[static_cast<int>(filter)], shift,
                            x, y));
}

}  // namespace

// Kept beside the function it installs, as dav1d's *_tmpl.c init does.
void mc_dsp_init_ref(McDsp* dsp) { dsp->rows = mc_rows_ref; }

}  // namespace daedalus
