// A small JSON reader for the headers of safetensors files and sharded safetensors indexes:
// parses RFC 8259 text into a tree whose nodes remember their byte offsets, so errors can
// say where. Objects keep their members in text order (duplicates included). Nesting is
// limited to kMaxJsonDepth and the value count to kMaxJsonValues; strings must be valid
// UTF-8. Never throws.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"

namespace kiln::io {

inline constexpr int kMaxJsonDepth = 64;
// At most this many values in one text (about 100 bytes of memory each): a bound on the
// memory a header can make the parser allocate, far above real headers' needs.
inline constexpr uint64_t kMaxJsonValues = uint64_t{1} << 22;

struct JsonMember;

struct JsonValue {
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject } type = Type::kNull;
  uint64_t offset = 0;  // byte offset of the value's first character (plus the base offset)
  bool boolean = false;
  std::string text;  // kString: the decoded string; kNumber: the number as written
  std::vector<JsonValue> items;  // kArray
  std::vector<JsonMember> members;  // kObject, in text order

  // The member named `key` (the first if repeated), or null.
  const JsonValue* Find(std::string_view key) const;
  // The value as an unsigned integer, when it is a number written as one (no sign,
  // fraction or exponent) that fits in 64 bits.
  std::optional<uint64_t> AsUint64() const;
};

struct JsonMember {
  std::string name;
  JsonValue value;
};

// "null", "true", "a number", "a string", "an array", "an object".
std::string_view JsonTypeName(JsonValue::Type type);

// Parses `text` as one JSON value followed only by whitespace. Errors are INVALID_ARGUMENT
// "<name>: bad JSON at byte <offset>: <what>", offsets counted from `base_offset` (the
// position of `text` in its file).
StatusOr<JsonValue> ParseJson(std::string_view text, std::string_view name, uint64_t base_offset = 0);

}  // namespace kiln::io
