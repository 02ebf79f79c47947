// Values of a loop body that depend on one 4-bit field alone, evaluated by table lookup.
//
// A dequantized 4-bit weight ((q - 8) as f32, a signed nibble widened, ...) has only 16
// possible values. Computing one per element costs a widening, a conversion and integer
// arithmetic on the ports the FMAs need; a 16-entry f32 table in a vector register and one
// AVX-512 vpermps (which reads the low 4 bits of each 32-bit index) gives 16 of them.
#pragma once

#include <array>
#include <optional>

#include "mlir/IR/Block.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace kiln::compiler::cpu {

struct NibbleTable {
  mlir::Value value;   // the f32 value in the body, a function of the nibble alone
  mlir::Value source;  // the body value whose low 4 bits are the nibble
  std::array<float, 16> entries;  // `value` for each nibble 0..15
};

// The last f32 value (in body order) among `candidates` (ops of `body`) computed by arith
// ops from one nibble and constants only, the nibble being `arith.trunci %x : iN to i4`
// or `arith.andi %x, 15`; nullopt when there is none or an op of its slice does not fold.
std::optional<NibbleTable> FindNibbleTable(mlir::Block* body, llvm::ArrayRef<mlir::Operation*> candidates);

// `table.value` for `lanes` (16) elements: the low 4 bits of each element of `source`'s
// vector (`mapping` gives the vectors of the body's values; a source that is x >> c is
// shifted after widening to 32 bits, where the shift is one instruction) looked up by
// vpermps. Returns vector<16xf32>. The index ops it creates are appended to `index_ops`
// (their 32-bit width is the point: narrowing them would undo it).
mlir::Value LookUpNibbles(mlir::OpBuilder& b, mlir::Location loc, const NibbleTable& table, mlir::IRMapping& mapping,
                          llvm::SmallVectorImpl<mlir::Operation*>& index_ops);

}  // namespace kiln::compiler::cpu
