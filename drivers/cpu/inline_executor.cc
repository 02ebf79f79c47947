#include "drivers/cpu/executor.h"

namespace kiln::cpu {
namespace {

class InlineExecutor final : public CpuExecutor {
 public:
  uint32_t worker_count() const override { return 1; }
  void ParallelFor(size_t count, size_t grain, const Body& body) override {
    if (count > 0) body(0, count, 0);
  }
  void Submit(std::function<void()> task) override { task(); }
};

}  // namespace

std::unique_ptr<CpuExecutor> CreateInlineExecutor() { return std::make_unique<InlineExecutor>(); }

}  // namespace kiln::cpu
