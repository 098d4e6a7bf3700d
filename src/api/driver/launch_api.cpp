// Launches and kernels (CUfunction: a core::Kernel of a loaded module): cuLaunchKernel
// with kernelParams or the `extra` packed buffer, cuLaunchKernelEx (cooperative and cluster
// attributes; the others are hints, their values checked), cooperative launches, host
// functions and stream callbacks,
// and the function attributes. The _ptsz forms are --default-stream per-thread's.
#include <cuda.h>

#include <cstring>
#include <functional>
#include <vector>

#include "api/driver/driver_state.h"
#include "api/driver/kernel_arguments.h"
#include "api/driver/launch_attributes.h"
#include "core/function_attributes.h"
#include "core/launch.h"
#include "core/module_registry.h"
#include "core/stream_engine.h"
#include "core/sticky_error.h"
#include "core/stream_handle.h"

using namespace cucpu;
using core::NullStream;

namespace {

// What cuLaunchKernelEx's attributes change about a launch (the others are hints).
struct LaunchOptions {
  bool cooperative = false;
  exec::Dim3 cluster{};
  bool explicit_cluster = false;
};

CUresult launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                unsigned shared_bytes, CUstream handle, void** params, void** extra, const LaunchOptions& options,
                NullStream null_stream) {
  CUCPU_REQUIRE_CONTEXT(context);
  CUCPU_DRIVER_RETURN_IF_STICKY();
  core::Kernel* kernel = driver::to_function(f);
  // A module loaded through the driver belongs to the context it was loaded into.
  if (!kernel || (kernel->module->context() && kernel->module->context() != context)) return CUDA_ERROR_INVALID_HANDLE;
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return CUDA_ERROR_INVALID_HANDLE;
  std::vector<void*> unpacked;
  if (CUresult bad = driver::kernel_arguments(*kernel, params, extra, &unpacked, &params); bad != CUDA_SUCCESS)
    return bad;
  core::LaunchRequest request{exec::Dim3{gx, gy, gz}, exec::Dim3{bx, by, bz}, shared_bytes, params,
                              options.cooperative, options.cluster, options.explicit_cluster};
  auto launched = core::launch_kernel(*kernel, request, *stream);
  return launched ? CUDA_SUCCESS : driver::to_cu_result(launched.error());
}

CUresult launch_ex(const CUlaunchConfig* config, CUfunction f, void** params, void** extra, NullStream null_stream) {
  if (!config || (config->numAttrs > 0 && !config->attrs)) return CUDA_ERROR_INVALID_VALUE;
  LaunchOptions options;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const CUlaunchAttribute& attribute = config->attrs[i];
    switch (attribute.id) {
      case CU_LAUNCH_ATTRIBUTE_COOPERATIVE: options.cooperative = attribute.value.cooperative != 0; break;
      case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
        options.cluster = exec::Dim3{attribute.value.clusterDim.x, attribute.value.clusterDim.y,
                                     attribute.value.clusterDim.z};
        options.explicit_cluster = true;
        break;
      case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:  // a stream's attribute, not a launch's
        return CUDA_ERROR_INVALID_VALUE;
      default:
        // Priorities, access policies, sync domains: hints a CPU has no use for, their values
        // checked as an H200 checks them (e2e setter_sweep).
        if (!driver::valid_hint_value(attribute.id, attribute.value)) return CUDA_ERROR_INVALID_VALUE;
        break;
    }
  }
  return launch(f, config->gridDimX, config->gridDimY, config->gridDimZ, config->blockDimX, config->blockDimY,
                config->blockDimZ, config->sharedMemBytes, config->hStream, params, extra, options, null_stream);
}

// The device's status as a stream callback gets it: its sticky error, if any.
CUresult device_status() {
  auto error = core::sticky_error();
  return error ? driver::to_cu_result(*error) : CUDA_SUCCESS;
}

CUresult launch_host_function(CUstream handle, std::function<void()> run, NullStream null_stream) {
  CUCPU_REQUIRE_CONTEXT(context);
  CUCPU_DRIVER_RETURN_IF_STICKY();
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return CUDA_ERROR_INVALID_HANDLE;
  core::Command command;
  command.kind = core::CommandKind::HostFunction;
  command.run = std::move(run);
  auto queued = core::StreamEngine::instance().enqueue(*stream, std::move(command));
  return queued ? CUDA_SUCCESS : driver::to_cu_result(queued.error());
}

}  // namespace

extern "C" {

CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                                unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                                unsigned int sharedMemBytes, CUstream hStream, void** kernelParams, void** extra) {
  return launch(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream,
                kernelParams, extra, {}, NullStream::Legacy);
}

CUresult CUDAAPI cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                                     unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                                     unsigned int sharedMemBytes, CUstream hStream, void** kernelParams, void** extra) {
  return launch(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream,
                kernelParams, extra, {}, NullStream::PerThread);
}

CUresult CUDAAPI cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                           unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                           unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                           void** kernelParams) {
  return launch(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream,
                kernelParams, nullptr, LaunchOptions{true}, NullStream::Legacy);
}

CUresult CUDAAPI cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                                unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                                unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                                void** kernelParams) {
  return launch(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream,
                kernelParams, nullptr, LaunchOptions{true}, NullStream::PerThread);
}

CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig* config, CUfunction f, void** kernelParams, void** extra) {
  return launch_ex(config, f, kernelParams, extra, NullStream::Legacy);
}

CUresult CUDAAPI cuLaunchKernelEx_ptsz(const CUlaunchConfig* config, CUfunction f, void** kernelParams, void** extra) {
  return launch_ex(config, f, kernelParams, extra, NullStream::PerThread);
}

CUresult CUDAAPI cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void* userData) {
  if (!fn) return CUDA_ERROR_INVALID_VALUE;
  return launch_host_function(hStream, [fn, userData] { fn(userData); }, NullStream::Legacy);
}

CUresult CUDAAPI cuLaunchHostFunc_ptsz(CUstream hStream, CUhostFn fn, void* userData) {
  if (!fn) return CUDA_ERROR_INVALID_VALUE;
  return launch_host_function(hStream, [fn, userData] { fn(userData); }, NullStream::PerThread);
}

// The older form: the callback also gets the stream and the device's (sticky) status.
CUresult CUDAAPI cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void* userData, unsigned int flags) {
  if (!callback || flags != 0) return CUDA_ERROR_INVALID_VALUE;
  return launch_host_function(
      hStream, [=] { callback(hStream, device_status(), userData); }, NullStream::Legacy);
}

CUresult CUDAAPI cuStreamAddCallback_ptsz(CUstream hStream, CUstreamCallback callback, void* userData,
                                          unsigned int flags) {
  if (!callback || flags != 0) return CUDA_ERROR_INVALID_VALUE;
  return launch_host_function(
      hStream, [=] { callback(hStream, device_status(), userData); }, NullStream::PerThread);
}

CUresult CUDAAPI cuFuncGetAttribute(int* pi, CUfunction_attribute attrib, CUfunction hfunc) {
  CUCPU_REQUIRE_INIT();
  if (!pi) return CUDA_ERROR_INVALID_VALUE;
  core::Kernel* kernel = driver::to_function(hfunc);
  if (!kernel) return CUDA_ERROR_INVALID_HANDLE;
  auto info = core::modules().load_kernel(*kernel);
  if (!info) return driver::to_cu_result(info.error());
  const exec::FunctionAttributes a = core::function_attributes(*kernel, **info);
  switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = a.max_threads_per_block; break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = static_cast<int>(a.shared_size_bytes); break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *pi = static_cast<int>(a.const_size_bytes); break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = static_cast<int>(a.local_size_bytes); break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = a.num_regs; break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: *pi = a.ptx_version; break;
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = a.binary_version; break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *pi = a.cache_mode_ca; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *pi = a.max_dynamic_shared_size_bytes; break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *pi = a.preferred_shmem_carveout; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET: *pi = a.cluster_dim_must_be_set; break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH: *pi = a.required_cluster_width; break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT: *pi = a.required_cluster_height; break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH: *pi = a.required_cluster_depth; break;
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED: *pi = a.non_portable_cluster_size_allowed; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE: *pi = a.cluster_scheduling_policy_preference; break;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value) {
  CUCPU_REQUIRE_INIT();
  core::Kernel* kernel = driver::to_function(hfunc);
  if (!kernel) return CUDA_ERROR_INVALID_HANDLE;
  auto set = core::set_function_attribute(*kernel, attrib, value);
  return set ? CUDA_SUCCESS : driver::to_cu_result(set.error());
}

CUresult CUDAAPI cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config) {
  CUCPU_REQUIRE_INIT();
  core::Kernel* kernel = driver::to_function(hfunc);
  if (!kernel) return CUDA_ERROR_INVALID_HANDLE;
  if (config < CU_FUNC_CACHE_PREFER_NONE || config > CU_FUNC_CACHE_PREFER_EQUAL) return CUDA_ERROR_INVALID_VALUE;
  kernel->cache_config = config;  // the occupancy rules read it; numbered as cudaFuncCache
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuFuncGetName(const char** name, CUfunction hfunc) {
  CUCPU_REQUIRE_INIT();
  if (!name) return CUDA_ERROR_INVALID_VALUE;
  core::Kernel* kernel = driver::to_function(hfunc);
  if (!kernel) return CUDA_ERROR_INVALID_HANDLE;
  *name = kernel->device_name.c_str();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuFuncGetModule(CUmodule* hmod, CUfunction hfunc) {
  CUCPU_REQUIRE_INIT();
  if (!hmod) return CUDA_ERROR_INVALID_VALUE;
  core::Kernel* kernel = driver::to_function(hfunc);
  if (!kernel) return CUDA_ERROR_INVALID_HANDLE;
  *hmod = reinterpret_cast<CUmodule>(kernel->module);
  return CUDA_SUCCESS;
}

}  // extern "C"
