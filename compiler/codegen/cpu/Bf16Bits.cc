// kiln-cpu-load-bf16-as-bits: loads and stores of bf16 values (scalars and vectors) in the
// LLVM dialect move their bits as i16, and the module defines __truncsfbf2 for the moves
// that remain. Without AVX512_BF16, LLVM's x86 backend keeps a bf16 value promoted to f32
// and rounds it back through compiler-rt's __truncsfbf2 before a bitcast, a store or a
// block argument, and kernels do not link compiler-rt; kernels only compute in f32
// (arith-emulate-unsupported-floats, kiln-cpu-expand-arith), so every bf16 value is moved,
// never computed on, and the rounding is exact.
#include "compiler/codegen/cpu/Passes.h"
#include "compiler/utils/SmallFloats.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DEF_LOADBF16ASBITS
#include "compiler/codegen/cpu/Passes.h.inc"

namespace {

using namespace mlir;

struct LoadBits : OpRewritePattern<LLVM::LoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LLVM::LoadOp load, PatternRewriter& rewriter) const override {
    Type bits = Bf16BitsType(load.getType());
    if (!bits) return failure();
    auto loaded = cast<LLVM::LoadOp>(rewriter.clone(*load));
    loaded.getResult().setType(bits);
    rewriter.replaceOpWithNewOp<LLVM::BitcastOp>(load, load.getType(), loaded.getResult());
    return success();
  }
};

struct StoreBits : OpRewritePattern<LLVM::StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LLVM::StoreOp store, PatternRewriter& rewriter) const override {
    Type bits = Bf16BitsType(store.getValue().getType());
    if (!bits) return failure();
    Value value = LLVM::BitcastOp::create(rewriter, store.getLoc(), bits, store.getValue());
    rewriter.modifyOpInPlace(store, [&] { store.getValueMutable().set(value); });
    return success();
  }
};

// Defines __truncsfbf2 (f32 to bf16, round to nearest even, NaN kept quiet) in `module`,
// weak and hidden: the calls LLVM's backend makes bind to it inside the kernel's object.
void DefineTruncSfBf2(ModuleOp module) {
  constexpr llvm::StringLiteral kName = "__truncsfbf2";
  if (module.lookupSymbol(kName)) return;
  MLIRContext* ctx = module.getContext();
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  Location loc = module.getLoc();
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  auto fn = LLVM::LLVMFuncOp::create(b, loc, kName, LLVM::LLVMFunctionType::get(b.getBF16Type(), {f32}),
                                     LLVM::Linkage::Weak);
  fn.setVisibility_(LLVM::Visibility::Hidden);
  b.setInsertionPointToStart(fn.addEntryBlock(b));
  auto constant = [&](int64_t v) { return LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(v)); };
  Value bits = LLVM::BitcastOp::create(b, loc, i32, fn.getArgument(0));
  Value high = LLVM::LShrOp::create(b, loc, bits, constant(16));
  Value odd = LLVM::AndOp::create(b, loc, high, constant(1));
  Value bias = LLVM::AddOp::create(b, loc, constant(0x7fff), odd);
  Value rounded = LLVM::LShrOp::create(b, loc, LLVM::AddOp::create(b, loc, bits, bias), constant(16));
  Value magnitude = LLVM::AndOp::create(b, loc, bits, constant(0x7fffffff));
  Value nan = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ugt, magnitude, constant(0x7f800000));
  Value quiet = LLVM::OrOp::create(b, loc, high, constant(0x40));
  Value result = LLVM::SelectOp::create(b, loc, nan, quiet, rounded);
  Value half = LLVM::TruncOp::create(b, loc, b.getI16Type(), result);
  LLVM::ReturnOp::create(b, loc, ValueRange{LLVM::BitcastOp::create(b, loc, b.getBF16Type(), half)});
}

struct LoadBf16AsBitsPass : impl::LoadBf16AsBitsBase<LoadBf16AsBitsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<LoadBits, StoreBits>(&getContext());
    LLVM::BitcastOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) return signalPassFailure();
    // Always: the backend's calls come from values it promotes (block arguments, vectors
    // built from bits), not from ops one can look for; unused, the weak definition costs
    // a few bytes.
    DefineTruncSfBf2(getOperation());
  }
};

}  // namespace
}  // namespace kiln::compiler::cpu
