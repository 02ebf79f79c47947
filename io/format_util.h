// Checks shared by the format parsers.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "base/status.h"
#include "io/byte_reader.h"
#include "io/parameter_index.h"

namespace kiln::io {

// The data entries of `entries` that lie in one file must not overlap: INVALID_ARGUMENT
// "<label>: tensors 'a' [x, y) and 'b' [z, w) overlap" otherwise. Splats and empty entries
// are ignored. `label` names the file ("safetensors file 'm.safetensors'").
Status CheckNoOverlap(std::span<const ParameterEntry> entries, std::string_view label);

// The power of two `alignment` rounds `value` up to, or false on overflow.
bool AlignUp(uint64_t value, uint64_t alignment, uint64_t* out);

// Writes "[2,3]" for a shape.
std::string ShapeText(std::span<const int64_t> shape);

}  // namespace kiln::io
