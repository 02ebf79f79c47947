// Tiling and bufferization of the iree_linalg_ext ops that are dispatch roots
// (LinalgExtInterfaces.h).
#include "compiler/codegen/cpu/LinalgExtInterfaces.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/TilingInterface.h"

#include "compiler/input/iree/IreeDialects.h"

namespace kiln::compiler::cpu {

namespace {

using namespace mlir;

// `op` cloned on slices of its ranked tensor operands (other operands as they are), the
// slice of each given by `tile` (its offsets and sizes); destinations' slices give the
// clone's result types.
TilingResult CloneOnOperandTiles(
    OpBuilder& b, Operation* op,
    llvm::function_ref<void(OpOperand&, SmallVector<OpFoldResult>&, SmallVector<OpFoldResult>&)> tile) {
  TilingResult result;
  SmallVector<Value> operands;
  SmallVector<Type> result_types;
  auto dps = cast<DestinationStyleOpInterface>(op);
  for (OpOperand& operand : op->getOpOperands()) {
    Value value = operand.get();
    if (!isa<RankedTensorType>(value.getType())) {
      operands.push_back(value);
      continue;
    }
    SmallVector<OpFoldResult> tile_offsets, tile_sizes;
    tile(operand, tile_offsets, tile_sizes);
    SmallVector<OpFoldResult> strides(tile_offsets.size(), b.getIndexAttr(1));
    auto slice = tensor::ExtractSliceOp::create(b, op->getLoc(), value, tile_offsets, tile_sizes, strides);
    result.generatedSlices.push_back(slice);
    operands.push_back(slice);
    if (dps.isDpsInit(&operand)) result_types.push_back(slice.getType());
  }
  Operation* tiled = mlir::clone(b, op, result_types, operands);
  result.tiledOps.push_back(tiled);
  result.tiledValues.append(tiled->result_begin(), tiled->result_end());
  return result;
}

// The operand whose shape is the op's iteration domain: the first output of sort, the
// first input of the others.
Value DomainOperand(Operation* op) {
  if (auto sort = dyn_cast<iree::SortOp>(op)) return sort.getOutputs()[0];
  return cast<DestinationStyleOpInterface>(op).getDpsInputs()[0];
}

int64_t LineDimension(Operation* op) { return cast<IntegerAttr>(op->getAttr("dimension")).getInt(); }

// The tile of `operand` for the domain tile (offsets, sizes): whole along the line
// dimension, which an operand of a lower rank (scan's total) does not have.
void OperandTile(OpBuilder& b, Operation* op, Value operand, ArrayRef<OpFoldResult> offsets,
                 ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult>& tile_offsets,
                 SmallVector<OpFoldResult>& tile_sizes) {
  int64_t dimension = LineDimension(op);
  int64_t rank = cast<ShapedType>(operand.getType()).getRank();
  bool has_line = rank == static_cast<int64_t>(offsets.size());
  tile_offsets.clear();
  tile_sizes.clear();
  for (int64_t d = 0; d < static_cast<int64_t>(offsets.size()); ++d) {
    if (d != dimension) {
      tile_offsets.push_back(offsets[d]);
      tile_sizes.push_back(sizes[d]);
    } else if (has_line) {
      tile_offsets.push_back(b.getIndexAttr(0));
      tile_sizes.push_back(tensor::getMixedSize(b, op->getLoc(), operand, d));
    }
  }
}

// sort, topk, topk_v2 and scan work along one dimension independently for every
// position of the others: those are parallel loops that tiling may split.
template <typename OpTy>
struct LineTilingModel : TilingInterface::ExternalModel<LineTilingModel<OpTy>, OpTy> {
  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation* op) const {
    int64_t rank = cast<ShapedType>(DomainOperand(op).getType()).getRank();
    SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
    iterators[LineDimension(op)] = utils::IteratorType::reduction;
    return iterators;
  }

  SmallVector<Range> getIterationDomain(Operation* op, OpBuilder& b) const {
    Value operand = DomainOperand(op);
    SmallVector<Range> domain;
    for (OpFoldResult size : tensor::getMixedSizes(b, op->getLoc(), operand)) {
      domain.push_back(Range{b.getIndexAttr(0), size, b.getIndexAttr(1)});
    }
    return domain;
  }

  FailureOr<TilingResult> getTiledImplementation(Operation* op, OpBuilder& b, ArrayRef<OpFoldResult> offsets,
                                                 ArrayRef<OpFoldResult> sizes) const {
    return CloneOnOperandTiles(b, op, [&](OpOperand& operand, SmallVector<OpFoldResult>& tile_offsets,
                                          SmallVector<OpFoldResult>& tile_sizes) {
      OperandTile(b, op, operand.get(), offsets, sizes, tile_offsets, tile_sizes);
    });
  }

  LogicalResult getResultTilePosition(Operation* op, OpBuilder& b, unsigned result_number,
                                      ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
                                      SmallVector<OpFoldResult>& result_offsets,
                                      SmallVector<OpFoldResult>& result_sizes) const {
    Value init = cast<DestinationStyleOpInterface>(op).getDpsInits()[result_number];
    OperandTile(b, op, init, offsets, sizes, result_offsets, result_sizes);
    return success();
  }
};

// attention kept whole (kiln-cpu-keep-flash-attention): the loops its output indexes are
// parallel, the dot product's and the keys' are reductions; a tile slices each shaped
// operand along the loops its indexing map names.
struct AttentionTilingModel : TilingInterface::ExternalModel<AttentionTilingModel, iree::AttentionOp> {
  static SmallVector<AffineMap> Maps(Operation* op) {
    return llvm::to_vector(op->getAttrOfType<ArrayAttr>("indexing_maps").getAsValueRange<AffineMapAttr>());
  }

  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation* op) const {
    SmallVector<AffineMap> maps = Maps(op);
    AffineMap out = maps.back();
    SmallVector<utils::IteratorType> iterators;
    for (unsigned d = 0; d < out.getNumDims(); ++d) {
      iterators.push_back(out.isFunctionOfDim(d) ? utils::IteratorType::parallel : utils::IteratorType::reduction);
    }
    return iterators;
  }

  SmallVector<Range> getIterationDomain(Operation* op, OpBuilder& b) const {
    SmallVector<AffineMap> maps = Maps(op);
    SmallVector<Range> domain;
    for (unsigned d = 0; d < maps.front().getNumDims(); ++d) {
      for (auto [operand, map] : llvm::zip(op->getOperands(), maps)) {
        std::optional<unsigned> r = map.getResultPosition(b.getAffineDimExpr(d));
        if (!r) continue;
        domain.push_back(Range{b.getIndexAttr(0), tensor::getMixedSize(b, op->getLoc(), operand, *r), b.getIndexAttr(1)});
        break;
      }
    }
    return domain;
  }

  static void OperandTile(AffineMap map, ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
                          SmallVector<OpFoldResult>& tile_offsets, SmallVector<OpFoldResult>& tile_sizes) {
    tile_offsets.clear();
    tile_sizes.clear();
    for (AffineExpr e : map.getResults()) {
      unsigned d = cast<AffineDimExpr>(e).getPosition();
      tile_offsets.push_back(offsets[d]);
      tile_sizes.push_back(sizes[d]);
    }
  }

  FailureOr<TilingResult> getTiledImplementation(Operation* op, OpBuilder& b, ArrayRef<OpFoldResult> offsets,
                                                 ArrayRef<OpFoldResult> sizes) const {
    SmallVector<AffineMap> maps = Maps(op);
    return CloneOnOperandTiles(b, op, [&](OpOperand& operand, SmallVector<OpFoldResult>& tile_offsets,
                                          SmallVector<OpFoldResult>& tile_sizes) {
      OperandTile(maps[operand.getOperandNumber()], offsets, sizes, tile_offsets, tile_sizes);
    });
  }

  LogicalResult getResultTilePosition(Operation* op, OpBuilder&, unsigned result_number, ArrayRef<OpFoldResult> offsets,
                                      ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult>& result_offsets,
                                      SmallVector<OpFoldResult>& result_sizes) const {
    auto dps = cast<DestinationStyleOpInterface>(op);
    AffineMap map = Maps(op)[dps.getNumDpsInputs() + result_number];
    OperandTile(map, offsets, sizes, result_offsets, result_sizes);
    return success();
  }
};

// On memrefs the op updates its outputs in place; every operand is read (topk and scan
// start from their outputs' contents, scatter combines into the original).
template <typename OpTy>
struct DpsBufferizationModel
    : bufferization::DstBufferizableOpInterfaceExternalModel<DpsBufferizationModel<OpTy>, OpTy> {
  LogicalResult bufferize(Operation* op, RewriterBase& rewriter, const bufferization::BufferizationOptions& options,
                          bufferization::BufferizationState& state) const {
    SmallVector<Value> operands, outputs;
    auto dps = cast<DestinationStyleOpInterface>(op);
    for (OpOperand& operand : op->getOpOperands()) {
      if (!isa<TensorType>(operand.get().getType())) {
        operands.push_back(operand.get());
        continue;
      }
      FailureOr<Value> buffer = bufferization::getBuffer(rewriter, operand.get(), options, state);
      if (failed(buffer)) return failure();
      operands.push_back(*buffer);
      if (dps.isDpsInit(&operand)) outputs.push_back(*buffer);
    }
    rewriter.setInsertionPoint(op);
    mlir::clone(rewriter, op, TypeRange{}, operands);
    bufferization::replaceOpWithBufferizedValues(rewriter, op, outputs);
    return success();
  }
};

}  // namespace

void RegisterLinalgExtInterfaces(DialectRegistry& registry) {
  registry.addExtension(+[](MLIRContext* ctx, iree::LinalgExtDialect*) {
    iree::SortOp::attachInterface<LineTilingModel<iree::SortOp>, DpsBufferizationModel<iree::SortOp>>(*ctx);
    iree::TopkOp::attachInterface<LineTilingModel<iree::TopkOp>, DpsBufferizationModel<iree::TopkOp>>(*ctx);
    iree::TopkV2Op::attachInterface<LineTilingModel<iree::TopkV2Op>, DpsBufferizationModel<iree::TopkV2Op>>(*ctx);
    iree::ScanOp::attachInterface<LineTilingModel<iree::ScanOp>, DpsBufferizationModel<iree::ScanOp>>(*ctx);
    iree::ScatterOp::attachInterface<DpsBufferizationModel<iree::ScatterOp>>(*ctx);
    iree::AttentionOp::attachInterface<AttentionTilingModel, DpsBufferizationModel<iree::AttentionOp>>(*ctx);
  });
}

}  // namespace kiln::compiler::cpu
