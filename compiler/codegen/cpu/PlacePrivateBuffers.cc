#include "compiler/codegen/cpu/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DEF_PLACEPRIVATEBUFFERS
#include "compiler/codegen/cpu/Passes.h.inc"

namespace {

using namespace mlir;

// One temporary larger than this stays on the heap; so do the temporaries of a function
// past the total, which bounds a kernel's stack use well below a worker's stack.
constexpr int64_t kMaxPrivateBufferBytes = 64 << 10;
constexpr int64_t kMaxPrivateBytesPerFunction = 256 << 10;

// The static shape that holds every shape `alloc` can have, if there is one.
std::optional<SmallVector<int64_t>> BoundingShape(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  SmallVector<int64_t> shape;
  auto dynamic_sizes = alloc.getDynamicSizes();
  size_t next_dynamic = 0;
  for (int64_t size : type.getShape()) {
    if (!ShapedType::isDynamic(size)) {
      shape.push_back(size);
      continue;
    }
    FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
        presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(dynamic_sizes[next_dynamic++]),
        /*stopCondition=*/nullptr, /*closedUB=*/true);
    if (failed(bound) || *bound < 0) return std::nullopt;
    shape.push_back(*bound);
  }
  return shape;
}

std::optional<int64_t> ByteSize(Type element, ArrayRef<int64_t> shape) {
  if (!element.isIntOrFloat()) return std::nullopt;
  int64_t bytes = llvm::divideCeil(element.getIntOrFloatBitWidth(), 8);
  for (int64_t size : shape) {
    if (size > kMaxPrivateBufferBytes) return std::nullopt;
    bytes *= size;
    if (bytes > kMaxPrivateBufferBytes) return std::nullopt;
  }
  return bytes;
}

// Replaces `alloc` by a view of `storage` (a flat stack buffer large enough for it) with
// the alloc's type: identity layout, sizes as allocated.
void ReplaceWithView(RewriterBase& rewriter, memref::AllocOp alloc, Value storage) {
  MemRefType type = alloc.getType();
  Location loc = alloc.getLoc();
  rewriter.setInsertionPoint(alloc);
  SmallVector<OpFoldResult> sizes = getMixedValues(type.getShape(), alloc.getDynamicSizes(), rewriter);
  SmallVector<OpFoldResult> strides(sizes.size());
  OpFoldResult stride = rewriter.getIndexAttr(1);
  for (size_t d = sizes.size(); d-- > 0;) {
    strides[d] = stride;
    std::optional<int64_t> constant_stride = getConstantIntValue(stride);
    std::optional<int64_t> constant_size = getConstantIntValue(sizes[d]);
    if (constant_stride && constant_size) {
      stride = rewriter.getIndexAttr(*constant_stride * *constant_size);
    } else {
      stride = arith::MulIOp::create(rewriter, loc, getValueOrCreateConstantIndexOp(rewriter, loc, stride),
                                     getValueOrCreateConstantIndexOp(rewriter, loc, sizes[d]))
                   .getResult();
    }
  }
  Value view = memref::ReinterpretCastOp::create(rewriter, loc, type, storage, rewriter.getIndexAttr(0), sizes, strides);
  rewriter.replaceOp(alloc, view);
}

void PlaceInFunction(func::FuncOp fn) {
  if (fn.isDeclaration()) return;
  IRRewriter rewriter(fn.getContext());
  Block& entry = fn.getBody().front();
  int64_t placed_bytes = 0;
  SmallVector<memref::AllocOp> allocs;
  fn.walk([&](memref::AllocOp alloc) { allocs.push_back(alloc); });
  for (memref::AllocOp alloc : allocs) {
    MemRefType type = alloc.getType();
    if (!type.getLayout().isIdentity() || type.getMemorySpace()) continue;
    std::optional<SmallVector<int64_t>> shape = BoundingShape(alloc);
    if (!shape) continue;
    std::optional<int64_t> bytes = ByteSize(type.getElementType(), *shape);
    if (!bytes || placed_bytes + *bytes > kMaxPrivateBytesPerFunction) continue;
    placed_bytes += *bytes;
    // Heap deallocation of a stack buffer would be wrong; nothing else may free it.
    for (Operation* user : llvm::make_early_inc_range(alloc->getUsers())) {
      if (isa<memref::DeallocOp>(user)) rewriter.eraseOp(user);
    }
    rewriter.setInsertionPointToStart(&entry);
    IntegerAttr alignment = alloc.getAlignmentAttr() ? alloc.getAlignmentAttr() : rewriter.getI64IntegerAttr(64);
    if (type.hasStaticShape()) {
      auto storage = memref::AllocaOp::create(rewriter, alloc.getLoc(), type, ValueRange{}, alignment);
      rewriter.replaceOp(alloc, storage);
      continue;
    }
    int64_t elements = 1;
    for (int64_t size : *shape) elements *= size;
    auto flat = MemRefType::get({elements}, type.getElementType());
    auto storage = memref::AllocaOp::create(rewriter, alloc.getLoc(), flat, ValueRange{}, alignment);
    ReplaceWithView(rewriter, alloc, storage);
  }
}

struct PlacePrivateBuffersPass : impl::PlacePrivateBuffersBase<PlacePrivateBuffersPass> {
  void runOnOperation() override {
    for (func::FuncOp fn : getOperation().getOps<func::FuncOp>()) PlaceInFunction(fn);
  }
};

}  // namespace
}  // namespace kiln::compiler::cpu
