#include "runtime/value_files.h"

#include <cstring>
#include <string>
#include <vector>

#include "hal/module/hal_module.h"
#include "runtime/file_io.h"
#include "runtime/npy.h"
#include "runtime/value_text.h"

namespace kiln::runtime {
namespace {

// A result as an array: a buffer view as itself, a scalar as a 0-d array of its type, a
// null reference as an empty int8 array (which keeps later arrays of a .npy file in place).
StatusOr<NpyArray> ViewAsArray(const vm::Value& value) {
  NpyArray array;
  switch (value.kind) {
    case vm::ValueKind::kI32: array.type = hal::ElementType::kI32; break;
    case vm::ValueKind::kI64: array.type = hal::ElementType::kI64; break;
    case vm::ValueKind::kF32: array.type = hal::ElementType::kF32; break;
    case vm::ValueKind::kF64: array.type = hal::ElementType::kF64; break;
    case vm::ValueKind::kRef: break;
  }
  if (value.kind != vm::ValueKind::kRef) {
    size_t bytes = vm::SlotCount(value.kind) * 4;
    array.data.resize(bytes);
    std::memcpy(array.data.data(), &value.bits, bytes);  // little-endian: the low bytes
    return array;
  }
  if (!value.ref) {
    array.type = hal::ElementType::kI8;
    array.shape = {0};
    return array;
  }
  hal::BufferView* view = value.ref.As<hal::BufferView>();
  if (!view) {
    return InvalidArgumentError("a ", value.ref.type()->name,
                                " cannot be written to a file; only buffer views, scalars and null can");
  }
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

bool IsFileValue(std::string_view text) {
  size_t eq = text.find('=');
  std::string_view rest = eq == std::string_view::npos ? text : text.substr(eq + 1);
  return rest.starts_with('@') || rest.starts_with('+') || (eq == std::string_view::npos && rest.starts_with('*'));
}

StatusOr<std::vector<Ref<hal::BufferView>>> FileValueReader::Read(std::string_view text, hal::Allocator& allocator) {
  size_t eq = text.find('=');
  bool typed = eq != std::string_view::npos;
  std::string_view file = typed ? text.substr(eq + 1) : text;
  char mode = file.front();  // '@' from the start, '+' continue, '*' all remaining
  std::string path(file.substr(1));
  std::vector<int64_t> dims;
  hal::ElementType type = hal::ElementType::kF32;
  if (typed) KILN_RETURN_IF_ERROR(ParseTensorType(text.substr(0, eq), dims, type, text));
  Cursor& cursor = cursors_[path];
  if (mode == '@') cursor = Cursor();
  std::vector<Ref<hal::BufferView>> views;
  if (path.ends_with(".npy")) {
    KILN_ASSIGN_OR_RETURN(std::vector<NpyArray> arrays,
                          ReadNpyFile(path, typed ? std::optional<hal::ElementType>(type) : std::nullopt,
                                      mode == '*' ? SIZE_MAX : cursor.npy_arrays + 1),
                          "in '", text, "'");
    if (mode != '*' && arrays.size() <= cursor.npy_arrays) {
      return OutOfRangeError("'", text, "': the file holds ", arrays.size(), " array(s), all read by earlier inputs");
    }
    for (size_t i = cursor.npy_arrays; i < arrays.size(); ++i) {
      NpyArray& array = arrays[i];
      if (typed && (array.type != type || array.shape != dims)) {
        return InvalidArgumentError("'", text, "': the file holds ", hal::ShapeString(array.shape, array.type),
                                    ", not ", hal::ShapeString(dims, type));
      }
      KILN_ASSIGN_OR_RETURN(Ref<hal::BufferView> view, CreateHostBufferView(allocator, array.type, array.shape, array.data));
      views.push_back(std::move(view));
    }
    cursor.npy_arrays = arrays.size();
    return views;
  }
  if (!typed || mode == '*') {
    return InvalidArgumentError("'", text, "': a raw file needs its shape and type, e.g. 2x3xf32=@", path,
                                " (or give a .npy file)");
  }
  // Raw bytes read straight into the view's mapping: one copy of the data, not two.
  KILN_ASSIGN_OR_RETURN(size_t file_size, FileSize(path), "in '", text, "'");
  KILN_ASSIGN_OR_RETURN(size_t needed, StorageBytes(type, dims), "in '", text, "'");
  if (file_size - cursor.raw_bytes < needed) {
    return InvalidArgumentError(hal::ShapeString(dims, type), " holds ", needed, " bytes, ",
                                file_size - cursor.raw_bytes, " were given",
                                cursor.raw_bytes ? StrCat(" after byte ", cursor.raw_bytes) : std::string(), "; in '",
                                text, "'");
  }
  KILN_ASSIGN_OR_RETURN(Ref<hal::BufferView> view, AllocateHostBufferView(allocator, type, dims, needed));
  {
    KILN_ASSIGN_OR_RETURN(hal::MappedRange range, view->buffer()->Map(hal::MemoryAccess::kWrite));
    KILN_RETURN_IF_ERROR(ReadFileInto(path, range.bytes(), cursor.raw_bytes), "in '", text, "'");
  }
  cursor.raw_bytes += needed;
  cursor.raw = true;
  views.push_back(std::move(view));
  return views;
}

Status FileValueReader::Finish() const {
  for (const auto& [path, cursor] : cursors_) {
    if (!cursor.raw) continue;
    KILN_ASSIGN_OR_RETURN(size_t size, FileSize(path));
    if (size != cursor.raw_bytes) {
      return InvalidArgumentError("'", path, "' holds ", size, " bytes but the inputs read from it take ",
                                  cursor.raw_bytes, "; check their shapes");
    }
  }
  return OkStatus();
}

Status WriteOutput(std::string_view spec, const vm::Value& value) {
  if (spec.empty() || (spec.front() != '@' && spec.front() != '+')) {
    return InvalidArgumentError("--output='", spec, "': expected (empty), -, @FILE.npy, +FILE.npy, @FILE.bin or +FILE.bin");
  }
  bool append = spec.front() == '+';
  std::string path(spec.substr(1));
  KILN_ASSIGN_OR_RETURN(NpyArray array, ViewAsArray(value), "for --output=", spec);
  if (path.ends_with(".npy")) return WriteNpyFile(path, array, append).With("for --output=", spec);
  return WriteFileBytes(path, {reinterpret_cast<const char*>(array.data.data()), array.data.size()}, append)
      .With("for --output=", spec);
}

}  // namespace kiln::runtime
