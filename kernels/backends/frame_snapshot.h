// A frame's samples kept aside, to put back into it: what the fallback
// (backend_fallback.h) redoes an in-place frame from when the backend that
// failed may have written part of it.
#pragma once

#include <cstdint>
#include <vector>

#include "daedalus/frame.h"

namespace daedalus {

class FrameSnapshot {
 public:
  // Copies the bytes of every sample of every plane (an interleaved pair's
  // rows twice), never the row padding.
  explicit FrameSnapshot(const ConstFrame& frame);

  // Writes the samples back into `frame`, of the same planes and sizes as
  // the frame copied.
  void restore(const Frame& frame) const;

 private:
  std::vector<uint8_t> planes_[3];
};

}  // namespace daedalus
