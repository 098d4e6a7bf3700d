// Everyday integer and floating-point arithmetic, each result printed as bits: signed and
// unsigned division and remainder with negative operands, shifts, bit operations, 64-bit
// products, float and double arithmetic with correct rounding (div, sqrt, fma),
// conversions in range, comparisons with NaN, sub-word loads with sign extension.
#include <cmath>
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

struct Inputs {
    int i[6];
    unsigned u[4];
    long long ll[3];
    float f[6];
    double d[4];
    signed char c[4];
    short s[2];
};

__global__ void compute(const Inputs* in, unsigned long long* out) {
    int k = 0;
    const int* i = in->i;
    for (int a = 0; a < 6; ++a)
        for (int b = 0; b < 6; ++b) {
            if (i[b] == 0) continue;
            out[k++] = (unsigned)(i[a] / i[b]);
            out[k++] = (unsigned)(i[a] % i[b]);
        }
    const unsigned* u = in->u;
    for (int a = 0; a < 4; ++a) {
        out[k++] = u[a] / (u[(a + 1) % 4] | 1);
        out[k++] = u[a] % (u[(a + 2) % 4] | 3);
        out[k++] = u[a] >> (a * 7);
        out[k++] = (unsigned)(i[a] >> (a * 9));
        out[k++] = u[a] << (a * 5 + 1);
        out[k++] = (u[a] & 0xf0f0f0f0u) | (~u[a] ^ 0x12345678u);
        out[k++] = (unsigned long long)u[a] * u[(a + 3) % 4];
        out[k++] = __umulhi(u[a], u[(a + 1) % 4]);
        out[k++] = (unsigned)__mulhi(i[a], i[a + 1]);
    }
    const long long* ll = in->ll;
    for (int a = 0; a < 3; ++a) {
        out[k++] = ll[a] * ll[(a + 1) % 3];
        out[k++] = ll[a] / (ll[(a + 2) % 3] | 1);
        out[k++] = ll[a] % (ll[(a + 1) % 3] | 5);
        out[k++] = ll[a] >> 13;
        out[k++] = (unsigned long long)ll[a] >> 13;
    }
    const float* f = in->f;
    for (int a = 0; a < 6; ++a) {
        float x = f[a], y = f[(a + 1) % 6], z = f[(a + 2) % 6];
        float r[] = {x + y, x - y, x * y, x / y, sqrtf(fabsf(x)), fmaf(x, y, z), fminf(x, y), fmaxf(x, z),
                     (float)(int)x, (float)(unsigned)fabsf(x), floorf(x), ceilf(x), truncf(x), rintf(x), fabsf(x),
                     -x};
        for (float v : r) {
            unsigned bits;
            memcpy(&bits, &v, 4);
            out[k++] = bits;
        }
        out[k++] = (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 | (x == y) << 4 | (x != y) << 5 |
                   isnan(x) << 6 | isinf(x) << 7;
        out[k++] = (unsigned)(int)(x * 1000.0f);
    }
    const double* d = in->d;
    for (int a = 0; a < 4; ++a) {
        double x = d[a], y = d[(a + 1) % 4];
        double r[] = {x + y, x * y, x / y, sqrt(fabs(x)), fma(x, y, x), (double)(float)x, (double)(long long)x};
        for (double v : r) {
            unsigned long long bits;
            memcpy(&bits, &v, 8);
            out[k++] = bits;
        }
    }
    for (int a = 0; a < 4; ++a) out[k++] = (unsigned)(in->c[a] * 3);
    for (int a = 0; a < 2; ++a) out[k++] = (unsigned)(in->s[a] - 7);
    out[511] = k;  // how many results
}

int main() {
    Inputs in = {{7, -7, 100, -2147483647 - 1, 3, 0},
                 {0xffffffffu, 1u, 0x80000000u, 123456789u},
                 {-5000000000LL, 9223372036854775807LL, 77LL},
                 {1.5f, -0.1f, 3.0e38f, 1.0e-40f, NAN, -INFINITY},
                 {0.1, -2.5, 1.0e300, 4.9e-324},
                 {-128, 127, -1, 5},
                 {-32768, 32767}};
    Inputs* d_in;
    unsigned long long* d_out;
    cudaMalloc(&d_in, sizeof(in));
    cudaMalloc(&d_out, 512 * sizeof(unsigned long long));
    cudaMemcpy(d_in, &in, sizeof(in), cudaMemcpyHostToDevice);
    compute<<<1, 1>>>(d_in, d_out);
    std::printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
    unsigned long long out[512];
    cudaMemcpy(out, d_out, sizeof(out), cudaMemcpyDeviceToHost);
    int n = (int)out[511];
    for (int k = 0; k < n; ++k) std::printf("%3d %016llx\n", k, out[k]);
    std::printf("%d results\n", n);
    return 0;
}
