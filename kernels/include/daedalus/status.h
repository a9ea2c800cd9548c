// Errors as values: nothing in daedalus throws across its API.
#pragma once

#include <string>
#include <utility>

namespace daedalus {

class Status {
 public:
  static Status ok() { return Status(); }
  static Status error(std::string message) {
    Status s;
    s.ok_ = false;
    s.message_ = std::move(message);
    return s;
  }

  // An error after which the GPU device is of no more use to anyone in the
  // process: it was lost (VK_ERROR_DEVICE_LOST), or did not finish a frame
  // within the wait limit (DAEDALUS_GPU_TIMEOUT_MS).
  static Status gpu_lost(std::string message) {
    Status s = error(std::move(message));
    s.gpu_lost_ = true;
    return s;
  }

  bool is_ok() const { return ok_; }
  bool is_gpu_lost() const { return gpu_lost_; }
  explicit operator bool() const { return ok_; }
  // A sentence a user can act on; empty when ok.
  const std::string& message() const { return message_; }

 private:
  bool ok_ = true;
  bool gpu_lost_ = false;
  std::string message_;
};

}  // namespace daedalus
