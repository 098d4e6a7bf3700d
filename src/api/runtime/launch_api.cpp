// Kernel launches: the <<<...>>> configuration stack, __cudaGetKernel/__cudaLaunchKernel
// (what nvcc 13's stubs call) and cudaLaunchKernel. Launches run to completion before
// they return (streams are not concurrent yet), so they are trivially in order.
#include <cuda_runtime_api.h>

#include <fmt/format.h>

#include "api/runtime/runtime_state.h"
#include "core/device.h"
#include "core/launch.h"
#include "core/occupancy.h"

using namespace cucpu;

namespace {

exec::Dim3 to_dim3(dim3 d) { return exec::Dim3{d.x, d.y, d.z}; }

cudaError_t launch(const core::Kernel* kernel, dim3 grid, dim3 block, void** args, size_t shared_bytes,
                   bool cooperative = false) {
  CUCPU_RETURN_IF_STICKY();
  if (!kernel) return runtime::record(cudaErrorInvalidDeviceFunction);
  auto launched = core::launch_kernel(
      *kernel, core::LaunchRequest{to_dim3(grid), to_dim3(block), shared_bytes, args, cooperative});
  if (!launched) return runtime::record(launched.error());
  return cudaSuccess;
}

}  // namespace

extern "C" {

unsigned CUDARTAPI __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                               struct CUstream_st* stream) {
  runtime::push_call_configuration(runtime::CallConfiguration{gridDim, blockDim, sharedMem, stream});
  return 0;
}

cudaError_t CUDARTAPI __cudaPopCallConfiguration(dim3* gridDim, dim3* blockDim, size_t* sharedMem, void* stream) {
  runtime::CallConfiguration configuration;
  if (!runtime::pop_call_configuration(&configuration)) return cudaErrorInvalidConfiguration;
  *gridDim = configuration.grid;
  *blockDim = configuration.block;
  *sharedMem = configuration.shared_bytes;
  *static_cast<cudaStream_t*>(stream) = configuration.stream;
  return cudaSuccess;
}

// The kernel handle is the core::Kernel the stub's address was registered as.
cudaError_t CUDARTAPI __cudaGetKernel(cudaKernel_t* kernel, const void* function) {
  core::Kernel* found = core::modules().find_kernel(function);
  if (!found) return runtime::record(cudaErrorInvalidDeviceFunction);
  *kernel = reinterpret_cast<cudaKernel_t>(found);
  return cudaSuccess;
}

cudaError_t CUDARTAPI __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args,
                                         size_t sharedMem, cudaStream_t stream) {
  (void)stream;
  return launch(reinterpret_cast<const core::Kernel*>(kernel), gridDim, blockDim, args, sharedMem);
}

cudaError_t CUDARTAPI __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args,
                                              size_t sharedMem, cudaStream_t stream) {
  return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t CUDARTAPI cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem,
                                       cudaStream_t stream) {
  (void)stream;
  return launch(core::modules().find_kernel(func), gridDim, blockDim, args, sharedMem);
}

cudaError_t CUDARTAPI cudaLaunchKernel_ptsz(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                            size_t sharedMem, cudaStream_t stream) {
  return cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t CUDARTAPI cudaLaunchCooperativeKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                                  size_t sharedMem, cudaStream_t stream) {
  (void)stream;
  return launch(core::modules().find_kernel(func), gridDim, blockDim, args, sharedMem, true);
}

cudaError_t CUDARTAPI cudaLaunchCooperativeKernel_ptsz(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                                       size_t sharedMem, cudaStream_t stream) {
  return cudaLaunchCooperativeKernel(func, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, const void* func,
                                                                             int blockSize, size_t dynamicSMemSize,
                                                                             unsigned int flags) {
  if (!numBlocks || blockSize <= 0 || (flags & ~unsigned{cudaOccupancyDisableCachingOverride}) != 0)
    return runtime::record(cudaErrorInvalidValue);
  core::Kernel* kernel = core::modules().find_kernel(func);
  if (!kernel) return runtime::record(cudaErrorInvalidDeviceFunction);
  auto info = core::modules().load_kernel(*kernel);
  if (!info) return runtime::record(info.error());
  if (static_cast<uint32_t>(blockSize) > (*info)->max_threads_per_block) {
    *numBlocks = 0;
    return cudaSuccess;
  }
  *numBlocks = core::max_active_blocks_per_sm(static_cast<uint32_t>(blockSize),
                                              (*info)->dynamic_shared_offset + dynamicSMemSize,
                                              core::kRegistersPerThread);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func, int blockSize,
                                                                    size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize,
                                                                cudaOccupancyDefault);
}

cudaError_t CUDARTAPI cudaFuncGetAttributes(struct cudaFuncAttributes* attr, const void* func) {
  if (!attr) return runtime::record(cudaErrorInvalidValue);
  core::Kernel* kernel = core::modules().find_kernel(func);
  if (!kernel) return runtime::record(cudaErrorInvalidDeviceFunction);
  auto info = core::modules().load_kernel(*kernel);
  if (!info) return runtime::record(info.error());
  *attr = cudaFuncAttributes{};
  attr->sharedSizeBytes = (*info)->static_shared_bytes;
  attr->constSizeBytes = 0;
  attr->localSizeBytes = (*info)->local_bytes;
  attr->maxThreadsPerBlock = static_cast<int>((*info)->max_threads_per_block);
  attr->numRegs = core::kRegistersPerThread;
  attr->ptxVersion = 90;
  attr->binaryVersion = 90;
  attr->cacheModeCA = 0;
  attr->maxDynamicSharedSizeBytes = kernel->max_dynamic_shared_bytes;
  attr->preferredShmemCarveout = kernel->preferred_shared_carveout;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaFuncSetAttribute(const void* func, enum cudaFuncAttribute attr, int value) {
  core::Kernel* kernel = core::modules().find_kernel(func);
  if (!kernel) return runtime::record(cudaErrorInvalidDeviceFunction);
  switch (attr) {
    case cudaFuncAttributeMaxDynamicSharedMemorySize: {
      auto info = core::modules().load_kernel(*kernel);
      if (!info) return runtime::record(info.error());
      int optin = core::device_attribute(core::DeviceAttribute::cudaDevAttrMaxSharedMemoryPerBlockOptin);
      if (value < 0 || value + static_cast<int>((*info)->static_shared_bytes) > optin)
        return runtime::record(cudaErrorInvalidValue);
      kernel->max_dynamic_shared_bytes = value;
      return cudaSuccess;
    }
    case cudaFuncAttributePreferredSharedMemoryCarveout:
      if (value < -1 || value > 100) return runtime::record(cudaErrorInvalidValue);
      kernel->preferred_shared_carveout = value;  // a hint: a CPU has no L1/shared split
      return cudaSuccess;
    default:
      std::fprintf(stderr, "cucpu: cudaFuncSetAttribute: attribute %d is not supported yet\n", static_cast<int>(attr));
      return runtime::record(cudaErrorNotSupported);
  }
}

}  // extern "C"
