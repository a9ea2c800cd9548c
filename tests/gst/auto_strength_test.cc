// Auto strength in the elements (docs/spec.md, "Damage estimate and auto
// strength"): on by default, clean input passed through, output equal to the
// kernel library's estimate and settings frame by frame, a hand-set strength
// honoured, the estimate observable (properties, element messages), resets
// on flush and new caps, a deblock ! cdef chain sharing one estimate, a
// marginal first frame held back, and 10-bit coded input in mode=dct.
#include "daedalus/auto_strength.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../kernels/util/dct_coded.h"
#include "daedalus/backend.h"
#include "element_tests.h"
#include "test_util.h"
// After the C++ headers: libcheck's macros (fail, ...) would break them.
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

namespace daedalus::gsttest {
namespace {

// Smooth content (slow sines) with, when `step` > 0, a checkerboard of
// 8x8 blocks whose lines lie at (ox, oy): the block steps of compressed
// video at a strength of `step`.
GstBuffer* blocky_buffer(const GstVideoInfo& info, int step, int ox = 0,
                         int oy = 0, int texture = 0) {
  return formula_buffer(info, [=](int p, int x, int y) {
    const int cx = p ? ox >> 1 : ox, cy = p ? oy >> 1 : oy;
    const int bx = (x - cx + 64) / 8, by = (y - cy + 64) / 8;
    return uint8_t(110 +
                   int(30 * std::sin(x / 37.0) + 25 * std::cos(y / 23.0) +
                       texture * std::sin(x * 1.3 + y * 0.7)) +
                   ((bx + by) % 2 ? step : 0));
  });
}

// `buffer`'s luma as a DCT coder at qp `q` leaves it (grid at ox, oy), in
// `share` 64ths of its blocks (test::code_some_blocks; all by default).
void code_luma(GstBuffer* buffer, const GstVideoInfo& info, int q, int ox,
               int oy, int share = 64) {
  GstVideoFrame frame;
  fail_unless(gst_video_frame_map(&frame, &info, buffer, GST_MAP_READWRITE));
  test::code_some_blocks(frame_view(frame).planes[0], q, ox, oy, share);
  gst_video_frame_unmap(&frame);
}

// What the kernel library estimates for the frames it is shown.
struct LibraryEstimate {
  DamageEstimator estimator;
  DamageEstimate add(GstBuffer* buffer, const GstVideoInfo& info) {
    GstVideoFrame frame;
    fail_unless(gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ));
    estimator.add_frame(frame_view(frame));
    gst_video_frame_unmap(&frame);
    return estimator.estimate();
  }
};

Reference deblock_with(DeblockParams p) {
  return [p](Backend& b, const Frame& dst, const ConstFrame&) {
    return b.deblock(dst, p);
  };
}

gboolean auto_strength(GstElement* element) {
  gboolean on;
  g_object_get(element, "auto-strength", &on, nullptr);
  return on;
}

int int_property(GstElement* element, const char* name) {
  gint v;
  g_object_get(element, name, &v, nullptr);
  return v;
}

// The element messages "daedalus-damage" posted so far, oldest first.
std::vector<GstStructure*> damage_messages(GstBus* bus) {
  std::vector<GstStructure*> out;
  while (GstMessage* m = gst_bus_pop_filtered(bus, GST_MESSAGE_ELEMENT)) {
    const GstStructure* s = gst_message_get_structure(m);
    if (gst_structure_has_name(s, "daedalus-damage"))
      out.push_back(gst_structure_copy(s));
    gst_message_unref(m);
  }
  return out;
}

void free_structures(std::vector<GstStructure*>& v) {
  for (GstStructure* s : v) gst_structure_free(s);
  v.clear();
}

GstBus* attach_bus(GstHarness* h) {
  GstBus* bus = gst_bus_new();
  gst_element_set_bus(h->element, bus);
  return bus;
}

GstHarness* harness_with_bus(const char* launch, GstBus** bus) {
  GstHarness* h = gst_harness_new_parse(launch);
  *bus = attach_bus(h);
  return h;
}

// Whether any damage message posted so far says it came from upstream.
bool any_from_upstream(GstBus* bus) {
  std::vector<GstStructure*> posted = damage_messages(bus);
  bool from_upstream = false;
  for (GstStructure* st : posted) {
    gboolean upstream = FALSE;
    gst_structure_get_boolean(st, "from-upstream", &upstream);
    from_upstream |= upstream;
  }
  free_structures(posted);
  return from_upstream;
}

// The "frames" field of the last damage message posted so far.
int frames_of_last_message(GstBus* bus) {
  std::vector<GstStructure*> posted = damage_messages(bus);
  gint frames = -1;
  if (!posted.empty()) gst_structure_get_int(posted.back(), "frames", &frames);
  for (GstStructure* st : posted) gst_structure_free(st);
  return frames;
}

// The bus's messages hold the element: drop them, and the bus, first.
void teardown_with_bus(GstHarness* h, GstBus* bus) {
  gst_element_set_bus(h->element, nullptr);
  gst_bus_set_flushing(bus, TRUE);
  gst_object_unref(bus);
  gst_harness_teardown(h);
}

GST_START_TEST(test_on_by_default) {
  for (const char* factory : {"daedalusdeblock", "daedaluscdef"}) {
    GstElement* e = new_element(factory);
    GParamSpec* pspec =
        g_object_class_find_property(G_OBJECT_GET_CLASS(e), "auto-strength");
    fail_unless(pspec && G_IS_PARAM_SPEC_BOOLEAN(pspec), "%s", factory);
    fail_unless(G_PARAM_SPEC_BOOLEAN(pspec)->default_value);
    fail_unless(auto_strength(e), "%s", factory);
    gst_object_unref(e);
  }
}
GST_END_TEST

// Clean frames go through untouched: the same buffer, in passthrough, and
// the strengths read back as off.
GST_START_TEST(test_clean_input_passes_through) {
  const GstVideoInfo info = video_info("I420", 160, 96);
  for (const char* factory : {"daedalusdeblock", "daedaluscdef"}) {
    GstHarness* h = new_harness(factory, "");
    gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
    for (int i = 0; i < 4; i++) {
      GstBuffer* in = blocky_buffer(info, 0);
      gst_buffer_ref(in);
      GstBuffer* out = push_and_pull(h, in);
      // Passed through: the input's memory (deblock may wrap it in a new
      // buffer to carry its estimate).
      fail_unless(
          gst_buffer_peek_memory(out, 0) == gst_buffer_peek_memory(in, 0),
          "%s: frame %d was copied or filtered", factory, i);
      gst_buffer_unref(out);
      gst_buffer_unref(in);
    }
    fail_unless(
        gst_base_transform_is_passthrough(GST_BASE_TRANSFORM(h->element)));
    fail_unless_equals_int(
        int_property(h->element, std::string(factory) == "daedalusdeblock"
                                     ? "qp"
                                     : "pri-strength"),
        0);
    gst_harness_teardown(h);
  }
}
GST_END_TEST

// Frames of changing damage, on a grid moved by a crop: each output is
// the library's filter at the library's estimate of the frames so far, and
// the properties read back what it used.
GST_START_TEST(test_output_follows_the_library_estimate) {
  const GstVideoInfo info = video_info("I420", 192, 112);
  const int steps[] = {14, 14, 3, 20, 20, 20, 0, 9};
  for (const char* factory : {"daedalusdeblock", "daedaluscdef"}) {
    const bool deblock = std::string(factory) == "daedalusdeblock";
    GstHarness* h = new_harness(factory, "");
    gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
    LibraryEstimate lib;
    int filtered = 0;
    for (int step : steps) {
      GstBuffer* in = blocky_buffer(info, step, 6, 10);
      const DamageEstimate e = lib.add(in, info);
      const DeblockParams dp = auto_deblock_params(e);
      const CdefParams cp = auto_cdef_params(e);
      GstBuffer* expected = expected_output(
          in, info, deblock ? deblock_with(dp) : cdef_with(cp), deblock);
      GstBuffer* out = push_and_pull(h, in);
      fail_unless_equals_std_string(first_difference(expected, out, info), "");
      filtered += !(deblock ? deblock_is_noop(dp, true) : cdef_is_noop(cp));
      if (deblock) {
        fail_unless_equals_int(int_property(h->element, "qp"), dp.qp);
        fail_unless_equals_int(int_property(h->element, "grid-x"), dp.grid_x);
        fail_unless_equals_int(int_property(h->element, "grid-y"), dp.grid_y);
        fail_unless_equals_int(int_property(h->element, "block-size"),
                               dp.block_size);
      } else {
        fail_unless_equals_int(int_property(h->element, "pri-strength"),
                               cp.pri_strength);
        fail_unless_equals_int(int_property(h->element, "damping"), cp.damping);
      }
      gst_buffer_unref(out);
      gst_buffer_unref(expected);
    }
    fail_unless(filtered >= 4, "%s filtered only %d frames", factory, filtered);
    gst_harness_teardown(h);
  }
}
GST_END_TEST

// Coded input (a DCT coder's zeros on its grid): the estimate's quantiser
// picks a rung of the dct ladder, the element filters in mode=dct exactly
// as the library does with those settings, and the properties read back
// mode=dct and its shifts.
GST_START_TEST(test_coded_input_gets_mode_dct) {
  const GstVideoInfo info = video_info("I420", 256, 144);
  GstHarness* h = new_harness("daedalusdeblock", "");
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  LibraryEstimate lib;
  int dct_frames = 0;
  for (int q : {40, 40, 44, 44, 40, 46}) {
    GstBuffer* in = blocky_buffer(info, 0, 0, 0, 9);
    code_luma(in, info, q, 3, 5);
    const DamageEstimate e = lib.add(in, info);
    const DeblockParams dp = auto_deblock_params(e);
    GstBuffer* expected = expected_output(in, info, deblock_with(dp), true);
    GstBuffer* out = push_and_pull(h, in);
    fail_unless_equals_std_string(first_difference(expected, out, info), "");
    fail_unless_equals_int(int_property(h->element, "qp"), dp.qp);
    fail_unless_equals_int(int_property(h->element, "chroma-qp-offset"),
                           dp.chroma_qp_offset);
    gint mode;
    g_object_get(h->element, "mode", &mode, nullptr);
    fail_unless_equals_int(mode, int(dp.mode));
    if (e.rung > 0) {
      fail_unless(dp.mode == DeblockMode::Dct);
      fail_unless_equals_int(int_property(h->element, "shifts"), dp.shifts);
      dct_frames++;
    }
    gst_buffer_unref(out);
    gst_buffer_unref(expected);
  }
  fail_unless(dct_frames >= 4, "mode=dct on only %d frames", dct_frames);
  gst_harness_teardown(h);
}
GST_END_TEST

// A first frame whose coder's zeros pass the probe's gate but not the
// twice as high one a frame alone needs keeps rung 0 (the levels'
// settings, mode=h264); the same picture next opens the gate (mode=dct).
// Each buffer gets its output before the next is pushed, filtered as the
// library's estimate of the frames so far says.
GST_START_TEST(test_marginal_first_frame_waits) {
  const GstVideoInfo info = video_info("I420", 256, 144);
  // Block steps of 4 show the grid (3, 5) however few blocks are coded;
  // noise of +-8 (a hash of the position) keeps the uncoded blocks' DCT
  // coefficients from being small on the grid.
  auto picture = [&](int share) {
    GstBuffer* in = formula_buffer(info, [](int p, int x, int y) {
      const int cx = p ? 1 : 3, cy = p ? 2 : 5;
      const int bx = (x - cx + 64) / 8, by = (y - cy + 64) / 8;
      const uint32_t hash = uint32_t(x) * 73856093u ^ uint32_t(y) * 19349663u;
      return uint8_t(110 +
                     int(30 * std::sin(x / 37.0) + 25 * std::cos(y / 23.0)) +
                     ((bx + by) % 2 ? 4 : 0) + int((hash >> 11) % 17) - 8);
    });
    code_luma(in, info, 40, 3, 5, share);
    return in;
  };
  // The fewest coded blocks (in 64ths of the picture) whose first frame
  // passes kCodedGate: marginal.
  int share = 1;
  for (; share < 64; share++) {
    GstBuffer* in = picture(share);
    LibraryEstimate lib;
    const QuantiserEstimate q = lib.add(in, info).quantiser;
    gst_buffer_unref(in);
    if (q.zero_excess >= kCodedGate) break;
  }
  {
    GstBuffer* in = picture(share);
    LibraryEstimate lib;
    const QuantiserEstimate q = lib.add(in, info).quantiser;
    gst_buffer_unref(in);
    fail_unless(
        q.zero_excess >= kCodedGate && q.zero_excess < kCodedGateOneFrame &&
            q.measure >= kDctRungStart[0],
        "no marginal picture (%d/64 coded: zero excess %d, quantiser %d)",
        share, q.zero_excess, q.measure);
  }
  GstHarness* h = new_harness("daedalusdeblock", "");
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  LibraryEstimate lib;
  for (int f = 0; f < 2; f++) {
    GstBuffer* in = picture(share);
    const DamageEstimate e = lib.add(in, info);
    fail_unless_equals_int(e.rung > 0, f > 0);
    const DeblockParams dp = auto_deblock_params(e);
    GstBuffer* expected = expected_output(in, info, deblock_with(dp), true);
    GstBuffer* out = push_and_pull(h, in);
    fail_unless_equals_std_string(first_difference(expected, out, info), "");
    gint mode;
    g_object_get(h->element, "mode", &mode, nullptr);
    fail_unless_equals_int(mode,
                           int(f > 0 ? DeblockMode::Dct : DeblockMode::H264));
    gst_buffer_unref(out);
    gst_buffer_unref(expected);
  }
  gst_harness_teardown(h);
}
GST_END_TEST

GST_START_TEST(test_hand_set_strength_is_honoured) {
  const GstVideoInfo info = video_info("I420", 96, 64);
  GstHarness* h = new_harness("daedalusdeblock", "qp=40 bs=3");
  fail_if(auto_strength(h->element));
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  GstBuffer* in = blocky_buffer(info, 0);  // clean: auto would pass it
  GstBuffer* expected =
      expected_output(in, info, deblock_with({.qp = 40, .bs = 3}), true);
  GstBuffer* out = push_and_pull(h, in);
  fail_unless_equals_std_string(first_difference(expected, out, info), "");
  fail_unless_equals_int(int_property(h->element, "qp"), 40);
  gst_buffer_unref(out);
  gst_buffer_unref(expected);

  // auto-strength=true hands the settings back to the estimate.
  g_object_set(h->element, "auto-strength", TRUE, nullptr);
  in = blocky_buffer(info, 0);
  gst_buffer_ref(in);
  out = push_and_pull(h, in);
  fail_unless(gst_buffer_peek_memory(out, 0) == gst_buffer_peek_memory(in, 0));
  fail_unless_equals_int(int_property(h->element, "qp"), 0);
  gst_buffer_unref(out);
  gst_buffer_unref(in);
  gst_harness_teardown(h);

  // CDEF likewise: a strength set by hand, the rest at their defaults.
  h = new_harness("daedaluscdef", "pri-strength=9");
  fail_if(auto_strength(h->element));
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  in = blocky_buffer(info, 0);
  CdefParams p;
  p.pri_strength = 9;
  expected = expected_output(in, info, cdef_with(p), false);
  out = push_and_pull(h, in);
  fail_unless_equals_std_string(first_difference(expected, out, info), "");
  gst_buffer_unref(out);
  gst_buffer_unref(expected);
  gst_harness_teardown(h);
}
GST_END_TEST

// Auto strength turned off and on again starts over: the frames in between
// were not measured.
GST_START_TEST(test_auto_on_again_starts_over) {
  const GstVideoInfo info = video_info("I420", 160, 96);
  GstHarness* h = new_harness("daedalusdeblock", "");
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  for (int i = 0; i < 8; i++)
    gst_buffer_unref(push_and_pull(h, blocky_buffer(info, 24)));
  fail_unless(int_property(h->element, "qp") >= 38);
  g_object_set(h->element, "qp", 30, nullptr);
  fail_if(auto_strength(h->element));
  for (int i = 0; i < 8; i++)
    gst_buffer_unref(push_and_pull(h, blocky_buffer(info, 0)));
  g_object_set(h->element, "auto-strength", TRUE, nullptr);
  GstBuffer* in = blocky_buffer(info, 0);
  gst_buffer_ref(in);
  GstBuffer* out = push_and_pull(h, in);
  fail_unless(gst_buffer_peek_memory(out, 0) == gst_buffer_peek_memory(in, 0));
  fail_unless_equals_int(int_property(h->element, "qp"), 0);
  gst_buffer_unref(out);
  gst_buffer_unref(in);
  gst_harness_teardown(h);
}
GST_END_TEST

// A message when the level or the grid changes, not on every frame.
GST_START_TEST(test_estimate_is_posted) {
  const GstVideoInfo info = video_info("I420", 160, 96);
  GstBus* bus;
  GstHarness* h = harness_with_bus("daedalusdeblock", &bus);
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  LibraryEstimate lib;
  DamageEstimate e;
  for (int i = 0; i < 6; i++) {
    GstBuffer* in = blocky_buffer(info, 16, 3, 5);
    e = lib.add(in, info);
    gst_buffer_unref(push_and_pull(h, in));
  }
  std::vector<GstStructure*> posted = damage_messages(bus);
  fail_unless(!posted.empty() && posted.size() < 6, "%zu messages",
              posted.size());
  GstStructure* last = posted.back();
  gint level, grid_x, grid_y, spacing;
  gboolean upstream;
  fail_unless(gst_structure_get(
      last, "level", G_TYPE_INT, &level, "grid-x", G_TYPE_INT, &grid_x,
      "grid-y", G_TYPE_INT, &grid_y, "spacing", G_TYPE_INT, &spacing,
      "from-upstream", G_TYPE_BOOLEAN, &upstream, nullptr));
  fail_unless_equals_int(level, e.level);
  fail_unless(level > 0);
  fail_unless_equals_int(grid_x, 3);
  fail_unless_equals_int(grid_y, 5);
  fail_unless_equals_int(spacing, 8);
  fail_if(upstream);
  free_structures(posted);
  teardown_with_bus(h, bus);
}
GST_END_TEST

// After heavy frames, a flush (a seek), new caps and a DISCONT buffer each
// start the estimate over: the next frame is the first of the estimate
// (its message says so) and is filtered as if it were.
GST_START_TEST(test_flush_caps_and_discont_reset) {
  for (int how = 0; how < 3; how++) {
    GstVideoInfo info = video_info("I420", 160, 96);
    GstHarness* h = new_harness("daedalusdeblock", "");
    GstBus* bus = attach_bus(h);
    gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
    for (int i = 0; i < 8; i++)
      gst_buffer_unref(push_and_pull(h, blocky_buffer(info, 24)));
    fail_unless(int_property(h->element, "qp") >= 38);
    fail_unless_equals_int(frames_of_last_message(bus),
                           1);  // the level rose at once
    if (how == 0) {
      fail_unless(gst_harness_push_event(h, gst_event_new_flush_start()));
      fail_unless(gst_harness_push_event(h, gst_event_new_flush_stop(TRUE)));
      GstSegment segment;
      gst_segment_init(&segment, GST_FORMAT_TIME);
      fail_unless(gst_harness_push_event(h, gst_event_new_segment(&segment)));
    } else if (how == 1) {
      info = video_info("I420", 128, 80);
      gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
    }
    GstBuffer* in = blocky_buffer(info, 4);
    if (how == 2) GST_BUFFER_FLAG_SET(in, GST_BUFFER_FLAG_DISCONT);
    LibraryEstimate fresh;
    const DeblockParams p = auto_deblock_params(fresh.add(in, info));
    GstBuffer* expected = expected_output(in, info, deblock_with(p), true);
    GstBuffer* out = push_and_pull(h, in);
    fail_unless_equals_std_string(first_difference(expected, out, info), "");
    fail_unless_equals_int(int_property(h->element, "qp"), p.qp);
    fail_unless_equals_int(frames_of_last_message(bus), 1);
    gst_buffer_unref(out);
    gst_buffer_unref(expected);
    teardown_with_bus(h, bus);
  }
}
GST_END_TEST

// `in8`'s picture (of `info8`) as 10-bit samples of `info10` (values times
// 4), with random bits outside the values.
GstBuffer* to_ten_bit(GstBuffer* in8, const GstVideoInfo& info8,
                      const GstVideoInfo& info10, std::mt19937& gen) {
  GstBuffer* out = gst_buffer_new_allocate(nullptr, info10.size, nullptr);
  GstVideoFrame f8, f10;
  fail_unless(gst_video_frame_map(&f8, &info8, in8, GST_MAP_READ));
  fail_unless(gst_video_frame_map(&f10, &info10, out, GST_MAP_WRITE));
  const Frame v8 = frame_view(f8), v10 = frame_view(f10);
  for (int c = 0; c < v8.num_planes; c++)
    for (int y = 0; y < v8.planes[c].height; y++)
      for (int x = 0; x < v8.planes[c].width; x++)
        set_sample(v10.planes[c], x, y, value_at(v8.planes[c], x, y) << 2,
                   uint16_t(gen()));
  gst_video_frame_unmap(&f10);
  gst_video_frame_unmap(&f8);
  return out;
}

// Coded 10-bit input through deblock ! cdef: the probe finds the rungs it
// finds at 8 bits (it reads the top 8 bits), and both elements take the
// dct ladder's settings as at 8 bits: deblock in mode=dct on the frames
// with a rung (every backend computes it at 10 bits).
GST_START_TEST(test_tenbit_coded_input_gets_mode_dct) {
  const GstVideoInfo info8 = video_info("I420", 256, 144);
  const GstVideoInfo info =
      video_info(__i__ ? "P010_10LE" : "I420_10LE", 256, 144);
  GstBus* bus;
  GstHarness* h =
      harness_with_bus("daedalusdeblock name=d ! daedaluscdef name=c", &bus);
  GstElement* deblock = gst_bin_get_by_name(GST_BIN(h->element), "d");
  GstElement* cdef = gst_bin_get_by_name(GST_BIN(h->element), "c");
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  std::mt19937 gen = rng(__i__);
  LibraryEstimate lib;
  int coded_frames = 0;
  for (int q : {40, 40, 44, 44, 40, 46}) {
    GstBuffer* in8 = blocky_buffer(info8, 0, 0, 0, 9);
    code_luma(in8, info8, q, 3, 5);
    GstBuffer* in = to_ten_bit(in8, info8, info, gen);
    gst_buffer_unref(in8);
    const DamageEstimate measured = lib.add(in, info);
    coded_frames += measured.rung > 0;
    const DeblockParams dp = auto_deblock_params(measured);
    const CdefParams cp = auto_cdef_params(measured);
    // An element whose settings change nothing passes its input on, bits
    // outside the values included (docs/spec.md "High bit depth",
    // Decisions); the library's call would write clean words.
    GstBuffer* deblocked =
        deblock_is_noop(dp, true)
            ? gst_buffer_ref(in)
            : expected_output(in, info, deblock_with(dp), true);
    GstBuffer* expected =
        cdef_is_noop(cp)
            ? gst_buffer_ref(deblocked)
            : expected_output(deblocked, info, cdef_with(cp), false);
    GstBuffer* out = push_and_pull(h, in);
    fail_unless_equals_std_string(first_difference(expected, out, info), "");
    gint mode;
    g_object_get(deblock, "mode", &mode, nullptr);
    fail_unless_equals_int(mode, int(dp.mode));
    fail_unless_equals_int(
        mode, int(measured.rung > 0 ? DeblockMode::Dct : DeblockMode::H264));
    fail_unless_equals_int(int_property(deblock, "qp"), dp.qp);
    fail_unless_equals_int(int_property(cdef, "pri-strength"), cp.pri_strength);
    fail_unless_equals_int(int_property(cdef, "damping"), cp.damping);
    gst_buffer_unref(out);
    gst_buffer_unref(expected);
    gst_buffer_unref(deblocked);
  }
  fail_unless(coded_frames >= 4, "a rung on only %d frames", coded_frames);
  fail_unless(any_from_upstream(bus), "cdef never took deblock's estimate");
  gst_object_unref(cdef);
  gst_object_unref(deblock);
  teardown_with_bus(h, bus);
}
GST_END_TEST

// deblock ! cdef on frames with block steps of `step`: CDEF takes deblock's
// estimate of the unfiltered frame (it would measure little blocking in
// deblock's output), also at level 1, where deblock passes buffers through
// and CDEF filters. `level`: what the frames must estimate to, or -1;
// `texture`: the amplitude of fine detail under the blocks.
void check_chain(int step, int level, int texture = 0) {
  const GstVideoInfo info = video_info("I420", 192, 112);
  GstBus* bus;
  GstHarness* h = harness_with_bus("daedalusdeblock ! daedaluscdef", &bus);
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  LibraryEstimate lib;
  for (int i = 0; i < 5; i++) {
    GstBuffer* in = blocky_buffer(info, step, 0, 0, texture);
    const DamageEstimate e = lib.add(in, info);
    fail_unless(level < 0 || e.level == level, "level %d (measure %d)", e.level,
                e.luma.measure);
    GstBuffer* deblocked =
        expected_output(in, info, deblock_with(auto_deblock_params(e)), true);
    GstBuffer* expected =
        expected_output(deblocked, info, cdef_with(auto_cdef_params(e)), false);
    GstBuffer* out = push_and_pull(h, in);
    fail_unless_equals_std_string(first_difference(expected, out, info), "");
    gst_buffer_unref(out);
    gst_buffer_unref(expected);
    gst_buffer_unref(deblocked);
  }
  fail_unless(any_from_upstream(bus), "cdef never took deblock's estimate");
  teardown_with_bus(h, bus);
}

GST_START_TEST(test_chain_shares_the_estimate) { check_chain(18, -1); }
GST_END_TEST

// Steps of 3 on content with fine detail of its own (a mean step over 4
// samples): blocking that the detail mostly hides.
GST_START_TEST(test_chain_at_level_one) { check_chain(3, 1, 7); }
GST_END_TEST

// A frame of two fields is measured on its top field: blocky there, smooth
// in the other field, where the frame as a whole would look far less
// blocky (its rows alternate between the fields). Each field is then
// deblocked as its own picture at the top field's estimate.
GST_START_TEST(test_interleaved_frames_measure_the_top_field) {
  GstVideoInfo info;
  gst_video_info_set_interlaced_format(&info, GST_VIDEO_FORMAT_I420,
                                       GST_VIDEO_INTERLACE_MODE_INTERLEAVED,
                                       192, 224);
  GstHarness* h = new_harness("daedalusdeblock", "");
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  DamageEstimator by_field, by_frame;
  for (int i = 0; i < 3; i++) {
    GstBuffer* in = formula_buffer(info, [](int, int x, int y) {
      const int fy = y / 2;
      return uint8_t(y % 2 ? 60 + x / 4 + fy / 3
                           : 120 + int(20 * std::sin(x / 29.0)) +
                                 ((x / 8 + fy / 8) % 2 ? 16 : 0));
    });
    GstVideoFrame frame;
    fail_unless(gst_video_frame_map(&frame, &info, in, GST_MAP_READ));
    const Frame f = frame_view(frame);
    by_field.add_frame(field_of(ConstFrame(f), 0));
    by_frame.add_frame(f);
    gst_video_frame_unmap(&frame);
    const DeblockParams p = auto_deblock_params(by_field.estimate());
    fail_unless(by_field.estimate().level > by_frame.estimate().level,
                "top field level %d, frame level %d", by_field.estimate().level,
                by_frame.estimate().level);
    GstBuffer* expected = expected_output(
        in, info,
        [p](Backend& b, const Frame& dst, const ConstFrame&) {
          for (int parity : {0, 1})
            if (Status s = b.deblock(field_of(dst, parity), p); !s) return s;
          return Status::ok();
        },
        true);
    GstBuffer* out = push_and_pull(h, in);
    fail_unless_equals_std_string(first_difference(expected, out, info), "");
    fail_unless_equals_int(int_property(h->element, "qp"), p.qp);
    gst_buffer_unref(out);
    gst_buffer_unref(expected);
  }
  gst_harness_teardown(h);
}
GST_END_TEST

Suite* auto_strength_suite() {
  Suite* s = suite_create("auto-strength");
  TCase* tc = tcase_create("auto-strength");
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_on_by_default);
  tcase_add_test(tc, test_clean_input_passes_through);
  tcase_add_test(tc, test_output_follows_the_library_estimate);
  tcase_add_test(tc, test_coded_input_gets_mode_dct);
  tcase_add_loop_test(tc, test_tenbit_coded_input_gets_mode_dct, 0, 2);
  tcase_add_test(tc, test_marginal_first_frame_waits);
  tcase_add_test(tc, test_hand_set_strength_is_honoured);
  tcase_add_test(tc, test_estimate_is_posted);
  tcase_add_test(tc, test_flush_caps_and_discont_reset);
  tcase_add_test(tc, test_auto_on_again_starts_over);
  tcase_add_test(tc, test_chain_at_level_one);
  tcase_add_test(tc, test_interleaved_frames_measure_the_top_field);
  tcase_add_test(tc, test_chain_shares_the_estimate);
  return s;
}

}  // namespace
}  // namespace daedalus::gsttest

int main(int argc, char** argv) {
  return daedalus::gsttest::run_suite(argc, argv,
                                      daedalus::gsttest::auto_strength_suite);
}
