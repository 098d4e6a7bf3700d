// Kernel parameters of every size and alignment reach the kernel intact: scalars of
// 1..8 bytes, a packed mix, structs by value (with padding and 16-byte alignment),
// a 1 KiB array in a struct, and pointers.
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

struct Mixed {
    char c;
    double d;
    short s;
};
struct alignas(16) Wide {
    float f[3];
    int i;
    long long ll;
};
struct Big {
    int values[256];
};

__global__ void scalars(unsigned long long* out, char c, unsigned char uc, short s, int i, long long ll, float f,
                        double d, bool b) {
    out[0] = (unsigned long long)(long long)c;
    out[1] = uc;
    out[2] = (unsigned long long)(long long)s;
    out[3] = (unsigned long long)(long long)i;
    out[4] = (unsigned long long)ll;
    unsigned fb;
    memcpy(&fb, &f, 4);
    out[5] = fb;
    unsigned long long db;
    memcpy(&db, &d, 8);
    out[6] = db;
    out[7] = b;
}

__global__ void structs(long long* out, Mixed m, char tail, Wide w, Big big, const int* p) {
    out[0] = m.c;
    out[1] = (long long)(m.d * 1000);
    out[2] = m.s;
    out[3] = tail;
    out[4] = (long long)(w.f[0] + w.f[1] + w.f[2]);
    out[5] = w.i;
    out[6] = w.ll;
    long long sum = 0;
    for (int k = 0; k < 256; ++k) sum += big.values[k] * (k + 1);
    out[7] = sum;
    out[8] = p[threadIdx.x] + p[3];
}

int main() {
    unsigned long long* d_out;
    cudaMalloc(&d_out, 16 * sizeof(unsigned long long));
    scalars<<<1, 1>>>(d_out, -5, 250, -30000, -2000000000, -9000000000000000000LL, -1.5f, 3.25e300, true);
    unsigned long long out[16];
    cudaMemcpy(out, d_out, 8 * sizeof(out[0]), cudaMemcpyDeviceToHost);
    std::printf("char %lld, unsigned char %llu, short %lld, int %lld\n", (long long)out[0], out[1], (long long)out[2],
                (long long)out[3]);
    std::printf("long long %lld, float bits %#llx, double bits %#llx, bool %llu\n", (long long)out[4], out[5], out[6],
                out[7]);

    Mixed m{'x', 2.5, -7};
    Wide w{{1.5f, 2.5f, 3.0f}, 42, 1LL << 40};
    Big big;
    for (int k = 0; k < 256; ++k) big.values[k] = k - 100;
    int h_p[4] = {10, 20, 30, 40};
    int* d_p;
    cudaMalloc(&d_p, sizeof(h_p));
    cudaMemcpy(d_p, h_p, sizeof(h_p), cudaMemcpyHostToDevice);
    structs<<<1, 1>>>((long long*)d_out, m, 'T', w, big, d_p);
    cudaError_t err = cudaGetLastError();
    long long s[9];
    cudaMemcpy(s, d_out, sizeof(s), cudaMemcpyDeviceToHost);
    std::printf("launch: %s\n", cudaGetErrorName(err));
    std::printf("Mixed {%lld, %lld/1000, %lld}, tail '%c'\n", s[0], s[1], s[2], (char)s[3]);
    std::printf("Wide {sum %lld, %lld, %lld}\n", s[4], s[5], s[6]);
    std::printf("Big weighted sum %lld, pointer read %lld\n", s[7], s[8]);
    cudaFree(d_out);
    cudaFree(d_p);
    return 0;
}
