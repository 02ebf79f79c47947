// A fixture for the code-object executor's tests: hsa_init in KILN_HSA_SIM_MODE=code-object,
// HSACOs assembled from isa/*.s at build time (KILN_ISA_KERNEL_DIR), and a dispatch helper
// that waits for the completion signal or the queue error.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "tests/hip_sim/sim_test_util.h"

namespace kiln::hsa_sim_test {

// The bytes of KILN_ISA_KERNEL_DIR/NAME.hsaco.
inline std::vector<uint8_t> IsaKernelBytes(const std::string& name) {
  return ReadFileBytes((std::string(KILN_ISA_KERNEL_DIR) + "/" + name + ".hsaco").c_str());
}

class IsaTest : public SimTest {
 protected:
  // KILN_HSA_SIM_MODE for the fixture's hsa_init.
  virtual const char* Mode() const { return "code-object"; }

  void SetUp() override {
    setenv("KILN_HSA_SIM_MODE", Mode(), 1);
    Init();
    gpu_ = gpus_[0];
    pools_ = PoolsOf(gpu_);
    errors_ = std::make_unique<QueueErrorCatcher>();
    queue_ = CreateQueue(gpu_, 64, errors_.get());
  }
  void TearDown() override {
    if (queue_) hsa_queue_destroy(queue_);
    errors_.reset();
    SimTest::TearDown();
    unsetenv("KILN_HSA_SIM_MODE");
  }

  // Loads isa/NAME.s's code object into a new frozen executable; returns the status and the
  // last error in last_error_.
  hsa_status_t LoadIsa(const std::string& name, hsa_executable_t* out) {
    std::vector<uint8_t> bytes = IsaKernelBytes(name);
    EXPECT_FALSE(bytes.empty()) << "cannot read " << KILN_ISA_KERNEL_DIR << "/" << name << ".hsaco";
    return LoadBytes(bytes, out);
  }
  hsa_status_t LoadBytes(const std::vector<uint8_t>& bytes, hsa_executable_t* out) {
    hsa_code_object_reader_t reader{};
    EXPECT_EQ(hsa_code_object_reader_create_from_memory(bytes.data(), bytes.size(), &reader), HSA_STATUS_SUCCESS);
    hsa_executable_t executable{};
    EXPECT_EQ(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR, "", &executable),
              HSA_STATUS_SUCCESS);
    hsa_status_t status = hsa_executable_load_agent_code_object(executable, gpu_, reader, nullptr, nullptr);
    last_error_ = kiln_hsa_sim_last_error();
    EXPECT_EQ(hsa_code_object_reader_destroy(reader), HSA_STATUS_SUCCESS);
    if (status == HSA_STATUS_SUCCESS) EXPECT_HSA_OK(hsa_executable_freeze(executable, nullptr));
    if (out && status == HSA_STATUS_SUCCESS) {
      *out = executable;
    } else {
      EXPECT_HSA_OK(hsa_executable_destroy(executable));
    }
    return status;
  }

  // Covers every test kernel's private segment (.amdhsa_private_segment_fixed_size).
  static constexpr uint32_t kPrivateSegmentSize = 256;

  // Copies `kernarg` into the kernarg pool and dispatches `kernel` (a "NAME.kd" of
  // `executable`) over a 1-D grid with `group_segment_size` bytes of LDS. True when the dispatch
  // completed; false when the queue failed (errors_ holds the status and message).
  bool Dispatch(hsa_executable_t executable, const char* kernel, const std::vector<uint8_t>& kernarg, uint32_t grid,
                uint16_t workgroup, uint32_t group_segment_size = 0) {
    uint64_t object = KernelObject(executable, gpu_, kernel);
    void* args = Allocate(pools_.kernarg, std::max<size_t>(kernarg.size(), 64));
    std::memcpy(args, kernarg.data(), kernarg.size());
    hsa_signal_t done = Signal(1);
    hsa_kernel_dispatch_packet_t p =
        DispatchPacket(object, args, {grid}, {workgroup}, done, /*barrier=*/false, group_segment_size);
    p.private_segment_size = kPrivateSegmentSize;
    Submit(queue_, &p);
    // Either the dispatch completes or the queue error comes.
    while (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 1'000'000, HSA_WAIT_STATE_BLOCKED) != 0) {
      if (errors_->calls.load() > 0) break;
    }
    bool ok = hsa_signal_load_scacquire(done) == 0;
    hsa_signal_destroy(done);
    return ok;
  }

  // Loads isa/FILE.s, fills a `words`-dword output buffer with 0xdeadbeef, dispatches `kernel`
  // (its only argument: the buffer) over `grid` work-items in workgroups of up to 256, and
  // returns the buffer's words.
  std::vector<uint32_t> RunWithOut(const std::string& file, const char* kernel, uint32_t grid, size_t words) {
    hsa_executable_t executable{};
    EXPECT_EQ(LoadIsa(file, &executable), HSA_STATUS_SUCCESS) << last_error_;
    auto* out = static_cast<uint32_t*>(Allocate(pools_.coarse, words * 4));
    for (size_t i = 0; i < words; ++i) out[i] = 0xdeadbeef;
    std::vector<uint8_t> kernarg;
    Put(kernarg, 0, out);
    EXPECT_TRUE(Dispatch(executable, kernel, kernarg, grid, static_cast<uint16_t>(std::min<uint32_t>(grid, 256))))
        << errors_->message;
    return std::vector<uint32_t>(out, out + words);
  }

  template <typename T>
  static void Put(std::vector<uint8_t>& bytes, size_t offset, const T& value) {
    if (bytes.size() < offset + sizeof(T)) bytes.resize(offset + sizeof(T));
    std::memcpy(bytes.data() + offset, &value, sizeof(T));
  }

  hsa_agent_t gpu_{};
  Pools pools_;
  std::unique_ptr<QueueErrorCatcher> errors_;
  hsa_queue_t* queue_ = nullptr;
  std::string last_error_;
};

}  // namespace kiln::hsa_sim_test
