// Status: kiln's one error type, and StatusOr<T>.
//
// A Status is OK or carries a code, a message and a context chain. Each layer that passes
// an error up adds where it was ("in dispatch main$3", "while calling main"), so the final
// text reads from the innermost cause outwards:
//   INVALID_ARGUMENT: binding 2 range [0, 4096) exceeds buffer of 1024 bytes; in dispatch add; while executing command buffer
// OK is a null pointer (free to create and copy); errors share immutable state, so copying
// a failed Status (a semaphore hands its failure to every waiter) is cheap.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "base/str_cat.h"

namespace kiln {

enum class StatusCode : int {
  kOk = 0,
  kCancelled = 1,
  kUnknown = 2,
  kInvalidArgument = 3,
  kDeadlineExceeded = 4,
  kNotFound = 5,
  kAlreadyExists = 6,
  kPermissionDenied = 7,
  kResourceExhausted = 8,
  kFailedPrecondition = 9,
  kAborted = 10,
  kOutOfRange = 11,
  kUnimplemented = 12,
  kInternal = 13,
  kUnavailable = 14,
  kDataLoss = 15,
};

// "INVALID_ARGUMENT", "OK", ...
std::string_view StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  Status(StatusCode code, std::string message);

  bool ok() const { return state_ == nullptr; }
  StatusCode code() const { return state_ ? state_->code : StatusCode::kOk; }
  // The innermost message, without context.
  std::string_view message() const { return state_ ? std::string_view(state_->message) : ""; }
  // Context entries in the order they were added (innermost first).
  const std::vector<std::string>& context() const;

  // Returns a copy with `text` appended to the context chain; OK stays OK.
  Status WithContext(std::string text) const;
  template <typename... Args>
  Status With(const Args&... args) const {
    return ok() ? Status() : WithContext(StrCat(args...));
  }

  // "CODE: message; context1; context2"; "OK" for OK.
  std::string ToString() const;

  // Marks an error as deliberately dropped (for best-effort cleanup paths).
  void IgnoreError() const {}

 private:
  struct State {
    StatusCode code;
    std::string message;
    std::vector<std::string> context;
  };
  std::shared_ptr<const State> state_;
};

inline Status OkStatus() { return Status(); }

template <typename... Args>
Status MakeStatus(StatusCode code, const Args&... args) {
  return Status(code, StrCat(args...));
}
#define KILN_DEFINE_ERROR_MAKER(Name, Code)      \
  template <typename... Args>                    \
  Status Name(const Args&... args) {             \
    return MakeStatus(StatusCode::Code, args...); \
  }
KILN_DEFINE_ERROR_MAKER(CancelledError, kCancelled)
KILN_DEFINE_ERROR_MAKER(UnknownError, kUnknown)
KILN_DEFINE_ERROR_MAKER(InvalidArgumentError, kInvalidArgument)
KILN_DEFINE_ERROR_MAKER(DeadlineExceededError, kDeadlineExceeded)
KILN_DEFINE_ERROR_MAKER(NotFoundError, kNotFound)
KILN_DEFINE_ERROR_MAKER(AlreadyExistsError, kAlreadyExists)
KILN_DEFINE_ERROR_MAKER(PermissionDeniedError, kPermissionDenied)
KILN_DEFINE_ERROR_MAKER(ResourceExhaustedError, kResourceExhausted)
KILN_DEFINE_ERROR_MAKER(FailedPreconditionError, kFailedPrecondition)
KILN_DEFINE_ERROR_MAKER(AbortedError, kAborted)
KILN_DEFINE_ERROR_MAKER(OutOfRangeError, kOutOfRange)
KILN_DEFINE_ERROR_MAKER(UnimplementedError, kUnimplemented)
KILN_DEFINE_ERROR_MAKER(InternalError, kInternal)
KILN_DEFINE_ERROR_MAKER(UnavailableError, kUnavailable)
KILN_DEFINE_ERROR_MAKER(DataLossError, kDataLoss)
#undef KILN_DEFINE_ERROR_MAKER

// A value or the Status explaining why there is none. Constructing from an OK Status is an
// internal error and is turned into one (never an abort).
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(const Status& status) : data_(status) { CheckNotOk(); }
  StatusOr(Status&& status) : data_(std::move(status)) { CheckNotOk(); }
  template <typename U = T,
            typename = std::enable_if_t<std::is_constructible_v<T, U&&> &&
                                        !std::is_same_v<std::decay_t<U>, Status> &&
                                        !std::is_same_v<std::decay_t<U>, StatusOr<T>>>>
  StatusOr(U&& value) : data_(std::in_place_index<1>, std::forward<U>(value)) {}

  bool ok() const { return data_.index() == 1; }
  Status status() const { return ok() ? Status() : std::get<0>(data_); }

  // Precondition: ok(). Accessing the value of an error is a programming error.
  T& value() & { return std::get<1>(data_); }
  const T& value() const& { return std::get<1>(data_); }
  T&& value() && { return std::get<1>(std::move(data_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  void CheckNotOk() {
    if (std::get<0>(data_).ok()) {
      data_ = Status(StatusCode::kInternal, "StatusOr constructed from an OK status without a value");
    }
  }
  std::variant<Status, T> data_;
};

namespace internal {
inline Status AsStatus(const Status& s) { return s; }
template <typename T>
Status AsStatus(const StatusOr<T>& s) { return s.status(); }
}  // namespace internal

}  // namespace kiln

#define KILN_CONCAT_INNER(a, b) a##b
#define KILN_CONCAT(a, b) KILN_CONCAT_INNER(a, b)

// Returns the error of `expr` (a Status or StatusOr), adding the context built from the
// optional trailing arguments: KILN_RETURN_IF_ERROR(Load(x), "while loading ", name).
#define KILN_RETURN_IF_ERROR(expr, ...)                                               \
  do {                                                                                \
    ::kiln::Status kiln_status_ = ::kiln::internal::AsStatus(expr);                   \
    if (!kiln_status_.ok()) return kiln_status_ __VA_OPT__(.With(__VA_ARGS__));       \
  } while (0)

// KILN_ASSIGN_OR_RETURN(auto x, MakeX(), "while making x"): unwraps a StatusOr into `lhs`
// or returns its error with optional context.
#define KILN_ASSIGN_OR_RETURN(lhs, expr, ...) \
  KILN_ASSIGN_OR_RETURN_IMPL(KILN_CONCAT(kiln_statusor_, __LINE__), lhs, expr __VA_OPT__(, __VA_ARGS__))
#define KILN_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr, ...)                              \
  auto tmp = (expr);                                                                 \
  if (!tmp.ok()) return tmp.status() __VA_OPT__(.With(__VA_ARGS__));                 \
  lhs = std::move(tmp).value()
