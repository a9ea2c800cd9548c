#include "daedalus/thread_pool.h"

#include <algorithm>

namespace daedalus {

ThreadPool::ThreadPool(int threads) {
  for (int i = 1; i < threads; i++) workers_.emplace_back([this] { worker_loop(); });
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
  {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = &task;
    count_ = count;
    next_ = 0;
    finished_ = 0;
    generation_++;
  }
  wake_.notify_all();
  drain();
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return finished_ == count_; });
  task_ = nullptr;
}

void ThreadPool::drain() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (task_ && next_ < count_) {
    const int i = next_++;
    const std::function<void(int)>* task = task_;
    lock.unlock();
    (*task)(i);
    lock.lock();
    if (++finished_ == count_) done_.notify_all();
  }
}

void ThreadPool::worker_loop() {
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
    }
    drain();
  }
}

void run_bands(ThreadPool* pool, int total, int granule,
               const std::function<void(int, int)>& band) {
  if (total <= 0) return;
  const int granules = (total + granule - 1) / granule;
  const int bands = pool ? std::min(granules, 2 * pool->threads()) : 1;
  if (bands <= 1) {
    band(0, total);
    return;
  }
  pool->run(bands, [&](int i) {
    const int begin = int(int64_t(granules) * i / bands) * granule;
    const int end = std::min(total, int(int64_t(granules) * (i + 1) / bands) * granule);
    band(begin, end);
  });
}

}  // namespace daedalus
