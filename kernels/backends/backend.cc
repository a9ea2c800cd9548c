#include "daedalus/backend.h"

#include "backends/cpu/backend_dsp.h"
#include "daedalus/thread_pool.h"
#include "daedalus_config.h"
#if DAEDALUS_HAVE_VULKAN
#include "daedalus/backend_gpu.h"
#include "daedalus/backend_hybrid.h"
#endif

namespace daedalus {

std::string_view backend_name(BackendKind kind) {
  switch (kind) {
    case BackendKind::Scalar:
      return "scalar";
    case BackendKind::Cpu:
      return "cpu";
    case BackendKind::Gpu:
      return "gpu";
    case BackendKind::Hybrid:
      return "hybrid";
  }
  return "?";
}

bool backend_built(BackendKind kind) {
  switch (kind) {
    case BackendKind::Scalar:
      return true;
    case BackendKind::Cpu:
      return DAEDALUS_HAVE_SIMD;
    case BackendKind::Gpu:
      return DAEDALUS_HAVE_VULKAN;
    case BackendKind::Hybrid:
      return DAEDALUS_HAVE_VULKAN && DAEDALUS_HAVE_SIMD;
  }
  return false;
}

std::unique_ptr<Backend> create_backend(BackendKind kind, std::string* why_not,
                                        const BackendOptions& options) {
  switch (kind) {
    case BackendKind::Scalar:
      return create_dsp_backend(kind, 1);
    case BackendKind::Cpu:
      if (!DAEDALUS_HAVE_SIMD) {
        if (why_not)
          *why_not =
              "this build of daedalus has no cpu backend (Highway was "
              "not found at build time: meson option simd)";
        return nullptr;
      }
      return create_dsp_backend(kind, options.threads > 0
                                          ? options.threads
                                          : ThreadPool::hardware_threads());
    case BackendKind::Gpu: {
#if DAEDALUS_HAVE_VULKAN
      std::unique_ptr<GpuBackend> gpu;
      const Status s = create_gpu_backend(GpuOptions::from_env(), &gpu);
      if (!s && why_not)
        *why_not = "the gpu backend is unavailable: " + s.message();
      return gpu;
#else
      if (why_not)
        *why_not =
            "this build of daedalus has no gpu backend (Vulkan or "
            "glslangValidator was not found at build time: meson "
            "option vulkan)";
      return nullptr;
#endif
    }
    case BackendKind::Hybrid: {
#if DAEDALUS_HAVE_VULKAN
      std::unique_ptr<HybridBackend> hybrid;
      const Status s = create_hybrid_backend(options, &hybrid);
      if (!s && why_not)
        *why_not = "the hybrid backend is unavailable: " + s.message();
      return hybrid;
#else
      if (why_not)
        *why_not =
            "this build of daedalus has no hybrid backend (it needs "
            "the gpu backend: Vulkan or glslangValidator was not "
            "found at build time: meson option vulkan)";
      return nullptr;
#endif
    }
  }
  return nullptr;
}

}  // namespace daedalus
