#include "compiler/codegen/cpu/GroupDotProducts.h"

#include <array>

#include "compiler/codegen/cpu/PrefetchPrefix.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace kiln::compiler::cpu {

using namespace mlir;

namespace {

// Whether the body of `op` is exactly out + ExtOp(a) * ExtOp(b) (either order) with
// AddOp's sum: a multiply-add (HasMultiplyAddBody) whose two factors are ExtOp extensions.
template <typename AddOp, typename ExtOp>
bool ComputesWidenedMultiplyAdd(linalg::LinalgOp op) {
  if (!HasMultiplyAddBody(op)) return false;
  Block* body = op.getBlock();
  return body->getTerminator()->getOperand(0).getDefiningOp<AddOp>() &&
         llvm::count_if(body->getOperations(), [](Operation& inner) { return isa<ExtOp>(inner); }) == 2;
}

GroupDotKind KindOfPacked(Type element) {
  return element.isBF16() ? GroupDotKind::kBF16Pairs : GroupDotKind::kI8Quads;
}

// acc + the group products of `a` and `b` in each 32-bit lane. For i8, `a` holds the
// unsigned bytes (vpdpbusd's first source) and `b` the signed ones.
Value GroupDot(OpBuilder& b, Location loc, GroupDotKind kind, Value acc, Value lhs, Value rhs) {
  StringRef intrinsic =
      kind == GroupDotKind::kBF16Pairs ? "llvm.x86.avx512bf16.dpbf16ps.512" : "llvm.x86.avx512.vpdpbusd.512";
  return LLVM::CallIntrinsicOp::create(b, loc, acc.getType(), b.getStringAttr(intrinsic), ValueRange{acc, lhs, rhs})
      ->getResult(0);
}

// `packed` ([groups, columns, g]) seen as [groups, columns * g]: one row per group.
Value FlattenGroups(OpBuilder& b, Location loc, Value packed) {
  return memref::CollapseShapeOp::create(b, loc, packed, ArrayRef<ReassociationIndices>{{0}, {1, 2}});
}

// The pack's generic: packed[p, n, j] = source at `source_map` (p, n, j).
linalg::GenericOp CreatePack(OpBuilder& b, Location loc, Value source, Value packed, AffineMap source_map) {
  AffineMap identity = AffineMap::getMultiDimIdentityMap(3, b.getContext());
  SmallVector<utils::IteratorType> parallel(3, utils::IteratorType::parallel);
  return linalg::GenericOp::create(b, loc, TypeRange{}, ValueRange{source}, ValueRange{packed},
                                   ArrayRef<AffineMap>{source_map, identity}, parallel,
                                   [](OpBuilder& nb, Location nl, ValueRange args) {
                                     linalg::YieldOp::create(nb, nl, args[0]);
                                   });
}

// Interleaves `rows` (g vectors of the same columns, g = 2 or 4) so that each column's g
// elements are adjacent: the packed layout of one group of rows.
Value InterleaveRows(OpBuilder& b, Location loc, ArrayRef<Value> rows) {
  if (rows.size() == 2) return vector::InterleaveOp::create(b, loc, rows[0], rows[1]);
  Value low = vector::InterleaveOp::create(b, loc, rows[0], rows[1]);
  Value high = vector::InterleaveOp::create(b, loc, rows[2], rows[3]);
  // Pairs of bytes are 16-bit units; interleaving those gives quads.
  int64_t units = cast<VectorType>(low.getType()).getNumElements() / 2;
  auto pair_type = VectorType::get({units}, b.getI16Type());
  Value quads = vector::InterleaveOp::create(b, loc, vector::BitCastOp::create(b, loc, pair_type, low),
                                             vector::BitCastOp::create(b, loc, pair_type, high));
  return vector::BitCastOp::create(b, loc, VectorType::get({units * 4}, b.getI8Type()), quads);
}

// The transpose of 16 vectors of 16 32-bit units, in four stages of two-input shuffles
// that are one AVX-512 instruction each (vpunpck{l,h}dq, vpunpck{l,h}qdq, then vshufi32x4
// twice): 64 shuffles. A vector.transpose of the same square became about 175 two-source
// permutes with their index vectors reloaded from memory.
SmallVector<Value> TransposeUnits16x16(OpBuilder& b, Location loc, ArrayRef<Value> rows) {
  auto per_lane = [](std::array<int64_t, 4> pattern) {
    SmallVector<int64_t> mask;
    for (int64_t lane = 0; lane < 4; ++lane) {
      for (int64_t p : pattern) mask.push_back(p < 16 ? lane * 4 + p : 16 + lane * 4 + (p - 16));
    }
    return mask;
  };
  auto lanes_of = [](std::array<int64_t, 4> lanes) {
    SmallVector<int64_t> mask;
    for (int64_t lane : lanes) {
      for (int64_t j = 0; j < 4; ++j) mask.push_back(lane * 4 + j);
    }
    return mask;
  };
  const SmallVector<int64_t> lo32 = per_lane({0, 16, 1, 17}), hi32 = per_lane({2, 18, 3, 19});
  const SmallVector<int64_t> lo64 = per_lane({0, 1, 16, 17}), hi64 = per_lane({2, 3, 18, 19});
  const SmallVector<int64_t> even_lanes = lanes_of({0, 2, 4, 6}), odd_lanes = lanes_of({1, 3, 5, 7});
  auto shuffle = [&](Value x, Value y, ArrayRef<int64_t> mask) {
    return vector::ShuffleOp::create(b, loc, x, y, mask).getResult();
  };
  SmallVector<Value> t(16), u(16), v(16), w(16);
  for (int i = 0; i < 8; ++i) {
    t[2 * i] = shuffle(rows[2 * i], rows[2 * i + 1], lo32);
    t[2 * i + 1] = shuffle(rows[2 * i], rows[2 * i + 1], hi32);
  }
  for (int q = 0; q < 16; q += 4) {
    u[q] = shuffle(t[q], t[q + 2], lo64);
    u[q + 1] = shuffle(t[q], t[q + 2], hi64);
    u[q + 2] = shuffle(t[q + 1], t[q + 3], lo64);
    u[q + 3] = shuffle(t[q + 1], t[q + 3], hi64);
  }
  for (int h : {0, 8}) {
    for (int i = 0; i < 4; ++i) {
      v[h + i] = shuffle(u[h + i], u[h + i + 4], even_lanes);
      v[h + i + 4] = shuffle(u[h + i], u[h + i + 4], odd_lanes);
    }
  }
  for (int i = 0; i < 8; ++i) {
    w[i] = shuffle(v[i], v[i + 8], even_lanes);
    w[i + 8] = shuffle(v[i], v[i + 8], odd_lanes);
  }
  return w;
}

// The fill of a register tile's output just before it (pure ops aside), maybe under an
// scf.if without else (its condition: the first block of k), when it fills exactly `out`
// with a scalar of the accumulators' type `element`.
struct TileFill {
  Operation* op;    // the fill or the scf.if around it
  Value condition;  // null: the fill is unconditional
  Value value;
};

std::optional<TileFill> FillBefore(Operation* tile, Value out, Type element) {
  Operation* before = tile->getPrevNode();
  while (before && isPure(before)) before = before->getPrevNode();
  if (!before) return std::nullopt;
  TileFill found{before, nullptr, nullptr};
  auto fill = dyn_cast<linalg::FillOp>(before);
  if (auto branch = dyn_cast<scf::IfOp>(before)) {
    if (branch.getNumResults() != 0 || !branch.getElseRegion().empty() ||
        !llvm::hasSingleElement(branch.thenBlock()->without_terminator())) {
      return std::nullopt;
    }
    found.condition = branch.getCondition();
    fill = dyn_cast<linalg::FillOp>(branch.thenBlock()->front());
  }
  if (!fill || !fill.hasPureBufferSemantics() || fill.getDpsInits()[0] != out ||
      fill.getInputs()[0].getType() != element) {
    return std::nullopt;
  }
  found.value = fill.getInputs()[0];
  return found;
}

}  // namespace

int64_t GroupSize(GroupDotKind kind) { return kind == GroupDotKind::kBF16Pairs ? 2 : 4; }

std::optional<GroupDotKind> MatchGroupDotContraction(linalg::LinalgOp op, GroupDotFeatures features) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 || op->getNumRegions() != 1) return std::nullopt;
  Type a = getElementTypeOrSelf(op.getDpsInputs()[0].getType()), b = getElementTypeOrSelf(op.getDpsInputs()[1].getType());
  Type out = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  if (features.bf16_pairs && a.isBF16() && b.isBF16() && out.isF32() &&
      ComputesWidenedMultiplyAdd<arith::AddFOp, arith::ExtFOp>(op)) {
    return GroupDotKind::kBF16Pairs;
  }
  if (features.i8_quads && a.isInteger(8) && b.isInteger(8) && out.isInteger(32) &&
      ComputesWidenedMultiplyAdd<arith::AddIOp, arith::ExtSIOp>(op)) {
    return GroupDotKind::kI8Quads;
  }
  return std::nullopt;
}

linalg::GenericOp CreateGroupPack(OpBuilder& b, Location loc, Value source, Value packed, bool transposed) {
  MLIRContext* ctx = b.getContext();
  const int64_t g = cast<MemRefType>(packed.getType()).getDimSize(2);
  AffineExpr p = getAffineDimExpr(0, ctx), n = getAffineDimExpr(1, ctx), j = getAffineDimExpr(2, ctx);
  AffineMap source_map =
      transposed ? AffineMap::get(3, 0, {n, p * g + j}, ctx) : AffineMap::get(3, 0, {p * g + j, n}, ctx);
  linalg::GenericOp pack = CreatePack(b, loc, source, packed, source_map);
  pack->setAttr(kGroupPackTileAttr, b.getUnitAttr());
  return pack;
}

void CreateGroupColumnSums(OpBuilder& b, Location loc, Value packed, Value sums) {
  MLIRContext* ctx = b.getContext();
  Type accumulator = getElementTypeOrSelf(sums.getType());
  Value zero_sum = arith::ConstantOp::create(b, loc, b.getZeroAttr(accumulator));
  linalg::FillOp::create(b, loc, ValueRange{zero_sum}, ValueRange{sums});
  AffineMap identity3 = AffineMap::getMultiDimIdentityMap(3, ctx);
  auto column_sums = linalg::GenericOp::create(
      b, loc, TypeRange{}, ValueRange{packed}, ValueRange{sums},
      ArrayRef<AffineMap>{identity3, AffineMap::get(3, 0, {getAffineDimExpr(1, ctx)}, ctx)},
      {utils::IteratorType::reduction, utils::IteratorType::parallel, utils::IteratorType::reduction},
      [&](OpBuilder& nb, Location l, ValueRange args) {
        Value wide = arith::ExtSIOp::create(nb, l, accumulator, args[0]);
        Value offset = arith::ConstantOp::create(nb, l, nb.getIntegerAttr(accumulator, 128));
        linalg::YieldOp::create(nb, l, ValueRange{arith::AddIOp::create(nb, l, args[1],
                                                                         arith::MulIOp::create(nb, l, wide, offset))});
      });
  column_sums->setAttr(kGroupSumsTileAttr, b.getUnitAttr());
}

linalg::GenericOp CreateGroupProduct(OpBuilder& b, Location loc, Value lhs, Value packed, Value sums, Value out) {
  MLIRContext* ctx = b.getContext();
  const int64_t g = cast<MemRefType>(packed.getType()).getDimSize(2);
  Type accumulator = getElementTypeOrSelf(out.getType());
  const bool i8 = accumulator.isInteger(32);
  // The product over (m, n, p, j).
  AffineExpr pm = getAffineDimExpr(0, ctx), pn = getAffineDimExpr(1, ctx), pp = getAffineDimExpr(2, ctx),
             pj = getAffineDimExpr(3, ctx);
  SmallVector<AffineMap> maps = {AffineMap::get(4, 0, {pm, pp * g + pj}, ctx), AffineMap::get(4, 0, {pp, pn, pj}, ctx)};
  SmallVector<Value> inputs = {lhs, packed};
  if (sums) {
    maps.push_back(AffineMap::get(4, 0, {pn}, ctx));
    inputs.push_back(sums);
  }
  maps.push_back(AffineMap::get(4, 0, {pm, pn}, ctx));
  return linalg::GenericOp::create(
      b, loc, TypeRange{}, inputs, ValueRange{out}, maps,
      {utils::IteratorType::parallel, utils::IteratorType::parallel, utils::IteratorType::reduction,
       utils::IteratorType::reduction},
      [&](OpBuilder& nb, Location l, ValueRange args) {
        if (!i8) {
          Value product = arith::MulFOp::create(nb, l, arith::ExtFOp::create(nb, l, accumulator, args[0]),
                                                arith::ExtFOp::create(nb, l, accumulator, args[1]));
          linalg::YieldOp::create(nb, l, ValueRange{arith::AddFOp::create(nb, l, args[2], product)});
          return;
        }
        if (!sums) {
          Value product = arith::MulIOp::create(nb, l, arith::ExtSIOp::create(nb, l, accumulator, args[0]),
                                                arith::ExtSIOp::create(nb, l, accumulator, args[1]));
          linalg::YieldOp::create(nb, l, ValueRange{arith::AddIOp::create(nb, l, args[2], product)});
          return;
        }
        // (a + 128) x b, what vpdpbusd computes on the flipped sign bit of a, and S[n]
        // subtracted once per output (at the first k).
        Value a = arith::AddIOp::create(nb, l, arith::ExtSIOp::create(nb, l, accumulator, args[0]),
                                        arith::ConstantOp::create(nb, l, nb.getIntegerAttr(accumulator, 128)));
        Value product = arith::MulIOp::create(nb, l, a, arith::ExtSIOp::create(nb, l, accumulator, args[1]));
        Value zero_index = arith::ConstantIndexOp::create(nb, l, 0);
        Value first = arith::AndIOp::create(
            nb, l, arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, linalg::IndexOp::create(nb, l, 2), zero_index),
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, linalg::IndexOp::create(nb, l, 3), zero_index));
        Value zero = arith::ConstantOp::create(nb, l, nb.getIntegerAttr(accumulator, 0));
        Value correction = arith::SelectOp::create(nb, l, first, args[2], zero);
        Value sum = arith::SubIOp::create(nb, l, arith::AddIOp::create(nb, l, args[3], product), correction);
        linalg::YieldOp::create(nb, l, ValueRange{sum});
      });
}

linalg::GenericOp PackBlockForGroupDots(RewriterBase& rewriter, linalg::LinalgOp block, const ContractionTilePlan& plan) {
  Location loc = block.getLoc();
  MLIRContext* ctx = rewriter.getContext();
  OpOperand *lhs = block.getDpsInputOperand(0), *rhs = block.getDpsInputOperand(1);
  if (!block.getMatchingIndexingMap(rhs).isFunctionOfDim(plan.n_dim)) std::swap(lhs, rhs);
  Value out = block.getDpsInits()[0];
  const int64_t g = GroupSize(plan.group_kind);
  Type element = getElementTypeOrSelf(rhs->get().getType());
  Type accumulator = getElementTypeOrSelf(out.getType());
  bool i8 = plan.group_kind == GroupDotKind::kI8Quads;

  auto fn = block->getParentOfType<FunctionOpInterface>();
  rewriter.setInsertionPointToStart(&fn.getFunctionBody().front());
  auto storage_type = MemRefType::get({plan.cache_tile[plan.k_dim] / g, kGroupDotColumns, g}, element);
  Value storage = memref::AllocaOp::create(rewriter, loc, storage_type, ValueRange{}, rewriter.getI64IntegerAttr(64));
  Value sums_storage;
  if (i8) {
    sums_storage = memref::AllocaOp::create(rewriter, loc, MemRefType::get({kGroupDotColumns}, accumulator),
                                            ValueRange{}, rewriter.getI64IntegerAttr(64));
  }

  rewriter.setInsertionPoint(block);
  OpFoldResult depth = memref::getMixedSize(rewriter, loc, lhs->get(), 1);
  OpFoldResult columns = memref::getMixedSize(rewriter, loc, out, 1);
  AffineExpr s0 = getAffineSymbolExpr(0, ctx);
  OpFoldResult groups = affine::makeComposedFoldedAffineApply(rewriter, loc, s0.floorDiv(g), {depth});
  OpFoldResult zero = rewriter.getIndexAttr(0), one = rewriter.getIndexAttr(1);
  Value packed = memref::SubViewOp::create(rewriter, loc, storage, {zero, zero, zero},
                                           {groups, columns, rewriter.getIndexAttr(g)}, {one, one, one});
  CreateGroupPack(rewriter, loc, rhs->get(), packed, plan.transposed_rhs);
  Value sums;
  if (i8) {
    // S = 128 x the packed block's column sums, then C -= S.
    sums = memref::SubViewOp::create(rewriter, loc, sums_storage, {zero}, {columns}, {one});
    CreateGroupColumnSums(rewriter, loc, packed, sums);
  }
  linalg::GenericOp product = CreateGroupProduct(rewriter, loc, lhs->get(), packed, sums, out);
  rewriter.eraseOp(block);
  return product;
}

LogicalResult VectorizeGroupPackTile(RewriterBase& rewriter, linalg::GenericOp pack) {
  Value source = pack.getDpsInputs()[0], packed = pack.getDpsInits()[0];
  auto packed_type = cast<MemRefType>(packed.getType());
  auto source_type = cast<MemRefType>(source.getType());
  if (packed_type.getRank() != 3 || packed_type.getDimSize(1) != kGroupDotColumns ||
      !source_type.isLastDimUnitStride()) {
    return failure();
  }
  const int64_t g = packed_type.getDimSize(2);
  Type element = packed_type.getElementType();
  Location loc = pack.getLoc();
  AffineMap source_map = pack.getIndexingMapsArray()[0];
  bool transposed = source_map.getResult(0) == getAffineDimExpr(1, pack.getContext());
  rewriter.setInsertionPoint(pack);
  Value flat = FlattenGroups(rewriter, loc, packed);
  Value groups = memref::DimOp::create(rewriter, loc, packed, 0);
  auto index = [&](OpBuilder& b, int64_t i) -> Value { return arith::ConstantIndexOp::create(b, loc, i); };
  Value zero = index(rewriter, 0), one = index(rewriter, 1);
  if (!transposed) {
    // B[k, n]: per group, g rows of 32 columns interleaved into one packed row.
    auto row_type = VectorType::get({kGroupDotColumns}, element);
    scf::ForOp::create(rewriter, loc, zero, groups, one, ValueRange{},
                       [&](OpBuilder& b, Location, Value group, ValueRange) {
                         Value first = arith::MulIOp::create(b, loc, group, index(b, g));
                         SmallVector<Value> rows;
                         for (int64_t r = 0; r < g; ++r) {
                           Value k = arith::AddIOp::create(b, loc, first, index(b, r));
                           rows.push_back(vector::LoadOp::create(b, loc, row_type, source, ValueRange{k, zero}));
                         }
                         vector::StoreOp::create(b, loc, InterleaveRows(b, loc, rows), flat, ValueRange{group, zero});
                         scf::YieldOp::create(b, loc);
                       });
    rewriter.eraseOp(pack);
    return success();
  }
  // W[n, k]: each group is one 32-bit unit of W's rows, so packing is a transpose of
  // 32-bit units, 16 groups x 16 columns at a time; the groups after the last 16 stay a
  // (scalar) pack.
  auto unit_row_type = VectorType::get({kGroupDotLanes}, rewriter.getI32Type());
  auto row_type = VectorType::get({kGroupDotLanes * g}, element);
  Value step = index(rewriter, kGroupDotLanes);
  Value whole = arith::SubIOp::create(rewriter, loc, groups, arith::RemUIOp::create(rewriter, loc, groups, step));
  scf::ForOp::create(
      rewriter, loc, zero, whole, step, ValueRange{}, [&](OpBuilder& b, Location, Value first, ValueRange) {
        Value k = arith::MulIOp::create(b, loc, first, index(b, g));
        for (int64_t half = 0; half < kGroupDotColumns / kGroupDotLanes; ++half) {
          SmallVector<Value> rows;
          for (int64_t r = 0; r < kGroupDotLanes; ++r) {
            Value row = vector::LoadOp::create(b, loc, row_type, source,
                                               ValueRange{index(b, half * kGroupDotLanes + r), k});
            rows.push_back(vector::BitCastOp::create(b, loc, unit_row_type, row));
          }
          SmallVector<Value> columns = TransposeUnits16x16(b, loc, rows);
          for (int64_t q = 0; q < kGroupDotLanes; ++q) {
            Value units = columns[q];
            Value group = arith::AddIOp::create(b, loc, first, index(b, q));
            vector::StoreOp::create(b, loc, vector::BitCastOp::create(b, loc, row_type, units), flat,
                                    ValueRange{group, index(b, half * kGroupDotLanes * g)});
          }
        }
        scf::YieldOp::create(b, loc);
      });
  Value rest = arith::SubIOp::create(rewriter, loc, groups, whole);
  OpFoldResult rest_k = arith::MulIOp::create(rewriter, loc, rest, index(rewriter, g)).getResult();
  OpFoldResult whole_k = arith::MulIOp::create(rewriter, loc, whole, index(rewriter, g)).getResult();
  OpFoldResult o0 = rewriter.getIndexAttr(0), o1 = rewriter.getIndexAttr(1);
  OpFoldResult columns = rewriter.getIndexAttr(kGroupDotColumns);
  Value source_rest = memref::SubViewOp::create(rewriter, loc, source, {o0, whole_k}, {columns, rest_k}, {o1, o1});
  Value packed_rest = memref::SubViewOp::create(rewriter, loc, packed, {OpFoldResult(whole), o0, o0},
                                                {OpFoldResult(rest), columns, rewriter.getIndexAttr(g)}, {o1, o1, o1});
  CreatePack(rewriter, loc, source_rest, packed_rest, source_map);
  rewriter.eraseOp(pack);
  return success();
}

LogicalResult VectorizeGroupSumsTile(RewriterBase& rewriter, linalg::GenericOp sums) {
  Value packed = sums.getDpsInputs()[0], out = sums.getDpsInits()[0];
  auto packed_type = cast<MemRefType>(packed.getType());
  auto out_type = cast<MemRefType>(out.getType());
  if (packed_type.getRank() != 3 || packed_type.getDimSize(1) != kGroupDotColumns ||
      out_type.getDimSize(0) != kGroupDotColumns) {
    return failure();
  }
  const int64_t g = packed_type.getDimSize(2);
  Location loc = sums.getLoc();
  rewriter.setInsertionPoint(sums);
  Value flat = FlattenGroups(rewriter, loc, packed);
  Value groups = memref::DimOp::create(rewriter, loc, packed, 0);
  auto acc_type = VectorType::get({kGroupDotLanes}, out_type.getElementType());
  auto bytes_type = VectorType::get({kGroupDotLanes * g}, packed_type.getElementType());
  // 0x80 as the unsigned operand: each lane adds 128 x its column's 4 bytes.
  Value offsets = arith::ConstantOp::create(rewriter, loc, bytes_type,
                                            DenseElementsAttr::get(bytes_type, rewriter.getI8IntegerAttr(-128)));
  SmallVector<Value> initial;
  for (int64_t c = 0; c * kGroupDotLanes < kGroupDotColumns; ++c) {
    initial.push_back(vector::LoadOp::create(rewriter, loc, acc_type, out,
                                             ValueRange{arith::ConstantIndexOp::create(rewriter, loc, c * kGroupDotLanes)}));
  }
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0), one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  auto loop = scf::ForOp::create(
      rewriter, loc, zero, groups, one, initial, [&](OpBuilder& b, Location, Value group, ValueRange acc) {
        SmallVector<Value> next;
        for (auto [c, a] : llvm::enumerate(acc)) {
          Value column = arith::ConstantIndexOp::create(b, loc, c * kGroupDotLanes * g);
          Value bytes = vector::LoadOp::create(b, loc, bytes_type, flat, ValueRange{group, column});
          next.push_back(GroupDot(b, loc, GroupDotKind::kI8Quads, a, offsets, bytes));
        }
        scf::YieldOp::create(b, loc, next);
      });
  for (auto [c, total] : llvm::enumerate(loop.getResults())) {
    vector::StoreOp::create(rewriter, loc, total, out,
                            ValueRange{arith::ConstantIndexOp::create(rewriter, loc, c * kGroupDotLanes)});
  }
  rewriter.eraseOp(sums);
  return success();
}

LogicalResult VectorizeGroupDotTile(RewriterBase& rewriter, linalg::GenericOp product) {
  Value lhs = product.getDpsInputs()[0], packed = product.getDpsInputs()[1], out = product.getDpsInits()[0];
  Value sums = product.getNumDpsInputs() == 3 ? product.getDpsInputs()[2] : Value();
  auto packed_type = cast<MemRefType>(packed.getType());
  auto out_type = cast<MemRefType>(out.getType());
  auto lhs_type = cast<MemRefType>(lhs.getType());
  if (packed_type.getRank() != 3 || packed_type.getDimSize(1) != kGroupDotColumns || out_type.getRank() != 2 ||
      out_type.getDimSize(1) != kGroupDotColumns || ShapedType::isDynamic(out_type.getDimSize(0)) ||
      out_type.getDimSize(0) > kGroupDotRows || !lhs_type.isLastDimUnitStride() || !out_type.isLastDimUnitStride()) {
    return failure();
  }
  // Before any op goes in front of the tile.
  std::optional<TileFill> fill = FillBefore(product, out, out_type.getElementType());
  const int64_t g = packed_type.getDimSize(2), rows = out_type.getDimSize(0);
  const int64_t vectors = kGroupDotColumns / kGroupDotLanes;
  Type element = packed_type.getElementType();
  GroupDotKind kind = KindOfPacked(element);
  Location loc = product.getLoc();
  rewriter.setInsertionPoint(product);
  auto index = [&](OpBuilder& b, int64_t i) -> Value { return arith::ConstantIndexOp::create(b, loc, i); };
  Value flat = FlattenGroups(rewriter, loc, packed);
  // A static depth gives the loop static bounds, which the output's prefetch needs.
  Value groups = ShapedType::isDynamic(packed_type.getDimSize(0))
                     ? memref::DimOp::create(rewriter, loc, packed, 0).getResult()
                     : index(rewriter, packed_type.getDimSize(0));
  auto acc_type = VectorType::get({kGroupDotLanes}, out_type.getElementType());
  auto operand_type = VectorType::get({kGroupDotLanes * g}, element);
  auto group_type = VectorType::get({g}, element);
  auto word_type = VectorType::get({1}, rewriter.getI32Type());
  auto words_type = VectorType::get({kGroupDotLanes}, rewriter.getI32Type());
  // i8: the sign bit of each byte of a flipped, a + 128 as an unsigned byte.
  Value sign_bits;
  if (kind == GroupDotKind::kI8Quads) {
    sign_bits = arith::ConstantOp::create(
        rewriter, loc, words_type, DenseElementsAttr::get(words_type, rewriter.getI32IntegerAttr(int32_t(0x80808080u))));
  }
  // The accumulators start from zero and the output is added once after the loop, as
  // in kiln-cpu-vectorize-contractions' f32 tiles: its load is off the critical path.
  Value zeros = arith::ConstantOp::create(rewriter, loc, acc_type, rewriter.getZeroAttr(acc_type));
  SmallVector<Value> initial(rows * vectors, zeros);
  Value zero = index(rewriter, 0), one = index(rewriter, 1);
  auto loop = scf::ForOp::create(
      rewriter, loc, zero, groups, one, initial, [&](OpBuilder& b, Location, Value group, ValueRange acc) {
        SmallVector<Value> columns, next;
        for (int64_t c = 0; c < vectors; ++c) {
          columns.push_back(vector::LoadOp::create(b, loc, operand_type, flat,
                                                   ValueRange{group, index(b, c * kGroupDotLanes * g)}));
        }
        Value k = arith::MulIOp::create(b, loc, group, index(b, g));
        for (int64_t i = 0; i < rows; ++i) {
          // Row i's group, 32 bits, in every lane.
          Value elements = vector::LoadOp::create(b, loc, group_type, lhs, ValueRange{index(b, i), k});
          Value word = vector::ExtractOp::create(b, loc, vector::BitCastOp::create(b, loc, word_type, elements),
                                                 ArrayRef<int64_t>{0});
          Value words = vector::BroadcastOp::create(b, loc, words_type, word);
          if (sign_bits) words = arith::XOrIOp::create(b, loc, words, sign_bits);
          Value row = vector::BitCastOp::create(b, loc, operand_type, words);
          for (int64_t c = 0; c < vectors; ++c) {
            next.push_back(GroupDot(b, loc, kind, acc[i * vectors + c], row, columns[c]));
          }
        }
        scf::YieldOp::create(b, loc, next);
      });
  // An output beyond a core's L2 is prefetched for writing over the loop's first steps, as
  // kiln-cpu-vectorize-contractions does for its f32 tiles: the loads and stores after the
  // loop then find it in L1 (1024^3 bf16: they had taken 9% of the samples).
  if (IsBeyondPrivateCache(memref::skipViewLikeOps(cast<MemrefValue>(out)))) {
    (void)PrefetchForWriteOverSteps(rewriter, loc, OutputBlock{out, {zero, zero}, rows, kGroupDotColumns}, loop);
  }
  SmallVector<Value> corrections;
  for (int64_t c = 0; sums && c < vectors; ++c) {
    corrections.push_back(
        vector::LoadOp::create(rewriter, loc, acc_type, sums, ValueRange{index(rewriter, c * kGroupDotLanes)}));
  }
  // Writes each output vector as `base` (the fill's value, or the output read back) plus
  // its sums (less the column sums' offset, for i8).
  auto write_sums = [&](OpBuilder& b, Value fill_value) {
    Value filled = fill_value ? vector::BroadcastOp::create(b, loc, acc_type, fill_value).getResult() : Value();
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t c = 0; c < vectors; ++c) {
        SmallVector<Value, 2> at{index(b, i), index(b, c * kGroupDotLanes)};
        Value base = filled ? filled : vector::LoadOp::create(b, loc, acc_type, out, at).getResult();
        Value sum = loop.getResult(i * vectors + c);
        if (sums) {
          sum = arith::AddIOp::create(b, loc, arith::SubIOp::create(b, loc, base, corrections[c]), sum);
        } else if (isa<FloatType>(acc_type.getElementType())) {
          sum = arith::AddFOp::create(b, loc, base, sum);
        } else {
          sum = arith::AddIOp::create(b, loc, base, sum);
        }
        vector::StoreOp::create(b, loc, sum, out, at);
      }
    }
  };
  // A tile whose output is filled just before it (in the first block of k: FirstBlockFill
  // in TileContractions.cc) adds the fill's value instead, and the fill goes: the output
  // is written once. Under the fill's condition each branch writes its own sums (a branch
  // that only chose the vector to add made LLVM spill the accumulators).
  if (!fill) {
    write_sums(rewriter, Value());
  } else if (!fill->condition) {
    write_sums(rewriter, fill->value);
    rewriter.eraseOp(fill->op);
  } else {
    auto branch = scf::IfOp::create(rewriter, loc, fill->condition, /*withElseRegion=*/true);
    OpBuilder then_builder = OpBuilder::atBlockBegin(branch.thenBlock());
    write_sums(then_builder, fill->value);
    OpBuilder else_builder = OpBuilder::atBlockBegin(branch.elseBlock());
    write_sums(else_builder, Value());
    rewriter.eraseOp(fill->op);
  }
  rewriter.eraseOp(product);
  return success();
}

}  // namespace kiln::compiler::cpu
