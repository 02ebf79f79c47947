#include "compiler/host/HostModuleWriter.h"

#include <cstring>
#include <optional>

#include "compiler/dialect/KilnDialect.h"
#include "compiler/host/TransientPlan.h"
#include "compiler/input/iree/IreeDialects.h"
#include "compiler/utils/Locations.h"
#include "compiler/utils/SubByteStorage.h"
#include "hal/buffer.h"
#include "hal/element_type.h"
#include "llvm/ADT/StringMap.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "vm/builder.h"
#include "vm/module.h"

namespace kiln::compiler {

namespace {

using namespace mlir;
using vm::FunctionBuilder;
using vm::ModuleBuilder;
using vm::Opcode;
using vm::Reg;

constexpr uint64_t kResultMemory = static_cast<uint64_t>(hal::MemoryType::kDeviceLocal | hal::MemoryType::kHostVisible);
constexpr uint64_t kResultUsage = static_cast<uint64_t>(hal::BufferUsage::kDefault | hal::BufferUsage::kMapping);
// Transients stay mappable: the host may read one (tensor.extract) before it dies.
constexpr uint64_t kTransientMemory = kResultMemory;
constexpr uint64_t kTransientUsage = kResultUsage;

// The functions of the "hal" native module the host program imports, with the signatures
// hal/module/hal_module.cc declares (the loader checks that they agree).
const llvm::StringMap<const char*>& HalSignatures() {
  static const llvm::StringMap<const char*> signatures = {
      {"device.query", "i:I"},
      {"allocator.allocate", "iiI:r"},
      {"allocator.allocate_initialized", "rIIii:r"},
      {"buffer.length", "r:I"},
      {"buffer.subspan", "rII:r"},
      {"buffer.load", "rIi:I"},
      {"buffer_view.create", "ri[I]:r"},
      {"buffer_view.assert", "ri[I]:"},
      {"buffer_view.buffer", "r:r"},
      {"buffer_view.dim", "ri:I"},
      {"command_buffer.create", ":r"},
      {"command_buffer.finalize", "r:"},
      {"command_buffer.barrier", "r:"},
      {"command_buffer.fill", "rrIIIi:"},
      {"command_buffer.push_constants", "r[i]:"},
      {"command_buffer.dispatch", "rriiii[rII]:"},
      {"executable.lookup", "i:r"},
      {"fence.create", ":r"},
      {"fence.await", "i[r]:"},
      {"device.queue.execute", "rrr:"},
  };
  return signatures;
}

// Imports from the runtime's check module (runtime/check_module.h); the last argument of
// each is the check's source location as a vm.buffer of text.
const llvm::StringMap<const char*>& CheckSignatures() {
  static const llvm::StringMap<const char*> signatures = {
      {"expect_true", "ir:"},     {"expect_false", "ir:"},           {"expect_all_true", "rr:"},
      {"expect_eq", "rrr:"},      {"expect_almost_eq", "rrffr:"},
  };
  return signatures;
}

// Imports from the runtime's params module (runtime/parameters_module.h): a global's value
// from a parameter file.
const llvm::StringMap<const char*>& ParamsSignatures() {
  static const llvm::StringMap<const char*> signatures = {{"load", "rri[I]:r"}};
  return signatures;
}

// The VM signature letter of a host value of `type`.
std::optional<char> SignatureLetter(Type type) {
  if (isa<RankedTensorType>(type)) return 'r';
  if (type.isIndex()) return 'I';
  if (auto i = dyn_cast<IntegerType>(type)) {
    if (i.getWidth() <= 32) return 'i';
    if (i.getWidth() == 64) return 'I';
  }
  if (type.isF32()) return 'f';
  if (type.isF64()) return 'F';
  return std::nullopt;
}

bool IsWide(Type type) { return type.isIndex() || type.isInteger(64) || type.isF64(); }

std::optional<hal::ElementType> ElementTypeOf(Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  type.print(os);
  return hal::ParseElementType(name);
}


// The bytes of a dense constant as buffers store them (i1 a byte each, sub-byte elements
// packed or a byte each: SubByteStorage.h).
std::vector<uint8_t> DenseBytes(DenseElementsAttr dense, int64_t element_bytes) {
  if (IsPackedSubByte(dense.getType())) {
    // The attribute keeps a sub-byte element in a byte; buffers pack them, low bits first.
    Type element = dense.getElementType();
    int64_t width = element.getIntOrFloatBitWidth(), per_byte = ElementsPerByte(element);
    ArrayRef<char> raw = dense.getRawData();
    std::vector<uint8_t> packed(dense.getNumElements() / per_byte, 0);
    for (int64_t i = 0; i < dense.getNumElements(); ++i) {
      uint8_t bits = static_cast<uint8_t>(raw[dense.isSplat() ? 0 : i]) & ((1u << width) - 1);
      packed[i / per_byte] |= static_cast<uint8_t>(bits << ((i % per_byte) * width));
    }
    return packed;
  }
  std::vector<uint8_t> bytes;
  bytes.reserve(dense.getNumElements() * element_bytes);
  if (dense.getElementType().isInteger(1)) {
    for (bool b : dense.getValues<bool>()) bytes.push_back(b ? 1 : 0);
    return bytes;
  }
  ArrayRef<char> raw = dense.getRawData();
  for (int64_t i = 0; i < dense.getNumElements(); ++i) {
    const char* element = raw.data() + (dense.isSplat() ? 0 : i * element_bytes);
    bytes.insert(bytes.end(), element, element + element_bytes);
  }
  return bytes;
}

// The bits of a scalar constant in its VM slot: i1 zero-extended, other integers
// sign-extended, floats as their bit pattern.
std::optional<uint64_t> ScalarBits(Attribute value) {
  if (auto i = dyn_cast<IntegerAttr>(value)) {
    return i.getType().isInteger(1) ? i.getValue().getZExtValue() : static_cast<uint64_t>(i.getValue().getSExtValue());
  }
  if (auto f = dyn_cast<FloatAttr>(value)) return f.getValue().bitcastToAPInt().getZExtValue();
  return std::nullopt;
}

class FunctionWriter;

class HostWriter {
 public:
  // `executables` are one executable for several targets: the same name and exports, one
  // binary each; the first one's exports describe them all.
  HostWriter(ModuleOp module, ArrayRef<HostExecutable> executables)
      : module_(module), executables_(executables), executable_(executables.front()),
        builder_(module.getName().value_or("module").str()) {}

  FailureOr<std::vector<uint8_t>> Write();

  // `name` is "hal.<function>", "check.<function>" or "params.<function>".
  uint32_t Import(llvm::StringRef name) {
    auto it = imports_.find(name);
    if (it != imports_.end()) return it->second;
    auto [module, function] = name.split('.');
    const char* signature = module == "check"    ? CheckSignatures().lookup(function)
                            : module == "params" ? ParamsSignatures().lookup(function)
                                                 : HalSignatures().lookup(function);
    uint32_t ordinal = builder_.AddImport(name.str(), signature);
    imports_[name] = ordinal;
    return ordinal;
  }
  // The rodata segment holding `text` (one per distinct text).
  uint32_t TextRodata(llvm::StringRef text) {
    auto it = text_rodata_.find(text);
    if (it != text_rodata_.end()) return it->second;
    uint32_t segment = builder_.AddRodata(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()),
                                                                   text.size()),
                                          false);
    text_rodata_[text] = segment;
    return segment;
  }
  ModuleBuilder& builder() { return builder_; }
  std::optional<uint32_t> FunctionOrdinal(llvm::StringRef name) const {
    auto it = function_ordinals_.find(name);
    if (it == function_ordinals_.end()) return std::nullopt;
    return it->second;
  }
  std::optional<uint32_t> ExportOrdinal(llvm::StringRef name) const {
    for (size_t i = 0; i < executable_.exports.size(); ++i) {
      if (executable_.exports[i].name == name) return i;
    }
    return std::nullopt;
  }
  const HostExecutableExport& Export(uint32_t ordinal) const { return executable_.exports[ordinal]; }
  // Where a util.global lives in the VM's global storage.
  struct GlobalSlot {
    iree::GlobalOp op;
    enum class Kind { kRef, kI32, kI64 } kind;
    uint32_t slot;
  };
  const GlobalSlot* Global(llvm::StringRef name) const {
    auto it = globals_.find(name);
    return it == globals_.end() ? nullptr : &it->second;
  }
  // The global holding the uploaded constant, and its rodata segment.
  std::pair<uint32_t, uint32_t> ConstantGlobal(arith::ConstantOp op, std::span<const uint8_t> bytes) {
    auto it = constant_globals_.find(op);
    if (it != constant_globals_.end()) return it->second;
    auto entry = std::make_pair(builder_.AddGlobalRef(), builder_.AddRodata(bytes, bytes.size() >= 4096));
    constant_globals_[op] = entry;
    return entry;
  }

 private:
  ModuleOp module_;
  ArrayRef<HostExecutable> executables_;
  const HostExecutable& executable_;
  ModuleBuilder builder_;
  llvm::StringMap<uint32_t> imports_;
  llvm::StringMap<uint32_t> text_rodata_;
  llvm::StringMap<uint32_t> function_ordinals_;
  llvm::DenseMap<Operation*, std::pair<uint32_t, uint32_t>> constant_globals_;
  llvm::StringMap<GlobalSlot> globals_;

  LogicalResult AssignGlobalSlots();
  LogicalResult WriteInitializer();
};

class FunctionWriter {
 public:
  FunctionWriter(HostWriter& host, func::FuncOp fn, FunctionBuilder& f) : host_(host), fn_(fn), f_(f) {}

  // The body of the module's initializer: in module order, each global's initial value
  // (constants uploaded, parameters loaded, uninitialized tensors allocated) and each
  // util.initializer (a kiln.initializer function) called.
  LogicalResult WriteModuleInitializer(ModuleOp module) {
    for (Operation& op : module.getBody()->getOperations()) {
      f_.Location(LocationString(op.getLoc()));
      if (auto global = dyn_cast<iree::GlobalOp>(op)) {
        if (failed(InitializeGlobal(global))) return failure();
      } else if (auto fn = dyn_cast<func::FuncOp>(op); fn && fn->hasAttr(kInitializerAttr)) {
        std::optional<uint32_t> ordinal = host_.FunctionOrdinal(fn.getName());
        if (!ordinal) return fn.emitError() << "initializer was not written", failure();
        f_.Call(*ordinal, {}, {});
      }
    }
    Flush();
    f_.Return({});
    return success();
  }

  LogicalResult Write() {
    for (Block& block : fn_.getBody()) {
      blocks_[&block] = block.isEntryBlock() ? FunctionBuilder::Block{0} : f_.NewBlock();
    }
    for (Block& block : fn_.getBody()) {
      if (!block.isEntryBlock()) {
        f_.Bind(blocks_[&block]);
        for (BlockArgument arg : block.getArguments()) {
          if (!regs_.count(arg) && failed(NewRegister(arg))) return failure();
        }
      } else {
        if (failed(BindArguments(block))) return failure();
        // Every block may dispatch: the executable and the worker count are read once here.
        if (fn_->walk([](DispatchOp) { return WalkResult::interrupt(); }).wasInterrupted()) {
          Executable();
          WorkerCount();
        }
      }
      // One slab for the block's transients, allocated as the block starts.
      transients_ = PlanTransients(block, [](RankedTensorType type) { return StoredTensorBytes(type); });
      if (transients_.slab_bytes > 0) {
        slab_ = f_.NewRef();
        Call("allocator.allocate",
             {ConstI32(kTransientMemory), ConstI32(kTransientUsage), ConstI64(transients_.slab_bytes)}, {slab_});
      }
      for (Operation& op : block) {
        f_.Location(LocationString(op.getLoc()));
        if (failed(WriteOp(&op))) return failure();
      }
    }
    return success();
  }

 private:
  // Registers --------------------------------------------------------------------------
  FailureOr<Reg> NewRegister(Value v) {
    Type type = v.getType();
    std::optional<char> letter = SignatureLetter(type);
    if (!letter) {
      return emitError(v.getLoc()) << "a value of type " << type
                                   << " cannot live on the host; expected a ranked tensor, index, integer of at "
                                      "most 32 or exactly 64 bits, f32 or f64",
             failure();
    }
    Reg r = *letter == 'r' ? f_.NewRef() : IsWide(type) ? f_.NewI64() : f_.NewI32();
    regs_[v] = r;
    return r;
  }
  Reg Get(Value v) { return regs_.lookup(v); }
  Reg ConstI32(int64_t value) {
    Reg r = f_.NewI32();
    f_.Emit(Opcode::kConstI32, {r.index(), static_cast<uint64_t>(value) & 0xffffffffu});
    return r;
  }
  Reg ConstI64(int64_t value) {
    Reg r = f_.NewI64();
    f_.Emit(Opcode::kConstI64, {r.index(), static_cast<uint64_t>(value)});
    return r;
  }
  Reg Binary(Opcode opcode, Reg a, Reg b, bool wide) {
    Reg r = wide ? f_.NewI64() : f_.NewI32();
    f_.Emit(opcode, {r.index(), a.index(), b.index()});
    return r;
  }
  // Calls hal.<name>.
  void Call(llvm::StringRef name, std::vector<Reg> args, std::vector<Reg> results = {}) {
    f_.CallImport(host_.Import(("hal." + name).str()), args, results);
  }

  // Arguments ----------------------------------------------------------------------------
  LogicalResult BindArguments(Block& entry) {
    for (auto [i, arg] : llvm::enumerate(entry.getArguments())) regs_[arg] = f_.args()[i];
    for (BlockArgument arg : entry.getArguments()) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type) continue;
      f_.Location(LocationString(arg.getLoc()));
      FailureOr<Reg> element = ElementTypeConstant(type, arg.getLoc(), /*packed=*/fn_.isPublic());
      if (failed(element)) return failure();
      std::vector<Reg> args = {Get(arg), *element};
      std::vector<Reg> dims = Dims(arg);
      args.insert(args.end(), dims.begin(), dims.end());
      Call("buffer_view.assert", args);
    }
    return success();
  }

  // The element type of buffer views of `type`: sub-byte elements stored a byte each are
  // views of that storage (i8), except `packed` ones (a public function's arguments and
  // results); packed sub-byte tensors are views of their own type.
  FailureOr<Reg> ElementTypeConstant(RankedTensorType type, Location loc, bool packed = false) {
    Type stored = HasByteStoredSubByteElements(type) && !packed ? IntegerType::get(type.getContext(), 8)
                                                                : type.getElementType();
    std::optional<hal::ElementType> element = ElementTypeOf(stored);
    if (!element || !StoredElementBytes(type.getElementType())) {
      return emitError(loc) << "tensors of " << type.getElementType()
                            << " in buffers are not supported yet (complex elements); "
                               "keep them inside one dispatch, or split them first",
             failure();
    }
    return ConstI32(static_cast<int64_t>(*element));
  }

  // The dims of a tensor value as I64 registers.
  std::vector<Reg> Dims(Value tensor) {
    auto type = cast<RankedTensorType>(tensor.getType());
    std::vector<Reg> dims;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (type.isDynamicDim(d)) {
        Reg dim = f_.NewI64();
        Call("buffer_view.dim", {Get(tensor), ConstI32(d)}, {dim});
        dims.push_back(dim);
      } else {
        dims.push_back(ConstI64(type.getDimSize(d)));
      }
    }
    return dims;
  }

  // A new view of `buffer` with `type` and `dims` into `result`.
  LogicalResult CreateView(Reg buffer, RankedTensorType type, std::vector<Reg> dims, Reg result, Location loc,
                           bool packed = false) {
    FailureOr<Reg> element = ElementTypeConstant(type, loc, packed);
    if (failed(element)) return failure();
    std::vector<Reg> args = {buffer, *element};
    args.insert(args.end(), dims.begin(), dims.end());
    Call("buffer_view.create", args, {result});
    return success();
  }

  // The bytes a tensor of `type` with `dims` takes in a buffer.
  Reg ByteSize(RankedTensorType type, const std::vector<Reg>& dims) {
    if (IsPackedSubByte(type)) {
      // Whole bytes a row: the innermost dimension (static) in bytes.
      Reg size = ConstI64(type.getShape().back() / ElementsPerByte(type.getElementType()));
      for (size_t d = 0; d + 1 < dims.size(); ++d) size = Binary(Opcode::kMulI64, size, dims[d], true);
      return size;
    }
    Reg size = ConstI64(*StoredElementBytes(type.getElementType()));
    for (Reg d : dims) size = Binary(Opcode::kMulI64, size, d, true);
    return size;
  }

  // Pending device work --------------------------------------------------------------------
  Reg CommandBuffer() {
    if (pending_) {
      Call("command_buffer.barrier", {command_buffer_});
      return command_buffer_;
    }
    command_buffer_ = f_.NewRef();
    Call("command_buffer.create", {}, {command_buffer_});
    pending_ = true;
    return command_buffer_;
  }
  void Flush() {
    if (!pending_) return;
    pending_ = false;
    SubmitAndWait(command_buffer_);
  }
  void SubmitAndWait(Reg command_buffer) {
    Reg fence = f_.NewRef(), none = f_.NewRef();
    Call("command_buffer.finalize", {command_buffer});
    Call("fence.create", {}, {fence});
    f_.Emit(Opcode::kConstRefNull, {none.index()});
    Call("device.queue.execute", {none, fence, command_buffer});
    Call("fence.await", {ConstI32(-1), fence});
  }
  Reg Executable() {
    if (!executable_) {
      executable_ = f_.NewRef();
      Call("executable.lookup", {ConstI32(0)}, {*executable_});
    }
    return *executable_;
  }
  // A distributed dispatch's workgroups: one per worker, or fewer when fewer have work
  // (at least one: a dispatch of zero workgroups is not launched the same on every driver).
  Reg WorkgroupCount(const HostExecutableExport& exported, const std::vector<Reg>& words) {
    const std::optional<WorkgroupBound>& bound = exported.workgroup_bound;
    if (!bound || bound->divisor <= 0 || bound->word >= static_cast<int64_t>(words.size())) return WorkerCount();
    Reg useful;
    if (bound->word < 0) {
      int64_t count = std::max<int64_t>(1, llvm::divideCeil(bound->extent, bound->divisor));
      useful = ConstI32(static_cast<int32_t>(std::min<int64_t>(count, INT32_MAX)));
    } else {
      // ceil(word / divisor), from unsigned 32-bit words: (word + divisor - 1) would wrap.
      Reg divisor = ConstI32(static_cast<int32_t>(bound->divisor));
      Reg quotient = Binary(Opcode::kDivI32U, words[bound->word], divisor, false);
      Reg remainder = Binary(Opcode::kRemI32U, words[bound->word], divisor, false);
      Reg partial = f_.NewI32();
      f_.Emit(Opcode::kCmpNzI32, {partial.index(), remainder.index()});
      useful = Binary(Opcode::kMaxI32U, Binary(Opcode::kAddI32, quotient, partial, false), ConstI32(1), false);
    }
    return Binary(Opcode::kMinI32U, WorkerCount(), useful, false);
  }
  Reg WorkerCount() {
    if (!workers_) {
      Reg count64 = f_.NewI64();
      Call("device.query", {ConstI32(0)}, {count64});
      workers_ = f_.NewI32();
      f_.Emit(Opcode::kTruncI64I32, {workers_->index(), count64.index()});
    }
    return *workers_;
  }

  // Ops ------------------------------------------------------------------------------------
  LogicalResult WriteOp(Operation* op) {
    if (auto c = dyn_cast<arith::ConstantOp>(op)) return WriteConstant(c);
    if (auto load = dyn_cast<iree::GlobalLoadOp>(op)) return WriteGlobalLoad(load);
    if (auto store = dyn_cast<iree::GlobalStoreOp>(op)) return WriteGlobalStore(store);
    if (auto d = dyn_cast<DispatchOp>(op)) return WriteDispatch(d);
    if (auto dim = dyn_cast<tensor::DimOp>(op)) return WriteDim(dim);
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp, tensor::CastOp, tensor::BitcastOp, tensor::ReshapeOp>(op)) {
      return WriteReshape(op);
    }
    if (isa<iree::TensorBitCastOp, iree::TensorReshapeOp>(op)) return WriteFlowView(op);
    if (auto barrier = dyn_cast<iree::OptimizationBarrierOp>(op)) {
      for (auto [operand, result] : llvm::zip(barrier.getOperands(), barrier.getResults())) regs_[result] = Get(operand);
      return success();
    }
    if (op->getDialect() && isa<iree::CheckDialect>(op->getDialect())) return WriteCheck(op);
    if (auto empty = dyn_cast<tensor::EmptyOp>(op)) return WriteEmpty(empty);
    if (auto extract = dyn_cast<tensor::ExtractOp>(op)) return WriteExtract(extract);
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      Flush();
      std::vector<Reg> values;
      for (Value v : ret.getOperands()) values.push_back(Get(v));
      f_.Return(values);
      return success();
    }
    if (auto call = dyn_cast<func::CallOp>(op)) return WriteCall(call);
    if (auto br = dyn_cast<cf::BranchOp>(op)) {
      Flush();
      f_.Branch(blocks_[br.getDest()], Moves(br.getDestOperands(), br.getDest()));
      return success();
    }
    if (auto br = dyn_cast<cf::CondBranchOp>(op)) {
      Flush();
      std::vector<FunctionBuilder::Move> t = Moves(br.getTrueDestOperands(), br.getTrueDest());
      std::vector<FunctionBuilder::Move> e = Moves(br.getFalseDestOperands(), br.getFalseDest());
      f_.CondBranch(Get(br.getCondition()), blocks_[br.getTrueDest()], blocks_[br.getFalseDest()], t, e);
      return success();
    }
    if (auto assertion = dyn_cast<cf::AssertOp>(op)) return WriteAssert(assertion);
    if (op->getDialect() && isa<arith::ArithDialect>(op->getDialect())) return WriteArith(op);
    return op->emitError() << "'" << op->getName()
                           << "' cannot run in the host program; kiln runs it only inside a dispatch or not at all",
           failure();
  }

  std::vector<FunctionBuilder::Move> Moves(OperandRange operands, Block* dest) {
    std::vector<FunctionBuilder::Move> moves;
    for (auto [from, to] : llvm::zip(operands, dest->getArguments())) {
      if (!regs_.count(to)) (void)NewRegister(to);
      moves.push_back({Get(from), Get(to)});
    }
    return moves;
  }

  LogicalResult WriteConstant(arith::ConstantOp op) {
    Type type = op.getType();
    if (auto tensor = dyn_cast<RankedTensorType>(type)) return WriteTensorConstant(op, tensor);
    FailureOr<Reg> r = NewRegister(op.getResult());
    if (failed(r)) return failure();
    std::optional<uint64_t> bits = ScalarBits(op.getValue());
    if (!bits) return op.emitError() << "unsupported host constant " << op.getValue(), failure();
    f_.Emit(IsWide(type) ? Opcode::kConstI64 : Opcode::kConstI32,
            {r->index(), IsWide(type) ? *bits : (*bits & 0xffffffffu)});
    return success();
  }

  LogicalResult WriteTensorConstant(arith::ConstantOp op, RankedTensorType type) {
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    std::optional<int64_t> element_bytes = StoredElementBytes(type.getElementType());
    if (!dense || !element_bytes) {
      return op.emitError() << "unsupported tensor constant of type " << type, failure();
    }
    // A splat is filled on the device: its module segment stays empty.
    bool splat = FillPattern(dense, *element_bytes).has_value();
    auto [global, segment] = host_.ConstantGlobal(op, splat ? std::vector<uint8_t>() : DenseBytes(dense, *element_bytes));
    FailureOr<Reg> view = NewRegister(op.getResult());
    if (failed(view)) return failure();
    // Made on first use, then kept in the global.
    Reg present = f_.NewI32();
    f_.Emit(Opcode::kGlobalLoadRef, {view->index(), global});
    f_.Emit(Opcode::kCmpNzRef, {present.index(), view->index()});
    FunctionBuilder::Block upload = f_.NewBlock(), done = f_.NewBlock();
    f_.CondBranch(present, done, upload);
    f_.Bind(upload);
    if (failed(NewDenseView(dense, *element_bytes, segment, type, *view, op.getLoc()))) return failure();
    f_.Emit(Opcode::kGlobalStoreRef, {global, view->index()});
    f_.Branch(done);
    f_.Bind(done);
    return success();
  }

  // The bytes of one element of `dense` as a fill pattern, when it is a splat of 1, 2, 4 or
  // 8-byte elements (what command_buffer.fill takes); nullopt otherwise.
  static std::optional<uint64_t> FillPattern(DenseElementsAttr dense, int64_t element_bytes) {
    if (!dense.isSplat() || (element_bytes != 1 && element_bytes != 2 && element_bytes != 4 && element_bytes != 8)) {
      return std::nullopt;
    }
    // One stored unit: a byte of packed copies for packed sub-byte elements.
    int64_t unit = IsPackedSubByte(dense.getType()) ? ElementsPerByte(dense.getElementType()) : 1;
    std::vector<uint8_t> element =
        DenseBytes(dense.resizeSplat(RankedTensorType::get({unit}, dense.getElementType())), element_bytes);
    uint64_t pattern = 0;
    std::memcpy(&pattern, element.data(), element.size());
    return pattern;
  }

  // A new buffer of static `type`, allocated as results are, viewed into `view`.
  FailureOr<Reg> AllocateView(RankedTensorType type, Reg view, Location loc) {
    std::vector<Reg> dims;
    for (int64_t d : type.getShape()) dims.push_back(ConstI64(d));
    Reg buffer = f_.NewRef();
    Call("allocator.allocate", {ConstI32(kResultMemory), ConstI32(kResultUsage), ByteSize(type, dims)}, {buffer});
    if (failed(CreateView(buffer, type, dims, view, loc))) return failure();
    return buffer;
  }

  // A new buffer holding `dense`, viewed as `type` into `view`: a splat (a zeroed KV cache
  // of 256 MiB) allocated and filled on the device, not carried in the module (the fill is
  // submitted and waited for here, in a command buffer of its own: the buffer is new, so
  // nothing pending depends on it, and callers may be inside a branch); else rodata
  // `segment` (added now when not given) uploaded.
  LogicalResult NewDenseView(DenseElementsAttr dense, int64_t element_bytes, std::optional<uint32_t> segment,
                             RankedTensorType type, Reg view, Location loc) {
    if (std::optional<uint64_t> pattern = FillPattern(dense, element_bytes)) {
      FailureOr<Reg> buffer = AllocateView(type, view, loc);
      if (failed(buffer)) return failure();
      Reg size = ConstI64(*StoredTensorBytes(type));
      Reg fill = f_.NewRef();
      Call("command_buffer.create", {}, {fill});
      Call("command_buffer.fill", {fill, *buffer, ConstI64(0), size, ConstI64(static_cast<int64_t>(*pattern)),
                                   ConstI32(static_cast<int32_t>(element_bytes))});
      SubmitAndWait(fill);
      return success();
    }
    if (!segment) {
      std::vector<uint8_t> bytes = DenseBytes(dense, element_bytes);
      segment = host_.builder().AddRodata(bytes, bytes.size() >= 4096);
    }
    return UploadConstant(*segment, static_cast<size_t>(*StoredTensorBytes(type)), type, view, loc);
  }

  // A new buffer holding rodata `segment` (`size` bytes), viewed as `type` into `view`.
  LogicalResult UploadConstant(uint32_t segment, size_t size, RankedTensorType type, Reg view, Location loc) {
    Reg data = f_.NewRef(), buffer = f_.NewRef();
    f_.Emit(Opcode::kRodataRef, {data.index(), segment});
    Call("allocator.allocate_initialized",
         {data, ConstI64(0), ConstI64(size), ConstI32(kResultMemory), ConstI32(kResultUsage)}, {buffer});
    std::vector<Reg> dims;
    for (int64_t d : type.getShape()) dims.push_back(ConstI64(d));
    return CreateView(buffer, type, dims, view, loc);
  }

  LogicalResult WriteDim(tensor::DimOp op) {
    FailureOr<Reg> r = NewRegister(op.getResult());
    if (failed(r)) return failure();
    std::optional<int64_t> index = op.getConstantIndex();
    Reg dim_index;
    if (index) {
      dim_index = ConstI32(*index);
    } else {
      dim_index = f_.NewI32();
      f_.Emit(Opcode::kTruncI64I32, {dim_index.index(), Get(op.getIndex()).index()});
    }
    Call("buffer_view.dim", {Get(op.getSource()), dim_index}, {*r});
    return success();
  }

  // A view between sub-byte tensors stored differently (packed and a byte each) cannot be
  // made on the host: kiln-expand-sub-byte-bitcasts turns such reshapes into computations.
  static LogicalResult CheckSameSubByteStorage(Operation* op) {
    Type source = op->getOperand(0).getType(), result = op->getResult(0).getType();
    if (!HasSubByteElements(source) || IsPackedSubByte(source) == IsPackedSubByte(result)) return success();
    return op->emitError() << "views " << source << " as " << result
                           << ", which kiln stores differently (packed, and one element per byte); "
                              "kiln-expand-sub-byte-bitcasts should have made it a computation",
           failure();
  }

  LogicalResult WriteReshape(Operation* op) {
    if (failed(CheckSameSubByteStorage(op))) return failure();
    Value source = op->getOperand(0);
    Value result = op->getResult(0);
    auto result_type = dyn_cast<RankedTensorType>(result.getType());
    if (!result_type) return op->emitError() << "unranked results are not supported", failure();
    FailureOr<Reg> r = NewRegister(result);
    if (failed(r)) return failure();
    std::vector<Reg> dims;
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
      std::vector<Reg> source_dims = Dims(source);
      for (const ReassociationIndices& group : collapse.getReassociationIndices()) {
        Reg size = ConstI64(1);
        for (int64_t d : group) size = Binary(Opcode::kMulI64, size, source_dims[d], true);
        dims.push_back(size);
      }
    } else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
      for (OpFoldResult size : expand.getMixedOutputShape()) {
        if (auto v = dyn_cast<Value>(size)) {
          dims.push_back(Get(v));
        } else {
          dims.push_back(ConstI64(*getConstantIntValue(size)));
        }
      }
    } else if (auto reshape = dyn_cast<tensor::ReshapeOp>(op)) {
      if (!result_type.hasStaticShape()) {
        return op->emitError() << "tensor.reshape to a dynamic shape is not supported on the host", failure();
      }
      for (int64_t d : result_type.getShape()) dims.push_back(ConstI64(d));
    } else {
      // cast and bitcast keep the shape; a cast to a more static type is checked.
      dims = Dims(source);
      for (int64_t d = 0; d < result_type.getRank(); ++d) {
        if (!result_type.isDynamicDim(d)) dims[d] = ConstI64(result_type.getDimSize(d));
      }
      if (isa<tensor::CastOp>(op)) {
        FailureOr<Reg> element = ElementTypeConstant(result_type, op->getLoc());
        if (failed(element)) return failure();
        std::vector<Reg> args = {Get(source), *element};
        args.insert(args.end(), dims.begin(), dims.end());
        Call("buffer_view.assert", args);
      }
    }
    Reg buffer = f_.NewRef();
    Call("buffer_view.buffer", {Get(source)}, {buffer});
    return CreateView(buffer, result_type, dims, *r, op->getLoc());
  }

  // flow.tensor.bitcast and flow.tensor.reshape: a new view of the same buffer, with the
  // result's element type and dimensions (static, or the op's result_dims).
  LogicalResult WriteFlowView(Operation* op) {
    Value source = op->getOperand(0);
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    bool packed = op->hasAttr(kPackedBoundaryAttr);
    if (isa<iree::TensorBitCastOp>(op) && !packed &&
        (HasByteStoredSubByteElements(type) || HasByteStoredSubByteElements(source.getType()))) {
      return op->emitError() << "flow.tensor.bitcast with sub-byte elements stored one per byte should have been "
                                "expanded (kiln-expand-sub-byte-bitcasts)",
             failure();
    }
    if (isa<iree::TensorReshapeOp>(op) && failed(CheckSameSubByteStorage(op))) return failure();
    ValueRange result_dims = isa<iree::TensorBitCastOp>(op) ? cast<iree::TensorBitCastOp>(op).getResultDims()
                                                             : cast<iree::TensorReshapeOp>(op).getResultDims();
    FailureOr<Reg> r = NewRegister(op->getResult(0));
    if (failed(r)) return failure();
    std::vector<Reg> dims;
    size_t next_dynamic = 0;
    for (int64_t size : type.getShape()) {
      dims.push_back(ShapedType::isDynamic(size) ? Get(result_dims[next_dynamic++]) : ConstI64(size));
    }
    Reg buffer = f_.NewRef();
    Call("buffer_view.buffer", {Get(source)}, {buffer});
    return CreateView(buffer, type, dims, *r, op->getLoc(), packed);
  }

  // check.* ops: calls into the runtime's check module, which records failures with the
  // location passed as text. Values are read on the host, so pending work runs first.
  LogicalResult WriteCheck(Operation* op) {
    Flush();
    Reg location = f_.NewRef();
    std::string text = LocationString(op->getLoc());
    f_.Emit(Opcode::kRodataRef, {location.index(), host_.TextRodata(text.empty() ? "<unknown>" : text)});
    auto check = [&](llvm::StringRef name, std::vector<Reg> args) {
      args.push_back(location);
      f_.CallImport(host_.Import(("check." + name).str()), args, {});
      return success();
    };
    auto narrow_integer = [&](Value v) -> FailureOr<Reg> {
      if (!v.getType().isSignlessInteger() || v.getType().getIntOrFloatBitWidth() > 32) {
        return op->emitError() << "'" << op->getName() << "' takes an integer of at most 32 bits on the host, got "
                               << v.getType(),
               failure();
      }
      return Get(v);
    };
    if (auto expect = dyn_cast<iree::ExpectTrueOp>(op)) {
      FailureOr<Reg> v = narrow_integer(expect.getOperand());
      return failed(v) ? failure() : check("expect_true", {*v});
    }
    if (auto expect = dyn_cast<iree::ExpectFalseOp>(op)) {
      FailureOr<Reg> v = narrow_integer(expect.getOperand());
      return failed(v) ? failure() : check("expect_false", {*v});
    }
    if (auto expect = dyn_cast<iree::ExpectAllTrueOp>(op)) return check("expect_all_true", {Get(expect.getOperand())});
    if (auto expect = dyn_cast<iree::ExpectEqOp>(op)) {
      return check("expect_eq", {Get(expect.getLhs()), Get(expect.getRhs())});
    }
    if (auto expect = dyn_cast<iree::ExpectAlmostEqOp>(op)) {
      Reg atol = f_.NewI32(), rtol = f_.NewI32();
      f_.Emit(Opcode::kConstI32, {atol.index(), llvm::bit_cast<uint32_t>(expect.getAtol().convertToFloat())});
      f_.Emit(Opcode::kConstI32, {rtol.index(), llvm::bit_cast<uint32_t>(expect.getRtol().convertToFloat())});
      return check("expect_almost_eq", {Get(expect.getLhs()), Get(expect.getRhs()), atol, rtol});
    }
    return op->emitError() << "'" << op->getName() << "' should have been rewritten before the host program",
           failure();
  }

  LogicalResult WriteEmpty(tensor::EmptyOp op) {
    auto type = op.getType();
    FailureOr<Reg> r = NewRegister(op.getResult());
    if (failed(r) || !StoredElementBytes(type.getElementType())) {
      return op.emitError() << "unsupported element type " << type.getElementType(), failure();
    }
    std::vector<Reg> dims;
    for (OpFoldResult size : op.getMixedSizes()) {
      if (auto v = dyn_cast<Value>(size)) {
        dims.push_back(Get(v));
      } else {
        dims.push_back(ConstI64(*getConstantIntValue(size)));
      }
    }
    Reg buffer = f_.NewRef();
    Call("allocator.allocate", {ConstI32(kResultMemory), ConstI32(kResultUsage), ByteSize(type, dims)}, {buffer});
    return CreateView(buffer, type, dims, *r, op.getLoc());
  }

  LogicalResult WriteExtract(tensor::ExtractOp op) {
    Type type = op.getType();
    std::optional<int64_t> bytes = StoredElementBytes(type);
    FailureOr<Reg> r = NewRegister(op.getResult());
    if (failed(r)) return failure();
    if (!bytes || *bytes > 8) return op.emitError() << "cannot read a " << type << " element on the host", failure();
    Flush();
    std::vector<Reg> dims = Dims(op.getTensor());
    Reg linear = ConstI64(0);
    for (auto [d, index] : llvm::enumerate(op.getIndices())) {
      linear = Binary(Opcode::kMulI64, linear, dims[d], true);
      linear = Binary(Opcode::kAddI64, linear, Get(index), true);
    }
    Reg buffer = f_.NewRef();
    Call("buffer_view.buffer", {Get(op.getTensor())}, {buffer});
    if (IsPackedSubByte(op.getTensor().getType())) {
      // The byte holding the element, shifted down; integers sign-extended, as registers
      // hold them, float formats' bits zero-extended.
      int64_t width = type.getIntOrFloatBitWidth(), per_byte = ElementsPerByte(type);
      Reg offset = Binary(Opcode::kDivI64U, linear, ConstI64(per_byte), true);
      Reg shift = Binary(Opcode::kMulI64, Binary(Opcode::kRemI64U, linear, ConstI64(per_byte), true),
                         ConstI64(width), true);
      Reg byte = f_.NewI64();
      Call("buffer.load", {buffer, offset, ConstI32(1)}, {byte});
      Reg element = Binary(Opcode::kShrI64U, byte, shift, true);
      Reg high = Binary(Opcode::kShlI64, element, ConstI64(64 - width), true);
      Reg value = Binary(type.isInteger() ? Opcode::kShrI64S : Opcode::kShrI64U, high, ConstI64(64 - width), true);
      f_.Emit(Opcode::kTruncI64I32, {r->index(), value.index()});
      return success();
    }
    Reg offset = Binary(Opcode::kMulI64, linear, ConstI64(*bytes), true);
    Reg value = IsWide(type) ? *r : f_.NewI64();
    Call("buffer.load", {buffer, offset, ConstI32(*bytes)}, {value});
    if (!IsWide(type)) f_.Emit(Opcode::kTruncI64I32, {r->index(), value.index()});
    return success();
  }

  LogicalResult WriteCall(func::CallOp op) {
    std::optional<uint32_t> ordinal = host_.FunctionOrdinal(op.getCallee());
    if (!ordinal) return op.emitError() << "call to unknown function '" << op.getCallee() << "'", failure();
    Flush();
    std::vector<Reg> args, results;
    for (Value v : op.getOperands()) args.push_back(Get(v));
    for (Value v : op.getResults()) {
      FailureOr<Reg> r = NewRegister(v);
      if (failed(r)) return failure();
      results.push_back(*r);
    }
    f_.Call(*ordinal, args, results);
    return success();
  }

  // Globals -------------------------------------------------------------------------------
  const HostWriter::GlobalSlot* Slot(Operation* op, FlatSymbolRefAttr name) {
    const HostWriter::GlobalSlot* slot = host_.Global(name.getValue());
    if (!slot) op->emitError() << "refers to unknown global " << name;
    return slot;
  }

  LogicalResult WriteGlobalLoad(iree::GlobalLoadOp op) {
    const HostWriter::GlobalSlot* slot = Slot(op, op.getGlobalAttr());
    if (!slot) return failure();
    FailureOr<Reg> r = NewRegister(op.getResult());
    if (failed(r)) return failure();
    using Kind = HostWriter::GlobalSlot::Kind;
    if (slot->kind == Kind::kI32) return f_.Emit(Opcode::kGlobalLoadI32, {r->index(), slot->slot}), success();
    if (slot->kind == Kind::kI64) return f_.Emit(Opcode::kGlobalLoadI64, {r->index(), slot->slot}), success();
    f_.Emit(Opcode::kGlobalLoadRef, {r->index(), slot->slot});
    if (AlwaysHasValue(slot->op)) return success();
    // A tensor global with no initial value has none until a store gives it one.
    Reg present = f_.NewI32(), code = ConstI32(static_cast<int>(StatusCode::kFailedPrecondition));
    f_.Emit(Opcode::kCmpNzRef, {present.index(), r->index()});
    FunctionBuilder::Block missing = f_.NewBlock(), done = f_.NewBlock();
    f_.CondBranch(present, done, missing);
    f_.Bind(missing);
    std::string where = LocationString(op.getLoc());
    iree::GlobalOp global = slot->op;
    uint32_t message = host_.builder().AddString(
        ("global @" + global.getSymName() + " is read before any store gave it a value" +
         (where.empty() ? "" : " (" + where + ")"))
            .str());
    f_.Emit(Opcode::kFail, {code.index(), message});
    f_.Branch(done);
    f_.Bind(done);
    return success();
  }

  // cf.assert fails the call with its message (and location) unless the condition holds.
  LogicalResult WriteAssert(cf::AssertOp op) {
    Flush();
    Reg code = ConstI32(static_cast<int>(StatusCode::kFailedPrecondition));
    FunctionBuilder::Block failing = f_.NewBlock(), done = f_.NewBlock();
    f_.CondBranch(Get(op.getArg()), done, failing);
    f_.Bind(failing);
    std::string where = LocationString(op.getLoc());
    uint32_t message = host_.builder().AddString(op.getMsg().str() + (where.empty() ? "" : " (" + where + ")"));
    f_.Emit(Opcode::kFail, {code.index(), message});
    f_.Branch(done);
    f_.Bind(done);
    return success();
  }

  LogicalResult WriteGlobalStore(iree::GlobalStoreOp op) {
    const HostWriter::GlobalSlot* slot = Slot(op, op.getGlobalAttr());
    if (!slot) return failure();
    StoreGlobal(*slot, Get(op.getValue()));
    return success();
  }

  void StoreGlobal(const HostWriter::GlobalSlot& slot, Reg value) {
    using Kind = HostWriter::GlobalSlot::Kind;
    Opcode opcode = slot.kind == Kind::kI32   ? Opcode::kGlobalStoreI32
                    : slot.kind == Kind::kI64 ? Opcode::kGlobalStoreI64
                                              : Opcode::kGlobalStoreRef;
    f_.Emit(opcode, {slot.slot, value.index()});
  }

  // Whether a global holds a value from initialization on: scalars always (zero without an
  // initial value), tensors with a constant or parameter, or uninitialized with a static shape.
  static bool AlwaysHasValue(iree::GlobalOp global) {
    auto tensor = dyn_cast<RankedTensorType>(global.getType());
    if (!tensor) return true;
    std::optional<Attribute> initial = global.getInitialValue();
    if (!initial) return false;
    return !isa<iree::UninitializedAttr>(*initial) || tensor.hasStaticShape();
  }

  LogicalResult InitializeGlobal(iree::GlobalOp global) {
    const HostWriter::GlobalSlot* slot = host_.Global(global.getSymName());
    std::optional<Attribute> initial = global.getInitialValue();
    if (!slot || !initial) return success();
    Location loc = global.getLoc();
    auto tensor = dyn_cast<RankedTensorType>(global.getType());
    if (!tensor) {
      if (isa<iree::UninitializedAttr>(*initial)) return success();
      std::optional<uint64_t> bits = ScalarBits(*initial);
      if (!bits) return global.emitError() << "cannot give a scalar global the initial value " << *initial, failure();
      Reg value = slot->kind == HostWriter::GlobalSlot::Kind::kI64 ? ConstI64(*bits) : ConstI32(*bits);
      StoreGlobal(*slot, value);
      return success();
    }
    Reg view = f_.NewRef();
    if (std::optional<iree::NamedParameter> parameter = iree::AsNamedParameter(*initial)) {
      if (HasSubByteElements(tensor)) {
        return global.emitError() << "binds a parameter to a tensor of sub-byte " << tensor.getElementType()
                                  << " elements that kiln-expand-sub-byte-bitcasts did not unpack (run it first)",
               failure();
      }
      FailureOr<Reg> element = ElementTypeConstant(tensor, loc);
      if (failed(element)) return failure();
      Reg scope = f_.NewRef(), key = f_.NewRef();
      f_.Emit(Opcode::kRodataRef, {scope.index(), host_.TextRodata(parameter->scope)});
      f_.Emit(Opcode::kRodataRef, {key.index(), host_.TextRodata(parameter->key)});
      std::vector<Reg> args = {scope, key, *element};
      for (int64_t d : tensor.getShape()) args.push_back(ConstI64(d));
      std::vector<Reg> results = {view};
      f_.CallImport(host_.Import("params.load"), args, results);
    } else if (isa<iree::UninitializedAttr>(*initial)) {
      if (!tensor.hasStaticShape()) return success();  // no value until a store
      if (!StoredElementBytes(tensor.getElementType())) {
        return global.emitError() << "tensors of " << tensor.getElementType() << " cannot live in globals yet",
               failure();
      }
      if (failed(AllocateView(tensor, view, loc))) return failure();
    } else if (auto dense = dyn_cast<DenseElementsAttr>(*initial)) {
      std::optional<int64_t> element_bytes = StoredElementBytes(tensor.getElementType());
      if (!element_bytes) {
        return global.emitError() << "tensors of " << tensor.getElementType() << " cannot live in globals yet",
               failure();
      }
      if (failed(NewDenseView(dense, *element_bytes, std::nullopt, tensor, view, loc))) return failure();
    } else {
      return global.emitError() << "cannot give a tensor global the initial value " << *initial
                                << "; expected dense<...>, #util.uninitialized or a parameter",
             failure();
    }
    StoreGlobal(*slot, view);
    return success();
  }

  LogicalResult WriteDispatch(DispatchOp op) {
    std::optional<uint32_t> ordinal = host_.ExportOrdinal(op.getEntry().getLeafReference());
    if (!ordinal) return op.emitError() << "dispatch of unknown executable function " << op.getEntry(), failure();
    const HostExecutableExport& exported = host_.Export(*ordinal);
    // Results: allocated before recording.
    std::vector<Reg> result_buffers, result_sizes;
    std::vector<std::vector<Reg>> result_dims;
    size_t next_dim = 0;
    for (Value result : op.getResults()) {
      auto type = cast<RankedTensorType>(result.getType());
      if (!StoredElementBytes(type.getElementType())) {
        return op.emitError() << "a dispatch result of " << type.getElementType()
                              << " elements is not supported yet (complex elements in buffers); "
                                 "keep them inside one dispatch, or split them first",
               failure();
      }
      std::vector<Reg> dims;
      for (int64_t d = 0; d < type.getRank(); ++d) {
        dims.push_back(type.isDynamicDim(d) ? Get(op.getResultDims()[next_dim++]) : ConstI64(type.getDimSize(d)));
      }
      Reg size = ByteSize(type, dims), buffer = f_.NewRef();
      if (Value tied = op.getTiedOperand(cast<OpResult>(result).getResultNumber())) {
        Call("buffer_view.buffer", {Get(tied)}, {buffer});  // written in place
      } else if (auto it = transients_.offsets.find(result); it != transients_.offsets.end()) {
        Call("buffer.subspan", {slab_, ConstI64(it->second), size}, {buffer});
      } else {
        Call("allocator.allocate", {ConstI32(kResultMemory), ConstI32(kResultUsage), size}, {buffer});
      }
      result_buffers.push_back(buffer);
      result_sizes.push_back(size);
      result_dims.push_back(dims);
    }
    // Push constants, one word per 32-bit value, two (low first) per 64-bit value.
    std::vector<Reg> words;
    for (Value c : op.getConstants()) {
      if (IsWide(c.getType())) {
        Reg low = f_.NewI32(), high = f_.NewI32();
        f_.Emit(Opcode::kTruncI64I32, {low.index(), Get(c).index()});
        words.push_back(low);
        if (c.getType().isIndex()) continue;  // index takes one word
        Reg shifted = Binary(Opcode::kShrI64U, Get(c), ConstI64(32), true);
        f_.Emit(Opcode::kTruncI64I32, {high.index(), shifted.index()});
        words.push_back(high);
      } else {
        words.push_back(Get(c));
      }
    }
    if (words.size() != exported.constant_count || op.getInputs().size() + op.getNumResults() != exported.binding_count) {
      return op.emitError() << "dispatch passes " << words.size() << " push-constant words and "
                            << op.getInputs().size() + op.getNumResults() << " bindings, but '" << exported.name
                            << "' takes " << exported.constant_count << " and " << exported.binding_count,
             failure();
    }
    std::vector<Reg> args = {Reg{}, Executable(), ConstI32(*ordinal), Reg{}, ConstI32(1), ConstI32(1)};
    args[3] = exported.distributed ? WorkgroupCount(exported, words) : ConstI32(1);
    for (Value input : op.getInputs()) {
      Reg buffer = f_.NewRef(), length = f_.NewI64();
      Call("buffer_view.buffer", {Get(input)}, {buffer});
      Call("buffer.length", {buffer}, {length});
      args.insert(args.end(), {buffer, ConstI64(0), length});
    }
    for (size_t i = 0; i < result_buffers.size(); ++i) {
      args.insert(args.end(), {result_buffers[i], ConstI64(0), result_sizes[i]});
    }
    Reg cb = CommandBuffer();
    args[0] = cb;
    if (!words.empty()) {
      std::vector<Reg> push = {cb};
      push.insert(push.end(), words.begin(), words.end());
      Call("command_buffer.push_constants", push);
    }
    Call("command_buffer.dispatch", args);
    for (auto [i, result] : llvm::enumerate(op.getResults())) {
      FailureOr<Reg> view = NewRegister(result);
      if (failed(view)) return failure();
      if (failed(CreateView(result_buffers[i], cast<RankedTensorType>(result.getType()), result_dims[i], *view,
                            op.getLoc()))) {
        return failure();
      }
    }
    return success();
  }

  LogicalResult WriteArith(Operation* op);

  HostWriter& host_;
  func::FuncOp fn_;
  FunctionBuilder& f_;
  llvm::DenseMap<Value, Reg> regs_;
  llvm::DenseMap<Block*, FunctionBuilder::Block> blocks_;
  bool pending_ = false;
  Reg command_buffer_{};
  std::optional<Reg> executable_, workers_;
  TransientPlan transients_;
  Reg slab_{};
};

LogicalResult FunctionWriter::WriteArith(Operation* op) {
  if (op->getNumResults() != 1) return op->emitError() << "unsupported host op", failure();
  Value result = op->getResult(0);
  Type type = result.getType();
  FailureOr<Reg> r = NewRegister(result);
  if (failed(r)) return failure();
  auto operand = [&](unsigned i) { return Get(op->getOperand(i)); };
  Type operand_type = op->getNumOperands() ? op->getOperand(0).getType() : type;
  bool wide = IsWide(operand_type);
  bool is_float = isa<FloatType>(operand_type);
  auto binary = [&](Opcode narrow, Opcode wide_op) {
    f_.Emit(wide ? wide_op : narrow, {r->index(), operand(0).index(), operand(1).index()});
    return success();
  };
  // Integers narrower than 32 bits live sign-extended in their 32-bit slot.
  auto normalize = [&]() {
    unsigned width = type.isIntOrFloat() && !is_float ? type.getIntOrFloatBitWidth() : 32;
    if (type.isIndex() || width >= 32 || type.isInteger(1)) return;
    Reg shift = ConstI32(32 - width);
    f_.Emit(Opcode::kShlI32, {r->index(), r->index(), shift.index()});
    f_.Emit(Opcode::kShrI32S, {r->index(), r->index(), shift.index()});
  };
  // Arithmetic that can overflow a narrow integer's width, re-normalised afterwards.
  auto wrapping = [&](Opcode narrow, Opcode wide_op) {
    f_.Emit(wide ? wide_op : narrow, {r->index(), operand(0).index(), operand(1).index()});
    normalize();
    return success();
  };
  if (isa<arith::AddIOp>(op)) return wrapping(Opcode::kAddI32, Opcode::kAddI64);
  if (isa<arith::SubIOp>(op)) return wrapping(Opcode::kSubI32, Opcode::kSubI64);
  if (isa<arith::MulIOp>(op)) return wrapping(Opcode::kMulI32, Opcode::kMulI64);
  if (isa<arith::DivSIOp>(op)) return binary(Opcode::kDivI32S, Opcode::kDivI64S);
  if (isa<arith::DivUIOp>(op)) return binary(Opcode::kDivI32U, Opcode::kDivI64U);
  if (isa<arith::RemSIOp>(op)) return binary(Opcode::kRemI32S, Opcode::kRemI64S);
  if (isa<arith::RemUIOp>(op)) return binary(Opcode::kRemI32U, Opcode::kRemI64U);
  if (isa<arith::AndIOp>(op)) return binary(Opcode::kAndI32, Opcode::kAndI64);
  if (isa<arith::OrIOp>(op)) return binary(Opcode::kOrI32, Opcode::kOrI64);
  if (isa<arith::XOrIOp>(op)) return binary(Opcode::kXorI32, Opcode::kXorI64);
  if (isa<arith::ShLIOp>(op)) return wrapping(Opcode::kShlI32, Opcode::kShlI64);
  if (isa<arith::ShRSIOp>(op)) return binary(Opcode::kShrI32S, Opcode::kShrI64S);
  if (isa<arith::ShRUIOp>(op)) return binary(Opcode::kShrI32U, Opcode::kShrI64U);
  if (isa<arith::MinSIOp>(op)) return binary(Opcode::kMinI32S, Opcode::kMinI64S);
  if (isa<arith::MinUIOp>(op)) return binary(Opcode::kMinI32U, Opcode::kMinI64U);
  if (isa<arith::MaxSIOp>(op)) return binary(Opcode::kMaxI32S, Opcode::kMaxI64S);
  if (isa<arith::MaxUIOp>(op)) return binary(Opcode::kMaxI32U, Opcode::kMaxI64U);
  if (is_float && (operand_type.isF32() || operand_type.isF64())) {
    if (isa<arith::AddFOp>(op)) return binary(Opcode::kAddF32, Opcode::kAddF64);
    if (isa<arith::SubFOp>(op)) return binary(Opcode::kSubF32, Opcode::kSubF64);
    if (isa<arith::MulFOp>(op)) return binary(Opcode::kMulF32, Opcode::kMulF64);
    if (isa<arith::DivFOp>(op)) return binary(Opcode::kDivF32, Opcode::kDivF64);
    if (isa<arith::MinimumFOp, arith::MinNumFOp>(op)) return binary(Opcode::kMinF32, Opcode::kMinF64);
    if (isa<arith::MaximumFOp, arith::MaxNumFOp>(op)) return binary(Opcode::kMaxF32, Opcode::kMaxF64);
    if (isa<arith::NegFOp>(op)) {
      f_.Emit(wide ? Opcode::kNegF64 : Opcode::kNegF32, {r->index(), operand(0).index()});
      return success();
    }
  }
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    using P = arith::CmpIPredicate;
    Reg a = operand(0), b = operand(1);
    P p = cmp.getPredicate();
    // gt/ge are lt/le with the operands swapped.
    if (p == P::sgt || p == P::sge || p == P::ugt || p == P::uge) std::swap(a, b);
    Opcode opcode = Opcode::kCmpEqI32;
    switch (p) {
      case P::eq: opcode = wide ? Opcode::kCmpEqI64 : Opcode::kCmpEqI32; break;
      case P::ne: opcode = wide ? Opcode::kCmpNeI64 : Opcode::kCmpNeI32; break;
      case P::slt: case P::sgt: opcode = wide ? Opcode::kCmpLtI64S : Opcode::kCmpLtI32S; break;
      case P::sle: case P::sge: opcode = wide ? Opcode::kCmpLeI64S : Opcode::kCmpLeI32S; break;
      case P::ult: case P::ugt: opcode = wide ? Opcode::kCmpLtI64U : Opcode::kCmpLtI32U; break;
      case P::ule: case P::uge: opcode = wide ? Opcode::kCmpLeI64U : Opcode::kCmpLeI32U; break;
    }
    f_.Emit(opcode, {r->index(), a.index(), b.index()});
    return success();
  }
  if (auto cmp = dyn_cast<arith::CmpFOp>(op); cmp && (operand_type.isF32() || operand_type.isF64())) {
    using P = arith::CmpFPredicate;
    Reg a = operand(0), b = operand(1);
    P p = cmp.getPredicate();
    if (p == P::OGT || p == P::OGE) std::swap(a, b);
    Opcode opcode = Opcode::kCmpEqF32;
    switch (p) {
      case P::OEQ: opcode = wide ? Opcode::kCmpEqF64 : Opcode::kCmpEqF32; break;
      case P::UNE: opcode = wide ? Opcode::kCmpNeF64 : Opcode::kCmpNeF32; break;
      case P::OLT: case P::OGT: opcode = wide ? Opcode::kCmpLtF64 : Opcode::kCmpLtF32; break;
      case P::OLE: case P::OGE: opcode = wide ? Opcode::kCmpLeF64 : Opcode::kCmpLeF32; break;
      default:
        return op->emitError() << "float comparison '" << arith::stringifyCmpFPredicate(p)
                               << "' is not supported on the host",
               failure();
    }
    f_.Emit(opcode, {r->index(), a.index(), b.index()});
    return success();
  }
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    if (isa<RankedTensorType>(type)) {
      f_.Emit(Opcode::kSelectRef, {r->index(), operand(0).index(), operand(1).index(), operand(2).index()});
    } else {
      f_.Emit(IsWide(type) ? Opcode::kSelectI64 : Opcode::kSelectI32,
              {r->index(), operand(0).index(), operand(1).index(), operand(2).index()});
    }
    return success();
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(op)) {
    bool from_wide = IsWide(operand_type), to_wide = IsWide(type);
    bool is_unsigned = isa<arith::IndexCastUIOp, arith::ExtUIOp>(op);
    if (from_wide && to_wide) {
      f_.Emit(Opcode::kMoveI64, {r->index(), operand(0).index()});
    } else if (!from_wide && !to_wide) {
      f_.Emit(Opcode::kMoveI32, {r->index(), operand(0).index()});
      if (is_unsigned && !operand_type.isInteger(32)) {
        Reg mask = ConstI32((int64_t{1} << operand_type.getIntOrFloatBitWidth()) - 1);
        f_.Emit(Opcode::kAndI32, {r->index(), r->index(), mask.index()});
      }
      normalize();
    } else if (to_wide) {
      Reg source = operand(0);
      if (is_unsigned && !operand_type.isInteger(32)) {
        source = f_.NewI32();
        Reg mask = ConstI32((int64_t{1} << operand_type.getIntOrFloatBitWidth()) - 1);
        f_.Emit(Opcode::kAndI32, {source.index(), operand(0).index(), mask.index()});
      }
      f_.Emit(is_unsigned ? Opcode::kExtI32I64U : Opcode::kExtI32I64S, {r->index(), source.index()});
    } else {
      f_.Emit(Opcode::kTruncI64I32, {r->index(), operand(0).index()});
      normalize();
    }
    return success();
  }
  if (isa<arith::SIToFPOp>(op) && type.isF32() && !wide) {
    f_.Emit(Opcode::kSiToFpI32F32, {r->index(), operand(0).index()});
    return success();
  }
  if (isa<arith::FPToSIOp>(op) && operand_type.isF32() && !IsWide(type)) {
    f_.Emit(Opcode::kFpToSiF32I32, {r->index(), operand(0).index()});
    return success();
  }
  if (isa<arith::ExtFOp>(op) && operand_type.isF32() && type.isF64()) {
    f_.Emit(Opcode::kExtF32F64, {r->index(), operand(0).index()});
    return success();
  }
  if (isa<arith::TruncFOp>(op) && operand_type.isF64() && type.isF32()) {
    f_.Emit(Opcode::kTruncF64F32, {r->index(), operand(0).index()});
    return success();
  }
  return op->emitError() << "'" << op->getName() << "' on " << operand_type
                         << " is not supported in the host program",
         failure();
}

FailureOr<std::vector<uint8_t>> HostWriter::Write() {
  // The runtime looks executable 0 up by name among the binaries for each target and loads
  // the one its device runs (hal/module/hal_module.h).
  for (const HostExecutable& executable : executables_) {
    if (executable.data.empty()) continue;
    std::vector<vm::ExecutableExportSpec> specs;
    for (const HostExecutableExport& e : executable.exports) {
      specs.push_back({e.name, e.binding_count, e.constant_count, {1, 1, 1}, 0, e.cost});
    }
    builder_.AddExecutable(executable.name, executable.format, executable.data, specs);
  }
  if (failed(AssignGlobalSlots())) return failure();
  SmallVector<func::FuncOp> functions;
  for (func::FuncOp fn : module_.getOps<func::FuncOp>()) {
    if (fn.isDeclaration()) {
      return fn.emitError() << "external function '" << fn.getName() << "' has no body; kiln cannot call it",
             failure();
    }
    functions.push_back(fn);
  }
  std::vector<FunctionBuilder*> builders;
  for (func::FuncOp fn : functions) {
    std::string signature;
    for (Type t : fn.getArgumentTypes()) {
      std::optional<char> letter = SignatureLetter(t);
      if (!letter) return fn.emitError() << "argument of type " << t << " is not supported", failure();
      signature += *letter;
    }
    signature += ':';
    for (Type t : fn.getResultTypes()) {
      std::optional<char> letter = SignatureLetter(t);
      if (!letter) return fn.emitError() << "result of type " << t << " is not supported", failure();
      signature += *letter;
    }
    FunctionBuilder& f = builder_.AddFunction(fn.getName().str(), signature);
    function_ordinals_[fn.getName()] = f.ordinal();
    if (fn.isPublic()) {
      std::string type;
      llvm::raw_string_ostream(type) << fn.getFunctionType();
      builder_.Export(fn.getName().str(), f.ordinal(), {{std::string(vm::kFunctionTypeAttr), type}});
    }
    builders.push_back(&f);
  }
  for (auto [fn, f] : llvm::zip(functions, builders)) {
    FunctionWriter writer(*this, fn, *f);
    if (failed(writer.Write())) return failure();
  }
  if (failed(WriteInitializer())) return failure();
  StatusOr<std::vector<uint8_t>> bytes = builder_.Finish();
  if (!bytes.ok()) return module_.emitError() << "cannot write the VM module: " << bytes.status().ToString(), failure();
  return std::move(*bytes);
}

LogicalResult HostWriter::AssignGlobalSlots() {
  for (iree::GlobalOp global : module_.getOps<iree::GlobalOp>()) {
    Type type = global.getType();
    GlobalSlot slot{global, GlobalSlot::Kind::kRef, 0};
    if (isa<RankedTensorType>(type)) {
      slot.slot = builder_.AddGlobalRef();
    } else if (std::optional<char> letter = SignatureLetter(type); letter && *letter != 'r') {
      bool wide = IsWide(type);
      slot.kind = wide ? GlobalSlot::Kind::kI64 : GlobalSlot::Kind::kI32;
      slot.slot = wide ? builder_.AddGlobalI64() : builder_.AddGlobalI32();
    } else {
      return global.emitError() << "a global of type " << type
                                << " cannot live on the host; expected a ranked tensor, index, an integer of at most "
                                   "32 or exactly 64 bits, f32 or f64",
             failure();
    }
    globals_[global.getSymName()] = slot;
  }
  return success();
}

// The module's initializer, when it has globals to initialize or initializers to run.
LogicalResult HostWriter::WriteInitializer() {
  bool needed = llvm::any_of(module_.getOps<iree::GlobalOp>(), [](iree::GlobalOp g) { return g.getInitialValue(); }) ||
                llvm::any_of(module_.getOps<func::FuncOp>(), [](func::FuncOp fn) { return fn->hasAttr(kInitializerAttr); });
  if (!needed) return success();
  FunctionBuilder& f = builder_.AddFunction("__kiln_init_globals", ":");
  builder_.SetInitializer(f.ordinal());
  FunctionWriter writer(*this, func::FuncOp(), f);
  return writer.WriteModuleInitializer(module_);
}

}  // namespace

FailureOr<std::vector<uint8_t>> WriteHostModule(ModuleOp module, std::vector<HostExecutable> executables) {
  for (const HostExecutable& other : llvm::ArrayRef(executables).drop_front()) {
    const HostExecutable& first = executables.front();
    auto disagree = [&](const llvm::Twine& what) {
      return module.emitError() << "the " << first.format << " and " << other.format
                                << " executables disagree on their exports: " << what;
    };
    if (other.name != first.name || other.exports.size() != first.exports.size()) {
      return disagree(llvm::Twine(first.exports.size()) + " vs " + llvm::Twine(other.exports.size()) + " exports"),
             failure();
    }
    for (size_t i = 0; i < first.exports.size(); ++i) {
      const HostExecutableExport &a = first.exports[i], &b = other.exports[i];
      if (a.name != b.name) return disagree("export " + llvm::Twine(i) + " is '" + a.name + "' vs '" + b.name + "'"), failure();
      if (a.binding_count != b.binding_count || a.constant_count != b.constant_count) {
        return disagree("'" + a.name + "' takes " + llvm::Twine(a.binding_count) + " bindings and " +
                        llvm::Twine(a.constant_count) + " constants vs " + llvm::Twine(b.binding_count) + " and " +
                        llvm::Twine(b.constant_count)),
               failure();
      }
    }
  }
  // A distributed kernel runs correctly as one workgroup, not the other way round: a
  // dispatch one target computes in a single workgroup (a CPU reduction with no parallel
  // loop) runs as one workgroup on every target.
  // Likewise the workgroup bound holds only where every target states the same one.
  for (size_t i = 0; i < executables.front().exports.size(); ++i) {
    bool distributed = llvm::all_of(executables, [&](const HostExecutable& e) { return e.exports[i].distributed; });
    std::optional<WorkgroupBound> bound = executables.front().exports[i].workgroup_bound;
    if (!llvm::all_of(executables, [&](const HostExecutable& e) { return e.exports[i].workgroup_bound == bound; })) {
      bound = std::nullopt;
    }
    for (HostExecutable& executable : executables) {
      executable.exports[i].distributed = distributed;
      executable.exports[i].workgroup_bound = distributed ? bound : std::nullopt;
    }
  }
  return HostWriter(module, executables).Write();
}

}  // namespace kiln::compiler
