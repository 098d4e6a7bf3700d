// The driver API with two contexts: initialisation, devices, primary and created contexts
// and the context stack, modules loaded from PTX text (kernels with kernelParams and with
// the packed `extra` buffer, a __device__ and a __constant__ variable), copies and sets,
// streams and events, occupancy, and the driver's answers to bad input (no cuInit, no
// context, garbage and malformed images, unknown names). Handles used after they were
// destroyed crash NVIDIA's driver (cucpu_only/driver_destroyed_handles.cu has those).
// NVCC-FLAGS: -lcuda
#include <cuda.h>

#include <cstdio>
#include <cstring>
#include <vector>

// nvcc -ptx -arch=sm_90 of three kernels (comments and blank lines taken out).
static const char* kPtx = R"PTX(.version 9.0
.target sm_90
.address_size 64
.global .align 4 .u32 counter;
.const .align 4 .b8 table[16];
.visible .entry scale_add(
	.param .u64 scale_add_param_0,
	.param .f32 scale_add_param_1,
	.param .f32 scale_add_param_2,
	.param .u32 scale_add_param_3
)
{
	.reg .pred 	%p<2>;
	.reg .f32 	%f<5>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<5>;
	ld.param.u64 	%rd1, [scale_add_param_0];
	ld.param.f32 	%f1, [scale_add_param_1];
	ld.param.f32 	%f2, [scale_add_param_2];
	ld.param.u32 	%r2, [scale_add_param_3];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB0_2;
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.s32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	ld.global.f32 	%f3, [%rd4];
	fma.rn.f32 	%f4, %f3, %f1, %f2;
	st.global.f32 	[%rd4], %f4;
$L__BB0_2:
	ret;
}
.visible .entry packed(
	.param .u64 packed_param_0,
	.param .u8 packed_param_1,
	.param .f64 packed_param_2,
	.param .u32 packed_param_3,
	.param .u16 packed_param_4
)
{
	.reg .pred 	%p<2>;
	.reg .b16 	%rs<3>;
	.reg .b32 	%r<3>;
	.reg .f64 	%fd<2>;
	.reg .b64 	%rd<3>;
	ld.param.s8 	%rs1, [packed_param_1];
	ld.param.u64 	%rd1, [packed_param_0];
	ld.param.f64 	%fd1, [packed_param_2];
	ld.param.u32 	%r1, [packed_param_3];
	ld.param.u16 	%rs2, [packed_param_4];
	mov.u32 	%r2, %tid.x;
	setp.ne.s32 	%p1, %r2, 0;
	@%p1 bra 	$L__BB1_2;
	cvta.to.global.u64 	%rd2, %rd1;
	st.global.u8 	[%rd2], %rs1;
	st.global.f64 	[%rd2+8], %fd1;
	st.global.u32 	[%rd2+16], %r1;
	st.global.u16 	[%rd2+20], %rs2;
$L__BB1_2:
	ret;
}
.visible .entry count_and_read(
	.param .u64 count_and_read_param_0
)
{
	.reg .f32 	%f<2>;
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<10>;
	ld.param.u64 	%rd1, [count_and_read_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u64 	%rd3, counter;
	atom.global.add.u32 	%r1, [%rd3], 1;
	mov.u32 	%r2, %tid.x;
	shl.b32 	%r3, %r2, 2;
	cvt.u64.u32 	%rd4, %r3;
	and.b64  	%rd5, %rd4, 12;
	mov.u64 	%rd6, table;
	add.s64 	%rd7, %rd6, %rd5;
	ld.const.f32 	%f1, [%rd7];
	mul.wide.u32 	%rd8, %r2, 4;
	add.s64 	%rd9, %rd2, %rd8;
	st.global.f32 	[%rd9], %f1;
	ret;
}
)PTX";

static int failures = 0;

#define CHECK(call)                                                              \
  do {                                                                           \
    CUresult result_ = (call);                                                   \
    if (result_ != CUDA_SUCCESS) {                                               \
      const char* name_ = nullptr;                                               \
      cuGetErrorName(result_, &name_);                                           \
      std::printf("FAILED %s: %d %s\n", #call, result_, name_ ? name_ : "?");    \
      ++failures;                                                                \
    }                                                                            \
  } while (0)

// The code a call returns, printed by name.
static void say(const char* what, CUresult result) {
  const char* name = nullptr;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS) name = "(unknown)";
  std::printf("%s: %d %s\n", what, result, name);
}

static const char* which(CUcontext ctx, CUcontext a, CUcontext b, CUcontext primary) {
  if (!ctx) return "none";
  if (ctx == a) return "A";
  if (ctx == b) return "B";
  if (ctx == primary) return "primary";
  return "other";
}

int main() {
  std::setvbuf(stdout, nullptr, _IONBF, 0);  // a crash on the GPU shows where it was
  CUdevice device = -1;
  say("cuDeviceGet before cuInit", cuDeviceGet(&device, 0));
  int version = 0;
  say("cuDriverGetVersion before cuInit", cuDriverGetVersion(&version));
  say("cuInit(1)", cuInit(1));
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&device, 0));
  say("cuDeviceGet(ordinal 99)", cuDeviceGet(&device, 99));
  CHECK(cuDeviceGet(&device, 0));
  int major = 0, minor = 0, warp = 0;
  CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
  CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device));
  CHECK(cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, device));
  std::printf("compute capability %d.%d, warp %d\n", major, minor, warp);
  say("cuDeviceGetAttribute(attribute 9999)", cuDeviceGetAttribute(&warp, static_cast<CUdevice_attribute>(9999), device));

  unsigned flags = 99;
  int active = 99;
  CHECK(cuDevicePrimaryCtxGetState(device, &flags, &active));
  std::printf("primary before retain: flags %u active %d\n", flags, active);
  CUcontext current = reinterpret_cast<CUcontext>(1);
  CHECK(cuCtxGetCurrent(&current));
  std::printf("current at start: %s\n", current ? "some" : "none");
  CUdeviceptr nowhere = 0;
  say("cuMemAlloc without a context", cuMemAlloc(&nowhere, 16));
  say("cuCtxSynchronize without a context", cuCtxSynchronize());
  CUcontext popped = nullptr;
  say("cuCtxPopCurrent on an empty stack", cuCtxPopCurrent(&popped));

  // Two created contexts: each becomes current, pushed on the thread's stack.
  CUcontext a = nullptr, b = nullptr, primary = nullptr;
  CHECK(cuCtxCreate(&a, nullptr, 0, device));
  CHECK(cuCtxGetCurrent(&current));
  std::printf("after creating A: current %s\n", which(current, a, b, primary));
  CHECK(cuCtxCreate(&b, nullptr, CU_CTX_SCHED_BLOCKING_SYNC, device));
  CHECK(cuCtxGetCurrent(&current));
  std::printf("after creating B: current %s, A and B differ: %s\n", which(current, a, b, primary), a != b ? "yes" : "no");
  say("cuCtxCreate with two scheduling flags", cuCtxCreate(&current, nullptr, CU_CTX_SCHED_SPIN | CU_CTX_SCHED_YIELD, device));
  CHECK(cuCtxGetFlags(&flags));
  std::printf("B's flags 0x%x\n", flags);
  unsigned api = 0;
  CHECK(cuCtxGetApiVersion(a, &api));
  std::printf("A's API version %u\n", api);
  unsigned long long id_a = 0, id_b = 0;
  CHECK(cuCtxGetId(a, &id_a));
  CHECK(cuCtxGetId(b, &id_b));
  std::printf("ids differ: %s\n", id_a != id_b ? "yes" : "no");
  CUdevice ctx_device = -1;
  CHECK(cuCtxGetDevice(&ctx_device));
  std::printf("current context's device %d\n", ctx_device);
  CHECK(cuDevicePrimaryCtxRetain(&primary, device));
  std::printf("primary differs from A and B: %s\n", primary != a && primary != b ? "yes" : "no");
  CHECK(cuDevicePrimaryCtxGetState(device, &flags, &active));
  std::printf("primary after retain: flags %u active %d\n", flags, active);

  // The stack: push the primary, pop it, set A in B's place.
  CHECK(cuCtxPushCurrent(primary));
  CHECK(cuCtxGetCurrent(&current));
  std::printf("after push primary: %s\n", which(current, a, b, primary));
  CHECK(cuCtxPopCurrent(&popped));
  CHECK(cuCtxGetCurrent(&current));
  std::printf("popped %s, current %s\n", which(popped, a, b, primary), which(current, a, b, primary));
  CHECK(cuCtxSetCurrent(a));
  CHECK(cuCtxPopCurrent(&popped));
  CHECK(cuCtxGetCurrent(&current));
  std::printf("after set A and pop: popped %s, current %s\n", which(popped, a, b, primary), which(current, a, b, primary));
  CHECK(cuCtxPopCurrent(&popped));
  CHECK(cuCtxGetCurrent(&current));
  std::printf("popped %s, current %s\n", which(popped, a, b, primary), which(current, a, b, primary));

  // Work in A.
  CHECK(cuCtxSetCurrent(a));
  CUmodule module = nullptr;
  char info_log[256] = "untouched", error_log[256] = "untouched";
  CUjit_option options[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {info_log, reinterpret_cast<void*>(sizeof info_log), error_log,
                    reinterpret_cast<void*>(sizeof error_log)};
  CHECK(cuModuleLoadDataEx(&module, kPtx, 4, options, values));
  std::printf("error log after a good load: \"%s\"\n", error_log);
  CUfunction scale_add = nullptr, packed = nullptr, count_and_read = nullptr, missing = nullptr;
  CHECK(cuModuleGetFunction(&scale_add, module, "scale_add"));
  CHECK(cuModuleGetFunction(&packed, module, "packed"));
  CHECK(cuModuleGetFunction(&count_and_read, module, "count_and_read"));
  say("cuModuleGetFunction(no_such_kernel)", cuModuleGetFunction(&missing, module, "no_such_kernel"));

  const int n = 1000;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i) * 0.5f;
  CUdeviceptr data = 0;
  CHECK(cuMemAlloc(&data, n * sizeof(float)));
  CHECK(cuMemcpyHtoD(data, host.data(), n * sizeof(float)));
  float scale = 3.0f, add = -1.0f;
  int count = n;
  void* params[] = {&data, &scale, &add, &count};
  CHECK(cuLaunchKernel(scale_add, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
  CHECK(cuMemcpyDtoH(host.data(), data, n * sizeof(float)));
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += host[i] != static_cast<float>(i) * 0.5f * 3.0f - 1.0f;
  std::printf("scale_add: %d wrong of %d, host[999] = %.2f\n", wrong, n, host[999]);

  // The packed parameter buffer: char at 0, double at 8, int at 16, short at 20.
  CUdeviceptr out = 0;
  CHECK(cuMemAlloc(&out, 32));
  CHECK(cuMemsetD8(out, 0, 32));
  unsigned char buffer[32] = {};
  std::memcpy(buffer, &out, 8);
  buffer[8] = 'x';
  double d = 2.5;
  std::memcpy(buffer + 16, &d, 8);
  int i32 = -7;
  std::memcpy(buffer + 24, &i32, 4);
  short s16 = 300;
  std::memcpy(buffer + 28, &s16, 2);
  size_t size = 30;
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buffer, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
  CHECK(cuLaunchKernel(packed, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, extra));
  unsigned char result[32] = {};
  CHECK(cuMemcpyDtoH(result, out, 32));
  double d_out = 0;
  int i_out = 0;
  short s_out = 0;
  std::memcpy(&d_out, result + 8, 8);
  std::memcpy(&i_out, result + 16, 4);
  std::memcpy(&s_out, result + 20, 2);
  std::printf("packed: %c %.2f %d %d\n", result[0], d_out, i_out, s_out);
  say("cuLaunchKernel with both params and extra", cuLaunchKernel(packed, 1, 1, 1, 32, 1, 1, 0, nullptr, params, extra));
  say("cuLaunchKernel with 2048 threads", cuLaunchKernel(scale_add, 1, 1, 1, 2048, 1, 1, 0, nullptr, params, nullptr));
  say("cuLaunchKernel with a null function", cuLaunchKernel(nullptr, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));

  // Variables.
  CUdeviceptr counter = 0, table = 0;
  size_t counter_bytes = 0, table_bytes = 0;
  CHECK(cuModuleGetGlobal(&counter, &counter_bytes, module, "counter"));
  CHECK(cuModuleGetGlobal(&table, &table_bytes, module, "table"));
  std::printf("counter %zu bytes, table %zu bytes\n", counter_bytes, table_bytes);
  say("cuModuleGetGlobal(no_such_variable)", cuModuleGetGlobal(&counter, &counter_bytes, module, "no_such_variable"));
  CHECK(cuModuleGetGlobal(&counter, &counter_bytes, module, "counter"));
  float values4[4] = {1.5f, 2.5f, 3.5f, 4.5f};
  CHECK(cuMemcpyHtoD(table, values4, sizeof values4));
  CHECK(cuMemsetD32(counter, 40, 1));
  CHECK(cuMemsetD16(out, 0xabcd, 16));
  void* read_params[] = {&out};
  CHECK(cuLaunchKernel(count_and_read, 2, 1, 1, 8, 1, 1, 0, nullptr, read_params, nullptr));
  CHECK(cuCtxSynchronize());
  int counted = 0;
  float read[8] = {};
  CHECK(cuMemcpyDtoH(&counted, counter, sizeof counted));
  CHECK(cuMemcpyDtoH(read, out, sizeof read));
  std::printf("counter %d, read %.1f %.1f %.1f %.1f %.1f\n", counted, read[0], read[1], read[2], read[3], read[4]);

  // Streams, events, async copies, D2D.
  CUstream stream = nullptr;
  CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CHECK(cuStreamGetFlags(stream, &flags));
  int priority = 99;
  CHECK(cuStreamGetPriority(stream, &priority));
  std::printf("stream flags %u priority %d\n", flags, priority);
  CUevent start = nullptr, stop = nullptr;
  CHECK(cuEventCreate(&start, CU_EVENT_DEFAULT));
  CHECK(cuEventCreate(&stop, CU_EVENT_DISABLE_TIMING));
  CUdeviceptr copy = 0;
  CHECK(cuMemAlloc(&copy, n * sizeof(float)));
  CHECK(cuEventRecord(start, stream));
  CHECK(cuMemcpyDtoDAsync(copy, data, n * sizeof(float), stream));
  scale = 0.5f;
  add = 0.0f;
  void* copy_params[] = {&copy, &scale, &add, &count};
  CHECK(cuLaunchKernel(scale_add, (n + 127) / 128, 1, 1, 128, 1, 1, 0, stream, copy_params, nullptr));
  CHECK(cuEventRecord(stop, stream));
  CHECK(cuStreamWaitEvent(nullptr, stop, 0));
  CHECK(cuMemcpyDtoHAsync(host.data(), copy, n * sizeof(float), stream));
  CHECK(cuStreamSynchronize(stream));
  say("cuEventQuery(stop)", cuEventQuery(stop));
  float ms = 0;
  say("cuEventElapsedTime with a no-timing event", cuEventElapsedTime(&ms, start, stop));
  std::printf("async: host[10] = %.2f host[999] = %.2f\n", host[10], host[999]);
  int min_grid = 0, block = 0;
  CHECK(cuOccupancyMaxPotentialBlockSize(&min_grid, &block, scale_add, nullptr, 0, 0));
  int per_sm = 0;
  CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, scale_add, 256, 0));
  int sms = 0;
  CHECK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device));
  std::printf("occupancy: block %d, min grid %d SMs, %d blocks of 256 per SM\n", block, min_grid / sms, per_sm);
  CUdeviceptr base = 0;
  size_t range = 0;
  CHECK(cuMemGetAddressRange(&base, &range, copy + 100));
  std::printf("address range: base is the allocation %s, %zu bytes\n", base == copy ? "yes" : "no", range);

  // Bad images.
  const char garbage[] = "\x01\x02\x03\x04 this is not device code";
  CUmodule bad = nullptr;
  say("cuModuleLoadData(garbage)", cuModuleLoadData(&bad, garbage));
  const char* broken = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k() { bogus.instruction; }\n";
  std::strcpy(error_log, "untouched");
  values[3] = reinterpret_cast<void*>(sizeof error_log);
  say("cuModuleLoadDataEx(malformed PTX)", cuModuleLoadDataEx(&bad, broken, 4, options, values));
  std::printf("error log says something: %s\n", std::strcmp(error_log, "untouched") != 0 && error_log[0] ? "yes" : "no");
  say("cuModuleLoad(no such file)", cuModuleLoad(&bad, "/no/such/file.ptx"));

  // Destroying: B is on no stack now; destroying A (current) pops it.
  CHECK(cuStreamDestroy(stream));
  CHECK(cuEventDestroy(start));
  CHECK(cuEventDestroy(stop));
  CHECK(cuMemFree(data));
  CHECK(cuMemFree(out));
  CHECK(cuMemFree(copy));
  say("cuMemFree of a freed pointer", cuMemFree(copy));
  CHECK(cuModuleUnload(module));
  say("cuModuleGetFunction in an unloaded module", cuModuleGetFunction(&missing, module, "scale_add"));
  CHECK(cuCtxDestroy(b));
  CHECK(cuCtxGetCurrent(&current));
  std::printf("after destroying B: current %s\n", which(current, a, b, primary));
  CHECK(cuCtxDestroy(a));
  CHECK(cuCtxGetCurrent(&current));
  std::printf("after destroying A: current %s\n", which(current, a, b, primary));
  say("cuCtxDestroy(primary)", cuCtxDestroy(primary));
  CHECK(cuDevicePrimaryCtxRelease(device));
  CHECK(cuDevicePrimaryCtxGetState(device, &flags, &active));
  std::printf("primary after release: active %d\n", active);
  say("cuDevicePrimaryCtxRelease once more", cuDevicePrimaryCtxRelease(device));
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
