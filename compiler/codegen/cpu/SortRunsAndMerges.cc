// Loops of the marked sorts of kiln-cpu-split-long-sorts (SortRunsAndMerges.h).
#include "compiler/codegen/cpu/SortRunsAndMerges.h"

#include "compiler/codegen/cpu/SortLowering.h"
#include "compiler/utils/MergePath.h"

namespace kiln::compiler::cpu {

using namespace mlir;

namespace {

Value Min(OpBuilder& b, Location loc, Value x, Value y) { return arith::MinUIOp::create(b, loc, x, y); }
Value Add(OpBuilder& b, Location loc, Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
Value Sub(OpBuilder& b, Location loc, Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
Value Mul(OpBuilder& b, Location loc, Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }

// R = max(1, ceil(n / runs)): never zero, so that loops stepping by it end.
Value RunLength(OpBuilder& b, Location loc, Value n, int64_t runs) {
  Value length = arith::CeilDivUIOp::create(b, loc, n, IndexConstant(b, loc, runs));
  return arith::MaxUIOp::create(b, loc, length, IndexConstant(b, loc, 1));
}

// Views of `memrefs` that keep positions [start, start + length) of every line.
SmallVector<Value> Slices(OpBuilder& b, Location loc, ValueRange memrefs, int64_t dimension, Value start,
                          Value length) {
  SmallVector<Value> slices;
  for (Value memref : memrefs) {
    int64_t rank = cast<MemRefType>(memref.getType()).getRank();
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), strides(rank, b.getIndexAttr(1));
    SmallVector<OpFoldResult> sizes = memref::getMixedSizes(b, loc, memref);
    offsets[dimension] = start;
    sizes[dimension] = length;
    slices.push_back(memref::SubViewOp::create(b, loc, memref, offsets, sizes, strides));
  }
  return slices;
}

// This workgroup's runs: each sorted from its view of the inputs into its view of the
// outputs, by the ordinary sort lowering.
void LowerRuns(OpBuilder& b, iree::SortOp op, int64_t runs, Value id, Value count) {
  Location loc = op.getLoc();
  int64_t dimension = op.getDimension();
  Value n = memref::DimOp::create(b, loc, op.getOutputs()[0], dimension);
  Value run = RunLength(b, loc, n, runs);
  scf::ForOp::create(b, loc, id, IndexConstant(b, loc, runs), count, ValueRange{},
                     [&](OpBuilder& rb, Location l, Value r, ValueRange) {
                       Value start = Min(rb, l, Mul(rb, l, r, run), n);
                       Value length = Min(rb, l, run, Sub(rb, l, n, start));
                       SmallVector<Value> from = Slices(rb, l, op.getInputs(), dimension, start, length);
                       SmallVector<Value> to = Slices(rb, l, op.getOutputs(), dimension, start, length);
                       LowerSortInto(rb, l, op.getRegion().front(), dimension, from, to);
                       scf::YieldOp::create(rb, l);
                     });
}

// This workgroup's block [lo, hi) of every line's outputs: for each pair of runs of `width`
// it overlaps, where the block's segment and its second half start in the pair (merge
// path), then both halves merged together up to the segment's end.
void LowerMerge(OpBuilder& b, iree::SortOp op, int64_t runs, int64_t multiple, Value id, Value count) {
  Location loc = op.getLoc();
  Block& comparator = op.getRegion().front();
  int64_t dimension = op.getDimension();
  Value n = memref::DimOp::create(b, loc, op.getOutputs()[0], dimension);
  Value width = Mul(b, loc, RunLength(b, loc, n, runs), IndexConstant(b, loc, multiple));
  Value pair = Add(b, loc, width, width);
  Value chunk = arith::MaxUIOp::create(b, loc, arith::CeilDivUIOp::create(b, loc, n, count), IndexConstant(b, loc, 1));
  Value lo = Min(b, loc, Mul(b, loc, id, chunk), n);
  Value hi = Min(b, loc, Add(b, loc, lo, chunk), n);
  Value first_pair = Mul(b, loc, arith::DivUIOp::create(b, loc, lo, pair), pair);
  ForEachLine(b, loc, op.getOutputs()[0], dimension, [&](OpBuilder& lb, Location ll, SmallVector<Value> position) {
    SmallVector<Line> source, target;
    for (Value input : op.getInputs()) source.push_back(Line{input, position, dimension});
    for (Value output : op.getOutputs()) target.push_back(Line{output, position, dimension});
    auto load = [&](OpBuilder& ob, Location ol, Value at) {
      SmallVector<Value> values;
      for (const Line& line : source) values.push_back(line.Load(ob, ol, at));
      return values;
    };
    scf::ForOp::create(
        lb, ll, first_pair, hi, pair, ValueRange{}, [&](OpBuilder& pb, Location pl, Value s, ValueRange) {
          Value a_end = Min(pb, pl, Add(pb, pl, s, width), n);
          Value b_end = Min(pb, pl, Add(pb, pl, s, pair), n);
          Value out = arith::MaxUIOp::create(pb, pl, lo, s);
          Value out_end = Min(pb, pl, hi, b_end);
          // Two halves of the segment merged in one loop (two independent chains), each
          // from its own merge-path split; an odd last output finishes the second.
          auto split = [&](Value at) {
            Value k = Sub(pb, pl, at, s);
            Value i = MergePathSplit(pb, pl, s, Sub(pb, pl, a_end, s), a_end, Sub(pb, pl, b_end, a_end), k,
                                     [&](OpBuilder& ob, Location ol, Value b_at, Value a_at) {
                                       return SortsBefore(ob, comparator, load(ob, ol, b_at), load(ob, ol, a_at));
                                     });
            return MergeStream{at, Add(pb, pl, s, i), Add(pb, pl, a_end, Sub(pb, pl, k, i))};
          };
          Value half = arith::ShRUIOp::create(pb, pl, Sub(pb, pl, out_end, out), IndexConstant(pb, pl, 1));
          SmallVector<MergeStream> ends = EmitStableMerges(
              pb, pl, comparator, source, target, {split(out), split(Add(pb, pl, out, half))}, half, a_end, b_end);
          EmitStableMerge(pb, pl, comparator, source, target, ends[1].out, out_end, ends[1].i, a_end, ends[1].j,
                          b_end);
          scf::YieldOp::create(pb, pl);
        });
  });
}

}  // namespace

bool IsSplitSortStep(Operation* op) {
  return isa<iree::SortOp>(op) && (op->hasAttr(kSortRunCountAttr) || op->hasAttr(kSortMergeAttr));
}

LogicalResult LowerSplitSortStep(OpBuilder& b, iree::SortOp op, Value workgroup_id, Value workgroup_count) {
  auto runs = op->getAttrOfType<IntegerAttr>(kSortRunCountAttr);
  auto merge = op->getAttrOfType<DenseI64ArrayAttr>(kSortMergeAttr);
  bool valid_runs = runs && runs.getInt() > 0;
  bool valid_merge = merge && merge.size() == 2 && merge[0] > 0 && merge[1] > 0;
  if (op.getInputs().empty() || (runs != nullptr) == (merge != nullptr) || (runs && !valid_runs) ||
      (merge && !valid_merge)) {
    return op.emitOpError() << "needs `ins` and either '" << kSortRunCountAttr << "' (a positive count) or '"
                            << kSortMergeAttr << "' (array<i64: runs, multiple>, both positive)";
  }
  if (runs) {
    LowerRuns(b, op, runs.getInt(), workgroup_id, workgroup_count);
  } else {
    LowerMerge(b, op, merge[0], merge[1], workgroup_id, workgroup_count);
  }
  return success();
}

}  // namespace kiln::compiler::cpu
