// A real 10-bit file through the elements: HEVC Main10, made at test time
// by x265enc, decoded by avdec_h265 to I420_10LE, and filtered by
// daedalusdeblock ! daedaluscdef ! daedalusmc with no conversion. Each
// filtered frame must be the kernel library's three calls on the decoded
// frame (both branches of one tee). Needs the system's plugins
// (gstreamer1.0-plugins-bad for x265enc, gstreamer1.0-libav for
// avdec_h265, both installed by tools/setup-debian.sh); skips, saying
// which is missing, where they are not.
#include <glib/gstdio.h>

#include <string>
#include <vector>

#include "test_util.h"

namespace daedalus::gsttest {
namespace {

constexpr int kFrames = 6;
const DeblockParams kDeblock = {.qp = 44, .bs = 3};
const CdefParams kCdef = {.pri_strength = 12,
                          .sec_strength = 2,
                          .uv_pri_strength = 6,
                          .uv_sec_strength = 1,
                          .damping = 4};
const McParams kMc = {.dx = 0.25, .dy = 0.75, .filter = McFilter::Sharp};
constexpr const char* kChain =
    "daedalusdeblock qp=44 bs=3 ! "
    "daedaluscdef pri-strength=12 sec-strength=2 uv-pri-strength=6 "
    "uv-sec-strength=1 damping=4 ! daedalusmc dx=0.25 dy=0.75 filter=sharp";

// Runs `launch` to its end; fails the test on an error.
GstElement* run_pipeline(const std::string& launch) {
  GError* error = nullptr;
  GstElement* pipeline = gst_parse_launch(launch.c_str(), &error);
  fail_unless(pipeline != nullptr && error == nullptr, "%s: %s", launch.c_str(),
              error ? error->message : "");
  return pipeline;
}

void wait_for_eos(GstElement* pipeline) {
  fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) !=
              GST_STATE_CHANGE_FAILURE);
  GstBus* bus = gst_element_get_bus(pipeline);
  GstMessage* msg = gst_bus_timed_pop_filtered(
      bus, 60 * GST_SECOND,
      GstMessageType(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  fail_unless(msg != nullptr, "the pipeline did not finish");
  if (GST_MESSAGE_TYPE(msg) == GST_MESSAGE_ERROR) {
    GError* error = nullptr;
    gchar* debug = nullptr;
    gst_message_parse_error(msg, &error, &debug);
    fail("%s (%s)", error->message, debug ? debug : "");
  }
  gst_message_unref(msg);
  gst_object_unref(bus);
}

// Every sample an appsink holds, in order.
std::vector<GstSample*> pull_all(GstElement* pipeline, const char* name) {
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), name);
  std::vector<GstSample*> samples;
  for (;;) {
    GstSample* sample = nullptr;
    g_signal_emit_by_name(sink, "try-pull-sample", GstClockTime(0), &sample);
    if (!sample) break;
    samples.push_back(sample);
  }
  gst_object_unref(sink);
  return samples;
}

GST_START_TEST(test_hevc_main10_file) {
  for (const char* needed : {"x265enc", "avdec_h265", "h265parse"}) {
    GstElementFactory* f = gst_element_factory_find(needed);
    if (!f) {
      g_print("SKIP: no %s (tools/setup-debian.sh installs it)\n", needed);
      return;
    }
    gst_object_unref(f);
  }
  gchar* dir = g_dir_make_tmp("daedalus-10bit-XXXXXX", nullptr);
  fail_unless(dir != nullptr);
  const std::string file = std::string(dir) + "/main10.h265";

  GstElement* encode = run_pipeline(
      "videotestsrc num-buffers=" + std::to_string(kFrames) +
      " pattern=ball ! video/x-raw,format=I420_10LE,width=80,height=48,"
      "framerate=30/1 ! x265enc speed-preset=ultrafast bitrate=30 ! "
      "video/x-h265,profile=main-10 ! filesink location=" +
      file);
  wait_for_eos(encode);
  gst_element_set_state(encode, GST_STATE_NULL);
  gst_object_unref(encode);

  GstElement* filter = run_pipeline(
      "filesrc location=" + file +
      " ! h265parse ! avdec_h265 ! "
      "video/x-raw,format=I420_10LE ! tee name=t "
      "t. ! queue ! appsink name=decoded sync=false wait-on-eos=false "
      "t. ! queue ! " +
      kChain + " ! appsink name=filtered sync=false wait-on-eos=false");
  wait_for_eos(filter);
  std::vector<GstSample*> decoded = pull_all(filter, "decoded");
  std::vector<GstSample*> filtered = pull_all(filter, "filtered");
  fail_unless_equals_int(decoded.size(), kFrames);
  fail_unless_equals_int(filtered.size(), kFrames);

  GstVideoInfo info;
  fail_unless(
      gst_video_info_from_caps(&info, gst_sample_get_caps(filtered[0])));
  fail_unless_equals_string(GST_VIDEO_INFO_NAME(&info), "I420_10LE");
  int changed = 0;
  for (int i = 0; i < kFrames; i++) {
    GstBuffer* in = gst_sample_get_buffer(decoded[i]);
    GstBuffer* expected = expected_chain_output(in, info, kDeblock, kCdef, kMc);
    GstBuffer* out = gst_sample_get_buffer(filtered[i]);
    const std::string diff = first_difference(expected, out, info);
    fail_unless(diff.empty(), "frame %d: %s", i, diff.c_str());
    changed += !first_difference(in, out, info).empty();
    gst_buffer_unref(expected);
  }
  fail_unless_equals_int(changed, kFrames);
  for (GstSample* s : decoded) gst_sample_unref(s);
  for (GstSample* s : filtered) gst_sample_unref(s);
  gst_element_set_state(filter, GST_STATE_NULL);
  gst_object_unref(filter);
  g_remove(file.c_str());
  g_rmdir(dir);
  g_free(dir);
}
GST_END_TEST

Suite* tenbit_file_suite() {
  Suite* s = suite_create("tenbit-file");
  TCase* tc = tcase_create("hevc");
  tcase_set_timeout(tc, 120);
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_hevc_main10_file);
  return s;
}

}  // namespace
}  // namespace daedalus::gsttest

int main(int argc, char** argv) {
  gst_check_init(&argc, &argv);
  // The plugin under test, not one installed on the system.
  GstPlugin* plugin = gst_registry_find_plugin(gst_registry_get(), "daedalus");
  const char* want = g_getenv("DAEDALUS_TEST_PLUGIN_DIR");
  const bool ours =
      plugin && want && g_str_has_prefix(gst_plugin_get_filename(plugin), want);
  if (!ours) {
    g_printerr("the daedalus plugin under test did not load (found %s)\n",
               plugin ? gst_plugin_get_filename(plugin) : "none");
    return 1;
  }
  gst_object_unref(plugin);
  daedalus::gsttest::seed();
  return gst_check_run_suite(daedalus::gsttest::tenbit_file_suite(),
                             "tenbit-file", __FILE__);
}
