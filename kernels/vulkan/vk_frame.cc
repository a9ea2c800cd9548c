#include "vk_frame.h"

#include <algorithm>
#include <climits>
#include <cstring>

#include "vk_context.h"
#include "vk_status.h"

namespace daedalus::vk {
namespace {

// Staged planes start on 64-byte boundaries; their rows on 4-byte ones.
constexpr VkDeviceSize kStagingAlign = 64;

int64_t round_up(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

// Byte distance from `a` to `b`, computed on addresses: the two planes may
// be separate objects as far as the language knows.
int64_t distance(const uint8_t* a, const uint8_t* b) {
  return int64_t(reinterpret_cast<uintptr_t>(b) -
                 reinterpret_cast<uintptr_t>(a));
}

template <class T>
T* lower_address(T* a, T* b) {
  return distance(a, b) >= 0 ? a : b;
}

}  // namespace

std::vector<PlaneGroup> plane_groups(const ConstFrame& a, const ConstFrame& b) {
  std::vector<PlaneGroup> groups = {{0, 1}};
  if (a.num_planes < 3) return groups;
  const bool same_order = distance(a.planes[1].data, a.planes[2].data) ==
                          distance(b.planes[1].data, b.planes[2].data);
  if (a.chroma_interleaved() && b.chroma_interleaved() && same_order)
    groups.push_back({1, 2});
  else
    groups.insert(groups.end(), {{1, 1}, {2, 1}});
  return groups;
}

FrameStager::FrameStager(std::shared_ptr<Context> context)
    : context_(std::move(context)) {}

void FrameStager::begin(bool in_place) {
  in_place_ = in_place;
  slots_.clear();
  upload_size_ = readback_size_ = 0;
}

int FrameStager::input(const ConstFrame& frame, PlaneGroup group,
                       Window window) {
  return add(frame, nullptr, group, true, window);
}

int FrameStager::output(const Frame& frame, PlaneGroup group, Window window) {
  return add(frame, &frame, group, false, window);
}

int FrameStager::in_out(const Frame& frame, PlaneGroup group) {
  return add(frame, &frame, group, true, {});
}

// `writable` is `frame` itself when the kernel writes it, else null.
int FrameStager::add(const ConstFrame& frame, const Frame* writable,
                     PlaneGroup group, bool read, Window window) {
  Slot& s = slots_.emplace_back();
  s.read = read;
  s.write = writable != nullptr;
  s.count = group.count;
  for (int i = 0; i < group.count; i++) {
    s.planes[i] = frame.planes[group.first + i];
    if (writable) s.writable[i] = writable->planes[group.first + i];
  }
  const ConstPlane& p = s.planes[0];
  s.window.row_begin = std::clamp(window.row_begin, 0, p.height);
  s.window.row_end = std::clamp(window.row_end, s.window.row_begin, p.height);
  s.window.columns = std::clamp(window.columns, 0, p.width);
  place(s);
  return int(slots_.size()) - 1;
}

// Decides between in place and staged, and the shader's view of the slot.
void FrameStager::place(Slot& slot) {
  const ConstPlane& first = slot.planes[0];
  GpuPlane& g = slot.gpu;
  g.width = first.width;
  g.height = first.height;
  g.step = slot.count;  // a lone channel of interleaved chroma is staged planar
  g.bit_depth = first.bit_depth;
  g.lsb = first.lsb;
  const int64_t row_bytes = int64_t(g.width) * g.step * g.bytes();

  // In place needs the samples of a row to be contiguous (a lone channel of
  // interleaved chroma is not) and, for outputs, whole aligned words per row
  // that no other output shares.
  const bool contiguous = slot.count == 2 || first.step == g.bytes();
  const int64_t tail = slot.write ? round_up(row_bytes, 4) : row_bytes;
  if (in_place_ && contiguous && g.width > 0 && g.height > 0 &&
      first.stride > 0 && first.stride <= INT32_MAX &&
      (g.height == 1 || first.stride >= tail)) {
    const uint8_t* base =
        lower_address(first.data, slot.planes[slot.count - 1].data);
    const int64_t extent = int64_t(g.height - 1) * first.stride + tail;
    const Buffer* b = context_->registry().find(base, size_t(extent));
    const int64_t offset = b ? distance(b->data(), base) : 0;
    // Shaders read whole words: an input's last word must lie in the
    // buffer too (a plane that starts mid-word may end one byte short).
    const bool ok =
        b && round_up(offset + extent, 4) <= int64_t(b->size()) &&
        (!slot.write || (offset % 4 == 0 && first.stride % 4 == 0 &&
                         !overlaps_output(slot, b, offset, offset + extent)));
    if (ok) {
      slot.zero_copy = b;
      g.buffer = b->get();
      g.offset = int32_t(offset);
      g.stride = int32_t(first.stride);
      return;
    }
  }

  // Staged: outputs in the readback buffer (host-cached: the CPU reads them
  // back), inputs in the upload buffer.
  g.stride = int32_t(round_up(row_bytes, 4));
  VkDeviceSize& size = slot.write ? readback_size_ : upload_size_;
  slot.staged_offset = round_up(int64_t(size), kStagingAlign);
  size = slot.staged_offset +
         VkDeviceSize(g.stride) *
             VkDeviceSize(slot.window.row_end - slot.window.row_begin);
}

// Whether bytes [begin, end) of `buffer` share a word with another in-place
// output: their dispatches may run concurrently.
bool FrameStager::overlaps_output(const Slot& slot, const Buffer* buffer,
                                  int64_t begin, int64_t end) const {
  for (const Slot& other : slots_) {
    if (&other == &slot || !other.write || other.zero_copy != buffer) continue;
    const GpuPlane& g = other.gpu;
    const int64_t other_end =
        g.offset + int64_t(g.height - 1) * g.stride +
        round_up(int64_t(g.width) * g.step * g.bytes(), 4);
    if (begin < other_end && g.offset < end) return true;
  }
  return false;
}

Status FrameStager::ensure(std::unique_ptr<Buffer>& buffer, VkDeviceSize size,
                           MemoryUse use) {
  if (size == 0 || (buffer && buffer->size() >= size)) return Status::ok();
  if (size > context_->max_buffer_size())
    return Status::error("the frame needs " + std::to_string(size) +
                         " bytes of GPU buffer, more than this device can "
                         "bind (" +
                         std::to_string(context_->max_buffer_size()) + ")");
  buffer.reset();
  DAEDALUS_ASSIGN_OR_RETURN(buffer, Buffer::create(context_, size, use));
  return Status::ok();
}

Status FrameStager::upload() {
  Status s = ensure(upload_, upload_size_, MemoryUse::Upload);
  if (s) s = ensure(readback_, readback_size_, MemoryUse::Readback);
  if (!s) return s;
  for (Slot& slot : slots_) {
    GpuPlane& g = slot.gpu;
    if (slot.zero_copy) {
      if (slot.read) DAEDALUS_TRY(slot.zero_copy->flush());
      continue;
    }
    Buffer* staging = slot.write ? readback_.get() : upload_.get();
    if (!staging) continue;  // an empty plane: nothing to stage
    const Window& w = slot.window;
    g.buffer = staging->get();
    // Row y of the group at offset + y * stride, for the window's rows.
    g.offset =
        int32_t(int64_t(slot.staged_offset) - int64_t(w.row_begin) * g.stride);
    if (!slot.read) continue;
    uint8_t* dst = staging->data() + slot.staged_offset;
    const ConstPlane& p = slot.planes[0];
    const size_t size = size_t(g.bytes());
    for (int y = w.row_begin; y < w.row_end; y++, dst += g.stride) {
      if (slot.count == 2)
        std::memcpy(dst, lower_address(p.row(y), slot.planes[1].row(y)),
                    size_t(w.columns) * 2 * size);
      else if (size_t(p.step) == size)
        std::memcpy(dst, p.row(y), size_t(w.columns) * size);
      else
        for (int x = 0; x < w.columns; x++)
          std::memcpy(dst + x * size, &p.at(x, y), size);
    }
  }
  if (upload_) DAEDALUS_TRY(upload_->flush());
  if (readback_) DAEDALUS_TRY(readback_->flush());
  return Status::ok();
}

Status FrameStager::download() {
  if (readback_) DAEDALUS_TRY(readback_->invalidate());
  for (const Slot& slot : slots_) {
    if (!slot.write) continue;
    if (slot.zero_copy) {
      DAEDALUS_TRY(slot.zero_copy->invalidate());
      continue;
    }
    const GpuPlane& g = slot.gpu;
    const Window& w = slot.window;
    if (!readback_ || w.row_end == w.row_begin) continue;
    const uint8_t* src = readback_->data() + slot.staged_offset;
    const Plane& p = slot.writable[0];
    const size_t size = size_t(g.bytes());
    for (int y = w.row_begin; y < w.row_end; y++, src += g.stride) {
      if (slot.count == 2)
        std::memcpy(lower_address(p.row(y), slot.writable[1].row(y)), src,
                    size_t(w.columns) * 2 * size);
      else if (size_t(p.step) == size)
        std::memcpy(p.row(y), src, size_t(w.columns) * size);
      else
        for (int x = 0; x < w.columns; x++)
          std::memcpy(&p.at(x, y), src + x * size, size);
    }
  }
  return Status::ok();
}

int FrameStager::zero_copy_slots() const {
  return int(std::count_if(slots_.begin(), slots_.end(), [](const Slot& s) {
    return s.zero_copy != nullptr;
  }));
}

}  // namespace daedalus::vk
