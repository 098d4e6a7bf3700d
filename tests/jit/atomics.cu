// Every atomic operation cucpu lowers, on global and shared memory.
extern "C" __global__ void atomics(int* i, unsigned* u, unsigned long long* ull, float* f, double* d, int* old) {
  __shared__ unsigned s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  old[threadIdx.x] = atomicAdd(&i[0], 1);
  atomicSub(&i[1], 2);
  atomicMin(&i[2], -5 * (int)threadIdx.x);
  atomicMax(&i[3], (int)threadIdx.x);
  atomicInc(&u[0], 2);
  atomicDec(&u[1], 5);
  atomicAnd(&u[2], ~(1u << threadIdx.x));
  atomicOr(&u[3], 1u << threadIdx.x);
  atomicXor(&u[4], 3u);
  atomicExch(&u[5], threadIdx.x + 100);
  atomicCAS(&u[6], threadIdx.x, threadIdx.x + 1);
  atomicAdd(&ull[0], 1ull << 40);
  atomicMax(&ull[1], (unsigned long long)threadIdx.x << 33);
  atomicAdd(&f[0], 0.5f);
  atomicAdd(&d[0], 0.25);
  atomicAdd(&s, threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) u[7] = s;
}
