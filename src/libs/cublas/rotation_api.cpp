// cuBLAS's plane rotations that are not plain vector loops: constructing a Givens rotation
// (rotg), applying and constructing a modified one (rotm, rotmg). Their scalars follow the
// pointer mode: host ones are computed at the call, device ones in stream order.
#include <cublas_api.h>

#include <cstdint>

#include "libs/cublas/blas_calls.h"
#include "libs/cublas/handle.h"

namespace cucpu::cublas {
namespace {

// Runs `compute` on the scalars now (host pointer mode) or queued (device mode).
template <typename Compute>
cublasStatus_t on_scalars(cublasHandle_t handle, const char* function, std::initializer_list<DeviceRange> scalars,
                          Compute compute) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (handle->pointer_mode == CUBLAS_POINTER_MODE_DEVICE) return run(handle, function, scalars, compute);
  compute();
  return CUBLAS_STATUS_SUCCESS;
}

void rotg(float* a, float* b, float* c, float* s) { cblas_srotg(a, b, c, s); }
void rotg(double* a, double* b, double* c, double* s) { cblas_drotg(a, b, c, s); }
void rotg(cuComplex* a, cuComplex* b, float* c, cuComplex* s) { cblas_crotg(a, b, c, s); }
void rotg(cuDoubleComplex* a, cuDoubleComplex* b, double* c, cuDoubleComplex* s) { cblas_zrotg(a, b, c, s); }
void rotm(int n, float* x, int incx, float* y, int incy, const float* p) { cblas_srotm(n, x, incx, y, incy, p); }
void rotm(int n, double* x, int incx, double* y, int incy, const double* p) { cblas_drotm(n, x, incx, y, incy, p); }
void rotmg(float* d1, float* d2, float* x1, float y1, float* p) { cblas_srotmg(d1, d2, x1, y1, p); }
void rotmg(double* d1, double* d2, double* x1, double y1, double* p) { cblas_drotmg(d1, d2, x1, y1, p); }

template <typename T, typename R>
cublasStatus_t rotg_call(cublasHandle_t handle, const char* function, T* a, T* b, R* c, T* s) {
  if (handle && (!a || !b || !c || !s)) return CUBLAS_STATUS_INVALID_VALUE;
  return on_scalars(handle, function, {{a, sizeof(T)}, {b, sizeof(T)}, {c, sizeof(R)}, {s, sizeof(T)}},
                    [=] { rotg(a, b, c, s); });
}

template <typename T, typename I>
cublasStatus_t rotm_call(cublasHandle_t handle, const char* function, I n, T* x, I incx, T* y, I incy, const T* param) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!param) return CUBLAS_STATUS_INVALID_VALUE;
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  const bool device = handle->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
  T host[5] = {};
  if (!device) std::copy(param, param + 5, host);
  return run(handle, function,
             {vector_range(x, n, incx, sizeof(T)),
              vector_range(y, n, incy, sizeof(T)),
              {device ? param : nullptr, device ? 5 * sizeof(T) : 0}},
             [=] {
               T p[5];
               std::copy(device ? param : host, (device ? param : host) + 5, p);
               rotm(n, x, incx, y, incy, p);
             });
}

template <typename T>
cublasStatus_t rotmg_call(cublasHandle_t handle, const char* function, T* d1, T* d2, T* x1, const T* y1, T* param) {
  if (handle && (!d1 || !d2 || !x1 || !y1 || !param)) return CUBLAS_STATUS_INVALID_VALUE;
  return on_scalars(handle, function,
                    {{d1, sizeof(T)}, {d2, sizeof(T)}, {x1, sizeof(T)}, {y1, sizeof(T)}, {param, 5 * sizeof(T)}},
                    [=] { rotmg(d1, d2, x1, *y1, param); });
}

}  // namespace
}  // namespace cucpu::cublas

using namespace cucpu::cublas;

extern "C" {
cublasStatus_t CUBLASWINAPI cublasSrotg_v2(cublasHandle_t handle, float* a, float* b, float* c, float* s) {
  return rotg_call(handle, __func__, a, b, c, s);
}
cublasStatus_t CUBLASWINAPI cublasDrotg_v2(cublasHandle_t handle, double* a, double* b, double* c, double* s) {
  return rotg_call(handle, __func__, a, b, c, s);
}
cublasStatus_t CUBLASWINAPI cublasCrotg_v2(cublasHandle_t handle, cuComplex* a, cuComplex* b, float* c, cuComplex* s) {
  return rotg_call(handle, __func__, a, b, c, s);
}
cublasStatus_t CUBLASWINAPI cublasZrotg_v2(cublasHandle_t handle, cuDoubleComplex* a, cuDoubleComplex* b, double* c,
                                           cuDoubleComplex* s) {
  return rotg_call(handle, __func__, a, b, c, s);
}
cublasStatus_t CUBLASWINAPI cublasSrotm_v2(cublasHandle_t handle, int n, float* x, int incx, float* y, int incy,
                                           const float* param) {
  return rotm_call(handle, __func__, n, x, incx, y, incy, param);
}
cublasStatus_t CUBLASWINAPI cublasDrotm_v2(cublasHandle_t handle, int n, double* x, int incx, double* y, int incy,
                                           const double* param) {
  return rotm_call(handle, __func__, n, x, incx, y, incy, param);
}
cublasStatus_t CUBLASWINAPI cublasSrotm_v2_64(cublasHandle_t handle, int64_t n, float* x, int64_t incx, float* y,
                                              int64_t incy, const float* param) {
  return rotm_call(handle, __func__, n, x, incx, y, incy, param);
}
cublasStatus_t CUBLASWINAPI cublasDrotm_v2_64(cublasHandle_t handle, int64_t n, double* x, int64_t incx, double* y,
                                              int64_t incy, const double* param) {
  return rotm_call(handle, __func__, n, x, incx, y, incy, param);
}
cublasStatus_t CUBLASWINAPI cublasSrotmg_v2(cublasHandle_t handle, float* d1, float* d2, float* x1, const float* y1,
                                            float* param) {
  return rotmg_call(handle, __func__, d1, d2, x1, y1, param);
}
cublasStatus_t CUBLASWINAPI cublasDrotmg_v2(cublasHandle_t handle, double* d1, double* d2, double* x1, const double* y1,
                                            double* param) {
  return rotmg_call(handle, __func__, d1, d2, x1, y1, param);
}
}
