// The main job: a built-in sample damaged by heavy JPEG compression, cleaned
// by daedalusdeblock and daedaluscdef; prints PSNR against the undamaged
// source and writes before/after PNGs.
#include <gst/app/gstappsink.h>
#include <gst/gst.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "daedalus/metrics.h"
#include "video_sample.h"

namespace {

struct Options {
  std::string pattern = "zone-plate";
  std::string source_props = "kx2=20 ky2=20 kt=1";
  int width = 640;
  int height = 360;
  int frames = 30;
  int quality = 5;
  std::string deblock = "";
  std::string cdef = "";
  std::string output = "demo-out";
};

// The branches compared; "source" is the reference, the rest are scored.
const char* const kBranches[] = {"source", "damaged", "deblock", "cdef",
                                 "deblock-cdef"};

std::string pipeline_description(const Options& o) {
  char buf[2048];
  std::snprintf(
      buf, sizeof buf,
      "videotestsrc pattern=%s %s num-buffers=%d ! "
      "video/x-raw,format=I420,width=%d,height=%d,framerate=30/1 ! tee name=s "
      "s. ! queue ! appsink name=source sync=false "
      "s. ! queue ! jpegenc quality=%d ! jpegdec ! videoconvert ! "
      "video/x-raw,format=I420 ! tee name=d "
      "d. ! queue ! appsink name=damaged sync=false "
      "d. ! queue ! daedalusdeblock %s ! appsink name=deblock sync=false "
      "d. ! queue ! daedaluscdef %s ! appsink name=cdef sync=false "
      "d. ! queue ! daedalusdeblock %s ! daedaluscdef %s ! "
      "appsink name=deblock-cdef sync=false",
      o.pattern.c_str(), o.source_props.c_str(), o.frames, o.width, o.height,
      o.quality, o.deblock.c_str(), o.cdef.c_str(), o.deblock.c_str(),
      o.cdef.c_str());
  return buf;
}

bool parse_options(int argc, char** argv, Options* o) {
  GOptionEntry entries[] = {
      {"pattern", 0, 0, G_OPTION_ARG_STRING, nullptr,
       "videotestsrc pattern (default zone-plate)", "NAME"},
      {"frames", 'n', 0, G_OPTION_ARG_INT, &o->frames, "frames (default 30)", "N"},
      {"width", 0, 0, G_OPTION_ARG_INT, &o->width, "width (default 640)", "W"},
      {"height", 0, 0, G_OPTION_ARG_INT, &o->height, "height (default 360)", "H"},
      {"quality", 'q', 0, G_OPTION_ARG_INT, &o->quality,
       "JPEG quality of the damage (default 5)", "Q"},
      {"deblock", 0, 0, G_OPTION_ARG_STRING, nullptr,
       "daedalusdeblock properties (default: the element's defaults)", "PROPS"},
      {"cdef", 0, 0, G_OPTION_ARG_STRING, nullptr,
       "daedaluscdef properties (default: the element's defaults)", "PROPS"},
      {"output", 'o', 0, G_OPTION_ARG_STRING, nullptr,
       "folder for the PNGs (default demo-out)", "DIR"},
      {nullptr, 0, 0, G_OPTION_ARG_NONE, nullptr, nullptr, nullptr}};
  gchar *pattern = nullptr, *deblock = nullptr, *cdef = nullptr, *out = nullptr;
  entries[0].arg_data = &pattern;
  entries[5].arg_data = &deblock;
  entries[6].arg_data = &cdef;
  entries[7].arg_data = &out;

  GOptionContext* ctx = g_option_context_new(
      "- deblock and de-ring a JPEG-damaged sample, report PSNR, write PNGs");
  g_option_context_add_main_entries(ctx, entries, nullptr);
  g_option_context_add_group(ctx, gst_init_get_option_group());
  GError* err = nullptr;
  const bool ok = g_option_context_parse(ctx, &argc, &argv, &err);
  g_option_context_free(ctx);
  if (!ok) {
    std::fprintf(stderr, "daedalus-demo: %s\n", err->message);
    g_error_free(err);
    return false;
  }
  if (pattern) o->pattern = pattern, o->source_props.clear();
  if (deblock) o->deblock = deblock;
  if (cdef) o->cdef = cdef;
  if (out) o->output = out;
  g_free(pattern), g_free(deblock), g_free(cdef), g_free(out);
  if (o->frames < 1 || o->width < 1 || o->height < 1) {
    std::fprintf(stderr, "daedalus-demo: frames and size must be positive\n");
    return false;
  }
  return true;
}

// Prints the pipeline's error, if any, and returns true when there was one.
bool report_bus_error(GstElement* pipeline) {
  GstBus* bus = gst_element_get_bus(pipeline);
  GstMessage* msg = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  gst_object_unref(bus);
  if (!msg) return false;
  GError* err = nullptr;
  gchar* debug = nullptr;
  gst_message_parse_error(msg, &err, &debug);
  std::fprintf(stderr, "daedalus-demo: %s: %s\n(%s)\n",
               GST_OBJECT_NAME(GST_MESSAGE_SRC(msg)), err->message,
               debug ? debug : "");
  g_error_free(err);
  g_free(debug);
  gst_message_unref(msg);
  return true;
}

struct Score {
  uint64_t sse_y = 0, samples_y = 0, sse_all = 0, samples_all = 0;
  void add(const daedalus::ConstFrame& ref, const daedalus::ConstFrame& f) {
    for (int p = 0; p < ref.num_planes; p++) {
      const uint64_t sse = daedalus::sum_squared_error(ref.planes[p], f.planes[p]);
      const uint64_t n = uint64_t(ref.planes[p].width) * ref.planes[p].height;
      if (p == 0) sse_y += sse, samples_y += n;
      sse_all += sse, samples_all += n;
    }
  }
};

int run(const Options& o) {
  GError* err = nullptr;
  GstElement* pipeline = gst_parse_launch(pipeline_description(o).c_str(), &err);
  if (!pipeline || err) {
    std::fprintf(stderr,
                 "daedalus-demo: cannot build the pipeline: %s\n"
                 "(is the plugin on GST_PLUGIN_PATH? run through `meson devenv`)\n",
                 err ? err->message : "unknown error");
    g_clear_error(&err);
    if (pipeline) gst_object_unref(pipeline);
    return 1;
  }
  constexpr int kCount = G_N_ELEMENTS(kBranches);
  GstAppSink* sinks[kCount];
  for (int b = 0; b < kCount; b++)
    sinks[b] = GST_APP_SINK(gst_bin_get_by_name(GST_BIN(pipeline), kBranches[b]));

  std::filesystem::create_directories(o.output);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);

  Score scores[kCount];
  const int png_frame = o.frames / 2;
  int status = 0, frames = 0;
  for (; frames < o.frames && status == 0; frames++) {
    GstSample* samples[kCount] = {};
    for (int b = 0; b < kCount; b++) {
      samples[b] = gst_app_sink_pull_sample(sinks[b]);
      if (!samples[b]) status = 1;
    }
    if (status == 0) {
      daedalus::demo::MappedSample ref(samples[0]);
      for (int b = 1; b < kCount; b++) {
        daedalus::demo::MappedSample m(samples[b]);
        if (!ref.valid() || !m.valid()) status = 1;
        else scores[b].add(ref.frame(), m.frame());
      }
      for (int b = 0; b < kCount && frames == png_frame && status == 0; b++) {
        std::string error;
        const std::string path = o.output + "/" + kBranches[b] + ".png";
        if (!daedalus::demo::write_png(samples[b], path, &error)) {
          std::fprintf(stderr, "daedalus-demo: %s\n", error.c_str());
          status = 1;
        }
      }
    }
    for (GstSample* s : samples)
      if (s) gst_sample_unref(s);
  }
  if (status != 0 && !report_bus_error(pipeline))
    std::fprintf(stderr, "daedalus-demo: the pipeline stopped early\n");
  gst_element_set_state(pipeline, GST_STATE_NULL);
  for (GstAppSink* s : sinks) gst_object_unref(s);
  gst_object_unref(pipeline);
  if (status != 0) return status;

  std::printf("daedalus demo: videotestsrc pattern=%s %dx%d, %d frames, "
              "JPEG quality %d\n", o.pattern.c_str(), o.width, o.height,
              frames, o.quality);
  auto props = [](const std::string& p) {
    return p.empty() ? "(defaults)" : p.c_str();
  };
  std::printf("deblock: %s | cdef: %s\n\n", props(o.deblock), props(o.cdef));
  std::printf("%-14s %9s %9s %14s\n", "vs source", "PSNR-Y", "PSNR-YUV",
              "gain-YUV (dB)");
  const double damaged =
      daedalus::psnr_from_sse(scores[1].sse_all, scores[1].samples_all);
  for (int b = 1; b < kCount; b++) {
    const double y = daedalus::psnr_from_sse(scores[b].sse_y, scores[b].samples_y);
    const double all =
        daedalus::psnr_from_sse(scores[b].sse_all, scores[b].samples_all);
    std::printf("%-14s %9.3f %9.3f %+14.3f\n", kBranches[b], y, all,
                all - damaged);
  }
  std::printf("\nframe %d written as PNG to %s/{%s,%s,%s,%s,%s}.png\n",
              png_frame, o.output.c_str(), kBranches[0], kBranches[1],
              kBranches[2], kBranches[3], kBranches[4]);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parse_options(argc, argv, &options)) return 2;
  gst_init(nullptr, nullptr);
  return run(options);
}
