#include "deblock_vk.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "deblock.spv.h"
#include "deblock/deblock_group.h"
#include "deblock_vp9.spv.h"
#include "vulkan/vk_device_select.h"

namespace daedalus::vk {
namespace {

struct DeblockPush {
#include "deblock/deblock_push.h"
};
static_assert(std::is_standard_layout_v<DeblockPush>);
static_assert(sizeof(DeblockPush) == 15 * sizeof(int32_t) &&
              offsetof(DeblockPush, items_x_log2) == 14 * sizeof(int32_t));
static_assert(sizeof(DeblockPush) <= kPushConstantBudget);
static_assert(DEBLOCK_INVOCATIONS <= int(kInvocationBudget) &&
              DEBLOCK_LOCAL_X <= int(kWorkgroupSideBudget) &&
              DEBLOCK_LOCAL_Y <= int(kWorkgroupSideBudget));

const KernelDesc kDeblockKernel = {"deblock.comp", deblock_spv,
                                   sizeof(DeblockPush), 2};

struct DeblockVp9Push {
#include "deblock/deblock_vp9_push.h"
};
static_assert(std::is_standard_layout_v<DeblockVp9Push>);
static_assert(sizeof(DeblockVp9Push) == 11 * sizeof(int32_t) &&
              offsetof(DeblockVp9Push, items_y) == 10 * sizeof(int32_t));
static_assert(sizeof(DeblockVp9Push) <= kPushConstantBudget);

const KernelDesc kDeblockVp9Kernel = {"deblock_vp9.comp", deblock_vp9_spv,
                                      sizeof(DeblockVp9Push), 2};

// Edges at B, 2B, ... with edge + reach <= length.
int edge_count(const DeblockPlaneParams& pp, int length) {
  return std::max(0, (length - deblock_edge_reach(pp)) / pp.block_size);
}

int ceil_div(int n, int d) { return (n + d - 1) / d; }

// docs/spec.md filters a row's edges in increasing x (a column's in y; the
// same argument holds for pass 2). The edge at x reads samples x - r ..
// x + r - 1 (r = 4 luma, 2 chroma) and writes some of them: x - 3 .. x + 2
// (luma, bs 4), x - 2 .. x + 1 (luma, bs < 4), x - 1 .. x (chroma).
// * Block size 8 or 16: the read ranges of two edges are disjoint, so every
//   edge sees unfiltered samples whatever the order.
// * Block size 4, chroma: reads [x - 2, x + 2) are disjoint again.
// * Block size 4, luma, bs < 4: edge x + 4 reads x .. x + 7, of which edge x
//   wrote x (its q0', read as p3, which this filter does not use) and x + 1
//   (q1', read as p2). q1' depends on edge x's p1 .. q2 (x - 2 .. x + 2),
//   none of which an earlier edge writes (edge x - 4 writes up to x - 3), so
//   it is a function of unfiltered samples: the shader recomputes it.
// In these cases the shader's gather computes each word from unfiltered
// samples alone. With bs 4 the precondition of edge x + 4 reads x + 2, edge
// x's q2': every edge depends on all the edges before it, and an invocation
// walks each row (column) in order.
bool ordered_runs(const DeblockPlaneParams& pp) {
  return !pp.chroma_filter && pp.bs == 4 && pp.block_size == 4;
}

// mode=vp9 (record_deblock's contract). Lines: rows (pass 1) or word
// columns (pass 2). Block size 4: an item per line, which walks its edges
// in order; 8 and 16: an item per segment of B samples of a line around
// an edge (deblock_vp9.comp says why both are exact).
Status record_deblock_vp9(Batch& batch, const GpuPlane& src,
                          const GpuPlane& dst, const DeblockPlaneParams& pp,
                          DeblockPass pass, int extent) {
  const bool vertical = pass == DeblockPass::VerticalEdges;
  const int b = pp.block_size;
  const int lines =
      vertical ? extent : ceil_div(extent * dst.step * dst.bytes(), 4);
  const int segments =
      b == 4 ? 1 : ceil_div((vertical ? dst.width : dst.height) + b / 2, b);
  const int items_x = vertical && b > 4 ? segments : lines;
  const int items_y = vertical ? (b > 4 ? lines : 1) : segments;
  const DeblockVp9Push push = {.src_offset = src.offset,
                               .src_stride = src.stride,
                               .dst_offset = dst.offset,
                               .dst_stride = dst.stride,
                               .width = dst.width,
                               .height = dst.height,
                               .limit = pp.vp9.limit,
                               .blimit = pp.vp9.blimit,
                               .thresh = pp.vp9.thresh,
                               .items_x = items_x,
                               .items_y = items_y};
  const int32_t spec[] = {vertical ? 1 : 2, dst.step, pp.block_size,
                          dst.bit_depth, dst.lsb};
  const VkBuffer buffers[] = {src.buffer, dst.buffer};
  return batch.dispatch(kDeblockVp9Kernel, spec, &push, buffers,
                        uint32_t(ceil_div(items_x, DEBLOCK_INVOCATIONS)),
                        uint32_t(items_y));
}

}  // namespace

bool deblock_changes_plane(const DeblockPlaneParams& pp, const Plane& plane) {
  // mode=dct has no edges: every sample is a block's. A deeper plane is
  // written whole (its bits outside the values cleared) once active.
  return deblock_plane_active(pp) && plane.height > 0 && plane.width > 0 &&
         (pp.mode == DeblockMode::Dct || plane.bit_depth > 8 ||
          edge_count(pp, plane.width) > 0 || edge_count(pp, plane.height) > 0);
}

Status record_deblock(Batch& batch, const GpuPlane& src, const GpuPlane& dst,
                      const DeblockPlaneParams& params, DeblockPass pass,
                      int extent) {
  const DeblockPlaneParams pp =
      deblock_plane_params_at_depth(params, dst.bit_depth);
  if (dst.width <= 0 || dst.height <= 0 || extent <= 0) return Status::ok();
  if (src.offset % 4 != 0 || src.stride % 4 != 0 || dst.offset % 4 != 0 ||
      dst.stride % 4 != 0)
    return Status::error("internal: deblock needs word-aligned rows");
  const bool vertical = pass == DeblockPass::VerticalEdges;
  if (!vertical && extent < dst.width &&
      extent * dst.step * dst.bytes() % 4 != 0)
    return Status::error("internal: a deblock column band must end on a word");
  if (pp.mode == DeblockMode::Vp9)
    return record_deblock_vp9(batch, src, dst, pp, pass, extent);
  const int edges = edge_count(pp, vertical ? dst.width : dst.height);
  // A pass without an edge is a copy, which the gather does.
  const bool runs = ordered_runs(pp) && edges > 0;

  // Gather: pass 1's items are groups of 4 samples of a row (STEP words),
  // pass 2's groups of 4 rows of a word column. Runs: a row (pass 1) or a
  // word column (pass 2). Items are independent: a band is fewer of them.
  const int rows = vertical ? extent : dst.height;
  const int words =
      ceil_div((vertical ? dst.width : extent) * dst.step * dst.bytes(), 4);
  int items_x, items_y;
  if (runs) {
    items_x = vertical ? 1 : words;
    items_y = vertical ? rows : 1;
  } else {
    items_x = vertical ? ceil_div(dst.width, 4) : words;
    items_y = vertical ? rows : ceil_div(dst.height, 4);
  }
  // As many items along x per workgroup as there are, up to all of its
  // invocations: neighbouring items along x use neighbouring words.
  int log2 = 0;
  while ((1 << log2) < items_x && (1 << log2) < DEBLOCK_INVOCATIONS) log2++;

  const DeblockPush push = {.src_offset = src.offset,
                            .src_stride = src.stride,
                            .dst_offset = dst.offset,
                            .dst_stride = dst.stride,
                            .width = dst.width,
                            .height = dst.height,
                            .alpha = pp.alpha,
                            .beta = pp.beta,
                            .tc0 = pp.tc0,
                            .bs = pp.bs,
                            .block_size = pp.block_size,
                            .edges = edges,
                            .items_x = items_x,
                            .items_y = items_y,
                            .items_x_log2 = log2};
  const int32_t spec[] = {
      vertical ? 1 : 2, dst.step,      pp.chroma_filter ? 0 : 1,
      runs ? 0 : 1,     dst.bit_depth, dst.lsb};
  const VkBuffer buffers[] = {src.buffer, dst.buffer};
  return batch.dispatch(
      kDeblockKernel, spec, &push, buffers,
      uint32_t(ceil_div(items_x, 1 << log2)),
      uint32_t(ceil_div(items_y, DEBLOCK_INVOCATIONS >> log2)));
}

}  // namespace daedalus::vk
