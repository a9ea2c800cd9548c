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
  // concurrent callers are serialised.
  void run(int count, const std::function<void(int)>& task);

  // The number of threads "0 = all cores" means on this machine.
  static int hardware_threads();

 private:
  void worker_loop();
  void drain();  // takes and runs task indices until none is left

  std::vector<std::thread> workers_;
  std::mutex run_mutex_;  // one run() at a time

  // Written under mutex_; generation_, finished_ and stopping_ are also read
  // without it while spinning.
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(int)>* task_ = nullptr;
  int count_ = 0;
  int next_ = 0;
  std::atomic<int> finished_{0};
  std::atomic<uint64_t> generation_{0};
  std::atomic<bool> stopping_{false};
};

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
