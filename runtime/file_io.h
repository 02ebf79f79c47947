// Whole-file reads and writes for the runtime's value files (.npy, raw .bin).
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"

namespace kiln::runtime {

// The bytes of the file at `path`, read in one go; NOT_FOUND if it cannot be opened.
StatusOr<std::string> ReadFileBytes(const std::string& path);

// Writes `bytes` to `path`, replacing it or, with `append`, after its current end.
Status WriteFileBytes(const std::string& path, std::string_view bytes, bool append);

}  // namespace kiln::runtime
