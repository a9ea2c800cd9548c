#include "daedalus/backend.h"

#include "backend_dsp.h"
#include "daedalus/thread_pool.h"
#include "daedalus_config.h"

namespace daedalus {

std::string_view backend_name(BackendKind kind) {
  switch (kind) {
    case BackendKind::Scalar: return "scalar";
    case BackendKind::Cpu: return "cpu";
    case BackendKind::Gpu: return "gpu";
  }
  return "?";
}

std::unique_ptr<Backend> create_backend(BackendKind kind, std::string* why_not,
                                        const BackendOptions& options) {
  switch (kind) {
    case BackendKind::Scalar:
      return create_dsp_backend(kind, 1);
    case BackendKind::Cpu:
      if (!DAEDALUS_HAVE_SIMD) {
        if (why_not)
          *why_not = "this build of daedalus has no cpu backend (Highway was "
                     "not found at build time: meson option simd)";
        return nullptr;
      }
      return create_dsp_backend(
          kind, options.threads > 0 ? options.threads
                                    : ThreadPool::hardware_threads());
    case BackendKind::Gpu:
      if (why_not)
        *why_not = "the gpu (Vulkan) backend is not part of this build of daedalus";
      return nullptr;
  }
  return nullptr;
}

}  // namespace daedalus
