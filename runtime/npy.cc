#include "runtime/npy.h"

#include <charconv>

#include "hal/buffer_view.h"
#include "runtime/file_io.h"

namespace kiln::runtime {
namespace {

using hal::ElementType;

struct DescriptorName {
  ElementType type;
  const char* name;  // without the byte-order character
};

// Written as "<" + name for multi-byte types and "|" + name for single bytes; the ml_dtypes
// names are written bare, as ml_dtypes spells them.
constexpr DescriptorName kDescriptors[] = {
    {ElementType::kI1, "b1"},       {ElementType::kI8, "i1"},         {ElementType::kI16, "i2"},
    {ElementType::kI32, "i4"},      {ElementType::kI64, "i8"},        {ElementType::kF16, "f2"},
    {ElementType::kF32, "f4"},      {ElementType::kF64, "f8"},        {ElementType::kComplexF32, "c8"},
    {ElementType::kComplexF64, "c16"},
};
constexpr DescriptorName kNamedDescriptors[] = {
    {ElementType::kBF16, "bfloat16"},          {ElementType::kF8E4M3FN, "float8_e4m3fn"},
    {ElementType::kF8E4M3FNUZ, "float8_e4m3fnuz"}, {ElementType::kF8E5M2, "float8_e5m2"},
    {ElementType::kF8E5M2FNUZ, "float8_e5m2fnuz"}, {ElementType::kF8E8M0FNU, "float8_e8m0fnu"},
};
// Unsigned integers read as the signless type of the same width.
constexpr DescriptorName kUnsignedDescriptors[] = {
    {ElementType::kI8, "u1"}, {ElementType::kI16, "u2"}, {ElementType::kI32, "u4"}, {ElementType::kI64, "u8"}};

// The value of `key` in a Python dict literal header: the text after "'key':" up to the
// next top-level comma or closing brace.
std::optional<std::string_view> HeaderField(std::string_view header, std::string_view key) {
  std::string quoted = "'" + std::string(key) + "'";
  size_t at = header.find(quoted);
  if (at == std::string_view::npos) return std::nullopt;
  size_t colon = header.find(':', at + quoted.size());
  if (colon == std::string_view::npos) return std::nullopt;
  size_t begin = colon + 1, end = begin;
  int depth = 0;
  for (; end < header.size(); ++end) {
    char c = header[end];
    if (c == '(' || c == '[') ++depth;
    if ((c == ')' || c == ']') && --depth < 0) return std::nullopt;
    if (depth == 0 && (c == ',' || c == '}')) break;
  }
  std::string_view value = header.substr(begin, end - begin);
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
  return value;
}

StatusOr<ElementType> ParseDescriptor(std::string_view descr, std::optional<ElementType> void_type) {
  if (descr.size() < 2 || (descr.front() != '\'' && descr.front() != '"') || descr.back() != descr.front()) {
    return InvalidArgumentError("expected a quoted dtype descriptor, got ", descr);
  }
  descr = descr.substr(1, descr.size() - 2);
  if (descr.empty()) return InvalidArgumentError("the dtype descriptor is empty");
  for (const DescriptorName& d : kNamedDescriptors) {
    if (descr == d.name) return d.type;
  }
  char order = descr.front();
  if (order == '>') return UnimplementedError("big-endian arrays ('", descr, "') are not supported");
  std::string_view name = (order == '<' || order == '|' || order == '=') ? descr.substr(1) : descr;
  for (const DescriptorName& d : kDescriptors) {
    if (name == d.name) return d.type;
  }
  for (const DescriptorName& d : kUnsignedDescriptors) {
    if (name == d.name) return d.type;
  }
  if (!name.empty() && name.front() == 'V') {
    if (!void_type) {
      return InvalidArgumentError("dtype '", descr, "' holds raw bytes; name the element type, e.g. --input=2x3xbf16=@file.npy");
    }
    int bits = hal::ElementStorageBits(*void_type);
    if (bits % 8 != 0 || std::string_view(std::to_string(bits / 8)) != name.substr(1)) {
      return InvalidArgumentError("dtype '", descr, "' does not hold ", hal::ElementTypeName(*void_type), " elements");
    }
    return *void_type;
  }
  return UnimplementedError("unsupported dtype '", descr, "'");
}

StatusOr<std::vector<int64_t>> ParseShapeTuple(std::string_view text) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') {
    return InvalidArgumentError("expected a shape tuple, got ", text);
  }
  std::vector<int64_t> shape;
  std::string_view rest = text.substr(1, text.size() - 2);
  while (!rest.empty()) {
    if (rest.front() == ' ' || rest.front() == ',') {
      rest.remove_prefix(1);
      continue;
    }
    int64_t dim = -1;
    auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), dim);
    if (error != std::errc() || dim < 0) return InvalidArgumentError("expected a dimension in shape ", text);
    shape.push_back(dim);
    rest.remove_prefix(end - rest.data());
  }
  return shape;
}

}  // namespace

std::optional<std::string> NpyDescriptor(ElementType type) {
  for (const DescriptorName& d : kNamedDescriptors) {
    if (d.type == type) return std::string(d.name);
  }
  for (const DescriptorName& d : kDescriptors) {
    if (d.type == type) return std::string(hal::ElementStorageBits(type) <= 8 ? "|" : "<") + d.name;
  }
  return std::nullopt;
}

StatusOr<std::vector<NpyArray>> ParseNpy(std::string_view bytes, std::optional<ElementType> void_type,
                                         size_t max_arrays) {
  static constexpr char kMagic[] = "\x93NUMPY";
  std::vector<NpyArray> arrays;
  size_t offset = 0;
  while (offset < bytes.size() && arrays.size() < max_arrays) {
    std::string_view rest = bytes.substr(offset);
    std::string where = StrCat("array ", arrays.size(), " at byte ", offset);
    if (rest.size() < 10 || rest.substr(0, 6) != std::string_view(kMagic, 6)) {
      return InvalidArgumentError(where, ": not a .npy array (no \\x93NUMPY magic)");
    }
    uint8_t major = static_cast<uint8_t>(rest[6]);
    size_t length_bytes = major == 1 ? 2 : 4;
    if (major < 1 || major > 3) return UnimplementedError(where, ": .npy format version ", int(major), " is not supported");
    if (rest.size() < 8 + length_bytes) return InvalidArgumentError(where, ": truncated header");
    size_t header_length = 0;
    for (size_t i = 0; i < length_bytes; ++i) header_length |= size_t(uint8_t(rest[8 + i])) << (8 * i);
    size_t data_start = 8 + length_bytes + header_length;
    if (rest.size() < data_start) return InvalidArgumentError(where, ": truncated header");
    std::string_view header = rest.substr(8 + length_bytes, header_length);
    std::optional<std::string_view> descr = HeaderField(header, "descr");
    std::optional<std::string_view> fortran = HeaderField(header, "fortran_order");
    std::optional<std::string_view> shape = HeaderField(header, "shape");
    if (!descr || !fortran || !shape) return InvalidArgumentError(where, ": header lacks descr, fortran_order or shape");
    if (*fortran != "False") return UnimplementedError(where, ": Fortran-order arrays are not supported");
    NpyArray array;
    KILN_ASSIGN_OR_RETURN(array.type, ParseDescriptor(*descr, void_type), where);
    KILN_ASSIGN_OR_RETURN(array.shape, ParseShapeTuple(*shape), where);
    KILN_ASSIGN_OR_RETURN(uint64_t count, hal::ShapeElementCount(array.shape), where);
    std::optional<size_t> size = hal::ElementStorageBytes(array.type, count);
    if (!size || rest.size() - data_start < *size) {
      return InvalidArgumentError(where, ": the data is shorter than its shape says");
    }
    array.data.assign(rest.begin() + data_start, rest.begin() + data_start + *size);
    offset += data_start + *size;
    arrays.push_back(std::move(array));
  }
  if (arrays.empty()) return InvalidArgumentError("the .npy data is empty");
  return arrays;
}

StatusOr<std::vector<NpyArray>> ReadNpyFile(const std::string& path, std::optional<ElementType> void_type,
                                            size_t max_arrays) {
  KILN_ASSIGN_OR_RETURN(std::string bytes, ReadFileBytes(path));
  KILN_ASSIGN_OR_RETURN(std::vector<NpyArray> arrays, ParseNpy(bytes, void_type, max_arrays), "in '", path, "'");
  return arrays;
}

StatusOr<std::string> SerializeNpy(const NpyArray& array) {
  std::optional<std::string> descr = NpyDescriptor(array.type);
  if (!descr) return UnimplementedError(hal::ElementTypeName(array.type), " elements cannot be written to .npy");
  std::string shape = "(";
  for (int64_t d : array.shape) shape += std::to_string(d) + ",";
  if (array.shape.size() > 1) shape.pop_back();  // (2,) for rank 1, (2,3) otherwise
  shape += ")";
  std::string header = "{'descr': '" + *descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Magic, version, length, header and newline padded to a multiple of 64 bytes.
  bool v2 = header.size() + 11 > 65535;
  size_t prefix = v2 ? 12 : 10;
  size_t total = (prefix + header.size() + 1 + 63) / 64 * 64;
  header.append(total - prefix - header.size() - 1, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += static_cast<char>(v2 ? 2 : 1);
  out += '\0';
  size_t length = header.size();
  for (size_t i = 0; i < (v2 ? 4u : 2u); ++i) out += static_cast<char>((length >> (8 * i)) & 0xff);
  out += header;
  out.append(reinterpret_cast<const char*>(array.data.data()), array.data.size());
  return out;
}

Status WriteNpyFile(const std::string& path, const NpyArray& array, bool append) {
  KILN_ASSIGN_OR_RETURN(std::string bytes, SerializeNpy(array));
  return WriteFileBytes(path, bytes, append);
}

}  // namespace kiln::runtime
