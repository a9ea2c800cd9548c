// Views of video frames, the currency of every kernel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace daedalus {

// One plane: `width` x `height` samples. `stride` is the byte distance
// between rows (may be negative only if a caller insists; never assumed
// positive-only by the reference), `step` the byte distance between
// horizontally adjacent samples: the sample size for planar data, twice it
// for one channel of an interleaved NV12/NV21/P010 chroma plane. Bytes of a
// row beyond the last sample are padding that no kernel reads or writes.
//
// A sample of `bit_depth` 8 is a byte. Deeper samples (10) are little-endian
// 16-bit words holding the value in bits [lsb, lsb + bit_depth): lsb 0 for
// the *_10LE formats, 6 for P010; the other bits are ignored on reading and
// written as 0. `data`, `stride` and `step` of such a plane are even.
template <class T>
struct PlaneView {
  T* data = nullptr;
  ptrdiff_t stride = 0;
  int width = 0;
  int height = 0;
  int step = 1;
  int bit_depth = 8;
  int lsb = 0;

  T* row(int y) const { return data + y * stride; }
  // The sample's (first) byte.
  T& at(int x, int y) const { return data[y * stride + x * step]; }

  int bytes_per_sample() const { return bit_depth > 8 ? 2 : 1; }
  int max_value() const { return (1 << bit_depth) - 1; }

  // A writable view converts to a read-only one, never the other way.
  operator PlaneView<const T>() const requires(!std::is_const_v<T>) {
    return {data, stride, width, height, step, bit_depth, lsb};
  }
};

using Plane = PlaneView<uint8_t>;
using ConstPlane = PlaneView<const uint8_t>;

// Sample values of a plane whose samples are of type S: uint8_t (bit depth
// 8) or uint16_t (deeper). Kernels templated on S read and write through
// these; the 8-bit ones are the plain byte access.
template <class S, class T>
inline int sample_value(const PlaneView<T>& p, int x, int y) {
  if constexpr (sizeof(S) == 1) {
    return p.at(x, y);
  } else {
    uint16_t word;
    std::memcpy(&word, &p.at(x, y), 2);
    return (word >> p.lsb) & p.max_value();
  }
}

template <class S>
inline void set_sample_value(const Plane& p, int x, int y, int v) {
  if constexpr (sizeof(S) == 1) {
    p.at(x, y) = uint8_t(v);
  } else {
    const uint16_t word = uint16_t(v << p.lsb);
    std::memcpy(&p.at(x, y), &word, 2);
  }
}

// The same for a plane of any depth (tests, tools).
template <class T>
inline int value_at(const PlaneView<T>& p, int x, int y) {
  return p.bit_depth > 8 ? sample_value<uint16_t>(p, x, y)
                         : sample_value<uint8_t>(p, x, y);
}

inline void set_value_at(const Plane& p, int x, int y, int v) {
  if (p.bit_depth > 8)
    set_sample_value<uint16_t>(p, x, y, v);
  else
    set_sample_value<uint8_t>(p, x, y, v);
}

// A frame: plane 0 is luma (or gray), planes 1 and 2 are chroma (U then V,
// whatever order the format stores them in). Chroma planes are subsampled by
// 1 << chroma_shift_x horizontally and 1 << chroma_shift_y vertically.
template <class T>
struct FrameView {
  PlaneView<T> planes[3];
  int num_planes = 1;  // 1 (gray) or 3
  int chroma_shift_x = 0;
  int chroma_shift_y = 0;

  int bit_depth() const { return planes[0].bit_depth; }

  bool chroma_subsampled() const {
    return chroma_shift_x != 0 || chroma_shift_y != 0;
  }

  // Whether chroma planes 1 and 2 are the two channels of one interleaved
  // plane (NV12, NV21, P010): step twice the sample, the same rows, one
  // sample apart. A vector load of one channel reads the other's bytes too.
  bool chroma_interleaved() const {
    const PlaneView<T>& u = planes[1];
    const PlaneView<T>& v = planes[2];
    // On addresses: the planes may be separate objects as far as the
    // language knows.
    const uintptr_t d = reinterpret_cast<uintptr_t>(v.data) -
                        reinterpret_cast<uintptr_t>(u.data);
    const int size = u.bytes_per_sample();
    return num_planes == 3 && u.step == 2 * size && v.step == 2 * size &&
           u.stride == v.stride && u.width == v.width && u.height == v.height &&
           (d == uintptr_t(size) || d == uintptr_t(-size));
  }

  operator FrameView<const T>() const requires(!std::is_const_v<T>) {
    FrameView<const T> f;
    for (int i = 0; i < 3; i++) f.planes[i] = planes[i];
    f.num_planes = num_planes;
    f.chroma_shift_x = chroma_shift_x;
    f.chroma_shift_y = chroma_shift_y;
    return f;
  }
};

using Frame = FrameView<uint8_t>;
using ConstFrame = FrameView<const uint8_t>;

// One field of an interlaced frame as a picture of its own (docs/spec.md,
// "Interlaced video"): `parity` 0 takes rows 0, 2, 4, ... of every plane,
// 1 rows 1, 3, 5, ...; twice the stride, half the rows (rounded up for
// field 0, down for field 1, so a plane of one row has an empty field 1).
template <class T>
FrameView<T> field_of(const FrameView<T>& frame, int parity) {
  FrameView<T> field = frame;
  for (int i = 0; i < frame.num_planes; i++) {
    const PlaneView<T>& p = frame.planes[i];
    field.planes[i].data =
        p.height > parity ? p.data + parity * p.stride : p.data;
    field.planes[i].stride = 2 * p.stride;
    field.planes[i].height = (p.height + 1 - parity) / 2;
  }
  return field;
}

}  // namespace daedalus
