// daedalusmc's kernel on fuzzed frames, shifts and filters: the cpu backend
// (SIMD, two threads) must write exactly what the scalar reference writes,
// neither may touch the output's padding (or other field), and both must
// refuse the same parameters.
#include <string>

#include "daedalus/mc.h"
#include "fuzz_frame.h"

using namespace daedalus;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  McParams p;
  // Sixteenths of a sample (every filter phase), or any value a little past
  // the range.
  for (double* d : {&p.dx, &p.dy}) {
    *d = in.ConsumeBool() ? in.ConsumeIntegralInRange(-40 * 16, 40 * 16) / 16.0
                          : in.ConsumeFloatingPointInRange(-4100.0, 4100.0);
  }
  p.filter = McFilter(in.ConsumeIntegralInRange(0, 3));
  const fuzz::FuzzFrame src(in);
  const std::string params = "dx " + std::to_string(p.dx) + " dy " +
                             std::to_string(p.dy) + " filter " +
                             std::string(mc_filter_name(p.filter));

  fuzz::FuzzFrame ref(src), cpu(src);
  const Status a = fuzz::scalar_backend().mc(ref.view(), src.view(), p);
  const Status b = fuzz::cpu_backend().mc(cpu.view(), src.view(), p);
  fuzz::check_outputs(a, b, mc_params_valid(p), ref, cpu, src, params);
  return 0;
}
