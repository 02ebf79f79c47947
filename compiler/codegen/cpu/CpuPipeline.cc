// The CPU code generation pipelines, on the module marked `kiln.executable`.
#include "compiler/codegen/cpu/Passes.h"
#include "compiler/utils/Pipelines.h"

namespace kiln::compiler::cpu {

void BuildCpuBufferizePipeline(mlir::OpPassManager& pm, const BufferizePipelineOptions& options) {
  int64_t vector_bits = options.vector_bits;
  bool check_indices = options.check_indices;
  AddPipeline(pm, "canonicalize,cse");
  if (options.before_distribution) options.before_distribution(pm);
  DistributeToWorkgroupsOptions distribute;
  distribute.strideTile = options.stride_tile;
  pm.addPass(createDistributeToWorkgroups(distribute));
  AddPipeline(pm, "canonicalize,cse,eliminate-empty-tensors");
  // Canonicalized at once: a loop over a multi-result op carries its output buffers as
  // iter_args that yield themselves; folded away here, they no longer look to the
  // deallocation pipeline like buffers of unknown ownership (which cost dealloc helpers
  // with heap-allocated ownership tables).
  AddPipeline(pm, "one-shot-bufferize{unknown-type-conversion=identity-layout-map},canonicalize,cse");
  pm.addPass(createForwardOutputBuffers());
  pm.addPass(createPlacePrivateBuffers());
  AddPipeline(pm, "func.func(buffer-hoisting,buffer-loop-hoisting)");
  AddPipeline(pm, "ownership-based-buffer-deallocation,canonicalize,buffer-deallocation-simplification,"
                  "bufferization-lower-deallocations,cse,canonicalize");
  if (options.after_bufferization) options.after_bufferization(pm);
  pm.addPass(createLowerFlashAttention());
  pm.addPass(createLinalgExtToLoops(LinalgExtToLoopsOptions{check_indices, options.vector_topk ? vector_bits : 0}));
  // Before copies become loops: the entry points decide whether distribution is safe by
  // looking for copies into whole bindings.
  if (options.add_entry_points) {
    options.add_entry_points(pm);
  } else {
    pm.addPass(createWrapEntryPoints());
  }
  pm.addPass(createCopiesToLinalg());
  pm.addPass(createVectorizeDequantizingProducts(VectorizeDequantizingProductsOptions{vector_bits}));
  pm.addPass(createTileContractions(
      TileContractionsOptions{vector_bits, options.dot_bf16, options.dot_i8, options.amx_bf16, options.amx_i8,
                              options.f16_vectors, options.l1_data_bytes}));
  AddPipeline(pm, "canonicalize,cse");
  pm.addPass(createVectorizeContractions());
  pm.addPass(createInterchangeForVectorization());
  if (options.block_reductions) pm.addPass(createBlockReductions());
  pm.addPass(createReassociateReductions());
  pm.addPass(createApproximateMath());
  AddPipeline(pm, "func.func(convert-linalg-to-loops)");
  pm.addPass(createHoistInputLoads());
  pm.addPass(createLowerIndexChecks());
}

void BuildCpuPrepareForLLVMPipeline(mlir::OpPassManager& pm) {
  // Small floats (bf16, f8, f4): scaled conversions become plain ones, arithmetic moves to
  // f32 (x86 has no bf16 arithmetic; LLVM would call compiler-rt, which kernels do not
  // link), then conversions become bit manipulation.
  pm.addPass(createExpandArith());
  AddPipeline(pm, "arith-emulate-unsupported-floats{source-types=bf16,f8E4M3FN,f8E4M3FNUZ,f8E5M2,f8E5M2FNUZ,"
                  "f8E8M0FNU,f4E2M1FN target-type=f32}");
  pm.addPass(createExpandFloat8());
  AddPipeline(pm,
              "canonicalize,cse,convert-vector-to-scf{full-unroll=true},expand-strided-metadata,lower-affine,"
              "fold-memref-alias-ops,convert-scf-to-cf,kiln-cpu-expand-arith");
}

void BuildCpuLowerToLLVMPipeline(mlir::OpPassManager& pm) {
  BuildCpuPrepareForLLVMPipeline(pm);
  // Blocks may carry AMX tiles (MatrixTileProducts.h: accumulators through the k loop), so
  // the branches are converted with the AMX dialect's type conversion (convert-to-llvm
  // restricted to cf and amx) rather than convert-cf-to-llvm's, which has none.
  // vector.transpose of 16 x 16 32-bit elements (the packing of [n, k] weight blocks with
  // AVX-512) becomes the unpack-and-shuffle sequence of 512-bit registers; other shapes
  // one shuffle of the flattened vector.
  AddPipeline(pm,
              "convert-vector-to-llvm{vector-contract-lowering=outerproduct vector-transpose-lowering=shuffle16x16 "
              "enable-amx},"
              "convert-math-to-llvm,convert-math-to-libm,finalize-memref-to-llvm,convert-index-to-llvm,"
              "convert-arith-to-llvm,convert-ub-to-llvm,convert-to-llvm{filter-dialects=cf,amx},convert-func-to-llvm,"
              "reconcile-unrealized-casts,kiln-cpu-load-bf16-as-bits,"
              "canonicalize,cse");
}

}  // namespace kiln::compiler::cpu
