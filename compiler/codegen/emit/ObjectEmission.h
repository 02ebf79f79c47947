// The last steps of code generation that every target shares: checking that lowering left
// only LLVM-level ops, optimising LLVM IR, emitting an object file and linking objects
// into a shared object with lld, in-process. The CPU ELF, the GPU code object (HSACO) and
// the GPU kernels' host twins are all made this way.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace kiln::compiler {

// The first op nested in `root` (not `root` itself) whose dialect is not one of
// `lowered_dialects`, or null when lowering is complete.
mlir::Operation* FindUnloweredOp(mlir::Operation* root, llvm::ArrayRef<llvm::StringRef> lowered_dialects);

// Runs LLVM's -O3 module pipeline for `machine` over `module`.
void OptimizeModule(llvm::Module& module, llvm::TargetMachine& machine);

// The object file `machine` makes of `module`. Errors are emitted at `loc`.
mlir::FailureOr<llvm::SmallVector<char, 0>> EmitObjectFile(llvm::Module& module, llvm::TargetMachine& machine,
                                                           mlir::Location loc);

// Links `object` into a shared object with lld's ELF linker, called in-process with
// `-shared`, `extra_args` and the output and input paths (through temporary files).
// lld's messages are part of the error emitted at `loc` on failure.
mlir::FailureOr<std::vector<uint8_t>> LinkSharedObject(llvm::ArrayRef<char> object,
                                                       llvm::ArrayRef<const char*> extra_args, mlir::Location loc);

}  // namespace kiln::compiler
