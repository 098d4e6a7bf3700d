// What every device runtime function (__cucpu_devrt.*, kernel_abi.h) does with its call:
// finds the calling thread, reads its arguments from their .param memory and stores its
// result; and the cudaError_t values its results are, numbered as driver_types.h numbers
// them (exec does not see the CUDA headers).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>

#include "exec/block_execution.h"
#include "exec/grid.h"
#include "jit/kernel_abi.h"

namespace cucpu::exec::devrt {

constexpr uint32_t kSuccess = 0;
constexpr uint32_t kErrorInvalidValue = 1;
constexpr uint32_t kErrorMemoryAllocation = 2;
constexpr uint32_t kErrorInvalidConfiguration = 9;
constexpr uint32_t kErrorInvalidPitchValue = 12;
constexpr uint32_t kErrorInvalidMemcpyDirection = 21;
constexpr uint32_t kErrorLaunchMaxDepthExceeded = 65;
constexpr uint32_t kErrorLaunchPendingCountExceeded = 69;
constexpr uint32_t kErrorInvalidDeviceFunction = 98;
constexpr uint32_t kErrorInvalidDevice = 101;
constexpr uint32_t kErrorUnsupportedLimit = 215;
constexpr uint32_t kErrorInvalidResourceHandle = 400;
constexpr uint32_t kErrorLaunchOutOfResources = 701;
constexpr uint32_t kErrorLaunchFailure = 719;
constexpr uint32_t kErrorNotSupported = 801;
constexpr uint32_t kErrorUnknown = 999;

inline ThreadExecution& executing_thread(jit::ThreadContext* context) {
  return *static_cast<ThreadExecution*>(context->executor);
}

template <typename T>
T argument(void* const* args, std::size_t index) {
  T value;
  std::memcpy(&value, args[index], sizeof(T));
  return value;
}

template <typename T>
void store_result(void* result, T value) {
  if (result) std::memcpy(result, &value, sizeof(T));
}

inline Dim3 dim3_argument(void* const* args, std::size_t index) {
  uint32_t xyz[3];
  std::memcpy(xyz, args[index], sizeof(xyz));
  return Dim3{xyz[0], xyz[1], xyz[2]};
}

// Ends a call that failed with `error`: the calling thread's last error (where its block
// keeps one) and the call's result.
void fail_call(jit::ThreadContext* context, uint32_t error, void* result);

// Queues a memory command in the calling block's stream `handle` names (it runs at once
// when the stream is idle); the result is the call's cudaError_t.
void enqueue_memory_command(jit::ThreadContext* context, uint64_t handle, std::function<void()> command, void* result);

}  // namespace cucpu::exec::devrt
