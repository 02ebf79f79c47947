// Transient memory of one host block: dispatch results that live and die inside the block
// share one slab, placed by liveness (DESIGN.md section 3, "transient").
//
// A result is transient when it has a static shape and neither it nor any view of it
// (reshape, cast, bitcast) leaves the block: no return, call, branch operand or use in
// another block. Its live range runs from its dispatch to its last use (through views).
// Consecutive dispatches are separated by barriers, so a range may start after another
// ended (never at the dispatch that reads it: a kernel's inputs and outputs do not alias).
// Results with dynamic shapes are allocated one by one.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "llvm/ADT/DenseMap.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinTypes.h"

namespace kiln::compiler {

struct TransientPlan {
  int64_t slab_bytes = 0;                       // 0: no slab for this block
  llvm::DenseMap<mlir::Value, int64_t> offsets;  // byte offset of each transient in the slab
};

// Offsets are multiples of `alignment`. `tensor_bytes` gives the storage size of a static
// tensor type, or nullopt for types that cannot be placed.
TransientPlan PlanTransients(mlir::Block& block,
                             const std::function<std::optional<int64_t>(mlir::RankedTensorType)>& tensor_bytes,
                             int64_t alignment = 64);

}  // namespace kiln::compiler
