// CDEF's frame loop (docs/spec.md, daedaluscdef), the one every
// implementation shares, as dav1d's cdef_apply_tmpl.c is: it walks the block
// rows in chunks of blocks, stages each chunk's samples, and hands them to
// the leaves of the DSP table (the direction search, then the filter of each
// plane); what no block covers it copies.
#include <algorithm>
#include <cstring>

#include "daedalus/cdef.h"

namespace daedalus {
namespace {

int effective_sec(int sec) { return sec == 3 ? 4 : sec; }

// Copies the samples [x0, x1) x [y0, y1) of src to dst: their values (of
// 16-bit samples, the other bits 0).
void copy_rect(const Plane& dst, const ConstPlane& src, int x0, int x1, int y0,
               int y1) {
  if (x0 >= x1) return;
  const int size = src.bytes_per_sample();
  for (int y = y0; y < y1; y++) {
    if (size == 1 && src.step == 1 && dst.step == 1) {
      std::memcpy(&dst.at(x0, y), &src.at(x0, y), size_t(x1 - x0));
    } else if (size == 1) {
      for (int x = x0; x < x1; x++) dst.at(x, y) = src.at(x, y);
    } else {
      const uint16_t bits = uint16_t(src.max_value() << src.lsb);
      for (int x = x0; x < x1; x++) {
        uint16_t w;
        std::memcpy(&w, &src.at(x, y), 2);
        w &= bits;
        std::memcpy(&dst.at(x, y), &w, 2);
      }
    }
  }
}

// The rows of cache lines of samples [x0, x1) of rows [y, y + rows) of p
// (those in the plane), added to `ahead`.
void list_rows(CdefAhead& ahead, const ConstPlane& p, int x0, int x1, int y,
               int rows) {
  const int c0 = std::max(x0, 0) * p.step, c1 = std::min(x1, p.width) * p.step;
  if (c1 <= c0) return;
  const int lines = (c1 - (c0 & ~63) + 63) / 64;
  for (int r = std::max(y, 0);
       r < std::min(y + rows, p.height) && ahead.n < CdefAhead::kMaxRows; r++)
    ahead.rows[ahead.n++] = {p.row(r) + (c0 & ~63), lines};
}

// What stays the same over a call, and the scratch space of a chunk.
struct Rows {
  Rows(const CdefDsp& dsp, const Frame& dst_, const ConstFrame& src_,
       const CdefParams& params_)
      : leaves(cdef_leaves(dsp, src_)), dst(dst_), src(src_), params(params_) {}

  const CdefLeaves& leaves;
  const Frame& dst;
  const ConstFrame& src;
  const CdefParams& params;
  const int cs = src.bit_depth() - 8;
  const int nb = src.planes[0].width / 8;
  const int sx = src.chroma_shift_x, sy = src.chroma_shift_y;
  // Chroma blocks: 8x8 (4:4:4, each plane alone like luma), 4x8 (4:2:2) or
  // 4x4 (4:2:0), U and V at once. (No format has 4:4:0 chroma.)
  const int cw = 8 >> sx, ch = 8 >> sy;
  const bool want_dir = params.pri_strength > 0 || params.uv_pri_strength > 0;
  const int uv_pri = params.uv_pri_strength << cs;
  const int uv_sec = effective_sec(params.uv_sec_strength) << cs;
  const bool uv_on = src.num_planes == 3 && (uv_pri || uv_sec);

  // Luma or a 4:4:4 chroma plane; or U, and V from staged_v, at half the
  // pitch. Read past what is staged (never used), so initialised.
  alignas(64) uint16_t staged[12 * kCdefPitch] = {};
  uint16_t* const staged_v = staged + 12 * kCdefPitch / 2;
  uint8_t dir[kCdefChunk], luma_dir[kCdefChunk], luma_pri[kCdefChunk];
  uint8_t uv_dir[kCdefChunk], uv_pris[kCdefChunk];
  int var[kCdefChunk];
  // Where a chroma pair's blocks outside one of the planes go.
  uint16_t spill[8 * 4 * kCdefChunk];
  // What the next chunk stages, for the filters to prefetch.
  CdefAhead ahead;
};

// Lists the source lines of the chunk after blocks [b0, b0 + n) of the block
// row at y0 (this row's next chunk, or row y_next's first) in w.ahead.
void list_next_chunk(Rows& w, int y0, int b0, int n, int y_next) {
  w.ahead.n = w.ahead.row = w.ahead.line = 0;
  const bool last = b0 + n >= w.nb;
  if (last && y_next < 0) return;
  const int x = last ? 0 : b0 + n, y = last ? y_next : y0;
  const int m = std::min(kCdefChunk, w.nb - x);
  list_rows(w.ahead, w.src.planes[0], 8 * x - 8, 8 * (x + m) + 8, y - 2, 12);
  for (int p = 1; p < w.src.num_planes; p++)
    list_rows(w.ahead, w.src.planes[p], (8 * x - 8) >> w.sx,
              (8 * (x + m) + 8) >> w.sx, (y >> w.sy) - 2, w.ch + 4);
}

// Blocks [b0, b0 + n) of plane p at row y (luma, or 4:4:4 chroma) from the
// staged samples, with strengths pri (per block) and sec.
CdefBlocks one_plane(Rows& w, int p, int y, int b0, int n, const uint8_t* pri,
                     const uint8_t* dir, int sec, int damping) {
  const Plane& d = w.dst.planes[p];
  return {{w.staged + 2 * kCdefPitch + 8, nullptr},
          kCdefPitch,
          {&d.at(8 * b0, y), nullptr},
          {d.stride, 0},
          {d.step, 0},
          d.lsb,
          n,
          pri,
          dir,
          sec,
          damping,
          &w.ahead};
}

// Luma blocks [b0, b0 + n) of the block row at y0: the direction search and
// the filter.
void luma_chunk(Rows& w, int y0, int b0, int n) {
  const int pri = w.params.pri_strength;
  // Blocks b0 - 1 to b0 + n (the outer ones for the taps).
  w.leaves.stage(w.src.planes[0], 8 * b0 - 8, y0 - 2, 8 * n + 16, 12,
                 kCdefPitch, w.staged);
  if (w.want_dir) {
    w.leaves.find_dirs(w.staged + 2 * kCdefPitch + 8, n, w.dir, w.var);
  } else {
    std::fill(w.dir, w.dir + n, 0);
    std::fill(w.var, w.var + n, 0);
  }
  for (int j = 0; j < n; j++) {
    w.luma_pri[j] = uint8_t(cdef_adjust_strength(pri << w.cs, w.var[j]));
    w.luma_dir[j] = pri > 0 ? w.dir[j] : 0;
  }
  const int sec = effective_sec(w.params.sec_strength) << w.cs;
  w.leaves.filter[kCdef8x8](one_plane(w, 0, y0, b0, n, w.luma_pri, w.luma_dir,
                                      sec, w.params.damping + w.cs));
}

// The chroma blocks [b0, b0 + n) of the block row at chroma row cy0 (after
// luma_chunk: its directions), those from uv_blocks[p] on outside plane p.
void chroma_chunk(Rows& w, int cy0, int b0, int n, const int* uv_blocks) {
  const bool dir422 = w.sx == 1 && w.sy == 0;
  for (int j = 0; j < n; j++) {
    const int d = dir422 ? kCdefDir422[w.dir[j]] : w.dir[j];
    w.uv_dir[j] = w.params.uv_pri_strength > 0 ? uint8_t(d) : 0;
    w.uv_pris[j] = uint8_t(w.uv_pri);
  }
  const int damping = w.params.damping - 1 + w.cs;
  if (w.cw == 8) {
    for (int p = 1; p < 3; p++) {
      if (b0 >= uv_blocks[p]) continue;
      w.leaves.stage(w.src.planes[p], 8 * b0 - 8, cy0 - 2, 8 * n + 16, 12,
                     kCdefPitch, w.staged);
      w.leaves.filter[kCdef8x8](
          one_plane(w, p, cy0, b0, std::min(n, uv_blocks[p] - b0), w.uv_pris,
                    w.uv_dir, w.uv_sec, damping));
    }
    return;
  }
  const int pitch = kCdefPitch / 2;
  w.leaves.stage(w.src.planes[1], 4 * b0 - 4, cy0 - 2, 4 * n + 8, w.ch + 4,
                 pitch, w.staged);
  w.leaves.stage(w.src.planes[2], 4 * b0 - 4, cy0 - 2, 4 * n + 8, w.ch + 4,
                 pitch, w.staged_v);
  const Plane& u = w.dst.planes[1];
  const Plane& v = w.dst.planes[2];
  const CdefFilterFn filter =
      w.leaves.filter[w.ch == 8 ? kCdef4x8Pair : kCdef4x4Pair];
  CdefBlocks blocks = {
      {w.staged + 2 * pitch + 4, w.staged_v + 2 * pitch + 4},
      pitch,
      {&u.at(4 * b0, cy0), &v.at(4 * b0, cy0)},
      {u.stride, v.stride},
      {u.step, v.step},
      u.lsb,
      std::clamp(std::min(uv_blocks[1], uv_blocks[2]) - b0, 0, n),
      w.uv_pris,
      w.uv_dir,
      w.uv_sec,
      damping,
      &w.ahead};
  if (blocks.n > 0) filter(blocks);
  if (blocks.n == n) return;
  // The rest lie in one plane only: the other's results go to the spill.
  const int k = blocks.n, size = u.bytes_per_sample();
  const int outside = uv_blocks[1] > uv_blocks[2] ? 1 : 0;
  for (int p = 0; p < 2; p++) {
    blocks.src[p] += 4 * k;
    blocks.dst[p] += ptrdiff_t(4) * k * blocks.step[p];
  }
  blocks.dst[outside] = reinterpret_cast<uint8_t*>(w.spill);
  blocks.stride[outside] = 4 * kCdefChunk * size;
  blocks.step[outside] = size;
  blocks.n = n - k;
  blocks.pri += k;
  blocks.dir += k;
  filter(blocks);
}

}  // namespace

void cdef_filter_rows(const CdefDsp& dsp, const Frame& dst,
                      const ConstFrame& src, const CdefParams& params,
                      int by_begin, int by_end) {
  Rows w(dsp, dst, src, params);
  const ConstPlane& luma = src.planes[0];
  for (int by = by_begin; by < by_end; by++) {
    const int y0 = 8 * by, cy0 = y0 >> w.sy;
    const bool full = y0 + 8 <= luma.height;
    // Chroma blocks [0, uv_blocks[p]) of this row are filtered.
    int uv_blocks[3] = {0, 0, 0};
    for (int p = 1; w.uv_on && full && p < 3; p++)
      if (cy0 + w.ch <= src.planes[p].height)
        uv_blocks[p] = std::min(w.nb, src.planes[p].width / w.cw);
    const int uv_any = std::max(uv_blocks[1], uv_blocks[2]);
    for (int b0 = 0; full && b0 < w.nb; b0 += kCdefChunk) {
      const int n = std::min(kCdefChunk, w.nb - b0);
      list_next_chunk(w, y0, b0, n, by + 1 < by_end ? y0 + 8 : -1);
      luma_chunk(w, y0, b0, n);
      if (b0 < uv_any)
        chroma_chunk(w, cy0, b0, std::min(n, uv_any - b0), uv_blocks);
    }

    // What is left unfiltered: a partial block row, the columns right of
    // the last block, chroma blocks outside their plane.
    copy_rect(dst.planes[0], luma, full ? 8 * w.nb : 0, luma.width, y0,
              std::min(y0 + 8, luma.height));
    for (int p = 1; p < src.num_planes; p++) {
      const ConstPlane& c = src.planes[p];
      copy_rect(dst.planes[p], c, w.cw * uv_blocks[p], c.width, cy0,
                std::min(cy0 + w.ch, c.height));
    }
  }
}

}  // namespace daedalus
