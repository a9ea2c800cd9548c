// What the CDEF scalar reference tests share: images, the reference DSP
// table, and an oracle composed from the block functions.
#pragma once

#include "daedalus/cdef.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "test_util.h"

namespace daedalus::cdef_test {

constexpr int kPad = 3;

inline CdefDsp ref_dsp() {
  CdefDsp dsp;
  cdef_dsp_init_ref(&dsp);
  return dsp;
}

inline Image flat(int w, int h, uint8_t value) {
  Image image(PixelFormat::GRAY8, w, h, kPad);
  test::fill(image, [value](int, int, int) { return value; });
  return image;
}

// Image is not copyable (its views point into its own bytes): build a twin.
inline Image clone(const Image& src) {
  Image out(src.format(), src.width(), src.height(), kPad);
  const ConstFrame f = src.frame();
  test::fill(out, [&](int p, int x, int y) { return f.planes[p].at(x, y); });
  return out;
}

inline uint8_t& at(Image& image, int x, int y, int p = 0) {
  return image.frame().planes[p].at(x, y);
}
inline int at(const Image& image, int x, int y, int p = 0) {
  return image.frame().planes[p].at(x, y);
}

inline void filter(Image& dst, const Image& src, int x, int y, int w, int h,
                   const CdefBlockParams& bp) {
  cdef_filter_block_ref(dst.frame().planes[0], src.frame().planes[0], x, y, w,
                        h, bp);
}

inline Image run_cdef(const Image& src, const CdefParams& params) {
  Image dst(src.format(), src.width(), src.height(), kPad);
  test::fill(dst, [](int, int, int) { return uint8_t(0x5A); });
  cdef_frame(ref_dsp(), dst.frame(), src.frame(), params);
  return dst;
}

inline void fill_content(Image& image, std::mt19937& gen, int kind) {
  switch (kind % 3) {
    case 0:
      test::fill_random(image, gen);
      break;
    case 1:
      test::fill_near(image, gen, 128, 6);
      break;
    default:
      test::fill_near(image, gen, 60, 24);
      break;
  }
}

// docs/spec.md "Blocks" and "Direction and variance", composed independently
// of the block-rows function: every block is filtered (strength 0 included)
// and the direction is always searched.
inline Image expected_cdef(const Image& src, const CdefParams& prm) {
  Image out = clone(src);
  const ConstFrame s = src.frame();
  const Frame o = out.frame();
  auto sec = [](int v) { return v == 3 ? 4 : v; };
  const int sx = s.chroma_shift_x, sy = s.chroma_shift_y;
  for (int y = 0; y + 8 <= src.height(); y += 8) {
    for (int x = 0; x + 8 <= src.width(); x += 8) {
      int var = 0;
      const int dir = cdef_find_dir_ref(s.planes[0], x, y, &var);
      cdef_filter_block_ref(
          o.planes[0], s.planes[0], x, y, 8, 8,
          {cdef_adjust_strength(prm.pri_strength, var), sec(prm.sec_strength),
           prm.pri_strength ? dir : 0, prm.damping});
      const int uv_dir = (sx == 1 && sy == 0) ? kCdefDir422[dir] : dir;
      for (int p = 1; p < s.num_planes; p++) {
        const int cx = x >> sx, cy = y >> sy, cw = 8 >> sx, ch = 8 >> sy;
        if (cx + cw > s.planes[p].width || cy + ch > s.planes[p].height)
          continue;
        cdef_filter_block_ref(
            o.planes[p], s.planes[p], cx, cy, cw, ch,
            {prm.uv_pri_strength, sec(prm.uv_sec_strength),
             prm.uv_pri_strength ? uv_dir : 0, prm.damping - 1});
      }
    }
  }
  return out;
}

// Every tap lies within 2 samples in x and y: the output of any sample must
// lie within the range of its available 5x5 neighbourhood.
inline void expect_within_window(const Image& src, const Image& out) {
  const ConstFrame s = src.frame(), o = out.frame();
  for (int p = 0; p < s.num_planes; p++) {
    const ConstPlane& sp = s.planes[p];
    for (int y = 0; y < sp.height; y++) {
      for (int x = 0; x < sp.width; x++) {
        int lo = 255, hi = 0;
        for (int ty = std::max(0, y - 2); ty <= std::min(sp.height - 1, y + 2);
             ty++)
          for (int tx = std::max(0, x - 2); tx <= std::min(sp.width - 1, x + 2);
               tx++) {
            lo = std::min<int>(lo, sp.at(tx, ty));
            hi = std::max<int>(hi, sp.at(tx, ty));
          }
        const int v = o.planes[p].at(x, y);
        ASSERT_TRUE(v >= lo && v <= hi)
            << "plane " << p << " (" << x << ", " << y << "): " << v
            << " outside [" << lo << ", " << hi << "]";
      }
    }
  }
}

// A 24x24 plane of 128 with impulses; the 8x8 block at (8, 8) is filtered
// and c = (12, 12) is looked at.
constexpr int kC = 12;

struct Impulse {
  int dy, dx, delta;
};

inline Image impulses(const std::vector<Impulse>& list) {
  Image image = flat(24, 24, 128);
  for (const Impulse& i : list)
    at(image, kC + i.dx, kC + i.dy) = uint8_t(128 + i.delta);
  return image;
}

inline Image filter_center_block(const Image& src, const CdefBlockParams& bp) {
  Image dst = clone(src);
  filter(dst, src, 8, 8, 8, 8, bp);
  return dst;
}

// Samples of the block whose 5x5 window holds no impulse stay 128.
inline void expect_untouched_far_from(const Image& out,
                                      const std::vector<Impulse>& list) {
  for (int y = 8; y < 16; y++)
    for (int x = 8; x < 16; x++) {
      bool near = false;
      for (const Impulse& i : list)
        near |=
            std::abs(x - (kC + i.dx)) <= 2 && std::abs(y - (kC + i.dy)) <= 2;
      if (!near) {
        ASSERT_EQ(at(out, x, y), 128) << x << "," << y;
      }
    }
}

enum class Tap { Pri, SecPlus2, SecMinus2 };

}  // namespace daedalus::cdef_test
