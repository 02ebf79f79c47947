// Reader of IREE parameter archives (.irpa): io/irpa_layout.h has the layout.
#pragma once

#include "base/ref.h"
#include "base/status.h"
#include "io/mapped_file.h"
#include "io/parameter_index.h"

namespace kiln::io {

// Adds every splat, data and external entry of the archive in `file` (following linked
// headers) to `index`, in table order. Data entries point into `file`; external entries
// into the file they name, resolved relative to the directory of file->path() and opened
// once each. Checks every offset and length against the file sizes, each entry's minimum
// alignment against its absolute file offset, and splat patterns (1, 2, 4, 8 or 16 bytes
// dividing the length). Entries may share storage (the format allows it). Element types
// and shapes stay empty: the format does not define them.
Status ParseIrpa(Ref<MappedFile> file, ParameterIndex& index);

}  // namespace kiln::io
