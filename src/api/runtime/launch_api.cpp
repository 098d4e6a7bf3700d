// Kernel launches: the <<<...>>> configuration stack, __cudaGetKernel/__cudaLaunchKernel
// (what nvcc 13's stubs call), cudaLaunchKernel, cudaLaunchCooperativeKernel and
// cudaLaunchKernelEx(C). A launch is checked here and queued on its stream
// (core/launch.h); the _ptsz forms are --default-stream per-thread's, where NULL is the
// calling thread's default stream.
#include <cuda_runtime_api.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "api/driver/launch_attributes.h"
#include "api/runtime/launch_attribute_values.h"
#include "api/runtime/runtime_state.h"
#include "core/stream_handle.h"
#include "core/cluster_launch.h"
#include "core/device.h"
#include "core/event.h"
#include "core/function_attributes.h"
#include "core/launch.h"
#include "core/occupancy.h"

using namespace cucpu;
using core::NullStream;

// The device runtime writes device code's cudaFuncAttributes from the same struct.
static_assert(sizeof(exec::FunctionAttributes) == sizeof(cudaFuncAttributes));
static_assert(offsetof(exec::FunctionAttributes, max_threads_per_block) ==
              offsetof(cudaFuncAttributes, maxThreadsPerBlock));
static_assert(offsetof(exec::FunctionAttributes, non_portable_cluster_size_allowed) ==
              offsetof(cudaFuncAttributes, nonPortableClusterSizeAllowed));
static_assert(offsetof(exec::FunctionAttributes, reserved) == offsetof(cudaFuncAttributes, reserved));

namespace {

exec::Dim3 to_dim3(dim3 d) { return exec::Dim3{d.x, d.y, d.z}; }

struct LaunchOptions {
  bool cooperative = false;
  // cudaLaunchAttributeClusterDimension, when given.
  exec::Dim3 cluster{};
  bool explicit_cluster = false;
  // Events that cudaLaunchKernelEx asks to fire once the kernel has started or may be
  // depended on; recorded after the kernel, which is never earlier than the GPU fires them.
  std::vector<core::Event*> events_after;
};

cudaError_t launch(const core::Kernel* kernel, dim3 grid, dim3 block, void** args, size_t shared_bytes,
                   cudaStream_t stream_handle, NullStream null_stream, const LaunchOptions& options = {}) {
  CUCPU_RETURN_IF_STICKY();
  if (!kernel) return runtime::record(cudaErrorInvalidDeviceFunction);
  core::Stream* stream = core::to_stream(stream_handle, null_stream);
  if (!stream) return runtime::record(cudaErrorInvalidResourceHandle);
  auto launched = core::launch_kernel(*kernel,
                                      core::LaunchRequest{to_dim3(grid), to_dim3(block), shared_bytes, args,
                                                          options.cooperative, options.cluster, options.explicit_cluster},
                                      *stream);
  if (!launched) return runtime::record(launched.error());
  for (core::Event* event : options.events_after)
    if (auto recorded = event->record(*stream); !recorded) return runtime::record(recorded.error());
  return cudaSuccess;
}

cudaError_t not_supported(const std::string& what) {
  std::fprintf(stderr, "cucpu: cudaLaunchKernelEx: %s is not supported yet\n", what.c_str());
  return runtime::record(cudaErrorNotSupported);
}

// cudaLaunchKernelEx's attributes: cooperative launches and events are honoured; what
// only tunes performance on a GPU is accepted; the rest is refused by name.
cudaError_t launch_ex(const cudaLaunchConfig_t* config, const void* func, void** args, NullStream null_stream) {
  if (!config || (config->numAttrs > 0 && !config->attrs)) return runtime::record(cudaErrorInvalidValue);
  LaunchOptions options;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const cudaLaunchAttribute& attribute = config->attrs[i];
    switch (attribute.id) {
      case cudaLaunchAttributeCooperative: options.cooperative = attribute.val.cooperative != 0; break;
      case cudaLaunchAttributeClusterDimension: {
        const auto& c = attribute.val.clusterDim;
        options.cluster = exec::Dim3{c.x, c.y, c.z};
        options.explicit_cluster = true;
        break;
      }
      case cudaLaunchAttributeProgrammaticEvent:
      case cudaLaunchAttributeLaunchCompletionEvent: {
        cudaEvent_t handle = attribute.id == cudaLaunchAttributeProgrammaticEvent
                                 ? attribute.val.programmaticEvent.event
                                 : attribute.val.launchCompletionEvent.event;
        if (!core::is_event(handle)) return runtime::record(cudaErrorInvalidResourceHandle);
        options.events_after.push_back(reinterpret_cast<core::Event*>(handle));
        break;
      }
      case cudaLaunchAttributeDeviceUpdatableKernelNode:
        return not_supported("cudaLaunchAttributeDeviceUpdatableKernelNode (graphs only)");
      // Hints: a kernel that runs after its predecessor in full is a valid schedule for
      // programmatic stream serialization, and the rest steer caches, priorities and
      // placement. Their values are checked as an H200 checks them (e2e setter_sweep).
      case cudaLaunchAttributeSynchronizationPolicy:  // a stream's attribute, not a launch's
        return runtime::record(cudaErrorInvalidValue);
      case cudaLaunchAttributeAccessPolicyWindow:
      case cudaLaunchAttributeClusterSchedulingPolicyPreference:
      case cudaLaunchAttributeMemSyncDomainMap:
      case cudaLaunchAttributeMemSyncDomain:
      case cudaLaunchAttributePreferredSharedMemoryCarveout:
        if (!driver::valid_hint_value(runtime::to_driver(attribute.id), runtime::to_driver(attribute.val)))
          return runtime::record(cudaErrorInvalidValue);
        break;
      case cudaLaunchAttributeIgnore:
      case cudaLaunchAttributeProgrammaticStreamSerialization:
      case cudaLaunchAttributePriority:
      case cudaLaunchAttributePreferredClusterDimension:
      case cudaLaunchAttributeNvlinkUtilCentricScheduling: break;
      default: return not_supported(fmt::format("launch attribute {}", static_cast<int>(attribute.id)));
    }
  }
  return launch(core::modules().find_kernel(func), config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
                config->stream, null_stream, options);
}

// Blocks per SM for a launch configuration's block and dynamic shared memory, as the
// cluster occupancy calls start from.
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

// The driver's handle of a kernel the program registered (a CUfunction that
// cuLaunchKernel and cuFuncGetAttribute take): the same core::Kernel.
cudaError_t CUDARTAPI cudaGetFuncBySymbol(cudaFunction_t* functionPtr, const void* symbolPtr) {
  if (!functionPtr) return runtime::record(cudaErrorInvalidValue);
  core::Kernel* found = core::modules().find_kernel(symbolPtr);
  if (!found) return runtime::record(cudaErrorInvalidDeviceFunction);
  *functionPtr = reinterpret_cast<cudaFunction_t>(found);
  return cudaSuccess;
}

cudaError_t CUDARTAPI __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args,
                                         size_t sharedMem, cudaStream_t stream) {
  return launch(reinterpret_cast<const core::Kernel*>(kernel), gridDim, blockDim, args, sharedMem, stream,
                NullStream::Legacy);
}

cudaError_t CUDARTAPI __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args,
                                              size_t sharedMem, cudaStream_t stream) {
  return launch(reinterpret_cast<const core::Kernel*>(kernel), gridDim, blockDim, args, sharedMem, stream,
                NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem,
                                       cudaStream_t stream) {
  return launch(core::modules().find_kernel(func), gridDim, blockDim, args, sharedMem, stream, NullStream::Legacy);
}

cudaError_t CUDARTAPI cudaLaunchKernel_ptsz(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                            size_t sharedMem, cudaStream_t stream) {
  return launch(core::modules().find_kernel(func), gridDim, blockDim, args, sharedMem, stream, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaLaunchCooperativeKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                                  size_t sharedMem, cudaStream_t stream) {
  return launch(core::modules().find_kernel(func), gridDim, blockDim, args, sharedMem, stream, NullStream::Legacy,
                LaunchOptions{.cooperative = true, .events_after = {}});
}

cudaError_t CUDARTAPI cudaLaunchCooperativeKernel_ptsz(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                                       size_t sharedMem, cudaStream_t stream) {
  return launch(core::modules().find_kernel(func), gridDim, blockDim, args, sharedMem, stream, NullStream::PerThread,
                LaunchOptions{.cooperative = true, .events_after = {}});
}

cudaError_t CUDARTAPI cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
  return launch_ex(config, func, args, NullStream::Legacy);
}

cudaError_t CUDARTAPI cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t* config, const void* func, void** args) {
  return launch_ex(config, func, args, NullStream::PerThread);
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
  *numBlocks =
      core::kernel_max_active_blocks_per_sm(*kernel, **info, static_cast<uint32_t>(blockSize), dynamicSMemSize);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func, int blockSize,
                                                                    size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize,
                                                                cudaOccupancyDefault);
}

// Cluster occupancy (core/cluster_launch.h): blocks per SM for the configuration's block
// and dynamic shared memory, then clusters per GPC.
cudaError_t CUDARTAPI cudaOccupancyMaxPotentialClusterSize(int* clusterSize, const void* func,
                                                           const cudaLaunchConfig_t* launchConfig) {
  if (!clusterSize || !launchConfig || to_dim3(launchConfig->blockDim).count() == 0)
    return runtime::record(cudaErrorInvalidValue);
  core::Kernel* kernel = core::modules().find_kernel(func);
  if (!kernel) return runtime::record(cudaErrorInvalidDeviceFunction);
  auto info = core::modules().load_kernel(*kernel);
  if (!info) return runtime::record(info.error());
  *clusterSize = core::potential_cluster_size(*kernel, **info, to_dim3(launchConfig->blockDim).count(),
                                              launchConfig->dynamicSmemBytes);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaOccupancyMaxActiveClusters(int* numClusters, const void* func,
                                                     const cudaLaunchConfig_t* launchConfig) {
  if (!numClusters || !launchConfig || (launchConfig->numAttrs > 0 && !launchConfig->attrs) ||
      to_dim3(launchConfig->blockDim).count() == 0)
    return runtime::record(cudaErrorInvalidValue);
  core::Kernel* kernel = core::modules().find_kernel(func);
  if (!kernel) return runtime::record(cudaErrorInvalidDeviceFunction);
  auto info = core::modules().load_kernel(*kernel);
  if (!info) return runtime::record(info.error());
  std::optional<exec::Dim3> given;
  for (unsigned i = 0; i < launchConfig->numAttrs; ++i)
    if (launchConfig->attrs[i].id == cudaLaunchAttributeClusterDimension) {
      const auto& c = launchConfig->attrs[i].val.clusterDim;
      given = exec::Dim3{c.x, c.y, c.z};
    }
  Result<int> clusters = core::active_clusters(*kernel, **info, to_dim3(launchConfig->blockDim).count(),
                                               launchConfig->dynamicSmemBytes, given);
  if (!clusters) return runtime::record(clusters.error());
  *numClusters = *clusters;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaFuncGetAttributes(struct cudaFuncAttributes* attr, const void* func) {
  if (!attr) return runtime::record(cudaErrorInvalidValue);
  core::Kernel* kernel = core::modules().find_kernel(func);
  if (!kernel) return runtime::record(cudaErrorInvalidDeviceFunction);
  auto info = core::modules().load_kernel(*kernel);
  if (!info) return runtime::record(info.error());
  const exec::FunctionAttributes attributes = core::function_attributes(*kernel, **info);
  std::memcpy(attr, &attributes, sizeof(*attr));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaFuncSetAttribute(const void* func, enum cudaFuncAttribute attr, int value) {
  core::Kernel* kernel = core::modules().find_kernel(func);
  if (!kernel) return runtime::record(cudaErrorInvalidDeviceFunction);
  auto set = core::set_function_attribute(*kernel, attr, value);
  return set ? cudaSuccess : runtime::record(set.error());
}

}  // extern "C"
