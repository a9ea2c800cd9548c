// CPU features beyond what Highway's targets check, for the intrinsic
// islands inside them (mc's dot products, cdef's byte filters).
#pragma once

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace daedalus {

// Whether CPUID leaf 7 (sub-leaf 0) sets every bit of `bits` in ECX; false
// off x86.
inline bool x86_leaf7_ecx_has(unsigned bits) {
#if defined(__x86_64__) || defined(__i386__)
  unsigned a, b, c, d;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  return (c & bits) == bits;
#else
  (void)bits;
  return false;
#endif
}

}  // namespace daedalus
