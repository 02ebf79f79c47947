// Passes of kiln's AMD GPU code generation (compiler/codegen/gpu).
#ifndef KILN_COMPILER_CODEGEN_GPU_PASSES
#define KILN_COMPILER_CODEGEN_GPU_PASSES

include "mlir/Pass/PassBase.td"

def FormKernels : Pass<"kiln-gpu-form-kernels", "mlir::ModuleOp"> {
  let summary = "Wraps each dispatch function into a GPU kernel of hal/abi/gpu_kernel_abi.h";
  let description = [{
    Runs on the executable module after bufferization, where the CPU target would add its
    entry points. For each dispatch function `@f` (kiln.binding_dims) it adds the kernel
    `@f` and renames the dispatch function `@f_body`:

      func.func @f(%binding: !llvm.ptr..., %word: i32..., %count_x: i32, %count_y: i32,
                   %count_z: i32) attributes {kiln.gpu.kernel, kiln.gpu.workgroup_size}

    The arguments are exactly the kernarg block of the GPU kernel ABI (binding pointers,
    push-constant words, workgroup count). The kernel builds the dispatch function's
    memrefs and scalars from them and maps work-items onto its workers: a distributed
    dispatch (kiln.distributed) sees work-item `block_id.x * size + thread_id.x` as its
    worker id and every work-item of the grid as a worker, so each work-item computes its
    own block of the root's first parallel loop with its producers fused (the CPU's
    workgroup distribution, one level finer). Any other dispatch runs on work-item 0 of
    workgroup 0 only.

    Work-item and workgroup ids are `gpu.thread_id` and `gpu.block_id`; the workgroup size
    is a constant. This is the IR both the code object and the host twin are lowered from.
  }];
  let options = [Option<"workgroupSize", "workgroup-size", "int64_t", /*default=*/"64",
                        "Work-items per workgroup (a multiple of the wavefront size)">];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def OutlineKernels : Pass<"kiln-gpu-outline-kernels", "mlir::ModuleOp"> {
  let summary = "Moves the executable module's functions into a gpu.module, kernels as gpu.func";
  let description = [{
    The last step before the ROCDL lowering: every function and global of the executable
    module moves into `gpu.module @kiln_kernels`; each kernel (kiln.gpu.kernel) becomes a `gpu.func`
    with the `kernel` attribute and `known_block_size` from kiln.gpu.workgroup_size, so
    that the ROCDL lowering fixes its flat workgroup size and the kernarg block holds only
    the ABI's explicit arguments.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def LowerToRocdl : Pass<"kiln-gpu-lower-to-rocdl", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lowers the kernels of a gpu.module to the LLVM and ROCDL dialects";
  let description = [{
    One full conversion of everything left in the gpu.module (func, arith, cf, memref,
    vector, math, index, ub and the gpu ops FormKernels and OutlineKernels use) with
    upstream's patterns, 64-bit indices and the GPU address spaces mapped to AMDGPU's
    (global 1, workgroup 3, private 5). Unlike upstream's convert-gpu-to-rocdl it keeps
    LLVM's math intrinsics legal (floor, exp, log...): the AMDGPU backend selects them
    itself, where that pass would call ROCm device-library functions kiln does not link.
    Vector contractions must already be lowered (convert-vector-to-llvm runs before it).
  }];
  let options = [Option<"chip", "chip", "std::string", /*default=*/"\"gfx942\"", "The target chip">];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::ROCDL::ROCDLDialect"];
}

def FinalizeKernels : Pass<"kiln-gpu-finalize-kernels", "mlir::ModuleOp"> {
  let summary = "Puts stack allocations into the private address space; refuses external calls";
  let description = [{
    Runs on the LLVM dialect inside the gpu.module. Each `llvm.alloca` moves to address
    space 5 (private, the only one AMDGPU allows for allocas) and is cast back to a flat
    pointer for its users; LLVM's address-space inference narrows the accesses again.

    A call to a function with no body (malloc for a dynamically sized temporary, a libm or
    device-library math function) cannot be linked into a kernel: it is an error naming
    the callee, the dispatch and the chip.
  }];
  let options = [Option<"chip", "chip", "std::string", /*default=*/"\"gfx942\"", "The target chip, for messages">];
}

def LowerHostTwin : Pass<"kiln-gpu-lower-host-twin", "mlir::ModuleOp"> {
  let summary = "Turns the GPU kernels into host twin entries (SIMT emulation on the CPU)";
  let description = [{
    Runs on a copy of the executable module after FormKernels, in place of the GPU's last
    lowering. Each kernel `@f` gets its work-item and workgroup ids as arguments instead of
    `gpu.thread_id`/`gpu.block_id`, and an entry `@f_twin(kernarg, workgroup) -> i32` of the
    host twin ABI (hal/abi/gpu_kernel_abi.h): it reads the kernel's arguments from the
    kernarg block at the ABI's offsets and its ids from the simulator's workgroup state, and
    runs the workgroup's work-items one after another.

    Running work-items in sequence is exact while a kernel has no `gpu.barrier` and no
    subgroup operation; a kernel with one is an error here until the twin splits loops at
    barriers.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

#endif  // KILN_COMPILER_CODEGEN_GPU_PASSES
