// cuFFT's plan functions: creating, making and destroying plans, the size queries, the
// stream, work area and property settings, the library's version. A CPU transform needs no
// work area from the caller, so every work size is 0 (the H200 also answers 0 for most
// sizes: cuFFT's own size varies with the algorithm it picks).
#include <cufft.h>
#include <library_types.h>

#include "libs/cufft/plan.h"

using namespace cucpu::cufft;

namespace {

// Reads a plan request with its type.
template <typename Int>
cufftResult read(int rank, const Int* n, const Int* inembed, long long istride, long long idist, const Int* onembed,
                 long long ostride, long long odist, cufftType type, long long batch, Request& request) {
  if (!read_type(type, request.kind, request.precision)) return CUFFT_INVALID_TYPE;
  return read_request(rank, n, inembed, istride, idist, onembed, ostride, odist, batch, request);
}

// cufftMakePlan*: the handle must name a plan not made yet.
template <typename Int>
cufftResult make(cufftHandle handle, int rank, const Int* n, const Int* inembed, long long istride, long long idist,
                 const Int* onembed, long long ostride, long long odist, cufftType type, long long batch,
                 size_t* work_size) {
  auto plan = find_plan(handle);
  if (!plan || plan->made) return CUFFT_INVALID_PLAN;
  if (!work_size) return CUFFT_INVALID_VALUE;
  Request request;
  if (cufftResult status = read(rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, request))
    return status;
  if (cufftResult status = make_plan(*plan, request)) return status;
  *work_size = 0;
  return CUFFT_SUCCESS;
}

// cufftPlan*: a new handle made at once; none is left behind when the request fails.
template <typename Int>
cufftResult create_and_make(cufftHandle* handle, int rank, const Int* n, const Int* inembed, long long istride,
                            long long idist, const Int* onembed, long long ostride, long long odist, cufftType type,
                            long long batch) {
  if (!handle) return CUFFT_INVALID_VALUE;
  cufftHandle created = add_plan();
  size_t work_size;
  cufftResult status =
      make(created, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, &work_size);
  if (status != CUFFT_SUCCESS) {
    remove_plan(created);
    return status;
  }
  *handle = created;
  return CUFFT_SUCCESS;
}

// cufftEstimate* and cufftGetSize*: the request checked, its work size (0) written.
template <typename Int>
cufftResult size_of(const Int* n, int rank, const Int* inembed, long long istride, long long idist, const Int* onembed,
                    long long ostride, long long odist, cufftType type, long long batch, size_t* work_size) {
  if (!work_size) return CUFFT_INVALID_VALUE;
  Request request;
  if (cufftResult status = read(rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, request))
    return status;
  *work_size = 0;
  return CUFFT_SUCCESS;
}

template <typename Int>
cufftResult size_of_plan(cufftHandle handle, const Int* n, int rank, const Int* inembed, long long istride,
                         long long idist, const Int* onembed, long long ostride, long long odist, cufftType type,
                         long long batch, size_t* work_size) {
  if (!find_plan(handle)) return CUFFT_INVALID_PLAN;
  return size_of(n, rank, inembed, istride, idist, onembed, ostride, odist, type, batch, work_size);
}

}  // namespace

extern "C" {

cufftResult cufftCreate(cufftHandle* handle) {
  if (!handle) return CUFFT_INVALID_VALUE;
  *handle = add_plan();
  return CUFFT_SUCCESS;
}

cufftResult cufftDestroy(cufftHandle plan) {
  if (plan == CUFFT_PLAN_NULL) return CUFFT_SUCCESS;  // "safe to call cufftDestroy on" (cufft.h)
  return remove_plan(plan) ? CUFFT_SUCCESS : CUFFT_INVALID_PLAN;
}

cufftResult cufftPlan1d(cufftHandle* plan, int nx, cufftType type, int batch) {
  int n[] = {nx};
  return create_and_make<int>(plan, 1, n, nullptr, 1, 0, nullptr, 1, 0, type, batch);
}

cufftResult cufftPlan2d(cufftHandle* plan, int nx, int ny, cufftType type) {
  int n[] = {nx, ny};
  return create_and_make<int>(plan, 2, n, nullptr, 1, 0, nullptr, 1, 0, type, 1);
}

cufftResult cufftPlan3d(cufftHandle* plan, int nx, int ny, int nz, cufftType type) {
  int n[] = {nx, ny, nz};
  return create_and_make<int>(plan, 3, n, nullptr, 1, 0, nullptr, 1, 0, type, 1);
}

cufftResult cufftPlanMany(cufftHandle* plan, int rank, int* n, int* inembed, int istride, int idist, int* onembed,
                          int ostride, int odist, cufftType type, int batch) {
  return create_and_make<int>(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch);
}

cufftResult cufftMakePlan1d(cufftHandle plan, int nx, cufftType type, int batch, size_t* workSize) {
  int n[] = {nx};
  return make<int>(plan, 1, n, nullptr, 1, 0, nullptr, 1, 0, type, batch, workSize);
}

cufftResult cufftMakePlan2d(cufftHandle plan, int nx, int ny, cufftType type, size_t* workSize) {
  int n[] = {nx, ny};
  return make<int>(plan, 2, n, nullptr, 1, 0, nullptr, 1, 0, type, 1, workSize);
}

cufftResult cufftMakePlan3d(cufftHandle plan, int nx, int ny, int nz, cufftType type, size_t* workSize) {
  int n[] = {nx, ny, nz};
  return make<int>(plan, 3, n, nullptr, 1, 0, nullptr, 1, 0, type, 1, workSize);
}

cufftResult cufftMakePlanMany(cufftHandle plan, int rank, int* n, int* inembed, int istride, int idist, int* onembed,
                              int ostride, int odist, cufftType type, int batch, size_t* workSize) {
  return make<int>(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize);
}

cufftResult cufftMakePlanMany64(cufftHandle plan, int rank, long long* n, long long* inembed, long long istride,
                                long long idist, long long* onembed, long long ostride, long long odist, cufftType type,
                                long long batch, size_t* workSize) {
  return make<long long>(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize);
}

cufftResult cufftEstimate1d(int nx, cufftType type, int batch, size_t* workSize) {
  int n[] = {nx};
  return size_of<int>(n, 1, nullptr, 1, 0, nullptr, 1, 0, type, batch, workSize);
}

cufftResult cufftEstimate2d(int nx, int ny, cufftType type, size_t* workSize) {
  int n[] = {nx, ny};
  return size_of<int>(n, 2, nullptr, 1, 0, nullptr, 1, 0, type, 1, workSize);
}

cufftResult cufftEstimate3d(int nx, int ny, int nz, cufftType type, size_t* workSize) {
  int n[] = {nx, ny, nz};
  return size_of<int>(n, 3, nullptr, 1, 0, nullptr, 1, 0, type, 1, workSize);
}

cufftResult cufftEstimateMany(int rank, int* n, int* inembed, int istride, int idist, int* onembed, int ostride,
                              int odist, cufftType type, int batch, size_t* workSize) {
  return size_of<int>(n, rank, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize);
}

cufftResult cufftGetSize1d(cufftHandle handle, int nx, cufftType type, int batch, size_t* workSize) {
  int n[] = {nx};
  return size_of_plan<int>(handle, n, 1, nullptr, 1, 0, nullptr, 1, 0, type, batch, workSize);
}

cufftResult cufftGetSize2d(cufftHandle handle, int nx, int ny, cufftType type, size_t* workSize) {
  int n[] = {nx, ny};
  return size_of_plan<int>(handle, n, 2, nullptr, 1, 0, nullptr, 1, 0, type, 1, workSize);
}

cufftResult cufftGetSize3d(cufftHandle handle, int nx, int ny, int nz, cufftType type, size_t* workSize) {
  int n[] = {nx, ny, nz};
  return size_of_plan<int>(handle, n, 3, nullptr, 1, 0, nullptr, 1, 0, type, 1, workSize);
}

cufftResult cufftGetSizeMany(cufftHandle handle, int rank, int* n, int* inembed, int istride, int idist, int* onembed,
                             int ostride, int odist, cufftType type, int batch, size_t* workArea) {
  return size_of_plan<int>(handle, n, rank, inembed, istride, idist, onembed, ostride, odist, type, batch, workArea);
}

cufftResult cufftGetSizeMany64(cufftHandle plan, int rank, long long* n, long long* inembed, long long istride,
                               long long idist, long long* onembed, long long ostride, long long odist, cufftType type,
                               long long batch, size_t* workSize) {
  return size_of_plan<long long>(plan, n, rank, inembed, istride, idist, onembed, ostride, odist, type, batch,
                                 workSize);
}

cufftResult cufftGetSize(cufftHandle handle, size_t* workSize) {
  auto plan = find_plan(handle);
  if (!plan || !plan->made) return CUFFT_INVALID_PLAN;
  if (!workSize) return CUFFT_INVALID_VALUE;
  *workSize = 0;
  return CUFFT_SUCCESS;
}

cufftResult cufftSetWorkArea(cufftHandle plan, void* workArea) {
  auto found = find_plan(plan);
  if (!found) return CUFFT_INVALID_PLAN;
  found->work_area = workArea;
  return CUFFT_SUCCESS;
}

cufftResult cufftSetAutoAllocation(cufftHandle plan, int autoAllocate) {
  auto found = find_plan(plan);
  if (!found) return CUFFT_INVALID_PLAN;
  found->auto_allocation = autoAllocate != 0;
  return CUFFT_SUCCESS;
}

cufftResult cufftSetStream(cufftHandle plan, cudaStream_t stream) {
  auto found = find_plan(plan);
  if (!found) return CUFFT_INVALID_PLAN;
  found->stream = stream;  // checked when work is queued on it, as the GPU's launch would
  return CUFFT_SUCCESS;
}

cufftResult cufftGetVersion(int* version) {
  if (version) *version = CUFFT_VERSION;  // the H200 answers CUFFT_SUCCESS to a null pointer too
  return CUFFT_SUCCESS;
}

cufftResult cufftGetProperty(libraryPropertyType type, int* value) {
  if (!value) return CUFFT_INVALID_VALUE;
  switch (type) {
    case MAJOR_VERSION:
      *value = CUFFT_VER_MAJOR;
      return CUFFT_SUCCESS;
    case MINOR_VERSION:
      *value = CUFFT_VER_MINOR;
      return CUFFT_SUCCESS;
    case PATCH_LEVEL:
      *value = CUFFT_VER_PATCH;
      return CUFFT_SUCCESS;
  }
  return CUFFT_INVALID_TYPE;
}

// Plan properties, as the H200 answers them: PATIENT_JIT is read and written before the plan
// is made (then CUFFT_NOT_SUPPORTED), MAX_NUM_HOST_THREADS is CUFFT_NOT_SUPPORTED, any other
// property CUFFT_INVALID_VALUE.
cufftResult cufftSetPlanPropertyInt64(cufftHandle plan, cufftProperty property, const long long int inputValueInt) {
  auto found = find_plan(plan);
  if (!found) return CUFFT_INVALID_PLAN;
  if (property == NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS) return CUFFT_NOT_SUPPORTED;
  if (property != NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT) return CUFFT_INVALID_VALUE;
  if (found->made) return CUFFT_NOT_SUPPORTED;
  found->patient_jit = inputValueInt != 0;  // the H200 reads back 1 after setting 5
  return CUFFT_SUCCESS;
}

cufftResult cufftGetPlanPropertyInt64(cufftHandle plan, cufftProperty property, long long int* returnPtrValue) {
  auto found = find_plan(plan);
  if (!found) return CUFFT_INVALID_PLAN;
  if (property == NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS) return CUFFT_NOT_SUPPORTED;
  if (property != NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT || !returnPtrValue) return CUFFT_INVALID_VALUE;
  *returnPtrValue = found->patient_jit;
  return CUFFT_SUCCESS;
}

cufftResult cufftResetPlanProperty(cufftHandle plan, cufftProperty property) {
  auto found = find_plan(plan);
  if (!found) return CUFFT_INVALID_PLAN;
  if (property == NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS) return CUFFT_NOT_SUPPORTED;
  if (property != NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT) return CUFFT_INVALID_VALUE;
  if (found->made) return CUFFT_NOT_SUPPORTED;
  found->patient_jit = 0;
  return CUFFT_SUCCESS;
}

}  // extern "C"
