#include "daedalus/frame_jobs.h"

#include <string>

namespace daedalus {
namespace {

const char* on_off(int strength) { return strength ? "on" : "off"; }

// "frac" when a shift has a fractional part on luma or on subsampled
// chroma, i.e. when that pass filters rather than copies.
const char* mc_axis(double d) {
  return mc_subpel(d, 0) % 16 || mc_subpel(d, 1) % 16 ? "frac" : "int";
}

}  // namespace

FrameJob deblock_job(const DeblockParams& params) {
  FrameJob job;
  const std::string grid = "block-size=" + std::to_string(params.block_size);
  // mode=vp9's block size is also its filter width; mode=h264's keys predate
  // the mode and keep their form.
  if (params.mode == DeblockMode::Vp9)
    job.cost_key = "mode=vp9 " + grid;
  else if (params.mode == DeblockMode::Dct)
    job.cost_key = "mode=dct shifts=" + std::to_string(params.shifts);
  else
    job.cost_key =
        grid + (params.bs == 4 ? " filter=strong" : " filter=normal");
  job.kernel = deblock_kernel(params.mode);
  job.in_place = true;
  job.run = [params](Backend& b, const Frame& dst, const ConstFrame&) {
    return b.deblock(dst, params);
  };
  return job;
}

FrameJob cdef_job(const CdefParams& params) {
  FrameJob job;
  job.cost_key = std::string("pri=") + on_off(params.pri_strength) +
                 " sec=" + on_off(params.sec_strength) +
                 " uv-pri=" + on_off(params.uv_pri_strength) +
                 " uv-sec=" + on_off(params.uv_sec_strength);
  job.kernel = Kernel::Cdef;
  job.run = [params](Backend& b, const Frame& dst, const ConstFrame& src) {
    return b.cdef(dst, src, params);
  };
  return job;
}

FrameJob mc_job(const McParams& params) {
  FrameJob job;
  job.cost_key = "filter=" + std::string(mc_filter_name(params.filter)) +
                 " dx=" + mc_axis(params.dx) + " dy=" + mc_axis(params.dy);
  job.kernel = Kernel::Mc;
  job.run = [params](Backend& b, const Frame& dst, const ConstFrame& src) {
    return b.mc(dst, src, params);
  };
  return job;
}

}  // namespace daedalus
