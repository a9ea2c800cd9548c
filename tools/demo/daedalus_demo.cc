// The main job: a photograph that a Debian package ships (or a videotestsrc
// pattern) damaged by heavy JPEG compression, cleaned by daedalusdeblock and
// daedaluscdef at their defaults (auto strength); prints the damage they
// estimated, the settings they chose and PSNR against the undamaged source,
// and writes before/after PNGs.
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

// A photograph from Debian's python3-skimage (public domain): a cup of
// coffee on a saucer, smooth gradients and fine texture.
constexpr char kDefaultImage[] =
    "/usr/lib/python3/dist-packages/skimage/data/coffee.png";

struct Options {
  std::string image = kDefaultImage;  // empty: the videotestsrc pattern
  std::string pattern = "zone-plate";
  std::string source_props = "kx2=20 ky2=20 kt=1";
  int width = 0;   // 0: the image's own (a pattern: 640)
  int height = 0;  // 0: the image's own (a pattern: 360)
  int frames = 30;
  int quality = 10;
  std::string deblock = "";
  std::string cdef = "";
  std::string output = "demo-out";
};

// The branches compared; "source" is the reference, the rest are scored.
const char* const kBranches[] = {"source", "damaged", "deblock", "cdef",
                                 "deblock-cdef"};

std::string pipeline_description(const Options& o) {
  char source[1024], size[64] = "";
  if (o.width > 0)
    std::snprintf(size, sizeof size, ",width=%d,height=%d", o.width, o.height);
  if (o.image.empty())
    std::snprintf(source, sizeof source,
                  "videotestsrc pattern=%s %s num-buffers=%d",
                  o.pattern.c_str(), o.source_props.c_str(), o.frames);
  else
    std::snprintf(
        source, sizeof source,
        "filesrc location=\"%s\" ! pngdec ! imagefreeze num-buffers=%d ! "
        "videoconvert ! videoscale",
        o.image.c_str(), o.frames);
  char buf[4096];
  std::snprintf(
      buf, sizeof buf,
      "%s ! video/x-raw,format=I420%s,framerate=30/1 ! tee name=s "
      "s. ! queue ! appsink name=source sync=false "
      "s. ! queue ! jpegenc quality=%d ! jpegdec ! videoconvert ! "
      "video/x-raw,format=I420 ! tee name=d "
      "d. ! queue ! appsink name=damaged sync=false "
      "d. ! queue ! daedalusdeblock %s ! appsink name=deblock sync=false "
      "d. ! queue ! daedaluscdef %s ! appsink name=cdef sync=false "
      "d. ! queue ! daedalusdeblock name=chain-deblock %s ! "
      "daedaluscdef name=chain-cdef %s ! appsink name=deblock-cdef sync=false",
      source, size, o.quality, o.deblock.c_str(), o.cdef.c_str(),
      o.deblock.c_str(), o.cdef.c_str());
  return buf;
}

bool parse_options(int argc, char** argv, Options* o) {
  GOptionEntry entries[] = {
      {"pattern", 0, 0, G_OPTION_ARG_STRING, nullptr,
       "a videotestsrc pattern instead of the image (e.g. zone-plate)", "NAME"},
      {"frames", 'n', 0, G_OPTION_ARG_INT, &o->frames, "frames (default 30)",
       "N"},
      {"width", 0, 0, G_OPTION_ARG_INT, &o->width,
       "width (default: the image's; a pattern's 640)", "W"},
      {"height", 0, 0, G_OPTION_ARG_INT, &o->height,
       "height (default: the image's; a pattern's 360)", "H"},
      {"quality", 'q', 0, G_OPTION_ARG_INT, &o->quality,
       "JPEG quality of the damage (default 10)", "Q"},
      {"deblock", 0, 0, G_OPTION_ARG_STRING, nullptr,
       "daedalusdeblock properties (default: the element's defaults)", "PROPS"},
      {"cdef", 0, 0, G_OPTION_ARG_STRING, nullptr,
       "daedaluscdef properties (default: the element's defaults)", "PROPS"},
      {"output", 'o', 0, G_OPTION_ARG_STRING, nullptr,
       "folder for the PNGs (default demo-out)", "DIR"},
      {"image", 'i', 0, G_OPTION_ARG_FILENAME, nullptr,
       "PNG to damage (default: python3-skimage's coffee.png)", "FILE"},
      {nullptr, 0, 0, G_OPTION_ARG_NONE, nullptr, nullptr, nullptr}};
  gchar *pattern = nullptr, *deblock = nullptr, *cdef = nullptr, *out = nullptr,
        *image = nullptr;
  entries[0].arg_data = &pattern;
  entries[5].arg_data = &deblock;
  entries[6].arg_data = &cdef;
  entries[7].arg_data = &out;
  entries[8].arg_data = &image;

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
  if (image) o->image = image;
  if (pattern) o->pattern = pattern, o->source_props.clear(), o->image.clear();
  if (deblock) o->deblock = deblock;
  if (cdef) o->cdef = cdef;
  if (out) o->output = out;
  g_free(pattern), g_free(deblock), g_free(cdef), g_free(out), g_free(image);
  if (o->image.empty() && o->width == 0) o->width = 640, o->height = 360;
  if (o->frames < 1 || o->width < 0 || o->height < 0 ||
      (o->width == 0) != (o->height == 0)) {
    std::fprintf(stderr,
                 "daedalus-demo: frames must be positive, and the "
                 "size both positive or both left out\n");
    return false;
  }
  if (!o->image.empty() && !g_file_test(o->image.c_str(), G_FILE_TEST_EXISTS)) {
    std::fprintf(stderr,
                 "daedalus-demo: %s is missing (apt-get install "
                 "python3-skimage, or pass --image or --pattern)\n",
                 o->image.c_str());
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
      const uint64_t sse =
          daedalus::sum_squared_error(ref.planes[p], f.planes[p]);
      const uint64_t n = uint64_t(ref.planes[p].width) * ref.planes[p].height;
      if (p == 0) sse_y += sse, samples_y += n;
      sse_all += sse, samples_all += n;
    }
  }
};

// Each branch's frame as a PNG, and the damaged and the cleaned frame side
// by side; 1 on failure (said on stderr).
int write_pngs(const Options& o, GstSample* const* samples) {
  constexpr int kCount = G_N_ELEMENTS(kBranches);
  std::string error;
  for (int b = 0; b < kCount; b++)
    if (!daedalus::demo::write_png(
            samples[b], o.output + "/" + kBranches[b] + ".png", &error))
      break;
  if (error.empty()) {
    GstSample* both =
        daedalus::demo::side_by_side(samples[1], samples[kCount - 1]);
    if (!both)
      error = "cannot put the frames side by side";
    else
      daedalus::demo::write_png(both, o.output + "/before-after.png", &error);
    if (both) gst_sample_unref(both);
  }
  if (error.empty()) return 0;
  std::fprintf(stderr, "daedalus-demo: %s\n", error.c_str());
  return 1;
}

int int_property(GstElement* pipeline, const char* element, const char* name) {
  GstElement* e = gst_bin_get_by_name(GST_BIN(pipeline), element);
  gint v = -1;
  if (e) g_object_get(e, name, &v, nullptr), gst_object_unref(e);
  return v;
}

// What the deblock-cdef branch's elements estimated (their last
// "daedalus-damage" message) and the settings they used on the last frame.
std::string what_auto_chose(GstElement* pipeline, const Options& o) {
  std::string out;
  GstBus* bus = gst_element_get_bus(pipeline);
  while (GstMessage* m = gst_bus_pop_filtered(bus, GST_MESSAGE_ELEMENT)) {
    const GstStructure* s = gst_message_get_structure(m);
    if (gst_structure_has_name(s, "daedalus-damage") &&
        std::string(GST_OBJECT_NAME(GST_MESSAGE_SRC(m))) == "chain-deblock") {
      gint level = 0, blk = 0, act = 0, spacing = 0, gx = 0, gy = 0;
      gst_structure_get(s, "level", G_TYPE_INT, &level, "blk", G_TYPE_INT, &blk,
                        "act", G_TYPE_INT, &act, "spacing", G_TYPE_INT,
                        &spacing, "grid-x", G_TYPE_INT, &gx, "grid-y",
                        G_TYPE_INT, &gy, nullptr);
      char line[256];
      std::snprintf(line, sizeof line,
                    "estimated damage: level %d of 7 (block steps %.2f samples "
                    "beyond their surroundings, in a picture whose mean step "
                    "is %.2f; grid %d at %d,%d)\n",
                    level, blk / 256.0, act / 256.0, spacing, gx, gy);
      out = line;
    }
    gst_message_unref(m);
  }
  gst_object_unref(bus);
  if (o.deblock.empty() || o.cdef.empty()) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "chosen: daedalusdeblock qp=%d bs=%d block-size=%d grid-x=%d "
                  "grid-y=%d | daedaluscdef pri-strength=%d sec-strength=%d "
                  "damping=%d\n",
                  int_property(pipeline, "chain-deblock", "qp"),
                  int_property(pipeline, "chain-deblock", "bs"),
                  int_property(pipeline, "chain-deblock", "block-size"),
                  int_property(pipeline, "chain-deblock", "grid-x"),
                  int_property(pipeline, "chain-deblock", "grid-y"),
                  int_property(pipeline, "chain-cdef", "pri-strength"),
                  int_property(pipeline, "chain-cdef", "sec-strength"),
                  int_property(pipeline, "chain-cdef", "damping"));
    out += line;
  }
  return out;
}

int run(const Options& o) {
  GError* err = nullptr;
  GstElement* pipeline =
      gst_parse_launch(pipeline_description(o).c_str(), &err);
  if (!pipeline || err) {
    std::fprintf(
        stderr,
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
    sinks[b] =
        GST_APP_SINK(gst_bin_get_by_name(GST_BIN(pipeline), kBranches[b]));

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
        if (!ref.valid() || !m.valid())
          status = 1;
        else
          scores[b].add(ref.frame(), m.frame());
      }
      if (frames == png_frame && status == 0) status = write_pngs(o, samples);
    }
    for (GstSample* s : samples)
      if (s) gst_sample_unref(s);
  }
  if (status != 0 && !report_bus_error(pipeline))
    std::fprintf(stderr, "daedalus-demo: the pipeline stopped early\n");
  const std::string chosen = status == 0 ? what_auto_chose(pipeline, o) : "";
  gst_element_set_state(pipeline, GST_STATE_NULL);
  for (GstAppSink* s : sinks) gst_object_unref(s);
  gst_object_unref(pipeline);
  if (status != 0) return status;

  if (o.image.empty())
    std::printf("daedalus demo: videotestsrc pattern=%s %dx%d",
                o.pattern.c_str(), o.width, o.height);
  else
    std::printf("daedalus demo: %s", o.image.c_str());
  std::printf(", %d frames, JPEG quality %d\n", frames, o.quality);
  auto props = [](const std::string& p) {
    return p.empty() ? "(defaults: auto strength)" : p.c_str();
  };
  std::printf("deblock: %s | cdef: %s\n%s\n", props(o.deblock), props(o.cdef),
              chosen.c_str());
  std::printf("%-14s %9s %9s %14s\n", "vs source", "PSNR-Y", "PSNR-YUV",
              "gain-YUV (dB)");
  const double damaged =
      daedalus::psnr_from_sse(scores[1].sse_all, scores[1].samples_all);
  for (int b = 1; b < kCount; b++) {
    const double y =
        daedalus::psnr_from_sse(scores[b].sse_y, scores[b].samples_y);
    const double all =
        daedalus::psnr_from_sse(scores[b].sse_all, scores[b].samples_all);
    std::printf("%-14s %9.3f %9.3f %+14.3f\n", kBranches[b], y, all,
                all - damaged);
  }
  std::printf(
      "\nframe %d written as PNG to %s/{%s,%s,%s,%s,%s}.png, and the "
      "damaged and the deblock-cdef frame side by side to "
      "%s/before-after.png\n",
      png_frame, o.output.c_str(), kBranches[0], kBranches[1], kBranches[2],
      kBranches[3], kBranches[4], o.output.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parse_options(argc, argv, &options)) return 2;
  gst_init(nullptr, nullptr);
  return run(options);
}
