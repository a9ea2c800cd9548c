// Where a frame's planes are when a shader runs: in place, when they already
// live in a registered buffer (zero-copy), else copied into staging buffers
// laid out for the shaders (4-byte aligned rows) and copied back afterwards.
#pragma once

#include <vulkan/vulkan.h>

#include <climits>
#include <cstdint>
#include <memory>
#include <vector>

#include "daedalus/frame.h"
#include "daedalus/status.h"
#include "vk_buffer.h"

namespace daedalus::vk {

class Context;

// A plane, or an interleaved pair of chroma planes, as a shader addresses it:
// `height` rows of `width * step` samples of bytes() bytes in `buffer`.
struct GpuPlane {
  VkBuffer buffer = VK_NULL_HANDLE;
  int32_t offset =
      0;  // bytes to sample (0, 0) (of the lower-addressed channel)
  int32_t stride = 0;  // bytes between rows
  int32_t width = 0;   // samples per channel
  int32_t height = 0;
  int32_t step = 1;       // interleaved channels: 1, or 2 for a chroma pair
  int32_t bit_depth = 8;  // 8: bytes; 10: 16-bit words (frame.h)
  int32_t lsb = 0;        // the value's lowest bit in its word (P010: 6)

  int32_t bytes() const { return bit_depth > 8 ? 2 : 1; }
  int32_t row_bytes() const { return width * step * bytes(); }
};

// The frame planes one dispatch covers: plane `first`, and with count 2 also
// the next one, interleaved with it.
struct PlaneGroup {
  int first = 0;
  int count = 1;
};

// The dispatch groups of a frame pair (dst and src; for an in-place kernel
// the frame twice): U and V form one group when both frames interleave them
// in the same order.
std::vector<PlaneGroup> plane_groups(const ConstFrame& a, const ConstFrame& b);

// The part of a plane group a kernel reads or writes: rows [row_begin,
// row_end) and, of each, samples [0, columns) of every channel (clamped to
// the group). A staged slot copies only this part in or out, so a shader
// must stay inside it; its GpuPlane still describes the whole group, as
// clamping and availability are decided on whole-plane coordinates.
struct Window {
  int row_begin = 0;
  int row_end = INT_MAX;
  int columns = INT_MAX;
};

// Not thread-safe; one frame at a time.
class FrameStager {
 public:
  explicit FrameStager(std::shared_ptr<Context> context);

  // Forgets the previous frame's slots. With `in_place` false every group is
  // staged, even one in a GpuBuffer: for a hybrid frame, whose other rows the
  // CPU writes while the GPU runs.
  void begin(bool in_place = true);
  // Declares a group a kernel reads (input), writes (output), or reads and
  // writes in place (in_out, for deblock); returns the slot whose plane() is
  // valid after upload().
  int input(const ConstFrame& frame, PlaneGroup group, Window window = {});
  int output(const Frame& frame, PlaneGroup group, Window window = {});
  int in_out(const Frame& frame, PlaneGroup group);

  // Sizes the staging buffers and copies the staged inputs in.
  Status upload();
  const GpuPlane& plane(int slot) const { return slots_[slot].gpu; }
  // Whether the slot is the frame's own memory (else a staging copy).
  bool in_place(int slot) const { return slots_[slot].zero_copy != nullptr; }
  // After the GPU has finished: copies the staged outputs out.
  Status download();

  int zero_copy_slots() const;
  int staged_slots() const { return int(slots_.size()) - zero_copy_slots(); }

 private:
  struct Slot {
    bool read = false;   // copied in when staged
    bool write = false;  // copied out when staged; word-aligned in place
    ConstPlane planes[2];
    Plane writable[2];  // the same planes, when `write`
    int count = 1;
    Window window;                      // clamped to the group
    const Buffer* zero_copy = nullptr;  // else staged
    VkDeviceSize staged_offset = 0;
    GpuPlane gpu;
  };

  int add(const ConstFrame& frame, const Frame* writable, PlaneGroup group,
          bool read, Window window);
  void place(Slot& slot);
  bool overlaps_output(const Slot& slot, const Buffer* buffer, int64_t begin,
                       int64_t end) const;
  Status ensure(std::unique_ptr<Buffer>& buffer, VkDeviceSize size,
                MemoryUse use);

  std::shared_ptr<Context> context_;
  std::vector<Slot> slots_;
  bool in_place_ = true;
  VkDeviceSize upload_size_ = 0, readback_size_ = 0;
  std::unique_ptr<Buffer> upload_, readback_;
};

}  // namespace daedalus::vk
