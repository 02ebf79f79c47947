// A bounded MessagePack reader for the AMDGPU metadata note (NT_AMDGPU_METADATA, code object
// v3 and later). It builds a small tree of the value kinds the note uses: nil, booleans,
// integers, floats, strings, binary, arrays and maps (string keys or any). Bad bytes are an
// error naming the offset, never a crash: every length is checked against the remaining
// bytes and nesting is limited. Format facts: the MessagePack specification (msgpack/spec.md).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"

namespace kiln::hsa_sim::isa {

class MsgpackValue {
 public:
  enum class Kind : uint8_t { kNil, kBool, kInt, kUint, kFloat, kString, kBinary, kArray, kMap };

  Kind kind() const { return kind_; }
  bool is_string() const { return kind_ == Kind::kString || kind_ == Kind::kBinary; }
  bool is_integer() const { return kind_ == Kind::kInt || kind_ == Kind::kUint; }
  const std::string& string() const { return string_; }  // strings and binaries
  // Integers (signed or unsigned) that fit in uint64; false otherwise.
  bool AsUint(uint64_t* out) const;
  const std::vector<MsgpackValue>& array() const { return array_; }
  const std::vector<std::pair<MsgpackValue, MsgpackValue>>& map() const { return map_; }
  // The value of the map entry whose key is the string `key`, or null (also for non-maps).
  const MsgpackValue* Find(std::string_view key) const;
  std::string_view KindName() const;

  // Parses exactly one value from `bytes`; trailing bytes are an error.
  static StatusOr<MsgpackValue> Parse(std::span<const uint8_t> bytes);

 private:
  friend class MsgpackParser;
  Kind kind_ = Kind::kNil;
  bool bool_ = false;
  uint64_t uint_ = 0;  // kUint; kInt holds the two's complement bits
  double float_ = 0;
  std::string string_;
  std::vector<MsgpackValue> array_;
  std::vector<std::pair<MsgpackValue, MsgpackValue>> map_;
};

}  // namespace kiln::hsa_sim::isa
