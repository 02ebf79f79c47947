#include "compiler/codegen/cpu/MatrixTileProducts.h"

#include "compiler/codegen/cpu/GroupDotProducts.h"
#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace kiln::compiler::cpu {

using namespace mlir;

LogicalResult VectorizeMatrixTileProduct(RewriterBase& rewriter, linalg::GenericOp product) {
  Value lhs = product.getDpsInputs()[0], packed = product.getDpsInputs()[1], out = product.getDpsInits()[0];
  auto lhs_type = cast<MemRefType>(lhs.getType());
  auto packed_type = cast<MemRefType>(packed.getType());
  auto out_type = cast<MemRefType>(out.getType());
  if (packed_type.getRank() != 3 || packed_type.getDimSize(1) != kGroupDotColumns ||
      ShapedType::isDynamic(packed_type.getDimSize(0)) || packed_type.getDimSize(0) % kAmxStepGroups != 0 ||
      out_type.getRank() != 2 || out_type.getDimSize(0) != kMatrixTileRows ||
      out_type.getDimSize(1) != kGroupDotColumns || lhs_type.getRank() != 2 || !lhs_type.isLastDimUnitStride() ||
      !out_type.isLastDimUnitStride()) {
    return failure();
  }
  const int64_t g = packed_type.getDimSize(2);
  const int64_t groups = packed_type.getDimSize(0);
  Type element = packed_type.getElementType();
  Type accumulator = out_type.getElementType();
  const bool integer = element.isInteger(8);
  Location loc = product.getLoc();
  rewriter.setInsertionPoint(product);
  auto index = [&](OpBuilder& b, int64_t i) -> Value { return arith::ConstantIndexOp::create(b, loc, i); };

  // A step's operand tiles: 16 rows of 16 groups (64 bytes); accumulators 16 x 16.
  auto operand_tile = amx::TileType::get({kAmxTileRows, kAmxStepGroups * g}, element);
  auto accumulator_tile = amx::TileType::get({kAmxTileRows, kAmxTileRows}, accumulator);
  // The packed block seen as [groups, 32 * g]: a right-hand tile is 16 of its rows, the
  // first or second half of each.
  Value flat = memref::CollapseShapeOp::create(rewriter, loc, packed, ArrayRef<ReassociationIndices>{{0}, {1, 2}});
  constexpr int64_t kTiles = kMatrixTileRows / kAmxTileRows;  // per side: 2 x 2 accumulators
  SmallVector<Value> initial;
  for (int64_t r = 0; r < kTiles; ++r) {
    for (int64_t c = 0; c < kTiles; ++c) {
      initial.push_back(amx::TileLoadOp::create(rewriter, loc, accumulator_tile, out,
                                                ValueRange{index(rewriter, r * kAmxTileRows),
                                                           index(rewriter, c * kAmxTileRows)}));
    }
  }
  auto loop = scf::ForOp::create(
      rewriter, loc, index(rewriter, 0), index(rewriter, groups), index(rewriter, kAmxStepGroups), initial,
      [&](OpBuilder& b, Location, Value group, ValueRange acc) {
        Value k = arith::MulIOp::create(b, loc, group, index(b, g));
        SmallVector<Value> rows, columns;
        for (int64_t r = 0; r < kTiles; ++r) {
          rows.push_back(amx::TileLoadOp::create(b, loc, operand_tile, lhs, ValueRange{index(b, r * kAmxTileRows), k}));
        }
        for (int64_t c = 0; c < kTiles; ++c) {
          columns.push_back(
              amx::TileLoadOp::create(b, loc, operand_tile, flat, ValueRange{group, index(b, c * kAmxTileRows * g)}));
        }
        SmallVector<Value> next;
        for (int64_t r = 0; r < kTiles; ++r) {
          for (int64_t c = 0; c < kTiles; ++c) {
            Value before = acc[r * kTiles + c];
            next.push_back(integer ? amx::TileMulIOp::create(b, loc, accumulator_tile, rows[r], columns[c], before)
                                         .getResult()
                                   : amx::TileMulFOp::create(b, loc, accumulator_tile, rows[r], columns[c], before)
                                         .getResult());
          }
        }
        scf::YieldOp::create(b, loc, next);
      });
  for (int64_t r = 0; r < kTiles; ++r) {
    for (int64_t c = 0; c < kTiles; ++c) {
      amx::TileStoreOp::create(rewriter, loc, out,
                               ValueRange{index(rewriter, r * kAmxTileRows), index(rewriter, c * kAmxTileRows)},
                               loop.getResult(r * kTiles + c));
    }
  }
  rewriter.eraseOp(product);
  return success();
}

}  // namespace kiln::compiler::cpu
