// The device library functions nvcc's PTX calls as externs, as runtime functions
// (kernel_abi.h): vprintf (device printf), malloc and free (device_heap.cpp), __assertfail
// (a failed assert()), the trap instruction and nanosleep. A failed assert or a trap ends
// the thread for good and fails the grid: cudaErrorAssert or cudaErrorLaunchFailure,
// sticky (CUDA Programming Guide "Assertion"; PTX ISA 9.7.19.1 trap).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "exec/block_execution.h"
#include "exec/device_calls.h"
#include "exec/device_heap.h"
#include "exec/device_printf.h"

namespace cucpu::exec {
namespace {

ThreadExecution& executing_thread(jit::ThreadContext* context) {
  return *static_cast<ThreadExecution*>(context->executor);
}

std::string describe_thread(const jit::ThreadContext& c) {
  return fmt::format("block ({}, {}, {}), thread ({}, {}, {})", c.ctaid[0], c.ctaid[1], c.ctaid[2], c.tid[0], c.tid[1],
                     c.tid[2]);
}

// Everything that owns memory lives in these helpers' frames and is gone before
// abandon_thread drops the thread's stack.
void report_assert(jit::ThreadContext* c, const char* message, const char* file, uint32_t line,
                   const char* function) {
  // CUDA's own wording, on stderr.
  std::fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
               file ? file : "", line, function ? function : "", c->ctaid[0], c->ctaid[1], c->ctaid[2], c->tid[0],
               c->tid[1], c->tid[2], message ? message : "");
  std::fflush(stderr);
  executing_thread(c).block->report_error(
      ErrorCode::Assert, fmt::format("{}: device-side assertion `{}` failed", describe_thread(*c), message ? message : ""));
}

void report_trap(jit::ThreadContext* c, const char* what) {
  executing_thread(c).block->report_error(ErrorCode::LaunchFailure,
                                          fmt::format("{}: {} (unspecified launch failure)", describe_thread(*c), what));
}

void report_misaligned(jit::ThreadContext* c, const void* address, uint32_t bytes) {
  executing_thread(c).block->report_error(
      ErrorCode::MisalignedAddress,
      fmt::format("{}: misaligned address {} for a {}-byte access", describe_thread(*c), address, bytes));
}

// A call through a null pointer is cudaErrorInvalidPc on an H100 (e2e function_pointer_faults);
// through other non-code addresses the GPU runs whatever is there (it hung), cucpu faults alike.
void report_bad_call_target(jit::ThreadContext* c, const void* target) {
  executing_thread(c).block->report_error(
      ErrorCode::InvalidPc,
      fmt::format("{}: call through {}, which is not the address of a device function", describe_thread(*c), target));
}

// nanosleep's longest sleep (PTX ISA "nanosleep": at most 1 millisecond), and the shortest
// remainder worth an OS sleep: below it the timer's own slack is longer than the sleep.
constexpr uint32_t kMaxSleepNanoseconds = 1'000'000;
constexpr auto kShortestOsSleep = std::chrono::microseconds(20);

}  // namespace

extern "C" int32_t __cucpu_vprintf(jit::ThreadContext*, const char* format, const uint8_t* args) {
  std::string text;
  const int count = format_device_printf(format, args, text);
  append_device_output(text);
  return count;
}

extern "C" [[noreturn]] void __cucpu_assertfail(jit::ThreadContext* context, const char* message, const char* file,
                                                uint32_t line, const char* function, uint64_t char_size) {
  (void)char_size;  // 1: the strings are char
  report_assert(context, message, file, line, function);
  ThreadExecution& self = executing_thread(context);
  self.block->abandon_thread(self);
  __builtin_unreachable();  // [[noreturn]] on a virtual call is not seen through
}

extern "C" [[noreturn]] void __cucpu_trap(jit::ThreadContext* context) {
  report_trap(context, "trap");
  ThreadExecution& self = executing_thread(context);
  self.block->abandon_thread(self);
  __builtin_unreachable();  // [[noreturn]] on a virtual call is not seen through
}

// brkpt with no debugger attached ends the launch as trap does: an H100 reports
// cudaErrorLaunchFailure, sticky (probe in session 4, e2e misbehaving_kernels).
extern "C" [[noreturn]] void __cucpu_breakpoint(jit::ThreadContext* context) {
  report_trap(context, "brkpt with no debugger attached");
  ThreadExecution& self = executing_thread(context);
  self.block->abandon_thread(self);
  __builtin_unreachable();
}

extern "C" [[noreturn]] void __cucpu_illegal_instruction(jit::ThreadContext* context, const char* why) {
  executing_thread(context).block->report_error(
      ErrorCode::IllegalInstruction, fmt::format("{}: illegal instruction: {}", describe_thread(*context), why));
  ThreadExecution& self = executing_thread(context);
  self.block->abandon_thread(self);
  __builtin_unreachable();
}

extern "C" [[noreturn]] void __cucpu_misaligned(jit::ThreadContext* context, const void* address, uint32_t bytes) {
  report_misaligned(context, address, bytes);
  ThreadExecution& self = executing_thread(context);
  self.block->abandon_thread(self);
  __builtin_unreachable();
}

extern "C" [[noreturn]] void __cucpu_bad_call_target(jit::ThreadContext* context, const void* target) {
  report_bad_call_target(context, target);
  ThreadExecution& self = executing_thread(context);
  self.block->abandon_thread(self);
  __builtin_unreachable();
}

extern "C" void* __cucpu_malloc(jit::ThreadContext*, uint64_t bytes) { return device_malloc(bytes); }

extern "C" void __cucpu_free(jit::ThreadContext*, void* pointer) { device_free(pointer); }

// The thread sleeps within [0, 2t] (PTX ISA): the other threads of its block run first
// (it is a yield point, so a lane that backs off lets the lane it waits for go on), then
// what is left of t, if long enough, is slept on the worker.
extern "C" void __cucpu_nanosleep(jit::ThreadContext* context, uint32_t nanoseconds) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::nanoseconds(std::min(nanoseconds, kMaxSleepNanoseconds));
  ThreadExecution& self = executing_thread(context);
  self.block->yield_thread(self);
  const auto left = deadline - std::chrono::steady_clock::now();
  if (left >= kShortestOsSleep) std::this_thread::sleep_for(left);
}

}  // namespace cucpu::exec
