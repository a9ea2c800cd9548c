// Fault injection, for testing the fallback from a failing GPU
// (FallbackBackend) without one that fails: the kernel tests call it, and
// the elements under DAEDALUS_FAULT_GPU_AFTER=N.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "daedalus/backend.h"

namespace daedalus {

// `backend` itself when it is neither gpu nor hybrid (or null). Otherwise
// `backend` wrapped, with its interface kept (a GpuBackend's buffers, so
// that frames still lie in its device memory, and stats; a HybridBackend's
// share and stats), to fail every frame call after its `good_calls`-th as
// a lost device does (Status::gpu_lost, a message naming `cause`), having
// written part of what the backend may write before the GPU is done: the
// leading half of the rows of each output plane that lies in the gpu
// backend's memory, or of every output plane of the hybrid one, each
// sample's bytes inverted.
std::unique_ptr<Backend> inject_gpu_fault(std::unique_ptr<Backend> backend,
                                          uint64_t good_calls,
                                          std::string_view cause);

}  // namespace daedalus
