#include "vk_deferred_release.h"

#include <cstdint>

namespace daedalus::vk {

void DeferredRelease::watch(VkFence fence) {
  std::vector<Objects> done;  // destroyed after the lock is released
  std::lock_guard lock(mutex_);
  running_.emplace_back(++watches_, fence);
  done = collect_locked();
}

void DeferredRelease::release(Objects objects) {
  std::vector<Objects> done;
  std::lock_guard lock(mutex_);
  held_.push_back({watches_, std::move(objects)});
  done = collect_locked();
}

std::vector<DeferredRelease::Objects> DeferredRelease::collect_locked() {
  // Any status but "not ready" ends the wait: signalled, or the device lost
  // (after which every object may be destroyed).
  std::erase_if(running_, [this](const auto& r) {
    return vkGetFenceStatus(device_, r.second) != VK_NOT_READY;
  });
  // Held objects wait for every watch up to theirs; `after` grows along
  // held_, so those free to go are a prefix.
  const uint64_t oldest_running =
      running_.empty() ? UINT64_MAX : running_.front().first;
  std::vector<Objects> done;
  while (!held_.empty() && held_.front().after < oldest_running) {
    done.push_back(std::move(held_.front().objects));
    held_.pop_front();
  }
  return done;
}

}  // namespace daedalus::vk
