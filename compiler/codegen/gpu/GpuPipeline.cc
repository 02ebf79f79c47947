// The AMD GPU code generation pipelines, on the module marked `kiln.executable`.
#include "compiler/codegen/cpu/Passes.h"
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/utils/Pipelines.h"

namespace kiln::compiler::gpu {

namespace {

// Registers of 128 bits: the per-work-item vectors are then dwordx4 loads and stores.
constexpr int64_t kWorkItemVectorBits = 128;
// A work-item computes one iteration of the root's first parallel loop at a time, its
// neighbours the next ones (grid-stride), with fused producers' temporaries of static size.
constexpr int64_t kWorkItemBlock = 1;

}  // namespace

void BuildGpuKernelPipeline(mlir::OpPassManager& pm, const GpuTarget& target, bool check_indices) {
  FormKernelsOptions kernels;
  kernels.workgroupSize = target.wavefront_size;
  cpu::BufferizePipelineOptions options;
  options.vector_bits = kWorkItemVectorBits;
  options.stride_tile = kWorkItemBlock;
  options.check_indices = check_indices;
  // Row reductions are laid out by the workgroup strategies (a tree across work-items);
  // what is left runs one row per work-item, unblocked (unmeasured on the GPU).
  options.block_reductions = false;
  options.add_entry_points = [kernels](mlir::OpPassManager& nested) { nested.addPass(createFormKernels(kernels)); };
  TileRowsOptions rows;
  rows.waveSize = target.wavefront_size;
  options.before_distribution = [rows](mlir::OpPassManager& nested) {
    nested.addPass(createPadsToGathers());
    nested.addPass(createSelectWorkgroupStrategies());
    nested.addPass(createTileRows(rows));
    nested.addPass(createTileSorts());
    nested.addPass(createTileAttention());
    nested.addPass(createFlattenElementwise());
  };
  TileContractionsOptions contractions;
  contractions.mfma = target.has_mfma;
  contractions.mfmaI8Depth = target.mfma_i8_depth;
  contractions.mfmaF8 = target.has_fp8_fnuz;
  contractions.wmma = target.has_wmma;
  TileReductionsOptions reductions;
  reductions.waveSize = target.wavefront_size;
  TileScattersOptions scatters;
  scatters.checkIndices = check_indices;
  options.after_bufferization = [contractions, reductions, scatters](mlir::OpPassManager& nested) {
    nested.addPass(createTileContractions(contractions));
    nested.addPass(createTileReductions(reductions));
    nested.addPass(createTileScatters(scatters));
  };
  cpu::BuildCpuBufferizePipeline(pm, options);
}

void BuildGpuLowerToRocdlPipeline(mlir::OpPassManager& pm, const GpuTarget& target) {
  cpu::BuildCpuPrepareForLLVMPipeline(pm);
  pm.addPass(createOutlineKernels());
  AddPipeline(pm, "gpu.module(convert-vector-to-llvm{vector-contract-lowering=outerproduct},kiln-gpu-lower-to-rocdl{chip=" +
                      target.chip + "}),reconcile-unrealized-casts,canonicalize,cse");
  FinalizeKernelsOptions finalize;
  finalize.chip = target.chip;
  pm.addPass(createFinalizeKernels(finalize));
}

void BuildHostTwinLowerToLLVMPipeline(mlir::OpPassManager& pm) {
  pm.addPass(createLowerHostTwin());
  cpu::BuildCpuLowerToLLVMPipeline(pm);
}

}  // namespace kiln::compiler::gpu
