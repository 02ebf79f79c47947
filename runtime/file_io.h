// Whole-file reads and writes for the runtime's value files (.npy, raw .bin).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "base/status.h"

namespace kiln::runtime {

// The bytes of the file at `path`, read in one go; NOT_FOUND if it cannot be opened.
StatusOr<std::string> ReadFileBytes(const std::string& path);

// The size in bytes of the file at `path`; NOT_FOUND if it cannot be opened.
StatusOr<size_t> FileSize(const std::string& path);
// Reads out.size() bytes of the file at `path`, from byte `offset` on, into `out` (a
// mapping, say, so that large inputs are not copied twice); DATA_LOSS if the file is shorter.
Status ReadFileInto(const std::string& path, std::span<uint8_t> out, size_t offset = 0);

// Writes `bytes` to `path`, replacing it or, with `append`, after its current end.
Status WriteFileBytes(const std::string& path, std::string_view bytes, bool append);

}  // namespace kiln::runtime
