// kiln's AMD GPU code generation passes (Passes.td) and pipelines.
#pragma once

#include <string>

#include "compiler/codegen/gpu/GpuTarget.h"
#include "compiler/dialect/KilnDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace kiln::compiler::gpu {

#define GEN_PASS_DECL
#include "compiler/codegen/gpu/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/codegen/gpu/Passes.h.inc"

// On a kernel function (FormKernels): its workgroup size, [x, y, z].
inline constexpr llvm::StringLiteral kKernelAttr = "kiln.gpu.kernel";
inline constexpr llvm::StringLiteral kWorkgroupSizeAttr = "kiln.gpu.workgroup_size";
// On a kernel function: the symbol of the dispatch function it runs.
inline constexpr llvm::StringLiteral kKernelBodyAttr = "kiln.gpu.body";
// On an scf.for of kernel IR: an LLVM::LoopAnnotationAttr for the loop's back edge
// (FinalizeKernels makes it the branch's !llvm.loop metadata).
inline constexpr llvm::StringLiteral kLoopAnnotationAttr = "llvm.loop_annotation";

// Tensors to the kernel IR both the code object and the host twin come from: the CPU's
// bufferization and per-worker code generation (vector registers of 128 bits, the width of
// a dwordx4 access), with FormKernels in place of the CPU entry points. With
// `check_indices` scatters keep their index checks (checked mode, as on the CPU).
void BuildGpuKernelPipeline(mlir::OpPassManager& pm, const GpuTarget& target, bool check_indices);

// The kernel IR to the LLVM and ROCDL dialects inside `gpu.module @kiln_kernels`.
void BuildGpuLowerToRocdlPipeline(mlir::OpPassManager& pm, const GpuTarget& target);

// The kernel IR (a copy of it) to the LLVM dialect for the host, with twin entry points.
void BuildHostTwinLowerToLLVMPipeline(mlir::OpPassManager& pm);

// The name of the twin entry of kernel `kernel`.
inline std::string TwinEntryName(llvm::StringRef kernel) { return (kernel + "_twin").str(); }

}  // namespace kiln::compiler::gpu
