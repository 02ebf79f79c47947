// hsa_init / hsa_shut_down, the session they build and tear down, the last-error plumbing,
// hsa_status_string and hsa_system_get_info.
#include "drivers/hip/sim/runtime.h"

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "drivers/hip/sim/async_copy.h"
#include "drivers/hip/sim/code_objects.h"
#include "drivers/hip/sim/isa/program.h"
#include "drivers/hip/sim/queue.h"

namespace kiln::hsa_sim {
namespace {

// Process-wide state. Leaked on purpose: simulator threads may outlive static destruction
// when the application exits without hsa_shut_down.
struct Global {
  std::mutex mu;
  int32_t refcount = 0;
  std::shared_ptr<Session> session;
  // Changes (under mu) whenever `session` does, so a thread can tell that the session it saw
  // last is still the current one from one load, without the lock.
  std::atomic<uint64_t> session_epoch{0};
  // From kiln_hsa_sim_configure; empty: the environment or the default.
  std::optional<std::vector<AgentConfig>> configured;
};

Global& G() {
  static Global* global = new Global;
  return *global;
}

// What the simulator keeps per thread, in one object so that an entry point finds all of it
// with one TLS lookup (this is a shared library: each thread_local costs a call).
struct ThreadState {
  std::string last_error;
  const char* function = "";
  const void* sim_thread_owner = nullptr;
  // The session as of session_epoch. Holding it keeps that session's memory (not its threads
  // or allocations: hsa_shut_down stops and frees those) until this thread's next entry point
  // sees a new epoch, or the thread exits.
  uint64_t session_epoch = 0;
  std::shared_ptr<Session> session;
};
thread_local ThreadState t_state;

// The current session, through this thread's copy: the global lock only when it changed.
const std::shared_ptr<Session>& ThreadSession(ThreadState& state) {
  Global& g = G();
  if (g.session_epoch.load(std::memory_order_acquire) != state.session_epoch) {
    std::lock_guard lock(g.mu);
    state.session = g.session;
    state.session_epoch = g.session_epoch.load(std::memory_order_relaxed);
  }
  return state.session;
}

uint64_t PhysicalMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 16ull << 30;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
}

// A pool that allocates from `budget`; with a null budget it does not allow runtime allocation.
std::unique_ptr<Pool> MakePool(std::string description, hsa_amd_segment_t segment, uint32_t flags, uint64_t size,
                               MemoryBudget* budget, bool accessible_by_all) {
  auto pool = std::make_unique<Pool>();
  pool->description = std::move(description);
  pool->segment = segment;
  pool->global_flags = flags;
  pool->size = size;
  pool->alloc_allowed = budget != nullptr;
  pool->budget = budget;
  pool->accessible_by_all = accessible_by_all;
  return pool;
}

}  // namespace

void BeginApiCall(const char* function) {
  ThreadState& state = t_state;
  state.function = function;
  state.last_error.clear();
}

void SetLastError(std::string text) { t_state.last_error = StrCat(t_state.function, ": ", text); }
void SetLastErrorRaw(std::string text) { t_state.last_error = std::move(text); }
const std::string& LastError() { return t_state.last_error; }

std::string Hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof(text), "0x%" PRIx64, value);
  return text;
}

void StartSimThread(const void* owner, const char* name) {
  t_state.sim_thread_owner = owner;
  pthread_setname_np(pthread_self(), name);  // best effort: for profilers and debuggers
  sched_param param{};
  param.sched_priority = 0;  // the only priority SCHED_BATCH has
  (void)sched_setscheduler(0, SCHED_BATCH, &param);  // best effort: a sandbox may refuse it
}
const void* SimThreadOwner() { return t_state.sim_thread_owner; }

uint64_t TimestampNs() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count());
}

std::shared_ptr<Session> CurrentSession() {
  Global& g = G();
  std::lock_guard lock(g.mu);
  return g.session;
}

std::shared_ptr<Session> EnterApi(const char* function) { return EnterLeafApi(function) ? t_state.session : nullptr; }

Session* EnterLeafApi(const char* function) {
  ThreadState& state = t_state;
  state.function = function;
  state.last_error.clear();
  Session* session = ThreadSession(state).get();
  if (!session) SetLastError("the HSA runtime is not initialized (call hsa_init first)");
  return session;
}

bool SetConfiguredAgents(std::optional<std::vector<AgentConfig>> agents) {
  Global& g = G();
  std::lock_guard lock(g.mu);
  if (g.refcount > 0) return false;
  g.configured = std::move(agents);
  return true;
}

// ---- SystemEvents -------------------------------------------------------------------------

void SystemEvents::Add(hsa_amd_system_event_callback_t callback, void* data) {
  std::lock_guard lock(mu_);
  handlers_.emplace_back(callback, data);
}

void SystemEvents::Deliver(const hsa_amd_event_t& event) {
  std::vector<std::pair<hsa_amd_system_event_callback_t, void*>> handlers;
  {
    std::lock_guard lock(mu_);
    handlers = handlers_;
  }
  for (auto& [callback, data] : handlers) callback(&event, data);
}

// ---- Session ------------------------------------------------------------------------------

StatusOr<std::shared_ptr<Session>> Session::Create(const std::vector<AgentConfig>& gpus,
                                                   const std::vector<FaultSpec>& faults) {
  std::shared_ptr<Session> session(new Session);
  session->system_memory_.capacity = PhysicalMemoryBytes();
  session->gpu_count_ = static_cast<uint32_t>(gpus.size());
  for (size_t i = 0; i < gpus.size(); ++i) {
    const AgentConfig& config = gpus[i];
    auto agent = std::make_unique<Agent>();
    agent->gpu_index = static_cast<uint32_t>(i);
    agent->gpu = true;
    agent->node = static_cast<uint32_t>(i + 1);  // node 0 is the CPU, as in ROCm
    agent->config = config;
    agent->name = config.isa;
    std::string isa_name = "amdgcn-amd-amdhsa--" + config.isa;
    for (const auto& isa : session->isas_) {
      if (isa->name == isa_name) agent->isa = isa.get();
    }
    if (!agent->isa) {
      auto isa = std::make_unique<Isa>();
      isa->name = isa_name;
      agent->isa = isa.get();
      session->isas_.push_back(std::move(isa));
    }
    agent->device_memory.capacity = config.device_memory_bytes;
    std::string who = agent->Describe();
    agent->pools.push_back(MakePool("device coarse-grained pool of " + who, HSA_AMD_SEGMENT_GLOBAL,
                                    HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED, config.device_memory_bytes,
                                    &agent->device_memory, false));
    agent->pools.push_back(MakePool("device fine-grained pool of " + who, HSA_AMD_SEGMENT_GLOBAL,
                                    HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED, config.device_memory_bytes,
                                    &agent->device_memory, false));
    agent->pools.push_back(
        MakePool("group segment pool of " + who, HSA_AMD_SEGMENT_GROUP, 0, config.lds_bytes, nullptr, false));
    for (auto& pool : agent->pools) pool->owner = agent.get();
    session->agents_.push_back(std::move(agent));
  }

  auto cpu = std::make_unique<Agent>();
  cpu->node = 0;
  cpu->name = "kiln-sim-cpu";
  MemoryBudget* system = &session->system_memory_;
  uint64_t system_size = system->capacity;
  cpu->pools.push_back(
      MakePool("kernarg pool of the CPU agent", HSA_AMD_SEGMENT_GLOBAL,
               HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED | HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT, system_size,
               system, true));
  cpu->pools.push_back(MakePool("system fine-grained pool of the CPU agent", HSA_AMD_SEGMENT_GLOBAL,
                                HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED, system_size, system, true));
  cpu->pools.push_back(MakePool("system coarse-grained pool of the CPU agent", HSA_AMD_SEGMENT_GLOBAL,
                                HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED, system_size, system, false));
  for (auto& pool : cpu->pools) pool->owner = cpu.get();
  session->agents_.push_back(std::move(cpu));

  for (const FaultSpec& fault : faults) {
    if (fault.gpu_agent_index >= session->gpu_count_) {
      return InvalidArgumentError("a fault names GPU agent ", fault.gpu_agent_index, " but there are only ",
                                  session->gpu_count_);
    }
    session->agents_[fault.gpu_agent_index]->faults.Arm(fault.kind, fault.packet_ordinal, fault.value);
  }

  try {
    for (uint32_t i = 0; i < session->gpu_count_; ++i) {
      Agent& agent = *session->agents_[i];
      agent.copy_engine = std::make_unique<CopyEngine>(agent, session->memory);
    }
  } catch (const std::exception& e) {
    session->Shutdown();
    return ResourceExhaustedError("starting the copy engines failed: ", e.what());
  }
  return session;
}

Session::~Session() { Shutdown(); }

void Session::Shutdown() {
  if (shut_down_) return;
  shut_down_ = true;
  // Threads first: after this nothing but the application touches signals and memory.
  for (auto& queue : queues.CloseAndTakeAll()) queue->Stop();
  for (auto& agent : agents_) {
    if (agent->copy_engine) agent->copy_engine->Stop();
  }
  for (auto& signal : signals.CloseAndTakeAll()) signal->Abandon();
  kernels.CloseAndTakeAll();
  executables.CloseAndTakeAll();
  readers.CloseAndTakeAll();
  memory.FreeAll();
}

Agent* Session::FindAgent(hsa_agent_t agent) const {
  for (const auto& a : agents_) {
    if (a->handle().handle == agent.handle) return a.get();
  }
  return nullptr;
}

const Isa* Session::FindIsa(hsa_isa_t isa) const {
  for (const auto& i : isas_) {
    if (i->handle().handle == isa.handle) return i.get();
  }
  return nullptr;
}

Pool* Session::FindPool(hsa_amd_memory_pool_t pool) const {
  for (const auto& agent : agents_) {
    for (const auto& p : agent->pools) {
      if (p->handle().handle == pool.handle) return p.get();
    }
  }
  return nullptr;
}

hsa_status_t InvalidAgent(hsa_agent_t agent) {
  return Fail(HSA_STATUS_ERROR_INVALID_AGENT, "agent ", Hex(agent.handle), " is not an agent of this runtime");
}

hsa_status_t InvalidMemoryPool(hsa_amd_memory_pool_t pool) {
  return Fail(HSA_STATUS_ERROR_INVALID_MEMORY_POOL, "memory pool ", Hex(pool.handle), " is not a pool of this runtime");
}

namespace {

const char* StatusText(int64_t status) {
  switch (status) {
    case HSA_STATUS_SUCCESS:
      return "HSA_STATUS_SUCCESS: the function has been executed successfully";
    case HSA_STATUS_INFO_BREAK:
      return "HSA_STATUS_INFO_BREAK: a traversal was interrupted by the application";
    case HSA_STATUS_ERROR:
      return "HSA_STATUS_ERROR: a generic error has occurred";
    case HSA_STATUS_ERROR_INVALID_ARGUMENT:
      return "HSA_STATUS_ERROR_INVALID_ARGUMENT: an argument does not meet a precondition";
    case HSA_STATUS_ERROR_INVALID_QUEUE_CREATION:
      return "HSA_STATUS_ERROR_INVALID_QUEUE_CREATION: the requested queue creation is not valid";
    case HSA_STATUS_ERROR_INVALID_ALLOCATION:
      return "HSA_STATUS_ERROR_INVALID_ALLOCATION: the requested allocation is not valid";
    case HSA_STATUS_ERROR_INVALID_AGENT:
      return "HSA_STATUS_ERROR_INVALID_AGENT: the agent is invalid";
    case HSA_STATUS_ERROR_INVALID_REGION:
      return "HSA_STATUS_ERROR_INVALID_REGION: the memory region is invalid";
    case HSA_STATUS_ERROR_INVALID_SIGNAL:
      return "HSA_STATUS_ERROR_INVALID_SIGNAL: the signal is invalid";
    case HSA_STATUS_ERROR_INVALID_QUEUE:
      return "HSA_STATUS_ERROR_INVALID_QUEUE: the queue is invalid";
    case HSA_STATUS_ERROR_OUT_OF_RESOURCES:
      return "HSA_STATUS_ERROR_OUT_OF_RESOURCES: the runtime failed to allocate the necessary resources";
    case HSA_STATUS_ERROR_INVALID_PACKET_FORMAT:
      return "HSA_STATUS_ERROR_INVALID_PACKET_FORMAT: the AQL packet is malformed";
    case HSA_STATUS_ERROR_RESOURCE_FREE:
      return "HSA_STATUS_ERROR_RESOURCE_FREE: an error occurred while releasing a resource";
    case HSA_STATUS_ERROR_NOT_INITIALIZED:
      return "HSA_STATUS_ERROR_NOT_INITIALIZED: the HSA runtime is not initialized";
    case HSA_STATUS_ERROR_REFCOUNT_OVERFLOW:
      return "HSA_STATUS_ERROR_REFCOUNT_OVERFLOW: the runtime's reference count overflowed";
    case HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS:
      return "HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS: the arguments are not compatible";
    case HSA_STATUS_ERROR_INVALID_INDEX:
      return "HSA_STATUS_ERROR_INVALID_INDEX: the index is invalid";
    case HSA_STATUS_ERROR_INVALID_ISA:
      return "HSA_STATUS_ERROR_INVALID_ISA: the instruction set architecture is invalid";
    case HSA_STATUS_ERROR_INVALID_ISA_NAME:
      return "HSA_STATUS_ERROR_INVALID_ISA_NAME: the instruction set architecture name is invalid";
    case HSA_STATUS_ERROR_INVALID_CODE_OBJECT:
      return "HSA_STATUS_ERROR_INVALID_CODE_OBJECT: the code object is invalid";
    case HSA_STATUS_ERROR_INVALID_EXECUTABLE:
      return "HSA_STATUS_ERROR_INVALID_EXECUTABLE: the executable is invalid";
    case HSA_STATUS_ERROR_FROZEN_EXECUTABLE:
      return "HSA_STATUS_ERROR_FROZEN_EXECUTABLE: the executable is frozen";
    case HSA_STATUS_ERROR_INVALID_SYMBOL_NAME:
      return "HSA_STATUS_ERROR_INVALID_SYMBOL_NAME: there is no symbol with the given name";
    case HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED:
      return "HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED: the variable is already defined";
    case HSA_STATUS_ERROR_VARIABLE_UNDEFINED:
      return "HSA_STATUS_ERROR_VARIABLE_UNDEFINED: the variable is undefined";
    case HSA_STATUS_ERROR_EXCEPTION:
      return "HSA_STATUS_ERROR_EXCEPTION: a kernel raised a hardware exception (trap)";
    case HSA_STATUS_ERROR_INVALID_CODE_SYMBOL:
      return "HSA_STATUS_ERROR_INVALID_CODE_SYMBOL: the code object symbol is invalid";
    case HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL:
      return "HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL: the executable symbol is invalid";
    case HSA_STATUS_ERROR_INVALID_FILE:
      return "HSA_STATUS_ERROR_INVALID_FILE: the file descriptor is invalid";
    case HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER:
      return "HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER: the code object reader is invalid";
    case HSA_STATUS_ERROR_INVALID_CACHE:
      return "HSA_STATUS_ERROR_INVALID_CACHE: the cache is invalid";
    case HSA_STATUS_ERROR_INVALID_WAVEFRONT:
      return "HSA_STATUS_ERROR_INVALID_WAVEFRONT: the wavefront is invalid";
    case HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP:
      return "HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP: the signal group is invalid";
    case HSA_STATUS_ERROR_INVALID_RUNTIME_STATE:
      return "HSA_STATUS_ERROR_INVALID_RUNTIME_STATE: the runtime is not in the configuration state";
    case HSA_STATUS_ERROR_FATAL:
      return "HSA_STATUS_ERROR_FATAL: the queue received an error that may require process termination";
    case HSA_STATUS_ERROR_INVALID_MEMORY_POOL:
      return "HSA_STATUS_ERROR_INVALID_MEMORY_POOL: the memory pool is invalid";
    case HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION:
      return "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: the agent accessed memory beyond the maximum legal address "
             "(GPU memory fault)";
    case HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION:
      return "HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION: the agent executed an invalid shader instruction";
    case HSA_STATUS_ERROR_MEMORY_FAULT:
      return "HSA_STATUS_ERROR_MEMORY_FAULT: the agent attempted to access an inaccessible address";
    case HSA_STATUS_CU_MASK_REDUCED:
      return "HSA_STATUS_CU_MASK_REDUCED: the CU mask was reduced to the CUs available to the process";
  }
  return nullptr;
}

}  // namespace
}  // namespace kiln::hsa_sim

using namespace kiln::hsa_sim;

extern "C" {

hsa_status_t HSA_API hsa_init() {
  BeginApiCall(__func__);
  Global& g = G();
  std::lock_guard lock(g.mu);
  if (g.refcount > 0) {
    if (g.refcount == INT32_MAX) return Fail(HSA_STATUS_ERROR_REFCOUNT_OVERFLOW, "reference count is INT32_MAX");
    ++g.refcount;
    return HSA_STATUS_SUCCESS;
  }
  std::vector<AgentConfig> agents;
  if (g.configured) {
    agents = *g.configured;
  } else if (const char* text = std::getenv("KILN_HSA_SIM_AGENTS"); text && *text) {
    auto parsed = ParseAgentsText(text);
    if (!parsed.ok()) {
      return Fail(HSA_STATUS_ERROR, "KILN_HSA_SIM_AGENTS=\"", text, "\": ", parsed.status().ToString());
    }
    agents = std::move(*parsed);
  } else {
    agents = DefaultAgents();
  }
  std::vector<FaultSpec> faults;
  if (const char* text = std::getenv("KILN_HSA_SIM_FAULTS"); text && *text) {
    auto parsed = ParseFaultsText(text);
    if (!parsed.ok()) {
      return Fail(HSA_STATUS_ERROR, "KILN_HSA_SIM_FAULTS=\"", text, "\": ", parsed.status().ToString());
    }
    faults = std::move(*parsed);
  }
  ExecutionMode mode = ExecutionMode::kTwin;
  if (const char* text = std::getenv("KILN_HSA_SIM_MODE"); text && *text) {
    auto parsed = ParseExecutionMode(text);
    if (!parsed.ok()) return Fail(HSA_STATUS_ERROR, "KILN_HSA_SIM_MODE=\"", text, "\": ", parsed.status().ToString());
    mode = *parsed;
    std::string why;
    if (mode != ExecutionMode::kTwin && !isa::DecoderAvailable(&why)) {
      return Fail(HSA_STATUS_ERROR, "KILN_HSA_SIM_MODE=", text, ": ", why);
    }
  }
  auto executor =
      ParseExecutorOptions(std::getenv("KILN_HSA_SIM_INTERLEAVE_SEED"), std::getenv("KILN_HSA_SIM_RACE_CHECK"));
  if (!executor.ok()) return Fail(HSA_STATUS_ERROR, executor.status().message());
  auto session = Session::Create(agents, faults);
  if (!session.ok()) {
    hsa_status_t status = session.status().code() == kiln::StatusCode::kResourceExhausted
                              ? HSA_STATUS_ERROR_OUT_OF_RESOURCES
                              : HSA_STATUS_ERROR;
    return Fail(status, session.status().ToString());
  }
  g.session = std::move(*session);
  g.session->mode = mode;
  g.session->executor = *executor;
  g.session_epoch.fetch_add(1, std::memory_order_release);
  g.refcount = 1;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_shut_down() {
  BeginApiCall(__func__);
  Global& g = G();
  std::shared_ptr<Session> session;
  {
    std::lock_guard lock(g.mu);
    if (g.refcount == 0) return Fail(HSA_STATUS_ERROR_NOT_INITIALIZED, "the HSA runtime is not initialized");
    if (g.refcount == 1 && SimThreadOwner() != nullptr) {
      return Fail(HSA_STATUS_ERROR,
                  "the last hsa_shut_down cannot run on a simulator thread (a queue error "
                  "callback or system event handler): it joins that thread");
    }
    if (--g.refcount > 0) return HSA_STATUS_SUCCESS;
    session = std::move(g.session);
    g.session_epoch.fetch_add(1, std::memory_order_release);
  }
  // Outside the lock: queue callbacks still running may call into the API until joined.
  session->Shutdown();
  return HSA_STATUS_SUCCESS;
}

// Works without hsa_init (as ROCm's does) and leaves the last error alone when it succeeds, so
// a caller can turn a failed call's status into text and then still read that call's detail
// (a failed hsa_init included).
hsa_status_t HSA_API hsa_status_string(hsa_status_t status, const char** status_string) {
  if (status_string == nullptr) {
    BeginApiCall(__func__);
    return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "status_string is null");
  }
  int64_t code = RawEnum(status);
  const char* text = StatusText(code);
  if (!text) {
    BeginApiCall(__func__);
    return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "status ", Hex(static_cast<uint64_t>(code)),
                " is not an hsa_status_t");
  }
  *status_string = text;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_system_get_info(hsa_system_info_t attribute, void* value) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (value == nullptr) return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "value is null");
  int64_t attr = RawEnum(attribute);
  switch (attr) {
    case HSA_SYSTEM_INFO_VERSION_MAJOR:
      return Put<uint16_t>(value, 1);
    case HSA_SYSTEM_INFO_VERSION_MINOR:
      return Put<uint16_t>(value, 1);
    case HSA_SYSTEM_INFO_TIMESTAMP:
      return Put<uint64_t>(value, TimestampNs());
    case HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY:
      return Put<uint64_t>(value, 1'000'000'000);  // timestamps and timeouts are nanoseconds
    case HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT:
      return Put<uint64_t>(value, UINT64_MAX);
    case HSA_SYSTEM_INFO_ENDIANNESS:
      return Put(value, HSA_ENDIANNESS_LITTLE);
    case HSA_SYSTEM_INFO_MACHINE_MODEL:
      return Put(value, HSA_MACHINE_MODEL_LARGE);
    case HSA_SYSTEM_INFO_EXTENSIONS:
      std::memset(value, 0, 128);  // no extensions
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_SYSTEM_INFO_BUILD_VERSION:
      return Put<const char*>(value, "kiln hip-sim");
    case HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED:
    case HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT:
      return Put(value, false);
  }
  return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "attribute ", Hex(static_cast<uint64_t>(attr)),
              " is not a system attribute the simulator knows");
}

}  // extern "C"
