// kiln's CPU code generation passes (Passes.td) and pipelines.
#pragma once

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DECL
#include "compiler/codegen/cpu/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/codegen/cpu/Passes.h.inc"

// Tensors to memrefs with entry points: distribution, bufferization, loop lowering and
// the ABI wrappers. Runs on the executable module.
// `vector_bits` is the width of the target's vector registers (see VectorRegisterBits);
// `check_indices` adds scatter index checks and lowers every kiln.index_check.
void BuildCpuBufferizePipeline(mlir::OpPassManager& pm, int64_t vector_bits, bool check_indices);
// Memrefs and loops to the LLVM dialect. Runs on the executable module.
void BuildCpuLowerToLLVMPipeline(mlir::OpPassManager& pm);

}  // namespace kiln::compiler::cpu
