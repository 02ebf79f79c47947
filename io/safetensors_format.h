// Reader of safetensors files and of sharded safetensors indexes
// (model.safetensors.index.json).
#pragma once

#include "base/ref.h"
#include "base/status.h"
#include "io/mapped_file.h"
#include "io/parameter_index.h"

namespace kiln::io {

// safetensors' own bound on the JSON header.
inline constexpr uint64_t kMaxSafetensorsHeaderBytes = 100ull << 20;

// Adds the tensors of the safetensors file in `file` (u64 LE header length N, N bytes of
// JSON {"name": {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {...}},
// then the data) to `index` in header order, with kiln element types and shapes. Checks
// that every range lies in the data, is as long as shape x dtype says, and overlaps no
// other. Unsigned dtypes map to the signless integer type of their width, BOOL to i1.
Status ParseSafetensors(Ref<MappedFile> file, ParameterIndex& index);

// Adds the tensors named by the sharded index in `file` (JSON {"metadata": ..., "weight_map":
// {"key": "shard.safetensors"}}) to `index`, in weight_map order: each shard (relative to the
// index's directory) is opened and parsed once, and each key must be in the shard the map
// names. Tensors of a shard that the map does not name are left out.
Status ParseSafetensorsIndex(Ref<MappedFile> file, ParameterIndex& index);

}  // namespace kiln::io
