#include "compiler/input/chlo/ChloBroadcast.h"

#include <algorithm>

#include "llvm/ADT/STLExtras.h"

namespace kiln::compiler::chlo {

using namespace mlir;

SmallVector<int64_t> BroadcastPositions(int64_t operand_rank, int64_t result_rank,
                                        std::optional<ArrayRef<int64_t>> broadcast_dimensions, std::string& error) {
  SmallVector<int64_t> positions;
  if (operand_rank == result_rank || !broadcast_dimensions) {
    for (int64_t i = 0; i < operand_rank; ++i) positions.push_back(result_rank - operand_rank + i);
    return positions;
  }
  if (static_cast<int64_t>(broadcast_dimensions->size()) != operand_rank) {
    error = "broadcast_dimensions has " + std::to_string(broadcast_dimensions->size()) +
            " entries, not one per dimension of the lower-rank operand (" + std::to_string(operand_rank) + ")";
    return {};
  }
  for (int64_t position : *broadcast_dimensions) {
    if (position < 0 || position >= result_rank || llvm::is_contained(positions, position)) {
      error = "broadcast_dimensions entry " + std::to_string(position) + " is out of [0, " +
              std::to_string(result_rank) + ") or repeated";
      return {};
    }
    positions.push_back(position);
  }
  return positions;
}

SmallVector<int64_t> BroadcastShape(ArrayRef<RankedTensorType> operands, ArrayRef<const char*> names,
                                    std::optional<ArrayRef<int64_t>> broadcast_dimensions, std::string& error) {
  int64_t rank = 0;
  for (RankedTensorType type : operands) rank = std::max(rank, type.getRank());
  // Per result dimension: the size greater than 1 placed there so far (1 if none), and who placed it.
  SmallVector<int64_t> shape(rank, 1);
  SmallVector<int> placed_by(rank, -1);
  for (auto [index, type] : llvm::enumerate(operands)) {
    SmallVector<int64_t> positions = BroadcastPositions(type.getRank(), rank, broadcast_dimensions, error);
    if (!error.empty()) return {};
    for (auto [dim, position] : llvm::enumerate(positions)) {
      int64_t size = type.getDimSize(dim);
      if (size == 1) continue;
      int64_t& current = shape[position];
      if (current == 1 || current == ShapedType::kDynamic) {
        if (size != ShapedType::kDynamic || current == 1) {
          current = size;
          placed_by[position] = static_cast<int>(index);
        }
        continue;
      }
      if (size != ShapedType::kDynamic && size != current) {
        error = std::string(names[index]) + " dimension " + std::to_string(dim) + " of size " +
                std::to_string(size) + " is neither 1 nor " + std::to_string(current) + ", the size of " +
                names[placed_by[position]] + " it broadcasts with";
        return {};
      }
    }
  }
  return shape;
}

}  // namespace kiln::compiler::chlo
