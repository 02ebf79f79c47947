#include "base/ref.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace kiln {
namespace {

struct Tracked : RefCounted {
  explicit Tracked(int* destroyed) : destroyed(destroyed) {}
  ~Tracked() override { ++*destroyed; }
  int* destroyed;
};

TEST(Ref, DestroysWithLastReference) {
  int destroyed = 0;
  {
    Ref<Tracked> a = MakeRef<Tracked>(&destroyed);
    EXPECT_EQ(a->ref_count_for_testing(), 1);
    Ref<Tracked> b = a;
    EXPECT_EQ(a->ref_count_for_testing(), 2);
    Ref<Tracked> c = std::move(b);
    EXPECT_FALSE(b);
    EXPECT_EQ(a->ref_count_for_testing(), 2);
    a.reset();
    EXPECT_EQ(destroyed, 0);
  }
  EXPECT_EQ(destroyed, 1);
}

TEST(Ref, ReleaseHandsOverOwnership) {
  int destroyed = 0;
  Ref<Tracked> a = MakeRef<Tracked>(&destroyed);
  Tracked* raw = a.release();
  EXPECT_FALSE(a);
  EXPECT_EQ(raw->ref_count_for_testing(), 1);
  raw->Release();
  EXPECT_EQ(destroyed, 1);
}

TEST(Ref, ConcurrentCopiesKeepCountExact) {
  int destroyed = 0;
  Ref<Tracked> shared = MakeRef<Tracked>(&destroyed);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([shared] {
      for (int i = 0; i < 10000; ++i) {
        Ref<Tracked> copy = shared;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(shared->ref_count_for_testing(), 1);
  shared.reset();
  EXPECT_EQ(destroyed, 1);
}

}  // namespace
}  // namespace kiln
