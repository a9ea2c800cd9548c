// Vulkan objects a submitted command may still use after its wait gave up
// (Batch::wait timed out): destroying them then would let a GPU that is slow
// rather than dead read and write freed memory. They are held until every
// such command has finished (its fence signalled, or the device was lost),
// or until the device is idle and closes.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace daedalus::vk {

// Thread-safe: buffers are released on any thread. Destroying it destroys
// whatever it holds, so only once the device is idle (Context's destructor).
class DeferredRelease {
 public:
  // Objects of any kind (RAII handles moved into a struct), destroyed with
  // the last reference.
  using Objects = std::shared_ptr<void>;

  explicit DeferredRelease(VkDevice device) : device_(device) {}

  // A submission whose wait gave up: it may run until `fence` signals. The
  // fence must live until then: release it, with its batch, through
  // release().
  void watch(VkFence fence);

  // Destroys `objects` now when no watched submission is still running,
  // otherwise once every one watched so far has finished.
  void release(Objects objects);

 private:
  struct Held {
    uint64_t after;  // the number of the last watch() before release()
    Objects objects;
  };

  // Forgets the submissions that have finished; returns what may go now.
  std::vector<Objects> collect_locked();

  const VkDevice device_;
  std::mutex mutex_;
  uint64_t watches_ = 0;
  // Watch number and fence of each submission still running, oldest first.
  std::deque<std::pair<uint64_t, VkFence>> running_;
  std::deque<Held> held_;  // in the order released
};

}  // namespace daedalus::vk
