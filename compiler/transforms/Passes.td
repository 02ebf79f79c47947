// kiln's compiler passes. mlir-tblgen turns this into pass declarations, base classes and
// registration (compiler/transforms/Passes.h.inc).
#ifndef KILN_COMPILER_TRANSFORMS_PASSES
#define KILN_COMPILER_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def CheckInputOps : Pass<"kiln-check-input-ops", "mlir::ModuleOp"> {
  let summary = "Reports every op kiln cannot compile, naming it";
  let description = [{
    The first stage of the pipeline after parsing and verification. Walks the module and
    emits an error at each op outside the supported input (the input dialects of
    compiler/input/InputDialects.h, with tensor ops restricted to the supported list), so
    that an unsupported program fails up front with every offending op and its location,
    instead of failing somewhere inside a later lowering. Ops of dialects that are not
    registered never get here: the parser rejects them.
  }];
}

def DecomposeAggregates : Pass<"kiln-decompose-aggregates", "mlir::ModuleOp"> {
  let summary = "Decomposes aggregate linalg ops (softmax) into structured ops";
  let description = [{
    Ops that implement `linalg::AggregatedOpInterface` (linalg.softmax) are not structured
    ops: code generation cannot tile or lower them directly. This pass replaces each with
    the structured ops of its decomposition (reductions and elementwise generics), which
    elementwise fusion and dispatch formation then treat like any other.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect", "::mlir::tensor::TensorDialect"];
}

def FormDispatches : Pass<"kiln-form-dispatches", "mlir::ModuleOp"> {
  let summary = "Outlines each dispatch root with its cheap producers into an executable function";
  let description = [{
    Stage 3 of the pipeline. In every function with a body, each dispatch root (linalg ops
    and data-moving tensor ops, compiler/dispatch/DispatchFormation.h) becomes a
    `kiln.dispatch` of a new function in the nested module marked `kiln.executable`.
    Constants, `tensor.empty`, fills of empty tensors and `extract_slice` views are cloned
    into every dispatch that uses them, so kernels read through views and initialise
    their own outputs instead of receiving them as bindings. Roots are visited consumers
    first so that a producer cloned into all its users is never dispatched on its own.

    Results leave the dispatch through output bindings the host allocates; their dynamic
    dimensions are computed on the host from the root's operands and passed, with every
    dynamic dimension of every input binding, as push constants.
  }];
  let dependentDialects = ["::kiln::compiler::KilnDialect", "::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif  // KILN_COMPILER_TRANSFORMS_PASSES
