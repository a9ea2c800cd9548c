// The scalar reference of daedalusmc, written as docs/spec.md states it, one
// output sample at a time: it is the oracle, so clarity beats speed.
// Templated on the sample type S: uint8_t, or uint16_t for 10-bit planes
// ("High bit depth": every pass clips to [0, maxv] instead of [0, 255]).
#include <algorithm>

#include "daedalus/mc.h"

namespace daedalus {
namespace {

// in(x, y) with the coordinates clamped into the plane.
template <class S>
int in(const ConstPlane& src, int x, int y) {
  return sample_value<S>(src, std::clamp(x, 0, src.width - 1),
                         std::clamp(y, 0, src.height - 1));
}

int taps8(const int16_t* f, const int v[8], int maxv) {
  int sum = 0;
  for (int k = 0; k < 8; k++) sum += f[k] * v[k];
  return std::clamp((sum + 64) >> 7, 0, maxv);
}

template <class S>
int horizontal8(const ConstPlane& src, const int16_t* f, int cx, int cy) {
  int v[8];
  for (int k = 0; k < 8; k++) v[k] = in<S>(src, cx + k - 3, cy);
  return taps8(f, v, src.max_value());
}

template <class S>
int vertical8(const ConstPlane& src, const int16_t* f, int cx, int cy) {
  int v[8];
  for (int k = 0; k < 8; k++) v[k] = in<S>(src, cx, cy + k - 3);
  return taps8(f, v, src.max_value());
}

template <class S>
int sample_8tap(const ConstPlane& src, const int16_t (*bank)[8],
                const McPlaneShift& s, int x, int y) {
  const int cx = x + s.ix, cy = y + s.iy;
  if (s.fx == 0 && s.fy == 0) return in<S>(src, cx, cy);
  if (s.fy == 0) return horizontal8<S>(src, bank[s.fx], cx, cy);
  if (s.fx == 0) return vertical8<S>(src, bank[s.fy], cx, cy);
  // Two passes, as VP9's put_8tap: each horizontal result is clipped to
  // the bit depth before the vertical filter sees it.
  int mid[8];
  for (int k = 0; k < 8; k++)
    mid[k] = horizontal8<S>(src, bank[s.fx], cx, cy + k - 3);
  return taps8(bank[s.fy], mid, src.max_value());
}

int lerp16(int a, int b, int f) { return a + ((f * (b - a) + 8) >> 4); }

// The horizontal result lies between a and b, so it is already within
// [0, maxv]: the clip the spec asks of both passes changes nothing.
template <class S>
int sample_bilinear(const ConstPlane& src, const McPlaneShift& s, int x,
                    int y) {
  const int cx = x + s.ix, cy = y + s.iy;
  auto row = [&](int r) {
    const int a = in<S>(src, cx, r);
    return s.fx == 0 ? a : lerp16(a, in<S>(src, cx + 1, r), s.fx);
  };
  if (s.fy == 0) return row(cy);
  return lerp16(row(cy), row(cy + 1), s.fy);
}

template <class S>
void mc_rows_ref(const Plane& dst, const ConstPlane& src,
                 const McPlaneShift& shift, McFilter filter, int y_begin,
                 int y_end) {
  for (int y = y_begin; y < y_end; y++)
    for (int x = 0; x < dst.width; x++)
      set_sample_value<S>(
          dst, x, y,
          filter == McFilter::Bilinear
              ? sample_bilinear<S>(src, shift, x, y)
              : sample_8tap<S>(src, kVp9Filters[static_cast<int>(filter)],
                               shift, x, y));
}

}  // namespace

// Kept beside the function it installs, as dav1d's *_tmpl.c init does.
void mc_dsp_init_ref(McDsp* dsp) {
  dsp->rows = mc_rows_ref<uint8_t>;
  dsp->rows_hbd = mc_rows_ref<uint16_t>;
}

}  // namespace daedalus
