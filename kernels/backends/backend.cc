#include "daedalus/backend.h"

#include "backends/cpu/backend_dsp.h"
#include "daedalus/backend_capability.h"
#include "daedalus/thread_pool.h"
#include "daedalus_config.h"
#if DAEDALUS_HAVE_VULKAN
#include "daedalus/backend_gpu.h"
#include "daedalus/backend_hybrid.h"
#endif

namespace daedalus {
namespace {

Status check_same_geometry(const ConstFrame& dst, const ConstFrame& src) {
  bool same = dst.num_planes == src.num_planes;
  for (int p = 0; same && p < src.num_planes; p++)
    same = dst.planes[p].width == src.planes[p].width &&
           dst.planes[p].height == src.planes[p].height &&
           dst.planes[p].bit_depth == src.planes[p].bit_depth &&
           dst.planes[p].lsb == src.planes[p].lsb;
  if (!same)
    return Status::error(
        "the destination frame's planes differ in number, size or "
        "sample layout from the source frame's");
  return Status::ok();
}

}  // namespace

Status Backend::deblock(const Frame& frame, const DeblockParams& params) {
  DAEDALUS_TRY(deblock_params_valid(params));
  DAEDALUS_TRY(require_computed(kind(), deblock_kernel(params.mode), frame));
  return do_deblock(frame, params);
}

Status Backend::cdef(const Frame& dst, const ConstFrame& src,
                     const CdefParams& params) {
  DAEDALUS_TRY(cdef_params_valid(params));
  DAEDALUS_TRY(require_computed(kind(), Kernel::Cdef, src));
  DAEDALUS_TRY(check_same_geometry(dst, src));
  return do_cdef(dst, src, params);
}

Status Backend::mc(const Frame& dst, const ConstFrame& src,
                   const McParams& params) {
  DAEDALUS_TRY(mc_params_valid(params));
  DAEDALUS_TRY(require_computed(kind(), Kernel::Mc, src));
  DAEDALUS_TRY(check_same_geometry(dst, src));
  return do_mc(dst, src, params);
}

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

Result<std::unique_ptr<Backend>> create_backend(BackendKind kind,
                                                const BackendOptions& options) {
  switch (kind) {
    case BackendKind::Scalar:
      return create_dsp_backend(kind, 1);
    case BackendKind::Cpu:
      if (!DAEDALUS_HAVE_SIMD)
        return Status::error(
            "this build of daedalus has no cpu backend (Highway was not found "
            "at build time: meson option simd)");
      return create_dsp_backend(kind,
                                options.threads > 0
                                    ? options.threads
                                    : ThreadPool::hardware_threads(),
                                options.simd_islands);
    case BackendKind::Gpu: {
#if DAEDALUS_HAVE_VULKAN
      Result<std::unique_ptr<GpuBackend>> gpu =
          create_gpu_backend(GpuOptions::from_env());
      if (!gpu)
        return Status::error("the gpu backend is unavailable: " +
                             gpu.status().message());
      return gpu;
#else
      return Status::error(
          "this build of daedalus has no gpu backend (Vulkan or "
          "glslangValidator was not found at build time: meson option "
          "vulkan)");
#endif
    }
    case BackendKind::Hybrid: {
#if DAEDALUS_HAVE_VULKAN
      Result<std::unique_ptr<HybridBackend>> hybrid =
          create_hybrid_backend(options);
      if (!hybrid)
        return Status::error("the hybrid backend is unavailable: " +
                             hybrid.status().message());
      return hybrid;
#else
      return Status::error(
          "this build of daedalus has no hybrid backend (it needs the gpu "
          "backend: Vulkan or glslangValidator was not found at build time: "
          "meson option vulkan)");
#endif
    }
  }
  return Status::error("internal: no such backend kind");
}

}  // namespace daedalus
