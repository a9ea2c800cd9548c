#include "daedalus/backend_fallback.h"

#include <optional>
#include <string>
#include <utility>

#include "backends/frame_snapshot.h"
#include "daedalus/backend_gpu.h"

namespace daedalus {

FallbackBackend::FallbackBackend(std::shared_ptr<Backend> primary,
                                 BackendOptions cpu_options, Notify notify)
    : active_(std::move(primary)),
      cpu_options_(cpu_options),
      notify_(std::move(notify)) {}

Status FallbackBackend::do_deblock(const Frame& frame,
                                   const DeblockParams& params) {
  return run([&](Backend& b) { return b.deblock(frame, params); }, &frame);
}

Status FallbackBackend::do_cdef(const Frame& dst, const ConstFrame& src,
                                const CdefParams& params) {
  return run([&](Backend& b) { return b.cdef(dst, src, params); }, nullptr);
}

Status FallbackBackend::do_mc(const Frame& dst, const ConstFrame& src,
                              const McParams& params) {
  return run([&](Backend& b) { return b.mc(dst, src, params); }, nullptr);
}

Status FallbackBackend::run(const std::function<Status(Backend&)>& call,
                            const Frame* in_place) {
  if (fell_back_) return call(*active_);
  std::optional<FrameSnapshot> kept;
  if (in_place && may_write_before_failing(*in_place)) kept.emplace(*in_place);
  const Status status = call(*active_);
  if (status) return status;
  if (const Status fell = fall_back(status); !fell) return fell;
  if (kept) kept->restore(*in_place);
  return call(*active_);
}

// The gpu backend writes a staged frame only once the GPU has finished it;
// the hybrid one has written its CPU rows (and, for deblock, pass 1's rows)
// by the time it waits for the GPU.
bool FallbackBackend::may_write_before_failing(const ConstFrame& frame) const {
  if (active_->kind() == BackendKind::Hybrid) return true;
  const auto* gpu = dynamic_cast<const GpuBackend*>(active_.get());
  return gpu && gpu->in_device_memory(frame);
}

Status FallbackBackend::fall_back(const Status& failure) {
  Result<std::unique_ptr<Backend>> cpu =
      create_backend(BackendKind::Cpu, cpu_options_);
  if (!cpu) cpu = create_backend(BackendKind::Scalar, cpu_options_);
  if (!cpu)
    return Status::error(
        failure.message() +
        "; no cpu backend can redo the frame: " + cpu.status().message());
  const FallbackNotice notice{active_->kind(), cpu.value()->kind(), failure};
  active_ = std::move(cpu).value();
  fell_back_ = true;
  if (notify_) notify_(notice);
  return Status::ok();
}

}  // namespace daedalus
