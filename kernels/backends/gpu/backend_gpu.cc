#include "daedalus/backend_gpu.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <vector>

#include "cdef_vk.h"
#include "deblock_dct_vk.h"
#include "deblock_vk.h"
#include "gpu_bands.h"
#include "mc_vk.h"
#include "vulkan/vk_batch.h"
#include "vulkan/vk_buffer.h"
#include "vulkan/vk_context.h"
#include "vulkan/vk_frame.h"
#include "vulkan/vk_status.h"

namespace daedalus {

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

std::string type_name(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return "software";
    default:
      return "other";
  }
}

class VulkanBuffer final : public GpuBuffer {
 public:
  VulkanBuffer(std::shared_ptr<vk::Context> context,
               std::unique_ptr<vk::Buffer> buffer)
      : context_(std::move(context)), buffer_(std::move(buffer)) {
    context_->registry().add(buffer_.get());
  }
  ~VulkanBuffer() override { context_->registry().remove(buffer_.get()); }

  uint8_t* data() const override { return buffer_->data(); }
  size_t size() const override { return size_t(buffer_->size()); }

 private:
  std::shared_ptr<vk::Context> context_;
  std::unique_ptr<vk::Buffer> buffer_;
};

class VulkanBackend final : public GpuBandBackend {
 public:
  static Result<std::unique_ptr<GpuBackend>> create(const GpuOptions& options) {
    std::unique_ptr<VulkanBackend> b(new VulkanBackend);
    DAEDALUS_ASSIGN_OR_RETURN(
        b->context_, vk::Context::shared({options.device, options.validation}));
    DAEDALUS_ASSIGN_OR_RETURN(
        b->batch_, vk::Batch::create(b->context_, options.wait_timeout_ms));
    b->stager_.emplace(b->context_);

    const vk::PhysicalDevice& d = b->context_->physical();
    b->info_.name = d.facts.name;
    b->info_.type = type_name(d.facts.type);
    b->info_.api_version = d.facts.api_version;
    b->info_.driver_version = d.properties.driverVersion;
    for (uint8_t byte : d.properties.pipelineCacheUUID) {
      static const char kHex[] = "0123456789abcdef";
      b->info_.pipeline_cache_uuid += kHex[byte >> 4];
      b->info_.pipeline_cache_uuid += kHex[byte & 15];
    }
    b->info_.timestamps = d.timestamp_bits != 0;
    b->info_.validation = b->context_->validation();
    b->info_.pipeline_cache_path = b->context_->pipelines().cache_path();
    b->info_.pipeline_cache_bytes_loaded =
        b->context_->pipelines().cache_bytes_loaded();
    return b;
  }

  // The batch goes first: one still in flight (a band never finished, a
  // wait that timed out) may be using the staging buffers and the scratch,
  // and once its destructor has had the context watch it, the context's
  // DeferredRelease holds them until it has finished.
  ~VulkanBackend() override { batch_.reset(); }

  BackendKind kind() const override { return BackendKind::Gpu; }

 protected:
  Status do_deblock(const Frame& whole, const DeblockParams& params) override {
    const bool dct = params.mode == DeblockMode::Dct;
    const Frame frame = deblock_grid_view(whole, params);
    const Clock::time_point t0 = Clock::now();
    // Only the groups deblocking changes are staged; U and V share their
    // parameters, so an interleaved pair is one group. Each is declared as
    // an input and an output, the same memory when in place.
    struct Job {
      int input, output;
      DeblockPlaneParams pp;
    };
    std::vector<Job> jobs;
    stager_->begin();
    for (const vk::PlaneGroup& g : vk::plane_groups(frame, frame)) {
      const Plane& plane = frame.planes[g.first];
      const DeblockPlaneParams pp = deblock_plane_params(
          params, g.first > 0, g.first > 0 && frame.chroma_subsampled());
      if (vk::deblock_changes_plane(pp, plane))
        jobs.push_back(
            {stager_->input(frame, g), stager_->output(frame, g), pp});
    }
    if (jobs.empty()) return no_work();
    DAEDALUS_TRY(stager_->upload());

    // Pass 1 reads each group from `in` and writes a scratch plane, pass 2
    // reads that and writes the output. `in` is the frame itself, or its
    // upload copy (device-local where the device has such memory), or, when
    // the frame is in a GpuBuffer but its output is staged (unaligned rows,
    // or words shared with another group), the output after a copy from the
    // frame (MC with a zero shift). mode=dct is one pass from `in` into the
    // output; a frame in a GpuBuffer is first copied into the scratch
    // (`mid`), which is then its `in`: in place, a block reads samples its
    // neighbours write, and a group's output may share the buffer another
    // group reads. Only those have a scratch plane.
    struct Planes {
      vk::GpuPlane in, mid, out;
      bool copy_in;
    };
    std::vector<Planes> planes;
    VkDeviceSize scratch_size = 0;
    int in_place = 0;
    for (const Job& j : jobs) {
      const bool out_in_place = stager_->in_place(j.output);
      Planes p;
      p.out = stager_->plane(j.output);
      p.copy_in = stager_->in_place(j.input) && (dct || !out_in_place);
      p.in =
          !dct && (p.copy_in || out_in_place) ? p.out : stager_->plane(j.input);
      p.mid = p.out;
      if (!dct || p.copy_in) {
        p.mid.stride = (p.out.row_bytes() + 3) & ~3;
        p.mid.offset = int32_t(scratch_size);
        scratch_size += (VkDeviceSize(p.mid.stride) * p.mid.height + 63) & ~63;
      }
      planes.push_back(p);
      in_place += out_in_place;
    }
    if (scratch_size > 0 &&
        (!deblock_scratch_ || deblock_scratch_->size() < scratch_size)) {
      deblock_scratch_.reset();
      DAEDALUS_ASSIGN_OR_RETURN(
          deblock_scratch_,
          vk::Buffer::create(context_, scratch_size, vk::MemoryUse::Upload));
    }

    DAEDALUS_TRY(start(t0, in_place, int(jobs.size()) - in_place, [&] {
      bool copies = false;
      for (size_t i = 0; i < jobs.size(); i++) {
        Planes& p = planes[i];
        if (scratch_size > 0) p.mid.buffer = deblock_scratch_->get();
        if (!p.copy_in) continue;
        if (dct) p.in = p.mid;
        DAEDALUS_TRY(vk::record_mc(*batch_, dct ? p.mid : p.out,
                                   stager_->plane(jobs[i].input), {},
                                   McFilter::Regular, p.out.height));
        copies = true;
      }
      // A pass reads and writes different buffers, and groups never share a
      // word (the stager's rule for outputs): only passes need barriers.
      if (copies) batch_->barrier();
      if (dct) {
        for (size_t i = 0; i < jobs.size(); i++)
          DAEDALUS_TRY(vk::record_deblock_dct(
              *batch_, planes[i].in, planes[i].out, jobs[i].pp,
              planes[i].out.height, planes[i].out.height));
        return Status::ok();
      }
      for (size_t i = 0; i < jobs.size(); i++)
        DAEDALUS_TRY(vk::record_deblock(
            *batch_, planes[i].in, planes[i].mid, jobs[i].pp,
            vk::DeblockPass::VerticalEdges, planes[i].mid.height));
      batch_->barrier();
      for (size_t i = 0; i < jobs.size(); i++)
        DAEDALUS_TRY(vk::record_deblock(
            *batch_, planes[i].mid, planes[i].out, jobs[i].pp,
            vk::DeblockPass::HorizontalEdges, planes[i].out.width));
      return Status::ok();
    }));
    return finish_band();
  }

  Status do_cdef(const Frame& dst, const ConstFrame& src,
                 const CdefParams& params) override {
    DAEDALUS_TRY(start_cdef(dst, src, params, cdef_block_rows(src), true));
    return finish_band();
  }

  Status do_mc(const Frame& dst, const ConstFrame& src,
               const McParams& params) override {
    int rows[3] = {};
    for (int p = 0; p < dst.num_planes; p++) rows[p] = dst.planes[p].height;
    DAEDALUS_TRY(start_mc(dst, src, params, rows, true));
    return finish_band();
  }

 public:
  Status start_mc_band(const Frame& dst, const ConstFrame& src,
                       const McParams& params, const int rows[3]) override {
    return start_mc(dst, src, params, rows, false);
  }

  Status start_cdef_band(const Frame& dst, const ConstFrame& src,
                         const CdefParams& params, int block_rows) override {
    return start_cdef(dst, src, params, block_rows, false);
  }

  Status start_deblock_band(const Frame& frame, const DeblockParams& params,
                            vk::DeblockPass pass,
                            const int extent[3]) override {
    const bool dct = params.mode == DeblockMode::Dct;
    const bool rows = pass == vk::DeblockPass::VerticalEdges;
    if (dct && !rows)
      return Status::error("internal: mode=dct's GPU band is made of rows");
    const Clock::time_point t0 = Clock::now();
    // One pass from the staged band into the readback buffer: the other pass
    // and the rest of the frame are the CPU's. mode=dct's band is its whole
    // output for the leading rows, from the rows below them too.
    struct Job {
      int input, output;
      DeblockPlaneParams pp;
      int extent;
    };
    std::vector<Job> jobs;
    stager_->begin(false);
    for (const vk::PlaneGroup& g : vk::plane_groups(frame, frame)) {
      const Plane& plane = frame.planes[g.first];
      const DeblockPlaneParams pp = deblock_plane_params(
          params, g.first > 0, g.first > 0 && frame.chroma_subsampled());
      const int e =
          std::min(extent[g.first], rows ? plane.height : plane.width);
      if (e <= 0 || !vk::deblock_changes_plane(pp, plane)) continue;
      vk::Window window;
      (rows ? window.row_end : window.columns) = e;
      const vk::Window source =
          dct ? vk::dct_source_window(e, plane.height) : window;
      jobs.push_back({stager_->input(frame, g, source),
                      stager_->output(frame, g, window), pp, e});
    }
    if (jobs.empty()) return no_work();
    DAEDALUS_TRY(stager_->upload());
    return start(t0, 0, int(jobs.size()), [&] {
      for (const Job& j : jobs) {
        const vk::GpuPlane& in = stager_->plane(j.input);
        const vk::GpuPlane& out = stager_->plane(j.output);
        DAEDALUS_TRY(
            dct ? vk::record_deblock_dct(
                      *batch_, in, out, j.pp, j.extent,
                      vk::dct_source_window(j.extent, out.height).row_end)
                : vk::record_deblock(*batch_, in, out, j.pp, pass, j.extent));
      }
      return Status::ok();
    });
  }

  Status finish_band() override {
    if (!pending_) return Status::ok();
    const Pending p = *pending_;
    pending_.reset();
    const Clock::time_point t0 = Clock::now();
    DAEDALUS_TRY(batch_->wait());
    const Clock::time_point t1 = Clock::now();
    DAEDALUS_TRY(stager_->download());
    const Clock::time_point t2 = Clock::now();
    stats_ = {ms_between(p.begun, p.uploaded),
              ms_between(p.uploaded, p.submitted) + ms_between(t0, t1),
              batch_->gpu_ms(),
              ms_between(t1, t2),
              p.zero_copy_groups,
              p.staged_groups};
    return Status::ok();
  }

  Result<std::unique_ptr<GpuBuffer>> allocate_buffer(size_t size) override {
    DAEDALUS_ASSIGN_OR_RETURN(
        std::unique_ptr<vk::Buffer> buffer,
        vk::Buffer::create(context_, size, vk::MemoryUse::Upload));
    return std::make_unique<VulkanBuffer>(context_, std::move(buffer));
  }

  bool in_device_memory(const ConstFrame& frame) const override {
    for (int p = 0; p < frame.num_planes; p++) {
      const ConstPlane& plane = frame.planes[p];
      if (plane.width > 0 && plane.height > 0 &&
          context_->registry().find(plane.data, 1))
        return true;
    }
    return false;
  }

  const GpuDeviceInfo& device_info() const override { return info_; }
  const GpuFrameStats& last_frame_stats() const override { return stats_; }

 private:
  VulkanBackend() = default;

  // CDEF of block rows [0, block_rows): all of them for a whole frame, the
  // GPU's band of a hybrid one (`in_place` false: always staged).
  Status start_cdef(const Frame& dst, const ConstFrame& src,
                    const CdefParams& params, int block_rows, bool in_place) {
    const Clock::time_point t0 = Clock::now();
    if (block_rows <= 0) return no_work();
    // Every plane in one batch: chroma blocks take the direction of their
    // luma block, which the shader searches beside them. It stages both
    // channels of an interleaved pair at once only for subsampled chroma.
    std::vector<vk::PlaneGroup> groups = vk::plane_groups(dst, src);
    if (groups.size() == 2 && !src.chroma_subsampled())
      groups = {{0, 1}, {1, 1}, {2, 1}};
    std::vector<std::pair<int, int>> slots;  // input, output
    stager_->begin(in_place);
    for (const vk::PlaneGroup& g : groups) {
      const int shift_y = g.first > 0 ? src.chroma_shift_y : 0;
      slots.emplace_back(
          stager_->input(src, g, vk::cdef_source_rows(block_rows, shift_y)),
          stager_->output(dst, g, vk::cdef_band_rows(block_rows, shift_y)));
    }
    DAEDALUS_TRY(stager_->upload());

    vk::CdefGpuFrame f;
    f.chroma_groups = int(groups.size()) - 1;
    f.chroma_shift_x = src.chroma_shift_x;
    f.chroma_shift_y = src.chroma_shift_y;
    for (size_t i = 0; i < groups.size(); i++) {
      f.src[i] = stager_->plane(slots[i].first);
      f.dst[i] = stager_->plane(slots[i].second);
    }
    return start(t0, stager_->zero_copy_slots(), stager_->staged_slots(), [&] {
      return vk::record_cdef(*batch_, f, params, block_rows);
    });
  }

  // MC into rows [0, rows[p]) of each plane: all of them for a whole frame,
  // the GPU's band of a hybrid one (`in_place` false: always staged).
  Status start_mc(const Frame& dst, const ConstFrame& src,
                  const McParams& params, const int rows[3], bool in_place) {
    const Clock::time_point t0 = Clock::now();
    struct Job {
      int input, output;
      McPlaneShift shift;
      int rows;
    };
    std::vector<Job> jobs;
    stager_->begin(in_place);
    for (const vk::PlaneGroup& g : vk::plane_groups(dst, src)) {
      const int height = src.planes[g.first].height;
      const int n = std::min(rows[g.first], height);
      if (n <= 0) continue;
      const bool chroma = g.first != 0;
      const McPlaneShift shift =
          mc_plane_shift(params.dx, params.dy, chroma ? src.chroma_shift_x : 0,
                         chroma ? src.chroma_shift_y : 0);
      vk::Window band;
      band.row_end = n;
      jobs.push_back(
          {stager_->input(
               src, g, vk::mc_source_window(shift, params.filter, n, height)),
           stager_->output(dst, g, band), shift, n});
    }
    if (jobs.empty()) return no_work();
    DAEDALUS_TRY(stager_->upload());
    return start(t0, stager_->zero_copy_slots(), stager_->staged_slots(), [&] {
      for (const Job& j : jobs)
        DAEDALUS_TRY(vk::record_mc(*batch_, stager_->plane(j.output),
                                   stager_->plane(j.input), j.shift,
                                   params.filter, j.rows));
      return Status::ok();
    });
  }

  // What every kernel does once its planes are staged (the call began at
  // `t0`): one command buffer filled by `record` and submitted;
  // finish_band() waits for it and copies the results out.
  template <class Record>
  Status start(Clock::time_point t0, int zero_copy_groups, int staged_groups,
               Record record) {
    const Clock::time_point t1 = Clock::now();
    DAEDALUS_TRY(batch_->begin());
    DAEDALUS_TRY(record());
    DAEDALUS_TRY(batch_->submit());
    pending_ = Pending{t0, t1, Clock::now(), zero_copy_groups, staged_groups};
    return Status::ok();
  }

  // A frame (or band) with nothing for the GPU to do.
  Status no_work() {
    stats_ = {0, 0, 0, 0, 0, 0};
    return Status::ok();
  }

  // The submitted batch finish_band() waits for.
  struct Pending {
    Clock::time_point begun, uploaded, submitted;
    int zero_copy_groups, staged_groups;
  };

  std::shared_ptr<vk::Context> context_;
  std::unique_ptr<vk::Batch> batch_;
  std::optional<vk::FrameStager> stager_;
  std::unique_ptr<vk::Buffer> deblock_scratch_;  // deblock's pass 1 output
  std::optional<Pending> pending_;
  GpuDeviceInfo info_;
  GpuFrameStats stats_;
};

}  // namespace

GpuOptions GpuOptions::from_env() {
  GpuOptions o;
  if (const char* device = std::getenv("DAEDALUS_VULKAN_DEVICE"))
    o.device = device;
  o.validation = vk::validation_requested_by_env();
  if (const char* timeout = std::getenv("DAEDALUS_GPU_TIMEOUT_MS")) {
    char* end = nullptr;
    const unsigned long long ms = std::strtoull(timeout, &end, 10);
    if (*timeout >= '0' && *timeout <= '9' && *end == '\0' && ms > 0)
      o.wait_timeout_ms = ms;
  }
  return o;
}

Result<std::unique_ptr<GpuBackend>> create_gpu_backend(
    const GpuOptions& options) {
  return VulkanBackend::create(options);
}

}  // namespace daedalus
