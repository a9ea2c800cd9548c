// Helpers for the element tests: buffers laid out as GStreamer lays them
// out, the kernel library's scalar output as the expected result, and frame
// comparisons.
#pragma once

// Standard headers first: libcheck (inside gstcheck.h) defines a fail()
// macro that would break std::basic_ios::fail().
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "daedalus/backend.h"

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

// fail_unless_equals_string for std::string values: libcheck's macro keeps
// the `const char*` it is given, which for a temporary's c_str() points into
// a string destroyed before the comparison. A macro, so that a failure names
// the test's line.
#define fail_unless_equals_std_string(a, b)                                   \
  G_STMT_START {                                                              \
    const std::string first_ = (a);                                           \
    const std::string second_ = (b);                                          \
    fail_unless(first_ == second_, "'%s' (%s) is not equal to '%s' (%s)", #a, \
                first_.c_str(), #b, second_.c_str());                         \
  }                                                                           \
  G_STMT_END

// GLib refuses a property value out of range (or a read-only property)
// with a g_warning up to 2.74 (Debian 12) and a g_critical in 2.84 (Debian
// 13): either passes, nothing fails. gst-check's ASSERT_WARNING, widened.
#define ASSERT_REFUSED(code)                                             \
  G_STMT_START {                                                         \
    _gst_check_expecting_log = TRUE;                                     \
    _gst_check_raised_warning = FALSE;                                   \
    _gst_check_raised_critical = FALSE;                                  \
    code;                                                                \
    fail_unless(_gst_check_raised_warning || _gst_check_raised_critical, \
                "GLib did not refuse: %s", #code);                       \
    _gst_check_expecting_log = FALSE;                                    \
  }                                                                      \
  G_STMT_END

namespace daedalus::gsttest {

inline constexpr const char* kFormats[] = {"I420", "YV12", "Y42B", "Y444",
                                           "NV12", "NV21", "GRAY8"};
inline constexpr int kNumFormats = G_N_ELEMENTS(kFormats);
// docs/spec.md "High bit depth".
inline constexpr const char* kTenBitFormats[] = {"I420_10LE", "I422_10LE",
                                                 "Y444_10LE", "P010_10LE"};
inline constexpr int kNumTenBitFormats = G_N_ELEMENTS(kTenBitFormats);

// The run's seed: $DAEDALUS_TEST_SEED if set, else random; printed once so a
// failure can be replayed.
uint32_t seed();
// A generator of its own for each test (salt: e.g. the loop index).
std::mt19937 rng(uint32_t salt);

GstVideoInfo video_info(const char* format, int width, int height);
// (transfer full)
GstCaps* video_caps(const char* format, int width, int height);

// The test's own reading of a mapped frame (plane base + component offset,
// spelled differently from the element's GST_VIDEO_FRAME_COMP_DATA on
// purpose): component 0 luma, 1 U, 2 V.
Frame frame_view(const GstVideoFrame& frame);

// Writes `value` as sample (x, y) of `p`; at 10 bits with `outside`'s bits
// in the word's bits outside the value.
void set_sample(const Plane& p, int x, int y, int value, uint16_t outside = 0);

// How many 10-bit samples of `buffer` (mapped with `info`) have a bit set
// outside their value; with `unless_as_in`, counting only the samples whose
// word differs from that buffer's (those an in-place element wrote).
int outside_bits_set(GstBuffer* buffer, const GstVideoInfo& info,
                     GstBuffer* unless_as_in = nullptr);

// Fills a frame of `info` (its GstVideoMeta honoured): random samples with
// edges and flat areas, random bytes between them (and, at 10 bits, in each
// sample's bits outside its value).
void fill_frame(GstBuffer* buffer, const GstVideoInfo& info, std::mt19937& gen);
// A buffer in the default layout of `info` whose sample (x, y) of
// component c (0 luma, 1 U, 2 V) is sample(c, x, y).
GstBuffer* formula_buffer(const GstVideoInfo& info,
                          const std::function<uint8_t(int, int, int)>& sample);
// A buffer in the default layout of `info`, filled by fill_frame().
GstBuffer* random_buffer(const GstVideoInfo& info, std::mt19937& gen);
// The same kind of frame in a layout of its own, described by a GstVideoMeta:
// every row `row_padding` samples longer (bytes at 8 bits, 16-bit words at
// 10), planes in reverse order with gaps between them.
GstBuffer* random_buffer_with_meta(const GstVideoInfo& info, int row_padding,
                                   std::mt19937& gen);

// The kernel library on a whole frame: `dst` has the format and size of
// `src`. An in-place kernel reads and writes `dst`, which holds the input.
using Reference =
    std::function<Status(Backend&, const Frame& dst, const ConstFrame& src)>;

// Each element's library call with `params`.
Reference deblock_with(const DeblockParams& params);
Reference cdef_with(const CdefParams& params);
Reference mc_with(const McParams& params);

// The scalar backend's output for `in` (with `info`'s format and size). In
// place: a deep copy of `in` (same layout, metas and all) filtered in place.
// Out of place: a new buffer in the default layout of `info`.
GstBuffer* expected_output(GstBuffer* in, const GstVideoInfo& info,
                           const Reference& reference, bool in_place);

// The kernel library's deblock (in place), CDEF and MC in a row on `in`: a
// daedalusdeblock ! daedaluscdef ! daedalusmc chain's output.
GstBuffer* expected_chain_output(GstBuffer* in, const GstVideoInfo& info,
                                 const DeblockParams& deblock,
                                 const CdefParams& cdef, const McParams& mc);

// Pushes caps of `info` and a buffer into `h`, whose element must refuse
// both: no caps taken, NOT_NEGOTIATED, no buffer out, no backend active,
// and one error on the element's bus (CORE NEGOTIATION) whose text holds
// every one of `parts`.
void expect_refused(GstHarness* h, const GstVideoInfo& info,
                    const std::vector<std::string>& parts);

// Empty when every sample of the two frames (mapped with `info`, their
// GstVideoMeta honoured) is equal, in `component` or (-1) all of them (at
// 10 bits the whole stored word: the value and the bits outside it); else
// the first difference, as text.
std::string first_difference(GstBuffer* expected, GstBuffer* actual,
                             const GstVideoInfo& info, int component = -1);
// True when the two buffers hold the same bytes, padding included.
bool same_bytes(GstBuffer* a, GstBuffer* b);
// Fails the test unless `out` has `expected`'s samples and, from an in-place
// element, its bytes beyond the samples too (row padding, and with a
// GstVideoMeta the gaps between planes).
void check_output(GstBuffer* expected, GstBuffer* out, const GstVideoInfo& info,
                  bool in_place);

// Sets "name=value name=value ..." as gst-launch-1.0 would.
void set_properties(GstElement* element, const char* assignments);

// A new `factory` element (floating); fails the test when there is none.
GstElement* new_element(const char* factory);

// A harness around a new `factory` element that got `properties` while in
// NULL (so also backend, which is read at negotiation).
GstHarness* new_harness(const char* factory, const char* properties);

// The element's active-backend property.
std::string active_backend(GstElement* element);

// The CPU side's backend, where auto without a GPU and a GPU's fallback
// land: cpu, or scalar in a build without SIMD (-Dsimd=disabled).
std::string cpu_side_backend();

// Pushes `in` (transfer full) and pulls the output, failing the test when
// the push fails or nothing comes out.
GstBuffer* push_and_pull(GstHarness* h, GstBuffer* in);

// Sets `info`'s caps on `h`, pushes a random frame drawn from rng(salt) and
// pulls the output; *in is the input, which the caller unrefs too.
GstBuffer* push_random_frame(GstHarness* h, const GstVideoInfo& info,
                             uint32_t salt, GstBuffer** in);

// The plugin's own copy of the kernel library records validation messages
// where a test cannot read them, but prints each to stderr ("daedalus:
// Vulkan error: ..."): the watch captures this (forked) test's stderr and
// fails on such a line (a test that fails before check() loses the rest
// of its stderr).
class ValidationWatch {
 public:
  ValidationWatch();
  // Once every GPU object of the test is gone: destroying a device reports
  // what was leaked.
  void check();

 private:
  int saved_;
  FILE* file_;
};

}  // namespace daedalus::gsttest
