// Fiber stacks: mmap'ed with a PROT_NONE guard page at the low end (stacks grow down),
// kept in a free list per worker. A block of 1024 threads needs up to 1024 stacks; making
// them once and reusing them keeps mmap/mprotect (and their TLB shootdowns) out of every
// block. Pages a kernel never touches are never committed, so the 64 KiB default costs
// address space, not memory.
#include "exec/fiber_stack_pool.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <iterator>
#include <new>

namespace cucpu::exec {
namespace {

std::size_t page_bytes() {
  static const std::size_t bytes = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return bytes;
}

// Stacks per mapping without guard pages.
constexpr std::size_t kBatch = 64;

std::size_t round_to_pages(std::size_t bytes) {
  const std::size_t page = page_bytes();
  return (bytes + page - 1) / page * page;
}

}  // namespace

FiberStackPool::FiberStackPool(std::size_t stack_bytes) : stack_bytes_(round_to_pages(stack_bytes)) {}

FiberStackPool::FiberStackPool(std::size_t stack_bytes, bool guard_pages)
    : stack_bytes_(round_to_pages(stack_bytes)), guard_pages_(guard_pages) {}

FiberStackPool::~FiberStackPool() { release_free_stacks(); }

void FiberStackPool::require_stack_bytes(std::size_t stack_bytes) {
  stack_bytes = round_to_pages(stack_bytes);
  if (stack_bytes <= stack_bytes_) return;
  release_free_stacks();
  stack_bytes_ = stack_bytes;
}

boost::context::stack_context FiberStackPool::take() {
  if (!free_.empty()) {
    boost::context::stack_context stack = free_.back();
    free_.pop_back();
    return stack;
  }
  const std::size_t total = stack_bytes_ + page_bytes();
  boost::context::stack_context stack;
  if (!guard_pages_) {
    // A batch of stacks in one mapping; each can still be unmapped on its own.
    void* base = mmap(nullptr, total * kBatch, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (base == MAP_FAILED) return stack;
    batches_.push_back(Batch{static_cast<char*>(base), total * kBatch});
    for (std::size_t i = 1; i < kBatch; ++i) {
      boost::context::stack_context spare;
      spare.size = total;
      spare.sp = static_cast<char*>(base) + (i + 1) * total;
      free_.push_back(spare);
    }
    stacks_created_ += kBatch;
    stack.size = total;
    stack.sp = static_cast<char*>(base) + total;
    return stack;
  }
  void* base = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (base == MAP_FAILED) return stack;
  if (mprotect(base, page_bytes(), PROT_NONE) != 0) {
    munmap(base, total);
    return stack;
  }
  ++stacks_created_;
  stack.size = total;
  stack.sp = static_cast<char*>(base) + total;
  return stack;
}

void FiberStackPool::give_back(const boost::context::stack_context& stack) {
  // A stack of an older, smaller size is unmapped rather than kept.
  if (stack.size != stack_bytes_ + page_bytes()) {
    munmap(static_cast<char*>(stack.sp) - stack.size, stack.size);
    return;
  }
  free_.push_back(stack);
}

void FiberStackPool::release_free_stacks() {
  // Batches whose stacks are all free go whole; the free stacks of the others one by one
  // (the rest belong to fibers still running, or abandoned with a failed grid, and stay
  // mapped).
  std::sort(batches_.begin(), batches_.end(), [](const Batch& a, const Batch& b) { return a.base < b.base; });
  auto batch_of = [&](const boost::context::stack_context& stack) -> std::size_t {
    char* low = static_cast<char*>(stack.sp) - stack.size;
    auto after = std::upper_bound(batches_.begin(), batches_.end(), low,
                                  [](char* address, const Batch& b) { return address < b.base; });
    if (after == batches_.begin() || low >= std::prev(after)->base + std::prev(after)->bytes) return batches_.size();
    return static_cast<std::size_t>(std::prev(after) - batches_.begin());
  };
  std::vector<std::size_t> batch(free_.size()), free_in(batches_.size(), 0);
  for (std::size_t i = 0; i < free_.size(); ++i) {
    batch[i] = batch_of(free_[i]);
    if (batch[i] < batches_.size()) ++free_in[batch[i]];
  }
  for (std::size_t i = 0; i < free_.size(); ++i) {
    if (batch[i] < batches_.size() && free_in[batch[i]] == kBatch) continue;
    munmap(static_cast<char*>(free_[i].sp) - free_[i].size, free_[i].size);
  }
  std::vector<Batch> kept;  // stacks still in use: they come back one by one
  for (std::size_t b = 0; b < batches_.size(); ++b) {
    if (free_in[b] == kBatch) {
      munmap(batches_[b].base, batches_[b].bytes);
    } else {
      kept.push_back(batches_[b]);
    }
  }
  batches_ = std::move(kept);
  free_.clear();
}

boost::context::stack_context PooledStackAllocator::allocate() {
  boost::context::stack_context stack = pool->take();
  if (!stack.sp) throw std::bad_alloc();  // Boost.Context's contract; caught where the fiber is made
  *taken = stack;
  return stack;
}

}  // namespace cucpu::exec
