// Prints every cudaDeviceAttr of device 0 that the runtime accepts: "<number>\t<value>".
// Run on a real GPU to make h100_attributes.tsv (see README.md).
#include <cstdio>

#include <cuda_runtime.h>

int main() {
    for (int attr = 0; attr < 1000; ++attr) {
        int value = 0;
        if (cudaDeviceGetAttribute(&value, (cudaDeviceAttr)attr, 0) == cudaSuccess) std::printf("%d\t%d\n", attr, value);
        cudaGetLastError();
    }
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    std::printf("name\t%s\n", p.name);
    return 0;
}
