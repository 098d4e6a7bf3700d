// Kernels of dynamic_parallelism_test.cpp for the CUDA Programming Guide's Appendix D ABI,
// which nvcc 13 emits for sm < 90 when CUDA_FORCE_CDP1_IF_SUPPORTED is defined: the test
// compiles them with `nvcc -ptx -rdc=true -arch=compute_80 -DCUDA_FORCE_CDP1_IF_SUPPORTED`
// (cudaGetParameterBufferV2 / cudaLaunchDeviceV2 for a `<<<>>>`, device-side
// cudaDeviceSynchronize) and runs the PTX.
#include <cstdint>

// Adds `add` to each of data[0 .. blockDim.x).
extern "C" __global__ void add_to_each(int* data, int add) { data[threadIdx.x] += add; }

// The guide's coherence example (Appendix D, "Global Memory"): the parent's writes before
// the launch are visible to the child, the child's to the parent after cudaDeviceSynchronize.
// seen[i] = what thread i read back; codes[0] = the launch's error, codes[1] the sync's.
extern "C" __global__ void coherent_parent(int* data, int* seen, unsigned* codes) {
  data[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) {
    add_to_each<<<1, blockDim.x>>>(data, 100);
    codes[0] = cudaGetLastError();
    codes[1] = cudaDeviceSynchronize();
  }
  __syncthreads();
  seen[threadIdx.x] = data[threadIdx.x];
}

// Every block launches one child on its own slice and waits for it, in every thread of the
// first warp (each waits for the block's work); seen counts the threads that saw the child's
// writes after the wait, codes counts failed syncs.
extern "C" __global__ void many_syncing_parents(int* data, unsigned* seen, unsigned* failed_syncs) {
  int* mine = data + blockIdx.x * blockDim.x;
  mine[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x == 0) add_to_each<<<1, blockDim.x>>>(mine, static_cast<int>(blockIdx.x));
  if (threadIdx.x < 32 && cudaDeviceSynchronize() != cudaSuccess) atomicAdd(failed_syncs, 1);
  __syncthreads();
  if (mine[threadIdx.x] == 1 + static_cast<int>(blockIdx.x)) atomicAdd(seen, 1);
}

// A chain of nested launches: the grid at `depth` records that it ran, launches the next
// level while depth < max_depth, records the launch's error in launch_codes[depth] and,
// when `synchronize`, the result of cudaDeviceSynchronize in sync_codes[depth]; after a
// sync that succeeded it adds what the next level counted, which that level wrote before
// it ended. (Every parameter is 8 bytes: the test lays them out 8 bytes apart.)
extern "C" __global__ void nest(unsigned long long depth, unsigned long long max_depth, unsigned long long synchronize,
                                unsigned* reached, unsigned* launch_codes, unsigned* sync_codes) {
  reached[depth] = 1;
  if (depth >= max_depth) return;
  nest<<<1, 1>>>(depth + 1, max_depth, synchronize, reached, launch_codes, sync_codes);
  launch_codes[depth] = cudaGetLastError();
  if (!synchronize) return;
  sync_codes[depth] = cudaDeviceSynchronize();
  if (sync_codes[depth] == cudaSuccess) reached[depth] += reached[depth + 1];
}

// The arguments of the parameter-buffer tests, each at a multiple of its own size.
struct Mixed {
  char c;
  double d;
  short s;
  int i;
  char c2;
  long long ll;
  float f;
};

extern "C" __global__ void take_mixed(char c, double d, short s, int i, char c2, long long ll, float f, Mixed* out) {
  *out = Mixed{c, d, s, i, c2, ll, f};
}

template <typename T>
__device__ void put(void* buffer, unsigned& offset, T value) {
  offset = (offset + sizeof(T) - 1) / sizeof(T) * sizeof(T);  // aligned to its size
  *reinterpret_cast<T*>(static_cast<char*>(buffer) + offset) = value;
  offset += sizeof(T);
}

__device__ unsigned fill_mixed(void* buffer, Mixed* out) {
  unsigned offset = 0;
  put<char>(buffer, offset, 'a');
  put<double>(buffer, offset, 2.5);
  put<short>(buffer, offset, -3);
  put<int>(buffer, offset, 40000);
  put<char>(buffer, offset, 'z');
  put<long long>(buffer, offset, -5000000000LL);
  put<float>(buffer, offset, 0.75f);
  put<Mixed*>(buffer, offset, out);
  return offset;
}

// Launches take_mixed three times: with `<<<>>>`, through cudaGetParameterBufferV2 +
// cudaLaunchDeviceV2, and through cudaGetParameterBuffer + cudaLaunchDevice, each buffer
// filled by hand. alignment[0..1] = each buffer's address modulo 64; codes: the launches'
// and sync's results; codes[3] whether a buffer over 4 KB was refused (null).
extern "C" __global__ void parameter_buffers(Mixed* out, unsigned* alignment, unsigned* codes) {
  take_mixed<<<1, 1>>>('a', 2.5, -3, 40000, 'z', -5000000000LL, 0.75f, out);
  void* v2 = cudaGetParameterBufferV2(reinterpret_cast<void*>(take_mixed), dim3(1), dim3(1), 0);
  alignment[0] = static_cast<unsigned>(reinterpret_cast<uintptr_t>(v2) % 64);
  fill_mixed(v2, out + 1);
  codes[0] = cudaLaunchDeviceV2(v2, 0);
  void* v1 = cudaGetParameterBuffer(64, 64);
  alignment[1] = static_cast<unsigned>(reinterpret_cast<uintptr_t>(v1) % 64);
  fill_mixed(v1, out + 2);
  codes[1] = cudaLaunchDevice(reinterpret_cast<void*>(take_mixed), v1, dim3(1), dim3(1), 0, 0);
  codes[2] = cudaDeviceSynchronize();
  codes[3] = cudaGetParameterBuffer(64, 4097) == nullptr && cudaGetLastError() == cudaErrorInvalidValue;
}

// Passes a pointer to the launching thread's local memory, then one to global memory.
extern "C" __global__ void pass_local_pointer(int* global, unsigned* codes) {
  int local[4] = {1, 2, 3, 4};
  add_to_each<<<1, 1>>>(local, 1);
  codes[0] = cudaGetLastError();
  add_to_each<<<1, 1>>>(global, 1);
  codes[1] = cudaGetLastError();
  codes[2] = cudaDeviceSynchronize();
  codes[3] = local[0];  // untouched
}
