// The host side every program written by tests/isa/generate_programs.py shares
// (isa_memory, isa_atomics_ext, isa_special_registers, isa_control). Unlike isa_harness.h,
// each case is its own kernel with its own launch shape: thread t (numbered over the whole
// grid, x fastest) reads its inputs in[t * inputs + j] and writes its results
// out[t * outputs + j]. The first `rows` threads each print one line
// "CASE INPUTS -> RESULTS" in hex; results are zero-filled before the launch, so a thread
// that leaves early prints zeros for what it did not write.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda_runtime.h>

typedef unsigned long long u64;

// The last parameter of every case kernel: its bytes are the memory tests' pattern, which
// they read with ld.param and through cvta.param (the generator names it KERNEL_param_3).
struct __align__(16) Params {
  u64 word[8];
};
typedef void (*CaseKernel)(u64* out, const u64* in, int rows, Params p);

struct Case {
  const char* name;
  CaseKernel kernel;
  dim3 grid, block;
  unsigned dynamic_smem;
  int rows;           // threads that print a line, and rows of inputs
  int inputs;         // per row
  const u64* values;  // rows * inputs values, or null
  int outputs;        // per row
  int width[24];      // hex digits of each input, then of each output
};

// Thread t of the grid, numbered as the rows of inputs and results are.
__device__ inline int linear_thread() {
  int block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  int thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  return block * (blockDim.x * blockDim.y * blockDim.z) + thread;
}

static void check_program(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    printf("%s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

static int run_cases(const Case* cases, int count, const u64 pattern[8]) {
  Params params;
  memcpy(params.word, pattern, sizeof(params.word));
  for (int c = 0; c < count; ++c) {
    const Case& k = cases[c];
    size_t in_bytes = (size_t)k.rows * k.inputs * sizeof(u64), out_count = (size_t)k.rows * k.outputs;
    u64 *in = nullptr, *out = nullptr;
    if (in_bytes) {
      check_program(cudaMalloc(&in, in_bytes), "cudaMalloc");
      check_program(cudaMemcpy(in, k.values, in_bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
    }
    check_program(cudaMalloc(&out, out_count * sizeof(u64) + sizeof(u64)), "cudaMalloc");
    check_program(cudaMemset(out, 0, out_count * sizeof(u64) + sizeof(u64)), "cudaMemset");
    k.kernel<<<k.grid, k.block, k.dynamic_smem>>>(out, in, k.rows, params);
    check_program(cudaGetLastError(), k.name);
    check_program(cudaDeviceSynchronize(), k.name);
    u64* host = (u64*)calloc(out_count + 1, sizeof(u64));
    check_program(cudaMemcpy(host, out, out_count * sizeof(u64), cudaMemcpyDeviceToHost), "cudaMemcpy");
    for (int t = 0; t < k.rows; ++t) {
      printf("%s", k.name);
      if (k.inputs == 0) printf(" #%d", t);
      for (int j = 0; j < k.inputs; ++j) printf(" %0*llx", k.width[j], k.values[(size_t)t * k.inputs + j]);
      printf(" ->");
      for (int j = 0; j < k.outputs; ++j) printf(" %0*llx", k.width[k.inputs + j], host[(size_t)t * k.outputs + j]);
      printf("\n");
    }
    free(host);
    cudaFree(in);
    cudaFree(out);
  }
  return 0;
}
