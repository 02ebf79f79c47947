// The code-object executor's wave scheduling and race detector (drivers/hip/sim/isa:
// interleave.h, lds_races.h, global_races.h) through the HSA API: seeded random interleaving
// (KILN_HSA_SIM_INTERLEAVE_SEED) is deterministic per seed and differs between seeds; LDS
// accesses of different waves without a barrier between, and overlapping non-atomic global
// writes, fail the dispatch naming the kernel, both instructions and the address, under every
// interleaving; their corrected versions pass; a missing LDS wait gives a wrong result.
#include <cstdio>
#include <set>

#include "tests/hip_sim/isa_test_util.h"

namespace kiln::hsa_sim_test {
namespace {

constexpr uint32_t kPoison = 0x7fbadbad;  // what an outstanding load's registers hold

class HsaSimSchedulingTest : public IsaTest {
 protected:
  void TearDown() override {
    IsaTest::TearDown();
    unsetenv("KILN_HSA_SIM_INTERLEAVE_SEED");
    unsetenv("KILN_HSA_SIM_RACE_CHECK");
  }

  // Shuts the runtime down and starts it again with these variables (null: unset).
  void Restart(const char* seed, const char* race_check = nullptr) {
    if (queue_) hsa_queue_destroy(queue_);
    queue_ = nullptr;
    errors_.reset();
    while (hsa_shut_down() == HSA_STATUS_SUCCESS) {
    }
    gpus_.clear();
    auto put = [](const char* name, const char* value) { value ? setenv(name, value, 1) : unsetenv(name); };
    put("KILN_HSA_SIM_INTERLEAVE_SEED", seed);
    put("KILN_HSA_SIM_RACE_CHECK", race_check);
    Init();
    gpu_ = gpus_[0];
    pools_ = PoolsOf(gpu_);
    FreshQueue();
  }
  // A new queue (packet ids from 0 again, no error) for the next dispatch.
  void FreshQueue() {
    if (queue_) hsa_queue_destroy(queue_);
    errors_ = std::make_unique<QueueErrorCatcher>();
    queue_ = CreateQueue(gpu_, 64, errors_.get());
  }

  // Runs `kernel` of isa/FILE.s with one argument (`out`, `words` dwords filled with `fill`) over
  // `grid` work-items in workgroups of `workgroup`. Returns out's contents (and its address in
  // *buffer); *ok says whether the dispatch completed (else errors_ holds the queue error).
  std::vector<uint32_t> Run(const char* file, const char* kernel, uint32_t grid, uint16_t workgroup, bool* ok,
                            uint32_t group_segment = 0, size_t words = 256, uint32_t fill = 0,
                            uint32_t** buffer = nullptr) {
    hsa_executable_t executable{};
    EXPECT_EQ(LoadIsa(file, &executable), HSA_STATUS_SUCCESS) << last_error_;
    auto* out = static_cast<uint32_t*>(Allocate(pools_.coarse, words * 4));
    if (buffer) *buffer = out;
    for (size_t i = 0; i < words; ++i) out[i] = fill;
    std::vector<uint8_t> kernarg;
    Put(kernarg, 0, out);
    *ok = Dispatch(executable, kernel, kernarg, grid, workgroup, group_segment);
    if (!*ok) errors_->Wait();
    return std::vector<uint32_t>(out, out + words);
  }
  std::vector<uint32_t> RunLds(const char* kernel, bool* ok) { return Run("lds_races", kernel, 128, 128, ok, 512); }

  // The queue error of a failed dispatch: EXCEPTION with every piece of `expected` in its text.
  void ExpectRace(std::initializer_list<const char*> expected) {
    EXPECT_EQ(errors_->status, HSA_STATUS_ERROR_EXCEPTION);
    for (const char* piece : expected) EXPECT_NE(errors_->message.find(piece), std::string::npos) << errors_->message;
  }
  static std::string At(const void* base, uint64_t offset) {
    char text[32];
    auto address = static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(base) + offset);
    std::snprintf(text, sizeof(text), "0x%llx", address);
    return text;
  }
};

// ---- Seeded interleaving -----------------------------------------------------------------

TEST_F(HsaSimSchedulingTest, SeededInterleavingIsDeterministicPerSeedAndDiffersBetweenSeeds) {
  // exchange_no_barrier (barrier.s) reads buf[(t + 64) % 256], which the next wave writes
  // with no barrier between: how many of its loads see the written value depends on where the
  // waves switch. Round robin switches only at waits: exactly the last wave's 64.
  auto run = [&](const char* kernel) {
    FreshQueue();
    hsa_executable_t executable{};
    EXPECT_EQ(LoadIsa("barrier", &executable), HSA_STATUS_SUCCESS) << last_error_;
    auto* buf = static_cast<uint32_t*>(Allocate(pools_.coarse, 1024));
    auto* out = static_cast<uint32_t*>(Allocate(pools_.coarse, 1024));
    std::memset(buf, 0, 1024);
    std::memset(out, 0xff, 1024);
    std::vector<uint8_t> kernarg;
    Put(kernarg, 0, buf);
    Put(kernarg, 8, out);
    EXPECT_TRUE(Dispatch(executable, kernel, kernarg, 256, 256)) << errors_->message;
    return std::vector<uint32_t>(out, out + 256);
  };
  auto right = [](const std::vector<uint32_t>& out) {
    uint32_t n = 0;
    for (uint32_t t = 0; t < 256; ++t) n += out[t] == (t + 64) % 256 + 1;
    return n;
  };
  Restart(nullptr);
  EXPECT_EQ(right(run("exchange_no_barrier.kd")), 64u) << "round robin";
  std::set<std::vector<uint32_t>> outcomes;
  std::set<uint32_t> counts;
  for (const char* seed : {"1", "2", "3", "4", "5", "6"}) {
    SCOPED_TRACE(testing::Message() << "KILN_HSA_SIM_INTERLEAVE_SEED=" << seed);
    Restart(seed);
    std::vector<uint32_t> first = run("exchange_no_barrier.kd");
    EXPECT_EQ(run("exchange_no_barrier.kd"), first) << "the same seed must give the same interleaving";
    Restart(seed);
    EXPECT_EQ(run("exchange_no_barrier.kd"), first) << "and again after hsa_init";
    EXPECT_EQ(right(run("exchange.kd")), 256u) << "the barrier makes every interleaving right";
    outcomes.insert(first);
    counts.insert(right(first));
  }
  EXPECT_GE(outcomes.size(), 2u) << "different seeds should interleave differently";
  EXPECT_TRUE(counts.size() > 1 || !counts.count(64)) << "the seeds never switched waves between a store and a load";
}

TEST_F(HsaSimSchedulingTest, BadSchedulingVariablesFailHsaInitNamingThem) {
  IsaTest::TearDown();
  queue_ = nullptr;
  setenv("KILN_HSA_SIM_MODE", "code-object", 1);
  setenv("KILN_HSA_SIM_INTERLEAVE_SEED", "twelve", 1);
  EXPECT_NE(hsa_init(), HSA_STATUS_SUCCESS);
  EXPECT_NE(std::string(kiln_hsa_sim_last_error()).find("KILN_HSA_SIM_INTERLEAVE_SEED=\"twelve\""), std::string::npos)
      << kiln_hsa_sim_last_error();
  unsetenv("KILN_HSA_SIM_INTERLEAVE_SEED");
  setenv("KILN_HSA_SIM_RACE_CHECK", "maybe", 1);
  EXPECT_NE(hsa_init(), HSA_STATUS_SUCCESS);
  EXPECT_NE(std::string(kiln_hsa_sim_last_error()).find("KILN_HSA_SIM_RACE_CHECK=\"maybe\": takes on or off"),
            std::string::npos)
      << kiln_hsa_sim_last_error();
  unsetenv("KILN_HSA_SIM_MODE");
}

// ---- LDS races and waits -----------------------------------------------------------------

TEST_F(HsaSimSchedulingTest, LdsReadWithoutABarrierAfterAnotherWavesWriteIsARace) {
  bool ok = false;
  std::vector<uint32_t> out = RunLds("lds_exchange.kd", &ok);
  ASSERT_TRUE(ok) << errors_->message;
  for (uint32_t t = 0; t < 128; ++t) ASSERT_EQ(out[t], (t + 64) % 128 + 1) << "out[" << t << "]";
  FreshQueue();
  RunLds("lds_missing_barrier.kd", &ok);
  ASSERT_FALSE(ok) << "wave 0 read LDS wave 1 wrote with no barrier between";
  // Wave 0 runs first to its wait; wave 1 writes; wave 0's lane 0 reads LDS[64] (byte 0x100).
  ExpectRace({"kernel lds_missing_barrier: ds_read_b32 at offset 0x2c", "wave 0: LDS race at address 0x100",
              "lane 0 reads it after lane 0 of wave 1 wrote it with ds_write_b32 at offset 0x20",
              "with no s_barrier between"});
}

TEST_F(HsaSimSchedulingTest, LdsWriteWithoutABarrierAfterAnotherWavesReadIsARace) {
  bool ok = false;
  std::vector<uint32_t> out = RunLds("lds_two_steps.kd", &ok);
  ASSERT_TRUE(ok) << errors_->message;
  for (uint32_t t = 0; t < 128; ++t) ASSERT_EQ(out[t], t + 1001) << "out[" << t << "]";
  FreshQueue();
  RunLds("lds_missing_second_barrier.kd", &ok);
  ASSERT_FALSE(ok) << "step 2 overwrote LDS that the other wave read in step 1 with no barrier between";
  ExpectRace({"kernel lds_missing_second_barrier: ds_write_b32 at offset 0x44", "wave 0: LDS race at address 0x0",
              "lane 0 writes it after lane 0 of wave 1 read it with ds_read_b32 at offset 0x30"});
}

TEST_F(HsaSimSchedulingTest, LdsWriteNotWaitedForBeforeABarrierIsNotOrderedByIt) {
  bool ok = false;
  RunLds("lds_barrier_without_wait.kd", &ok);
  ASSERT_FALSE(ok) << "s_barrier does not wait for the outstanding ds_write";
  ExpectRace({"kernel lds_barrier_without_wait: ds_read_b32 at offset 0x30", "wave 0: LDS race at address 0x100",
              "lane 0 reads it after lane 0 of wave 1 wrote it with ds_write_b32 at offset 0x24",
              "which had not completed when its wave reached s_barrier (no s_waitcnt lgkmcnt(0) before it)"});
}

TEST_F(HsaSimSchedulingTest, LdsRacesAreFoundUnderEveryInterleaving) {
  for (const char* seed : {"1", "7", "42", "1000"}) {
    SCOPED_TRACE(testing::Message() << "KILN_HSA_SIM_INTERLEAVE_SEED=" << seed);
    Restart(seed);
    bool ok = false;
    for (const char* kernel : {"lds_exchange.kd", "lds_two_steps.kd"}) {
      FreshQueue();
      RunLds(kernel, &ok);
      EXPECT_TRUE(ok) << kernel << ": " << errors_->message;
    }
    for (const char* kernel :
         {"lds_missing_barrier.kd", "lds_missing_second_barrier.kd", "lds_barrier_without_wait.kd"}) {
      FreshQueue();
      RunLds(kernel, &ok);
      EXPECT_FALSE(ok) << kernel;
      if (!ok) ExpectRace({"LDS race at address"});
    }
  }
}

TEST_F(HsaSimSchedulingTest, LdsReadUsedBeforeItsWaitGivesAWrongResult) {
  bool ok = false;
  std::vector<uint32_t> out = RunLds("lds_missing_wait.kd", &ok);
  ASSERT_TRUE(ok) << errors_->message;
  for (uint32_t t = 0; t < 128; ++t) {
    ASSERT_EQ(out[t], kPoison + 1) << "out[" << t << "]: the add read its source before s_waitcnt lgkmcnt retired "
                                   << "the ds_read (the right value would be " << (t + 64) % 128 + 2 << ")";
  }
}

// ---- Global write races ------------------------------------------------------------------

TEST_F(HsaSimSchedulingTest, OverlappingGlobalWritesOfTwoWavesAreARace) {
  bool ok = false;
  std::vector<uint32_t> out = Run("global_races", "global_overlap_barrier.kd", 128, 128, &ok);
  ASSERT_TRUE(ok) << errors_->message;
  for (uint32_t i = 0; i < 128; ++i) ASSERT_EQ(out[i], (i + 64) % 128) << "out[" << i << "]: the barrier orders them";
  FreshQueue();
  uint32_t* buffer = nullptr;
  Run("global_races", "global_overlap.kd", 128, 128, &ok, 0, 256, 0, &buffer);
  ASSERT_FALSE(ok);
  // Wave 0 stores out[0..63] and out[64..127] and ends; wave 1's first store hits out[64].
  ExpectRace({"kernel global_overlap: global_store_dword at offset 0x20", "wave 1: global write race at ",
              At(buffer, 256).c_str(),
              "lane 0 writes it after lane 0 of wave 0 of this workgroup wrote it with global_store_dword at offset "
              "0x28",
              "with no s_barrier between"});
}

TEST_F(HsaSimSchedulingTest, GlobalWritesOfTwoWorkgroupsToTheSameBytesAreARace) {
  bool ok = false;
  Run("global_races", "global_per_workgroup.kd", 64, 64, &ok);
  ASSERT_TRUE(ok) << "one workgroup: " << errors_->message;
  FreshQueue();
  Run("global_races", "global_per_workgroup.kd", 128, 64, &ok);
  ASSERT_FALSE(ok) << "two workgroups write out[0..63]";
  ExpectRace({"kernel global_per_workgroup: global_store_dword at offset 0x20", "global write race at ",
              "of workgroup (", "with global_store_dword at offset 0x20",
              "nothing orders two workgroups' writes"});
}

TEST_F(HsaSimSchedulingTest, TwoLanesOfOneStoreWritingTheSameBytesAreARace) {
  bool ok = false;
  Run("global_races", "global_one_address.kd", 64, 64, &ok);
  ASSERT_FALSE(ok);
  ExpectRace({"kernel global_one_address: global_store_dword at offset 0x24", "lanes 0 and 1 of this instruction both "
                                                                              "write it, not atomically"});
}

TEST_F(HsaSimSchedulingTest, AtomicsToTheSameBytesAreNotARace) {
  bool ok = false;
  std::vector<uint32_t> out = Run("global_races", "global_atomic_overlap.kd", 256, 128, &ok);
  ASSERT_TRUE(ok) << errors_->message;
  for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(out[i], 4u) << "out[" << i << "]: four work-items added 1";
}

TEST_F(HsaSimSchedulingTest, RaceCheckOffRunsRacyKernels) {
  Restart(nullptr, "off");
  bool ok = false;
  Run("global_races", "global_overlap.kd", 128, 128, &ok);
  EXPECT_TRUE(ok) << errors_->message;
  FreshQueue();
  RunLds("lds_missing_barrier.kd", &ok);
  EXPECT_TRUE(ok) << errors_->message;
}

}  // namespace
}  // namespace kiln::hsa_sim_test
