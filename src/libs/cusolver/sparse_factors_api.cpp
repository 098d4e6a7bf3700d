// cusolverSp's low-level API (cusolverSp_LOWLEVEL_PREVIEW.h), S/D/C/Z: a factorization taken
// step by step (Analysis, BufferInfo, Factor, ZeroPivot, Solve), for Cholesky and QR on the host
// and the device and for LU on the host. The Host functions run at the call; the device ones
// queue their work on the handle's stream and wait only where a result comes back through a
// host pointer (ZeroPivot's position). Each call checks at once that the calls it needs came
// before it, as the H200 does (out of order: an invalid value): Cholesky's Factor needs
// Analysis only and its ZeroPivot nothing (no factors: position -1); QR's Setup needs nothing,
// its Factor Analysis, BufferInfo and Setup; LU's Factor Analysis and BufferInfo; every other
// step a Factor.
//
// The factors are those NVIDIA documents, computed as NVIDIA's are where that shows:
// - Cholesky: A(P,P) = L L^H, P the postorder of the lower triangle's elimination tree (Eigen's
//   SimplicialLDLT in that order, L(j,j) = sqrt(D(j))); Diag is L's diagonal in that order.
// - QR: (A - mu I) = Q R in A's column order (Eigen's SparseQR, no column pivoting); Solve and a
//   Factor given b and x overwrite b with Q^H b and write the least-squares x.
// - LU: P A = L U with L unit lower triangular (its diagonal not stored) and Q the identity;
//   left-looking, threshold partial pivoting (the diagonal stays the pivot while its magnitude
//   is at least pivot_threshold times the column's largest).
// cusolverSp's buffers are not used: the factors live on the host.
#include <Eigen/SparseCholesky>
#include <Eigen/SparseQR>
#include <algorithm>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "libs/cusolver/sparse_factors.h"
#include "libs/cusolver/sparse_matrix.h"

namespace cucpu::cusolver::sparse {
namespace {

// ---- what every step checks ----

enum class Kind { cholesky, qr, lu };

// The pattern's checks at Analysis and BufferInfo. As on the H200, Cholesky calls another
// matrix type than general an invalid value, QR and LU say MATRIX_TYPE_NOT_SUPPORTED.
cusolverStatus_t check_pattern(Kind kind, cusolverSpHandle_t handle, int m, int n, int nnz, cusparseMatDescr_t descr,
                               const int* row_ptr, const int* col_ind, const FactorState* state) {
  const cusolverStatus_t status = check_matrix(handle, m, n, nnz, descr, row_ptr, col_ind);
  if (status == CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED && kind == Kind::cholesky)
    return CUSOLVER_STATUS_INVALID_VALUE;
  if (status != CUSOLVER_STATUS_SUCCESS) return status;
  if (!state || m == 0 || n == 0 || m < n) return CUSOLVER_STATUS_INVALID_VALUE;
  return CUSOLVER_STATUS_SUCCESS;
}

// A later step's: the calls it needs came (`ready`), and the sizes are the analysed ones.
cusolverStatus_t check_step(cusolverSpHandle_t handle, const FactorState* state, bool ready, int m = -1, int n = -1,
                            int nnz = -1) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!state || !ready) return CUSOLVER_STATUS_INVALID_VALUE;
  if ((m >= 0 && m != state->m) || (n >= 0 && n != state->n) || (nnz >= 0 && nnz != state->nnz))
    return CUSOLVER_STATUS_INVALID_VALUE;
  return CUSOLVER_STATUS_SUCCESS;
}

void analyse(FactorState* state, int m, int n, int nnz) {
  state->m = m;
  state->n = n;
  state->nnz = nnz;
  state->analysed = true;
  state->sized = state->set_up = state->factored = false;
  state->numbers.reset();
}

// The factorization of type F the state holds, or a new one when it holds none of that type.
template <typename F>
std::shared_ptr<F> numbers_for_factor(FactorState* state) {
  if (auto* held = std::any_cast<std::shared_ptr<F>>(&state->numbers)) return *held;
  auto made = std::make_shared<F>();
  state->numbers = made;
  return made;
}

// The factorization a step after Factor reads: NULL when Factor ran with another element type.
template <typename F>
std::shared_ptr<F> factored(const FactorState* state) {
  const auto* held = std::any_cast<std::shared_ptr<F>>(&state->numbers);
  return held ? *held : nullptr;
}

template <typename T>
cusolverStatus_t buffer_info(Kind kind, cusolverSpHandle_t handle, int m, int n, int nnz, cusparseMatDescr_t descr,
                             const T* values, const int* row_ptr, const int* col_ind, FactorState* state,
                             size_t* internal_bytes, size_t* workspace_bytes) {
  if (auto status = check_pattern(kind, handle, m, n, nnz, descr, row_ptr, col_ind, state);
      status != CUSOLVER_STATUS_SUCCESS)
    return status;
  if ((nnz > 0 && !values) || !internal_bytes || !workspace_bytes) return CUSOLVER_STATUS_INVALID_VALUE;
  if (auto status = check_step(handle, state, state->analysed, m, n, nnz); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  // What the factors would take; the caller's workspace is asked for but not used.
  *internal_bytes = (static_cast<size_t>(nnz) + static_cast<size_t>(n)) * (sizeof(T) + sizeof(int));
  *workspace_bytes = static_cast<size_t>(m) * sizeof(T);
  state->sized = true;
  return CUSOLVER_STATUS_SUCCESS;
}

// ---- Cholesky ----

// The elimination tree of the pattern's lower triangle (A's and A^T's entries below the
// diagonal), in postorder with children and roots taken in increasing order, as CSparse's
// cs_post does: the order NVIDIA's Cholesky factors in.
std::vector<int> elimination_tree_postorder(int n, int base, const int* row_ptr, const int* col_ind) {
  std::vector<std::vector<int>> below(n);  // below[k]: the columns i < k of row k
  for (int i = 0; i < n; ++i)
    for (int k = row_ptr[i] - base; k < row_ptr[i + 1] - base; ++k) {
      const int j = col_ind[k] - base;
      if (j < 0 || j >= n || j == i) continue;
      below[std::max(i, j)].push_back(std::min(i, j));
    }
  std::vector<int> parent(n, -1), ancestor(n, -1);
  for (int k = 0; k < n; ++k)
    for (int i : below[k])
      for (int r = i; r != -1 && r != k;) {  // Liu's algorithm, with path compression
        const int next = ancestor[r];
        ancestor[r] = k;
        if (next == -1) parent[r] = k;
        r = next;
      }
  std::vector<std::vector<int>> children(n);
  std::vector<int> roots;
  for (int j = 0; j < n; ++j) (parent[j] < 0 ? roots : children[parent[j]]).push_back(j);
  std::vector<int> order;
  order.reserve(n);
  std::vector<std::pair<int, size_t>> stack;  // (node, next child to visit)
  for (int root : roots) {
    stack.emplace_back(root, 0);
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next < children[node].size()) {
        const int child = children[node][next++];
        stack.emplace_back(child, 0);
      } else {
        order.push_back(node);
        stack.pop_back();
      }
    }
  }
  return order;
}

template <typename M>
struct Cholesky {
  std::vector<int> order;  // row k of the factored matrix is A's row order[k]
  Eigen::SimplicialLDLT<SparseMatrix<M>, Eigen::Lower, Eigen::NaturalOrdering<int>> ldlt;
};

template <typename T>
void cholesky_factor(Cholesky<MathOf<T>>& c, int n, int nnz, int base, const T* values, const int* row_ptr,
                     const int* col_ind) {
  using M = MathOf<T>;
  c.order = elimination_tree_postorder(n, base, row_ptr, col_ind);
  std::vector<int> position(n);  // position[old] = new
  for (int k = 0; k < n; ++k) position[c.order[k]] = k;
  // A(P,P)'s lower triangle, from A's.
  std::vector<Eigen::Triplet<M, int>> entries;
  entries.reserve(nnz);
  const M* a = reinterpret_cast<const M*>(values);
  for (int i = 0; i < n; ++i)
    for (int k = row_ptr[i] - base; k < row_ptr[i + 1] - base; ++k) {
      const int j = col_ind[k] - base;
      if (j < 0 || j > i) continue;
      const int pi = position[i], pj = position[j];
      if (pi >= pj)
        entries.emplace_back(pi, pj, a[k]);
      else
        entries.emplace_back(pj, pi, Eigen::numext::conj(a[k]));
    }
  SparseMatrix<M> lower(n, n);
  lower.setFromTriplets(entries.begin(), entries.end());
  c.ldlt.compute(lower);
}

// The first pivot j whose L(j,j) is at most tol, or -1; one that is not positive (where an
// LL^H factorization breaks down) the device names j + 1, as the H200's csrlsvchol does. Eigen
// stops at an exactly zero pivot, leaving those after it unwritten: the scan stops there first.
template <typename M>
int cholesky_zero_pivot(const Cholesky<M>& c, double tol, bool device) {
  const auto& d = c.ldlt.vectorD();
  for (int j = 0; j < d.size(); ++j) {
    const double pivot = std::real(d(j));
    if (!(pivot > 0)) return j + (device ? 1 : 0);
    if (std::sqrt(pivot) <= tol) return j;
  }
  return -1;
}

template <typename T>
void cholesky_solve(const Cholesky<MathOf<T>>& c, int n, const T* b, T* x) {
  const auto in = vector_of(b, n);
  Vector<MathOf<T>> y(n);
  for (int k = 0; k < n; ++k) y(k) = in(c.order[k]);
  y = c.ldlt.solve(y).eval();
  auto out = vector_of(x, n);
  for (int k = 0; k < n; ++k) out(c.order[k]) = y(k);
}

// The analysis of Cholesky's or QR's pattern: its checks, and on the device that the pattern
// is device memory (the order is taken again at Factor, which has the pattern too).
cusolverStatus_t pattern_analysis(Kind kind, bool device, const char* function, cusolverSpHandle_t handle, int m, int n,
                                  int nnz, cusparseMatDescr_t descr, const int* row_ptr, const int* col_ind,
                                  FactorState* state) {
  if (auto status = check_pattern(kind, handle, m, n, nnz, descr, row_ptr, col_ind, state);
      status != CUSOLVER_STATUS_SUCCESS)
    return status;
  if (auto status = run_step(
          device, handle, function, {elements(row_ptr, m + 1), elements(col_ind, nnz)}, [] {}, false);
      status != CUSOLVER_STATUS_SUCCESS)
    return status;
  analyse(state, m, n, nnz);
  return CUSOLVER_STATUS_SUCCESS;
}

template <typename T>
cusolverStatus_t cholesky_factor_call(bool device, const char* function, cusolverSpHandle_t handle, int n, int nnz,
                                      cusparseMatDescr_t descr, const T* values, const int* row_ptr, const int* col_ind,
                                      FactorState* state, void* buffer) {
  if (auto status = check_matrix(handle, n, n, nnz, descr, row_ptr, col_ind); status != CUSOLVER_STATUS_SUCCESS)
    return status == CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED ? CUSOLVER_STATUS_INVALID_VALUE : status;
  if ((nnz > 0 && !values) || !buffer) return CUSOLVER_STATUS_INVALID_VALUE;
  if (auto status = check_step(handle, state, state && state->analysed, n, n, nnz); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  const int base = base_of(descr);
  try {
    auto c = numbers_for_factor<Cholesky<MathOf<T>>>(state);
    if (auto status = run_step(
            device, handle, function, {elements(row_ptr, n + 1), elements(col_ind, nnz), elements(values, nnz)},
            [=] { cholesky_factor(*c, n, nnz, base, values, row_ptr, col_ind); }, false);
        status != CUSOLVER_STATUS_SUCCESS)
      return status;
  } catch (const std::bad_alloc&) {
    return CUSOLVER_STATUS_ALLOC_FAILED;
  }
  state->factored = true;
  return CUSOLVER_STATUS_SUCCESS;
}

template <typename T>
cusolverStatus_t cholesky_zero_pivot_call(bool device, const char* function, cusolverSpHandle_t handle,
                                          const FactorState* state, double tol, int* position) {
  // As on the H200, no step need come before: without factors, no pivot is small.
  if (auto status = check_step(handle, state, true); status != CUSOLVER_STATUS_SUCCESS) return status;
  if (!position) return CUSOLVER_STATUS_INVALID_VALUE;
  auto c = factored<Cholesky<MathOf<T>>>(state);
  if (!c || !state->factored) {
    *position = -1;
    return CUSOLVER_STATUS_SUCCESS;
  }
  return run_step(
      device, handle, function, {}, [=] { *position = cholesky_zero_pivot(*c, tol, device); }, true);
}

template <typename T>
cusolverStatus_t cholesky_solve_call(bool device, const char* function, cusolverSpHandle_t handle, int n, const T* b,
                                     T* x, const FactorState* state, void* buffer) {
  if (auto status = check_step(handle, state, state && state->factored, n, n); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  auto c = factored<Cholesky<MathOf<T>>>(state);
  if (!c || !b || !x || !buffer) return CUSOLVER_STATUS_INVALID_VALUE;
  return run_step(
      device, handle, function, {elements(b, n), elements(x, n)}, [=] { cholesky_solve(*c, n, b, x); }, false);
}

template <typename T>
cusolverStatus_t cholesky_diag_call(const char* function, cusolverSpHandle_t handle, const FactorState* state,
                                    Real<T>* diag) {
  if (auto status = check_step(handle, state, state && state->factored); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  auto c = factored<Cholesky<MathOf<T>>>(state);
  if (!c || !diag) return CUSOLVER_STATUS_INVALID_VALUE;
  const int n = state->n;
  return run_on_stream(
      handle, function, {elements(diag, n)},
      [=] {
        const auto& d = c->ldlt.vectorD();
        for (int k = 0; k < n; ++k) diag[k] = static_cast<Real<T>>(std::sqrt(std::real(d(k))));
      },
      false);
}

// ---- QR ----

template <typename M>
struct QR : Eigen::SparseQR<SparseMatrix<M>, Eigen::NaturalOrdering<int>> {
  SparseMatrix<M> shifted;  // A - mu I, from Setup

  // Overwrites b with Q^H b and writes x = R \ (Q^H b)(0:n). Eigen leaves a column alone
  // whose entries below the diagonal are zero; NVIDIA's is said to reflect every column (a
  // probe on an RTX 3060; the H200 test checks only that b changed, keeping its norm), which
  // negates R's row and Q^H b's entry there (x is the same).
  void solve_least_squares(int m, int n, M* b, M* x) const {
    Eigen::Map<Vector<M>> rhs(b, m);
    const Vector<M> solution = this->solve(rhs);
    Vector<M> reflected = this->matrixQ().adjoint() * rhs;
    for (int j = 0; j < std::min(m, n); ++j)
      if (this->m_hcoeffs(j) == M(0)) reflected(j) = -reflected(j);
    rhs = reflected;
    Eigen::Map<Vector<M>>(x, n) = solution;
  }

  // The first column j whose |R(j,j)| is at most tol, or -1.
  int zero_pivot(double tol) const {
    const SparseMatrix<M>& r = this->matrixR();
    for (int j = 0; j < std::min(r.rows(), r.cols()); ++j)
      if (!(std::abs(r.coeff(j, j)) > tol)) return j;
    return -1;
  }
};

template <typename T>
void qr_set_up(QR<MathOf<T>>& qr, int m, int n, int nnz, int base, const T* values, const int* row_ptr,
               const int* col_ind, T mu) {
  using M = MathOf<T>;
  SparseMatrix<M> identity(m, n);  // setIdentity takes only square matrices
  identity.reserve(Eigen::VectorXi::Constant(n, 1));
  for (int j = 0; j < std::min(m, n); ++j) identity.insert(j, j) = M(1);
  qr.shifted = to_eigen(m, n, nnz, base, values, row_ptr, col_ind) - value_of(mu) * identity;
  qr.shifted.makeCompressed();
}

template <typename M>
void qr_factor(QR<M>& qr, int m, int n, M* b, M* x) {
  qr.setPivotThreshold(0);  // no column is moved to the end: ZeroPivot names the column
  qr.compute(qr.shifted);
  if (b && x) qr.solve_least_squares(m, n, b, x);
}

template <typename T>
cusolverStatus_t qr_setup_call(bool device, const char* function, cusolverSpHandle_t handle, int m, int n, int nnz,
                               cusparseMatDescr_t descr, const T* values, const int* row_ptr, const int* col_ind, T mu,
                               FactorState* state) {
  if (auto status = check_matrix(handle, m, n, nnz, descr, row_ptr, col_ind); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  if ((nnz > 0 && !values) || !state) return CUSOLVER_STATUS_INVALID_VALUE;
  // The H200 takes a Setup before Analysis (and then corrupts its heap); after it, the sizes
  // must be the analysed ones.
  if (state->analysed && (m != state->m || n != state->n || nnz != state->nnz)) return CUSOLVER_STATUS_INVALID_VALUE;
  const int base = base_of(descr);
  try {
    auto qr = numbers_for_factor<QR<MathOf<T>>>(state);
    if (auto status = run_step(
            device, handle, function, {elements(row_ptr, m + 1), elements(col_ind, nnz), elements(values, nnz)},
            [=] { qr_set_up(*qr, m, n, nnz, base, values, row_ptr, col_ind, mu); }, false);
        status != CUSOLVER_STATUS_SUCCESS)
      return status;
  } catch (const std::bad_alloc&) {
    return CUSOLVER_STATUS_ALLOC_FAILED;
  }
  state->set_up = true;
  return CUSOLVER_STATUS_SUCCESS;
}

// b and x may both be NULL (factor only); given, x is the least-squares solution and b is
// overwritten by Q^H b.
template <typename T>
cusolverStatus_t qr_factor_call(bool device, const char* function, cusolverSpHandle_t handle, int m, int n, int nnz,
                                T* b, T* x, FactorState* state, void* buffer) {
  if (auto status = check_step(handle, state, state && state->analysed && state->sized && state->set_up, m, n, nnz);
      status != CUSOLVER_STATUS_SUCCESS)
    return status;
  auto qr = factored<QR<MathOf<T>>>(state);
  if (!qr || !buffer || (!b != !x)) return CUSOLVER_STATUS_INVALID_VALUE;
  using M = MathOf<T>;
  M* rhs = reinterpret_cast<M*>(b);
  M* solution = reinterpret_cast<M*>(x);
  if (auto status = run_step(
          device, handle, function, {elements(b, m), elements(x, n)}, [=] { qr_factor(*qr, m, n, rhs, solution); },
          false);
      status != CUSOLVER_STATUS_SUCCESS)
    return status;
  state->factored = true;
  return CUSOLVER_STATUS_SUCCESS;
}

template <typename T>
cusolverStatus_t qr_zero_pivot_call(bool device, const char* function, cusolverSpHandle_t handle,
                                    const FactorState* state, double tol, int* position) {
  if (auto status = check_step(handle, state, state && state->factored); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  auto qr = factored<QR<MathOf<T>>>(state);
  if (!qr || !position) return CUSOLVER_STATUS_INVALID_VALUE;
  return run_step(
      device, handle, function, {}, [=] { *position = qr->zero_pivot(tol); }, true);
}

template <typename T>
cusolverStatus_t qr_solve_call(bool device, const char* function, cusolverSpHandle_t handle, int m, int n, T* b, T* x,
                               const FactorState* state, void* buffer) {
  if (auto status = check_step(handle, state, state && state->factored, m, n); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  auto qr = factored<QR<MathOf<T>>>(state);
  if (!qr || !b || !x || !buffer) return CUSOLVER_STATUS_INVALID_VALUE;
  using M = MathOf<T>;
  M* rhs = reinterpret_cast<M*>(b);
  M* solution = reinterpret_cast<M*>(x);
  return run_step(
      device, handle, function, {elements(b, m), elements(x, n)}, [=] { qr->solve_least_squares(m, n, rhs, solution); },
      false);
}

// ---- LU (host only) ----

template <typename M>
struct LU {
  std::vector<int> pivot_row;  // P: step k's pivot is A's row pivot_row[k]
  std::vector<int> step_of;    // its inverse: the step at which A's row i is the pivot
  // L by columns: (A's row, L's value) below each step's pivot; U by columns: (step, value),
  // the diagonal last.
  std::vector<std::vector<std::pair<int, M>>> l_columns, u_columns;

  void factor(const SparseMatrix<M>& a, double threshold) {
    const int n = static_cast<int>(a.rows());
    threshold = std::clamp(threshold, 0.0, 1.0);
    pivot_row.assign(n, -1);
    step_of.assign(n, -1);
    l_columns.assign(n, {});
    u_columns.assign(n, {});
    Vector<M> x = Vector<M>::Zero(n);
    for (int j = 0; j < n; ++j) {
      for (typename SparseMatrix<M>::InnerIterator it(a, j); it; ++it) x(it.index()) = it.value();
      // Left-looking: the earlier steps, in order, eliminate their pivot rows' entries.
      for (int k = 0; k < j; ++k) {
        const M u = x(pivot_row[k]);
        if (u == M(0)) continue;
        u_columns[j].emplace_back(k, u);
        x(pivot_row[k]) = M(0);
        for (const auto& [row, l] : l_columns[k]) x(row) -= l * u;
      }
      double largest = 0;
      int pivot = -1;
      for (int i = 0; i < n; ++i)
        if (step_of[i] < 0 && std::abs(x(i)) > largest) {
          largest = std::abs(x(i));
          pivot = i;
        }
      if (step_of[j] < 0 && x(j) != M(0) && std::abs(x(j)) >= threshold * largest) pivot = j;
      if (pivot < 0)  // a zero pivot: the diagonal's row, or the first row left
        pivot = step_of[j] < 0 ? j : static_cast<int>(std::find(step_of.begin(), step_of.end(), -1) - step_of.begin());
      const M diagonal = x(pivot);
      pivot_row[j] = pivot;
      step_of[pivot] = j;
      x(pivot) = M(0);
      for (int i = 0; i < n; ++i)
        if (x(i) != M(0)) {
          l_columns[j].emplace_back(i, x(i) / diagonal);
          x(i) = M(0);
        }
      u_columns[j].emplace_back(j, diagonal);
    }
  }

  int zero_pivot(double tol) const {
    for (size_t j = 0; j < u_columns.size(); ++j)
      if (!(std::abs(u_columns[j].back().second) > tol)) return static_cast<int>(j);
    return -1;
  }

  void solve(const M* b, M* x) const {
    const int n = static_cast<int>(pivot_row.size());
    Vector<M> y(n);
    for (int k = 0; k < n; ++k) y(k) = b[pivot_row[k]];
    for (int k = 0; k < n; ++k)
      for (const auto& [row, l] : l_columns[k]) y(step_of[row]) -= l * y(k);
    for (int j = n - 1; j >= 0; --j) {
      y(j) /= u_columns[j].back().second;
      for (const auto& [k, u] : u_columns[j])
        if (k != j) y(k) -= u * y(j);
    }
    for (int k = 0; k < n; ++k) x[k] = y(k);  // Q is the identity
  }

  size_t l_count() const {
    size_t count = 0;
    for (const auto& column : l_columns) count += column.size();
    return count;
  }
  size_t u_count() const {
    size_t count = 0;
    for (const auto& column : u_columns) count += column.size();
    return count;
  }

  // L's rows (step i: its entries (step k < i, value)) and U's, each sorted by column.
  void extract(int base_l, M* l_values, int* l_rows, int* l_columns_out, int base_u, M* u_values, int* u_rows,
               int* u_columns_out) const {
    const int n = static_cast<int>(pivot_row.size());
    std::vector<std::vector<std::pair<int, M>>> l_by_row(n), u_by_row(n);
    for (int k = 0; k < n; ++k) {
      for (const auto& [row, l] : l_columns[k]) l_by_row[step_of[row]].emplace_back(k, l);
      for (const auto& [i, u] : u_columns[k]) u_by_row[i].emplace_back(k, u);
    }
    auto write = [n](std::vector<std::vector<std::pair<int, M>>>& rows, int base, M* values, int* row_ptr,
                     int* col_ind) {
      int count = 0;
      row_ptr[0] = base;
      for (int i = 0; i < n; ++i) {
        std::sort(rows[i].begin(), rows[i].end(), [](const auto& p, const auto& q) { return p.first < q.first; });
        for (const auto& [column, value] : rows[i]) {
          col_ind[count] = column + base;
          values[count++] = value;
        }
        row_ptr[i + 1] = count + base;
      }
    };
    write(l_by_row, base_l, l_values, l_rows, l_columns_out);
    write(u_by_row, base_u, u_values, u_rows, u_columns_out);
  }
};

template <typename T>
cusolverStatus_t lu_factor_call(cusolverSpHandle_t handle, int n, int nnz, cusparseMatDescr_t descr, const T* values,
                                const int* row_ptr, const int* col_ind, FactorState* state, double threshold,
                                void* buffer) {
  if (auto status = check_matrix(handle, n, n, nnz, descr, row_ptr, col_ind); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  if ((nnz > 0 && !values) || !buffer) return CUSOLVER_STATUS_INVALID_VALUE;
  if (auto status = check_step(handle, state, state && state->analysed && state->sized, n, n, nnz);
      status != CUSOLVER_STATUS_SUCCESS)
    return status;
  try {
    auto lu = numbers_for_factor<LU<MathOf<T>>>(state);
    lu->factor(to_eigen(n, n, nnz, base_of(descr), values, row_ptr, col_ind), threshold);
  } catch (const std::bad_alloc&) {
    return CUSOLVER_STATUS_ALLOC_FAILED;
  }
  state->factored = true;
  return CUSOLVER_STATUS_SUCCESS;
}

template <typename T>
cusolverStatus_t lu_zero_pivot_call(cusolverSpHandle_t handle, const FactorState* state, double tol, int* position) {
  if (auto status = check_step(handle, state, state && state->factored); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  auto lu = factored<LU<MathOf<T>>>(state);
  if (!lu || !position) return CUSOLVER_STATUS_INVALID_VALUE;
  *position = lu->zero_pivot(tol);
  return CUSOLVER_STATUS_SUCCESS;
}

template <typename T>
cusolverStatus_t lu_solve_call(cusolverSpHandle_t handle, int n, const T* b, T* x, const FactorState* state,
                               void* buffer) {
  if (auto status = check_step(handle, state, state && state->factored, n, n); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  auto lu = factored<LU<MathOf<T>>>(state);
  if (!lu || !b || !x || !buffer) return CUSOLVER_STATUS_INVALID_VALUE;
  try {
    lu->solve(reinterpret_cast<const MathOf<T>*>(b), reinterpret_cast<MathOf<T>*>(x));
  } catch (const std::bad_alloc&) {
    return CUSOLVER_STATUS_ALLOC_FAILED;
  }
  return CUSOLVER_STATUS_SUCCESS;
}

// The factors' counts without knowing their element type: that of the last Factor.
template <typename M>
bool lu_counts(const FactorState* state, int* nnz_l, int* nnz_u) {
  auto lu = factored<LU<M>>(state);
  if (!lu) return false;
  *nnz_l = static_cast<int>(lu->l_count());
  *nnz_u = static_cast<int>(lu->u_count());
  return true;
}

template <typename T>
cusolverStatus_t lu_extract_call(cusolverSpHandle_t handle, int* p, int* q, cusparseMatDescr_t descr_l, T* l_values,
                                 int* l_rows, int* l_columns, cusparseMatDescr_t descr_u, T* u_values, int* u_rows,
                                 int* u_columns, const FactorState* state, void* buffer) {
  if (auto status = check_step(handle, state, state && state->factored); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  auto lu = factored<LU<MathOf<T>>>(state);
  if (!lu || !descr_l || !descr_u || !buffer || !p || !q || !l_rows || !u_rows) return CUSOLVER_STATUS_INVALID_VALUE;
  if ((lu->l_count() > 0 && (!l_values || !l_columns)) || (lu->u_count() > 0 && (!u_values || !u_columns)))
    return CUSOLVER_STATUS_INVALID_VALUE;
  const int n = state->n;
  for (int k = 0; k < n; ++k) {
    p[k] = lu->pivot_row[k];
    q[k] = k;
  }
  try {
    lu->extract(base_of(descr_l), reinterpret_cast<MathOf<T>*>(l_values), l_rows, l_columns, base_of(descr_u),
                reinterpret_cast<MathOf<T>*>(u_values), u_rows, u_columns);
  } catch (const std::bad_alloc&) {
    return CUSOLVER_STATUS_ALLOC_FAILED;
  }
  return CUSOLVER_STATUS_SUCCESS;
}

template <typename Info>
cusolverStatus_t create_info(Info** info) {
  if (!info) return CUSOLVER_STATUS_INVALID_VALUE;
  *info = new (std::nothrow) Info;
  return *info ? CUSOLVER_STATUS_SUCCESS : CUSOLVER_STATUS_ALLOC_FAILED;
}

template <typename Info>
cusolverStatus_t destroy_info(Info* info) {
  if (!info) return CUSOLVER_STATUS_INVALID_VALUE;
  delete info;  // work still queued holds its factors
  return CUSOLVER_STATUS_SUCCESS;
}

}  // namespace
}  // namespace cucpu::cusolver::sparse

using namespace cucpu::cusolver::sparse;

extern "C" {

cusolverStatus_t CUSOLVERAPI cusolverSpCreateCsrcholInfo(csrcholInfo_t* info) { return create_info(info); }
cusolverStatus_t CUSOLVERAPI cusolverSpDestroyCsrcholInfo(csrcholInfo_t info) { return destroy_info(info); }
cusolverStatus_t CUSOLVERAPI cusolverSpCreateCsrcholInfoHost(csrcholInfoHost_t* info) { return create_info(info); }
cusolverStatus_t CUSOLVERAPI cusolverSpDestroyCsrcholInfoHost(csrcholInfoHost_t info) { return destroy_info(info); }
cusolverStatus_t CUSOLVERAPI cusolverSpCreateCsrqrInfoHost(csrqrInfoHost_t* info) { return create_info(info); }
cusolverStatus_t CUSOLVERAPI cusolverSpDestroyCsrqrInfoHost(csrqrInfoHost_t info) { return destroy_info(info); }
cusolverStatus_t CUSOLVERAPI cusolverSpCreateCsrluInfoHost(csrluInfoHost_t* info) { return create_info(info); }
cusolverStatus_t CUSOLVERAPI cusolverSpDestroyCsrluInfoHost(csrluInfoHost_t info) { return destroy_info(info); }

cusolverStatus_t CUSOLVERAPI cusolverSpXcsrcholAnalysisHost(cusolverSpHandle_t handle, int n, int nnzA,
                                                            const cusparseMatDescr_t descrA, const int* csrRowPtrA,
                                                            const int* csrColIndA, csrcholInfoHost_t info) {
  return pattern_analysis(Kind::cholesky, false, "", handle, n, n, nnzA, descrA, csrRowPtrA, csrColIndA, info);
}
cusolverStatus_t CUSOLVERAPI cusolverSpXcsrcholAnalysis(cusolverSpHandle_t handle, int n, int nnzA,
                                                        const cusparseMatDescr_t descrA, const int* csrRowPtrA,
                                                        const int* csrColIndA, csrcholInfo_t info) {
  return pattern_analysis(Kind::cholesky, true, "cusolverSpXcsrcholAnalysis", handle, n, n, nnzA, descrA, csrRowPtrA,
                          csrColIndA, info);
}
cusolverStatus_t CUSOLVERAPI cusolverSpXcsrqrAnalysisHost(cusolverSpHandle_t handle, int m, int n, int nnzA,
                                                          const cusparseMatDescr_t descrA, const int* csrRowPtrA,
                                                          const int* csrColIndA, csrqrInfoHost_t info) {
  return pattern_analysis(Kind::qr, false, "", handle, m, n, nnzA, descrA, csrRowPtrA, csrColIndA, info);
}
cusolverStatus_t CUSOLVERAPI cusolverSpXcsrqrAnalysis(cusolverSpHandle_t handle, int m, int n, int nnzA,
                                                      const cusparseMatDescr_t descrA, const int* csrRowPtrA,
                                                      const int* csrColIndA, csrqrInfo_t info) {
  return pattern_analysis(Kind::qr, true, "cusolverSpXcsrqrAnalysis", handle, m, n, nnzA, descrA, csrRowPtrA,
                          csrColIndA, info);
}
cusolverStatus_t CUSOLVERAPI cusolverSpXcsrluAnalysisHost(cusolverSpHandle_t handle, int n, int nnzA,
                                                          const cusparseMatDescr_t descrA, const int* csrRowPtrA,
                                                          const int* csrColIndA, csrluInfoHost_t info) {
  if (auto status = check_pattern(Kind::lu, handle, n, n, nnzA, descrA, csrRowPtrA, csrColIndA, info);
      status != CUSOLVER_STATUS_SUCCESS)
    return status;
  analyse(info, n, n, nnzA);
  return CUSOLVER_STATUS_SUCCESS;
}

// L has nnzL entries (its unit diagonal not stored), U nnzU.
cusolverStatus_t CUSOLVERAPI cusolverSpXcsrluNnzHost(cusolverSpHandle_t handle, int* nnzLRef, int* nnzURef,
                                                     csrluInfoHost_t info) {
  if (auto status = check_step(handle, info, info && info->factored); status != CUSOLVER_STATUS_SUCCESS) return status;
  if (!nnzLRef || !nnzURef) return CUSOLVER_STATUS_INVALID_VALUE;
  const bool found = lu_counts<float>(info, nnzLRef, nnzURef) || lu_counts<double>(info, nnzLRef, nnzURef) ||
                     lu_counts<std::complex<float>>(info, nnzLRef, nnzURef) ||
                     lu_counts<std::complex<double>>(info, nnzLRef, nnzURef);
  return found ? CUSOLVER_STATUS_SUCCESS : CUSOLVER_STATUS_INVALID_VALUE;
}

#define CUCPU_SPARSE_FACTORS(prefix, T, R)                                                                             \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrcholBufferInfoHost(                                              \
      cusolverSpHandle_t handle, int n, int nnzA, const cusparseMatDescr_t descrA, const T* csrValA,                   \
      const int* csrRowPtrA, const int* csrColIndA, csrcholInfoHost_t info, size_t* internalDataInBytes,               \
      size_t* workspaceInBytes) {                                                                                      \
    return buffer_info(Kind::cholesky, handle, n, n, nnzA, descrA, csrValA, csrRowPtrA, csrColIndA, info,              \
                       internalDataInBytes, workspaceInBytes);                                                         \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrcholBufferInfo(                                                  \
      cusolverSpHandle_t handle, int n, int nnzA, const cusparseMatDescr_t descrA, const T* csrValA,                   \
      const int* csrRowPtrA, const int* csrColIndA, csrcholInfo_t info, size_t* internalDataInBytes,                   \
      size_t* workspaceInBytes) {                                                                                      \
    return buffer_info(Kind::cholesky, handle, n, n, nnzA, descrA, csrValA, csrRowPtrA, csrColIndA, info,              \
                       internalDataInBytes, workspaceInBytes);                                                         \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrcholFactorHost(                                                  \
      cusolverSpHandle_t handle, int n, int nnzA, const cusparseMatDescr_t descrA, const T* csrValA,                   \
      const int* csrRowPtrA, const int* csrColIndA, csrcholInfoHost_t info, void* pBuffer) {                           \
    return cholesky_factor_call(false, "", handle, n, nnzA, descrA, csrValA, csrRowPtrA, csrColIndA, info, pBuffer);   \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrcholFactor(                                                      \
      cusolverSpHandle_t handle, int n, int nnzA, const cusparseMatDescr_t descrA, const T* csrValA,                   \
      const int* csrRowPtrA, const int* csrColIndA, csrcholInfo_t info, void* pBuffer) {                               \
    return cholesky_factor_call(true, "cusolverSp" #prefix "csrcholFactor", handle, n, nnzA, descrA, csrValA,          \
                                csrRowPtrA, csrColIndA, info, pBuffer);                                                \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrcholZeroPivotHost(                                               \
      cusolverSpHandle_t handle, csrcholInfoHost_t info, R tol, int* position) {                                       \
    return cholesky_zero_pivot_call<T>(false, "", handle, info, tol, position);                                        \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrcholZeroPivot(cusolverSpHandle_t handle, csrcholInfo_t info,     \
                                                                    R tol, int* position) {                            \
    return cholesky_zero_pivot_call<T>(true, "cusolverSp" #prefix "csrcholZeroPivot", handle, info, tol, position);    \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrcholSolveHost(cusolverSpHandle_t handle, int n, const T* b,      \
                                                                    T* x, csrcholInfoHost_t info, void* pBuffer) {     \
    return cholesky_solve_call(false, "", handle, n, b, x, info, pBuffer);                                             \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrcholSolve(cusolverSpHandle_t handle, int n, const T* b, T* x,    \
                                                                csrcholInfo_t info, void* pBuffer) {                   \
    return cholesky_solve_call(true, "cusolverSp" #prefix "csrcholSolve", handle, n, b, x, info, pBuffer);             \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrcholDiag(cusolverSpHandle_t handle, csrcholInfo_t info,          \
                                                               R* diag) {                                              \
    return cholesky_diag_call<T>("cusolverSp" #prefix "csrcholDiag", handle, info, diag);                              \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrqrBufferInfoHost(                                                \
      cusolverSpHandle_t handle, int m, int n, int nnzA, const cusparseMatDescr_t descrA, const T* csrValA,            \
      const int* csrRowPtrA, const int* csrColIndA, csrqrInfoHost_t info, size_t* internalDataInBytes,                 \
      size_t* workspaceInBytes) {                                                                                      \
    return buffer_info(Kind::qr, handle, m, n, nnzA, descrA, csrValA, csrRowPtrA, csrColIndA, info,                    \
                       internalDataInBytes, workspaceInBytes);                                                         \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrqrBufferInfo(                                                    \
      cusolverSpHandle_t handle, int m, int n, int nnzA, const cusparseMatDescr_t descrA, const T* csrValA,            \
      const int* csrRowPtrA, const int* csrColIndA, csrqrInfo_t info, size_t* internalDataInBytes,                     \
      size_t* workspaceInBytes) {                                                                                      \
    return buffer_info(Kind::qr, handle, m, n, nnzA, descrA, csrValA, csrRowPtrA, csrColIndA, info,                    \
                       internalDataInBytes, workspaceInBytes);                                                         \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrqrSetupHost(                                                     \
      cusolverSpHandle_t handle, int m, int n, int nnzA, const cusparseMatDescr_t descrA, const T* csrValA,            \
      const int* csrRowPtrA, const int* csrColIndA, T mu, csrqrInfoHost_t info) {                                      \
    return qr_setup_call(false, "", handle, m, n, nnzA, descrA, csrValA, csrRowPtrA, csrColIndA, mu, info);            \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrqrSetup(                                                         \
      cusolverSpHandle_t handle, int m, int n, int nnzA, const cusparseMatDescr_t descrA, const T* csrValA,            \
      const int* csrRowPtrA, const int* csrColIndA, T mu, csrqrInfo_t info) {                                          \
    return qr_setup_call(true, "cusolverSp" #prefix "csrqrSetup", handle, m, n, nnzA, descrA, csrValA, csrRowPtrA,     \
                         csrColIndA, mu, info);                                                                        \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrqrFactorHost(cusolverSpHandle_t handle, int m, int n, int nnzA,  \
                                                                   T* b, T* x, csrqrInfoHost_t info, void* pBuffer) {  \
    return qr_factor_call(false, "", handle, m, n, nnzA, b, x, info, pBuffer);                                         \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrqrFactor(cusolverSpHandle_t handle, int m, int n, int nnzA,      \
                                                               T* b, T* x, csrqrInfo_t info, void* pBuffer) {          \
    return qr_factor_call(true, "cusolverSp" #prefix "csrqrFactor", handle, m, n, nnzA, b, x, info, pBuffer);          \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrqrZeroPivotHost(cusolverSpHandle_t handle, csrqrInfoHost_t info, \
                                                                      R tol, int* position) {                          \
    return qr_zero_pivot_call<T>(false, "", handle, info, tol, position);                                              \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrqrZeroPivot(cusolverSpHandle_t handle, csrqrInfo_t info, R tol,  \
                                                                  int* position) {                                     \
    return qr_zero_pivot_call<T>(true, "cusolverSp" #prefix "csrqrZeroPivot", handle, info, tol, position);            \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrqrSolveHost(cusolverSpHandle_t handle, int m, int n, T* b, T* x, \
                                                                  csrqrInfoHost_t info, void* pBuffer) {               \
    return qr_solve_call(false, "", handle, m, n, b, x, info, pBuffer);                                                \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrqrSolve(cusolverSpHandle_t handle, int m, int n, T* b, T* x,     \
                                                              csrqrInfo_t info, void* pBuffer) {                       \
    return qr_solve_call(true, "cusolverSp" #prefix "csrqrSolve", handle, m, n, b, x, info, pBuffer);                  \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrluBufferInfoHost(                                                \
      cusolverSpHandle_t handle, int n, int nnzA, const cusparseMatDescr_t descrA, const T* csrValA,                   \
      const int* csrRowPtrA, const int* csrColIndA, csrluInfoHost_t info, size_t* internalDataInBytes,                 \
      size_t* workspaceInBytes) {                                                                                      \
    return buffer_info(Kind::lu, handle, n, n, nnzA, descrA, csrValA, csrRowPtrA, csrColIndA, info,                    \
                       internalDataInBytes, workspaceInBytes);                                                         \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrluFactorHost(                                                    \
      cusolverSpHandle_t handle, int n, int nnzA, const cusparseMatDescr_t descrA, const T* csrValA,                   \
      const int* csrRowPtrA, const int* csrColIndA, csrluInfoHost_t info, R pivot_threshold, void* pBuffer) {          \
    return lu_factor_call(handle, n, nnzA, descrA, csrValA, csrRowPtrA, csrColIndA, info, pivot_threshold, pBuffer);   \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrluZeroPivotHost(cusolverSpHandle_t handle, csrluInfoHost_t info, \
                                                                      R tol, int* position) {                          \
    return lu_zero_pivot_call<T>(handle, info, tol, position);                                                         \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrluSolveHost(cusolverSpHandle_t handle, int n, const T* b, T* x,  \
                                                                  csrluInfoHost_t info, void* pBuffer) {               \
    return lu_solve_call(handle, n, b, x, info, pBuffer);                                                              \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrluExtractHost(                                                   \
      cusolverSpHandle_t handle, int* P, int* Q, const cusparseMatDescr_t descrL, T* csrValL, int* csrRowPtrL,         \
      int* csrColIndL, const cusparseMatDescr_t descrU, T* csrValU, int* csrRowPtrU, int* csrColIndU,                  \
      csrluInfoHost_t info, void* pBuffer) {                                                                           \
    return lu_extract_call(handle, P, Q, descrL, csrValL, csrRowPtrL, csrColIndL, descrU, csrValU, csrRowPtrU,         \
                           csrColIndU, info, pBuffer);                                                                 \
  }

CUCPU_SPARSE_FACTORS(S, float, float)
CUCPU_SPARSE_FACTORS(D, double, double)
CUCPU_SPARSE_FACTORS(C, cuComplex, float)
CUCPU_SPARSE_FACTORS(Z, cuDoubleComplex, double)

}  // extern "C"
