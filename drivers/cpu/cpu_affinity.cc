#include "drivers/cpu/cpu_affinity.h"

#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>

namespace kiln::cpu {
namespace {

// Parses a kernel CPU list ("0-3,6,8-9").
std::vector<int> ParseCpuList(const std::string& text) {
  std::vector<int> cpus;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty() || item == "\n") continue;
    size_t dash = item.find('-');
    try {
      int first = std::stoi(item.substr(0, dash));
      int last = dash == std::string::npos ? first : std::stoi(item.substr(dash + 1));
      for (int c = first; c <= last && c < CPU_SETSIZE; ++c) cpus.push_back(c);
    } catch (...) {
      return {};
    }
  }
  return cpus;
}

std::string ReadFirstLine(const std::string& path) {
  std::ifstream file(path);
  std::string line;
  std::getline(file, line);
  return line;
}

struct PinState {
  std::mutex mutex;
  int pinning_devices = 0;
  std::map<pid_t, cpu_set_t> original_masks;
  std::atomic<uint64_t> epoch{1};  // bumped when pins are undone, so threads re-pin
};

PinState& State() {
  static PinState* state = new PinState();  // never destroyed: workers may outlive statics
  return *state;
}

}  // namespace

std::vector<int> ProcessCpus() {
  // cgroup v2: "0::/path" names this process's cgroup.
  std::ifstream cgroup("/proc/self/cgroup");
  std::string line;
  while (std::getline(cgroup, line)) {
    if (line.rfind("0::", 0) != 0) continue;
    std::vector<int> cpus = ParseCpuList(ReadFirstLine("/sys/fs/cgroup" + line.substr(3) + "/cpuset.cpus.effective"));
    if (!cpus.empty()) return cpus;
  }
  std::vector<int> online = ParseCpuList(ReadFirstLine("/sys/devices/system/cpu/online"));
  if (!online.empty()) return online;
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    for (int c = 0; c < CPU_SETSIZE; ++c) {
      if (CPU_ISSET(c, &set)) cpus.push_back(c);
    }
  }
  if (cpus.empty()) cpus.push_back(0);
  return cpus;
}

WorkerPinning::WorkerPinning() {
  std::lock_guard lock(State().mutex);
  ++State().pinning_devices;
}

WorkerPinning::~WorkerPinning() {
  PinState& state = State();
  std::lock_guard lock(state.mutex);
  if (--state.pinning_devices > 0) return;
  for (auto& [tid, mask] : state.original_masks) {
    sched_setaffinity(tid, sizeof(mask), &mask);  // fails harmlessly if the thread has exited
  }
  state.original_masks.clear();
  state.epoch.fetch_add(1, std::memory_order_release);
}

void WorkerPinning::PinCurrentThread(int cpu) {
  thread_local int pinned_cpu = -1;
  thread_local uint64_t pinned_epoch = 0;
  PinState& state = State();
  if (pinned_cpu == cpu && pinned_epoch == state.epoch.load(std::memory_order_acquire)) return;
  std::lock_guard lock(state.mutex);
  if (state.pinning_devices == 0) return;  // the last pinning device is gone
  pid_t tid = static_cast<pid_t>(syscall(SYS_gettid));
  if (!state.original_masks.count(tid)) {
    cpu_set_t original;
    CPU_ZERO(&original);
    if (sched_getaffinity(0, sizeof(original), &original) != 0) return;
    state.original_masks.emplace(tid, original);
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0) {
    pinned_cpu = cpu;
    pinned_epoch = state.epoch.load(std::memory_order_relaxed);
  }
}

}  // namespace kiln::cpu
