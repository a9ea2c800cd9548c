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

  bool is_ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  // A sentence a user can act on; empty when ok.
  const std::string& message() const { return message_; }

 private:
  bool ok_ = true;
  std::string message_;
};

}  // namespace daedalus
