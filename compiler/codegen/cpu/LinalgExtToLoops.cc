// sort, topk, topk_v2, scan and scatter on memrefs, rewritten into scf loops.
//
// The line algorithms run per position of the other dimensions:
// - sort: insertion sort of runs of kSortRun, then bottom-up merges between two
//   contiguous scratch lines (stable, O(n log n), branch-free merge step);
// - topk: an element better than the current k-th is inserted after its equals (with
//   vector-bits, whole vectors of contiguous elements are compared with the k-th first);
// - topk_v2: a heap whose root is the worst of the k, heap-sorted when is_sorted (the
//   same vector filter);
// - scan: one pass carrying the previous output;
// - scatter: every update element whose slice fits inside the original and whose mask
//   is set is combined into it, in order (so repeated indices combine deterministically).
#include "compiler/codegen/cpu/LineAccess.h"
#include "compiler/codegen/cpu/Passes.h"
#include "compiler/codegen/cpu/RadixSort.h"
#include "compiler/codegen/cpu/ScatterSlices.h"
#include "compiler/codegen/cpu/SortLowering.h"
#include "compiler/codegen/cpu/SortRunsAndMerges.h"
#include "compiler/codegen/cpu/VectorTopk.h"
#include "compiler/dialect/KilnDialect.h"
#include "compiler/input/iree/IreeDialects.h"
#include "compiler/utils/Locations.h"
#include "compiler/utils/Regions.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DEF_LINALGEXTTOLOOPS
#include "compiler/codegen/cpu/Passes.h.inc"

namespace {

using namespace mlir;

// Runs of this many elements are insertion-sorted before merging.
constexpr int64_t kSortRun = 16;
// topk with at most this many outputs per line (static) keeps them in values (registers)
// and inserts without branches.
constexpr int64_t kMaxKeptInValues = 16;

}  // namespace

// Whether the sort comparator places `lhs` (one value per operand) before `rhs`.
Value SortsBefore(OpBuilder& b, Block& comparator, ValueRange lhs, ValueRange rhs) {
  SmallVector<Value> args;
  for (auto [l, r] : llvm::zip(lhs, rhs)) {
    args.push_back(l);
    args.push_back(r);
  }
  return InlineYieldedValue(b, comparator, args);
}

namespace {

// One output of a stream's merge at `out`: B's element (at j) when B lasts and either A
// (at i) is done or B's element sorts first. Returns the next i and j. Unclamped, the
// caller guarantees i < a_end and j < b_end; clamped, loads past a finished run are
// clamped into it and their values unused.
std::pair<Value, Value> EmitMergeStep(OpBuilder& b, Location loc, Block& comparator, ArrayRef<Line> source,
                                      ArrayRef<Line> target, Value out, Value i, Value j, Value a_end, Value b_end,
                                      bool clamped) {
  Value one = IndexConstant(b, loc, 1);
  Value take_right;
  SmallVector<Value> left, right;
  if (clamped) {
    Value left_done = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, i, a_end);
    Value right_done = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, j, b_end);
    left = LoadAll(b, loc, source, arith::MinUIOp::create(b, loc, i, arith::SubIOp::create(b, loc, a_end, one)));
    right = LoadAll(b, loc, source, arith::MinUIOp::create(b, loc, j, arith::SubIOp::create(b, loc, b_end, one)));
    Value right_first = SortsBefore(b, comparator, right, left);
    Value right_left = arith::XOrIOp::create(b, loc, right_done, arith::ConstantIntOp::create(b, loc, 1, 1));
    take_right = arith::AndIOp::create(b, loc, right_left, arith::OrIOp::create(b, loc, left_done, right_first));
  } else {
    left = LoadAll(b, loc, source, i);
    right = LoadAll(b, loc, source, j);
    take_right = SortsBefore(b, comparator, right, left);
  }
  SmallVector<Value> chosen;
  for (auto [x, y] : llvm::zip(left, right)) chosen.push_back(arith::SelectOp::create(b, loc, take_right, y, x));
  StoreAll(b, loc, target, chosen, out);
  return {arith::SelectOp::create(b, loc, take_right, i, arith::AddIOp::create(b, loc, i, one)),
          arith::SelectOp::create(b, loc, take_right, arith::AddIOp::create(b, loc, j, one), j)};
}

// `steps` outputs of every stream from `done` on, in one loop; `positions` are the
// streams' (i, j) pairs. Returns the new pairs.
SmallVector<Value> EmitMergeSteps(OpBuilder& b, Location loc, Block& comparator, ArrayRef<Line> source,
                                  ArrayRef<Line> target, ArrayRef<MergeStream> streams, Value done, Value steps,
                                  ValueRange positions, Value a_end, Value b_end, bool clamped) {
  Value zero = IndexConstant(b, loc, 0), one = IndexConstant(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, zero, steps, one, positions, [&](OpBuilder& ob, Location ol, Value t, ValueRange ij) {
        Value step = arith::AddIOp::create(ob, ol, done, t);
        SmallVector<Value> next;
        for (auto [k, stream] : llvm::enumerate(streams)) {
          Value out = arith::AddIOp::create(ob, ol, stream.out, step);
          auto [i, j] = EmitMergeStep(ob, ol, comparator, source, target, out, ij[2 * k], ij[2 * k + 1], a_end, b_end,
                                      clamped);
          next.append({i, j});
        }
        scf::YieldOp::create(ob, ol, next);
      });
  return SmallVector<Value>(loop.getResults());
}

}  // namespace

// In two phases: chunks of as many steps as no stream can finish either run in (at most
// the fewest elements any stream has left in A or in B), whose steps need neither clamps
// nor checks, and each chunk's length shrinks about by half as the runs are consumed;
// then the steps left (from where some stream has finished a run) with clamped loads.
SmallVector<MergeStream> EmitStableMerges(OpBuilder& b, Location loc, Block& comparator, ArrayRef<Line> source,
                                          ArrayRef<Line> target, ArrayRef<MergeStream> streams, Value steps,
                                          Value a_end, Value b_end) {
  Value zero = IndexConstant(b, loc, 0);
  SmallVector<Value> init{zero};
  for (const MergeStream& stream : streams) init.append({stream.i, stream.j});
  // The condition forwards the state and the chunk's length.
  SmallVector<Type> forwarded_types(init.size() + 1, b.getIndexType());
  auto chunks = scf::WhileOp::create(
      b, loc, TypeRange(forwarded_types), init,
      [&](OpBuilder& cb, Location cl, ValueRange args) {
        Value chunk = arith::SubIOp::create(cb, cl, steps, args[0]);
        for (size_t k = 0; k < streams.size(); ++k) {
          chunk = arith::MinUIOp::create(cb, cl, chunk, arith::SubIOp::create(cb, cl, a_end, args[1 + 2 * k]));
          chunk = arith::MinUIOp::create(cb, cl, chunk, arith::SubIOp::create(cb, cl, b_end, args[2 + 2 * k]));
        }
        Value more = arith::CmpIOp::create(cb, cl, arith::CmpIPredicate::ugt, chunk, IndexConstant(cb, cl, 0));
        SmallVector<Value> forwarded(args);
        forwarded.push_back(chunk);
        scf::ConditionOp::create(cb, cl, more, forwarded);
      },
      [&](OpBuilder& cb, Location cl, ValueRange args) {
        Value done = args[0], chunk = args.back();
        SmallVector<Value> next{arith::AddIOp::create(cb, cl, done, chunk)};
        next.append(EmitMergeSteps(cb, cl, comparator, source, target, streams, done, chunk,
                                   args.drop_front().drop_back(), a_end, b_end, /*clamped=*/false));
        scf::YieldOp::create(cb, cl, next);
      });
  ValueRange state = chunks.getResults().drop_back();
  Value done = state[0];
  Value left = arith::SubIOp::create(b, loc, steps, done);
  SmallVector<Value> positions = EmitMergeSteps(b, loc, comparator, source, target, streams, done, left,
                                                state.drop_front(), a_end, b_end, /*clamped=*/true);
  SmallVector<MergeStream> ends;
  for (size_t k = 0; k < streams.size(); ++k) {
    ends.push_back({arith::AddIOp::create(b, loc, streams[k].out, steps), positions[2 * k], positions[2 * k + 1]});
  }
  return ends;
}

void EmitStableMerge(OpBuilder& b, Location loc, Block& comparator, ArrayRef<Line> source, ArrayRef<Line> target,
                     Value out, Value out_end, Value i, Value a_end, Value j, Value b_end) {
  EmitStableMerges(b, loc, comparator, source, target, {MergeStream{out, i, j}},
                   arith::SubIOp::create(b, loc, out_end, out), a_end, b_end);
}

namespace {

// scf.while over `init`: `condition` decides on the current values whether to go on,
// `body` returns the next values; returns the final ones.
using WhileCondition = function_ref<Value(OpBuilder&, Location, ValueRange)>;
using WhileBody = function_ref<SmallVector<Value>(OpBuilder&, Location, ValueRange)>;
ValueRange While(OpBuilder& b, Location loc, ValueRange init, WhileCondition condition, WhileBody body) {
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange(init), init,
      [&](OpBuilder& nb, Location l, ValueRange args) {
        scf::ConditionOp::create(nb, l, condition(nb, l, args), args);
      },
      [&](OpBuilder& nb, Location l, ValueRange args) { scf::YieldOp::create(nb, l, body(nb, l, args)); });
  return loop.getResults();
}

// Insertion of `x` (one value per line) at or below position `from` of `lines`, moving
// down the elements that `x` goes before: the loop of topk and of the run sort.
void InsertDescending(OpBuilder& b, Location loc, ArrayRef<Line> lines, ValueRange x, Value from, Value floor,
                      function_ref<Value(OpBuilder&, ValueRange, ValueRange)> before) {
  Value one = IndexConstant(b, loc, 1);
  ValueRange final_position = While(
      b, loc, ValueRange{from},
      [&](OpBuilder& nb, Location l, ValueRange args) {
        Value j = args[0];
        Value above_floor = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ugt, j, floor);
        // Loads at j - 1 only matter above the floor; at the floor load the floor itself, so
        // that they stay in bounds (max(j - 1, floor) would not: j - 1 wraps at j = 0).
        Value previous = arith::SelectOp::create(nb, l, above_floor, arith::SubIOp::create(nb, l, j, one), floor);
        Value moves = before(nb, x, LoadAll(nb, l, lines, previous));
        return Value(arith::AndIOp::create(nb, l, above_floor, moves));
      },
      [&](OpBuilder& nb, Location l, ValueRange args) {
        Value j = args[0];
        Value previous = arith::SubIOp::create(nb, l, j, one);
        StoreAll(nb, l, lines, LoadAll(nb, l, lines, previous), j);
        return SmallVector<Value>{previous};
      });
  StoreAll(b, loc, lines, x, final_position[0]);
}

// The same insertion as InsertDescending from position k - 1, on k kept elements held in
// values (`kept[j * lines + l]` is line l's element at j) instead of memory, without
// branches: each position j takes its upper neighbour when `x` goes before every element
// of [j - 1, k - 1), else `x` when it goes before every element of [j, k - 1), else keeps
// its element. Returns the new kept elements.
SmallVector<Value> InsertDescendingInValues(OpBuilder& b, Location loc, ValueRange kept, ValueRange x,
                                            function_ref<Value(OpBuilder&, ValueRange, ValueRange)> before) {
  size_t lines = x.size();
  int64_t k = static_cast<int64_t>(kept.size() / lines);
  auto at = [&](int64_t j) { return kept.slice(j * lines, lines); };
  SmallVector<Value> next(kept.begin(), kept.end());
  Value reaches = arith::ConstantIntOp::create(b, loc, 1, 1);  // x goes before all of [j, k - 1)
  for (int64_t j = k - 1; j >= 0; --j) {
    Value moves = j > 0 ? arith::AndIOp::create(b, loc, reaches, before(b, x, at(j - 1))).getResult() : Value();
    for (size_t l = 0; l < lines; ++l) {
      Value kept_or_x = arith::SelectOp::create(b, loc, reaches, x[l], at(j)[l]);
      next[j * lines + l] = moves ? arith::SelectOp::create(b, loc, moves, at(j - 1)[l], kept_or_x).getResult()
                                  : kept_or_x;
    }
    reaches = moves;
  }
  return next;
}

// Sorts `sources` (possibly `lines` themselves) into `lines`.
void LowerSortLine(OpBuilder& b, Location loc, Block& comparator, ArrayRef<Line> sources, ArrayRef<Line> lines,
                   ArrayRef<Line> scratch_a, ArrayRef<Line> scratch_b, Value n) {
  auto before = [&](OpBuilder& nb, ValueRange lhs, ValueRange rhs) { return SortsBefore(nb, comparator, lhs, rhs); };
  Value zero = IndexConstant(b, loc, 0), run = IndexConstant(b, loc, kSortRun);

  // Copy into scratch A, insertion-sorting runs of kSortRun on the way.
  scf::ForOp::create(b, loc, zero, n, run, ValueRange{}, [&](OpBuilder& rb, Location l, Value start, ValueRange) {
    Value end = arith::MinUIOp::create(rb, l, arith::AddIOp::create(rb, l, start, run), n);
    ForRange(rb, l, start, end, [&](OpBuilder& ib, Location il, Value i) {
      InsertDescending(ib, il, scratch_a, LoadAll(ib, il, sources, i), i, start, before);
    });
    scf::YieldOp::create(rb, l);
  });

  // Merge passes, alternating between the scratch lines.
  Value two = IndexConstant(b, loc, 2);
  Value a_is_source = arith::ConstantIntOp::create(b, loc, 1, 1);
  ValueRange passes = While(
      b, loc, ValueRange{run, a_is_source},
      [&](OpBuilder& nb, Location l, ValueRange args) {
        return Value(arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ult, args[0], n));
      },
      [&](OpBuilder& nb, Location l, ValueRange args) {
        Value width = args[0], from_a = args[1];
        SmallVector<Line> source, target;
        for (auto [x, y] : llvm::zip(scratch_a, scratch_b)) {
          source.push_back(PickLine(nb, l, from_a, x, y));
          target.push_back(PickLine(nb, l, from_a, y, x));
        }
        Value pair = arith::MulIOp::create(nb, l, width, two);
        scf::ForOp::create(nb, l, zero, n, pair, ValueRange{}, [&](OpBuilder& mb, Location ml, Value start, ValueRange) {
          Value mid = arith::MinUIOp::create(mb, ml, arith::AddIOp::create(mb, ml, start, width), n);
          Value end = arith::MinUIOp::create(mb, ml, arith::AddIOp::create(mb, ml, start, pair), n);
          EmitStableMerge(mb, ml, comparator, source, target, start, end, start, mid, mid, end);
          scf::YieldOp::create(mb, ml);
        });
        Value flipped = arith::XOrIOp::create(nb, l, from_a, arith::ConstantIntOp::create(nb, l, 1, 1));
        return SmallVector<Value>{pair, flipped};
      });

  // Back into the operands from whichever scratch line holds the result.
  SmallVector<Line> result;
  for (auto [x, y] : llvm::zip(scratch_a, scratch_b)) result.push_back(PickLine(b, loc, passes[1], x, y));
  ForRange(b, loc, zero, n,
           [&](OpBuilder& cb, Location l, Value i) { StoreAll(cb, l, lines, LoadAll(cb, l, result, i), i); });
}

}  // namespace

void LowerSortInto(OpBuilder& b, Location loc, Block& comparator, int64_t dimension, ValueRange sources,
                   ValueRange targets) {
  Value first = targets[0];
  Value n = memref::DimOp::create(b, loc, first, dimension);
  SmallVector<Type> elements;
  for (Value target : targets) elements.push_back(cast<MemRefType>(target.getType()).getElementType());
  std::optional<RadixKey> radix_key = MatchRadixComparator(comparator);
  // Radix counts are i32: longer lines (and empty ones) take the comparison sort.
  Value fits;
  if (radix_key) {
    fits = arith::AndIOp::create(
        b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, n, IndexConstant(b, loc, int64_t{1} << 31)),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, n, IndexConstant(b, loc, 0)));
  }
  bool moves_operands = RadixMovesOperands(elements);
  Type packed = radix_key ? RadixPackedType(b.getContext(), elements) : Type();
  // Two scratch lines per operand, then the radix sort's own, all in one heap block, each
  // empty when its sort does not run: the radix sort's when the comparison sort takes the
  // line; the operands' when a radix sort that packs the operands (in its own lines) does.
  Value operand_length = n;
  if (packed) operand_length = arith::SelectOp::create(b, loc, fits, IndexConstant(b, loc, 0), n);
  SmallVector<std::pair<Type, Value>> shapes;
  for (int copy = 0; copy < 2; ++copy) {
    for (Type element : elements) shapes.push_back({element, operand_length});
  }
  if (radix_key) {
    Value radix_n = arith::SelectOp::create(b, loc, fits, n, IndexConstant(b, loc, 0));
    shapes.append(RadixScratchShapes(b, loc, radix_n, moves_operands, packed));
  }
  ScratchLines scratch = AllocateScratchLines(b, loc, shapes);
  size_t operands = elements.size();
  ArrayRef<Line> all = scratch.lines;
  SmallVector<Line> scratch_a(all.take_front(operands)), scratch_b(all.slice(operands, operands));
  std::optional<RadixScratch> radix;
  if (radix_key) radix = RadixScratchOf(all.drop_front(2 * operands), moves_operands, packed, scratch_a, scratch_b);
  ForEachLine(b, loc, first, dimension, [&](OpBuilder& lb, Location l, SmallVector<Value> position) {
    SmallVector<Line> from, lines;
    for (Value source : sources) from.push_back(Line{source, position, dimension});
    for (Value target : targets) lines.push_back(Line{target, position, dimension});
    if (!radix) return LowerSortLine(lb, l, comparator, from, lines, scratch_a, scratch_b, n);
    scf::IfOp::create(
        lb, l, fits,
        [&](OpBuilder& tb, Location tl) {
          EmitRadixSortLine(tb, tl, *radix_key, *radix, from, lines, n);
          scf::YieldOp::create(tb, tl);
        },
        [&](OpBuilder& eb, Location el) {
          LowerSortLine(eb, el, comparator, from, lines, scratch_a, scratch_b, n);
          scf::YieldOp::create(eb, el);
        });
  });
  DeallocateScratchLines(b, loc, scratch);
}

void LowerSort(OpBuilder& b, iree::SortOp op) {
  LowerSortInto(b, op.getLoc(), op.getRegion().front(), op.getDimension(), op.getOutputs(), op.getOutputs());
}

namespace {

// The value and index of element `i` of a topk input line.
SmallVector<Value> TopkCandidate(OpBuilder& b, Location loc, ArrayRef<Line> inputs, Type index_type, Value i) {
  SmallVector<Value> candidate{inputs[0].Load(b, loc, i)};
  if (inputs.size() > 1) {
    candidate.push_back(inputs[1].Load(b, loc, i));
  } else if (index_type) {
    candidate.push_back(arith::IndexCastOp::create(b, loc, index_type, i));
  }
  return candidate;
}

template <typename OpTy>
void ForEachTopkLine(OpBuilder& b, OpTy op,
                     function_ref<void(OpBuilder&, Location, ArrayRef<Line>, ArrayRef<Line>, Value n, Value k)> body) {
  Location loc = op.getLoc();
  int64_t dimension = op.getDimension();
  Value values = op.getInputs()[0];
  Value n = memref::DimOp::create(b, loc, values, dimension);
  Value k = memref::DimOp::create(b, loc, op.getOutputs()[0], dimension);
  ForEachLine(b, loc, values, dimension, [&](OpBuilder& lb, Location l, SmallVector<Value> position) {
    SmallVector<Line> inputs, outputs;
    for (Value v : op.getInputs()) inputs.push_back(Line{v, position, dimension});
    for (Value v : op.getOutputs()) outputs.push_back(Line{v, position, dimension});
    body(lb, l, inputs, outputs, n, k);
  });
}

// Whether the k kept values (`kept[j * lines]`) are in the comparator's order, none going
// before its predecessor, and none is NaN: what TopkBound needs of them.
Value KeptInOrder(OpBuilder& b, Location loc, Block& comparator, ValueRange kept, size_t lines) {
  Value in_order = arith::ConstantIntOp::create(b, loc, 1, 1);
  Value true_value = in_order;
  for (size_t j = 0; j < kept.size(); j += lines) {
    Value v = kept[j];
    if (isa<FloatType>(v.getType())) {
      in_order = arith::AndIOp::create(b, loc, in_order, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD, v, v));
    }
    if (j == 0) continue;
    Value jumps = InlineYieldedValue(b, comparator, {v, kept[j - lines]});
    in_order = arith::AndIOp::create(b, loc, in_order, arith::XOrIOp::create(b, loc, jumps, true_value));
  }
  return in_order;
}

void LowerTopk(OpBuilder& b, iree::TopkOp op, int64_t vector_bits) {
  Block& comparator = op.getRegion().front();
  auto before = [&](OpBuilder& cb, ValueRange x, ValueRange y) { return InlineYieldedValue(cb, comparator, {x[0], y[0]}); };
  Type index_type = cast<MemRefType>(op.getOutputs()[1].getType()).getElementType();
  int64_t static_k = cast<MemRefType>(op.getOutputs()[0].getType()).getDimSize(op.getDimension());
  // Only for the CPU (vector_bits > 0): the GPU's work-items keep their loops as they were.
  bool in_values =
      vector_bits > 0 && !ShapedType::isDynamic(static_k) && static_k >= 1 && static_k <= kMaxKeptInValues;
  bool strict_order = MatchRadixComparator(comparator).has_value();
  ForEachTopkLine<iree::TopkOp>(b, op, [&](OpBuilder& lb, Location l, ArrayRef<Line> inputs, ArrayRef<Line> outputs,
                                          Value n, Value k) {
    Value zero = IndexConstant(lb, l, 0), one = IndexConstant(lb, l, 1);
    Value has_k = arith::CmpIOp::create(lb, l, arith::CmpIPredicate::ugt, k, zero);
    auto guard = scf::IfOp::create(lb, l, has_k, /*withElseRegion=*/false);
    OpBuilder gb = guard.getThenBodyBuilder();
    int64_t lanes = TopkFilterLanes(inputs[0], comparator, vector_bits);
    if (in_values) {
      // The k kept live in values through the line and are stored once at its end.
      TopkState kept;
      for (int64_t j = 0; j < static_k; ++j) kept.append(LoadAll(gb, l, outputs, IndexConstant(gb, l, j)));
      std::optional<TopkBound> bound;
      if (strict_order && lanes >= static_k) bound = TopkBound{static_k, KeptInOrder(gb, l, comparator, kept, outputs.size())};
      TopkState final_kept = ForEachBetterElement(
          gb, l, comparator, inputs[0], n, lanes, bound ? &*bound : nullptr, kept,
          [&](OpBuilder&, Location, ValueRange current) { return current[(static_k - 1) * outputs.size()]; },
          [&](OpBuilder& ib, Location il, ValueRange current, Value i) -> TopkState {
            return InsertDescendingInValues(ib, il, current, TopkCandidate(ib, il, inputs, index_type, i), before);
          });
      for (int64_t j = 0; j < static_k; ++j) {
        StoreAll(gb, l, outputs, ValueRange(final_kept).slice(j * outputs.size(), outputs.size()),
                 IndexConstant(gb, l, j));
      }
      return;
    }
    Value last = arith::SubIOp::create(gb, l, k, one);
    ForEachBetterElement(
        gb, l, comparator, inputs[0], n, lanes, /*bound=*/nullptr, {},
        [&](OpBuilder& wb, Location wl, ValueRange) { return outputs[0].Load(wb, wl, last); },
        [&](OpBuilder& ib, Location il, ValueRange, Value i) -> TopkState {
          InsertDescending(ib, il, outputs, TopkCandidate(ib, il, inputs, index_type, i), last, zero, before);
          return {};
        });
  });
}

// Restores the heap order of [0, size) after its root changed: every element is worse
// than its children (the comparator does not hold for it against either of them).
void SiftDown(OpBuilder& b, Location loc, Block& comparator, ArrayRef<Line> heap, Value size) {
  Value zero = IndexConstant(b, loc, 0), one = IndexConstant(b, loc, 1), two = IndexConstant(b, loc, 2);
  Value true_value = arith::ConstantIntOp::create(b, loc, 1, 1);
  While(
      b, loc, ValueRange{zero, true_value},
      [&](OpBuilder& nb, Location l, ValueRange args) { return args[1]; },
      [&](OpBuilder& nb, Location l, ValueRange args) {
        Value i = args[0];
        Value left = arith::AddIOp::create(nb, l, arith::MulIOp::create(nb, l, i, two), one);
        Value has_left = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ult, left, size);
        auto step = scf::IfOp::create(
            nb, l, has_left,
            [&](OpBuilder& tb, Location tl) {
              Value right = arith::AddIOp::create(tb, tl, left, one);
              Value has_right = arith::CmpIOp::create(tb, tl, arith::CmpIPredicate::ult, right, size);
              Value left_value = heap[0].Load(tb, tl, left);
              Value right_value = heap[0].Load(tb, tl, arith::SelectOp::create(tb, tl, has_right, right, left));
              // The worse child: the right one when the left is better than it.
              Value left_better = InlineYieldedValue(tb, comparator, {left_value, right_value});
              Value use_right = arith::AndIOp::create(tb, tl, has_right, left_better);
              Value child = arith::SelectOp::create(tb, tl, use_right, right, left);
              Value child_value = arith::SelectOp::create(tb, tl, use_right, right_value, left_value);
              Value swap = InlineYieldedValue(tb, comparator, {heap[0].Load(tb, tl, i), child_value});
              auto exchange = scf::IfOp::create(tb, tl, swap, /*withElseRegion=*/false);
              OpBuilder eb = exchange.getThenBodyBuilder();
              SmallVector<Value> at_i = LoadAll(eb, tl, heap, i), at_child = LoadAll(eb, tl, heap, child);
              StoreAll(eb, tl, heap, at_child, i);
              StoreAll(eb, tl, heap, at_i, child);
              scf::YieldOp::create(tb, tl, ValueRange{child, swap});
            },
            [&](OpBuilder& eb, Location el) {
              scf::YieldOp::create(eb, el, ValueRange{i, arith::ConstantIntOp::create(eb, el, 0, 1)});
            });
        return SmallVector<Value>(step.getResults());
      });
}

void LowerTopkV2(OpBuilder& b, iree::TopkV2Op op, int64_t vector_bits) {
  Block& comparator = op.getRegion().front();
  Type index_type;
  if (op.getOutputs().size() > 1) index_type = cast<MemRefType>(op.getOutputs()[1].getType()).getElementType();
  bool sorted = op.getIsSorted();
  ForEachTopkLine<iree::TopkV2Op>(b, op, [&](OpBuilder& lb, Location l, ArrayRef<Line> inputs, ArrayRef<Line> outputs,
                                            Value n, Value k) {
    Value zero = IndexConstant(lb, l, 0), one = IndexConstant(lb, l, 1);
    SmallVector<Line> inputs_used(inputs.begin(), inputs.begin() + std::min(inputs.size(), outputs.size()));
    Value has_k = arith::CmpIOp::create(lb, l, arith::CmpIPredicate::ugt, k, zero);
    auto guard = scf::IfOp::create(lb, l, has_k, /*withElseRegion=*/false);
    OpBuilder gb = guard.getThenBodyBuilder();
    ForEachBetterElement(
        gb, l, comparator, inputs[0], n, TopkFilterLanes(inputs[0], comparator, vector_bits), /*bound=*/nullptr, {},
        [&](OpBuilder& wb, Location wl, ValueRange) { return outputs[0].Load(wb, wl, zero); },
        [&](OpBuilder& rb, Location rl, ValueRange, Value i) -> TopkState {
          StoreAll(rb, rl, outputs, TopkCandidate(rb, rl, inputs_used, index_type, i), zero);
          SiftDown(rb, rl, comparator, outputs, k);
          return {};
        });
    if (!sorted) return;
    // Heap sort: the worst goes last, best ends first.
    Value last = arith::SubIOp::create(gb, l, k, one);
    ForRange(gb, l, zero, last, [&](OpBuilder& sb, Location sl, Value step) {
      Value end = arith::SubIOp::create(sb, sl, last, step);
      SmallVector<Value> root = LoadAll(sb, sl, outputs, zero), tail = LoadAll(sb, sl, outputs, end);
      StoreAll(sb, sl, outputs, tail, zero);
      StoreAll(sb, sl, outputs, root, end);
      SiftDown(sb, sl, comparator, outputs, end);
    });
  });
}

void LowerScan(OpBuilder& b, iree::ScanOp op) {
  Location loc = op.getLoc();
  Block& combiner = op.getRegion().front();
  int64_t dimension = op.getDimension();
  Value input = op.getInputs()[0], output = op.getOutputs()[0], total = op.getOutputs()[1];
  Value n = memref::DimOp::create(b, loc, input, dimension);
  bool inclusive = op.getInclusive();
  ForEachLine(b, loc, input, dimension, [&](OpBuilder& lb, Location l, SmallVector<Value> position) {
    Line in{input, position, dimension}, out{output, position, dimension};
    SmallVector<Value> total_position = position;
    total_position.erase(total_position.begin() + dimension);
    Value zero = IndexConstant(lb, l, 0), one = IndexConstant(lb, l, 1);
    Value has_elements = arith::CmpIOp::create(lb, l, arith::CmpIPredicate::ugt, n, zero);
    auto guard = scf::IfOp::create(lb, l, has_elements, /*withElseRegion=*/false);
    OpBuilder gb = guard.getThenBodyBuilder();
    Value first = inclusive ? in.Load(gb, l, zero) : Value(memref::LoadOp::create(gb, l, total, total_position));
    out.Store(gb, l, first, zero);
    auto loop = scf::ForOp::create(gb, l, one, n, one, ValueRange{first},
                                   [&](OpBuilder& fb, Location fl, Value i, ValueRange carried) {
                                     Value x = in.Load(fb, fl, inclusive ? i : arith::SubIOp::create(fb, fl, i, one));
                                     Value next = InlineYieldedValue(fb, combiner, {carried[0], x});
                                     out.Store(fb, fl, next, i);
                                     scf::YieldOp::create(fb, fl, next);
                                   });
    memref::StoreOp::create(gb, l, loop.getResult(0), total, total_position);
  });
}

void LowerScatter(OpBuilder& b, iree::ScatterOp op, bool check_indices) {
  Location loc = op.getLoc();
  Block& combiner = op.getRegion().front();
  Value updates = op.getInputs()[0], original = op.getOutputs()[0];
  auto updates_type = cast<MemRefType>(updates.getType());
  int64_t original_rank = cast<MemRefType>(original.getType()).getRank();
  ScatterShape shape = ScatterShape::Of(op);
  int64_t first_slice_dim = shape.first_slice_dim;
  SmallVector<Value> batch_sizes, slice_sizes, original_sizes;
  for (int64_t d = 0; d < updates_type.getRank(); ++d) {
    (d < shape.batch_rank ? batch_sizes : slice_sizes).push_back(memref::DimOp::create(b, loc, updates, d));
  }
  for (int64_t d = 0; d < original_rank; ++d) original_sizes.push_back(memref::DimOp::create(b, loc, original, d));
  // Mask, indices and the fit test once per batch position; then its slice.
  ForEachPosition(b, loc, batch_sizes, [&](OpBuilder& nb, Location l, ValueRange batch) {
    ScatterSliceOrigin origin = BuildScatterSliceOrigin(nb, l, op, shape, batch, slice_sizes, original_sizes);
    SmallVector<Value> offsets = origin.offsets;
    Value fits = origin.fits;
    if (check_indices) BuildScatterIndexChecks(nb, l, op, origin);
    auto update = scf::IfOp::create(nb, l, fits, /*withElseRegion=*/false);
    OpBuilder ub = update.getThenBodyBuilder();
    ForEachPosition(ub, l, slice_sizes, [&](OpBuilder& sb, Location sl, ValueRange slice) {
      SmallVector<Value> coords = offsets;
      for (auto [k, iv] : llvm::enumerate(slice)) {
        coords[first_slice_dim + k] = arith::AddIOp::create(sb, sl, coords[first_slice_dim + k], iv);
      }
      SmallVector<Value> at(batch.begin(), batch.end());
      at.append(slice.begin(), slice.end());
      Value old = memref::LoadOp::create(sb, sl, original, coords);
      Value value = memref::LoadOp::create(sb, sl, updates, at);
      memref::StoreOp::create(sb, sl, InlineYieldedValue(sb, combiner, {value, old}), original, coords);
    });
  });
}

// The workgroup id and count of a dispatch function (its last two arguments), or 0 and 1
// outside one.
std::pair<Value, Value> WorkgroupIdAndCount(OpBuilder& b, Operation* op) {
  auto fn = op->getParentOfType<func::FuncOp>();
  if (fn && fn->hasAttr(kBindingDimsAttr) && fn.getNumArguments() >= 2) {
    return {fn.getArgument(fn.getNumArguments() - 2), fn.getArgument(fn.getNumArguments() - 1)};
  }
  return {IndexConstant(b, op->getLoc(), 0), IndexConstant(b, op->getLoc(), 1)};
}

struct LinalgExtToLoopsPass : impl::LinalgExtToLoopsBase<LinalgExtToLoopsPass> {
  using LinalgExtToLoopsBase::LinalgExtToLoopsBase;

  void runOnOperation() override {
    SmallVector<Operation*> ops;
    getOperation()->walk([&](Operation* op) {
      if (isa<iree::LinalgExtDialect>(op->getDialect()) && !isa<iree::YieldOp>(op)) ops.push_back(op);
    });
    for (Operation* op : ops) {
      if (op->getNumResults() != 0) {
        op->emitOpError() << "is still on tensors after bufferization";
        return signalPassFailure();
      }
      OpBuilder b(op);
      if (auto sort = dyn_cast<iree::SortOp>(op); sort && IsSplitSortStep(sort)) {
        auto [id, count] = WorkgroupIdAndCount(b, sort);
        if (failed(LowerSplitSortStep(b, sort, id, count))) return signalPassFailure();
      } else if (auto sort = dyn_cast<iree::SortOp>(op)) {
        if (!sort.getInputs().empty()) {
          op->emitOpError() << "has `ins` but no mark of kiln-cpu-split-long-sorts saying how to compute it";
          return signalPassFailure();
        }
        LowerSort(b, sort);
      } else if (auto topk = dyn_cast<iree::TopkOp>(op)) {
        LowerTopk(b, topk, vectorBits);
      } else if (auto topk_v2 = dyn_cast<iree::TopkV2Op>(op)) {
        LowerTopkV2(b, topk_v2, vectorBits);
      } else if (auto scan = dyn_cast<iree::ScanOp>(op)) {
        LowerScan(b, scan);
      } else if (auto scatter = dyn_cast<iree::ScatterOp>(op)) {
        LowerScatter(b, scatter, checkIndices);
      } else {
        op->emitOpError() << "has no loop lowering; kiln decomposes it before dispatch formation";
        return signalPassFailure();
      }
      op->erase();
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::cpu
