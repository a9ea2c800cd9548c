// The scalar reference of CDEF, written after AV1 spec 7.15: the oracle every
// other implementation must match.
#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>

#include "daedalus/cdef.h"

namespace daedalus {
namespace {

int floor_log2(int v) { return int(std::bit_width(unsigned(v))) - 1; }

int constrain(int diff, int threshold, int shift) {
  const int mag = std::min(std::abs(diff),
                           std::max(0, threshold - (std::abs(diff) >> shift)));
  return diff < 0 ? -mag : mag;
}

// The direction search on the samples px(i, j) (row i, column j) of an 8x8
// block, their top 8 bits.
template <class Px>
int find_dir(Px px, int* var) {
  // Line sums of the block along each direction; line n of direction d holds
  // count(d, n) samples, and cost(d) = sum over lines of 840 * sum^2 / count.
  static const int kDiv[9] = {0, 840, 420, 280, 210, 168, 140, 120, 105};
  int partial[8][15] = {};
  for (int i = 0; i < 8; i++) {
    for (int j = 0; j < 8; j++) {
      const int v = px(i, j) - 128;
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

// Filters the w x h block of the samples at(i, j) (row i, column j of the
// block; -1 where unavailable: outside the plane) of bit depth 8 + cs,
// writing them with put(i, j, value).
template <class At, class Put>
void filter_block(At at, Put put, int w, int h, int cs,
                  const CdefBlockParams& params) {
  const int parity = (params.pri >> cs) & 1;
  const int pri_taps[2] = {4 - parity, ((4 - parity) & 3) | 2};
  const int sec_taps[2] = {2, 1};
  const int pri_shift =
      params.pri ? std::max(0, params.damping - floor_log2(params.pri)) : 0;
  const int sec_shift =
      params.sec ? std::max(0, params.damping - floor_log2(params.sec)) : 0;

  for (int i = 0; i < h; i++) {
    for (int j = 0; j < w; j++) {
      const int px = at(i, j);
      int sum = 0, lo = px, hi = px;
      auto tap = [&](int dir, int k, int sign, int strength, int shift,
                     int weight) {
        const int v = at(i + sign * kCdefDirections[dir][k][0],
                         j + sign * kCdefDirections[dir][k][1]);
        if (v < 0) return;
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
      put(i, j, std::clamp(px + ((8 + sum - (sum < 0)) >> 4), lo, hi));
    }
  }
}

// ------------------------------------------- the leaves on staged samples

template <class S>
void stage(const ConstPlane& p, int x, int y, int n, int rows, int pitch,
           uint16_t* out) {
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < n; c++) {
      const bool in =
          x + c >= 0 && x + c < p.width && y + r >= 0 && y + r < p.height;
      out[r * pitch + c] =
          in ? uint16_t(sample_value<S>(p, x + c, y + r)) : kCdefUnavailable;
    }
}

template <int kCs>
void find_dirs(const uint16_t* rows, int n, uint8_t* dir, int* var) {
  for (int b = 0; b < n; b++)
    dir[b] = uint8_t(find_dir(
        [&](int i, int j) { return rows[i * kCdefPitch + 8 * b + j] >> kCs; },
        &var[b]));
}

template <class S, int kW, int kH, int kPlanes>
void filter_staged(const CdefBlocks& b) {
  constexpr int kCs = sizeof(S) == 1 ? 0 : 2;
  for (int k = 0; k < b.n; k++)
    for (int p = 0; p < kPlanes; p++) {
      const uint16_t* src = b.src[p] + kW * k;
      uint8_t* dst = b.dst[p] + ptrdiff_t(kW) * k * b.step[p];
      auto at = [&](int i, int j) {
        const uint16_t v = src[i * b.pitch + j];
        return v == kCdefUnavailable ? -1 : int(v);
      };
      auto put = [&](int i, int j, int v) {
        const S sample = S(v << (sizeof(S) == 1 ? 0 : b.lsb));
        std::memcpy(dst + i * b.stride[p] + j * b.step[p], &sample, sizeof(S));
      };
      filter_block(at, put, kW, kH, kCs,
                   {b.pri[k], b.sec, b.dir[k], b.damping});
    }
}

template <class S>
constexpr CdefLeaves leaves() {
  constexpr int kCs = sizeof(S) == 1 ? 0 : 2;
  CdefLeaves l;
  l.stage = stage<S>;
  l.find_dirs = find_dirs<kCs>;
  l.filter[kCdef8x8] = filter_staged<S, 8, 8, 1>;
  l.filter[kCdef4x8Pair] = filter_staged<S, 4, 8, 2>;
  l.filter[kCdef4x4Pair] = filter_staged<S, 4, 4, 2>;
  return l;
}

}  // namespace

int cdef_find_dir_ref(const ConstPlane& plane, int x, int y, int* var) {
  const int cs = plane.bit_depth - 8;
  return find_dir(
      [&](int i, int j) { return value_at(plane, x + j, y + i) >> cs; }, var);
}

void cdef_filter_block_ref(const Plane& dst, const ConstPlane& src, int x,
                           int y, int w, int h, const CdefBlockParams& params) {
  auto at = [&](int i, int j) {
    const int tx = x + j, ty = y + i;
    if (tx < 0 || ty < 0 || tx >= src.width || ty >= src.height) return -1;
    return value_at(src, tx, ty);
  };
  auto put = [&](int i, int j, int v) { set_value_at(dst, x + j, y + i, v); };
  filter_block(at, put, w, h, src.bit_depth - 8, params);
}

void cdef_dsp_init_ref(CdefDsp* dsp) {
  dsp->bd8 = leaves<uint8_t>();
  dsp->bd10 = leaves<uint16_t>();
}

}  // namespace daedalus
