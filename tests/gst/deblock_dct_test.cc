// daedalusdeblock mode=dct: the common element checks with DCT-domain
// re-quantisation (its passthrough decisions: deblock_test.cc), and the gpu
// backend's bytes against the cpu backend's over every format, shift count
// and a spread of strengths.
#include <string>

#include "daedalus/deblock.h"
#include "element_tests.h"
#include "test_util.h"

namespace daedalus::gsttest {
namespace {

DeblockParams dct(int qp, int shifts, int chroma_qp_offset = 0) {
  return {.qp = qp,
          .chroma_qp_offset = chroma_qp_offset,
          .mode = DeblockMode::Dct,
          .shifts = shifts};
}

const ElementSpec kSpec = {
    .factory = "daedalusdeblock",
    .in_place = true,
    .params = "mode=dct qp=36 shifts=8 chroma-qp-offset=3",
    .reference = deblock_with(dct(36, 8, 3)),
    .noop_params = "mode=dct qp=15 chroma-qp-offset=0 shifts=64",
    .numeric = {},
    .enums = {{"shifts",
               {"1", "2", "4", "8", "16", "32", "64"},
               "4",
               {0, 3, 5, 65, 128}}},
    .controlled = {"qp",
                   "mode=dct shifts=2",
                   {0, 30, 51},
                   [](double qp) { return deblock_with(dct(int(qp), 2)); }},
    .kernel = Kernel::DeblockDct,
};

// One format, every shift count, each at a qp of the spread (16: the
// lowest threshold) and a size of its own (1x1, odd, tile edges): the same
// frame through backend=cpu and backend=gpu gives the same bytes, padding
// included.
GST_START_TEST(test_gpu_gives_the_cpu_bytes) {
  if (!create_backend(BackendKind::Gpu) || !create_backend(BackendKind::Cpu))
    return;
  ValidationWatch watch;
  const char* format = kFormats[__i__];
  const int shifts[] = {1, 2, 4, 8, 16, 32, 64};
  const int qps[] = {16, 30, 44, 51, 23, 37, 48};
  const int sizes[][2] = {{1, 1},  {17, 9},  {33, 65}, {64, 36},
                          {7, 31}, {95, 33}, {40, 2}};
  std::mt19937 gen = rng(100 + __i__);
  int changed = 0;
  for (int k = 0; k < 7; k++) {
    const std::string props =
        "mode=dct qp=" + std::to_string(qps[k]) +
        " shifts=" + std::to_string(shifts[k]) +
        " chroma-qp-offset=4 grid-x=" + std::to_string(k) +
        " grid-y=" + std::to_string(2 * k);
    GstVideoInfo info = video_info(format, sizes[k][0], sizes[k][1]);
    GstBuffer* in = random_buffer(info, gen);
    GstBuffer* out[2];
    const char* backends[] = {"cpu", "gpu"};
    for (int b = 0; b < 2; b++) {
      GstHarness* h = new_harness("daedalusdeblock",
                                  (props + " backend=" + backends[b]).c_str());
      gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
      out[b] = push_and_pull(h, gst_buffer_copy_deep(in));
      fail_unless_equals_std_string(active_backend(h->element), backends[b]);
      gst_harness_teardown(h);
    }
    fail_unless(same_bytes(out[0], out[1]), "%s %dx%d %s: %s", format,
                sizes[k][0], sizes[k][1], props.c_str(),
                first_difference(out[0], out[1], info).c_str());
    changed += !same_bytes(in, out[0]);
    for (GstBuffer* b : {in, out[0], out[1]}) gst_buffer_unref(b);
  }
  // Random frames at qp 44 and up (thresholds 112 and up) always change.
  fail_unless(changed >= 3, "only %d frames changed", changed);
  watch.check();
}
GST_END_TEST

void add_tests(TCase* tc) {
  tcase_add_loop_test(tc, test_gpu_gives_the_cpu_bytes, 0, kNumFormats);
}

}  // namespace
}  // namespace daedalus::gsttest

int main(int argc, char** argv) {
  return daedalus::gsttest::run_element_suite(argc, argv,
                                              daedalus::gsttest::kSpec, "dct",
                                              daedalus::gsttest::add_tests);
}
