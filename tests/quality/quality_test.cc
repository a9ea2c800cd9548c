// Picture-quality regression: a small clip damaged by heavy JPEG compression
// must come out of daedalusdeblock ! daedaluscdef closer to its source than it
// went in. The damage is made here (videotestsrc ! jpegenc ! jpegdec), so the
// test needs only GStreamer's base and good plugins. The benchmark that
// chose the settings is tools/quality (docs/quality.md).
#include <gst/app/gstappsink.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "daedalus/metrics.h"

namespace {

constexpr int kWidth = 320;
constexpr int kHeight = 240;
constexpr int kFrames = 4;

// Squared error of every sample, pooled over frames and planes.
struct Score {
  uint64_t sse = 0, samples = 0;
  double psnr() const { return daedalus::psnr_from_sse(sse, samples); }
};

daedalus::ConstPlane plane(const GstVideoFrame& f, int c) {
  return {static_cast<const uint8_t*>(GST_VIDEO_FRAME_COMP_DATA(&f, c)),
          GST_VIDEO_FRAME_COMP_STRIDE(&f, c), GST_VIDEO_FRAME_COMP_WIDTH(&f, c),
          GST_VIDEO_FRAME_COMP_HEIGHT(&f, c), 1};
}

void add(Score* s, GstSample* ref, GstSample* test) {
  GstVideoInfo ri, ti;
  ASSERT_TRUE(gst_video_info_from_caps(&ri, gst_sample_get_caps(ref)));
  ASSERT_TRUE(gst_video_info_from_caps(&ti, gst_sample_get_caps(test)));
  ASSERT_EQ(GST_VIDEO_INFO_FORMAT(&ri), GST_VIDEO_FORMAT_I420);
  ASSERT_EQ(GST_VIDEO_INFO_FORMAT(&ti), GST_VIDEO_FORMAT_I420);
  GstVideoFrame rf, tf;
  ASSERT_TRUE(
      gst_video_frame_map(&rf, &ri, gst_sample_get_buffer(ref), GST_MAP_READ));
  ASSERT_TRUE(
      gst_video_frame_map(&tf, &ti, gst_sample_get_buffer(test), GST_MAP_READ));
  for (int c = 0; c < 3; c++) {
    const daedalus::ConstPlane a = plane(rf, c), b = plane(tf, c);
    EXPECT_EQ(a.width, b.width);
    EXPECT_EQ(a.height, b.height);
    s->sse += daedalus::sum_squared_error(a, b);
    s->samples += uint64_t(a.width) * a.height;
  }
  gst_video_frame_unmap(&tf);
  gst_video_frame_unmap(&rf);
}

struct Result {
  Score damaged, filtered;
};

// Runs the source through `damage` (a description of elements ending in
// I420, or "" for none) and then `filters`; scores both against the source.
// Returns false (and fails the test) when the pipeline cannot run.
bool run(const std::string& damage, const std::string& filters, Result* r) {
  const std::string d = damage.empty() ? "" : damage + " ! ";
  const std::string desc =
      "videotestsrc pattern=zone-plate kx2=20 ky2=20 kt=1 num-buffers=" +
      std::to_string(kFrames) +
      " ! video/x-raw,format=I420,width=" + std::to_string(kWidth) +
      ",height=" + std::to_string(kHeight) +
      ",framerate=30/1 ! tee name=s "
      "s. ! queue ! appsink name=source sync=false "
      "s. ! queue ! " +
      d +
      "tee name=d "
      "d. ! queue ! appsink name=damaged sync=false "
      "d. ! queue ! " +
      filters + " ! appsink name=filtered sync=false";
  GError* err = nullptr;
  GstElement* pipeline = gst_parse_launch(desc.c_str(), &err);
  if (err) {
    ADD_FAILURE() << desc << ": " << err->message;
    g_error_free(err);
    if (pipeline) gst_object_unref(pipeline);
    return false;
  }
  const char* names[] = {"source", "damaged", "filtered"};
  GstAppSink* sinks[3];
  for (int i = 0; i < 3; i++)
    sinks[i] = GST_APP_SINK(gst_bin_get_by_name(GST_BIN(pipeline), names[i]));
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  int frames = 0;
  for (bool more = true; more && !testing::Test::HasFatalFailure();) {
    GstSample* s[3];
    for (int i = 0; i < 3; i++) s[i] = gst_app_sink_pull_sample(sinks[i]);
    more = s[0] && s[1] && s[2];
    if (more) {
      add(&r->damaged, s[0], s[1]);
      add(&r->filtered, s[0], s[2]);
      frames++;
    }
    for (GstSample* x : s)
      if (x) gst_sample_unref(x);
  }
  GstBus* bus = gst_element_get_bus(pipeline);
  GstMessage* msg = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  const bool failed = msg != nullptr;
  if (msg) {
    gst_message_parse_error(msg, &err, nullptr);
    ADD_FAILURE() << GST_OBJECT_NAME(GST_MESSAGE_SRC(msg)) << ": "
                  << err->message;
    g_error_free(err);
    gst_message_unref(msg);
  }
  gst_object_unref(bus);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  for (GstAppSink* s : sinks) gst_object_unref(s);
  gst_object_unref(pipeline);
  EXPECT_EQ(frames, kFrames);
  return frames == kFrames && !failed;
}

class Quality : public testing::Test {
 protected:
  void SetUp() override {
    gst_init(nullptr, nullptr);
    for (const char* e :
         {"videotestsrc", "jpegenc", "jpegdec", "videoconvert", "appsink"}) {
      GstElementFactory* f = gst_element_factory_find(e);
      if (!f) GTEST_SKIP() << e << " missing (GStreamer base/good plugins)";
      gst_object_unref(f);
    }
  }
};

// libjpeg quality 10: blocking and ringing on the zone plate's rings.
const char kJpeg[] =
    "jpegenc quality=10 ! jpegdec ! videoconvert ! video/x-raw,format=I420";

// The defaults docs/quality.md recommends, spelled out so that this test
// does not move when the element defaults do.
const char kRecommended[] =
    "daedalusdeblock qp=30 bs=1 block-size=8 ! "
    "daedaluscdef pri-strength=4 sec-strength=0 uv-pri-strength=4 "
    "uv-sec-strength=0 damping=5";

void print(const char* what, const Result& r) {
  std::printf("%s: damaged %.3f dB, deblock + cdef %.3f dB\n", what,
              r.damaged.psnr(), r.filtered.psnr());
}

// Clean content filtered stays above this PSNR (libjpeg at quality 90 gives
// about 45 dB here): no visible change.
constexpr double kCleanMinDb = 45.0;

TEST_F(Quality, RecommendedSettingsImproveJpegDamageAndSpareCleanContent) {
  Result r, clean;
  ASSERT_TRUE(run(kJpeg, kRecommended, &r));
  ASSERT_TRUE(run("", kRecommended, &clean));
  print("recommended", r);
  std::printf("recommended on clean content: %.3f dB\n", clean.filtered.psnr());
  EXPECT_GT(r.damaged.psnr(), 25.0) << "the damage is not what it should be";
  EXPECT_GT(r.filtered.psnr(), r.damaged.psnr() + 0.3);
  EXPECT_GT(clean.filtered.psnr(), kCleanMinDb);
}

// Heavy damage takes stronger settings, and gains more from them.
TEST_F(Quality, StrongSettingsImproveJpegDamageMore) {
  Result weak, strong;
  ASSERT_TRUE(run(kJpeg, kRecommended, &weak));
  ASSERT_TRUE(run(kJpeg,
                  "daedalusdeblock qp=42 bs=1 block-size=8 ! "
                  "daedaluscdef pri-strength=12 sec-strength=2 "
                  "uv-pri-strength=12 uv-sec-strength=2 damping=6",
                  &strong));
  print("strong", strong);
  EXPECT_GT(strong.filtered.psnr(), weak.filtered.psnr() + 0.3);
}

// At their defaults the elements estimate the damage themselves (auto
// strength): JPEG damage gains more than at the fixed settings above (+0.5
// dB), and clean content comes through bit for bit.
TEST_F(Quality, ElementDefaultsCleanJpegDamageAndPassCleanContent) {
  Result damaged, clean;
  ASSERT_TRUE(run(kJpeg, "daedalusdeblock ! daedaluscdef", &damaged));
  ASSERT_TRUE(run("", "daedalusdeblock ! daedaluscdef", &clean));
  print("element defaults", damaged);
  std::printf("element defaults on clean content: %.3f dB\n",
              clean.filtered.psnr());
  EXPECT_GT(damaged.filtered.psnr(), damaged.damaged.psnr() + 1.0);
  EXPECT_EQ(clean.filtered.sse, 0u);
}

}  // namespace
