// What the harness's two runners share (harness.cc for the backends' rows,
// dsp_runner.cc for DSP tables no backend runs): the frames' sizes, the
// guard-page frames and each row's stream of the run's randomness.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "daedalus/image.h"

namespace daedalus::harness {

// The sizes pass: no block (1x1, 7x5), one block, odd remainders either
// way, a workgroup's tile and one sample past it, rows long enough to be
// worked in chunks; then kRandomSizes sizes in [1, 300] x [1, 60].
inline constexpr int kFixedSizes[][2] = {
    {1, 1},    {2, 3},    {7, 5},   {8, 8},     {9, 16},  {16, 9},
    {17, 9},   {23, 17},  {33, 65}, {64, 16},   {65, 17}, {128, 8},
    {129, 17}, {133, 41}, {517, 9}, {1031, 17}, {1544, 8}};
inline constexpr int kRandomSizes = 4;

// The guard-page pass: planar and semi-planar (both orders), and each
// 10-bit subsampling; planes without columns, single samples, no whole
// block, rows of many.
inline constexpr PixelFormat kGuardPageFormats[] = {
    PixelFormat::I420,      PixelFormat::NV12,      PixelFormat::NV21,
    PixelFormat::I420_10LE, PixelFormat::I422_10LE, PixelFormat::Y444_10LE,
    PixelFormat::P010_10LE};
inline constexpr std::pair<int, int> kGuardPageSizes[] = {
    {0, 3}, {1, 1}, {6, 3}, {9, 7}, {40, 24}, {133, 17}};

// A row's own stream of the run's randomness: FNV-1a of its name, the same
// on every platform.
inline uint32_t salt_of(const std::string& name) {
  uint32_t h = 2166136261u;
  for (unsigned char ch : name) h = (h ^ ch) * 16777619u;
  return h;
}

}  // namespace daedalus::harness
