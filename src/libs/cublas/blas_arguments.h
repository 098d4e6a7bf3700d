// cuBLAS's enumerations as CBLAS takes them, and the argument checks its routines share.
#pragma once

#include <cblas.h>
#include <cublas_api.h>

#include <algorithm>
#include <cstdint>
#include <limits>

#include "libs/cublas/handle.h"

namespace cucpu::cublas {

inline bool valid(cublasOperation_t op) { return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C; }
inline bool valid(cublasFillMode_t fill) { return fill == CUBLAS_FILL_MODE_LOWER || fill == CUBLAS_FILL_MODE_UPPER; }
inline bool valid(cublasSideMode_t side) { return side == CUBLAS_SIDE_LEFT || side == CUBLAS_SIDE_RIGHT; }
inline bool valid(cublasDiagType_t diag) { return diag == CUBLAS_DIAG_NON_UNIT || diag == CUBLAS_DIAG_UNIT; }

inline CBLAS_TRANSPOSE to_cblas(cublasOperation_t op) {
  return op == CUBLAS_OP_N ? CblasNoTrans : op == CUBLAS_OP_T ? CblasTrans : CblasConjTrans;
}
inline CBLAS_UPLO to_cblas(cublasFillMode_t fill) { return fill == CUBLAS_FILL_MODE_LOWER ? CblasLower : CblasUpper; }
inline CBLAS_SIDE to_cblas(cublasSideMode_t side) { return side == CUBLAS_SIDE_LEFT ? CblasLeft : CblasRight; }
inline CBLAS_DIAG to_cblas(cublasDiagType_t diag) { return diag == CUBLAS_DIAG_UNIT ? CblasUnit : CblasNonUnit; }

// A leading dimension is valid when it is at least the rows it holds (and at least 1).
template <typename Index>
bool leading_ok(Index ld, Index rows) {
  return ld >= std::max<Index>(1, rows);
}

// The 64-bit entry points (cublasSgemm_64, ...): sizes that OpenBLAS's 32-bit indices
// cannot hold are refused as unsupported.
template <typename... Index>
bool fits_blas(Index... values) {
  return ((static_cast<int64_t>(values) <= std::numeric_limits<int>::max() &&
           static_cast<int64_t>(values) >= std::numeric_limits<int>::min()) &&
          ...);
}

// How many rows and columns X has where op(X) is rows x columns.
template <typename I>
struct Shape {
  I rows, columns;
};
template <typename I>
Shape<I> operand(cublasOperation_t op, I rows, I columns) {
  return op == CUBLAS_OP_N ? Shape<I>{rows, columns} : Shape<I>{columns, rows};
}

template <typename T, typename I>
DeviceRange matrix(const T* base, Shape<I> shape, I ld) {
  return matrix_range(base, shape.rows, shape.columns, ld, sizeof(T));
}

// gemm's checks: C (m x n) = op(A) (m x k) op(B) (k x n). The transposes and sizes are
// parameters 1 to 5 of every gemm; the leading dimensions' positions differ (strided forms).
struct GemmPositions {
  int lda, ldb, ldc;
};
constexpr GemmPositions kGemmPositions{8, 10, 13};

// The position of gemm's first bad argument, or 0.
template <typename I>
int gemm_broken_parameter(cublasOperation_t transa, cublasOperation_t transb, I m, I n, I k, I lda, I ldb, I ldc,
                          GemmPositions at) {
  return first_broken({{valid(transa), 1},
                       {valid(transb), 2},
                       {m >= 0, 3},
                       {n >= 0, 4},
                       {k >= 0, 5},
                       {leading_ok(lda, operand(transa, m, k).rows), at.lda},
                       {leading_ok(ldb, operand(transb, k, n).rows), at.ldb},
                       {leading_ok(ldc, m), at.ldc}});
}

}  // namespace cucpu::cublas
