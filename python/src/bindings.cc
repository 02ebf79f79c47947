// kiln._kiln: the extension module behind the `kiln` package (python/kiln/_api.py wraps it).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "python/src/compile.h"
#include "python/src/devices.h"
#include "python/src/errors.h"
#include "python/src/exit_guard.h"
#include "python/src/loaded_module.h"

namespace py = pybind11;
using kiln::python::LoadedModule;

PYBIND11_MODULE(_kiln, m) {
  m.doc() = "kiln's runtime and compiler, for the kiln package";
  kiln::python::RegisterErrors(m);
  kiln::python::RegisterExitGuard(m);

  m.def("compile_file", &kiln::python::CompileFile, py::arg("path"), py::arg("target") = "cpu",
        py::arg("check_indices") = false, "Compiles an MLIR file into .kiln module bytes.");

  m.def(
      "compile_target",
      [](const std::string& device) { return kiln::python::ValueOrThrow(kiln::python::CompileTargetOf(device)); },
      py::arg("device"), "kiln.compile's target for code that runs on `device`.");

  m.def("devices", [] {
    py::list out;
    for (const kiln::python::DeviceInfo& d : kiln::python::ListDevices()) {
      py::dict entry;
      entry["name"] = d.name;
      entry["driver"] = d.driver;
      entry["description"] = d.description;
      entry["available"] = d.available;
      out.append(std::move(entry));
    }
    return out;
  });

  py::class_<LoadedModule>(m, "LoadedModule")
      .def_static("load_file", &LoadedModule::LoadFile, py::arg("path"), py::arg("device"), py::arg("parameters"))
      .def_static("load_bytes", &LoadedModule::LoadBytes, py::arg("data"), py::arg("device"), py::arg("parameters"))
      .def_property_readonly("name", &LoadedModule::name)
      .def_property_readonly("device", &LoadedModule::device_name)
      .def("function_names", &LoadedModule::function_names)
      .def("signature", &LoadedModule::signature, py::arg("function"))
      .def("call", &LoadedModule::Call, py::arg("function"));
}
