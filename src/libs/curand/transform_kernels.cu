// The transforms whose bits depend on the GPU's arithmetic (logf, __sincosf, log, sincospi,
// expf, exp, erfcinvf, erfcinv): compiled by nvcc to PTX when cuRAND is built and run by
// cucpu's JIT, so that a device generator's normal and log-normal values are the GPU's to
// the bit. Each kernel rewrites in place what the host side wrote into the output buffer:
// the raw values a pair (or one value) of the distribution is made from, in the layout of
// the results (device_transforms.cpp). The formulas are those of the toolkit's
// curand_normal.h, curand_lognormal.h and curand_normal_static.h, which NVIDIA's kernels use.
#define QUALIFIERS static __forceinline__ __device__
#include <curand_globals.h>
#include <curand_normal_static.h>

namespace {

// _curand_box_muller (curand_normal.h): two 32-bit values to two normals.
__device__ float2 box_muller_float(uint2 raw) {
  float2 result;
  float u = raw.x * CURAND_2POW32_INV + (CURAND_2POW32_INV / 2);
  float v = raw.y * CURAND_2POW32_INV_2PI + (CURAND_2POW32_INV_2PI / 2);
  float s = sqrtf(-2.0f * logf(u));
  __sincosf(v, &result.x, &result.y);
  result.x *= s;
  result.y *= s;
  return result;
}

// _curand_box_muller_double: four 32-bit values to two normals.
__device__ double2 box_muller_double(uint4 raw) {
  double2 result;
  unsigned long long zx = (unsigned long long)raw.x ^ ((unsigned long long)raw.y << (53 - 32));
  double u = zx * CURAND_2POW53_INV_DOUBLE + (CURAND_2POW53_INV_DOUBLE / 2.0);
  unsigned long long zy = (unsigned long long)raw.z ^ ((unsigned long long)raw.w << (53 - 32));
  double v = zy * (CURAND_2POW53_INV_DOUBLE * 2.0) + CURAND_2POW53_INV_DOUBLE;
  double s = sqrt(-2.0 * log(u));
  sincospi(v, &result.x, &result.y);
  result.x *= s;
  result.y *= s;
  return result;
}

// curand_box_muller_mrg: the first uniform and the second one times 2 pi, as floats.
__device__ float2 box_muller_mrg_float(float2 uniforms) {
  float2 result;
  float s = sqrtf(-2.0f * logf(uniforms.x));
  __sincosf(uniforms.y, &result.x, &result.y);
  result.x *= s;
  result.y *= s;
  return result;
}

// curand_box_muller_mrg_double: the first uniform and twice the second one.
__device__ double2 box_muller_mrg_double(double2 uniforms) {
  double2 result;
  double s = sqrt(-2.0 * log(uniforms.x));
  sincospi(uniforms.y, &result.x, &result.y);
  result.x *= s;
  result.y *= s;
  return result;
}

// Raw values where a pair's results go: aligned to the results only.
__device__ uint2 load_uint2(const float* at) {
  const unsigned* w = reinterpret_cast<const unsigned*>(at);
  return make_uint2(w[0], w[1]);
}
__device__ uint4 load_uint4(const double* at) {
  const unsigned* w = reinterpret_cast<const unsigned*>(at);
  return make_uint4(w[0], w[1], w[2], w[3]);
}

__device__ size_t first_index() { return size_t(blockIdx.x) * blockDim.x + threadIdx.x; }
__device__ size_t index_stride() { return size_t(gridDim.x) * blockDim.x; }

}  // namespace

// kind: 0 normal, 1 log-normal. Pair k's results are data[2k - phase] and the next; its raw
// values are there too, or in lead or tail where the pair is cut by an end of the buffer.
extern "C" __global__ void transform_box_muller_float(float* data, size_t count, float mean, float stddev, int kind,
                                                      unsigned phase, uint2 lead, uint2 tail) {
  size_t pairs = (count + phase + 1) / 2;
  for (size_t k = first_index(); k < pairs; k += index_stride()) {
    long long first = (long long)(2 * k) - phase;
    uint2 raw = first < 0 ? lead : first + 1 >= (long long)count ? tail : load_uint2(&data[first]);
    float2 v = box_muller_float(raw);
    v.x = mean + stddev * v.x;
    v.y = mean + stddev * v.y;
    if (kind == 1) v = make_float2(expf(v.x), expf(v.y));
    if (first >= 0) data[first] = v.x;
    if (first + 1 < (long long)count) data[first + 1] = v.y;
  }
}

extern "C" __global__ void transform_box_muller_double(double* data, size_t count, double mean, double stddev, int kind,
                                                       unsigned phase, uint4 lead, uint4 tail) {
  size_t pairs = (count + phase + 1) / 2;
  for (size_t k = first_index(); k < pairs; k += index_stride()) {
    long long first = (long long)(2 * k) - phase;
    uint4 raw = first < 0 ? lead : first + 1 >= (long long)count ? tail : load_uint4(&data[first]);
    double2 v = box_muller_double(raw);
    v.x = mean + stddev * v.x;
    v.y = mean + stddev * v.y;
    if (kind == 1) v = make_double2(exp(v.x), exp(v.y));
    if (first >= 0) data[first] = v.x;
    if (first + 1 < (long long)count) data[first + 1] = v.y;
  }
}

extern "C" __global__ void transform_box_muller_mrg_float(float2* data, size_t pairs, float mean, float stddev,
                                                          int kind) {
  for (size_t i = first_index(); i < pairs; i += index_stride()) {
    float2 v = box_muller_mrg_float(data[i]);
    v.x = mean + stddev * v.x;
    v.y = mean + stddev * v.y;
    if (kind == 1) v = make_float2(expf(v.x), expf(v.y));
    data[i] = v;
  }
}

extern "C" __global__ void transform_box_muller_mrg_double(double2* data, size_t pairs, double mean, double stddev,
                                                           int kind) {
  for (size_t i = first_index(); i < pairs; i += index_stride()) {
    double2 v = box_muller_mrg_double(data[i]);
    v.x = mean + stddev * v.x;
    v.y = mean + stddev * v.y;
    if (kind == 1) v = make_double2(exp(v.x), exp(v.y));
    data[i] = v;
  }
}

// One 32-bit raw value per result through the inverse normal CDF (MTGP32, Sobol).
extern "C" __global__ void transform_icdf_float(float* data, size_t count, float mean, float stddev, int kind) {
  for (size_t i = first_index(); i < count; i += index_stride()) {
    float v = mean + stddev * _curand_normal_icdf(*reinterpret_cast<unsigned*>(&data[i]));
    data[i] = kind == 1 ? expf(v) : v;
  }
}

// The raw value in the low half of each result's 8 bytes: 32 bits, or 64 (Sobol64) when wide.
extern "C" __global__ void transform_icdf_double(double* data, size_t count, double mean, double stddev, int kind,
                                                 int wide) {
  for (size_t i = first_index(); i < count; i += index_stride()) {
    double normal = wide ? _curand_normal_icdf_double(*reinterpret_cast<unsigned long long*>(&data[i]))
                         : _curand_normal_icdf_double(*reinterpret_cast<unsigned*>(&data[i]));
    double v = mean + stddev * normal;
    data[i] = kind == 1 ? exp(v) : v;
  }
}

// Poisson from poisson_table_limit on: counts from normals (CountsFrom, from float_sum on):
// 0, float normals with the distribution's mean and stddev; 1, standard float normals; 2,
// pairs of raw values and which of the pair's normals (uint4), Box-Muller's (mrg 0) or
// MRG32k3a's (mrg 1). The rounding is curand_poisson_from_normal's.
extern "C" __global__ void transform_counts(const void* normals, unsigned* counts, size_t count, double lambda,
                                            int from, int mrg) {
  for (size_t i = first_index(); i < count; i += index_stride()) {
    if (from == 0) {
      counts[i] = (unsigned int)(static_cast<const float*>(normals)[i] + 0.5f);
      continue;
    }
    double normal;
    if (from == 1) {
      normal = static_cast<const float*>(normals)[i];
    } else {
      uint4 record = static_cast<const uint4*>(normals)[i];
      float2 pair = mrg ? box_muller_mrg_float(make_float2(__uint_as_float(record.x), __uint_as_float(record.y)))
                        : box_muller_float(make_uint2(record.x, record.y));
      normal = record.z ? pair.y : pair.x;
    }
    counts[i] = (unsigned int)((sqrt(lambda) * normal) + lambda + 0.5);
  }
}
