#include "compiler/codegen/cpu/NibbleTables.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

namespace kiln::compiler::cpu {
namespace {

using namespace mlir;

constexpr int64_t kEntries = 16;

// The value whose low 4 bits `op` takes as a nibble (trunci to i4, andi with 15), or null.
Value NibbleSourceOf(Operation* op) {
  if (auto trunc = dyn_cast<arith::TruncIOp>(op)) {
    return trunc.getType().isInteger(4) ? trunc.getIn() : Value();
  }
  if (auto mask = dyn_cast<arith::AndIOp>(op); mask && isa<IntegerType>(mask.getType())) {
    for (auto [operand, other] : {std::pair(mask.getLhs(), mask.getRhs()), std::pair(mask.getRhs(), mask.getLhs())}) {
      APInt bits;
      if (matchPattern(other, m_ConstantInt(&bits)) && bits == 15) return operand;
    }
  }
  return Value();
}

enum class Dependence { kNone, kConstant, kNibble };

// Whether `value` is computed by arith ops of `body` from `nibble` and constants alone;
// the ops doing it (constants aside) are added to `ops`.
Dependence Collect(Block* body, Value value, Value nibble, llvm::SmallPtrSetImpl<Operation*>& ops) {
  if (value == nibble) return Dependence::kNibble;
  if (matchPattern(value, m_Constant())) return Dependence::kConstant;
  Operation* def = value.getDefiningOp();
  if (!def || def->getBlock() != body || !isa<arith::ArithDialect>(def->getDialect()) || def->getNumRegions() != 0 ||
      def->getNumOperands() == 0 || def->getNumResults() != 1) {
    return Dependence::kNone;
  }
  Dependence result = Dependence::kConstant;
  for (Value operand : def->getOperands()) {
    Dependence d = Collect(body, operand, nibble, ops);
    if (d == Dependence::kNone) return d;
    if (d == Dependence::kNibble) result = d;
  }
  ops.insert(def);
  return result;
}

// `value` (computed by `ops` from `nibble`) for each nibble, by folding the ops in body
// order; nullopt when one does not fold or the result is not an f32.
std::optional<std::array<float, 16>> Evaluate(Block* body, Operation* nibble_op, Value value,
                                              const llvm::SmallPtrSetImpl<Operation*>& ops) {
  std::array<float, 16> entries;
  Type nibble_type = nibble_op->getResult(0).getType();
  for (int64_t n = 0; n < kEntries; ++n) {
    llvm::DenseMap<Value, Attribute> known;
    known[nibble_op->getResult(0)] = IntegerAttr::get(nibble_type, n);
    auto attribute_of = [&](Value v) -> Attribute {
      if (Attribute a = known.lookup(v)) return a;
      Attribute constant;
      return matchPattern(v, m_Constant(&constant)) ? constant : Attribute();
    };
    for (Operation& op : *body) {
      if (!ops.contains(&op)) continue;
      SmallVector<Attribute> operands = llvm::map_to_vector(op.getOperands(), attribute_of);
      if (llvm::is_contained(operands, Attribute())) return std::nullopt;
      SmallVector<OpFoldResult> folded;
      if (failed(op.fold(operands, folded)) || folded.size() != 1) return std::nullopt;
      Attribute result = isa<Attribute>(folded[0]) ? cast<Attribute>(folded[0]) : attribute_of(cast<Value>(folded[0]));
      if (!result) return std::nullopt;
      known[op.getResult(0)] = result;
    }
    auto entry = dyn_cast_or_null<FloatAttr>(known.lookup(value));
    if (!entry || !entry.getType().isF32()) return std::nullopt;
    entries[n] = entry.getValue().convertToFloat();
  }
  return entries;
}

// `v` as a vector of `lanes` i32 (widened, narrowed or broadcast as needed).
Value AsIndexVector(OpBuilder& b, Location loc, Value v, int64_t lanes, SmallVectorImpl<Operation*>& index_ops) {
  Type i32 = b.getI32Type();
  auto vector_type = dyn_cast<VectorType>(v.getType());
  unsigned width = getElementTypeOrSelf(v.getType()).getIntOrFloatBitWidth();
  Type target = vector_type ? Type(VectorType::get({lanes}, i32)) : i32;
  Operation* cast = nullptr;
  if (width < 32) cast = arith::ExtUIOp::create(b, loc, target, v);
  if (width > 32) cast = arith::TruncIOp::create(b, loc, target, v);
  if (cast) {
    index_ops.push_back(cast);
    v = cast->getResult(0);
  }
  if (!vector_type) v = vector::BroadcastOp::create(b, loc, VectorType::get({lanes}, i32), v);
  return v;
}

}  // namespace

std::optional<NibbleTable> FindNibbleTable(Block* body, ArrayRef<Operation*> candidates) {
  std::optional<NibbleTable> found;
  for (Operation* nibble_op : candidates) {
    Value source = NibbleSourceOf(nibble_op);
    if (!source) continue;
    for (Operation* op : candidates) {
      if (op->getNumResults() != 1 || !op->getResult(0).getType().isF32() || !nibble_op->isBeforeInBlock(op)) continue;
      llvm::SmallPtrSet<Operation*, 8> ops;
      if (Collect(body, op->getResult(0), nibble_op->getResult(0), ops) != Dependence::kNibble) continue;
      if (found && op->isBeforeInBlock(found->value.getDefiningOp())) continue;
      if (std::optional<std::array<float, 16>> entries = Evaluate(body, nibble_op, op->getResult(0), ops)) {
        found = NibbleTable{op->getResult(0), source, *entries};
      }
    }
  }
  return found;
}

Value LookUpNibbles(OpBuilder& b, Location loc, const NibbleTable& table, IRMapping& mapping,
                    SmallVectorImpl<Operation*>& index_ops) {
  auto f32_vector = VectorType::get({kEntries}, b.getF32Type());
  Value indices;
  // x >> c: widened first, so that the shift is of 32-bit lanes (x86 has no byte shift)
  // and the widening of x is shared by the nibbles of one byte.
  if (auto shift = table.source.getDefiningOp<arith::ShRUIOp>()) {
    Value wide = AsIndexVector(b, loc, mapping.lookupOrDefault(shift.getLhs()), kEntries, index_ops);
    Value amount = AsIndexVector(b, loc, mapping.lookupOrDefault(shift.getRhs()), kEntries, index_ops);
    auto shifted = arith::ShRUIOp::create(b, loc, wide, amount);
    index_ops.push_back(shifted);
    indices = shifted;
  } else {
    indices = AsIndexVector(b, loc, mapping.lookupOrDefault(table.source), kEntries, index_ops);
  }
  auto entries = DenseElementsAttr::get(f32_vector, llvm::ArrayRef<float>(table.entries));
  Value lookup_table = arith::ConstantOp::create(b, loc, f32_vector, entries);
  // vpermps: element i of the result is the table's entry at the low 4 bits of index i.
  return LLVM::CallIntrinsicOp::create(b, loc, f32_vector, b.getStringAttr("llvm.x86.avx512.permvar.sf.512"),
                                       ValueRange{lookup_table, indices})
      ->getResult(0);
}

}  // namespace kiln::compiler::cpu
