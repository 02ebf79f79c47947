// Opening parameter files of any supported format: IREE parameter archives (.irpa),
// safetensors, sharded safetensors indexes, GGUF. The format comes from the bytes, never
// from the file name.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "base/ref.h"
#include "base/status.h"
#include "io/gguf_format.h"
#include "io/irpa_format.h"
#include "io/parameter_index.h"
#include "io/safetensors_format.h"

namespace kiln::io {

enum class ParameterFormat { kIrpa, kSafetensors, kSafetensorsIndex, kGguf };

// "irpa", "safetensors", "safetensors index", "gguf".
std::string_view ParameterFormatName(ParameterFormat format);

// Detects the format from the first bytes of a file: the irpa magic "IRPA", the GGUF magic
// "GGUF", a safetensors header (u64 LE length, then '{'), or a sharded safetensors index (a
// JSON object, starting '{' after optional whitespace, that mentions "weight_map" within
// `head`: pass the whole file, or at least its first few KiB). INVALID_ARGUMENT otherwise.
StatusOr<ParameterFormat> DetectParameterFormat(std::span<const uint8_t> head);

// Maps `path`, detects its format and parses it into a new index described by `path`.
StatusOr<Ref<ParameterIndex>> OpenParameterFile(const std::string& path);

}  // namespace kiln::io
