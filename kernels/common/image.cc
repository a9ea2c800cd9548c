#include "daedalus/image.h"

#include <cstring>

namespace daedalus {
namespace {

struct Layout {
  std::string_view name;
  int num_planes;
  int shift_x, shift_y;
  bool interleaved_chroma;
  bool v_first;  // YV12 stores V before U; NV21 interleaves V before U
  int bit_depth = 8;
  int lsb = 0;  // where a deeper sample's value starts in its word
};

Layout layout_of(PixelFormat format) {
  switch (format) {
    case PixelFormat::I420:
      return {"I420", 3, 1, 1, false, false};
    case PixelFormat::YV12:
      return {"YV12", 3, 1, 1, false, true};
    case PixelFormat::Y42B:
      return {"Y42B", 3, 1, 0, false, false};
    case PixelFormat::Y444:
      return {"Y444", 3, 0, 0, false, false};
    case PixelFormat::NV12:
      return {"NV12", 3, 1, 1, true, false};
    case PixelFormat::NV21:
      return {"NV21", 3, 1, 1, true, true};
    case PixelFormat::GRAY8:
      return {"GRAY8", 1, 0, 0, false, false};
    case PixelFormat::I420_10LE:
      return {"I420_10LE", 3, 1, 1, false, false, 10};
    case PixelFormat::I422_10LE:
      return {"I422_10LE", 3, 1, 0, false, false, 10};
    case PixelFormat::Y444_10LE:
      return {"Y444_10LE", 3, 0, 0, false, false, 10};
    case PixelFormat::P010_10LE:
      return {"P010_10LE", 3, 1, 1, true, false, 10, 6};
  }
  return {"?", 1, 0, 0, false, false};
}

int subsampled(int size, int shift) {
  return (size + (1 << shift) - 1) >> shift;
}

}  // namespace

std::string_view pixel_format_name(PixelFormat format) {
  return layout_of(format).name;
}

Image::Image(PixelFormat format, int width, int height, int row_padding)
    : format_(format), width_(width), height_(height) {
  const Layout l = layout_of(format);
  const int cw = subsampled(width, l.shift_x);
  const int ch = subsampled(height, l.shift_y);
  const int size = l.bit_depth > 8 ? 2 : 1;  // bytes per sample
  const ptrdiff_t luma_stride = size * (width + row_padding);
  const ptrdiff_t chroma_stride =
      size * ((l.interleaved_chroma ? 2 * cw : cw) + row_padding);
  const size_t luma_bytes = size_t(luma_stride) * height;
  const size_t chroma_bytes = size_t(chroma_stride) * ch;
  const int separate_chroma_planes =
      l.num_planes == 1 ? 0 : (l.interleaved_chroma ? 1 : 2);
  bytes_.assign(luma_bytes + separate_chroma_planes * chroma_bytes, 0);

  uint8_t* base = bytes_.data();
  frame_.num_planes = l.num_planes;
  frame_.chroma_shift_x = l.shift_x;
  frame_.chroma_shift_y = l.shift_y;
  frame_.planes[0] = {base, luma_stride, width, height,
                      size, l.bit_depth, l.lsb};
  if (l.num_planes == 1) return;

  uint8_t* chroma = base + luma_bytes;
  uint8_t *u, *v;
  int step = size;
  if (l.interleaved_chroma) {
    step = 2 * size;
    u = chroma + (l.v_first ? size : 0);
    v = chroma + (l.v_first ? 0 : size);
  } else {
    u = chroma + (l.v_first ? chroma_bytes : 0);
    v = chroma + (l.v_first ? 0 : chroma_bytes);
  }
  frame_.planes[1] = {u, chroma_stride, cw, ch, step, l.bit_depth, l.lsb};
  frame_.planes[2] = {v, chroma_stride, cw, ch, step, l.bit_depth, l.lsb};
}

Image::Image(const Image& other)
    : format_(other.format_),
      width_(other.width_),
      height_(other.height_),
      bytes_(other.bytes_),
      frame_(other.frame_) {
  for (Plane& plane : frame_.planes)
    if (plane.data)
      plane.data = bytes_.data() + (plane.data - other.bytes_.data());
}

Image& Image::operator=(const Image& other) {
  if (this != &other) *this = Image(other);
  return *this;
}

bool Image::same_samples(const Image& other) const {
  const ConstFrame a = frame(), b = other.frame();
  if (a.num_planes != b.num_planes) return false;
  for (int p = 0; p < a.num_planes; p++) {
    const ConstPlane& pa = a.planes[p];
    const ConstPlane& pb = b.planes[p];
    if (pa.width != pb.width || pa.height != pb.height) return false;
    for (int y = 0; y < pa.height; y++)
      for (int x = 0; x < pa.width; x++)
        if (value_at(pa, x, y) != value_at(pb, x, y)) return false;
  }
  return true;
}

}  // namespace daedalus
