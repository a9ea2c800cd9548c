// Views of 8-bit video frames, the currency of every kernel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace daedalus {

// One 8-bit plane: `width` x `height` samples. `stride` is the byte distance
// between rows (may be negative only if a caller insists; never assumed
// positive-only by the reference), `step` the byte distance between
// horizontally adjacent samples: 1 for planar data, 2 for one channel of an
// interleaved NV12/NV21 chroma plane. Bytes of a row beyond the last sample
// are padding that no kernel reads or writes.
template <class T>
struct PlaneView {
  T* data = nullptr;
  ptrdiff_t stride = 0;
  int width = 0;
  int height = 0;
  int step = 1;

  T* row(int y) const { return data + y * stride; }
  T& at(int x, int y) const { return data[y * stride + x * step]; }

  // A writable view converts to a read-only one, never the other way.
  operator PlaneView<const T>() const
    requires(!std::is_const_v<T>)
  {
    return {data, stride, width, height, step};
  }
};

using Plane = PlaneView<uint8_t>;
using ConstPlane = PlaneView<const uint8_t>;

// A frame: plane 0 is luma (or gray), planes 1 and 2 are chroma (U then V,
// whatever order the format stores them in). Chroma planes are subsampled by
// 1 << chroma_shift_x horizontally and 1 << chroma_shift_y vertically.
template <class T>
struct FrameView {
  PlaneView<T> planes[3];
  int num_planes = 1;  // 1 (gray) or 3
  int chroma_shift_x = 0;
  int chroma_shift_y = 0;

  bool chroma_subsampled() const {
    return chroma_shift_x != 0 || chroma_shift_y != 0;
  }

  // Whether chroma planes 1 and 2 are the two channels of one interleaved
  // plane (NV12, NV21): step 2, the same rows, one byte apart. A vector load
  // of one channel reads the other's bytes too.
  bool chroma_interleaved() const {
    const PlaneView<T>& u = planes[1];
    const PlaneView<T>& v = planes[2];
    // On addresses: the planes may be separate objects as far as the
    // language knows.
    const uintptr_t d = reinterpret_cast<uintptr_t>(v.data) -
                        reinterpret_cast<uintptr_t>(u.data);
    return num_planes == 3 && u.step == 2 && v.step == 2 &&
           u.stride == v.stride && u.width == v.width && u.height == v.height &&
           (d == 1 || d == uintptr_t(-1));
  }

  operator FrameView<const T>() const
    requires(!std::is_const_v<T>)
  {
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
    field.planes[i].data = p.height > parity ? p.data + parity * p.stride
                                             : p.data;
    field.planes[i].stride = 2 * p.stride;
    field.planes[i].height = (p.height + 1 - parity) / 2;
  }
  return field;
}

}  // namespace daedalus
