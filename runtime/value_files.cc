#include "runtime/value_files.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "hal/module/hal_module.h"
#include "runtime/npy.h"
#include "runtime/value_text.h"

namespace kiln::runtime {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// "2x3xf32" into dims and type, for file values; the type part is required.
Status ParseFileShape(std::string_view spec, std::vector<int64_t>& dims, hal::ElementType& type,
                      std::string_view whole) {
  dims.clear();
  std::string_view rest = spec;
  size_t x;
  while ((x = rest.find('x')) != std::string_view::npos) {
    std::string part(rest.substr(0, x));
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos) {
      return InvalidArgumentError("'", whole, "': expected a non-negative dimension, got '", part, "'");
    }
    dims.push_back(std::stoll(part));
    rest.remove_prefix(x + 1);
  }
  std::optional<hal::ElementType> parsed = hal::ParseElementType(rest);
  if (!parsed) return InvalidArgumentError("'", whole, "': unknown element type '", rest, "'");
  type = *parsed;
  return OkStatus();
}

std::string ShapeText(std::span<const int64_t> dims, hal::ElementType type) {
  std::string s;
  for (int64_t d : dims) s += std::to_string(d) + "x";
  return s + std::string(hal::ElementTypeName(type));
}

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

StatusOr<Ref<hal::BufferView>> CreateHostBufferView(hal::Allocator& allocator, hal::ElementType type,
                                                   std::span<const int64_t> dims, std::span<const uint8_t> bytes) {
  KILN_ASSIGN_OR_RETURN(Ref<hal::Buffer> buffer,
                        allocator.Allocate({hal::MemoryType::kDeviceLocal | hal::MemoryType::kHostVisible,
                                            hal::BufferUsage::kDefault | hal::BufferUsage::kMapping},
                                           bytes.size()));
  KILN_RETURN_IF_ERROR(buffer->Write(0, bytes));
  return hal::BufferView::Create(buffer, dims, type);
}

bool IsFileValue(std::string_view text) {
  size_t eq = text.find('=');
  return (!text.empty() && text.front() == '@') || (eq != std::string_view::npos && text.substr(eq + 1, 1) == "@");
}

StatusOr<Ref<hal::BufferView>> ReadBufferViewFile(std::string_view text, hal::Allocator& allocator) {
  size_t at = text.find('@');
  std::string path(text.substr(at + 1));
  bool typed = at > 0;
  std::vector<int64_t> dims;
  hal::ElementType type = hal::ElementType::kF32;
  if (typed) KILN_RETURN_IF_ERROR(ParseFileShape(text.substr(0, at - 1), dims, type, text));
  if (EndsWith(path, ".npy")) {
    KILN_ASSIGN_OR_RETURN(std::vector<NpyArray> arrays,
                          ReadNpyFile(path, typed ? std::optional<hal::ElementType>(type) : std::nullopt), "in '",
                          text, "'");
    NpyArray& array = arrays.front();
    if (typed && (array.type != type || array.shape != dims)) {
      return InvalidArgumentError("'", text, "': the file holds ", ShapeText(array.shape, array.type), ", not ",
                                  ShapeText(dims, type));
    }
    return CreateHostBufferView(allocator, array.type, array.shape, array.data);
  }
  if (!typed) {
    return InvalidArgumentError("'", text, "': a raw file needs its shape and type, e.g. 2x3xf32=@", path,
                                " (or give a .npy file)");
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) return NotFoundError("'", text, "': cannot open '", path, "'");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  uint64_t count = 1;
  for (int64_t d : dims) count *= static_cast<uint64_t>(d);
  std::optional<size_t> expected = hal::ElementStorageBytes(type, count);
  if (!expected || bytes.size() != *expected) {
    return InvalidArgumentError("'", text, "': '", path, "' has ", bytes.size(), " bytes but ", ShapeText(dims, type),
                                " takes ", expected ? std::to_string(*expected) : std::string("too many"));
  }
  return CreateHostBufferView(allocator, type, dims, bytes);
}

Status WriteOutput(std::string_view spec, const vm::Value& value) {
  if (spec == "-") {
    KILN_ASSIGN_OR_RETURN(std::string text, FormatValue(value));
    std::printf("%s\n", text.c_str());
    return OkStatus();
  }
  if (spec.empty() || (spec.front() != '@' && spec.front() != '+')) {
    return InvalidArgumentError("--output='", spec, "': expected -, @FILE.npy, +FILE.npy or @FILE.bin");
  }
  bool append = spec.front() == '+';
  std::string path(spec.substr(1));
  KILN_ASSIGN_OR_RETURN(NpyArray array, ViewAsArray(value), "for --output=", spec);
  if (EndsWith(path, ".npy")) return WriteNpyFile(path, array, append);
  if (append) return InvalidArgumentError("--output='", spec, "': only .npy files can be appended to");
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) return NotFoundError("--output: cannot open '", path, "' for writing");
  file.write(reinterpret_cast<const char*>(array.data.data()), static_cast<std::streamsize>(array.data.size()));
  if (!file) return DataLossError("--output: writing '", path, "' failed");
  return OkStatus();
}

}  // namespace kiln::runtime
