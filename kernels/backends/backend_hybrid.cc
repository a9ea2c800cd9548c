#include "daedalus/backend_hybrid.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <memory>

#include "backends/cpu/backend_dsp.h"
#include "backends/gpu/gpu_bands.h"
#include "daedalus/thread_pool.h"
#include "daedalus_config.h"
#include "vulkan/vk_status.h"

namespace daedalus {
namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

double clamp_share(double share) {
  return std::isnan(share) ? 0.0 : std::clamp(share, 0.0, 1.0);
}

// The GPU's leading part of luma's `size` rows (or block rows).
int leading(double share, int size) { return int(std::lround(share * size)); }

// Deblock's pass 2: the GPU's leading luma columns, a multiple of 8 unless
// the whole row, so that every plane's band ends on a 32-bit word (chroma:
// 4 planar samples, or 2 NV12 pairs; at 10 bits twice the bytes) and the
// GPU never writes a word the CPU also writes.
int leading_columns(double share, int width) {
  const int c = int(std::lround(share * width / 8)) * 8;
  return share >= 1.0 || c >= width ? width : c;
}

// Each plane's extent from luma's (rows, or columns when `columns`):
// chroma's rounded up, so that every plane splits where luma does; a
// whole luma plane means whole planes.
void per_plane(const ConstFrame& f, int luma, bool columns, int out[3]) {
  const int luma_size = columns ? f.planes[0].width : f.planes[0].height;
  for (int p = 0; p < 3; p++) {
    if (p >= f.num_planes) {
      out[p] = 0;
      continue;
    }
    const int size = columns ? f.planes[p].width : f.planes[p].height;
    const int shift = p == 0    ? 0
                      : columns ? f.chroma_shift_x
                                : f.chroma_shift_y;
    out[p] = luma >= luma_size
                 ? size
                 : std::min(size, (luma + (1 << shift) - 1) >> shift);
  }
}

// Sums the stats of deblock's two GPU submissions.
void add(GpuFrameStats& sum, const GpuFrameStats& band) {
  sum.upload_ms += band.upload_ms;
  sum.submit_ms += band.submit_ms;
  sum.gpu_ms =
      sum.gpu_ms < 0 || band.gpu_ms < 0 ? -1 : sum.gpu_ms + band.gpu_ms;
  sum.readback_ms += band.readback_ms;
  sum.zero_copy_groups += band.zero_copy_groups;
  sum.staged_groups += band.staged_groups;
}

class Hybrid final : public HybridBackend {
 public:
  Hybrid(std::unique_ptr<GpuBandBackend> gpu, int threads, double share)
      : gpu_(std::move(gpu)), share_(clamp_share(share)) {
    deblock_dsp_init(&deblock_);
    cdef_dsp_init(&cdef_);
    mc_dsp_init(&mc_);
    if (threads > 1) pool_ = shared_thread_pool(threads);
  }

  BackendKind kind() const override { return BackendKind::Hybrid; }

  void set_gpu_share(double share) override { share_ = clamp_share(share); }
  double gpu_share() const override { return share_; }
  int threads() const override { return pool_ ? pool_->threads() : 1; }
  const GpuDeviceInfo& device_info() const override {
    return gpu_->device_info();
  }
  const HybridFrameStats& last_frame_stats() const override { return stats_; }

 protected:
  Status do_deblock(const Frame& whole, const DeblockParams& params) override {
    begin_frame();
    const Frame frame = deblock_grid_view(whole, params);
    // mode=dct is one phase by rows: the GPU's leading rows and the CPU's
    // rest both read the frame's samples, which the GPU's output replaces
    // only once the CPU is done.
    if (params.mode == DeblockMode::Dct) {
      int rows[3];
      per_plane(frame, leading(stats_.share, frame.planes[0].height), false,
                rows);
      return phase(
          rows[0] > 0 || rows[1] > 0 || rows[2] > 0,
          [&] {
            return gpu_->start_deblock_band(frame, params,
                                            DeblockPass::VerticalEdges, rows);
          },
          [&] {
            deblock_dct_rows_from(deblock_, frame, params, rows, pool());
          });
    }
    // Pass 1 by rows; pass 2, which reads pass 1's output of every row, by
    // columns. Each pass is a phase: at its end the frame holds both sides'
    // output.
    int rows[3], columns[3];
    per_plane(frame, leading(stats_.share, frame.planes[0].height), false,
              rows);
    per_plane(frame, leading_columns(stats_.share, frame.planes[0].width), true,
              columns);
    for (DeblockPass pass :
         {DeblockPass::VerticalEdges, DeblockPass::HorizontalEdges}) {
      const int* first = pass == DeblockPass::VerticalEdges ? rows : columns;
      // Any plane's band, not luma's alone: a grid origin can empty luma's
      // view and leave chroma's, whose rows are then all the GPU's.
      DAEDALUS_TRY(phase(
          first[0] > 0 || first[1] > 0 || first[2] > 0,
          [&] { return gpu_->start_deblock_band(frame, params, pass, first); },
          [&] { deblock_pass(deblock_, frame, params, pass, first, pool()); }));
    }
    return Status::ok();
  }

  Status do_cdef(const Frame& dst, const ConstFrame& src,
                 const CdefParams& params) override {
    begin_frame();
    // Both sides read the whole source, so a band's 2-row margin needs
    // nothing exchanged.
    const int block_rows = cdef_block_rows(src);
    const int gpu_rows = leading(stats_.share, block_rows);
    return phase(
        gpu_rows > 0,
        [&] { return gpu_->start_cdef_band(dst, src, params, gpu_rows); },
        [&] { cdef_frame(cdef_, dst, src, params, pool(), gpu_rows); });
  }

  Status do_mc(const Frame& dst, const ConstFrame& src,
               const McParams& params) override {
    begin_frame();
    int rows[3];
    per_plane(src, leading(stats_.share, src.planes[0].height), false, rows);
    return phase(
        rows[0] > 0,
        [&] { return gpu_->start_mc_band(dst, src, params, rows); },
        [&] { mc_frame(mc_, dst, src, params, pool(), rows); });
  }

 private:
  ThreadPool* pool() { return pool_.get(); }

  // Fixes the frame's share (set_gpu_share may run on another thread) and
  // clears its stats.
  void begin_frame() {
    stats_ = {};
    stats_.gpu = {0, 0, 0, 0, 0, 0};
    stats_.share = share_;
  }

  // One phase of a frame: the GPU's band started (when it has rows), the
  // CPU's part meanwhile on this thread and the pool, then the GPU's band
  // waited for and copied into the frame.
  template <class StartGpu, class RunCpu>
  Status phase(bool gpu_rows, StartGpu start_gpu, RunCpu run_cpu) {
    const Clock::time_point t0 = Clock::now();
    if (gpu_rows) DAEDALUS_TRY(start_gpu());
    const Clock::time_point t1 = Clock::now();
    run_cpu();
    const Clock::time_point t2 = Clock::now();
    stats_.gpu_start_ms += ms_between(t0, t1);
    stats_.cpu_ms += ms_between(t1, t2);
    if (!gpu_rows) return Status::ok();
    DAEDALUS_TRY(gpu_->finish_band());
    const Clock::time_point t3 = Clock::now();
    const GpuFrameStats& band = gpu_->last_frame_stats();
    stats_.gpu_finish_ms += band.readback_ms;
    stats_.gpu_wait_ms += ms_between(t2, t3) - band.readback_ms;
    add(stats_.gpu, band);
    return Status::ok();
  }

  std::unique_ptr<GpuBandBackend> gpu_;
  std::atomic<double> share_;
  DeblockDsp deblock_;
  CdefDsp cdef_;
  McDsp mc_;
  std::shared_ptr<ThreadPool> pool_;
  HybridFrameStats stats_;
};

}  // namespace

Result<std::unique_ptr<HybridBackend>> create_hybrid_backend(
    const BackendOptions& options) {
  if (!DAEDALUS_HAVE_SIMD)
    return Status::error(
        "this build of daedalus has no cpu backend (Highway was not found at "
        "build time: meson option simd)");
  Result<std::unique_ptr<GpuBackend>> gpu =
      create_gpu_backend(GpuOptions::from_env());
  if (!gpu)
    return Status::error("the gpu backend is unavailable: " +
                         gpu.status().message());
  auto* bands = dynamic_cast<GpuBandBackend*>(gpu->get());
  if (!bands)
    return Status::error("internal: the gpu backend cannot filter bands");
  gpu->release();
  const int threads =
      options.threads > 0 ? options.threads : ThreadPool::hardware_threads();
  return std::make_unique<Hybrid>(std::unique_ptr<GpuBandBackend>(bands),
                                  threads, options.gpu_share);
}

}  // namespace daedalus
