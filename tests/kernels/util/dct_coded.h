// A plane as a DCT coder at qp q leaves it, for the damage estimator's
// quantiser probe tests (kernel and element suites): each 8x8 block of the
// grid at (ox, oy) forward transformed (mode=dct's transform), its AC
// coefficients quantised with a step one more than mode=dct's threshold
// for q (those at or under it become 0, a decoder's dead zone), and
// transformed back with VP9's inverse around 128.
#pragma once

#include <algorithm>
#include <cstdint>

#include "daedalus/dct8.h"
#include "daedalus/frame.h"

namespace daedalus::test {

inline void code_like_a_dct_coder(const Plane& y, int q, int ox, int oy) {
  const int step = dct_threshold(q) + 1;
  for (int by = oy; by + 8 <= y.height; by += 8) {
    for (int bx = ox; bx + 8 <= y.width; bx += 8) {
      int16_t c[64], res[64];
      dct8x8_forward(y.row(by) + bx, y.stride, c);
      for (int i = 1; i < 64; i++) c[i] = int16_t(c[i] / step * step);
      vp9_idct8x8(c, res);
      for (int i = 0; i < 64; i++)
        y.at(bx + i % 8, by + i / 8) =
            uint8_t(std::clamp(128 + res[i], 0, 255));
    }
  }
}

// Only the blocks (i, j) of the grid at (ox, oy) with (37 i + 91 j) mod 64
// < `share` coded so, spread over the picture; the rest as it was: a
// picture whose coder's zeros are as sparse as wanted (share 64: all).
inline void code_some_blocks(const Plane& y, int q, int ox, int oy, int share) {
  for (int j = 0; oy + 8 * j + 8 <= y.height; j++) {
    for (int i = 0; ox + 8 * i + 8 <= y.width; i++) {
      if ((37 * i + 91 * j) % 64 >= share) continue;
      Plane block = y;
      block.data = &y.at(ox + 8 * i, oy + 8 * j);
      block.width = block.height = 8;
      code_like_a_dct_coder(block, q, 0, 0);
    }
  }
}

}  // namespace daedalus::test
