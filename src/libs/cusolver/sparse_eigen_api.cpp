// cusolverSp's eigenvalue routines, S/D/C/Z: csreigvsi (the eigenpair nearest a shift, by
// shift-inverse iteration as cuSOLVER documents it, over Eigen's SparseLU) on the host and on
// the device, and csreigsHost (how many eigenvalues lie in a box of the complex plane; cuSOLVER
// counts them by a contour integral, this by all eigenvalues of the dense matrix, Eigen's
// ComplexEigenSolver).
#include <Eigen/Eigenvalues>
#include <Eigen/SparseLU>
#include <new>

#include "libs/cusolver/sparse_matrix.h"

namespace cucpu::cusolver::sparse {
namespace {

// for k = 1 .. maxite: solve (A - mu0 I) x_k = x_{k-1}; x_k /= |x_k|; mu = x_k^H A x_k; stop
// when |A x_k - mu x_k| < tol |mu|. mu and x are the last iterate's.
template <typename T>
void shift_inverse_iteration(int m, int nnz, int base, const T* values, const int* row_ptr, const int* col_ind,
                             MathOf<T> mu0, const T* x0, int maxite, double tol, T* mu, T* x) {
  using M = MathOf<T>;
  const SparseMatrix<M> a = to_eigen(m, m, nnz, base, values, row_ptr, col_ind);
  SparseMatrix<M> identity(m, m);
  identity.setIdentity();
  const SparseMatrix<M> shifted = a - mu0 * identity;
  Eigen::SparseLU<SparseMatrix<M>, Eigen::COLAMDOrdering<int>> lu(shifted);
  Vector<M> v = vector_of(x0, m);
  M estimate = mu0;
  for (int k = 0; k < maxite && lu.info() == Eigen::Success; ++k) {
    v = lu.solve(v);
    v /= v.norm();
    const Vector<M> av = a * v;
    estimate = v.dot(av);  // Eigen's dot conjugates its left side: v^H A v
    if ((av - estimate * v).norm() < tol * std::abs(estimate)) break;
  }
  *reinterpret_cast<M*>(mu) = estimate;
  vector_of(x, m) = v;
}

template <typename T>
cusolverStatus_t check_eigvsi(cusolverSpHandle_t handle, int m, int nnz, cusparseMatDescr_t descr, const T* values,
                              const int* row_ptr, const int* col_ind, const T* x0, int maxite, double tol, const T* mu,
                              const T* x) {
  if (auto status = check_matrix(handle, m, m, nnz, descr, row_ptr, col_ind); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  if ((nnz > 0 && !values) || (m > 0 && (!x0 || !x)) || !mu || maxite < 0 || tol < 0)
    return CUSOLVER_STATUS_INVALID_VALUE;
  return CUSOLVER_STATUS_SUCCESS;
}

template <typename T>
cusolverStatus_t eigvsi(bool device, const char* function, cusolverSpHandle_t handle, int m, int nnz,
                        cusparseMatDescr_t descr, const T* values, const int* row_ptr, const int* col_ind, T mu0,
                        const T* x0, int maxite, double tol, T* mu, T* x) {
  if (auto status = check_eigvsi(handle, m, nnz, descr, values, row_ptr, col_ind, x0, maxite, tol, mu, x);
      status != CUSOLVER_STATUS_SUCCESS)
    return status;
  const int base = base_of(descr);
  const MathOf<T> shift = value_of(mu0);
  return run_step(
      device, handle, function,
      {elements(row_ptr, m + 1), elements(col_ind, nnz), elements(values, nnz), elements(x0, m), elements(mu, 1),
       elements(x, m)},
      [=] { shift_inverse_iteration(m, nnz, base, values, row_ptr, col_ind, shift, x0, maxite, tol, mu, x); }, false);
}

// How many eigenvalues of A lie in the closed box [left, right] x [bottom, top]i.
template <typename T>
cusolverStatus_t count_eigenvalues(cusolverSpHandle_t handle, int m, int nnz, cusparseMatDescr_t descr, const T* values,
                                   const int* row_ptr, const int* col_ind, std::complex<double> left_bottom,
                                   std::complex<double> right_top, int* count) {
  if (auto status = check_matrix(handle, m, m, nnz, descr, row_ptr, col_ind); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  if ((nnz > 0 && !values) || !count) return CUSOLVER_STATUS_INVALID_VALUE;
  try {
    const auto a = to_eigen(m, m, nnz, base_of(descr), values, row_ptr, col_ind);
    const Eigen::MatrixXcd dense = Eigen::MatrixXcd(a.template cast<std::complex<double>>());
    Eigen::ComplexEigenSolver<Eigen::MatrixXcd> solver(dense, false);
    if (solver.info() != Eigen::Success) return CUSOLVER_STATUS_EXECUTION_FAILED;
    *count = 0;
    for (const std::complex<double>& lambda : solver.eigenvalues())
      if (lambda.real() >= left_bottom.real() && lambda.real() <= right_top.real() &&
          lambda.imag() >= left_bottom.imag() && lambda.imag() <= right_top.imag())
        ++*count;
  } catch (const std::bad_alloc&) {
    return CUSOLVER_STATUS_ALLOC_FAILED;
  }
  return CUSOLVER_STATUS_SUCCESS;
}

std::complex<double> corner(cuComplex c) { return {cuCrealf(c), cuCimagf(c)}; }
std::complex<double> corner(cuDoubleComplex c) { return {cuCreal(c), cuCimag(c)}; }

}  // namespace
}  // namespace cucpu::cusolver::sparse

using namespace cucpu::cusolver::sparse;

extern "C" {

#define CUCPU_SPARSE_EIGEN(prefix, T, R, Corner)                                                                   \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csreigvsiHost(                                                  \
      cusolverSpHandle_t handle, int m, int nnz, const cusparseMatDescr_t descrA, const T* csrValA,                \
      const int* csrRowPtrA, const int* csrColIndA, T mu0, const T* x0, int maxite, R tol, T* mu, T* x) {          \
    return eigvsi(false, "cusolverSp" #prefix "csreigvsiHost", handle, m, nnz, descrA, csrValA, csrRowPtrA,        \
                  csrColIndA, mu0, x0, maxite, tol, mu, x);                                                        \
  }                                                                                                                \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csreigvsi(                                                      \
      cusolverSpHandle_t handle, int m, int nnz, const cusparseMatDescr_t descrA, const T* csrValA,                \
      const int* csrRowPtrA, const int* csrColIndA, T mu0, const T* x0, int maxite, R eps, T* mu, T* x) {          \
    return eigvsi(true, "cusolverSp" #prefix "csreigvsi", handle, m, nnz, descrA, csrValA, csrRowPtrA, csrColIndA, \
                  mu0, x0, maxite, eps, mu, x);                                                                    \
  }                                                                                                                \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csreigsHost(                                                    \
      cusolverSpHandle_t handle, int m, int nnz, const cusparseMatDescr_t descrA, const T* csrValA,                \
      const int* csrRowPtrA, const int* csrColIndA, Corner left_bottom_corner, Corner right_upper_corner,          \
      int* num_eigs) {                                                                                             \
    return count_eigenvalues(handle, m, nnz, descrA, csrValA, csrRowPtrA, csrColIndA, corner(left_bottom_corner),  \
                             corner(right_upper_corner), num_eigs);                                                \
  }

CUCPU_SPARSE_EIGEN(S, float, float, cuComplex)
CUCPU_SPARSE_EIGEN(D, double, double, cuDoubleComplex)
CUCPU_SPARSE_EIGEN(C, cuComplex, float, cuComplex)
CUCPU_SPARSE_EIGEN(Z, cuDoubleComplex, double, cuDoubleComplex)

}  // extern "C"
