// cublasLt's handle, versions and descriptors: matrix layouts, matmul operations and
// preferences, created or initialized in the caller's storage, and their attributes.
#include <cublasLt.h>
#include <cuda_runtime_api.h>
#include <library_types.h>

#include <new>

#include "libs/common/stream_work.h"
#include "libs/cublas/status_names.h"
#include "libs/cublaslt/descriptors.h"

struct cublasLtContext {};

using namespace cucpu::cublaslt;

namespace {

// A descriptor in caller-provided storage of `size` bytes (the *Init_internal forms) or a new one.
template <typename Descriptor, typename Opaque>
cublasStatus_t construct(Opaque* storage, size_t size) {
  if (!storage || size < sizeof(Opaque)) return CUBLAS_STATUS_INVALID_VALUE;
  new (storage) Descriptor;
  return CUBLAS_STATUS_SUCCESS;
}

template <typename Descriptor, typename Opaque>
cublasStatus_t create(Opaque** out) {
  if (!out) return CUBLAS_STATUS_INVALID_VALUE;
  *out = new (std::nothrow) Opaque{};
  if (!*out) return CUBLAS_STATUS_ALLOC_FAILED;
  return construct<Descriptor>(*out, sizeof(Opaque));
}

}  // namespace

extern "C" {

cublasStatus_t CUBLASWINAPI cublasLtCreate(cublasLtHandle_t* lightHandle) {
  if (!lightHandle) return CUBLAS_STATUS_INVALID_VALUE;
  if (!cucpu::libs::prepare_device()) return CUBLAS_STATUS_NOT_INITIALIZED;
  *lightHandle = new (std::nothrow) cublasLtContext;
  return *lightHandle ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_ALLOC_FAILED;
}

cublasStatus_t CUBLASWINAPI cublasLtDestroy(cublasLtHandle_t lightHandle) {
  if (!lightHandle) return CUBLAS_STATUS_NOT_INITIALIZED;
  delete lightHandle;
  return CUBLAS_STATUS_SUCCESS;
}

size_t CUBLASWINAPI cublasLtGetVersion(void) { return CUBLAS_VERSION; }

size_t CUBLASWINAPI cublasLtGetCudartVersion(void) { return CUDART_VERSION; }

cublasStatus_t CUBLASWINAPI cublasLtGetProperty(libraryPropertyType type, int* value) {
  return cucpu::cublas::library_property(type, value);
}

const char* CUBLASWINAPI cublasLtGetStatusName(cublasStatus_t status) { return cucpu::cublas::status_name(status); }

const char* CUBLASWINAPI cublasLtGetStatusString(cublasStatus_t status) { return cucpu::cublas::status_string(status); }

cublasStatus_t CUBLASWINAPI cublasLtMatrixLayoutInit_internal(cublasLtMatrixLayout_t matLayout, size_t size,
                                                              cudaDataType type, uint64_t rows, uint64_t cols,
                                                              int64_t ld) {
  if (cublasStatus_t status = construct<MatrixLayout>(matLayout, size); status != CUBLAS_STATUS_SUCCESS) return status;
  MatrixLayout& l = layout(matLayout);
  l.type = type, l.rows = rows, l.cols = cols, l.ld = ld;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t* matLayout, cudaDataType type,
                                                       uint64_t rows, uint64_t cols, int64_t ld) {
  if (cublasStatus_t status = create<MatrixLayout>(matLayout); status != CUBLAS_STATUS_SUCCESS) return status;
  return cublasLtMatrixLayoutInit_internal(*matLayout, sizeof(**matLayout), type, rows, cols, ld);
}

cublasStatus_t CUBLASWINAPI cublasLtMatrixLayoutDestroy(const cublasLtMatrixLayout_t matLayout) {
  delete matLayout;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t matLayout,
                                                             cublasLtMatrixLayoutAttribute_t attr, const void* buf,
                                                             size_t sizeInBytes) {
  if (!matLayout) return CUBLAS_STATUS_INVALID_VALUE;
  return set_field(field(layout(matLayout), attr), buf, sizeInBytes);
}

cublasStatus_t CUBLASWINAPI cublasLtMatrixLayoutGetAttribute(cublasLtMatrixLayout_t matLayout,
                                                             cublasLtMatrixLayoutAttribute_t attr, void* buf,
                                                             size_t sizeInBytes, size_t* sizeWritten) {
  if (!matLayout) return CUBLAS_STATUS_INVALID_VALUE;
  return get_field(field(layout(matLayout), attr), buf, sizeInBytes, sizeWritten);
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulDescInit_internal(cublasLtMatmulDesc_t matmulDesc, size_t size,
                                                            cublasComputeType_t computeType, cudaDataType_t scaleType) {
  if (cublasStatus_t status = construct<MatmulDesc>(matmulDesc, size); status != CUBLAS_STATUS_SUCCESS) return status;
  desc(matmulDesc).compute = computeType;
  desc(matmulDesc).scale = scaleType;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulDescCreate(cublasLtMatmulDesc_t* matmulDesc, cublasComputeType_t computeType,
                                                     cudaDataType_t scaleType) {
  if (cublasStatus_t status = create<MatmulDesc>(matmulDesc); status != CUBLAS_STATUS_SUCCESS) return status;
  return cublasLtMatmulDescInit_internal(*matmulDesc, sizeof(**matmulDesc), computeType, scaleType);
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulDescDestroy(const cublasLtMatmulDesc_t matmulDesc) {
  delete matmulDesc;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t matmulDesc,
                                                           cublasLtMatmulDescAttributes_t attr, const void* buf,
                                                           size_t sizeInBytes) {
  if (!matmulDesc) return CUBLAS_STATUS_INVALID_VALUE;
  return set_field(field(desc(matmulDesc), attr), buf, sizeInBytes);
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulDescGetAttribute(cublasLtMatmulDesc_t matmulDesc,
                                                           cublasLtMatmulDescAttributes_t attr, void* buf,
                                                           size_t sizeInBytes, size_t* sizeWritten) {
  if (!matmulDesc) return CUBLAS_STATUS_INVALID_VALUE;
  return get_field(field(desc(matmulDesc), attr), buf, sizeInBytes, sizeWritten);
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulPreferenceInit_internal(cublasLtMatmulPreference_t pref, size_t size) {
  return construct<MatmulPreference>(pref, size);
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t* pref) {
  return create<MatmulPreference>(pref);
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulPreferenceDestroy(const cublasLtMatmulPreference_t pref) {
  delete pref;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t pref,
                                                                 cublasLtMatmulPreferenceAttributes_t attr,
                                                                 const void* buf, size_t sizeInBytes) {
  if (!pref) return CUBLAS_STATUS_INVALID_VALUE;
  return set_field(field(preference(pref), attr), buf, sizeInBytes);
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulPreferenceGetAttribute(cublasLtMatmulPreference_t pref,
                                                                 cublasLtMatmulPreferenceAttributes_t attr, void* buf,
                                                                 size_t sizeInBytes, size_t* sizeWritten) {
  if (!pref) return CUBLAS_STATUS_INVALID_VALUE;
  return get_field(field(preference(pref), attr), buf, sizeInBytes, sizeWritten);
}

// The logger: cucpu logs nothing from cublasLt; the settings are accepted.
cublasStatus_t CUBLASWINAPI cublasLtLoggerSetCallback(cublasLtLoggerCallback_t) { return CUBLAS_STATUS_SUCCESS; }
cublasStatus_t CUBLASWINAPI cublasLtLoggerSetFile(FILE*) { return CUBLAS_STATUS_SUCCESS; }
cublasStatus_t CUBLASWINAPI cublasLtLoggerOpenFile(const char*) { return CUBLAS_STATUS_SUCCESS; }
cublasStatus_t CUBLASWINAPI cublasLtLoggerSetLevel(int) { return CUBLAS_STATUS_SUCCESS; }
cublasStatus_t CUBLASWINAPI cublasLtLoggerSetMask(int) { return CUBLAS_STATUS_SUCCESS; }
cublasStatus_t CUBLASWINAPI cublasLtLoggerForceDisable() { return CUBLAS_STATUS_SUCCESS; }

}  // extern "C"
