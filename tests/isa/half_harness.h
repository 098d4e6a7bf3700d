// Shared by half_precision.cu and bf16.cu: one kernel per instruction form (inline PTX),
// run over edge-case inputs, one thread per case; each line prints
// `[tag]form inputs... -> outputs...` in hex (predicates as 0/1). Lines tagged
// `approx(ulp=N) ` are approximate instructions, compared within N units in the last place.
//
// A file using it defines the domains (dom16, dom16_cmp, dom16_unary, fma_a/b/c, dom_f32,
// dom_f64, dom_int) and FORMS(X): X(id, SHAPE, "form name", "asm text", CASES, "tag").
#pragma once
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#pragma nv_diag_suppress 550  // inputs a form does not read

typedef unsigned long long u64;
typedef unsigned short u16;

#define KERNEL(NAME, BODY)                                                                             \
  __global__ void NAME(int n, const u64* in0, const u64* in1, const u64* in2, u64* out0, u64* out1) { \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                                     \
    if (i >= n) return;                                                                                \
    u64 a0 = in0[i], a1 = in1[i], a2 = in2[i];                                                         \
    u64 o0 = 0, o1 = 0;                                                                                \
    (void)a0; (void)a1; (void)a2;                                                                      \
    BODY;                                                                                              \
    out0[i] = o0;                                                                                      \
    out1[i] = o1;                                                                                      \
  }

// Shapes: OUT_IN, h = 16 bits, r = 32 bits, f = f32, d = f64, l = 64 bits, p = predicate.
#define H_HH(A) { u16 r; asm volatile(A : "=h"(r) : "h"((u16)a0), "h"((u16)a1)); o0 = r; }
#define H_HHH(A) { u16 r; asm volatile(A : "=h"(r) : "h"((u16)a0), "h"((u16)a1), "h"((u16)a2)); o0 = r; }
#define H_H(A) { u16 r; asm volatile(A : "=h"(r) : "h"((u16)a0)); o0 = r; }
#define R_RR(A) { unsigned r; asm volatile(A : "=r"(r) : "r"((unsigned)a0), "r"((unsigned)a1)); o0 = r; }
#define R_RRR(A) { unsigned r; asm volatile(A : "=r"(r) : "r"((unsigned)a0), "r"((unsigned)a1), "r"((unsigned)a2)); o0 = r; }
#define R_R(A) { unsigned r; asm volatile(A : "=r"(r) : "r"((unsigned)a0)); o0 = r; }
#define R_HH(A) { unsigned r; asm volatile(A : "=r"(r) : "h"((u16)a0), "h"((u16)a1)); o0 = r; }
#define H_RR(A) { u16 r; asm volatile(A : "=h"(r) : "r"((unsigned)a0), "r"((unsigned)a1)); o0 = r; }
#define P_HH(A) { unsigned p; asm volatile(A : "=r"(p) : "h"((u16)a0), "h"((u16)a1)); o0 = p; }
#define PP_RR(A) { unsigned p, q; asm volatile(A : "=r"(p), "=r"(q) : "r"((unsigned)a0), "r"((unsigned)a1)); o0 = p; o1 = q; }
#define PP_RRR(A) { unsigned p, q; asm volatile(A : "=r"(p), "=r"(q) : "r"((unsigned)a0), "r"((unsigned)a1), "r"((unsigned)a2)); o0 = p; o1 = q; }
#define H_HHR(A) { u16 r; asm volatile(A : "=h"(r) : "h"((u16)a0), "h"((u16)a1), "r"((unsigned)a2)); o0 = r; }
#define H_F(A) { u16 r; asm volatile(A : "=h"(r) : "f"(__uint_as_float((unsigned)a0))); o0 = r; }
#define H_D(A) { u16 r; asm volatile(A : "=h"(r) : "d"(__longlong_as_double((long long)a0))); o0 = r; }
#define H_R(A) { u16 r; asm volatile(A : "=h"(r) : "r"((unsigned)a0)); o0 = r; }
#define H_L(A) { u16 r; asm volatile(A : "=h"(r) : "l"(a0)); o0 = r; }
#define R_FF(A) { unsigned r; asm volatile(A : "=r"(r) : "f"(__uint_as_float((unsigned)a0)), "f"(__uint_as_float((unsigned)a1))); o0 = r; }
#define R_F(A) { unsigned r; asm volatile(A : "=r"(r) : "f"(__uint_as_float((unsigned)a0))); o0 = r; }
#define F_H(A) { float r; asm volatile(A : "=f"(r) : "h"((u16)a0)); o0 = __float_as_uint(r); }
#define R_H(A) { unsigned r; asm volatile(A : "=r"(r) : "h"((u16)a0)); o0 = r; }
#define HH_R(A) { u16 x, y; asm volatile(A : "=h"(x), "=h"(y) : "r"((unsigned)a0)); o0 = x; o1 = y; }
#define H_HH_MEM(A) { u16 r, buf[2]; asm volatile(A : "=h"(r) : "l"(buf), "h"((u16)a0), "h"((u16)a1) : "memory"); o0 = r; }

struct Shape {
  int inputs, outputs;
  int width[5];  // hex digits of the inputs, then of the outputs
};
static const Shape S_H_HH = {2, 1, {4, 4, 4}}, S_H_HHH = {3, 1, {4, 4, 4, 4}}, S_H_H = {1, 1, {4, 4}},
                   S_R_RR = {2, 1, {8, 8, 8}}, S_R_RRR = {3, 1, {8, 8, 8, 8}}, S_R_R = {1, 1, {8, 8}},
                   S_H_RR = {2, 1, {8, 8, 4}}, S_R_HH = {2, 1, {4, 4, 8}}, S_P_HH = {2, 1, {4, 4, 1}}, S_PP_RR = {2, 2, {8, 8, 1, 1}},
                   S_PP_RRR = {3, 2, {8, 8, 1, 1, 1}}, S_H_HHR = {3, 1, {4, 4, 1, 4}}, S_H_F = {1, 1, {8, 4}},
                   S_H_D = {1, 1, {16, 4}}, S_H_R = {1, 1, {8, 4}}, S_H_L = {1, 1, {16, 4}},
                   S_R_FF = {2, 1, {8, 8, 8}}, S_R_F = {1, 1, {8, 8}}, S_F_H = {1, 1, {4, 8}},
                   S_R_H = {1, 1, {4, 8}}, S_HH_R = {1, 2, {8, 4, 4}}, S_H_HH_MEM = {2, 1, {4, 4, 4}};

// How a form's cases are made from the file's domains.
enum Cases {
  PAIRS,      // every (a, b) of dom16
  CMP_PAIRS,  // every (a, b) of dom16_cmp
  TRIPLES,    // fma_a x fma_b x fma_c
  UNARY,      // dom16_unary
  X2_PAIRS,   // packed: lane 0 from (dom16[i], dom16[j]), lane 1 from a shifted pair
  X2_TRIPLES,
  X2_UNARY,
  X2_PRED,    // packed pairs and a predicate 0/1
  SEL,        // pairs of dom16_cmp and a predicate
  F32,        // dom_f32
  F32_PAIRS,  // dom_f32[i], dom_f32[(7i + 3) % n]
  F64,
  INT,        // dom_int (as 64-bit values; 32-bit forms read the low half)
};

typedef void (*FormKernel)(int, const u64*, const u64*, const u64*, u64*, u64*);
struct Form {
  FormKernel kernel;
  const char* name;
  const Shape* shape;
  Cases cases;
  const char* tag;
};

#define N_OF(a) (sizeof(a) / sizeof(a[0]))

static void make_cases(Cases kind, std::vector<u64> in[3]) {
  size_t n16 = N_OF(dom16), nc = N_OF(dom16_cmp);
  auto add = [&](u64 x, u64 y, u64 z) {
    in[0].push_back(x);
    in[1].push_back(y);
    in[2].push_back(z);
  };
  auto pack = [](u64 lo, u64 hi) { return lo | (hi << 16); };
  switch (kind) {
    case PAIRS:
      for (size_t i = 0; i < n16; ++i)
        for (size_t j = 0; j < n16; ++j) add(dom16[i], dom16[j], 0);
      break;
    case CMP_PAIRS:
      for (size_t i = 0; i < nc; ++i)
        for (size_t j = 0; j < nc; ++j) add(dom16_cmp[i], dom16_cmp[j], 0);
      break;
    case TRIPLES:
      for (u64 a : fma_a)
        for (u64 b : fma_b)
          for (u64 c : fma_c) add(a, b, c);
      break;
    case UNARY:
      for (u64 a : dom16_unary) add(a, 0, 0);
      break;
    case X2_PAIRS:
    case X2_PRED:
      for (size_t i = 0; i < n16; ++i)
        for (size_t j = 0; j < n16; j += 2)
          add(pack(dom16[i], dom16[(i + 5) % n16]), pack(dom16[j], dom16[(j * 3 + 11) % n16]), (i + j) % 2);
      break;
    case X2_TRIPLES: {
      size_t na = N_OF(fma_a), nb = N_OF(fma_b), ncc = N_OF(fma_c), k = 0;
      for (size_t i = 0; i < na; ++i)
        for (size_t j = 0; j < nb; ++j, ++k)
          add(pack(fma_a[i], fma_a[(i + 3) % na]), pack(fma_b[j], fma_b[(j + 1) % nb]),
              pack(fma_c[k % ncc], fma_c[(k + 2) % ncc]));
      break;
    }
    case X2_UNARY: {
      size_t nu = N_OF(dom16_unary);
      for (size_t i = 0; i < nu; ++i) add(pack(dom16_unary[i], dom16_unary[(i * 7 + 3) % nu]), 0, 0);
      break;
    }
    case SEL:
      for (size_t i = 0; i < nc; ++i) add(dom16_cmp[i], dom16_cmp[(i + 1) % nc], i % 2);
      break;
    case F32:
      for (u64 a : dom_f32) add(a, 0, 0);
      break;
    case F32_PAIRS: {
      size_t nf = N_OF(dom_f32);
      for (size_t i = 0; i < nf; ++i) add(dom_f32[i], dom_f32[(7 * i + 3) % nf], 0);
      break;
    }
    case F64:
      for (u64 a : dom_f64) add(a, 0, 0);
      break;
    case INT:
      for (u64 a : dom_int) add(a, 0, 0);
      break;
  }
}

static void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    printf("%s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

static int run_forms(const Form* forms, size_t count) {
  for (size_t f = 0; f < count; ++f) {
    const Form& form = forms[f];
    std::vector<u64> in[3];
    make_cases(form.cases, in);
    size_t n = in[0].size();
    size_t bytes = n * sizeof(u64);
    u64 *d_in[3], *d_out[2];
    for (int k = 0; k < 3; ++k) {
      check(cudaMalloc(&d_in[k], bytes), "cudaMalloc");
      check(cudaMemcpy(d_in[k], in[k].data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
    }
    for (int k = 0; k < 2; ++k) check(cudaMalloc(&d_out[k], bytes), "cudaMalloc");
    form.kernel<<<(unsigned)((n + 127) / 128), 128>>>((int)n, d_in[0], d_in[1], d_in[2], d_out[0], d_out[1]);
    check(cudaGetLastError(), form.name);
    check(cudaDeviceSynchronize(), form.name);
    std::vector<u64> out[2] = {std::vector<u64>(n), std::vector<u64>(n)};
    for (int k = 0; k < 2; ++k) check(cudaMemcpy(out[k].data(), d_out[k], bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
    for (size_t i = 0; i < n; ++i) {
      const Shape& s = *form.shape;
      printf("%s%s", form.tag, form.name);
      for (int k = 0; k < s.inputs; ++k) printf(" %0*llx", s.width[k], in[k][i]);
      printf(" ->");
      for (int k = 0; k < s.outputs; ++k) printf(" %0*llx", s.width[s.inputs + k], out[k][i]);
      printf("\n");
    }
    for (int k = 0; k < 3; ++k) cudaFree(d_in[k]);
    for (int k = 0; k < 2; ++k) cudaFree(d_out[k]);
  }
  return 0;
}

#define DEFINE_KERNEL(id, SHAPE, name, text, cases, tag) KERNEL(k_##id, SHAPE(text))
#define FORM_ENTRY(id, SHAPE, name, text, cases, tag) {k_##id, name, &S_##SHAPE, cases, tag},
