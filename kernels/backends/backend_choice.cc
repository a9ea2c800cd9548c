#include "daedalus/backend_choice.h"

#include <algorithm>
#include <chrono>
#include <random>

namespace daedalus {
namespace {

constexpr int kMaxTimedCalls = 15;
// Timed calls a backend gets, budget permitting, even past its share: one
// call after the warm-up can still be paying for a first use.
constexpr int kMinTimedCalls = 3;

double steady_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch())
      .count();
}

// Something like decoded video for the kernels' data-dependent paths: a
// gradient with 8x8 block offsets (edges for deblock to filter) and noise
// (ringing for CDEF), the same for every trial.
void fill_trial_frame(Image& image) {
  std::mt19937 gen(1);
  std::uniform_int_distribution<int> noise(-6, 6), offset(-4, 4);
  std::vector<int> block_offset(64);
  for (int& o : block_offset) o = offset(gen);
  const Frame f = image.frame();
  for (int p = 0; p < f.num_planes; p++) {
    const Plane& plane = f.planes[p];
    for (int y = 0; y < plane.height; y++) {
      for (int x = 0; x < plane.width; x++) {
        const int v = 64 + (x + 2 * y) % 128 +
                      block_offset[((y >> 3) & 7) * 8 + ((x >> 3) & 7)] +
                      noise(gen);
        // The same picture at every depth.
        set_value_at(plane, x, y,
                     std::clamp(v, 0, 255) << (plane.bit_depth - 8));
      }
    }
  }
}

class TrialRunner {
 public:
  TrialRunner(const FrameJob& job, const TrialSpec& spec,
              const TrialSeams& seams)
      : job_(job),
        spec_(spec),
        seams_(seams),
        now_(seams.now_ms ? seams.now_ms : steady_ms),
        src_(spec.format, spec.width, spec.height),
        dst_(spec.format, spec.width, spec.height),
        start_(now_()) {
    fill_trial_frame(src_);
    dst_ = src_;
  }

  // Creates and measures one backend, given `left` candidates still to go
  // (this one included).
  TrialCandidate measure(BackendKind kind, const BackendOptions& options,
                         int left) {
    TrialCandidate c;
    c.figure.kind = kind;
    c.figure.gpu_share = kind == BackendKind::Hybrid ? options.gpu_share : 0;
    const int depth = src_.frame().bit_depth();
    if (!backend_computes(kind, job_.kernel, depth)) {
      c.figure.why_not = Status::error(
          "it does not compute " + std::string(kernel_name(job_.kernel)) +
          " on " + std::to_string(depth) + "-bit video yet");
      return c;
    }
    Result<std::unique_ptr<Backend>> created = seams_.create(kind, options);
    if (!created) {
      c.figure.why_not = created.status();
      return c;
    }
    c.backend = std::move(created).value();
    // Creation (a device, for the gpu) counts against the budget, and so
    // shortens every share still to come.
    const double t0 = now_();
    const double slice =
        std::max(0.0, spec_.budget_ms - (t0 - start_)) / std::max(left, 1);

    std::vector<double> samples;
    Status s = call(*c.backend);  // warm-up: compiles pipelines, fills caches
    const auto more = [&] {
      const int n = int(samples.size());
      const double now = now_();
      return n == 0 || (n < kMaxTimedCalls && now - t0 < slice) ||
             (n < kMinTimedCalls && now - start_ < spec_.budget_ms);
    };
    while (s && more()) {
      const double t = now_();
      s = call(*c.backend);
      samples.push_back(now_() - t);
    }
    if (!s) {
      c.figure.why_not = Status::error("failed in the trial: " + s.message());
      c.backend.reset();
      return c;
    }
    std::sort(samples.begin(), samples.end());
    c.figure.ms = samples[samples.size() / 2];
    c.figure.frames = int(samples.size());
    return c;
  }

 private:
  Status call(Backend& backend) {
    if (job_.in_place) {
      dst_.bytes() = src_.bytes();
      return job_.run(backend, dst_.frame(), dst_.frame());
    }
    return job_.run(backend, dst_.frame(), src_.frame());
  }

  const FrameJob& job_;
  const TrialSpec& spec_;
  const TrialSeams& seams_;
  std::function<double()> now_;
  Image src_, dst_;
  double start_;
};

}  // namespace

std::vector<TrialCandidate> run_trial(const FrameJob& job,
                                      const TrialSpec& spec,
                                      const TrialSeams& seams) {
  TrialRunner runner(job, spec, seams);
  BackendOptions options;
  options.threads = spec.threads;
  int left = spec.gpu ? 3 : 1;

  std::vector<TrialCandidate> out;
  out.push_back(runner.measure(BackendKind::Cpu, options, left--));
  if (!out.back().backend) {
    BackendFigure cpu = out.back().figure;
    out.back() = runner.measure(BackendKind::Scalar, options, left + 1);
    out.push_back({cpu, nullptr});
  }
  if (!spec.gpu) return out;

  const BackendFigure cpu = out.front().figure;
  out.push_back(runner.measure(BackendKind::Gpu, options, left--));
  const BackendFigure gpu = out.back().figure;
  if (cpu.kind != BackendKind::Cpu || !cpu.measured() || !gpu.measured()) {
    BackendFigure hybrid;
    hybrid.kind = BackendKind::Hybrid;
    hybrid.why_not =
        Status::error("the hybrid backend needs both the cpu and the gpu one");
    out.push_back({hybrid, nullptr});
    return out;
  }
  options.gpu_share = hybrid_gpu_share(cpu.ms, gpu.ms);
  out.push_back(runner.measure(BackendKind::Hybrid, options, left));
  return out;
}

double hybrid_gpu_share(double cpu_ms, double gpu_ms) {
  return cpu_ms / (cpu_ms + gpu_ms);
}

Load load_of(const BackendFigure& figure) {
  switch (figure.kind) {
    case BackendKind::Scalar:
    case BackendKind::Cpu:
      return {figure.ms, 0};
    case BackendKind::Gpu:
      return {0, figure.ms};
    case BackendKind::Hybrid:
      return {figure.ms, figure.ms};
  }
  return {};
}

int choose_figure(const std::vector<BackendFigure>& figures,
                  const Load& others) {
  int best = -1;
  double best_peak = 0;
  for (int i = 0; i < int(figures.size()); i++) {
    const BackendFigure& f = figures[i];
    if (!f.measured()) continue;
    const Load own = load_of(f);
    const double peak =
        std::max(others.cpu_ms + own.cpu_ms, others.gpu_ms + own.gpu_ms);
    if (best < 0 || peak < best_peak ||
        (peak == best_peak && f.ms < figures[best].ms)) {
      best = i;
      best_peak = peak;
    }
  }
  return best;
}

Placements& Placements::process() {
  static Placements placements;
  return placements;
}

uint64_t Placements::add() {
  std::lock_guard<std::mutex> lock(mutex_);
  const uint64_t id = next_id_++;
  placed_.emplace_back(id, Load{});
  return id;
}

void Placements::set(uint64_t id, const Load& load) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& p : placed_)
    if (p.first == id) p.second = load;
}

void Placements::clear(uint64_t id) { set(id, {}); }

Load Placements::others(uint64_t id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  Load sum;
  for (const auto& p : placed_) {
    if (p.first == id) continue;
    sum.cpu_ms += p.second.cpu_ms;
    sum.gpu_ms += p.second.gpu_ms;
  }
  return sum;
}

Placement::Placement(Placements& record) : record_(record), id_(record.add()) {}

Placement::~Placement() {
  std::lock_guard<std::mutex> lock(record_.mutex_);
  std::erase_if(record_.placed_, [&](const auto& p) { return p.first == id_; });
}

}  // namespace daedalus
