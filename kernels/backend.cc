#include "daedalus/backend.h"

#include "backend_scalar.h"

namespace daedalus {

std::string_view backend_name(BackendKind kind) {
  switch (kind) {
    case BackendKind::Scalar: return "scalar";
    case BackendKind::Cpu: return "cpu";
    case BackendKind::Gpu: return "gpu";
  }
  return "?";
}

std::unique_ptr<Backend> create_backend(BackendKind kind, std::string* why_not) {
  switch (kind) {
    case BackendKind::Scalar:
      return create_scalar_backend();
    case BackendKind::Cpu:
      if (why_not)
        *why_not = "the cpu (SIMD) backend is not part of this build of daedalus";
      return nullptr;
    case BackendKind::Gpu:
      if (why_not)
        *why_not = "the gpu (Vulkan) backend is not part of this build of daedalus";
      return nullptr;
  }
  return nullptr;
}

}  // namespace daedalus
