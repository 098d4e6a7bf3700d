#include "libs/cublaslt/descriptors.h"

#include <cstring>

namespace cucpu::cublaslt {
namespace {

template <typename T>
Field at(T& value) {
  return {&value, sizeof value};
}

}  // namespace

Field field(MatrixLayout& l, cublasLtMatrixLayoutAttribute_t attribute) {
  switch (attribute) {
    case CUBLASLT_MATRIX_LAYOUT_TYPE:
      return at(l.type);
    case CUBLASLT_MATRIX_LAYOUT_ORDER:
      return at(l.order);
    case CUBLASLT_MATRIX_LAYOUT_ROWS:
      return at(l.rows);
    case CUBLASLT_MATRIX_LAYOUT_COLS:
      return at(l.cols);
    case CUBLASLT_MATRIX_LAYOUT_LD:
      return at(l.ld);
    case CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT:
      return at(l.batch_count);
    case CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET:
      return at(l.batch_stride);
    case CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET:
      return at(l.plane_offset);
    case CUBLASLT_MATRIX_LAYOUT_BATCH_MODE:
      return at(l.batch_mode);
  }
  return {};
}

Field field(MatmulDesc& d, cublasLtMatmulDescAttributes_t attribute) {
  switch (attribute) {
    case CUBLASLT_MATMUL_DESC_COMPUTE_TYPE:
      return at(d.compute);
    case CUBLASLT_MATMUL_DESC_SCALE_TYPE:
      return at(d.scale);
    case CUBLASLT_MATMUL_DESC_POINTER_MODE:
      return at(d.pointer_mode);
    case CUBLASLT_MATMUL_DESC_TRANSA:
      return at(d.transa);
    case CUBLASLT_MATMUL_DESC_TRANSB:
      return at(d.transb);
    case CUBLASLT_MATMUL_DESC_TRANSC:
      return at(d.transc);
    case CUBLASLT_MATMUL_DESC_FILL_MODE:
      return at(d.fill_mode);
    case CUBLASLT_MATMUL_DESC_EPILOGUE:
      return at(d.epilogue);
    case CUBLASLT_MATMUL_DESC_BIAS_POINTER:
      return at(d.bias);
    case CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE:
      return at(d.bias_batch_stride);
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER:
      return at(d.aux);
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD:
      return at(d.aux_ld);
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE:
      return at(d.aux_batch_stride);
    case CUBLASLT_MATMUL_DESC_ALPHA_VECTOR_BATCH_STRIDE:
      return at(d.alpha_vector_batch_stride);
    case CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET:
      return at(d.sm_count_target);
    case CUBLASLT_MATMUL_DESC_A_SCALE_POINTER:
      return at(d.scale_pointers[0]);
    case CUBLASLT_MATMUL_DESC_B_SCALE_POINTER:
      return at(d.scale_pointers[1]);
    case CUBLASLT_MATMUL_DESC_C_SCALE_POINTER:
      return at(d.scale_pointers[2]);
    case CUBLASLT_MATMUL_DESC_D_SCALE_POINTER:
      return at(d.scale_pointers[3]);
    case CUBLASLT_MATMUL_DESC_D_OUT_SCALE_POINTER:
      return at(d.scale_pointers[4]);
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE:
      return at(d.aux_type);
    case CUBLASLT_MATMUL_DESC_FAST_ACCUM:
      return at(d.fast_accumulate);
    case CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE:
      return at(d.bias_type);
    default:
      return {};
  }
}

Field field(MatmulPreference& p, cublasLtMatmulPreferenceAttributes_t attribute) {
  switch (attribute) {
    case CUBLASLT_MATMUL_PREF_SEARCH_MODE:
      return at(p.search_mode);
    case CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES:
      return at(p.max_workspace_bytes);
    case CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK:
      return at(p.reduction_scheme_mask);
    case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES:
      return at(p.min_alignment[0]);
    case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES:
      return at(p.min_alignment[1]);
    case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES:
      return at(p.min_alignment[2]);
    case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES:
      return at(p.min_alignment[3]);
    case CUBLASLT_MATMUL_PREF_MAX_WAVES_COUNT:
      return at(p.max_waves);
    case CUBLASLT_MATMUL_PREF_IMPL_MASK:
      return at(p.impl_mask);
    default:
      return {};
  }
}

cublasStatus_t set_field(Field field, const void* buffer, size_t size) {
  if (!field.address || !buffer || size != field.size) return CUBLAS_STATUS_INVALID_VALUE;
  std::memcpy(field.address, buffer, size);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t get_field(Field field, void* buffer, size_t size, size_t* written) {
  if (!field.address) return CUBLAS_STATUS_INVALID_VALUE;
  if (size == 0 && written) {
    *written = field.size;
    return CUBLAS_STATUS_SUCCESS;
  }
  if (!buffer || size < field.size) return CUBLAS_STATUS_INVALID_VALUE;
  std::memcpy(buffer, field.address, field.size);
  if (written) *written = field.size;
  return CUBLAS_STATUS_SUCCESS;
}

}  // namespace cucpu::cublaslt
