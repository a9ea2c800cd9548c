#include "backend_scalar.h"

namespace daedalus {
namespace {

class ScalarBackend final : public Backend {
 public:
  ScalarBackend() {
    deblock_dsp_init_ref(&deblock_);
    cdef_dsp_init_ref(&cdef_);
    mc_dsp_init_ref(&mc_);
  }

  BackendKind kind() const override { return BackendKind::Scalar; }

  Status deblock(const Frame& frame, const DeblockParams& params) override {
    if (!deblock_params_valid(params))
      return Status::error("deblock parameters out of range");
    deblock_frame(deblock_, frame, params);
    return Status::ok();
  }

  Status cdef(const Frame& dst, const ConstFrame& src,
              const CdefParams& params) override {
    if (!cdef_params_valid(params))
      return Status::error("CDEF parameters out of range");
    cdef_frame(cdef_, dst, src, params);
    return Status::ok();
  }

  Status mc(const Frame& dst, const ConstFrame& src,
            const McParams& params) override {
    if (!mc_params_valid(params))
      return Status::error("MC parameters out of range");
    mc_frame(mc_, dst, src, params);
    return Status::ok();
  }

 private:
  DeblockDsp deblock_;
  CdefDsp cdef_;
  McDsp mc_;
};

}  // namespace

std::unique_ptr<Backend> create_scalar_backend() {
  return std::make_unique<ScalarBackend>();
}

}  // namespace daedalus
