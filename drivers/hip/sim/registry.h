// Handle registries. An HSA handle of the simulator is the address of its object; every entry
// point looks the handle up here before touching the object, so a stale, foreign or garbage
// handle is reported (INVALID_SIGNAL, INVALID_QUEUE, ...) instead of dereferenced.
//
// Objects are held by shared_ptr: a lookup returns a reference that keeps the object alive
// for the caller even if another thread destroys the handle meanwhile (which HSA calls
// undefined; here it is merely too late to matter). A closed registry (the runtime shutting
// down) refuses new entries, so an object created concurrently with hsa_shut_down is
// reported to its creator rather than leaked.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

namespace kiln::hsa_sim {

template <typename T>
class Registry {
 public:
  // Registers `object` under `key` (normally the object's address). False when closed.
  bool Add(uint64_t key, std::shared_ptr<T> object) {
    std::unique_lock lock(mu_);
    if (closed_) return false;
    map_.emplace(key, std::move(object));
    return true;
  }

  // The object under `key`, or null.
  std::shared_ptr<T> Find(uint64_t key) const {
    std::shared_lock lock(mu_);
    auto it = map_.find(key);
    return it == map_.end() ? nullptr : it->second;
  }

  // Unregisters and returns the object under `key`, or null.
  std::shared_ptr<T> Remove(uint64_t key) {
    std::unique_lock lock(mu_);
    auto it = map_.find(key);
    if (it == map_.end()) return nullptr;
    std::shared_ptr<T> object = std::move(it->second);
    map_.erase(it);
    return object;
  }

  // Closes the registry and returns everything it held.
  std::vector<std::shared_ptr<T>> CloseAndTakeAll() {
    std::unique_lock lock(mu_);
    closed_ = true;
    std::vector<std::shared_ptr<T>> all;
    all.reserve(map_.size());
    for (auto& [key, object] : map_) all.push_back(std::move(object));
    map_.clear();
    return all;
  }

  size_t size() const {
    std::shared_lock lock(mu_);
    return map_.size();
  }

 private:
  mutable std::shared_mutex mu_;
  std::unordered_map<uint64_t, std::shared_ptr<T>> map_;
  bool closed_ = false;
};

template <typename T>
uint64_t HandleOf(const T* object) {
  return reinterpret_cast<uint64_t>(object);
}

}  // namespace kiln::hsa_sim
