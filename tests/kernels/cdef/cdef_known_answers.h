// A CDEF result worked by hand from the spec (CdefFrame.StripesKnownAnswer
// in cdef_frame_test.cc shows the working), checked against the scalar
// reference and every SIMD target.
#pragma once

#include <cstdint>

#include "daedalus/image.h"
#include "test_util.h"

namespace daedalus::test {

// 8x8 GRAY8, rows 0-3 = 130, rows 4-7 = 126.
inline void fill_stripes(Image& image) {
  fill(image, [](int, int, int y) { return y < 4 ? 130 : 126; });
}

// Its output at pri 4 (adjusted to 1, along the rows: no effect), sec 4
// (or 3, which acts as 4), damping 6.
inline constexpr uint8_t kStripesFiltered[8][8] = {
    {130, 130, 130, 130, 130, 130, 130, 130},
    {130, 130, 130, 130, 130, 130, 130, 130},
    {130, 130, 129, 129, 129, 129, 130, 130},
    {129, 129, 128, 128, 128, 128, 129, 129},
    {127, 127, 128, 128, 128, 128, 127, 127},
    {126, 126, 127, 127, 127, 127, 126, 126},
    {126, 126, 126, 126, 126, 126, 126, 126},
    {126, 126, 126, 126, 126, 126, 126, 126}};

}  // namespace daedalus::test
