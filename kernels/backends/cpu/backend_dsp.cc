#include "backend_dsp.h"

#include <map>
#include <mutex>

#include "daedalus/thread_pool.h"

namespace daedalus {

std::shared_ptr<ThreadPool> shared_thread_pool(int threads) {
  static std::mutex mutex;
  static std::map<int, std::weak_ptr<ThreadPool>> pools;
  std::lock_guard lock(mutex);
  std::weak_ptr<ThreadPool>& slot = pools[threads];
  std::shared_ptr<ThreadPool> pool = slot.lock();
  if (!pool) {
    pool = std::make_shared<ThreadPool>(threads);
    slot = pool;
  }
  return pool;
}

namespace {

class DspBackend final : public Backend {
 public:
  DspBackend(BackendKind kind, int threads, bool islands) : kind_(kind) {
    if (kind == BackendKind::Scalar) {
      deblock_dsp_init_ref(&deblock_);
      cdef_dsp_init_ref(&cdef_);
      mc_dsp_init_ref(&mc_);
    } else {
      deblock_dsp_init(&deblock_, islands);
      cdef_dsp_init(&cdef_, islands);
      mc_dsp_init(&mc_, islands);
    }
    if (threads > 1) pool_ = shared_thread_pool(threads);
  }

  BackendKind kind() const override { return kind_; }

 protected:
  Status do_deblock(const Frame& frame, const DeblockParams& params) override {
    deblock_frame(deblock_, frame, params, pool());
    return Status::ok();
  }

  Status do_cdef(const Frame& dst, const ConstFrame& src,
                 const CdefParams& params) override {
    cdef_frame(cdef_, dst, src, params, pool());
    return Status::ok();
  }

  Status do_mc(const Frame& dst, const ConstFrame& src,
               const McParams& params) override {
    mc_frame(mc_, dst, src, params, pool());
    return Status::ok();
  }

 private:
  ThreadPool* pool() { return pool_.get(); }

  BackendKind kind_;
  DeblockDsp deblock_;
  CdefDsp cdef_;
  McDsp mc_;
  std::shared_ptr<ThreadPool> pool_;  // null: the calling thread only
};

}  // namespace

std::unique_ptr<Backend> create_dsp_backend(BackendKind kind, int threads,
                                            bool islands) {
  return std::make_unique<DspBackend>(kind, threads, islands);
}

}  // namespace daedalus
