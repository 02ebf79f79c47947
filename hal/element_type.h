// Element types of buffer views, with the names MLIR uses for them ("f32", "f8E4M3FN").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace kiln::hal {

enum class ElementType : uint8_t {
  kI1, kI2, kI4, kI8, kI16, kI32, kI64,
  kF16, kBF16, kF32, kF64,
  kF8E4M3FN, kF8E4M3FNUZ, kF8E5M2, kF8E5M2FNUZ, kF8E8M0FNU,
  kF4E2M1FN,
  kComplexF32, kComplexF64,
};
inline constexpr int kElementTypeCount = static_cast<int>(ElementType::kComplexF64) + 1;

// Bits one element occupies in a buffer. Sub-byte types (i2, i4, f4E2M1FN) are packed,
// low bits first; i1 is stored unpacked, one byte per element (0 or 1), like IREE's default.
int ElementStorageBits(ElementType type);
// Bytes for `count` elements, rounding packed sub-byte storage up to a whole byte.
// nullopt on overflow.
std::optional<size_t> ElementStorageBytes(ElementType type, uint64_t count);

std::string_view ElementTypeName(ElementType type);
// Parses the MLIR spelling ("bf16", "f8E5M2FNUZ", "complex<f32>"); nullopt if unknown.
std::optional<ElementType> ParseElementType(std::string_view name);

bool IsFloatElementType(ElementType type);
bool IsIntegerElementType(ElementType type);

}  // namespace kiln::hal
