// Kernels of dynamic_parallelism_test.cpp, which compiles them with `nvcc -ptx -rdc=true
// -arch=compute_90` when it runs (nvcc 13 emits the CDP2 ABI for them) and runs the PTX.
__device__ unsigned g_seq;

extern "C" __global__ void record(unsigned* slot) { *slot = atomicAdd(&g_seq, 1); }

// Each block launches two children into its NULL stream, then one tail launch.
extern "C" __global__ void ordered(unsigned* out, unsigned* errors) {
  if (threadIdx.x != 0) return;
  unsigned* mine = out + 3 * blockIdx.x;
  record<<<1, 1>>>(mine);
  record<<<1, 1>>>(mine + 1);
  record<<<1, 1, 0, cudaStreamTailLaunch>>>(mine + 2);
  if (cudaGetLastError() != cudaSuccess) atomicAdd(errors, 1);
}

// depth + 1 nested grids; each writes its depth.
extern "C" __global__ void chain(unsigned depth, unsigned* reached) {
  *reached = depth;
  if (depth > 0) chain<<<1, 1>>>(depth - 1, reached + 1);
}

// Runs once *gate is set.
extern "C" __global__ void wait_for_gate(volatile unsigned* gate) {
  while (*gate == 0) {
  }
}

// One grid that waits for the gate, then `count` grids behind it in the NULL stream; the
// code each launch saw goes to codes[i]. Opens the gate at the end.
extern "C" __global__ void flood(unsigned count, unsigned* codes, unsigned* gate) {
  wait_for_gate<<<1, 1>>>(gate);
  for (unsigned i = 0; i < count; ++i) {
    record<<<1, 1>>>(codes + count + i);
    codes[i] = cudaGetLastError();
  }
  *(volatile unsigned*)gate = 1;
}

// A block of 2048 threads cannot be launched: cudaErrorInvalidConfiguration.
extern "C" __global__ void bad_config(unsigned* codes) {
  record<<<1, 2048>>>(codes);
  codes[1] = cudaGetLastError();
  codes[2] = cudaPeekAtLastError();
}

extern "C" __global__ void trapping() { __trap(); }

extern "C" __global__ void launch_trapping() { trapping<<<1, 1>>>(); }

// slots[0] is taken in stream s1 behind a grid that waits for the gate, slots[1] in s2
// after waiting for an event recorded in s1 behind it; codes[i] the API results.
extern "C" __global__ void streams_and_events(unsigned* gate, unsigned* slots, unsigned* codes) {
  cudaStream_t s1, s2;
  cudaEvent_t ev;
  codes[0] = cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  codes[1] = cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  codes[2] = cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
  wait_for_gate<<<1, 1, 0, s1>>>(gate);
  record<<<1, 1, 0, s1>>>(slots);
  codes[3] = cudaEventRecord(ev, s1);
  codes[4] = cudaStreamWaitEvent(s2, ev, 0);
  record<<<1, 1, 0, s2>>>(slots + 1);
  codes[5] = cudaStreamDestroy(s1);
  codes[6] = cudaStreamDestroy(s2);
  codes[7] = cudaEventDestroy(ev);
  // Streams must be non-blocking, handles must be this block's.
  cudaStream_t blocking;
  codes[8] = cudaStreamCreateWithFlags(&blocking, cudaStreamDefault);
  codes[9] = cudaStreamDestroy(s1);
  record<<<1, 1, 0, s2>>>(slots + 2);
  codes[10] = cudaGetLastError();
  *(volatile unsigned*)gate = 1;
}

// Passes a pointer to its shared memory to a child: the launch fails (codes[1]).
extern "C" __global__ void pass_shared_pointer(unsigned* codes) {
  __shared__ unsigned scratch[4];
  record<<<1, 1>>>(scratch);
  codes[0] = cudaGetLastError();
  record<<<1, 1>>>(codes + 1);
}

// The device runtime's queries: values[0..3] stack size, heap size, pending launch count,
// runtime version; codes[0..3] the results, codes[4] a limit compute capability 9.0 lacks.
extern "C" __global__ void queries(unsigned long long* values, unsigned* codes) {
  size_t limit = 0;
  codes[0] = cudaDeviceGetLimit(&limit, cudaLimitStackSize);
  values[0] = limit;
  codes[1] = cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize);
  values[1] = limit;
  codes[2] = cudaDeviceGetLimit(&limit, cudaLimitDevRuntimePendingLaunchCount);
  values[2] = limit;
  int version = 0, device = -1;
  codes[3] = cudaRuntimeGetVersion(&version) | cudaGetDevice(&device);
  values[3] = version + device;
  codes[4] = cudaDeviceGetLimit(&limit, cudaLimitDevRuntimeSyncDepth);
}
