// The scalar reference of deblock mode=dct: each block of each shift that
// meets the rows, transformed, thresholded and reconstructed as
// docs/spec.md says, its samples summed per output sample.
#include "deblock_dct_ref.h"

#include <algorithm>
#include <vector>

#include "daedalus/dct8.h"

namespace daedalus {
namespace {

// The reconstruction Q of the block with top-left corner (bx, by).
void reconstruct(const ConstPlane& src, int bx, int by, int threshold,
                 uint8_t q[64]) {
  uint8_t block[64];
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++)
      block[8 * i + j] =
          src.at(dct_refl(bx + j, src.width), dct_refl(by + i, src.height));
  int16_t c[64], y[64];
  dct8x8_forward(block, 8, c);
  dct8x8_threshold(c, threshold);
  vp9_idct8x8(c, y);
  for (int i = 0; i < 64; i++) q[i] = uint8_t(std::clamp(128 + y[i], 0, 255));
}

// The first block corner at or before t on a grid of offset s: s + 8i.
int block_start(int t, int s) { return t - (((t - s) % 8) + 8) % 8; }

}  // namespace

void dct_rows_ref(const ConstPlane& src, const Plane& dst,
                  const DeblockPlaneParams& pp, int y_begin, int y_end) {
  if (y_begin >= y_end || dst.width == 0) return;
  const int w = dst.width, n = pp.dct_shifts;
  std::vector<int> sum(size_t(w) * (y_end - y_begin), 0);
  for (int k = 0; k < n; k++) {
    int sx, sy;
    dct_shift(n, k, &sx, &sy);
    for (int by = block_start(y_begin, sy); by < y_end; by += 8)
      for (int bx = block_start(0, sx); bx < w; bx += 8) {
        uint8_t q[64];
        reconstruct(src, bx, by, pp.dct_threshold, q);
        for (int i = std::max(by, y_begin); i < std::min(by + 8, y_end); i++)
          for (int j = std::max(bx, 0); j < std::min(bx + 8, w); j++)
            sum[size_t(i - y_begin) * w + j] += q[8 * (i - by) + (j - bx)];
      }
  }
  int log2n = 0;
  while ((1 << log2n) < n) log2n++;
  for (int y = y_begin; y < y_end; y++)
    for (int x = 0; x < w; x++)
      dst.at(x, y) =
          uint8_t((sum[size_t(y - y_begin) * w + x] + n / 2) >> log2n);
}

}  // namespace daedalus
