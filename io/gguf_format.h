// Reader of GGUF files (llama.cpp's format), versions 2 and 3, little-endian.
#pragma once

#include "base/ref.h"
#include "base/status.h"
#include "io/mapped_file.h"
#include "io/parameter_index.h"

namespace kiln::io {

// Adds the tensors of the GGUF file in `file` to `index` in tensor-info order. The
// key-value metadata is checked and skipped (every value type, nested arrays up to 16
// deep), except "general.alignment" (u32, a power of two; default 32). Shapes are reversed
// from GGUF's innermost-first ne[]. Types read: F32, F16, BF16, F64, I8, I16, I32, I64 as
// kiln element types, and Q8_0 / Q4_0 blocks as "gguf.q8_0" / "gguf.q4_0" (the innermost
// dimension a multiple of 32; the shape stays in elements). Other types are UNIMPLEMENTED
// naming the tensor and type. Every tensor must be aligned, lie in the data section and
// overlap no other.
Status ParseGguf(Ref<MappedFile> file, ParameterIndex& index);

}  // namespace kiln::io
