// Glue between GstSample and the kernel library for the demo.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <string>

#include "daedalus/frame.h"

namespace daedalus::demo {

// A sample's first buffer mapped for reading; unmapped when destroyed.
class MappedSample {
 public:
  explicit MappedSample(GstSample* sample);
  ~MappedSample();
  MappedSample(const MappedSample&) = delete;
  MappedSample& operator=(const MappedSample&) = delete;

  bool valid() const { return mapped_; }
  ConstFrame frame() const;

 private:
  GstVideoFrame video_frame_{};
  bool mapped_ = false;
};

// A new I420 sample holding `left` and `right` (I420, the same size) side
// by side; null when they are not such samples.
GstSample* side_by_side(GstSample* left, GstSample* right);

// Encodes the sample as PNG into `path`; returns false and says why on error.
bool write_png(GstSample* sample, const std::string& path, std::string* error);

}  // namespace daedalus::demo
