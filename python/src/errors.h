// kiln's Status as Python's kiln.KilnError: the status code's name in `.code`, the whole
// context chain ("...; in call to 'hal.buffer_view.assert'; while calling 'main'") as the
// message. C++ code throws StatusError; pybind11 translates it at the Python boundary.
#pragma once

#include <exception>
#include <string>
#include <utility>

#include <pybind11/pybind11.h>

#include "base/status.h"

namespace kiln::python {

class StatusError : public std::exception {
 public:
  explicit StatusError(Status status) : status_(std::move(status)), message_(status_.ToString()) {}
  const Status& status() const { return status_; }
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  Status status_;
  std::string message_;
};

inline void ThrowIfError(Status status) {
  if (!status.ok()) throw StatusError(std::move(status));
}

// The value, or throws the status with `context` added ("while calling 'main'").
template <typename T, typename... Context>
T ValueOrThrow(StatusOr<T> value, const Context&... context) {
  if (!value.ok()) {
    if constexpr (sizeof...(Context) == 0) {
      throw StatusError(std::move(value).status());
    } else {
      throw StatusError(value.status().With(context...));
    }
  }
  return std::move(*value);
}

// Defines kiln._kiln.KilnError (a subclass of RuntimeError) and translates StatusError to it.
void RegisterErrors(pybind11::module_& m);

}  // namespace kiln::python
