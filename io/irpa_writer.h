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

// One entry to write from memory: `data`, or for a splat `pattern` repeated to fill
// `splat_length` bytes. The spans must stay valid until the write returns.
struct IrpaRecord {
  std::string_view key = {};
  bool splat = false;
  std::span<const uint8_t> data = {};
  uint64_t splat_length = 0;
  std::span<const uint8_t> pattern = {};
};

// Writes an archive holding `records` in order, with WriteIrpa's checks and guarantees.
Status WriteIrpaRecords(const std::string& path, std::span<const IrpaRecord> records,
                        const IrpaWriteOptions& options = {});

// Writes an archive holding `entries` in order: data entries with their bytes copied from
// their files (EntryBytes), splat entries as splats. Keys must be unique; splat patterns 1,
// 2, 4, 8 or 16 bytes dividing the length. Element types and shapes are not stored (the
// format has no place for them). The archive is written to a temporary file beside `path`
// and renamed over it at the end, so `path` may be one of the inputs, and a failure leaves
// `path` as it was. The file size is padded to a multiple of 4096 bytes.
Status WriteIrpa(const std::string& path, std::span<const ParameterEntry> entries,
                 const IrpaWriteOptions& options = {});

}  // namespace kiln::io
