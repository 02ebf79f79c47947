// The host twin of a GPU executable: the LLVM-dialect twin module (LowerHostTwin and the
// CPU lowering) to an x86-64 shared object implementing the twin ABI of
// hal/abi/gpu_kernel_abi.h, which hip-sim runs in place of the code object.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/codegen/cpu/ElfEmitter.h"
#include "compiler/codegen/gpu/CodeObjectMetadata.h"
#include "compiler/codegen/gpu/GpuTarget.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace kiln::compiler::gpu {

// `kernels` are the code object's own descriptions (EmitHsaco), so that the twin reports
// exactly the kernarg, LDS and scratch sizes the GPU kernel has.
mlir::FailureOr<std::vector<uint8_t>> EmitHostTwin(mlir::ModuleOp module, const GpuTarget& target,
                                                   llvm::ArrayRef<KernelResources> kernels,
                                                   const cpu::CpuTargetOptions& host);

}  // namespace kiln::compiler::gpu
