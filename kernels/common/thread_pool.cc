#include "daedalus/thread_pool.h"

#include <algorithm>
#include <chrono>

namespace daedalus {
namespace {

// How long a thread polls for work (or for the end of a run) before it
// sleeps on a condition variable.
constexpr auto kSpin = std::chrono::microseconds(100);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Polls `ready` for up to kSpin; whether it became true.
template <class Ready>
bool spin_until(Ready ready) {
  const auto deadline = std::chrono::steady_clock::now() + kSpin;
  do {
    for (int i = 0; i < 64; i++) {
      if (ready()) return true;
      cpu_relax();
    }
  } while (std::chrono::steady_clock::now() < deadline);
  return ready();
}

}  // namespace

ThreadPool::ThreadPool(int threads) {
  for (int i = 1; i < threads; i++)
    workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

int ThreadPool::hardware_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n ? int(n) : 1;
}

void ThreadPool::run(int count, const std::function<void(int)>& task) {
  if (count <= 0) return;
  if (workers_.empty() || count == 1) {
    for (int i = 0; i < count; i++) task(i);
    return;
  }
  std::lock_guard<std::mutex> serial(run_mutex_);
  task_.store(&task, std::memory_order_relaxed);
  count_.store(count, std::memory_order_relaxed);
  finished_.store(0, std::memory_order_relaxed);
  const uint32_t generation =
      uint32_t(claims_.load(std::memory_order_relaxed) >> 32) + 1;
  {
    // Under the lock, so a worker about to sleep either sees the new run or
    // is woken.
    std::lock_guard<std::mutex> lock(mutex_);
    claims_.store(uint64_t(generation) << 32, std::memory_order_release);
  }
  wake_.notify_all();
  drain(generation);
  const auto all_done = [&] {
    return finished_.load(std::memory_order_acquire) == count;
  };
  if (!spin_until(all_done)) {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, all_done);
  }
  // Closed before the next run changes count_: a thread that read this run's
  // last claim, (generation, count), and the next run's larger count could
  // otherwise still claim index `count` of this generation.
  claims_.store(uint64_t(generation) << 32 | UINT32_MAX,
                std::memory_order_relaxed);
}

void ThreadPool::drain(uint32_t generation) {
  uint64_t claim = claims_.load(std::memory_order_acquire);
  for (;;) {
    if (uint32_t(claim >> 32) != generation ||
        uint32_t(claim) >= uint32_t(count_.load(std::memory_order_relaxed)))
      return;
    if (!claims_.compare_exchange_weak(claim, claim + 1,
                                       std::memory_order_acq_rel,
                                       std::memory_order_acquire))
      continue;
    // Index `claim` of this run is ours: the run cannot end before it is
    // done, so task_ and count_ are still this run's.
    (*task_.load(std::memory_order_relaxed))(int(uint32_t(claim)));
    if (finished_.fetch_add(1, std::memory_order_acq_rel) + 1 ==
        count_.load(std::memory_order_relaxed)) {
      std::lock_guard<std::mutex> lock(mutex_);
      done_.notify_all();
    }
    claim = claims_.load(std::memory_order_acquire);
  }
}

void ThreadPool::worker_loop() {
  uint32_t seen = 0;
  for (;;) {
    const auto woken = [&] {
      return stopping_.load(std::memory_order_relaxed) ||
             uint32_t(claims_.load(std::memory_order_relaxed) >> 32) != seen;
    };
    if (!spin_until(woken)) {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, woken);
    }
    if (stopping_) return;
    seen = uint32_t(claims_.load(std::memory_order_acquire) >> 32);
    drain(seen);
  }
}

void run_tasks(ThreadPool* pool, int count,
               const std::function<void(int)>& task) {
  if (pool) {
    pool->run(count, task);
    return;
  }
  for (int i = 0; i < count; i++) task(i);
}

void run_bands(ThreadPool* pool, int total, int granule,
               const std::function<void(int, int)>& band) {
  const int totals[] = {total};
  run_bands(pool, totals, granule,
            [&](int, int begin, int end) { band(begin, end); });
}

void run_bands(ThreadPool* pool, std::span<const int> totals, int granule,
               const std::function<void(int, int, int)>& band) {
  // Granule g of the concatenated parts lies in the part whose first
  // granule is the last one <= g.
  std::vector<int> first(totals.size() + 1, 0);
  for (size_t p = 0; p < totals.size(); p++)
    first[p + 1] = first[p] + (std::max(totals[p], 0) + granule - 1) / granule;
  const int granules = first.back();
  if (granules == 0) return;
  const int bands = pool ? std::min(granules, 2 * pool->threads()) : 1;
  const auto run_band = [&](int i) {
    const int g0 = int(int64_t(granules) * i / bands);
    const int g1 = int(int64_t(granules) * (i + 1) / bands);
    for (size_t p = 0; p < totals.size(); p++) {
      const int b = std::max(g0, first[p]), e = std::min(g1, first[p + 1]);
      if (b < e)
        band(int(p), (b - first[p]) * granule,
             std::min(totals[p], (e - first[p]) * granule));
    }
  };
  run_tasks(pool, bands, run_band);
}

}  // namespace daedalus
