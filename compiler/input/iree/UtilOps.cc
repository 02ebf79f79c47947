// The util dialect: IREE's input ops for constants, barriers, module state (globals and
// initializers) and functions, with kiln's verifiers.
#include "compiler/input/iree/IreeDialects.h"

#include "llvm/ADT/TypeSwitch.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"

#include "compiler/input/iree/UtilOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "compiler/input/iree/UtilTypes.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "compiler/input/iree/UtilAttrs.cpp.inc"
#define GET_OP_CLASSES
#include "compiler/input/iree/UtilOps.cpp.inc"

namespace kiln::compiler::iree {

using namespace mlir;

void UtilDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "compiler/input/iree/UtilOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "compiler/input/iree/UtilTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "compiler/input/iree/UtilAttrs.cpp.inc"
      >();
}

LogicalResult UnfoldableConstantOp::inferReturnTypes(MLIRContext*, std::optional<Location>, ValueRange,
                                                     DictionaryAttr attributes, OpaqueProperties properties,
                                                     RegionRange, SmallVectorImpl<Type>& types) {
  const auto* props = properties.as<Properties*>();
  auto value = props ? dyn_cast_or_null<TypedAttr>(props->value) : nullptr;
  if (!value) return failure();
  types.push_back(value.getType());
  return success();
}

LogicalResult OptimizationBarrierOp::inferReturnTypes(MLIRContext*, std::optional<Location>, ValueRange operands,
                                                      DictionaryAttr, OpaqueProperties, RegionRange,
                                                      SmallVectorImpl<Type>& types) {
  for (Value operand : operands) types.push_back(operand.getType());
  return success();
}

// Globals ------------------------------------------------------------------------------------

// util.global [public|private|nested] [mutable] @name [attr-dict] [= initial-value] [: type]
// The type may be left out when the initial value carries it (dense<2.0> : tensor<f32>).
ParseResult GlobalOp::parse(OpAsmParser& parser, OperationState& result) {
  Builder& b = parser.getBuilder();
  StringRef visibility;
  if (succeeded(parser.parseOptionalKeyword(&visibility, {"public", "private", "nested"}))) {
    result.addAttribute(getSymVisibilityAttrName(result.name), b.getStringAttr(visibility));
  }
  if (succeeded(parser.parseOptionalKeyword("mutable"))) {
    result.addAttribute(getIsMutableAttrName(result.name), b.getUnitAttr());
  }
  StringAttr name;
  if (parser.parseSymbolName(name)) return failure();
  result.addAttribute(getSymNameAttrName(result.name), name);
  if (parser.parseOptionalAttrDict(result.attributes)) return failure();
  Attribute initial;
  if (succeeded(parser.parseOptionalEqual())) {
    if (parser.parseAttribute(initial)) return failure();
    result.addAttribute(getInitialValueAttrName(result.name), initial);
  }
  Type type;
  if (succeeded(parser.parseOptionalColon())) {
    if (parser.parseType(type)) return failure();
  } else if (auto typed = dyn_cast_or_null<TypedAttr>(initial)) {
    type = typed.getType();
  } else {
    return parser.emitError(parser.getCurrentLocation(), "expected ':' and the global's type");
  }
  result.addAttribute(getTypeAttrName(result.name), TypeAttr::get(type));
  return success();
}

void GlobalOp::print(OpAsmPrinter& p) {
  if (auto visibility = getSymVisibility()) p << ' ' << *visibility;
  if (getIsMutable()) p << " mutable";
  p << ' ';
  p.printSymbolName(getSymName());
  p.printOptionalAttrDict((*this)->getAttrs(), {getSymVisibilityAttrName(), getIsMutableAttrName(), getSymNameAttrName(),
                                                getInitialValueAttrName(), getTypeAttrName()});
  std::optional<Attribute> initial = getInitialValue();
  if (initial) {
    p << " = ";
    p.printAttribute(*initial);
  }
  auto typed = initial ? dyn_cast<TypedAttr>(*initial) : TypedAttr();
  if (!typed || typed.getType() != getType()) p << " : " << getType();
}

LogicalResult GlobalOp::verify() {
  Type type = getType();
  if (!isa<RankedTensorType>(type) && !type.isIntOrIndexOrFloat()) {
    return emitOpError() << "holds a value of type " << type
                         << "; kiln keeps ranked tensors, integers, index and floats in globals";
  }
  std::optional<Attribute> initial = getInitialValue();
  if (!initial || isa<UninitializedAttr>(*initial)) return success();
  if (AsNamedParameter(*initial)) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape()) {
      return emitOpError() << "binds a parameter to a value of type " << type
                           << "; a parameter fills a statically shaped tensor";
    }
    return success();
  }
  auto typed = dyn_cast<TypedAttr>(*initial);
  if (!typed) return emitOpError() << "has an initial value " << *initial << " kiln does not know";
  if (typed.getType() != type) {
    return emitOpError() << "has an initial value of type " << typed.getType() << " for a global of type " << type;
  }
  return success();
}

namespace {

// The util.global `name` refers to, or an error at `op`.
FailureOr<GlobalOp> LookupGlobal(Operation* op, SymbolTableCollection& symbols, FlatSymbolRefAttr name) {
  auto global = symbols.lookupNearestSymbolFrom<GlobalOp>(op, name);
  if (!global) return op->emitOpError() << "refers to " << name << ", which is not a util.global", failure();
  return global;
}

LogicalResult VerifyGlobalType(Operation* op, GlobalOp global, Type type, StringRef what) {
  if (type != global.getType()) {
    return op->emitOpError() << what << " type " << type << " does not match the type " << global.getType()
                             << " of global @" << global.getSymName();
  }
  return success();
}

}  // namespace

LogicalResult GlobalLoadOp::verifySymbolUses(SymbolTableCollection& symbols) {
  FailureOr<GlobalOp> global = LookupGlobal(*this, symbols, getGlobalAttr());
  if (failed(global)) return failure();
  return VerifyGlobalType(*this, *global, getType(), "result");
}

LogicalResult GlobalStoreOp::verifySymbolUses(SymbolTableCollection& symbols) {
  FailureOr<GlobalOp> global = LookupGlobal(*this, symbols, getGlobalAttr());
  if (failed(global)) return failure();
  // An initializer stays one after kiln-convert-util-ops makes it a func.func marked
  // kiln.initializer (compiler/dialect/KilnDialect.h, kInitializerAttr).
  Operation* fn = (*this)->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
  bool in_initializer = fn && (isa<InitializerOp>(fn) || fn->hasAttr("kiln.initializer"));
  if (!global->getIsMutable() && !in_initializer) {
    return emitOpError() << "stores global @" << global->getSymName()
                         << ", which is immutable; only a util.initializer may store it (declare it 'mutable')";
  }
  return VerifyGlobalType(*this, *global, getValue().getType(), "value");
}

LogicalResult GlobalAddressOp::verifySymbolUses(SymbolTableCollection& symbols) {
  FailureOr<GlobalOp> global = LookupGlobal(*this, symbols, getGlobalAttr());
  if (failed(global)) return failure();
  return VerifyGlobalType(*this, *global, getType().getTargetType(), "pointee");
}

// Functions ----------------------------------------------------------------------------------

ParseResult FuncOp::parse(OpAsmParser& parser, OperationState& result) {
  auto build = [](Builder& b, ArrayRef<Type> inputs, ArrayRef<Type> results, function_interface_impl::VariadicFlag,
                  std::string&) { return b.getFunctionType(inputs, results); };
  return function_interface_impl::parseFunctionOp(parser, result, /*allowVariadic=*/false,
                                                  getFunctionTypeAttrName(result.name), build,
                                                  getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter& p) {
  function_interface_impl::printFunctionOp(p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
                                           getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection& symbols) {
  Operation* callee = symbols.lookupNearestSymbolFrom(*this, getCalleeAttr());
  auto fn = dyn_cast_or_null<FunctionOpInterface>(callee);
  if (!fn) return emitOpError() << "calls " << getCalleeAttr() << ", which is not a function";
  auto type = cast<FunctionType>(fn.getFunctionType());
  if (type.getInputs() != getOperandTypes() || type.getResults() != getResultTypes()) {
    return emitOpError() << "calls " << getCalleeAttr() << " of type " << type << " with operands ("
                         << getOperandTypes() << ") and results (" << getResultTypes() << ")";
  }
  return success();
}

}  // namespace kiln::compiler::iree
