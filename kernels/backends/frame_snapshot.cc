#include "backends/frame_snapshot.h"

#include <cstring>

namespace daedalus {
namespace {

// The bytes of a row from its first sample to its last: the samples, and
// between them those of an interleaved neighbour.
template <class T>
size_t row_bytes(const PlaneView<T>& plane) {
  if (plane.width <= 0 || plane.height <= 0) return 0;
  return size_t(plane.width - 1) * plane.step + plane.bytes_per_sample();
}

}  // namespace

FrameSnapshot::FrameSnapshot(const ConstFrame& frame) {
  for (int p = 0; p < frame.num_planes; p++) {
    const ConstPlane& plane = frame.planes[p];
    const size_t row = row_bytes(plane);
    planes_[p].resize(row * (row ? plane.height : 0));
    for (int y = 0; row && y < plane.height; y++)
      std::memcpy(planes_[p].data() + y * row, plane.row(y), row);
  }
}

void FrameSnapshot::restore(const Frame& frame) const {
  for (int p = 0; p < frame.num_planes; p++) {
    const Plane& plane = frame.planes[p];
    const size_t row = row_bytes(plane);
    for (int y = 0; row && y < plane.height; y++)
      std::memcpy(plane.row(y), planes_[p].data() + y * row, row);
  }
}

}  // namespace daedalus
