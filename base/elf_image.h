// Structural checks of an ELF image before the system loader sees it, so that a blob that
// is not an x86-64 shared object gets a precise error rather than undefined loader behaviour.
//
// These checks catch corrupt and mismatched files. They do not make hostile code safe:
// an executable is native code and runs with the process's rights.
#pragma once

#include <cstdint>
#include <span>

#include "base/status.h"

namespace kiln {

// OK when `image` is a little-endian ELF64 shared object for x86-64 whose headers and
// loadable segments lie within the image.
Status ValidateElfImage(std::span<const uint8_t> image);

}  // namespace kiln
