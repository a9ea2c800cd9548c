#include "test_util.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace daedalus::gsttest {

Frame frame_view(const GstVideoFrame& frame) {
  const GstVideoInfo* info = &frame.info;
  Frame v;
  v.num_planes = GST_VIDEO_INFO_N_COMPONENTS(info) == 1 ? 1 : 3;
  for (int c = 0; c < v.num_planes; c++) {
    const int plane = GST_VIDEO_INFO_COMP_PLANE(info, c);
    v.planes[c].data = static_cast<uint8_t*>(frame.data[plane]) +
                       GST_VIDEO_INFO_COMP_POFFSET(info, c);
    v.planes[c].stride = GST_VIDEO_INFO_PLANE_STRIDE(info, plane);
    v.planes[c].width = GST_VIDEO_INFO_COMP_WIDTH(info, c);
    v.planes[c].height = GST_VIDEO_INFO_COMP_HEIGHT(info, c);
    v.planes[c].step = GST_VIDEO_INFO_COMP_PSTRIDE(info, c);
    v.planes[c].bit_depth = GST_VIDEO_INFO_COMP_DEPTH(info, c);
    v.planes[c].lsb = GST_VIDEO_FORMAT_INFO_SHIFT(info->finfo, c);
  }
  // Interleaved chroma (NV12, NV21, P010): the second channel of a pair is
  // one sample after the first (GStreamer 1.22 says byte 1 for P010's V).
  if (v.num_planes == 3 && GST_VIDEO_INFO_COMP_PLANE(info, 1) ==
                               GST_VIDEO_INFO_COMP_PLANE(info, 2)) {
    for (int c = 1; c < 3; c++) {
      const bool second = GST_VIDEO_INFO_COMP_POFFSET(info, c) != 0;
      v.planes[c].data = static_cast<uint8_t*>(
                             frame.data[GST_VIDEO_INFO_COMP_PLANE(info, c)]) +
                         (second ? v.planes[c].bytes_per_sample() : 0);
    }
  }
  if (v.num_planes == 3) {
    v.chroma_shift_x = GST_VIDEO_FORMAT_INFO_W_SUB(info->finfo, 1);
    v.chroma_shift_y = GST_VIDEO_FORMAT_INFO_H_SUB(info->finfo, 1);
  }
  return v;
}

namespace {

void fill_random(GstBuffer* buffer, std::mt19937& gen) {
  GstMapInfo map;
  fail_unless(gst_buffer_map(buffer, &map, GST_MAP_WRITE));
  for (gsize i = 0; i < map.size; i++) map.data[i] = uint8_t(gen() >> 24);
  gst_buffer_unmap(buffer, &map);
}

// Samples made to exercise the filters: 4x4 blocks of random levels (edges
// of every strength), a little noise inside them, clamped to the sample
// range, and one sample in 32 an outlier of any value. A deeper sample's
// bits outside its value are random: the element must ignore them.
void fill_samples(GstBuffer* buffer, const GstVideoInfo& info,
                  std::mt19937& gen) {
  GstVideoFrame frame;
  fail_unless(gst_video_frame_map(&frame, &info, buffer, GST_MAP_WRITE));
  const Frame v = frame_view(frame);
  for (int c = 0; c < v.num_planes; c++) {
    const Plane& plane = v.planes[c];
    const int scale = 1 << (plane.bit_depth - 8);
    std::uniform_int_distribution<int> level(0, plane.max_value()),
        noise(-3 * scale, 3 * scale), pick(0, 31);
    const int blocks_x = (plane.width + 3) / 4;
    std::vector<int> levels(blocks_x * ((plane.height + 3) / 4));
    for (int& l : levels) l = level(gen);
    for (int y = 0; y < plane.height; y++) {
      for (int x = 0; x < plane.width; x++) {
        const int value = pick(gen) == 0
                              ? level(gen)
                              : levels[(y / 4) * blocks_x + x / 4] + noise(gen);
        set_sample(plane, x, y, std::clamp(value, 0, plane.max_value()),
                   uint16_t(gen()));
      }
    }
  }
  gst_video_frame_unmap(&frame);
}

uint16_t stored_word(const Plane& p, int x, int y) {
  return p.bit_depth > 8 ? uint16_t(p.at(x, y) | p.row(y)[x * p.step + 1] << 8)
                         : p.at(x, y);
}

int plane_height(const GstVideoInfo& info, int plane) {
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS(&info); c++)
    if (int(GST_VIDEO_INFO_COMP_PLANE(&info, c)) == plane)
      return GST_VIDEO_INFO_COMP_HEIGHT(&info, c);
  return 0;
}

}  // namespace

void set_sample(const Plane& p, int x, int y, int value, uint16_t outside) {
  if (p.bit_depth == 8) {
    p.at(x, y) = uint8_t(value);
    return;
  }
  const uint16_t mask = uint16_t(p.max_value() << p.lsb);
  const uint16_t word = uint16_t((value << p.lsb) | (outside & ~mask));
  p.at(x, y) = uint8_t(word);
  p.row(y)[x * p.step + 1] = uint8_t(word >> 8);
}

int outside_bits_set(GstBuffer* buffer, const GstVideoInfo& info,
                     GstBuffer* unless_as_in) {
  GstVideoFrame f, in;
  fail_unless(gst_video_frame_map(&f, &info, buffer, GST_MAP_READ));
  if (unless_as_in)
    fail_unless(gst_video_frame_map(&in, &info, unless_as_in, GST_MAP_READ));
  const Frame v = frame_view(f);
  const Frame vin = unless_as_in ? frame_view(in) : v;
  int count = 0;
  for (int c = 0; c < v.num_planes; c++) {
    const Plane& p = v.planes[c];
    if (p.bit_depth == 8) continue;
    const uint16_t mask = uint16_t(p.max_value() << p.lsb);
    for (int y = 0; y < p.height; y++)
      for (int x = 0; x < p.width; x++) {
        const uint16_t word = stored_word(p, x, y);
        if (unless_as_in && word == stored_word(vin.planes[c], x, y)) continue;
        count += (word & ~mask) != 0;
      }
  }
  if (unless_as_in) gst_video_frame_unmap(&in);
  gst_video_frame_unmap(&f);
  return count;
}

uint32_t seed() {
  static const uint32_t s = [] {
    const char* env = g_getenv("DAEDALUS_TEST_SEED");
    const uint32_t value =
        env ? uint32_t(std::strtoul(env, nullptr, 0)) : std::random_device{}();
    g_print("DAEDALUS_TEST_SEED=%u\n", value);
    return value;
  }();
  return s;
}

std::mt19937 rng(uint32_t salt) {
  std::seed_seq seq{seed(), salt};
  return std::mt19937(seq);
}

GstVideoInfo video_info(const char* format, int width, int height) {
  GstVideoInfo info;
  fail_unless(gst_video_info_set_format(
      &info, gst_video_format_from_string(format), width, height));
  GST_VIDEO_INFO_FPS_N(&info) = 30;
  GST_VIDEO_INFO_FPS_D(&info) = 1;
  return info;
}

GstCaps* video_caps(const char* format, int width, int height) {
  GstVideoInfo info = video_info(format, width, height);
  return gst_video_info_to_caps(&info);
}

void fill_frame(GstBuffer* buffer, const GstVideoInfo& info,
                std::mt19937& gen) {
  fill_random(buffer, gen);
  fill_samples(buffer, info, gen);
}

GstBuffer* formula_buffer(const GstVideoInfo& info,
                          const std::function<uint8_t(int, int, int)>& sample) {
  GstBuffer* buffer = gst_buffer_new_allocate(nullptr, info.size, nullptr);
  GstVideoFrame frame;
  fail_unless(gst_video_frame_map(&frame, &info, buffer, GST_MAP_WRITE));
  const Frame f = frame_view(frame);
  for (int c = 0; c < f.num_planes; c++)
    for (int y = 0; y < f.planes[c].height; y++)
      for (int x = 0; x < f.planes[c].width; x++)
        f.planes[c].at(x, y) = sample(c, x, y);
  gst_video_frame_unmap(&frame);
  return buffer;
}

GstBuffer* random_buffer(const GstVideoInfo& info, std::mt19937& gen) {
  GstBuffer* buffer = gst_buffer_new_allocate(nullptr, info.size, nullptr);
  fill_frame(buffer, info, gen);
  return buffer;
}

GstBuffer* random_buffer_with_meta(const GstVideoInfo& info, int row_padding,
                                   std::mt19937& gen) {
  const int n_planes = GST_VIDEO_INFO_N_PLANES(&info);
  // Whole samples, so that 16-bit ones stay aligned as GStreamer keeps them.
  const int unit = GST_VIDEO_INFO_COMP_DEPTH(&info, 0) > 8 ? 2 : 1;
  gsize offsets[GST_VIDEO_MAX_PLANES] = {};
  gint strides[GST_VIDEO_MAX_PLANES] = {};
  gsize size = 5 * unit;  // a gap before the first plane
  for (int p = n_planes - 1; p >= 0; p--) {
    strides[p] = GST_VIDEO_INFO_PLANE_STRIDE(&info, p) + row_padding * unit;
    offsets[p] = size;
    size += gsize(strides[p]) * plane_height(info, p) + 11 * unit;
  }
  GstBuffer* buffer = gst_buffer_new_allocate(nullptr, size, nullptr);
  fill_random(buffer, gen);
  gst_buffer_add_video_meta_full(
      buffer, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT(&info),
      GST_VIDEO_INFO_WIDTH(&info), GST_VIDEO_INFO_HEIGHT(&info), n_planes,
      offsets, strides);
  fill_samples(buffer, info, gen);
  return buffer;
}

Reference deblock_with(const DeblockParams& params) {
  return [params](Backend& backend, const Frame& dst, const ConstFrame&) {
    return backend.deblock(dst, params);
  };
}

Reference cdef_with(const CdefParams& params) {
  return [params](Backend& backend, const Frame& dst, const ConstFrame& src) {
    return backend.cdef(dst, src, params);
  };
}

Reference mc_with(const McParams& params) {
  return [params](Backend& backend, const Frame& dst, const ConstFrame& src) {
    return backend.mc(dst, src, params);
  };
}

GstBuffer* expected_output(GstBuffer* in, const GstVideoInfo& info,
                           const Reference& reference, bool in_place) {
  Result<std::unique_ptr<Backend>> created =
      create_backend(BackendKind::Scalar);
  fail_unless(created.is_ok(), "no scalar backend: %s",
              created.status().message().c_str());
  Backend* backend = created.value().get();

  GstVideoFrame src, dst;
  Status status;
  GstBuffer* out;
  if (in_place) {
    out = gst_buffer_copy_deep(in);
    fail_unless(gst_video_frame_map(&dst, &info, out, GST_MAP_READWRITE));
    const Frame v = frame_view(dst);
    status = reference(*backend, v, v);
    gst_video_frame_unmap(&dst);
  } else {
    out = gst_buffer_new_allocate(nullptr, info.size, nullptr);
    fail_unless(gst_video_frame_map(&src, &info, in, GST_MAP_READ));
    fail_unless(gst_video_frame_map(&dst, &info, out, GST_MAP_WRITE));
    status = reference(*backend, frame_view(dst), frame_view(src));
    gst_video_frame_unmap(&dst);
    gst_video_frame_unmap(&src);
  }
  fail_unless(status.is_ok(), "scalar backend failed: %s",
              status.message().c_str());
  return out;
}

GstBuffer* expected_chain_output(GstBuffer* in, const GstVideoInfo& info,
                                 const DeblockParams& deblock,
                                 const CdefParams& cdef, const McParams& mc) {
  GstBuffer* deblocked = expected_output(in, info, deblock_with(deblock), true);
  GstBuffer* cdefed = expected_output(deblocked, info, cdef_with(cdef), false);
  GstBuffer* out = expected_output(cdefed, info, mc_with(mc), false);
  gst_buffer_unref(cdefed);
  gst_buffer_unref(deblocked);
  return out;
}

void expect_refused(GstHarness* h, const GstVideoInfo& info,
                    const std::vector<std::string>& parts) {
  GstBus* bus = gst_bus_new();
  gst_element_set_bus(h->element, bus);
  // Not gst_harness_set_src_caps(): it asserts that the caps are taken.
  // A sticky event counts as pushed even when refused downstream.
  GstCaps* caps = gst_video_info_to_caps(&info);
  gst_harness_push_event(h, gst_event_new_caps(caps));
  gst_caps_unref(caps);
  GstSegment segment;
  gst_segment_init(&segment, GST_FORMAT_TIME);
  gst_harness_push_event(h, gst_event_new_segment(&segment));
  GstPad* sinkpad = gst_element_get_static_pad(h->element, "sink");
  fail_if(gst_pad_has_current_caps(sinkpad), "%s caps accepted",
          GST_VIDEO_INFO_NAME(&info));
  gst_object_unref(sinkpad);
  std::mt19937 gen = rng(0);
  fail_unless_equals_int(gst_harness_push(h, random_buffer(info, gen)),
                         GST_FLOW_NOT_NEGOTIATED);
  fail_unless_equals_int(gst_harness_buffers_received(h), 0);
  fail_unless_equals_std_string(active_backend(h->element), "none");

  GstMessage* msg = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  fail_unless(msg != nullptr, "no error message");
  GError* error = nullptr;
  gst_message_parse_error(msg, &error, nullptr);
  fail_unless(
      g_error_matches(error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION));
  const std::string text = error->message;
  for (const std::string& part : parts)
    fail_unless(text.find(part) != std::string::npos,
                "the error \"%s\" does not say \"%s\"", text.c_str(),
                part.c_str());
  g_error_free(error);
  gst_message_unref(msg);
  fail_unless(gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR) == nullptr,
              "more than one error");
  gst_element_set_bus(h->element, nullptr);
  gst_object_unref(bus);
}

std::string first_difference(GstBuffer* expected, GstBuffer* actual,
                             const GstVideoInfo& info, int component) {
  GstVideoFrame e, a;
  fail_unless(gst_video_frame_map(&e, &info, expected, GST_MAP_READ));
  fail_unless(gst_video_frame_map(&a, &info, actual, GST_MAP_READ));
  const Frame ve = frame_view(e), va = frame_view(a);
  std::string diff;
  for (int c = 0; c < ve.num_planes && diff.empty(); c++) {
    if (component >= 0 && c != component) continue;
    const Plane &pe = ve.planes[c], &pa = va.planes[c];
    for (int y = 0; y < pe.height && diff.empty(); y++) {
      for (int x = 0; x < pe.width; x++) {
        if (stored_word(pe, x, y) != stored_word(pa, x, y)) {
          diff = "component " + std::to_string(c) + " at (" +
                 std::to_string(x) + ", " + std::to_string(y) + "): expected " +
                 std::to_string(value_at(pe, x, y)) + " (stored " +
                 std::to_string(stored_word(pe, x, y)) + "), got " +
                 std::to_string(value_at(pa, x, y)) + " (stored " +
                 std::to_string(stored_word(pa, x, y)) + ")";
          break;
        }
      }
    }
  }
  gst_video_frame_unmap(&a);
  gst_video_frame_unmap(&e);
  return diff;
}

bool same_bytes(GstBuffer* a, GstBuffer* b) {
  GstMapInfo ma, mb;
  fail_unless(gst_buffer_map(a, &ma, GST_MAP_READ));
  fail_unless(gst_buffer_map(b, &mb, GST_MAP_READ));
  const bool same =
      ma.size == mb.size && std::memcmp(ma.data, mb.data, ma.size) == 0;
  gst_buffer_unmap(b, &mb);
  gst_buffer_unmap(a, &ma);
  return same;
}

void check_output(GstBuffer* expected, GstBuffer* out, const GstVideoInfo& info,
                  bool in_place) {
  const std::string diff = first_difference(expected, out, info);
  fail_unless(diff.empty(), "%s %dx%d: %s", GST_VIDEO_INFO_NAME(&info),
              GST_VIDEO_INFO_WIDTH(&info), GST_VIDEO_INFO_HEIGHT(&info),
              diff.c_str());
  if (in_place)
    fail_unless(same_bytes(expected, out), "bytes outside the samples changed");
}

void set_properties(GstElement* element, const char* assignments) {
  gchar** parts = g_strsplit_set(assignments, " ", -1);
  for (gchar** part = parts; *part; part++) {
    if (**part == '\0') continue;
    gchar** kv = g_strsplit(*part, "=", 2);
    fail_unless(kv[0] && kv[1], "not name=value: %s", *part);
    GParamSpec* pspec =
        g_object_class_find_property(G_OBJECT_GET_CLASS(element), kv[0]);
    fail_unless(pspec != nullptr, "no property %s", kv[0]);
    GValue value = G_VALUE_INIT;
    g_value_init(&value, pspec->value_type);
    fail_unless(gst_value_deserialize_with_pspec(&value, kv[1], pspec),
                "cannot set %s to %s", kv[0], kv[1]);
    g_object_set_property(G_OBJECT(element), kv[0], &value);
    g_value_unset(&value);
    g_strfreev(kv);
  }
  g_strfreev(parts);
}

GstElement* new_element(const char* factory) {
  GstElement* element = gst_element_factory_make(factory, nullptr);
  fail_unless(element != nullptr, "no %s element (did the plugin load?)",
              factory);
  return element;
}

GstHarness* new_harness(const char* factory, const char* properties) {
  GstElement* element = new_element(factory);
  set_properties(element, properties);
  GstHarness* h = gst_harness_new_with_element(element, "sink", "src");
  gst_object_unref(element);
  return h;
}

std::string active_backend(GstElement* element) {
  gchar* name = nullptr;
  g_object_get(element, "active-backend", &name, nullptr);
  std::string s = name ? name : "(null)";
  g_free(name);
  return s;
}

std::string cpu_side_backend() {
  return create_backend(BackendKind::Cpu) ? "cpu" : "scalar";
}

GstBuffer* push_and_pull(GstHarness* h, GstBuffer* in) {
  const GstFlowReturn ret = gst_harness_push(h, in);
  if (ret != GST_FLOW_OK) {
    // Say why, when the test gave the element a bus to post on.
    std::string why;
    if (GstBus* bus = gst_element_get_bus(h->element)) {
      if (GstMessage* msg = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR)) {
        GError* error = nullptr;
        gst_message_parse_error(msg, &error, nullptr);
        why = error->message;
        g_error_free(error);
        gst_message_unref(msg);
      }
      gst_object_unref(bus);
    }
    fail("push returned %s %s", gst_flow_get_name(ret), why.c_str());
  }
  GstBuffer* out = gst_harness_try_pull(h);
  fail_unless(out != nullptr, "no output buffer");
  return out;
}

GstBuffer* push_random_frame(GstHarness* h, const GstVideoInfo& info,
                             uint32_t salt, GstBuffer** in) {
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  std::mt19937 gen = rng(salt);
  *in = random_buffer(info, gen);
  gst_buffer_ref(*in);
  return push_and_pull(h, *in);
}

ValidationWatch::ValidationWatch() {
  std::fflush(stderr);
  saved_ = dup(STDERR_FILENO);
  file_ = std::tmpfile();
  fail_unless(saved_ >= 0 && file_ != nullptr, "cannot capture stderr");
  dup2(fileno(file_), STDERR_FILENO);
}

void ValidationWatch::check() {
  std::fflush(stderr);
  dup2(saved_, STDERR_FILENO);
  close(saved_);
  std::string text;
  std::rewind(file_);
  char chunk[4096];
  for (size_t n; (n = std::fread(chunk, 1, sizeof chunk, file_)) > 0;)
    text.append(chunk, n);
  std::fclose(file_);
  std::fputs(text.c_str(), stderr);
  fail_unless(text.find("daedalus: Vulkan") == std::string::npos,
              "Vulkan validation messages:\n%s", text.c_str());
}

}  // namespace daedalus::gsttest
