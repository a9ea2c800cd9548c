// The elements' caps and property handling on fuzzed input: an element of
// the plugin (built into this target's folder) gets properties set to any
// value their GParamSpec allows, then caps of any format, size,
// interlace mode and caps feature, then buffers of any size (too short
// too), and is stopped. Nothing may crash, leak or log a warning or a
// critical.
#include <fuzzer/FuzzedDataProvider.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <cstdlib>
#include <string>

namespace {

constexpr const char* kElements[] = {"daedalusdeblock", "daedaluscdef",
                                     "daedalusmc"};
// RGBA is refused; the 10-bit ones are taken (or refused, with settings no
// backend computes at 10 bits).
constexpr const char* kFormats[] = {
    "I420",  "YV12", "Y42B",      "Y444",      "NV12",      "NV21",
    "GRAY8", "RGBA", "I420_10LE", "I422_10LE", "Y444_10LE", "P010_10LE"};
constexpr const char* kModes[] = {"progressive", "interleaved", "mixed",
                                  "alternate",   "fields",      "bogus"};
// Sizes the caps may claim: small ones are filtered, the others must be
// refused or at least not crash negotiation.
constexpr int kOddSizes[] = {0, -3, 65536, 1 << 30, 0x7fffffff};

GstFlowReturn drop(GstPad*, GstObject*, GstBuffer* buffer) {
  gst_buffer_unref(buffer);
  return GST_FLOW_OK;
}

// Any value the property's GParamSpec allows. A value outside it never
// reaches the element: GLib refuses it, with a warning in GLib 2.74
// (Debian 12) and a critical in 2.84 (Debian 13), which would abort this
// target; the element suites check that refusal.
void set_random(GstElement* element, GParamSpec* pspec,
                FuzzedDataProvider& in) {
  GValue v = G_VALUE_INIT;
  g_value_init(&v, pspec->value_type);
  if (G_IS_PARAM_SPEC_INT(pspec)) {
    auto* p = G_PARAM_SPEC_INT(pspec);
    g_value_set_int(&v, in.ConsumeIntegralInRange(p->minimum, p->maximum));
  } else if (G_IS_PARAM_SPEC_UINT(pspec)) {
    auto* p = G_PARAM_SPEC_UINT(pspec);
    g_value_set_uint(&v, in.ConsumeIntegralInRange(p->minimum, p->maximum));
  } else if (G_IS_PARAM_SPEC_DOUBLE(pspec)) {
    auto* p = G_PARAM_SPEC_DOUBLE(pspec);
    g_value_set_double(&v,
                       in.ConsumeFloatingPointInRange(p->minimum, p->maximum));
  } else if (G_IS_PARAM_SPEC_ENUM(pspec)) {
    GEnumClass* klass = G_PARAM_SPEC_ENUM(pspec)->enum_class;
    g_value_set_enum(
        &v,
        klass->values[in.ConsumeIntegralInRange<guint>(0, klass->n_values - 1)]
            .value);
  } else if (G_IS_PARAM_SPEC_BOOLEAN(pspec)) {
    g_value_set_boolean(&v, in.ConsumeBool());
  } else {
    g_value_unset(&v);
    return;
  }
  g_object_set_property(G_OBJECT(element), pspec->name, &v);
  g_value_unset(&v);
}

std::string random_caps(FuzzedDataProvider& in, int* width, int* height) {
  const std::string mode = in.PickValueInArray(kModes);
  *width = in.ConsumeBool() ? in.ConsumeIntegralInRange(1, 300)
                            : in.PickValueInArray(kOddSizes);
  *height = in.ConsumeBool() ? in.ConsumeIntegralInRange(1, 300)
                             : in.PickValueInArray(kOddSizes);
  std::string caps = "video/x-raw";
  if (in.ConsumeBool()) caps += "(format:Interlaced)";
  caps += ",format=" + std::string(in.PickValueInArray(kFormats)) +
          ",width=" + std::to_string(*width) +
          ",height=" + std::to_string(*height) +
          ",framerate=" + std::to_string(in.ConsumeIntegralInRange(0, 120)) +
          "/1,interlace-mode=" + mode;
  return caps;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  // Only the plugin under test, found in the build tree, scanned in this
  // process (a sanitized plugin does not load into gst-plugin-scanner).
  setenv("GST_PLUGIN_SYSTEM_PATH_1_0", "", 1);
  setenv("GST_PLUGIN_PATH_1_0", DAEDALUS_PLUGIN_DIR, 1);
  setenv("GST_REGISTRY_FORK", "no", 1);
  setenv("GST_REGISTRY_1_0", DAEDALUS_PLUGIN_DIR "/fuzz-registry.bin", 1);
  // No trial of the backends: each input names scalar or cpu.
  setenv("DAEDALUS_BACKEND", "scalar", 1);
  gst_init(argc, argv);
  // A critical or a warning is a bug of ours (or a misuse of GStreamer, or
  // of GLib: a property value out of range is a warning in GLib 2.74, a
  // critical in 2.84), as in the element suites: abort on it.
  g_log_set_always_fatal(
      GLogLevelFlags(G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  GstElement* element =
      gst_element_factory_make(in.PickValueInArray(kElements), nullptr);
  if (!element) std::abort();
  gst_object_ref_sink(element);

  guint n_props = 0;
  GParamSpec** props =
      g_object_class_list_properties(G_OBJECT_GET_CLASS(element), &n_props);
  for (int i = in.ConsumeIntegralInRange(0, 6); i > 0; i--) {
    GParamSpec* pspec = props[in.ConsumeIntegralInRange<guint>(0, n_props - 1)];
    const std::string name = pspec->name;
    // backend: scalar or cpu only (auto would time every backend, gpu
    // start a Vulkan device per input).
    if (name == "backend") {
      gst_util_set_object_arg(G_OBJECT(element), "backend",
                              in.ConsumeBool() ? "scalar" : "cpu");
    } else if ((pspec->flags & G_PARAM_WRITABLE) && name != "name" &&
               name != "parent") {
      set_random(element, pspec, in);
    }
  }
  g_free(props);

  GstPad* src = gst_pad_new("src", GST_PAD_SRC);
  GstPad* sink = gst_pad_new("sink", GST_PAD_SINK);
  gst_pad_set_chain_function(sink, drop);
  GstPad* element_sink = gst_element_get_static_pad(element, "sink");
  GstPad* element_src = gst_element_get_static_pad(element, "src");
  gst_pad_link(src, element_sink);
  gst_pad_link(element_src, sink);
  gst_pad_set_active(src, TRUE);
  gst_pad_set_active(sink, TRUE);
  gst_element_set_state(element, GST_STATE_PLAYING);

  gst_pad_push_event(src, gst_event_new_stream_start("fuzz"));
  int width, height;
  const std::string text = random_caps(in, &width, &height);
  if (GstCaps* caps = gst_caps_from_string(text.c_str())) {
    gst_pad_push_event(src, gst_event_new_caps(caps));
    gst_caps_unref(caps);
  }
  GstSegment segment;
  gst_segment_init(&segment, GST_FORMAT_TIME);
  gst_pad_push_event(src, gst_event_new_segment(&segment));

  // Buffers of any size up to a little more than a frame of the caps,
  // where the caps are small enough to allocate.
  const bool small = width > 0 && width <= 300 && height > 0 && height <= 300;
  for (int i = in.ConsumeIntegralInRange(0, 3); small && i > 0; i--) {
    const size_t n = in.ConsumeIntegralInRange<size_t>(0, 3 * 300 * 300);
    GstBuffer* buffer = gst_buffer_new_allocate(nullptr, n, nullptr);
    const std::string bytes = in.ConsumeBytesAsString(n);
    gst_buffer_fill(buffer, 0, bytes.data(), bytes.size());
    if (in.ConsumeBool())
      GST_BUFFER_FLAG_SET(buffer, GST_VIDEO_BUFFER_FLAG_INTERLACED);
    GST_BUFFER_PTS(buffer) = i * GST_SECOND;
    gst_pad_push(src, buffer);
  }

  gst_element_set_state(element, GST_STATE_NULL);
  gst_pad_set_active(src, FALSE);
  gst_pad_set_active(sink, FALSE);
  gst_object_unref(element_sink);
  gst_object_unref(element_src);
  gst_object_unref(src);
  gst_object_unref(sink);
  gst_object_unref(element);
  return 0;
}
