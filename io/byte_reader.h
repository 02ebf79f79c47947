// ByteReader: a bounds-checked little-endian cursor over a file's bytes for the binary
// header parsers. Every read that would pass the end is a DATA_LOSS error naming the file,
// what was being read, the offset and the file size; nothing is read past the end.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "base/status.h"

namespace kiln::io {

static_assert(std::endian::native == std::endian::little, "the parameter readers assume a little-endian host");

class ByteReader {
 public:
  // `file` names the bytes in messages ("gguf file 'x.gguf'").
  ByteReader(std::span<const uint8_t> bytes, std::string_view file, uint64_t offset = 0)
      : bytes_(bytes), file_(file), offset_(offset) {}

  uint64_t offset() const { return offset_; }
  uint64_t size() const { return bytes_.size(); }
  uint64_t remaining() const { return offset_ >= bytes_.size() ? 0 : bytes_.size() - offset_; }

  // Reads a little-endian integer or float of type T.
  template <typename T>
  Status Read(T* out, std::string_view what) {
    std::span<const uint8_t> raw;
    KILN_RETURN_IF_ERROR(Bytes(sizeof(T), &raw, what));
    std::memcpy(out, raw.data(), sizeof(T));
    return OkStatus();
  }
  // The next `count` bytes, in place.
  Status Bytes(uint64_t count, std::span<const uint8_t>* out, std::string_view what) {
    if (count > remaining()) return Truncated(count, what);
    *out = bytes_.subspan(static_cast<size_t>(offset_), static_cast<size_t>(count));
    offset_ += count;
    return OkStatus();
  }
  Status Skip(uint64_t count, std::string_view what) {
    if (count > remaining()) return Truncated(count, what);
    offset_ += count;
    return OkStatus();
  }

  Status Truncated(uint64_t count, std::string_view what) const {
    return DataLossError(file_, ": truncated: ", what, " needs ", count, " bytes at offset ", offset_,
                         " but the file has ", bytes_.size(), " bytes");
  }

 private:
  std::span<const uint8_t> bytes_;
  std::string_view file_;
  uint64_t offset_;
};

// True and `out` = a + b when the sum fits in 64 bits.
inline bool CheckedAdd(uint64_t a, uint64_t b, uint64_t* out) { return !__builtin_add_overflow(a, b, out); }
inline bool CheckedMul(uint64_t a, uint64_t b, uint64_t* out) { return !__builtin_mul_overflow(a, b, out); }
// Whether [offset, offset + length) lies within `size` bytes.
inline bool RangeFits(uint64_t offset, uint64_t length, uint64_t size) {
  return offset <= size && length <= size - offset;
}

}  // namespace kiln::io
