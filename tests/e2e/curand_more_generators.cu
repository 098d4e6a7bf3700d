// cuRAND's MT19937 through the host API, compared with the GPU's output bit for bit: the
// device generator (on a stream) and the host generator, 32-bit values, uniform floats and
// doubles, one generator going through them in turn (each call continues where the last
// ended), a generation large enough to wrap around all 8192 generator threads and into
// each thread's second block of 624 values, the default seed, 64-bit seeds (the low half
// counts), and the statuses of what MT19937 refuses (offsets, 64-bit values, dimensions,
// the orderings: BEST is refused by the host generator alone). Each output is printed as a
// hash of its bytes and a few values' bits. MT19937's normals and Poisson are in
// curand_poisson_normals.cu.
// NVCC-FLAGS: -lcurand
#include <cuda_runtime.h>
#include <curand.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

static uint64_t fnv1a(const void* data, size_t bytes) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

struct Target {
  bool host;
  cudaStream_t stream;
  void* device;
  std::vector<unsigned char> bytes;
};

static void show(const char* what, curandStatus_t status, Target& t, size_t n, size_t size) {
  printf("  %-26s", what);
  if (status != CURAND_STATUS_SUCCESS) {
    printf(" status %d\n", int(status));
    return;
  }
  if (!t.host) {
    cudaStreamSynchronize(t.stream);
    cudaMemcpy(t.bytes.data(), t.device, n * size, cudaMemcpyDeviceToHost);
  }
  printf(" %016llx", (unsigned long long)fnv1a(t.bytes.data(), n * size));
  for (size_t i : {size_t(0), size_t(1), n / 2, n - 1}) {
    if (i >= n) continue;
    uint64_t bits = 0;
    std::memcpy(&bits, t.bytes.data() + i * size, size);
    printf(size == 8 ? " %016llx" : " %08llx", (unsigned long long)bits);
  }
  printf("\n");
}

static void* out(Target& t) { return t.host ? static_cast<void*>(t.bytes.data()) : t.device; }

static curandGenerator_t make(bool host, Target& t) {
  curandGenerator_t g = nullptr;
  curandStatus_t s = host ? curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_MT19937)
                          : curandCreateGenerator(&g, CURAND_RNG_PSEUDO_MT19937);
  if (s != CURAND_STATUS_SUCCESS) printf("create: status %d\n", int(s));
  if (!host) curandSetStream(g, t.stream);
  return g;
}

int main() {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  Target device{false, stream, nullptr, std::vector<unsigned char>(5300000 * 4)};
  cudaMalloc(&device.device, device.bytes.size());
  Target host{true, nullptr, nullptr, std::vector<unsigned char>(5300000 * 4)};

  for (bool on_host : {false, true}) {
    Target& t = on_host ? host : device;
    const char* where = on_host ? "host" : "device";

    printf("MT19937 %s statuses\n", where);
    curandGenerator_t g = make(on_host, t);
    const curandOrdering_t orders[] = {CURAND_ORDERING_PSEUDO_BEST,    CURAND_ORDERING_PSEUDO_DEFAULT,
                                       CURAND_ORDERING_PSEUDO_SEEDED,  CURAND_ORDERING_PSEUDO_LEGACY,
                                       CURAND_ORDERING_PSEUDO_DYNAMIC, CURAND_ORDERING_QUASI_DEFAULT};
    for (curandOrdering_t o : orders)
      printf("  ordering %d: status %d\n", int(o), int(curandSetGeneratorOrdering(g, o)));
    printf("  offset: status %d\n", int(curandSetGeneratorOffset(g, 100)));
    printf("  dimensions: status %d\n", int(curandSetQuasiRandomGeneratorDimensions(g, 2)));
    printf("  64-bit values: status %d\n", int(curandGenerateLongLong(g, (unsigned long long*)out(t), 4)));
    size_t n = 8;
    show("default seed uint32 8", curandGenerate(g, (unsigned*)out(t), n), t, n, 4);
    curandDestroyGenerator(g);

    printf("MT19937 %s seed 20251128, one generator through the distributions\n", where);
    g = make(on_host, t);
    curandSetPseudoRandomGeneratorSeed(g, 20251128ull);
    n = 5001;
    show("uint32 5001", curandGenerate(g, (unsigned*)out(t), n), t, n, 4);
    n = 3001;
    show("uniform 3001", curandGenerateUniform(g, (float*)out(t), n), t, n, 4);
    n = 2001;
    show("uniform double 2001", curandGenerateUniformDouble(g, (double*)out(t), n), t, n, 8);
    n = 777;
    show("uint32 777", curandGenerate(g, (unsigned*)out(t), n), t, n, 4);
    n = 70001;
    show("uniform 70001", curandGenerateUniform(g, (float*)out(t), n), t, n, 4);
    n = 1003;
    show("uniform double 1003", curandGenerateUniformDouble(g, (double*)out(t), n), t, n, 8);
    curandDestroyGenerator(g);

    printf("MT19937 %s legacy ordering, seed 0x0123456789abcdef: every thread, two blocks\n", where);
    g = make(on_host, t);
    curandSetPseudoRandomGeneratorSeed(g, 0x0123456789abcdefull);
    curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_LEGACY);
    n = 65536 * 80 + 3;
    show("uint32 5242883", curandGenerate(g, (unsigned*)out(t), n), t, n, 4);
    n = 99999;
    show("uniform double 99999", curandGenerateUniformDouble(g, (double*)out(t), n), t, n, 8);
    curandDestroyGenerator(g);

    printf("MT19937 %s seed 0x89abcdef (the same low half)\n", where);
    g = make(on_host, t);
    curandSetPseudoRandomGeneratorSeed(g, 0x89abcdefull);
    n = 1000;
    show("uint32 1000", curandGenerate(g, (unsigned*)out(t), n), t, n, 4);
    curandDestroyGenerator(g);
  }
  cudaFree(device.device);
  cudaStreamDestroy(stream);
  return 0;
}
