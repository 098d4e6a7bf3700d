// Faults inside kernel code (a bad pointer, a fiber stack overflow) as CUDA errors rather
// than a dead host: the SIGSEGV/SIGBUS handlers, and what they need to know about the
// kernel thread a worker runs.
#pragma once

#include <cstddef>
#include <cstdint>

#include "exec/block_execution.h"

namespace cucpu::exec {

// The kernel thread the calling worker runs now. The strategies set it around the kernel
// code they run and clear it after; a fault while it is empty is not the kernel's.
struct RunningKernelThread {
  ThreadExecution* thread = nullptr;
  uintptr_t stack_low = 0;   // lowest usable address of the stack it runs on (0: unknown)
  uintptr_t stack_high = 0;  // just past its highest address (0: unknown): its local memory lies below
  // More local memory outside that stack: the thread's frame of the compiled block strategy
  // (CompiledBlockFrame::local), [local_low, local_high); 0, 0: none.
  uintptr_t local_low = 0;
  uintptr_t local_high = 0;
  bool is_local(uint64_t address) const {
    return (stack_high != 0 && address >= stack_low && address < stack_high) ||
           (address >= local_low && address < local_high);
  }
};

extern thread_local RunningKernelThread running_kernel_thread;

// Installs the SIGSEGV and SIGBUS handlers (SA_ONSTACK), once per process. Faults outside
// kernel code go to the handler there was before, or kill the process as they would have.
void install_kernel_fault_handlers();

// The block's error for a fault the handler recorded: which thread, which address, and
// whether it was a stack overflow.
Error fault_error(const KernelFault& fault, const BlockSetup& setup);

// The lowest usable address of the calling thread's stack (0 if unknown).
uintptr_t current_stack_low();
// Just past the highest address of the calling thread's stack (0 if unknown).
uintptr_t current_stack_high();

// An alternate signal stack for the calling thread while this lives, so that a kernel that
// overflows its stack can still be handled. Made and destroyed on the same thread.
class SignalStack {
 public:
  SignalStack();
  ~SignalStack();
  SignalStack(const SignalStack&) = delete;
  SignalStack& operator=(const SignalStack&) = delete;

 private:
  void* memory_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace cucpu::exec
