#include "deblock_dct_vk.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "deblock/deblock_dct_tile.h"
#include "deblock_dct.spv.h"
#include "vulkan/vk_device_select.h"

namespace daedalus::vk {
namespace {

struct DeblockDctPush {
#include "deblock/deblock_dct_push.h"
};
static_assert(std::is_standard_layout_v<DeblockDctPush>);
static_assert(sizeof(DeblockDctPush) == 10 * sizeof(int32_t) &&
              offsetof(DeblockDctPush, shifts) == 9 * sizeof(int32_t));
static_assert(sizeof(DeblockDctPush) <= kPushConstantBudget);
static_assert(DCT_INVOCATIONS <= int(kInvocationBudget) &&
              DCT_LOCAL_X <= int(kWorkgroupSideBudget) &&
              DCT_LOCAL_Y <= int(kWorkgroupSideBudget));
// 8 invocations per block slot; the shared arrays within V3D's 16 KiB.
static_assert(8 * DCT_SLOTS <= DCT_INVOCATIONS);
static_assert(4 * DCT_SHARED_WORDS <= int(kSharedMemoryBudget));

const KernelDesc kDeblockDctKernel = {"deblock_dct.comp", deblock_dct_spv,
                                      sizeof(DeblockDctPush), 2};

uint32_t tiles(int n) { return uint32_t((n + DCT_TILE - 1) / DCT_TILE); }

}  // namespace

Window dct_source_window(int rows, int height) {
  Window w;
  w.row_end = std::min(height, rows + 7);
  return w;
}

Status record_deblock_dct(Batch& batch, const GpuPlane& src,
                          const GpuPlane& dst, const DeblockPlaneParams& params,
                          int rows, int src_rows) {
  const DeblockPlaneParams pp =
      deblock_plane_params_at_depth(params, dst.bit_depth);
  rows = std::min(rows, dst.height);
  if (dst.width <= 0 || rows <= 0) return Status::ok();
  if (dst.offset % 4 != 0 || dst.stride % 4 != 0)
    return Status::error("internal: deblock needs word-aligned output rows");
  const DeblockDctPush push = {.src_offset = src.offset,
                               .src_stride = src.stride,
                               .dst_offset = dst.offset,
                               .dst_stride = dst.stride,
                               .width = dst.width,
                               .height = dst.height,
                               .rows = rows,
                               .src_rows = std::min(src_rows, dst.height),
                               .threshold = pp.dct_threshold,
                               .shifts = pp.dct_shifts};
  const int32_t spec[] = {dst.step, dst.bit_depth, dst.lsb};
  const VkBuffer buffers[] = {src.buffer, dst.buffer};
  return batch.dispatch(kDeblockDctKernel, spec, &push, buffers,
                        tiles(dst.width), tiles(rows));
}

}  // namespace daedalus::vk
