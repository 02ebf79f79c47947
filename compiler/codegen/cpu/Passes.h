// kiln's CPU code generation passes (Passes.td) and pipelines.
#pragma once

#include <functional>

#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
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

struct BufferizePipelineOptions {
  int64_t vector_bits = 128;  // width of the target's vector registers (VectorRegisterBits)
  bool check_indices = false;  // add scatter index checks and lower every kiln.index_check
  // topk and topk_v2 filter their lines with vector_bits-wide compares (VectorTopk.h).
  // Off: scalar loops (the GPU's work-items, whose lines are not worth vectors).
  bool vector_topk = false;
  // 0: each workgroup takes one contiguous block of the root's first parallel loop; T > 0:
  // blocks of T iterations in a grid-stride loop (DistributeToWorkgroups' stride-tile).
  int64_t stride_tile = 0;
  // Adds the passes making the target's entry points; null: WrapEntryPoints (the CPU ABI).
  // The GPU target reuses the pipeline for the code its work-items run and adds its kernels.
  std::function<void(mlir::OpPassManager&)> add_entry_points;
  // Passes on tensors just before the workgroup distribution (a target choosing its own
  // strategy for some dispatches marks them kiln.workgroup_strategy), and on buffers just
  // after bufferization (where that strategy runs). Null: none.
  std::function<void(mlir::OpPassManager&)> before_distribution;
  std::function<void(mlir::OpPassManager&)> after_bufferization;
  // Long float sums summed in blocks (kiln-cpu-block-reductions): their error grows with
  // log n, not n. Off: one accumulator per output (per vector lane once vectorised).
  bool block_reductions = true;
  // The target's mixed-precision dot-product instructions (kiln-cpu-tile-contractions'
  // dot-bf16 and dot-i8; TargetGroupDotFeatures): off, i8 matmuls stay loops and bf16
  // ones are widened to f32 (with 512-bit vectors or few rows) or stay loops.
  bool dot_bf16 = false;
  bool dot_i8 = false;
  // With them, the target's AMX tiles (amx-bf16 and amx-i8): 32-row tiles of such matmuls.
  bool amx_bf16 = false;
  bool amx_i8 = false;
  // AVX512_FP16 (f16-vectors): f16 matmuls into f16 in f16 vectors; off, they stay loops.
  bool f16_vectors = false;
  // One core's L1 data cache (L1DataCacheBytes): the blocks of decode-shaped products.
  int64_t l1_data_bytes = 32 * 1024;
};

// Tensors to memrefs with entry points: distribution, bufferization, loop lowering and
// the ABI wrappers. Runs on the executable module.
void BuildCpuBufferizePipeline(mlir::OpPassManager& pm, const BufferizePipelineOptions& options);

// Whether distributed `fn` (kiln.distributed) still writes only inside its workgroup's
// block after bufferization; if a copy into a whole output binding was left, the attribute
// is dropped (the dispatch then runs as one workgroup) with a remark saying why.
void KeepDistributionSafe(mlir::func::FuncOp fn);

// The target-neutral first half of BuildCpuLowerToLLVMPipeline: small floats emulated,
// vectors unrolled to 1-D, views folded, structured control flow to blocks. The GPU target
// shares it. Runs on the executable module.
void BuildCpuPrepareForLLVMPipeline(mlir::OpPassManager& pm);
// Memrefs and loops to the LLVM dialect. Runs on the executable module.
void BuildCpuLowerToLLVMPipeline(mlir::OpPassManager& pm);

}  // namespace kiln::compiler::cpu
