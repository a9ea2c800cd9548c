// daedalusdeblock mode=vp9: the common element checks with the VP9 loop
// filter (which mode's properties decide passthrough: deblock_test.cc).
#include "daedalus/deblock.h"
#include "element_tests.h"

namespace daedalus::gsttest {
namespace {

DeblockParams vp9(int level, int sharpness, int block) {
  return {.block_size = block,
          .mode = DeblockMode::Vp9,
          .filter_level = level,
          .sharpness = sharpness};
}

const ElementSpec kSpec = {
    .factory = "daedalusdeblock",
    .in_place = true,
    .params = "mode=vp9 filter-level=40 sharpness=2 block-size=8",
    .reference = deblock_with(vp9(40, 2, 8)),
    .noop_params = "mode=vp9 filter-level=0",
    .numeric = {{"filter-level", 0, 63, 10, true},
                {"sharpness", 0, 7, 0, true}},
    .enums = {{"mode", {"h264", "vp9", "dct"}, "h264", {3, 7}}},
    .controlled = {"filter-level",
                   "mode=vp9 sharpness=1 block-size=8",
                   {0, 20, 63},
                   [](double level) {
                     return deblock_with(vp9(int(level), 1, 8));
                   }},
    .kernel = Kernel::DeblockVp9,
};

}  // namespace
}  // namespace daedalus::gsttest

int main(int argc, char** argv) {
  return daedalus::gsttest::run_element_suite(argc, argv,
                                              daedalus::gsttest::kSpec);
}
