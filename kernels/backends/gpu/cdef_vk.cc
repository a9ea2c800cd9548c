#include "cdef_vk.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "cdef.spv.h"
#include "cdef/cdef_tile.h"
#include "vulkan/vk_device_select.h"
#include "vulkan/vk_status.h"

namespace daedalus::vk {
namespace {

struct CdefPush {
#include "cdef/cdef_push.h"
};
static_assert(std::is_standard_layout_v<CdefPush>);
static_assert(sizeof(CdefPush) == 23 * sizeof(int32_t) &&
              offsetof(CdefPush, damping) == 22 * sizeof(int32_t));
static_assert(sizeof(CdefPush) <= kPushConstantBudget);
static_assert(CDEF_INVOCATIONS <= int(kInvocationBudget) &&
              CDEF_LOCAL_X <= int(kWorkgroupSideBudget) &&
              CDEF_LOCAL_Y <= int(kWorkgroupSideBudget));
// cdef.comp's shared ints: staged planes, half-costs, directions, variances.
static_assert(4 * (CDEF_LUMA_INTS + CDEF_CHROMA_INTS + CDEF_INVOCATIONS +
                   2 * CDEF_BLOCKS) <=
              int(kSharedMemoryBudget));
// One 4:4:4 plane fits where two subsampled ones go.
static_assert(CDEF_CHROMA_INTS >= CDEF_LUMA_INTS);
// 16 invocations per block (8 directions x 2 halves of the lines), one per
// luma word, and whole 32-column rows in the staging loops.
static_assert(CDEF_INVOCATIONS == 16 * CDEF_BLOCKS &&
              CDEF_INVOCATIONS == CDEF_TILE_W / 4 * CDEF_TILE_H &&
              CDEF_INVOCATIONS % 32 == 0);
// A workgroup row is a block row: a band of block rows is a band of
// workgroup rows, and reads no row past its halo.
static_assert(CDEF_TILE_H == 8);

const KernelDesc kCdefKernel = {"cdef.comp", cdef_spv, sizeof(CdefPush), 4};

uint32_t groups(int n, int per_group) {
  return uint32_t((n + per_group - 1) / per_group);
}

int effective_sec(int sec) { return sec == 3 ? 4 : sec; }

void set_chroma(const GpuPlane& src, const GpuPlane& dst, int* src_offset,
                int* src_stride, int* dst_offset, int* dst_stride) {
  *src_offset = src.offset;
  *src_stride = src.stride;
  *dst_offset = dst.offset;
  *dst_stride = dst.stride;
}

}  // namespace

Status record_cdef(Batch& batch, const CdefGpuFrame& f,
                   const CdefParams& params, int block_rows) {
  const GpuPlane &ls = f.src[0], &ld = f.dst[0];
  if (ld.width <= 0 || block_rows <= 0) return Status::ok();
  // Chroma planes of no rows (the second field of a frame whose chroma has
  // one row) have no buffer: luma alone then.
  const int chroma_groups = f.dst[1].height > 0 ? f.chroma_groups : 0;
  const int sx = chroma_groups ? f.chroma_shift_x : 0;
  const int sy = chroma_groups ? f.chroma_shift_y : 0;
  const int step = chroma_groups ? f.src[1].step : 1;
  const int cw = chroma_groups ? f.dst[1].width : 0;
  const int ch = chroma_groups ? f.dst[1].height : 0;
  if (step == 2 && sx == 0 && sy == 0)
    return Status::error(
        "internal: cdef.comp stages interleaved chroma only "
        "when it is subsampled");
  CdefPush base{};
  base.luma_src_offset = ls.offset;
  base.luma_src_stride = ls.stride;
  base.luma_dst_offset = ld.offset;
  base.luma_dst_stride = ld.stride;
  base.width = ld.width;
  base.height = ld.height;
  base.chroma_width = cw;
  base.chroma_height = ch;
  base.pri_strength = params.pri_strength;
  base.sec_strength = effective_sec(params.sec_strength);
  base.uv_pri_strength = params.uv_pri_strength;
  base.uv_sec_strength = effective_sec(params.uv_sec_strength);
  base.damping = params.damping;
  const int32_t spec[] = {sx, sy, step, ls.bit_depth, ls.lsb};
  const uint32_t gx =
      std::max(groups(ld.width, CDEF_TILE_W), groups(cw, CDEF_TILE_W >> sx));
  const uint32_t gy = uint32_t(block_rows);

  // Chroma groups 1.. not yet recorded; the first dispatch also writes luma.
  int next = 1;
  do {
    CdefPush push = base;
    push.luma_out = next == 1;
    VkBuffer buffers[] = {ls.buffer, ld.buffer, ls.buffer, ld.buffer};
    if (next <= chroma_groups) {
      const GpuPlane &s0 = f.src[next], &d0 = f.dst[next];
      buffers[2] = s0.buffer;
      buffers[3] = d0.buffer;
      set_chroma(s0, d0, &push.c0_src_offset, &push.c0_src_stride,
                 &push.c0_dst_offset, &push.c0_dst_stride);
      push.chroma_groups = 1;
      const int other = next + 1;
      if (other <= chroma_groups && f.src[other].buffer == s0.buffer &&
          f.dst[other].buffer == d0.buffer) {
        set_chroma(f.src[other], f.dst[other], &push.c1_src_offset,
                   &push.c1_src_stride, &push.c1_dst_offset,
                   &push.c1_dst_stride);
        push.chroma_groups = 2;
      }
    }
    DAEDALUS_TRY(batch.dispatch(kCdefKernel, spec, &push, buffers, gx, gy));
    next += push.chroma_groups;
  } while (next <= chroma_groups);
  return Status::ok();
}

Window cdef_band_rows(int block_rows, int shift_y) {
  Window w;
  w.row_end = (block_rows * CDEF_TILE_H) >> shift_y;
  return w;
}

Window cdef_source_rows(int block_rows, int shift_y) {
  Window w = cdef_band_rows(block_rows, shift_y);
  w.row_end += CDEF_HALO;
  return w;
}

}  // namespace daedalus::vk
