// Frames that own their memory: for tests, benchmarks and calibration trials.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "daedalus/frame.h"

namespace daedalus {

// Pixel formats (GStreamer names): the 8-bit ones every element accepts,
// and the 10-bit ones of docs/spec.md "High bit depth".
enum class PixelFormat {
  I420,
  YV12,
  Y42B,
  Y444,
  NV12,
  NV21,
  GRAY8,
  I420_10LE,
  I422_10LE,
  Y444_10LE,
  P010_10LE
};

inline constexpr PixelFormat kAllPixelFormats[] = {
    PixelFormat::I420, PixelFormat::YV12, PixelFormat::Y42B, PixelFormat::Y444,
    PixelFormat::NV12, PixelFormat::NV21, PixelFormat::GRAY8};

inline constexpr PixelFormat kTenBitPixelFormats[] = {
    PixelFormat::I420_10LE, PixelFormat::I422_10LE, PixelFormat::Y444_10LE,
    PixelFormat::P010_10LE};

std::string_view pixel_format_name(PixelFormat format);

// A frame in one allocation laid out like GStreamer lays the format out
// (10-bit samples as 16-bit words), with `row_padding` extra samples at the
// end of every row (bytes at 8 bits, words at 10: GStreamer's strides keep a
// 16-bit sample aligned, and kernels may rely on it; never touched by
// kernels: tests fill it with a guard pattern and check it afterwards).
class Image {
 public:
  Image(PixelFormat format, int width, int height, int row_padding = 0);
  // Copies are deep: the copy's planes point into its own bytes.
  Image(const Image& other);
  Image& operator=(const Image& other);
  Image(Image&&) = default;
  Image& operator=(Image&&) = default;

  PixelFormat format() const { return format_; }
  int width() const { return width_; }
  int height() const { return height_; }
  Frame frame() { return frame_; }
  ConstFrame frame() const { return frame_; }

  // All bytes, samples and padding.
  std::vector<uint8_t>& bytes() { return bytes_; }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

  // True when every sample value of every plane equals the other image's.
  bool same_samples(const Image& other) const;

 private:
  PixelFormat format_;
  int width_;
  int height_;
  std::vector<uint8_t> bytes_;
  Frame frame_;
};

}  // namespace daedalus
