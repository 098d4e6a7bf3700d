// Memory pools of the stream-ordered allocator (CUDA Programming Guide "Stream Ordered
// Memory Allocator"): cudaMallocAsync takes a block from a pool, cudaFreeAsync gives it
// back in stream order. A block freed on a stream is reusable at once by later
// allocations on that stream (they are ordered after the free); by other streams only
// where the reuse policies allow it. Memory beyond the release threshold goes back to
// the system when a stream reaches a free; cudaMemPoolTrimTo releases on request.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "core/completion.h"
#include "support/result.h"

namespace cucpu::core {

// The cudaMemPoolReuse* policies. All default to on, as on the GPU.
struct ReusePolicy {
  // A block whose free the device has reached may serve any stream.
  bool allow_opportunistic = true;
  // A block whose free is still pending on another stream may serve a stream that is
  // made to wait for that free (the allocator inserts the dependency).
  bool allow_internal_dependencies = true;
  // Reuse along event dependencies between streams. Accepted and kept; cucpu does not
  // track event chains, so it never reuses on this ground alone (allocating fresh
  // memory instead is always a valid choice of the allocator).
  bool follow_event_dependencies = true;
};

struct PoolUsage {
  uint64_t reserved = 0;  // held by the pool: in use plus free blocks kept
  uint64_t reserved_high = 0;
  uint64_t used = 0;  // handed out and not freed yet
  uint64_t used_high = 0;
};

// What an allocation returns: the block, and a free on another stream that the
// allocating stream must wait for before it uses the block (null: none).
struct PoolBlock {
  void* pointer = nullptr;
  CompletionRef wait_for;
};

class MemoryPool {
 public:
  explicit MemoryPool(int device) : device_(device) {}
  ~MemoryPool();  // releases the free blocks; in-use blocks keep the pool alive (shared_ptr)
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  int device() const { return device_; }

  // A block of at least `size` bytes for stream `stream_id`.
  Result<PoolBlock> allocate(size_t size, uint64_t stream_id);
  // cudaFreeAsync of a block of this pool on stream `stream_id`; `freed` completes when
  // the stream has reached the free. Call reached(freed) from the free's command.
  Result<void> free(void* pointer, uint64_t stream_id, CompletionRef freed);
  // cudaFree of a block of this pool: back in the pool at once, as a free already
  // reached (cudaFree does not synchronise for these; the caller ordered the accesses);
  // the used-memory counter keeps counting it, as on the H100.
  Result<void> free_now(void* pointer);
  // The stream reached the free that `freed` completes: the block is reusable by other
  // streams now; memory above the release threshold goes back to the system. (By the
  // free, not the pointer: the block may have been reused and freed again meanwhile.)
  void reached(const CompletionRef& freed);
  // cudaMemPoolTrimTo: releases free blocks whose frees were reached until at most
  // `keep` bytes stay reserved.
  void trim_to(uint64_t keep);

  uint64_t release_threshold() const;
  void set_release_threshold(uint64_t bytes);
  ReusePolicy reuse_policy() const;
  void set_reuse_policy(const ReusePolicy& policy);
  PoolUsage usage() const;
  // The high watermarks can only be reset (to the current value), as in CUDA.
  void reset_reserved_high();
  void reset_used_high();
  // cudaDeviceReset released every allocation: the pool holds nothing any more.
  void forget_blocks();

 private:
  struct FreeBlock {
    void* pointer = nullptr;
    size_t size = 0;
    uint64_t stream_id = 0;  // the stream that freed it
    CompletionRef freed;     // the free's command
    bool reached = false;    // the stream has run the free
  };
  struct UsedBlock {
    void* pointer = nullptr;
    size_t size = 0;       // the block
    size_t requested = 0;  // what the allocation asked for
  };
  void trim_locked(uint64_t keep);

  const int device_;
  mutable std::mutex mutex_;
  std::vector<FreeBlock> free_;
  std::vector<UsedBlock> used_;
  uint64_t threshold_ = 0;  // cudaMemPoolAttrReleaseThreshold: 0 releases at every reached free
  ReusePolicy policy_;
  PoolUsage usage_;
};

using PoolRef = std::shared_ptr<MemoryPool>;

// The pools of the process: one default pool per device, the current pool of each
// device (cudaDeviceSetMemPool) and the pools cudaMemPoolCreate made.
PoolRef default_pool(int device);
PoolRef current_pool(int device);
void set_current_pool(int device, PoolRef pool);
PoolRef create_pool(int device);
// A live pool (default or created and not destroyed) by its handle, else null.
PoolRef find_pool(const void* handle);
// cudaMemPoolDestroy: the handle is invalid at once; blocks still in use or with a free
// pending keep the memory until they come back. Default pools cannot be destroyed.
Result<void> destroy_pool(const void* handle);
// The pool a block handed out by allocate() belongs to (until its free), else null.
PoolRef pool_of(const void* pointer);
// After cudaDeviceReset freed all memory: every pool forgets its blocks and each device
// allocates from its default pool again.
void forget_pool_memory();

}  // namespace cucpu::core
