// The "hal" native module: the HAL as bytecode sees it. One instance per device; it may
// serve several contexts (executables are loaded once per module and cached).
//
// Functions (signature letters in vm/signature.h; memory types, usages and element types
// are the integer values of hal::MemoryType, hal::BufferUsage and hal::ElementType):
//   device.query(i key) -> I                      keys: 0 worker count
//   allocator.allocate(i type, i usage, I size) -> r buffer
//   allocator.allocate_initialized(r vm_buffer, I offset, I length, i type, i usage) -> r buffer
//   buffer.length(r) -> I
//   buffer.subspan(r, I offset, I length) -> r
//   buffer.load(r, I offset, i width) -> I        width 1, 2, 4 or 8 bytes (host-visible buffers)
//   buffer.store(r, I offset, i width, I value)
//   buffer_view.create(r buffer, i element_type, [I] dims) -> r
//   buffer_view.assert(r view, i element_type, [I] dims)  fails naming the mismatch
//   buffer_view.buffer(r) -> r ; .rank(r) -> i ; .dim(r, i) -> I ; .element_type(r) -> i
//   command_buffer.create() -> r ; .finalize(r) ; .barrier(r)
//   command_buffer.fill(r cb, r target, I offset, I length, I pattern, i pattern_length)
//   command_buffer.copy(r cb, r source, I source_offset, r target, I target_offset, I length)
//   command_buffer.update(r cb, r vm_buffer, I source_offset, r target, I target_offset, I length)
//   command_buffer.push_constants(r cb, [i] values)   used by the next dispatch
//   command_buffer.dispatch(r cb, r executable, i export, i x, i y, i z, [rII] bindings)
//   executable.lookup(i ordinal) -> r              the module's executable, loaded on the device
//   fence.create() -> r ; fence.join([r]) -> r ; fence.signal(r) ; fence.fail(r, i code)
//   fence.await(i timeout_ms, [r] fences)           timeout < 0 waits forever
//   device.queue.alloca(r wait, r signal, i type, i usage, I size) -> r buffer
//   device.queue.dealloca(r wait, r signal, r buffer)
//   device.queue.execute(r wait, r signal, r command_buffer)
// Null wait fences mean "no wait"; null signal fences mean "signal nothing".
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "hal/hal.h"
#include "vm/module.h"
#include "vm/module_generated.h"
#include "vm/native_module.h"

namespace kiln::hal {

// A set of semaphore timepoints: reached when every semaphore reaches its value.
class Fence final : public RefCounted {
 public:
  static Ref<Fence> Create();  // one new semaphore, reached at value 1
  static Ref<Fence> Join(std::span<Fence* const> fences);
  SemaphoreList timepoints() const { return timepoints_; }

 private:
  std::vector<SemaphoreValue> timepoints_;
};

// What bytecode holds for a command buffer: the HAL command buffer plus the push
// constants recorded for its next dispatch.
class CommandBufferHandle final : public RefCounted {
 public:
  static const vm::RefType* vm_type();
  explicit CommandBufferHandle(Ref<CommandBuffer> cb) : command_buffer(std::move(cb)) {}
  Ref<CommandBuffer> command_buffer;
  std::vector<uint32_t> pending_constants;
};

// What a call submits, recorded for kiln-benchmark-module --dispatches
// (HalModule::set_recording). While a recording is set, queue.execute keeps each command
// buffer it submits, and queue.dealloca keeps its transient buffer committed (the
// operation still orders its fences) so that every recorded dispatch can run again on the
// bindings it had; Release() deallocates them. Without a recording the HAL module pays one
// pointer test per queue operation.
struct Recording {
  std::vector<Ref<CommandBuffer>> submissions;  // in submission order
  std::vector<Ref<Buffer>> held_transients;     // dealloca'd during the recording
  // Deallocates the held transient buffers on `device` and waits for it to be idle.
  Status Release(Device& device);
};

class HalModule final : public vm::NativeModule {
 public:
  explicit HalModule(Ref<Device> device);
  ~HalModule() override;
  std::string_view name() const override { return "hal"; }
  std::span<const vm::NativeFunction> functions() const override;

  Device& device() { return *device_; }
  // The module's executable `ordinal`, loaded on this device on first use. Its export
  // metadata must agree with what the module declares.
  StatusOr<Ref<Executable>> LookupExecutable(const vm::Module& module, uint32_t ordinal);
  // What the module declares for export `ordinal` of an executable LookupExecutable
  // returned (its cost formulas, ...); null for other executables. Valid while the module is.
  const vm::fb::ExecutableExportDef* ExportDef(const Executable& executable, uint32_t ordinal);

  // Records submissions into `recording` (not owned) until set back to null.
  void set_recording(Recording* recording) { recording_ = recording; }
  Recording* recording() const { return recording_; }

 private:
  Ref<Device> device_;
  std::mutex mutex_;
  std::map<std::pair<const vm::Module*, uint32_t>, Ref<Executable>> executables_;
  std::map<const Executable*, const vm::fb::ExecutableDef*> executable_defs_;
  Recording* recording_ = nullptr;
};

}  // namespace kiln::hal

// The VM types of the HAL objects bytecode handles.
namespace kiln::vm {
template <>
const RefType* VmTypeOf<hal::Buffer>();
template <>
const RefType* VmTypeOf<hal::BufferView>();
template <>
const RefType* VmTypeOf<hal::Executable>();
template <>
const RefType* VmTypeOf<hal::Fence>();
}  // namespace kiln::vm
