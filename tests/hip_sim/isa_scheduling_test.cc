// The code-object executor's wave scheduling (drivers/hip/sim/isa/interleave.h) through the
// HSA API: seeded random interleaving (KILN_HSA_SIM_INTERLEAVE_SEED) is deterministic per seed
// and differs between seeds.
#include <set>

#include "tests/hip_sim/isa_test_util.h"

namespace kiln::hsa_sim_test {
namespace {

class HsaSimSchedulingTest : public IsaTest {
 protected:
  void TearDown() override {
    IsaTest::TearDown();
    unsetenv("KILN_HSA_SIM_INTERLEAVE_SEED");
  }

  // Shuts the runtime down and starts it again with this seed (null: unset).
  void Restart(const char* seed) {
    if (queue_) hsa_queue_destroy(queue_);
    queue_ = nullptr;
    errors_.reset();
    while (hsa_shut_down() == HSA_STATUS_SUCCESS) {
    }
    gpus_.clear();
    auto put = [](const char* name, const char* value) { value ? setenv(name, value, 1) : unsetenv(name); };
    put("KILN_HSA_SIM_INTERLEAVE_SEED", seed);
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
  unsetenv("KILN_HSA_SIM_MODE");
}

}  // namespace
}  // namespace kiln::hsa_sim_test
