// daedalusdeblock mode=vp9: the common element checks with the VP9 loop
// filter, its passthrough decision and the properties each mode ignores.
#include "daedalus/deblock.h"
#include "element_tests.h"

namespace daedalus::gsttest {
namespace {

DeblockParams vp9(int level, int sharpness, int block) {
  DeblockParams p;
  p.mode = DeblockMode::Vp9;
  p.filter_level = level;
  p.sharpness = sharpness;
  p.block_size = block;
  return p;
}

Reference deblock_with(DeblockParams params) {
  return [params](Backend& backend, const Frame& dst, const ConstFrame&) {
    return backend.deblock(dst, params);
  };
}

const ElementSpec kSpec = {
    .factory = "daedalusdeblock",
    .in_place = true,
    .params = "mode=vp9 filter-level=40 sharpness=2 block-size=8",
    .reference = deblock_with(vp9(40, 2, 8)),
    .noop_params = "mode=vp9 filter-level=0",
    .numeric = {{"filter-level", 0, 63, 10, true},
                {"sharpness", 0, 7, 0, true}},
    .enums = {{"mode", {"h264", "vp9"}, "h264", {2, 7}}},
    .controlled = {"filter-level", "mode=vp9 sharpness=1 block-size=8",
                   {0, 20, 63},
                   [](double level) {
                     return deblock_with(vp9(int(level), 1, 8));
                   }},
};

// Pushes one frame through `props` and checks the output against `params`
// in the library, and whether the element passed it through.
void check_decision(const char* props, const DeblockParams& params,
                    const char* format, bool noop, uint32_t salt) {
  GstHarness* h = new_harness("daedalusdeblock", props);
  GstVideoInfo info = video_info(format, 33, 17);
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  std::mt19937 gen = rng(salt);
  GstBuffer* in = random_buffer(info, gen);
  GstBuffer* expected = expected_output(in, info, deblock_with(params), true);
  gst_buffer_ref(in);
  GstBuffer* out = push_and_pull(h, in);
  fail_unless_equals_int(
      gst_base_transform_is_passthrough(GST_BASE_TRANSFORM(h->element)), noop);
  fail_unless(same_bytes(expected, out), "%s on %s: wrong output", props,
              format);
  fail_unless_equals_int(out == in, noop);
  gst_buffer_unref(out);
  gst_buffer_unref(in);
  gst_buffer_unref(expected);
  gst_harness_teardown(h);
}

// Passthrough exactly at filter-level 0, whatever the h264 properties say;
// and mode=h264 ignores filter-level.
GST_START_TEST(test_mode_decides_what_counts) {
  DeblockParams h264_off;
  h264_off.qp = 0;
  // qp 0 turns mode=h264 off, not mode=vp9.
  check_decision("mode=vp9 qp=0 filter-level=30", vp9(30, 0, 8), "I420",
                 false, 1);
  check_decision("mode=vp9 qp=51 bs=4 filter-level=0", vp9(0, 0, 8), "NV12",
                 true, 2);
  // filter-level 0 does not turn mode=h264 off; qp 0 does.
  DeblockParams h264_on;
  check_decision("filter-level=0", h264_on, "GRAY8", false, 3);
  check_decision("mode=h264 qp=0 filter-level=63", h264_off, "Y444", true, 4);
}
GST_END_TEST

// The h264 properties change nothing in mode=vp9: the same output with any.
GST_START_TEST(test_h264_properties_ignored) {
  check_decision(
      "mode=vp9 filter-level=40 qp=51 alpha-offset=12 beta-offset=-12 "
      "chroma-qp-offset=7 bs=4 block-size=4",
      vp9(40, 0, 4), "Y42B", false, 5);
}
GST_END_TEST

Suite* daedalusdeblock_vp9_suite() {
  Suite* s = element_suite(&kSpec);
  TCase* tc = tcase_create("deblock-vp9");
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_mode_decides_what_counts);
  tcase_add_test(tc, test_h264_properties_ignored);
  return s;
}

}  // namespace
}  // namespace daedalus::gsttest

int main(int argc, char** argv) {
  return daedalus::gsttest::run_suite(argc, argv,
                                      daedalus::gsttest::daedalusdeblock_vp9_suite,
                                      "daedalusdeblock");
}
