// CHLO's implicit broadcasting rule, shared by the verifiers and the lowering.
//
// The result has the larger operand rank. An operand of that rank is read at the same
// dimensions; a lower-rank one has its dimension i at result dimension
// broadcast_dimensions[i] when given, else at (result rank - its rank + i) (numpy's
// trailing alignment). Every size placed at a result dimension is 1 or the one size
// greater than 1 placed there (dynamic sizes match anything).
#pragma once

#include <optional>
#include <string>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/BuiltinTypes.h"

namespace kiln::compiler::chlo {

// Where each dimension of an operand of `operand_rank` sits in a result of `result_rank`.
// Empty `error` on success; else what is wrong with broadcast_dimensions.
llvm::SmallVector<int64_t> BroadcastPositions(int64_t operand_rank, int64_t result_rank,
                                              std::optional<llvm::ArrayRef<int64_t>> broadcast_dimensions,
                                              std::string& error);

// The broadcast shape of `operands` (kDynamic where only dynamic sizes meet), or an error
// naming the operand (by `names`) and dimension that break the rule.
llvm::SmallVector<int64_t> BroadcastShape(llvm::ArrayRef<mlir::RankedTensorType> operands,
                                          llvm::ArrayRef<const char*> names,
                                          std::optional<llvm::ArrayRef<int64_t>> broadcast_dimensions,
                                          std::string& error);

}  // namespace kiln::compiler::chlo
