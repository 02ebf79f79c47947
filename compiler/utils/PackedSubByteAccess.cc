#include "compiler/utils/PackedSubByteAccess.h"

#include <optional>

#include "compiler/utils/SubByteStorage.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"

namespace kiln::compiler {

using namespace mlir;

Value ExtractPackedElement(OpBuilder& b, Location loc, Value byte, Value shift, Type element) {
  Value shifted = arith::ShRUIOp::create(b, loc, byte, shift);
  return ByteToSubByte(b, loc, shifted, element);
}

Value PackedSplatByte(OpBuilder& b, Location loc, Value value) {
  unsigned width = value.getType().getIntOrFloatBitWidth();
  Value bits = SubByteToByte(b, loc, value), byte = bits;
  for (unsigned shift = width; shift < 8; shift += width) {
    Value amount = arith::ConstantIntOp::create(b, loc, b.getI8Type(), shift);
    byte = arith::OrIOp::create(b, loc, byte, arith::ShLIOp::create(b, loc, bits, amount));
  }
  return byte;
}

namespace {

std::optional<unsigned> InnermostLoop(AffineMap map) {
  if (map.getNumResults() == 0) return std::nullopt;
  auto dim = dyn_cast<AffineDimExpr>(map.getResults().back());
  if (!dim) return std::nullopt;
  return dim.getPosition();
}

// `map` with loop `loop` (now over bytes, jb) and the new loop `position` (t, the element
// within a byte) standing for the old loop j = jb * per_byte + t: a plain result j becomes
// the two results (jb, t) (the operand is expanded there), j floordiv c with c a multiple
// of per_byte becomes jb floordiv (c / per_byte). Other uses of j fail.
FailureOr<AffineMap> SplitLoop(AffineMap map, unsigned loop, unsigned position, int64_t per_byte,
                               SmallVector<unsigned>& expanded_results) {
  MLIRContext* ctx = map.getContext();
  AffineExpr j = getAffineDimExpr(loop, ctx), t = getAffineDimExpr(position, ctx);
  SmallVector<AffineExpr> results;
  for (auto [index, result] : llvm::enumerate(map.getResults())) {
    if (result == j) {
      expanded_results.push_back(index);
      results.push_back(j);
      results.push_back(t);
      continue;
    }
    if (!result.isFunctionOfDim(loop)) {
      results.push_back(result);
      continue;
    }
    auto binary = dyn_cast<AffineBinaryOpExpr>(result);
    auto divisor = binary ? dyn_cast<AffineConstantExpr>(binary.getRHS()) : AffineConstantExpr();
    if (!binary || binary.getKind() != AffineExprKind::FloorDiv || binary.getLHS() != j || !divisor ||
        divisor.getValue() % per_byte != 0) {
      return failure();
    }
    results.push_back(j.floorDiv(divisor.getValue() / per_byte));
  }
  return AffineMap::get(map.getNumDims() + 1, 0, results, ctx);
}

}  // namespace

FailureOr<linalg::GenericOp> RewriteOverPackedBytes(RewriterBase& rewriter, linalg::GenericOp op,
                                                    ArrayRef<PackedOperand> packed) {
  Location loc = op.getLoc();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned operand_count = op->getNumOperands(), input_count = op.getNumDpsInputs(), loops = op.getNumLoops();
  llvm::SmallDenseMap<unsigned, Value> bytes_of;
  for (const PackedOperand& p : packed) bytes_of[p.operand_number] = p.bytes;
  auto fail = [&](const Twine& why) {
    return op.emitError() << "cannot compute on packed sub-byte elements (kiln stores them packed when rows are "
                             "whole bytes): "
                          << why,
           failure();
  };

  // The loop J over every packed operand's innermost dimension, and the elements a byte.
  std::optional<unsigned> loop;
  int64_t per_byte = 0, width = 0;
  bool packed_output = false;
  for (unsigned i = 0; i < operand_count; ++i) {
    if (!bytes_of.count(i)) continue;
    Type element = op.getMatchingBlockArgument(&op->getOpOperand(i)).getType();
    std::optional<unsigned> innermost = InnermostLoop(maps[i]);
    if (!innermost) return fail("operand " + Twine(i) + "'s innermost dimension is indexed by an expression");
    if (loop && *loop != *innermost) return fail("packed operands' innermost dimensions are indexed by different loops");
    if (per_byte && per_byte != ElementsPerByte(element)) {
      return fail("packed operands of different widths share the innermost loop");
    }
    loop = *innermost;
    per_byte = ElementsPerByte(element);
    width = element.getIntOrFloatBitWidth();
    packed_output |= i >= input_count;
  }
  if (!loop) return fail("no packed operand");
  // Whether another operand indexes J: then J splits into (bytes, element in a byte) and
  // those operands are expanded to match; else the body repeats for each element of a byte.
  bool split = false;
  for (unsigned i = 0; i < operand_count; ++i) {
    if (!bytes_of.count(i) && maps[i].isFunctionOfDim(*loop)) split = true;
  }
  if (packed_output && iterators[*loop] != utils::IteratorType::parallel) {
    return fail("a packed result's innermost dimension is indexed by a reduction loop");
  }

  Type i8 = rewriter.getI8Type();
  rewriter.setInsertionPoint(op);
  SmallVector<Value> inputs, outputs;
  SmallVector<AffineMap> new_maps;
  SmallVector<utils::IteratorType> new_iterators = iterators;
  SmallVector<std::optional<SmallVector<ReassociationIndices>>> expanded(operand_count);  // split: reshaped operands
  unsigned position = loops;  // split: the new loop t
  if (split) {
    bool plain_output = false;
    for (unsigned i = input_count; i < operand_count; ++i) {
      if (!bytes_of.count(i) && maps[i].isFunctionOfDim(*loop)) plain_output = true;
    }
    if (plain_output && packed_output) {
      return fail("a result that is not packed is indexed by the loop over the packed elements' bytes");
    }
    // t is parallel when a result holds one element per t, a reduction into a packed
    // result's byte otherwise.
    new_iterators.push_back(plain_output ? utils::IteratorType::parallel : utils::IteratorType::reduction);
    for (unsigned i = 0; i < operand_count; ++i) {
      Value value = bytes_of.count(i) ? bytes_of[i] : op->getOperand(i);
      SmallVector<unsigned> expanded_results;
      AffineMap map = maps[i];
      if (bytes_of.count(i)) {
        map = AffineMap::get(loops + 1, 0, map.getResults(), map.getContext());
      } else {
        FailureOr<AffineMap> new_map = SplitLoop(map, *loop, position, per_byte, expanded_results);
        if (failed(new_map)) {
          return fail("operand " + Twine(i) + " indexes the packed elements' loop other than plainly or by floordiv");
        }
        map = *new_map;
      }
      if (!expanded_results.empty()) {
        auto type = cast<RankedTensorType>(value.getType());
        SmallVector<int64_t> shape;
        SmallVector<ReassociationIndices> groups;
        SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, value);
        SmallVector<OpFoldResult> output_shape;
        for (int64_t d = 0; d < type.getRank(); ++d) {
          if (llvm::is_contained(expanded_results, d)) {
            std::optional<int64_t> size = getConstantIntValue(sizes[d]);
            if (!size || *size % per_byte) return fail("operand " + Twine(i) + " is not whole bytes along the loop");
            groups.push_back({static_cast<int64_t>(shape.size()), static_cast<int64_t>(shape.size()) + 1});
            shape.append({*size / per_byte, per_byte});
            output_shape.append({rewriter.getIndexAttr(*size / per_byte), rewriter.getIndexAttr(per_byte)});
          } else {
            groups.push_back({static_cast<int64_t>(shape.size())});
            shape.push_back(type.getDimSize(d));
            output_shape.push_back(sizes[d]);
          }
        }
        value = tensor::ExpandShapeOp::create(rewriter, loc, RankedTensorType::get(shape, type.getElementType()), value,
                                              groups, output_shape);
        expanded[i] = groups;
      }
      (i < input_count ? inputs : outputs).push_back(value);
      new_maps.push_back(map);
    }
  } else {
    for (unsigned i = 0; i < operand_count; ++i) {
      (i < input_count ? inputs : outputs).push_back(bytes_of.count(i) ? bytes_of[i] : op->getOperand(i));
      new_maps.push_back(maps[i]);
    }
  }
  SmallVector<Type> result_types = llvm::map_to_vector(outputs, [](Value v) { return v.getType(); });

  Block* body = op.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  int64_t repetitions = split ? 1 : per_byte;
  auto build = [&](OpBuilder& b, Location nloc, ValueRange args) {
    auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, nloc, v).getResult(); };
    auto shift_of = [&](Value element_index) {
      Value bits = arith::MulIOp::create(b, nloc, element_index, index(width));
      return arith::IndexCastOp::create(b, nloc, i8, bits).getResult();
    };
    Value bytes_index = linalg::IndexOp::create(b, nloc, *loop);
    Value split_index = split ? linalg::IndexOp::create(b, nloc, position).getResult() : Value();
    SmallVector<Value> chained(args.begin() + inputs.size(), args.end());
    SmallVector<Value> packed_bytes(outputs.size());
    for (int64_t t = 0; t < repetitions; ++t) {
      Value element_index = split ? split_index : index(t);
      Value shift = split ? shift_of(split_index) : arith::ConstantIntOp::create(b, nloc, i8, t * width).getResult();
      IRMapping mapping;
      for (unsigned i = 0; i < operand_count; ++i) {
        BlockArgument original = body->getArgument(i);
        bool output = i >= input_count;
        Value arg = output ? chained[i - input_count] : args[i];
        if (bytes_of.count(i)) arg = ExtractPackedElement(b, nloc, args[i], shift, original.getType());
        mapping.map(original, arg);
      }
      for (Operation& inner : body->without_terminator()) {
        auto index_op = dyn_cast<linalg::IndexOp>(inner);
        if (index_op && index_op.getDim() == *loop) {
          Value scaled = arith::MulIOp::create(b, nloc, bytes_index, index(per_byte));
          mapping.map(index_op.getResult(), arith::AddIOp::create(b, nloc, scaled, element_index).getResult());
          continue;
        }
        b.clone(inner, mapping);
      }
      for (unsigned o = 0; o < outputs.size(); ++o) {
        unsigned original = input_count + o;
        Value value = mapping.lookupOrDefault(yield.getOperand(o));
        if (!bytes_of.count(original)) {
          chained[o] = value;
          continue;
        }
        Value placed = arith::ShLIOp::create(b, nloc, SubByteToByte(b, nloc, value), shift);
        if (split) {
          // Replace this element's bits in the byte; the others stay.
          Value mask = arith::ConstantIntOp::create(b, nloc, i8, (1 << width) - 1);
          Value kept = arith::XOrIOp::create(b, nloc, arith::ShLIOp::create(b, nloc, mask, shift),
                                             arith::ConstantIntOp::create(b, nloc, i8, -1));
          Value rest = arith::AndIOp::create(b, nloc, args[original], kept);
          packed_bytes[o] = arith::OrIOp::create(b, nloc, rest, placed);
        } else {
          packed_bytes[o] = t == 0 ? placed : arith::OrIOp::create(b, nloc, packed_bytes[o], placed).getResult();
        }
      }
    }
    SmallVector<Value> yielded;
    for (unsigned o = 0; o < outputs.size(); ++o) {
      yielded.push_back(bytes_of.count(input_count + o) ? packed_bytes[o] : chained[o]);
    }
    linalg::YieldOp::create(b, nloc, yielded);
  };
  auto rebuilt =
      linalg::GenericOp::create(rewriter, loc, result_types, inputs, outputs, new_maps, new_iterators, build);
  rebuilt->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  rewriter.setInsertionPointAfter(rebuilt);
  for (unsigned o = 0; o < outputs.size(); ++o) {
    unsigned original = input_count + o;
    if (bytes_of.count(original)) continue;
    Value result = rebuilt->getResult(o);
    if (expanded[original]) {
      result = tensor::CollapseShapeOp::create(rewriter, loc, op->getResult(o).getType(), result, *expanded[original]);
    }
    rewriter.replaceAllUsesWith(op->getResult(o), result);
  }
  return rebuilt;
}

}  // namespace kiln::compiler
