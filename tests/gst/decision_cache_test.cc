// The decision cache behind backend=auto: what a trial stored comes back
// exactly, so that a cache hit makes the choice the trial made.
#include <glib.h>
#include <glib/gstdio.h>
#include <gtest/gtest.h>

#include <string>

#include "gstdaedalusdecisioncache.h"

namespace {

using daedalus::BackendFigure;
using daedalus::BackendKind;

class DecisionCache : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = g_dir_make_tmp("daedalus-cache-XXXXXX", nullptr);
    ASSERT_NE(dir_, nullptr);
    g_setenv("XDG_CACHE_HOME", dir_, TRUE);
    key_.element = "daedaluscdef";
    key_.format = "I420";
    key_.width = 1920;
    key_.height = 1080;
    key_.cost_key = "pri=4";
    key_.cpu = "a test CPU";
    key_.threads = 2;
    key_.gpu = "a test GPU";
    key_.library = "0";
  }
  void TearDown() override {
    const std::string path = gst_daedalus_decision_cache_path();
    g_remove(path.c_str());
    gchar* sub = g_path_get_dirname(path.c_str());
    g_rmdir(sub);
    g_free(sub);
    g_rmdir(dir_);
    g_free(dir_);
  }

  static BackendFigure figure(BackendKind kind, double ms) {
    BackendFigure f;
    f.kind = kind;
    f.ms = ms;
    f.frames = 3;
    return f;
  }

  gchar* dir_ = nullptr;
  GstDaedalusDecisionKey key_;
};

// Figures that agree to three decimals (the old file's precision) but not
// beyond: the faster one must still win after a store and a lookup.
TEST_F(DecisionCache, NearTieSurvivesTheRoundTrip) {
  GstDaedalusDecision stored;
  stored.figures = {figure(BackendKind::Cpu, 0.1234567),
                    figure(BackendKind::Gpu, 0.9),
                    figure(BackendKind::Hybrid, 0.1234561)};
  stored.figures[2].gpu_share = 0.1 + 0.2;  // a double with no short form
  stored.gpu_share = stored.figures[2].gpu_share;
  stored.backend = BackendKind::Hybrid;
  const int trial_pick = daedalus::choose_figure(stored.figures, {});
  ASSERT_EQ(stored.figures[trial_pick].kind, BackendKind::Hybrid);

  const daedalus::Status s = gst_daedalus_decision_cache_store(key_, stored);
  ASSERT_TRUE(s) << s.message();
  GstDaedalusDecision loaded;
  ASSERT_TRUE(gst_daedalus_decision_cache_lookup(key_, &loaded));

  EXPECT_EQ(loaded.backend, stored.backend);
  EXPECT_EQ(loaded.gpu_share, stored.gpu_share);
  ASSERT_EQ(loaded.figures.size(), stored.figures.size());
  for (size_t i = 0; i < stored.figures.size(); i++) {
    EXPECT_EQ(loaded.figures[i].kind, stored.figures[i].kind);
    EXPECT_EQ(loaded.figures[i].ms, stored.figures[i].ms) << i;
  }
  EXPECT_EQ(loaded.figures[trial_pick].gpu_share, stored.gpu_share);
  // With other elements placed too, the hit still weighs the same numbers.
  for (const daedalus::Load others :
       {daedalus::Load{}, daedalus::Load{0.5, 0}, daedalus::Load{0, 0.5}})
    EXPECT_EQ(daedalus::choose_figure(loaded.figures, others),
              daedalus::choose_figure(stored.figures, others));
}

// A backend the trial could not measure comes back with its reason.
TEST_F(DecisionCache, NotMeasuredKeepsItsReason) {
  GstDaedalusDecision stored;
  stored.figures = {figure(BackendKind::Cpu, 2.5),
                    figure(BackendKind::Gpu, -1)};
  stored.figures[1].why_not = daedalus::Status::error("no device");
  ASSERT_TRUE(gst_daedalus_decision_cache_store(key_, stored));
  GstDaedalusDecision loaded;
  ASSERT_TRUE(gst_daedalus_decision_cache_lookup(key_, &loaded));
  ASSERT_EQ(loaded.figures.size(), 2u);
  EXPECT_EQ(loaded.figures[0].ms, 2.5);
  EXPECT_FALSE(loaded.figures[1].measured());
  EXPECT_EQ(loaded.figures[1].why_not.message(), "no device");
}

// Another machine's entry is a miss.
TEST_F(DecisionCache, AnotherMachineMisses) {
  GstDaedalusDecision stored;
  stored.figures = {figure(BackendKind::Cpu, 1)};
  ASSERT_TRUE(gst_daedalus_decision_cache_store(key_, stored));
  GstDaedalusDecisionKey elsewhere = key_;
  elsewhere.cpu = "another CPU";
  GstDaedalusDecision loaded;
  EXPECT_FALSE(gst_daedalus_decision_cache_lookup(elsewhere, &loaded));
  EXPECT_TRUE(gst_daedalus_decision_cache_lookup(key_, &loaded));
}

// A decision for one bit depth is not one for another: the backends that
// compute a kernel, and their speeds, differ.
TEST_F(DecisionCache, AnotherBitDepthMisses) {
  GstDaedalusDecision stored;
  stored.figures = {figure(BackendKind::Cpu, 1)};
  ASSERT_TRUE(gst_daedalus_decision_cache_store(key_, stored));
  GstDaedalusDecisionKey deeper = key_;
  deeper.bit_depth = 10;
  GstDaedalusDecision loaded;
  EXPECT_FALSE(gst_daedalus_decision_cache_lookup(deeper, &loaded));
  EXPECT_TRUE(gst_daedalus_decision_cache_lookup(key_, &loaded));
}

}  // namespace
