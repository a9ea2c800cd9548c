#include "fuzz_frame.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>

namespace daedalus::fuzz {
namespace {

struct Layout {
  const char* name;
  int planes;  // 1 gray, 3 YUV
  int shift_x, shift_y;
  bool interleaved;  // chroma in one buffer, step 2
  bool v_first;
};
constexpr Layout kLayouts[] = {
    {"GRAY8", 1, 0, 0, false, false}, {"I420", 3, 1, 1, false, false},
    {"Y42B", 3, 1, 0, false, false},  {"Y444", 3, 0, 0, false, false},
    {"NV12", 3, 1, 1, true, false},   {"NV21", 3, 1, 1, true, true},
};

// Bytes from the first to the last sample of a plane's row.
size_t row_extent(const Plane& p) { return size_t(p.width - 1) * p.step + 1; }

}  // namespace

FuzzFrame::FuzzFrame(FuzzedDataProvider& data) {
  const Layout& l =
      kLayouts[data.ConsumeIntegralInRange<int>(0, std::size(kLayouts) - 1)];
  const int width = data.ConsumeIntegralInRange(1, 300);
  const int height = data.ConsumeIntegralInRange(1, 300);
  const int padding = data.ConsumeIntegralInRange(0, 40);
  // -1: progressive; 0 or 1: that field of a frame twice as high.
  const int field = data.ConsumeIntegralInRange(-1, 1);
  std::mt19937 gen(data.ConsumeIntegral<uint32_t>());

  const int frame_height = field < 0 ? height : 2 * height;
  Frame f;
  f.num_planes = l.planes;
  f.chroma_shift_x = l.shift_x;
  f.chroma_shift_y = l.shift_y;
  f.planes[0] = {nullptr, width + padding, width, frame_height, 1};
  const int cw = (width + (1 << l.shift_x) - 1) >> l.shift_x;
  const int ch = (frame_height + (1 << l.shift_y) - 1) >> l.shift_y;
  for (int c = 1; c < l.planes; c++) {
    const int step = l.interleaved ? 2 : 1;
    f.planes[c] = {nullptr, cw * step + padding, cw, ch, step};
  }

  // One buffer per plane, one for both interleaved chroma channels.
  const int n_buffers = l.interleaved ? 2 : l.planes;
  buffers_.resize(n_buffers);
  for (int b = 0; b < n_buffers; b++) {
    const Plane& p = f.planes[b];
    const size_t extent =
        b > 0 && l.interleaved ? size_t(2 * cw) : row_extent(p);
    buffers_[b].resize(size_t(p.height - 1) * p.stride + extent);
    for (uint8_t& byte : buffers_[b]) byte = uint8_t(gen());
  }
  for (int c = 0; c < l.planes; c++) {
    buffer_of_[c] = l.interleaved && c == 2 ? 1 : c;
    // NV12 puts U first, NV21 V.
    const bool second = l.interleaved && c > 0 && (c == 2) != l.v_first;
    f.planes[c].data = buffers_[buffer_of_[c]].data() + (second ? 1 : 0);
  }

  // Samples the filters act on: 4x4 blocks of random levels (edges of
  // every strength), a little noise, now and then an outlier.
  std::uniform_int_distribution<int> level(0, 255), noise(-3, 3), pick(0, 31);
  for (int c = 0; c < l.planes; c++) {
    const Plane& p = f.planes[c];
    const int blocks_x = (p.width + 3) / 4;
    std::vector<int> levels(size_t(blocks_x) * ((p.height + 3) / 4));
    for (int& v : levels) v = level(gen);
    for (int y = 0; y < p.height; y++)
      for (int x = 0; x < p.width; x++)
        p.at(x, y) = uint8_t(std::clamp(
            pick(gen) == 0 ? level(gen)
                           : levels[(y / 4) * blocks_x + x / 4] + noise(gen),
            0, 255));
  }

  view_ = field < 0 ? f : field_of(f, field);
  is_sample_.resize(n_buffers);
  for (int b = 0; b < n_buffers; b++)
    is_sample_[b].assign(buffers_[b].size(), false);
  for (int c = 0; c < view_.num_planes; c++) {
    const Plane& p = view_.planes[c];
    const uint8_t* base = buffers_[buffer_of_[c]].data();
    for (int y = 0; y < p.height; y++)
      for (int x = 0; x < p.width; x++)
        is_sample_[buffer_of_[c]][&p.at(x, y) - base] = true;
  }
  char text[96];
  std::snprintf(text, sizeof text, "%s %dx%d padding %d %s", l.name, width,
                height, padding,
                field < 0 ? "progressive"
                : field   ? "field 1"
                          : "field 0");
  layout_ = text;
}

FuzzFrame::FuzzFrame(const FuzzFrame& other)
    : buffers_(other.buffers_),
      view_(other.view_),
      is_sample_(other.is_sample_),
      layout_(other.layout_) {
  std::copy(std::begin(other.buffer_of_), std::end(other.buffer_of_),
            buffer_of_);
  for (int c = 0; c < view_.num_planes; c++) {
    const int b = buffer_of_[c];
    view_.planes[c].data = buffers_[b].data() + (other.view_.planes[c].data -
                                                 other.buffers_[b].data());
  }
}

std::string FuzzFrame::describe() const { return layout_; }

bool FuzzFrame::same_bytes(const FuzzFrame& other) const {
  return buffers_ == other.buffers_;
}

bool FuzzFrame::padding_unchanged(const FuzzFrame& original) const {
  for (size_t b = 0; b < buffers_.size(); b++)
    for (size_t i = 0; i < buffers_[b].size(); i++)
      if (!is_sample_[b][i] && buffers_[b][i] != original.buffers_[b][i])
        return false;
  return true;
}

Backend& scalar_backend() {
  static const std::unique_ptr<Backend> backend =
      create_backend(BackendKind::Scalar).value_or(nullptr);
  return *backend;
}

Backend& cpu_backend() {
  static const std::unique_ptr<Backend> backend =
      create_backend(BackendKind::Cpu, {.threads = 2}).value_or(nullptr);
  return *backend;
}

void require(bool ok, const std::string& what, const FuzzFrame& frame) {
  if (ok) return;
  std::fprintf(stderr, "FUZZ FAILURE: %s (%s)\n", what.c_str(),
               frame.describe().c_str());
  std::abort();
}

void check_outputs(const Status& scalar, const Status& cpu, const Status& valid,
                   const FuzzFrame& scalar_out, const FuzzFrame& cpu_out,
                   const FuzzFrame& input, const std::string& params) {
  require(bool(scalar) == bool(valid), "scalar validity, " + params, input);
  require(bool(scalar) == bool(cpu), "cpu validity, " + params, input);
  require(scalar_out.padding_unchanged(input), "scalar padding, " + params,
          input);
  require(cpu_out.same_bytes(scalar_out), "cpu differs, " + params, input);
}

}  // namespace daedalus::fuzz
