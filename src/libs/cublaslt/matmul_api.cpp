// cublasLtMatmul and its heuristic: D = epilogue(alpha op(A) op(B) + beta C) over the
// mixed-precision product cuBLAS's GemmEx uses (libs/cublas/mixed_gemm.h), queued on the
// given stream. Supported: column-major or (all four) row-major layouts, strided batches,
// host and device scalars, the epilogues of epilogue.h on real outputs (those with an
// auxiliary matrix or a bias gradient column-major only). Anything else (FP8 scaling, the
// bias gradients of DRELU and DGELU, other orders) is CUBLAS_STATUS_NOT_SUPPORTED, and the
// heuristic offers no algorithm for it.
#include <cublasLt.h>

#include <cmath>
#include <cstring>
#include <optional>

#include "libs/common/stream_work.h"
#include "libs/cublas/element_types.h"
#include "libs/cublas/mixed_gemm.h"
#include "libs/cublaslt/descriptors.h"
#include "libs/cublaslt/epilogue.h"

using namespace cucpu::cublaslt;
using cucpu::cublas::element_size;
using cucpu::cublas::MixedGemm;

namespace {

// A product cucpu can run, as column-major matrices (row-major layouts transposed) and what
// follows it.
struct Plan {
  MixedGemm product;
  cudaDataType d_type;
  int64_t ldd;
  int64_t batches;
  int64_t strides[4];  // A, B, C, D, in elements
  EpilogueOperands epilogue;
  int64_t bias_stride, aux_stride;
  bool device_scalars;
};

// What the epilogue needs of the descriptor's pointers (cublasLtMatmul checks them first,
// the heuristic not at all, as on the H200): a bias pointer exactly where the epilogue uses
// one (else INVALID_VALUE), an auxiliary pointer where it has an auxiliary matrix (else, on the
// H200, NOT_SUPPORTED).
cublasStatus_t check_epilogue_pointers(const MatmulDesc& d) {
  if (uses_bias_pointer(d.epilogue) != (d.bias != nullptr)) return CUBLAS_STATUS_INVALID_VALUE;
  if ((d.epilogue & kAux) && !d.aux) return CUBLAS_STATUS_NOT_SUPPORTED;
  return CUBLAS_STATUS_SUCCESS;
}

// What the epilogue needs of the shapes: an auxiliary leading dimension that holds a column of
// D (ReLU's mask: in bits, a multiple of 128), the operand a bias gradient sums over kept
// in its place (BGRADA: A not transposed; BGRADB: B transposed), column-major matrices.
cublasStatus_t check_epilogue_shapes(const MatmulDesc& d, uint64_t rows, bool row_major) {
  const bool aux = d.epilogue & kAux, bias_gradient = d.epilogue & (kBiasGradientA | kBiasGradientB);
  if ((aux || bias_gradient) && row_major) return CUBLAS_STATUS_NOT_SUPPORTED;
  if (aux && (d.aux_ld < static_cast<int64_t>(rows) || (uses_relu_mask(d.epilogue) && d.aux_ld % 128 != 0)))
    return CUBLAS_STATUS_INVALID_VALUE;
  if ((d.epilogue & kBiasGradientA) && d.transa != CUBLAS_OP_N) return CUBLAS_STATUS_NOT_SUPPORTED;
  if ((d.epilogue & kBiasGradientB) && d.transb == CUBLAS_OP_N) return CUBLAS_STATUS_NOT_SUPPORTED;
  return CUBLAS_STATUS_SUCCESS;
}

// The plan for these descriptors, or the status that refuses them.
cublasStatus_t make_plan(const MatmulDesc& d, const MatrixLayout& a, const MatrixLayout& b, const MatrixLayout& c,
                         const MatrixLayout& dd, Plan& plan) {
  const auto transa = static_cast<cublasOperation_t>(d.transa), transb = static_cast<cublasOperation_t>(d.transb);
  const bool op_ok = [](int op) { return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C; }(d.transa) &&
                     [](int op) { return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C; }(d.transb);
  if (!op_ok) return CUBLAS_STATUS_INVALID_VALUE;
  // D is m x n, op(A) m x k, op(B) k x n, C like D.
  const uint64_t m = dd.rows, n = dd.cols, k = transa == CUBLAS_OP_N ? a.cols : a.rows;
  if ((transa == CUBLAS_OP_N ? a.rows : a.cols) != m || (transb == CUBLAS_OP_N ? b.rows : b.cols) != k ||
      (transb == CUBLAS_OP_N ? b.cols : b.rows) != n || c.rows != m || c.cols != n)
    return CUBLAS_STATUS_INVALID_VALUE;
  const bool row = dd.order == CUBLASLT_ORDER_ROW;
  for (const MatrixLayout* l : {&a, &b, &c, &dd}) {
    if (l->order != dd.order || (l->order != CUBLASLT_ORDER_COL && l->order != CUBLASLT_ORDER_ROW))
      return CUBLAS_STATUS_NOT_SUPPORTED;
    if (l->ld < static_cast<int64_t>(std::max<uint64_t>(1, row ? l->cols : l->rows)))
      return CUBLAS_STATUS_INVALID_VALUE;
    if (l->batch_count != dd.batch_count) return CUBLAS_STATUS_INVALID_VALUE;
  }
  if (d.transc != CUBLAS_OP_N || !supported_epilogue(d.epilogue) ||
      (d.pointer_mode != CUBLASLT_POINTER_MODE_HOST && d.pointer_mode != CUBLASLT_POINTER_MODE_DEVICE))
    return CUBLAS_STATUS_NOT_SUPPORTED;
  for (const void* pointer : d.scale_pointers)
    if (pointer) return CUBLAS_STATUS_NOT_SUPPORTED;
  if (c.type != dd.type) return CUBLAS_STATUS_NOT_SUPPORTED;
  const auto how = cucpu::cublas::combination(static_cast<cublasComputeType_t>(d.compute), a.type, b.type, c.type);
  if (!how || how->scale != d.scale) return CUBLAS_STATUS_NOT_SUPPORTED;
  const bool complex = dd.type == CUDA_C_32F || dd.type == CUDA_C_64F;
  if (complex && d.epilogue != CUBLASLT_EPILOGUE_DEFAULT) return CUBLAS_STATUS_NOT_SUPPORTED;
  if (cublasStatus_t status = check_epilogue_shapes(d, m, row); status != CUBLAS_STATUS_SUCCESS) return status;
  // Row-major: the memory of each matrix is its transpose column-major, and D^T = op(B)^T op(A)^T.
  plan.product = row ? MixedGemm{transb,
                                 transa,
                                 static_cast<int64_t>(n),
                                 static_cast<int64_t>(m),
                                 static_cast<int64_t>(k),
                                 b.type,
                                 b.ld,
                                 a.type,
                                 a.ld,
                                 dd.type,
                                 dd.ld,
                                 *how}
                     : MixedGemm{transa,
                                 transb,
                                 static_cast<int64_t>(m),
                                 static_cast<int64_t>(n),
                                 static_cast<int64_t>(k),
                                 a.type,
                                 a.ld,
                                 b.type,
                                 b.ld,
                                 dd.type,
                                 dd.ld,
                                 *how};
  plan.d_type = dd.type;
  plan.ldd = dd.ld;
  plan.batches = dd.batch_count;
  plan.strides[0] = row ? b.batch_stride : a.batch_stride;
  plan.strides[1] = row ? a.batch_stride : b.batch_stride;
  plan.strides[2] = c.batch_stride;
  plan.strides[3] = dd.batch_stride;
  plan.epilogue = {d.epilogue,
                   dd.type,
                   dd.ld,
                   d.bias,
                   d.bias_type < 0 ? dd.type : static_cast<cudaDataType>(d.bias_type),
                   row,
                   d.epilogue & kAux ? d.aux : nullptr,
                   d.aux_type < 0 ? dd.type : static_cast<cudaDataType>(d.aux_type),
                   d.aux_ld};
  plan.bias_stride = d.bias_batch_stride;
  plan.aux_stride = d.aux_batch_stride;
  plan.device_scalars = d.pointer_mode == CUBLASLT_POINTER_MODE_DEVICE;
  if ((d.epilogue & CUBLASLT_EPILOGUE_BIAS) && !d.bias) return CUBLAS_STATUS_INVALID_VALUE;
  return CUBLAS_STATUS_SUCCESS;
}

// Copies C into D (column-major, rows x columns, elements of `size` bytes).
void copy_matrix(const void* C, int64_t ldc, void* D, int64_t ldd, int64_t rows, int64_t columns, size_t size) {
  for (int64_t j = 0; j < columns; ++j)
    std::memmove(static_cast<char*>(D) + j * ldd * size, static_cast<const char*>(C) + j * ldc * size, rows * size);
}

const char* offset(const void* base, int64_t elements, cudaDataType type) {
  return static_cast<const char*>(base) + elements * static_cast<int64_t>(element_size(type));
}

}  // namespace

extern "C" {

cublasStatus_t CUBLASWINAPI cublasLtMatmulAlgoGetHeuristic(
    cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t operationDesc, cublasLtMatrixLayout_t Adesc,
    cublasLtMatrixLayout_t Bdesc, cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
    cublasLtMatmulPreference_t preference, int requestedAlgoCount,
    cublasLtMatmulHeuristicResult_t heuristicResultsArray[], int* returnAlgoCount) {
  if (!lightHandle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!operationDesc || !Adesc || !Bdesc || !Cdesc || !Ddesc || !preference || requestedAlgoCount <= 0 ||
      !heuristicResultsArray || !returnAlgoCount)
    return CUBLAS_STATUS_INVALID_VALUE;
  *returnAlgoCount = 0;
  Plan plan;
  if (cublasStatus_t status =
          make_plan(desc(operationDesc), layout(Adesc), layout(Bdesc), layout(Cdesc), layout(Ddesc), plan);
      status != CUBLAS_STATUS_SUCCESS)
    return status;
  // One algorithm: the CPU's, which needs no workspace.
  heuristicResultsArray[0] = {};
  heuristicResultsArray[0].algo.data[0] = 1;
  heuristicResultsArray[0].workspaceSize = 0;
  heuristicResultsArray[0].state = CUBLAS_STATUS_SUCCESS;
  heuristicResultsArray[0].wavesCount = 1.0f;
  *returnAlgoCount = 1;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasLtMatmul(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t computeDesc,
                                           const void* alpha, const void* A, cublasLtMatrixLayout_t Adesc,
                                           const void* B, cublasLtMatrixLayout_t Bdesc, const void* beta, const void* C,
                                           cublasLtMatrixLayout_t Cdesc, void* D, cublasLtMatrixLayout_t Ddesc,
                                           const cublasLtMatmulAlgo_t*, void*, size_t, cudaStream_t stream) {
  if (!lightHandle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!computeDesc || !Adesc || !Bdesc || !Cdesc || !Ddesc || !alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
  if (cublasStatus_t status = check_epilogue_pointers(desc(computeDesc)); status != CUBLAS_STATUS_SUCCESS)
    return status;
  Plan plan;
  if (cublasStatus_t status =
          make_plan(desc(computeDesc), layout(Adesc), layout(Bdesc), layout(Cdesc), layout(Ddesc), plan);
      status != CUBLAS_STATUS_SUCCESS)
    return status;
  if (plan.product.m == 0 || plan.product.n == 0 || plan.batches == 0) return CUBLAS_STATUS_SUCCESS;
  // Host scalars are read now, device ones when the work runs.
  const size_t scale_size = element_size(plan.product.how.scale);
  unsigned char host_alpha[16] = {}, host_beta[16] = {};
  if (!plan.device_scalars) std::memcpy(host_alpha, alpha, scale_size), std::memcpy(host_beta, beta, scale_size);
  const int64_t ldc = layout(Cdesc).ld;
  auto queued = cucpu::libs::enqueue(
      stream, "cublasLtMatmul",
      {{plan.device_scalars ? alpha : nullptr, plan.device_scalars ? scale_size : 0},
       {plan.device_scalars ? beta : nullptr, plan.device_scalars ? scale_size : 0}},
      [=] {
        const void* alpha_value = plan.device_scalars ? alpha : host_alpha;
        const void* beta_value = plan.device_scalars ? beta : host_beta;
        const MixedGemm& g = plan.product;
        const auto a = g.transa == CUBLAS_OP_N ? std::pair{g.m, g.k} : std::pair{g.k, g.m};
        const auto b = g.transb == CUBLAS_OP_N ? std::pair{g.k, g.n} : std::pair{g.n, g.k};
        const size_t d_size = element_size(plan.d_type);
        const auto extent = [](int64_t rows, int64_t columns, int64_t ld, size_t size) {
          return rows > 0 && columns > 0 ? static_cast<size_t>((columns - 1) * ld + rows) * size : 0;
        };
        for (int64_t i = 0; i < plan.batches; ++i) {
          const char* a_i = offset(plan.epilogue.bias_per_column ? B : A, i * plan.strides[0], g.a_type);
          const char* b_i = offset(plan.epilogue.bias_per_column ? A : B, i * plan.strides[1], g.b_type);
          const char* c_i = offset(C, i * plan.strides[2], plan.d_type);
          char* d_i = const_cast<char*>(offset(D, i * plan.strides[3], plan.d_type));
          EpilogueOperands epilogue = plan.epilogue;
          if (epilogue.bias) epilogue.bias = offset(epilogue.bias, i * plan.bias_stride, epilogue.bias_type);
          if (epilogue.aux)
            epilogue.aux = const_cast<char*>(uses_relu_mask(epilogue.epilogue)
                                                 ? static_cast<const char*>(epilogue.aux) + i * plan.aux_stride / 8
                                                 : offset(epilogue.aux, i * plan.aux_stride, epilogue.aux_type));
          if (!cucpu::libs::require_device_memory("cublasLtMatmul",
                                                  {a_i, extent(a.first, a.second, g.lda, element_size(g.a_type))}) ||
              !cucpu::libs::require_device_memory("cublasLtMatmul",
                                                  {b_i, extent(b.first, b.second, g.ldb, element_size(g.b_type))}) ||
              !cucpu::libs::require_device_memory("cublasLtMatmul", {c_i, extent(g.m, g.n, ldc, d_size)}) ||
              !cucpu::libs::require_device_memory("cublasLtMatmul", {d_i, extent(g.m, g.n, plan.ldd, d_size)}))
            return;
          const int64_t bias_count = (epilogue.epilogue & kBiasGradientB) || epilogue.bias_per_column ? g.n : g.m;
          const size_t aux_bytes = uses_relu_mask(epilogue.epilogue)
                                       ? static_cast<size_t>(g.n * epilogue.aux_ld / 8)
                                       : extent(g.m, g.n, epilogue.aux_ld, element_size(epilogue.aux_type));
          if (!cucpu::libs::require_device_memory(
                  "cublasLtMatmul",
                  {epilogue.bias, epilogue.bias ? bias_count * element_size(epilogue.bias_type) : 0}) ||
              !cucpu::libs::require_device_memory("cublasLtMatmul", {epilogue.aux, epilogue.aux ? aux_bytes : 0}))
            return;
          if (c_i != d_i) copy_matrix(c_i, ldc, d_i, plan.ldd, g.m, g.n, d_size);
          cucpu::cublas::multiply(g, alpha_value, beta_value, a_i, b_i, d_i);
          apply_epilogue(g, epilogue, d_i, a_i, b_i);
        }
      });
  if (!queued) return CUBLAS_STATUS_EXECUTION_FAILED;
  return CUBLAS_STATUS_SUCCESS;
}

}  // extern "C"
