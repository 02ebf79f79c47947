#include "compiler/pipeline/DispatchBenchmarks.h"

#include <string>

#include "compiler/dialect/KilnDialect.h"
#include "compiler/utils/EntryArguments.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

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

// The value of each push constant of `fn` from the words it ran with (EntryArguments.h:
// one word per index or narrow scalar, sign-extended for index; two for 64-bit ones), or
// why they cannot be.
FailureOr<SmallVector<TypedAttr>> ConstantValues(func::FuncOp fn, ArrayAttr binding_dims,
                                                 const std::vector<uint32_t>& words, std::string& why) {
  FailureOr<DispatchArguments> args = ReadDispatchArguments(fn, binding_dims);
  if (failed(args)) {
    why = "its signature is not a dispatch's";
    return failure();
  }
  if (static_cast<size_t>(args->words) != words.size()) {
    why = "it ran with " + std::to_string(words.size()) + " push-constant words; its signature takes " +
          std::to_string(args->words);
    return failure();
  }
  Builder b(fn.getContext());
  SmallVector<TypedAttr> values;
  for (auto [type, first] : llvm::zip(args->constant_types, args->word_of_constant)) {
    uint64_t bits = words[first];
    if (PushConstantWordCount(type) == 2) bits |= static_cast<uint64_t>(words[first + 1]) << 32;
    if (type.isIndex()) {
      values.push_back(b.getIndexAttr(static_cast<int32_t>(bits)));
      continue;
    }
    unsigned width = type.getIntOrFloatBitWidth();
    APInt value(width, bits, /*isSigned=*/false, /*implicitTrunc=*/true);
    if (auto float_type = dyn_cast<FloatType>(type)) {
      values.push_back(FloatAttr::get(type, APFloat(float_type.getFloatSemantics(), value)));
    } else {
      values.push_back(IntegerAttr::get(type, value));
    }
  }
  // Sizes: what a binding's dynamic dimension reads must be a size.
  for (Attribute dims : binding_dims) {
    for (int64_t index : cast<DenseI64ArrayAttr>(dims).asArrayRef()) {
      auto size = index >= 0 ? dyn_cast<IntegerAttr>(values[index]) : IntegerAttr();
      if (index >= 0 && (!size || size.getInt() < 0)) {
        why = "push constant " + std::to_string(index) + ", a size, ran with a negative or non-integer value";
        return failure();
      }
    }
  }
  return values;
}

// The dispatch function `fn` (memref bindings, push constants, workgroup id and count) as a
// function on tensors in `module`, or why it cannot be. A push constant that is a dynamic
// size of an input binding becomes that input's tensor.dim; any other push constant the
// body reads (a size only an output has, an offset) becomes a scalar argument after the
// tensors.
//
// With `values` (what each push constant held when the dispatch ran: ConstantValues) every
// push constant is that value instead: input and output tensors take the sizes they had,
// and nothing is left to choose.
FailureOr<func::FuncOp> Standalone(func::FuncOp fn, ModuleOp module, ArrayRef<TypedAttr> values,
                                   bool specialise, std::string& why) {
  auto binding_dims = fn->getAttrOfType<ArrayAttr>(kBindingDimsAttr);
  auto input_count = fn->getAttrOfType<IntegerAttr>(kInputCountAttr);
  size_t bindings = binding_dims.size(), inputs = input_count.getInt();
  // The last two arguments are the workgroup id and count; push constants come between.
  if (fn.getNumArguments() < bindings + 2) {
    why = "its signature is not a dispatch's";
    return failure();
  }
  size_t constants = fn.getNumArguments() - bindings - 2;
  // A binding's type with the sizes its push constants held (or as declared, without words).
  auto concrete = [&](size_t i) {
    auto type = cast<MemRefType>(fn.getArgument(i).getType());
    SmallVector<int64_t> shape(type.getShape());
    if (specialise) {
      for (auto [d, index] : llvm::enumerate(cast<DenseI64ArrayAttr>(binding_dims[i]).asArrayRef())) {
        if (index >= 0) shape[d] = cast<IntegerAttr>(values[index]).getInt();
      }
    }
    return RankedTensorType::get(shape, type.getElementType());
  };
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
    tensors[i] = entry.addArgument(concrete(i), clone.getArgument(i).getLoc());
  }
  // Push constants: the values they ran with; without those, sizes of inputs first, then
  // scalar arguments for the rest.
  for (size_t c = 0; c < constants; ++c) {
    BlockArgument constant = clone.getArgument(bindings + c);
    if (constant.use_empty()) continue;
    Value replacement;
    if (specialise) replacement = arith::ConstantOp::create(b, constant.getLoc(), values[c]);
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
        b.setInsertionPoint(to_tensor);
        Value input = tensors[i];
        if (input.getType() != to_tensor.getType()) {
          input = tensor::CastOp::create(b, to_tensor.getLoc(), to_tensor.getType(), input);
        }
        to_tensor.getResult().replaceAllUsesWith(input);
      } else if (auto store = dyn_cast<bufferization::MaterializeInDestinationOp>(user); store && i >= inputs) {
        b.setInsertionPoint(store);
        Value result = store.getSource();
        if (RankedTensorType type = concrete(i); type != result.getType()) {
          result = tensor::CastOp::create(b, store.getLoc(), type, result);
        }
        results[i - inputs] = result;
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

// Writes `fn` as a standalone program to DIR/FILE (with `words`, specialised to them); a
// dispatch that cannot be written gets a warning, an unwritable file an error.
LogicalResult WriteBenchmark(func::FuncOp fn, llvm::StringRef dir, llvm::StringRef file,
                             const std::vector<uint32_t>* words) {
  OwningOpRef<ModuleOp> module = ModuleOp::create(fn.getLoc());
  std::string why;
  FailureOr<SmallVector<TypedAttr>> values = SmallVector<TypedAttr>();
  if (words) values = ConstantValues(fn, fn->getAttrOfType<ArrayAttr>(kBindingDimsAttr), *words, why);
  FailureOr<func::FuncOp> standalone =
      succeeded(values) ? Standalone(fn, *module, *values, words != nullptr, why) : FailureOr<func::FuncOp>(failure());
  if (failed(standalone)) {
    fn.emitWarning() << "--dump-dispatch-benchmarks: dispatch '" << fn.getName() << "' is not written: " << why
                     << "; time it with kiln-benchmark-module --dispatches on real inputs";
    return success();
  }
  if (words) {
    // The constants fold into the ops: static shapes throughout, as a compiler given these
    // sizes would see them.
    PassManager pm(module->getContext());
    pm.addPass(createCanonicalizerPass());
    if (failed(pm.run(*module))) return fn.emitError() << "cannot simplify dispatch '" << fn.getName() << "'";
  }
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, file);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) return fn.emitError() << "cannot write '" << path << "': " << ec.message();
  bool sized = llvm::all_of(standalone->getArgumentTypes(), [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && tensor.hasStaticShape();
  });
  os << "// Dispatch " << fn.getName();
  if (auto location = fn->getAttrOfType<StringAttr>(kSourceLocationAttr)) os << " of " << location.getValue();
  if (words) {
    os << " with the push constants it ran with (";
    llvm::interleaveComma(*values, os);
    os << ")";
  }
  os << " as a program of its own. Time it with"
     << (sized ? "" : " (give each ? a value: the sizes and scalars the dispatch ran with)")
     << ":\n//   kiln-benchmark-module --module=" << path;
  for (Type type : standalone->getArgumentTypes()) os << " --input=" << InputFlag(type);
  os << "\n";
  // With locations, so that the dispatch keeps naming the source line it came from.
  module->print(os, OpPrintingFlags().enableDebugInfo(/*enable=*/true, /*prettyForm=*/false));
  os << "\n";
  return success();
}

LogicalResult CreateDirectory(ModuleOp executables, llvm::StringRef dir) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    return executables.emitError() << "cannot create --dump-dispatch-benchmarks directory '" << dir
                                   << "': " << ec.message();
  }
  return success();
}

bool IsDispatch(func::FuncOp fn) { return fn->hasAttr(kBindingDimsAttr) && fn->hasAttr(kInputCountAttr); }

}  // namespace

LogicalResult DumpDispatchBenchmarks(ModuleOp executables, llvm::StringRef dir) {
  if (failed(CreateDirectory(executables, dir))) return failure();
  for (func::FuncOp fn : executables.getOps<func::FuncOp>()) {
    if (IsDispatch(fn) && failed(WriteBenchmark(fn, dir, (fn.getName() + ".mlir").str(), nullptr))) return failure();
  }
  return success();
}

LogicalResult DumpDispatchBenchmarksOfRun(ModuleOp executables, llvm::StringRef dir, const DispatchRuns& runs) {
  if (failed(CreateDirectory(executables, dir))) return failure();
  for (const auto& [name, word_lists] : runs) {
    auto fn = executables.lookupSymbol<func::FuncOp>(name);
    if (!fn || !IsDispatch(fn)) {
      return executables.emitError() << "the call ran dispatch '" << name
                                     << "', which compiling the source again does not make";
    }
    for (auto [n, words] : llvm::enumerate(word_lists)) {
      std::string file = n == 0 ? (name + ".mlir") : (name + "." + std::to_string(n + 1) + ".mlir");
      if (failed(WriteBenchmark(fn, dir, file, &words))) return failure();
    }
  }
  return success();
}

}  // namespace kiln::compiler
