// daedaluscdef: the common element checks plus passthrough decisions and
// which planes each strength reaches.
#include "daedalus/cdef.h"
#include "element_tests.h"

namespace daedalus::gsttest {
namespace {

const ElementSpec kSpec = {
    .factory = "daedaluscdef",
    .in_place = false,
    .params =
        "pri-strength=9 sec-strength=3 uv-pri-strength=5 "
        "uv-sec-strength=2 damping=5",
    .reference = cdef_with({.pri_strength = 9,
                            .sec_strength = 3,
                            .uv_pri_strength = 5,
                            .uv_sec_strength = 2,
                            .damping = 5}),
    .noop_params =
        "pri-strength=0 sec-strength=0 uv-pri-strength=0 "
        "uv-sec-strength=0",
    .numeric = {{"pri-strength", 0, 15, 4, true},
                {"sec-strength", 0, 4, 0, true},
                {"uv-pri-strength", 0, 15, 4, true},
                {"uv-sec-strength", 0, 4, 0, true},
                {"damping", 3, 6, 5, true}},
    .enums = {},
    .controlled = {"pri-strength",
                   "sec-strength=0 uv-pri-strength=0 uv-sec-strength=0 "
                   "damping=4",
                   {0, 6, 15},
                   [](double pri) {
                     return cdef_with({.pri_strength = int(pri),
                                       .sec_strength = 0,
                                       .uv_pri_strength = 0,
                                       .uv_sec_strength = 0,
                                       .damping = 4});
                   }},
    // Passthrough exactly when every strength is 0; damping alone does
    // nothing.
    .noop_cases =
        {{"pri-strength=0 sec-strength=0 uv-pri-strength=0 "
          "uv-sec-strength=0 damping=6",
          "I420", true,
          cdef_with({.pri_strength = 0, .uv_pri_strength = 0, .damping = 6})},
         {"pri-strength=0 sec-strength=0 uv-pri-strength=0 uv-sec-strength=1",
          "I420", false,
          cdef_with(
              {.pri_strength = 0, .uv_pri_strength = 0, .uv_sec_strength = 1})},
         {"pri-strength=0 sec-strength=0 uv-pri-strength=1 uv-sec-strength=0",
          "I420", false, cdef_with({.pri_strength = 0, .uv_pri_strength = 1})},
         {"pri-strength=0 sec-strength=1 uv-pri-strength=0 uv-sec-strength=0",
          "I420", false,
          cdef_with(
              {.pri_strength = 0, .sec_strength = 1, .uv_pri_strength = 0})},
         {"pri-strength=1 sec-strength=0 uv-pri-strength=0 uv-sec-strength=0",
          "I420", false, cdef_with({.pri_strength = 1, .uv_pri_strength = 0})}},
    .kernel = Kernel::Cdef,
};

// Luma strengths reach luma only, chroma strengths chroma only: the plane
// whose strengths are 0 comes out as it went in, whatever the format.
GST_START_TEST(test_strengths_per_plane) {
  const char* format = kFormats[__i__ / 2];
  const bool luma = __i__ % 2 == 0;
  GstHarness* h = new_harness("daedaluscdef",
                              luma ? "pri-strength=15 sec-strength=4 "
                                     "uv-pri-strength=0 uv-sec-strength=0"
                                   : "pri-strength=0 sec-strength=0 "
                                     "uv-pri-strength=15 uv-sec-strength=4");
  GstVideoInfo info = video_info(format, 40, 24);
  GstBuffer* in = nullptr;
  GstBuffer* out = push_random_frame(h, info, __i__, &in);

  const int n = GST_VIDEO_INFO_N_COMPONENTS(&info);
  for (int c = 0; c < n; c++) {
    const bool filtered = (c == 0) == luma;
    const std::string diff = first_difference(in, out, info, c);
    if (filtered) {
      fail_if(diff.empty(), "%s: component %d not filtered", format, c);
    } else {
      fail_unless(diff.empty(), "%s: component %d changed: %s", format, c,
                  diff.c_str());
    }
  }
  gst_buffer_unref(out);
  gst_buffer_unref(in);
  gst_harness_teardown(h);
}
GST_END_TEST

void add_tests(TCase* tc) {
  // Every format with chroma, luma strengths then chroma ones.
  tcase_add_loop_test(tc, test_strengths_per_plane, 0, 2 * (kNumFormats - 1));
}

}  // namespace
}  // namespace daedalus::gsttest

int main(int argc, char** argv) {
  return daedalus::gsttest::run_element_suite(argc, argv,
                                              daedalus::gsttest::kSpec, "cdef",
                                              daedalus::gsttest::add_tests);
}
