#include "element_tests.h"

#include <gst/controller/gstdirectcontrolbinding.h>
#include <gst/controller/gstinterpolationcontrolsource.h>

#include <cstring>
#include <string>

namespace daedalus::gsttest {
namespace {

// libcheck tests take no arguments: the element under test, set once in
// element_suites() before any test runs.
const ElementSpec* spec;

struct Size {
  int width, height;
};
constexpr Size kOddSizes[] = {{1, 1}, {7, 5}, {17, 9}, {33, 65}};
constexpr int kNumOddSizes = G_N_ELEMENTS(kOddSizes);

gboolean is_passthrough(GstHarness* h) {
  return gst_base_transform_is_passthrough(GST_BASE_TRANSFORM(h->element));
}

// Pushes one random frame of `info` through the negotiated harness and checks
// the output against the library's. `salt` picks the random stream.
void check_frame(GstHarness* h, const GstVideoInfo& info, uint32_t salt,
                 bool with_meta = false, const Reference* reference = nullptr) {
  std::mt19937 gen = rng(salt);
  GstBuffer* in = with_meta ? random_buffer_with_meta(info, 19, gen)
                            : random_buffer(info, gen);
  GstBuffer* expected = expected_output(
      in, info, reference ? *reference : spec->reference, spec->in_place);

  GstBuffer* out = push_and_pull(h, in);
  fail_if(is_passthrough(h), "passthrough with non-trivial settings");
  check_output(expected, out, info, spec->in_place);

  GstCaps* out_caps = gst_pad_get_current_caps(h->sinkpad);
  GstCaps* in_caps = gst_video_info_to_caps(&info);
  fail_unless(gst_caps_is_equal(out_caps, in_caps));
  gst_caps_unref(in_caps);
  gst_caps_unref(out_caps);

  gst_buffer_unref(out);
  gst_buffer_unref(expected);
}

void check_format_and_size(const char* format, int width, int height,
                           uint32_t salt) {
  GstHarness* h = new_harness(spec->factory, spec->params);
  GstVideoInfo info = video_info(format, width, height);
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  check_frame(h, info, salt);
  fail_unless_equals_int(gst_harness_buffers_received(h), 1);
  gst_harness_teardown(h);
}

GST_START_TEST(test_formats_and_odd_sizes) {
  const char* format = kFormats[__i__ / kNumOddSizes];
  const Size size = kOddSizes[__i__ % kNumOddSizes];
  check_format_and_size(format, size.width, size.height, __i__);
}
GST_END_TEST

GST_START_TEST(test_1080p) {
  const char* formats[] = {"I420", "NV12"};
  check_format_and_size(formats[__i__], 1920, 1080, __i__);
}
GST_END_TEST

GST_START_TEST(test_video_meta_layout) {
  GstHarness* h = new_harness(spec->factory, spec->params);
  GstVideoInfo info = video_info(kFormats[__i__], 33, 17);
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  check_frame(h, info, __i__, true);
  gst_harness_teardown(h);
}
GST_END_TEST

GST_START_TEST(test_passthrough) {
  GstHarness* h = new_harness(spec->factory, spec->noop_params);
  GstVideoInfo info = video_info("I420", 33, 65);
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  std::mt19937 gen = rng(0);

  for (int round = 0; round < 2; round++) {
    GstBuffer* in = random_buffer(info, gen);
    GstBuffer* copy = gst_buffer_copy_deep(in);
    gst_buffer_ref(in);  // to compare with; the element may not write it
    GstBuffer* out = push_and_pull(h, in);
    fail_unless(is_passthrough(h));
    fail_unless(out == in, "passthrough output is not the input buffer");
    fail_unless(same_bytes(out, copy), "passthrough changed the samples");
    gst_buffer_unref(out);
    gst_buffer_unref(in);
    gst_buffer_unref(copy);

    // Leaving passthrough mid-stream processes the very next buffer.
    set_properties(h->element, spec->params);
    check_frame(h, info, 100 + round);
    set_properties(h->element, spec->noop_params);
  }
  gst_harness_teardown(h);
}
GST_END_TEST

GST_START_TEST(test_renegotiation) {
  struct {
    const char* format;
    int width, height;
  } const steps[] = {
      {"I420", 17, 9},  {"NV12", 33, 65}, {"GRAY8", 7, 5},
      {"Y444", 33, 65}, {"I420", 17, 9},
  };
  GstHarness* h = new_harness(spec->factory, spec->params);
  uint32_t salt = 0;
  for (const auto& step : steps) {
    GstVideoInfo info = video_info(step.format, step.width, step.height);
    gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
    check_frame(h, info, salt++);
    check_frame(h, info, salt++);
  }
  fail_unless_equals_int(gst_harness_buffers_received(h),
                         2 * G_N_ELEMENTS(steps));
  gst_harness_teardown(h);
}
GST_END_TEST

GST_START_TEST(test_state_cycles) {
  GstHarness* h = new_harness(spec->factory, spec->params);
  GstVideoInfo info = video_info("Y42B", 17, 9);
  for (int cycle = 0; cycle < 25; cycle++) {
    fail_unless_equals_int(gst_element_set_state(h->element, GST_STATE_NULL),
                           GST_STATE_CHANGE_SUCCESS);
    fail_unless_equals_std_string(active_backend(h->element), "none");
    gst_harness_play(h);
    // Going to NULL dropped the sticky events the element had received.
    gst_harness_push_event(h, gst_event_new_stream_start("cycle"));
    gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
    check_frame(h, info, cycle);
    fail_unless_equals_std_string(active_backend(h->element),
                                  cpu_side_backend());
  }
  gst_harness_teardown(h);
}
GST_END_TEST

GST_START_TEST(test_timestamps) {
  constexpr int kBuffers = 12;
  GstHarness* h = new_harness(spec->factory, spec->params);
  GstVideoInfo info = video_info("NV21", 17, 9);
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  std::mt19937 gen = rng(0);

  auto pts = [](int i) { return GstClockTime(i * 33 * GST_MSECOND + 7); };
  for (int i = 0; i < kBuffers; i++) {
    GstBuffer* in = random_buffer(info, gen);
    GST_BUFFER_PTS(in) = pts(i);
    GST_BUFFER_DTS(in) = i == 3 ? GST_CLOCK_TIME_NONE : pts(i) - GST_MSECOND;
    GST_BUFFER_DURATION(in) = 33 * GST_MSECOND + i;
    GST_BUFFER_OFFSET(in) = i;
    fail_unless_equals_int(gst_harness_push(h, in), GST_FLOW_OK);
  }
  for (int i = 0; i < kBuffers; i++) {
    GstBuffer* out = gst_harness_try_pull(h);
    fail_unless(out != nullptr, "buffer %d missing", i);
    fail_unless_equals_clocktime(GST_BUFFER_PTS(out), pts(i));
    fail_unless_equals_clocktime(
        GST_BUFFER_DTS(out),
        i == 3 ? GST_CLOCK_TIME_NONE : pts(i) - GST_MSECOND);
    fail_unless_equals_clocktime(GST_BUFFER_DURATION(out),
                                 33 * GST_MSECOND + i);
    fail_unless_equals_uint64(GST_BUFFER_OFFSET(out), i);
    gst_buffer_unref(out);
  }
  fail_unless(gst_harness_try_pull(h) == nullptr, "more buffers than pushed");
  fail_unless_equals_int(gst_harness_buffers_received(h), kBuffers);
  gst_harness_teardown(h);
}
GST_END_TEST

// The library decides which backends exist; the element must use an
// available one and fail negotiation, naming it and the reason, otherwise.
GST_START_TEST(test_explicit_backend) {
  const BackendKind kind = kAllBackendKinds[__i__];
  const std::string name(backend_name(kind));
  const Result<std::unique_ptr<Backend>> backend = create_backend(kind);
  const bool available = backend.is_ok();

  const std::string props = std::string(spec->params) + " backend=" + name;
  GstHarness* h = new_harness(spec->factory, props.c_str());
  GstVideoInfo info = video_info("I420", 33, 17);

  if (available) {
    GstBus* bus = gst_bus_new();
    gst_element_set_bus(h->element, bus);
    gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
    check_frame(h, info, __i__);
    fail_unless_equals_std_string(active_backend(h->element), name);
    fail_unless(gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR) == nullptr);
    gst_element_set_bus(h->element, nullptr);
    gst_object_unref(bus);
  } else {
    expect_refused(h, info, {"\"" + name + "\"", backend.status().message()});
  }
  gst_harness_teardown(h);
}
GST_END_TEST

GST_START_TEST(test_active_backend) {
  GstHarness* h = new_harness(spec->factory, spec->params);
  fail_unless_equals_std_string(active_backend(h->element), "none");
  GstVideoInfo info = video_info("YV12", 17, 9);
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  fail_unless_equals_std_string(active_backend(h->element), cpu_side_backend());
  check_frame(h, info, 0);
  fail_unless_equals_int(gst_element_set_state(h->element, GST_STATE_NULL),
                         GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_std_string(active_backend(h->element), "none");
  gst_harness_teardown(h);
}
GST_END_TEST

GParamSpec* find_property(GstElement* element, const char* name) {
  GParamSpec* pspec =
      g_object_class_find_property(G_OBJECT_GET_CLASS(element), name);
  fail_unless(pspec != nullptr, "no property %s", name);
  return pspec;
}

void check_enum(GstElement* element, const EnumProperty& e) {
  GParamSpec* pspec = find_property(element, e.name);
  fail_unless(G_IS_PARAM_SPEC_ENUM(pspec), "%s is no enum", e.name);
  GEnumClass* klass = G_PARAM_SPEC_ENUM(pspec)->enum_class;
  fail_unless_equals_int(klass->n_values, e.nicks.size());
  for (guint i = 0; i < klass->n_values; i++)
    fail_unless_equals_string(klass->values[i].value_nick, e.nicks[i]);
  GEnumValue* def =
      g_enum_get_value(klass, G_PARAM_SPEC_ENUM(pspec)->default_value);
  fail_unless_equals_string(def->value_nick, e.def);
}

GST_START_TEST(test_property_specs) {
  GstElement* element = new_element(spec->factory);

  for (const NumericProperty& p : spec->numeric) {
    GParamSpec* pspec = find_property(element, p.name);
    double min, max, def;
    if (G_IS_PARAM_SPEC_INT(pspec)) {
      min = G_PARAM_SPEC_INT(pspec)->minimum;
      max = G_PARAM_SPEC_INT(pspec)->maximum;
      def = G_PARAM_SPEC_INT(pspec)->default_value;
    } else {
      fail_unless(G_IS_PARAM_SPEC_DOUBLE(pspec), "%s: int or double", p.name);
      min = G_PARAM_SPEC_DOUBLE(pspec)->minimum;
      max = G_PARAM_SPEC_DOUBLE(pspec)->maximum;
      def = G_PARAM_SPEC_DOUBLE(pspec)->default_value;
    }
    fail_unless(min == p.min && max == p.max && def == p.def,
                "%s: range %g..%g default %g, want %g..%g default %g", p.name,
                min, max, def, p.min, p.max, p.def);
    fail_unless_equals_int(!!(pspec->flags & GST_PARAM_CONTROLLABLE),
                           p.controllable);
    fail_unless(pspec->flags & GST_PARAM_MUTABLE_PLAYING);
  }
  for (const EnumProperty& e : spec->enums) check_enum(element, e);
  check_enum(
      element,
      {"backend", {"auto", "scalar", "cpu", "gpu", "hybrid"}, "auto", {}});
  GParamSpec* threads = find_property(element, "n-threads");
  fail_unless(G_IS_PARAM_SPEC_UINT(threads));
  fail_unless_equals_int(G_PARAM_SPEC_UINT(threads)->minimum, 0);
  fail_unless_equals_int(G_PARAM_SPEC_UINT(threads)->default_value, 0);
  GParamSpec* budget = find_property(element, "calibration-budget");
  fail_unless(G_IS_PARAM_SPEC_UINT(budget));
  fail_unless_equals_int(G_PARAM_SPEC_UINT(budget)->default_value, 200);
  fail_unless(G_PARAM_SPEC_UINT(budget)->minimum > 0);
  GParamSpec* decided = find_property(element, "decided-by");
  fail_unless(G_IS_PARAM_SPEC_STRING(decided));
  fail_unless((decided->flags & G_PARAM_READWRITE) == G_PARAM_READABLE);

  GParamSpec* active = find_property(element, "active-backend");
  fail_unless(G_IS_PARAM_SPEC_STRING(active));
  fail_unless((active->flags & G_PARAM_READWRITE) == G_PARAM_READABLE);
  // Its blurb names every backend it can report.
  for (BackendKind kind : kAllBackendKinds) {
    const std::string name(backend_name(kind));
    fail_unless(strstr(g_param_spec_get_blurb(active), name.c_str()) != nullptr,
                "active-backend's blurb does not name %s", name.c_str());
  }

  // Every property of ours tells gst-inspect-1.0 users what it does.
  guint n;
  GParamSpec** pspecs =
      g_object_class_list_properties(G_OBJECT_GET_CLASS(element), &n);
  for (guint i = 0; i < n; i++) {
    if (!g_str_has_prefix(g_type_name(pspecs[i]->owner_type), "GstDaedalus"))
      continue;
    const char* blurb = g_param_spec_get_blurb(pspecs[i]);
    fail_unless(blurb && std::strlen(blurb) > 40, "%s: blurb too short: %s",
                pspecs[i]->name, blurb);
  }
  g_free(pspecs);
  gst_object_unref(element);
}
GST_END_TEST

// Out-of-range values are refused (GLib warns; Debian 13's GLib 2.84 is
// critical) and the old value stays.
GST_START_TEST(test_property_rejection) {
  GstElement* element = new_element(spec->factory);

  for (const NumericProperty& p : spec->numeric) {
    GParamSpec* pspec = find_property(element, p.name);
    const bool is_int = G_IS_PARAM_SPEC_INT(pspec);
    const double step = is_int ? 1 : 0.5;
    for (double kept : {p.min, p.max}) {
      for (double bad : {p.min - step, p.max + step}) {
        if (is_int) {
          g_object_set(element, p.name, int(kept), nullptr);
          ASSERT_REFUSED(g_object_set(element, p.name, int(bad), nullptr));
          int now;
          g_object_get(element, p.name, &now, nullptr);
          fail_unless_equals_int(now, int(kept));
        } else {
          g_object_set(element, p.name, kept, nullptr);
          ASSERT_REFUSED(g_object_set(element, p.name, bad, nullptr));
          double now;
          g_object_get(element, p.name, &now, nullptr);
          fail_unless_equals_float(now, kept);
        }
      }
    }
  }

  for (const EnumProperty& e : spec->enums) {
    const char* kept = e.nicks.back();
    for (int bad : e.invalid) {
      set_properties(element, (std::string(e.name) + "=" + kept).c_str());
      ASSERT_REFUSED(g_object_set(element, e.name, bad, nullptr));
      gint now;
      g_object_get(element, e.name, &now, nullptr);
      GEnumClass* klass =
          G_PARAM_SPEC_ENUM(find_property(element, e.name))->enum_class;
      fail_unless_equals_string(g_enum_get_value(klass, now)->value_nick, kept);
    }
  }

  ASSERT_REFUSED(g_object_set(element, "backend", 7, nullptr));
  ASSERT_REFUSED(g_object_set(element, "active-backend", "cpu", nullptr));
  ASSERT_REFUSED(g_object_set(element, "decided-by", "trial", nullptr));
  ASSERT_REFUSED(g_object_set(element, "n-threads", 257u, nullptr));
  ASSERT_REFUSED(g_object_set(element, "calibration-budget", 5u, nullptr));
  ASSERT_REFUSED(g_object_set(element, "calibration-budget", 10001u, nullptr));
  guint budget;
  g_object_get(element, "calibration-budget", &budget, nullptr);
  fail_unless_equals_int(budget, 200);
  fail_unless_equals_std_string(active_backend(element), "none");
  gst_object_unref(element);
}
GST_END_TEST

// A control source drives one property; it must be synced to each buffer's
// stream time (not its PTS, nor running time) before the frame is processed.
GST_START_TEST(test_controlled_property) {
  const ControlledProperty& c = spec->controlled;
  GstHarness* h = new_harness(spec->factory, c.fixed);
  GstVideoInfo info = video_info("I420", 33, 17);
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));

  // Stream time = PTS - 10 s; running time = PTS - 5 s.
  GstSegment segment;
  gst_segment_init(&segment, GST_FORMAT_TIME);
  segment.start = 10 * GST_SECOND;
  segment.base = 5 * GST_SECOND;
  segment.time = 0;
  fail_unless(gst_harness_push_event(h, gst_event_new_segment(&segment)));

  GstControlSource* cs = gst_interpolation_control_source_new();
  g_object_set(cs, "mode", GST_INTERPOLATION_MODE_NONE, nullptr);
  for (int i = 0; i < 3; i++)
    gst_timed_value_control_source_set(GST_TIMED_VALUE_CONTROL_SOURCE(cs),
                                       i * GST_SECOND, c.values[i]);
  gst_object_add_control_binding(GST_OBJECT(h->element),
                                 gst_direct_control_binding_new_absolute(
                                     GST_OBJECT(h->element), c.name, cs));
  gst_object_unref(cs);

  std::mt19937 gen = rng(0);
  // values[0] is a no-op: passthrough, the input comes back untouched.
  GstBuffer* in = random_buffer(info, gen);
  GST_BUFFER_PTS(in) = 10 * GST_SECOND;
  GstBuffer* copy = gst_buffer_copy_deep(in);
  gst_buffer_ref(in);
  GstBuffer* out = push_and_pull(h, in);
  fail_unless(is_passthrough(h) && out == in && same_bytes(out, copy),
              "%s=%g is not passed through", c.name, c.values[0]);
  gst_buffer_unref(out);
  gst_buffer_unref(in);
  gst_buffer_unref(copy);

  // The same picture at 1 s and 2 s, so that only the setting differs.
  GstBuffer* picture = random_buffer(info, gen);
  GstBuffer* expected[2];
  for (int i = 0; i < 2; i++) {
    const double value = c.values[i + 1];
    in = gst_buffer_copy_deep(picture);
    GST_BUFFER_PTS(in) = (11 + i) * GST_SECOND;
    expected[i] = expected_output(in, info, c.reference(value), spec->in_place);
    out = push_and_pull(h, in);
    fail_if(is_passthrough(h));
    const std::string diff = first_difference(expected[i], out, info);
    fail_unless(diff.empty(), "%s=%g: %s", c.name, value, diff.c_str());
    gst_buffer_unref(out);
  }
  fail_if(first_difference(expected[0], expected[1], info).empty(),
          "%s=%g and %g give the same picture: the test proves nothing", c.name,
          c.values[1], c.values[2]);
  gst_buffer_unref(picture);
  GValue now = G_VALUE_INIT;
  g_value_init(&now, G_TYPE_DOUBLE);
  GValue prop = G_VALUE_INIT;
  g_value_init(&prop, find_property(h->element, c.name)->value_type);
  g_object_get_property(G_OBJECT(h->element), c.name, &prop);
  fail_unless(g_value_transform(&prop, &now));
  fail_unless_equals_float(g_value_get_double(&now), c.values[2]);
  g_value_unset(&now);
  g_value_unset(&prop);
  for (GstBuffer* b : expected) gst_buffer_unref(b);
  gst_harness_teardown(h);
}
GST_END_TEST

// Everything set on a gst-launch-1.0 line is taken as written.
GST_START_TEST(test_launch_line) {
  const std::string line =
      std::string(spec->factory) + " name=e " + spec->params;
  GError* error = nullptr;
  GstElement* element = gst_parse_launch(line.c_str(), &error);
  fail_unless(element != nullptr && error == nullptr, "%s: %s", line.c_str(),
              error ? error->message : "");
  fail_unless_equals_string(GST_OBJECT_NAME(gst_element_get_factory(element)),
                            spec->factory);
  gst_object_unref(element);
}
GST_END_TEST

GST_START_TEST(test_noop_decisions) {
  const NoopCase& c = spec->noop_cases[__i__];
  GstHarness* h = new_harness(spec->factory, c.props);
  GstVideoInfo info = video_info(c.format, 33, 17);
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  std::mt19937 gen = rng(__i__);
  GstBuffer* in = random_buffer(info, gen);
  GstBuffer* expected = expected_output(in, info, c.reference, spec->in_place);
  gst_buffer_ref(in);
  GstBuffer* out = push_and_pull(h, in);

  fail_unless_equals_int(
      gst_base_transform_is_passthrough(GST_BASE_TRANSFORM(h->element)),
      c.noop);
  const std::string diff = first_difference(expected, out, info);
  fail_unless(diff.empty(), "%s on %s: %s", c.props, c.format, diff.c_str());
  // In place, the padding too is the input's.
  fail_unless(!spec->in_place || same_bytes(expected, out),
              "%s on %s: padding changed", c.props, c.format);
  // Not in passthrough, the element filters a copy of `in` (or, not in
  // place, writes a new buffer).
  fail_unless_equals_int(out == in, c.noop);
  gst_buffer_unref(out);
  gst_buffer_unref(in);
  gst_buffer_unref(expected);
  gst_harness_teardown(h);
}
GST_END_TEST

// The Vulkan validation layer (on in every Vulkan test's environment)
// nearly doubles a forked check's CPU time on lavapipe. The gpu and auto
// cases keep it: they drive the element's own Vulkan code (its buffer pool,
// zero-copy frames, the fallback). The other cases reach the gpu backend
// only through the kernel library's calls, which its gpu suites run under
// validation, so they run without it (issue 17: CI's time).
// The environment's setting, put back after each case: these cases share
// one process (element_suites()).
gchar* saved_validation = nullptr;

void validation_off() {
  saved_validation = g_strdup(g_getenv("DAEDALUS_VULKAN_VALIDATION"));
  g_setenv("DAEDALUS_VULKAN_VALIDATION", "0", TRUE);
}

void validation_back() {
  if (saved_validation)
    g_setenv("DAEDALUS_VULKAN_VALIDATION", saved_validation, TRUE);
  else
    g_unsetenv("DAEDALUS_VULKAN_VALIDATION");
  g_clear_pointer(&saved_validation, g_free);
}

TCase* without_validation(TCase* tc) {
  tcase_add_checked_fixture(tc, validation_off, validation_back);
  return tc;
}

}  // namespace

ElementSuites element_suites(const ElementSpec* element) {
  spec = element;
  ElementSuites suites = {suite_create(element->factory),
                          suite_create(element->factory)};
  Suite* s = suites.shared;
  TCase* tc = without_validation(tcase_create("common"));
  suite_add_tcase(s, tc);
  tcase_add_loop_test(tc, test_formats_and_odd_sizes, 0,
                      kNumFormats * kNumOddSizes);
  tcase_add_loop_test(tc, test_1080p, 0, 2);
  tcase_add_loop_test(tc, test_video_meta_layout, 0, kNumFormats);
  tcase_add_test(tc, test_passthrough);
  tcase_add_test(tc, test_renegotiation);
  tcase_add_test(tc, test_state_cycles);
  tcase_add_test(tc, test_timestamps);
  tcase_add_loop_test(tc, test_explicit_backend, 0,
                      G_N_ELEMENTS(kAllBackendKinds));
  tcase_add_test(tc, test_active_backend);
  tcase_add_test(tc, test_property_specs);
  tcase_add_test(tc, test_property_rejection);
  tcase_add_test(tc, test_controlled_property);
  tcase_add_test(tc, test_launch_line);
  tcase_add_loop_test(tc, test_noop_decisions, 0, element->noop_cases.size());
  if (element->gpu_kernel) {
    suite_add_tcase(suites.isolated, gpu_tcase(element));
    suite_add_tcase(suites.isolated, auto_tcase(element));
  }
  suite_add_tcase(s, without_validation(short_buffer_tcase(element)));
  suite_add_tcase(s, without_validation(tenbit_tcase(element)));
  suite_add_tcase(s, without_validation(interlace_tcase(element)));
  return suites;
}

namespace {

// gst-check's set-up; false, having said why, when the plugin did not load.
bool init_check(int* argc, char*** argv) {
  // Meson 1.0 cannot unset a variable in a test's environment.
  g_unsetenv("GST_PLUGIN_FEATURE_RANK");
  gst_check_init(argc, argv);
  // Said once, rather than by every test failing to make an element.
  GstPlugin* plugin = gst_registry_find_plugin(gst_registry_get(), "daedalus");
  if (!plugin) {
    g_printerr(
        "the daedalus plugin did not load "
        "(GST_DEBUG=GST_PLUGIN_LOADING:5 says why)\n");
    return false;
  }
  gst_object_unref(plugin);
  seed();  // printed once, before any check runs
  return true;
}

// Runs `suite` in this process, its checks one after another (check does
// not fork); the number of checks that failed.
int run_in_process(Suite* suite) {
  SRunner* runner = srunner_create(suite);
  srunner_set_fork_status(runner, CK_NOFORK);
  srunner_run_all(runner, CK_NORMAL);
  const int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed;
}

}  // namespace

int run_suite(int argc, char** argv, Suite* (*make_suite)()) {
  if (!init_check(&argc, &argv)) return 1;
  return run_in_process(make_suite()) > 0 ? 1 : 0;
}

int run_element_suite(int argc, char** argv, const ElementSpec& spec,
                      const char* tcase, void (*add_tests)(TCase*)) {
  if (!init_check(&argc, &argv)) return 1;
  const ElementSuites suites = element_suites(&spec);
  if (add_tests) {
    TCase* tc = tcase_create(tcase);
    suite_add_tcase(suites.shared, tc);
    add_tests(tc);
  }
  // Forked first, from a parent that has not loaded a Vulkan driver (a child
  // copies the pages the driver's exit handlers write).
  const int isolated_failed =
      gst_check_run_suite(suites.isolated, spec.factory, __FILE__);
  const int shared_failed = run_in_process(suites.shared);
  // An exit status, not a count (a count of 256 would exit 0).
  return isolated_failed + shared_failed > 0 ? 1 : 0;
}

}  // namespace daedalus::gsttest
