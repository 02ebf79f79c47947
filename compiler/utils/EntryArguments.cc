#include "compiler/utils/EntryArguments.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace kiln::compiler {

using namespace mlir;

int64_t PushConstantWordCount(Type type) { return !type.isIndex() && type.getIntOrFloatBitWidth() > 32 ? 2 : 1; }

FailureOr<DispatchArguments> ReadDispatchArguments(func::FuncOp fn, ArrayAttr binding_dims) {
  FunctionType type = fn.getFunctionType();
  size_t binding_count = binding_dims.size();
  if (type.getNumInputs() < binding_count + 2) {
    return fn.emitError() << "executable function has " << type.getNumInputs()
                          << " arguments, fewer than its bindings plus workgroup id and count";
  }
  DispatchArguments args;
  args.binding_dims = binding_dims;
  args.binding_count = binding_count;
  for (Type t : type.getInputs().slice(binding_count, type.getNumInputs() - binding_count - 2)) {
    args.constant_types.push_back(t);
    args.word_of_constant.push_back(args.words);
    args.words += PushConstantWordCount(t);
  }
  return args;
}

Value BuildMemrefOverPointer(OpBuilder& b, Location loc, MemRefType type, Value pointer,
                             llvm::function_ref<Value(int64_t dim)> dynamic_size) {
  Type i64 = b.getI64Type();
  auto constant = [&](int64_t v) { return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v)); };
  int64_t rank = type.getRank();
  SmallVector<Type> fields = {pointer.getType(), pointer.getType(), i64};
  if (rank > 0) {
    fields.push_back(LLVM::LLVMArrayType::get(i64, rank));
    fields.push_back(LLVM::LLVMArrayType::get(i64, rank));
  }
  auto struct_type = LLVM::LLVMStructType::getLiteral(b.getContext(), fields);
  Value desc = LLVM::PoisonOp::create(b, loc, struct_type);
  desc = LLVM::InsertValueOp::create(b, loc, desc, pointer, ArrayRef<int64_t>{0});
  desc = LLVM::InsertValueOp::create(b, loc, desc, pointer, ArrayRef<int64_t>{1});
  desc = LLVM::InsertValueOp::create(b, loc, desc, constant(0), ArrayRef<int64_t>{2});
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < rank; ++d) {
    sizes.push_back(type.isDynamicDim(d) ? dynamic_size(d) : constant(type.getDimSize(d)));
  }
  Value stride = constant(1);
  for (int64_t d = rank - 1; d >= 0; --d) {
    desc = LLVM::InsertValueOp::create(b, loc, desc, sizes[d], ArrayRef<int64_t>{3, d});
    desc = LLVM::InsertValueOp::create(b, loc, desc, stride, ArrayRef<int64_t>{4, d});
    if (d > 0) stride = LLVM::MulOp::create(b, loc, stride, sizes[d]);
  }
  return UnrealizedConversionCastOp::create(b, loc, TypeRange{type}, ValueRange{desc}).getResult(0);
}

FailureOr<SmallVector<Value>> BuildDispatchOperands(OpBuilder& b, Location loc, func::FuncOp fn,
                                                    const DispatchArguments& args,
                                                    llvm::function_ref<Value(size_t)> pointer,
                                                    llvm::function_ref<Value(int64_t)> word) {
  SmallVector<Value> operands;
  for (size_t i = 0; i < args.binding_count; ++i) {
    Type type = fn.getArgumentTypes()[i];
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref || !memref.getLayout().isIdentity()) {
      return fn.emitError() << "binding " << i << " has type " << type << "; expected an identity-layout memref";
    }
    ArrayRef<int64_t> dims = cast<DenseI64ArrayAttr>(args.binding_dims[i]).asArrayRef();
    operands.push_back(BuildMemrefOverPointer(b, loc, memref, pointer(i), [&](int64_t d) -> Value {
      return LLVM::SExtOp::create(b, loc, b.getI64Type(), word(args.word_of_constant[dims[d]]));
    }));
  }
  for (auto [i, t] : llvm::enumerate(args.constant_types)) {
    int64_t w = args.word_of_constant[i];
    operands.push_back(BuildScalarFromWords(b, loc, t, word(w), PushConstantWordCount(t) == 2 ? word(w + 1) : Value()));
  }
  return operands;
}

Value BuildScalarFromWords(OpBuilder& b, Location loc, Type type, Value low, Value high) {
  if (type.isIndex()) return arith::IndexCastOp::create(b, loc, type, low);
  unsigned width = type.getIntOrFloatBitWidth();
  Type int_type = b.getIntegerType(width);
  Value bits;
  if (width == 64) {
    Type i64 = b.getI64Type();
    Value lo = arith::ExtUIOp::create(b, loc, i64, low);
    Value hi = arith::ExtUIOp::create(b, loc, i64, high);
    Value shifted = arith::ShLIOp::create(b, loc, hi, arith::ConstantIntOp::create(b, loc, i64, 32));
    bits = arith::OrIOp::create(b, loc, lo, shifted);
  } else if (width == 32) {
    bits = low;
  } else {
    bits = arith::TruncIOp::create(b, loc, int_type, low);
  }
  if (type == int_type) return bits;
  return arith::BitcastOp::create(b, loc, type, bits);
}

}  // namespace kiln::compiler
