// daedaluscdef's kernel on fuzzed frames and parameters: the cpu backend
// (SIMD, two threads) must write exactly what the scalar reference writes,
// neither may touch the output's padding (or other field), and both must
// refuse the same parameters.
#include <string>

#include "daedalus/cdef.h"
#include "fuzz_frame.h"

using namespace daedalus;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  CdefParams p;
  p.pri_strength = in.ConsumeIntegralInRange(-1, 16);
  p.sec_strength = in.ConsumeIntegralInRange(-1, 5);
  p.uv_pri_strength = in.ConsumeIntegralInRange(-1, 16);
  p.uv_sec_strength = in.ConsumeIntegralInRange(-1, 5);
  p.damping = in.ConsumeIntegralInRange(2, 7);
  const fuzz::FuzzFrame src(in);
  const std::string params = "pri " + std::to_string(p.pri_strength) + " sec " +
                             std::to_string(p.sec_strength) + " uv-pri " +
                             std::to_string(p.uv_pri_strength) + " uv-sec " +
                             std::to_string(p.uv_sec_strength) + " damping " +
                             std::to_string(p.damping);

  // The outputs start as a copy of the input: same layout, and padding to
  // compare against.
  fuzz::FuzzFrame ref(src), cpu(src);
  const Status a = fuzz::scalar_backend().cdef(ref.view(), src.view(), p);
  const Status b = fuzz::cpu_backend().cdef(cpu.view(), src.view(), p);
  fuzz::check_outputs(a, b, cdef_params_valid(p), ref, cpu, src, params);
  return 0;
}
