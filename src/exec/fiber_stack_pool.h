// Stacks for the fibers of one worker, kept and reused from block to block.
#pragma once

#include <boost/context/stack_context.hpp>
#include <cstddef>
#include <vector>

namespace cucpu::exec {

constexpr std::size_t kDefaultFiberStackBytes = 64 * 1024;

// Fiber stacks of one size, each with a guard page below it so that an overflow faults
// instead of corrupting a neighbour. Not thread-safe: one pool per worker.
class FiberStackPool {
 public:
  explicit FiberStackPool(std::size_t stack_bytes = kDefaultFiberStackBytes);
  // guard_pages false: stacks are carved from larger mappings without guard pages, for
  // cooperative launches, whose hundreds of thousands of live fibers would exceed the
  // kernel's limit on mappings (vm.max_map_count) with a guard page each.
  FiberStackPool(std::size_t stack_bytes, bool guard_pages);
  ~FiberStackPool();
  FiberStackPool(const FiberStackPool&) = delete;
  FiberStackPool& operator=(const FiberStackPool&) = delete;

  // Makes later stacks at least `stack_bytes` large (kernels with big .local frames).
  void require_stack_bytes(std::size_t stack_bytes);

  // A stack (boost::context layout: sp is the top, size includes the guard page), or one
  // with sp == nullptr when the system is out of memory.
  boost::context::stack_context take();
  void give_back(const boost::context::stack_context& stack);

  std::size_t stacks_created() const { return stacks_created_; }

 private:
  void release_free_stacks();

  std::size_t stack_bytes_;
  bool guard_pages_ = true;
  std::size_t stacks_created_ = 0;
  std::vector<boost::context::stack_context> free_;
  // Without guard pages: the mappings stacks were carved from, kBatch stacks each, so that
  // a batch whose stacks are all free goes in one munmap (one TLB shootdown, not kBatch).
  struct Batch {
    char* base;
    std::size_t bytes;
  };
  std::vector<Batch> batches_;
};

// A Boost.Context StackAllocator handing out stacks of a FiberStackPool. Boost calls
// deallocate on the worker that created the fiber, once the fiber has finished.
struct PooledStackAllocator {
  FiberStackPool* pool;
  boost::context::stack_context* taken;  // where the stack is noted, to reclaim it if the fiber never finishes

  boost::context::stack_context allocate();
  void deallocate(boost::context::stack_context& stack) noexcept { pool->give_back(stack); }
};

}  // namespace cucpu::exec
