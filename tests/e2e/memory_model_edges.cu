// The answers CUDA gives at the edges of the memory and device-model API, taken on the
// GPU: cudaMallocPitch pitches, the errors of bad pitches and boxes in 2D/3D copies and
// sets, cudaPointerGetAttributes for every kind of memory, host registration, managed
// memory hints read back, device flags and configurations, kernel parameter layout.
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

__device__ int device_variable[4];
__managed__ int managed_variable;

struct Params {
    char c;
    double d;
};
__global__ void with_params(char a, Params p, int* q, short s) {
    if (q) *q = a + (int)p.d + s;
}

static const char* name(cudaError_t e) { return cudaGetErrorName(e); }

static void attributes(const char* what, const void* p) {
    cudaPointerAttributes a;
    cudaError_t e = cudaPointerGetAttributes(&a, p);
    std::printf("attributes %-22s %s type %d device %d devicePointer %s hostPointer %s\n", what, name(e), (int)a.type,
                a.device, a.devicePointer == p ? "=ptr" : (a.devicePointer ? "other" : "null"),
                a.hostPointer == p ? "=ptr" : (a.hostPointer ? "other" : "null"));
}

int main() {
    // Pitches cudaMallocPitch chooses.
    for (size_t width : {1, 100, 256, 400, 512, 513, 1000, 4000}) {
        void* p = nullptr;
        size_t pitch = 0;
        cudaError_t pitch_error = cudaMallocPitch(&p, &pitch, width, 3);
        std::printf("cudaMallocPitch width %zu: %s pitch %zu\n", width, name(pitch_error), pitch);
        cudaFree(p);
    }
    {
        void* p = (void*)1;
        size_t pitch = 7;
        cudaError_t zero_error = cudaMallocPitch(&p, &pitch, 0, 3);
        std::printf("cudaMallocPitch width 0: %s pointer %s pitch %zu\n", name(zero_error), p ? "set" : "null", pitch);
        cudaGetLastError();
    }
    // (Each call is made before the printf that shows what it wrote: argument order is unspecified.)
    cudaPitchedPtr vol;
    cudaError_t e = cudaMalloc3D(&vol, make_cudaExtent(100, 4, 3));
    std::printf("cudaMalloc3D 100x4x3: %s pitch %zu xsize %zu ysize %zu\n", name(e), vol.pitch, vol.xsize, vol.ysize);

    // 2D copies and sets with bad pitches.
    char *d = nullptr, host[4096];
    size_t pitch = 0;
    cudaMallocPitch((void**)&d, &pitch, 64, 8);
    std::printf("memcpy2D width > spitch: %s\n", name(cudaMemcpy2D(d, pitch, host, 32, 64, 8, cudaMemcpyHostToDevice)));
    std::printf("memcpy2D width > dpitch: %s\n", name(cudaMemcpy2D(host, 32, d, pitch, 64, 8, cudaMemcpyDeviceToHost)));
    std::printf("memcpy2D huge pitch: %s\n",
                name(cudaMemcpy2D(d, pitch, host, (size_t)1 << 40, 64, 1, cudaMemcpyHostToDevice)));
    std::printf("memcpy2D height 0: %s\n", name(cudaMemcpy2D(d, pitch, host, 64, 64, 0, cudaMemcpyHostToDevice)));
    std::printf("memcpy2D width 0: %s\n", name(cudaMemcpy2D(d, pitch, host, 64, 0, 8, cudaMemcpyHostToDevice)));
    std::printf("memcpy2D bad kind: %s\n", name(cudaMemcpy2D(d, pitch, host, 64, 64, 8, (cudaMemcpyKind)7)));
    std::printf("memset2D width > pitch: %s\n", name(cudaMemset2D(d, 32, 0, 64, 8)));
    std::printf("memset2D rows past the allocation: %s\n", name(cudaMemset2D(d, pitch, 0, 64, 9)));
    std::printf("memset2D on host memory: %s\n", name(cudaMemset2D(host, 64, 0, 64, 8)));
    cudaGetLastError();

    // 3D boxes.
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(host, 64, 64, 4);
    p.dstPtr = vol;
    p.kind = cudaMemcpyHostToDevice;
    p.extent = make_cudaExtent(64, 4, 3);
    std::printf("memcpy3D fits: %s\n", name(cudaMemcpy3D(&p)));
    p.dstPos = make_cudaPos(vol.pitch - 32, 0, 0);
    std::printf("memcpy3D x + width > pitch: %s\n", name(cudaMemcpy3D(&p)));
    p.dstPos = make_cudaPos(0, 2, 0);
    std::printf("memcpy3D y + height > ysize, 3 slices: %s\n", name(cudaMemcpy3D(&p)));
    p.extent = make_cudaExtent(64, 4, 1);
    std::printf("memcpy3D y + height > ysize, 1 slice: %s\n", name(cudaMemcpy3D(&p)));
    p.dstPos = make_cudaPos(0, 0, 0);
    p.srcPtr.pitch = 32;
    std::printf("memcpy3D width > source pitch: %s\n", name(cudaMemcpy3D(&p)));
    std::printf("memset3D fits: %s\n", name(cudaMemset3D(vol, 1, make_cudaExtent(100, 4, 3))));
    std::printf("memset3D height > ysize: %s\n", name(cudaMemset3D(vol, 1, make_cudaExtent(100, 5, 2))));
    std::printf("memset3D width > pitch: %s\n", name(cudaMemset3D(vol, 1, make_cudaExtent(vol.pitch + 1, 1, 1))));
    cudaGetLastError();

    // Pointer attributes of every kind of memory.
    int *dev, *pinned, *mapped, *managed, *reg = (int*)std::malloc(1 << 16), stack = 0;
    cudaMalloc(&dev, 256);
    cudaMallocHost(&pinned, 256);
    cudaHostAlloc(&mapped, 256, cudaHostAllocMapped | cudaHostAllocPortable);
    cudaMallocManaged(&managed, 1 << 16);
    int* devvar = nullptr;
    cudaGetSymbolAddress((void**)&devvar, device_variable);
    attributes("cudaMalloc", dev);
    attributes("cudaMalloc interior", dev + 3);
    attributes("cudaMallocHost", pinned);
    attributes("cudaHostAlloc mapped", mapped);
    attributes("cudaMallocManaged", managed);
    attributes("__device__", devvar);
    attributes("__managed__", &managed_variable);
    attributes("stack", &stack);
    attributes("malloc", reg);
    attributes("nullptr", nullptr);
    std::printf("cudaHostRegister: %s\n", name(cudaHostRegister(reg, 4096, cudaHostRegisterDefault)));
    attributes("registered", reg);
    attributes("registered interior", reg + 5);
    std::printf("cudaHostRegister again: %s\n", name(cudaHostRegister(reg, 4096, cudaHostRegisterDefault)));
    std::printf("cudaHostRegister overlapping: %s\n", name(cudaHostRegister(reg + 512, 4096, 0)));
    std::printf("cudaHostUnregister interior: %s\n", name(cudaHostUnregister(reg + 1)));
    std::printf("cudaHostRegister size 0: %s\n", name(cudaHostRegister(reg + 2048, 0, 0)));
    unsigned flags = 99;
    e = cudaHostGetFlags(&flags, pinned);
    std::printf("cudaHostGetFlags cudaMallocHost: %s %u\n", name(e), flags);
    flags = 99;
    e = cudaHostGetFlags(&flags, mapped);
    std::printf("cudaHostGetFlags mapped|portable: %s %u\n", name(e), flags);
    flags = 99;
    e = cudaHostGetFlags(&flags, reg);
    std::printf("cudaHostGetFlags registered: %s %u\n", name(e), flags);
    void* alias = nullptr;
    e = cudaHostGetDevicePointer(&alias, reg + 1, 0);
    std::printf("cudaHostGetDevicePointer registered: %s %s\n", name(e), alias == reg + 1 ? "=ptr" : "other");
    std::printf("cudaHostGetDevicePointer device memory: %s\n", name(cudaHostGetDevicePointer(&alias, dev, 0)));
    std::printf("cudaHostGetDevicePointer managed: %s\n", name(cudaHostGetDevicePointer(&alias, managed, 0)));
    std::printf("cudaHostUnregister: %s\n", name(cudaHostUnregister(reg)));
    std::printf("cudaHostUnregister again: %s\n", name(cudaHostUnregister(reg)));
    cudaGetLastError();

    // Managed memory: allocation checks and hints read back.
    void* m = nullptr;
    std::printf("cudaMallocManaged size 0: %s\n", name(cudaMallocManaged(&m, 0)));
    std::printf("cudaMallocManaged flags 0: %s\n", name(cudaMallocManaged(&m, 64, 0)));
    cudaMemLocation device0 = {cudaMemLocationTypeDevice, 0}, host_location = {cudaMemLocationTypeHost, 0};
    int value = -7, ids[3] = {-7, -7, -7};
    std::printf("cudaMemAdvise device memory: %s\n", name(cudaMemAdvise(dev, 256, cudaMemAdviseSetReadMostly, device0)));
    std::printf("cudaMemAdvise read mostly: %s\n",
                name(cudaMemAdvise(managed, 8192, cudaMemAdviseSetReadMostly, device0)));
    cudaMemRangeGetAttribute(&value, 4, cudaMemRangeAttributeReadMostly, managed, 4096);
    std::printf("read mostly [0, 4096): %d\n", value);
    cudaMemRangeGetAttribute(&value, 4, cudaMemRangeAttributeReadMostly, managed, 16384);
    std::printf("read mostly [0, 16384): %d\n", value);
    cudaMemRangeGetAttribute(&value, 4, cudaMemRangeAttributePreferredLocation, managed, 4096);
    std::printf("preferred location before advice: %d\n", value);
    cudaMemAdvise(managed, 1 << 16, cudaMemAdviseSetPreferredLocation, host_location);
    cudaMemRangeGetAttribute(&value, 4, cudaMemRangeAttributePreferredLocation, managed, 4096);
    std::printf("preferred location host: %d\n", value);
    cudaMemAdvise(managed, 4096, cudaMemAdviseSetPreferredLocation, device0);
    cudaMemRangeGetAttribute(&value, 4, cudaMemRangeAttributePreferredLocation, managed, 4096);
    std::printf("preferred location device 0: %d\n", value);
    cudaMemRangeGetAttribute(&value, 4, cudaMemRangeAttributePreferredLocation, managed, 8192);
    std::printf("preferred location mixed: %d\n", value);
    cudaMemAdvise(managed, 1 << 16, cudaMemAdviseSetAccessedBy, device0);
    cudaMemRangeGetAttribute(ids, sizeof ids, cudaMemRangeAttributeAccessedBy, managed, 4096);
    std::printf("accessed by: %d %d %d\n", ids[0], ids[1], ids[2]);
    cudaMemRangeGetAttribute(&value, 4, cudaMemRangeAttributeLastPrefetchLocation, managed, 4096);
    std::printf("last prefetch before: %d\n", value);
    std::printf("cudaMemPrefetchAsync device 0: %s\n", name(cudaMemPrefetchAsync(managed, 1 << 16, device0, 0, 0)));
    cudaDeviceSynchronize();
    cudaMemRangeGetAttribute(&value, 4, cudaMemRangeAttributeLastPrefetchLocation, managed, 4096);
    std::printf("last prefetch: %d\n", value);
    std::printf("cudaMemPrefetchAsync device memory: %s\n", name(cudaMemPrefetchAsync(dev, 256, device0, 0, 0)));
    std::printf("cudaMemPrefetchAsync device 5: %s\n",
                name(cudaMemPrefetchAsync(managed, 256, cudaMemLocation{cudaMemLocationTypeDevice, 5}, 0, 0)));
    cudaGetLastError();

    // Device flags, configurations, peers.
    unsigned device_flags = 99;
    e = cudaGetDeviceFlags(&device_flags);
    std::printf("cudaGetDeviceFlags: %s %#x\n", name(e), device_flags);
    std::printf("cudaSetDeviceFlags blocking sync: %s\n", name(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync)));
    cudaGetDeviceFlags(&device_flags);
    std::printf("cudaGetDeviceFlags: %#x\n", device_flags);
    std::printf("cudaSetDeviceFlags 3: %s\n", name(cudaSetDeviceFlags(3)));
    std::printf("cudaSetDeviceFlags 0x100: %s\n", name(cudaSetDeviceFlags(0x100)));
    cudaFuncCache cache = (cudaFuncCache)99;
    cudaDeviceGetCacheConfig(&cache);
    std::printf("cache config default %d\n", (int)cache);
    std::printf("cudaDeviceSetCacheConfig prefer L1: %s\n", name(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1)));
    cudaDeviceGetCacheConfig(&cache);
    std::printf("cache config now %d\n", (int)cache);
    std::printf("cudaDeviceSetCacheConfig 7: %s\n", name(cudaDeviceSetCacheConfig((cudaFuncCache)7)));
    std::printf("cudaFuncSetCacheConfig: %s\n", name(cudaFuncSetCacheConfig(with_params, cudaFuncCachePreferShared)));
    int can = -1;
    e = cudaDeviceCanAccessPeer(&can, 0, 0);
    std::printf("cudaDeviceCanAccessPeer(0, 0): %s %d\n", name(e), can);
    std::printf("cudaDeviceEnablePeerAccess(0): %s\n", name(cudaDeviceEnablePeerAccess(0, 0)));
    std::printf("cudaDeviceDisablePeerAccess(0): %s\n", name(cudaDeviceDisablePeerAccess(0)));
    std::printf("cudaSetValidDevices {0}: %s\n", name(cudaSetValidDevices(&can, 0)));
    int valid[1] = {0}, bad[1] = {9};
    std::printf("cudaSetValidDevices {0}: %s {9}: %s\n", name(cudaSetValidDevices(valid, 1)),
                name(cudaSetValidDevices(bad, 1)));
    std::printf("cudaInitDevice 0: %s 9: %s\n", name(cudaInitDevice(0, 0, 0)), name(cudaInitDevice(9, 0, 0)));
    cudaGetLastError();

    // Kernel parameter layout.
    for (size_t i = 0; i < 5; ++i) {
        size_t offset = 99, size = 99;
        cudaError_t param_error = cudaFuncGetParamInfo((const void*)with_params, i, &offset, &size);
        std::printf("param %zu: %s offset %zu size %zu\n", i, name(param_error), offset, size);
    }
    std::printf("last error: %s\n", name(cudaGetLastError()));
    return 0;
}
