// The device as cudaGetDeviceProperties and cudaDeviceGetAttribute describe it: only the
// compute capability 9.0 limits that programs size their launches by.
#include <cstdio>

#include <cuda_runtime.h>

int main() {
    int count = -1, device = -1;
    cudaError_t err = cudaGetDeviceCount(&count);
    std::printf("cudaGetDeviceCount: %s, %d device(s)\n", cudaGetErrorName(err), count);
    err = cudaGetDevice(&device);
    std::printf("cudaGetDevice: %s, device %d\n", cudaGetErrorName(err), device);
    cudaDeviceProp p;
    std::printf("cudaGetDeviceProperties: %s\n", cudaGetErrorName(cudaGetDeviceProperties(&p, 0)));
    std::printf("compute capability %d.%d, warpSize %d\n", p.major, p.minor, p.warpSize);
    std::printf("maxThreadsPerBlock %d, maxThreadsDim (%d, %d, %d)\n", p.maxThreadsPerBlock, p.maxThreadsDim[0],
                p.maxThreadsDim[1], p.maxThreadsDim[2]);
    std::printf("maxGridSize (%d, %d, %d)\n", p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
    std::printf("sharedMemPerBlock %zu, sharedMemPerBlockOptin %zu, sharedMemPerMultiprocessor %zu\n",
                p.sharedMemPerBlock, p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor);
    std::printf("regsPerBlock %d, maxThreadsPerMultiProcessor %d, maxBlocksPerMultiProcessor %d\n", p.regsPerBlock,
                p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor);
    std::printf("totalConstMem %zu, unifiedAddressing %d, managedMemory %d, concurrentKernels %d\n", p.totalConstMem,
                p.unifiedAddressing, p.managedMemory, p.concurrentKernels);
    int v = -1;
    cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, 0);
    std::printf("attribute MaxThreadsPerBlock %d\n", v);
    cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0);
    std::printf("attribute ComputeCapabilityMajor %d\n", v);
    cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
    std::printf("attribute MaxSharedMemoryPerBlockOptin %d\n", v);
    std::printf("attribute 9999: %s\n", cudaGetErrorName(cudaDeviceGetAttribute(&v, (cudaDeviceAttr)9999, 0)));
    std::printf("properties of device 1: %s\n", cudaGetErrorName(cudaGetDeviceProperties(&p, 1)));
    int rt = 0;
    cudaRuntimeGetVersion(&rt);
    std::printf("runtime version %d\n", rt);
    return 0;
}
