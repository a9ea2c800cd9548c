#include "video_sample.h"

#include <cstdio>
#include <cstring>

namespace daedalus::demo {

MappedSample::MappedSample(GstSample* sample) {
  GstVideoInfo info;
  if (!gst_video_info_from_caps(&info, gst_sample_get_caps(sample))) return;
  mapped_ = gst_video_frame_map(&video_frame_, &info,
                                gst_sample_get_buffer(sample), GST_MAP_READ);
}

MappedSample::~MappedSample() {
  if (mapped_) gst_video_frame_unmap(&video_frame_);
}

ConstFrame MappedSample::frame() const {
  ConstFrame f;
  const GstVideoFormatInfo* finfo = video_frame_.info.finfo;
  f.num_planes = GST_VIDEO_FRAME_N_COMPONENTS(&video_frame_);
  f.chroma_shift_x =
      f.num_planes > 1 ? GST_VIDEO_FORMAT_INFO_W_SUB(finfo, 1) : 0;
  f.chroma_shift_y =
      f.num_planes > 1 ? GST_VIDEO_FORMAT_INFO_H_SUB(finfo, 1) : 0;
  for (int c = 0; c < f.num_planes; c++) {
    auto* frame = const_cast<GstVideoFrame*>(&video_frame_);
    f.planes[c] = {
        static_cast<const uint8_t*>(GST_VIDEO_FRAME_COMP_DATA(frame, c)),
        GST_VIDEO_FRAME_COMP_STRIDE(frame, c),
        GST_VIDEO_FRAME_COMP_WIDTH(frame, c),
        GST_VIDEO_FRAME_COMP_HEIGHT(frame, c),
        GST_VIDEO_FRAME_COMP_PSTRIDE(frame, c)};
  }
  return f;
}

GstSample* side_by_side(GstSample* left, GstSample* right) {
  GstVideoInfo in;
  if (!gst_video_info_from_caps(&in, gst_sample_get_caps(left)) ||
      GST_VIDEO_INFO_FORMAT(&in) != GST_VIDEO_FORMAT_I420)
    return nullptr;
  GstVideoInfo out;
  gst_video_info_set_format(&out, GST_VIDEO_FORMAT_I420, 2 * in.width,
                            in.height);
  GstBuffer* buffer = gst_buffer_new_allocate(nullptr, out.size, nullptr);
  GstVideoFrame dst;
  gst_video_frame_map(&dst, &out, buffer, GST_MAP_WRITE);
  bool ok = true;
  for (int half = 0; half < 2 && ok; half++) {
    MappedSample src(half ? right : left);
    ok = src.valid() && src.frame().planes[0].width == in.width &&
         src.frame().planes[0].height == in.height;
    for (int p = 0; p < 3 && ok; p++) {
      const ConstPlane& from = src.frame().planes[p];
      auto* to = static_cast<uint8_t*>(GST_VIDEO_FRAME_COMP_DATA(&dst, p));
      const int stride = GST_VIDEO_FRAME_COMP_STRIDE(&dst, p);
      for (int y = 0; y < from.height; y++)
        std::memcpy(to + y * stride + half * from.width, from.row(y),
                    from.width);
    }
  }
  gst_video_frame_unmap(&dst);
  GstCaps* caps = gst_video_info_to_caps(&out);
  GstSample* sample =
      ok ? gst_sample_new(buffer, caps, nullptr, nullptr) : nullptr;
  gst_caps_unref(caps);
  gst_buffer_unref(buffer);
  return sample;
}

bool write_png(GstSample* sample, const std::string& path, std::string* error) {
  GstCaps* png_caps = gst_caps_new_empty_simple("image/png");
  GError* err = nullptr;
  GstSample* png = gst_video_convert_sample(sample, png_caps, GST_SECOND, &err);
  gst_caps_unref(png_caps);
  if (!png) {
    *error =
        err ? err->message : "PNG conversion failed (is pngenc installed?)";
    g_clear_error(&err);
    return false;
  }
  GstMapInfo map;
  GstBuffer* buffer = gst_sample_get_buffer(png);
  bool ok = gst_buffer_map(buffer, &map, GST_MAP_READ);
  if (ok) {
    FILE* f = std::fopen(path.c_str(), "wb");
    ok = f && std::fwrite(map.data, 1, map.size, f) == map.size;
    if (f) ok = std::fclose(f) == 0 && ok;
    gst_buffer_unmap(buffer, &map);
    if (!ok) *error = "cannot write " + path;
  }
  gst_sample_unref(png);
  return ok;
}

}  // namespace daedalus::demo
