// cuLink*: two PTX translation units (nvcc -rdc=true -ptx), one calling a function and
// using a variable the other defines, linked at run time, loaded from the linked image,
// run; the same units added from files; a unit added twice (two definitions of one name),
// a unit that is not PTX, an empty link. Error codes and results are printed; the image's
// bytes are not (a GPU's is machine code).
// NVCC-FLAGS: -lcuda
#include <cuda.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

// nvcc -rdc=true -ptx -arch=sm_90: extern __device__ float scale(float); extern __device__
// int calls; extern "C" __global__ void apply(float* x, int n) { ... x[i] = scale(x[i]);
// atomicAdd(&calls, 1); }
static const char* kApply = R"PTX(.version 9.0
.target sm_90
.address_size 64
.extern .func  (.param .b32 func_retval0) _Z5scalef
(
	.param .b32 _Z5scalef_param_0
)
;
.extern .global .align 4 .u32 calls;
.visible .entry apply(
	.param .u64 apply_param_0,
	.param .u32 apply_param_1
)
{
	.reg .pred 	%p<2>;
	.reg .f32 	%f<3>;
	.reg .b32 	%r<7>;
	.reg .b64 	%rd<6>;
	ld.param.u64 	%rd1, [apply_param_0];
	ld.param.u32 	%r2, [apply_param_1];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB0_2;
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.s32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	ld.global.f32 	%f1, [%rd4];
	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	.param .b32 param0;
	st.param.f32 	[param0+0], %f1;
	.param .b32 retval0;
	call.uni (retval0), 
	_Z5scalef, 
	(
	param0
	);
	ld.param.f32 	%f2, [retval0+0];
	} // callseq 0
	st.global.f32 	[%rd4], %f2;
	mov.u64 	%rd5, calls;
	atom.global.add.u32 	%r6, [%rd5], 1;
$L__BB0_2:
	ret;
}
)PTX";
// __device__ int calls; __device__ float scale(float v) { return v * 3.0f + 1.0f; }
static const char* kScale = R"PTX(.version 9.0
.target sm_90
.address_size 64
.visible .global .align 4 .u32 calls;
.visible .func  (.param .b32 func_retval0) _Z5scalef(
	.param .b32 _Z5scalef_param_0
)
{
	.reg .f32 	%f<3>;
	ld.param.f32 	%f1, [_Z5scalef_param_0];
	fma.rn.f32 	%f2, %f1, 0f40400000, 0f3F800000;
	st.param.f32 	[func_retval0+0], %f2;
	ret;
}
)PTX";

static void say(const char* what, CUresult result) {
  const char* name = nullptr;
  cuGetErrorName(result, &name);
  std::printf("%s: %s\n", what, name ? name : "?");
}

static void run(CUmodule module, const char* how) {
  CUfunction apply = nullptr;
  say("cuModuleGetFunction(apply)", cuModuleGetFunction(&apply, module, "apply"));
  const int n = 256;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i);
  CUdeviceptr data = 0;
  cuMemAlloc(&data, n * sizeof(float));
  cuMemcpyHtoD(data, host.data(), n * sizeof(float));
  int count = n;
  void* params[] = {&data, &count};
  say("cuLaunchKernel", cuLaunchKernel(apply, 2, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
  cuMemcpyDtoH(host.data(), data, n * sizeof(float));
  CUdeviceptr calls = 0;
  size_t bytes = 0;
  say("cuModuleGetGlobal(calls)", cuModuleGetGlobal(&calls, &bytes, module, "calls"));
  int called = 0;
  cuMemcpyDtoH(&called, calls, sizeof called);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += host[i] != static_cast<float>(i) * 3.0f + 1.0f;
  std::printf("%s: %d wrong, host[255] = %.1f, calls %d (%zu bytes)\n", how, wrong, host[255], called, bytes);
  cuMemFree(data);
}

static void write_file(const char* path, const char* text) {
  FILE* file = std::fopen(path, "w");
  std::fputs(text, file);
  std::fclose(file);
}

int main() {
  cuInit(0);
  CUdevice device = 0;
  cuDeviceGet(&device, 0);
  CUcontext context = nullptr;
  cuCtxCreate(&context, nullptr, 0, device);

  CUlinkState link = nullptr;
  say("cuLinkCreate", cuLinkCreate(0, nullptr, nullptr, &link));
  say("cuLinkAddData(apply)", cuLinkAddData(link, CU_JIT_INPUT_PTX, const_cast<char*>(kApply), std::strlen(kApply) + 1,
                                            "apply.ptx", 0, nullptr, nullptr));
  say("cuLinkAddData(scale)", cuLinkAddData(link, CU_JIT_INPUT_PTX, const_cast<char*>(kScale), std::strlen(kScale) + 1,
                                            "scale.ptx", 0, nullptr, nullptr));
  void* image = nullptr;
  size_t size = 0;
  say("cuLinkComplete", cuLinkComplete(link, &image, &size));
  std::printf("image: %s\n", image && size > 0 ? "some bytes" : "none");
  CUmodule module = nullptr;
  say("cuModuleLoadData(image)", cuModuleLoadData(&module, image));
  say("cuLinkDestroy", cuLinkDestroy(link));
  run(module, "linked from memory");
  cuModuleUnload(module);

  // From files, scale first (named by the process: runs side by side must not share them).
  const std::string scale_file = "culink_scale_" + std::to_string(getpid()) + ".ptx";
  const std::string apply_file = "culink_apply_" + std::to_string(getpid()) + ".ptx";
  write_file(scale_file.c_str(), kScale);
  write_file(apply_file.c_str(), kApply);
  say("cuLinkCreate", cuLinkCreate(0, nullptr, nullptr, &link));
  say("cuLinkAddFile(scale)", cuLinkAddFile(link, CU_JIT_INPUT_PTX, scale_file.c_str(), 0, nullptr, nullptr));
  say("cuLinkAddFile(apply)", cuLinkAddFile(link, CU_JIT_INPUT_PTX, apply_file.c_str(), 0, nullptr, nullptr));
  say("cuLinkAddFile(no such file)", cuLinkAddFile(link, CU_JIT_INPUT_PTX, "culink_missing.ptx", 0, nullptr, nullptr));
  say("cuLinkComplete", cuLinkComplete(link, &image, &size));
  say("cuModuleLoadData(image)", cuModuleLoadData(&module, image));
  cuLinkDestroy(link);
  run(module, "linked from files");
  cuModuleUnload(module);
  std::remove(scale_file.c_str());
  std::remove(apply_file.c_str());

  // Errors.
  say("cuLinkCreate", cuLinkCreate(0, nullptr, nullptr, &link));
  const char garbage[] = "this is not PTX at all";
  say("cuLinkAddData(not PTX)", cuLinkAddData(link, CU_JIT_INPUT_PTX, const_cast<char*>(garbage), sizeof garbage,
                                              "garbage", 0, nullptr, nullptr));
  cuLinkDestroy(link);
  say("cuLinkCreate", cuLinkCreate(0, nullptr, nullptr, &link));
  cuLinkAddData(link, CU_JIT_INPUT_PTX, const_cast<char*>(kScale), std::strlen(kScale) + 1, "a", 0, nullptr, nullptr);
  cuLinkAddData(link, CU_JIT_INPUT_PTX, const_cast<char*>(kScale), std::strlen(kScale) + 1, "b", 0, nullptr, nullptr);
  say("cuLinkComplete(two definitions)", cuLinkComplete(link, &image, &size));
  cuLinkDestroy(link);
  cuCtxDestroy(context);
  std::printf("done\n");
  return 0;
}
