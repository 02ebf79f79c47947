// kiln-benchmark-module --dispatches --dump_dispatch_benchmarks=DIR: the dispatches one call
// made, each written as a program of its own with the concrete shapes it ran with.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"

namespace kiln::tools {

// One dispatch of a recorded call: its export's name and the push-constant words it ran with.
struct RecordedDispatch {
  std::string name;
  std::vector<uint32_t> words;
};

// Whether the module at `path` can have its dispatches dumped (it is MLIR source, and the
// build has the compiler): checked before anything runs.
Status CheckDispatchDumpSource(const std::string& path);

// Compiles the .mlir module at `path` again for `target` (as LoadModule did for the call)
// up to dispatch formation and writes each of `dispatches` to DIR/NAME.mlir with its push
// constants made the values it ran with (a second distinct set of values of the same
// export: DIR/NAME.2.mlir, ...). A compiled module (not .mlir) is an error: its dispatches'
// source is gone. So is a build without the compiler.
Status DumpRecordedDispatches(const std::string& path, const std::string& target,
                              std::span<const RecordedDispatch> dispatches, const std::string& dir);

}  // namespace kiln::tools
