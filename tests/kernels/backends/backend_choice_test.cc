// The backend trial and choice: with fake backends on a fake clock the
// figures and the decision are exact; with the real scalar backend the trial
// gives every call fresh input.
#include "daedalus/backend_choice.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>

#include "daedalus/frame_jobs.h"
#include "test_util.h"

namespace daedalus {
namespace {

// A clock that moves only when a fake backend works.
struct FakeClock {
  double now = 1000;
};

// A backend whose every frame call takes `ms` on the fake clock, or fails
// after `good_frames` calls.
class FakeBackend final : public Backend {
 public:
  FakeBackend(BackendKind kind, double ms, FakeClock* clock, int good_frames,
              double first_ms)
      : kind_(kind),
        ms_(ms),
        clock_(clock),
        good_(good_frames),
        first_ms_(first_ms) {}
  BackendKind kind() const override { return kind_; }
  int calls = 0;

 private:
  Status do_deblock(const Frame&, const DeblockParams&) override {
    return work();
  }
  Status do_cdef(const Frame&, const ConstFrame&, const CdefParams&) override {
    return work();
  }
  Status do_mc(const Frame&, const ConstFrame&, const McParams&) override {
    return work();
  }
  Status work() {
    if (calls >= good_) return Status::error("device lost");
    clock_->now += calls++ ? ms_ : first_ms_;
    return Status::ok();
  }
  BackendKind kind_;
  double ms_;
  FakeClock* clock_;
  int good_;
  double first_ms_;
};

// Per kind: ms per frame (< 0: unavailable) and how many calls succeed.
struct FakeMachine {
  FakeClock clock;
  std::map<BackendKind, double> ms;
  std::map<BackendKind, int> good;
  std::map<BackendKind, double> first;  // the first call's ms, if different
  std::map<BackendKind, BackendOptions> created_with;
  double create_ms = 0;  // what creating a backend costs

  TrialSeams seams() {
    TrialSeams s;
    s.now_ms = [this] { return clock.now; };
    s.create = [this](BackendKind kind, const BackendOptions& options)
        -> Result<std::unique_ptr<Backend>> {
      clock.now += create_ms;
      created_with[kind] = options;
      auto it = ms.find(kind);
      if (it == ms.end() || it->second < 0)
        return Status::error("not on this machine");
      double t = it->second;
      // The fake hybrid's time follows its split, like a real one's would.
      if (kind == BackendKind::Hybrid)
        t = std::max(ms[BackendKind::Cpu] * (1 - options.gpu_share),
                     ms[BackendKind::Gpu] * options.gpu_share) +
            it->second;
      const int good_frames = good.count(kind) ? good[kind] : 1 << 30;
      const double first_ms = first.count(kind) ? first[kind] : t;
      return std::make_unique<FakeBackend>(kind, t, &clock, good_frames,
                                           first_ms);
    };
    return s;
  }
};

TrialSpec small_spec(double budget_ms) {
  TrialSpec spec;
  spec.format = PixelFormat::I420;
  spec.width = 16;
  spec.height = 8;
  spec.budget_ms = budget_ms;
  return spec;
}

const BackendFigure& figure(const std::vector<TrialCandidate>& trial,
                            BackendKind kind) {
  for (const TrialCandidate& c : trial)
    if (c.figure.kind == kind) return c.figure;
  ADD_FAILURE() << "no figure for " << backend_name(kind);
  return trial.front().figure;
}

std::vector<BackendFigure> figures(const std::vector<TrialCandidate>& trial) {
  std::vector<BackendFigure> out;
  for (const TrialCandidate& c : trial) out.push_back(c.figure);
  return out;
}

TEST(Trial, MeasuresEveryBackendAndSplitsHybridRowsByThroughput) {
  FakeMachine m;
  m.ms = {{BackendKind::Cpu, 3.0},
          {BackendKind::Gpu, 1.0},
          {BackendKind::Hybrid, 0.1}};
  const auto trial = run_trial(cdef_job({}), small_spec(60), m.seams());
  ASSERT_EQ(trial.size(), 3u);
  EXPECT_DOUBLE_EQ(figure(trial, BackendKind::Cpu).ms, 3.0);
  EXPECT_DOUBLE_EQ(figure(trial, BackendKind::Gpu).ms, 1.0);
  // GPU share = cpu / (cpu + gpu) = 0.75: 3 * 0.25 = 1 * 0.75 = 0.75 ms.
  EXPECT_DOUBLE_EQ(m.created_with[BackendKind::Hybrid].gpu_share, 0.75);
  EXPECT_DOUBLE_EQ(figure(trial, BackendKind::Hybrid).gpu_share, 0.75);
  EXPECT_NEAR(figure(trial, BackendKind::Hybrid).ms, 0.85, 1e-9);
  for (const TrialCandidate& c : trial) EXPECT_NE(c.backend, nullptr);

  const std::vector<BackendFigure> f = figures(trial);
  EXPECT_EQ(f[choose_figure(f, {})].kind, BackendKind::Hybrid);
}

TEST(Trial, StaysWithinItsBudgetButTimesEveryBackendAtLeastOnce) {
  FakeMachine m;
  m.ms = {{BackendKind::Cpu, 2.0},
          {BackendKind::Gpu, 5.0},
          {BackendKind::Hybrid, 0}};
  const double start = m.clock.now;
  const auto trial = run_trial(mc_job({}), small_spec(60), m.seams());
  // A third of 60 ms each: the cpu's warm-up and 9 timed calls fill its
  // 20 ms, the gpu's warm-up and 3 calls its 20 ms, the hybrid the rest.
  EXPECT_EQ(figure(trial, BackendKind::Cpu).frames, 9);
  EXPECT_EQ(figure(trial, BackendKind::Gpu).frames, 3);
  EXPECT_GT(figure(trial, BackendKind::Hybrid).frames, 5);
  EXPECT_LE(m.clock.now - start, 60 + 2);

  FakeMachine slow;
  slow.ms = {{BackendKind::Cpu, 50.0},
             {BackendKind::Gpu, 70.0},
             {BackendKind::Hybrid, 0}};
  const auto tiny = run_trial(mc_job({}), small_spec(10), slow.seams());
  for (const TrialCandidate& c : tiny) EXPECT_EQ(c.figure.frames, 1);
}

TEST(Trial, ASlowFirstCallStillLeavesThreeTimedCalls) {
  FakeMachine m;
  m.ms = {{BackendKind::Cpu, 1.0},
          {BackendKind::Gpu, 1.0},
          {BackendKind::Hybrid, 0}};
  m.first = {{BackendKind::Gpu, 25.0}};  // compiling pipelines
  const auto trial = run_trial(mc_job({}), small_spec(60), m.seams());
  // The gpu starts at 20 ms with 20 ms to spend; its warm-up alone takes 25.
  EXPECT_EQ(figure(trial, BackendKind::Gpu).frames, 3);
  EXPECT_DOUBLE_EQ(figure(trial, BackendKind::Gpu).ms, 1.0);
}

TEST(Trial, CountsBackendCreationAgainstTheBudget) {
  FakeMachine m;
  m.ms = {{BackendKind::Cpu, 1.0},
          {BackendKind::Gpu, 1.0},
          {BackendKind::Hybrid, 0}};
  m.create_ms = 40;
  const auto trial = run_trial(mc_job({}), small_spec(60), m.seams());
  // The cpu exists at 40 ms: a third of the 20 ms left, 7 ms, takes its
  // warm-up and 6 calls. The gpu exists at 87 ms, past the budget: one call.
  EXPECT_EQ(figure(trial, BackendKind::Cpu).frames, 6);
  EXPECT_EQ(figure(trial, BackendKind::Gpu).frames, 1);
}

TEST(Trial, WithoutAGpuMeasuresTheCpuAloneAndSaysWhyNotTheRest) {
  FakeMachine m;
  m.ms = {{BackendKind::Cpu, 2.0}};
  const auto trial = run_trial(deblock_job({}), small_spec(30), m.seams());
  ASSERT_EQ(trial.size(), 3u);
  EXPECT_TRUE(figure(trial, BackendKind::Cpu).measured());
  EXPECT_EQ(figure(trial, BackendKind::Gpu).why_not.message(),
            "not on this machine");
  EXPECT_FALSE(figure(trial, BackendKind::Hybrid).measured());
  EXPECT_FALSE(figure(trial, BackendKind::Hybrid).why_not.message().empty());
  EXPECT_EQ(m.created_with.count(BackendKind::Hybrid), 0u);
}

TEST(Trial, FallsBackToScalarWhenThereIsNoCpuBackend) {
  FakeMachine m;
  m.ms = {{BackendKind::Scalar, 9.0}};
  TrialSpec spec = small_spec(30);
  spec.gpu = false;
  const auto trial = run_trial(cdef_job({}), spec, m.seams());
  ASSERT_EQ(trial.size(), 2u);
  EXPECT_EQ(trial[0].figure.kind, BackendKind::Scalar);
  EXPECT_DOUBLE_EQ(trial[0].figure.ms, 9.0);
  EXPECT_EQ(trial[1].figure.kind, BackendKind::Cpu);
  EXPECT_FALSE(trial[1].figure.measured());
}

TEST(Trial, ABackendFailingInTheTrialIsNotOffered) {
  FakeMachine m;
  m.ms = {{BackendKind::Cpu, 3.0},
          {BackendKind::Gpu, 1.0},
          {BackendKind::Hybrid, 0}};
  m.good = {{BackendKind::Gpu, 2}};  // warm-up and one timed call
  const auto trial = run_trial(cdef_job({}), small_spec(60), m.seams());
  const BackendFigure& gpu = figure(trial, BackendKind::Gpu);
  EXPECT_FALSE(gpu.measured());
  EXPECT_NE(gpu.why_not.message().find("device lost"), std::string::npos)
      << gpu.why_not.message();
  for (const TrialCandidate& c : trial) {
    if (c.figure.kind != BackendKind::Cpu) {
      EXPECT_EQ(c.backend, nullptr);
    }
  }
  const std::vector<BackendFigure> f = figures(trial);
  EXPECT_EQ(f[choose_figure(f, {})].kind, BackendKind::Cpu);
}

TEST(Trial, GivesAnInPlaceJobFreshInputEveryCall) {
  auto scalar = create_backend(BackendKind::Scalar);
  ASSERT_TRUE(scalar) << scalar.status().message();
  // Every call must see the first call's input: record it, then compare.
  std::vector<uint8_t> first;
  int calls = 0, stale = 0;
  FrameJob job = deblock_job({});
  const auto filter = job.run;
  job.run = [&](Backend& b, const Frame& dst, const ConstFrame& src) {
    std::vector<uint8_t> seen(
        dst.planes[0].data,
        dst.planes[0].data + dst.planes[0].stride * dst.planes[0].height);
    if (calls++ == 0) first = seen;
    stale += seen != first;
    return filter(b, dst, src);
  };
  TrialSpec spec = small_spec(5);
  spec.gpu = false;
  spec.width = 64;
  spec.height = 48;
  TrialSeams seams;
  seams.create = [&](BackendKind, const BackendOptions& o) {
    return create_backend(BackendKind::Scalar, o);
  };
  const auto trial = run_trial(job, spec, seams);
  EXPECT_TRUE(trial[0].figure.measured());
  EXPECT_GE(calls, 2);
  EXPECT_EQ(stale, 0);
}

TEST(Choice, TakesTheFastestWhenNothingElseRuns) {
  std::vector<BackendFigure> f(3);
  f[0].kind = BackendKind::Cpu, f[0].ms = 2.0;
  f[1].kind = BackendKind::Gpu, f[1].ms = 1.5;
  f[2].kind = BackendKind::Hybrid;  // not measured
  EXPECT_EQ(choose_figure(f, {}), 1);
  f[1].ms = 2.5;
  EXPECT_EQ(choose_figure(f, {}), 0);
  EXPECT_EQ(choose_figure({}, {}), -1);
}

// The Pi's case: CDEF keeps the cores busy, so deblock, faster on the CPU
// alone, goes to the idle GPU.
TEST(Choice, SendsAnElementToTheIdleResource) {
  std::vector<BackendFigure> f(3);
  f[0].kind = BackendKind::Cpu, f[0].ms = 1.4;
  f[1].kind = BackendKind::Gpu, f[1].ms = 3.0;
  f[2].kind = BackendKind::Hybrid, f[2].ms = 1.2;
  EXPECT_EQ(choose_figure(f, {}), 2);
  EXPECT_EQ(choose_figure(f, {10.0, 0.0}), 1);  // max(10, 3) < max(11.4, 0)
  EXPECT_EQ(choose_figure(f, {0.0, 10.0}), 0);
  // Equal peaks: the faster one.
  EXPECT_EQ(choose_figure(f, {10.0, 10.0}), 2);
}

TEST(Choice, LoadsFollowWhereABackendWorks) {
  BackendFigure f;
  f.ms = 2;
  f.kind = BackendKind::Scalar;
  EXPECT_DOUBLE_EQ(load_of(f).cpu_ms, 2);
  EXPECT_DOUBLE_EQ(load_of(f).gpu_ms, 0);
  f.kind = BackendKind::Gpu;
  EXPECT_DOUBLE_EQ(load_of(f).cpu_ms, 0);
  EXPECT_DOUBLE_EQ(load_of(f).gpu_ms, 2);
  f.kind = BackendKind::Hybrid;
  EXPECT_DOUBLE_EQ(load_of(f).cpu_ms, 2);
  EXPECT_DOUBLE_EQ(load_of(f).gpu_ms, 2);
}

TEST(Placements, SumWhatTheOtherOwnersPut) {
  Placements record;
  Placement a(record), b(record);
  auto c = std::make_unique<Placement>(record);
  a.place({1, 0});
  b.place({0, 2});
  c->place({4, 4});
  EXPECT_DOUBLE_EQ(a.others().cpu_ms, 4);
  EXPECT_DOUBLE_EQ(a.others().gpu_ms, 6);
  c->place({8, 0});  // moved
  b.clear();
  EXPECT_DOUBLE_EQ(a.others().cpu_ms, 8);
  EXPECT_DOUBLE_EQ(a.others().gpu_ms, 0);
  EXPECT_DOUBLE_EQ(b.others().cpu_ms, 9);
  c.reset();  // its owner is gone: so is its load
  EXPECT_DOUBLE_EQ(a.others().cpu_ms, 0);
  EXPECT_DOUBLE_EQ(b.others().cpu_ms, 1);
  // Another record knows none of them.
  Placement elsewhere;
  elsewhere.place({100, 100});
  EXPECT_DOUBLE_EQ(Placement(record).others().cpu_ms, 1);
  EXPECT_DOUBLE_EQ(Placement(record).others().gpu_ms, 0);
}

TEST(FrameJobs, CostKeysNameWhatChangesTheWork) {
  DeblockParams d;
  const std::string base = deblock_job(d).cost_key;
  d.qp = 45;
  EXPECT_EQ(deblock_job(d).cost_key, base);  // thresholds only
  d.bs = 4;
  EXPECT_NE(deblock_job(d).cost_key, base);
  d.bs = 2;
  d.block_size = 4;
  EXPECT_NE(deblock_job(d).cost_key, base);
  EXPECT_TRUE(deblock_job(d).in_place);
  // mode=vp9: the mode and the width (the block size), not the level.
  DeblockParams v;
  v.mode = DeblockMode::Vp9;
  const std::string vp9 = deblock_job(v).cost_key;
  EXPECT_NE(vp9, deblock_job(DeblockParams{}).cost_key);
  v.filter_level = 63;
  v.sharpness = 7;
  v.bs = 4;
  EXPECT_EQ(deblock_job(v).cost_key, vp9);
  v.block_size = 16;
  EXPECT_NE(deblock_job(v).cost_key, vp9);

  CdefParams c;
  c.sec_strength = 1;
  const std::string cdef = cdef_job(c).cost_key;
  c.sec_strength = 2;
  c.damping = 6;
  EXPECT_EQ(cdef_job(c).cost_key, cdef);
  c.sec_strength = 0;
  EXPECT_NE(cdef_job(c).cost_key, cdef);
  EXPECT_FALSE(cdef_job(c).in_place);

  McParams m;
  m.dx = 1;  // integer on luma, half a sample on 4:2:0 chroma
  const std::string mc = mc_job(m).cost_key;
  m.dx = 2;  // integer on both
  EXPECT_NE(mc_job(m).cost_key, mc);
  m.filter = McFilter::Sharp;
  EXPECT_NE(mc_job(m).cost_key, mc_job({}).cost_key);
}

}  // namespace
}  // namespace daedalus
