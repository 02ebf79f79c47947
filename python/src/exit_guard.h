// Calls that run while the interpreter exits.
//
// A daemon thread may be inside a call (GIL released) when the main thread exits the
// interpreter; after Py_Finalize the process's static objects (drivers, worker pools) go
// away under it. An atexit handler therefore refuses new calls (CANCELLED) and waits for
// the ones in flight to end before finalization goes on.
#pragma once

#include <pybind11/pybind11.h>

namespace kiln::python {

// Held around work done without the GIL (calls, loads, compiles). Throws StatusError
// (CANCELLED) once the interpreter is exiting.
class InFlight {
 public:
  InFlight();
  ~InFlight();
  InFlight(const InFlight&) = delete;
  InFlight& operator=(const InFlight&) = delete;
};

// Registers the atexit handler.
void RegisterExitGuard(pybind11::module_& m);

}  // namespace kiln::python
