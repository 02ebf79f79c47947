#include "io/gguf_format.h"

#include <algorithm>
#include <array>
#include <vector>

#include "io/byte_reader.h"
#include "io/format_util.h"

namespace kiln::io {
namespace {

constexpr uint32_t kMagic = 0x46554747u;  // "GGUF"
constexpr uint64_t kDefaultAlignment = 32;
constexpr uint32_t kMaxDims = 8;
constexpr int kMaxArrayDepth = 16;

enum ValueType : uint32_t {
  kU8 = 0, kI8, kU16, kI16, kU32, kI32, kF32, kBool, kString, kArray, kU64, kI64, kF64,
};

// Bytes of a fixed-size value type; 0 for strings, arrays and unknown types.
uint64_t FixedValueSize(uint32_t type) {
  switch (type) {
    case kU8: case kI8: case kBool: return 1;
    case kU16: case kI16: return 2;
    case kU32: case kI32: case kF32: return 4;
    case kU64: case kI64: case kF64: return 8;
    default: return 0;
  }
}

struct TensorType {
  uint32_t id;
  std::string_view name;  // ggml's
  std::string_view kiln;  // empty: kiln does not read it
  uint64_t block_elements, block_bytes;
};
constexpr std::array<TensorType, 32> kTensorTypes = {{
    {0, "F32", "f32", 1, 4},        {1, "F16", "f16", 1, 2},          {2, "Q4_0", "gguf.q4_0", 32, 18},
    {3, "Q4_1", "", 32, 20},        {6, "Q5_0", "", 32, 22},          {7, "Q5_1", "", 32, 24},
    {8, "Q8_0", "gguf.q8_0", 32, 34}, {9, "Q8_1", "", 32, 36},        {10, "Q2_K", "", 256, 84},
    {11, "Q3_K", "", 256, 110},     {12, "Q4_K", "", 256, 144},       {13, "Q5_K", "", 256, 176},
    {14, "Q6_K", "", 256, 210},     {15, "Q8_K", "", 256, 292},       {16, "IQ2_XXS", "", 256, 66},
    {17, "IQ2_XS", "", 256, 74},    {18, "IQ3_XXS", "", 256, 98},     {19, "IQ1_S", "", 256, 50},
    {20, "IQ4_NL", "", 32, 18},     {21, "IQ3_S", "", 256, 110},      {22, "IQ2_S", "", 256, 82},
    {23, "IQ4_XS", "", 256, 136},   {24, "I8", "i8", 1, 1},           {25, "I16", "i16", 1, 2},
    {26, "I32", "i32", 1, 4},       {27, "I64", "i64", 1, 8},         {28, "F64", "f64", 1, 8},
    {29, "IQ1_M", "", 256, 56},     {30, "BF16", "bf16", 1, 2},       {34, "TQ1_0", "", 256, 54},
    {35, "TQ2_0", "", 256, 66},     {39, "MXFP4", "", 32, 17},
}};

const TensorType* FindTensorType(uint32_t id) {
  for (const TensorType& t : kTensorTypes) {
    if (t.id == id) return &t;
  }
  return nullptr;
}

struct TensorInfo {
  std::string name;
  std::vector<int64_t> shape;  // outermost first
  uint32_t type = 0;
  uint64_t offset = 0;  // in the data section
};

class GgufParser {
 public:
  GgufParser(Ref<MappedFile> file, ParameterIndex& index)
      : file_(std::move(file)),
        index_(index),
        label_(StrCat("gguf file '", file_->path(), "'")),
        r_(file_->bytes(), label_) {}

  Status Parse() {
    uint32_t magic = 0, version = 0;
    uint64_t tensor_count = 0, kv_count = 0;
    KILN_RETURN_IF_ERROR(r_.Read(&magic, "the GGUF magic"));
    if (magic != kMagic) return InvalidArgumentError(label_, ": expected the magic 'GGUF', found 0x", std::hex, magic);
    KILN_RETURN_IF_ERROR(r_.Read(&version, "the version"));
    if (version == 0x02000000u || version == 0x03000000u) {
      return UnimplementedError(label_, ": a big-endian GGUF file; kiln reads little-endian GGUF only");
    }
    if (version != 2 && version != 3) {
      return UnimplementedError(label_, ": GGUF version ", version, "; kiln reads versions 2 and 3");
    }
    KILN_RETURN_IF_ERROR(r_.Read(&tensor_count, "the tensor count"));
    KILN_RETURN_IF_ERROR(r_.Read(&kv_count, "the metadata count"));
    for (uint64_t i = 0; i < kv_count; ++i) KILN_RETURN_IF_ERROR(ParseKeyValue(i));
    std::vector<TensorInfo> infos;
    for (uint64_t i = 0; i < tensor_count; ++i) {
      TensorInfo info;
      KILN_RETURN_IF_ERROR(ParseTensorInfo(i, &info));
      infos.push_back(std::move(info));
    }
    uint64_t data_start = 0;
    if (!AlignUp(r_.offset(), alignment_, &data_start) || (!infos.empty() && data_start > r_.size())) {
      return DataLossError(label_, ": truncated: the data section would start at offset ", r_.offset(),
                           " aligned to ", alignment_, " but the file has ", r_.size(), " bytes");
    }
    std::vector<ParameterEntry> entries;
    for (TensorInfo& info : infos) {
      ParameterEntry entry;
      KILN_RETURN_IF_ERROR(MakeEntry(std::move(info), data_start, &entry));
      entries.push_back(std::move(entry));
    }
    KILN_RETURN_IF_ERROR(CheckNoOverlap(entries, label_));
    for (ParameterEntry& entry : entries) KILN_RETURN_IF_ERROR(index_.Add(std::move(entry)));
    return OkStatus();
  }

 private:
  Status ReadString(std::string_view what, std::span<const uint8_t>* out) {
    uint64_t length = 0;
    KILN_RETURN_IF_ERROR(r_.Read(&length, what));
    return r_.Bytes(length, out, what);
  }

  // Skips one value of `type`; arrays recurse up to kMaxArrayDepth.
  Status SkipValue(uint32_t type, std::string_view key, int depth) {
    if (uint64_t size = FixedValueSize(type)) return r_.Skip(size, "a metadata value");
    if (type == kString) {
      std::span<const uint8_t> s;
      return ReadString("a metadata string", &s);
    }
    if (type != kArray) {
      return InvalidArgumentError(label_, ": metadata '", key, "' has value type ", type,
                                  " at offset ", r_.offset(), "; expected 0..12");
    }
    if (depth >= kMaxArrayDepth) {
      return InvalidArgumentError(label_, ": metadata '", key, "' nests arrays deeper than ", kMaxArrayDepth);
    }
    uint32_t element_type = 0;
    uint64_t count = 0;
    KILN_RETURN_IF_ERROR(r_.Read(&element_type, "a metadata array"));
    KILN_RETURN_IF_ERROR(r_.Read(&count, "a metadata array"));
    if (uint64_t size = FixedValueSize(element_type)) {
      // Checked before multiplying: count * size cannot overflow once count <= remaining / size.
      if (count > r_.remaining() / size) return r_.Truncated(count * size, "a metadata array");
      return r_.Skip(count * size, "a metadata array");
    }
    // Strings and arrays take at least 8 bytes each, so this loop ends at the file's end.
    for (uint64_t i = 0; i < count; ++i) KILN_RETURN_IF_ERROR(SkipValue(element_type, key, depth + 1));
    return OkStatus();
  }

  Status ParseKeyValue(uint64_t i) {
    std::span<const uint8_t> raw;
    KILN_RETURN_IF_ERROR(ReadString("a metadata key", &raw));
    std::string key(raw.begin(), raw.end());
    uint32_t type = 0;
    KILN_RETURN_IF_ERROR(r_.Read(&type, "a metadata value type"));
    if (key != "general.alignment") return SkipValue(type, key, 0);
    uint32_t alignment = 0;
    if (type != kU32) {
      return InvalidArgumentError(label_, ": general.alignment has value type ", type, ", expected uint32 (4)");
    }
    KILN_RETURN_IF_ERROR(r_.Read(&alignment, "general.alignment"));
    if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
      return InvalidArgumentError(label_, ": general.alignment is ", alignment, ", expected a power of two");
    }
    alignment_ = alignment;
    return OkStatus();
  }

  Status ParseTensorInfo(uint64_t i, TensorInfo* info) {
    std::span<const uint8_t> raw;
    KILN_RETURN_IF_ERROR(ReadString("a tensor name", &raw));
    info->name.assign(raw.begin(), raw.end());
    uint32_t n_dims = 0;
    KILN_RETURN_IF_ERROR(r_.Read(&n_dims, "a tensor's dimension count"));
    if (n_dims > kMaxDims) {
      return InvalidArgumentError(label_, ": tensor '", info->name, "' has ", n_dims, " dimensions, at most ",
                                  kMaxDims, " expected");
    }
    info->shape.resize(n_dims);
    for (uint32_t d = 0; d < n_dims; ++d) {
      uint64_t ne = 0;
      KILN_RETURN_IF_ERROR(r_.Read(&ne, "a tensor's dimensions"));
      if (ne > static_cast<uint64_t>(INT64_MAX)) {
        return InvalidArgumentError(label_, ": tensor '", info->name, "' has a negative dimension");
      }
      info->shape[n_dims - 1 - d] = static_cast<int64_t>(ne);  // ne[] is innermost first
    }
    KILN_RETURN_IF_ERROR(r_.Read(&info->type, "a tensor's type"));
    return r_.Read(&info->offset, "a tensor's offset");
  }

  Status MakeEntry(TensorInfo info, uint64_t data_start, ParameterEntry* e) {
    const TensorType* type = FindTensorType(info.type);
    if (!type) return InvalidArgumentError(label_, ": tensor '", info.name, "' has unknown type ", info.type);
    if (type->kiln.empty()) {
      return UnimplementedError(label_, ": tensor '", info.name, "' has type ", type->name, " (", type->id,
                                "); kiln reads F32, F16, BF16, F64, I8, I16, I32, I64, Q8_0 and Q4_0");
    }
    uint64_t count = 1;
    for (int64_t dim : info.shape) {
      if (!CheckedMul(count, static_cast<uint64_t>(dim), &count)) {
        return InvalidArgumentError(label_, ": tensor '", info.name, "': the element count overflows 64 bits");
      }
    }
    uint64_t innermost = info.shape.empty() ? 1 : static_cast<uint64_t>(info.shape.back());
    if (innermost % type->block_elements != 0) {
      return InvalidArgumentError(label_, ": tensor '", info.name, "' of type ", type->name, " has shape ",
                                  ShapeText(info.shape), "; its innermost dimension must be a multiple of ",
                                  type->block_elements);
    }
    uint64_t length = 0, absolute = 0;
    if (!CheckedMul(count / type->block_elements, type->block_bytes, &length)) {
      return InvalidArgumentError(label_, ": tensor '", info.name, "': its size overflows 64 bits");
    }
    if (info.offset % alignment_ != 0) {
      return InvalidArgumentError(label_, ": tensor '", info.name, "' is at data offset ", info.offset,
                                  ", which is not aligned to ", alignment_, " bytes");
    }
    if (!CheckedAdd(data_start, info.offset, &absolute) || !RangeFits(absolute, length, r_.size())) {
      return OutOfRangeError(label_, ": tensor '", info.name, "' (", type->name, " ", ShapeText(info.shape), ", ",
                             length, " bytes) at data offset ", info.offset, " is past the end of the ",
                             r_.size(), "-byte file (data from offset ", data_start, ")");
    }
    e->key = std::move(info.name);
    e->file = file_;
    e->offset = absolute;
    e->length = length;
    e->element_type = std::string(type->kiln);
    e->shape = std::move(info.shape);
    e->source = file_->path();
    return OkStatus();
  }

  Ref<MappedFile> file_;
  ParameterIndex& index_;
  std::string label_;
  ByteReader r_;
  uint64_t alignment_ = kDefaultAlignment;
};

}  // namespace

Status ParseGguf(Ref<MappedFile> file, ParameterIndex& index) {
  if (!file) return InvalidArgumentError("ParseGguf: no file");
  return GgufParser(std::move(file), index).Parse();
}

}  // namespace kiln::io
