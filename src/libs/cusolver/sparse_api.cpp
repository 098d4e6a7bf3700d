// cuSOLVER's sparse API (cusolverSp) over Eigen 3's sparse solvers (MPL-2.0) and METIS (Apache-2.0):
// the handle, csrissym, the fill-reducing orderings (symrcm, symamd, metisnd), csrperm, and the
// linear solvers csrlsvchol/qr/lu, S/D/C/Z. The Host functions run at the call on host memory;
// the device ones queue their work on the handle's stream (src/libs/common/stream_work.h) and
// wait for it, since `singularity` is returned through a host pointer as cuSOLVER's is.
// A solver first reorders A symmetrically as `reorder` asks (0: none, 1: symrcm, 2: symamd,
// 3: metisnd), then factors the reordered matrix: Cholesky by Eigen's SimplicialLDLT (whose
// pivots D(j) = L(j,j)^2 say where an LL^T factorization would break), LU by Eigen's SparseLU
// (COLAMD-ordered inside) and QR by Eigen's SparseQR (in the reordered matrix's column order). `singularity` is the original index
// of the first pivot whose magnitude is at most `tol`, or -1.
#include <cusolverSp.h>
#include <cusparse.h>
#include <metis.h>

#include <Eigen/OrderingMethods>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <Eigen/SparseQR>
#include <algorithm>
#include <complex>
#include <cstdint>
#include <new>
#include <numeric>
#include <vector>

#include "libs/common/stream_work.h"

struct cusolverSpContext {
  cudaStream_t stream = nullptr;  // NULL: the legacy default stream
};

namespace cucpu::cusolver {
namespace {

using libs::DeviceRange;

template <typename T>
struct Element;
template <>
struct Element<float> {
  using Math = float;
};
template <>
struct Element<double> {
  using Math = double;
};
template <>
struct Element<cuComplex> {
  using Math = std::complex<float>;  // the same layout
};
template <>
struct Element<cuDoubleComplex> {
  using Math = std::complex<double>;
};

// ---- arguments ----

// What a CSR matrix's descriptor and sizes allow: SUCCESS, or the status the call returns.
cusolverStatus_t check_matrix(int m, int n, int nnz, cusparseMatDescr_t descr, const int* row_ptr,
                              const int* col_ind) {
  if (!descr || m < 0 || n < 0 || nnz < 0 || (m > 0 && !row_ptr) || (nnz > 0 && !col_ind))
    return CUSOLVER_STATUS_INVALID_VALUE;
  const cusparseIndexBase_t base = cusparseGetMatIndexBase(descr);
  if (base != CUSPARSE_INDEX_BASE_ZERO && base != CUSPARSE_INDEX_BASE_ONE) return CUSOLVER_STATUS_INVALID_VALUE;
  if (cusparseGetMatType(descr) != CUSPARSE_MATRIX_TYPE_GENERAL) return CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED;
  return CUSOLVER_STATUS_SUCCESS;
}

int base_of(cusparseMatDescr_t descr) { return cusparseGetMatIndexBase(descr) == CUSPARSE_INDEX_BASE_ONE ? 1 : 0; }

// A matrix's pattern as an undirected graph (A + A^T without the diagonal), zero-based, each
// vertex's neighbours sorted: what RCM and METIS order.
struct Graph {
  std::vector<int> start;  // n + 1 offsets into `adjacent`
  std::vector<int> adjacent;
};

Graph symmetric_graph(int n, int base, const int* row_ptr, const int* col_ind) {
  std::vector<std::vector<int>> lists(n);
  for (int i = 0; i < n; ++i)
    for (int k = row_ptr[i] - base; k < row_ptr[i + 1] - base; ++k) {
      const int j = col_ind[k] - base;
      if (j == i || j < 0 || j >= n) continue;
      lists[i].push_back(j);
      lists[j].push_back(i);
    }
  Graph graph;
  graph.start.reserve(n + 1);
  graph.start.push_back(0);
  for (auto& list : lists) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    graph.adjacent.insert(graph.adjacent.end(), list.begin(), list.end());
    graph.start.push_back(static_cast<int>(graph.adjacent.size()));
  }
  return graph;
}

// ---- orderings: p such that A(p, p) is the reordered matrix ----

// Reverse Cuthill-McKee: per connected component, a breadth-first search from a pseudo-peripheral
// vertex (found by repeated searches from the farthest, least-connected vertex), visiting each
// vertex's neighbours by increasing degree; the order reversed.
std::vector<int> reverse_cuthill_mckee(const Graph& graph) {
  const int n = static_cast<int>(graph.start.size()) - 1;
  auto degree = [&](int v) { return graph.start[v + 1] - graph.start[v]; };
  std::vector<int> order, level(n, -1);
  std::vector<char> placed(n, 0);
  order.reserve(n);
  // Breadth-first from `root` over unplaced vertices, appending to `out`; returns the last level's
  // vertex of least degree and, through `depth`, the number of levels.
  auto search = [&](int root, std::vector<int>& out, int& depth, bool sort_by_degree) {
    const size_t first = out.size();
    out.push_back(root);
    level[root] = 0;
    for (size_t head = first; head < out.size(); ++head) {
      const int v = out[head];
      const size_t added = out.size();
      for (int k = graph.start[v]; k < graph.start[v + 1]; ++k) {
        const int w = graph.adjacent[k];
        if (placed[w] || level[w] >= 0) continue;
        level[w] = level[v] + 1;
        out.push_back(w);
      }
      if (sort_by_degree)
        std::stable_sort(out.begin() + added, out.end(), [&](int a, int b) { return degree(a) < degree(b); });
    }
    depth = level[out.back()];
    int farthest = out.back();
    for (size_t k = first; k < out.size(); ++k)
      if (level[out[k]] == depth && degree(out[k]) < degree(farthest)) farthest = out[k];
    return farthest;
  };
  for (int seed = 0; seed < n; ++seed) {
    if (placed[seed]) continue;
    int root = seed, depth = -1;
    for (int tries = 0; tries < 8; ++tries) {  // a few searches find a pseudo-peripheral vertex
      std::vector<int> visited;
      int new_depth = 0;
      const int farthest = search(root, visited, new_depth, false);
      for (int v : visited) level[v] = -1;
      if (new_depth <= depth) break;
      depth = new_depth;
      root = farthest;
    }
    const size_t first = order.size();
    int ignored = 0;
    search(root, order, ignored, true);
    for (size_t k = first; k < order.size(); ++k) placed[order[k]] = 1;
  }
  std::reverse(order.begin(), order.end());
  return order;
}

// Approximate minimum degree, Eigen's (on the pattern of A + A^T).
std::vector<int> approximate_minimum_degree(int n, int base, const int* row_ptr, const int* col_ind) {
  std::vector<Eigen::Triplet<double, int>> entries;
  for (int i = 0; i < n; ++i)
    for (int k = row_ptr[i] - base; k < row_ptr[i + 1] - base; ++k)
      if (col_ind[k] - base >= 0 && col_ind[k] - base < n) entries.emplace_back(i, col_ind[k] - base, 1.0);
  Eigen::SparseMatrix<double, Eigen::ColMajor, int> pattern(n, n);
  pattern.setFromTriplets(entries.begin(), entries.end());
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> permutation;
  Eigen::AMDOrdering<int>()(pattern, permutation);
  // Eigen's ordering maps a new position to the old index (SimplicialCholesky inverts it to twist A).
  return std::vector<int>(permutation.indices().data(), permutation.indices().data() + n);
}

// Nested dissection, METIS's.
std::vector<int> nested_dissection(const Graph& graph) {
  idx_t n = static_cast<idx_t>(graph.start.size()) - 1;
  std::vector<int> order(n);
  if (n == 0) return order;
  std::vector<idx_t> start(graph.start.begin(), graph.start.end());
  std::vector<idx_t> adjacent(graph.adjacent.begin(), graph.adjacent.end());
  adjacent.push_back(0);  // METIS reads adjacent[0] even for a graph without edges
  std::vector<idx_t> perm(n), iperm(n);
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_NUMBERING] = 0;
  if (METIS_NodeND(&n, start.data(), adjacent.data(), nullptr, options, perm.data(), iperm.data()) != METIS_OK) {
    std::iota(order.begin(), order.end(), 0);  // METIS failed: leave the matrix as it is
    return order;
  }
  // METIS: row i of the reordered matrix is row perm[i] of A.
  std::copy(perm.begin(), perm.end(), order.begin());
  return order;
}

std::vector<int> fill_reducing_order(int reorder, int n, int base, const int* row_ptr, const int* col_ind) {
  switch (reorder) {
    case 1: return reverse_cuthill_mckee(symmetric_graph(n, base, row_ptr, col_ind));
    case 2: return approximate_minimum_degree(n, base, row_ptr, col_ind);
    case 3: return nested_dissection(symmetric_graph(n, base, row_ptr, col_ind));
    default: {
      std::vector<int> identity(n);
      std::iota(identity.begin(), identity.end(), 0);
      return identity;
    }
  }
}

// ---- linear solvers ----

enum class Factorization { Cholesky, QR, LU };

template <typename M>
using SparseMatrix = Eigen::SparseMatrix<M, Eigen::ColMajor, int>;
template <typename M>
using Vector = Eigen::Matrix<M, Eigen::Dynamic, 1>;

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

// Solves A(p,p) y = b(p) with the chosen factorization and returns x (x(p) = y) through `x`, or
// the original index of the first small pivot; `a` is A(p,p), zero-based.
template <typename M>
int solve_reordered(Factorization kind, const SparseMatrix<M>& a, const Vector<M>& b, double tol, Vector<M>& y) {
  const int n = static_cast<int>(a.rows());
  switch (kind) {
    case Factorization::Cholesky: {
      Eigen::SimplicialLDLT<SparseMatrix<M>, Eigen::Lower, Eigen::NaturalOrdering<int>> ldlt(a);
      const auto& d = ldlt.vectorD();
      for (int j = 0; j < n; ++j) {
        // An LL^T factorization needs each pivot D(j) = L(j,j)^2 positive; one at most tol^2 is singular.
        const double pivot = std::real(d(j));
        if (ldlt.info() != Eigen::Success || !(pivot > 0) || std::sqrt(pivot) <= tol) return j;
      }
      y = ldlt.solve(b);
      return -1;
    }
    case Factorization::LU: {
      LuFactorization<M> lu;
      lu.analyzePattern(a);
      lu.factorize(a);
      if (lu.info() == Eigen::Success) {
        const int small = lu.first_small_pivot(tol);
        if (small < 0) {
          y = lu.solve(b);
          return -1;
        }
        // The factored matrix is A Pc^-1: its column k is A's column i where Pc maps i to k.
        const auto& pc = lu.colsPermutation().indices();
        return static_cast<int>(std::find(pc.data(), pc.data() + n, small) - pc.data());
      }
      [[fallthrough]];  // an exactly zero pivot: QR says where
    }
    case Factorization::QR: {
      // In the matrix's own (already reordered) column order: Eigen's SparseQR fills R almost
      // completely under a COLAMD column order on a 2D Laplacian (nnz(R) 4.7M instead of 2M at
      // n = 10,000, 25 times the time), since its Householder rows are not reordered to match.
      Eigen::SparseQR<SparseMatrix<M>, Eigen::NaturalOrdering<int>> qr;
      qr.setPivotThreshold(tol);
      qr.compute(a);
      if (qr.info() != Eigen::Success) return 0;
      const SparseMatrix<M> r = qr.matrixR();
      for (int j = 0; j < n; ++j)
        if (!(std::abs(r.coeff(j, j)) > tol)) return j;
      y = qr.solve(b);
      return -1;
    }
  }
  return 0;
}

// The whole solve on host memory: reorder, factor, solve, write x and singularity.
template <typename T>
void solve(Factorization kind, int n, int nnz, int base, const T* values, const int* row_ptr, const int* col_ind,
           const T* b, double tol, int reorder, T* x, int* singularity) {
  using M = typename Element<T>::Math;
  const std::vector<int> p = fill_reducing_order(reorder, n, base, row_ptr, col_ind);
  std::vector<int> position(n);  // position[old] = new
  for (int i = 0; i < n; ++i) position[p[i]] = i;
  const M* a_values = reinterpret_cast<const M*>(values);
  std::vector<Eigen::Triplet<M, int>> entries;
  entries.reserve(nnz);
  for (int i = 0; i < n; ++i)
    for (int k = row_ptr[i] - base; k < row_ptr[i + 1] - base; ++k) {
      const int j = col_ind[k] - base;
      if (j >= 0 && j < n) entries.emplace_back(position[i], position[j], a_values[k]);
    }
  SparseMatrix<M> a(n, n);
  a.setFromTriplets(entries.begin(), entries.end());
  a.makeCompressed();
  Vector<M> reordered_b(n), y;
  for (int i = 0; i < n; ++i) reordered_b(i) = reinterpret_cast<const M*>(b)[p[i]];
  const int small = solve_reordered<M>(kind, a, reordered_b, tol, y);
  *singularity = small < 0 ? -1 : p[small];
  if (small >= 0) return;
  M* out = reinterpret_cast<M*>(x);
  for (int i = 0; i < n; ++i) out[p[i]] = y(i);
}

template <typename T, typename R>
cusolverStatus_t lsv_host(Factorization kind, cusolverSpHandle_t handle, int n, int nnz, cusparseMatDescr_t descr,
                          const T* values, const int* row_ptr, const int* col_ind, const T* b, R tol, int reorder,
                          T* x, int* singularity) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (auto status = check_matrix(n, n, nnz, descr, row_ptr, col_ind); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  if ((nnz > 0 && !values) || (n > 0 && (!b || !x)) || !singularity || reorder < 0 || reorder > 3 || tol < 0)
    return CUSOLVER_STATUS_INVALID_VALUE;
  try {
    solve(kind, n, nnz, base_of(descr), values, row_ptr, col_ind, b, tol, reorder, x, singularity);
  } catch (const std::bad_alloc&) {
    return CUSOLVER_STATUS_ALLOC_FAILED;
  }
  return CUSOLVER_STATUS_SUCCESS;
}

// The device version: A, b and x in device memory, solved in stream order; the call waits for the
// work, since `singularity` is a host pointer.
template <typename T, typename R>
cusolverStatus_t lsv_device(Factorization kind, const char* function, cusolverSpHandle_t handle, int n, int nnz,
                            cusparseMatDescr_t descr, const T* values, const int* row_ptr, const int* col_ind,
                            const T* b, R tol, int reorder, T* x, int* singularity) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (auto status = check_matrix(n, n, nnz, descr, row_ptr, col_ind); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  if ((nnz > 0 && !values) || (n > 0 && (!b || !x)) || !singularity || reorder < 0 || reorder > 3 || tol < 0)
    return CUSOLVER_STATUS_INVALID_VALUE;
  const int base = base_of(descr);
  auto queued = libs::enqueue(
      handle->stream, function,
      {{row_ptr, (static_cast<size_t>(n) + 1) * sizeof(int)}, {col_ind, static_cast<size_t>(nnz) * sizeof(int)},
       {values, static_cast<size_t>(nnz) * sizeof(T)}, {b, static_cast<size_t>(n) * sizeof(T)},
       {x, static_cast<size_t>(n) * sizeof(T)}},
      [=] {
        try {
          solve(kind, n, nnz, base, values, row_ptr, col_ind, b, tol, reorder, x, singularity);
        } catch (const std::bad_alloc&) {
          *singularity = 0;
        }
      });
  if (!queued) return libs::to_status(queued.error(), libs::StatusCodes<cusolverStatus_t>{
                                                          CUSOLVER_STATUS_SUCCESS, CUSOLVER_STATUS_ALLOC_FAILED,
                                                          CUSOLVER_STATUS_INVALID_VALUE, CUSOLVER_STATUS_NOT_SUPPORTED,
                                                          CUSOLVER_STATUS_EXECUTION_FAILED});
  return libs::synchronize(handle->stream) ? CUSOLVER_STATUS_SUCCESS : CUSOLVER_STATUS_EXECUTION_FAILED;
}

cusolverStatus_t ordering(cusolverSpHandle_t handle, int n, int nnz, cusparseMatDescr_t descr, const int* row_ptr,
                          const int* col_ind, int reorder, int* p) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (auto status = check_matrix(n, n, nnz, descr, row_ptr, col_ind); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  if (n > 0 && !p) return CUSOLVER_STATUS_INVALID_VALUE;
  try {
    const std::vector<int> order = fill_reducing_order(reorder, n, base_of(descr), row_ptr, col_ind);
    std::copy(order.begin(), order.end(), p);
  } catch (const std::bad_alloc&) {
    return CUSOLVER_STATUS_ALLOC_FAILED;
  }
  return CUSOLVER_STATUS_SUCCESS;
}

}  // namespace
}  // namespace cucpu::cusolver

using namespace cucpu::cusolver;

extern "C" {

cusolverStatus_t CUSOLVERAPI cusolverSpCreate(cusolverSpHandle_t* handle) {
  if (!handle) return CUSOLVER_STATUS_INVALID_VALUE;
  if (auto ready = cucpu::libs::prepare_device(); !ready) return CUSOLVER_STATUS_NOT_INITIALIZED;
  *handle = new (std::nothrow) cusolverSpContext;
  return *handle ? CUSOLVER_STATUS_SUCCESS : CUSOLVER_STATUS_ALLOC_FAILED;
}

cusolverStatus_t CUSOLVERAPI cusolverSpDestroy(cusolverSpHandle_t handle) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  (void)cucpu::libs::synchronize(handle->stream);  // queued work finishes before the handle goes
  delete handle;
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t CUSOLVERAPI cusolverSpSetStream(cusolverSpHandle_t handle, cudaStream_t streamId) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  handle->stream = streamId;
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t CUSOLVERAPI cusolverSpGetStream(cusolverSpHandle_t handle, cudaStream_t* streamId) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!streamId) return CUSOLVER_STATUS_INVALID_VALUE;
  *streamId = handle->stream;
  return CUSOLVER_STATUS_SUCCESS;
}

// issym = 1 when the pattern is symmetric: every (i, j) has its (j, i). Each row's columns lie in
// [csrRowPtrA[i], csrEndPtrA[i]), which need not be sorted.
cusolverStatus_t CUSOLVERAPI cusolverSpXcsrissymHost(cusolverSpHandle_t handle, int m, int nnzA,
                                                     const cusparseMatDescr_t descrA, const int* csrRowPtrA,
                                                     const int* csrEndPtrA, const int* csrColIndA, int* issym) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (auto status = check_matrix(m, m, nnzA, descrA, csrRowPtrA, csrColIndA); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  if (!issym || (m > 0 && !csrEndPtrA)) return CUSOLVER_STATUS_INVALID_VALUE;
  const int base = base_of(descrA);
  std::vector<std::vector<int>> rows(m);
  for (int i = 0; i < m; ++i) {
    rows[i].assign(csrColIndA + csrRowPtrA[i] - base, csrColIndA + csrEndPtrA[i] - base);
    for (int& j : rows[i]) j -= base;
    std::sort(rows[i].begin(), rows[i].end());
  }
  *issym = 1;
  for (int i = 0; i < m && *issym; ++i)
    for (int j : rows[i])
      if (j < 0 || j >= m || !std::binary_search(rows[j].begin(), rows[j].end(), i)) {
        *issym = 0;
        break;
      }
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t CUSOLVERAPI cusolverSpXcsrsymrcmHost(cusolverSpHandle_t handle, int n, int nnzA,
                                                      const cusparseMatDescr_t descrA, const int* csrRowPtrA,
                                                      const int* csrColIndA, int* p) {
  return ordering(handle, n, nnzA, descrA, csrRowPtrA, csrColIndA, 1, p);
}

cusolverStatus_t CUSOLVERAPI cusolverSpXcsrsymamdHost(cusolverSpHandle_t handle, int n, int nnzA,
                                                      const cusparseMatDescr_t descrA, const int* csrRowPtrA,
                                                      const int* csrColIndA, int* p) {
  return ordering(handle, n, nnzA, descrA, csrRowPtrA, csrColIndA, 2, p);
}

// `options` (METIS's, as cuSOLVER passes them through) may be NULL; METIS's defaults are used.
cusolverStatus_t CUSOLVERAPI cusolverSpXcsrmetisndHost(cusolverSpHandle_t handle, int n, int nnzA,
                                                       const cusparseMatDescr_t descrA, const int* csrRowPtrA,
                                                       const int* csrColIndA, const int64_t* /*options*/, int* p) {
  return ordering(handle, n, nnzA, descrA, csrRowPtrA, csrColIndA, 3, p);
}

// csrperm needs no workspace of the caller's; a small one is asked for, as a nonzero size.
cusolverStatus_t CUSOLVERAPI cusolverSpXcsrperm_bufferSizeHost(cusolverSpHandle_t handle, int m, int n, int nnzA,
                                                               const cusparseMatDescr_t descrA,
                                                               const int* csrRowPtrA, const int* csrColIndA,
                                                               const int* p, const int* q,
                                                               size_t* bufferSizeInBytes) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (auto status = check_matrix(m, n, nnzA, descrA, csrRowPtrA, csrColIndA); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  if (!bufferSizeInBytes || (m > 0 && !p) || (n > 0 && !q)) return CUSOLVER_STATUS_INVALID_VALUE;
  *bufferSizeInBytes = sizeof(int) * (static_cast<size_t>(m) + 1);
  return CUSOLVER_STATUS_SUCCESS;
}

// B = P A Q^T, i.e. B = A(p, q), on the pattern in place; map follows the entries (B's k-th
// entry's value is A's map[k]-th), each row of B sorted by column.
cusolverStatus_t CUSOLVERAPI cusolverSpXcsrpermHost(cusolverSpHandle_t handle, int m, int n, int nnzA,
                                                    const cusparseMatDescr_t descrA, int* csrRowPtrA,
                                                    int* csrColIndA, const int* p, const int* q, int* map,
                                                    void* /*pBuffer*/) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (auto status = check_matrix(m, n, nnzA, descrA, csrRowPtrA, csrColIndA); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  if ((m > 0 && !p) || (n > 0 && !q) || (nnzA > 0 && !map)) return CUSOLVER_STATUS_INVALID_VALUE;
  const int base = base_of(descrA);
  std::vector<int> column_position(n);  // column_position[old column] = new column
  for (int j = 0; j < n; ++j) {
    if (q[j] < 0 || q[j] >= n) return CUSOLVER_STATUS_INVALID_VALUE;
    column_position[q[j]] = j;
  }
  for (int i = 0; i < m; ++i)
    if (p[i] < 0 || p[i] >= m) return CUSOLVER_STATUS_INVALID_VALUE;
  const std::vector<int> old_rows(csrRowPtrA, csrRowPtrA + m + 1);
  const std::vector<int> old_columns(csrColIndA, csrColIndA + nnzA), old_map(map, map + nnzA);
  std::vector<std::pair<int, int>> row;  // (new column, old entry)
  csrRowPtrA[0] = base;
  for (int i = 0; i < m; ++i) {
    row.clear();
    for (int k = old_rows[p[i]] - base; k < old_rows[p[i] + 1] - base; ++k)
      row.emplace_back(column_position[old_columns[k] - base], k);
    std::sort(row.begin(), row.end());
    int out = csrRowPtrA[i] - base;
    for (const auto& [column, k] : row) {
      csrColIndA[out] = column + base;
      map[out] = old_map[k];
      ++out;
    }
    csrRowPtrA[i + 1] = out + base;
  }
  return CUSOLVER_STATUS_SUCCESS;
}

#define CUCPU_LSV(prefix, T, R)                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrlsvluHost(                                                   \
      cusolverSpHandle_t handle, int n, int nnzA, const cusparseMatDescr_t descrA, const T* csrValA,               \
      const int* csrRowPtrA, const int* csrColIndA, const T* b, R tol, int reorder, T* x, int* singularity) {      \
    return lsv_host(Factorization::LU, handle, n, nnzA, descrA, csrValA, csrRowPtrA, csrColIndA, b, tol, reorder,  \
                    x, singularity);                                                                               \
  }                                                                                                                \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrlsvqrHost(                                                   \
      cusolverSpHandle_t handle, int n, int nnzA, const cusparseMatDescr_t descrA, const T* csrValA,               \
      const int* csrRowPtrA, const int* csrColIndA, const T* b, R tol, int reorder, T* x, int* singularity) {      \
    return lsv_host(Factorization::QR, handle, n, nnzA, descrA, csrValA, csrRowPtrA, csrColIndA, b, tol, reorder,  \
                    x, singularity);                                                                               \
  }                                                                                                                \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrlsvcholHost(                                                 \
      cusolverSpHandle_t handle, int n, int nnzA, const cusparseMatDescr_t descrA, const T* csrValA,               \
      const int* csrRowPtrA, const int* csrColIndA, const T* b, R tol, int reorder, T* x, int* singularity) {      \
    return lsv_host(Factorization::Cholesky, handle, n, nnzA, descrA, csrValA, csrRowPtrA, csrColIndA, b, tol,     \
                    reorder, x, singularity);                                                                      \
  }                                                                                                                \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrlsvqr(                                                       \
      cusolverSpHandle_t handle, int n, int nnzA, const cusparseMatDescr_t descrA, const T* csrValA,               \
      const int* csrRowPtrA, const int* csrColIndA, const T* b, R tol, int reorder, T* x, int* singularity) {      \
    return lsv_device(Factorization::QR, "cusolverSp" #prefix "csrlsvqr", handle, n, nnzA, descrA, csrValA,        \
                      csrRowPtrA, csrColIndA, b, tol, reorder, x, singularity);                                    \
  }                                                                                                                \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrlsvchol(                                                     \
      cusolverSpHandle_t handle, int n, int nnzA, const cusparseMatDescr_t descrA, const T* csrValA,               \
      const int* csrRowPtrA, const int* csrColIndA, const T* b, R tol, int reorder, T* x, int* singularity) {      \
    return lsv_device(Factorization::Cholesky, "cusolverSp" #prefix "csrlsvchol", handle, n, nnzA, descrA,         \
                      csrValA, csrRowPtrA, csrColIndA, b, tol, reorder, x, singularity);                           \
  }

CUCPU_LSV(S, float, float)
CUCPU_LSV(D, double, double)
CUCPU_LSV(C, cuComplex, float)
CUCPU_LSV(Z, cuDoubleComplex, double)

}  // extern "C"
