// Thread-local arrays aligned as declared (__align__ / alignas up to 256 bytes): each
// thread's array starts on its alignment, under every launch shape, beside unaligned ones
// (numba-cuda's test_array_alignment found cucpu's 16-byte frames).
#include <cstdint>
#include <cstdio>

struct alignas(64) Wide64 {
  unsigned char bytes[24];
};
struct alignas(256) Wide256 {
  unsigned char bytes[40];
};

__global__ void check(int* misaligned, int* sums) {
  unsigned char small[3];
  Wide64 a[2];
  Wide256 b;
  volatile unsigned char* pa = a[1].bytes;
  volatile unsigned char* pb = b.bytes;
  small[threadIdx.x % 3] = 1;
  if (reinterpret_cast<uintptr_t>(a) % 64 != 0 || reinterpret_cast<uintptr_t>(a + 1) % 64 != 0) atomicAdd(misaligned, 1);
  if (reinterpret_cast<uintptr_t>(&b) % 256 != 0) atomicAdd(misaligned + 1, 1);
  pa[0] = static_cast<unsigned char>(threadIdx.x);
  pb[39] = static_cast<unsigned char>(threadIdx.x + 1);
  atomicAdd(sums, pa[0] + pb[39] + small[threadIdx.x % 3]);
}

int main() {
  int* counts = nullptr;
  cudaMallocManaged(&counts, 3 * sizeof(int));
  for (int threads : {1, 32, 100, 256}) {
    counts[0] = counts[1] = counts[2] = 0;
    check<<<3, threads>>>(counts, counts + 2);
    cudaDeviceSynchronize();
    std::printf("%d threads x 3 blocks: misaligned 64-byte arrays %d, 256-byte %d, sum %d\n", threads, counts[0],
                counts[1], counts[2]);
  }
  return 0;
}
