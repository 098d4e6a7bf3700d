// Device-side queries of the device model and pitched copies and sets
// (device_runtime_model_calls.h): each is the host runtime function of its name, with the
// answers and checks core gives the host API (device_model_queries.h), its failures the
// calling thread's last error as every device runtime call's are. The device running the
// kernel is the first: several devices (CUCPU_DEVICE_COUNT) share one executor, as
// cudaGetDevice in device code says. Copies and sets are stream-ordered work in the calling
// block's stream, as cudaMemcpyAsync is, between device memory only (the CUDA Programming
// Guide's dynamic parallelism: device code reaches no host memory it was not given).
#include "exec/device_runtime_model_calls.h"

#include <array>
#include <optional>
#include <utility>

#include "exec/device_model_queries.h"
#include "exec/device_runtime_call.h"
#include "support/log.h"

namespace cucpu::exec::devrt {
namespace {

constexpr int32_t kRunningDevice = 0;

// cudaMemcpyKind: device code copies device to device, or as the pointers say (Default).
constexpr uint32_t kMemcpyDeviceToDevice = 3, kMemcpyDefault = 4;

// The device model's answers; null (the call failing with cudaErrorNotSupported) before
// core has provided them, which only code that runs kernels without core does.
const DeviceModelQueries* queries_for(jit::ThreadContext* context, void* result, const char* function) {
  const DeviceModelQueries* queries = device_model_queries();
  if (!queries) {
    log::debug(log::Category::Exec, "{} in device code: no device model to ask (core has not started)", function);
    fail_call(context, kErrorNotSupported, result);
  }
  return queries;
}

// *out = value for a query's output; a null output is cudaErrorInvalidValue.
template <typename T>
void store_output(jit::ThreadContext* context, T* out, T value, void* result) {
  if (!out) return fail_call(context, kErrorInvalidValue, result);
  *out = value;
  store_result(result, kSuccess);
}

// cudaMemcpyKind: device code copies only device to device (or Default); any other kind is
// an invalid direction (the H100's answer for cudaMemcpyHostToDevice).
std::optional<uint32_t> kind_error(uint32_t kind) {
  if (kind != kMemcpyDeviceToDevice && kind != kMemcpyDefault) return kErrorInvalidMemcpyDirection;
  return std::nullopt;
}

uint32_t error_of(ErrorCode code) {
  switch (code) {
    case ErrorCode::InvalidPitchValue:
      return kErrorInvalidPitchValue;
    case ErrorCode::NotSupported:
      return kErrorNotSupported;
    default:
      return kErrorInvalidValue;
  }
}

// Queues a checked copy or set in the stream `handle` names; a failed check is the call's error.
void enqueue_checked(jit::ThreadContext* context, Result<MemoryCommand> command, uint64_t handle, void* result) {
  if (!command) {
    log::debug(log::Category::Exec, "device-side pitched copy or set: {}", command.error().message);
    return fail_call(context, error_of(command.error().code), result);
  }
  // One that moves nothing still names a stream that must be valid.
  MemoryCommand run = *command ? std::move(*command) : MemoryCommand{[] {}};
  enqueue_memory_command(context, handle, std::move(run), result);
}

PitchedSide pitched_side(const uint64_t (&ptr)[4], const uint64_t (&pos)[3]) {
  return PitchedSide{reinterpret_cast<void*>(ptr[0]), ptr[1], ptr[2], ptr[3], pos[0], pos[1], pos[2]};
}

// Occupancy with flags, as the host's cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags.
void occupancy_for(jit::ThreadContext* context, void* const* args, uint32_t flags, void* result) {
  constexpr uint32_t kOccupancyDisableCachingOverride = 0x1;
  const DeviceModelQueries* queries = queries_for(context, result, "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  if (!queries) return;
  auto* blocks = argument<int32_t*>(args, 0);
  const auto block_size = argument<int32_t>(args, 2);
  if (!blocks || block_size <= 0 || (flags & ~kOccupancyDisableCachingOverride) != 0)
    return fail_call(context, kErrorInvalidValue, result);
  const jit::KernelInfo* kernel = jit::find_kernel_by_entry(argument<void*>(args, 1));
  if (!kernel) return fail_call(context, kErrorInvalidDeviceFunction, result);
  *blocks = queries->max_active_blocks_per_sm(*kernel, static_cast<uint32_t>(block_size), argument<uint64_t>(args, 3));
  store_result(result, kSuccess);
}

}  // namespace

// cudaError_t cudaGetDeviceCount(int* count)
void get_device_count(jit::ThreadContext* context, void* const* args, void* result) {
  const DeviceModelQueries* queries = queries_for(context, result, "cudaGetDeviceCount");
  if (!queries) return;
  store_output(context, argument<int32_t*>(args, 0), queries->device_count(), result);
}

// cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attribute, int device)
void device_get_attribute(jit::ThreadContext* context, void* const* args, void* result) {
  const DeviceModelQueries* queries = queries_for(context, result, "cudaDeviceGetAttribute");
  if (!queries) return;
  auto* value = argument<int32_t*>(args, 0);
  if (!value) return fail_call(context, kErrorInvalidValue, result);
  // The device's own answers whatever ordinal is asked: an H100 answers device 1 of one
  // device with cudaSuccess where the host API gives cudaErrorInvalidDevice.
  const std::optional<int> answer = queries->device_attribute(argument<int32_t>(args, 1), kRunningDevice);
  if (!answer) return fail_call(context, kErrorInvalidValue, result);
  store_output(context, value, *answer, result);
}

// cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* config): what the host set last.
void device_get_cache_config(jit::ThreadContext* context, void* const* args, void* result) {
  const DeviceModelQueries* queries = queries_for(context, result, "cudaDeviceGetCacheConfig");
  if (!queries) return;
  store_output(context, argument<int32_t*>(args, 0), queries->cache_config(kRunningDevice), result);
}

// cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig* config): banks are four
// bytes wide on every GPU since Kepler, as the host's reports.
void device_get_shared_mem_config(jit::ThreadContext* context, void* const* args, void* result) {
  constexpr int32_t kSharedMemBankSizeFourByte = 1;
  store_output(context, argument<int32_t*>(args, 0), kSharedMemBankSizeFourByte, result);
}

// cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, const void* func)
void func_get_attributes(jit::ThreadContext* context, void* const* args, void* result) {
  const DeviceModelQueries* queries = queries_for(context, result, "cudaFuncGetAttributes");
  if (!queries) return;
  auto* attributes = argument<FunctionAttributes*>(args, 0);
  if (!attributes) return fail_call(context, kErrorInvalidValue, result);
  const jit::KernelInfo* kernel = jit::find_kernel_by_entry(argument<void*>(args, 1));
  // An address that is no kernel succeeds on an H100 (what it writes is unknown: zeros here).
  *attributes = kernel ? queries->function_attributes(*kernel) : FunctionAttributes{};
  store_result(result, kSuccess);
}

// cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* func,
// int block_size, size_t dynamic_shared_bytes[, unsigned flags])
void occupancy_max_active_blocks(jit::ThreadContext* context, void* const* args, void* result) {
  occupancy_for(context, args, 0, result);
}

void occupancy_max_active_blocks_with_flags(jit::ThreadContext* context, void* const* args, void* result) {
  occupancy_for(context, args, argument<uint32_t>(args, 4), result);
}

// cudaError_t cudaMemcpy2DAsync(void* dst, size_t dst_pitch, const void* src, size_t src_pitch,
// size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t stream)
void memcpy_2d_async(jit::ThreadContext* context, void* const* args, void* result) {
  if (auto error = kind_error(argument<uint32_t>(args, 6))) return fail_call(context, *error, result);
  const DeviceModelQueries* queries = queries_for(context, result, "cudaMemcpy2DAsync");
  if (!queries) return;
  enqueue_checked(
      context,
      queries->copy_2d(argument<void*>(args, 0), argument<uint64_t>(args, 1), argument<const void*>(args, 2),
                       argument<uint64_t>(args, 3), argument<uint64_t>(args, 4), argument<uint64_t>(args, 5)),
      argument<uint64_t>(args, 7), result);
}

// cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* parms, cudaStream_t stream): between
// linear memory; CUDA arrays have no device-side handles in cucpu.
void memcpy_3d_async(jit::ThreadContext* context, void* const* args, void* result) {
  const auto* parms = argument<const Memcpy3DParms*>(args, 0);
  if (!parms) return fail_call(context, kErrorInvalidValue, result);
  if (auto error = kind_error(parms->kind)) return fail_call(context, *error, result);
  if ((parms->src_array && parms->src_ptr[0]) || (parms->dst_array && parms->dst_ptr[0]))
    return fail_call(context, kErrorInvalidValue, result);  // an array and a pointer on one side, as the host's
  if (parms->src_array || parms->dst_array) {
    log::debug(log::Category::Exec, "cudaMemcpy3DAsync in device code: CUDA arrays are not supported there");
    return fail_call(context, kErrorNotSupported, result);
  }
  const DeviceModelQueries* queries = queries_for(context, result, "cudaMemcpy3DAsync");
  if (!queries) return;
  const PitchedExtent extent{parms->extent[0], parms->extent[1], parms->extent[2]};
  enqueue_checked(context,
                  queries->copy_3d(pitched_side(parms->dst_ptr, parms->dst_pos),
                                   pitched_side(parms->src_ptr, parms->src_pos), extent),
                  argument<uint64_t>(args, 1), result);
}

// cudaError_t cudaMemset2DAsync(void* pointer, size_t pitch, int value, size_t width,
// size_t height, cudaStream_t stream)
void memset_2d_async(jit::ThreadContext* context, void* const* args, void* result) {
  const DeviceModelQueries* queries = queries_for(context, result, "cudaMemset2DAsync");
  if (!queries) return;
  enqueue_checked(context,
                  queries->set_2d(argument<void*>(args, 0), argument<uint64_t>(args, 1), argument<int32_t>(args, 2),
                                  argument<uint64_t>(args, 3), argument<uint64_t>(args, 4)),
                  argument<uint64_t>(args, 5), result);
}

// cudaError_t cudaMemset3DAsync(cudaPitchedPtr pointer, int value, cudaExtent extent,
// cudaStream_t stream): the structs by value, each in its own .param.
void memset_3d_async(jit::ThreadContext* context, void* const* args, void* result) {
  const DeviceModelQueries* queries = queries_for(context, result, "cudaMemset3DAsync");
  if (!queries) return;
  const auto pointer = argument<std::array<uint64_t, 4>>(args, 0);
  const auto extent = argument<std::array<uint64_t, 3>>(args, 2);
  const PitchedSide side{reinterpret_cast<void*>(pointer[0]), pointer[1], pointer[2], pointer[3], 0, 0, 0};
  enqueue_checked(context,
                  queries->set_3d(side, argument<int32_t>(args, 1), PitchedExtent{extent[0], extent[1], extent[2]}),
                  argument<uint64_t>(args, 3), result);
}

}  // namespace cucpu::exec::devrt
