// Passes of kiln's CPU code generation (compiler/codegen/cpu).
#ifndef KILN_COMPILER_CODEGEN_CPU_PASSES
#define KILN_COMPILER_CODEGEN_CPU_PASSES

include "mlir/Pass/PassBase.td"

def WrapEntryPoints : Pass<"kiln-cpu-wrap-entry-points", "mlir::ModuleOp"> {
  let summary = "Adds the executable ABI entry point of every executable function";
  let description = [{
    Runs on the module marked `kiln.executable`, after bufferization. For each executable
    function `F` (memref bindings, push-constant scalars, workgroup id and count) it adds
    `F_entry(dispatch_state, workgroup_state) -> i32` implementing
    `kiln_dispatch_fn_v1_t` (hal/abi/executable_abi.h): it reads the binding pointers,
    builds identity-layout memref descriptors whose dynamic sizes come from the push
    constants named by `kiln.binding_dims`, decodes the scalar push constants (one 32-bit
    word per index or value of at most 32 bits, two words low-first for 64-bit values),
    reads the workgroup id and count along x, calls `F` and returns 0. `F` becomes private
    so that LLVM inlines it into its entry point.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::arith::ArithDialect"];
}

def DistributeToWorkgroups : Pass<"kiln-cpu-distribute-to-workgroups", "mlir::ModuleOp"> {
  let summary = "Splits each executable function's root loop nest across workgroups";
  let description = [{
    Runs on the module marked `kiln.executable`, on tensors, before bufferization. The
    root op (`kiln.root`) is tiled along its first parallel loop into one contiguous block
    of ceil(extent / workgroup_count) iterations per workgroup, and the producers it uses
    (fills, elementwise ops, slices) are fused into the tile, so that workgroups write
    disjoint parts of every output. Functions where that is not possible (no parallel
    loop, a root without the tiling interface, a tiling failure) are left whole and run as
    one workgroup, with a remark saying why. A function that was split is marked
    `kiln.distributed`: the host may then launch any number of workgroups.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect", "::mlir::tensor::TensorDialect"];
}

def InterchangeForVectorization : Pass<"kiln-cpu-interchange-for-vectorization", "mlir::ModuleOp"> {
  let summary = "Moves the output's contiguous loop innermost in contractions";
  let description = [{
    Runs on buffers, before linalg ops become loops. For a linalg op with reduction loops
    whose output's innermost dimension is a parallel loop `d` that also indexes the
    innermost dimension of one of its inputs (j in a matmul's B[k, j] and C[i, j]), the
    op is generalised and `d` becomes the innermost loop (i, k, j for a matmul). The
    innermost loop then walks contiguous memory in the output and that input, so LLVM
    vectorises it with FMAs. Ops that do not fit (full reductions, reductions along rows)
    are left as they are.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def ApproximateMath : Pass<"kiln-cpu-approximate-math", "mlir::ModuleOp"> {
  let summary = "Replaces f32 math functions by polynomial approximations";
  let description = [{
    exp, log, tanh, erf, sin, cos and friends on f32 become MLIR's polynomial
    approximations (plain arithmetic), so that loops using them vectorise instead of
    calling the C library once per element.
  }];
  let dependentDialects = ["::mlir::math::MathDialect", "::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def CopiesToLinalg : Pass<"kiln-cpu-copies-to-linalg", "mlir::ModuleOp"> {
  let summary = "Turns memref.copy into linalg.copy so that copies become loops in the kernel";
  let description = [{
    The upstream lowering of a `memref.copy` between strided views calls `memrefCopy`
    from MLIR's C runner library, which a kiln executable does not link. Every copy
    becomes a `linalg.copy` instead, which the kernel lowers to (vectorisable) loops like
    any other linalg op.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def ExpandFloat8 : Pass<"kiln-cpu-expand-float8", "mlir::ModuleOp"> {
  let summary = "Implements f8E4M3FN, f8E4M3FNUZ, f8E5M2 and f8E5M2FNUZ with integer and f32 arithmetic";
  let description = [{
    LLVM has no types for these formats. After `arith-emulate-unsupported-floats` has
    moved their arithmetic to f32, this pass expands what is left: `arith.extf` from and
    `arith.truncf` to these formats become bit manipulation (compiler/utils/SmallFloats.h:
    round to nearest even, each format's NaN, infinity and zero rules), and constants
    become their i8 bit patterns. Values of these types then only move through memory,
    which LLVM sees as i8. A truncation from f64 first rounds to f32.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::math::MathDialect"];
}

#endif  // KILN_COMPILER_CODEGEN_CPU_PASSES
