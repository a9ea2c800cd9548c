// The fallback from a failing GPU: a backend that runs frames on another
// (the gpu or hybrid backend that backend=auto chose) until a frame call
// fails on it, then redoes that frame on the cpu backend (the scalar one in
// a build without it) and runs every later frame there. Elements that chose
// their backend themselves get no fallback: an explicit backend=gpu fails
// with the gpu's error.
#pragma once

#include <functional>
#include <memory>

#include "daedalus/backend.h"
#include "daedalus/status.h"

namespace daedalus {

// What the caller is told, once, when frames move to the cpu backend.
struct FallbackNotice {
  BackendKind failed;  // the backend that failed
  BackendKind now;     // the one that redoes the frame and runs the rest
  Status failure;      // the failed frame call's error
};

// Thread-safety as Backend.
class FallbackBackend final : public Backend {
 public:
  using Notify = std::function<void(const FallbackNotice&)>;

  // `cpu_options.threads` is the cpu backend's (BackendOptions). `notify`
  // is called once, on the thread of the failed frame call, before the
  // frame is redone; it must not destroy this backend.
  FallbackBackend(std::shared_ptr<Backend> primary, BackendOptions cpu_options,
                  Notify notify);

  // The active backend's.
  BackendKind kind() const override { return active_->kind(); }
  // Where frames go: the primary until a frame failed on it, then the cpu
  // backend (the primary is released then).
  const std::shared_ptr<Backend>& active() const { return active_; }
  bool fell_back() const { return fell_back_; }

 protected:
  // A call the front door refused (parameters out of range, say) reaches
  // neither backend and moves nothing. A failed call is redone from the
  // input it was given: cdef's and mc's source is never written; deblock's
  // frame, which is input and output, is kept aside first when the primary
  // may write part of it before failing (a hybrid backend's CPU rows; a gpu
  // backend's planes that lie in its GpuBuffers, which the GPU writes in
  // place). A call that fails on the cpu backend returns its error.
  Status do_deblock(const Frame& frame, const DeblockParams& params) override;
  Status do_cdef(const Frame& dst, const ConstFrame& src,
                 const CdefParams& params) override;
  Status do_mc(const Frame& dst, const ConstFrame& src,
               const McParams& params) override;

 private:
  // Runs `call` on the active backend; on the primary's failure, falls
  // back and runs it again (after restoring `in_place` from a snapshot).
  Status run(const std::function<Status(Backend&)>& call,
             const Frame* in_place);
  bool may_write_before_failing(const ConstFrame& frame) const;
  Status fall_back(const Status& failure);

  std::shared_ptr<Backend> active_;
  BackendOptions cpu_options_;
  Notify notify_;
  bool fell_back_ = false;
};

}  // namespace daedalus
