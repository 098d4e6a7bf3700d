// The runtime functions behind nvcc's device library externs (device_calls.cpp):
// vprintf, malloc, free, __assertfail, trap and nanosleep, under the names kernel_abi.h
// gives them; and the faults generated code raises (misaligned access, bad call target).
#pragma once

#include <cstdint>

#include "jit/kernel_abi.h"

namespace cucpu::exec {

extern "C" int32_t __cucpu_vprintf(jit::ThreadContext* context, const char* format, const uint8_t* args);
extern "C" [[noreturn]] void __cucpu_assertfail(jit::ThreadContext* context, const char* message, const char* file,
                                                uint32_t line, const char* function, uint64_t char_size);
extern "C" [[noreturn]] void __cucpu_trap(jit::ThreadContext* context);
extern "C" [[noreturn]] void __cucpu_breakpoint(jit::ThreadContext* context);
extern "C" void* __cucpu_malloc(jit::ThreadContext* context, uint64_t bytes);
extern "C" void __cucpu_free(jit::ThreadContext* context, void* pointer);
extern "C" void __cucpu_nanosleep(jit::ThreadContext* context, uint32_t nanoseconds);
extern "C" [[noreturn]] void __cucpu_misaligned(jit::ThreadContext* context, const void* address, uint32_t bytes);
extern "C" [[noreturn]] void __cucpu_illegal_instruction(jit::ThreadContext* context, const char* why);
extern "C" [[noreturn]] void __cucpu_bad_call_target(jit::ThreadContext* context, const void* target);

}  // namespace cucpu::exec
