// Code object readers, executables and symbols: hsa_code_object_reader_*, hsa_executable_*,
// hsa_executable_symbol_get_info. See code_objects.h for what hip-sim loads.
#include "drivers/hip/sim/code_objects.h"

#include <algorithm>
#include <cstring>
#include <span>

#include "drivers/hip/sim/isa/code_object.h"
#include "drivers/hip/sim/isa/program.h"
#include "drivers/hip/sim/runtime.h"

namespace kiln::hsa_sim {
namespace {

constexpr uint16_t kMachineX86_64 = 62;
constexpr uint16_t kMachineAmdgpu = 224;
constexpr uint32_t kMaxTwinKernels = 1u << 16;

uint16_t ReadU16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
uint32_t ReadU32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) | (static_cast<uint32_t>(p[2]) << 16) |
         (static_cast<uint32_t>(p[3]) << 24);
}

bool IsAmdgpuElf(std::span<const uint8_t> image) {
  static constexpr uint8_t kElfMagic[4] = {0x7f, 'E', 'L', 'F'};
  return image.size() >= 64 && std::memcmp(image.data(), kElfMagic, 4) == 0 && ReadU16(&image[18]) == kMachineAmdgpu;
}

// "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-" -> "amdgcn-amd-amdhsa--gfx942": target features do
// not change what a host twin computes.
std::string_view WithoutFeatures(std::string_view isa) { return isa.substr(0, isa.find(':')); }

// Accepts an x86-64 ELF file; anything else (an HSACO above all) fails with what it is.
hsa_status_t CheckElf(std::span<const uint8_t> image) {
  static constexpr uint8_t kElfMagic[4] = {0x7f, 'E', 'L', 'F'};
  if (image.size() < 4 || std::memcmp(image.data(), kElfMagic, 4) != 0) {
    return Fail(
        HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "the code object (", image.size(),
        " bytes) is not an ELF file: hip-sim loads the x86-64 host twin that kiln's compiler emits beside each HSACO");
  }
  if (image.size() < 64)
    return Fail(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "the ELF header is truncated (", image.size(), " bytes)");
  bool elf64 = image[4] == 2;
  uint16_t machine = ReadU16(&image[18]);
  if (machine == kMachineAmdgpu) {
    uint32_t e_flags = ReadU32(&image[elf64 ? 48 : 36]);
    return Fail(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "this is an AMDGPU code object (HSACO, e_flags ", Hex(e_flags),
                ", mach ", isa::AmdgpuProcessorName(e_flags),
                "); hip-sim runs the host twin that kiln's compiler emits beside each HSACO, not GPU machine code, "
                "unless KILN_HSA_SIM_MODE=code-object selects the instruction-level executor");
  }
  if (machine != kMachineX86_64) {
    return Fail(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "the ELF file is for machine ", machine,
                ", neither an AMDGPU code object nor an x86-64 host twin");
  }
  return HSA_STATUS_SUCCESS;
}

// Accepts a twin library descriptor that is well-formed and lowered for `agent`'s ISA and
// wavefront size. The kernel table's entries are checked as they are read.
hsa_status_t CheckTwin(const kiln_gpu_twin_library_v1_t* descriptor, const Agent& agent) {
  if (!descriptor) {
    return Fail(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "the host twin does not provide twin ABI version ",
                KILN_GPU_TWIN_ABI_VERSION, " (its query returned null)");
  }
  if (descriptor->abi_version != KILN_GPU_TWIN_ABI_VERSION) {
    return Fail(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "the host twin returned a version ", descriptor->abi_version,
                " descriptor when asked for version ", KILN_GPU_TWIN_ABI_VERSION);
  }
  if (descriptor->isa == nullptr) return Fail(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "the host twin names no ISA");
  if (descriptor->wavefront_size != 32 && descriptor->wavefront_size != 64) {
    return Fail(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "the host twin's wavefront size ", descriptor->wavefront_size,
                " is neither 32 nor 64");
  }
  if (descriptor->kernel_count > kMaxTwinKernels) {
    return Fail(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "the host twin declares ", descriptor->kernel_count,
                " kernels; the limit is ", kMaxTwinKernels);
  }
  if (descriptor->kernel_count > 0 && descriptor->kernels == nullptr) {
    return Fail(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "the host twin declares ", descriptor->kernel_count,
                " kernels but no kernel table");
  }
  if (WithoutFeatures(descriptor->isa) != agent.isa->name) {
    return Fail(HSA_STATUS_ERROR_INVALID_ISA, "the host twin was lowered for ", descriptor->isa, " but ",
                agent.Describe(), " is ", agent.isa->name);
  }
  if (descriptor->wavefront_size != agent.config.wavefront_size) {
    return Fail(HSA_STATUS_ERROR_INVALID_ISA, "the host twin (", descriptor->isa, ") was lowered for wave",
                descriptor->wavefront_size, " but ", agent.Describe(), " runs wave", agent.config.wavefront_size);
  }
  return HSA_STATUS_SUCCESS;
}

}  // namespace

hsa_status_t Executable::Load(Session& session, const Agent& agent, const CodeObjectReader& reader,
                              hsa_loaded_code_object_t* loaded) {
  std::lock_guard lock(mu_);
  if (frozen_)
    return Fail(HSA_STATUS_ERROR_FROZEN_EXECUTABLE,
                "the executable is frozen; load code objects before hsa_executable_freeze");
  std::span<const uint8_t> image(static_cast<const uint8_t*>(reader.bytes), reader.size);
  if (session.mode != ExecutionMode::kTwin && IsAmdgpuElf(image)) {
    return LoadHsaco(session, agent, image, loaded, session.mode == ExecutionMode::kBoth);
  }
  if (hsa_status_t status = CheckElf(image); status != HSA_STATUS_SUCCESS) return status;
  return LoadTwin(session, agent, image, loaded);
}

hsa_status_t Executable::LoadTwin(Session& session, const Agent& agent, std::span<const uint8_t> image,
                                  hsa_loaded_code_object_t* loaded) {
  auto library = SharedObject::LoadFromMemory(image, "hip-sim twin");
  if (!library.ok()) {
    return Fail(HSA_STATUS_ERROR_INVALID_CODE_OBJECT,
                "the x86-64 host twin could not be loaded: ", library.status().ToString());
  }
  auto query = reinterpret_cast<kiln_gpu_twin_query_fn_t>((*library)->Symbol(KILN_GPU_TWIN_QUERY_SYMBOL));
  if (!query) {
    return Fail(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "the x86-64 shared object does not export ",
                KILN_GPU_TWIN_QUERY_SYMBOL, ", so it is not a host twin (hal/abi/gpu_kernel_abi.h)");
  }
  const kiln_gpu_twin_library_v1_t* descriptor = query(KILN_GPU_TWIN_ABI_VERSION);
  if (hsa_status_t status = CheckTwin(descriptor, agent); status != HSA_STATUS_SUCCESS) return status;

  auto twin = std::make_shared<LoadedCodeObject>();
  std::vector<std::shared_ptr<KernelSymbol>> symbols;
  for (uint32_t i = 0; i < descriptor->kernel_count; ++i) {
    const kiln_gpu_twin_kernel_v1_t& k = descriptor->kernels[i];
    if (k.symbol == nullptr || k.symbol[0] == '\0') {
      return Fail(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "kernel ", i, " of the host twin has no symbol name");
    }
    std::string name = k.symbol;
    if (k.entry == nullptr) return Fail(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "kernel ", name, " has no entry");
    uint32_t align = k.kernarg_segment_alignment;
    if (align == 0 || (align & (align - 1)) != 0) {
      return Fail(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "kernel ", name, ": kernarg segment alignment ", align,
                  " is not a power of two");
    }
    auto symbol = std::make_shared<KernelSymbol>();
    symbol->code_object = twin;
    symbol->agent = &agent;
    symbol->name = std::move(name);
    symbol->entry = k.entry;
    symbol->kernarg_segment_size = k.kernarg_segment_size;
    symbol->kernarg_segment_alignment = align;
    symbol->group_segment_size = k.group_segment_size;
    symbol->private_segment_size = k.private_segment_size;
    if (session.mode == ExecutionMode::kBoth) {
      std::lock_guard paired_lock(session.paired_mu);
      auto paired = session.paired_programs.find({&agent, symbol->name});
      if (paired != session.paired_programs.end()) {
        symbol->paired_program = std::move(paired->second);
        session.paired_programs.erase(paired);
      }
    }
    symbols.push_back(std::move(symbol));
  }
  twin->library = std::move(*library);
  return AddSymbols(session, agent, std::move(twin), std::move(symbols), loaded);
}

hsa_status_t Executable::LoadHsaco(Session& session, const Agent& agent, std::span<const uint8_t> image,
                                   hsa_loaded_code_object_t* loaded, bool for_twins) {
  auto object = isa::ParseCodeObject(image);
  if (!object.ok()) {
    return Fail(HSA_STATUS_ERROR_INVALID_CODE_OBJECT,
                "the AMDGPU code object cannot be read: ", object.status().ToString());
  }
  std::string_view agent_processor = WithoutFeatures(agent.isa->name);
  agent_processor.remove_prefix(std::min(agent_processor.rfind('-') + 1, agent_processor.size()));
  if (object->processor != agent_processor) {
    return Fail(HSA_STATUS_ERROR_INVALID_ISA, "the AMDGPU code object is for ", object->processor, " but ",
                agent.Describe(), " is ", agent.isa->name);
  }
  // The executor's semantics are gfx942's (CDNA3): other processors' code objects are refused
  // as an ISA it cannot run, so the driver loads their twins instead (gfx1100's wave32 and
  // its own encodings; gfx90a until its differences are modelled).
  if (object->processor != "gfx942") {
    return Fail(HSA_STATUS_ERROR_INVALID_ISA, "the AMDGPU code object is for ", object->processor,
                "; the code-object executor runs gfx942 code only");
  }
  auto code_object = std::make_shared<LoadedCodeObject>();
  std::vector<std::shared_ptr<KernelSymbol>> symbols;
  for (isa::KernelCode& kernel : object->kernels) {
    uint32_t wave = kernel.descriptor.wavefront_size32() ? 32 : 64;
    if (kernel.wavefront_size != wave || wave != agent.config.wavefront_size || wave != 64) {
      return Fail(HSA_STATUS_ERROR_INVALID_ISA, "kernel ", kernel.name, " is compiled for wave", kernel.wavefront_size,
                  " (descriptor: wave", wave, ") but ", agent.Describe(), " runs wave", agent.config.wavefront_size,
                  "; the executor runs wave64");
    }
    auto symbol = std::make_shared<KernelSymbol>();
    symbol->code_object = code_object;
    symbol->agent = &agent;
    symbol->name = kernel.symbol;
    symbol->kernarg_segment_size = kernel.kernarg_segment_size;
    symbol->kernarg_segment_alignment = std::max<uint32_t>(kernel.kernarg_segment_align, 1);
    symbol->group_segment_size = kernel.group_segment_fixed_size;
    symbol->private_segment_size = kernel.private_segment_fixed_size;
    std::string name = kernel.name;
    auto program = isa::DecodeProgram(std::move(kernel), object->processor);
    if (!program.ok()) {
      return Fail(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "kernel ", name,
                  " cannot be decoded: ", program.status().ToString());
    }
    symbol->program = std::shared_ptr<const isa::Program>(std::move(*program));
    symbols.push_back(std::move(symbol));
  }
  if (for_twins) {
    std::lock_guard paired_lock(session.paired_mu);
    for (const auto& symbol : symbols) session.paired_programs[{&agent, symbol->name}] = symbol->program;
    return Fail(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "KILN_HSA_SIM_MODE=both: the HSACO's ", symbols.size(),
                " kernels are kept to run beside their host twins on copies of the buffers; load the twin");
  }
  return AddSymbols(session, agent, std::move(code_object), std::move(symbols), loaded);
}

hsa_status_t Executable::AddSymbols(Session& session, const Agent& agent, std::shared_ptr<LoadedCodeObject> code_object,
                                    std::vector<std::shared_ptr<KernelSymbol>> symbols,
                                    hsa_loaded_code_object_t* loaded) {
  for (size_t i = 0; i < symbols.size(); ++i) {
    const std::string& name = symbols[i]->name;
    auto same_name = [&](const std::shared_ptr<KernelSymbol>& s) { return s->name == name && s->agent == &agent; };
    if (std::any_of(symbols.begin(), symbols.begin() + i, same_name)) {
      return Fail(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "the code object declares kernel ", name, " twice");
    }
    if (std::any_of(symbols_.begin(), symbols_.end(), same_name)) {
      return Fail(HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED, "kernel ", name, " is already defined for ",
                  agent.Describe(), " by an earlier code object of this executable");
    }
  }
  for (const auto& symbol : symbols) {
    if (!session.kernels.Add(symbol->handle(), symbol)) {
      for (const auto& s : symbols) session.kernels.Remove(s->handle());
      return Fail(HSA_STATUS_ERROR_NOT_INITIALIZED, "the runtime is shutting down");
    }
  }
  symbols_.insert(symbols_.end(), symbols.begin(), symbols.end());
  if (loaded) loaded->handle = reinterpret_cast<uint64_t>(code_object.get());
  code_objects_.push_back(std::move(code_object));
  return HSA_STATUS_SUCCESS;
}

hsa_status_t Executable::Freeze() {
  std::lock_guard lock(mu_);
  if (frozen_) return Fail(HSA_STATUS_ERROR_FROZEN_EXECUTABLE, "the executable is already frozen");
  frozen_ = true;
  for (const auto& symbol : symbols_) symbol->frozen.store(true, std::memory_order_release);
  return HSA_STATUS_SUCCESS;
}

std::shared_ptr<KernelSymbol> Executable::FindSymbol(const std::string& name, const Agent* agent) const {
  std::lock_guard lock(mu_);
  for (const auto& symbol : symbols_) {
    if (symbol->name == name && symbol->agent == agent) return symbol;
  }
  return nullptr;
}

void Executable::Unregister(Session& session) {
  std::lock_guard lock(mu_);
  for (const auto& symbol : symbols_) session.kernels.Remove(symbol->handle());
  symbols_.clear();
  code_objects_.clear();
}

namespace {

hsa_status_t InvalidReader(hsa_code_object_reader_t reader) {
  return Fail(HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER, "code object reader ", Hex(reader.handle),
              " is not a live reader of this runtime");
}

hsa_status_t InvalidExecutable(hsa_executable_t executable) {
  return Fail(HSA_STATUS_ERROR_INVALID_EXECUTABLE, "executable ", Hex(executable.handle),
              " is not a live executable of this runtime");
}

}  // namespace
}  // namespace kiln::hsa_sim

using namespace kiln::hsa_sim;

extern "C" {

hsa_status_t HSA_API hsa_code_object_reader_create_from_memory(const void* code_object, size_t size,
                                                               hsa_code_object_reader_t* code_object_reader) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (code_object == nullptr || size == 0 || code_object_reader == nullptr) {
    return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "code_object is null, size is 0 or code_object_reader is null");
  }
  return RegisterHandle(session->readers, std::make_shared<CodeObjectReader>(CodeObjectReader{code_object, size}),
                        code_object_reader);
}

hsa_status_t HSA_API hsa_code_object_reader_destroy(hsa_code_object_reader_t code_object_reader) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!session->readers.Remove(code_object_reader.handle)) return InvalidReader(code_object_reader);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_executable_create_alt(hsa_profile_t profile,
                                               hsa_default_float_rounding_mode_t default_float_rounding_mode,
                                               const char* options, hsa_executable_t* executable) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  int64_t raw_profile = RawEnum(profile), raw_rounding = RawEnum(default_float_rounding_mode);
  if (raw_profile != HSA_PROFILE_BASE && raw_profile != HSA_PROFILE_FULL) {
    return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "profile ", raw_profile, " is not an hsa_profile_t");
  }
  // DEFAULT is accepted as ROCm does (HSA's text allows only ZERO and NEAR here).
  if (raw_rounding < HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT || raw_rounding > HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR) {
    return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "default_float_rounding_mode ", raw_rounding,
                " is not an hsa_default_float_rounding_mode_t");
  }
  if (executable == nullptr) return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "executable (the output) is null");
  return RegisterHandle(session->executables, std::make_shared<Executable>(), executable);
}

hsa_status_t HSA_API hsa_executable_load_agent_code_object(hsa_executable_t executable, hsa_agent_t agent,
                                                           hsa_code_object_reader_t code_object_reader,
                                                           const char* options,
                                                           hsa_loaded_code_object_t* loaded_code_object) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  std::shared_ptr<Executable> e = session->executables.Find(executable.handle);
  if (!e) return InvalidExecutable(executable);
  const Agent* a = session->FindAgent(agent);
  if (!a) return InvalidAgent(agent);
  if (!a->gpu)
    return Fail(HSA_STATUS_ERROR_INVALID_AGENT, a->Describe(), " runs no kernels; load code objects for a GPU agent");
  std::shared_ptr<CodeObjectReader> reader = session->readers.Find(code_object_reader.handle);
  if (!reader) return InvalidReader(code_object_reader);
  return e->Load(*session, *a, *reader, loaded_code_object);
}

hsa_status_t HSA_API hsa_executable_freeze(hsa_executable_t executable, const char* options) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  std::shared_ptr<Executable> e = session->executables.Find(executable.handle);
  if (!e) return InvalidExecutable(executable);
  return e->Freeze();
}

hsa_status_t HSA_API hsa_executable_destroy(hsa_executable_t executable) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  std::shared_ptr<Executable> e = session->executables.Remove(executable.handle);
  if (!e) return InvalidExecutable(executable);
  e->Unregister(*session);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_executable_get_symbol_by_name(hsa_executable_t executable, const char* symbol_name,
                                                       const hsa_agent_t* agent, hsa_executable_symbol_t* symbol) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  std::shared_ptr<Executable> e = session->executables.Find(executable.handle);
  if (!e) return InvalidExecutable(executable);
  if (symbol_name == nullptr || symbol == nullptr)
    return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "symbol_name or symbol is null");
  if (agent == nullptr) {
    return Fail(HSA_STATUS_ERROR_INVALID_SYMBOL_NAME, "no program-allocation symbol is named '", symbol_name,
                "' (kernels have agent allocation: pass their agent)");
  }
  const Agent* a = session->FindAgent(*agent);
  if (!a) return InvalidAgent(*agent);
  std::shared_ptr<KernelSymbol> s = e->FindSymbol(symbol_name, a);
  if (!s) {
    return Fail(HSA_STATUS_ERROR_INVALID_SYMBOL_NAME, "the executable has no kernel '", symbol_name, "' for ",
                a->Describe(), " (kernel symbols end in .kd)");
  }
  symbol->handle = s->handle();
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_executable_symbol_get_info(hsa_executable_symbol_t executable_symbol,
                                                    hsa_executable_symbol_info_t attribute, void* value) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  std::shared_ptr<KernelSymbol> s = session->kernels.Find(executable_symbol.handle);
  if (!s) {
    return Fail(HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL, "symbol ", Hex(executable_symbol.handle),
                " is not a symbol of a live executable");
  }
  if (value == nullptr) return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "value is null");
  int64_t attr = RawEnum(attribute);
  switch (attr) {
    case HSA_EXECUTABLE_SYMBOL_INFO_TYPE:
      return Put(value, HSA_SYMBOL_KIND_KERNEL);
    case HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH:
      return Put<uint32_t>(value, static_cast<uint32_t>(s->name.size()));
    case HSA_EXECUTABLE_SYMBOL_INFO_NAME:
      return PutName(value, s->name);
    case HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME_LENGTH:
      return Put<uint32_t>(value, 0);
    case HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME:
      return HSA_STATUS_SUCCESS;  // 0 bytes
    case HSA_EXECUTABLE_SYMBOL_INFO_AGENT:
      return Put(value, s->agent->handle());
    case HSA_EXECUTABLE_SYMBOL_INFO_LINKAGE:
      return Put(value, HSA_SYMBOL_LINKAGE_PROGRAM);
    case HSA_EXECUTABLE_SYMBOL_INFO_IS_DEFINITION:
      return Put(value, true);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT:  // HSA: 0 until the executable is frozen
      return Put<uint64_t>(value, s->frozen.load(std::memory_order_acquire) ? s->handle() : 0);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE:
      return Put<uint32_t>(value, s->kernarg_segment_size);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT:
      return Put<uint32_t>(value, s->kernarg_segment_alignment);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE:
      return Put<uint32_t>(value, s->group_segment_size);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE:
      return Put<uint32_t>(value, s->private_segment_size);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK:
      return Put(value, false);
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_CALL_CONVENTION:
      return Put<uint32_t>(value, 0);
  }
  return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "attribute ", attr,
              " does not apply to kernel symbols (the simulator's only kind) or is unknown");
}

}  // extern "C"
