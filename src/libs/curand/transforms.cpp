// The last step of normal, log-normal and Poisson results: raw values to distribution values.
// On the host, the toolkit's formulas with the host's logf, sinf, cosf, log, sin, cos, expf
// and exp (the host branches of curand_normal.h, as NVIDIA's host generators compute
// them) and the toolkit's host erfcinv; on the device, the kernels of transform_kernels.cu,
// run by cucpu's JIT from the PTX nvcc made of them, queued on the generator's stream after
// the engine's work. Poisson counts from a table are exact arithmetic, made on the host for both.
#include <cuda.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>

#include "libs/common/stream_work.h"
#include "libs/curand/device_api.h"
#include "libs/curand/generator.h"

extern const char cucpu_curand_transform_ptx[];

namespace cucpu::curand {
namespace {

int kind_of(Output output) { return is_log_normal(output) ? 1 : 0; }

template <typename T>
T finish(const Request& request, T normal) {
  T v = T(request.mean) + T(request.stddev) * normal;
  if (is_log_normal(request.output)) return std::exp(v);
  return v;
}

// Pair k of a request: its raw values (`words` 32-bit ones) and where its results go.
template <typename T, unsigned words, typename Make>
void transform_pairs(const Request& request, Make make) {
  T* data = static_cast<T*>(request.out);
  size_t pairs = (request.count + request.phase + 1) / 2;
  for (size_t k = 0; k < pairs; ++k) {
    long long first = (long long)(2 * k) - request.phase;
    unsigned raw[4];
    if (first < 0)
      std::memcpy(raw, request.lead, sizeof raw);
    else if (first + 1 >= (long long)request.count)
      std::memcpy(raw, request.tail, sizeof raw);
    else
      std::memcpy(raw, &data[first], words * 4);
    T x, y;
    make(raw, x, y);
    if (first >= 0) data[first] = finish(request, x);
    if (first + 1 < (long long)request.count) data[first + 1] = finish(request, y);
  }
}

// _curand_normal_icdf and _curand_normal_icdf_double (curand_normal_static.h) as a host
// compiler with HOST_HAVE_ERFCINVF makes them, as NVIDIA's host generators do: erfcinvf is
// the host erfcinv rounded to float.
float host_normal_icdf(unsigned x) {
  float s = CURAND_SQRT2;
  if (x > 0x80000000u) {
    x = 0xffffffffu - x;
    s = -s;
  }
  float p = x * CURAND_2POW32_INV + (CURAND_2POW32_INV / 2.0f);
  return s * float(host_erfcinv(2.0f * p));
}

double host_normal_icdf_double(unsigned x) {
  double s = CURAND_SQRT2_DOUBLE;
  if (x > 0x80000000u) {
    x = 0xffffffffu - x;
    s = -s;
  }
  double p = x * CURAND_2POW32_INV_DOUBLE + (CURAND_2POW32_INV_DOUBLE / 2.0);
  return s * host_erfcinv(2.0 * p);
}

double host_normal_icdf_double(unsigned long long x) {
  double s = CURAND_SQRT2_DOUBLE;
  x >>= 11;
  if (x > 0x10000000000000ull) {
    x = 0x1fffffffffffffull - x;
    s = -s;
  }
  double p = x * CURAND_2POW53_INV_DOUBLE + (CURAND_2POW53_INV_DOUBLE / 2.0);
  return s * host_erfcinv(2.0 * p);
}

// Poisson below poisson_table_limit: the 32-bit values to counts in place (a 64-bit engine
// wrote the counts).
void counts_from_table(const Request& request) {
  if (request.wide_raw) return;
  unsigned* data = static_cast<unsigned*>(request.out);
  for (size_t i = 0; i < request.count; ++i) data[i] = poisson_count(*request.table, _curand_uniform_double(data[i]));
}

// The host branches of _curand_box_muller and curand_box_muller_mrg (whose raw values are
// the two uniforms' bits, the second times 2 pi).
float2 host_box_muller(const unsigned* raw) { return _curand_box_muller(raw[0], raw[1]); }
float2 host_box_muller_mrg(const unsigned* raw) {
  float u, v;
  std::memcpy(&u, &raw[0], 4);
  std::memcpy(&v, &raw[1], 4);
  float s = sqrtf(-2.0f * logf(u));
  return make_float2(sinf(v) * s, cosf(v) * s);
}

// curand_poisson_from_normal's rounding.
unsigned count_from_normal(double lambda, double normal) {
  return (unsigned int)((sqrt(lambda) * normal) + lambda + 0.5);
}

// Poisson from poisson_table_limit on: the counts from the normals (or pairs) at `out`.
void counts_from_normals(const Request& request, bool mrg) {
  for (size_t i = 0; i < request.count; ++i) {
    unsigned count = 0;
    switch (request.counts_from) {
      case CountsFrom::none:
        return;
      case CountsFrom::float_sum:
        count = unsigned(static_cast<const float*>(request.out)[i] + 0.5f);
        break;
      case CountsFrom::float_normal:
        count = count_from_normal(request.lambda, static_cast<const float*>(request.out)[i]);
        break;
      case CountsFrom::normal_pairs: {
        const unsigned* record = static_cast<const unsigned*>(request.out) + 4 * i;
        float2 pair = mrg ? host_box_muller_mrg(record) : host_box_muller(record);
        count = count_from_normal(request.lambda, record[2] ? pair.y : pair.x);
        break;
      }
    }
    request.counts[i] = count;
  }
}

// The PTX module of the current context, loaded once.
CUresult transform_function(const char* name, CUfunction* function) {
  static std::mutex mutex;
  static auto* modules = new std::map<CUcontext, CUmodule>;
  std::lock_guard lock(mutex);
  if (CUresult r = cuInit(0); r != CUDA_SUCCESS) return r;
  CUcontext context;
  if (CUresult r = cuCtxGetCurrent(&context); r != CUDA_SUCCESS) return r;
  CUmodule& module = (*modules)[context];
  if (!module)
    if (CUresult r = cuModuleLoadData(&module, cucpu_curand_transform_ptx); r != CUDA_SUCCESS) {
      module = nullptr;
      return r;
    }
  return cuModuleGetFunction(function, module, name);
}

curandStatus_t launch(const char* name, size_t items, cudaStream_t stream, void** arguments) {
  CUfunction function;
  if (CUresult r = transform_function(name, &function); r != CUDA_SUCCESS) {
    std::fprintf(stderr, "cucpu: cuRAND cannot load its transform %s: CUresult %d\n", name, int(r));
    return CURAND_STATUS_LAUNCH_FAILURE;
  }
  constexpr unsigned threads = 256;
  unsigned blocks = unsigned(std::min<size_t>((items + threads - 1) / threads, 1024));
  if (blocks == 0) return CURAND_STATUS_SUCCESS;
  CUresult r =
      cuLaunchKernel(function, blocks, 1, 1, threads, 1, 1, 0, reinterpret_cast<CUstream>(stream), arguments, nullptr);
  return r == CUDA_SUCCESS ? CURAND_STATUS_SUCCESS : CURAND_STATUS_LAUNCH_FAILURE;
}

curandStatus_t transform_values_on_host(Transform transform, const Request& request) {
  switch (transform) {
    case Transform::none:
      return CURAND_STATUS_SUCCESS;
    case Transform::box_muller_float:
      transform_pairs<float, 2>(request, [](const unsigned* raw, float& x, float& y) {
        float2 v = host_box_muller(raw);
        x = v.x;
        y = v.y;
      });
      return CURAND_STATUS_SUCCESS;
    case Transform::box_muller_double:
      transform_pairs<double, 4>(request, [](const unsigned* raw, double& x, double& y) {
        double2 v = _curand_box_muller_double(raw[0], raw[1], raw[2], raw[3]);
        x = v.x;
        y = v.y;
      });
      return CURAND_STATUS_SUCCESS;
    case Transform::box_muller_mrg_float:
      transform_pairs<float, 2>(request, [](const unsigned* raw, float& x, float& y) {
        float2 v = host_box_muller_mrg(raw);
        x = v.x;
        y = v.y;
      });
      return CURAND_STATUS_SUCCESS;
    case Transform::box_muller_mrg_double:
      transform_pairs<double, 4>(request, [](const unsigned* raw, double& x, double& y) {
        double u, v;  // curand_box_muller_mrg_double's host branch
        std::memcpy(&u, &raw[0], 8);
        std::memcpy(&v, &raw[2], 8);
        double s = sqrt(-2.0 * log(u));
        x = sin(v * CURAND_PI_DOUBLE) * s;
        y = cos(v * CURAND_PI_DOUBLE) * s;
      });
      return CURAND_STATUS_SUCCESS;
    case Transform::icdf_float: {
      float* data = static_cast<float*>(request.out);
      for (size_t i = 0; i < request.count; ++i) {
        unsigned raw;
        std::memcpy(&raw, &data[i], 4);
        data[i] = finish(request, host_normal_icdf(raw));
      }
      return CURAND_STATUS_SUCCESS;
    }
    case Transform::icdf_double: {
      double* data = static_cast<double*>(request.out);
      for (size_t i = 0; i < request.count; ++i) {
        unsigned long long raw;
        std::memcpy(&raw, &data[i], 8);
        double normal = request.float_icdf_double ? host_normal_icdf(unsigned(raw))
                        : request.wide_raw        ? host_normal_icdf_double(raw)
                                                  : host_normal_icdf_double(unsigned(raw));
        data[i] = finish(request, normal);
      }
      return CURAND_STATUS_SUCCESS;
    }
    case Transform::poisson_table:
      counts_from_table(request);
      return CURAND_STATUS_SUCCESS;
  }
  return CURAND_STATUS_INTERNAL_ERROR;
}

curandStatus_t transform_values_on_device(Transform transform, const Request& request, cudaStream_t stream) {
  void* data = request.out;
  size_t count = request.count;
  int kind = kind_of(request.output);
  unsigned phase = request.phase;
  size_t pairs = (count + phase + 1) / 2;
  switch (transform) {
    case Transform::none:
      return CURAND_STATUS_SUCCESS;
    case Transform::box_muller_float: {
      float mean = float(request.mean), stddev = float(request.stddev);
      uint2 lead = make_uint2(request.lead[0], request.lead[1]), tail = make_uint2(request.tail[0], request.tail[1]);
      void* arguments[] = {&data, &count, &mean, &stddev, &kind, &phase, &lead, &tail};
      return launch("transform_box_muller_float", pairs, stream, arguments);
    }
    case Transform::box_muller_double: {
      double mean = request.mean, stddev = request.stddev;
      uint4 lead = make_uint4(request.lead[0], request.lead[1], request.lead[2], request.lead[3]);
      uint4 tail = make_uint4(request.tail[0], request.tail[1], request.tail[2], request.tail[3]);
      void* arguments[] = {&data, &count, &mean, &stddev, &kind, &phase, &lead, &tail};
      return launch("transform_box_muller_double", pairs, stream, arguments);
    }
    case Transform::box_muller_mrg_float: {
      float mean = float(request.mean), stddev = float(request.stddev);
      size_t whole = count / 2;
      void* arguments[] = {&data, &whole, &mean, &stddev, &kind};
      return launch("transform_box_muller_mrg_float", whole, stream, arguments);
    }
    case Transform::box_muller_mrg_double: {
      double mean = request.mean, stddev = request.stddev;
      size_t whole = count / 2;
      void* arguments[] = {&data, &whole, &mean, &stddev, &kind};
      return launch("transform_box_muller_mrg_double", whole, stream, arguments);
    }
    case Transform::icdf_float: {
      float mean = float(request.mean), stddev = float(request.stddev);
      void* arguments[] = {&data, &count, &mean, &stddev, &kind};
      return launch("transform_icdf_float", count, stream, arguments);
    }
    case Transform::icdf_double: {
      double mean = request.mean, stddev = request.stddev;
      int wide = request.wide_raw;
      void* arguments[] = {&data, &count, &mean, &stddev, &kind, &wide};
      return launch("transform_icdf_double", count, stream, arguments);
    }
    case Transform::poisson_table: {
      auto queued = libs::enqueue(stream, "curandGeneratePoisson", {{data, count * 4}},
                                  [request] { counts_from_table(request); });
      return queued ? CURAND_STATUS_SUCCESS : CURAND_STATUS_LAUNCH_FAILURE;
    }
  }
  return CURAND_STATUS_INTERNAL_ERROR;
}

}  // namespace

curandStatus_t transform_on_host(Transform transform, const Request& request, bool mrg) {
  curandStatus_t status = transform_values_on_host(transform, request);
  if (status == CURAND_STATUS_SUCCESS) counts_from_normals(request, mrg);
  return status;
}

curandStatus_t transform_on_device(Transform transform, const Request& request, bool mrg, cudaStream_t stream) {
  curandStatus_t status = transform_values_on_device(transform, request, stream);
  if (status != CURAND_STATUS_SUCCESS || request.counts_from == CountsFrom::none) return status;
  const void* normals = request.out;
  unsigned* counts = request.counts;
  size_t count = request.count;
  double lambda = request.lambda;
  int from = int(request.counts_from) - int(CountsFrom::float_sum), is_mrg = mrg;
  void* arguments[] = {&normals, &counts, &count, &lambda, &from, &is_mrg};
  status = launch("transform_counts", count, stream, arguments);
  if (status != CURAND_STATUS_SUCCESS || !request.scratch) return status;
  // The scratch memory goes when the kernel has read it.
  auto queued = libs::enqueue(stream, "curandGeneratePoisson", {}, [scratch = request.scratch] {});
  return queued ? CURAND_STATUS_SUCCESS : CURAND_STATUS_LAUNCH_FAILURE;
}

}  // namespace cucpu::curand
