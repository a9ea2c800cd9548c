// The CPU-side backends: the DSP tables, optionally split across a thread
// pool. `scalar` is the reference on the calling thread; `cpu` is the init
// ladder's best (Highway SIMD) on a pool.
#pragma once

#include <memory>

#include "daedalus/backend.h"
#include "daedalus/thread_pool.h"

namespace daedalus {

// The process's pool of `threads` (>= 2): one per thread count, kept while
// anyone holds it. Backends on different streaming threads take turns on it
// (ThreadPool::run serialises callers) rather than each bringing a full set
// of workers to the same cores.
std::shared_ptr<ThreadPool> shared_thread_pool(int threads);

// `threads` <= 1 runs on the calling thread. Backends with the same thread
// count share one pool; each may be used on its own thread. `islands`:
// BackendOptions::simd_islands (the cpu backend).
std::unique_ptr<Backend> create_dsp_backend(BackendKind kind, int threads,
                                            bool islands = true);

}  // namespace daedalus
