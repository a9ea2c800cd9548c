// Choosing a backend by measuring it: the trial behind backend=auto and
// `daedalus-bench --auto`. A trial runs one element's frame call on every
// available backend, on a synthetic frame of the stream's format and size,
// and times everything a real frame pays (for the gpu: the copies into GPU
// memory and back, recording, submission and the wait).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "daedalus/backend.h"
#include "daedalus/backend_capability.h"
#include "daedalus/image.h"

namespace daedalus {

// One element's frame call with its current settings.
struct FrameJob {
  // The settings that change the cost, as "name=value" words; part of the
  // key a decision is cached under.
  std::string cost_key;
  // What it runs: a trial measures only the backends that compute it at
  // the frame's bit depth (backend_computes).
  Kernel kernel = Kernel::DeblockH264;
  bool in_place = false;  // dst is src (deblock): every call needs fresh input
  std::function<Status(Backend&, const Frame& dst, const ConstFrame& src)> run;
};

struct TrialSpec {
  PixelFormat format = PixelFormat::I420;
  int width = 0;
  int height = 0;
  double budget_ms = 200;  // the whole trial, backend creation included
  int threads = 0;         // of the cpu and hybrid backends; 0: every core
  bool gpu = true;         // whether the gpu and hybrid backends take part
};

// What a trial found for one backend.
struct BackendFigure {
  BackendKind kind = BackendKind::Cpu;
  double ms = -1;        // per frame, the median of the timed calls; < 0: none
  int frames = 0;        // timed calls
  double gpu_share = 0;  // hybrid: the GPU's fraction of each plane's rows
  Status why_not;        // not measured: why (unavailable, failed)
  bool measured() const { return ms >= 0; }
};

struct TrialCandidate {
  BackendFigure figure;
  std::unique_ptr<Backend> backend;  // null when not measured
};

// What the trial may be given instead of the real thing (tests).
struct TrialSeams {
  std::function<Result<std::unique_ptr<Backend>>(BackendKind,
                                                 const BackendOptions&)>
      create = create_backend;
  std::function<double()> now_ms;  // a monotonic clock; default steady_clock
};

// Measures the cpu backend (scalar where there is none) and, when
// `spec.gpu`, the gpu backend and then the hybrid one (each only where it
// computes the job's kernel at the format's bit depth; else its figure says
// why not), splitting rows in
// proportion to the other two's speeds. Each gets an equal part of what is
// left of the budget once it exists, and an untimed warm-up call (which
// pays for pipeline compilation); then at least three timed calls while the
// whole budget lasts, and one whatever it costs.
// The hybrid split that makes both sides take about as long: the GPU's
// share of the two throughputs, from each side's ms per whole frame.
double hybrid_gpu_share(double cpu_ms, double gpu_ms);

std::vector<TrialCandidate> run_trial(const FrameJob& job,
                                      const TrialSpec& spec,
                                      const TrialSeams& seams = {});

// Per-frame load that elements already placed put on the CPU cores and on
// the GPU.
struct Load {
  double cpu_ms = 0;
  double gpu_ms = 0;
};

// Where a backend's frame time is spent: the cpu and scalar backends on the
// cores, the gpu on the GPU, the hybrid on both at once.
Load load_of(const BackendFigure& figure);

// The index of the figure to use: the one that leaves the busier of the two
// resources least loaded once `others` is added, so that an element whose
// own fastest backend is taken by other elements goes to the idle one;
// ties go to the faster backend. Streams whose elements run one after the
// other on one thread gain nothing from this; with a queue between them they
// run concurrently and do. -1 when nothing was measured.
int choose_figure(const std::vector<BackendFigure>& figures,
                  const Load& others);

class Placement;

// A record of where elements run, which choose_figure weighs: the process
// has one (process()); tests make their own. Entries are Placements.
class Placements {
 public:
  static Placements& process();

 private:
  friend class Placement;
  uint64_t add();
  void set(uint64_t id, const Load& load);
  void clear(uint64_t id);
  Load others(uint64_t id) const;

  mutable std::mutex mutex_;
  uint64_t next_id_ = 1;
  // Every owner's load; zero while it is not placed.
  std::vector<std::pair<uint64_t, Load>> placed_;
};

// One owner's entry in a Placements record (an element's, say): the key is
// the library's own, so no caller's pointer is kept. It leaves the record
// when it is destroyed. Not copyable; one owner uses it at a time.
class Placement {
 public:
  explicit Placement(Placements& record = Placements::process());
  ~Placement();
  Placement(const Placement&) = delete;
  Placement& operator=(const Placement&) = delete;

  // Where this owner's frames run now; clear(): nowhere.
  void place(const Load& load) { record_.set(id_, load); }
  void clear() { record_.clear(id_); }
  // What everyone else in the record puts on the CPU and the GPU.
  Load others() const { return record_.others(id_); }

 private:
  Placements& record_;
  const uint64_t id_;
};

}  // namespace daedalus
