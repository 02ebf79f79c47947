// GPU code generation as one call: the executable module (after dispatch formation) to the
// GPU executable container, code object and host twin lowered from the same kernel IR.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/codegen/cpu/ElfEmitter.h"
#include "compiler/codegen/gpu/CodeObjectMetadata.h"
#include "compiler/codegen/gpu/GpuContainer.h"
#include "compiler/codegen/gpu/GpuTarget.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

namespace kiln::compiler::gpu {

struct GpuExecutable {
  std::vector<uint8_t> container;           // WriteGpuContainer's bytes
  std::vector<GpuExport> exports;           // in the container's order
  std::vector<KernelResources> resources;   // per export, from the code object's metadata
};

// One line per export: workgroup size, registers, LDS, scratch and occupancy, as
// `kiln-compile --report` prints them.
void PrintResourceReport(llvm::raw_ostream& os, const GpuTarget& target, const std::vector<GpuExport>& exports);

// Compiles `executables` (the module marked kiln.executable; it is lowered in place) for
// `target`; the twin is built for the host CPU `host`. `configure` is applied to every pass
// manager (IR dumps). `check_indices`: checked mode (the index checks the host pipeline
// inserted, and the scatters', become writes of the index check records). Diagnostics go
// to the context's handlers.
mlir::FailureOr<GpuExecutable> CompileGpuExecutable(mlir::ModuleOp executables, const GpuTarget& target,
                                                    const cpu::CpuTargetOptions& host, bool check_indices,
                                                    llvm::function_ref<void(mlir::PassManager&)> configure);

}  // namespace kiln::compiler::gpu
