// daedalusdeblock's kernel on fuzzed frames and parameters: the cpu backend
// (SIMD, two threads) must write exactly what the scalar reference writes,
// neither may touch padding or the other field, and both must refuse the
// same parameters.
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
  p.chroma_qp_offset = in.ConsumeIntegralInRange(-13, 13);
  p.bs = in.ConsumeIntegralInRange(0, 5);
  p.block_size = in.PickValueInArray({4, 8, 16, 4, 8, 16, 0, 6, 32});
  const fuzz::FuzzFrame original(in);
  const std::string params = "qp " + std::to_string(p.qp) + " alpha " +
                             std::to_string(p.alpha_offset) + " beta " +
                             std::to_string(p.beta_offset) + " chroma-qp " +
                             std::to_string(p.chroma_qp_offset) + " bs " +
                             std::to_string(p.bs) + " block " +
                             std::to_string(p.block_size);

  fuzz::FuzzFrame ref(original), cpu(original);
  const Status a = fuzz::scalar_backend().deblock(ref.view(), p);
  const Status b = fuzz::cpu_backend().deblock(cpu.view(), p);
  fuzz::check_outputs(a, b, deblock_params_valid(p), ref, cpu, original,
                      params);
  return 0;
}
