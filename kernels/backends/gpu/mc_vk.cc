#include "mc_vk.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "mc.spv.h"
#include "mc/mc_tile.h"
#include "vulkan/vk_device_select.h"

namespace daedalus::vk {
namespace {

struct McPush {
#include "mc/mc_push.h"
};
static_assert(std::is_standard_layout_v<McPush>);
static_assert(sizeof(McPush) == 14 * sizeof(int32_t) &&
              offsetof(McPush, row_end) == 13 * sizeof(int32_t));
static_assert(sizeof(McPush) <= kPushConstantBudget);
static_assert(MC_LOCAL_X * MC_LOCAL_Y <= int(kInvocationBudget) &&
              MC_LOCAL_X <= int(kWorkgroupSideBudget) &&
              MC_LOCAL_Y <= int(kWorkgroupSideBudget));
// mc.comp's two shared arrays of 32-bit ints.
static_assert(4 * MC_MAX_ROWS * (MC_MAX_IN_W + MC_TILE_W) <=
              int(kSharedMemoryBudget));

const KernelDesc kMcKernel = {"mc.comp", mc_spv, sizeof(McPush), 2};

// One axis's filter: 1 tap (no fraction), bilinear's 2 or VP9's 8.
struct Axis {
  int taps = 1;
  int weights[8] = {};
};

Axis axis(McFilter filter, int fraction) {
  Axis a;
  if (fraction == 0) return a;
  if (filter == McFilter::Bilinear) {
    // a + ((f * (b - a) + 8) >> 4) == ((16 - f) * a + f * b + 8) >> 4.
    a.taps = 2;
    a.weights[0] = 16 - fraction;
    a.weights[1] = fraction;
    return a;
  }
  a.taps = 8;
  for (int k = 0; k < 8; k++)
    a.weights[k] = kVp9Filters[static_cast<int>(filter)][fraction][k];
  return a;
}

// Four weights as signed bytes; every weight used lies in -24..127.
int32_t pack(const int* w) {
  uint32_t v = 0;
  for (int k = 0; k < 4; k++) v |= uint32_t(uint8_t(int8_t(w[k]))) << (8 * k);
  return int32_t(v);
}

uint32_t groups(int64_t n, int per_group) {
  return uint32_t((n + per_group - 1) / per_group);
}

// Tap k of an 8-tap filter reads sample c + k - 3, of bilinear c + k.
int first_tap(const Axis& a) { return a.taps == 8 ? -3 : 0; }

}  // namespace

Window mc_source_window(const McPlaneShift& shift, McFilter filter, int rows,
                        int height) {
  const Axis ay = axis(filter, shift.fy);
  const int64_t first = int64_t(shift.iy) + first_tap(ay);
  const int64_t last = first + rows - 1 + ay.taps - 1;
  auto clamp_row = [&](int64_t y) {
    return int(std::clamp<int64_t>(y, 0, height - 1));
  };
  Window w;
  w.row_begin = clamp_row(first);
  w.row_end = clamp_row(last) + 1;
  return w;
}

Status record_mc(Batch& batch, const GpuPlane& dst, const GpuPlane& src,
                 const McPlaneShift& shift, McFilter filter, int rows) {
  if (dst.width <= 0 || rows <= 0) return Status::ok();
  const Axis ax = axis(filter, shift.fx), ay = axis(filter, shift.fy);
  const McPush push = {.src_offset = src.offset,
                       .src_stride = src.stride,
                       .dst_offset = dst.offset,
                       .dst_stride = dst.stride,
                       .width = dst.width,
                       .height = dst.height,
                       .step = dst.step,
                       .ix = shift.ix,
                       .iy = shift.iy,
                       .taps_x_lo = pack(ax.weights),
                       .taps_x_hi = pack(ax.weights + 4),
                       .taps_y_lo = pack(ay.weights),
                       .taps_y_hi = pack(ay.weights + 4),
                       .row_end = rows};
  const int32_t spec[] = {ax.taps, ay.taps, dst.bit_depth, dst.lsb};
  const VkBuffer buffers[] = {src.buffer, dst.buffer};
  return batch.dispatch(kMcKernel, spec, &push, buffers,
                        groups(int64_t(dst.width) * dst.step, MC_TILE_W),
                        groups(rows, MC_TILE_H));
}

}  // namespace daedalus::vk
