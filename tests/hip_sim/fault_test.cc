// Fault injection: memory faults reaching the system event handlers and the queue, injected
// queue errors, ordinals counted from the arming.
#include <atomic>
#include <string>

#include "tests/hip_sim/sim_test_util.h"

namespace kiln::hsa_sim_test {
namespace {

struct EventRecord {
  std::atomic<int> calls{0};
  hsa_amd_event_t event{};
  std::string last_error;
};

hsa_status_t RecordEvent(const hsa_amd_event_t* event, void* data) {
  auto* record = static_cast<EventRecord*>(data);
  record->event = *event;
  record->last_error = kiln_hsa_sim_last_error();
  record->calls.fetch_add(1);
  return HSA_STATUS_SUCCESS;
}

class HsaSimFaultTest : public SimTest {
 protected:
  void SetUp() override {
    Init();
    gpu_ = gpus_[0];
    Pools pools = PoolsOf(gpu_);
    executable_ = LoadTwin(gpu_);
    add_one_ = KernelObject(executable_, gpu_, "add_one.kd");
    kernargs_ = static_cast<uint8_t*>(Allocate(pools.kernarg, 4096));
    x_ = static_cast<int32_t*>(Allocate(pools.coarse, 4096));
    for (int i = 0; i < 16; ++i) x_[i] = 10 * i;
  }
  // add_one from x[i] to x[i + 8] (barrier bit set, so packets run one after the other).
  void SubmitAddOne(hsa_queue_t* queue, int i, hsa_signal_t completion) {
    uint8_t* kernarg = kernargs_ + 64 * i;
    uint32_t grid[3] = {1, 1, 1};
    uint16_t workgroup[3] = {1, 1, 1};
    WriteKernarg(kernarg, {&x_[i], &x_[i + 8]}, {1}, grid, workgroup);
    hsa_kernel_dispatch_packet_t p = DispatchPacket(add_one_, kernarg, {1}, {1}, completion, /*barrier=*/true);
    Submit(queue, &p);
  }

  hsa_agent_t gpu_{};
  hsa_executable_t executable_{};
  uint64_t add_one_ = 0;
  uint8_t* kernargs_ = nullptr;
  int32_t* x_ = nullptr;
};

TEST_F(HsaSimFaultTest, MemoryFaultReachesEventHandlersThenTheQueue) {
  EventRecord first, second;
  ASSERT_HSA_OK(hsa_amd_register_system_event_handler(RecordEvent, &first));
  ASSERT_HSA_OK(hsa_amd_register_system_event_handler(RecordEvent, &second));
  EXPECT_EQ(hsa_amd_register_system_event_handler(nullptr, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(kiln_hsa_sim_inject(KILN_HSA_SIM_FAULT_MEMORY, 0, 1, 0xdead000), 0);

  QueueErrorCatcher errors;
  hsa_queue_t* queue = CreateQueue(gpu_, 64, &errors);
  hsa_signal_t done[3] = {Signal(1), Signal(1), Signal(1)};
  for (int i = 0; i < 3; ++i) SubmitAddOne(queue, i, done[i]);
  errors.Wait();
  EXPECT_EQ(errors.status, static_cast<hsa_status_t>(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION));
  EXPECT_NE(errors.message.find("memory fault at 0xdead000"), std::string::npos) << errors.message;
  for (EventRecord* record : {&first, &second}) {
    EXPECT_EQ(record->calls.load(), 1);
    EXPECT_EQ(record->event.event_type, HSA_AMD_GPU_MEMORY_FAULT_EVENT);
    EXPECT_EQ(record->event.memory_fault.agent.handle, gpu_.handle);
    EXPECT_EQ(record->event.memory_fault.virtual_address, 0xdead000u);
    EXPECT_EQ(record->event.memory_fault.fault_reason_mask,
              static_cast<uint32_t>(HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT));
    EXPECT_NE(record->last_error.find("memory fault"), std::string::npos) << record->last_error;
  }
  EXPECT_EQ(hsa_signal_load_scacquire(done[0]), 0);  // ordinal 0 ran
  EXPECT_EQ(hsa_signal_load_scacquire(done[1]), 1);  // ordinal 1 faulted
  EXPECT_EQ(hsa_signal_load_scacquire(done[2]), 1);  // and nothing ran after it
  EXPECT_EQ(x_[8], 1);
  EXPECT_EQ(x_[9], 90);  // untouched
  EXPECT_EQ(kiln_hsa_sim_dispatches_completed(0), 1u);
  ASSERT_HSA_OK(hsa_queue_destroy(queue));
}

TEST_F(HsaSimFaultTest, QueueErrorAtAnOrdinalCountedFromArming) {
  hsa_queue_t* warmup = CreateQueue(gpu_, 64);
  hsa_signal_t warm = Signal(2);
  SubmitAddOne(warmup, 0, warm);
  SubmitAddOne(warmup, 1, warm);
  ASSERT_EQ(WaitEq(warm, 0), 0);
  ASSERT_HSA_OK(hsa_queue_destroy(warmup));

  // Two dispatches have started; ordinal 1 from now is the second dispatch from now.
  ASSERT_EQ(kiln_hsa_sim_inject(KILN_HSA_SIM_FAULT_QUEUE_ERROR, 0, 1, 0), 0);
  QueueErrorCatcher errors;
  hsa_queue_t* queue = CreateQueue(gpu_, 64, &errors);
  hsa_signal_t done[2] = {Signal(1), Signal(1)};
  SubmitAddOne(queue, 2, done[0]);
  SubmitAddOne(queue, 3, done[1]);
  errors.Wait();
  EXPECT_EQ(errors.status, HSA_STATUS_ERROR_EXCEPTION);
  EXPECT_NE(errors.message.find("injected queue error, dispatch ordinal 3"), std::string::npos) << errors.message;
  EXPECT_EQ(hsa_signal_load_scacquire(done[0]), 0);
  EXPECT_EQ(hsa_signal_load_scacquire(done[1]), 1);
  EXPECT_EQ(kiln_hsa_sim_dispatches_completed(0), 3u);
  ASSERT_HSA_OK(hsa_queue_destroy(queue));
}

TEST_F(HsaSimFaultTest, ClearedFaultsDoNotFire) {
  ASSERT_EQ(kiln_hsa_sim_inject(KILN_HSA_SIM_FAULT_QUEUE_ERROR, 0, 0, 0), 0);
  ASSERT_EQ(kiln_hsa_sim_inject(KILN_HSA_SIM_FAULT_SLOW, 0, 0, 60'000'000), 0);
  kiln_hsa_sim_clear_faults();
  hsa_queue_t* queue = CreateQueue(gpu_, 64);
  hsa_signal_t done = Signal(1);
  SubmitAddOne(queue, 0, done);
  ASSERT_EQ(WaitEq(done, 0), 0);
  ASSERT_HSA_OK(hsa_queue_destroy(queue));

  EXPECT_EQ(kiln_hsa_sim_inject(KILN_HSA_SIM_FAULT_SLOW, 1, 0, 1), -1);  // one GPU agent
  EXPECT_NE(std::string(kiln_hsa_sim_last_error()).find("GPU agent 1 does not exist"), std::string::npos);
  EXPECT_EQ(kiln_hsa_sim_inject(static_cast<kiln_hsa_sim_fault_kind_t>(9), 0, 0, 1), -1);
}

}  // namespace
}  // namespace kiln::hsa_sim_test
