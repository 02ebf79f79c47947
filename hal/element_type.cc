#include "hal/element_type.h"

#include <array>

namespace kiln::hal {
namespace {

struct ElementTypeInfo {
  ElementType type;
  std::string_view name;
  int storage_bits;
};

constexpr std::array<ElementTypeInfo, kElementTypeCount> kInfo = {{
    {ElementType::kI1, "i1", 8},
    {ElementType::kI2, "i2", 2},
    {ElementType::kI4, "i4", 4},
    {ElementType::kI8, "i8", 8},
    {ElementType::kI16, "i16", 16},
    {ElementType::kI32, "i32", 32},
    {ElementType::kI64, "i64", 64},
    {ElementType::kF16, "f16", 16},
    {ElementType::kBF16, "bf16", 16},
    {ElementType::kF32, "f32", 32},
    {ElementType::kF64, "f64", 64},
    {ElementType::kF8E4M3FN, "f8E4M3FN", 8},
    {ElementType::kF8E4M3FNUZ, "f8E4M3FNUZ", 8},
    {ElementType::kF8E5M2, "f8E5M2", 8},
    {ElementType::kF8E5M2FNUZ, "f8E5M2FNUZ", 8},
    {ElementType::kF8E8M0FNU, "f8E8M0FNU", 8},
    {ElementType::kF4E2M1FN, "f4E2M1FN", 4},
    {ElementType::kComplexF32, "complex<f32>", 64},
    {ElementType::kComplexF64, "complex<f64>", 128},
}};

const ElementTypeInfo& Info(ElementType type) { return kInfo[static_cast<size_t>(type)]; }

}  // namespace

int ElementStorageBits(ElementType type) { return Info(type).storage_bits; }

std::optional<size_t> ElementStorageBytes(ElementType type, uint64_t count) {
  uint64_t bits = static_cast<uint64_t>(ElementStorageBits(type));
  if (count != 0 && bits > UINT64_MAX / count) return std::nullopt;
  uint64_t bytes = (bits * count + 7) / 8;
  if (bytes > SIZE_MAX) return std::nullopt;
  return static_cast<size_t>(bytes);
}

std::string_view ElementTypeName(ElementType type) { return Info(type).name; }

std::optional<ElementType> ParseElementType(std::string_view name) {
  for (const ElementTypeInfo& info : kInfo) {
    if (info.name == name) return info.type;
  }
  return std::nullopt;
}

bool IsFloatElementType(ElementType type) {
  return type >= ElementType::kF16 && type <= ElementType::kF4E2M1FN;
}

bool IsIntegerElementType(ElementType type) { return type <= ElementType::kI64; }

}  // namespace kiln::hal
