// backend=auto: the trial, its cache file, the environment override, and
// the fallback from a failing GPU (gpu or hybrid, frames in ordinary memory
// or the element's Vulkan pool). The GPU here is whatever Vulkan device the
// machine has (lavapipe in CI, which auto only tries when
// DAEDALUS_VULKAN_DEVICE names it, as these tests do); tests that need one
// skip, saying so, without it. Each test runs in its own process (check
// forks), with a cache folder of its own.
#include <filesystem>
#include <initializer_list>
#include <string>

#include "element_tests.h"
#include "vulkan_pool_util.h"

namespace daedalus::gsttest {
namespace {

const ElementSpec* spec;

std::string decided_by(GstElement* element) {
  gchar* s = nullptr;
  g_object_get(element, "decided-by", &s, nullptr);
  std::string out = s ? s : "";
  g_free(s);
  return out;
}

// A cache folder of this test's own (XDG_CACHE_HOME), removed with what the
// Vulkan layers and the pipeline cache wrote there when the test ends,
// skipped or passed (a failed test leaves it for a look: check's failure
// does not unwind).
class PrivateCache {
 public:
  PrivateCache() {
    gchar* dir = g_dir_make_tmp("daedalus-auto-XXXXXX", nullptr);
    fail_unless(dir != nullptr);
    g_setenv("XDG_CACHE_HOME", dir, TRUE);
    dir_ = dir;
    g_free(dir);
  }
  ~PrivateCache() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  PrivateCache(const PrivateCache&) = delete;
  PrivateCache& operator=(const PrivateCache&) = delete;

  // The cache file's path.
  std::string file() const { return dir_ + "/daedalus/backends.ini"; }

 private:
  std::string dir_;
};

// Points auto at the machine's Vulkan device (lavapipe included); false,
// saying so, when there is none.
bool use_any_gpu() {
  g_setenv("DAEDALUS_VULKAN_DEVICE", "0", TRUE);
  if (create_backend(BackendKind::Gpu)) return true;
  g_print("SKIP: no Vulkan device on this machine\n");
  return false;
}

// Points auto at lavapipe, which no 4K frame call finishes within 1 ms;
// false, saying so, when there is none.
bool use_lavapipe() {
  g_setenv("DAEDALUS_VULKAN_DEVICE", "llvmpipe", TRUE);
  if (create_backend(BackendKind::Gpu)) return true;
  g_print("SKIP: no lavapipe (llvmpipe) Vulkan device on this machine\n");
  return false;
}

// A harness with `props`, negotiated at `width` x `height` I420, and one
// frame through it that must be the scalar library's output.
GstHarness* run_one_frame(const std::string& props, int width, int height,
                          GstBus* bus = nullptr) {
  GstHarness* h = new_harness(spec->factory, props.c_str());
  if (bus) gst_element_set_bus(h->element, bus);
  GstVideoInfo info = video_info("I420", width, height);
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  std::mt19937 gen = rng(width);
  GstBuffer* in = random_buffer(info, gen);
  GstBuffer* expected =
      expected_output(in, info, spec->reference, spec->in_place);
  GstBuffer* out = push_and_pull(h, in);
  const std::string diff = first_difference(expected, out, info);
  fail_unless(diff.empty(), "%s", diff.c_str());
  gst_buffer_unref(out);
  gst_buffer_unref(expected);
  return h;
}

// Pops the bus's warnings; each must mention `mention` in its details.
int pop_warnings(GstBus* bus, const char* mention = "") {
  int warnings = 0;
  while (GstMessage* msg = gst_bus_pop_filtered(bus, GST_MESSAGE_WARNING)) {
    GError* error = nullptr;
    gchar* debug = nullptr;
    gst_message_parse_warning(msg, &error, &debug);
    fail_unless(debug && strstr(debug, mention) != nullptr, "%s", debug);
    g_error_free(error);
    g_free(debug);
    gst_message_unref(msg);
    warnings++;
  }
  fail_unless(gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR) == nullptr);
  return warnings;
}

std::string params(const char* extra = "") {
  return std::string(spec->params) + " calibration-budget=40 " + extra;
}

GKeyFile* load_cache(const std::string& path) {
  GKeyFile* file = g_key_file_new();
  fail_unless(
      g_key_file_load_from_file(file, path.c_str(), G_KEY_FILE_NONE, nullptr),
      "%s does not parse", path.c_str());
  return file;
}

// The one entry of this element in the cache file.
std::string entry(GKeyFile* file) {
  gsize n;
  gchar** groups = g_key_file_get_groups(file, &n);
  std::string found;
  for (gsize i = 0; i < n; i++)
    if (g_str_has_prefix(groups[i], spec->factory)) found = groups[i];
  g_strfreev(groups);
  fail_if(found.empty(), "no %s entry in the cache file", spec->factory);
  return found;
}

void save_cache(GKeyFile* file, const std::string& path) {
  fail_unless(g_key_file_save_to_file(file, path.c_str(), nullptr));
  g_key_file_unref(file);
}

struct Size {
  int width, height;
};

// Makes the cache say that at each of `sizes` (I420, params()) `fastest`
// (gpu or hybrid) is the fastest by far: a trial at 64x48 writes an entry
// with this machine's fields, which is copied to each size with forged
// figures.
void cache_prefers(const std::string& path, std::initializer_list<Size> sizes,
                   BackendKind fastest = BackendKind::Gpu) {
  const bool gpu = fastest == BackendKind::Gpu;
  gst_harness_teardown(run_one_frame(params(), 64, 48));
  GKeyFile* file = load_cache(path);
  const std::string measured = entry(file);
  const std::string size_key = " 64x48 ";
  const size_t at = measured.find(size_key);
  fail_unless(at != std::string::npos, "%s", measured.c_str());
  gchar** keys = g_key_file_get_keys(file, measured.c_str(), nullptr, nullptr);
  for (const Size& size : sizes) {
    const std::string group = measured.substr(0, at) + " " +
                              std::to_string(size.width) + "x" +
                              std::to_string(size.height) + " " +
                              measured.substr(at + size_key.size());
    for (gchar** key = keys; *key; key++) {
      gchar* value =
          g_key_file_get_value(file, measured.c_str(), *key, nullptr);
      g_key_file_set_value(file, group.c_str(), *key, value);
      g_free(value);
    }
    g_key_file_set_string(file, group.c_str(), "cpu-ms", "100");
    g_key_file_set_string(file, group.c_str(), "gpu-ms", gpu ? "0.001" : "50");
    g_key_file_set_string(file, group.c_str(), "hybrid-ms",
                          gpu ? "50" : "0.001");
    g_key_file_set_string(file, group.c_str(), "scalar-ms", "900");
  }
  g_strfreev(keys);
  save_cache(file, path);
}

// Pushes `frames` random frames of `info` through `h`; each must come out as
// the scalar library's output (the output of every backend), byte for byte:
// the I420 sizes of these tests have no row padding.
void check_frames(GstHarness* h, const GstVideoInfo& info, int frames,
                  uint32_t salt) {
  std::mt19937 gen = rng(salt);
  for (int i = 0; i < frames; i++) {
    GstBuffer* in = random_buffer(info, gen);
    GstBuffer* expected =
        expected_output(in, info, spec->reference, spec->in_place);
    GstBuffer* out = push_and_pull(h, in);
    check_output(expected, out, info, true);
    gst_buffer_unref(out);
    gst_buffer_unref(expected);
  }
}

std::string file_contents(const std::string& path) {
  gchar* text = nullptr;
  fail_unless(g_file_get_contents(path.c_str(), &text, nullptr, nullptr),
              "cannot read %s", path.c_str());
  std::string s = text;
  g_free(text);
  return s;
}

// A miss runs the trial and writes what it measured; a hit runs nothing.
GST_START_TEST(test_auto_trial_then_cache) {
  const PrivateCache cache;
  const std::string path = cache.file();
  if (!use_any_gpu()) return;
  GstHarness* h = run_one_frame(params(), 64, 48);
  fail_unless_equals_std_string(decided_by(h->element), "trial");
  gst_harness_teardown(h);

  GKeyFile* file = load_cache(path);
  const std::string group = entry(file);
  fail_unless(group.find("I420 8-bit 64x48") != std::string::npos, "%s",
              group.c_str());
  const std::string cpu_side_ms = cpu_side_backend() + "-ms";
  for (const char* key : {"cpu", "threads", "gpu", "library", "backend",
                          cpu_side_ms.c_str(), "gpu-ms", "measured"})
    fail_unless(g_key_file_has_key(file, group.c_str(), key, nullptr),
                "no %s in [%s]", key, group.c_str());
  gchar* backend =
      g_key_file_get_string(file, group.c_str(), "backend", nullptr);
  g_key_file_unref(file);

  h = run_one_frame(params(), 64, 48);
  fail_unless_equals_std_string(decided_by(h->element), "cache");
  fail_unless_equals_std_string(active_backend(h->element), backend);
  gst_harness_teardown(h);
  g_free(backend);
}
GST_END_TEST

// Another size, other settings, or figures from another machine, miss; a
// file that is not a cache file is replaced.
GST_START_TEST(test_auto_cache_misses) {
  const PrivateCache cache;
  const std::string path = cache.file();
  if (!use_any_gpu()) return;
  gst_harness_teardown(run_one_frame(params(), 64, 48));

  // The element's hand-set defaults do other work than spec->params
  // (another block size, secondary taps off, a 1-D copy instead of sharp
  // 2-D taps).
  GstHarness* defaults = new_harness(spec->factory, "calibration-budget=40");
  if (g_object_class_find_property(G_OBJECT_GET_CLASS(defaults->element),
                                   "auto-strength"))
    g_object_set(defaults->element, "auto-strength", FALSE, nullptr);
  GstVideoInfo info = video_info("I420", 64, 48);
  gst_harness_set_src_caps(defaults, gst_video_info_to_caps(&info));
  std::mt19937 gen = rng(3);
  gst_buffer_unref(push_and_pull(defaults, random_buffer(info, gen)));
  fail_unless_equals_std_string(decided_by(defaults->element), "trial");
  gst_harness_teardown(defaults);

  GstHarness* h = run_one_frame(params(), 32, 16);
  fail_unless_equals_std_string(decided_by(h->element), "trial");
  gst_harness_teardown(h);

  GKeyFile* file = load_cache(path);
  gsize n;
  gchar** groups = g_key_file_get_groups(file, &n);
  for (gsize i = 0; i < n; i++)
    if (g_key_file_has_key(file, groups[i], "cpu", nullptr))
      g_key_file_set_string(file, groups[i], "cpu", "a machine elsewhere");
  g_strfreev(groups);
  save_cache(file, path);
  h = run_one_frame(params(), 64, 48);
  fail_unless_equals_std_string(decided_by(h->element), "trial");
  gst_harness_teardown(h);

  fail_unless(g_file_set_contents(path.c_str(), "[daedalus\nnot a keyfile", -1,
                                  nullptr));
  h = run_one_frame(params(), 64, 48);
  fail_unless_equals_std_string(decided_by(h->element), "trial");
  gst_harness_teardown(h);
  file = load_cache(path);
  fail_unless_equals_int(
      g_key_file_get_integer(file, "daedalus", "format", nullptr), 1);
  entry(file);
  g_key_file_unref(file);
}
GST_END_TEST

// DAEDALUS_BACKEND picks the backend of every element that was not told
// one; the property beats it; a value that names no backend is ignored.
GST_START_TEST(test_auto_environment) {
  const PrivateCache cache;
  const std::string path = cache.file();
  g_setenv("DAEDALUS_BACKEND", "scalar", TRUE);
  GstHarness* h = run_one_frame(params(), 33, 17);
  fail_unless_equals_std_string(active_backend(h->element), "scalar");
  fail_unless_equals_std_string(decided_by(h->element), "environment");
  gst_harness_teardown(h);

  if (create_backend(BackendKind::Cpu)) {
    h = run_one_frame(params("backend=cpu"), 33, 17);
    fail_unless_equals_std_string(active_backend(h->element), "cpu");
    fail_unless_equals_std_string(decided_by(h->element), "property");
    gst_harness_teardown(h);
  }

  g_setenv("DAEDALUS_BACKEND", "fastest", TRUE);
  h = run_one_frame(params(), 33, 17);
  fail_if(decided_by(h->element) == "environment");
  gst_harness_teardown(h);
}
GST_END_TEST

// No usable GPU under auto: the CPU, and one warning however often caps
// are negotiated.
GST_START_TEST(test_auto_without_gpu_warns_once) {
  const PrivateCache cache;
  const std::string path = cache.file();
  g_setenv("DAEDALUS_VULKAN_DEVICE", "no-such-device", TRUE);
  GstBus* bus = gst_bus_new();
  GstHarness* h = run_one_frame(params(), 33, 17, bus);
  fail_unless_equals_std_string(decided_by(h->element), "only-choice");
  GstVideoInfo info = video_info("I420", 17, 9);
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  std::mt19937 gen = rng(1);
  gst_buffer_unref(push_and_pull(h, random_buffer(info, gen)));

  fail_unless_equals_int(pop_warnings(bus, "no-such-device"),
                         backend_built(BackendKind::Gpu) ? 1 : 0);
  gst_element_set_bus(h->element, nullptr);
  gst_object_unref(bus);
  gst_harness_teardown(h);
}
GST_END_TEST

// Sets `variable` to `value`, then runs `frames` frames of I420 `size`
// through an element whose auto picks `chosen` (gpu or hybrid) from the
// cache (`path`); the GPU fails on one of them. Every frame comes out
// exact, the element ends on the cpu backend, decided by fallback, having
// warned once naming `variable`.
void check_gpu_failure(const std::string& path, Size size, const char* variable,
                       const char* value, int frames,
                       BackendKind chosen = BackendKind::Gpu) {
  cache_prefers(path, {size}, chosen);
  g_setenv(variable, value, TRUE);
  GstBus* bus = gst_bus_new();
  GstHarness* h = new_harness(spec->factory, params().c_str());
  gst_element_set_bus(h->element, bus);
  GstVideoInfo info = video_info("I420", size.width, size.height);
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  fail_unless_equals_std_string(active_backend(h->element),
                                std::string(backend_name(chosen)));
  fail_unless_equals_std_string(decided_by(h->element), "cache");
  check_frames(h, info, frames, 2);
  fail_unless_equals_int(gst_harness_buffers_received(h), frames);
  fail_unless_equals_std_string(active_backend(h->element), cpu_side_backend());
  fail_unless_equals_std_string(decided_by(h->element), "fallback");
  fail_unless_equals_int(pop_warnings(bus, variable), 1);
  gst_element_set_bus(h->element, nullptr);
  gst_object_unref(bus);
  gst_harness_teardown(h);
}

// The GPU, chosen by auto, fails mid-stream (the third frame).
GST_START_TEST(test_auto_gpu_failure_mid_stream) {
  const PrivateCache cache;
  const std::string path = cache.file();
  if (!use_any_gpu()) return;
  check_gpu_failure(path, {64, 48}, "DAEDALUS_FAULT_GPU_AFTER", "2", 5);
}
GST_END_TEST

// The hybrid backend, chosen by auto, fails mid-stream, having written the
// CPU's rows of the frame (of an in-place element's input too).
GST_START_TEST(test_auto_hybrid_failure_mid_stream) {
  const PrivateCache cache;
  const std::string path = cache.file();
  if (!use_any_gpu()) return;
  if (!backend_built(BackendKind::Hybrid)) {
    g_print("SKIP: this build has no hybrid backend\n");
    return;
  }
  check_gpu_failure(path, {64, 48}, "DAEDALUS_FAULT_GPU_AFTER", "2", 5,
                    BackendKind::Hybrid);
}
GST_END_TEST

// Whether RECONFIGURE events went upstream since the last call.
bool reconfigure_sent_upstream(GstHarness* h) {
  bool reconfigure = false;
  while (GstEvent* event = gst_harness_try_pull_upstream_event(h)) {
    reconfigure |= GST_EVENT_TYPE(event) == GST_EVENT_RECONFIGURE;
    gst_event_unref(event);
  }
  return reconfigure;
}

// The GPU, chosen by auto, fails on a frame from the Vulkan pool the element
// proposed upstream, which it filters where it lies (zero-copy): the lost
// GPU leaves part of that frame written (in place, the input itself; out
// of place, the output, from the element's own Vulkan pool). Every frame,
// from the pool before and after the failure, comes out exact, none is
// lost; the frames before it were zero-copy; the element proposes the pool
// no more and has asked upstream to renegotiate allocation.
GST_START_TEST(test_auto_gpu_failure_pool_frames) {
  const PrivateCache cache;
  const std::string path = cache.file();
  if (!use_any_gpu()) return;
  ValidationWatch watch;
  constexpr int kGood = 2, kFrames = 5;
  cache_prefers(path, {{64, 48}});
  g_setenv("DAEDALUS_FAULT_GPU_AFTER", std::to_string(kGood).c_str(), TRUE);
  GstBus* bus = gst_bus_new();
  GstHarness* h = new_harness(spec->factory, params().c_str());
  gst_element_set_bus(h->element, bus);
  GstVideoInfo info = video_info("I420", 64, 48);
  gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
  fail_unless_equals_std_string(active_backend(h->element), "gpu");
  GstBufferPool* pool = proposed_pool(h, info, false);
  std::mt19937 gen = rng(5);
  for (int i = 0; i < kFrames; i++) {
    if (i == kGood) reconfigure_sent_upstream(h);
    GstBuffer* in = pool_frame(pool, info, gen);
    GstBuffer* expected =
        expected_output(in, info, spec->reference, spec->in_place);
    GstBuffer* out = push_and_pull(h, in);
    check_output(expected, out, info, spec->in_place);
    fail_unless(is_vulkan_memory(out) || (!spec->in_place && i > kGood),
                "frame %d: output not in Vulkan memory", i);
    gst_buffer_unref(out);
    gst_buffer_unref(expected);
    if (i == kGood)
      fail_unless(reconfigure_sent_upstream(h), "no RECONFIGURE upstream");
  }
  fail_unless_equals_int(gst_harness_buffers_received(h), kFrames);
  fail_unless_equals_uint64(zero_copy_frames(h->element), kGood);
  fail_unless_equals_std_string(active_backend(h->element), cpu_side_backend());
  fail_unless_equals_std_string(decided_by(h->element), "fallback");
  fail_unless_equals_int(pop_warnings(bus, "DAEDALUS_FAULT_GPU_AFTER"), 1);
  GstQuery* query = allocation_query(h, info);
  fail_if(proposes_vulkan(query), "a Vulkan pool proposed after the failure");
  gst_query_unref(query);

  release_pool(pool);
  gst_element_set_bus(h->element, nullptr);
  gst_object_unref(bus);
  gst_harness_teardown(h);
  watch.check();
}
GST_END_TEST

// After the GPU failed, caps changes do not send the element back to it,
// though the cache says the gpu is the fastest at every size (as concat
// of videotestsrc segments of two sizes negotiates): one warning, every
// frame exact. The simulated failure is a lost device, so an element
// negotiated afterwards keeps to the CPU too, without a warning of its own.
// The cache file is left as it was.
GST_START_TEST(test_auto_gpu_failure_stays) {
  const PrivateCache cache;
  const std::string path = cache.file();
  if (!use_any_gpu()) return;
  const Size segments[] = {{320, 240}, {640, 480}, {320, 240}};
  cache_prefers(path, {{320, 240}, {640, 480}});
  const std::string cache_before = file_contents(path);

  g_setenv("DAEDALUS_FAULT_GPU_AFTER", "2", TRUE);
  GstBus* bus = gst_bus_new();
  GstHarness* h = new_harness(spec->factory, params().c_str());
  gst_element_set_bus(h->element, bus);
  constexpr int kFramesPerSegment = 4;  // the third fails on the GPU
  uint32_t salt = 0;
  for (const Size& size : segments) {
    GstVideoInfo info = video_info("I420", size.width, size.height);
    gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
    fail_unless_equals_std_string(active_backend(h->element),
                                  salt == 0 ? "gpu" : cpu_side_backend());
    fail_unless_equals_std_string(decided_by(h->element),
                                  salt == 0 ? "cache" : "fallback");
    check_frames(h, info, kFramesPerSegment, salt++);
    fail_unless_equals_std_string(active_backend(h->element),
                                  cpu_side_backend());
  }
  fail_unless_equals_int(gst_harness_buffers_received(h),
                         kFramesPerSegment * G_N_ELEMENTS(segments));
  fail_unless_equals_int(pop_warnings(bus, "DAEDALUS_FAULT_GPU_AFTER"), 1);

  GstBus* other_bus = gst_bus_new();
  GstHarness* other = run_one_frame(params(), 320, 240, other_bus);
  fail_unless_equals_std_string(active_backend(other->element),
                                cpu_side_backend());
  fail_unless_equals_std_string(decided_by(other->element), "fallback");
  fail_unless_equals_int(pop_warnings(other_bus), 0);
  fail_unless_equals_std_string(file_contents(path), cache_before);

  for (GstHarness* harness : {h, other}) {
    gst_element_set_bus(harness->element, nullptr);
    gst_harness_teardown(harness);
  }
  gst_object_unref(bus);
  gst_object_unref(other_bus);
}
GST_END_TEST

// A GPU slower than DAEDALUS_GPU_TIMEOUT_MS (lavapipe on a 4K frame against
// 1 ms): the wait gives up while the frame still runs, the element warns
// and falls back, and every frame comes out exact. The first frame's output
// came from the Vulkan pool and the GPU was writing it; that pool is freed
// while the GPU may still run, and its memory must outlive the command (the
// validation layer reports memory freed in use; the GPU writing a freed
// frame crashes).
GST_START_TEST(test_auto_gpu_timeout) {
  const PrivateCache cache;
  const std::string path = cache.file();
  if (!use_lavapipe()) return;
  ValidationWatch watch;
  check_gpu_failure(path, {3840, 2160}, "DAEDALUS_GPU_TIMEOUT_MS", "1", 2);
  watch.check();
}
GST_END_TEST

}  // namespace

TCase* auto_tcase(const ElementSpec* element) {
  spec = element;
  TCase* tc = tcase_create("auto");
  tcase_add_test(tc, test_auto_trial_then_cache);
  tcase_add_test(tc, test_auto_cache_misses);
  tcase_add_test(tc, test_auto_environment);
  tcase_add_test(tc, test_auto_without_gpu_warns_once);
  tcase_add_test(tc, test_auto_gpu_failure_mid_stream);
  tcase_add_test(tc, test_auto_hybrid_failure_mid_stream);
  tcase_add_test(tc, test_auto_gpu_failure_pool_frames);
  tcase_add_test(tc, test_auto_gpu_failure_stays);
  // Out of place, the output frame is the Vulkan memory the GPU writes.
  if (!element->in_place) tcase_add_test(tc, test_auto_gpu_timeout);
  return tc;
}

}  // namespace daedalus::gsttest
