// The sums of several vectors' lanes at once, as one vector: the epilogue of the
// dot-product register tiles (VectorizeContractions.cc), which end with one vector of
// partial sums per output.
#pragma once

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace kiln::compiler::cpu {

// Whether SumEachVector takes `count` vectors of `lanes` lanes: both powers of two, and
// count <= lanes.
bool CanSumEachVector(int64_t count, int64_t lanes);

// A vector<count x T> whose lane i is the sum of the lanes of `vectors[i]` (all of one
// type vector<lanes x T>, float T; see CanSumEachVector), added in a reassociated order:
// pairs of vectors fold halves of their lanes into one vector (a shuffle of each half and
// an add per pair), then the last vector folds its groups of lanes, log2(lanes) levels in
// all. With AVX-512 f32, 16 vectors take 15 adds and about 30 shuffles, where one
// horizontal reduction per vector (extracts and shuffles down to a scalar) took 4 of each.
mlir::Value SumEachVector(mlir::OpBuilder& builder, mlir::Location loc, llvm::ArrayRef<mlir::Value> vectors);

}  // namespace kiln::compiler::cpu
