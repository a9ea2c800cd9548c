// backend=gpu: every format at odd sizes gives the scalar library's output;
// the element proposes its Vulkan buffer pool upstream (never on the other
// backends, nor in passthrough) and writes into one; frames from that pool
// are filtered with no copy and counted in zero-copy-frames, frames in
// ordinary memory are not; no Vulkan validation message. Each test skips,
// saying so, on a machine with no Vulkan device.
#include <optional>
#include <string>

#include "element_tests.h"
#include "vulkan_pool_util.h"

namespace daedalus::gsttest {
namespace {

const ElementSpec* spec;

struct Size {
  int width, height;
};
constexpr Size kSizes[] = {{1, 1}, {7, 5}, {17, 9}, {33, 65}};

std::string gpu_params() { return std::string(spec->params) + " backend=gpu"; }

// A GstVideoMeta, when there is one, with strides the shaders write whole
// words of.
void check_strides(GstBuffer* buffer) {
  if (GstVideoMeta* meta = gst_buffer_get_video_meta(buffer)) {
    for (guint p = 0; p < meta->n_planes; p++)
      fail_unless(meta->stride[p] % 4 == 0, "plane %u stride %d", p,
                  meta->stride[p]);
  }
}

// Pushes `in` (transfer full), checks the output against the scalar library
// and returns it; *counted: how much zero-copy-frames grew.
GstBuffer* push_checked(GstHarness* h, const GstVideoInfo& info, GstBuffer* in,
                        guint64* counted) {
  GstBuffer* expected =
      expected_output(in, info, spec->reference, spec->in_place);
  const guint64 before = zero_copy_frames(h->element);
  GstBuffer* out = push_and_pull(h, in);
  *counted = zero_copy_frames(h->element) - before;
  // The GPU writes whole words: the row padding must keep its bytes.
  check_output(expected, out, info, spec->in_place);
  check_strides(out);
  gst_buffer_unref(expected);
  return out;
}

GST_START_TEST(test_gpu_formats) {
  if (!have_vulkan_device()) return;
  ValidationWatch watch;
  const char* format = kFormats[__i__];
  // Every other format downstream takes GstVideoMeta (and gets it on the
  // output), and the test, as upstream, asks for it in the proposed pool.
  const bool meta = __i__ % 2 == 1;
  GstHarness* h = new_harness(spec->factory, gpu_params().c_str());
  if (meta)
    gst_harness_add_propose_allocation_meta(h, GST_VIDEO_META_API_TYPE,
                                            nullptr);

  uint32_t salt = 16 * __i__;
  for (const Size& size : kSizes) {
    GstVideoInfo info = video_info(format, size.width, size.height);
    gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
    fail_unless_equals_std_string(active_backend(h->element), "gpu");
    std::mt19937 gen = rng(salt++);

    // Ordinary memory: copied in (and back out, in place); not counted.
    guint64 counted;
    GstBuffer* out = push_checked(h, info, random_buffer(info, gen), &counted);
    fail_unless_equals_uint64(counted, 0);
    // Out of place, the output comes from the element's Vulkan pool.
    fail_unless_equals_int(is_vulkan_memory(out), !spec->in_place);
    if (!spec->in_place)
      fail_unless_equals_int(gst_buffer_get_video_meta(out) != nullptr, meta);
    gst_buffer_unref(out);

    // A frame from the proposed pool is filtered where it lies. Deblock's
    // edges need 4 samples of plane past them: below 8x8 (block-size=4) it
    // may leave the GPU nothing to do.
    GstBufferPool* pool = proposed_pool(h, info, meta);
    GstBuffer* in = pool_frame(pool, info, gen);
    out = push_checked(h, info, in, &counted);
    if (spec->in_place && size.width < 8)
      fail_unless(counted <= 1);
    else
      fail_unless_equals_uint64(counted, 1);
    fail_unless(is_vulkan_memory(out));
    if (spec->in_place) fail_unless(out == in, "an in-place frame was copied");
    gst_buffer_unref(out);
    release_pool(pool);
  }
  gst_harness_teardown(h);
  watch.check();
}
GST_END_TEST

// The pool is proposed on the gpu backend only, first, with our allocator
// (kept whatever allocator upstream configures), GstVideoMeta and 4-byte
// aligned strides; for an 8-bit and a 10-bit format (16-bit samples,
// P010's interleaved chroma words), where the backend computes it.
constexpr const char* kPoolFormats[] = {"Y42B", "P010_10LE"};

GST_START_TEST(test_allocation_query) {
  const int kinds = G_N_ELEMENTS(kAllBackendKinds);
  const BackendKind kind = kAllBackendKinds[__i__ % kinds];
  const char* format = kPoolFormats[__i__ / kinds];
  const std::string name(backend_name(kind));
  if (kind == BackendKind::Gpu ? !have_vulkan_device() : !create_backend(kind))
    return;
  if (__i__ / kinds > 0 && !backend_computes(kind, spec->kernel, 10)) return;
  std::optional<ValidationWatch> watch;
  if (kind == BackendKind::Gpu) watch.emplace();
  const std::string props = std::string(spec->params) + " backend=" + name;
  GstHarness* h = new_harness(spec->factory, props.c_str());
  GstVideoInfo info = video_info(format, 17, 9);
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));

  GstQuery* query = allocation_query(h, info);
  fail_unless_equals_int(proposes_vulkan(query), kind == BackendKind::Gpu);
  if (kind == BackendKind::Gpu) {
    GstBufferPool* pool;
    guint size;
    gst_query_parse_nth_allocation_pool(query, 0, &pool, &size, nullptr,
                                        nullptr);
    fail_unless_equals_string(G_OBJECT_TYPE_NAME(pool), kPoolType);
    fail_unless(size >= GST_VIDEO_INFO_SIZE(&info));
    GstAllocator* allocator;
    gst_query_parse_nth_allocation_param(query, 0, &allocator, nullptr);
    fail_unless(is_our_allocator(allocator), "first allocator is not ours");
    gst_object_unref(allocator);

    // Upstream names the system allocator and asks for GstVideoMeta.
    GstStructure* config = gst_buffer_pool_get_config(pool);
    GstAllocator* system = gst_allocator_find(nullptr);
    gst_buffer_pool_config_set_allocator(config, system, nullptr);
    gst_object_unref(system);
    gst_buffer_pool_config_add_option(config,
                                      GST_BUFFER_POOL_OPTION_VIDEO_META);
    fail_unless(gst_buffer_pool_set_config(pool, config));
    config = gst_buffer_pool_get_config(pool);
    gst_buffer_pool_config_get_allocator(config, &allocator, nullptr);
    fail_unless(is_our_allocator(allocator), "the pool took another allocator");
    fail_unless(gst_buffer_pool_config_has_option(
        config, GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT));
    GstVideoAlignment align;
    fail_unless(gst_buffer_pool_config_get_video_alignment(config, &align));
    for (guint mask : align.stride_align) fail_unless_equals_int(mask & 3, 3);
    gst_structure_free(config);

    fail_unless(gst_buffer_pool_set_active(pool, TRUE));
    std::mt19937 gen = rng(0);
    GstBuffer* in = pool_frame(pool, info, gen);
    fail_unless(gst_buffer_get_video_meta(in) != nullptr);
    check_strides(in);
    guint64 counted;
    gst_buffer_unref(push_checked(h, info, in, &counted));
    fail_unless_equals_uint64(counted, 1);
    release_pool(pool);

    // The count lasts until the element starts again.
    gst_element_set_state(h->element, GST_STATE_NULL);
    fail_unless_equals_uint64(zero_copy_frames(h->element), 1);
    gst_harness_play(h);
    fail_unless_equals_uint64(zero_copy_frames(h->element), 0);
  }
  gst_query_unref(query);
  gst_harness_teardown(h);
  if (watch) watch->check();
}
GST_END_TEST

// In passthrough frames go downstream untouched: no pool is proposed.
// Leaving it asks upstream (RECONFIGURE) to query again, and the pool is.
GST_START_TEST(test_gpu_passthrough) {
  if (!have_vulkan_device()) return;
  ValidationWatch watch;
  const std::string props = std::string(spec->noop_params) + " backend=gpu";
  GstHarness* h = new_harness(spec->factory, props.c_str());
  GstVideoInfo info = video_info("I420", 33, 17);
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  std::mt19937 gen = rng(0);

  GstQuery* query = allocation_query(h, info);
  fail_if(proposes_vulkan(query), "a Vulkan pool proposed in passthrough");
  gst_query_unref(query);
  gst_buffer_unref(push_and_pull(h, random_buffer(info, gen)));
  while (GstEvent* event = gst_harness_try_pull_upstream_event(h))
    gst_event_unref(event);

  set_properties(h->element, spec->params);
  guint64 counted;
  gst_buffer_unref(push_checked(h, info, random_buffer(info, gen), &counted));
  bool reconfigure = false;
  while (GstEvent* event = gst_harness_try_pull_upstream_event(h)) {
    reconfigure |= GST_EVENT_TYPE(event) == GST_EVENT_RECONFIGURE;
    gst_event_unref(event);
  }
  fail_unless(reconfigure, "no RECONFIGURE sent upstream");
  query = allocation_query(h, info);
  fail_unless(proposes_vulkan(query), "no Vulkan pool after passthrough");
  gst_query_unref(query);
  gst_harness_teardown(h);
  watch.check();
}
GST_END_TEST

// An in-place element given a pool frame someone else still holds writes a
// copy: made by our allocator, in Vulkan memory, still filtered in place.
GST_START_TEST(test_gpu_shared_frame) {
  if (!have_vulkan_device()) return;
  ValidationWatch watch;
  GstHarness* h = new_harness(spec->factory, gpu_params().c_str());
  GstVideoInfo info = video_info("NV12", 33, 17);
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  GstBufferPool* pool = proposed_pool(h, info, true);
  std::mt19937 gen = rng(0);
  GstBuffer* in = pool_frame(pool, info, gen);
  GstBuffer* copy = gst_buffer_copy_deep(in);
  gst_buffer_ref(in);

  guint64 counted;
  GstBuffer* out = push_checked(h, info, in, &counted);
  fail_unless(out != in && same_bytes(in, copy), "a held frame was written");
  fail_unless(is_vulkan_memory(out));
  fail_unless_equals_uint64(counted, 1);
  for (GstBuffer* b : {out, in, copy}) gst_buffer_unref(b);
  release_pool(pool);
  gst_harness_teardown(h);
  watch.check();
}
GST_END_TEST

// Two elements on the gpu backend (one device between them): the first
// writes into the second's pool, and each filters with no copy.
GST_START_TEST(test_gpu_chain) {
  if (!have_vulkan_device()) return;
  ValidationWatch watch;
  const std::string line = std::string(spec->factory) + " name=first " +
                           gpu_params() + " ! " + spec->factory +
                           " name=second " + gpu_params();
  GstHarness* h = gst_harness_new_parse(line.c_str());
  GstElement* up = gst_bin_get_by_name(GST_BIN(h->element), "first");
  GstElement* down = gst_bin_get_by_name(GST_BIN(h->element), "second");
  GstVideoInfo info = video_info("YV12", 33, 17);
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  GstBufferPool* pool = proposed_pool(h, info, false);
  std::mt19937 gen = rng(0);
  GstBuffer* in = pool_frame(pool, info, gen);

  GstBuffer* once = expected_output(in, info, spec->reference, spec->in_place);
  GstBuffer* twice =
      expected_output(once, info, spec->reference, spec->in_place);
  GstBuffer* out = push_and_pull(h, in);
  const std::string diff = first_difference(twice, out, info);
  fail_unless(diff.empty(), "%s", diff.c_str());
  fail_unless(is_vulkan_memory(out));
  fail_unless_equals_uint64(zero_copy_frames(up), 1);
  fail_unless_equals_uint64(zero_copy_frames(down), 1);

  for (GstBuffer* b : {out, once, twice}) gst_buffer_unref(b);
  release_pool(pool);
  gst_object_unref(up);
  gst_object_unref(down);
  gst_harness_teardown(h);
  watch.check();
}
GST_END_TEST

// Empties the bus: the text of its first error message (its details in
// *debug), and in *warnings how many warnings it held. Fails the test when
// it held no error.
std::string pop_error(GstBus* bus, std::string* debug = nullptr,
                      int* warnings = nullptr) {
  std::string text;
  bool found = false;
  while (GstMessage* msg = gst_bus_pop(bus)) {
    if (warnings && GST_MESSAGE_TYPE(msg) == GST_MESSAGE_WARNING) ++*warnings;
    if (GST_MESSAGE_TYPE(msg) == GST_MESSAGE_ERROR && !found) {
      GError* error = nullptr;
      gchar* details = nullptr;
      gst_message_parse_error(msg, &error, &details);
      text = error->message;
      if (debug) *debug = details ? details : "";
      g_error_free(error);
      g_free(details);
      found = true;
    }
    gst_message_unref(msg);
  }
  fail_unless(found, "no error message");
  return text;
}

// A device that does not exist: negotiation fails, saying so.
GST_START_TEST(test_gpu_device_missing) {
  if (!have_vulkan_device()) return;
  g_setenv("DAEDALUS_VULKAN_DEVICE", "no-such-device", TRUE);
  GstHarness* h = new_harness(spec->factory, gpu_params().c_str());
  expect_refused(h, video_info("I420", 17, 9),
                 {"\"gpu\"", "DAEDALUS_VULKAN_DEVICE=no-such-device"});
  gst_harness_teardown(h);
}
GST_END_TEST

// backend=gpu set on the element gets no fallback: the GPU failing on a
// frame (DAEDALUS_FAULT_GPU_AFTER) fails the stream with an error that
// names the backend and the failure, and the element stays on the gpu.
GST_START_TEST(test_gpu_failure_is_an_error) {
  if (!have_vulkan_device()) return;
  g_setenv("DAEDALUS_FAULT_GPU_AFTER", "1", TRUE);
  GstHarness* h = new_harness(spec->factory, gpu_params().c_str());
  GstBus* bus = gst_bus_new();
  gst_element_set_bus(h->element, bus);
  GstVideoInfo info = video_info("I420", 33, 17);
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  std::mt19937 gen = rng(0);
  guint64 counted;
  gst_buffer_unref(push_checked(h, info, random_buffer(info, gen), &counted));
  fail_unless_equals_int(gst_harness_push(h, random_buffer(info, gen)),
                         GST_FLOW_ERROR);

  std::string debug;
  int warnings = 0;
  const std::string text = pop_error(bus, &debug, &warnings);
  fail_unless(text.find("DAEDALUS_FAULT_GPU_AFTER") != std::string::npos &&
                  debug.find("gpu backend failed") != std::string::npos,
              "unclear error: %s (%s)", text.c_str(), debug.c_str());
  fail_unless_equals_int(warnings, 0);  // the fallback's
  fail_unless_equals_std_string(active_backend(h->element), "gpu");
  gst_element_set_bus(h->element, nullptr);
  gst_object_unref(bus);
  gst_harness_teardown(h);
}
GST_END_TEST

}  // namespace

TCase* gpu_tcase(const ElementSpec* element) {
  spec = element;
  TCase* tc = tcase_create("gpu");
  tcase_add_loop_test(tc, test_gpu_formats, 0, kNumFormats);
  tcase_add_loop_test(
      tc, test_allocation_query, 0,
      G_N_ELEMENTS(kAllBackendKinds) * G_N_ELEMENTS(kPoolFormats));
  tcase_add_test(tc, test_gpu_passthrough);
  if (element->in_place) tcase_add_test(tc, test_gpu_shared_frame);
  tcase_add_test(tc, test_gpu_chain);
  tcase_add_test(tc, test_gpu_device_missing);
  tcase_add_test(tc, test_gpu_failure_is_an_error);
  return tc;
}

}  // namespace daedalus::gsttest
