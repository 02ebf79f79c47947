// NumPy .npy files (format versions 1-3): what kiln-run reads for `--input=@x.npy` and
// writes for `--output=@x.npy` / `+x.npy`. Element types map to dtype descriptors the usual
// way ('<f4', '|i1', '|b1' for i1, '<c8'); types NumPy lacks use the names ml_dtypes gives
// them ('bfloat16', 'float8_e4m3fn', 'float8_e4m3fnuz', 'float8_e5m2', 'float8_e5m2fnuz',
// 'float8_e8m0fnu'), and raw void descriptors ('|V2') are read when the caller names the
// element type. A file may hold several arrays back to back (appending writes another).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "hal/element_type.h"

namespace kiln::runtime {

struct NpyArray {
  hal::ElementType type = hal::ElementType::kF32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;  // dense, row-major, little-endian
};

// The descriptor written for `type`; nullopt for packed sub-byte types (i2, i4, f4E2M1FN),
// which .npy cannot hold element by element.
std::optional<std::string> NpyDescriptor(hal::ElementType type);

// Parses the first `max_arrays` arrays (all by default) of a .npy file's bytes. A void
// descriptor ('|V2') takes `void_type`, which must have that element size; without it,
// it is an error.
StatusOr<std::vector<NpyArray>> ParseNpy(std::string_view bytes, std::optional<hal::ElementType> void_type = {},
                                         size_t max_arrays = SIZE_MAX);
StatusOr<std::vector<NpyArray>> ReadNpyFile(const std::string& path, std::optional<hal::ElementType> void_type = {},
                                            size_t max_arrays = SIZE_MAX);

// One array in .npy format (version 1.0, or 2.0 when the header needs it).
StatusOr<std::string> SerializeNpy(const NpyArray& array);
// Writes `array` to `path`, replacing the file, or after its existing arrays.
Status WriteNpyFile(const std::string& path, const NpyArray& array, bool append);

}  // namespace kiln::runtime
