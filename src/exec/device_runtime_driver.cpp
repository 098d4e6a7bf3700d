// The driver's side of NVIDIA's device runtime library (libcudadevrt.a): the entry points
// its PTX calls where a GPU's driver answers (jit::kDeviceRuntimeDriverFunctions). cucpu is
// that driver: each entry point is cucpu's own device runtime function (device_runtime.cpp,
// device_runtime_model_calls.h) behind the library's calling conventions, as its
// PTX (CUDA 13.0, compute_121) uses them:
// - results are CNPerror codes, which the library maps to cudaError_t with its table
//   cudartErrorCnpMap (kCnpErrors) and, for most calls, stores as the thread's last error;
// - cnpGetLastError peeks at the thread's last error, a cudaError_t (the library's
//   cudaGetLastError clears it with cnpSetLastError(0)); cnpSetLastError sets it and
//   returns it;
// - cnpGetParameterBuffer takes a 32-bit alignment and size; cnpLaunchDevice takes the
//   grid and block shapes as pointers to dim3;
// - cnpFuncGetAttribute writes one int of cudaFuncAttributes, by CUfunction_attribute number;
// - the CGS calls are the grid group of the library's cudaCG* functions: a handle, a grid
//   barrier reached by one thread per block (flag 1, cudaCGSynchronizeGrid) or by every
//   thread, the grid's size and a thread's rank; non-zero results are failures.
// The cnp* functions serve the library's Appendix D functions (cudaLaunchDeviceV2 ...), so
// their launches follow that ABI's rules; the __cuda_syscall_cnpv2* ones serve its
// __cudaCDP2* functions, with CDP2's (tail-launch and fire-and-forget streams).
#include "exec/device_runtime_driver.h"

#include <atomic>
#include <cstring>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include "exec/block_execution.h"
#include "exec/device_model_queries.h"
#include "exec/device_runtime.h"
#include "exec/device_runtime_call.h"
#include "exec/device_runtime_model_calls.h"
#include "support/log.h"

namespace cucpu::exec {
namespace {

using devrt::argument;
using devrt::executing_thread;
using devrt::store_result;

// cudartErrorCnpMap of libcudadevrt (CUDA 13.0): each CNPerror and its cudaError_t.
struct CnpError {
  uint32_t cnp;
  uint32_t cuda;
};
constexpr CnpError kCnpErrors[] = {
    {0, 0},  {1, 1},   {4, 2},   {3, 101}, {13, 215}, {14, 912}, {5, 65}, {10, 66},
    {9, 67}, {11, 68}, {12, 69}, {2, 127}, {6, 701},  {7, 9},    {8, 9},
};
constexpr uint32_t kCnpSuccess = 0;
constexpr uint32_t kCnpInvalidValue = 1;
// A code the library's table lacks: it reads as cudaErrorUnknown. The table has no
// cudaErrorNotSupported (nor cudaErrorLaunchFailure): this is the closest it can say.
constexpr uint32_t kCnpUnlisted = 0xffff;

// The CNPerror the library turns into `error`, or the closest one.
uint32_t cnp_error(uint32_t error, std::string_view function) {
  for (const CnpError& e : kCnpErrors)
    if (e.cuda == error) return e.cnp;
  // A bad function or handle is a bad argument; the table has no closer code for them.
  if (error == devrt::kErrorInvalidDeviceFunction || error == devrt::kErrorInvalidResourceHandle)
    return kCnpInvalidValue;
  log::debug(log::Category::Exec,
             "{}: cudaError_t {} has no CNPerror; the device runtime library reads cudaErrorUnknown", function, error);
  return kCnpUnlisted;
}

// Calls cucpu's device runtime function `name` with the same arguments.
void call_runtime(const char* name, jit::ThreadContext* context, void* const* args, void* result) {
  if (DeviceRuntimeFunction function = device_runtime_function(name)) return function(context, args, result);
  executing_thread(context).block->report_error(ErrorCode::NotSupported,
                                                std::string(name) + " is no device runtime function of cucpu");
}

// Calls cucpu's device runtime function `name`, whose result is a cudaError_t, and returns
// that as a CNPerror.
void call_translated(const char* name, jit::ThreadContext* context, void* const* args, void* result) {
  uint32_t error = 0;
  call_runtime(name, context, args, &error);
  store_result(result, cnp_error(error, name));
}

// CNPerror cnpGetLastError(void): the thread's last error, left as it is.
void get_last_error(jit::ThreadContext* context, void* const* args, void* result) {
  call_runtime("__cudaCDP2PeekAtLastError", context, args, result);
}

// cudaError_t cnpSetLastError(cudaError_t error): returns the error it stored.
void set_last_error(jit::ThreadContext* context, void* const* args, void* result) {
  ThreadExecution& self = executing_thread(context);
  const auto error = argument<uint32_t>(args, 0);
  if (BlockLaunchScope* scope = self.block->launch_scope) scope->set_last_error(self.linear_tid, error);
  store_result(result, error);
}

// One int of cudaFuncAttributes by CUfunction_attribute number: the numbers the library
// asks for (0 to 6) and cacheModeCA, from what the device-side cudaFuncGetAttributes gives.
std::optional<int32_t> function_attribute(const FunctionAttributes& attributes, int32_t attribute) {
  switch (attribute) {
    case 0:
      return attributes.max_threads_per_block;  // MAX_THREADS_PER_BLOCK
    case 1:
      return static_cast<int32_t>(attributes.shared_size_bytes);  // SHARED_SIZE_BYTES
    case 2:
      return static_cast<int32_t>(attributes.const_size_bytes);  // CONST_SIZE_BYTES
    case 3:
      return static_cast<int32_t>(attributes.local_size_bytes);  // LOCAL_SIZE_BYTES
    case 4:
      return attributes.num_regs;  // NUM_REGS
    case 5:
      return attributes.ptx_version;  // PTX_VERSION
    case 6:
      return attributes.binary_version;  // BINARY_VERSION
    case 7:
      return attributes.cache_mode_ca;  // CACHE_MODE_CA
    default:
      return std::nullopt;
  }
}

// CNPerror cnpFuncGetAttribute(int* value, CUfunction_attribute attribute, const void* func)
void func_get_attribute(jit::ThreadContext* context, void* const* args, void* result) {
  auto* value = argument<int32_t*>(args, 0);
  if (!value) return store_result(result, kCnpInvalidValue);
  FunctionAttributes attributes;
  FunctionAttributes* output = &attributes;
  void* const query[] = {&output, args[2]};  // each argument by the address of its value
  uint32_t error = 0;
  devrt::func_get_attributes(context, query, &error);
  if (error != 0) return store_result(result, cnp_error(error, "cnpFuncGetAttribute"));
  const std::optional<int32_t> answer = function_attribute(attributes, argument<int32_t>(args, 1));
  if (!answer) return store_result(result, kCnpInvalidValue);
  *value = *answer;
  store_result(result, kCnpSuccess);
}

// void* cnpGetParameterBuffer(unsigned alignment, unsigned size): cudaGetParameterBuffer's
// size_t arguments, narrowed by the library; `name` is the function of the library's ABI.
void get_parameter_buffer(const char* name, jit::ThreadContext* context, void* const* args, void* result) {
  uint64_t alignment = argument<uint32_t>(args, 0), bytes = argument<uint32_t>(args, 1);
  void* const widened[] = {&alignment, &bytes};
  call_runtime(name, context, widened, result);
}

// CNPerror cnpLaunchDevice(void* func, void* buffer, dim3* grid, dim3* block, unsigned
// shared_bytes, cudaStream_t stream): cudaLaunchDevice with its shapes given by address.
void launch_device(const char* name, jit::ThreadContext* context, void* const* args, void* result) {
  void* const by_value[] = {args[0], args[1], argument<void*>(args, 2), argument<void*>(args, 3), args[4], args[5]};
  call_translated(name, context, by_value, result);
}

// The grid group of a cooperative launch is its grid-sync workspace (kernel_abi.h: u32
// size, u32 barrier counter, shared with cooperative groups' own grid.sync); other
// launches have none.
uint64_t grid_group(jit::ThreadContext* context) { return context->grid_workspace; }

bool is_grid_group(jit::ThreadContext* context, uint64_t handle) {
  return handle != 0 && handle == grid_group(context);
}

uint64_t block_rank(const jit::ThreadContext& c) {
  return c.ctaid[0] + uint64_t{c.nctaid[0]} * (c.ctaid[1] + uint64_t{c.nctaid[1]} * c.ctaid[2]);
}

uint64_t block_threads(const jit::ThreadContext& c) { return uint64_t{c.ntid[0]} * c.ntid[1] * c.ntid[2]; }

uint64_t grid_blocks(const jit::ThreadContext& c) { return uint64_t{c.nctaid[0]} * c.nctaid[1] * c.nctaid[2]; }

// unsigned long long CGS_get_intrinsic_handle(cudaCGScope scope): the grid's group for
// cudaCGScopeGrid in a cooperative launch, else 0 (which every other CGS call refuses).
void cgs_get_intrinsic_handle(jit::ThreadContext* context, void* const* args, void* result) {
  constexpr uint32_t kScopeGrid = 1;
  const bool grid = argument<uint32_t>(args, 0) == kScopeGrid;
  if (grid && grid_group(context) == 0)
    log::debug(log::Category::Exec, "cudaCGGetIntrinsicHandle: the grid was not launched as a cooperative launch");
  store_result<uint64_t>(result, grid ? grid_group(context) : 0);
}

// int CGS_sync(unsigned long long handle, unsigned flags): the grid barrier, by cooperative
// groups' protocol (details/sync.h): every arrival adds 1 to the counter but the first
// block's (or thread's), which adds 0x80000000 - (expected - 1), so that the top bit flips
// when the last one arrives; each waits for the flip, letting the other blocks run.
void cgs_sync(jit::ThreadContext* context, void* const* args, void* result) {
  constexpr uint32_t kOneThreadPerBlock = 0x1, kFlip = 0x80000000u;
  const auto handle = argument<uint64_t>(args, 0);
  if (!is_grid_group(context, handle)) return store_result<uint32_t>(result, 1);
  ThreadExecution& self = executing_thread(context);
  const bool per_block = (argument<uint32_t>(args, 1) & kOneThreadPerBlock) != 0;
  const uint64_t expected = per_block ? grid_blocks(*context) : grid_blocks(*context) * block_threads(*context);
  const bool first = block_rank(*context) == 0 && (per_block || self.linear_tid == 0);
  std::atomic_ref<uint32_t> counter(reinterpret_cast<uint32_t*>(handle)[1]);
  const uint32_t before = counter.fetch_add(first ? kFlip - static_cast<uint32_t>(expected - 1) : 1);
  while (((before ^ counter.load()) & kFlip) == 0) self.block->yield_thread(self);
  store_result<uint32_t>(result, 0);
}

// int CGS_get_size(unsigned* threads, unsigned* grids, unsigned long long handle)
void cgs_get_size(jit::ThreadContext* context, void* const* args, void* result) {
  if (!is_grid_group(context, argument<uint64_t>(args, 2))) return store_result<uint32_t>(result, 1);
  if (auto* threads = argument<uint32_t*>(args, 0))
    *threads = static_cast<uint32_t>(grid_blocks(*context) * block_threads(*context));
  if (auto* grids = argument<uint32_t*>(args, 1)) *grids = 1;
  store_result<uint32_t>(result, 0);
}

// int CGS_get_rank(unsigned* thread_rank, unsigned* grid_rank, unsigned long long handle)
void cgs_get_rank(jit::ThreadContext* context, void* const* args, void* result) {
  if (!is_grid_group(context, argument<uint64_t>(args, 2))) return store_result<uint32_t>(result, 1);
  const uint32_t linear_tid = executing_thread(context).linear_tid;
  if (auto* thread_rank = argument<uint32_t*>(args, 0))
    *thread_rank = static_cast<uint32_t>(block_rank(*context) * block_threads(*context) + linear_tid);
  if (auto* grid_rank = argument<uint32_t*>(args, 1)) *grid_rank = 0;
  store_result<uint32_t>(result, 0);
}

struct NamedFunction {
  const char* name;
  DeviceRuntimeFunction function;
};

// A cnp call that is cucpu's device runtime function `name` with the same arguments.
#define TRANSLATED(name) [](jit::ThreadContext* c, void* const* a, void* r) { call_translated(name, c, a, r); }
#define SAME(name) [](jit::ThreadContext* c, void* const* a, void* r) { call_runtime(name, c, a, r); }
// A cnp call whose arguments `adapter` turns into those of cucpu's function `name`.
#define NARROWED(adapter, name) [](jit::ThreadContext* c, void* const* a, void* r) { adapter(name, c, a, r); }

// In the order of jit::kDeviceRuntimeDriverFunctions.
constexpr NamedFunction kFunctions[] = {
    {"cnpGetLastError", get_last_error},
    {"cnpSetLastError", set_last_error},
    {"cnpGetDevice", TRANSLATED("__cudaCDP2GetDevice")},
    {"cnpGetDeviceCount", TRANSLATED("cudaGetDeviceCount")},
    {"cnpDeviceGetAttribute", TRANSLATED("cudaDeviceGetAttribute")},
    {"cnpGetLimit", TRANSLATED("__cudaCDP2DeviceGetLimit")},
    {"cnpGetCacheConfig", TRANSLATED("cudaDeviceGetCacheConfig")},
    {"cnpGetSharedMemConfig", TRANSLATED("__cudaCDP2DeviceGetSharedMemConfig")},
    {"cnpFuncGetAttribute", func_get_attribute},
    {"__cuda_syscall_cnpMaxActiveBlocksPerMultiprocessor", TRANSLATED("cudaOccupancyMaxActiveBlocksPerMultiprocessor")},
    {"__cuda_syscall_cnpMaxActiveBlocksPerMultiprocessorWithFlags",
     TRANSLATED("cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags")},
    {"cnpStreamCreate", TRANSLATED("__cudaCDP2StreamCreateWithFlags")},
    {"cnpStreamDestroy", TRANSLATED("__cudaCDP2StreamDestroy")},
    {"cnpStreamWaitEvent", TRANSLATED("__cudaCDP2StreamWaitEvent")},
    {"cnpEventCreate", TRANSLATED("__cudaCDP2EventCreateWithFlags")},
    {"cnpEventRecord", TRANSLATED("__cudaCDP2EventRecord")},
    {"cnpEventDestroy", TRANSLATED("__cudaCDP2EventDestroy")},
    {"cnpGetParameterBuffer", NARROWED(get_parameter_buffer, "cudaGetParameterBuffer")},
    {"cnpLaunchDevice", NARROWED(launch_device, "cudaLaunchDevice")},
    {"cnpGetParameterBufferV2", SAME("cudaGetParameterBufferV2")},
    {"cnpLaunchDeviceV2", TRANSLATED("cudaLaunchDeviceV2")},
    {"__cuda_syscall_cnpv2GetLastError", get_last_error},
    {"__cuda_syscall_cnpv2SetLastError", set_last_error},
    {"__cuda_syscall_cnpv2GetDevice", TRANSLATED("__cudaCDP2GetDevice")},
    {"__cuda_syscall_cnpv2GetDeviceCount", TRANSLATED("__cudaCDP2GetDeviceCount")},
    {"__cuda_syscall_cnpv2DeviceGetAttribute", TRANSLATED("__cudaCDP2DeviceGetAttribute")},
    {"__cuda_syscall_cnpv2GetLimit", TRANSLATED("__cudaCDP2DeviceGetLimit")},
    {"__cuda_syscall_cnpv2GetCacheConfig", TRANSLATED("__cudaCDP2DeviceGetCacheConfig")},
    {"__cuda_syscall_cnpv2GetSharedMemConfig", TRANSLATED("__cudaCDP2DeviceGetSharedMemConfig")},
    {"__cuda_syscall_cnpv2FuncGetAttribute", func_get_attribute},
    {"__cuda_syscall_cnpv2MaxActiveBlocksPerMultiprocessor",
     TRANSLATED("__cudaCDP2OccupancyMaxActiveBlocksPerMultiprocessor")},
    {"__cuda_syscall_cnpv2MaxActiveBlocksPerMultiprocessorWithFlags",
     TRANSLATED("__cudaCDP2OccupancyMaxActiveBlocksPerMultiprocessorWithFlags")},
    {"__cuda_syscall_cnpv2StreamCreate", TRANSLATED("__cudaCDP2StreamCreateWithFlags")},
    {"__cuda_syscall_cnpv2StreamDestroy", TRANSLATED("__cudaCDP2StreamDestroy")},
    {"__cuda_syscall_cnpv2StreamWaitEvent", TRANSLATED("__cudaCDP2StreamWaitEvent")},
    {"__cuda_syscall_cnpv2EventCreate", TRANSLATED("__cudaCDP2EventCreateWithFlags")},
    {"__cuda_syscall_cnpv2EventRecord", TRANSLATED("__cudaCDP2EventRecord")},
    {"__cuda_syscall_cnpv2EventDestroy", TRANSLATED("__cudaCDP2EventDestroy")},
    {"__cuda_syscall_cnpv2GetParameterBuffer", NARROWED(get_parameter_buffer, "__cudaCDP2GetParameterBuffer")},
    {"__cuda_syscall_cnpv2LaunchDevice", NARROWED(launch_device, "__cudaCDP2LaunchDevice")},
    {"__cuda_syscall_cnpv2GetParameterBufferV2", SAME("__cudaCDP2GetParameterBufferV2")},
    {"__cuda_syscall_cnpv2LaunchDeviceV2", TRANSLATED("__cudaCDP2LaunchDeviceV2")},
    {"__cuda_syscall_CGS_get_intrinsic_handle", cgs_get_intrinsic_handle},
    {"__cuda_syscall_CGS_sync", cgs_sync},
    {"__cuda_syscall_CGS_get_size", cgs_get_size},
    {"__cuda_syscall_CGS_get_rank", cgs_get_rank},
};

#undef TRANSLATED
#undef SAME
#undef NARROWED

}  // namespace

jit::RuntimeSymbols device_runtime_driver_symbols() {
  static_assert(std::size(kFunctions) == std::size(jit::kDeviceRuntimeDriverFunctions));
  jit::RuntimeSymbols symbols;
  for (const NamedFunction& f : kFunctions)
    symbols[std::string(jit::kDeviceRuntimePrefix) + f.name] = reinterpret_cast<void*>(f.function);
  return symbols;
}

}  // namespace cucpu::exec
