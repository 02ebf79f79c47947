#include "python/src/errors.h"

#include <string>

namespace py = pybind11;

namespace kiln::python {

void RegisterErrors(py::module_& m) {
  // Owned by the module object from here on; the translator only borrows it.
  static PyObject* kiln_error = nullptr;
  kiln_error = PyErr_NewExceptionWithDoc(
      "kiln.KilnError",
      "A kiln operation failed. `code` is the status code's name (\"INVALID_ARGUMENT\", "
      "\"NOT_FOUND\", ...); the message is kiln's status with its context chain.",
      PyExc_RuntimeError, nullptr);
  if (!kiln_error) throw py::error_already_set();
  m.add_object("KilnError", py::handle(kiln_error));
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const StatusError& e) {
      py::object error = py::reinterpret_steal<py::object>(PyObject_CallFunction(kiln_error, "s", e.what()));
      if (!error) return;  // the call failed and set its own exception
      std::string code(StatusCodeName(e.status().code()));
      if (PyObject_SetAttrString(error.ptr(), "code", py::str(code).ptr()) != 0) return;
      PyErr_SetObject(kiln_error, error.ptr());
    }
  });
}

}  // namespace kiln::python
