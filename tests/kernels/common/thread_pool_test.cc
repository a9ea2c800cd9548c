#include "daedalus/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <vector>

namespace daedalus {
namespace {

TEST(ThreadPool, RunsEveryIndexExactlyOnce) {
  for (int threads : {1, 2, 3, 8}) {
    ThreadPool pool(threads);
    EXPECT_EQ(pool.threads(), threads);
    for (int count : {0, 1, 2, 7, 100}) {
      std::vector<std::atomic<int>> hits(count);
      pool.run(count, [&](int i) { hits[i]++; });
      for (int i = 0; i < count; i++)
        ASSERT_EQ(hits[i].load(), 1) << threads << " threads, index " << i;
    }
  }
}

TEST(ThreadPool, UsesSeveralThreads) {
  ThreadPool pool(4);
  std::mutex m;
  std::set<std::thread::id> ids;
  std::atomic<int> arrived{0};
  // Each task waits (bounded) until four have started: only possible when
  // four threads run tasks at once.
  pool.run(4, [&](int) {
    {
      std::lock_guard<std::mutex> lock(m);
      ids.insert(std::this_thread::get_id());
    }
    arrived++;
    for (int spin = 0; spin < 2000 && arrived.load() < 4; spin++)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  EXPECT_EQ(ids.size(), 4u);
}

// run()'s order: task i starts after task i - 1 has, and may wait for it
// (deblock's bands wait for the band above). Each task waits, bounded, until
// its predecessor has started; a pool that took a later task first, or set
// a started task aside, would leave a wait to run out.
TEST(ThreadPool, TasksStartInIndexOrderAndMayWaitForEarlierOnes) {
  for (int threads : {2, 3, 5}) {
    ThreadPool pool(threads);
    for (int r = 0; r < 20; r++) {
      constexpr int kCount = 40;
      std::vector<std::atomic<bool>> started(kCount);
      std::atomic<int> waits_run_out{0};
      pool.run(kCount, [&](int i) {
        for (int spin = 0; i > 0 && !started[i - 1].load(); spin++) {
          if (spin == 20000) {  // 20 s
            waits_run_out++;
            break;
          }
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        started[i] = true;
      });
      ASSERT_EQ(waits_run_out.load(), 0) << threads << " threads, run " << r;
    }
  }
}

// Runs back to back, of varying sizes: a worker late from one run must not
// claim an index of the next, nor run the next's index with the old task.
TEST(ThreadPool, ManyRunsInARowEachIndexOnce) {
  for (int threads : {2, 3, 5}) {
    ThreadPool pool(threads);
    for (int r = 0; r < 3000; r++) {
      const int count = 1 + r % 9;
      std::vector<std::atomic<int>> hits(count);
      pool.run(count, [&](int i) { hits[i].fetch_add(1); });
      for (int i = 0; i < count; i++)
        ASSERT_EQ(hits[i].load(), 1) << "run " << r << " index " << i;
    }
  }
}

TEST(ThreadPool, ConcurrentCallersAreSerialised) {
  ThreadPool pool(2);
  std::atomic<int> total{0};
  std::thread a([&] {
    for (int r = 0; r < 500; r++) pool.run(3, [&](int) { total++; });
  });
  std::thread b([&] {
    for (int r = 0; r < 500; r++) pool.run(3, [&](int) { total++; });
  });
  a.join();
  b.join();
  EXPECT_EQ(total.load(), 3000);
}

}  // namespace
}  // namespace daedalus
