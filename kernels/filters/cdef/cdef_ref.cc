// The scalar reference of CDEF, written after AV1 spec 7.15: the oracle every
// other implementation must match.
#include <algorithm>
#include <bit>
#include <cstdlib>

#include "daedalus/cdef.h"

namespace daedalus {
namespace {

int floor_log2(int v) { return int(std::bit_width(unsigned(v))) - 1; }

int constrain(int diff, int threshold, int shift) {
  const int mag = std::min(std::abs(diff),
                           std::max(0, threshold - (std::abs(diff) >> shift)));
  return diff < 0 ? -mag : mag;
}

template <class S>
void copy_rows(const Plane& dst, const ConstPlane& src, int y_begin,
               int y_end) {
  for (int y = y_begin; y < y_end; y++)
    for (int x = 0; x < src.width; x++)
      set_sample_value<S>(dst, x, y, sample_value<S>(src, x, y));
}

int effective_sec(int sec) { return sec == 3 ? 4 : sec; }

template <class S>
int find_dir(const ConstPlane& plane, int x, int y, int* var);
template <class S>
void filter_block(const Plane& dst, const ConstPlane& src, int x, int y, int w,
                  int h, const CdefBlockParams& params);

// S: the sample type, uint8_t or uint16_t (docs/spec.md "High bit depth":
// strengths and damping shifted by cs).
template <class S>
void cdef_block_rows_ref(const Frame& dst, const ConstFrame& src,
                         const CdefParams& params, int by_begin, int by_end) {
  const ConstPlane& luma = src.planes[0];
  const int sx = src.chroma_shift_x, sy = src.chroma_shift_y;
  const int cs = src.bit_depth() - 8;
  const bool want_dir = params.pri_strength > 0 || params.uv_pri_strength > 0;
  const bool dir422 = sx == 1 && sy == 0;
  const int sec = effective_sec(params.sec_strength) << cs;
  const int uv_sec = effective_sec(params.uv_sec_strength) << cs;

  for (int by = by_begin; by < by_end; by++) {
    const int y0 = 8 * by;
    copy_rows<S>(dst.planes[0], luma, y0, std::min(y0 + 8, luma.height));
    for (int p = 1; p < src.num_planes; p++)
      copy_rows<S>(dst.planes[p], src.planes[p], y0 >> sy,
                   std::min((y0 + 8) >> sy, src.planes[p].height));
    if (y0 + 8 > luma.height) continue;

    for (int x0 = 0; x0 + 8 <= luma.width; x0 += 8) {
      int dir = 0, var = 0;
      if (want_dir) dir = find_dir<S>(luma, x0, y0, &var);

      const CdefBlockParams yp = {
          cdef_adjust_strength(params.pri_strength << cs, var), sec,
          params.pri_strength > 0 ? dir : 0, params.damping + cs};
      if (yp.pri || yp.sec)
        filter_block<S>(dst.planes[0], luma, x0, y0, 8, 8, yp);

      if (src.num_planes == 1) continue;
      const int uv_dir = dir422 ? kCdefDir422[dir] : dir;
      const CdefBlockParams uvp = {params.uv_pri_strength << cs, uv_sec,
                                   params.uv_pri_strength > 0 ? uv_dir : 0,
                                   params.damping - 1 + cs};
      if (!uvp.pri && !uvp.sec) continue;
      const int cx = x0 >> sx, cy = y0 >> sy, cw = 8 >> sx, ch = 8 >> sy;
      for (int p = 1; p < src.num_planes; p++) {
        const ConstPlane& c = src.planes[p];
        if (cx + cw <= c.width && cy + ch <= c.height)
          filter_block<S>(dst.planes[p], c, cx, cy, cw, ch, uvp);
      }
    }
  }
}

template <class S>
int find_dir(const ConstPlane& plane, int x, int y, int* var) {
  const int cs = plane.bit_depth - 8;
  // Line sums of the block along each direction; line n of direction d holds
  // count(d, n) samples, and cost(d) = sum over lines of 840 * sum^2 / count.
  static const int kDiv[9] = {0, 840, 420, 280, 210, 168, 140, 120, 105};
  int partial[8][15] = {};
  for (int i = 0; i < 8; i++) {
    for (int j = 0; j < 8; j++) {
      const int v = (sample_value<S>(plane, x + j, y + i) >> cs) - 128;
      partial[0][i + j] += v;
      partial[1][i + j / 2] += v;
      partial[2][i] += v;
      partial[3][3 + i - j / 2] += v;
      partial[4][7 + i - j] += v;
      partial[5][3 - i / 2 + j] += v;
      partial[6][j] += v;
      partial[7][i / 2 + j] += v;
    }
  }

  int cost[8] = {};
  for (int n = 0; n < 8; n++) {
    cost[2] += partial[2][n] * partial[2][n] * kDiv[8];
    cost[6] += partial[6][n] * partial[6][n] * kDiv[8];
  }
  for (int d = 0; d <= 4; d += 4) {
    for (int n = 0; n < 15; n++)
      cost[d] += partial[d][n] * partial[d][n] * kDiv[n < 8 ? n + 1 : 15 - n];
  }
  for (int d = 1; d < 8; d += 2) {
    for (int n = 0; n < 11; n++) {
      const int count = n < 3 ? 2 * n + 2 : (n > 7 ? 2 * (10 - n) + 2 : 8);
      cost[d] += partial[d][n] * partial[d][n] * kDiv[count];
    }
  }

  int best_dir = 0, best_cost = 0;
  for (int d = 0; d < 8; d++) {
    if (cost[d] > best_cost) {
      best_cost = cost[d];
      best_dir = d;
    }
  }
  // The gain over the orthogonal direction, divided by 1024 instead of 840.
  *var = (best_cost - cost[(best_dir + 4) & 7]) >> 10;
  return best_dir;
}

template <class S>
void filter_block(const Plane& dst, const ConstPlane& src, int x, int y, int w,
                  int h, const CdefBlockParams& params) {
  const int parity = (params.pri >> (src.bit_depth - 8)) & 1;
  const int pri_taps[2] = {4 - parity, ((4 - parity) & 3) | 2};
  const int sec_taps[2] = {2, 1};
  const int pri_shift =
      params.pri ? std::max(0, params.damping - floor_log2(params.pri)) : 0;
  const int sec_shift =
      params.sec ? std::max(0, params.damping - floor_log2(params.sec)) : 0;

  for (int i = y; i < y + h; i++) {
    for (int j = x; j < x + w; j++) {
      const int px = sample_value<S>(src, j, i);
      int sum = 0, lo = px, hi = px;
      auto tap = [&](int dir, int k, int sign, int strength, int shift,
                     int weight) {
        const int ty = i + sign * kCdefDirections[dir][k][0];
        const int tx = j + sign * kCdefDirections[dir][k][1];
        if (tx < 0 || ty < 0 || tx >= src.width || ty >= src.height) return;
        const int v = sample_value<S>(src, tx, ty);
        sum += weight * constrain(v - px, strength, shift);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      };
      for (int k = 0; k < 2; k++) {
        for (int sign = -1; sign <= 1; sign += 2) {
          if (params.pri)
            tap(params.dir, k, sign, params.pri, pri_shift, pri_taps[k]);
          if (params.sec) {
            tap((params.dir + 2) & 7, k, sign, params.sec, sec_shift,
                sec_taps[k]);
            tap((params.dir + 6) & 7, k, sign, params.sec, sec_shift,
                sec_taps[k]);
          }
        }
      }
      set_sample_value<S>(
          dst, j, i, std::clamp(px + ((8 + sum - (sum < 0)) >> 4), lo, hi));
    }
  }
}

}  // namespace

int cdef_find_dir_ref(const ConstPlane& plane, int x, int y, int* var) {
  return plane.bit_depth > 8 ? find_dir<uint16_t>(plane, x, y, var)
                             : find_dir<uint8_t>(plane, x, y, var);
}

void cdef_filter_block_ref(const Plane& dst, const ConstPlane& src, int x,
                           int y, int w, int h, const CdefBlockParams& params) {
  if (src.bit_depth > 8)
    filter_block<uint16_t>(dst, src, x, y, w, h, params);
  else
    filter_block<uint8_t>(dst, src, x, y, w, h, params);
}

void cdef_dsp_init_ref(CdefDsp* dsp) {
  dsp->block_rows = cdef_block_rows_ref<uint8_t>;
  dsp->block_rows_hbd = cdef_block_rows_ref<uint16_t>;
}

}  // namespace daedalus
