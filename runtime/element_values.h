// Element values of buffer views as the tools read and write them: every element type as
// a double (integers up to 2^53 exactly), with IEEE round-to-nearest-even conversions for
// the narrow float formats. Packed sub-byte types (i2, i4, f4E2M1FN) are indexed by element,
// the first in each byte's low bits.
#pragma once

#include <cstdint>
#include <span>

#include "base/status.h"
#include "hal/element_type.h"

namespace kiln::runtime {

// Whether elements of `type` can be read and written by these functions.
bool SupportsElementType(hal::ElementType type);

// Element `index` of `bytes` (dense storage of `type`).
double LoadElement(hal::ElementType type, std::span<const uint8_t> bytes, size_t index);
// Stores `value` as element `index`, rounding to nearest even for floats and truncating
// toward zero (then wrapping) for integers.
void StoreElement(hal::ElementType type, std::span<uint8_t> bytes, size_t index, double value);

}  // namespace kiln::runtime
