// The host side every generated isa_*.cu shares (tests/isa/generate.py): the input
// domains and forms as tables, the cases of each form, the launches, one output line
// per case. The generated file supplies the tables and the kernel `run`.
#pragma once

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

typedef unsigned long long u64;

struct Domain {
  const u64* values;
  int count;
  int leading;
};
struct Form {
  const char* name;
  const char* tag;
  int inputs;
  int domain[4];
  int outputs;
  int width[6];
};
#define VALUES(d) {d, (int)(sizeof(d) / sizeof(d[0])), d##_leading}

typedef void (*IsaKernel)(int form, int n, const u64* in0, const u64* in1, const u64* in2, const u64* in3, u64* out0,
                          u64* out1, u64* scratch);

static unsigned next_random(unsigned long long* state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)(*state >> 33);
}

// The cases of one form: every value of a one-operand form's domain; every pair of the
// leading values of two domains plus 64 random pairs; 256 random tuples for more.
static int make_cases(const Form& f, const Domain* domains, u64* in[4]) {
  int n = 0;
  unsigned long long state = 12345;
  const Domain* d[4];
  for (int k = 0; k < f.inputs; ++k) d[k] = &domains[f.domain[k]];
  if (f.inputs == 1) {
    for (int i = 0; i < d[0]->count; ++i) in[0][n++] = d[0]->values[i];
    return n;
  }
  int random_cases = 256;
  if (f.inputs == 2) {
    for (int i = 0; i < d[0]->leading; ++i)
      for (int j = 0; j < d[1]->leading; ++j) {
        in[0][n] = d[0]->values[i];
        in[1][n++] = d[1]->values[j];
      }
    random_cases = 64;
  }
  for (int c = 0; c < random_cases; ++c, ++n)
    for (int k = 0; k < f.inputs; ++k) in[k][n] = d[k]->values[next_random(&state) % d[k]->count];
  return n;
}

static void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    printf("%s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

// Runs every form over its cases and prints "TAGFORM INPUTS -> RESULTS" in hex.
static int run_forms(const Form* forms, int form_count, const Domain* domains, IsaKernel run) {
  const int max_cases = 1024;
  u64 *host_in[4], *host_out[2], *dev_in[4], *dev_out[2], *scratch;
  for (int k = 0; k < 4; ++k) {
    host_in[k] = (u64*)calloc(max_cases, sizeof(u64));
    check(cudaMalloc(&dev_in[k], max_cases * sizeof(u64)), "cudaMalloc");
  }
  for (int k = 0; k < 2; ++k) {
    host_out[k] = (u64*)calloc(max_cases, sizeof(u64));
    check(cudaMalloc(&dev_out[k], max_cases * sizeof(u64)), "cudaMalloc");
  }
  check(cudaMalloc(&scratch, max_cases * sizeof(u64)), "cudaMalloc");
  for (int f = 0; f < form_count; ++f) {
    const Form& form = forms[f];
    int n = make_cases(form, domains, host_in);
    for (int k = 0; k < 4; ++k)
      check(cudaMemcpy(dev_in[k], host_in[k], n * sizeof(u64), cudaMemcpyHostToDevice), "cudaMemcpy");
    run<<<(n + 127) / 128, 128>>>(f, n, dev_in[0], dev_in[1], dev_in[2], dev_in[3], dev_out[0], dev_out[1],
                                  scratch);
    check(cudaGetLastError(), form.name);
    check(cudaDeviceSynchronize(), form.name);
    for (int k = 0; k < 2; ++k)
      check(cudaMemcpy(host_out[k], dev_out[k], n * sizeof(u64), cudaMemcpyDeviceToHost), "cudaMemcpy");
    for (int i = 0; i < n; ++i) {
      printf("%s%s", form.tag, form.name);
      for (int k = 0; k < form.inputs; ++k) printf(" %0*llx", form.width[k], host_in[k][i]);
      printf(" ->");
      for (int k = 0; k < form.outputs; ++k) printf(" %0*llx", form.width[form.inputs + k], host_out[k][i]);
      printf("\n");
    }
  }
  return 0;
}
