// Integer and float corner cases whose results the PTX ISA leaves to the hardware or
// that are easy to get wrong, written as inline PTX so that nvcc passes them through.
// corner_cases.expected holds what an H100 printed (one hex word per result, in order);
// jit_test runs corner_cases.ptx through cucpu and compares.
#include <cstdio>
#include <cstdint>

#define OP2(text, a, b)                                                \
  do {                                                                 \
    uint32_t r;                                                        \
    asm volatile(text : "=r"(r) : "r"(a), "r"(b));                     \
    out[n++] = r;                                                      \
  } while (0)
#define OP3(text, a, b, c)                                             \
  do {                                                                 \
    uint32_t r;                                                        \
    asm volatile(text : "=r"(r) : "r"(a), "r"(b), "r"(c));             \
    out[n++] = r;                                                      \
  } while (0)

extern "C" __global__ void corner_cases(const uint32_t* in, uint32_t* out) {
  const uint32_t seven = in[0], zero = in[1], minus7 = in[2], int_min = in[3], all = in[4];
  const uint32_t neg_zero = in[5], pos_zero = in[6], nan = in[7], minus1_5 = in[8], forty = in[9];
  int n = 0;
  // Division by zero and overflow.
  OP2("div.s32 %0, %1, %2;", seven, zero);
  OP2("div.s32 %0, %1, %2;", minus7, zero);
  OP2("rem.s32 %0, %1, %2;", seven, zero);
  OP2("rem.s32 %0, %1, %2;", minus7, zero);
  OP2("div.u32 %0, %1, %2;", seven, zero);
  OP2("rem.u32 %0, %1, %2;", seven, zero);
  OP2("div.s32 %0, %1, %2;", int_min, all);
  OP2("rem.s32 %0, %1, %2;", int_min, all);
  // Shifts past the width.
  OP2("shr.s32 %0, %1, %2;", minus7, forty);
  OP2("shl.b32 %0, %1, %2;", seven, forty);
  OP2("shr.u32 %0, %1, %2;", all, forty);
  // Bit fields at the edges.
  OP3("bfe.s32 %0, %1, %2, %3;", minus7, zero, zero);
  OP3("bfe.u32 %0, %1, %2, %3;", minus7, zero, zero);
  OP3("bfe.s32 %0, %1, %2, %3;", minus7, forty, seven);
  OP3("bfe.s32 %0, %1, %2, %3;", int_min, seven, forty);
  OP3("bfe.u32 %0, %1, %2, %3;", minus7, seven, forty);
  OP3("prmt.b32 %0, %1, %2, %3;", minus7, int_min, 0x8b3fu);
  // Float min/max with signed zeros and NaN.
  OP2("min.f32 %0, %1, %2;", neg_zero, pos_zero);
  OP2("min.f32 %0, %1, %2;", pos_zero, neg_zero);
  OP2("max.f32 %0, %1, %2;", neg_zero, pos_zero);
  OP2("max.f32 %0, %1, %2;", pos_zero, neg_zero);
  OP2("min.f32 %0, %1, %2;", nan, minus1_5);
  OP2("max.NaN.f32 %0, %1, %2;", minus1_5, nan);
  // Conversions.
  OP2("{ .reg .f32 t; mov.b32 t, %1; cvt.rni.s32.f32 %0, t; }", nan, zero);
  OP2("{ .reg .f32 t; mov.b32 t, %1; cvt.rzi.u32.f32 %0, t; }", minus1_5, zero);
  OP2("{ .reg .f32 t; mov.b32 t, %1; cvt.sat.f32.f32 t, t; mov.b32 %0, t; }", neg_zero, zero);
  OP2("{ .reg .f32 t; mov.b32 t, %1; cvt.sat.f32.f32 t, t; mov.b32 %0, t; }", nan, zero);
  OP2("{ .reg .f32 t; cvt.rn.f32.s32 t, %1; mov.b32 %0, t; }", all, zero);
  OP2("{ .reg .f32 t; cvt.rn.f32.u32 t, %1; mov.b32 %0, t; }", all, zero);
  // Saturating and 24-bit arithmetic.
  OP2("add.sat.s32 %0, %1, %2;", int_min, minus7);
  OP2("sub.sat.s32 %0, %1, %2;", int_min, seven);
  OP2("mul24.hi.s32 %0, %1, %2;", minus7, int_min);
  OP2("mul24.hi.u32 %0, %1, %2;", all, all);
  OP2("{ .reg .f32 a, b, c; mov.b32 a, %1; mov.b32 b, %2; copysign.f32 c, a, b; mov.b32 %0, c; }", minus1_5, forty);
  out[63] = n;
}

int main() {
  const uint32_t in[10] = {7, 0, 0xfffffff9u, 0x80000000u, 0xffffffffu, 0x80000000u, 0, 0x7fc00000u, 0xbfc00000u, 40};
  uint32_t *d_in, *d_out, out[64] = {};
  cudaMalloc(&d_in, sizeof in);
  cudaMalloc(&d_out, sizeof out);
  cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
  cudaMemset(d_out, 0, sizeof out);
  corner_cases<<<1, 1>>>(d_in, d_out);
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess) return 1;
  for (uint32_t i = 0; i < out[63]; ++i) printf("%08x\n", out[i]);
  return 0;
}
