// How an executable's entry point turns its raw arguments (binding pointers and 32-bit
// push-constant words) into the memrefs and scalars of the dispatch function. Shared by
// the CPU entry points (hal/abi/executable_abi.h) and the GPU kernels
// (hal/abi/gpu_kernel_abi.h), which receive the same values in different ways.
#pragma once

#include <cstdint>

#include "llvm/ADT/STLFunctionalExtras.h"
#include "mlir/IR/Builders.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

namespace kiln::compiler {

// The number of 32-bit push-constant words a scalar of `type` takes: two for 64-bit
// integers and floats, one otherwise (index values travel as one word).
int64_t PushConstantWordCount(mlir::Type type);

// How a dispatch function's arguments (bindings, push-constant scalars, workgroup id and
// count) map onto the ABI's binding pointers and 32-bit words.
struct DispatchArguments {
  mlir::ArrayAttr binding_dims;  // kiln.binding_dims: per binding, per dimension, a constant or -1
  size_t binding_count = 0;
  llvm::SmallVector<mlir::Type> constant_types;
  llvm::SmallVector<int64_t> word_of_constant;  // first word of each constant
  int64_t words = 0;                            // push-constant words in all
};

// Reads `fn`'s arguments given its kiln.binding_dims; an error on `fn` when it has fewer
// arguments than its bindings plus workgroup id and count.
mlir::FailureOr<DispatchArguments> ReadDispatchArguments(mlir::func::FuncOp fn, mlir::ArrayAttr binding_dims);

// The operands of dispatch function `fn` before its workgroup id and count: a memref per
// binding over `pointer(i)` (an !llvm.ptr), its dynamic sizes from the words its
// binding_dims name, then a scalar per constant; `word(w)` is push-constant word w (i32).
// An error on `fn` when a binding is not an identity-layout memref.
mlir::FailureOr<llvm::SmallVector<mlir::Value>> BuildDispatchOperands(mlir::OpBuilder& b, mlir::Location loc,
                                                                      mlir::func::FuncOp fn,
                                                                      const DispatchArguments& args,
                                                                      llvm::function_ref<mlir::Value(size_t)> pointer,
                                                                      llvm::function_ref<mlir::Value(int64_t)> word);

// A memref of `type` (identity layout) over `pointer` (an !llvm.ptr), as an
// unrealized_conversion_cast of its LLVM descriptor; `dynamic_size(d)` gives the i64 size
// of each dynamic dimension d.
mlir::Value BuildMemrefOverPointer(mlir::OpBuilder& b, mlir::Location loc, mlir::MemRefType type, mlir::Value pointer,
                                   llvm::function_ref<mlir::Value(int64_t dim)> dynamic_size);

// The scalar of `type` whose words are `low` and, for two-word types, `high` (i32 values).
mlir::Value BuildScalarFromWords(mlir::OpBuilder& b, mlir::Location loc, mlir::Type type, mlir::Value low,
                                 mlir::Value high);

}  // namespace kiln::compiler
