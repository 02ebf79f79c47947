#include "io/safetensors_format.h"

#include <array>
#include <filesystem>
#include <map>
#include <vector>

#include "io/byte_reader.h"
#include "io/format_util.h"
#include "io/json.h"

namespace kiln::io {
namespace {

struct Dtype {
  std::string_view name;   // safetensors spelling
  std::string_view kiln;   // kiln element type; empty: not supported
  uint32_t bits;
};
constexpr std::array<Dtype, 20> kDtypes = {{
    {"BOOL", "i1", 8},         {"U8", "i8", 8},          {"I8", "i8", 8},
    {"F8_E5M2", "f8E5M2", 8},  {"F8_E4M3", "f8E4M3FN", 8}, {"F8_E8M0", "f8E8M0FNU", 8},
    {"F4", "f4E2M1FN", 4},     {"F6_E2M3", "", 6},       {"F6_E3M2", "", 6},
    {"I16", "i16", 16},        {"U16", "i16", 16},       {"F16", "f16", 16},
    {"BF16", "bf16", 16},      {"I32", "i32", 32},       {"U32", "i32", 32},
    {"F32", "f32", 32},        {"C64", "complex<f32>", 64}, {"F64", "f64", 64},
    {"I64", "i64", 64},        {"U64", "i64", 64},
}};

const Dtype* FindDtype(std::string_view name) {
  for (const Dtype& d : kDtypes) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

class SafetensorsParser {
 public:
  SafetensorsParser(Ref<MappedFile> file, ParameterIndex& index)
      : file_(std::move(file)), index_(index), label_(StrCat("safetensors file '", file_->path(), "'")) {}

  Status Parse() {
    std::span<const uint8_t> bytes = file_->bytes();
    ByteReader r(bytes, label_);
    uint64_t header_length = 0;
    KILN_RETURN_IF_ERROR(r.Read(&header_length, "the header length"));
    if (header_length > r.remaining()) {
      return DataLossError(label_, ": truncated: the header length says ", header_length,
                           " bytes of JSON follow, but the file has ", r.remaining(), " after the length");
    }
    if (header_length > kMaxSafetensorsHeaderBytes) {
      return InvalidArgumentError(label_, ": the header is ", header_length, " bytes; safetensors allows at most ",
                                  kMaxSafetensorsHeaderBytes);
    }
    if (header_length == 0 || bytes[8] != '{') {
      return InvalidArgumentError(label_, ": the header does not start with '{': not a safetensors file");
    }
    std::string_view text(reinterpret_cast<const char*>(bytes.data() + 8), static_cast<size_t>(header_length));
    KILN_ASSIGN_OR_RETURN(JsonValue header, ParseJson(text, label_, 8));
    if (header.type != JsonValue::Type::kObject) {
      return InvalidArgumentError(label_, ": the header is ", JsonTypeName(header.type), ", expected an object");
    }
    data_start_ = 8 + header_length;
    data_size_ = bytes.size() - data_start_;
    std::vector<ParameterEntry> entries;
    for (const auto& [key, info] : header.members) {
      if (key == "__metadata__") {
        if (info.type != JsonValue::Type::kObject) {
          return InvalidArgumentError(label_, ": \"__metadata__\" is ", JsonTypeName(info.type),
                                      ", expected an object");
        }
        continue;
      }
      ParameterEntry entry;
      KILN_RETURN_IF_ERROR(ParseTensor(key, info, &entry));
      entries.push_back(std::move(entry));
    }
    KILN_RETURN_IF_ERROR(CheckNoOverlap(entries, label_));
    for (ParameterEntry& entry : entries) KILN_RETURN_IF_ERROR(index_.Add(std::move(entry)));
    return OkStatus();
  }

 private:
  Status Bad(std::string_view key, const JsonValue& at, std::string_view what) const {
    return InvalidArgumentError(label_, ": tensor '", key, "' (header byte ", at.offset, "): ", what);
  }

  Status ParseTensor(const std::string& key, const JsonValue& info, ParameterEntry* e) {
    if (info.type != JsonValue::Type::kObject) {
      return Bad(key, info, StrCat("expected an object, found ", JsonTypeName(info.type)));
    }
    const JsonValue* dtype = info.Find("dtype");
    const JsonValue* shape = info.Find("shape");
    const JsonValue* offsets = info.Find("data_offsets");
    if (!dtype || dtype->type != JsonValue::Type::kString) return Bad(key, info, "expected a string \"dtype\"");
    if (!shape || shape->type != JsonValue::Type::kArray) return Bad(key, info, "expected an array \"shape\"");
    if (!offsets || offsets->type != JsonValue::Type::kArray || offsets->items.size() != 2 ||
        !offsets->items[0].AsUint64() || !offsets->items[1].AsUint64()) {
      return Bad(key, offsets ? *offsets : info, "expected \"data_offsets\": [begin, end] of two unsigned integers");
    }
    const Dtype* type = FindDtype(dtype->text);
    if (!type) return Bad(key, *dtype, StrCat("unknown dtype \"", dtype->text, "\""));
    if (type->kiln.empty()) {
      return UnimplementedError(label_, ": tensor '", key, "' has dtype ", type->name,
                                ", which kiln has no element type for");
    }
    uint64_t count = 1;
    for (const JsonValue& dim : shape->items) {
      std::optional<uint64_t> n = dim.AsUint64();
      if (!n || *n > static_cast<uint64_t>(INT64_MAX)) {
        return Bad(key, dim, "expected the shape's dimensions to be non-negative integers");
      }
      if (!CheckedMul(count, *n, &count)) return Bad(key, *shape, "the shape's element count overflows 64 bits");
      e->shape.push_back(static_cast<int64_t>(*n));
    }
    uint64_t bits = 0;
    if (!CheckedMul(count, type->bits, &bits)) return Bad(key, *shape, "the tensor's size overflows 64 bits");
    uint64_t expected = bits / 8 + (bits % 8 != 0);
    uint64_t begin = *offsets->items[0].AsUint64(), end = *offsets->items[1].AsUint64();
    if (begin > end) return Bad(key, *offsets, StrCat("data_offsets [", begin, ", ", end, ") end before they begin"));
    if (end > data_size_) {
      return OutOfRangeError(label_, ": tensor '", key, "' has data_offsets [", begin, ", ", end,
                             ") past the end of the ", data_size_, " data bytes after the header");
    }
    if (end - begin != expected) {
      return InvalidArgumentError(label_, ": tensor '", key, "': shape ", ShapeText(e->shape), " x ", type->name,
                                  " is ", expected, " bytes but data_offsets [", begin, ", ", end, ") hold ",
                                  end - begin);
    }
    e->key = key;
    e->file = file_;
    e->offset = data_start_ + begin;
    e->length = end - begin;
    e->element_type = std::string(type->kiln);
    e->source = file_->path();
    return OkStatus();
  }

  Ref<MappedFile> file_;
  ParameterIndex& index_;
  std::string label_;
  uint64_t data_start_ = 0, data_size_ = 0;
};

}  // namespace

Status ParseSafetensors(Ref<MappedFile> file, ParameterIndex& index) {
  if (!file) return InvalidArgumentError("ParseSafetensors: no file");
  return SafetensorsParser(std::move(file), index).Parse();
}

Status ParseSafetensorsIndex(Ref<MappedFile> file, ParameterIndex& index) {
  if (!file) return InvalidArgumentError("ParseSafetensorsIndex: no file");
  std::string label = StrCat("safetensors index '", file->path(), "'");
  std::span<const uint8_t> bytes = file->bytes();
  std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  KILN_ASSIGN_OR_RETURN(JsonValue root, ParseJson(text, label));
  const JsonValue* map = root.type == JsonValue::Type::kObject ? root.Find("weight_map") : nullptr;
  if (!map || map->type != JsonValue::Type::kObject) {
    return InvalidArgumentError(label, ": expected an object with a \"weight_map\" object");
  }
  std::filesystem::path dir = std::filesystem::path(file->path()).parent_path();
  std::map<std::string, Ref<ParameterIndex>> shards;
  for (const auto& [key, shard] : map->members) {
    if (shard.type != JsonValue::Type::kString || shard.text.empty()) {
      return InvalidArgumentError(label, ": weight_map entry '", key, "' (byte ", shard.offset,
                                  ") is not a file name string");
    }
    auto it = shards.find(shard.text);
    if (it == shards.end()) {
      std::string path = (dir / shard.text).string();
      KILN_ASSIGN_OR_RETURN(Ref<MappedFile> mapped, MappedFile::Open(path), "for shard '", shard.text, "' of ", label);
      auto shard_index = MakeRef<ParameterIndex>(path);
      KILN_RETURN_IF_ERROR(ParseSafetensors(mapped, *shard_index), "in shard '", shard.text, "' of ", label);
      it = shards.emplace(shard.text, std::move(shard_index)).first;
    }
    const ParameterEntry* entry = it->second->Find(key);
    if (!entry) {
      return NotFoundError(label, ": weight_map puts '", key, "' in shard '", shard.text, "', which has no tensor '",
                           key, "'");
    }
    KILN_RETURN_IF_ERROR(index.Add(*entry));
  }
  return OkStatus();
}

}  // namespace kiln::io
