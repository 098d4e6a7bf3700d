// Launch configurations the device cannot run are refused at launch with the error the
// GPU gives, cudaGetLastError reports it once, and the context stays usable.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void touch(int* p) {
    if (p) p[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

static void report(const char* what) {
    cudaError_t peek = cudaPeekAtLastError();
    cudaError_t last = cudaGetLastError();
    cudaError_t again = cudaGetLastError();
    std::printf("%-32s peek %s, last %s (\"%s\"), then %s\n", what, cudaGetErrorName(peek), cudaGetErrorName(last),
                cudaGetErrorString(last), cudaGetErrorName(again));
}

int main() {
    int* d;
    cudaMalloc(&d, 1 << 20);
    touch<<<1, 1025>>>(d);
    report("1025 threads per block");
    touch<<<0, 32>>>(d);
    report("zero blocks");
    touch<<<dim3(1, 1, 1), dim3(1, 1, 65)>>>(d);
    report("blockDim.z = 65");
    touch<<<dim3(1, 65536, 1), 32>>>(nullptr);
    report("gridDim.y = 65536");
    touch<<<dim3(1, 1, 65536), 32>>>(nullptr);
    report("gridDim.z = 65536");
    touch<<<1, 32, 49 * 1024>>>(d);
    report("49 KiB dynamic shared memory");
    touch<<<1, dim3(32, 32, 2)>>>(d);
    report("32x32x2 threads");
    touch<<<4, 256>>>(d);
    report("a valid launch");
    std::printf("cudaDeviceSynchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    std::printf("cudaFree(host pointer): %s\n", cudaGetErrorName(cudaFree((void*)&report)));
    report("after the bad free");
    std::printf("cudaSetDevice(7): %s\n", cudaGetErrorName(cudaSetDevice(7)));
    report("after the bad device");
    std::printf("cudaMemcpy with kind 17: %s\n", cudaGetErrorName(cudaMemcpy(d, d, 4, (cudaMemcpyKind)17)));
    report("after the bad memcpy");
    cudaFree(d);
    return 0;
}
