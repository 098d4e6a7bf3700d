#include "exec/interleaved_blocks.h"

#include <new>

#include <boost/context/fixedsize_stack.hpp>

#include "exec/kernel_faults.h"

namespace cucpu::exec {
namespace {

// The stack of a block's scheduler (FiberBlock::run), not of its threads.
constexpr std::size_t kSchedulerStackBytes = 128 * 1024;

// While a worker runs interleaved blocks: the worker's loop (suspended) while a block runs.
thread_local boost::context::fiber* worker_loop = nullptr;

}  // namespace

InterleavingWorker::InterleavingWorker() { worker_loop = &loop_; }
InterleavingWorker::~InterleavingWorker() { worker_loop = nullptr; }

bool start_interleaved_block(InterleavedBlock& block) {
  InterleavedBlock* raw = &block;
  try {
    block.suspended = boost::context::fiber(std::allocator_arg, boost::context::fixedsize_stack(kSchedulerStackBytes),
                                            [raw](boost::context::fiber&& worker) {
                                              *worker_loop = std::move(worker);
                                              Result<void> result = raw->fibers.run(raw->setup);
                                              if (!result) raw->error = result.error();
                                              raw->done = true;
                                              return std::move(*worker_loop);
                                            });
  } catch (const std::bad_alloc&) {
    return false;
  }
  return true;
}

void resume_interleaved_block(InterleavedBlock& block) {
  block.suspended = std::move(block.suspended).resume();
  running_kernel_thread = {};
}

void yield_to_other_blocks() {
  boost::context::fiber* const loop = worker_loop;
  if (!loop) return;  // the block runs alone on its worker: nothing else to run
  const RunningKernelThread running = running_kernel_thread;
  *loop = std::move(*loop).resume();
  running_kernel_thread = running;
}

}  // namespace cucpu::exec
