// The scalar reference's view of one line of samples across a deblocking
// edge (deblock_ref.cc, deblock_vp9_ref.cc), at either bit depth.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace daedalus {

// Sample i (signed; q0 at 0, p0 at -1) of a line whose q0 is at `q`, `d`
// bytes from one sample to the next across the edge. S is the sample type:
// uint8_t, or uint16_t for 10-bit words holding the value in bits
// [lsb, lsb + 10) (frame.h), of which get() reads the value alone and set()
// writes it with the other bits 0.
template <class S>
struct SampleLine {
  uint8_t* q;
  ptrdiff_t d;
  int lsb = 0;
  int max = 255;

  int get(int i) const {
    if constexpr (sizeof(S) == 1) {
      return q[i * d];
    } else {
      uint16_t word;
      std::memcpy(&word, q + i * d, 2);
      return (word >> lsb) & max;
    }
  }
  void set(int i, int v) const {
    if constexpr (sizeof(S) == 1) {
      q[i * d] = uint8_t(v);
    } else {
      const uint16_t word = uint16_t(v << lsb);
      std::memcpy(q + i * d, &word, 2);
    }
  }
};

}  // namespace daedalus
