// Two kernels of different register pressure, for the cubin reader's register counts
// (tests/unit/cubin_info_test.cpp).
__global__ void few_registers(int* out) { out[threadIdx.x] = 1; }

// 48 values live across the loop: ptxas keeps them all in registers.
__global__ void many_registers(float* data, int n) {
  float a[48];
#pragma unroll
  for (int i = 0; i < 48; ++i) a[i] = data[i * n + threadIdx.x];
  for (int j = 0; j < n; ++j) {
#pragma unroll
    for (int i = 0; i < 48; ++i) a[i] = a[i] * a[(i + 7) % 48] + float(j);
  }
#pragma unroll
  for (int i = 0; i < 48; ++i) data[i * n + threadIdx.x] = a[i];
}
