// Half-precision and vector atomics (PTX atom/red .f16 .bf16 .f16x2 .bf16x2, .v2/.v4 .f32,
// .v2/.v4/.v8 .f16/.bf16 add/min/max .noftz, cas.b16), through CUDA's atomicAdd overloads
// and inline PTX: the values stored and returned, as bit patterns, for edge cases (rounding
// ties, subnormals kept, overflow, infinities, NaN) applied one at a time by one thread, and
// sums of exactly representable values from many threads, whose result does not depend on
// the order the atomics run in.
#include <cstdio>
#include <cstring>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                                             \
    do {                                                                                        \
        cudaError_t err_ = (call);                                                              \
        if (err_ != cudaSuccess) {                                                              \
            printf("%s failed: %s\n", #call, cudaGetErrorName(err_));                           \
            return 1;                                                                           \
        }                                                                                       \
    } while (0)

constexpr int kCases = 12;
// Pairs (stored value, added value) as f16 and bf16 bits.
__constant__ unsigned short f16_cases[kCases][2] = {
    {0x3c00, 0x3c00},  // 1 + 1
    {0x3c00, 0x1000},  // 1 + 2^-11: a tie, to even
    {0x3c01, 0x1000},  // a tie, to even (up)
    {0x0001, 0x0001},  // subnormals stay (noftz)
    {0x8001, 0x0001},  // -tiny + tiny = +0
    {0x7bff, 0x7bff},  // overflow to +inf
    {0x7c00, 0xfc00},  // inf + -inf = NaN
    {0x7e01, 0x3c00},  // NaN with a payload + 1
    {0x3c00, 0xfe03},  // 1 + negative NaN
    {0x8000, 0x8000},  // -0 + -0
    {0x8000, 0x0000},  // -0 + +0
    {0xc500, 0x4100},  // -5 + 2.5
};
__constant__ unsigned short bf16_cases[kCases][2] = {
    {0x3f80, 0x3f80}, {0x3f80, 0x3b80}, {0x3f81, 0x3b80}, {0x0001, 0x0001}, {0x8001, 0x0001}, {0x7f7f, 0x7f7f},
    {0x7f80, 0xff80}, {0x7fc1, 0x3f80}, {0x3f80, 0xffc3}, {0x8000, 0x8000}, {0x8000, 0x0000}, {0xc0a0, 0x4020},
};

struct ScalarResult {
    unsigned short old_value, stored;
};

__global__ void scalar_cases(ScalarResult* f16_out, ScalarResult* bf16_out, unsigned* f16x2_out, unsigned* bf16x2_out,
                             unsigned short* cells16, unsigned* cells32) {
    int i = threadIdx.x;
    // f16
    cells16[i] = f16_cases[i][0];
    __half old = atomicAdd(reinterpret_cast<__half*>(&cells16[i]), __ushort_as_half(f16_cases[i][1]));
    f16_out[i] = {__half_as_ushort(old), cells16[i]};
    // bf16
    cells16[kCases + i] = bf16_cases[i][0];
    __nv_bfloat16 bold =
        atomicAdd(reinterpret_cast<__nv_bfloat16*>(&cells16[kCases + i]), __ushort_as_bfloat16(bf16_cases[i][1]));
    bf16_out[i] = {__bfloat16_as_ushort(bold), cells16[kCases + i]};
    // packed: lane 0 takes case i, lane 1 case (i + 5) % kCases
    int j = (i + 5) % kCases;
    cells32[i] = f16_cases[i][0] | unsigned(f16_cases[j][0]) << 16;
    unsigned add = f16_cases[i][1] | unsigned(f16_cases[j][1]) << 16;
    __half2 add2;
    memcpy(&add2, &add, 4);
    __half2 old2 = atomicAdd(reinterpret_cast<__half2*>(&cells32[i]), add2);
    unsigned old2_bits;
    memcpy(&old2_bits, &old2, 4);
    f16x2_out[2 * i] = old2_bits;
    f16x2_out[2 * i + 1] = cells32[i];
    cells32[kCases + i] = bf16_cases[i][0] | unsigned(bf16_cases[j][0]) << 16;
    unsigned badd = bf16_cases[i][1] | unsigned(bf16_cases[j][1]) << 16;
    __nv_bfloat162 badd2;
    memcpy(&badd2, &badd, 4);
    __nv_bfloat162 bold2 = atomicAdd(reinterpret_cast<__nv_bfloat162*>(&cells32[kCases + i]), badd2);
    unsigned bold2_bits;
    memcpy(&bold2_bits, &bold2, 4);
    bf16x2_out[2 * i] = bold2_bits;
    bf16x2_out[2 * i + 1] = cells32[kCases + i];
}

// Many threads add exactly representable values: the sums are the same in any order.
__global__ void contended_sums(__half* h, __nv_bfloat16* b, __half2* h2, __nv_bfloat162* b2, float2* f2, float4* f4) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    float v = (i % 4) * 0.25f;  // sums of quarters stay exact well past 1024 in f16
    atomicAdd(h, __float2half(v));
    atomicAdd(h2, __halves2half2(__float2half(0.5f), __float2half(-1.0f)));
    if (i < 256) {  // bf16 holds integers up to 256 (and 2x, 0.5x them) exactly
        atomicAdd(b, __float2bfloat16(1.0f));
        atomicAdd(b2, __halves2bfloat162(__float2bfloat16(2.0f), __float2bfloat16(-0.5f)));
    }
    atomicAdd(f2, make_float2(1.0f, -0.25f));
    atomicAdd(f4, make_float4(0.5f, 1.0f, 2.0f, -3.0f));
}

// Vector forms one thread at a time: f32 subnormals, NaN, returned old values.
__global__ void vector_f32_cases(float2* cell2, float4* cell4, float2* old2, float4* old4) {
    *old2 = atomicAdd(cell2, make_float2(__int_as_float(0x00000003), __int_as_float(0x7fc00123)));
    *old4 = atomicAdd(cell4, make_float4(__int_as_float(0x00400000), -0.0f, __int_as_float(0xff800000), 1.0f));
}

// min/max on f16 and bf16 vectors (inline PTX: CUDA has no overload for them).
__global__ void vector_half_min_max(unsigned short* cells, unsigned short* old_values) {
    unsigned short* c = cells;
    unsigned short o[8];
    // f16 v8 max: against 1.0, -2.0, NaN, -0, +0, tiny, -inf, 65504
    asm volatile(
        "atom.global.max.noftz.v8.f16 {%0,%1,%2,%3,%4,%5,%6,%7}, [%8], "
        "{%9,%10,%11,%12,%13,%14,%15,%16};"
        : "=h"(o[0]), "=h"(o[1]), "=h"(o[2]), "=h"(o[3]), "=h"(o[4]), "=h"(o[5]), "=h"(o[6]), "=h"(o[7])
        : "l"(c), "h"((unsigned short)0x3c00), "h"((unsigned short)0xc000), "h"((unsigned short)0x7e00),
          "h"((unsigned short)0x8000), "h"((unsigned short)0x0000), "h"((unsigned short)0x0001),
          "h"((unsigned short)0xfc00), "h"((unsigned short)0x7bff)
        : "memory");
    for (int k = 0; k < 8; ++k) old_values[k] = o[k];
    // bf16 v4 min on cells 8..11
    asm volatile(
        "atom.global.min.noftz.v4.bf16 {%0,%1,%2,%3}, [%4], {%5,%6,%7,%8};"
        : "=h"(o[0]), "=h"(o[1]), "=h"(o[2]), "=h"(o[3])
        : "l"(c + 8), "h"((unsigned short)0x3f80), "h"((unsigned short)0x7fc0), "h"((unsigned short)0x8000),
          "h"((unsigned short)0xff80)
        : "memory");
    for (int k = 0; k < 4; ++k) old_values[8 + k] = o[k];
    // f16x2 v2 add with red (no result) on cells 12..15
    unsigned a = 0x3c003c00u, b = 0xbc007c00u;
    asm volatile("red.global.add.noftz.v2.f16x2 [%0], {%1,%2};" ::"l"(c + 12), "r"(a), "r"(b) : "memory");
}

// atomicCAS on 16 bits (atom.cas.b16).
__global__ void cas16(unsigned short* cell, unsigned short* seen) {
    seen[0] = atomicCAS(cell, (unsigned short)0x1234, (unsigned short)0xbeef);  // matches
    seen[1] = atomicCAS(cell, (unsigned short)0x1234, (unsigned short)0x5555);  // does not
}

template <typename T>
T* device_array(size_t count) {
    T* p = nullptr;
    cudaMalloc(&p, count * sizeof(T));
    cudaMemset(p, 0, count * sizeof(T));
    return p;
}

template <typename T>
void fetch(T* host, const T* device, size_t count) {
    cudaMemcpy(host, device, count * sizeof(T), cudaMemcpyDeviceToHost);
}

unsigned float_bits(float f) {
    unsigned u;
    memcpy(&u, &f, 4);
    return u;
}

int main() {
    auto* f16_out = device_array<ScalarResult>(kCases);
    auto* bf16_out = device_array<ScalarResult>(kCases);
    auto* f16x2_out = device_array<unsigned>(2 * kCases);
    auto* bf16x2_out = device_array<unsigned>(2 * kCases);
    auto* cells16 = device_array<unsigned short>(2 * kCases);
    auto* cells32 = device_array<unsigned>(2 * kCases);
    scalar_cases<<<1, kCases>>>(f16_out, bf16_out, f16x2_out, bf16x2_out, cells16, cells32);
    CHECK(cudaDeviceSynchronize());
    ScalarResult h_f16[kCases], h_bf16[kCases];
    unsigned h_f16x2[2 * kCases], h_bf16x2[2 * kCases];
    fetch(h_f16, f16_out, kCases);
    fetch(h_bf16, bf16_out, kCases);
    fetch(h_f16x2, f16x2_out, 2 * kCases);
    fetch(h_bf16x2, bf16x2_out, 2 * kCases);
    for (int i = 0; i < kCases; ++i) {
        printf("case %2d: f16 old %04x now %04x | bf16 old %04x now %04x | f16x2 old %08x now %08x | bf16x2 old %08x "
               "now %08x\n",
               i, h_f16[i].old_value, h_f16[i].stored, h_bf16[i].old_value, h_bf16[i].stored, h_f16x2[2 * i],
               h_f16x2[2 * i + 1], h_bf16x2[2 * i], h_bf16x2[2 * i + 1]);
    }

    auto* h = device_array<__half>(1);
    auto* b = device_array<__nv_bfloat16>(1);
    auto* h2 = device_array<__half2>(1);
    auto* b2 = device_array<__nv_bfloat162>(1);
    auto* f2 = device_array<float2>(1);
    auto* f4 = device_array<float4>(1);
    contended_sums<<<8, 128>>>(h, b, h2, b2, f2, f4);
    CHECK(cudaDeviceSynchronize());
    unsigned short hb, bb;
    unsigned h2b, b2b;
    float2 hf2;
    float4 hf4;
    fetch(&hb, reinterpret_cast<unsigned short*>(h), 1);
    fetch(&bb, reinterpret_cast<unsigned short*>(b), 1);
    fetch(&h2b, reinterpret_cast<unsigned*>(h2), 1);
    fetch(&b2b, reinterpret_cast<unsigned*>(b2), 1);
    fetch(&hf2, f2, 1);
    fetch(&hf4, f4, 1);
    printf("contended: f16 %04x bf16 %04x f16x2 %08x bf16x2 %08x float2 (%g, %g) float4 (%g, %g, %g, %g)\n", hb, bb,
           h2b, b2b, hf2.x, hf2.y, hf4.x, hf4.y, hf4.z, hf4.w);

    auto* cell2 = device_array<float2>(1);
    auto* cell4 = device_array<float4>(1);
    auto* old2 = device_array<float2>(1);
    auto* old4 = device_array<float4>(1);
    float2 init2 = make_float2(__builtin_bit_cast(float, 0x00000005u), 2.0f);
    float4 init4 = make_float4(__builtin_bit_cast(float, 0x00400000u), 0.0f, __builtin_bit_cast(float, 0x7f800000u),
                               __builtin_bit_cast(float, 0xffc00042u));
    cudaMemcpy(cell2, &init2, sizeof(init2), cudaMemcpyHostToDevice);
    cudaMemcpy(cell4, &init4, sizeof(init4), cudaMemcpyHostToDevice);
    vector_f32_cases<<<1, 1>>>(cell2, cell4, old2, old4);
    CHECK(cudaDeviceSynchronize());
    float2 r2, o2;
    float4 r4, o4;
    fetch(&r2, cell2, 1);
    fetch(&o2, old2, 1);
    fetch(&r4, cell4, 1);
    fetch(&o4, old4, 1);
    printf("float2: old %08x %08x now %08x %08x\n", float_bits(o2.x), float_bits(o2.y), float_bits(r2.x),
           float_bits(r2.y));
    printf("float4: old %08x %08x %08x %08x now %08x %08x %08x %08x\n", float_bits(o4.x), float_bits(o4.y),
           float_bits(o4.z), float_bits(o4.w), float_bits(r4.x), float_bits(r4.y), float_bits(r4.z), float_bits(r4.w));

    unsigned short initial[16] = {0x3800, 0x3800, 0x3c00, 0x0000, 0x8000, 0x8001, 0x7e00, 0x7c00,
                                  0x4000, 0x3f80, 0x0000, 0x7f80, 0x3c00, 0x0001, 0x7c00, 0x3c00};
    auto* cells = device_array<unsigned short>(16);
    auto* olds = device_array<unsigned short>(12);
    cudaMemcpy(cells, initial, sizeof(initial), cudaMemcpyHostToDevice);
    vector_half_min_max<<<1, 1>>>(cells, olds);
    CHECK(cudaDeviceSynchronize());
    unsigned short now[16], was[12];
    fetch(now, cells, 16);
    fetch(was, olds, 12);
    printf("v8.f16 max: old");
    for (int k = 0; k < 8; ++k) printf(" %04x", was[k]);
    printf(" now");
    for (int k = 0; k < 8; ++k) printf(" %04x", now[k]);
    printf("\nv4.bf16 min: old");
    for (int k = 8; k < 12; ++k) printf(" %04x", was[k]);
    printf(" now");
    for (int k = 8; k < 12; ++k) printf(" %04x", now[k]);
    printf("\nred.v2.f16x2 add: now");
    for (int k = 12; k < 16; ++k) printf(" %04x", now[k]);
    printf("\n");

    auto* cell = device_array<unsigned short>(1);
    auto* seen = device_array<unsigned short>(2);
    unsigned short start = 0x1234, h_seen[2], h_cell;
    cudaMemcpy(cell, &start, 2, cudaMemcpyHostToDevice);
    cas16<<<1, 1>>>(cell, seen);
    CHECK(cudaDeviceSynchronize());
    fetch(h_seen, seen, 2);
    fetch(&h_cell, cell, 1);
    printf("cas.b16: returned %04x %04x, now %04x\n", h_seen[0], h_seen[1], h_cell);
    return 0;
}
