// include/kiln/kiln.h on top of runtime::Session. Every handle is a RefCounted object; a
// status is a heap-allocated kiln::Status.
#include "kiln/kiln.h"

#include <memory>
#include <string>
#include <vector>

#include "drivers/builtin_drivers.h"
#include "hal/buffer_view.h"
#include "hal/module/hal_module.h"
#include "runtime/session.h"
#include "runtime/value_files.h"

struct kiln_status_t {
  kiln::Status status;
  std::string message;
};

struct kiln_instance_t : kiln::RefCounted {};

struct kiln_device_t : kiln::RefCounted {
  kiln::Ref<kiln_instance_t> instance;
  kiln::Ref<kiln::hal::Device> device;
};

struct kiln_module_t : kiln::RefCounted {
  kiln::Ref<kiln::vm::Module> module;
  std::vector<std::string> function_names;
};

struct kiln_parameters_t : kiln::RefCounted {
  kiln::Ref<kiln::io::ParameterProvider> provider = kiln::MakeRef<kiln::io::ParameterProvider>();
};

struct kiln_session_t : kiln::RefCounted {
  kiln::Ref<kiln_device_t> device;
  kiln::Ref<kiln_module_t> module;
  std::unique_ptr<kiln::runtime::Session> session;
};

struct kiln_buffer_view_t : kiln::RefCounted {
  kiln::Ref<kiln::hal::BufferView> view;
};

namespace {

using kiln::hal::ElementType;

#define KILN_SAME_ELEMENT_TYPE(c, cc) static_assert(KILN_ELEMENT_TYPE_##c == static_cast<int>(ElementType::k##cc))
KILN_SAME_ELEMENT_TYPE(I1, I1);
KILN_SAME_ELEMENT_TYPE(I2, I2);
KILN_SAME_ELEMENT_TYPE(I4, I4);
KILN_SAME_ELEMENT_TYPE(I8, I8);
KILN_SAME_ELEMENT_TYPE(I16, I16);
KILN_SAME_ELEMENT_TYPE(I32, I32);
KILN_SAME_ELEMENT_TYPE(I64, I64);
KILN_SAME_ELEMENT_TYPE(F16, F16);
KILN_SAME_ELEMENT_TYPE(BF16, BF16);
KILN_SAME_ELEMENT_TYPE(F32, F32);
KILN_SAME_ELEMENT_TYPE(F64, F64);
KILN_SAME_ELEMENT_TYPE(F8E4M3FN, F8E4M3FN);
KILN_SAME_ELEMENT_TYPE(F8E4M3FNUZ, F8E4M3FNUZ);
KILN_SAME_ELEMENT_TYPE(F8E5M2, F8E5M2);
KILN_SAME_ELEMENT_TYPE(F8E5M2FNUZ, F8E5M2FNUZ);
KILN_SAME_ELEMENT_TYPE(F8E8M0FNU, F8E8M0FNU);
KILN_SAME_ELEMENT_TYPE(F4E2M1FN, F4E2M1FN);
#undef KILN_SAME_ELEMENT_TYPE
// kiln_status_code casts kiln::StatusCode to the C enum: every value must agree.
#define KILN_SAME_STATUS_CODE(c_name, cc_name) \
  static_assert(KILN_STATUS_##c_name == static_cast<int>(kiln::StatusCode::k##cc_name))
KILN_SAME_STATUS_CODE(OK, Ok);
KILN_SAME_STATUS_CODE(CANCELLED, Cancelled);
KILN_SAME_STATUS_CODE(UNKNOWN, Unknown);
KILN_SAME_STATUS_CODE(INVALID_ARGUMENT, InvalidArgument);
KILN_SAME_STATUS_CODE(DEADLINE_EXCEEDED, DeadlineExceeded);
KILN_SAME_STATUS_CODE(NOT_FOUND, NotFound);
KILN_SAME_STATUS_CODE(ALREADY_EXISTS, AlreadyExists);
KILN_SAME_STATUS_CODE(PERMISSION_DENIED, PermissionDenied);
KILN_SAME_STATUS_CODE(RESOURCE_EXHAUSTED, ResourceExhausted);
KILN_SAME_STATUS_CODE(FAILED_PRECONDITION, FailedPrecondition);
KILN_SAME_STATUS_CODE(ABORTED, Aborted);
KILN_SAME_STATUS_CODE(OUT_OF_RANGE, OutOfRange);
KILN_SAME_STATUS_CODE(UNIMPLEMENTED, Unimplemented);
KILN_SAME_STATUS_CODE(INTERNAL, Internal);
KILN_SAME_STATUS_CODE(UNAVAILABLE, Unavailable);
KILN_SAME_STATUS_CODE(DATA_LOSS, DataLoss);
#undef KILN_SAME_STATUS_CODE

// Like the rest of the runtime, kiln treats running out of heap for its own bookkeeping
// as fatal; device memory exhaustion is a RESOURCE_EXHAUSTED status.
kiln_status_t* Wrap(kiln::Status status) {
  if (status.ok()) return nullptr;
  std::string message = status.ToString();
  return new kiln_status_t{std::move(status), std::move(message)};
}

kiln_status_t* NullArgument(const char* function, const char* argument) {
  return Wrap(kiln::InvalidArgumentError(function, ": '", argument, "' must not be NULL"));
}

template <typename T>
void ReleaseHandle(T* handle) {
  if (handle) handle->Release();
}

bool IsKnownElementType(int type) {
  return type >= KILN_ELEMENT_TYPE_I1 && type <= KILN_ELEMENT_TYPE_F4E2M1FN;
}

}  // namespace

extern "C" {

kiln_status_code_t kiln_status_code(const kiln_status_t* status) {
  return status ? static_cast<kiln_status_code_t>(status->status.code()) : KILN_STATUS_OK;
}

const char* kiln_status_message(const kiln_status_t* status) { return status ? status->message.c_str() : "OK"; }

void kiln_status_free(kiln_status_t* status) {
  delete status;
}

kiln_status_t* kiln_instance_create(kiln_instance_t** out_instance) {
  if (!out_instance) return NullArgument("kiln_instance_create", "out_instance");
  auto instance = kiln::MakeRef<kiln_instance_t>();
  *out_instance = instance.release();
  return nullptr;
}

void kiln_instance_release(kiln_instance_t* instance) { ReleaseHandle(instance); }

kiln_status_t* kiln_device_create(kiln_instance_t* instance, const char* name, kiln_device_t** out_device) {
  if (!instance) return NullArgument("kiln_device_create", "instance");
  if (!name) return NullArgument("kiln_device_create", "name");
  if (!out_device) return NullArgument("kiln_device_create", "out_device");
  kiln::StatusOr<kiln::Ref<kiln::hal::Device>> device = kiln::BuiltinDriverRegistry().CreateDevice(name);
  if (!device.ok()) return Wrap(std::move(device).status().With("while creating device '", name, "'"));
  auto handle = kiln::MakeRef<kiln_device_t>();
  handle->instance = kiln::Ref<kiln_instance_t>(instance);
  handle->device = std::move(*device);
  *out_device = handle.release();
  return nullptr;
}

void kiln_device_release(kiln_device_t* device) { ReleaseHandle(device); }

static kiln_status_t* AdoptModule(kiln::StatusOr<kiln::Ref<kiln::vm::Module>> module, kiln_module_t** out_module) {
  if (!module.ok()) return Wrap(std::move(module).status());
  auto handle = kiln::MakeRef<kiln_module_t>();
  handle->module = std::move(*module);
  for (const kiln::vm::ExportInfo& e : handle->module->exports()) handle->function_names.emplace_back(e.name);
  *out_module = handle.release();
  return nullptr;
}

kiln_status_t* kiln_module_load_file(kiln_instance_t* instance, const char* path, kiln_module_t** out_module) {
  if (!instance) return NullArgument("kiln_module_load_file", "instance");
  if (!path) return NullArgument("kiln_module_load_file", "path");
  if (!out_module) return NullArgument("kiln_module_load_file", "out_module");
  return AdoptModule(kiln::vm::Module::LoadFromFile(path), out_module);
}

kiln_status_t* kiln_module_load_memory(kiln_instance_t* instance, const void* data, size_t size,
                                       kiln_module_t** out_module) {
  if (!instance) return NullArgument("kiln_module_load_memory", "instance");
  if (!data && size) return NullArgument("kiln_module_load_memory", "data");
  if (!out_module) return NullArgument("kiln_module_load_memory", "out_module");
  return AdoptModule(
      kiln::vm::Module::LoadFromMemory(std::span<const uint8_t>(static_cast<const uint8_t*>(data), size), "<memory>"),
      out_module);
}

void kiln_module_release(kiln_module_t* module) { ReleaseHandle(module); }

size_t kiln_module_function_count(const kiln_module_t* module) { return module ? module->function_names.size() : 0; }

const char* kiln_module_function_name(const kiln_module_t* module, size_t index) {
  if (!module || index >= module->function_names.size()) return nullptr;
  return module->function_names[index].c_str();
}

kiln_status_t* kiln_parameters_create(kiln_parameters_t** out_parameters) {
  if (!out_parameters) return NullArgument("kiln_parameters_create", "out_parameters");
  *out_parameters = kiln::MakeRef<kiln_parameters_t>().release();
  return nullptr;
}

kiln_status_t* kiln_parameters_add_file(kiln_parameters_t* parameters, const char* scope, const char* path) {
  if (!parameters) return NullArgument("kiln_parameters_add_file", "parameters");
  if (!path) return NullArgument("kiln_parameters_add_file", "path");
  kiln::Status status = parameters->provider->AddFile(scope ? scope : "", path);
  return status.ok() ? nullptr : Wrap(std::move(status));
}

void kiln_parameters_release(kiln_parameters_t* parameters) { ReleaseHandle(parameters); }

kiln_status_t* kiln_session_create(kiln_device_t* device, kiln_module_t* module, kiln_session_t** out_session) {
  return kiln_session_create_with_parameters(device, module, nullptr, out_session);
}

kiln_status_t* kiln_session_create_with_parameters(kiln_device_t* device, kiln_module_t* module,
                                                   kiln_parameters_t* parameters, kiln_session_t** out_session) {
  if (!device) return NullArgument("kiln_session_create", "device");
  if (!module) return NullArgument("kiln_session_create", "module");
  if (!out_session) return NullArgument("kiln_session_create", "out_session");
  kiln::runtime::SessionOptions options;
  if (parameters) options.parameters = parameters->provider;
  kiln::StatusOr<std::unique_ptr<kiln::runtime::Session>> session =
      kiln::runtime::Session::Create(device->device, module->module, {}, options);
  if (!session.ok()) return Wrap(std::move(session).status());
  auto handle = kiln::MakeRef<kiln_session_t>();
  handle->device = kiln::Ref<kiln_device_t>(device);
  handle->module = kiln::Ref<kiln_module_t>(module);
  handle->session = std::move(*session);
  *out_session = handle.release();
  return nullptr;
}

void kiln_session_release(kiln_session_t* session) { ReleaseHandle(session); }

kiln_status_t* kiln_buffer_view_create(kiln_device_t* device, kiln_element_type_t element_type, const int64_t* shape,
                                       size_t rank, const void* data, size_t data_size,
                                       kiln_buffer_view_t** out_view) {
  if (!device) return NullArgument("kiln_buffer_view_create", "device");
  if (!shape && rank) return NullArgument("kiln_buffer_view_create", "shape");
  if (!data && data_size) return NullArgument("kiln_buffer_view_create", "data");
  if (!out_view) return NullArgument("kiln_buffer_view_create", "out_view");
  if (!IsKnownElementType(element_type)) {
    return Wrap(kiln::InvalidArgumentError("kiln_buffer_view_create: unknown element type ", int(element_type)));
  }
  kiln::StatusOr<kiln::Ref<kiln::hal::BufferView>> view = kiln::runtime::CreateHostBufferView(
      device->device->allocator(), static_cast<ElementType>(element_type), std::span<const int64_t>(shape, rank),
      std::span<const uint8_t>(static_cast<const uint8_t*>(data), data_size));
  if (!view.ok()) return Wrap(std::move(view).status().With("in kiln_buffer_view_create (data_size)"));
  auto handle = kiln::MakeRef<kiln_buffer_view_t>();
  handle->view = std::move(*view);
  *out_view = handle.release();
  return nullptr;
}

void kiln_buffer_view_retain(kiln_buffer_view_t* view) {
  if (view) view->AddRef();
}
void kiln_buffer_view_release(kiln_buffer_view_t* view) { ReleaseHandle(view); }

kiln_element_type_t kiln_buffer_view_element_type(const kiln_buffer_view_t* view) {
  return static_cast<kiln_element_type_t>(view->view->element_type());
}
size_t kiln_buffer_view_rank(const kiln_buffer_view_t* view) { return view->view->shape().size(); }
const int64_t* kiln_buffer_view_shape(const kiln_buffer_view_t* view) { return view->view->shape().data(); }
size_t kiln_buffer_view_byte_length(const kiln_buffer_view_t* view) { return view->view->byte_length(); }

kiln_status_t* kiln_buffer_view_read(const kiln_buffer_view_t* view, void* dst, size_t dst_size) {
  if (!view) return NullArgument("kiln_buffer_view_read", "view");
  size_t length = view->view->byte_length();
  if (!dst && length) return NullArgument("kiln_buffer_view_read", "dst");
  if (dst_size < length) {
    return Wrap(kiln::OutOfRangeError("kiln_buffer_view_read: the view holds ", length, " bytes, dst_size is ", dst_size));
  }
  return Wrap(view->view->buffer()->Read(0, std::span<uint8_t>(static_cast<uint8_t*>(dst), length)));
}

kiln_status_t* kiln_session_call(kiln_session_t* session, const char* function, const kiln_value_t* args,
                                 size_t arg_count, kiln_value_t* results, size_t result_capacity,
                                 size_t* out_result_count) {
  if (!session) return NullArgument("kiln_session_call", "session");
  if (!function) return NullArgument("kiln_session_call", "function");
  if (!args && arg_count) return NullArgument("kiln_session_call", "args");
  if (!results && result_capacity) return NullArgument("kiln_session_call", "results");
  if (!out_result_count) return NullArgument("kiln_session_call", "out_result_count");
  std::vector<kiln::vm::Value> values;
  for (size_t i = 0; i < arg_count; ++i) {
    const kiln_value_t& a = args[i];
    switch (a.kind) {
      case KILN_VALUE_I32: values.push_back(kiln::vm::Value::I32(a.i32)); break;
      case KILN_VALUE_I64: values.push_back(kiln::vm::Value::I64(a.i64)); break;
      case KILN_VALUE_F32: values.push_back(kiln::vm::Value::F32(a.f32)); break;
      case KILN_VALUE_F64: values.push_back(kiln::vm::Value::F64(a.f64)); break;
      case KILN_VALUE_BUFFER_VIEW:
        if (!a.buffer_view) return Wrap(kiln::InvalidArgumentError("kiln_session_call: argument ", i, " is a NULL buffer view"));
        values.push_back(kiln::vm::Value::Ref(kiln::vm::VmRef::Make(a.buffer_view->view)));
        break;
      default:
        return Wrap(kiln::InvalidArgumentError("kiln_session_call: argument ", i, " has unknown kind ", int(a.kind)));
    }
  }
  kiln::StatusOr<std::vector<kiln::vm::Value>> called = session->session->Call(function, values);
  if (!called.ok()) return Wrap(std::move(called).status());
  for (size_t i = 0; i < called->size(); ++i) {
    const kiln::vm::Value& v = (*called)[i];
    if (v.kind == kiln::vm::ValueKind::kRef && !v.ref.As<kiln::hal::BufferView>()) {
      return Wrap(kiln::UnimplementedError("kiln_session_call: result ", i, " of '", function, "' is a ",
                                           v.ref ? v.ref.type()->name : "null reference",
                                           ", which the C API cannot return"));
    }
  }
  if (called->size() > result_capacity) {
    return Wrap(kiln::OutOfRangeError("kiln_session_call: '", function, "' returns ", called->size(),
                                      " results, result_capacity is ", result_capacity));
  }
  for (size_t i = 0; i < called->size(); ++i) {
    const kiln::vm::Value& v = (*called)[i];
    kiln_value_t& r = results[i];
    switch (v.kind) {
      case kiln::vm::ValueKind::kI32: r.kind = KILN_VALUE_I32; r.i32 = v.i32(); break;
      case kiln::vm::ValueKind::kI64: r.kind = KILN_VALUE_I64; r.i64 = v.i64(); break;
      case kiln::vm::ValueKind::kF32: r.kind = KILN_VALUE_F32; r.f32 = v.f32(); break;
      case kiln::vm::ValueKind::kF64: r.kind = KILN_VALUE_F64; r.f64 = v.f64(); break;
      case kiln::vm::ValueKind::kRef: {
        auto handle = kiln::MakeRef<kiln_buffer_view_t>();
        handle->view = v.ref.AsRef<kiln::hal::BufferView>();
        r.kind = KILN_VALUE_BUFFER_VIEW;
        r.buffer_view = handle.release();
        break;
      }
    }
  }
  *out_result_count = called->size();
  return nullptr;
}

}  // extern "C"
