// The last step of GPU code generation: the ROCDL-lowered `gpu.module @kiln_kernels` to an
// AMDGPU code object (HSACO), through LLVM's AMDGPU backend and lld, in-process.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/codegen/gpu/CodeObjectMetadata.h"
#include "compiler/codegen/gpu/GpuTarget.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace kiln::compiler::gpu {

struct CodeObject {
  std::vector<uint8_t> hsaco;
  std::vector<KernelResources> kernels;  // read back from the code object's metadata
};

// Emits the code object for `module`'s gpu.module. Errors are emitted as diagnostics.
mlir::FailureOr<CodeObject> EmitHsaco(mlir::ModuleOp module, const GpuTarget& target);

// The AMDGPU backend's textual assembly of the same kernels (for tests and kiln-dump).
mlir::FailureOr<std::string> EmitAmdgpuAssembly(mlir::ModuleOp module, const GpuTarget& target);

}  // namespace kiln::compiler::gpu
