#include "runtime/element_values.h"

#include <cmath>
#include <cstring>
#include <optional>

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

// The 8-bit float formats (as MLIR's APFloat and ml_dtypes define them): sign, exponent,
// mantissa; how each marks NaN and whether it has infinities and a negative zero.
struct Float8Spec {
  int exponent_bits, mantissa_bits, bias;
  enum class Nan { kIeee, kAllOnes, kNegativeZero } nan;
};
std::optional<Float8Spec> Float8SpecOf(ElementType type) {
  switch (type) {
    case ElementType::kF8E5M2: return Float8Spec{5, 2, 15, Float8Spec::Nan::kIeee};
    case ElementType::kF8E4M3FN: return Float8Spec{4, 3, 7, Float8Spec::Nan::kAllOnes};
    case ElementType::kF8E4M3FNUZ: return Float8Spec{4, 3, 8, Float8Spec::Nan::kNegativeZero};
    case ElementType::kF8E5M2FNUZ: return Float8Spec{5, 2, 16, Float8Spec::Nan::kNegativeZero};
    default: return std::nullopt;
  }
}

double Float8ToDouble(const Float8Spec& f, uint8_t bits) {
  int exponent_max = (1 << f.exponent_bits) - 1, mantissa_max = (1 << f.mantissa_bits) - 1;
  bool negative = bits & 0x80;
  int exponent = (bits >> f.mantissa_bits) & exponent_max, mantissa = bits & mantissa_max;
  if (f.nan == Float8Spec::Nan::kNegativeZero && bits == 0x80) return NAN;
  if (f.nan == Float8Spec::Nan::kIeee && exponent == exponent_max) return mantissa ? NAN : negative ? -INFINITY : INFINITY;
  if (f.nan == Float8Spec::Nan::kAllOnes && exponent == exponent_max && mantissa == mantissa_max) return NAN;
  double magnitude = exponent == 0 ? std::ldexp(mantissa, 1 - f.bias - f.mantissa_bits)
                                   : std::ldexp(mantissa + (1 << f.mantissa_bits), exponent - f.bias - f.mantissa_bits);
  return negative ? -magnitude : magnitude;
}

// Rounds to nearest even; overflow gives infinity (kIeee) or NaN (the others), as MLIR's
// conversions do.
uint8_t DoubleToFloat8(const Float8Spec& f, double value) {
  int exponent_max = (1 << f.exponent_bits) - 1;
  uint8_t nan = f.nan == Float8Spec::Nan::kNegativeZero ? 0x80 : f.nan == Float8Spec::Nan::kAllOnes ? 0x7f : 0x7e;
  if (std::isnan(value)) return nan;
  uint8_t sign = std::signbit(value) ? 0x80 : 0;  // a negative zero is dropped below where there is none
  double magnitude = std::fabs(value);
  uint32_t encoded;  // exponent and mantissa fields
  if (std::isinf(magnitude)) {
    encoded = 0x100;  // beyond every format: overflow below
  } else {
    int exponent;
    (void)std::frexp(magnitude, &exponent);  // magnitude in [2^(exponent-1), 2^exponent)
    int unbiased = std::max(exponent - 1, 1 - f.bias);  // subnormals share the smallest exponent
    double steps = std::nearbyint(std::ldexp(magnitude, f.mantissa_bits - unbiased));  // ties to even
    // steps is the significand with its leading bit (or a subnormal's mantissa); a carry
    // into the next power of two moves to the next exponent by the same arithmetic.
    encoded = static_cast<uint32_t>(steps) + (static_cast<uint32_t>(unbiased + f.bias - 1) << f.mantissa_bits);
    if (steps < (1 << f.mantissa_bits)) encoded = static_cast<uint32_t>(steps);  // subnormal or zero
  }
  uint32_t largest = f.nan == Float8Spec::Nan::kIeee     ? static_cast<uint32_t>(exponent_max) << f.mantissa_bits
                     : f.nan == Float8Spec::Nan::kAllOnes ? 0x7f
                                                          : 0x80;  // first value past the finite ones
  if (encoded >= largest) {
    if (f.nan == Float8Spec::Nan::kIeee) return sign | (exponent_max << f.mantissa_bits);  // infinity
    return nan;
  }
  if (encoded == 0 && f.nan == Float8Spec::Nan::kNegativeZero) return 0;
  return static_cast<uint8_t>(sign | encoded);
}

// Packed sub-byte elements (ElementStorageBits: i2, i4, f4E2M1FN), low bits first.
int PackedBits(ElementType type) {
  int bits = hal::ElementStorageBits(type);
  return bits < 8 ? bits : 0;
}
uint8_t LoadBits(std::span<const uint8_t> bytes, size_t index, int width) {
  size_t bit = index * width;
  return (bytes[bit / 8] >> (bit % 8)) & ((1u << width) - 1);
}
void StoreBits(std::span<uint8_t> bytes, size_t index, int width, uint32_t value) {
  size_t bit = index * width;
  uint8_t mask = static_cast<uint8_t>(((1u << width) - 1) << (bit % 8));
  bytes[bit / 8] = static_cast<uint8_t>((bytes[bit / 8] & ~mask) | ((value << (bit % 8)) & mask));
}

// f4E2M1FN: sign, 2 exponent bits (bias 1), 1 mantissa bit; no infinity or NaN.
constexpr double kF4E2M1Magnitudes[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
double F4E2M1ToDouble(uint8_t bits) {
  double magnitude = kF4E2M1Magnitudes[bits & 7];
  return bits & 8 ? -magnitude : magnitude;
}
// The nearest value, ties to the even encoding; beyond 6 (and NaN) saturates, as MLIR's
// truncation to this format does.
uint8_t DoubleToF4E2M1(double value) {
  uint8_t sign = std::signbit(value) ? 8 : 0;
  double magnitude = std::fabs(value);
  if (std::isnan(magnitude) || magnitude >= 6) return sign | 7;
  uint8_t best = 0;
  for (uint8_t code = 1; code < 8; ++code) {
    double distance = std::fabs(magnitude - kF4E2M1Magnitudes[code]);
    double best_distance = std::fabs(magnitude - kF4E2M1Magnitudes[best]);
    if (distance < best_distance || (distance == best_distance && code % 2 == 0)) best = code;
  }
  return sign | best;
}

}  // namespace

bool SupportsElementType(ElementType type) {
  if (Float8SpecOf(type) || PackedBits(type)) return true;
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
  if (std::optional<Float8Spec> f8 = Float8SpecOf(type)) return Float8ToDouble(*f8, LoadAs<uint8_t>(bytes, index));
  if (int width = PackedBits(type)) {
    uint8_t bits = LoadBits(bytes, index, width);
    if (type == ElementType::kF4E2M1FN) return F4E2M1ToDouble(bits);
    return bits & (1u << (width - 1)) ? static_cast<int>(bits) - (1 << width) : bits;  // signed, as i8 and up
  }
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
  if (std::optional<Float8Spec> f8 = Float8SpecOf(type)) return StoreAs<uint8_t>(bytes, index, DoubleToFloat8(*f8, value));
  if (int width = PackedBits(type)) {
    uint32_t bits = type == ElementType::kF4E2M1FN ? DoubleToF4E2M1(value) : static_cast<uint32_t>(as_int());
    return StoreBits(bytes, index, width, bits);
  }
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
