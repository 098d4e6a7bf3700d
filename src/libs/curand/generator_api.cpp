// cuRAND's host API: generators, their settings, the generation functions. A device
// generator's work is queued on its stream (libs::enqueue) like NVIDIA's kernels; a host
// generator's is done during the call, into host memory.
#include <cuda.h>
#include <curand.h>
#include <library_types.h>

#include <cmath>
#include <cstdio>
#include <new>
#include <vector>

#include "libs/common/missing_function.h"
#include "libs/common/stream_work.h"
#include "libs/curand/generator.h"

using cucpu::curand::Engine;
using cucpu::curand::Output;
using cucpu::curand::Request;
using cucpu::curand::Transform;

namespace {

bool is_pseudo(curandRngType_t type) { return type >= CURAND_RNG_PSEUDO_DEFAULT && type < CURAND_RNG_QUASI_DEFAULT; }

bool is_known_type(curandRngType_t type) {
  switch (type) {
    case CURAND_RNG_TEST:
    case CURAND_RNG_PSEUDO_DEFAULT:
    case CURAND_RNG_PSEUDO_XORWOW:
    case CURAND_RNG_PSEUDO_MRG32K3A:
    case CURAND_RNG_PSEUDO_MTGP32:
    case CURAND_RNG_PSEUDO_MT19937:
    case CURAND_RNG_PSEUDO_PHILOX4_32_10:
    case CURAND_RNG_QUASI_DEFAULT:
    case CURAND_RNG_QUASI_SOBOL32:
    case CURAND_RNG_QUASI_SCRAMBLED_SOBOL32:
    case CURAND_RNG_QUASI_SOBOL64:
    case CURAND_RNG_QUASI_SCRAMBLED_SOBOL64:
      return true;
    default:
      return false;
  }
}

// What cucpu does not make yet says so on stderr, once, and returns ARCH_MISMATCH (the GPU
// does not support the requested feature): never numbers that differ from NVIDIA's.
curandStatus_t not_implemented(const char* what) {
  cucpu::libs::report_missing_function(what, "CURAND_STATUS_ARCH_MISMATCH");
  return CURAND_STATUS_ARCH_MISMATCH;
}

std::shared_ptr<Engine> make_engine(const curandGenerator_st& generator) {
  cucpu::curand::EngineSettings settings{generator.type, generator.ordering, generator.seed, generator.offset};
  // NVIDIA's host Scrambled Sobol64 takes the offset modulo 2^32 (as found on the H200; its
  // device one and both Sobol64s take all of it).
  if (generator.host && generator.type == CURAND_RNG_QUASI_SCRAMBLED_SOBOL64)
    settings.offset = unsigned(settings.offset);
  switch (generator.type) {
    case CURAND_RNG_PSEUDO_XORWOW:
      return cucpu::curand::make_xorwow_engine(settings);
    case CURAND_RNG_PSEUDO_MRG32K3A:
      return cucpu::curand::make_mrg32k3a_engine(settings);
    case CURAND_RNG_PSEUDO_PHILOX4_32_10:
      return cucpu::curand::make_philox_engine(settings);
    case CURAND_RNG_PSEUDO_MTGP32:
      return cucpu::curand::make_mtgp32_engine(settings);
    case CURAND_RNG_PSEUDO_MT19937:
      return cucpu::curand::make_mt19937_engine(settings);
    case CURAND_RNG_QUASI_SOBOL32:
    case CURAND_RNG_QUASI_SOBOL64:
    case CURAND_RNG_QUASI_SCRAMBLED_SOBOL32:
    case CURAND_RNG_QUASI_SCRAMBLED_SOBOL64:
      return cucpu::curand::make_sobol_engine(settings, generator.dimensions);
    default:
      return nullptr;
  }
}

const char* engine_name(const curandGenerator_st& generator) {
  switch (generator.type) {
    case CURAND_RNG_PSEUDO_XORWOW:
      return generator.ordering == CURAND_ORDERING_PSEUDO_SEEDED ? "cuRAND XORWOW in CURAND_ORDERING_PSEUDO_SEEDED"
                                                                 : "cuRAND XORWOW in CURAND_ORDERING_PSEUDO_DYNAMIC";
    case CURAND_RNG_PSEUDO_MTGP32:
      return "cuRAND MTGP32 in CURAND_ORDERING_PSEUDO_DYNAMIC";
    case CURAND_RNG_PSEUDO_MT19937:
      return "cuRAND CURAND_RNG_PSEUDO_MT19937";
    case CURAND_RNG_TEST:
      return "cuRAND CURAND_RNG_TEST";
    default:
      return "cuRAND generator";
  }
}

curandStatus_t create(curandGenerator_t* generator, curandRngType_t type, bool host) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  if (!is_known_type(type)) return CURAND_STATUS_TYPE_ERROR;
  if (!host)
    if (auto ready = cucpu::libs::prepare_device(); !ready) return CURAND_STATUS_INITIALIZATION_FAILED;
  auto* g = new (std::nothrow) curandGenerator_st;
  if (!g) return CURAND_STATUS_ALLOCATION_FAILED;
  if (type == CURAND_RNG_PSEUDO_DEFAULT) type = CURAND_RNG_PSEUDO_XORWOW;
  if (type == CURAND_RNG_QUASI_DEFAULT) type = CURAND_RNG_QUASI_SOBOL32;
  g->type = type;
  g->host = host;
  g->ordering = is_pseudo(type) ? CURAND_ORDERING_PSEUDO_DEFAULT : CURAND_ORDERING_QUASI_DEFAULT;
  *generator = g;
  return CURAND_STATUS_SUCCESS;
}

// How NVIDIA's generators make Poisson counts (found from its host generators, the same on
// the H200): the square histogram below poisson_table_limit, rounded normals from it on;
// but Sobol64 below the limit, and Sobol32 from lambda 10 and MTGP32 from 32 up to 8000,
// search the cumulative probabilities.
enum class PoissonMethod { histogram, search, normals };

PoissonMethod poisson_method(curandRngType_t type, double lambda) {
  bool below_limit = lambda < cucpu::curand::poisson_table_limit;
  switch (type) {
    case CURAND_RNG_QUASI_SOBOL64:
    case CURAND_RNG_QUASI_SCRAMBLED_SOBOL64:
      return below_limit ? PoissonMethod::search : PoissonMethod::normals;
    case CURAND_RNG_QUASI_SOBOL32:
    case CURAND_RNG_QUASI_SCRAMBLED_SOBOL32:
    case CURAND_RNG_PSEUDO_MTGP32:
      if (lambda >= (type == CURAND_RNG_PSEUDO_MTGP32 ? 32 : 10))
        return lambda <= 8000 ? PoissonMethod::search : PoissonMethod::normals;
      break;
    default:
      break;
  }
  return below_limit ? PoissonMethod::histogram : PoissonMethod::normals;
}

// Where NVIDIA's counts are rounded normals, the request becomes one for the normals they
// come from, which the transform's last step turns into counts. MT19937's are its float
// normals with the distribution's mean and stddev, plus 0.5f; the others' are rounded as
// curand_poisson_from_normal rounds (curand_poisson.h): their float normals in their order,
// but for XORWOW and MRG32k3a each result's float normal of its own generator thread, which
// makes them in pairs and keeps the second for the thread's next such result (curand_normal).
void ask_for_normals(const curandGenerator_st& generator, Request& request) {
  using cucpu::curand::CountsFrom;
  request.counts = static_cast<unsigned*>(request.out);
  constexpr size_t record = 16;
  switch (generator.type) {
    case CURAND_RNG_PSEUDO_MT19937:
      request.output = Output::normal;
      request.mean = request.lambda;
      request.stddev = std::sqrt(request.lambda);
      request.counts_from = CountsFrom::float_sum;
      return;
    case CURAND_RNG_PSEUDO_XORWOW:
    case CURAND_RNG_PSEUDO_MRG32K3A:
      request.counts_from = CountsFrom::normal_pairs;
      break;
    default:
      request.output = Output::normal;
      request.counts_from = CountsFrom::float_normal;
      return;
  }
  // The pairs do not fit the counts' buffer: memory of the call's own (the JIT's kernels read
  // host memory as device memory).
  auto scratch = std::make_shared<std::vector<unsigned char>>(request.count * record);
  request.out = scratch->data();
  request.scratch = scratch;
}

// A generation call: checks, then the engine's work and the transform, in stream order.
curandStatus_t generate(curandGenerator_t generator, const char* function, Request request) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  bool pseudo = is_pseudo(generator->type);
  bool wide = generator->type == CURAND_RNG_QUASI_SOBOL64 || generator->type == CURAND_RNG_QUASI_SCRAMBLED_SOBOL64;
  if (request.output == Output::bits32 && wide) return CURAND_STATUS_TYPE_ERROR;
  if (request.output == Output::bits64 && !wide) return CURAND_STATUS_TYPE_ERROR;
  if (request.output == Output::poisson) {
    if (!(request.lambda > 0 && request.lambda <= cucpu::curand::poisson_lambda_max)) return CURAND_STATUS_OUT_OF_RANGE;
    PoissonMethod method = poisson_method(generator->type, request.lambda);
    if (method == PoissonMethod::normals)
      ask_for_normals(*generator, request);
    else
      request.table = cucpu::curand::make_poisson_table(request.lambda, method == PoissonMethod::search);
  }
  bool pairs = request.output == Output::normal || request.output == Output::normal_double ||
               request.output == Output::log_normal || request.output == Output::log_normal_double;
  // XORWOW and MRG32k3a make normals in pairs on one thread; the others take any count.
  bool in_pairs = generator->type == CURAND_RNG_PSEUDO_XORWOW || generator->type == CURAND_RNG_PSEUDO_MRG32K3A;
  if (in_pairs && pairs && request.count % 2) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  if (!pseudo && request.count % generator->dimensions) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  if (!generator->engine) generator->engine = make_engine(*generator);
  if (!generator->engine) return not_implemented(engine_name(*generator));
  std::shared_ptr<Engine> engine = generator->engine;
  bool mrg = generator->type == CURAND_RNG_PSEUDO_MRG32K3A;
  Transform transform = request.output != Output::poisson ? engine->transform(request.output)
                        : request.table                   ? Transform::poisson_table
                                                          : Transform::none;
  engine->prepare(request);
  if (request.count == 0) return CURAND_STATUS_SUCCESS;
  if (generator->host) {
    engine->fill(request);
    return cucpu::curand::transform_on_host(transform, request, mrg);
  }
  if (auto ready = cucpu::libs::prepare_device(); !ready) return CURAND_STATUS_PREEXISTING_FAILURE;
  // The buffer the caller gave, checked as the GPU's kernels would find it.
  cucpu::libs::DeviceRange range{request.out, request.count * cucpu::curand::result_bytes(request.output)};
  if (request.counts) range = {request.counts, request.count * 4};
  auto queued =
      cucpu::libs::enqueue(generator->stream, function, {range}, [engine, request] { engine->fill(request); });
  if (!queued) return CURAND_STATUS_LAUNCH_FAILURE;
  return cucpu::curand::transform_on_device(transform, request, mrg, generator->stream);
}

// A setting that changes the sequence: the next generation starts a new engine.
void restart(curandGenerator_t generator) { generator->engine.reset(); }

}  // namespace

extern "C" {

curandStatus_t CURANDAPI curandCreateGenerator(curandGenerator_t* generator, curandRngType_t rng_type) {
  return create(generator, rng_type, false);
}

curandStatus_t CURANDAPI curandCreateGeneratorHost(curandGenerator_t* generator, curandRngType_t rng_type) {
  return create(generator, rng_type, true);
}

curandStatus_t CURANDAPI curandDestroyGenerator(curandGenerator_t generator) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  // The queued work holds the engine; the generator itself can go now.
  delete generator;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t CURANDAPI curandGetVersion(int* version) {
  if (!version) return CURAND_STATUS_OUT_OF_RANGE;
  *version = CURAND_VERSION;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t CURANDAPI curandGetProperty(libraryPropertyType type, int* value) {
  if (!value) return CURAND_STATUS_OUT_OF_RANGE;
  switch (type) {
    case MAJOR_VERSION:
      *value = CURAND_VER_MAJOR;
      return CURAND_STATUS_SUCCESS;
    case MINOR_VERSION:
      *value = CURAND_VER_MINOR;
      return CURAND_STATUS_SUCCESS;
    case PATCH_LEVEL:
      *value = CURAND_VER_PATCH;
      return CURAND_STATUS_SUCCESS;
    default:
      return CURAND_STATUS_OUT_OF_RANGE;
  }
}

curandStatus_t CURANDAPI curandSetStream(curandGenerator_t generator, cudaStream_t stream) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  generator->stream = stream;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t CURANDAPI curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator, unsigned long long seed) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  if (!is_pseudo(generator->type)) return CURAND_STATUS_TYPE_ERROR;
  generator->seed = seed;
  restart(generator);
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t CURANDAPI curandSetGeneratorOffset(curandGenerator_t generator, unsigned long long offset) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  // The H200 refuses an offset for the two Mersenne twisters.
  if (generator->type == CURAND_RNG_PSEUDO_MTGP32 || generator->type == CURAND_RNG_PSEUDO_MT19937)
    return CURAND_STATUS_TYPE_ERROR;
  generator->offset = offset;
  restart(generator);
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t CURANDAPI curandSetGeneratorOrdering(curandGenerator_t generator, curandOrdering_t order) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  // What the H200 accepts: SEEDED for XORWOW alone, DYNAMIC for all but MT19937.
  bool accepted = false;
  if (is_pseudo(generator->type)) {
    switch (order) {
      case CURAND_ORDERING_PSEUDO_BEST:  // not for MT19937's host generator (NVIDIA's refuses it)
        accepted = !(generator->host && generator->type == CURAND_RNG_PSEUDO_MT19937);
        break;
      case CURAND_ORDERING_PSEUDO_DEFAULT:
      case CURAND_ORDERING_PSEUDO_LEGACY:
        accepted = true;
        break;
      case CURAND_ORDERING_PSEUDO_SEEDED:
        accepted = generator->type == CURAND_RNG_PSEUDO_XORWOW;
        break;
      case CURAND_ORDERING_PSEUDO_DYNAMIC:
        accepted = generator->type != CURAND_RNG_PSEUDO_MT19937;
        break;
      default:
        break;
    }
  } else {
    accepted = order == CURAND_ORDERING_QUASI_DEFAULT;
  }
  if (!accepted) return CURAND_STATUS_OUT_OF_RANGE;
  generator->ordering = order;
  restart(generator);
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t CURANDAPI curandSetQuasiRandomGeneratorDimensions(curandGenerator_t generator,
                                                                 unsigned int num_dimensions) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  if (is_pseudo(generator->type)) return CURAND_STATUS_TYPE_ERROR;
  if (num_dimensions < 1 || num_dimensions > 20000) return CURAND_STATUS_OUT_OF_RANGE;
  generator->dimensions = num_dimensions;
  restart(generator);
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t CURANDAPI curandGenerate(curandGenerator_t generator, unsigned int* output_ptr, size_t num) {
  return generate(generator, "curandGenerate", {Output::bits32, output_ptr, num});
}

curandStatus_t CURANDAPI curandGenerateLongLong(curandGenerator_t generator, unsigned long long* output_ptr,
                                                size_t num) {
  return generate(generator, "curandGenerateLongLong", {Output::bits64, output_ptr, num});
}

curandStatus_t CURANDAPI curandGenerateUniform(curandGenerator_t generator, float* output_ptr, size_t num) {
  return generate(generator, "curandGenerateUniform", {Output::uniform, output_ptr, num});
}

curandStatus_t CURANDAPI curandGenerateUniformDouble(curandGenerator_t generator, double* output_ptr, size_t num) {
  return generate(generator, "curandGenerateUniformDouble", {Output::uniform_double, output_ptr, num});
}

curandStatus_t CURANDAPI curandGenerateNormal(curandGenerator_t generator, float* output_ptr, size_t n, float mean,
                                              float stddev) {
  return generate(generator, "curandGenerateNormal", {Output::normal, output_ptr, n, mean, stddev});
}

curandStatus_t CURANDAPI curandGenerateNormalDouble(curandGenerator_t generator, double* output_ptr, size_t n,
                                                    double mean, double stddev) {
  return generate(generator, "curandGenerateNormalDouble", {Output::normal_double, output_ptr, n, mean, stddev});
}

curandStatus_t CURANDAPI curandGenerateLogNormal(curandGenerator_t generator, float* output_ptr, size_t n, float mean,
                                                 float stddev) {
  return generate(generator, "curandGenerateLogNormal", {Output::log_normal, output_ptr, n, mean, stddev});
}

curandStatus_t CURANDAPI curandGenerateLogNormalDouble(curandGenerator_t generator, double* output_ptr, size_t n,
                                                       double mean, double stddev) {
  return generate(generator, "curandGenerateLogNormalDouble", {Output::log_normal_double, output_ptr, n, mean, stddev});
}

curandStatus_t CURANDAPI curandGeneratePoisson(curandGenerator_t generator, unsigned int* output_ptr, size_t n,
                                               double lambda) {
  return generate(generator, "curandGeneratePoisson", {Output::poisson, output_ptr, n, 0, 1, lambda});
}

}  // extern "C"
