// Whole blocks interleaved on one worker, for launches whose blocks must all be resident at
// once and may wait for each other: a cooperative grid's blocks (grid_executor.cpp) and a
// cluster's (cluster_runner.cpp). Each block's scheduler (FiberBlock::run) runs on a fiber of
// its own; when no thread of a block can run, the block yields back to the worker's loop
// (yield_to_other_blocks, fiber_scheduler.h), which resumes the next one.
#pragma once

#include <optional>

#include <boost/context/fiber.hpp>

#include "exec/block_execution.h"
#include "exec/fiber_scheduler.h"
#include "support/result.h"

namespace cucpu::exec {

struct InterleavedBlock {
  explicit InterleavedBlock(FiberStackPool& stacks) : fibers(stacks) {}
  BlockSetup setup;
  FiberBlock fibers;
  boost::context::fiber suspended;  // the block while the worker runs others; empty when done
  bool done = false;
  std::optional<Error> error;
};

// While it lives, the calling worker runs interleaved blocks: yield_to_other_blocks returns
// to the loop that resumes them.
class InterleavingWorker {
 public:
  InterleavingWorker();
  ~InterleavingWorker();
  InterleavingWorker(const InterleavingWorker&) = delete;
  InterleavingWorker& operator=(const InterleavingWorker&) = delete;

 private:
  boost::context::fiber loop_;
};

// Starts the block's scheduler on a fiber of its own (it runs at the first resume); false
// when there is no memory for it.
bool start_interleaved_block(InterleavedBlock& block);

// Runs the block until it yields or ends (then block.done is set).
void resume_interleaved_block(InterleavedBlock& block);

}  // namespace cucpu::exec
