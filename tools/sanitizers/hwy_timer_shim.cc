// Preloaded by tools/check-valgrind.sh into every program it runs under
// valgrind, in place of libhwy's own hwy::platform::TimerResolution().
//
// Why: libhwy (Highway 1.0.3) calls that function from its static
// initialiser, through the PLT, as it loads, and it executes RDTSCP.
// valgrind 3.19 decodes RDTSCP only where CPUID reports it, and some
// virtual CPUs (CI's AMD EPYC of family 26) run it without reporting it:
// there every run died with SIGILL before any daedalus code ran.
//
// Harmless: the value only feeds Highway's nanobenchmark (hwy::Measure,
// the only other code in libhwy with RDTSCP), which neither daedalus nor
// GStreamer calls. So the check preloads it on every CPU: one way of
// running, the same wherever CI runs.
#include <cstdint>

namespace hwy::platform {

uint64_t TimerResolution() { return 1; }

}  // namespace hwy::platform
