// What the kernel fuzz targets share: a frame of any supported layout and
// size made from the fuzzer's bytes, each plane in an allocation of exactly
// its extent (so AddressSanitizer sees a read one byte past a plane's last
// sample), and the comparisons that make a target fail.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "daedalus/backend.h"
#include "daedalus/frame.h"

namespace daedalus::fuzz {

// A frame owning its planes: luma, then U and V (one allocation holding
// both for NV12/NV21), rows of `stride` bytes of which the bytes past the
// last sample are padding no kernel may touch. Copies are deep.
class FuzzFrame {
 public:
  // Layout, size (1..300 each way), padding and samples from `data`; with
  // `as_field` set by the data, the view is one field of a frame twice as
  // high (docs/spec.md, "Interlaced video").
  explicit FuzzFrame(FuzzedDataProvider& data);
  FuzzFrame(const FuzzFrame& other);
  FuzzFrame& operator=(const FuzzFrame&) = delete;

  const Frame& view() const { return view_; }
  // What the format and size are, for a failure's message.
  std::string describe() const;
  // Every byte of every allocation, padding included.
  bool same_bytes(const FuzzFrame& other) const;
  // Whether the bytes outside the view's samples equal `original`'s.
  bool padding_unchanged(const FuzzFrame& original) const;

 private:
  std::vector<std::vector<uint8_t>> buffers_;
  Frame view_;
  // For each plane of the view, its buffer; and whether a byte of a buffer
  // is a sample of the view.
  int buffer_of_[3] = {};
  std::vector<std::vector<bool>> is_sample_;
  std::string layout_;
};

// The scalar reference and the cpu backend (two threads, so that bands
// meet), made once.
Backend& scalar_backend();
Backend& cpu_backend();

// Stops the run with a message naming `frame` unless `ok`.
void require(bool ok, const std::string& what, const FuzzFrame& frame);

// The checks of every kernel target, stopping the run with a message on
// the first that fails: the scalar reference refuses exactly the invalid
// parameters (those `valid`, the
// parameters' own check, refuses), the cpu backend refuses the same, the
// reference writes nothing outside the samples of its output (`input` holds the
// bytes that output had before), and the cpu backend writes every byte
// the reference writes. `params` says what the parameters were.
void check_outputs(const Status& scalar, const Status& cpu, const Status& valid,
                   const FuzzFrame& scalar_out, const FuzzFrame& cpu_out,
                   const FuzzFrame& input, const std::string& params);

}  // namespace daedalus::fuzz
