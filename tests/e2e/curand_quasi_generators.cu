// cuRAND's quasi-random generators through cucpu's libcurand.so.10, compared with the GPU's
// output bit for bit: the direction-vector tables (CURAND_[SCRAMBLED_]DIRECTION_VECTORS_
// {32,64}_JOEKUO6, all 20000 dimensions) and the scramble constants, as hashes and a few
// words; Sobol32, Sobol64 and their scrambled forms as device generators (on a stream) and
// host generators in 1, 17, 100 and 20000 dimensions, one generator going through every
// distribution in turn; offsets (across 2^32 points for the 32-bit ones), a long run in one
// dimension, the scrambled generators' Poisson counts, and the status codes of bad
// arguments. Each output is printed as a hash of its bytes and a few values' bits.
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

static bool is_wide(curandRngType_t type) {
  return type == CURAND_RNG_QUASI_SOBOL64 || type == CURAND_RNG_QUASI_SCRAMBLED_SOBOL64;
}

// The generator's own raw values: 32-bit ones, or 64-bit ones for Sobol64.
static void show_bits(const char* what, curandGenerator_t g, curandRngType_t type, Target& t, size_t n) {
  if (is_wide(type))
    show(what, curandGenerateLongLong(g, (unsigned long long*)out(t), n), t, n, 8);
  else
    show(what, curandGenerate(g, (unsigned*)out(t), n), t, n, 4);
}

// One generator through every distribution in turn, `points` points at a time.
static void run_distributions(curandGenerator_t g, curandRngType_t type, Target& t, size_t dims, size_t points) {
  size_t n = dims * points;
  show_bits("bits", g, type, t, n);
  show("uniform", curandGenerateUniform(g, (float*)out(t), n), t, n, 4);
  show("uniform double", curandGenerateUniformDouble(g, (double*)out(t), n), t, n, 8);
  show("normal", curandGenerateNormal(g, (float*)out(t), n, 0.25f, 1.7f), t, n, 4);
  show("normal double", curandGenerateNormalDouble(g, (double*)out(t), n, -3.0, 0.3), t, n, 8);
  show("log-normal", curandGenerateLogNormal(g, (float*)out(t), n, 0.1f, 0.7f), t, n, 4);
  show("log-normal double", curandGenerateLogNormalDouble(g, (double*)out(t), n, 0.2, 0.45), t, n, 8);
  n = dims * (points + 3);
  show_bits("bits again", g, type, t, n);
}

static curandGenerator_t make(curandRngType_t type, bool host) {
  curandGenerator_t g = nullptr;
  curandStatus_t s = host ? curandCreateGeneratorHost(&g, type) : curandCreateGenerator(&g, type);
  if (s != CURAND_STATUS_SUCCESS) printf("create %d: status %d\n", int(type), int(s));
  return g;
}

static void show_tables() {
  printf("direction vectors\n");
  for (curandDirectionVectorSet_t set :
       {CURAND_DIRECTION_VECTORS_32_JOEKUO6, CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6}) {
    curandDirectionVectors32_t* v = nullptr;
    curandStatus_t s = curandGetDirectionVectors32(&v, set);
    printf("  32-bit set %d: status %d", int(set), int(s));
    if (s == CURAND_STATUS_SUCCESS)
      printf(" %016llx %08x %08x %08x %08x", (unsigned long long)fnv1a(v, 20000 * sizeof *v), v[0][0], v[1][5],
             v[16][31], v[19999][31]);
    printf("\n");
  }
  for (curandDirectionVectorSet_t set :
       {CURAND_DIRECTION_VECTORS_64_JOEKUO6, CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6}) {
    curandDirectionVectors64_t* v = nullptr;
    curandStatus_t s = curandGetDirectionVectors64(&v, set);
    printf("  64-bit set %d: status %d", int(set), int(s));
    if (s == CURAND_STATUS_SUCCESS)
      printf(" %016llx %016llx %016llx %016llx %016llx", (unsigned long long)fnv1a(v, 20000 * sizeof *v), v[0][0],
             v[1][5], v[16][63], v[19999][63]);
    printf("\n");
  }
  // Each dimension's hash in blocks of 1000, so that a difference shows where it is.
  curandDirectionVectors64_t* v = nullptr;
  curandGetDirectionVectors64(&v, CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6);
  printf("  scrambled 64-bit by thousands:");
  for (int block = 0; block < 20; ++block)
    printf(" %04llx", (unsigned long long)fnv1a(v[block * 1000], 1000 * sizeof *v) & 0xffff);
  printf("\n");
  unsigned* c32 = nullptr;
  unsigned long long* c64 = nullptr;
  curandStatus_t s32 = curandGetScrambleConstants32(&c32), s64 = curandGetScrambleConstants64(&c64);
  printf("scramble constants: status %d %d\n", int(s32), int(s64));
  printf("  32-bit %016llx %08x %08x %08x\n", (unsigned long long)fnv1a(c32, 20000 * 4), c32[0], c32[1], c32[19999]);
  printf("  64-bit %016llx %016llx %016llx %016llx\n", (unsigned long long)fnv1a(c64, 20000 * 8), c64[0], c64[1],
         c64[19999]);
  printf(
      "  the same pointers again: %d %d\n",
      [] {
        curandDirectionVectors32_t *a, *b;
        curandGetDirectionVectors32(&a, CURAND_DIRECTION_VECTORS_32_JOEKUO6);
        curandGetDirectionVectors32(&b, CURAND_DIRECTION_VECTORS_32_JOEKUO6);
        return int(a == b);
      }(),
      [c32] {
        unsigned* again;
        curandGetScrambleConstants32(&again);
        return int(again == c32);
      }());
  for (int set : {0, 99, 101, 102, 103, 104, 105}) {
    curandDirectionVectors32_t* v32;
    curandDirectionVectors64_t* v64;
    printf("  set %d: 32-bit status %d, 64-bit status %d\n", set,
           int(curandGetDirectionVectors32(&v32, (curandDirectionVectorSet_t)set)),
           int(curandGetDirectionVectors64(&v64, (curandDirectionVectorSet_t)set)));
  }
}

int main() {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  Target device{false, stream, nullptr, std::vector<unsigned char>((1 << 20) * 8)};
  cudaMalloc(&device.device, device.bytes.size());
  Target host{true, nullptr, nullptr, std::vector<unsigned char>((1 << 20) * 8)};

  show_tables();

  struct Kind {
    curandRngType_t type;
    const char* name;
  } kinds[] = {{CURAND_RNG_QUASI_SOBOL32, "SOBOL32"},
               {CURAND_RNG_QUASI_SCRAMBLED_SOBOL32, "SCRAMBLED_SOBOL32"},
               {CURAND_RNG_QUASI_SOBOL64, "SOBOL64"},
               {CURAND_RNG_QUASI_SCRAMBLED_SOBOL64, "SCRAMBLED_SOBOL64"}};

  for (const Kind& kind : kinds) {
    for (bool on_host : {false, true}) {
      Target& t = on_host ? host : device;
      for (unsigned dims : {1u, 17u, 100u, 20000u}) {
        printf("%s %s %u dimensions\n", kind.name, on_host ? "host" : "device", dims);
        curandGenerator_t g = make(kind.type, on_host);
        if (!on_host) curandSetStream(g, stream);
        printf("  dimensions status %d\n", int(curandSetQuasiRandomGeneratorDimensions(g, dims)));
        run_distributions(g, kind.type, t, dims, dims == 20000 ? 3 : dims == 100 ? 41 : 301);
        curandDestroyGenerator(g);
      }
      printf("%s %s 5 dimensions, offset 1000003\n", kind.name, on_host ? "host" : "device");
      curandGenerator_t g = make(kind.type, on_host);
      if (!on_host) curandSetStream(g, stream);
      curandSetQuasiRandomGeneratorDimensions(g, 5);
      printf("  offset status %d\n", int(curandSetGeneratorOffset(g, 1000003)));
      show_bits("bits 5 x 7", g, kind.type, t, 35);
      show("normal 5 x 3", curandGenerateNormal(g, (float*)out(t), 15, 0.0f, 1.0f), t, 15, 4);
      show("uniform double 5 x 9", curandGenerateUniformDouble(g, (double*)out(t), 45), t, 45, 8);
      curandDestroyGenerator(g);

      unsigned long long offset = is_wide(kind.type) ? (1ull << 40) + 7 : (1ull << 32) - 3;
      printf("%s %s 1 dimension, offset %llu\n", kind.name, on_host ? "host" : "device", offset);
      g = make(kind.type, on_host);
      if (!on_host) curandSetStream(g, stream);
      printf("  offset status %d\n", int(curandSetGeneratorOffset(g, offset)));
      show_bits("bits 8", g, kind.type, t, 8);
      show("uniform 8", curandGenerateUniform(g, (float*)out(t), 8), t, 8, 4);
      curandDestroyGenerator(g);

      printf("%s %s 1 dimension, long run\n", kind.name, on_host ? "host" : "device");
      g = make(kind.type, on_host);
      if (!on_host) curandSetStream(g, stream);
      show_bits("bits 1048576", g, kind.type, t, 1 << 20);
      show("normal 700001", curandGenerateNormal(g, (float*)out(t), 700001, 0.0f, 1.0f), t, 700001, 4);
      curandDestroyGenerator(g);
    }
  }

  printf("scrambled Poisson, 4 dimensions\n");
  for (const Kind& kind : kinds) {
    if (kind.type != CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 && kind.type != CURAND_RNG_QUASI_SCRAMBLED_SOBOL64) continue;
    for (bool on_host : {false, true}) {
      Target& t = on_host ? host : device;
      printf(" %s %s\n", kind.name, on_host ? "host" : "device");
      curandGenerator_t g = make(kind.type, on_host);
      if (!on_host) curandSetStream(g, stream);
      curandSetQuasiRandomGeneratorDimensions(g, 4);
      for (double lambda : {0.7, 5.0, 60.0, 1999.5, 5000.0, 20000.0}) {
        char what[40];
        snprintf(what, sizeof what, "poisson %g x 1000", lambda);
        show(what, curandGeneratePoisson(g, (unsigned*)out(t), 4000, lambda), t, 4000, 4);
      }
      curandDestroyGenerator(g);
    }
  }

  printf("QUASI_DEFAULT is SOBOL32\n");
  {
    curandGenerator_t g = make(CURAND_RNG_QUASI_DEFAULT, false);
    curandSetStream(g, stream);
    curandSetQuasiRandomGeneratorDimensions(g, 3);
    show("uint32 3 x 11", curandGenerate(g, (unsigned*)device.device, 33), device, 33, 4);
    curandDestroyGenerator(g);
  }

  printf("status codes\n");
  {
    unsigned* u = (unsigned*)device.device;
    float* f = (float*)device.device;
    double* d = (double*)device.device;
    for (const Kind& kind : kinds) {
      curandGenerator_t g = make(kind.type, false);
      printf(" %s\n", kind.name);
      printf("  seed: %d\n", int(curandSetPseudoRandomGeneratorSeed(g, 5)));
      for (unsigned dims : {0u, 20001u, 4294967295u, 20000u, 3u})
        printf("  dimensions %u: %d\n", dims, int(curandSetQuasiRandomGeneratorDimensions(g, dims)));
      for (int order : {100, 101, 104, 200, 201, 202})
        printf("  ordering %d: %d\n", order, int(curandSetGeneratorOrdering(g, (curandOrdering_t)order)));
      printf("  uint32 of 6: %d\n", int(curandGenerate(g, u, 6)));
      printf("  long long of 6: %d\n", int(curandGenerateLongLong(g, (unsigned long long*)u, 6)));
      printf("  uniform of 4: %d\n", int(curandGenerateUniform(g, f, 4)));
      printf("  normal of 5: %d\n", int(curandGenerateNormal(g, f, 5, 0, 1)));
      printf("  normal double of 3: %d\n", int(curandGenerateNormalDouble(g, d, 3, 0, 1)));
      printf("  log-normal double of 7: %d\n", int(curandGenerateLogNormalDouble(g, d, 7, 0, 1)));
      printf("  poisson of 3, lambda 0: %d\n", int(curandGeneratePoisson(g, u, 3, 0.0)));
      printf("  poisson of 4: %d\n", int(curandGeneratePoisson(g, u, 4, 3.0)));
      printf("  uniform of 0: %d\n", int(curandGenerateUniform(g, f, 0)));
      printf("  offset: %d\n", int(curandSetGeneratorOffset(g, 8)));
      printf("  destroy: %d\n", int(curandDestroyGenerator(g)));
    }
  }
  cudaFree(device.device);
  cudaStreamDestroy(stream);
  return 0;
}
