// The CPU-side backends: the DSP tables, optionally split across a thread
// pool. `scalar` is the reference on the calling thread; `cpu` is the init
// ladder's best (Highway SIMD) on a pool.
#pragma once

#include <memory>

#include "daedalus/backend.h"

namespace daedalus {

// `threads` <= 1 runs on the calling thread.
std::unique_ptr<Backend> create_dsp_backend(BackendKind kind, int threads);

}  // namespace daedalus
