// Vector constants read from memory (Splat), for the SIMD kernels that want
// them loaded where they are used rather than rebuilt.
#pragma once

#include <array>

namespace daedalus {

// A cache line of the constant K, for a load of the vector of K. On x86
// GCC otherwise rebuilds each constant at every use (a mov and a
// vpbroadcastw, the broadcast two uops on AMD cores), while a load folds
// into the instruction that uses it. The array is not const and not in an
// anonymous namespace (then GCC would see that nothing writes it), so GCC
// cannot know its value and turn the load back into a broadcast. Hidden:
// in the plugin (a shared object) it is addressed directly, not through
// the GOT (a load of the address before each use).
template <typename T, T K>
struct __attribute__((visibility("hidden"))) Splat {
  static constexpr std::array<T, 64 / sizeof(T)> Make() {
    std::array<T, 64 / sizeof(T)> a{};
    for (T& x : a) x = K;
    return a;
  }
  alignas(64) static inline std::array<T, 64 / sizeof(T)> values = Make();
};

}  // namespace daedalus
