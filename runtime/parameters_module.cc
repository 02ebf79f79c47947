#include "runtime/parameters_module.h"

#include <algorithm>
#include <string>
#include <vector>

#include "hal/buffer_view.h"
#include "hal/element_type.h"
#include "hal/module/hal_module.h"
#include "hal/upload.h"
#include "vm/list.h"

namespace kiln::runtime {

namespace {

using vm::NativeCall;

std::string_view Text(const vm::ByteBuffer& buffer) {
  return {reinterpret_cast<const char*>(buffer.bytes().data()), buffer.bytes().size()};
}

// "'model'::'blk.0.w'" (or "'blk.0.w'" in the unnamed scope), for messages.
std::string ParameterName(std::string_view scope, std::string_view key) {
  return scope.empty() ? StrCat("'", key, "'") : StrCat("'", scope, "'::'", key, "'");
}

// Fails unless what the entry's file says of its contents (when it says) is the global's
// element type and shape, and its length the global's bytes.
Status CheckEntry(const io::ParameterEntry& entry, hal::ElementType type, std::span<const int64_t> dims,
                  uint64_t bytes) {
  std::string expected = hal::ShapeString(dims, type);
  bool described = !entry.element_type.empty() && entry.element_type.rfind("gguf.", 0) != 0;
  if (described) {
    std::optional<hal::ElementType> stored = hal::ParseElementType(entry.element_type);
    bool same_shape = std::equal(dims.begin(), dims.end(), entry.shape.begin(), entry.shape.end());
    if (!stored || *stored != type || !same_shape) {
      std::string found;
      for (int64_t d : entry.shape) found += StrCat(d, "x");
      found += entry.element_type;
      return InvalidArgumentError("in ", entry.source, " it is ", found, "; the program's global is ", expected);
    }
  }
  if (entry.length != bytes) {
    return InvalidArgumentError("in ", entry.source, " it holds ", entry.length, " bytes; the program's global is ",
                                expected, " (", bytes, " bytes)");
  }
  return OkStatus();
}

StatusOr<Ref<hal::Buffer>> MakeBuffer(ParametersModule& self, const io::ParameterEntry& entry, size_t element_bytes) {
  hal::Device& device = self.device();
  // Like a call's results (a function may return a parameter global): device-local and
  // mappable, so the caller and check ops read it as any result.
  constexpr hal::MemoryType kMemory = hal::MemoryType::kDeviceLocal | hal::MemoryType::kHostVisible;
  hal::BufferParams params{kMemory, hal::BufferUsage::kDefault | hal::BufferUsage::kMapping, hal::MemoryAccess::kAll};
  if (entry.kind == io::ParameterEntry::Kind::kSplat) {
    return hal::FillNewBuffer(device, params, entry.length, entry.pattern);
  }
  KILN_ASSIGN_OR_RETURN(std::span<const uint8_t> bytes, io::EntryBytes(entry));
  if (self.mode() == ParameterMode::kFile) {
    StatusOr<Ref<hal::Buffer>> in_place = device.allocator().ImportHostMemory(
        {kMemory, hal::BufferUsage::kDispatchStorage | hal::BufferUsage::kTransferSource | hal::BufferUsage::kMapping,
         hal::MemoryAccess::kRead},
        bytes, Ref<RefCounted>(entry.file), std::max<size_t>(element_bytes, 1));
    if (in_place.ok()) {
      entry.file->Prefault(bytes);  // about to be read whole: map it now, not page by page
      return in_place;
    }
    // Not in place (another device's memory, or a misaligned entry): a copy.
  }
  return hal::UploadToNewBuffer(device, params, bytes);
}

Status Load(void* state, NativeCall& call) {
  auto& self = *static_cast<ParametersModule*>(state);
  KILN_ASSIGN_OR_RETURN(vm::ByteBuffer * scope_text, vm::RefArg<vm::ByteBuffer>(call, 0));
  KILN_ASSIGN_OR_RETURN(vm::ByteBuffer * key_text, vm::RefArg<vm::ByteBuffer>(call, 1));
  std::string_view scope = Text(*scope_text), key = Text(*key_text);
  std::string name = ParameterName(scope, key);
  if (call.args[2].i32() < 0 || call.args[2].i32() >= hal::kElementTypeCount) {
    return InvalidArgumentError("unknown element type ", call.args[2].i32(), " for parameter ", name);
  }
  auto type = static_cast<hal::ElementType>(call.args[2].i32());
  std::vector<int64_t> dims;
  for (size_t i = 3; i < call.args.size(); ++i) dims.push_back(call.args[i].i64());
  if (!self.provider() || self.provider()->empty()) {
    return NotFoundError("the module binds globals to parameters (", name,
                         ") but no parameter files were given; pass --parameters=",
                         scope.empty() ? "" : StrCat(scope, "="), "FILE (or attach a parameter provider)");
  }
  KILN_ASSIGN_OR_RETURN(const io::ParameterEntry* entry, self.provider()->Find(scope, key));
  KILN_ASSIGN_OR_RETURN(uint64_t count, hal::ShapeElementCount(dims), "for parameter ", name);
  std::optional<size_t> bytes = hal::ElementStorageBytes(type, count);
  if (!bytes) return InvalidArgumentError("parameter ", name, " of ", count, " elements overflows a size");
  KILN_RETURN_IF_ERROR(CheckEntry(*entry, type, dims, *bytes), "for parameter ", name);
  KILN_ASSIGN_OR_RETURN(Ref<hal::Buffer> buffer, MakeBuffer(self, *entry, hal::ElementStorageBits(type) / 8),
                        "while loading parameter ", name, " from ", entry->source);
  KILN_ASSIGN_OR_RETURN(Ref<hal::BufferView> view, hal::BufferView::Create(std::move(buffer), dims, type));
  call.results[0].ref = vm::VmRef::Make(std::move(view));
  return OkStatus();
}

const vm::NativeFunction kFunctions[] = {
    {"load", "rri[I]:r", Load},
};

}  // namespace

StatusOr<ParameterMode> ParseParameterMode(std::string_view text) {
  if (text == "file") return ParameterMode::kFile;
  if (text == "preload") return ParameterMode::kPreload;
  return InvalidArgumentError("unknown parameter mode '", text, "'; expected 'file' or 'preload'");
}

ParametersModule::ParametersModule(Ref<hal::Device> device, Ref<io::ParameterProvider> provider, ParameterMode mode)
    : device_(std::move(device)), provider_(std::move(provider)), mode_(mode) {}

std::span<const vm::NativeFunction> ParametersModule::functions() const { return kFunctions; }

}  // namespace kiln::runtime
