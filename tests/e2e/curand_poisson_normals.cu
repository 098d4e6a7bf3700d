// cuRAND's Poisson distribution and MT19937's normals through the host API, compared with the
// GPU's output bit for bit: MT19937's normals and log-normals (floats and doubles, odd counts)
// on a device generator and a host generator; curandGeneratePoisson on every generator (XORWOW,
// MRG32k3a, MTGP32, MT19937, Philox4_32_10, Sobol32, Sobol64, Sobol32 in 3 dimensions), device
// and host, below lambda 2000 (NVIDIA's square-histogram table) and from 2000 on (rounded
// normals), odd counts, one generator going through the calls in turn, and the lambdas
// refused; curandCreatePoissonDistribution's distributions used by a kernel (curand_discrete
// with Philox states), and the statuses of creating and destroying them. Each output is printed
// as a hash of its bytes and a few values' bits.
// NVCC-FLAGS: -lcurand
#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>

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

static curandGenerator_t make(bool host, Target& t, curandRngType_t type) {
  curandGenerator_t g = nullptr;
  curandStatus_t s = host ? curandCreateGeneratorHost(&g, type) : curandCreateGenerator(&g, type);
  if (s != CURAND_STATUS_SUCCESS) printf("create: status %d\n", int(s));
  if (!host) curandSetStream(g, t.stream);
  return g;
}

// count values of a discrete distribution, from Philox states (seed, subsequence i).
__global__ void draw_discrete(unsigned* out, size_t count, curandDiscreteDistribution_t distribution) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  curandStatePhilox4_32_10_t state;
  curand_init(20251129ull, i, 0, &state);
  unsigned sum = 0;
  for (int k = 0; k < 3; ++k) sum = sum * 40503u + curand_discrete(&state, distribution);
  out[i] = sum;
}

int main() {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  Target device{false, stream, nullptr, std::vector<unsigned char>(300000 * 4)};
  cudaMalloc(&device.device, device.bytes.size());
  Target host{true, nullptr, nullptr, std::vector<unsigned char>(300000 * 4)};

  for (bool on_host : {false, true}) {
    Target& t = on_host ? host : device;
    const char* where = on_host ? "host" : "device";

    printf("MT19937 %s seed 20251129: normals and log-normals, then 32-bit values\n", where);
    curandGenerator_t g = make(on_host, t, CURAND_RNG_PSEUDO_MT19937);
    curandSetPseudoRandomGeneratorSeed(g, 20251129ull);
    size_t n = 3001;
    show("normal 3001", curandGenerateNormal(g, (float*)out(t), n, 0.0f, 1.0f), t, n, 4);
    n = 2001;
    show("normal double 2001", curandGenerateNormalDouble(g, (double*)out(t), n, 0.0, 1.0), t, n, 8);
    n = 70001;
    show("normal 70001 (3, 0.5)", curandGenerateNormal(g, (float*)out(t), n, 3.0f, 0.5f), t, n, 4);
    n = 1001;
    show("log-normal 1001", curandGenerateLogNormal(g, (float*)out(t), n, 0.1f, 0.5f), t, n, 4);
    n = 999;
    show("log-normal double 999", curandGenerateLogNormalDouble(g, (double*)out(t), n, 0.1, 0.5), t, n, 8);
    n = 5;
    show("uint32 5", curandGenerate(g, (unsigned*)out(t), n), t, n, 4);
    curandDestroyGenerator(g);

    struct Kind {
      curandRngType_t type;
      const char* name;
      unsigned dimensions;
    } kinds[] = {{CURAND_RNG_PSEUDO_XORWOW, "XORWOW", 0},        {CURAND_RNG_PSEUDO_MRG32K3A, "MRG32k3a", 0},
                 {CURAND_RNG_PSEUDO_MTGP32, "MTGP32", 0},        {CURAND_RNG_PSEUDO_MT19937, "MT19937", 0},
                 {CURAND_RNG_PSEUDO_PHILOX4_32_10, "Philox", 0}, {CURAND_RNG_QUASI_SOBOL32, "Sobol32", 1},
                 {CURAND_RNG_QUASI_SOBOL64, "Sobol64", 1},       {CURAND_RNG_QUASI_SOBOL32, "Sobol32 x3", 3}};
    for (const Kind& kind : kinds) {
      printf("Poisson %s %s\n", kind.name, where);
      g = make(on_host, t, kind.type);
      if (kind.dimensions)
        curandSetQuasiRandomGeneratorDimensions(g, kind.dimensions);
      else
        curandSetPseudoRandomGeneratorSeed(g, 4242ull);
      unsigned* u = (unsigned*)out(t);
      n = 3000;
      show("lambda 0.5, 3000", curandGeneratePoisson(g, u, n, 0.5), t, n, 4);
      n = 3003;
      show("lambda 17, 3003", curandGeneratePoisson(g, u, n, 17.0), t, n, 4);
      n = 30000;
      show("lambda 1999.5, 30000", curandGeneratePoisson(g, u, n, 1999.5), t, n, 4);
      n = 3000;
      show("lambda 2000, 3000", curandGeneratePoisson(g, u, n, 2000.0), t, n, 4);
      n = 3000;
      show("lambda 5000, 3000", curandGeneratePoisson(g, u, n, 5000.0), t, n, 4);
      n = 3003;
      show("lambda 5000, 3003", curandGeneratePoisson(g, u, n, 5000.0), t, n, 4);
      n = 3000;
      show("lambda 123456.7, 3000", curandGeneratePoisson(g, u, n, 123456.7), t, n, 4);
      n = 3;
      show("lambda 0", curandGeneratePoisson(g, u, n, 0.0), t, n, 4);
      show("lambda -1", curandGeneratePoisson(g, u, n, -1.0), t, n, 4);
      n = 3000;
      show("uint32 3000", curandGenerate(g, u, n), t, n, 4);
      n = 240000;
      show("lambda 3.25, 240000", curandGeneratePoisson(g, u, n, 3.25), t, n, 4);
      curandDestroyGenerator(g);
    }
  }

  printf("curandCreatePoissonDistribution, drawn by a kernel (curand_discrete, Philox)\n");
  for (double lambda : {3.5, 1999.5, 2000.0, 5000.0, 0.0, -2.0}) {
    curandDiscreteDistribution_t distribution = nullptr;
    curandStatus_t s = curandCreatePoissonDistribution(lambda, &distribution);
    printf("  lambda %-8g create status %d\n", lambda, int(s));
    if (s != CURAND_STATUS_SUCCESS) continue;
    size_t n = 8192;
    draw_discrete<<<n / 256, 256>>>((unsigned*)device.device, n, distribution);
    cudaError_t e = cudaDeviceSynchronize();
    show("drawn 8192", e == cudaSuccess ? CURAND_STATUS_SUCCESS : CURAND_STATUS_LAUNCH_FAILURE, device, n, 4);
    printf("  destroy status %d\n", int(curandDestroyDistribution(distribution)));
  }
  printf("  destroy NULL status %d\n", int(curandDestroyDistribution(nullptr)));

  cudaFree(device.device);
  cudaStreamDestroy(stream);
  return 0;
}
