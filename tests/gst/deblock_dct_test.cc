// daedalusdeblock mode=dct: the common element checks with DCT-domain
// re-quantisation (its passthrough decisions: deblock_test.cc). It has no
// Vulkan kernel yet: the gpu and hybrid backends compute it on the CPU, so
// the checks of GPU behaviour are left out.
#include "daedalus/deblock.h"
#include "element_tests.h"

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
    .gpu_kernel = false,
};

Suite* daedalusdeblock_dct_suite() { return element_suite(&kSpec); }

}  // namespace
}  // namespace daedalus::gsttest

int main(int argc, char** argv) {
  return daedalus::gsttest::run_suite(
      argc, argv, daedalus::gsttest::daedalusdeblock_dct_suite,
      "daedalusdeblock");
}
