// Kernel faults. A kernel that dereferences a bad pointer gets SIGSEGV (or SIGBUS) on the
// worker that runs it; on a GPU that is cudaErrorIllegalAddress, sticky, and the host
// goes on. The handler (on the worker's alternate stack, so a fiber stack overflow can be
// handled too) looks at running_kernel_thread: empty means the fault is not the kernel's
// (cucpu's own bug, the host program's), and it goes to the previous handler or kills
// the process as it would have. Otherwise it only stores the fault in the block (the
// handler runs in signal context: no allocation, no locks), restores the thread's signal
// mask and abandons the thread as a trap does; the block's run() turns the fault into the
// block's error once the block has stopped.
#include "exec/kernel_faults.h"

#include <fmt/format.h>
#include <pthread.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <mutex>
#include <utility>

namespace cucpu::exec {

thread_local RunningKernelThread running_kernel_thread;

namespace {

// How far below a stack a fault still counts as its overflow: a frame larger than the
// guard page can step over it.
constexpr uintptr_t kOverflowReach = 64 * 1024;
constexpr std::size_t kSignalStackBytes = 64 * 1024;

struct sigaction previous_segv;
struct sigaction previous_bus;

uintptr_t stack_pointer(const ucontext_t* context) {
#if defined(__x86_64__)
  return static_cast<uintptr_t>(context->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
  return static_cast<uintptr_t>(context->uc_mcontext.sp);
#else
  (void)context;
  return 0;
#endif
}

bool is_stack_overflow(uintptr_t stack_low, uintptr_t address, uintptr_t sp) {
  if (stack_low == 0) return false;
  const uintptr_t page = 4096;
  if (sp != 0 && sp < stack_low + page) return true;
  return address + kOverflowReach >= stack_low && address < stack_low + page;
}

// A fault that is not the kernel's: what would have happened without cucpu.
void pass_on(int signal, siginfo_t* info, void* context) {
  const struct sigaction& previous = signal == SIGSEGV ? previous_segv : previous_bus;
  if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction) {
    previous.sa_sigaction(signal, info, context);
    return;
  }
  if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
    previous.sa_handler(signal);
    return;
  }
  if (previous.sa_handler == SIG_IGN && info->si_code <= 0) return;  // an ignored kill(2)
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(signal, &default_action, nullptr);
  // A real fault recurs when the instruction runs again; a sent signal must be re-sent.
  if (info->si_code <= 0) raise(signal);
}

void handle_fault(int signal, siginfo_t* info, void* raw_context) {
  auto* context = static_cast<ucontext_t*>(raw_context);
  const RunningKernelThread running = running_kernel_thread;
  // si_code <= 0: sent by kill(2) or similar, not caused by the code that runs.
  if (!running.thread || info->si_code <= 0) {
    pass_on(signal, info, raw_context);
    return;
  }
  running_kernel_thread = {};
  KernelFault fault;
  fault.signal = signal;
  fault.code = info->si_code;
  fault.address = reinterpret_cast<uintptr_t>(info->si_addr);
  fault.linear_tid = running.thread->linear_tid;
  fault.stack_overflow = is_stack_overflow(running.stack_low, fault.address, stack_pointer(context));
  running.thread->block->record_fault(fault);
  // The handler runs with the signal blocked, and abandoning never returns through it.
  pthread_sigmask(SIG_SETMASK, &context->uc_sigmask, nullptr);
  running.thread->block->abandon_thread(*running.thread);
}

void install(int signal, struct sigaction& previous) {
  struct sigaction action {};
  action.sa_sigaction = handle_fault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  sigaction(signal, &action, &previous);
}

const char* signal_name(int signal) { return signal == SIGBUS ? "SIGBUS" : "SIGSEGV"; }

}  // namespace

void install_kernel_fault_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    install(SIGSEGV, previous_segv);
    install(SIGBUS, previous_bus);
  });
}

Error fault_error(const KernelFault& fault, const BlockSetup& setup) {
  const Dim3& block = setup.shape->block;
  const std::string where =
      fmt::format("{}, thread ({}, {}, {})", describe_block(setup.block_index), fault.linear_tid % block.x,
                  fault.linear_tid / block.x % block.y, fault.linear_tid / (block.x * block.y));
  if (fault.stack_overflow)
    return make_error(ErrorCode::IllegalAddress,
                      fmt::format("{}: stack overflow at {:#x} ({}; CUCPU_FIBER_STACK_KIB sets the fiber stack size)",
                                  where, fault.address, signal_name(fault.signal)));
  if (fault.signal == SIGBUS && fault.code == BUS_ADRALN)
    return make_error(ErrorCode::MisalignedAddress,
                      fmt::format("{}: misaligned address {:#x} (SIGBUS)", where, fault.address));
  int64_t shared_offset = 0;
  if (setup.shared_window && setup.shared_window->holds(fault.address, shared_offset))
    return make_error(ErrorCode::IllegalAddress,
                      fmt::format("{}: shared memory address {:#x} is outside the block's {} bytes of shared memory "
                                  "(illegal address {:#x}, {})",
                                  where, shared_offset, setup.shared_bytes, fault.address, signal_name(fault.signal)));
  return make_error(ErrorCode::IllegalAddress,
                    fmt::format("{}: illegal address {:#x} ({})", where, fault.address, signal_name(fault.signal)));
}

namespace {

// The calling thread's stack as [low, high); {0, 0} if unknown.
std::pair<uintptr_t, uintptr_t> current_stack() {
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) return {0, 0};
  void* low = nullptr;
  std::size_t bytes = 0;
  const int got = pthread_attr_getstack(&attributes, &low, &bytes);
  pthread_attr_destroy(&attributes);
  if (got != 0) return {0, 0};
  return {reinterpret_cast<uintptr_t>(low), reinterpret_cast<uintptr_t>(low) + bytes};
}

}  // namespace

uintptr_t current_stack_low() { return current_stack().first; }

uintptr_t current_stack_high() { return current_stack().second; }

SignalStack::SignalStack() {
#ifdef _SC_SIGSTKSZ
  const long minimum = sysconf(_SC_SIGSTKSZ);
#else
  const long minimum = SIGSTKSZ;
#endif
  bytes_ = std::max<std::size_t>(kSignalStackBytes, minimum > 0 ? static_cast<std::size_t>(minimum) : 0);
  void* memory = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (memory == MAP_FAILED) return;  // faults then run on the faulting stack: an overflow kills the process
  stack_t stack{};
  stack.ss_sp = memory;
  stack.ss_size = bytes_;
  if (sigaltstack(&stack, nullptr) != 0) {
    munmap(memory, bytes_);
    return;
  }
  memory_ = memory;
}

SignalStack::~SignalStack() {
  if (!memory_) return;
  stack_t current{};
  if (sigaltstack(nullptr, &current) == 0 && current.ss_sp == memory_) {
    stack_t disable{};
    disable.ss_flags = SS_DISABLE;
    sigaltstack(&disable, nullptr);
  }
  munmap(memory_, bytes_);
}

}  // namespace cucpu::exec
