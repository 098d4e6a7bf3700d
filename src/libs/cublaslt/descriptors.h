// cublasLt's descriptors (matrix layouts, matmul operations, preferences) as cucpu keeps
// them: each in the semi-opaque storage cublasLt.h gives it, so that a program may place one
// on its stack (cublasLtMatrixLayoutInit) as well as create it; and the attributes each
// holds, read and written by number through one table.
#pragma once

#include <cublasLt.h>

#include <cstddef>
#include <cstdint>

namespace cucpu::cublaslt {

struct MatrixLayout {
  cudaDataType type = CUDA_R_32F;
  int32_t order = CUBLASLT_ORDER_COL;
  uint64_t rows = 0, cols = 0;
  int64_t ld = 0;
  int32_t batch_count = 1;
  int64_t batch_stride = 0;  // elements between batch entries
  int64_t plane_offset = 0;
  int32_t batch_mode = 0;
};
static_assert(sizeof(MatrixLayout) <= sizeof(cublasLtMatrixLayoutOpaque_t));

struct MatmulDesc {
  int32_t compute = CUBLAS_COMPUTE_32F;  // cublasComputeType_t
  int32_t scale = CUDA_R_32F;            // cudaDataType
  int32_t pointer_mode = CUBLASLT_POINTER_MODE_HOST;
  int32_t transa = CUBLAS_OP_N, transb = CUBLAS_OP_N, transc = CUBLAS_OP_N;
  int32_t fill_mode = CUBLAS_FILL_MODE_FULL;
  uint32_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
  const void* bias = nullptr;
  int64_t bias_batch_stride = 0;
  int32_t bias_type = -1;  // -1: D's type
  void* aux = nullptr;     // epilogue auxiliary output (not supported when set)
  int64_t aux_ld = 0, aux_batch_stride = 0;
  int64_t alpha_vector_batch_stride = 0;
  int32_t sm_count_target = 0;
  int32_t aux_type = -1;
  int8_t fast_accumulate = 0;
  // FP8 scaling pointers: products with them set are not supported yet.
  const void* scale_pointers[5] = {};  // A, B, C, D, D out
};
static_assert(sizeof(MatmulDesc) <= sizeof(cublasLtMatmulDescOpaque_t));

struct MatmulPreference {
  uint32_t search_mode = 0;
  uint64_t max_workspace_bytes = 0;
  uint32_t reduction_scheme_mask = 0xff;
  uint32_t min_alignment[4] = {256, 256, 256, 256};  // A, B, C, D
  float max_waves = 0;
  uint64_t impl_mask = ~0ull;
};
static_assert(sizeof(MatmulPreference) <= sizeof(cublasLtMatmulPreferenceOpaque_t));

inline MatrixLayout& layout(cublasLtMatrixLayout_t handle) { return *reinterpret_cast<MatrixLayout*>(handle); }
inline MatmulDesc& desc(cublasLtMatmulDesc_t handle) { return *reinterpret_cast<MatmulDesc*>(handle); }
inline MatmulPreference& preference(cublasLtMatmulPreference_t handle) {
  return *reinterpret_cast<MatmulPreference*>(handle);
}

// Where an attribute lives in its descriptor and how many bytes it has (address null: no
// such attribute).
struct Field {
  void* address = nullptr;
  size_t size = 0;
};
Field field(MatrixLayout& layout, cublasLtMatrixLayoutAttribute_t attribute);
Field field(MatmulDesc& desc, cublasLtMatmulDescAttributes_t attribute);
Field field(MatmulPreference& preference, cublasLtMatmulPreferenceAttributes_t attribute);

// cublasLt*SetAttribute: the value's size must be the attribute's.
cublasStatus_t set_field(Field field, const void* buffer, size_t size);
// cublasLt*GetAttribute: with sizeInBytes 0 it only says the size (sizeWritten).
cublasStatus_t get_field(Field field, void* buffer, size_t size, size_t* written);

}  // namespace cucpu::cublaslt
