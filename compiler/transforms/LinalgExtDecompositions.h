// iree_linalg_ext ops that are structured computations in disguise, rewritten on tensors
// into linalg.generic ops that the rest of the pipeline fuses, tiles and vectorises like
// any other (DESIGN.md section 7, stage 2). Each returns the values replacing the op's
// results, or fails with a diagnostic at the op.
//
// sort, topk, topk_v2, scan and scatter are not here: they are dispatch roots of their
// own and become loops after bufferization (compiler/codegen/cpu/LinalgExtToLoops.h).
#pragma once

#include "mlir/IR/PatternMatch.h"

#include "compiler/input/iree/IreeDialects.h"

namespace kiln::compiler {

// A parallel generic over the output reading the source through tensor.extract at the
// batch position's (clamped) indices; the index reads are structured inputs. With
// `check_indices`, each slice offset is also checked before clamping (kiln.index_check);
// masked-out positions are never reported.
mlir::FailureOr<llvm::SmallVector<mlir::Value>> DecomposeGather(mlir::RewriterBase& rewriter, iree::GatherOp op,
                                                                bool check_indices);

// A reduction generic with two outputs (value, index) and the comparator inlined.
mlir::FailureOr<llvm::SmallVector<mlir::Value>> DecomposeArgCompare(mlir::RewriterBase& rewriter,
                                                                    iree::ArgCompareOp op);

// Q K^T, score region and mask, row max, exp2, row sum and P V as generics over the
// op's loops (the roles of the loops come from the indexing maps), in the order and base
// IREE's decomposition uses (docs/iree-compatibility.md, "Attention scores").
mlir::FailureOr<llvm::SmallVector<mlir::Value>> DecomposeAttention(mlir::RewriterBase& rewriter,
                                                                   mlir::Operation* op);

}  // namespace kiln::compiler
