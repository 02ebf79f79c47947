// Running kiln code without the GIL.
//
// Unlike py::gil_scoped_release, WithoutGil takes the GIL back outside a destructor. When
// the interpreter exits while a daemon thread is inside a call, that thread is ended as it
// takes the GIL back (pthread_exit, a forced unwind); through a noexcept destructor that
// would be std::terminate, here it unwinds the thread.
#pragma once

#include <Python.h>

#include <exception>
#include <optional>
#include <utility>

namespace kiln::python {

// Calls `f()` with the GIL released and returns its result. `f` must not touch Python
// objects; it should report failure in its result (a Status) rather than throw.
template <typename F>
auto WithoutGil(F&& f) {
  std::optional<decltype(f())> result;
  std::exception_ptr error;
  PyThreadState* state = PyEval_SaveThread();
  try {
    result.emplace(std::forward<F>(f)());
  } catch (...) {
    error = std::current_exception();
  }
  PyEval_RestoreThread(state);  // outside the try: a forced unwind here must pass through
  if (error) std::rethrow_exception(error);
  return std::move(*result);
}

}  // namespace kiln::python
