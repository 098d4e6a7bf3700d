// The handle tables of texture and surface objects (texture_object.h): a handle is an
// index into chunks of atomic slots, so a kernel's lookup is two atomic loads and no lock;
// adding and removing take a mutex and reuse freed handles lowest first. Removing frees the
// object at once: the runtime removes a destroyed object only once the kernels queued
// before its destruction are done (api/runtime/texture_api.cpp).
#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <set>

#include "exec/texture_object.h"

namespace cucpu::exec {
namespace {

constexpr uint64_t kChunkBits = 12;
constexpr uint64_t kChunkSize = uint64_t{1} << kChunkBits;
constexpr uint64_t kChunkCount = 256;  // 1M handles, the GPU's limit on live texture objects

template <typename Object>
class HandleTable {
 public:
  uint64_t add(const Object& object) {
    std::lock_guard lock(mutex_);
    uint64_t handle = next_;
    if (!free_.empty()) {
      handle = *free_.begin();
      free_.erase(free_.begin());
    } else if (next_ < kChunkSize * kChunkCount) {
      ++next_;
    } else {
      return 0;
    }
    Chunk* chunk = chunks_[handle >> kChunkBits].load(std::memory_order_acquire);
    if (!chunk) {
      chunk = new Chunk{};
      chunks_[handle >> kChunkBits].store(chunk, std::memory_order_release);
    }
    (*chunk)[handle & (kChunkSize - 1)].store(new Object(object), std::memory_order_release);
    return handle;
  }

  bool remove(uint64_t handle) {
    std::lock_guard lock(mutex_);
    std::atomic<const Object*>* slot = find_slot(handle);
    const Object* object = slot ? slot->exchange(nullptr, std::memory_order_acq_rel) : nullptr;
    if (!object) return false;
    delete object;
    free_.insert(handle);
    return true;
  }

  const Object* find(uint64_t handle) const {
    std::atomic<const Object*>* slot = find_slot(handle);
    return slot ? slot->load(std::memory_order_acquire) : nullptr;
  }

 private:
  using Chunk = std::array<std::atomic<const Object*>, kChunkSize>;

  std::atomic<const Object*>* find_slot(uint64_t handle) const {
    if (handle == 0 || handle >= kChunkSize * kChunkCount) return nullptr;
    Chunk* chunk = chunks_[handle >> kChunkBits].load(std::memory_order_acquire);
    return chunk ? &(*chunk)[handle & (kChunkSize - 1)] : nullptr;
  }

  std::mutex mutex_;
  uint64_t next_ = 1;
  std::set<uint64_t> free_;
  std::array<std::atomic<Chunk*>, kChunkCount> chunks_{};
};

// Never destroyed: kernels of other threads may look handles up during exit.
HandleTable<TextureObject>& textures() {
  static auto* table = new HandleTable<TextureObject>;
  return *table;
}
HandleTable<SurfaceObject>& surfaces() {
  static auto* table = new HandleTable<SurfaceObject>;
  return *table;
}

}  // namespace

uint64_t add_texture_object(const TextureObject& object) { return textures().add(object); }
bool remove_texture_object(uint64_t handle) { return textures().remove(handle); }
const TextureObject* find_texture_object(uint64_t handle) { return textures().find(handle); }
uint64_t add_surface_object(const SurfaceObject& object) { return surfaces().add(object); }
bool remove_surface_object(uint64_t handle) { return surfaces().remove(handle); }
const SurfaceObject* find_surface_object(uint64_t handle) { return surfaces().find(handle); }

}  // namespace cucpu::exec
