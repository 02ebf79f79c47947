// Writing IREE parameter archives (.irpa), version 0.0 (io/irpa_layout.h).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "base/status.h"
#include "io/parameter_index.h"

namespace kiln::io {

struct IrpaWriteOptions {
  // Alignment of every data entry's absolute file offset (a power of two, at most 1 MiB);
  // also written as each data entry's minimum alignment.
  uint64_t alignment = 64;
};

// Writes an archive holding `entries` in order: data entries with their bytes copied from
// their files (EntryBytes), splat entries as splats. Keys must be unique; splat patterns 1,
// 2, 4, 8 or 16 bytes dividing the length. Element types and shapes are not stored (the
// format has no place for them). The archive is written to a temporary file beside `path`
// and renamed over it at the end, so `path` may be one of the inputs, and a failure leaves
// `path` as it was. The file size is padded to a multiple of 4096 bytes.
Status WriteIrpa(const std::string& path, std::span<const ParameterEntry> entries,
                 const IrpaWriteOptions& options = {});

}  // namespace kiln::io
