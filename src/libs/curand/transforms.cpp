// The last step of normal and log-normal results: raw values to distribution values. On
// the host, the toolkit's formulas with the host's logf, sinf, cosf, log, sin, cos, expf
// and exp (the host branches of curand_normal.h, as NVIDIA's host generators compute
// them); on the device, the kernels of transform_kernels.cu, run by cucpu's JIT from the
// PTX nvcc made of them, queued on the generator's stream after the engine's work.
#include <cuda.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>

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

}  // namespace

curandStatus_t transform_on_host(Transform transform, const Request& request) {
  switch (transform) {
    case Transform::none:
      return CURAND_STATUS_SUCCESS;
    case Transform::box_muller_float:
      transform_pairs<float, 2>(request, [](const unsigned* raw, float& x, float& y) {
        float2 v = _curand_box_muller(raw[0], raw[1]);
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
        float u, v;  // curand_box_muller_mrg's host branch
        std::memcpy(&u, &raw[0], 4);
        std::memcpy(&v, &raw[1], 4);
        float s = sqrtf(-2.0f * logf(u));
        x = sinf(v) * s;
        y = cosf(v) * s;
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
    case Transform::icdf_float:
    case Transform::icdf_double:
      // The toolkit's host branch of the inverse CDF has no erfcinv; NVIDIA's host
      // generators use one of their own, which cucpu does not have.
      return CURAND_STATUS_ARCH_MISMATCH;
  }
  return CURAND_STATUS_INTERNAL_ERROR;
}

curandStatus_t transform_on_device(Transform transform, const Request& request, cudaStream_t stream) {
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
  }
  return CURAND_STATUS_INTERNAL_ERROR;
}

}  // namespace cucpu::curand
