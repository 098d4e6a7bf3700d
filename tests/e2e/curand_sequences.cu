// cuRAND's host API through cucpu's libcurand.so.10, compared with the GPU's output bit for
// bit: XORWOW, MRG32k3a, MTGP32 and Philox4_32_10 as device generators (on a stream) and as
// host generators, in their orderings, one generator going through every distribution in
// turn (so each call continues where the last ended, across distributions), a generation
// large enough to wrap around each generator's threads, the sequence after an offset, the
// default seed, and the status codes of bad arguments. Each output is printed as a hash of
// its bytes and a few values' bits.
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
  void* device;  // device generators write here
  std::vector<unsigned char> bytes;
};

// Prints one call's status, and its results: the hash, and the bits of values 0, 1 and n/2.
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
  for (size_t i : {size_t(0), size_t(1), n / 2}) {
    if (i >= n) continue;
    uint64_t bits = 0;
    std::memcpy(&bits, t.bytes.data() + i * size, size);
    printf(size == 8 ? " %016llx" : " %08llx", (unsigned long long)bits);
  }
  printf("\n");
}

static void* out(Target& t) { return t.host ? static_cast<void*>(t.bytes.data()) : t.device; }

// One generator through every distribution in turn.
static void run_distributions(curandGenerator_t g, Target& t, bool normals) {
  size_t n;
  n = 5001;
  show("uint32 5001", curandGenerate(g, (unsigned*)out(t), n), t, n, 4);
  n = 3001;
  show("uniform 3001", curandGenerateUniform(g, (float*)out(t), n), t, n, 4);
  n = 2001;
  show("uniform double 2001", curandGenerateUniformDouble(g, (double*)out(t), n), t, n, 8);
  if (normals) {
    n = 4002;
    show("normal 4002", curandGenerateNormal(g, (float*)out(t), n, 0.25f, 1.7f), t, n, 4);
    n = 1000;
    show("normal double 1000", curandGenerateNormalDouble(g, (double*)out(t), n, -3.0, 0.3), t, n, 8);
    n = 2000;
    show("log-normal 2000", curandGenerateLogNormal(g, (float*)out(t), n, 0.1f, 0.7f), t, n, 4);
    n = 998;
    show("log-normal double 998", curandGenerateLogNormalDouble(g, (double*)out(t), n, 0.2, 0.45), t, n, 8);
  }
  n = 777;
  show("uint32 777", curandGenerate(g, (unsigned*)out(t), n), t, n, 4);
  n = 1003;
  show("uniform 1003", curandGenerateUniform(g, (float*)out(t), n), t, n, 4);
}

static curandGenerator_t make(curandRngType_t type, bool host) {
  curandGenerator_t g = nullptr;
  curandStatus_t s = host ? curandCreateGeneratorHost(&g, type) : curandCreateGenerator(&g, type);
  if (s != CURAND_STATUS_SUCCESS) printf("create %d: status %d\n", int(type), int(s));
  return g;
}

int main() {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  Target device{false, stream, nullptr, std::vector<unsigned char>(400000 * 8)};
  cudaMalloc(&device.device, device.bytes.size());
  Target host{true, nullptr, nullptr, std::vector<unsigned char>(400000 * 8)};

  struct Kind {
    curandRngType_t type;
    const char* name;
  } kinds[] = {{CURAND_RNG_PSEUDO_XORWOW, "XORWOW"},
               {CURAND_RNG_PSEUDO_MRG32K3A, "MRG32K3A"},
               {CURAND_RNG_PSEUDO_MTGP32, "MTGP32"},
               {CURAND_RNG_PSEUDO_PHILOX4_32_10, "PHILOX4_32_10"}};
  struct Order {
    curandOrdering_t order;
    const char* name;
  } orders[] = {{CURAND_ORDERING_PSEUDO_DEFAULT, "DEFAULT"},
                {CURAND_ORDERING_PSEUDO_BEST, "BEST"},
                {CURAND_ORDERING_PSEUDO_LEGACY, "LEGACY"},
                {CURAND_ORDERING_PSEUDO_DYNAMIC, "DYNAMIC"}};

  for (const Kind& kind : kinds) {
    bool mtgp = kind.type == CURAND_RNG_PSEUDO_MTGP32;
    for (const Order& order : orders) {
      // DYNAMIC depends on the GPU; the H200's matches DEFAULT for these two only
      bool dynamic_known = kind.type == CURAND_RNG_PSEUDO_MRG32K3A || kind.type == CURAND_RNG_PSEUDO_PHILOX4_32_10;
      if (order.order == CURAND_ORDERING_PSEUDO_DYNAMIC && !dynamic_known) continue;
      for (bool on_host : {false, true}) {
        if (on_host && order.order != CURAND_ORDERING_PSEUDO_DEFAULT && order.order != CURAND_ORDERING_PSEUDO_LEGACY)
          continue;
        Target& t = on_host ? host : device;
        printf("%s %s %s seed 20251128\n", kind.name, order.name, on_host ? "host" : "device");
        curandGenerator_t g = make(kind.type, on_host);
        if (!on_host) curandSetStream(g, stream);
        curandSetPseudoRandomGeneratorSeed(g, 20251128ull);
        curandSetGeneratorOrdering(g, order.order);
        // MTGP32's host generator makes its normals with NVIDIA's own host inverse CDF
        run_distributions(g, t, !(mtgp && on_host));
        curandDestroyGenerator(g);
      }
    }
    for (bool on_host : {false, true}) {
      Target& t = on_host ? host : device;
      printf("%s %s wrap around the threads, seed 0x0123456789abcdef\n", kind.name, on_host ? "host" : "device");
      curandGenerator_t g = make(kind.type, on_host);
      if (!on_host) curandSetStream(g, stream);
      curandSetPseudoRandomGeneratorSeed(g, 0x0123456789abcdefull);
      size_t n = 200003;
      show("uint32 200003", curandGenerate(g, (unsigned*)out(t), n), t, n, 4);
      n = 180000;
      show("uniform 180000", curandGenerateUniform(g, (float*)out(t), n), t, n, 4);
      if (!(mtgp && on_host)) {
        n = 170002;
        show("normal 170002", curandGenerateNormal(g, (float*)out(t), n, 1.0f, 3.0f), t, n, 4);
        n = 90000;
        show("normal double 90000", curandGenerateNormalDouble(g, (double*)out(t), n, 0.0, 1.0), t, n, 8);
      }
      curandDestroyGenerator(g);

      printf("%s %s offset 1000003 (odd), seed 99\n", kind.name, on_host ? "host" : "device");
      g = make(kind.type, on_host);
      if (!on_host) curandSetStream(g, stream);
      curandSetPseudoRandomGeneratorSeed(g, 99);
      printf("  offset status %d\n", int(curandSetGeneratorOffset(g, 1000003)));
      n = 1001;
      show("uint32 1001", curandGenerate(g, (unsigned*)out(t), n), t, n, 4);
      if (!(mtgp && on_host)) {
        n = 10;
        show("normal 10", curandGenerateNormal(g, (float*)out(t), n, 0.0f, 1.0f), t, n, 4);
        n = 6;
        show("normal double 6", curandGenerateNormalDouble(g, (double*)out(t), n, 0.0, 1.0), t, n, 8);
      }
      n = 7;
      show("uniform double 7", curandGenerateUniformDouble(g, (double*)out(t), n), t, n, 8);
      curandDestroyGenerator(g);

      printf("%s %s default seed\n", kind.name, on_host ? "host" : "device");
      g = make(kind.type, on_host);
      if (!on_host) curandSetStream(g, stream);
      n = 1000;
      show("uint32 1000", curandGenerate(g, (unsigned*)out(t), n), t, n, 4);
      curandDestroyGenerator(g);
    }
  }

  printf("PSEUDO_DEFAULT is XORWOW\n");
  {
    curandGenerator_t g = make(CURAND_RNG_PSEUDO_DEFAULT, false);
    curandSetStream(g, stream);
    curandSetPseudoRandomGeneratorSeed(g, 20251128ull);
    show("uint32 5001", curandGenerate(g, (unsigned*)device.device, 5001), device, 5001, 4);
    curandDestroyGenerator(g);
  }

  printf("status codes\n");
  {
    curandGenerator_t g = nullptr;
    printf("  create type 999: %d\n", int(curandCreateGenerator(&g, (curandRngType_t)999)));
    printf("  create host type 999: %d\n", int(curandCreateGeneratorHost(&g, (curandRngType_t)999)));
    printf("  create CURAND_RNG_TEST: %d\n", int(curandCreateGenerator(&g, CURAND_RNG_TEST)));
    unsigned* u = (unsigned*)device.device;
    float* f = (float*)device.device;
    double* d = (double*)device.device;
    for (const Kind& kind : kinds) {
      g = make(kind.type, false);
      printf(" %s\n", kind.name);
      printf("  long long: %d\n", int(curandGenerateLongLong(g, (unsigned long long*)u, 4)));
      printf("  dimensions: %d\n", int(curandSetQuasiRandomGeneratorDimensions(g, 2)));
      for (int order : {99, 102, 104, 105, 201})
        printf("  ordering %d: %d\n", order, int(curandSetGeneratorOrdering(g, (curandOrdering_t)order)));
      curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_DEFAULT);
      printf("  offset: %d\n", int(curandSetGeneratorOffset(g, 8)));
      printf("  normal of 5: %d\n", int(curandGenerateNormal(g, f, 5, 0, 1)));
      printf("  normal double of 5: %d\n", int(curandGenerateNormalDouble(g, d, 5, 0, 1)));
      printf("  log-normal of 3: %d\n", int(curandGenerateLogNormal(g, f, 3, 0, 1)));
      printf("  log-normal double of 3: %d\n", int(curandGenerateLogNormalDouble(g, d, 3, 0, 1)));
      printf("  uint32 of 0: %d\n", int(curandGenerate(g, u, 0)));
      printf("  uniform of 0: %d\n", int(curandGenerateUniform(g, f, 0)));
      printf("  uniform of 5: %d\n", int(curandGenerateUniform(g, f, 5)));
      printf("  destroy: %d\n", int(curandDestroyGenerator(g)));
    }
    g = make(CURAND_RNG_PSEUDO_MT19937, false);
    printf(" MT19937\n");
    for (int order : {100, 101, 102, 103, 104})
      printf("  ordering %d: %d\n", order, int(curandSetGeneratorOrdering(g, (curandOrdering_t)order)));
    printf("  offset: %d\n", int(curandSetGeneratorOffset(g, 8)));
    printf("  long long: %d\n", int(curandGenerateLongLong(g, (unsigned long long*)u, 4)));
    printf("  destroy: %d\n", int(curandDestroyGenerator(g)));
    for (curandRngType_t type : {CURAND_RNG_QUASI_SOBOL32, CURAND_RNG_QUASI_SOBOL64}) {
      g = make(type, false);
      printf(" quasi %d\n", int(type));
      printf("  seed: %d\n", int(curandSetPseudoRandomGeneratorSeed(g, 5)));
      for (unsigned dims : {0u, 20001u, 20000u, 3u})
        printf("  dimensions %u: %d\n", dims, int(curandSetQuasiRandomGeneratorDimensions(g, dims)));
      for (int order : {101, 200, 201, 202})
        printf("  ordering %d: %d\n", order, int(curandSetGeneratorOrdering(g, (curandOrdering_t)order)));
      printf("  uint32: %d\n", int(curandGenerate(g, u, 3)));
      printf("  long long: %d\n", int(curandGenerateLongLong(g, (unsigned long long*)u, 3)));
      printf("  uniform of 4 in 3 dimensions: %d\n", int(curandGenerateUniform(g, f, 4)));
      printf("  destroy: %d\n", int(curandDestroyGenerator(g)));
    }
    int version = 0, value = -1;
    printf("  version: %d %d\n", int(curandGetVersion(&version)), version);
    for (int p : {0, 1, 2}) {
      curandStatus_t s = curandGetProperty((libraryPropertyType)p, &value);
      printf("  property %d: %d %d\n", p, int(s), value);
    }
  }
  cudaFree(device.device);
  cudaStreamDestroy(stream);
  return 0;
}
