// Deblocking in the harness's table, a case per mode: every value of every
// field of DeblockParams the mode reads, on blocky content.
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "cases.h"
#include "daedalus/frame_jobs.h"
#include "test_util.h"

namespace daedalus::harness {
namespace {

int in(std::mt19937& gen, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(gen);
}

Setting deblock(const DeblockParams& p) {
  std::string text;
  switch (p.mode) {
    case DeblockMode::H264:
      text = "h264 qp " + std::to_string(p.qp) + " alpha " +
             std::to_string(p.alpha_offset) + " beta " +
             std::to_string(p.beta_offset) + " bs " + std::to_string(p.bs) +
             " block " + std::to_string(p.block_size);
      break;
    case DeblockMode::Vp9:
      text = "vp9 level " + std::to_string(p.filter_level) + " sharpness " +
             std::to_string(p.sharpness) + " block " +
             std::to_string(p.block_size);
      break;
    case DeblockMode::Dct:
      text = "dct qp " + std::to_string(p.qp) + " shifts " +
             std::to_string(p.shifts);
      break;
  }
  return {deblock_job(p),
          text + " chroma qp " + std::to_string(p.chroma_qp_offset) + " grid " +
              std::to_string(p.grid_x) + "," + std::to_string(p.grid_y)};
}

// A field of the settings and its range: every_value sets it to each value
// in turn, the others drawn.
struct Field {
  std::function<void(DeblockParams&, int)> set;
  int lo, hi;
};

const Field kGrid[] = {{[](DeblockParams& p, int v) { p.grid_x = v; }, 0, 15},
                       {[](DeblockParams& p, int v) { p.grid_y = v; }, 0, 15}};
const Field kChromaQpOffset = {
    [](DeblockParams& p, int v) { p.chroma_qp_offset = v; }, kChromaQpOffsetMin,
    kChromaQpOffsetMax};
const Field kBlockSize = {
    [](DeblockParams& p, int v) { p.block_size = 4 << v; }, 0, 2};

std::vector<Setting> every_value_of(
    const std::vector<Field>& fields,
    const std::function<DeblockParams(std::mt19937&)>& draw,
    std::mt19937& gen) {
  std::vector<Setting> all;
  for (const Field& f : fields)
    for (int v = f.lo; v <= f.hi; v++) {
      DeblockParams p = draw(gen);
      f.set(p, v);
      all.push_back(deblock(p));
    }
  return all;
}

void draw_shared(DeblockParams& p, std::mt19937& gen) {
  p.chroma_qp_offset = gen() % 4
                           ? in(gen, -12, 12)
                           : in(gen, kChromaQpOffsetMin, kChromaQpOffsetMax);
  p.grid_x = in(gen, 0, 15);
  p.grid_y = in(gen, 0, 15);
}

// mode=h264: strengths mostly where the filters engage (qp 30..51).
DeblockParams draw_h264(std::mt19937& gen) {
  DeblockParams p;
  p.qp = gen() % 4 ? in(gen, 30, 51) : in(gen, 0, 51);
  p.alpha_offset = in(gen, -12, 12);
  p.beta_offset = in(gen, -12, 12);
  p.bs = in(gen, 1, 4);
  p.block_size = 4 << in(gen, 0, 2);
  draw_shared(p, gen);
  return p;
}

DeblockParams draw_vp9(std::mt19937& gen) {
  DeblockParams p =
      test::vp9_params(gen() % 4 ? in(gen, 20, 63) : in(gen, 0, 63),
                       in(gen, 0, 7), 4 << in(gen, 0, 2));
  draw_shared(p, gen);
  return p;
}

// Mostly up to 8 shifts (each costs a pass over the frame; every_value
// has every count).
DeblockParams draw_dct(std::mt19937& gen) {
  const int qp = gen() % 4 ? in(gen, 30, 51) : in(gen, 0, 51);
  DeblockParams p = test::dct_params(qp, 1 << in(gen, 0, gen() % 4 ? 3 : 6));
  draw_shared(p, gen);
  return p;
}

DeblockParams h264(int qp, int alpha, int beta, int bs, int block,
                   int chroma_qp = 0) {
  return {.qp = qp,
          .alpha_offset = alpha,
          .beta_offset = beta,
          .chroma_qp_offset = chroma_qp,
          .bs = bs,
          .block_size = block};
}

DeblockParams dct(int qp, int shifts, int chroma_qp = 0) {
  DeblockParams p = test::dct_params(qp, shifts);
  p.chroma_qp_offset = chroma_qp;
  return p;
}

// Blocks whose levels differ by steps the filters pass at high strengths.
Content blocks() {
  return {"blocks", [](Image& image, std::mt19937& gen) {
            const int s = (image.frame().planes[0].max_value() + 1) >> 8;
            test::fill_blocky(image, gen, 4, (40 + int(gen() % 170)) * s,
                              (2 + int(gen() % 7)) * s);
          }};
}

}  // namespace

std::vector<Case> deblock_cases() {
  return {
      {
          .name = "DeblockH264",
          .kernel = Kernel::DeblockH264,
          .random = [](std::mt19937& gen) { return deblock(draw_h264(gen)); },
          .every_value =
              [](std::mt19937& gen) {
                return every_value_of(
                    {{[](DeblockParams& p, int v) { p.qp = v; }, 0, 51},
                     {[](DeblockParams& p, int v) { p.alpha_offset = v; }, -12,
                      12},
                     {[](DeblockParams& p, int v) { p.beta_offset = v; }, -12,
                      12},
                     {[](DeblockParams& p, int v) { p.bs = v; }, 1, 4},
                     kBlockSize,
                     kChromaQpOffset,
                     kGrid[0],
                     kGrid[1]},
                    draw_h264, gen);
              },
          .extremes = {deblock(h264(51, 12, 12, 4, 4)),
                       deblock(h264(51, 12, 12, 1, 8)),
                       deblock(h264(51, 0, 0, 2, 16, 12)),
                       deblock(h264(51, -12, 12, 3, 4, -12)),
                       deblock(h264(40, 12, -12, 4, 8, kChromaQpOffsetMin)),
                       deblock(h264(0, 12, 12, 4, 4))},
          .typical = blocks(),
          .min_changed = 0.4,
      },
      {
          .name = "DeblockVp9",
          .kernel = Kernel::DeblockVp9,
          .random = [](std::mt19937& gen) { return deblock(draw_vp9(gen)); },
          .every_value =
              [](std::mt19937& gen) {
                return every_value_of(
                    {{[](DeblockParams& p, int v) { p.filter_level = v; }, 0,
                      63},
                     {[](DeblockParams& p, int v) { p.sharpness = v; }, 0, 7},
                     kBlockSize,
                     kChromaQpOffset,
                     kGrid[0],
                     kGrid[1]},
                    draw_vp9, gen);
              },
          .extremes = {deblock(test::vp9_params(63, 0, 16)),
                       deblock(test::vp9_params(63, 7, 4)),
                       deblock(test::vp9_params(63, 0, 8)),
                       deblock(test::vp9_params(1, 0, 8)),
                       deblock(test::vp9_params(40, 2, 4))},
          .typical = blocks(),
          .min_changed = 0.3,
      },
      {
          .name = "DeblockDct",
          .kernel = Kernel::DeblockDct,
          .random = [](std::mt19937& gen) { return deblock(draw_dct(gen)); },
          .every_value =
              [](std::mt19937& gen) {
                return every_value_of(
                    {{[](DeblockParams& p, int v) { p.qp = v; }, 0, 51},
                     {[](DeblockParams& p, int v) { p.shifts = 1 << v; }, 0, 6},
                     kChromaQpOffset,
                     kGrid[0],
                     kGrid[1]},
                    draw_dct, gen);
              },
          .extremes = {deblock(dct(51, 64)), deblock(dct(51, 1)),
                       deblock(dct(51, 8, 12)),
                       deblock(dct(36, 4, kChromaQpOffsetMin))},
          .typical = blocks(),
          .min_changed = 0.4,
      },
  };
}

}  // namespace daedalus::harness
