// A cuRAND generator (curandCreateGenerator, curandCreateGeneratorHost): its settings, and
// the engine that makes its numbers. An engine makes the results of NVIDIA's host API in
// NVIDIA's order (the ordering, seed and offset decide which state of which generator
// thread each result comes from, see pseudo_engines.cpp and mtgp_engine.cpp); the
// transforms whose bits depend on the arithmetic of the place they run in (a device
// generator's normals use the GPU's logf and __sincosf, a host generator's the host's
// logf, sinf and cosf, as NVIDIA's do) are finished by transforms.cpp.
#pragma once

#include <cuda_runtime_api.h>
#include <curand.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace cucpu::curand {

// What a generation call makes.
enum class Output {
  bits32,
  bits64,
  uniform,
  uniform_double,
  normal,
  normal_double,
  log_normal,
  log_normal_double,
  poisson,
};

// How the raw values an engine writes become the results (transforms.cpp); none: the
// engine wrote the results themselves.
enum class Transform {
  none,
  box_muller_float,       // a pair of floats from two 32-bit values
  box_muller_double,      // a pair of doubles from four 32-bit values
  box_muller_mrg_float,   // a pair of floats from two uniform floats (MRG32k3a)
  box_muller_mrg_double,  // a pair of doubles from two uniform doubles (MRG32k3a)
  icdf_float,             // a float from one 32-bit value (inverse normal CDF)
  icdf_double,            // a double from one 32-bit value in the low half of its 8 bytes
  poisson_table,          // a count from one 32-bit value (Request::table, poisson.cpp)
};

// curandGeneratePoisson below this lambda takes a table; from it on, rounded normals (MTGP32
// and Sobol32 search a table up to 8000, generator_api.cpp).
constexpr double poisson_table_limit = 2000;
// The largest lambda NVIDIA's generators take.
constexpr double poisson_lambda_max = 400000;

// A Poisson distribution as NVIDIA's tables hold it (poisson.cpp), over the counts shift ..
// shift + length - 1: the square histogram (V, K: count shift + j, or shift + K[j], with one
// cell more, zero) or, when `search`, the cumulative probabilities a binary search reads.
struct PoissonTable {
  bool search = false;
  unsigned shift = 0;
  unsigned length = 0;
  std::vector<double> V;
  std::vector<unsigned> K;
  std::vector<double> cdf;
};
std::shared_ptr<const PoissonTable> make_poisson_table(double lambda, bool search);
// The count of a uniform double (_curand_uniform_double of a raw value).
unsigned poisson_count(const PoissonTable& table, double u);

// Poisson from poisson_table_limit on: what the counts are made from (generator_api.cpp).
enum class CountsFrom {
  none,
  float_sum,     // float normals with mean lambda and stddev sqrt(lambda): (unsigned)(v + 0.5f)
  float_normal,  // standard float normals z: (unsigned)(sqrt(lambda) * z + lambda + 0.5)
  normal_pairs,  // XORWOW, MRG32k3a: each result's pair of raw values (uint4: the two, which one)
};

struct Request {
  Output output;
  void* out;
  size_t count;
  double mean = 0;
  double stddev = 1;
  double lambda = 0;
  // Pairs of normals: 1 when the first result is the second of its pair (Philox after an
  // odd number of results). Pair k's raw values are where its results go; those of a pair
  // cut by either end of the buffer are here instead (set by Engine::prepare).
  unsigned phase = 0;
  unsigned lead[4] = {};
  unsigned tail[4] = {};
  // icdf_double: the raw values are 64-bit (Sobol64) rather than 32-bit.
  bool wide_raw = false;
  // icdf_double on a host generator: the float inverse CDF, widened (NVIDIA's host MTGP32's
  // normals, not its log-normals).
  bool float_icdf_double = false;
  // Where in its sequence the request begins, for engines whose results are a function of
  // their index (Philox): fixed at the call, while earlier calls' work may still be queued.
  unsigned long long position = 0;
  // Output::poisson below poisson_table_limit: the table the transform takes.
  std::shared_ptr<const PoissonTable> table = nullptr;
  // Poisson from poisson_table_limit on: the request makes normals (or pairs) at `out`, and
  // the transform's last step makes the counts at `counts` from them; `out` is `counts` or
  // points into `scratch`, memory of the call's own that the queued work keeps.
  CountsFrom counts_from = CountsFrom::none;
  unsigned* counts = nullptr;
  std::shared_ptr<void> scratch = nullptr;
};

inline bool is_log_normal(Output output) { return output == Output::log_normal || output == Output::log_normal_double; }
inline size_t result_bytes(Output output) {
  switch (output) {
    case Output::bits64:
    case Output::uniform_double:
    case Output::normal_double:
    case Output::log_normal_double:
      return 8;
    default:
      return 4;
  }
}

// The transform of the generators whose normals are the inverse normal CDF of one value each
// (MTGP32, MT19937, Sobol).
inline Transform inverse_cdf_transform(Output output) {
  switch (output) {
    case Output::normal:
    case Output::log_normal:
      return Transform::icdf_float;
    case Output::normal_double:
    case Output::log_normal_double:
      return Transform::icdf_double;
    default:
      return Transform::none;
  }
}

// Result i of such a generator from its 32-bit value x: x itself where a transform or the
// Poisson count finishes the result (in the low half of 8 bytes for doubles), else the uniform
// the generator makes of x (`uniform`, `uniform_double`).
template <typename Uniform, typename UniformDouble>
void store_raw_or_uniform(const Request& request, size_t i, unsigned x, Uniform uniform, UniformDouble uniform_double) {
  switch (request.output) {
    case Output::bits32:
    case Output::normal:
    case Output::log_normal:
    case Output::poisson:
      static_cast<unsigned*>(request.out)[i] = x;
      break;
    case Output::uniform:
      static_cast<float*>(request.out)[i] = uniform(x);
      break;
    case Output::uniform_double:
      static_cast<double*>(request.out)[i] = uniform_double(x);
      break;
    case Output::normal_double:
    case Output::log_normal_double:
      static_cast<unsigned long long*>(request.out)[i] = x;
      break;
    case Output::bits64:
      break;
  }
}

class Engine {
 public:
  virtual ~Engine() = default;
  // The transform `output` needs after fill.
  virtual Transform transform(Output output) const = 0;
  // At the call, in call order: what the request needs besides the buffer (Request::phase,
  // Request::position).
  virtual void prepare(Request& /*request*/) {}
  // Writes the request's results in NVIDIA's order, or the raw values transform(output)
  // makes them from, and moves the engine past them.
  virtual void fill(const Request& request) = 0;
};

// The settings an engine is made from.
struct EngineSettings {
  curandRngType_t type;
  curandOrdering_t ordering;
  unsigned long long seed;
  unsigned long long offset;
};

// Each engine kind (pseudo_engines.cpp, mtgp_engine.cpp, sobol_engine.cpp); nullptr: not made by cucpu.
std::unique_ptr<Engine> make_xorwow_engine(const EngineSettings& settings);
std::unique_ptr<Engine> make_mrg32k3a_engine(const EngineSettings& settings);
std::unique_ptr<Engine> make_philox_engine(const EngineSettings& settings);
std::unique_ptr<Engine> make_mtgp32_engine(const EngineSettings& settings);
std::unique_ptr<Engine> make_mt19937_engine(const EngineSettings& settings);  // mt19937_engine.cpp
std::unique_ptr<Engine> make_sobol_engine(const EngineSettings& settings, unsigned dimensions);

// Finishes a request whose raw values fill wrote: on the host with the host's arithmetic
// (a host generator's results, as NVIDIA's host generators compute them), or queued on
// `stream` as a kernel with the GPU's (a device generator's).
// mrg: the normal pairs of CountsFrom::normal_pairs are MRG32k3a's.
curandStatus_t transform_on_host(Transform transform, const Request& request, bool mrg);
// The toolkit's host erfcinv (host_erfcinv.cpp), for 0 < a < 2.
double host_erfcinv(double a);
curandStatus_t transform_on_device(Transform transform, const Request& request, bool mrg, cudaStream_t stream);

}  // namespace cucpu::curand

struct curandGenerator_st {
  curandRngType_t type;
  bool host = false;  // curandCreateGeneratorHost: results in host memory, made during the call
  unsigned long long seed = 0;
  unsigned long long offset = 0;
  curandOrdering_t ordering = CURAND_ORDERING_PSEUDO_DEFAULT;
  unsigned dimensions = 1;
  cudaStream_t stream = nullptr;
  // Made at the first generation after a setting changed; shared with the work queued on
  // the stream, which may still run after the generator moved on.
  std::shared_ptr<cucpu::curand::Engine> engine;
};
