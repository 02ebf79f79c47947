#include "python/src/exit_guard.h"

#include <atomic>
#include <chrono>
#include <thread>

#include "python/src/errors.h"
#include "python/src/gil.h"

namespace py = pybind11;

namespace kiln::python {
namespace {

std::atomic<int> in_flight{0};
std::atomic<bool> exiting{false};

}  // namespace

InFlight::InFlight() {
  in_flight.fetch_add(1, std::memory_order_acq_rel);
  if (exiting.load(std::memory_order_acquire)) {
    in_flight.fetch_sub(1, std::memory_order_acq_rel);
    throw StatusError(CancelledError("the interpreter is exiting"));
  }
}

InFlight::~InFlight() { in_flight.fetch_sub(1, std::memory_order_acq_rel); }

void RegisterExitGuard(py::module_& m) {
  py::cpp_function wait_for_calls([] {
    exiting.store(true, std::memory_order_release);
    WithoutGil([] {
      while (in_flight.load(std::memory_order_acquire) > 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      return 0;
    });
  });
  py::module_::import("atexit").attr("register")(wait_for_calls);
}

}  // namespace kiln::python
