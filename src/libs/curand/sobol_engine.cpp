// Sobol32 and Sobol64, plain and scrambled, in the order of NVIDIA's host API, as the H200's
// libcurand lays them out: a call of n results in D dimensions makes n / D points, from the
// generator's point index on (the offset counts points); dimension d's values come together,
// at d * (n / D). Point k of a dimension is the XOR of the direction vectors of the bits set in
// the Gray code k ^ (k >> 1), so point 0 is 0; the scrambled generators take the scrambled
// vectors and XOR each point with the dimension's scramble constant (curand_init of
// curandStateScrambledSobol32/64 in curand_kernel.h). The tables are sobol_tables.cpp's.
#include "libs/curand/device_api.h"
#include "libs/curand/generator.h"
#include "libs/curand/sobol_tables.h"

namespace cucpu::curand {
namespace {

class SobolEngine : public Engine {
 public:
  SobolEngine(const EngineSettings& settings, unsigned dimensions, bool wide, bool scrambled)
      : wide_(wide), dimensions_(dimensions), next_point_(settings.offset) {
    if (wide) {
      vectors64_ = sobol_vectors64(scrambled);
      if (scrambled) constants64_ = sobol_scramble_constants64();
    } else {
      vectors32_ = sobol_vectors32(scrambled);
      if (scrambled) constants32_ = sobol_scramble_constants32();
    }
  }

  Transform transform(Output output) const override { return inverse_cdf_transform(output); }

  void fill(const Request& request) override {
    size_t points = request.count / dimensions_;
    for (size_t d = 0; d < dimensions_; ++d)
      for (size_t i = 0; i < points; ++i) make_result(request, d * points + i, value(d, next_point_ + i));
    next_point_ += points;
  }

  void prepare(Request& request) override { request.wide_raw = wide_; }

 private:
  unsigned long long value(size_t d, unsigned long long k) const {
    if (!wide_) k = unsigned(k);  // a 32-bit point index (curandStateSobol32's i): wraps on the H200 too
    unsigned long long gray = k ^ (k >> 1), x = 0;
    if (wide_) {
      if (constants64_) x = constants64_[d];
      for (unsigned b = 0; gray; ++b, gray >>= 1)
        if (gray & 1) x ^= vectors64_[d][b];
      return x;
    }
    if (constants32_) x = constants32_[d];
    for (unsigned b = 0; gray; ++b, gray >>= 1)
      if (gray & 1) x ^= vectors32_[d][b];
    return x;
  }

  void make_result(const Request& request, size_t i, unsigned long long x) const {
    switch (request.output) {
      case Output::bits32:
        static_cast<unsigned*>(request.out)[i] = unsigned(x);
        break;
      case Output::bits64:
        static_cast<unsigned long long*>(request.out)[i] = x;
        break;
      case Output::uniform:
        static_cast<float*>(request.out)[i] = wide_ ? _curand_uniform(x) : _curand_uniform(unsigned(x));
        break;
      case Output::uniform_double:
        static_cast<double*>(request.out)[i] = wide_ ? _curand_uniform_double(x) : _curand_uniform_double(unsigned(x));
        break;
      case Output::normal:
      case Output::log_normal:  // the inverse CDF of a 64-bit value reads its upper half
        static_cast<unsigned*>(request.out)[i] = wide_ ? unsigned(x >> 32) : unsigned(x);
        break;
      case Output::normal_double:
      case Output::log_normal_double:
        static_cast<unsigned long long*>(request.out)[i] = x;
        break;
      case Output::poisson:  // a 64-bit value's count is made here (poisson.cpp)
        static_cast<unsigned*>(request.out)[i] =
            wide_ ? poisson_count(*request.table, _curand_uniform_double(x)) : unsigned(x);
        break;
    }
  }

  bool wide_;
  size_t dimensions_;
  const curandDirectionVectors32_t* vectors32_ = nullptr;
  const curandDirectionVectors64_t* vectors64_ = nullptr;
  const unsigned* constants32_ = nullptr;  // the scrambled generators'
  const unsigned long long* constants64_ = nullptr;
  unsigned long long next_point_;
};

}  // namespace

std::unique_ptr<Engine> make_sobol_engine(const EngineSettings& settings, unsigned dimensions) {
  bool wide = settings.type == CURAND_RNG_QUASI_SOBOL64 || settings.type == CURAND_RNG_QUASI_SCRAMBLED_SOBOL64;
  bool scrambled =
      settings.type == CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 || settings.type == CURAND_RNG_QUASI_SCRAMBLED_SOBOL64;
  return std::make_unique<SobolEngine>(settings, dimensions, wide, scrambled);
}

}  // namespace cucpu::curand
