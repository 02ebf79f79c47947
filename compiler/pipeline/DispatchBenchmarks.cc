#include "compiler/pipeline/DispatchBenchmarks.h"

#include <string>

#include "compiler/dialect/KilnDialect.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/OperationSupport.h"

namespace kiln::compiler {

namespace {

using namespace mlir;

// "8x4xf32=0": an --input for a tensor of `type`, with "?" for a size to choose; "i64=?"
// for a scalar.
std::string InputFlag(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor) {
    if (type.isIndex()) {
      os << "i64";  // index arguments take 64-bit values
    } else {
      os << type;
    }
    os << "=?";
    return text;
  }
  for (int64_t d : tensor.getShape()) {
    if (ShapedType::isDynamic(d)) {
      os << "?x";
    } else {
      os << d << "x";
    }
  }
  os << tensor.getElementType() << "=0";
  return text;
}

// The dispatch function `fn` (memref bindings, push constants, workgroup id and count) as a
// function on tensors in `module`, or why it cannot be. A push constant that is a dynamic
// size of an input binding becomes that input's tensor.dim; any other push constant the
// body reads (a size only an output has, an offset) becomes a scalar argument after the
// tensors.
FailureOr<func::FuncOp> Standalone(func::FuncOp fn, ModuleOp module, std::string& why) {
  auto binding_dims = fn->getAttrOfType<ArrayAttr>(kBindingDimsAttr);
  auto input_count = fn->getAttrOfType<IntegerAttr>(kInputCountAttr);
  size_t bindings = binding_dims.size(), inputs = input_count.getInt();
  // The last two arguments are the workgroup id and count; push constants come between.
  if (fn.getNumArguments() < bindings + 2) {
    why = "its signature is not a dispatch's";
    return failure();
  }
  size_t constants = fn.getNumArguments() - bindings - 2;
  for (size_t i = 0; i < bindings; ++i) {
    auto type = dyn_cast<MemRefType>(fn.getArgument(i).getType());
    if (!type || !type.getLayout().isIdentity()) {
      why = "a binding is not an identity-layout memref";
      return failure();
    }
  }
  for (size_t i = bindings + constants; i < fn.getNumArguments(); ++i) {
    if (!fn.getArgument(i).use_empty()) {
      why = "its body reads its workgroup id or count";
      return failure();
    }
  }
  OpBuilder b(module.getBodyRegion());
  auto clone = cast<func::FuncOp>(b.clone(*fn));
  Block& entry = clone.getBody().front();
  b.setInsertionPointToStart(&entry);
  SmallVector<Value> tensors(inputs);
  for (size_t i = 0; i < inputs; ++i) {
    auto type = cast<MemRefType>(clone.getArgument(i).getType());
    tensors[i] = entry.addArgument(RankedTensorType::get(type.getShape(), type.getElementType()),
                                   clone.getArgument(i).getLoc());
  }
  // Push constants: sizes of inputs first, then scalar arguments for the rest.
  for (size_t c = 0; c < constants; ++c) {
    BlockArgument constant = clone.getArgument(bindings + c);
    if (constant.use_empty()) continue;
    Value replacement;
    for (size_t i = 0; i < inputs && !replacement; ++i) {
      for (auto [d, index] : llvm::enumerate(cast<DenseI64ArrayAttr>(binding_dims[i]).asArrayRef())) {
        if (index != static_cast<int64_t>(c)) continue;
        Value size = tensor::DimOp::create(b, constant.getLoc(), tensors[i], d);
        replacement = constant.getType().isIndex()
                          ? size
                          : arith::IndexCastOp::create(b, constant.getLoc(), constant.getType(), size).getResult();
        break;
      }
    }
    if (!replacement) replacement = entry.addArgument(constant.getType(), constant.getLoc());
    constant.replaceAllUsesWith(replacement);
  }
  SmallVector<Value> results(bindings - inputs);
  SmallVector<Operation*> dead;
  for (size_t i = 0; i < bindings; ++i) {
    BlockArgument arg = clone.getArgument(i);
    for (Operation* user : arg.getUsers()) {
      if (auto to_tensor = dyn_cast<bufferization::ToTensorOp>(user); to_tensor && i < inputs) {
        to_tensor.getResult().replaceAllUsesWith(tensors[i]);
      } else if (auto store = dyn_cast<bufferization::MaterializeInDestinationOp>(user); store && i >= inputs) {
        results[i - inputs] = store.getSource();
      } else {
        why = "a binding is used other than read whole or written whole";
        clone.erase();
        return failure();
      }
      dead.push_back(user);
    }
    if (i >= inputs && !results[i - inputs]) {
      why = "an output binding is never written";
      clone.erase();
      return failure();
    }
  }
  for (Operation* op : dead) op->erase();
  Operation* terminator = entry.getTerminator();
  b.setInsertionPoint(terminator);
  func::ReturnOp::create(b, terminator->getLoc(), results);
  terminator->erase();
  llvm::BitVector erase(entry.getNumArguments());
  erase.set(0, fn.getNumArguments());
  if (failed(clone.eraseArguments(erase))) {
    why = "its arguments cannot be removed";
    clone.erase();
    return failure();
  }
  clone.setFunctionType(b.getFunctionType(entry.getArgumentTypes(), ValueRange(results).getTypes()));
  clone->setDiscardableAttrs(DictionaryAttr::get(clone.getContext()));
  clone.setPublic();
  return clone;
}

}  // namespace

LogicalResult DumpDispatchBenchmarks(ModuleOp executables, llvm::StringRef dir) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    return executables.emitError() << "cannot create --dump-dispatch-benchmarks directory '" << dir
                                   << "': " << ec.message();
  }
  for (func::FuncOp fn : executables.getOps<func::FuncOp>()) {
    if (!fn->hasAttr(kBindingDimsAttr) || !fn->hasAttr(kInputCountAttr)) continue;
    OwningOpRef<ModuleOp> module = ModuleOp::create(fn.getLoc());
    std::string why;
    FailureOr<func::FuncOp> standalone = Standalone(fn, *module, why);
    if (failed(standalone)) {
      fn.emitWarning() << "--dump-dispatch-benchmarks: dispatch '" << fn.getName() << "' is not written: " << why
                       << "; time it with kiln-benchmark-module --dispatches on real inputs";
      continue;
    }
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, fn.getName() + ".mlir");
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec) return fn.emitError() << "cannot write '" << path << "': " << ec.message();
    bool sized = llvm::all_of(standalone->getArgumentTypes(), [](Type type) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      return tensor && tensor.hasStaticShape();
    });
    os << "// Dispatch " << fn.getName();
    if (auto location = fn->getAttrOfType<StringAttr>(kSourceLocationAttr)) os << " of " << location.getValue();
    os << " as a program of its own. Time it with" << (sized ? "" : " (give each ? a value: the sizes and scalars the dispatch ran with)")
       << ":\n//   kiln-benchmark-module --module=" << path;
    for (Type type : standalone->getArgumentTypes()) os << " --input=" << InputFlag(type);
    os << "\n";
    // With locations, so that the dispatch keeps naming the source line it came from.
    module->print(os, OpPrintingFlags().enableDebugInfo(/*enable=*/true, /*prettyForm=*/false));
    os << "\n";
  }
  return success();
}

}  // namespace kiln::compiler
