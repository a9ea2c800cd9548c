#include "daedalus/fault_injection.h"

#include <string>
#include <utility>

#include "daedalus/backend_gpu.h"
#include "daedalus/backend_hybrid.h"

namespace daedalus {
namespace {

// What the GPU left of a plane's leading rows when it was lost: bytes no
// kernel computes from the input.
void invert_leading_rows(const Plane& plane) {
  for (int y = 0; y < (plane.height + 1) / 2; y++)
    for (int x = 0; x < plane.width; x++)
      for (int b = 0; b < plane.bytes_per_sample(); b++)
        (&plane.at(x, y))[b] ^= 0xFF;
}

// The frame calls of a faulty `Interface` (GpuBackend or HybridBackend);
// the rest of the interface is forwarded by the final classes below.
template <class Interface>
class Faulty : public Interface {
 public:
  Faulty(std::unique_ptr<Interface> inner, uint64_t good,
         std::string_view cause)
      : inner_(std::move(inner)), good_(good), cause_(cause) {}

  BackendKind kind() const override { return inner_->kind(); }

 protected:
  // Only calls the front door let in count, and fail.
  Status do_deblock(const Frame& frame, const DeblockParams& params) override {
    if (failing()) return lose(frame);
    return inner_->deblock(frame, params);
  }
  Status do_cdef(const Frame& dst, const ConstFrame& src,
                 const CdefParams& params) override {
    if (failing()) return lose(dst);
    return inner_->cdef(dst, src, params);
  }
  Status do_mc(const Frame& dst, const ConstFrame& src,
               const McParams& params) override {
    if (failing()) return lose(dst);
    return inner_->mc(dst, src, params);
  }

  std::unique_ptr<Interface> inner_;

 private:
  // Whether the real backend may have written `plane` when it fails.
  virtual bool written_before_failing(const Plane& plane) const = 0;

  bool failing() { return calls_++ >= good_; }

  Status lose(const Frame& output) {
    for (int p = 0; p < output.num_planes; p++)
      if (written_before_failing(output.planes[p]))
        invert_leading_rows(output.planes[p]);
    return Status::gpu_lost("the Vulkan device was lost (simulated: " + cause_ +
                            ")");
  }

  uint64_t good_;
  uint64_t calls_ = 0;
  std::string cause_;
};

class FaultyGpu final : public Faulty<GpuBackend> {
 public:
  using Faulty::Faulty;

  Result<std::unique_ptr<GpuBuffer>> allocate_buffer(size_t size) override {
    return inner_->allocate_buffer(size);
  }
  bool in_device_memory(const ConstFrame& frame) const override {
    return inner_->in_device_memory(frame);
  }
  const GpuDeviceInfo& device_info() const override {
    return inner_->device_info();
  }
  const GpuFrameStats& last_frame_stats() const override {
    return inner_->last_frame_stats();
  }

 private:
  // Planes in its GpuBuffers, which the GPU writes in place.
  bool written_before_failing(const Plane& plane) const override {
    ConstFrame alone;
    alone.planes[0] = plane;
    return inner_->in_device_memory(alone);
  }
};

class FaultyHybrid final : public Faulty<HybridBackend> {
 public:
  using Faulty::Faulty;

  void set_gpu_share(double share) override { inner_->set_gpu_share(share); }
  double gpu_share() const override { return inner_->gpu_share(); }
  int threads() const override { return inner_->threads(); }
  const GpuDeviceInfo& device_info() const override {
    return inner_->device_info();
  }
  const HybridFrameStats& last_frame_stats() const override {
    return inner_->last_frame_stats();
  }

 private:
  // Its CPU rows are written before it waits for the GPU.
  bool written_before_failing(const Plane&) const override { return true; }
};

// `backend` as a T, or null (then `backend` keeps it).
template <class T>
std::unique_ptr<T> take_as(std::unique_ptr<Backend>& backend) {
  T* t = dynamic_cast<T*>(backend.get());
  if (!t) return nullptr;
  backend.release();
  return std::unique_ptr<T>(t);
}

}  // namespace

std::unique_ptr<Backend> inject_gpu_fault(std::unique_ptr<Backend> backend,
                                          uint64_t good_calls,
                                          std::string_view cause) {
  if (auto gpu = take_as<GpuBackend>(backend))
    return std::make_unique<FaultyGpu>(std::move(gpu), good_calls, cause);
  if (auto hybrid = take_as<HybridBackend>(backend))
    return std::make_unique<FaultyHybrid>(std::move(hybrid), good_calls, cause);
  return backend;
}

}  // namespace daedalus
