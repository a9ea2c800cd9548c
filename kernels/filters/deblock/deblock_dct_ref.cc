// The scalar reference of deblock mode=dct: each block of each shift that
// meets the rows, transformed, thresholded and reconstructed as
// docs/spec.md says (at 10 bits as "High bit depth" says), its samples
// summed per output sample.
#include "deblock_dct_ref.h"

#include <algorithm>
#include <vector>

#include "daedalus/dct8.h"

namespace daedalus {
namespace {

// The reconstruction Q of the block with top-left corner (bx, by), with the
// threshold at the plane's depth.
template <class S>
void reconstruct(const ConstPlane& src, int bx, int by, int threshold,
                 int q[64]) {
  S block[64];
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++)
      block[8 * i + j] = S(sample_value<S>(src, dct_refl(bx + j, src.width),
                                           dct_refl(by + i, src.height)));
  DctCoef<S> c[64], y[64];
  dct8x8_forward(block, 8, c, src.bit_depth);
  dct8x8_threshold(c, threshold);
  vp9_idct8x8(c, y, src.bit_depth);
  const int mid = 128 << (src.bit_depth - 8);
  for (int i = 0; i < 64; i++)
    q[i] = std::clamp(mid + int(y[i]), 0, src.max_value());
}

// The first block corner at or before t on a grid of offset s: s + 8i.
int block_start(int t, int s) { return t - (((t - s) % 8) + 8) % 8; }

}  // namespace

template <class S>
void dct_add_shift_ref(const ConstPlane& src, int sx, int sy, int threshold,
                       int y_begin, int y_end, int* sum) {
  const int w = src.width;
  for (int by = block_start(y_begin, sy); by < y_end; by += 8)
    for (int bx = block_start(0, sx); bx < w; bx += 8) {
      int q[64];
      reconstruct<S>(src, bx, by, threshold, q);
      for (int i = std::max(by, y_begin); i < std::min(by + 8, y_end); i++)
        for (int j = std::max(bx, 0); j < std::min(bx + 8, w); j++)
          sum[size_t(i - y_begin) * w + j] += q[8 * (i - by) + (j - bx)];
    }
}
template void dct_add_shift_ref<uint8_t>(const ConstPlane&, int, int, int, int,
                                         int, int*);
template void dct_add_shift_ref<uint16_t>(const ConstPlane&, int, int, int, int,
                                          int, int*);

template <class S>
void dct_rows_ref(const ConstPlane& src, const Plane& dst,
                  const DeblockPlaneParams& params, int y_begin, int y_end) {
  if (y_begin >= y_end || dst.width == 0) return;
  const DeblockPlaneParams pp =
      deblock_plane_params_at_depth(params, src.bit_depth);
  const int w = dst.width, n = pp.dct_shifts;
  std::vector<int> sum(size_t(w) * (y_end - y_begin), 0);
  for (int k = 0; k < n; k++) {
    int sx, sy;
    dct_shift(n, k, &sx, &sy);
    dct_add_shift_ref<S>(src, sx, sy, pp.dct_threshold, y_begin, y_end,
                         sum.data());
  }
  int log2n = 0;
  while ((1 << log2n) < n) log2n++;
  // Every sample of the rows is written (at 10 bits, its other bits 0).
  for (int y = y_begin; y < y_end; y++)
    for (int x = 0; x < w; x++)
      set_sample_value<S>(dst, x, y,
                          (sum[size_t(y - y_begin) * w + x] + n / 2) >> log2n);
}
template void dct_rows_ref<uint8_t>(const ConstPlane&, const Plane&,
                                    const DeblockPlaneParams&, int, int);
template void dct_rows_ref<uint16_t>(const ConstPlane&, const Plane&,
                                     const DeblockPlaneParams&, int, int);

}  // namespace daedalus
