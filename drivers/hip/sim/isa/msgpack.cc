// The bounded MessagePack reader of the AMDGPU metadata note; see msgpack.h.
#include "drivers/hip/sim/isa/msgpack.h"

#include <cstring>

namespace kiln::hsa_sim::isa {

// Nesting deeper than this is refused: the metadata note nests four levels.
constexpr int kMaxDepth = 32;

class MsgpackParser {
 public:
  explicit MsgpackParser(std::span<const uint8_t> bytes) : bytes_(bytes) {}

  Status ParseValue(MsgpackValue* out, int depth) {
    if (depth > kMaxDepth) return Error("nesting deeper than ", kMaxDepth);
    uint8_t tag = 0;
    KILN_RETURN_IF_ERROR(Take(1, &tag));
    if (tag <= 0x7f) return SetUint(out, tag);
    if (tag >= 0xe0) return SetInt(out, static_cast<int8_t>(tag));
    if ((tag & 0xf0) == 0x80) return ParseMap(out, tag & 0x0f, depth);
    if ((tag & 0xf0) == 0x90) return ParseArray(out, tag & 0x0f, depth);
    if ((tag & 0xe0) == 0xa0) return ParseString(out, tag & 0x1f, MsgpackValue::Kind::kString);
    uint64_t n = 0;
    switch (tag) {
      case 0xc0:
        out->kind_ = MsgpackValue::Kind::kNil;
        return OkStatus();
      case 0xc2:
      case 0xc3:
        out->kind_ = MsgpackValue::Kind::kBool;
        out->bool_ = tag == 0xc3;
        return OkStatus();
      case 0xc4:
      case 0xc5:
      case 0xc6:
        KILN_RETURN_IF_ERROR(TakeUint(1u << (tag - 0xc4), &n));
        return ParseString(out, n, MsgpackValue::Kind::kBinary);
      case 0xca: {
        KILN_RETURN_IF_ERROR(TakeUint(4, &n));
        float f;
        uint32_t bits = static_cast<uint32_t>(n);
        std::memcpy(&f, &bits, 4);
        out->kind_ = MsgpackValue::Kind::kFloat;
        out->float_ = f;
        return OkStatus();
      }
      case 0xcb: {
        KILN_RETURN_IF_ERROR(TakeUint(8, &n));
        out->kind_ = MsgpackValue::Kind::kFloat;
        std::memcpy(&out->float_, &n, 8);
        return OkStatus();
      }
      case 0xcc:
      case 0xcd:
      case 0xce:
      case 0xcf:
        KILN_RETURN_IF_ERROR(TakeUint(1u << (tag - 0xcc), &n));
        return SetUint(out, n);
      case 0xd0:
      case 0xd1:
      case 0xd2:
      case 0xd3: {
        uint32_t width = 1u << (tag - 0xd0);
        KILN_RETURN_IF_ERROR(TakeUint(width, &n));
        if (width < 8 && (n >> (8 * width - 1)) & 1) n |= ~uint64_t{0} << (8 * width);  // sign-extend
        return SetInt(out, static_cast<int64_t>(n));
      }
      case 0xd9:
      case 0xda:
      case 0xdb:
        KILN_RETURN_IF_ERROR(TakeUint(1u << (tag - 0xd9), &n));
        return ParseString(out, n, MsgpackValue::Kind::kString);
      case 0xdc:
      case 0xdd:
        KILN_RETURN_IF_ERROR(TakeUint(tag == 0xdc ? 2 : 4, &n));
        return ParseArray(out, n, depth);
      case 0xde:
      case 0xdf:
        KILN_RETURN_IF_ERROR(TakeUint(tag == 0xde ? 2 : 4, &n));
        return ParseMap(out, n, depth);
    }
    return Error("tag ", static_cast<uint32_t>(tag), " (extension types and reserved tags are not metadata)");
  }

  size_t position() const { return at_; }

 private:
  template <typename... Args>
  Status Error(const Args&... args) const {
    return DataLossError("msgpack at byte ", at_, ": ", args...);
  }
  Status Take(uint64_t n, uint8_t* first) {
    if (n > bytes_.size() - at_) return Error("needs ", n, " bytes, ", bytes_.size() - at_, " are left");
    if (first) *first = bytes_[at_];
    at_ += n;
    return OkStatus();
  }
  // A big-endian unsigned integer of `width` bytes.
  Status TakeUint(uint32_t width, uint64_t* out) {
    size_t start = at_;
    KILN_RETURN_IF_ERROR(Take(width, nullptr));
    *out = 0;
    for (uint32_t i = 0; i < width; ++i) *out = (*out << 8) | bytes_[start + i];
    return OkStatus();
  }
  Status SetUint(MsgpackValue* out, uint64_t v) {
    out->kind_ = MsgpackValue::Kind::kUint;
    out->uint_ = v;
    return OkStatus();
  }
  Status SetInt(MsgpackValue* out, int64_t v) {
    if (v >= 0) return SetUint(out, static_cast<uint64_t>(v));
    out->kind_ = MsgpackValue::Kind::kInt;
    out->uint_ = static_cast<uint64_t>(v);
    return OkStatus();
  }
  Status ParseString(MsgpackValue* out, uint64_t n, MsgpackValue::Kind kind) {
    size_t start = at_;
    KILN_RETURN_IF_ERROR(Take(n, nullptr));
    out->kind_ = kind;
    out->string_.assign(reinterpret_cast<const char*>(bytes_.data() + start), n);
    return OkStatus();
  }
  // Every element takes at least one byte: a count above the bytes left is corrupt, and
  // checking it first bounds the allocation.
  Status ParseArray(MsgpackValue* out, uint64_t n, int depth) {
    if (n > bytes_.size() - at_) return Error("an array of ", n, " elements in ", bytes_.size() - at_, " bytes");
    out->kind_ = MsgpackValue::Kind::kArray;
    out->array_.resize(n);
    for (MsgpackValue& v : out->array_) KILN_RETURN_IF_ERROR(ParseValue(&v, depth + 1));
    return OkStatus();
  }
  Status ParseMap(MsgpackValue* out, uint64_t n, int depth) {
    if (n > (bytes_.size() - at_) / 2) return Error("a map of ", n, " entries in ", bytes_.size() - at_, " bytes");
    out->kind_ = MsgpackValue::Kind::kMap;
    out->map_.resize(n);
    for (auto& [key, value] : out->map_) {
      KILN_RETURN_IF_ERROR(ParseValue(&key, depth + 1));
      KILN_RETURN_IF_ERROR(ParseValue(&value, depth + 1));
    }
    return OkStatus();
  }

  std::span<const uint8_t> bytes_;
  size_t at_ = 0;
};

StatusOr<MsgpackValue> MsgpackValue::Parse(std::span<const uint8_t> bytes) {
  MsgpackParser parser(bytes);
  MsgpackValue value;
  KILN_RETURN_IF_ERROR(parser.ParseValue(&value, 0));
  if (parser.position() != bytes.size()) {
    return DataLossError("msgpack: ", bytes.size() - parser.position(), " bytes follow the value");
  }
  return value;
}

bool MsgpackValue::AsUint(uint64_t* out) const {
  if (kind_ != Kind::kUint) return false;
  *out = uint_;
  return true;
}

const MsgpackValue* MsgpackValue::Find(std::string_view key) const {
  for (const auto& [k, v] : map_) {
    if (k.is_string() && k.string_ == key) return &v;
  }
  return nullptr;
}

std::string_view MsgpackValue::KindName() const {
  switch (kind_) {
    case Kind::kNil:
      return "nil";
    case Kind::kBool:
      return "boolean";
    case Kind::kInt:
    case Kind::kUint:
      return "integer";
    case Kind::kFloat:
      return "float";
    case Kind::kString:
      return "string";
    case Kind::kBinary:
      return "binary";
    case Kind::kArray:
      return "array";
    case Kind::kMap:
      return "map";
  }
  return "unknown";
}

}  // namespace kiln::hsa_sim::isa
