// Regions of ops (comparators, combiners, score modifiers) inlined where they are used.
#pragma once

#include "mlir/IR/Block.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace kiln::compiler {

// Clones the ops of `block` at `b` with its arguments bound to `args` (same count and
// types) and returns what its terminator's first operand became.
inline mlir::Value InlineYieldedValue(mlir::OpBuilder& b, mlir::Block& block, mlir::ValueRange args) {
  mlir::IRMapping map;
  map.map(block.getArguments(), args);
  for (mlir::Operation& op : block.without_terminator()) b.clone(op, map);
  return map.lookupOrDefault(block.getTerminator()->getOperand(0));
}

}  // namespace kiln::compiler
