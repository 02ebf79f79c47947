#include "runtime/element_values.h"

#include <cmath>
#include <cstring>

namespace kiln::runtime {

namespace {

using hal::ElementType;

template <typename T>
T LoadAs(std::span<const uint8_t> bytes, size_t index) {
  T v;
  std::memcpy(&v, bytes.data() + index * sizeof(T), sizeof(T));
  return v;
}
template <typename T>
void StoreAs(std::span<uint8_t> bytes, size_t index, T v) {
  std::memcpy(bytes.data() + index * sizeof(T), &v, sizeof(T));
}

float F16ToF32(uint16_t h) {
  uint32_t sign = (h >> 15) & 1, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    magnitude = mantissa ? NAN : INFINITY;
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400), static_cast<int>(exponent) - 25);
  }
  return sign ? -magnitude : magnitude;
}

// Round to nearest even through the f32 bit pattern.
uint16_t F32ToF16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  uint32_t sign = (bits >> 16) & 0x8000;
  uint32_t abs = bits & 0x7fffffff;
  if (abs > 0x7f800000) return static_cast<uint16_t>(sign | 0x7e00);  // NaN
  if (abs >= 0x477ff000) return static_cast<uint16_t>(sign | 0x7c00);  // rounds to infinity
  if (abs < 0x38800000) {  // subnormal half (or zero)
    float magnitude;
    std::memcpy(&magnitude, &abs, 4);
    float scaled = magnitude * 16777216.0f;  // 2^24: units of the smallest half subnormal
    return static_cast<uint16_t>(sign | static_cast<uint32_t>(std::nearbyint(scaled)));
  }
  uint32_t rounded = abs + 0xfff + ((abs >> 13) & 1);
  return static_cast<uint16_t>(sign | ((rounded - 0x38000000) >> 13));
}

float BF16ToF32(uint16_t b) {
  uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t F32ToBF16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if ((bits & 0x7fffffff) > 0x7f800000) return static_cast<uint16_t>((bits >> 16) | 0x40);  // quiet NaN
  bits += 0x7fff + ((bits >> 16) & 1);
  return static_cast<uint16_t>(bits >> 16);
}

}  // namespace

bool SupportsElementType(ElementType type) {
  switch (type) {
    case ElementType::kI1: case ElementType::kI8: case ElementType::kI16: case ElementType::kI32:
    case ElementType::kI64: case ElementType::kF16: case ElementType::kBF16: case ElementType::kF32:
    case ElementType::kF64:
      return true;
    default:
      return false;
  }
}

double LoadElement(ElementType type, std::span<const uint8_t> bytes, size_t index) {
  switch (type) {
    case ElementType::kI1: return LoadAs<uint8_t>(bytes, index) ? 1 : 0;
    case ElementType::kI8: return LoadAs<int8_t>(bytes, index);
    case ElementType::kI16: return LoadAs<int16_t>(bytes, index);
    case ElementType::kI32: return LoadAs<int32_t>(bytes, index);
    case ElementType::kI64: return static_cast<double>(LoadAs<int64_t>(bytes, index));
    case ElementType::kF16: return F16ToF32(LoadAs<uint16_t>(bytes, index));
    case ElementType::kBF16: return BF16ToF32(LoadAs<uint16_t>(bytes, index));
    case ElementType::kF32: return LoadAs<float>(bytes, index);
    case ElementType::kF64: return LoadAs<double>(bytes, index);
    default: return NAN;
  }
}

void StoreElement(ElementType type, std::span<uint8_t> bytes, size_t index, double value) {
  auto as_int = [&]() -> int64_t {
    if (std::isnan(value)) return 0;
    if (value >= 9.2e18) return INT64_MAX;
    if (value <= -9.2e18) return INT64_MIN;
    return static_cast<int64_t>(value);
  };
  switch (type) {
    case ElementType::kI1: StoreAs<uint8_t>(bytes, index, value != 0 ? 1 : 0); break;
    case ElementType::kI8: StoreAs<int8_t>(bytes, index, static_cast<int8_t>(as_int())); break;
    case ElementType::kI16: StoreAs<int16_t>(bytes, index, static_cast<int16_t>(as_int())); break;
    case ElementType::kI32: StoreAs<int32_t>(bytes, index, static_cast<int32_t>(as_int())); break;
    case ElementType::kI64: StoreAs<int64_t>(bytes, index, as_int()); break;
    case ElementType::kF16: StoreAs<uint16_t>(bytes, index, F32ToF16(static_cast<float>(value))); break;
    case ElementType::kBF16: StoreAs<uint16_t>(bytes, index, F32ToBF16(static_cast<float>(value))); break;
    case ElementType::kF32: StoreAs<float>(bytes, index, static_cast<float>(value)); break;
    case ElementType::kF64: StoreAs<double>(bytes, index, value); break;
    default: break;
  }
}

}  // namespace kiln::runtime
