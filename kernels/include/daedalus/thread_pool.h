// A small fork-join pool: a frame's bands run on the pool's workers and on
// the calling thread, and run() returns when every band is done. Workers
// and the caller spin briefly before sleeping: a frame of a fast kernel
// takes a few hundred microseconds, a futex wake-up tens of them.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

namespace daedalus {

class ThreadPool {
 public:
  // `threads` >= 1 counts the calling thread: 1 means no worker at all.
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int threads() const { return int(workers_.size()) + 1; }

  // Calls task(i) once for every i in [0, count), spread over the pool, and
  // returns when all calls have returned. One run() at a time per pool;
  // concurrent callers are serialised. Tasks start in index order, each run
  // to its end by the thread that took it, so task i may wait for task j < i
  // to make progress (deblock's bands do): j has started and is running.
  void run(int count, const std::function<void(int)>& task);

  // The number of threads "0 = all cores" means on this machine.
  static int hardware_threads();

 private:
  void worker_loop();
  // Claims and runs task indices of run `generation` until none is left.
  void drain(uint32_t generation);

  std::vector<std::thread> workers_;
  std::mutex run_mutex_;  // one run() at a time

  // A run's tasks are claimed by compare-and-swap on `claims_`: the run's
  // generation in the high 32 bits, the next index in the low ones, so a
  // thread still holding the previous run's value can claim nothing. Locks
  // only for sleeping: taking one per task made two threads fight over it,
  // and each fight is a system call.
  std::atomic<uint64_t> claims_{0};
  std::atomic<const std::function<void(int)>*> task_{nullptr};
  std::atomic<int> count_{0};
  std::atomic<int> finished_{0};
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;  // guards sleeping on wake_ and done_
  std::condition_variable wake_;
  std::condition_variable done_;
};

// Calls task(0 .. count - 1) on `pool`, or in order on the calling thread
// when `pool` is null.
void run_tasks(ThreadPool* pool, int count,
               const std::function<void(int)>& task);

// Splits [0, total) into bands whose inner boundaries are multiples of
// `granule` (two per thread, so an unlucky band cannot hold the others up)
// and calls band(begin, end) for each, on `pool`, or on the calling thread
// when `pool` is null.
void run_bands(ThreadPool* pool, int total, int granule,
               const std::function<void(int, int)>& band);

// The same over several ranges in one run (e.g. the planes of a frame:
// one fork-join per frame rather than per plane): [0, totals[part]) for
// each part, granules counted across all of them, band(part, begin, end)
// called for every piece of a band that falls in a part.
void run_bands(ThreadPool* pool, std::span<const int> totals, int granule,
               const std::function<void(int, int, int)>& band);

}  // namespace daedalus
