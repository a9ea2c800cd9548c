// Errors as values: nothing in daedalus throws across its API. A fallible
// call returns a Status when it makes nothing, a Result<T> when it does
// (docs/architecture.md, "Errors").
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
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

// What a fallible call that makes something returns: the value, or the
// error saying why there is none (never both, never neither).
template <class T>
class Result {
 public:
  // A value (or what converts to one: a derived class's pointer).
  template <class U>
  requires(std::is_convertible_v<U&&, T> &&
           !std::is_same_v<std::decay_t<U>, Status>) Result(U&& value)
      : value_(std::forward<U>(value)) {}
  // Another Result whose value converts.
  template <class U>
  Result(Result<U>&& other) : status_(other.status()) {
    if (other) value_.emplace(std::move(other).value());
  }
  // An error; an ok Status here is a bug, reported as an error.
  Result(Status error)
      : status_(error ? Status::error("internal: a Result with no value")
                      : std::move(error)) {}

  bool is_ok() const { return status_.is_ok(); }
  explicit operator bool() const { return is_ok(); }
  // Ok when there is a value.
  const Status& status() const { return status_; }

  // The value; only when there is one.
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  // The value, or `fallback` when there is none.
  T value_or(T fallback) && {
    return value_ ? std::move(*value_) : std::move(fallback);
  }

 private:
  Status status_;
  std::optional<T> value_;
};

// A parameter the user must change, named: "<what>: <field> <value> <why>"
// ("deblock: block_size 5 is not 4, 8 or 16").
inline Status bad_parameter(std::string_view what, std::string_view field,
                            std::string_view value, std::string_view why) {
  return Status::error(std::string(what) + ": " + std::string(field) + " " +
                       std::string(value) + " " + std::string(why));
}

// "deblock: qp 60 out of range 0..51".
inline Status out_of_range(std::string_view what, std::string_view field,
                           long long value, long long lo, long long hi) {
  return bad_parameter(
      what, field, std::to_string(value),
      "out of range " + std::to_string(lo) + ".." + std::to_string(hi));
}

// An integer parameter and its range, inclusive.
struct ParamRange {
  std::string_view field;
  int value, lo, hi;
};

// Ok when every value is in its range; else out_of_range() of the first
// that is not.
inline Status check_ranges(std::string_view what,
                           std::initializer_list<ParamRange> ranges) {
  for (const ParamRange& r : ranges)
    if (r.value < r.lo || r.value > r.hi)
      return out_of_range(what, r.field, r.value, r.lo, r.hi);
  return Status::ok();
}

}  // namespace daedalus

// Returns the Status from the enclosing function when it is an error.
#define DAEDALUS_TRY(expr)                              \
  do {                                                  \
    if (::daedalus::Status s_ = (expr); !s_) return s_; \
  } while (0)

// Evaluates `expr`, a Result: returns its error from the enclosing function,
// or moves its value into `lhs` (a declaration or an lvalue).
#define DAEDALUS_ASSIGN_OR_RETURN(lhs, expr) \
  DAEDALUS_ASSIGN_OR_RETURN_(DAEDALUS_CONCAT_(result_, __LINE__), lhs, expr)
#define DAEDALUS_ASSIGN_OR_RETURN_(result, lhs, expr) \
  auto result = (expr);                               \
  if (!result) return result.status();                \
  lhs = std::move(result).value()
#define DAEDALUS_CONCAT_(a, b) DAEDALUS_CONCAT2_(a, b)
#define DAEDALUS_CONCAT2_(a, b) a##b
