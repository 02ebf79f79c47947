#include "hal/module/hal_module.h"

#include <algorithm>
#include <cstring>

#include "hal/upload.h"
#include "vm/context.h"
#include "vm/list.h"
#include "vm/module_generated.h"

namespace kiln::vm {
template <>
const RefType* VmTypeOf<hal::Buffer>() {
  static const RefType type{"hal.buffer"};
  return &type;
}
template <>
const RefType* VmTypeOf<hal::BufferView>() {
  static const RefType type{"hal.buffer_view"};
  return &type;
}
template <>
const RefType* VmTypeOf<hal::Executable>() {
  static const RefType type{"hal.executable"};
  return &type;
}
template <>
const RefType* VmTypeOf<hal::Fence>() {
  static const RefType type{"hal.fence"};
  return &type;
}
}  // namespace kiln::vm

namespace kiln::hal {
namespace {

using vm::NativeCall;
using vm::RefArg;
using vm::Value;
using vm::VmRef;

HalModule& Self(void* state) { return *static_cast<HalModule*>(state); }

// Integers from bytecode are untrusted: sizes and offsets must be non-negative.
StatusOr<size_t> Size(const Value& v, std::string_view what) {
  if (v.i64() < 0) return InvalidArgumentError(what, " is negative (", v.i64(), ")");
  return static_cast<size_t>(v.i64());
}

StatusOr<ElementType> ElementTypeArg(const Value& v) {
  if (v.i32() < 0 || v.i32() >= kElementTypeCount) return InvalidArgumentError("unknown element type ", v.i32());
  return static_cast<ElementType>(v.i32());
}

// Bytes [offset, offset+length) of a vm.buffer, with offset and length from bytecode.
StatusOr<std::span<const uint8_t>> SourceBytes(const vm::ByteBuffer& source, const Value& offset_value,
                                               const Value& length_value, std::string_view what) {
  KILN_ASSIGN_OR_RETURN(size_t offset, Size(offset_value, StrCat(what, " offset")));
  KILN_ASSIGN_OR_RETURN(size_t length, Size(length_value, StrCat(what, " length")));
  std::span<const uint8_t> bytes = source.bytes();
  if (offset > bytes.size() || length > bytes.size() - offset) {
    return OutOfRangeError(what, " [", offset, ", +", length, ") exceeds a ", bytes.size(), "-byte vm.buffer");
  }
  return bytes.subspan(offset, length);
}

BufferParams Params(const Value& type, const Value& usage) {
  return {static_cast<MemoryType>(type.i32()), static_cast<BufferUsage>(usage.i32())};
}

template <typename T>
void SetRef(NativeCall& call, size_t index, Ref<T> object) {
  call.results[index].ref = VmRef::Make(std::move(object));
}

// Fences from bytecode (nullable) as semaphore lists.
StatusOr<SemaphoreList> FenceList(const NativeCall& call, size_t index) {
  KILN_ASSIGN_OR_RETURN(Fence * fence, RefArg<Fence>(call, index, /*allow_null=*/true));
  return fence ? fence->timepoints() : SemaphoreList();
}

Status DeviceQuery(void* state, NativeCall& call) {
  switch (call.args[0].i32()) {
    case 0: call.results[0].bits = Self(state).device().info().worker_count; return OkStatus();
    default: return InvalidArgumentError("unknown device query key ", call.args[0].i32());
  }
}

Status Allocate(void* state, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(size_t size, Size(call.args[2], "allocation size"));
  KILN_ASSIGN_OR_RETURN(Ref<Buffer> buffer, Self(state).device().allocator().Allocate(Params(call.args[0], call.args[1]), size));
  SetRef(call, 0, std::move(buffer));
  return OkStatus();
}

// Allocates a buffer holding bytes of a vm.buffer (constants from rodata).
Status AllocateInitialized(void* state, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(vm::ByteBuffer * source, RefArg<vm::ByteBuffer>(call, 0));
  KILN_ASSIGN_OR_RETURN(std::span<const uint8_t> bytes, SourceBytes(*source, call.args[1], call.args[2], "source"));
  KILN_ASSIGN_OR_RETURN(Ref<Buffer> buffer,
                        UploadToNewBuffer(Self(state).device(), Params(call.args[3], call.args[4]), bytes));
  SetRef(call, 0, std::move(buffer));
  return OkStatus();
}

Status BufferLength(void*, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(Buffer * buffer, RefArg<Buffer>(call, 0));
  call.results[0].bits = buffer->byte_length();
  return OkStatus();
}

Status BufferSubspan(void*, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(Buffer * buffer, RefArg<Buffer>(call, 0));
  KILN_ASSIGN_OR_RETURN(size_t offset, Size(call.args[1], "subspan offset"));
  KILN_ASSIGN_OR_RETURN(size_t length, Size(call.args[2], "subspan length"));
  KILN_ASSIGN_OR_RETURN(Ref<Buffer> sub, buffer->Subspan(offset, length));
  SetRef(call, 0, std::move(sub));
  return OkStatus();
}

StatusOr<size_t> Width(const Value& v) {
  int32_t w = v.i32();
  if (w != 1 && w != 2 && w != 4 && w != 8) return InvalidArgumentError("access width must be 1, 2, 4 or 8, got ", w);
  return static_cast<size_t>(w);
}

Status BufferLoad(void*, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(Buffer * buffer, RefArg<Buffer>(call, 0));
  KILN_ASSIGN_OR_RETURN(size_t offset, Size(call.args[1], "load offset"));
  KILN_ASSIGN_OR_RETURN(size_t width, Width(call.args[2]));
  uint64_t value = 0;
  KILN_RETURN_IF_ERROR(buffer->Read(offset, {reinterpret_cast<uint8_t*>(&value), width}));
  call.results[0].bits = value;
  return OkStatus();
}

Status BufferStore(void*, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(Buffer * buffer, RefArg<Buffer>(call, 0));
  KILN_ASSIGN_OR_RETURN(size_t offset, Size(call.args[1], "store offset"));
  KILN_ASSIGN_OR_RETURN(size_t width, Width(call.args[2]));
  uint64_t value = call.args[3].bits;
  return buffer->Write(offset, {reinterpret_cast<const uint8_t*>(&value), width});
}

std::vector<int64_t> Dims(const NativeCall& call, size_t first) {
  std::vector<int64_t> dims;
  for (size_t i = first; i < call.args.size(); ++i) dims.push_back(call.args[i].i64());
  return dims;
}

Status BufferViewCreate(void*, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(Buffer * buffer, RefArg<Buffer>(call, 0));
  KILN_ASSIGN_OR_RETURN(ElementType type, ElementTypeArg(call.args[1]));
  std::vector<int64_t> dims = Dims(call, 2);
  KILN_ASSIGN_OR_RETURN(Ref<BufferView> view, BufferView::Create(Ref<Buffer>(buffer), dims, type));
  SetRef(call, 0, std::move(view));
  return OkStatus();
}

Status BufferViewAssert(void*, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(BufferView * view, RefArg<BufferView>(call, 0));
  KILN_ASSIGN_OR_RETURN(ElementType type, ElementTypeArg(call.args[1]));
  std::vector<int64_t> dims = Dims(call, 2);
  std::string expected;
  for (int64_t d : dims) expected += StrCat(d, "x");
  expected += ElementTypeName(type);
  std::span<const int64_t> shape = view->shape();
  if (view->element_type() != type || !std::equal(shape.begin(), shape.end(), dims.begin(), dims.end())) {
    return InvalidArgumentError("expected a buffer view of ", expected, ", got ", view->ShapeString());
  }
  return OkStatus();
}

Status BufferViewBuffer(void*, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(BufferView * view, RefArg<BufferView>(call, 0));
  SetRef(call, 0, view->buffer());
  return OkStatus();
}

Status BufferViewRank(void*, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(BufferView * view, RefArg<BufferView>(call, 0));
  call.results[0].bits = view->rank();
  return OkStatus();
}

Status BufferViewDim(void*, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(BufferView * view, RefArg<BufferView>(call, 0));
  int32_t index = call.args[1].i32();
  if (index < 0 || static_cast<size_t>(index) >= view->rank()) {
    return OutOfRangeError("dimension ", index, " of a rank-", view->rank(), " buffer view");
  }
  call.results[0].bits = static_cast<uint64_t>(view->shape()[index]);
  return OkStatus();
}

Status BufferViewElementType(void*, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(BufferView * view, RefArg<BufferView>(call, 0));
  call.results[0].bits = static_cast<uint32_t>(view->element_type());
  return OkStatus();
}

Status CommandBufferCreate(void* state, NativeCall& call) {
  SetRef(call, 0, MakeRef<CommandBufferHandle>(Self(state).device().CreateCommandBuffer()));
  return OkStatus();
}

Status CommandBufferFinalize(void*, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(CommandBufferHandle * cb, RefArg<CommandBufferHandle>(call, 0));
  return cb->command_buffer->Finalize();
}

Status CommandBufferBarrier(void*, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(CommandBufferHandle * cb, RefArg<CommandBufferHandle>(call, 0));
  return cb->command_buffer->ExecutionBarrier();
}

Status CommandBufferFill(void*, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(CommandBufferHandle * cb, RefArg<CommandBufferHandle>(call, 0));
  KILN_ASSIGN_OR_RETURN(Buffer * target, RefArg<Buffer>(call, 1));
  KILN_ASSIGN_OR_RETURN(size_t offset, Size(call.args[2], "fill offset"));
  KILN_ASSIGN_OR_RETURN(size_t length, Size(call.args[3], "fill length"));
  uint64_t pattern = call.args[4].bits;
  return cb->command_buffer->Fill(Ref<Buffer>(target), offset, length, &pattern,
                                  static_cast<size_t>(std::max(call.args[5].i32(), 0)));
}

Status CommandBufferCopy(void*, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(CommandBufferHandle * cb, RefArg<CommandBufferHandle>(call, 0));
  KILN_ASSIGN_OR_RETURN(Buffer * source, RefArg<Buffer>(call, 1));
  KILN_ASSIGN_OR_RETURN(size_t source_offset, Size(call.args[2], "copy source offset"));
  KILN_ASSIGN_OR_RETURN(Buffer * target, RefArg<Buffer>(call, 3));
  KILN_ASSIGN_OR_RETURN(size_t target_offset, Size(call.args[4], "copy target offset"));
  KILN_ASSIGN_OR_RETURN(size_t length, Size(call.args[5], "copy length"));
  return cb->command_buffer->Copy(Ref<Buffer>(source), source_offset, Ref<Buffer>(target), target_offset, length);
}

Status CommandBufferUpdate(void*, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(CommandBufferHandle * cb, RefArg<CommandBufferHandle>(call, 0));
  KILN_ASSIGN_OR_RETURN(vm::ByteBuffer * source, RefArg<vm::ByteBuffer>(call, 1));
  KILN_ASSIGN_OR_RETURN(std::span<const uint8_t> bytes,
                        SourceBytes(*source, call.args[2], call.args[5], "update source"));
  KILN_ASSIGN_OR_RETURN(Buffer * target, RefArg<Buffer>(call, 3));
  KILN_ASSIGN_OR_RETURN(size_t target_offset, Size(call.args[4], "update target offset"));
  return cb->command_buffer->Update(bytes, Ref<Buffer>(target), target_offset);
}

Status CommandBufferPushConstants(void*, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(CommandBufferHandle * cb, RefArg<CommandBufferHandle>(call, 0));
  cb->pending_constants.clear();
  for (size_t i = 1; i < call.args.size(); ++i) cb->pending_constants.push_back(static_cast<uint32_t>(call.args[i].bits));
  return OkStatus();
}

Status CommandBufferDispatch(void*, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(CommandBufferHandle * cb, RefArg<CommandBufferHandle>(call, 0));
  KILN_ASSIGN_OR_RETURN(Executable * executable, RefArg<Executable>(call, 1));
  std::array<uint32_t, 3> count;
  for (int d = 0; d < 3; ++d) {
    if (call.args[3 + d].i32() < 0) return InvalidArgumentError("workgroup count ", d, " is negative");
    count[d] = static_cast<uint32_t>(call.args[3 + d].i32());
  }
  std::vector<BufferBinding> bindings;
  for (size_t i = 6; i < call.args.size(); i += 3) {  // whole (r, I, I) groups: verified
    KILN_ASSIGN_OR_RETURN(Buffer * buffer, RefArg<Buffer>(call, i));
    KILN_ASSIGN_OR_RETURN(size_t offset, Size(call.args[i + 1], "binding offset"));
    KILN_ASSIGN_OR_RETURN(size_t length, Size(call.args[i + 2], "binding length"));
    bindings.push_back({Ref<Buffer>(buffer), offset, length});
  }
  Status status = cb->command_buffer->Dispatch(Ref<Executable>(executable), static_cast<uint32_t>(call.args[2].i32()),
                                               count, cb->pending_constants, bindings);
  cb->pending_constants.clear();
  return status;
}

Status ExecutableLookup(void* state, NativeCall& call) {
  int32_t ordinal = call.args[0].i32();
  if (ordinal < 0) return OutOfRangeError("executable ordinal ", ordinal);
  KILN_ASSIGN_OR_RETURN(Ref<Executable> exe,
                        Self(state).LookupExecutable(call.context.module(), static_cast<uint32_t>(ordinal)));
  SetRef(call, 0, std::move(exe));
  return OkStatus();
}

Status FenceCreate(void*, NativeCall& call) {
  SetRef(call, 0, Fence::Create());
  return OkStatus();
}

StatusOr<std::vector<Fence*>> FenceArgs(const NativeCall& call, size_t first) {
  std::vector<Fence*> fences;
  for (size_t i = first; i < call.args.size(); ++i) {
    KILN_ASSIGN_OR_RETURN(Fence * fence, RefArg<Fence>(call, i, /*allow_null=*/true));
    if (fence) fences.push_back(fence);
  }
  return fences;
}

Status FenceJoin(void*, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(std::vector<Fence*> fences, FenceArgs(call, 0));
  SetRef(call, 0, Fence::Join(fences));
  return OkStatus();
}

Status FenceSignal(void*, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(Fence * fence, RefArg<Fence>(call, 0));
  for (const SemaphoreValue& tp : fence->timepoints()) KILN_RETURN_IF_ERROR(tp.semaphore->Signal(tp.value));
  return OkStatus();
}

Status FenceFail(void*, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(Fence * fence, RefArg<Fence>(call, 0));
  int32_t code = call.args[1].i32();
  if (code <= 0 || code > static_cast<int32_t>(StatusCode::kDataLoss)) code = static_cast<int32_t>(StatusCode::kUnknown);
  FailAll(fence->timepoints(), Status(static_cast<StatusCode>(code), "fence failed by the program"));
  return OkStatus();
}

Status FenceAwait(void*, NativeCall& call) {
  int32_t timeout_ms = call.args[0].i32();
  Deadline deadline = timeout_ms < 0 ? Deadline::Infinite() : Deadline::After(std::chrono::milliseconds(timeout_ms));
  KILN_ASSIGN_OR_RETURN(std::vector<Fence*> fences, FenceArgs(call, 1));
  for (Fence* fence : fences) KILN_RETURN_IF_ERROR(WaitAll(fence->timepoints(), deadline));
  return OkStatus();
}

Status QueueAlloca(void* state, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(SemaphoreList wait, FenceList(call, 0));
  KILN_ASSIGN_OR_RETURN(SemaphoreList signal, FenceList(call, 1));
  KILN_ASSIGN_OR_RETURN(size_t size, Size(call.args[4], "alloca size"));
  KILN_ASSIGN_OR_RETURN(Ref<Buffer> buffer,
                        Self(state).device().QueueAlloca(wait, signal, Params(call.args[2], call.args[3]), size));
  SetRef(call, 0, std::move(buffer));
  return OkStatus();
}

Status QueueDealloca(void* state, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(SemaphoreList wait, FenceList(call, 0));
  KILN_ASSIGN_OR_RETURN(SemaphoreList signal, FenceList(call, 1));
  KILN_ASSIGN_OR_RETURN(Buffer * buffer, RefArg<Buffer>(call, 2));
  if (Recording* recording = Self(state).recording()) {
    // Kept for the replay; an empty submission orders the fences as the dealloca would.
    recording->held_transients.emplace_back(buffer);
    Ref<CommandBuffer> empty = Self(state).device().CreateCommandBuffer();
    KILN_RETURN_IF_ERROR(empty->Finalize());
    Ref<CommandBuffer> cbs[] = {empty};
    return Self(state).device().QueueExecute(wait, signal, cbs);
  }
  return Self(state).device().QueueDealloca(wait, signal, Ref<Buffer>(buffer));
}

Status QueueExecute(void* state, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(SemaphoreList wait, FenceList(call, 0));
  KILN_ASSIGN_OR_RETURN(SemaphoreList signal, FenceList(call, 1));
  KILN_ASSIGN_OR_RETURN(CommandBufferHandle * cb, RefArg<CommandBufferHandle>(call, 2));
  Ref<CommandBuffer> cbs[] = {cb->command_buffer};
  if (Recording* recording = Self(state).recording()) recording->submissions.push_back(cb->command_buffer);
  return Self(state).device().QueueExecute(wait, signal, cbs);
}

const std::vector<vm::NativeFunction>& Functions() {
  static const std::vector<vm::NativeFunction> functions = {
      {"device.query", "i:I", DeviceQuery},
      {"allocator.allocate", "iiI:r", Allocate},
      {"allocator.allocate_initialized", "rIIii:r", AllocateInitialized},
      {"buffer.length", "r:I", BufferLength},
      {"buffer.subspan", "rII:r", BufferSubspan},
      {"buffer.load", "rIi:I", BufferLoad},
      {"buffer.store", "rIiI:", BufferStore},
      {"buffer_view.create", "ri[I]:r", BufferViewCreate},
      {"buffer_view.assert", "ri[I]:", BufferViewAssert},
      {"buffer_view.buffer", "r:r", BufferViewBuffer},
      {"buffer_view.rank", "r:i", BufferViewRank},
      {"buffer_view.dim", "ri:I", BufferViewDim},
      {"buffer_view.element_type", "r:i", BufferViewElementType},
      {"command_buffer.create", ":r", CommandBufferCreate},
      {"command_buffer.finalize", "r:", CommandBufferFinalize},
      {"command_buffer.barrier", "r:", CommandBufferBarrier},
      {"command_buffer.fill", "rrIIIi:", CommandBufferFill},
      {"command_buffer.copy", "rrIrII:", CommandBufferCopy},
      {"command_buffer.update", "rrIrII:", CommandBufferUpdate},
      {"command_buffer.push_constants", "r[i]:", CommandBufferPushConstants},
      {"command_buffer.dispatch", "rriiii[rII]:", CommandBufferDispatch},
      {"executable.lookup", "i:r", ExecutableLookup},
      {"fence.create", ":r", FenceCreate},
      {"fence.join", "[r]:r", FenceJoin},
      {"fence.signal", "r:", FenceSignal},
      {"fence.fail", "ri:", FenceFail},
      {"fence.await", "i[r]:", FenceAwait},
      {"device.queue.alloca", "rriiI:r", QueueAlloca},
      {"device.queue.dealloca", "rrr:", QueueDealloca},
      {"device.queue.execute", "rrr:", QueueExecute},
  };
  return functions;
}

}  // namespace

const vm::RefType* CommandBufferHandle::vm_type() {
  static const vm::RefType type{"hal.command_buffer"};
  return &type;
}

Ref<Fence> Fence::Create() {
  Ref<Fence> fence(new Fence());
  fence->timepoints_.push_back({Semaphore::Create(0), 1});
  return fence;
}

Ref<Fence> Fence::Join(std::span<Fence* const> fences) {
  Ref<Fence> joined(new Fence());
  for (Fence* f : fences) {
    joined->timepoints_.insert(joined->timepoints_.end(), f->timepoints_.begin(), f->timepoints_.end());
  }
  return joined;
}

HalModule::HalModule(Ref<Device> device) : device_(std::move(device)) {}
HalModule::~HalModule() = default;

std::span<const vm::NativeFunction> HalModule::functions() const { return Functions(); }

namespace {

// A module compiled for several targets holds one binary per target under the same
// executable name; the ordinal names the first. The device gets the one in a format it
// loads, or the ordinal's own when none is (CreateExecutable then says why).
StatusOr<const vm::fb::ExecutableDef*> SelectBinary(
    const vm::Module& module, const flatbuffers::Vector<flatbuffers::Offset<vm::fb::ExecutableDef>>& defs,
    uint32_t ordinal, const DeviceInfo& device) {
  const vm::fb::ExecutableDef* named = defs.Get(ordinal);
  auto loads = [&](const vm::fb::ExecutableDef* def) {
    return def->format() && std::ranges::find(device.executable_formats, def->format()->string_view()) !=
                                device.executable_formats.end();
  };
  if (loads(named)) return named;
  std::string formats;
  size_t binaries = 0;
  for (const vm::fb::ExecutableDef* def : defs) {
    if (!def->name() || !named->name() || def->name()->string_view() != named->name()->string_view()) continue;
    if (loads(def)) return def;
    formats += StrCat(binaries++ ? ", " : "", def->format() ? def->format()->string_view() : "?");
  }
  if (binaries <= 1) return named;  // one binary: the driver says why it cannot load it
  std::string wanted;
  for (const std::string& f : device.executable_formats) wanted += StrCat(wanted.empty() ? "" : ", ", f);
  return InvalidArgumentError("module '", module.name(), "' has executable '", named->name()->string_view(),
                              "' for ", formats, " but ", device.name, " loads ", wanted);
}

}  // namespace

StatusOr<Ref<Executable>> HalModule::LookupExecutable(const vm::Module& module, uint32_t ordinal) {
  std::lock_guard lock(mutex_);
  auto key = std::make_pair(&module, ordinal);
  if (auto it = executables_.find(key); it != executables_.end()) return it->second;
  const auto* defs = module.def().executables();
  if (!defs || ordinal >= defs->size()) {
    return OutOfRangeError("module '", module.name(), "' has no executable ", ordinal, " (it has ",
                           defs ? defs->size() : 0, ")");
  }
  KILN_ASSIGN_OR_RETURN(const vm::fb::ExecutableDef* def, SelectBinary(module, *defs, ordinal, device_->info()));
  std::span<const uint8_t> data;
  if (def->data()) data = {def->data()->data(), def->data()->size()};
  KILN_ASSIGN_OR_RETURN(Ref<Executable> exe,
                        device_->CreateExecutable({def->format()->string_view(), data, def->name()->string_view()}));
  // What the compiler recorded must be what the binary provides.
  size_t declared = def->exports() ? def->exports()->size() : 0;
  if (declared != exe->exports().size()) {
    return InvalidArgumentError("executable '", def->name()->string_view(), "' declares ", declared,
                                " exports in the module but the binary has ", exe->exports().size());
  }
  for (size_t i = 0; i < declared; ++i) {
    const vm::fb::ExecutableExportDef* x = def->exports()->Get(i);
    const ExportInfo& info = exe->exports()[i];
    if (x->name()->string_view() != info.name || x->binding_count() != info.binding_count ||
        x->constant_count() != info.constant_count) {
      return InvalidArgumentError("executable '", def->name()->string_view(), "' export ", i, " is '",
                                  x->name()->string_view(), "' (", x->binding_count(), " bindings, ",
                                  x->constant_count(), " constants) in the module but '", info.name, "' (",
                                  info.binding_count, " bindings, ", info.constant_count, " constants) in the binary");
    }
  }
  executables_.emplace(key, exe);
  executable_defs_.emplace(exe.get(), def);
  return exe;
}

const vm::fb::ExecutableExportDef* HalModule::ExportDef(const Executable& executable, uint32_t ordinal) {
  std::lock_guard lock(mutex_);
  auto it = executable_defs_.find(&executable);
  if (it == executable_defs_.end() || !it->second->exports() || ordinal >= it->second->exports()->size()) {
    return nullptr;
  }
  return it->second->exports()->Get(ordinal);
}

Status Recording::Release(Device& device) {
  Status status = device.WaitIdle(Deadline::Infinite());
  for (const Ref<Buffer>& buffer : held_transients) {
    Status released = device.QueueDealloca({}, {}, buffer);
    if (status.ok() && !released.ok()) status = released;
  }
  held_transients.clear();
  submissions.clear();
  Status idle = device.WaitIdle(Deadline::Infinite());
  return status.ok() ? idle : status;
}

}  // namespace kiln::hal
