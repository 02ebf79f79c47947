// Which CPUs the cpu driver uses, and pinning of oneTBB's worker threads to them.
#pragma once

#include <vector>

namespace kiln::cpu {

// The CPUs this process may use: its cgroup's effective cpuset (cgroup v2), else the
// online CPUs, else the calling thread's affinity. Deliberately not the calling thread's
// mask: an application that pins its main thread should not shrink the device.
std::vector<int> ProcessCpus();

// oneTBB's worker threads are shared by the whole process, so pinning one affects every
// arena it serves. Pinning is therefore scoped: the first pin of a thread records its
// original mask, and when the last device that pins is released every pinned thread gets
// its mask back.
class WorkerPinning {
 public:
  // Marks a pinning device alive for the lifetime of the object.
  WorkerPinning();
  ~WorkerPinning();
  WorkerPinning(const WorkerPinning&) = delete;
  WorkerPinning& operator=(const WorkerPinning&) = delete;

  // Pins the calling thread to `cpu`; cheap (no system call) when it already is.
  static void PinCurrentThread(int cpu);
};

}  // namespace kiln::cpu
