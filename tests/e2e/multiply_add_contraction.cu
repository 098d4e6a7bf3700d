// ptxas fuses a mul and an add/sub written without rounding modifiers into one fma
// (PTX ISA "add": such sequences "may be optimized to use fused-multiply-add"), and which
// pairs it fuses decides the results' last bits. Each pattern below is inline PTX on its
// own random inputs (so that ptxas cannot share products between patterns); then the same
// in CUDA C++: a rotation's a*b - c*d, a product made before a loop and subtracted in it,
// and an error term like dxtc's; and a*b - c*d with an IEEE reciprocal or square root
// between the muls and the sub. Every pattern prints a hash of its 65,536 results' bits.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

constexpr int NP = 22, n = 1 << 16;
#define IN(p, k) X[((p) * 4 + (k)) * n + i]

__global__ void patterns(const float* X, float* out, float* side) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float r[NP][2];
    for (int p = 0; p < NP; ++p) r[p][0] = r[p][1] = 0;
    // 0: sub, mul second operand
    asm("{.reg .f32 t; mul.f32 t, %1, %2; sub.f32 %0, %3, t;}" : "=f"(r[0][0]) : "f"(IN(0,0)), "f"(IN(0,1)), "f"(IN(0,2)));
    // 1: two muls, add t1 + t2, t1 defined first
    asm("{.reg .f32 t1, t2; mul.f32 t1, %1, %2; mul.f32 t2, %3, %4; add.f32 %0, t1, t2;}" : "=f"(r[1][0]) : "f"(IN(1,0)), "f"(IN(1,1)), "f"(IN(1,2)), "f"(IN(1,3)));
    // 2: two muls, add t2 + t1, t1 defined first
    asm("{.reg .f32 t1, t2; mul.f32 t1, %1, %2; mul.f32 t2, %3, %4; add.f32 %0, t2, t1;}" : "=f"(r[2][0]) : "f"(IN(2,0)), "f"(IN(2,1)), "f"(IN(2,2)), "f"(IN(2,3)));
    // 3: two muls, sub t1 - t2
    asm("{.reg .f32 t1, t2; mul.f32 t1, %1, %2; mul.f32 t2, %3, %4; sub.f32 %0, t1, t2;}" : "=f"(r[3][0]) : "f"(IN(3,0)), "f"(IN(3,1)), "f"(IN(3,2)), "f"(IN(3,3)));
    // 4: two muls, sub t2 - t1
    asm("{.reg .f32 t1, t2; mul.f32 t1, %1, %2; mul.f32 t2, %3, %4; sub.f32 %0, t2, t1;}" : "=f"(r[4][0]) : "f"(IN(4,0)), "f"(IN(4,1)), "f"(IN(4,2)), "f"(IN(4,3)));
    // 5: mul used by two adds
    asm("{.reg .f32 t; mul.f32 t, %2, %3; add.f32 %0, t, %4; add.f32 %1, t, %5;}" : "=f"(r[5][0]), "=f"(r[5][1]) : "f"(IN(5,0)), "f"(IN(5,1)), "f"(IN(5,2)), "f"(IN(5,3)));
    // 6: mul used by an add and stored
    asm("{.reg .f32 t; mul.f32 t, %1, %2; st.global.f32 [%3], t; add.f32 %0, t, %4;}" : "=f"(r[6][0]) : "f"(IN(6,0)), "f"(IN(6,1)), "l"(side + i), "f"(IN(6,2)));
    // 7: mul used by an add and by a mul
    asm("{.reg .f32 t; mul.f32 t, %2, %3; add.f32 %0, t, %4; mul.f32 %1, t, %5;}" : "=f"(r[7][0]), "=f"(r[7][1]) : "f"(IN(7,0)), "f"(IN(7,1)), "f"(IN(7,2)), "f"(IN(7,3)));
    // 8: mul used by an add and a compare (selp)
    asm("{.reg .f32 t; .reg .pred q; mul.f32 t, %2, %3; add.f32 %0, t, %4; setp.gt.f32 q, t, %5; selp.f32 %1, 0f3F800000, 0f00000000, q;}" : "=f"(r[8][0]), "=f"(r[8][1]) : "f"(IN(8,0)), "f"(IN(8,1)), "f"(IN(8,2)), "f"(IN(8,3)));
    // 9: mul before a branch, add after it (both paths add)
    asm("{.reg .f32 t; .reg .pred q; mul.f32 t, %1, %2; setp.gt.f32 q, %3, 0f00000000; @q bra P9A; add.f32 %0, t, %3; bra P9B; P9A: add.f32 %0, t, %4; P9B: }" : "=f"(r[9][0]) : "f"(IN(9,0)), "f"(IN(9,1)), "f"(IN(9,2)), "f"(IN(9,3)));
    // 10: mul used by an add and by a sub
    asm("{.reg .f32 t; mul.f32 t, %2, %3; add.f32 %0, t, %4; sub.f32 %1, %5, t;}" : "=f"(r[10][0]), "=f"(r[10][1]) : "f"(IN(10,0)), "f"(IN(10,1)), "f"(IN(10,2)), "f"(IN(10,3)));
    // 11: t1 used twice: u = t1 + t2; r = u + t1
    asm("{.reg .f32 t1, t2, u; mul.f32 t1, %1, %2; mul.f32 t2, %3, %4; add.f32 u, t1, t2; add.f32 %0, u, t1;}" : "=f"(r[11][0]) : "f"(IN(11,0)), "f"(IN(11,1)), "f"(IN(11,2)), "f"(IN(11,3)));
    // 12: t1 stored too, add t1 + t2 (t2 single use)
    asm("{.reg .f32 t1, t2; mul.f32 t1, %1, %2; mul.f32 t2, %3, %4; st.global.f32 [%5], t1; add.f32 %0, t1, t2;}" : "=f"(r[12][0]) : "f"(IN(12,0)), "f"(IN(12,1)), "f"(IN(12,2)), "f"(IN(12,3)), "l"(side + n + i));
    // 13: a loop: s = s + x_j * y_j, 4 steps (unrolled by hand), s starts at c
    asm("{.reg .f32 t, s; mov.f32 s, %3; mul.f32 t, %1, %2; add.f32 s, s, t; mul.f32 t, %2, %2; add.f32 s, s, t; mul.f32 t, %1, %1; add.f32 s, s, t; mov.f32 %0, s;}" : "=f"(r[13][0]) : "f"(IN(13,0)), "f"(IN(13,1)), "f"(IN(13,2)));
    // 14: a loop in PTX with the mul and add in its body
    asm("{.reg .f32 s, t; .reg .u32 j; .reg .pred q; mov.f32 s, %3; mov.u32 j, 0; P14L: mul.f32 t, %1, %2; add.f32 s, s, t; add.f32 %1, %1, 0f3F000000; add.u32 j, j, 1; setp.lt.u32 q, j, 3; @q bra P14L; mov.f32 %0, s;}" : "=f"(r[14][0]) : "f"(IN(14,0)), "f"(IN(14,1)), "f"(IN(14,2)));
    // 15: mul, then an unrelated instruction, then the add
    asm("{.reg .f32 t, v; mul.f32 t, %2, %3; mul.f32 v, %4, %4; add.f32 %0, t, %4; mov.f32 %1, v;}" : "=f"(r[15][0]), "=f"(r[15][1]) : "f"(IN(15,0)), "f"(IN(15,1)), "f"(IN(15,2)));
    // 16: add of two muls where t1 has another add use: u = t1 + t2, w = t1 + c
    asm("{.reg .f32 t1, t2; mul.f32 t1, %2, %3; mul.f32 t2, %4, %5; add.f32 %0, t1, t2; add.f32 %1, t1, %4;}" : "=f"(r[16][0]), "=f"(r[16][1]) : "f"(IN(16,0)), "f"(IN(16,1)), "f"(IN(16,2)), "f"(IN(16,3)));
    // 17: mul.f32 by an immediate
    asm("{.reg .f32 t; mul.f32 t, %1, 0f40400000; add.f32 %0, t, %2;}" : "=f"(r[17][0]) : "f"(IN(17,0)), "f"(IN(17,1)));
    // 18: add.f32 with an immediate operand
    asm("{.reg .f32 t; mul.f32 t, %1, %2; add.f32 %0, t, 0f3F000000;}" : "=f"(r[18][0]) : "f"(IN(18,0)), "f"(IN(18,1)));
    // 19: mul result read by add in a later block reached without a branch being taken (fallthrough label)
    asm("{.reg .f32 t; mul.f32 t, %1, %2; bra P19A; P19A: add.f32 %0, t, %3;}" : "=f"(r[19][0]) : "f"(IN(19,0)), "f"(IN(19,1)), "f"(IN(19,2)));
    // 20, 21: a*b - c*d with a reciprocal or square root rounded to nearest between the
    // muls and the sub (ptxas expands those with a slow path of their own: not fused).
    asm("{.reg .f32 t1, t2, q; mul.f32 t1, %2, %3; mul.f32 t2, %4, %5; rcp.rn.f32 q, %4; sub.f32 %0, t1, t2; mov.f32 %1, q;}"
        : "=f"(r[20][0]), "=f"(r[20][1]) : "f"(IN(4,3)), "f"(IN(5,3)), "f"(IN(6,3)), "f"(IN(7,3)));
    asm("{.reg .f32 t1, t2, q; mul.f32 t1, %2, %3; mul.f32 t2, %4, %5; sqrt.rn.f32 q, %4; sub.f32 %0, t1, t2; mov.f32 %1, q;}"
        : "=f"(r[21][0]), "=f"(r[21][1]) : "f"(IN(8,3)), "f"(IN(9,3)), "f"(IN(10,3)), "f"(IN(11,3)));
    for (int p = 0; p < NP; ++p) {
        out[(2 * p) * n + i] = r[p][0];
        out[(2 * p + 1) * n + i] = r[p][1];
    }
}

// f64, f16 and bf16 products and sums.
__global__ void other_types(const float* X, double* out64, unsigned* out16) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const double x = X[i], y = X[n + i], z = X[2 * n + i], w = X[3 * n + i];
    double e0, e1;
    asm("{.reg .f64 t; mul.f64 t, %1, %2; add.f64 %0, t, %3;}" : "=d"(e0) : "d"(x), "d"(y), "d"(z));
    asm("{.reg .f64 t1, t2; mul.f64 t1, %1, %2; mul.f64 t2, %3, %4; sub.f64 %0, t1, t2;}"
        : "=d"(e1) : "d"(x * 1.1), "d"(y), "d"(z), "d"(w));
    out64[2 * i] = e0;
    out64[2 * i + 1] = e1;
    const __half ha = __float2half(X[i]), hb = __float2half(X[n + i]), hc = __float2half(X[2 * n + i]);
    const __nv_bfloat16 ba = __float2bfloat16(X[i]), bb = __float2bfloat16(X[n + i]), bc = __float2bfloat16(X[2 * n + i]);
    unsigned short h0, h1;
    asm("{.reg .b16 t; mul.f16 t, %1, %2; add.f16 %0, t, %3;}"
        : "=h"(h0) : "h"(__half_as_ushort(ha)), "h"(__half_as_ushort(hb)), "h"(__half_as_ushort(hc)));
    asm("{.reg .b16 t; mul.bf16 t, %1, %2; sub.bf16 %0, %3, t;}"
        : "=h"(h1) : "h"(__bfloat16_as_ushort(ba)), "h"(__bfloat16_as_ushort(bb)), "h"(__bfloat16_as_ushort(bc)));
    out16[i] = h0 | (unsigned)h1 << 16;
}

// CUDA C++ that leaves mul/add pairs for ptxas.
__global__ void expressions(const float* X, float* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float a = X[i], b = X[n + i], c = X[2 * n + i], d = X[3 * n + i];
    out[i] = a * b - c * d;  // a rotation's coordinate
    const float scaled = 9.0f * c;  // made once, subtracted in the loop (dxtc's betax_sum)
    float acc = 0.0f, e = 0.0f;
#pragma unroll 1
    for (int k = 0; k < 4; ++k) {
        acc = acc * 0.5f + X[((k + 1) * 4) * n + i];
        const float beta = scaled - acc;
        const float f = 1.0f / (a * b - d * d + 2.0f);
        e += (beta * a - acc * d) * f;
    }
    out[n + i] = e;
    out[2 * n + i] = a * a * b + c * c * d + 2.0f * (a * c * d - a * b - c * d);
}

static uint64_t hash_of(const void* data, size_t bytes) {
    uint64_t h = 1469598103934665603ull;
    for (size_t k = 0; k < bytes; ++k) h = (h ^ ((const unsigned char*)data)[k]) * 1099511628211ull;
    return h;
}

int main() {
    std::vector<float> X(NP * 4 * n), o(2 * NP * n), side(2 * n), e(3 * n);
    std::vector<double> o64(2 * n);
    std::vector<unsigned> o16(n);
    uint32_t s = 11;
    for (float& x : X) {
        s = s * 1664525u + 1013904223u;
        x = (s >> 8) / 16777216.0f * 2 - 1;
    }
    float *dx, *dout, *dside, *de;
    double* d64;
    unsigned* d16;
    cudaMalloc(&dx, X.size() * 4);
    cudaMalloc(&dout, o.size() * 4);
    cudaMalloc(&dside, side.size() * 4);
    cudaMalloc(&de, e.size() * 4);
    cudaMalloc(&d64, o64.size() * 8);
    cudaMalloc(&d16, o16.size() * 4);
    cudaMemcpy(dx, X.data(), X.size() * 4, cudaMemcpyHostToDevice);
    patterns<<<n / 256, 256>>>(dx, dout, dside);
    other_types<<<n / 256, 256>>>(dx, d64, d16);
    expressions<<<n / 256, 256>>>(dx, de);
    cudaMemcpy(o.data(), dout, o.size() * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(side.data(), dside, side.size() * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(o64.data(), d64, o64.size() * 8, cudaMemcpyDeviceToHost);
    cudaMemcpy(o16.data(), d16, o16.size() * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(e.data(), de, e.size() * 4, cudaMemcpyDeviceToHost);
    for (int p = 0; p < NP; ++p)
        printf("pattern %2d: %016llx %016llx  first %.9g\n", p, (unsigned long long)hash_of(&o[2 * p * n], n * 4),
               (unsigned long long)hash_of(&o[(2 * p + 1) * n], n * 4), o[2 * p * n]);
    printf("stored products: %016llx\n", (unsigned long long)hash_of(side.data(), side.size() * 4));
    printf("f64: %016llx  f16/bf16: %016llx\n", (unsigned long long)hash_of(o64.data(), o64.size() * 8),
           (unsigned long long)hash_of(o16.data(), o16.size() * 4));
    const char* names[] = {"a*b - c*d", "product sunk into a loop", "error term"};
    for (int k = 0; k < 3; ++k)
        printf("%s: %016llx  first %.9g\n", names[k], (unsigned long long)hash_of(&e[k * n], n * 4), e[k * n]);
    printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
