// Per-thread runtime state and the ErrorCode -> cudaError_t mapping.
#include "api/runtime/runtime_state.h"

#include <vector>

#include "core/context.h"
#include "core/device.h"
#include "core/sticky_error.h"
#include "core/stream_engine.h"

namespace cucpu::runtime {
namespace {

thread_local cudaError_t last_error = cudaSuccess;
thread_local std::vector<CallConfiguration> call_configurations;

}  // namespace

cudaError_t to_cuda_error(const Error& error) {
  switch (error.code) {
    case ErrorCode::InvalidValue: return cudaErrorInvalidValue;
    case ErrorCode::InvalidPitchValue: return cudaErrorInvalidPitchValue;
    case ErrorCode::InvalidPtx: return cudaErrorInvalidPtx;
    case ErrorCode::InvalidImage: return cudaErrorInvalidKernelImage;
    case ErrorCode::NoKernelImage: return cudaErrorNoKernelImageForDevice;
    case ErrorCode::InvalidDeviceFunction: return cudaErrorInvalidDeviceFunction;
    case ErrorCode::InvalidConfiguration: return cudaErrorInvalidConfiguration;
    case ErrorCode::LaunchOutOfResources: return cudaErrorLaunchOutOfResources;
    case ErrorCode::CooperativeLaunchTooLarge: return cudaErrorCooperativeLaunchTooLarge;
    case ErrorCode::MemoryAllocation: return cudaErrorMemoryAllocation;
    case ErrorCode::HostMemoryAlreadyRegistered: return cudaErrorHostMemoryAlreadyRegistered;
    case ErrorCode::HostMemoryNotRegistered: return cudaErrorHostMemoryNotRegistered;
    case ErrorCode::PeerAccessAlreadyEnabled: return cudaErrorPeerAccessAlreadyEnabled;
    case ErrorCode::PeerAccessNotEnabled: return cudaErrorPeerAccessNotEnabled;
    case ErrorCode::NotSupported: return cudaErrorNotSupported;
    case ErrorCode::LaunchFailure: return cudaErrorLaunchFailure;
    case ErrorCode::InvalidPc: return cudaErrorInvalidPc;
    case ErrorCode::IllegalAddress: return cudaErrorIllegalAddress;
    case ErrorCode::MisalignedAddress: return cudaErrorMisalignedAddress;
    case ErrorCode::IllegalInstruction: return cudaErrorIllegalInstruction;
    case ErrorCode::Assert: return cudaErrorAssert;
    case ErrorCode::NotReady: return cudaErrorNotReady;
    case ErrorCode::InvalidResourceHandle: return cudaErrorInvalidResourceHandle;
    case ErrorCode::NotPermitted: return cudaErrorNotPermitted;
    case ErrorCode::IllegalState: return cudaErrorIllegalState;
    case ErrorCode::StreamCaptureUnsupported: return cudaErrorStreamCaptureUnsupported;
    case ErrorCode::StreamCaptureUnmatched: return cudaErrorStreamCaptureUnmatched;
    case ErrorCode::StreamCaptureInvalidated: return cudaErrorStreamCaptureInvalidated;
    case ErrorCode::StreamCaptureWrongThread: return cudaErrorStreamCaptureWrongThread;
    case ErrorCode::GraphExecUpdateFailure: return cudaErrorGraphExecUpdateFailure;
    case ErrorCode::UnsupportedDevSideSync: return cudaErrorUnsupportedDevSideSync;
    case ErrorCode::UnsupportedLimit: return cudaErrorUnsupportedLimit;
    case ErrorCode::InvalidDevice: return cudaErrorInvalidDevice;
    case ErrorCode::InvalidClusterSize: return cudaErrorInvalidClusterSize;
    case ErrorCode::Unknown: return cudaErrorUnknown;
  }
  return cudaErrorUnknown;
}

cudaError_t record(cudaError_t error) {
  if (error != cudaSuccess) last_error = error;
  return error;
}

cudaError_t record(const Error& error) { return record(to_cuda_error(error)); }

cudaError_t sticky() {
  // A stream's host function may not call CUDA (Programming Guide "Host Functions"):
  // refusing here also keeps it from waiting on its own stream.
  if (core::in_host_function()) return cudaErrorNotPermitted;
  // The runtime's first call that touches the device (cudaFree(0) is the idiom) makes the
  // device's primary context current, which the driver API then sees.
  core::runtime_device();
  auto error = core::sticky_error();
  return error ? to_cuda_error(*error) : cudaSuccess;
}

int current_device() { return core::runtime_device(); }
void set_current_device(int device) { core::set_runtime_device(device); }
bool valid_device(int device) { return core::is_valid_device(device); }

cudaError_t take_last_error() {
  cudaError_t error = last_error;
  last_error = cudaSuccess;
  return error;
}

cudaError_t peek_last_error() { return last_error; }

void push_call_configuration(const CallConfiguration& configuration) { call_configurations.push_back(configuration); }

bool pop_call_configuration(CallConfiguration* configuration) {
  if (call_configurations.empty()) return false;
  *configuration = call_configurations.back();
  call_configurations.pop_back();
  return true;
}

}  // namespace cucpu::runtime
