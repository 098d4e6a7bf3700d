// The driver's shared state and the ErrorCode -> CUresult mapping (driver_state.h).
#include "api/driver/driver_state.h"

#include <atomic>

#include "core/sticky_error.h"
#include "core/stream_engine.h"

namespace cucpu::driver {
namespace {

std::atomic<bool> init_done{false};

}  // namespace

CUresult to_cu_result(const Error& error) {
  switch (error.code) {
    case ErrorCode::InvalidValue: return CUDA_ERROR_INVALID_VALUE;
    case ErrorCode::InvalidPitchValue: return CUDA_ERROR_INVALID_VALUE;
    case ErrorCode::InvalidPtx: return CUDA_ERROR_INVALID_PTX;
    case ErrorCode::InvalidImage: return CUDA_ERROR_INVALID_IMAGE;
    case ErrorCode::NoKernelImage: return CUDA_ERROR_NO_BINARY_FOR_GPU;
    case ErrorCode::InvalidDeviceFunction: return CUDA_ERROR_NOT_FOUND;
    case ErrorCode::InvalidConfiguration: return CUDA_ERROR_INVALID_VALUE;
    case ErrorCode::LaunchOutOfResources: return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
    case ErrorCode::CooperativeLaunchTooLarge: return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
    case ErrorCode::MemoryAllocation: return CUDA_ERROR_OUT_OF_MEMORY;
    case ErrorCode::HostMemoryAlreadyRegistered: return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    case ErrorCode::HostMemoryNotRegistered: return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
    case ErrorCode::PeerAccessAlreadyEnabled: return CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
    case ErrorCode::PeerAccessNotEnabled: return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
    case ErrorCode::NotSupported: return CUDA_ERROR_NOT_SUPPORTED;
    case ErrorCode::LaunchFailure: return CUDA_ERROR_LAUNCH_FAILED;
    case ErrorCode::InvalidPc: return CUDA_ERROR_INVALID_PC;
    case ErrorCode::IllegalAddress: return CUDA_ERROR_ILLEGAL_ADDRESS;
    case ErrorCode::MisalignedAddress: return CUDA_ERROR_MISALIGNED_ADDRESS;
    case ErrorCode::IllegalInstruction: return CUDA_ERROR_ILLEGAL_INSTRUCTION;
    case ErrorCode::Assert: return CUDA_ERROR_ASSERT;
    case ErrorCode::NotReady: return CUDA_ERROR_NOT_READY;
    case ErrorCode::InvalidResourceHandle: return CUDA_ERROR_INVALID_HANDLE;
    case ErrorCode::NotPermitted: return CUDA_ERROR_NOT_PERMITTED;
    case ErrorCode::IllegalState: return CUDA_ERROR_ILLEGAL_STATE;
    case ErrorCode::StreamCaptureUnsupported: return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    case ErrorCode::StreamCaptureUnmatched: return CUDA_ERROR_STREAM_CAPTURE_UNMATCHED;
    case ErrorCode::StreamCaptureInvalidated: return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    case ErrorCode::StreamCaptureWrongThread: return CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD;
    case ErrorCode::GraphExecUpdateFailure: return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
    case ErrorCode::UnsupportedDevSideSync: return CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC;
    case ErrorCode::UnsupportedLimit: return CUDA_ERROR_UNSUPPORTED_LIMIT;
    case ErrorCode::InvalidDevice: return CUDA_ERROR_INVALID_DEVICE;
    case ErrorCode::InvalidClusterSize: return CUDA_ERROR_INVALID_CLUSTER_SIZE;
    case ErrorCode::Unknown: return CUDA_ERROR_UNKNOWN;
  }
  return CUDA_ERROR_UNKNOWN;
}

bool initialized() { return init_done.load(std::memory_order_acquire); }
void set_initialized() { init_done.store(true, std::memory_order_release); }

CUresult sticky() {
  if (core::in_host_function()) return CUDA_ERROR_NOT_PERMITTED;
  auto error = core::sticky_error();
  return error ? to_cu_result(*error) : CUDA_SUCCESS;
}

CUresult current_context(core::Context** context) {
  core::Context* current = core::current_context();
  *context = current && current->alive() ? current : nullptr;
  return *context ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

core::Context* to_context(CUcontext handle) {
  if (!handle || !core::Contexts::instance().known(handle)) return nullptr;
  auto* context = reinterpret_cast<core::Context*>(handle);
  return context->alive() ? context : nullptr;
}

CUresult given_or_current_context(CUcontext handle, core::Context** context) {
  if (!handle) return current_context(context);
  *context = to_context(handle);
  return *context ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

core::Kernel* to_function(CUfunction handle) {
  return handle && core::modules().is_function(handle) ? reinterpret_cast<core::Kernel*>(handle) : nullptr;
}

CUresult not_found_or(const Error& error) {
  return error.code == ErrorCode::InvalidDeviceFunction ? CUDA_ERROR_NOT_FOUND : to_cu_result(error);
}

CUresult module_global(core::FatbinModule* module, const char* name, bool managed, CUdeviceptr* dptr, size_t* bytes) {
  auto global = core::modules().loaded_global(module, name, managed);
  if (!global) return not_found_or(global.error());
  if (dptr) *dptr = reinterpret_cast<CUdeviceptr>(global->address);
  if (bytes) *bytes = global->size;
  return CUDA_SUCCESS;
}

}  // namespace cucpu::driver
