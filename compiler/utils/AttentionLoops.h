// What the decomposition of iree_linalg_ext.attention / online_attention
// (compiler/transforms/DecomposeAttention.cc) and the GPU's flash-attention strategy
// (compiler/codegen/gpu/WorkgroupAttention.h) read off the op alike: the loops its
// indexing maps name, as sets, and the base of its softmax.
#pragma once

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

namespace kiln::compiler {

using LoopSet = llvm::SmallVector<unsigned>;  // ascending loop numbers

// The loops `map` (a projected permutation) names.
inline LoopSet LoopsOf(mlir::AffineMap map) {
  LoopSet loops;
  for (mlir::AffineExpr e : map.getResults()) loops.push_back(llvm::cast<mlir::AffineDimExpr>(e).getPosition());
  llvm::sort(loops);
  return loops;
}

inline LoopSet Union(const LoopSet& a, const LoopSet& b) {
  LoopSet out = a;
  for (unsigned x : b) {
    if (!llvm::is_contained(out, x)) out.push_back(x);
  }
  llvm::sort(out);
  return out;
}

inline LoopSet Minus(const LoopSet& a, const LoopSet& b) {
  LoopSet out;
  for (unsigned x : a) {
    if (!llvm::is_contained(b, x)) out.push_back(x);
  }
  return out;
}

// Whether the attention op's softmax is in base 2 (exp2, scores times log2(e)): IREE's
// default, off with `decomposition_config = {use_exp2 = false}`.
inline bool AttentionUsesExp2(mlir::Operation* op) {
  if (auto config = op->getAttrOfType<mlir::DictionaryAttr>("decomposition_config")) {
    if (auto use_exp2 = config.getAs<mlir::BoolAttr>("use_exp2")) return use_exp2.getValue();
  }
  return true;
}

}  // namespace kiln::compiler
