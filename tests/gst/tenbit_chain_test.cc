// A 10-bit chain daedalusdeblock ! daedaluscdef ! daedalusmc with nothing
// converting between the elements (docs/spec.md "High bit depth"): every
// 10-bit format negotiates end to end, comes out in the format it went in,
// and each frame is the kernel library's three calls in a row.
#include <string>

#include "element_tests.h"

namespace daedalus::gsttest {
namespace {

const DeblockParams kDeblock = {.qp = 40, .bs = 2};
const CdefParams kCdef = {.pri_strength = 9,
                          .sec_strength = 2,
                          .uv_pri_strength = 5,
                          .uv_sec_strength = 1,
                          .damping = 5};
const McParams kMc = {.dx = 0.5, .dy = -1.25, .filter = McFilter::Regular};
constexpr const char* kChain =
    "daedalusdeblock qp=40 bs=2 ! "
    "daedaluscdef pri-strength=9 sec-strength=2 uv-pri-strength=5 "
    "uv-sec-strength=1 damping=5 ! "
    "daedalusmc dx=0.5 dy=-1.25 filter=regular";

GST_START_TEST(test_chain) {
  const char* format = kTenBitFormats[__i__];
  const GstVideoInfo info = video_info(format, 48, 34);
  GstHarness* h = gst_harness_new_parse(kChain);
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  std::mt19937 gen = rng(__i__);
  for (int frame = 0; frame < 3; frame++) {
    GstBuffer* in = random_buffer(info, gen);
    GstBuffer* expected = expected_chain_output(in, info, kDeblock, kCdef, kMc);
    GstBuffer* out = push_and_pull(h, in);
    check_output(expected, out, info, false);
    fail_unless_equals_int(outside_bits_set(out, info), 0);
    gst_buffer_unref(out);
    gst_buffer_unref(expected);
  }
  // What the chain handed downstream: the format it was given.
  GstCaps* out_caps = gst_pad_get_current_caps(h->sinkpad);
  GstVideoInfo out_info;
  fail_unless(gst_video_info_from_caps(&out_info, out_caps));
  fail_unless_equals_string(GST_VIDEO_INFO_NAME(&out_info), format);
  gst_caps_unref(out_caps);
  gst_harness_teardown(h);
}
GST_END_TEST

Suite* tenbit_chain_suite() {
  Suite* s = suite_create("tenbit-chain");
  TCase* tc = tcase_create("chain");
  suite_add_tcase(s, tc);
  tcase_add_loop_test(tc, test_chain, 0, kNumTenBitFormats);
  return s;
}

}  // namespace
}  // namespace daedalus::gsttest

int main(int argc, char** argv) {
  return daedalus::gsttest::run_suite(argc, argv,
                                      daedalus::gsttest::tenbit_chain_suite);
}
