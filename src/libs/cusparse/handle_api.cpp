// cuSPARSE's handle functions (creation, the stream, the pointer mode, versions, status
// names) and the legacy matrix descriptor (cusparseCreateMatDescr and its fields).
#include <cusparse.h>

#include <new>

#include "libs/cusparse/handle.h"

namespace {

// A null handle is a bad parameter (" ** On entry to cusparseSetStream() parameter number 1
// (handle) had an illegal value: NULL pointer" on the H200).
#define CUCPU_REQUIRE_HANDLE(handle) \
  if (!(handle)) return CUSPARSE_STATUS_INVALID_VALUE

}  // namespace

extern "C" {

cusparseStatus_t CUSPARSEAPI cusparseCreate(cusparseHandle_t* handle) {
  if (!handle) return CUSPARSE_STATUS_INVALID_VALUE;
  if (auto ready = cucpu::libs::prepare_device(); !ready) return CUSPARSE_STATUS_NOT_INITIALIZED;
  *handle = new (std::nothrow) cusparseContext;
  return *handle ? CUSPARSE_STATUS_SUCCESS : CUSPARSE_STATUS_ALLOC_FAILED;
}

cusparseStatus_t CUSPARSEAPI cusparseDestroy(cusparseHandle_t handle) {
  if (!handle) return CUSPARSE_STATUS_SUCCESS;  // as free(NULL), on the H200
  // The work queued with the handle finishes before its resources go.
  (void)cucpu::cusparse::finish(handle);
  delete handle;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseGetVersion(cusparseHandle_t handle, int* version) {
  CUCPU_REQUIRE_HANDLE(handle);
  if (!version) return CUSPARSE_STATUS_INVALID_VALUE;
  *version = CUSPARSE_VERSION;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseGetProperty(libraryPropertyType type, int* value) {
  if (!value) return CUSPARSE_STATUS_INVALID_VALUE;
  switch (type) {
    case MAJOR_VERSION:
      *value = CUSPARSE_VER_MAJOR;
      return CUSPARSE_STATUS_SUCCESS;
    case MINOR_VERSION:
      *value = CUSPARSE_VER_MINOR;
      return CUSPARSE_STATUS_SUCCESS;
    case PATCH_LEVEL:
      *value = CUSPARSE_VER_PATCH;
      return CUSPARSE_STATUS_SUCCESS;
  }
  return CUSPARSE_STATUS_INVALID_VALUE;
}

const char* CUSPARSEAPI cusparseGetErrorName(cusparseStatus_t status) {
  switch (status) {
    case CUSPARSE_STATUS_SUCCESS:
      return "CUSPARSE_STATUS_SUCCESS";
    case CUSPARSE_STATUS_NOT_INITIALIZED:
      return "CUSPARSE_STATUS_NOT_INITIALIZED";
    case CUSPARSE_STATUS_ALLOC_FAILED:
      return "CUSPARSE_STATUS_ALLOC_FAILED";
    case CUSPARSE_STATUS_INVALID_VALUE:
      return "CUSPARSE_STATUS_INVALID_VALUE";
    case CUSPARSE_STATUS_ARCH_MISMATCH:
      return "CUSPARSE_STATUS_ARCH_MISMATCH";
    case CUSPARSE_STATUS_MAPPING_ERROR:
      return "CUSPARSE_STATUS_MAPPING_ERROR";
    case CUSPARSE_STATUS_EXECUTION_FAILED:
      return "CUSPARSE_STATUS_EXECUTION_FAILED";
    case CUSPARSE_STATUS_INTERNAL_ERROR:
      return "CUSPARSE_STATUS_INTERNAL_ERROR";
    case CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED:
      return "CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case CUSPARSE_STATUS_ZERO_PIVOT:
      return "CUSPARSE_STATUS_ZERO_PIVOT";
    case CUSPARSE_STATUS_NOT_SUPPORTED:
      return "CUSPARSE_STATUS_NOT_SUPPORTED";
    case CUSPARSE_STATUS_INSUFFICIENT_RESOURCES:
      return "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES";
  }
  return "unrecognized error code";
}

// The descriptions cuSPARSE 12.6 gives (tests/e2e/cusparse_generic, taken on an H200).
const char* CUSPARSEAPI cusparseGetErrorString(cusparseStatus_t status) {
  switch (status) {
    case CUSPARSE_STATUS_SUCCESS:
      return "success";
    case CUSPARSE_STATUS_NOT_INITIALIZED:
      return "initialization error";
    case CUSPARSE_STATUS_ALLOC_FAILED:
      return "out of memory";
    case CUSPARSE_STATUS_INVALID_VALUE:
      return "invalid value";
    case CUSPARSE_STATUS_ARCH_MISMATCH:
      return "architecture mismatch";
    case CUSPARSE_STATUS_MAPPING_ERROR:
      return "texture memory mapping error";
    case CUSPARSE_STATUS_EXECUTION_FAILED:
      return "kernel launch failure";
    case CUSPARSE_STATUS_INTERNAL_ERROR:
      return "internal error";
    case CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED:
      return "matrix type not supported";
    case CUSPARSE_STATUS_ZERO_PIVOT:
      return "zero pivot";
    case CUSPARSE_STATUS_NOT_SUPPORTED:
      return "operation not supported";
    case CUSPARSE_STATUS_INSUFFICIENT_RESOURCES:
      return "insufficient resources";
  }
  return "unrecognized error code";
}

cusparseStatus_t CUSPARSEAPI cusparseSetStream(cusparseHandle_t handle, cudaStream_t streamId) {
  CUCPU_REQUIRE_HANDLE(handle);
  handle->stream = streamId;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseGetStream(cusparseHandle_t handle, cudaStream_t* streamId) {
  CUCPU_REQUIRE_HANDLE(handle);
  if (!streamId) return CUSPARSE_STATUS_INVALID_VALUE;
  *streamId = handle->stream;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseGetPointerMode(cusparseHandle_t handle, cusparsePointerMode_t* mode) {
  CUCPU_REQUIRE_HANDLE(handle);
  if (!mode) return CUSPARSE_STATUS_INVALID_VALUE;
  *mode = handle->pointer_mode;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseSetPointerMode(cusparseHandle_t handle, cusparsePointerMode_t mode) {
  CUCPU_REQUIRE_HANDLE(handle);
  if (mode != CUSPARSE_POINTER_MODE_HOST && mode != CUSPARSE_POINTER_MODE_DEVICE) return CUSPARSE_STATUS_INVALID_VALUE;
  handle->pointer_mode = mode;
  return CUSPARSE_STATUS_SUCCESS;
}

// The legacy matrix descriptor: a general matrix, lower fill, non-unit diagonal, base 0.
cusparseStatus_t CUSPARSEAPI cusparseCreateMatDescr(cusparseMatDescr_t* descrA) {
  if (!descrA) return CUSPARSE_STATUS_INVALID_VALUE;
  *descrA = new (std::nothrow) cusparseMatDescr;
  return *descrA ? CUSPARSE_STATUS_SUCCESS : CUSPARSE_STATUS_ALLOC_FAILED;
}

cusparseStatus_t CUSPARSEAPI cusparseDestroyMatDescr(cusparseMatDescr_t descrA) {
  delete descrA;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseSetMatType(cusparseMatDescr_t descrA, cusparseMatrixType_t type) {
  if (!descrA || type < CUSPARSE_MATRIX_TYPE_GENERAL || type > CUSPARSE_MATRIX_TYPE_TRIANGULAR)
    return CUSPARSE_STATUS_INVALID_VALUE;
  descrA->type = type;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseMatrixType_t CUSPARSEAPI cusparseGetMatType(const cusparseMatDescr_t descrA) {
  return descrA ? descrA->type : CUSPARSE_MATRIX_TYPE_GENERAL;
}

cusparseStatus_t CUSPARSEAPI cusparseSetMatFillMode(cusparseMatDescr_t descrA, cusparseFillMode_t fillMode) {
  if (!descrA || (fillMode != CUSPARSE_FILL_MODE_LOWER && fillMode != CUSPARSE_FILL_MODE_UPPER))
    return CUSPARSE_STATUS_INVALID_VALUE;
  descrA->fill_mode = fillMode;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseFillMode_t CUSPARSEAPI cusparseGetMatFillMode(const cusparseMatDescr_t descrA) {
  return descrA ? descrA->fill_mode : CUSPARSE_FILL_MODE_LOWER;
}

cusparseStatus_t CUSPARSEAPI cusparseSetMatDiagType(cusparseMatDescr_t descrA, cusparseDiagType_t diagType) {
  if (!descrA || (diagType != CUSPARSE_DIAG_TYPE_NON_UNIT && diagType != CUSPARSE_DIAG_TYPE_UNIT))
    return CUSPARSE_STATUS_INVALID_VALUE;
  descrA->diag_type = diagType;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseDiagType_t CUSPARSEAPI cusparseGetMatDiagType(const cusparseMatDescr_t descrA) {
  return descrA ? descrA->diag_type : CUSPARSE_DIAG_TYPE_NON_UNIT;
}

cusparseStatus_t CUSPARSEAPI cusparseSetMatIndexBase(cusparseMatDescr_t descrA, cusparseIndexBase_t base) {
  if (!descrA || (base != CUSPARSE_INDEX_BASE_ZERO && base != CUSPARSE_INDEX_BASE_ONE))
    return CUSPARSE_STATUS_INVALID_VALUE;
  descrA->index_base = base;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseIndexBase_t CUSPARSEAPI cusparseGetMatIndexBase(const cusparseMatDescr_t descrA) {
  return descrA ? descrA->index_base : CUSPARSE_INDEX_BASE_ZERO;
}

}  // extern "C"
