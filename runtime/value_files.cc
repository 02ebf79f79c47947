#include "runtime/value_files.h"

#include <string>
#include <vector>

#include "hal/module/hal_module.h"
#include "runtime/file_io.h"
#include "runtime/npy.h"
#include "runtime/value_text.h"

namespace kiln::runtime {
namespace {

StatusOr<NpyArray> ViewAsArray(const vm::Value& value) {
  hal::BufferView* view = value.kind == vm::ValueKind::kRef ? value.ref.As<hal::BufferView>() : nullptr;
  if (!view) return InvalidArgumentError("only tensor results can be written to files, got a ", vm::ValueKindName(value.kind));
  NpyArray array;
  array.type = view->element_type();
  array.shape.assign(view->shape().begin(), view->shape().end());
  array.data.resize(view->byte_length());
  KILN_RETURN_IF_ERROR(view->buffer()->Read(0, array.data), "while reading a result");
  return array;
}

}  // namespace

namespace {

// The bytes `dims` x `type` take in a buffer.
StatusOr<size_t> StorageBytes(hal::ElementType type, std::span<const int64_t> dims) {
  KILN_ASSIGN_OR_RETURN(uint64_t count, hal::ShapeElementCount(dims));
  std::optional<size_t> bytes = hal::ElementStorageBytes(type, count);
  if (!bytes) return OutOfRangeError(hal::ShapeString(dims, type), " is too large");
  return *bytes;
}

StatusOr<Ref<hal::BufferView>> AllocateHostBufferView(hal::Allocator& allocator, hal::ElementType type,
                                                     std::span<const int64_t> dims, size_t bytes) {
  KILN_ASSIGN_OR_RETURN(Ref<hal::Buffer> buffer,
                        allocator.Allocate({hal::MemoryType::kDeviceLocal | hal::MemoryType::kHostVisible,
                                            hal::BufferUsage::kDefault | hal::BufferUsage::kMapping},
                                           bytes));
  return hal::BufferView::Create(buffer, dims, type);
}

}  // namespace

StatusOr<Ref<hal::BufferView>> AllocateHostBufferView(hal::Allocator& allocator, hal::ElementType type,
                                                     std::span<const int64_t> dims) {
  KILN_ASSIGN_OR_RETURN(size_t bytes, StorageBytes(type, dims));
  return AllocateHostBufferView(allocator, type, dims, bytes);
}

namespace {

// The storage of `type` and `dims`, which must be `given` bytes. Checked before
// allocating: a wrong-sized file or C buffer costs no allocation.
StatusOr<size_t> CheckedStorageBytes(hal::ElementType type, std::span<const int64_t> dims, size_t given) {
  KILN_ASSIGN_OR_RETURN(size_t needed, StorageBytes(type, dims));
  if (needed != given) {
    return InvalidArgumentError(hal::ShapeString(dims, type), " holds ", needed, " bytes, ", given, " were given");
  }
  return needed;
}

}  // namespace

StatusOr<Ref<hal::BufferView>> CreateHostBufferView(hal::Allocator& allocator, hal::ElementType type,
                                                   std::span<const int64_t> dims, std::span<const uint8_t> bytes) {
  KILN_ASSIGN_OR_RETURN(size_t needed, CheckedStorageBytes(type, dims, bytes.size()));
  KILN_ASSIGN_OR_RETURN(Ref<hal::BufferView> view, AllocateHostBufferView(allocator, type, dims, needed));
  KILN_RETURN_IF_ERROR(view->buffer()->Write(0, bytes));
  return view;
}

namespace {

// A raw file read straight into the view's mapping: one copy of the data, not two.
StatusOr<Ref<hal::BufferView>> ReadRawFile(const std::string& path, hal::Allocator& allocator, hal::ElementType type,
                                           std::span<const int64_t> dims) {
  KILN_ASSIGN_OR_RETURN(size_t file_size, FileSize(path));
  KILN_ASSIGN_OR_RETURN(size_t needed, CheckedStorageBytes(type, dims, file_size));
  KILN_ASSIGN_OR_RETURN(Ref<hal::BufferView> view, AllocateHostBufferView(allocator, type, dims, needed));
  KILN_ASSIGN_OR_RETURN(hal::MappedRange range, view->buffer()->Map(hal::MemoryAccess::kWrite));
  KILN_RETURN_IF_ERROR(ReadFileInto(path, range.bytes()));
  return view;
}

}  // namespace

bool IsFileValue(std::string_view text) {
  size_t eq = text.find('=');
  return text.starts_with('@') || (eq != std::string_view::npos && text.substr(eq + 1).starts_with('@'));
}

StatusOr<Ref<hal::BufferView>> ReadBufferViewFile(std::string_view text, hal::Allocator& allocator) {
  size_t at = text.find('@');
  std::string path(text.substr(at + 1));
  bool typed = at > 0;
  std::vector<int64_t> dims;
  hal::ElementType type = hal::ElementType::kF32;
  if (typed) KILN_RETURN_IF_ERROR(ParseTensorType(text.substr(0, at - 1), dims, type, text));
  if (path.ends_with(".npy")) {
    KILN_ASSIGN_OR_RETURN(std::vector<NpyArray> arrays,
                          ReadNpyFile(path, typed ? std::optional<hal::ElementType>(type) : std::nullopt, /*max_arrays=*/1),
                          "in '",
                          text, "'");
    NpyArray& array = arrays.front();
    if (typed && (array.type != type || array.shape != dims)) {
      return InvalidArgumentError("'", text, "': the file holds ", hal::ShapeString(array.shape, array.type), ", not ",
                                  hal::ShapeString(dims, type));
    }
    return CreateHostBufferView(allocator, array.type, array.shape, array.data);
  }
  if (!typed) {
    return InvalidArgumentError("'", text, "': a raw file needs its shape and type, e.g. 2x3xf32=@", path,
                                " (or give a .npy file)");
  }
  KILN_ASSIGN_OR_RETURN(Ref<hal::BufferView> view, ReadRawFile(path, allocator, type, dims), "in '", text, "'");
  return view;
}

Status WriteOutput(std::string_view spec, const vm::Value& value) {
  if (spec.empty() || (spec.front() != '@' && spec.front() != '+')) {
    return InvalidArgumentError("--output='", spec, "': expected -, @FILE.npy, +FILE.npy or @FILE.bin");
  }
  bool append = spec.front() == '+';
  std::string path(spec.substr(1));
  KILN_ASSIGN_OR_RETURN(NpyArray array, ViewAsArray(value), "for --output=", spec);
  if (path.ends_with(".npy")) return WriteNpyFile(path, array, append);
  if (append) return InvalidArgumentError("--output='", spec, "': only .npy files can be appended to");
  return WriteFileBytes(path, {reinterpret_cast<const char*>(array.data.data()), array.data.size()},
                        /*append=*/false)
      .With("for --output=", spec);
}

}  // namespace kiln::runtime
