// Sobol32 and Sobol64 (not scrambled) in the order of NVIDIA's host API, as the H200's
// libcurand lays them out: a call of n results in D dimensions makes n / D points, from the
// generator's point index on (the offset counts points); dimension d's values come together,
// at d * (n / D). Point k of a dimension is the XOR of the direction vectors of the bits set in
// the Gray code k ^ (k >> 1), so point 0 is 0.
//
// The direction vectors are made from the Joe-Kuo parameters (new-joe-kuo-6.21201, S. Joe and
// F. Y. Kuo, BSD-style licence): dimension 0 is van der Corput's, dimension d > 0 follows row
// d + 1 of their table. cucpu carries only the rows below, checked against the H200's
// curandGetDirectionVectors32/64 (CURAND_DIRECTION_VECTORS_*_JOEKUO6); more dimensions are
// not made yet.
#include <vector>

#include "libs/curand/device_api.h"
#include "libs/curand/generator.h"

namespace cucpu::curand {
namespace {

struct JoeKuoRow {
  unsigned degree;      // s
  unsigned polynomial;  // a: the primitive polynomial's inner coefficients
  unsigned initial[6];  // m_1 .. m_s
};

// Rows d = 2 .. 17 of new-joe-kuo-6.21201.
constexpr JoeKuoRow joe_kuo_rows[] = {
    {1, 0, {1}},
    {2, 1, {1, 3}},
    {3, 1, {1, 3, 1}},
    {3, 2, {1, 1, 1}},
    {4, 1, {1, 1, 3, 3}},
    {4, 4, {1, 3, 5, 13}},
    {5, 2, {1, 1, 5, 5, 17}},
    {5, 4, {1, 1, 5, 5, 5}},
    {5, 7, {1, 1, 7, 11, 19}},
    {5, 11, {1, 1, 5, 1, 1}},
    {5, 13, {1, 1, 1, 3, 11}},
    {5, 14, {1, 3, 5, 5, 31}},
    {6, 1, {1, 3, 3, 9, 7, 49}},
    {6, 13, {1, 1, 1, 15, 21, 21}},
    {6, 16, {1, 3, 1, 13, 27, 49}},
};

}  // namespace

unsigned sobol_dimensions_made() { return 1 + sizeof(joe_kuo_rows) / sizeof(joe_kuo_rows[0]); }

namespace {

// The direction vectors of dimension d, `bits` of them (32 or 64), most significant first.
std::vector<unsigned long long> direction_vectors(unsigned d, unsigned bits) {
  std::vector<unsigned long long> v(bits);
  for (unsigned i = 0; i < bits; ++i) {
    if (d == 0) {
      v[i] = 1ull << (bits - 1 - i);
      continue;
    }
    const JoeKuoRow& row = joe_kuo_rows[d - 1];
    unsigned s = row.degree;
    if (i < s) {
      v[i] = (unsigned long long)row.initial[i] << (bits - 1 - i);
      continue;
    }
    unsigned long long x = v[i - s] ^ (v[i - s] >> s);
    for (unsigned k = 1; k < s; ++k)
      if ((row.polynomial >> (s - 1 - k)) & 1) x ^= v[i - k];
    v[i] = x;
  }
  return v;
}

class SobolEngine : public Engine {
 public:
  SobolEngine(const EngineSettings& settings, unsigned dimensions, bool wide)
      : wide_(wide), next_point_(settings.offset) {
    for (unsigned d = 0; d < dimensions; ++d) vectors_.push_back(direction_vectors(d, wide ? 64 : 32));
  }

  Transform transform(Output output) const override {
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

  void fill(const Request& request) override {
    size_t points = request.count / vectors_.size();
    for (size_t d = 0; d < vectors_.size(); ++d)
      for (size_t i = 0; i < points; ++i) make_result(request, d * points + i, value(d, next_point_ + i));
    next_point_ += points;
  }

  void prepare(Request& request) override { request.wide_raw = wide_; }

 private:
  unsigned long long value(size_t d, unsigned long long k) const {
    unsigned long long gray = k ^ (k >> 1), x = 0;
    for (unsigned b = 0; gray; ++b, gray >>= 1)
      if (gray & 1) x ^= vectors_[d][b];
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
  std::vector<std::vector<unsigned long long>> vectors_;
  unsigned long long next_point_;
};

}  // namespace

std::unique_ptr<Engine> make_sobol_engine(const EngineSettings& settings, unsigned dimensions) {
  bool wide = settings.type == CURAND_RNG_QUASI_SOBOL64;
  if (settings.type != CURAND_RNG_QUASI_SOBOL32 && !wide) return nullptr;  // the scrambled ones
  if (dimensions > sobol_dimensions_made()) return nullptr;
  return std::make_unique<SobolEngine>(settings, dimensions, wide);
}

}  // namespace cucpu::curand
