// A buffer smaller than its caps say (docs/spec.md, "Short buffers"): passed on
// downstream as it came, unfiltered, with one warning that names the buffer,
// its size and the size its caps (or its GstVideoMeta) need; the next buffer
// is filtered as usual.
#include <string>

#include "element_tests.h"

namespace daedalus::gsttest {
namespace {

const ElementSpec* spec;

// The warning posted for `in`, which must be the only message on `bus`.
void check_warning(GstBus* bus, GstBuffer* in, gsize size, gsize expected) {
  GstMessage* msg = gst_bus_pop(bus);
  fail_unless(msg != nullptr, "no message on the bus");
  fail_unless_equals_int(GST_MESSAGE_TYPE(msg), GST_MESSAGE_WARNING);
  GError* error = nullptr;
  gchar* debug = nullptr;
  gst_message_parse_warning(msg, &error, &debug);
  fail_unless(g_error_matches(error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT),
              "warning: %s", error->message);
  const std::string text = debug;
  char name[32];
  std::snprintf(name, sizeof name, "%p", static_cast<void*>(in));
  for (const std::string& part :
       {std::string(name), std::to_string(size) + " bytes",
        "need " + std::to_string(expected)}) {
    fail_unless(text.find(part) != std::string::npos, "'%s' not in '%s'",
                part.c_str(), text.c_str());
  }
  g_error_free(error);
  g_free(debug);
  gst_message_unref(msg);
  fail_unless(gst_bus_pop(bus) == nullptr, "more than one message");
}

// __i__ bit 0: 0 a buffer in the caps' layout, 1 one with a GstVideoMeta of
// its own; bit 1: I420, or P010_10LE (on a backend that computes it).
GST_START_TEST(test_short_buffer) {
  const bool ten_bit = __i__ & 2;
  if (ten_bit && !any_backend_computes(spec->kernel, 10)) return;
  GstHarness* h = new_harness(spec->factory, spec->params);
  GstBus* bus = gst_bus_new();
  gst_element_set_bus(h->element, bus);
  const GstVideoInfo info = video_info(ten_bit ? "P010_10LE" : "I420", 33, 17);
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  std::mt19937 gen = rng(__i__);

  GstBuffer* in = __i__ & 1 ? random_buffer_with_meta(info, 19, gen)
                            : random_buffer(info, gen);
  gsize expected = info.size;
  if (GstVideoMeta* meta = gst_buffer_get_video_meta(in)) {
    // Plane 0 comes last in that layout.
    expected =
        meta->offset[0] + gsize(meta->stride[0]) * GST_VIDEO_INFO_HEIGHT(&info);
  }
  gst_buffer_resize(in, 0, expected - 1);
  GST_BUFFER_PTS(in) = 3 * GST_SECOND;
  GstBuffer* copy = gst_buffer_copy_deep(in);
  gst_buffer_ref(in);  // to compare with
  GstBuffer* out = push_and_pull(h, in);
  fail_unless(out == in, "the short buffer is not passed on as it came");
  fail_unless(same_bytes(out, copy), "the short buffer was written");
  check_warning(bus, in, expected - 1, expected);
  gst_buffer_unref(out);
  gst_buffer_unref(in);
  gst_buffer_unref(copy);

  // The stream goes on: the next, whole, buffer is filtered.
  GstBuffer* whole = random_buffer(info, gen);
  GstBuffer* want =
      expected_output(whole, info, spec->reference, spec->in_place);
  out = push_and_pull(h, whole);
  check_output(want, out, info, spec->in_place);
  fail_unless(gst_bus_pop(bus) == nullptr, "a message for a whole buffer");
  gst_buffer_unref(out);
  gst_buffer_unref(want);

  gst_element_set_bus(h->element, nullptr);
  gst_object_unref(bus);
  gst_harness_teardown(h);
}
GST_END_TEST

}  // namespace

TCase* short_buffer_tcase(const ElementSpec* element) {
  spec = element;
  TCase* tc = tcase_create("short-buffer");
  tcase_add_loop_test(tc, test_short_buffer, 0, 4);
  return tc;
}

}  // namespace daedalus::gsttest
