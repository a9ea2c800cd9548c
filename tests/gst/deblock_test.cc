// daedalusdeblock: the common element checks plus block-size syntax and
// passthrough decisions worked out from the H.264 tables and, in mode=vp9,
// filter-level (the common checks of mode=vp9: deblock_vp9_test.cc).
#include "daedalus/deblock.h"
#include "element_tests.h"

namespace daedalus::gsttest {
namespace {

const ElementSpec kSpec = {
    .factory = "daedalusdeblock",
    .in_place = true,
    .params =
        "qp=40 alpha-offset=3 beta-offset=-2 chroma-qp-offset=5 bs=3 "
        "block-size=4",
    .reference = deblock_with({.qp = 40,
                               .alpha_offset = 3,
                               .beta_offset = -2,
                               .chroma_qp_offset = 5,
                               .bs = 3,
                               .block_size = 4}),
    // indexA <= 0 + 3 + 5 < 16: ALPHA is 0 in every plane.
    .noop_params = "qp=0",
    .numeric = {{"qp", 0, 51, 30, true},
                {"alpha-offset", -12, 12, 0, true},
                {"beta-offset", -12, 12, 0, true},
                {"chroma-qp-offset", -51, 12, 0, true},
                {"bs", 1, 4, 1, true},
                {"grid-x", 0, 15, 0, true},
                {"grid-y", 0, 15, 0, true}},
    .enums = {{"block-size", {"4", "8", "16"}, "8", {0, 5, 12, 32}}},
    .controlled = {"qp",
                   "alpha-offset=2 bs=4",
                   {0, 30, 45},
                   [](double qp) {
                     return deblock_with(
                         {.qp = int(qp), .alpha_offset = 2, .bs = 4});
                   }},
    // Passthrough exactly when ALPHA or BETA is 0 in every plane the format has
    // (Table 8-16: ALPHA[i] == 0 and BETA[i] == 0 for i < 16, non-zero above).
    .noop_cases =
        {
            // indexA = 15 everywhere (chroma: QPc(15) = 15).
            {"qp=15", "I420", true, deblock_with({.qp = 15})},
            // indexA = indexB = 16: ALPHA 4, BETA 3.
            {"qp=16", "GRAY8", false, deblock_with({.qp = 16})},
            // indexB = 20 - 12 = 8 in luma and chroma (QPc(20) = 20).
            {"qp=20 beta-offset=-12", "NV12", true,
             deblock_with({.qp = 20, .beta_offset = -12})},
            // Luma indexA 10; chroma qp QPc(22) = 22, so chroma is filtered...
            {"qp=10 chroma-qp-offset=12", "I420", false,
             deblock_with({.qp = 10, .chroma_qp_offset = 12})},
            // ...unless there is no chroma.
            {"qp=10 chroma-qp-offset=12", "GRAY8", true,
             deblock_with({.qp = 10, .chroma_qp_offset = 12})},
            // 4:4:4 chroma, luma filter: chroma qp QPc(24) = 24 is filtered.
            {"qp=14 chroma-qp-offset=10 bs=4", "Y444", false,
             deblock_with({.qp = 14, .chroma_qp_offset = 10, .bs = 4})},
            // Offsets alone: indexA = 51 - 12 = 39, indexB = 39.
            {"qp=51 alpha-offset=-12 beta-offset=-12", "Y42B", false,
             deblock_with({.qp = 51, .alpha_offset = -12, .beta_offset = -12})},
            // mode=vp9 is off at filter-level 0 only, whatever the h264
            // properties;
            // its output ignores them (here they would filter hard on their
            // own)...
            {"mode=vp9 qp=0 filter-level=30", "I420", false,
             deblock_with({.mode = DeblockMode::Vp9, .filter_level = 30})},
            {"mode=vp9 qp=51 bs=4 filter-level=0", "NV12", true,
             deblock_with({.mode = DeblockMode::Vp9, .filter_level = 0})},
            {"mode=vp9 filter-level=40 qp=51 alpha-offset=12 beta-offset=-12 "
             "chroma-qp-offset=7 bs=4 block-size=4",
             "Y42B", false,
             deblock_with({.block_size = 4,
                           .mode = DeblockMode::Vp9,
                           .filter_level = 40})},
            // mode=dct is off where every plane's qp is at most 15, whatever
            // the
            // h264 offsets and filter-level...
            {"mode=dct qp=15 alpha-offset=12 beta-offset=12 bs=4", "I420", true,
             deblock_with({.qp = 15,
                           .alpha_offset = 12,
                           .beta_offset = 12,
                           .bs = 4,
                           .mode = DeblockMode::Dct})},
            // ...chroma at QPc(15 + 12) = 27 is filtered, luma at 15 is not...
            {"mode=dct qp=15 chroma-qp-offset=12 shifts=2", "NV21", false,
             deblock_with({.qp = 15,
                           .chroma_qp_offset = 12,
                           .mode = DeblockMode::Dct,
                           .shifts = 2})},
            // ...which a gray frame does not have.
            {"mode=dct qp=15 chroma-qp-offset=12", "GRAY8", true,
             deblock_with(
                 {.qp = 15, .chroma_qp_offset = 12, .mode = DeblockMode::Dct})},
            {"mode=dct qp=16 shifts=1 filter-level=0", "Y42B", false,
             deblock_with({.qp = 16, .mode = DeblockMode::Dct, .shifts = 1})},
            // chroma-qp-offset -51 (under H.264's range) turns chroma off,
            // luma stays filtered, in both modes.
            {"mode=dct qp=40 chroma-qp-offset=-51", "NV12", false,
             deblock_with({.qp = 40,
                           .chroma_qp_offset = -51,
                           .mode = DeblockMode::Dct})},
            {"qp=51 alpha-offset=12 chroma-qp-offset=-51", "I420", false,
             deblock_with(
                 {.qp = 51, .alpha_offset = 12, .chroma_qp_offset = -51})},
            // ...and mode=h264 ignores filter-level.
            {"filter-level=0", "GRAY8", false, deblock_with({})},
            {"mode=h264 qp=0 filter-level=63", "Y444", true,
             deblock_with({.qp = 0, .filter_level = 63})},
        },
    .kernel = Kernel::DeblockH264,
};

// block-size takes its nicks, as gst-launch-1.0 writes them, and nothing else.
GST_START_TEST(test_block_size_syntax) {
  GstElement* element = new_element("daedalusdeblock");
  for (int size : {16, 4, 8}) {
    gst_util_set_object_arg(G_OBJECT(element), "block-size",
                            std::to_string(size).c_str());
    gint now;
    g_object_get(element, "block-size", &now, nullptr);
    fail_unless_equals_int(now, size);
  }
  gst_util_set_object_arg(G_OBJECT(element), "block-size", "5");
  gint now;
  g_object_get(element, "block-size", &now, nullptr);
  fail_unless_equals_int(now, 8);
  gst_object_unref(element);

  GError* error = nullptr;
  element = gst_parse_launch("daedalusdeblock block-size=16", &error);
  fail_unless(element != nullptr && error == nullptr);
  g_object_get(element, "block-size", &now, nullptr);
  fail_unless_equals_int(now, 16);
  gst_object_unref(element);

  element = gst_parse_launch("daedalusdeblock block-size=12", &error);
  fail_unless(error != nullptr, "block-size=12 accepted");
  g_clear_error(&error);
  gst_clear_object(&element);
}
GST_END_TEST

// mode=dct set mid-stream on 10-bit video: the frame is the library's.
GST_START_TEST(test_tenbit_dct_mid_stream) {
  const GstVideoInfo info = video_info("I420_10LE", 33, 17);
  GstHarness* h = new_harness("daedalusdeblock", "qp=40 backend=cpu");
  if (!create_backend(BackendKind::Cpu)) {
    g_print("SKIP: no cpu backend here\n");
    gst_harness_teardown(h);
    return;
  }
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  std::mt19937 gen = rng(0);
  gst_buffer_unref(push_and_pull(h, random_buffer(info, gen)));

  set_properties(h->element, "mode=dct shifts=2");
  GstBuffer* in = random_buffer(info, gen);
  const DeblockParams dct = {.qp = 40, .mode = DeblockMode::Dct, .shifts = 2};
  GstBuffer* expected = expected_output(in, info, deblock_with(dct), true);
  GstBuffer* out = push_and_pull(h, in);
  check_output(expected, out, info, true);
  gst_buffer_unref(out);
  gst_buffer_unref(expected);
  gst_harness_teardown(h);
}
GST_END_TEST

void add_tests(TCase* tc) {
  tcase_add_test(tc, test_block_size_syntax);
  tcase_add_test(tc, test_tenbit_dct_mid_stream);
}

}  // namespace
}  // namespace daedalus::gsttest

int main(int argc, char** argv) {
  return daedalus::gsttest::run_element_suite(
      argc, argv, daedalus::gsttest::kSpec, "deblock",
      daedalus::gsttest::add_tests);
}
