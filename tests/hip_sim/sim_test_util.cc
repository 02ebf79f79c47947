#include "tests/hip_sim/sim_test_util.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <thread>

#include "hal/abi/gpu_kernel_abi.h"

namespace kiln::hsa_sim_test {

kiln_hsa_sim_agent_config_t Gpu(const char* isa, uint64_t memory_bytes, uint32_t wavefront_size) {
  kiln_hsa_sim_agent_config_t config{};
  config.isa = isa;
  config.device_memory_bytes = memory_bytes;
  config.wavefront_size = wavefront_size;
  return config;
}

std::vector<uint8_t> ReadFileBytes(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

const std::vector<uint8_t>& TestTwinBytes() {
  static const auto* bytes = new std::vector<uint8_t>(ReadFileBytes(KILN_KERNEL_DIR "/sim_test_twin.so"));
  return *bytes;
}

QueueErrorCatcher::QueueErrorCatcher() { EXPECT_EQ(hsa_signal_create(0, 0, nullptr, &called), HSA_STATUS_SUCCESS); }

QueueErrorCatcher::~QueueErrorCatcher() { hsa_signal_destroy(called); }

void QueueErrorCatcher::Callback(hsa_status_t status, hsa_queue_t* source, void* data) {
  auto* self = static_cast<QueueErrorCatcher*>(data);
  if (self->calls.fetch_add(1) == 0) {
    self->message = kiln_hsa_sim_last_error();  // before any HSA call resets it
    self->status = status;
    self->source = source;
    hsa_signal_store_screlease(self->called, 1);
  }
}

void QueueErrorCatcher::Wait() { ASSERT_EQ(WaitEq(called, 1), 1) << "the queue error callback never came"; }

void SimTest::Init(std::initializer_list<kiln_hsa_sim_agent_config_t> gpus) {
  std::vector<kiln_hsa_sim_agent_config_t> list(gpus);
  ASSERT_EQ(kiln_hsa_sim_configure(list.data(), static_cast<uint32_t>(list.size())), 0) << kiln_hsa_sim_last_error();
  ASSERT_HSA_OK(hsa_init());
  initialized_ = true;
  auto collect = [](hsa_agent_t agent, void* data) {
    auto* self = static_cast<SimTest*>(data);
    hsa_device_type_t type;
    EXPECT_EQ(hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type), HSA_STATUS_SUCCESS);
    if (type == HSA_DEVICE_TYPE_GPU) {
      self->gpus_.push_back(agent);
    } else {
      self->cpu_ = agent;
    }
    return HSA_STATUS_SUCCESS;
  };
  ASSERT_HSA_OK(hsa_iterate_agents(collect, this));
}

void SimTest::TearDown() {
  // However many hsa_init calls the test left, leave the runtime shut down and unconfigured.
  while (hsa_shut_down() == HSA_STATUS_SUCCESS) {
  }
  kiln_hsa_sim_configure(nullptr, 0);
}

Pools SimTest::PoolsOf(hsa_agent_t gpu) const {
  struct Found {
    std::vector<hsa_amd_memory_pool_t> pools;
  } gpu_pools, cpu_pools;
  auto collect = [](hsa_amd_memory_pool_t pool, void* data) {
    static_cast<Found*>(data)->pools.push_back(pool);
    return HSA_STATUS_SUCCESS;
  };
  EXPECT_EQ(hsa_amd_agent_iterate_memory_pools(gpu, collect, &gpu_pools), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_amd_agent_iterate_memory_pools(cpu_, collect, &cpu_pools), HSA_STATUS_SUCCESS);
  Pools pools;
  if (gpu_pools.pools.size() == 3) {
    pools.coarse = gpu_pools.pools[0];
    pools.fine = gpu_pools.pools[1];
    pools.group = gpu_pools.pools[2];
  }
  if (cpu_pools.pools.size() == 3) {
    pools.kernarg = cpu_pools.pools[0];
    pools.system_fine = cpu_pools.pools[1];
    pools.system_coarse = cpu_pools.pools[2];
  }
  return pools;
}

void* SimTest::Allocate(hsa_amd_memory_pool_t pool, size_t size) {
  void* ptr = nullptr;
  EXPECT_EQ(hsa_amd_memory_pool_allocate(pool, size, 0, &ptr), HSA_STATUS_SUCCESS) << kiln_hsa_sim_last_error();
  return ptr;
}

hsa_signal_t SimTest::Signal(int64_t value) {
  hsa_signal_t signal{};
  EXPECT_EQ(hsa_signal_create(value, 0, nullptr, &signal), HSA_STATUS_SUCCESS) << kiln_hsa_sim_last_error();
  return signal;
}

hsa_queue_t* SimTest::CreateQueue(hsa_agent_t agent, uint32_t size, QueueErrorCatcher* errors) {
  hsa_queue_t* queue = nullptr;
  EXPECT_EQ(hsa_queue_create(agent, size, HSA_QUEUE_TYPE_MULTI, errors ? &QueueErrorCatcher::Callback : nullptr, errors,
                             UINT32_MAX, UINT32_MAX, &queue),
            HSA_STATUS_SUCCESS)
      << kiln_hsa_sim_last_error();
  return queue;
}

hsa_executable_t SimTest::LoadTwin(hsa_agent_t agent) {
  const std::vector<uint8_t>& bytes = TestTwinBytes();
  EXPECT_FALSE(bytes.empty()) << "cannot read " KILN_KERNEL_DIR "/sim_test_twin.so";
  hsa_code_object_reader_t reader{};
  hsa_executable_t executable{};
  EXPECT_EQ(hsa_code_object_reader_create_from_memory(bytes.data(), bytes.size(), &reader), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_executable_create_alt(HSA_PROFILE_BASE, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, nullptr, &executable),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_executable_load_agent_code_object(executable, agent, reader, nullptr, nullptr), HSA_STATUS_SUCCESS)
      << kiln_hsa_sim_last_error();
  EXPECT_EQ(hsa_executable_freeze(executable, nullptr), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_code_object_reader_destroy(reader), HSA_STATUS_SUCCESS);
  return executable;
}

uint64_t SimTest::KernelObject(hsa_executable_t executable, hsa_agent_t agent, const char* name) {
  hsa_executable_symbol_t symbol{};
  EXPECT_EQ(hsa_executable_get_symbol_by_name(executable, name, &agent, &symbol), HSA_STATUS_SUCCESS)
      << kiln_hsa_sim_last_error();
  uint64_t object = 0;
  EXPECT_EQ(hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &object),
            HSA_STATUS_SUCCESS);
  return object;
}

void WriteKernarg(void* dst, std::initializer_list<const void*> bindings, std::initializer_list<uint32_t> constants,
                  const uint32_t grid[3], const uint16_t workgroup[3]) {
  auto* out = static_cast<uint8_t*>(dst);
  uint32_t b = 0;
  for (const void* binding : bindings) std::memcpy(out + 8 * b++, &binding, 8);
  uint32_t c = 0;
  for (uint32_t constant : constants) std::memcpy(out + kiln_gpu_kernarg_constants_offset(b) + 4 * c++, &constant, 4);
  uint32_t count[3];
  for (int d = 0; d < 3; ++d) count[d] = (grid[d] + workgroup[d] - 1) / workgroup[d];
  std::memcpy(out + kiln_gpu_kernarg_workgroup_count_offset(b, c), count, sizeof(count));
}

uint16_t Header(hsa_packet_type_t type, bool barrier, uint32_t acquire_scope, uint32_t release_scope) {
  return static_cast<uint16_t>((type << HSA_PACKET_HEADER_TYPE) | ((barrier ? 1 : 0) << HSA_PACKET_HEADER_BARRIER) |
                               (acquire_scope << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                               (release_scope << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
}

hsa_kernel_dispatch_packet_t DispatchPacket(uint64_t kernel_object, void* kernarg, std::initializer_list<uint32_t> grid,
                                            std::initializer_list<uint16_t> workgroup, hsa_signal_t completion,
                                            bool barrier, uint32_t group_segment_size) {
  hsa_kernel_dispatch_packet_t p{};
  p.header = Header(HSA_PACKET_TYPE_KERNEL_DISPATCH, barrier);
  p.setup = static_cast<uint16_t>(grid.size());
  uint32_t g[3] = {1, 1, 1};
  uint16_t w[3] = {1, 1, 1};
  std::copy(grid.begin(), grid.end(), g);
  std::copy(workgroup.begin(), workgroup.end(), w);
  p.workgroup_size_x = w[0];
  p.workgroup_size_y = w[1];
  p.workgroup_size_z = w[2];
  p.grid_size_x = g[0];
  p.grid_size_y = g[1];
  p.grid_size_z = g[2];
  p.group_segment_size = group_segment_size;
  p.private_segment_size = 0;
  p.kernel_object = kernel_object;
  p.kernarg_address = kernarg;
  p.completion_signal = completion;
  return p;
}

uint64_t Submit(hsa_queue_t* queue, const void* packet) {
  uint64_t id = hsa_queue_add_write_index_scacq_screl(queue, 1);
  while (id - hsa_queue_load_read_index_scacquire(queue) >= queue->size) std::this_thread::yield();
  auto* slot = static_cast<uint8_t*>(queue->base_address) + (id % queue->size) * 64;
  std::memcpy(slot + 4, static_cast<const uint8_t*>(packet) + 4, 60);
  uint32_t header_and_setup;
  std::memcpy(&header_and_setup, packet, 4);
  __atomic_store_n(reinterpret_cast<uint32_t*>(slot), header_and_setup, __ATOMIC_RELEASE);
  hsa_signal_store_screlease(queue->doorbell_signal, static_cast<hsa_signal_value_t>(id));
  return id;
}

int64_t WaitEq(hsa_signal_t signal, int64_t value, uint64_t timeout_ns) {
  return hsa_signal_wait_scacquire(signal, HSA_SIGNAL_CONDITION_EQ, value, timeout_ns, HSA_WAIT_STATE_BLOCKED);
}

}  // namespace kiln::hsa_sim_test
