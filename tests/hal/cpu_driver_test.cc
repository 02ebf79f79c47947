// Behaviour specific to the cpu driver: which CPUs it uses, worker pinning and its undoing,
// and devices that must not shrink each other.
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <gtest/gtest.h>

#include <fstream>
#include <thread>

#include "drivers/builtin_drivers.h"
#include "drivers/cpu/cpu_affinity.h"
#include "tests/util/test_kernels.h"

namespace kiln::cpu {
namespace {

using hal::BufferBinding;

// "Cpus_allowed_list" of every thread of this process.
std::vector<std::string> ThreadCpuLists() {
  std::vector<std::string> lists;
  DIR* dir = opendir("/proc/self/task");
  if (!dir) return lists;
  while (dirent* entry = readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    std::ifstream status(std::string("/proc/self/task/") + entry->d_name + "/status");
    std::string line;
    while (std::getline(status, line)) {
      if (line.rfind("Cpus_allowed_list:", 0) == 0) lists.push_back(line.substr(line.find_first_not_of(" \t", 18)));
    }
  }
  closedir(dir);
  return lists;
}

// Runs the rendezvous kernel with `workgroups` workgroups on `device`.
Status Rendezvous(hal::Device& device, uint32_t workgroups) {
  KILN_ASSIGN_OR_RETURN(Ref<hal::Executable> exe, testing::LoadKernelLibrary(device));
  KILN_ASSIGN_OR_RETURN(uint32_t ordinal, exe->LookupExport("rendezvous"));
  KILN_ASSIGN_OR_RETURN(Ref<hal::Buffer> counter, device.allocator().Allocate({}, 4));
  Ref<hal::CommandBuffer> cb = device.CreateCommandBuffer();
  uint32_t zero = 0;
  KILN_RETURN_IF_ERROR(cb->Fill(counter, 0, 4, &zero, 4));
  KILN_RETURN_IF_ERROR(cb->ExecutionBarrier());
  BufferBinding binding{counter};
  KILN_RETURN_IF_ERROR(cb->Dispatch(exe, ordinal, {workgroups, 1, 1}, {&workgroups, 1}, {&binding, 1}));
  KILN_RETURN_IF_ERROR(cb->Finalize());
  Ref<hal::Semaphore> done = hal::Semaphore::Create(0);
  hal::SemaphoreValue signal[] = {{done, 1}};
  Ref<hal::CommandBuffer> cbs[] = {cb};
  KILN_RETURN_IF_ERROR(device.QueueExecute({}, signal, cbs));
  return done->Wait(1, Deadline::After(std::chrono::seconds(30)));
}

TEST(CpuDriver, UsesEveryProcessCpuEvenFromAPinnedThread) {
  std::vector<int> cpus = ProcessCpus();
  ASSERT_FALSE(cpus.empty());
  uint32_t workers = 0;
  std::thread pinned([&] {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpus[0], &set);
    ASSERT_EQ(pthread_setaffinity_np(pthread_self(), sizeof(set), &set), 0);
    StatusOr<Ref<hal::Device>> device = BuiltinDriverRegistry().CreateDevice("cpu");
    ASSERT_TRUE(device.ok()) << device.status().ToString();
    workers = (*device)->info().worker_count;
  });
  pinned.join();
  EXPECT_EQ(workers, cpus.size());
}

TEST(CpuDriver, DispatchUsesAllWorkersAtOnce) {
  StatusOr<Ref<hal::Device>> device = BuiltinDriverRegistry().CreateDevice("cpu");
  ASSERT_TRUE(device.ok());
  uint32_t workers = (*device)->info().worker_count;
  Status s = Rendezvous(**device, workers);
  EXPECT_TRUE(s.ok()) << s.ToString();
}

TEST(CpuDriver, ASmallDeviceDoesNotShrinkALargeOne) {
  hal::DeviceOptions one, two;
  one.worker_count = 1;
  two.worker_count = 2;
  StatusOr<Ref<hal::Device>> small = BuiltinDriverRegistry().CreateDevice("cpu", one);
  StatusOr<Ref<hal::Device>> large = BuiltinDriverRegistry().CreateDevice("cpu", two);
  ASSERT_TRUE(small.ok() && large.ok());
  EXPECT_EQ((*small)->info().worker_count, 1u);
  Status s = Rendezvous(**large, 2);
  EXPECT_TRUE(s.ok()) << s.ToString();
  // The small device still works with its single worker.
  Status alone = Rendezvous(**small, 1);
  EXPECT_TRUE(alone.ok()) << alone.ToString();
}

TEST(CpuDriver, PinningIsUndoneWhenTheLastPinningDeviceGoes) {
  std::vector<std::string> before = ThreadCpuLists();
  {
    StatusOr<Ref<hal::Device>> device = BuiltinDriverRegistry().CreateDevice("cpu");
    ASSERT_TRUE(device.ok());
    if ((*device)->info().worker_count < 2) GTEST_SKIP() << "needs two CPUs to observe pinning";
    ASSERT_TRUE(Rendezvous(**device, 2).ok());
    // While it lives, some thread is pinned to a single CPU.
    std::vector<std::string> during = ThreadCpuLists();
    bool some_pinned = false;
    for (const std::string& list : during) some_pinned |= list.find_first_of(",-") == std::string::npos;
    EXPECT_TRUE(some_pinned);
  }
  // Afterwards no thread is pinned more narrowly than the test's own threads were.
  std::string process_list = before.empty() ? "" : before[0];
  for (const std::string& list : ThreadCpuLists()) EXPECT_EQ(list, process_list);
}

}  // namespace
}  // namespace kiln::cpu
