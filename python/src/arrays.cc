#include "python/src/arrays.h"

#include <cstdint>
#include <vector>

#include "hal/allocator.h"
#include "hal/element_type.h"
#include "runtime/value_files.h"

namespace py = pybind11;

namespace kiln::python {
namespace {

// Keeps a Python object alive from the HAL's side (the owner of imported host memory). The
// last reference may drop on any thread: one holding the GIL lets go at once; another (a
// device worker finishing with a command buffer) never waits for the GIL, which a thread
// waiting for that worker may hold, but hands the object to the interpreter to let go of.
class PythonOwner final : public RefCounted {
 public:
  explicit PythonOwner(py::object object) : object_(object.release().ptr()) {}
  ~PythonOwner() override {
    if (!Py_IsInitialized()) return;  // the interpreter is gone: nothing left to free
    if (PyGILState_Check()) {
      Py_DECREF(object_);
      return;
    }
    if (Py_AddPendingCall(&Decref, object_) == 0) return;
    py::gil_scoped_acquire gil;  // the pending-call queue is full: wait after all
    Py_DECREF(object_);
  }

 private:
  static int Decref(void* object) {
    Py_DECREF(static_cast<PyObject*>(object));
    return 0;
  }
  PyObject* object_;
};

// What a result array's base capsule owns: the mapping and the view it came from.
struct MappedResult {
  Ref<hal::BufferView> view;
  hal::MappedRange range;
};

StatusOr<std::string> DtypeNameOf(hal::ElementType type, bool* packed) {
  using hal::ElementType;
  *packed = false;
  switch (type) {
    case ElementType::kI1: return std::string("bool");
    case ElementType::kI8: return std::string("int8");
    case ElementType::kI16: return std::string("int16");
    case ElementType::kI32: return std::string("int32");
    case ElementType::kI64: return std::string("int64");
    case ElementType::kF16: return std::string("float16");
    case ElementType::kF32: return std::string("float32");
    case ElementType::kF64: return std::string("float64");
    case ElementType::kComplexF32: return std::string("complex64");
    case ElementType::kComplexF64: return std::string("complex128");
    case ElementType::kBF16: return std::string("uint16");  // raw bits
    case ElementType::kF8E4M3FN:
    case ElementType::kF8E4M3FNUZ:
    case ElementType::kF8E5M2:
    case ElementType::kF8E5M2FNUZ:
    case ElementType::kF8E8M0FNU: return std::string("uint8");  // raw bits
    case ElementType::kI2:
    case ElementType::kI4:
    case ElementType::kF4E2M1FN: *packed = true; return std::string("uint8");  // packed bytes
  }
  return InternalError("element type ", static_cast<int>(type), " has no NumPy dtype");
}

bool AllowsWrite(const hal::Buffer& buffer) { return hal::AnySet(buffer.allowed_access(), hal::MemoryAccess::kWrite); }

}  // namespace

StatusOr<hal::ElementType> ElementTypeOfDtype(const py::dtype& dtype) {
  using hal::ElementType;
  char kind = dtype.kind();
  size_t size = static_cast<size_t>(dtype.itemsize());
  if (kind == 'b' && size == 1) return ElementType::kI1;
  if (kind == 'i' || kind == 'u') {
    switch (size) {
      case 1: return ElementType::kI8;
      case 2: return ElementType::kI16;
      case 4: return ElementType::kI32;
      case 8: return ElementType::kI64;
    }
  }
  if (kind == 'f') {
    switch (size) {
      case 2: return ElementType::kF16;
      case 4: return ElementType::kF32;
      case 8: return ElementType::kF64;
    }
  }
  if (kind == 'c') {
    if (size == 8) return ElementType::kComplexF32;
    if (size == 16) return ElementType::kComplexF64;
  }
  return InvalidArgumentError("NumPy dtype ", std::string(py::str(py::handle(dtype))),
                              " has no kiln element type (bool, int8..int64, uint8..uint64, float16, float32, "
                              "float64, complex64, complex128)");
}

StatusOr<Ref<hal::BufferView>> ArrayToBufferView(py::handle value, hal::Device& device, std::string_view what) {
  py::array array = py::array::ensure(value);
  if (!array) {
    return InvalidArgumentError(what, " is a ", std::string(py::str(value.get_type().attr("__name__"))),
                                ", which NumPy cannot make an array of");
  }
  KILN_ASSIGN_OR_RETURN(hal::ElementType type, ElementTypeOfDtype(array.dtype()), "for ", what);
  if (array.dtype().byteorder() == '>') {
    return InvalidArgumentError(what, " is big-endian (", std::string(py::str(py::handle(array.dtype()))),
                                "); kiln takes little-endian arrays: pass a.astype(a.dtype.newbyteorder('='))");
  }
  size_t item = static_cast<size_t>(array.itemsize());
  bool contiguous = (array.flags() & py::array::c_style) != 0;
  bool aligned = reinterpret_cast<uintptr_t>(array.data()) % item == 0;
  if (!contiguous || !aligned) array = py::reinterpret_steal<py::array>(array.attr("copy")("C").release());
  std::vector<int64_t> dims(array.shape(), array.shape() + array.ndim());
  std::span<const uint8_t> bytes(static_cast<const uint8_t*>(array.data()), static_cast<size_t>(array.nbytes()));

  constexpr hal::MemoryType kMemory = hal::MemoryType::kDeviceLocal | hal::MemoryType::kHostVisible;
  StatusOr<Ref<hal::Buffer>> imported = device.allocator().ImportHostMemory(
      {kMemory, hal::BufferUsage::kDispatchStorage | hal::BufferUsage::kTransferSource | hal::BufferUsage::kMapping,
       hal::MemoryAccess::kRead},
      bytes, MakeRef<PythonOwner>(array), item);
  if (imported.ok()) {
    KILN_ASSIGN_OR_RETURN(Ref<hal::BufferView> view, hal::BufferView::Create(std::move(*imported), dims, type),
                          "for ", what);
    return view;
  }
  // The device cannot read this memory in place: a copy.
  KILN_ASSIGN_OR_RETURN(Ref<hal::BufferView> view, runtime::CreateHostBufferView(device.allocator(), type, dims, bytes),
                        "for ", what);
  return view;
}

StatusOr<py::object> BufferViewToArray(Ref<hal::BufferView> view) {
  bool packed = false;
  KILN_ASSIGN_OR_RETURN(std::string dtype_name, DtypeNameOf(view->element_type(), &packed));
  py::dtype dtype(dtype_name);
  std::vector<py::ssize_t> shape;
  if (packed) {
    shape.push_back(static_cast<py::ssize_t>(view->byte_length()));
  } else {
    for (int64_t d : view->shape()) shape.push_back(static_cast<py::ssize_t>(d));
  }
  if (view->byte_length() == 0) return py::array(dtype, shape);
  hal::Buffer& buffer = *view->buffer();
  if (!hal::AnySet(buffer.memory_type(), hal::MemoryType::kHostVisible) || !hal::AnySet(buffer.usage(), hal::BufferUsage::kMapping)) {
    return UnimplementedError("a ", view->ShapeString(), " result is in device memory the host cannot map (",
                              hal::MemoryTypeString(buffer.memory_type()),
                              "); the Python package reads results from host-visible buffers only");
  }
  // Writable only when the array is the buffer's one user: not an argument passed through,
  // a parameter used from its file, or a module global's value (which the next call reads).
  bool writable = AllowsWrite(buffer) && view->HasOneRef() && view->buffer()->HasOneRef();
  KILN_ASSIGN_OR_RETURN(
      hal::MappedRange range,
      buffer.Map(writable ? hal::MemoryAccess::kRead | hal::MemoryAccess::kWrite : hal::MemoryAccess::kRead, 0,
                 view->byte_length()),
      "while mapping a ", view->ShapeString(), " result");
  void* data = range.data();
  auto* owned = new MappedResult{std::move(view), std::move(range)};
  py::capsule base(owned, [](void* p) { delete static_cast<MappedResult*>(p); });
  py::array array(dtype, shape, {}, data, base);
  if (!writable) py::detail::array_proxy(array.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return py::object(std::move(array));
}

}  // namespace kiln::python
