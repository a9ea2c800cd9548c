// Shared helpers for the kernel tests: reproducible randomness, fills and
// guard-band checks.
#pragma once

#include <cstdint>
#include <functional>
#include <iterator>
#include <ostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "daedalus/cdef.h"
#include "daedalus/deblock.h"
#include "daedalus/frame_jobs.h"
#include "daedalus/image.h"

// Whether ThreadSanitizer instruments this build (GCC says so by a macro,
// clang by a feature test): every memory access then costs several times
// more, so the slowest suites run fewer sizes.
#if defined(__SANITIZE_THREAD__)
#define DAEDALUS_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define DAEDALUS_TEST_TSAN 1
#endif
#endif
#ifndef DAEDALUS_TEST_TSAN
#define DAEDALUS_TEST_TSAN 0
#endif

namespace daedalus::test {

inline constexpr bool kThreadSanitizer = DAEDALUS_TEST_TSAN;

// The run's seed: $DAEDALUS_TEST_SEED if set, else random. Printed once so a
// failure can be replayed.
uint32_t seed();

// Every pixel format of both depths: the 8-bit ones, then the 10-bit ones.
inline std::vector<PixelFormat> all_pixel_formats() {
  std::vector<PixelFormat> all(std::begin(kAllPixelFormats),
                               std::end(kAllPixelFormats));
  all.insert(all.end(), std::begin(kTenBitPixelFormats),
             std::end(kTenBitPixelFormats));
  return all;
}

// The bit depth of a format's samples: 8 or 10.
inline int bit_depth_of(PixelFormat format) {
  return Image(format, 1, 1).frame().bit_depth();
}

// A generator seeded from seed() and `salt` (e.g. a test's own index), so that
// every test draws its own reproducible stream.
std::mt19937 rng(uint32_t salt = 0);

// The guard byte written into row padding; kernels must leave it alone.
inline constexpr uint8_t kGuard = 0xA5;

// Sets every byte (samples and padding) to kGuard, then every sample to
// value(plane, x, y) (its low bit_depth bits; the other bits of a 10-bit
// sample's word 0).
void fill(Image& image, const std::function<int(int, int, int)>& value);
// Samples over the whole range of the image's bit depth.
void fill_random(Image& image, std::mt19937& gen);
// Full-swing content as `fill` takes it, in 8-bit levels: flat 0 and 255,
// checkerboard, column and row stripes, random 0 / 255. Drives sums and
// clippings to their extremes.
std::vector<std::function<int(int, int, int)>> full_swing_patterns(
    std::mt19937& gen);
// An 8-bit level at the image's depth: 0 stays 0, 255 becomes the maximum.
int widen(const Image& image, int level);
// Random bits in every 10-bit sample's word outside its value, which
// kernels must ignore.
void set_outside_bits(Image& image, std::mt19937& gen);
// Random samples from a small palette around `center` +- `spread`, clamped:
// content that straddles filter thresholds.
void fill_near(Image& image, std::mt19937& gen, int center, int spread);

// [0, n) cut into up to 5 pieces, empty ones included, in random order: the
// ranges threads might be handed.
std::vector<std::pair<int, int>> random_pieces(int n, std::mt19937& gen);

// CDEF settings drawn over every element range (damping 3..6).
CdefParams random_cdef_params(std::mt19937& gen);

// The line of CDEF's direction search that sample (i, j) of an 8x8 block
// adds to along direction `dir` (AV1 7.15.2, the partial[] indices), written
// apart from the library's.
int cdef_line_of(int dir, int i, int j);

// One plane's deblock thresholds and filter, set directly.
DeblockPlaneParams plane_params(int alpha, int beta, int tc0, int bs,
                                bool chroma, int block_size = 4);

// Deblock settings of mode=vp9.
inline DeblockParams vp9_params(int level, int sharpness, int block_size) {
  return {.block_size = block_size,
          .mode = DeblockMode::Vp9,
          .filter_level = level,
          .sharpness = sharpness};
}

// Deblock settings of mode=dct.
inline DeblockParams dct_params(int qp, int shifts) {
  return {.qp = qp, .mode = DeblockMode::Dct, .shifts = shifts};
}

// Deblock settings the band tests draw: mode=vp9 (level 20..63, any
// sharpness) or mode=h264 (qp 30..51, chroma offset -6..6, any bs) at
// `block_size`, with a grid origin.
DeblockParams random_band_params(std::mt19937& gen, bool vp9, int block_size);

// `image` through deblock's two passes over whole planes on one thread
// (deblock_pass), what deblock_frame must give however it splits a frame.
Image deblock_whole_passes(const DeblockDsp& dsp, Image image,
                           const DeblockParams& params);

// Blocks of a near-constant level (noise +-2), neighbouring levels up to
// `jump` apart around `center`: at a high QP most deblocking edges pass the
// filter's preconditions, some do not.
void fill_blocky(Image& image, std::mt19937& gen, int block, int center,
                 int jump);

// Which end of every row of a GuardedFrame meets an inaccessible page.
enum class GuardSide { Before, After };

inline std::ostream& operator<<(std::ostream& os, GuardSide side) {
  return os << (side == GuardSide::Before ? "guard pages before rows"
                                          : "guard pages after rows");
}

// A copy of an image's samples in which every row (of interleaved chroma:
// every row of the pair) touches an inaccessible (PROT_NONE) page: its first
// byte is the first after such a page (Before), or its last byte the last
// before one (After). A kernel that reads or writes a byte beyond that end of
// a row faults, in any build, where in an Image it would only touch padding
// or the previous row.
class GuardedFrame {
 public:
  GuardedFrame(const Image& image, GuardSide side);
  ~GuardedFrame();
  GuardedFrame(const GuardedFrame&) = delete;
  GuardedFrame& operator=(const GuardedFrame&) = delete;

  Frame frame() const { return frame_; }
  // Writes the samples into `image`, of the same format and size.
  void copy_to(Image& image) const;

 private:
  Frame frame_;
  std::vector<std::pair<void*, size_t>> mappings_;
};

// True when every padding byte still holds kGuard.
bool guards_intact(const Image& image);

// Empty when equal; otherwise the first differing sample, as text. 10-bit
// samples are compared as whole words: bits outside the value too.
std::string first_difference(const Image& expected, const Image& actual);

// The scalar reference's output of `job` on `src`: in place, on a copy of
// `src`; out of place, into a frame filled with zeros whose rows end in
// `dst_padding` guard bytes.
Image reference_output(const Image& src, const FrameJob& job,
                       int dst_padding = 0);

}  // namespace daedalus::test
