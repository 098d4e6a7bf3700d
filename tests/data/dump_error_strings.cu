// Prints every cudaError_t code the runtime knows with its name and string, one per line:
// "<code>\t<name>\t<string>". Run on a real GPU to make error_strings.tsv (see README.md).
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

int main() {
    for (int code = 0; code < 10000; ++code) {
        const char* name = cudaGetErrorName((cudaError_t)code);
        if (std::strcmp(name, "unrecognized error code") == 0) continue;
        std::printf("%d\t%s\t%s\n", code, name, cudaGetErrorString((cudaError_t)code));
    }
    return 0;
}
