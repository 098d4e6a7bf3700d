// cusolverSp's linear solvers over Eigen 3's sparse factorizations: csrlsvchol/qr/lu (square
// systems), csrlsqvqr (least squares) and csrqrsvBatched (many systems of one pattern), S/D/C/Z.
// The Host functions run at the call on host memory; the device ones queue their work on the
// handle's stream (src/libs/common/stream_work.h), and wait for it where a result comes back
// through a host pointer (`singularity`).
//
// csrlsv* reorder A symmetrically as `reorder` asks (0: none, 1: symrcm, 2: symamd, 3:
// metisnd), then factor the reordered matrix: Cholesky by Eigen's SimplicialLDLT (its pivots
// D(j) = L(j,j)^2 say where an LL^T factorization breaks down), LU by Eigen's SparseLU (COLAMD
// inside) and QR by Eigen's SparseQR in the reordered matrix's column order. `singularity` is
// the index of the first pivot whose magnitude is at most `tol` (see solve), or -1.
#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>
#include <Eigen/SparseQR>
#include <algorithm>
#include <new>
#include <vector>

#include "libs/cusolver/sparse_factors.h"
#include "libs/cusolver/sparse_matrix.h"
#include "libs/cusolver/sparse_orderings.h"

namespace cucpu::cusolver::sparse {
namespace {

enum class Factorization { Cholesky, QR, LU };

// In the matrix's own column order: Eigen's SparseQR fills R almost completely under a COLAMD
// column order on a 2D Laplacian (nnz(R) 4.7M instead of 2M at n = 10,000, 25 times the
// time), since its Householder rows are not reordered to match. Columns whose norm falls to
// `tol` are moved to the end (colsPermutation), which is how it reports rank.
template <typename M>
using QR = Eigen::SparseQR<SparseMatrix<M>, Eigen::NaturalOrdering<int>>;

// SparseLU with the diagonal of U in reach (Eigen keeps it in the supernodal L store).
template <typename M>
struct LuFactorization : Eigen::SparseLU<SparseMatrix<M>, Eigen::COLAMDOrdering<int>> {
  using Base = Eigen::SparseLU<SparseMatrix<M>, Eigen::COLAMDOrdering<int>>;
  // The first column j (in the factor's order) whose pivot |U(j,j)| is at most tol, or -1.
  int first_small_pivot(double tol) const {
    for (int j = 0; j < this->cols(); ++j) {
      double pivot = 0;
      for (typename Base::SCMatrix::InnerIterator it(this->m_Lstore, j); it; ++it)
        if (it.index() == j) pivot = std::abs(it.value());
      if (!(pivot > tol)) return j;
    }
    return -1;
  }
};

// The first column of a QR factorization whose |R(j,j)| is at most tol, as a column of the
// factored matrix, or -1.
template <typename M>
int first_small_pivot(const QR<M>& qr, double tol) {
  const SparseMatrix<M> r = qr.matrixR();
  for (int j = 0; j < std::min(r.rows(), r.cols()); ++j)
    if (!(std::abs(r.coeff(j, j)) > tol)) return qr.colsPermutation().indices()(j);
  return r.rows() < r.cols() ? qr.colsPermutation().indices()(r.rows()) : -1;
}

// Where a factorization found its first small pivot: index -1 if none.
struct Singularity {
  int index = -1;
  bool breakdown = false;  // a Cholesky pivot that is not positive (rather than one at most tol)
};

// Solves a y = b with the chosen factorization, or says where (a's zero-based index) the first
// small pivot is.
template <typename M>
Singularity solve_factored(Factorization kind, const SparseMatrix<M>& a, const Vector<M>& b, double tol, Vector<M>& y) {
  const int n = static_cast<int>(a.rows());
  switch (kind) {
    case Factorization::Cholesky: {
      // Eigen stops at an exactly zero pivot, leaving those after it unwritten: the scan stops
      // there first.
      Eigen::SimplicialLDLT<SparseMatrix<M>, Eigen::Lower, Eigen::NaturalOrdering<int>> ldlt(a);
      const auto& d = ldlt.vectorD();
      for (int j = 0; j < n; ++j) {
        const double pivot = std::real(d(j));  // an LL^T factorization needs it positive
        if (!(pivot > 0)) return {j, true};
        if (std::sqrt(pivot) <= tol) return {j, false};
      }
      if (ldlt.info() != Eigen::Success) return {0, true};
      y = ldlt.solve(b);
      return {};
    }
    case Factorization::LU: {
      LuFactorization<M> lu;
      lu.analyzePattern(a);
      lu.factorize(a);
      if (lu.info() == Eigen::Success) {
        const int small = lu.first_small_pivot(tol);
        if (small < 0) {
          y = lu.solve(b);
          return {};
        }
        // The factored matrix is A Pc^-1: its column k is A's column i where Pc maps i to k.
        const auto& pc = lu.colsPermutation().indices();
        return {static_cast<int>(std::find(pc.data(), pc.data() + n, small) - pc.data())};
      }
      [[fallthrough]];  // an exactly zero pivot: QR says where
    }
    case Factorization::QR: {
      QR<M> qr;
      qr.setPivotThreshold(tol);
      qr.compute(a);
      if (qr.info() != Eigen::Success) return {0};
      const int small = first_small_pivot(qr, tol);
      if (small < 0) y = qr.solve(b);
      return {small};
    }
  }
  return {0};
}

// Whether every diagonal entry is in the matrix's pattern.
template <typename M>
bool has_diagonal(const SparseMatrix<M>& a) {
  for (int j = 0; j < a.outerSize(); ++j) {
    bool found = false;
    for (typename SparseMatrix<M>::InnerIterator it(a, j); it && !found; ++it) found = it.index() == j;
    if (!found) return false;
  }
  return true;
}

// The whole csrlsv* on host memory: reorder, factor, solve, write x and singularity. As on the
// H200, `singularity` is an index of the reordered matrix (the R(j,j) or U(j,j) of cuSOLVER's
// documentation), not of A; Cholesky says 0 when a diagonal entry is missing from the pattern;
// the device's Cholesky (`device`) says j + 1 for a pivot j that is not positive (but j for one
// at most tol).
template <typename T>
void solve(Factorization kind, bool device, int n, int nnz, int base, const T* values, const int* row_ptr,
           const int* col_ind, const T* b, double tol, int reorder, T* x, int* singularity) {
  const std::vector<int> p = fill_reducing_order(static_cast<Ordering>(reorder), n, base, row_ptr, col_ind);
  std::vector<int> position(n);  // position[old] = new
  for (int i = 0; i < n; ++i) position[p[i]] = i;
  const auto a = to_eigen(n, n, nnz, base, values, row_ptr, col_ind, &position, &position);
  const auto original_b = vector_of(b, n);
  Vector<MathOf<T>> reordered_b(n), y;
  for (int i = 0; i < n; ++i) reordered_b(i) = original_b(p[i]);
  const Singularity found = kind == Factorization::Cholesky && !has_diagonal(a)
                                ? Singularity{0, true}
                                : solve_factored(kind, a, reordered_b, tol, y);
  *singularity = found.index + (found.index >= 0 && device && found.breakdown ? 1 : 0);
  if (found.index >= 0) return;
  auto out = vector_of(x, n);
  for (int i = 0; i < n; ++i) out(p[i]) = y(i);
}

template <typename T>
cusolverStatus_t check_lsv(cusolverSpHandle_t handle, int n, int nnz, cusparseMatDescr_t descr, const T* values,
                           const int* row_ptr, const int* col_ind, const T* b, int reorder, const T* x,
                           const int* singularity) {
  if (auto status = check_matrix(handle, n, n, nnz, descr, row_ptr, col_ind); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  // As on the H200: n = 0 is refused, a negative tol is not.
  if (n == 0 || (nnz > 0 && !values) || !b || !x || !singularity || reorder < 0 || reorder > 3)
    return CUSOLVER_STATUS_INVALID_VALUE;
  return CUSOLVER_STATUS_SUCCESS;
}

// A csrlsv* call: on the host (the Host functions) or on the device, which waits for its work
// since `singularity` is a host pointer.
template <typename T>
cusolverStatus_t lsv(Factorization kind, bool device, const char* function, cusolverSpHandle_t handle, int n, int nnz,
                     cusparseMatDescr_t descr, const T* values, const int* row_ptr, const int* col_ind, const T* b,
                     double tol, int reorder, T* x, int* singularity) {
  if (auto status = check_lsv(handle, n, nnz, descr, values, row_ptr, col_ind, b, reorder, x, singularity);
      status != CUSOLVER_STATUS_SUCCESS)
    return status;
  const int base = base_of(descr);
  return run_step(
      device, handle, function,
      {elements(row_ptr, n + 1), elements(col_ind, nnz), elements(values, nnz), elements(b, n), elements(x, n)},
      [=] { solve(kind, device, n, nnz, base, values, row_ptr, col_ind, b, tol, reorder, x, singularity); }, true);
}

// min |b - A x| by QR with column pivoting (columns whose norm falls to tol go last): the
// rank, a solution (the basic one when A is rank deficient), the column permutation p (A(:, p)
// = QR) and the residual's norm.
template <typename T, typename R>
cusolverStatus_t least_squares(cusolverSpHandle_t handle, int m, int n, int nnz, cusparseMatDescr_t descr,
                               const T* values, const int* row_ptr, const int* col_ind, const T* b, R tol, int* rank,
                               T* x, int* p, R* min_norm) {
  if (auto status = check_matrix(handle, m, n, nnz, descr, row_ptr, col_ind); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  if (m < n || (nnz > 0 && !values) || (m > 0 && !b) || (n > 0 && (!x || !p)) || !rank || !min_norm || tol < 0)
    return CUSOLVER_STATUS_INVALID_VALUE;
  try {
    using M = MathOf<T>;
    const auto a = to_eigen(m, n, nnz, base_of(descr), values, row_ptr, col_ind);
    QR<M> qr;
    qr.setPivotThreshold(tol);
    qr.compute(a);
    if (qr.info() != Eigen::Success) return CUSOLVER_STATUS_EXECUTION_FAILED;
    const Vector<M> rhs = vector_of(b, m);
    const Vector<M> solution = qr.solve(rhs);
    vector_of(x, n) = solution;
    *rank = static_cast<int>(qr.rank());
    *min_norm = static_cast<R>((a * solution - rhs).norm());
    std::copy(qr.colsPermutation().indices().data(), qr.colsPermutation().indices().data() + n, p);
  } catch (const std::bad_alloc&) {
    return CUSOLVER_STATUS_ALLOC_FAILED;
  }
  return CUSOLVER_STATUS_SUCCESS;
}

// ---- csrqrsvBatched: batchSize systems A_j x_j = b_j of one pattern, by QR ----

cusolverStatus_t check_batched(cusolverSpHandle_t handle, int m, int n, int nnz, cusparseMatDescr_t descr,
                               const int* row_ptr, const int* col_ind, csrqrInfo_t info) {
  if (auto status = check_matrix(handle, m, n, nnz, descr, row_ptr, col_ind); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  if (!info || m < n) return CUSOLVER_STATUS_INVALID_VALUE;
  return CUSOLVER_STATUS_SUCCESS;
}

template <typename T>
cusolverStatus_t qr_buffer_info(cusolverSpHandle_t handle, int m, int n, int nnz, cusparseMatDescr_t descr,
                                const T* values, const int* row_ptr, const int* col_ind, int batch, csrqrInfo_t info,
                                size_t* internal_bytes, size_t* workspace_bytes) {
  if (auto status = check_batched(handle, m, n, nnz, descr, row_ptr, col_ind, info); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  if ((nnz > 0 && !values) || batch < 0 || !internal_bytes || !workspace_bytes) return CUSOLVER_STATUS_INVALID_VALUE;
  if (!info->batch_analysed) return CUSOLVER_STATUS_INVALID_VALUE;
  // The factors live on the host; the caller's workspace is not used, but one is asked for
  // (NULL would pass every check but a CUDA program's own).
  *internal_bytes = 0;
  *workspace_bytes = sizeof(T);
  return CUSOLVER_STATUS_SUCCESS;
}

template <typename T>
cusolverStatus_t qr_solve_batched(const char* function, cusolverSpHandle_t handle, int m, int n, int nnz,
                                  cusparseMatDescr_t descr, const T* values, const int* row_ptr, const int* col_ind,
                                  const T* b, T* x, int batch, csrqrInfo_t info) {
  if (auto status = check_batched(handle, m, n, nnz, descr, row_ptr, col_ind, info); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  if ((nnz > 0 && !values) || (m > 0 && !b) || (n > 0 && !x) || batch < 0) return CUSOLVER_STATUS_INVALID_VALUE;
  if (!info->batch_analysed) return CUSOLVER_STATUS_INVALID_VALUE;
  const int base = base_of(descr);
  const size_t count = static_cast<size_t>(batch);
  return run_on_stream(
      handle, function,
      {{row_ptr, (static_cast<size_t>(m) + 1) * sizeof(int)},
       {col_ind, static_cast<size_t>(nnz) * sizeof(int)},
       {values, count * nnz * sizeof(T)},
       {b, count * m * sizeof(T)},
       {x, count * n * sizeof(T)}},
      [=] {
        for (int j = 0; j < batch; ++j) {
          QR<MathOf<T>> qr;
          qr.compute(to_eigen(m, n, nnz, base, values + static_cast<size_t>(j) * nnz, row_ptr, col_ind));
          if (qr.info() == Eigen::Success)
            vector_of(x + static_cast<size_t>(j) * n, n) = qr.solve(vector_of(b + static_cast<size_t>(j) * m, m));
        }
      },
      false);
}

}  // namespace
}  // namespace cucpu::cusolver::sparse

using namespace cucpu::cusolver::sparse;

extern "C" {

cusolverStatus_t CUSOLVERAPI cusolverSpCreateCsrqrInfo(csrqrInfo_t* info) {
  if (!info) return CUSOLVER_STATUS_INVALID_VALUE;
  *info = new (std::nothrow) csrqrInfo;
  return *info ? CUSOLVER_STATUS_SUCCESS : CUSOLVER_STATUS_ALLOC_FAILED;
}

cusolverStatus_t CUSOLVERAPI cusolverSpDestroyCsrqrInfo(csrqrInfo_t info) {
  if (!info) return CUSOLVER_STATUS_INVALID_VALUE;
  delete info;
  return CUSOLVER_STATUS_SUCCESS;
}

// The pattern's analysis: QR is done per system at the solve, so only the sizes are kept.
cusolverStatus_t CUSOLVERAPI cusolverSpXcsrqrAnalysisBatched(cusolverSpHandle_t handle, int m, int n, int nnzA,
                                                             const cusparseMatDescr_t descrA, const int* csrRowPtrA,
                                                             const int* csrColIndA, csrqrInfo_t info) {
  if (auto status = check_batched(handle, m, n, nnzA, descrA, csrRowPtrA, csrColIndA, info);
      status != CUSOLVER_STATUS_SUCCESS)
    return status;
  info->m = m;
  info->n = n;
  info->nnz = nnzA;
  info->batch_analysed = true;
  return CUSOLVER_STATUS_SUCCESS;
}

#define CUCPU_SPARSE_SOLVERS(prefix, T, R)                                                                             \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrlsvluHost(                                                       \
      cusolverSpHandle_t handle, int n, int nnzA, const cusparseMatDescr_t descrA, const T* csrValA,                   \
      const int* csrRowPtrA, const int* csrColIndA, const T* b, R tol, int reorder, T* x, int* singularity) {          \
    return lsv(Factorization::LU, false, "cusolverSp" #prefix "csrlsvluHost", handle, n, nnzA, descrA, csrValA,        \
               csrRowPtrA, csrColIndA, b, tol, reorder, x, singularity);                                               \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrlsvqrHost(                                                       \
      cusolverSpHandle_t handle, int n, int nnzA, const cusparseMatDescr_t descrA, const T* csrValA,                   \
      const int* csrRowPtrA, const int* csrColIndA, const T* b, R tol, int reorder, T* x, int* singularity) {          \
    return lsv(Factorization::QR, false, "cusolverSp" #prefix "csrlsvqrHost", handle, n, nnzA, descrA, csrValA,        \
               csrRowPtrA, csrColIndA, b, tol, reorder, x, singularity);                                               \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrlsvcholHost(                                                     \
      cusolverSpHandle_t handle, int n, int nnzA, const cusparseMatDescr_t descrA, const T* csrValA,                   \
      const int* csrRowPtrA, const int* csrColIndA, const T* b, R tol, int reorder, T* x, int* singularity) {          \
    return lsv(Factorization::Cholesky, false, "cusolverSp" #prefix "csrlsvcholHost", handle, n, nnzA, descrA,         \
               csrValA, csrRowPtrA, csrColIndA, b, tol, reorder, x, singularity);                                      \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrlsvqr(                                                           \
      cusolverSpHandle_t handle, int n, int nnzA, const cusparseMatDescr_t descrA, const T* csrValA,                   \
      const int* csrRowPtrA, const int* csrColIndA, const T* b, R tol, int reorder, T* x, int* singularity) {          \
    return lsv(Factorization::QR, true, "cusolverSp" #prefix "csrlsvqr", handle, n, nnzA, descrA, csrValA, csrRowPtrA, \
               csrColIndA, b, tol, reorder, x, singularity);                                                           \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrlsvchol(                                                         \
      cusolverSpHandle_t handle, int n, int nnzA, const cusparseMatDescr_t descrA, const T* csrValA,                   \
      const int* csrRowPtrA, const int* csrColIndA, const T* b, R tol, int reorder, T* x, int* singularity) {          \
    return lsv(Factorization::Cholesky, true, "cusolverSp" #prefix "csrlsvchol", handle, n, nnzA, descrA, csrValA,     \
               csrRowPtrA, csrColIndA, b, tol, reorder, x, singularity);                                               \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrlsqvqrHost(                                                      \
      cusolverSpHandle_t handle, int m, int n, int nnz, const cusparseMatDescr_t descrA, const T* csrValA,             \
      const int* csrRowPtrA, const int* csrColIndA, const T* b, R tol, int* rankA, T* x, int* p, R* min_norm) {        \
    return least_squares(handle, m, n, nnz, descrA, csrValA, csrRowPtrA, csrColIndA, b, tol, rankA, x, p, min_norm);   \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrqrBufferInfoBatched(                                             \
      cusolverSpHandle_t handle, int m, int n, int nnz, const cusparseMatDescr_t descrA, const T* csrVal,              \
      const int* csrRowPtr, const int* csrColInd, int batchSize, csrqrInfo_t info, size_t* internalDataInBytes,        \
      size_t* workspaceInBytes) {                                                                                      \
    return qr_buffer_info(handle, m, n, nnz, descrA, csrVal, csrRowPtr, csrColInd, batchSize, info,                    \
                          internalDataInBytes, workspaceInBytes);                                                      \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrqrsvBatched(                                                     \
      cusolverSpHandle_t handle, int m, int n, int nnz, const cusparseMatDescr_t descrA, const T* csrValA,             \
      const int* csrRowPtrA, const int* csrColIndA, const T* b, T* x, int batchSize, csrqrInfo_t info,                 \
      void* /*pBuffer*/) {                                                                                             \
    return qr_solve_batched("cusolverSp" #prefix "csrqrsvBatched", handle, m, n, nnz, descrA, csrValA, csrRowPtrA,     \
                            csrColIndA, b, x, batchSize, info);                                                        \
  }

CUCPU_SPARSE_SOLVERS(S, float, float)
CUCPU_SPARSE_SOLVERS(D, double, double)
CUCPU_SPARSE_SOLVERS(C, cuComplex, float)
CUCPU_SPARSE_SOLVERS(Z, cuDoubleComplex, double)

}  // extern "C"
