// ParameterIndex: the named entries of one parameter file (or of several merged), each a
// range of a MappedFile or a splat, with what the file says of its element type and shape.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/ref.h"
#include "base/status.h"
#include "io/mapped_file.h"

namespace kiln::io {

struct ParameterEntry {
  std::string key;
  enum class Kind { kData, kSplat } kind = Kind::kData;
  // kData: the file holding the bytes (for an irpa external entry: that other file).
  Ref<MappedFile> file;
  uint64_t offset = 0;  // kData: byte offset in `file`
  // Bytes of the parameter (kSplat: the total length the splat fills).
  uint64_t length = 0;
  // kSplat: 1..16 bytes repeated (little-endian element bytes).
  std::vector<uint8_t> pattern;
  // What the format says of the contents, when it says (safetensors, GGUF; empty for irpa):
  // a kiln element type name as hal/element_type.h spells it ("f32", "bf16", "f8E4M3FN",
  // "i1" for BOOL; unsigned integers become the signless type of their width), or for
  // GGUF quantized blocks "gguf.q4_0" / "gguf.q8_0".
  std::string element_type;
  // Outermost first; in elements also for gguf.q* blocks. Meaningful when element_type is
  // set (then empty means a scalar).
  std::vector<int64_t> shape;
  std::string source;  // the file path, for messages
};

// The bytes of a kData entry (bounds-checked against its file); an error for a splat.
StatusOr<std::span<const uint8_t>> EntryBytes(const ParameterEntry& entry);

class ParameterIndex final : public RefCounted {
 public:
  explicit ParameterIndex(std::string description) : description_(std::move(description)) {}

  // Appends `entry`. A key already present is ALREADY_EXISTS naming the index, the key and
  // both entries' sources.
  Status Add(ParameterEntry entry);
  // The entry for `key`, or null. The pointer stays valid until the next Add.
  const ParameterEntry* Find(std::string_view key) const;
  // Every entry in the order added (file order).
  std::span<const ParameterEntry> entries() const { return entries_; }
  const std::string& description() const { return description_; }

 private:
  struct KeyHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  std::string description_;
  std::vector<ParameterEntry> entries_;
  std::unordered_map<std::string, size_t, KeyHash, std::equal_to<>> by_key_;
};

}  // namespace kiln::io
