// 10-bit video (docs/spec.md "High bit depth") through every element: each
// 10-bit format negotiates and gives the kernel library's output on every
// backend the capability table says computes the element's settings, and
// is refused at negotiation, with an error naming the backend and the
// format, on every other backend named; backend=auto runs where the table
// allows; bits outside the samples are ignored on input and 0 in every
// sample written; passthrough hands the input on as it came.
#include <string>

#include "element_tests.h"

namespace daedalus::gsttest {
namespace {

const ElementSpec* spec;

struct Size {
  int width, height;
};
constexpr Size kSizes[] = {{1, 1}, {17, 9}, {34, 65}};
constexpr int kNumSizes = G_N_ELEMENTS(kSizes);

// "auto", then every backend by name.
constexpr int kNumSettings = 1 + G_N_ELEMENTS(kAllBackendKinds);
std::string setting_name(int setting) {
  return setting == 0
             ? "auto"
             : std::string(backend_name(kAllBackendKinds[setting - 1]));
}

// One random frame through the negotiated harness: the library's output,
// and no bit set outside a value in any sample the element wrote.
void check_filtered(GstHarness* h, const GstVideoInfo& info, uint32_t salt,
                    bool with_meta) {
  std::mt19937 gen = rng(salt);
  GstBuffer* in = with_meta ? random_buffer_with_meta(info, 3, gen)
                            : random_buffer(info, gen);
  fail_unless(outside_bits_set(in, info) > 0 || info.width * info.height < 4,
              "the input has no bits outside its samples to ignore");
  GstBuffer* expected =
      expected_output(in, info, spec->reference, spec->in_place);
  GstBuffer* before = gst_buffer_copy_deep(in);
  GstBuffer* out = push_and_pull(h, in);
  fail_if(gst_base_transform_is_passthrough(GST_BASE_TRANSFORM(h->element)));
  check_output(expected, out, info, spec->in_place);
  fail_unless_equals_int(
      outside_bits_set(out, info, spec->in_place ? before : nullptr), 0);
  for (GstBuffer* b : {out, expected, before}) gst_buffer_unref(b);
}

// __i__: format, then setting. The size turns with both, so that every
// format and every setting meets every size (pairs, not all 60 triples:
// each check forks a process and, on the gpu settings and auto, starts a
// Vulkan device; the gpu suites check odd sizes per format themselves).
GST_START_TEST(test_tenbit_formats) {
  const int format_index = __i__ / kNumSettings;
  const char* format = kTenBitFormats[format_index];
  const int setting = __i__ % kNumSettings;
  const Size size = kSizes[(format_index + setting) % kNumSizes];
  const std::string name = setting_name(setting);
  const GstVideoInfo info = video_info(format, size.width, size.height);
  const std::string props = std::string(spec->params) + " backend=" + name;
  GstHarness* h = new_harness(spec->factory, props.c_str());
  const std::string kernel(kernel_name(spec->kernel));

  const BackendKind kind =
      kAllBackendKinds[setting == 0 ? 0 : setting - 1];  // auto: unused
  if (!any_backend_computes(spec->kernel, 10)) {
    // No backend to name: the settings are what is refused.
    expect_refused(h, info, {spec->factory, format, kernel});
  } else if (setting != 0 && !backend_computes(kind, spec->kernel, 10)) {
    expect_refused(h, info, {"\"" + name + "\"", format, kernel});
  } else if (setting != 0 && !create_backend(kind)) {
    g_print("SKIP: no %s backend here\n", name.c_str());
  } else {
    gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
    check_filtered(h, info, __i__, size.width == 17);
    const std::string active = active_backend(h->element);
    bool computes = false;
    for (BackendKind k : kAllBackendKinds)
      computes |=
          active == backend_name(k) && backend_computes(k, spec->kernel, 10);
    fail_unless(computes && (setting == 0 || active == name),
                "backend=%s runs on %s", name.c_str(), active.c_str());
  }
  gst_harness_teardown(h);
}
GST_END_TEST

// P010 with other bits below the values gives the same output (the values
// are the words' top 10 bits).
GST_START_TEST(test_p010_low_bits_ignored) {
  if (!any_backend_computes(spec->kernel, 10)) return;  // refused above
  const GstVideoInfo info = video_info("P010_10LE", 40, 24);
  std::mt19937 gen = rng(__i__);
  GstBuffer* first = random_buffer(info, gen);
  GstBuffer* second = gst_buffer_copy_deep(first);
  GstVideoFrame frame;
  fail_unless(gst_video_frame_map(&frame, &info, second, GST_MAP_READWRITE));
  const Frame v = frame_view(frame);
  for (int c = 0; c < v.num_planes; c++)
    for (int y = 0; y < v.planes[c].height; y++)
      for (int x = 0; x < v.planes[c].width; x++)
        set_sample(v.planes[c], x, y, value_at(v.planes[c], x, y),
                   uint16_t(gen() | 1));
  gst_video_frame_unmap(&frame);
  fail_if(same_bytes(first, second));

  GstHarness* h = new_harness(spec->factory, spec->params);
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  GstBuffer* out[2];
  GstBuffer* in[2] = {first, second};
  for (int i = 0; i < 2; i++) {
    gst_buffer_ref(in[i]);
    out[i] = push_and_pull(h, in[i]);
    fail_unless_equals_int(outside_bits_set(out[i], info, in[i]), 0);
  }
  // In place, the samples left alone keep their own low bits: compare the
  // values.
  GstVideoFrame a, b;
  fail_unless(gst_video_frame_map(&a, &info, out[0], GST_MAP_READ));
  fail_unless(gst_video_frame_map(&b, &info, out[1], GST_MAP_READ));
  const Frame va = frame_view(a), vb = frame_view(b);
  for (int c = 0; c < va.num_planes; c++)
    for (int y = 0; y < va.planes[c].height; y++)
      for (int x = 0; x < va.planes[c].width; x++)
        fail_unless_equals_int(value_at(va.planes[c], x, y),
                               value_at(vb.planes[c], x, y));
  gst_video_frame_unmap(&b);
  gst_video_frame_unmap(&a);
  for (int i = 0; i < 2; i++) {
    gst_buffer_unref(out[i]);
    gst_buffer_unref(in[i]);
  }
  gst_harness_teardown(h);
}
GST_END_TEST

// Settings that change nothing: the input buffer itself, bits outside the
// samples included (docs/spec.md "High bit depth", Decisions).
GST_START_TEST(test_tenbit_passthrough) {
  if (!any_backend_computes(spec->kernel, 10)) return;  // refused above
  const GstVideoInfo info = video_info(kTenBitFormats[__i__], 33, 17);
  GstHarness* h = new_harness(spec->factory, spec->noop_params);
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  std::mt19937 gen = rng(__i__);
  GstBuffer* in = random_buffer(info, gen);
  GstBuffer* copy = gst_buffer_copy_deep(in);
  gst_buffer_ref(in);
  GstBuffer* out = push_and_pull(h, in);
  fail_unless(out == in && same_bytes(out, copy),
              "not passed through as it came");
  for (GstBuffer* b : {out, in, copy}) gst_buffer_unref(b);
  gst_harness_teardown(h);
}
GST_END_TEST

}  // namespace

TCase* tenbit_tcase(const ElementSpec* element) {
  spec = element;
  TCase* tc = tcase_create("tenbit");
  tcase_add_loop_test(tc, test_tenbit_formats, 0,
                      kNumTenBitFormats * kNumSettings);
  tcase_add_test(tc, test_p010_low_bits_ignored);
  tcase_add_loop_test(tc, test_tenbit_passthrough, 0, kNumTenBitFormats);
  return tc;
}

}  // namespace daedalus::gsttest
