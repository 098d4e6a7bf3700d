// Reverses each block's slice through static and dynamic shared memory, with a barrier.
extern "C" __global__ void shared_reverse(const int* in, int* out, int* sums) {
  __shared__ int tile[64];
  __shared__ int total;
  extern __shared__ int scratch[];
  unsigned t = threadIdx.x;
  if (t == 0) total = 0;
  tile[t] = in[blockIdx.x * blockDim.x + t];
  scratch[t] = 2 * tile[t];
  __syncthreads();
  atomicAdd(&total, tile[t]);
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = tile[blockDim.x - 1 - t] + scratch[blockDim.x - 1 - t];
  if (t == 0) sums[blockIdx.x] = total;
}
