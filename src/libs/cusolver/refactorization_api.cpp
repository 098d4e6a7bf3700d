// cuSOLVER's refactorization API (cusolverRf): after one LU factorization with pivoting,
// P A Q^T = L U (found elsewhere: cusolverSp's host LU, KLU), the LU of new matrices of A's
// pattern with the same P and Q and no new pivoting, over the pattern of L + U, and their solves,
// one system at a time or a batch of them.
//
// The handle keeps the bundled factors M = (L - I) + U in device memory (one set of values per
// system of a batch) and where A's stored entries land in M: B = P A Q^T, B(i, j) = A(P[i],
// Q[j]). Setup and ResetValues load B's values into M (zero elsewhere), Refactor factors M in
// place row by row (an up-looking sparse LU over M's pattern), flagging a pivot whose magnitude is
// at most `zero` (boosted, its column skipped: see factor). The input L and U give only the
// pattern. As on an H200 (CUDA 13.0): Analyze
// holds through a later Setup, Refactor and Solve before it do nothing, and a change of
// algorithm after it fails them. The work runs in order on the legacy stream (cusolverRf has no
// stream of its own); ResetValues and Solve return before it ends, the others wait, since their
// statuses (a zero pivot) or host results come back at the call.
#include <cuda.h>
#include <cusolverRf.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

#include "libs/cusolver/handle.h"

namespace cucpu::cusolver::refactorization {

// Device memory the handle owns (cuMemAlloc in the current device's primary context), so that
// AccessBundledFactorsDevice can hand out device pointers.
template <typename T>
class DeviceArray {
 public:
  DeviceArray() = default;
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() { release(); }

  bool allocate(size_t count) {
    release();
    CUdeviceptr pointer = 0;
    if (cuMemAlloc(&pointer, std::max<size_t>(count, 1) * sizeof(T)) != CUDA_SUCCESS) return false;
    data_ = reinterpret_cast<T*>(pointer);
    return true;
  }
  void release() {
    if (data_) (void)cuMemFree(reinterpret_cast<CUdeviceptr>(data_));
    data_ = nullptr;
  }
  T* data() const { return data_; }
  T& operator[](size_t i) const { return data_[i]; }

 private:
  T* data_ = nullptr;
};

// What Setup learns about the systems: M's pattern and values, and how A's values reach M.
struct Factors {
  int n = 0, nnz_a = 0, nnz = 0;
  int batch = 0;                           // the systems M holds values for; 0 until set up
  std::vector<std::pair<int, int>> loads;  // (M's position, A's stored entry) for each of B's entries in M
  std::vector<int> diagonal;               // M's position of (i, i)
  DeviceArray<int> row_ptr, col_ind;
  DeviceArray<double> values;   // system b's from b * nnz
  std::vector<int> zero_pivot;  // each system's first flagged pivot (a row of M), -1 if none

  double* system(int b) const { return values.data() + static_cast<size_t>(b) * nnz; }
};

// A matrix as the caller stores it: CSR, or for CUSOLVERRF_MATRIX_FORMAT_CSC its columns.
struct Stored {
  int nnz;
  const int* ptr;
  const int* ind;
};

}  // namespace cucpu::cusolver::refactorization

struct cusolverRfCommon {
  cusolverRfMatrixFormat_t format = CUSOLVERRF_MATRIX_FORMAT_CSR;
  cusolverRfUnitDiagonal_t diagonal = CUSOLVERRF_UNIT_DIAGONAL_STORED_L;
  double zero = 0, boost = 0;
  cusolverRfNumericBoostReport_t boost_report = CUSOLVERRF_NUMERIC_BOOST_NOT_USED;
  cusolverRfResetValuesFastMode_t fast_mode = CUSOLVERRF_RESET_VALUES_FAST_MODE_OFF;
  cusolverRfFactorization_t factorization = CUSOLVERRF_FACTORIZATION_ALG0;
  cusolverRfTriangularSolve_t triangular_solve = CUSOLVERRF_TRIANGULAR_SOLVE_ALG1;
  // Analyze's algorithms (it holds through a later Setup); Refactor and Solve do nothing before it.
  bool analysed = false;
  cusolverRfFactorization_t analysed_factorization = CUSOLVERRF_FACTORIZATION_ALG0;
  cusolverRfTriangularSolve_t analysed_solve = CUSOLVERRF_TRIANGULAR_SOLVE_ALG1;
  cucpu::cusolver::refactorization::Factors factors;
};

namespace cucpu::cusolver::refactorization {
namespace {

bool csc(cusolverRfHandle_t handle) { return handle->format == CUSOLVERRF_MATRIX_FORMAT_CSC; }

// Calls visit(row, column, k) for each stored entry k of an n x n matrix whose indices lie in it.
template <typename Visit>
void for_each_entry(int n, Stored matrix, bool by_columns, Visit visit) {
  for (int outer = 0; outer < n; ++outer)
    for (int k = std::max(matrix.ptr[outer], 0); k < std::min(matrix.ptr[outer + 1], matrix.nnz); ++k) {
      const int inner = matrix.ind[k];
      if (inner < 0 || inner >= n) continue;
      if (by_columns)
        visit(inner, outer, k);
      else
        visit(outer, inner, k);
    }
}

bool in_range(int n, const int* p) {
  return std::all_of(p, p + n, [n](int i) { return i >= 0 && i < n; });
}

// M's values for every system: B's entries where A has them (the first nnz_a of A's stored
// values: a ResetValues given fewer reads fewer), zero elsewhere.
void load_values(Factors& f, const double* const* a_values, int nnz_a) {
  std::fill(f.system(0), f.system(f.batch), 0.0);
  for (int b = 0; b < f.batch; ++b)
    for (auto [m, k] : f.loads)
      if (k < nnz_a) f.system(b)[m] = a_values[b][k];
}

// Builds M's pattern from those of L (strictly lower part) and U (strictly upper part) with the
// whole diagonal, whichever factor the caller's format keeps it in, and loads B's values.
cusolverStatus_t setup(cusolverRfHandle_t handle, int batch, int n, Stored a, const double* const* a_values, Stored l,
                       Stored u, const int* p, const int* q) {
  if (!in_range(n, p) || !in_range(n, q)) return CUSOLVER_STATUS_INVALID_VALUE;
  Factors& f = handle->factors;
  const bool by_columns = csc(handle);
  std::vector<std::vector<int>> columns(n);
  for (int i = 0; i < n; ++i) columns[i].push_back(i);
  for_each_entry(n, l, by_columns, [&](int i, int j, int) {
    if (j < i) columns[i].push_back(j);
  });
  for_each_entry(n, u, by_columns, [&](int i, int j, int) {
    if (j > i) columns[i].push_back(j);
  });
  for (auto& row : columns) {
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
  }
  f.n = n;
  f.nnz_a = a.nnz;
  f.batch = batch;
  f.nnz = 0;
  for (const auto& row : columns) f.nnz += static_cast<int>(row.size());
  if (!f.row_ptr.allocate(n + 1) || !f.col_ind.allocate(f.nnz) ||
      !f.values.allocate(static_cast<size_t>(f.nnz) * batch)) {
    f.batch = 0;
    return CUSOLVER_STATUS_ALLOC_FAILED;
  }
  f.diagonal.assign(n, 0);
  f.row_ptr[0] = 0;
  for (int i = 0; i < n; ++i) {
    std::copy(columns[i].begin(), columns[i].end(), f.col_ind.data() + f.row_ptr[i]);
    f.diagonal[i] =
        f.row_ptr[i] + static_cast<int>(std::find(columns[i].begin(), columns[i].end(), i) - columns[i].begin());
    f.row_ptr[i + 1] = f.row_ptr[i] + static_cast<int>(columns[i].size());
  }
  // B's rows gathered from A's, A's column c becoming B's column j where Q[j] = c. (A P or Q that
  // is no permutation gives NVIDIA's a B that depends on memory it never wrote.)
  std::vector<std::vector<std::pair<int, int>>> a_rows(n);  // (column, stored entry)
  for_each_entry(n, a, by_columns, [&](int r, int c, int k) { a_rows[r].emplace_back(c, k); });
  std::vector<int> column_of(n, -1);
  for (int j = 0; j < n; ++j) column_of[q[j]] = j;
  f.loads.clear();
  for (int i = 0; i < n; ++i)
    for (auto [c, k] : a_rows[p[i]]) {
      const int j = column_of[c];
      const int* begin = f.col_ind.data() + f.row_ptr[i];
      const int* end = f.col_ind.data() + f.row_ptr[i + 1];
      const int* at = std::lower_bound(begin, end, j);
      if (j >= 0 && at != end && *at == j) f.loads.emplace_back(static_cast<int>(at - f.col_ind.data()), k);
    }
  f.zero_pivot.assign(batch, -1);
  load_values(f, a_values, a.nnz);
  return CUSOLVER_STATUS_SUCCESS;
}

// The LU of one system's M in place, no pivoting: row i's entries left of the diagonal become
// L(i, k) as rows k < i are subtracted in turn (fill outside the pattern is dropped). A pivot
// whose magnitude is at most `zero` is flagged: it becomes `boost` when boost > 0, and, as on an
// H200, its column takes no further part: the entries below it keep their values, undivided, and
// its row is subtracted from none. Returns the first flagged row when there is no boost, or -1;
// `flagged` says whether any pivot was.
int factor(const Factors& f, double* m, double zero, double boost, bool& flagged) {
  std::vector<int> where(f.n, -1);  // row i's position of each column
  std::vector<bool> skipped(f.n);   // the flagged pivots' columns
  int first_zero = -1;
  for (int i = 0; i < f.n; ++i) {
    const int begin = f.row_ptr[i], end = f.row_ptr[i + 1];
    for (int at = begin; at < end; ++at) where[f.col_ind[at]] = at;
    for (int at = begin; at < f.diagonal[i]; ++at) {
      const int k = f.col_ind[at];
      if (skipped[k]) continue;
      m[at] /= m[f.diagonal[k]];
      for (int above = f.diagonal[k] + 1; above < f.row_ptr[k + 1]; ++above)
        if (int target = where[f.col_ind[above]]; target >= 0) m[target] -= m[at] * m[above];
    }
    double& pivot = m[f.diagonal[i]];
    if (std::fabs(pivot) <= zero) {
      flagged = true;
      skipped[i] = true;
      if (boost > 0)
        pivot = boost;
      else if (first_zero < 0)
        first_zero = i;
    }
    for (int at = begin; at < end; ++at) where[f.col_ind[at]] = -1;
  }
  return first_zero;
}

// x = Q^T U^-1 L^-1 P x for one system, through `temp` (n values).
void solve(const Factors& f, const double* m, const int* p, const int* q, double* temp, double* x) {
  for (int i = 0; i < f.n; ++i) temp[i] = x[p[i]];
  for (int i = 0; i < f.n; ++i) {
    double sum = temp[i];
    for (int at = f.row_ptr[i]; at < f.diagonal[i]; ++at) sum -= m[at] * temp[f.col_ind[at]];
    temp[i] = sum;
  }
  for (int i = f.n - 1; i >= 0; --i) {
    double sum = temp[i];
    for (int at = f.diagonal[i] + 1; at < f.row_ptr[i + 1]; ++at) sum -= m[at] * temp[f.col_ind[at]];
    temp[i] = sum / m[f.diagonal[i]];
  }
  for (int j = 0; j < f.n; ++j) x[q[j]] = temp[j];
}

// Queues `work` on the legacy stream; when `wait`, waits for it and returns its own status, or how
// the queueing or the device failed.
cusolverStatus_t run_on_legacy_stream(const char* function, std::initializer_list<DeviceRange> ranges,
                                      std::function<cusolverStatus_t()> work, bool wait = true) {
  if (!wait) return run(cudaStream_t{}, function, ranges, [work = std::move(work)] { (void)work(); });
  cusolverStatus_t status = CUSOLVER_STATUS_SUCCESS;
  if (auto queued = run(cudaStream_t{}, function, ranges, [&status, &work] { status = work(); });
      queued != CUSOLVER_STATUS_SUCCESS)
    return queued;
  if (!libs::synchronize(nullptr)) return CUSOLVER_STATUS_EXECUTION_FAILED;
  return status;
}

DeviceRange ints(const int* base, long count) { return array_range(base, count, sizeof(int)); }
DeviceRange doubles(const double* base, long count) { return array_range(base, count, sizeof(double)); }
DeviceRange pointers(double* const* base, long count) { return array_range(base, count, sizeof(double*)); }

// Before any Setup it does nothing; the row-by-row LU needs no analysis of its parallelism.
cusolverStatus_t analyze(cusolverRfHandle_t handle) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (handle->factors.batch == 0) return CUSOLVER_STATUS_SUCCESS;
  handle->analysed = true;
  handle->analysed_factorization = handle->factorization;
  handle->analysed_solve = handle->triangular_solve;
  return CUSOLVER_STATUS_SUCCESS;
}

// Refactor and BatchRefactor: every system's LU; the boost report says whether any pivot was flagged.
cusolverStatus_t refactor(cusolverRfHandle_t handle, const char* function) {
  Factors& f = handle->factors;
  if (f.batch == 0 || !handle->analysed) return CUSOLVER_STATUS_SUCCESS;  // M is left as it was
  if (handle->factorization != handle->analysed_factorization) return CUSOLVER_STATUS_INTERNAL_ERROR;
  return run_on_legacy_stream(function, {}, [handle, &f] {
    bool flagged = false;
    for (int b = 0; b < f.batch; ++b) f.zero_pivot[b] = factor(f, f.system(b), handle->zero, handle->boost, flagged);
    handle->boost_report = flagged ? CUSOLVERRF_NUMERIC_BOOST_USED : CUSOLVERRF_NUMERIC_BOOST_NOT_USED;
    return CUSOLVER_STATUS_SUCCESS;
  });
}

// Solve's and BatchSolve's checks: SUCCESS to go on, or the status to return. Before Setup or
// Analyze a solve does nothing; after a change of algorithm it fails.
cusolverStatus_t check_solve(cusolverRfHandle_t handle, int nrhs, int ldt, int ldxf, bool batched, bool& skip) {
  const Factors& f = handle->factors;
  skip = false;
  if (nrhs != 1 || (batched ? ldt != f.n : ldt < f.n) || ldxf < f.n) return CUSOLVER_STATUS_INVALID_VALUE;
  if (f.batch == 0 || !handle->analysed) {
    skip = true;
    return CUSOLVER_STATUS_SUCCESS;
  }
  if (handle->triangular_solve != handle->analysed_solve) return CUSOLVER_STATUS_EXECUTION_FAILED;
  return CUSOLVER_STATUS_SUCCESS;
}

// One system's solve with the caller's P and Q (a value out of range, which would fault on a GPU, skips it).
void solve_with(const Factors& f, const double* m, const int* p, const int* q, double* temp, double* x) {
  if (in_range(f.n, p) && in_range(f.n, q)) solve(f, m, p, q, temp, x);
}

// M's values, or L's and U's, handed to the caller in malloc'd host arrays, in the handle's format.
struct HostMatrix {
  int nnz = 0;
  int* ptr = nullptr;
  int* ind = nullptr;
  double* val = nullptr;
};

// A CSR matrix (rows of (column, value)) as the caller's format stores it, malloc'd.
cusolverStatus_t to_host(int n, const std::vector<std::vector<std::pair<int, double>>>& rows, bool by_columns,
                         HostMatrix& out) {
  std::vector<std::vector<std::pair<int, double>>> transposed;
  const auto* outer = &rows;
  if (by_columns) {
    transposed.resize(n);
    for (int i = 0; i < n; ++i)
      for (auto [j, v] : rows[i]) transposed[j].emplace_back(i, v);
    outer = &transposed;
  }
  out.nnz = 0;
  for (const auto& line : *outer) out.nnz += static_cast<int>(line.size());
  out.ptr = static_cast<int*>(std::malloc(sizeof(int) * (n + 1)));
  out.ind = static_cast<int*>(std::malloc(sizeof(int) * std::max(out.nnz, 1)));
  out.val = static_cast<double*>(std::malloc(sizeof(double) * std::max(out.nnz, 1)));
  if (!out.ptr || !out.ind || !out.val) {
    std::free(out.ptr);
    std::free(out.ind);
    std::free(out.val);
    return CUSOLVER_STATUS_ALLOC_FAILED;
  }
  out.ptr[0] = 0;
  for (int i = 0; i < n; ++i) {
    int at = out.ptr[i];
    for (auto [j, v] : (*outer)[i]) {
      out.ind[at] = j;
      out.val[at++] = v;
    }
    out.ptr[i + 1] = at;
  }
  return CUSOLVER_STATUS_SUCCESS;
}

using Rows = std::vector<std::vector<std::pair<int, double>>>;

// The first system's factors as rows: M itself, or L and U in the handle's unit-diagonal form
// (the U forms move the pivots into L: L D and D^-1 U).
Rows bundled_rows(const Factors& f) {
  Rows rows(f.n);
  for (int i = 0; i < f.n; ++i)
    for (int at = f.row_ptr[i]; at < f.row_ptr[i + 1]; ++at) rows[i].emplace_back(f.col_ind[at], f.system(0)[at]);
  return rows;
}

void split_rows(const Factors& f, cusolverRfUnitDiagonal_t diagonal, Rows& l, Rows& u) {
  const bool unit_u = diagonal == CUSOLVERRF_UNIT_DIAGONAL_STORED_U || diagonal == CUSOLVERRF_UNIT_DIAGONAL_ASSUMED_U;
  const double* m = f.system(0);
  l.assign(f.n, {});
  u.assign(f.n, {});
  for (int i = 0; i < f.n; ++i) {
    const double pivot = m[f.diagonal[i]];
    for (int at = f.row_ptr[i]; at < f.diagonal[i]; ++at) {
      const int k = f.col_ind[at];
      l[i].emplace_back(k, unit_u ? m[at] * m[f.diagonal[k]] : m[at]);
    }
    if (diagonal == CUSOLVERRF_UNIT_DIAGONAL_STORED_L) l[i].emplace_back(i, 1.0);
    if (unit_u) l[i].emplace_back(i, pivot);
    if (!unit_u) u[i].emplace_back(i, pivot);
    if (diagonal == CUSOLVERRF_UNIT_DIAGONAL_STORED_U) u[i].emplace_back(i, 1.0);
    for (int at = f.diagonal[i] + 1; at < f.row_ptr[i + 1]; ++at)
      u[i].emplace_back(f.col_ind[at], unit_u ? m[at] / pivot : m[at]);
  }
}

bool valid(cusolverRfMatrixFormat_t format) {
  return format == CUSOLVERRF_MATRIX_FORMAT_CSR || format == CUSOLVERRF_MATRIX_FORMAT_CSC;
}
bool valid(cusolverRfUnitDiagonal_t diagonal) {
  return diagonal >= CUSOLVERRF_UNIT_DIAGONAL_STORED_L && diagonal <= CUSOLVERRF_UNIT_DIAGONAL_ASSUMED_U;
}

// What NVIDIA's Setup says to its sizes and arrays, whichever memory they are in: a negative size
// fails its allocation, a NULL array its copy. (n = 0 ends its process with a division by zero.)
cusolverStatus_t check_setup(int n, Stored a, Stored l, Stored u, const void* a_values, const void* l_values,
                             const void* u_values, const int* p, const int* q) {
  if (n < 0 || a.nnz < 0 || l.nnz < 0 || u.nnz < 0) return CUSOLVER_STATUS_ALLOC_FAILED;
  if (n == 0) return CUSOLVER_STATUS_INVALID_VALUE;
  if (!a.ptr || !a.ind || !a_values || !l.ptr || !l.ind || !l_values || !u.ptr || !u.ind || !u_values || !p || !q)
    return CUSOLVER_STATUS_EXECUTION_FAILED;
  return CUSOLVER_STATUS_SUCCESS;
}

}  // namespace
}  // namespace cucpu::cusolver::refactorization

using namespace cucpu::cusolver::refactorization;
using cucpu::cusolver::DeviceRange;

extern "C" {

// A NULL handle (or output) is refused where NVIDIA's would crash.
cusolverStatus_t CUSOLVERAPI cusolverRfCreate(cusolverRfHandle_t* handle) {
  if (!handle) return CUSOLVER_STATUS_INVALID_VALUE;
  // The handle's factors are driver allocations (cuMemAlloc) in the runtime's context.
  if (auto ready = cucpu::libs::prepare_device(); !ready || cuInit(0) != CUDA_SUCCESS)
    return CUSOLVER_STATUS_NOT_INITIALIZED;
  *handle = new (std::nothrow) cusolverRfCommon;
  return *handle ? CUSOLVER_STATUS_SUCCESS : CUSOLVER_STATUS_ALLOC_FAILED;
}

cusolverStatus_t CUSOLVERAPI cusolverRfDestroy(cusolverRfHandle_t handle) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  (void)cucpu::libs::synchronize(nullptr);  // the work that may still read M finishes first
  delete handle;
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t CUSOLVERAPI cusolverRfGetMatrixFormat(cusolverRfHandle_t handle, cusolverRfMatrixFormat_t* format,
                                                       cusolverRfUnitDiagonal_t* diag) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!format || !diag) return CUSOLVER_STATUS_INVALID_VALUE;
  *format = handle->format;
  *diag = handle->diagonal;
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t CUSOLVERAPI cusolverRfSetMatrixFormat(cusolverRfHandle_t handle, cusolverRfMatrixFormat_t format,
                                                       cusolverRfUnitDiagonal_t diag) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!valid(format) || !valid(diag)) return CUSOLVER_STATUS_INVALID_VALUE;
  handle->format = format;
  handle->diagonal = diag;
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t CUSOLVERAPI cusolverRfSetNumericProperties(cusolverRfHandle_t handle, double zero, double boost) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (zero < 0 || boost < 0) return CUSOLVER_STATUS_INVALID_VALUE;
  handle->zero = zero;
  handle->boost = boost;
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t CUSOLVERAPI cusolverRfGetNumericProperties(cusolverRfHandle_t handle, double* zero, double* boost) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!zero || !boost) return CUSOLVER_STATUS_INVALID_VALUE;
  *zero = handle->zero;
  *boost = handle->boost;
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t CUSOLVERAPI cusolverRfGetNumericBoostReport(cusolverRfHandle_t handle,
                                                             cusolverRfNumericBoostReport_t* report) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!report) return CUSOLVER_STATUS_INVALID_VALUE;
  *report = handle->boost_report;
  return CUSOLVER_STATUS_SUCCESS;
}

// Every algorithm computes the same LU here. As NVIDIA's: the factorization must be one of its
// three, and ALG1 and ALG2 refuse the triangular solve ALG1; ALG0 takes any solve value.
cusolverStatus_t CUSOLVERAPI cusolverRfSetAlgs(cusolverRfHandle_t handle, cusolverRfFactorization_t factAlg,
                                               cusolverRfTriangularSolve_t solveAlg) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (factAlg < CUSOLVERRF_FACTORIZATION_ALG0 || factAlg > CUSOLVERRF_FACTORIZATION_ALG2 ||
      (factAlg != CUSOLVERRF_FACTORIZATION_ALG0 && solveAlg == CUSOLVERRF_TRIANGULAR_SOLVE_ALG1))
    return CUSOLVER_STATUS_INVALID_VALUE;
  handle->factorization = factAlg;
  handle->triangular_solve = solveAlg;
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t CUSOLVERAPI cusolverRfGetAlgs(cusolverRfHandle_t handle, cusolverRfFactorization_t* factAlg,
                                               cusolverRfTriangularSolve_t* solveAlg) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!factAlg || !solveAlg) return CUSOLVER_STATUS_INVALID_VALUE;
  *factAlg = handle->factorization;
  *solveAlg = handle->triangular_solve;
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t CUSOLVERAPI cusolverRfGetResetValuesFastMode(cusolverRfHandle_t handle,
                                                              cusolverRfResetValuesFastMode_t* fastMode) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!fastMode) return CUSOLVER_STATUS_INVALID_VALUE;
  *fastMode = handle->fast_mode;
  return CUSOLVER_STATUS_SUCCESS;
}

// Either mode loads the values the same way (through what Setup worked out).
cusolverStatus_t CUSOLVERAPI cusolverRfSetResetValuesFastMode(cusolverRfHandle_t handle,
                                                              cusolverRfResetValuesFastMode_t fastMode) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (fastMode != CUSOLVERRF_RESET_VALUES_FAST_MODE_OFF && fastMode != CUSOLVERRF_RESET_VALUES_FAST_MODE_ON)
    return CUSOLVER_STATUS_INVALID_VALUE;
  handle->fast_mode = fastMode;
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t CUSOLVERAPI cusolverRfSetupHost(int n, int nnzA, int* h_csrRowPtrA, int* h_csrColIndA,
                                                 double* h_csrValA, int nnzL, int* h_csrRowPtrL, int* h_csrColIndL,
                                                 double* h_csrValL, int nnzU, int* h_csrRowPtrU, int* h_csrColIndU,
                                                 double* h_csrValU, int* h_P, int* h_Q, cusolverRfHandle_t handle) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  const Stored a{nnzA, h_csrRowPtrA, h_csrColIndA}, l{nnzL, h_csrRowPtrL, h_csrColIndL},
      u{nnzU, h_csrRowPtrU, h_csrColIndU};
  if (auto status = check_setup(n, a, l, u, h_csrValA, h_csrValL, h_csrValU, h_P, h_Q);
      status != CUSOLVER_STATUS_SUCCESS)
    return status;
  // As a cudaMemcpy into the handle's device memory: after the work queued before it.
  if (!cucpu::libs::synchronize(nullptr)) return CUSOLVER_STATUS_EXECUTION_FAILED;
  const double* values[] = {h_csrValA};
  return setup(handle, 1, n, a, values, l, u, h_P, h_Q);
}

cusolverStatus_t CUSOLVERAPI cusolverRfSetupDevice(int n, int nnzA, int* csrRowPtrA, int* csrColIndA, double* csrValA,
                                                   int nnzL, int* csrRowPtrL, int* csrColIndL, double* csrValL,
                                                   int nnzU, int* csrRowPtrU, int* csrColIndU, double* csrValU, int* P,
                                                   int* Q, cusolverRfHandle_t handle) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (auto status = check_setup(n, {nnzA, csrRowPtrA, csrColIndA}, {nnzL, csrRowPtrL, csrColIndL},
                                {nnzU, csrRowPtrU, csrColIndU}, csrValA, csrValL, csrValU, P, Q);
      status != CUSOLVER_STATUS_SUCCESS)
    return status;
  // The inputs are read in stream order, then set up as from the host (the handle's device
  // memory is allocated on this thread, which has the context).
  std::vector<int> a_ptr(n + 1), a_ind(nnzA), l_ptr(n + 1), l_ind(nnzL), u_ptr(n + 1), u_ind(nnzU), p(n), q(n);
  std::vector<double> a_val(nnzA);
  auto status = run_on_legacy_stream(
      "cusolverRfSetupDevice",
      {ints(csrRowPtrA, n + 1), ints(csrColIndA, nnzA), doubles(csrValA, nnzA), ints(csrRowPtrL, n + 1),
       ints(csrColIndL, nnzL), doubles(csrValL, nnzL), ints(csrRowPtrU, n + 1), ints(csrColIndU, nnzU),
       doubles(csrValU, nnzU), ints(P, n), ints(Q, n)},
      [&] {
        std::copy_n(csrRowPtrA, n + 1, a_ptr.begin());
        std::copy_n(csrColIndA, nnzA, a_ind.begin());
        std::copy_n(csrValA, nnzA, a_val.begin());
        std::copy_n(csrRowPtrL, n + 1, l_ptr.begin());
        std::copy_n(csrColIndL, nnzL, l_ind.begin());
        std::copy_n(csrRowPtrU, n + 1, u_ptr.begin());
        std::copy_n(csrColIndU, nnzU, u_ind.begin());
        std::copy_n(P, n, p.begin());
        std::copy_n(Q, n, q.begin());
        return CUSOLVER_STATUS_SUCCESS;
      });
  if (status != CUSOLVER_STATUS_SUCCESS) return status;
  const double* values[] = {a_val.data()};
  return setup(handle, 1, n, {nnzA, a_ptr.data(), a_ind.data()}, values, {nnzL, l_ptr.data(), l_ind.data()},
               {nnzU, u_ptr.data(), u_ind.data()}, p.data(), q.data());
}

// Only the values are read: the pattern, P and Q are Setup's, as cusolverRf assumes. As NVIDIA's:
// n must be Setup's, nnzA may differ (fewer values are read), and the call returns before its work
// ends (a NULL csrValA faults the device afterwards).
cusolverStatus_t CUSOLVERAPI cusolverRfResetValues(int n, int nnzA, int* csrRowPtrA, int* csrColIndA, double* csrValA,
                                                   int* P, int* Q, cusolverRfHandle_t handle) {
  (void)csrRowPtrA, (void)csrColIndA, (void)P, (void)Q;
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  Factors& f = handle->factors;
  if (n != f.n || nnzA < 0) return CUSOLVER_STATUS_INVALID_VALUE;
  if (f.batch == 0) return CUSOLVER_STATUS_SUCCESS;
  const int count = std::min(nnzA, f.nnz_a);
  return run_on_legacy_stream(
      "cusolverRfResetValues", {doubles(csrValA, count)},
      [&f, csrValA, count] {
        const double* values[] = {csrValA};
        load_values(f, values, count);
        return CUSOLVER_STATUS_SUCCESS;
      },
      false);
}

cusolverStatus_t CUSOLVERAPI cusolverRfAnalyze(cusolverRfHandle_t handle) { return analyze(handle); }

cusolverStatus_t CUSOLVERAPI cusolverRfRefactor(cusolverRfHandle_t handle) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (auto status = refactor(handle, "cusolverRfRefactor"); status != CUSOLVER_STATUS_SUCCESS) return status;
  return handle->factors.batch > 0 && handle->factors.zero_pivot[0] >= 0 ? CUSOLVER_STATUS_ZERO_PIVOT
                                                                         : CUSOLVER_STATUS_SUCCESS;
}

// Before Setup: no factors (nnzM 0, NULL arrays), as NVIDIA's.
cusolverStatus_t CUSOLVERAPI cusolverRfAccessBundledFactorsDevice(cusolverRfHandle_t handle, int* nnzM, int** Mp,
                                                                  int** Mi, double** Mx) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!nnzM || !Mp || !Mi || !Mx) return CUSOLVER_STATUS_INVALID_VALUE;
  const Factors& f = handle->factors;
  *nnzM = f.batch ? f.nnz : 0;
  *Mp = f.batch ? f.row_ptr.data() : nullptr;
  *Mi = f.batch ? f.col_ind.data() : nullptr;
  *Mx = f.batch ? f.values.data() : nullptr;
  return CUSOLVER_STATUS_SUCCESS;
}

// The extractions before Setup: EXECUTION_FAILED, as NVIDIA's (its copy from no factors fails).
cusolverStatus_t CUSOLVERAPI cusolverRfExtractBundledFactorsHost(cusolverRfHandle_t handle, int* h_nnzM, int** h_Mp,
                                                                 int** h_Mi, double** h_Mx) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  const Factors& f = handle->factors;
  if (!h_nnzM || !h_Mp || !h_Mi || !h_Mx) return CUSOLVER_STATUS_INVALID_VALUE;
  if (f.batch == 0 || !cucpu::libs::synchronize(nullptr)) return CUSOLVER_STATUS_EXECUTION_FAILED;
  HostMatrix m;
  if (auto status = to_host(f.n, bundled_rows(f), csc(handle), m); status != CUSOLVER_STATUS_SUCCESS) return status;
  *h_nnzM = m.nnz;
  *h_Mp = m.ptr;
  *h_Mi = m.ind;
  *h_Mx = m.val;
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t CUSOLVERAPI cusolverRfExtractSplitFactorsHost(cusolverRfHandle_t handle, int* h_nnzL,
                                                               int** h_csrRowPtrL, int** h_csrColIndL,
                                                               double** h_csrValL, int* h_nnzU, int** h_csrRowPtrU,
                                                               int** h_csrColIndU, double** h_csrValU) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  const Factors& f = handle->factors;
  if (!h_nnzL || !h_csrRowPtrL || !h_csrColIndL || !h_csrValL || !h_nnzU || !h_csrRowPtrU || !h_csrColIndU ||
      !h_csrValU)
    return CUSOLVER_STATUS_INVALID_VALUE;
  if (f.batch == 0 || !cucpu::libs::synchronize(nullptr)) return CUSOLVER_STATUS_EXECUTION_FAILED;
  Rows l_rows, u_rows;
  split_rows(f, handle->diagonal, l_rows, u_rows);
  HostMatrix l, u;
  if (auto status = to_host(f.n, l_rows, csc(handle), l); status != CUSOLVER_STATUS_SUCCESS) return status;
  if (auto status = to_host(f.n, u_rows, csc(handle), u); status != CUSOLVER_STATUS_SUCCESS) {
    for (void* array : {static_cast<void*>(l.ptr), static_cast<void*>(l.ind), static_cast<void*>(l.val)})
      std::free(array);
    return status;
  }
  *h_nnzL = l.nnz;
  *h_csrRowPtrL = l.ptr;
  *h_csrColIndL = l.ind;
  *h_csrValL = l.val;
  *h_nnzU = u.nnz;
  *h_csrRowPtrU = u.ptr;
  *h_csrColIndU = u.ind;
  *h_csrValU = u.val;
  return CUSOLVER_STATUS_SUCCESS;
}

// Only one right-hand side, as NVIDIA's; the call returns before its work ends, and a bad P, Q,
// Temp or XF faults the device afterwards.
cusolverStatus_t CUSOLVERAPI cusolverRfSolve(cusolverRfHandle_t handle, int* P, int* Q, int nrhs, double* Temp, int ldt,
                                             double* XF, int ldxf) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  bool skip = false;
  if (auto status = check_solve(handle, nrhs, ldt, ldxf, false, skip); status != CUSOLVER_STATUS_SUCCESS || skip)
    return status;
  const Factors& f = handle->factors;
  return run_on_legacy_stream(
      "cusolverRfSolve", {ints(P, f.n), ints(Q, f.n), doubles(Temp, f.n), doubles(XF, f.n)},
      [&f, P, Q, Temp, XF] {
        solve_with(f, f.system(0), P, Q, Temp, XF);
        return CUSOLVER_STATUS_SUCCESS;
      },
      false);
}

// The batched routines follow NVIDIA's documentation; its own (CUDA 13.0) crashes in
// cusolverRfBatchAnalyze on an H200, so only BatchSetupHost's statuses were compared with it.
cusolverStatus_t CUSOLVERAPI cusolverRfBatchSetupHost(int batchSize, int n, int nnzA, int* h_csrRowPtrA,
                                                      int* h_csrColIndA, double* h_csrValA_array[], int nnzL,
                                                      int* h_csrRowPtrL, int* h_csrColIndL, double* h_csrValL, int nnzU,
                                                      int* h_csrRowPtrU, int* h_csrColIndU, double* h_csrValU, int* h_P,
                                                      int* h_Q, cusolverRfHandle_t handle) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (batchSize < 1) return CUSOLVER_STATUS_INVALID_VALUE;
  const Stored a{nnzA, h_csrRowPtrA, h_csrColIndA}, l{nnzL, h_csrRowPtrL, h_csrColIndL},
      u{nnzU, h_csrRowPtrU, h_csrColIndU};
  if (auto status = check_setup(n, a, l, u, h_csrValA_array, h_csrValL, h_csrValU, h_P, h_Q);
      status != CUSOLVER_STATUS_SUCCESS)
    return status;
  for (int b = 0; b < batchSize; ++b)
    if (!h_csrValA_array[b]) return CUSOLVER_STATUS_EXECUTION_FAILED;
  if (!cucpu::libs::synchronize(nullptr)) return CUSOLVER_STATUS_EXECUTION_FAILED;
  return setup(handle, batchSize, n, a, h_csrValA_array, l, u, h_P, h_Q);
}

// csrValA_array: batchSize pointers in device memory, each to a system's values in device memory.
cusolverStatus_t CUSOLVERAPI cusolverRfBatchResetValues(int batchSize, int n, int nnzA, int* csrRowPtrA,
                                                        int* csrColIndA, double* csrValA_array[], int* P, int* Q,
                                                        cusolverRfHandle_t handle) {
  static constexpr const char* function = "cusolverRfBatchResetValues";
  (void)csrRowPtrA, (void)csrColIndA, (void)P, (void)Q;
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  Factors& f = handle->factors;
  if (batchSize != f.batch || n != f.n || nnzA < 0) return CUSOLVER_STATUS_INVALID_VALUE;
  if (f.batch == 0) return CUSOLVER_STATUS_SUCCESS;
  const int count = std::min(nnzA, f.nnz_a);
  return run_on_legacy_stream(
      function, {pointers(csrValA_array, batchSize)},
      [&f, csrValA_array, count] {
        for (int b = 0; b < f.batch; ++b)
          if (!cucpu::libs::require_device_memory(function, doubles(csrValA_array[b], count)))
            return CUSOLVER_STATUS_EXECUTION_FAILED;
        load_values(f, csrValA_array, count);
        return CUSOLVER_STATUS_SUCCESS;
      },
      false);
}

cusolverStatus_t CUSOLVERAPI cusolverRfBatchAnalyze(cusolverRfHandle_t handle) { return analyze(handle); }

// A system's zero pivot is not the call's status: BatchZeroPivot says which system had one.
cusolverStatus_t CUSOLVERAPI cusolverRfBatchRefactor(cusolverRfHandle_t handle) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  return refactor(handle, "cusolverRfBatchRefactor");
}

// Temp: 2 * batchSize * n values, ldt = n; XF_array: batchSize pointers in device memory, each
// to a system's right-hand side in device memory.
cusolverStatus_t CUSOLVERAPI cusolverRfBatchSolve(cusolverRfHandle_t handle, int* P, int* Q, int nrhs, double* Temp,
                                                  int ldt, double* XF_array[], int ldxf) {
  static constexpr const char* function = "cusolverRfBatchSolve";
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  bool skip = false;
  if (auto status = check_solve(handle, nrhs, ldt, ldxf, true, skip); status != CUSOLVER_STATUS_SUCCESS || skip)
    return status;
  const Factors& f = handle->factors;
  return run_on_legacy_stream(
      function, {ints(P, f.n), ints(Q, f.n), doubles(Temp, 2L * f.batch * f.n), pointers(XF_array, f.batch)},
      [&f, P, Q, Temp, XF_array] {
        for (int b = 0; b < f.batch; ++b)
          if (!cucpu::libs::require_device_memory(function, doubles(XF_array[b], f.n)))
            return CUSOLVER_STATUS_EXECUTION_FAILED;
        for (int b = 0; b < f.batch; ++b)
          solve_with(f, f.system(b), P, Q, Temp + static_cast<size_t>(b) * f.n, XF_array[b]);
        return CUSOLVER_STATUS_SUCCESS;
      },
      false);
}

// position[j]: system j's first zero pivot (a row of M), or -1.
cusolverStatus_t CUSOLVERAPI cusolverRfBatchZeroPivot(cusolverRfHandle_t handle, int* position) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  const Factors& f = handle->factors;
  if (!position) return CUSOLVER_STATUS_INVALID_VALUE;
  if (f.batch == 0) return CUSOLVER_STATUS_SUCCESS;
  if (!cucpu::libs::synchronize(nullptr)) return CUSOLVER_STATUS_EXECUTION_FAILED;
  std::copy(f.zero_pivot.begin(), f.zero_pivot.end(), position);
  const bool any = std::any_of(f.zero_pivot.begin(), f.zero_pivot.end(), [](int row) { return row >= 0; });
  return any ? CUSOLVER_STATUS_ZERO_PIVOT : CUSOLVER_STATUS_SUCCESS;
}

}  // extern "C"
