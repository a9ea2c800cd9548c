// daedalusdeblock's kernel in every mode (h264, vp9, dct) on fuzzed frames
// and parameters: the cpu backend (SIMD, two threads) must write exactly
// what the scalar reference writes, neither may touch padding or the other
// field, and both must refuse the same parameters.
#include <string>

#include "daedalus/deblock.h"
#include "fuzz_frame.h"

using namespace daedalus;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  // A little outside each range, to check both refuse alike.
  DeblockParams p;
  p.qp = in.ConsumeIntegralInRange(-1, 52);
  p.alpha_offset = in.ConsumeIntegralInRange(-13, 13);
  p.beta_offset = in.ConsumeIntegralInRange(-13, 13);
  p.chroma_qp_offset = in.ConsumeIntegralInRange(-52, 13);
  p.bs = in.ConsumeIntegralInRange(0, 5);
  p.block_size = in.PickValueInArray({4, 8, 16, 4, 8, 16, 0, 6, 32});
  const fuzz::FuzzFrame original(in);
  // After the frame: an input that ends before these is mode=h264 with the
  // grid at 0 (each takes its range's low end).
  p.mode = DeblockMode(in.ConsumeIntegralInRange(0, 2));
  p.grid_x = in.ConsumeIntegralInRange(-1, 16);
  p.grid_y = in.ConsumeIntegralInRange(-1, 16);
  p.filter_level = in.ConsumeIntegralInRange(-1, 64);
  p.sharpness = in.ConsumeIntegralInRange(-1, 8);
  p.shifts = in.PickValueInArray({1, 2, 4, 8, 16, 32, 64, 0, 3, 128});
  const char* const modes[] = {"h264", "vp9", "dct"};
  const std::string params =
      std::string("mode ") + modes[int(p.mode)] + " qp " +
      std::to_string(p.qp) + " alpha " + std::to_string(p.alpha_offset) +
      " beta " + std::to_string(p.beta_offset) + " chroma-qp " +
      std::to_string(p.chroma_qp_offset) + " bs " + std::to_string(p.bs) +
      " block " + std::to_string(p.block_size) + " grid " +
      std::to_string(p.grid_x) + "," + std::to_string(p.grid_y) + " level " +
      std::to_string(p.filter_level) + " sharpness " +
      std::to_string(p.sharpness) + " shifts " + std::to_string(p.shifts);

  fuzz::FuzzFrame ref(original), cpu(original);
  const Status a = fuzz::scalar_backend().deblock(ref.view(), p);
  const Status b = fuzz::cpu_backend().deblock(cpu.view(), p);
  fuzz::check_outputs(a, b, deblock_params_valid(p), ref, cpu, original,
                      params);
  return 0;
}
