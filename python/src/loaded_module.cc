#include "python/src/loaded_module.h"

#include <span>

#include "hal/buffer_view.h"
#include "io/parameter_provider.h"
#include "python/src/arrays.h"
#include "python/src/devices.h"
#include "python/src/errors.h"
#include "python/src/exit_guard.h"
#include "python/src/gil.h"
#include "vm/signature.h"

namespace py = pybind11;

namespace kiln::python {
namespace {

std::string KindName(vm::ValueKind kind) {
  switch (kind) {
    case vm::ValueKind::kI32: return "i32";
    case vm::ValueKind::kI64: return "i64";
    case vm::ValueKind::kF32: return "f32";
    case vm::ValueKind::kF64: return "f64";
    case vm::ValueKind::kRef: return "tensor";
  }
  return "?";
}

std::string KindList(std::span<const vm::ValueKind> kinds) {
  std::string out = "(";
  for (size_t i = 0; i < kinds.size(); ++i) out += (i ? ", " : "") + KindName(kinds[i]);
  return out + ")";
}

// A Python int or float as the scalar kind the function takes.
StatusOr<vm::Value> ScalarValue(py::handle value, vm::ValueKind kind, const std::string& what) {
  bool is_int = py::isinstance<py::int_>(value) && !py::isinstance<py::bool_>(value);
  bool is_number = is_int || py::isinstance<py::float_>(value) || py::isinstance<py::bool_>(value);
  if (!is_number && !py::hasattr(value, "__index__") && !py::hasattr(value, "__float__")) {
    return InvalidArgumentError(what, " is a ", KindName(kind), " scalar; got a ",
                                std::string(py::str(value.get_type().attr("__name__"))));
  }
  try {
    switch (kind) {
      case vm::ValueKind::kI32: {
        int64_t v = py::cast<int64_t>(value);
        if (v < INT32_MIN || v > INT32_MAX) return OutOfRangeError(what, " is an i32; ", v, " does not fit");
        return vm::Value::I32(static_cast<int32_t>(v));
      }
      case vm::ValueKind::kI64: return vm::Value::I64(py::cast<int64_t>(value));
      case vm::ValueKind::kF32: return vm::Value::F32(py::cast<float>(value));
      case vm::ValueKind::kF64: return vm::Value::F64(py::cast<double>(value));
      case vm::ValueKind::kRef: break;
    }
  } catch (const py::error_already_set& e) {
    return InvalidArgumentError(what, " is a ", KindName(kind), " scalar; ", e.what());
  } catch (const py::cast_error& e) {
    return InvalidArgumentError(what, " is a ", KindName(kind), " scalar; ", e.what());
  }
  return InternalError(what, ": not a scalar kind");
}

// Takes the result's reference out of `value`, so that an array over a buffer nothing else
// holds can be writable (BufferViewToArray).
StatusOr<py::object> ResultObject(vm::Value& value) {
  switch (value.kind) {
    case vm::ValueKind::kI32: return py::object(py::int_(value.i32()));
    case vm::ValueKind::kI64: return py::object(py::int_(value.i64()));
    case vm::ValueKind::kF32: return py::object(py::float_(value.f32()));
    case vm::ValueKind::kF64: return py::object(py::float_(value.f64()));
    case vm::ValueKind::kRef: break;
  }
  if (!value.ref) return py::object(py::none());
  if (Ref<hal::BufferView> view = value.ref.AsRef<hal::BufferView>()) {
    value.ref = {};
    return BufferViewToArray(std::move(view));
  }
  return UnimplementedError("a ", value.ref.type()->name, " result, which the Python package cannot return yet");
}

}  // namespace

std::unique_ptr<LoadedModule> LoadedModule::Create(StatusOr<Ref<vm::Module>> module, const std::string& device,
                                                   const ParameterFiles& parameters) {
  Ref<vm::Module> loaded = ValueOrThrow(std::move(module));
  auto self = std::unique_ptr<LoadedModule>(new LoadedModule());
  self->name_ = std::string(loaded->name());
  self->device_name_ = CanonicalDeviceName(device);
  LoadedModule* raw = self.get();
  InFlight in_flight;
  ThrowIfError(WithoutGil([&]() -> Status {
    KILN_ASSIGN_OR_RETURN(raw->device_, GetDevice(device));
    runtime::SessionOptions options;
    if (!parameters.empty()) {
      options.parameters = MakeRef<io::ParameterProvider>();
      for (const auto& [scope, path] : parameters) {
        KILN_RETURN_IF_ERROR(options.parameters->AddFile(scope, path), "while loading module '", raw->name_, "'");
      }
    }
    KILN_ASSIGN_OR_RETURN(raw->session_, runtime::Session::Create(raw->device_, loaded, {}, options));
    return OkStatus();
  }));
  return self;
}

std::unique_ptr<LoadedModule> LoadedModule::LoadFile(const std::string& path, const std::string& device,
                                                     const ParameterFiles& parameters) {
  return Create(WithoutGil([&] { return vm::Module::LoadFromFile(path); }), device, parameters);
}

std::unique_ptr<LoadedModule> LoadedModule::LoadBytes(const py::bytes& bytes, const std::string& device,
                                                      const ParameterFiles& parameters) {
  char* data = nullptr;
  py::ssize_t size = 0;
  if (PyBytes_AsStringAndSize(bytes.ptr(), &data, &size) != 0) throw py::error_already_set();
  // LoadFromMemory copies the bytes; `bytes` is immutable and stays alive through the call.
  std::span<const uint8_t> span(reinterpret_cast<const uint8_t*>(data), static_cast<size_t>(size));
  return Create(WithoutGil([&] { return vm::Module::LoadFromMemory(span, "<bytes>"); }), device, parameters);
}

std::vector<std::string> LoadedModule::function_names() const {
  std::vector<std::string> names;
  for (const vm::ExportInfo& e : session_->module().exports()) names.emplace_back(e.name);
  return names;
}

std::string LoadedModule::signature(const std::string& function) const {
  const vm::Signature* signature = ValueOrThrow(session_->FunctionSignature(function));
  for (const vm::ExportInfo& e : session_->module().exports()) {
    if (e.name == function && !e.attr(vm::kFunctionTypeAttr).empty()) return std::string(e.attr(vm::kFunctionTypeAttr));
  }
  return KindList(signature->args) + " -> " + KindList(signature->results);
}

py::object LoadedModule::Call(const std::string& function, const py::args& args) {
  const vm::Signature* signature = ValueOrThrow(session_->FunctionSignature(function));
  if (args.size() != signature->args.size() || !signature->variadic.empty()) {
    ThrowIfError(InvalidArgumentError("'", function, "' takes ", signature->args.size(), " arguments ",
                                      KindList(signature->args), ", got ", args.size()));
  }
  std::vector<vm::Value> values;
  values.reserve(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    std::string what = StrCat("argument ", i, " of '", function, "'");
    vm::ValueKind kind = signature->args[i];
    if (kind == vm::ValueKind::kRef) {
      if (args[i].is_none()) {
        values.push_back(vm::Value::Ref({}));
        continue;
      }
      Ref<hal::BufferView> view = ValueOrThrow(ArrayToBufferView(args[i], *device_, what));
      values.push_back(vm::Value::Ref(vm::VmRef::Make(std::move(view))));
    } else {
      values.push_back(ValueOrThrow(ScalarValue(args[i], kind, what)));
    }
  }
  InFlight in_flight;
  StatusOr<std::vector<vm::Value>> results = WithoutGil([&] {
    std::lock_guard<std::mutex> lock(call_mutex_);
    return session_->Call(function, values);
  });
  values.clear();  // with the GIL: imported arrays are let go of at once
  std::vector<vm::Value> out = ValueOrThrow(std::move(results));
  if (out.empty()) return py::none();
  py::tuple tuple(out.size());
  for (size_t i = 0; i < out.size(); ++i) {
    tuple[i] = ValueOrThrow(ResultObject(out[i]), "for result ", i, " of '", function, "'");
  }
  if (out.size() == 1) return tuple[0];
  return tuple;
}

}  // namespace kiln::python
