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
    // Bytes of the bounding shape, viewed with the sizes actually allocated.
    auto storage = memref::AllocaOp::create(rewriter, alloc.getLoc(), MemRefType::get({*bytes}, rewriter.getI8Type()),
                                            ValueRange{}, alignment);
    rewriter.setInsertionPoint(alloc);
    Value zero = arith::ConstantIndexOp::create(rewriter, alloc.getLoc(), 0);
    rewriter.replaceOpWithNewOp<memref::ViewOp>(alloc, type, storage, zero, alloc.getDynamicSizes());
  }
}

struct PlacePrivateBuffersPass : impl::PlacePrivateBuffersBase<PlacePrivateBuffersPass> {
  void runOnOperation() override {
    for (func::FuncOp fn : getOperation().getOps<func::FuncOp>()) PlaceInFunction(fn);
  }
};

}  // namespace
}  // namespace kiln::compiler::cpu
