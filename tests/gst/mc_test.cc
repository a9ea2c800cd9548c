// daedalusmc: the common element checks plus integer shifts worked out from
// the definition, and passthrough at the rounding boundary.
#include "daedalus/mc.h"
#include "element_tests.h"

#include <algorithm>

namespace daedalus::gsttest {
namespace {

const ElementSpec kSpec = {
    .factory = "daedalusmc",
    .in_place = false,
    .params = "dx=3.3 dy=-1.7 filter=sharp",
    .reference = mc_with({.dx = 3.3, .dy = -1.7, .filter = McFilter::Sharp}),
    .noop_params = "dx=0 dy=0",
    .numeric = {{"dx", -4096, 4096, 0, true}, {"dy", -4096, 4096, 0, true}},
    .enums = {{"filter",
               {"regular", "sharp", "smooth", "bilinear"},
               "regular",
               {4, -1}}},
    .controlled = {"dx",
                   "filter=smooth",
                   {0, 1.25, -3.5},
                   [](double dx) {
                     return mc_with({.dx = dx, .filter = McFilter::Smooth});
                   }},
    // Passthrough exactly when round_half_away_from_zero(d * 16) is 0 on
    // both axes (chroma's d * 8 is then 0 too): 0.03 * 16 = 0.48 rounds to
    // 0, 0.04 * 16 = 0.64 to 1, 0.03125 * 16 = 0.5 to 1 and -0.5 to -1.
    .noop_cases = {{"dx=0.03 dy=0", "NV12", true, mc_with({.dx = 0.03})},
                   {"dx=0.04 dy=0", "NV12", false, mc_with({.dx = 0.04})},
                   {"dx=0 dy=-0.03", "NV12", true, mc_with({.dy = -0.03})},
                   {"dx=0.03125 dy=0", "NV12", false, mc_with({.dx = 0.03125})},
                   {"dx=0 dy=-0.03125", "NV12", false,
                    mc_with({.dy = -0.03125})},
                   {"dx=-0.03 dy=0.03", "NV12", true,
                    mc_with({.dx = -0.03, .dy = 0.03})},
                   {"dx=0 dy=0 filter=sharp", "NV12", true,
                    mc_with({.filter = McFilter::Sharp})}},
    .progressive_only = true,
    .kernel = Kernel::Mc,
};

// Whole-sample shifts (also in subsampled chroma) copy samples: out(x, y) =
// in(x + dx, y + dy) per plane in that plane's samples, coordinates clamped
// into the plane. Checked sample by sample without the kernel library, so
// that a mix-up of planes, U and V or interleaving shows.
struct Shift {
  int dx, dy;
};
constexpr Shift kShifts[] = {{2, -2}, {-40, 26}};
constexpr const char* kFilters[] = {"regular", "sharp", "smooth", "bilinear"};

GST_START_TEST(test_integer_shift) {
  const char* format = kFormats[__i__ % kNumFormats];
  const Shift shift = kShifts[__i__ / kNumFormats];
  const std::string props = "dx=" + std::to_string(shift.dx) +
                            " dy=" + std::to_string(shift.dy) +
                            " filter=" + kFilters[__i__ % 4];
  GstHarness* h = new_harness("daedalusmc", props.c_str());
  GstVideoInfo info = video_info(format, 17, 9);
  GstBuffer* in = nullptr;
  GstBuffer* out = push_random_frame(h, info, __i__, &in);

  GstVideoFrame fin, fout;
  fail_unless(gst_video_frame_map(&fin, &info, in, GST_MAP_READ));
  fail_unless(gst_video_frame_map(&fout, &info, out, GST_MAP_READ));
  const Frame vin = frame_view(fin), vout = frame_view(fout);
  for (int c = 0; c < vin.num_planes; c++) {
    const int sx = c ? vin.chroma_shift_x : 0, sy = c ? vin.chroma_shift_y : 0;
    const Plane &pin = vin.planes[c], &pout = vout.planes[c];
    for (int y = 0; y < pin.height; y++) {
      for (int x = 0; x < pin.width; x++) {
        const int ix = std::clamp(x + (shift.dx >> sx), 0, pin.width - 1);
        const int iy = std::clamp(y + (shift.dy >> sy), 0, pin.height - 1);
        fail_unless(pout.at(x, y) == pin.at(ix, iy),
                    "%s %s: component %d (%d, %d) is %d, want in(%d, %d) = %d",
                    format, props.c_str(), c, x, y, pout.at(x, y), ix, iy,
                    pin.at(ix, iy));
      }
    }
  }
  gst_video_frame_unmap(&fout);
  gst_video_frame_unmap(&fin);
  gst_buffer_unref(out);
  gst_buffer_unref(in);
  gst_harness_teardown(h);
}
GST_END_TEST

void add_tests(TCase* tc) {
  tcase_add_loop_test(tc, test_integer_shift, 0,
                      kNumFormats * G_N_ELEMENTS(kShifts));
}

}  // namespace
}  // namespace daedalus::gsttest

int main(int argc, char** argv) {
  return daedalus::gsttest::run_element_suite(
      argc, argv, daedalus::gsttest::kSpec, "mc", daedalus::gsttest::add_tests);
}
