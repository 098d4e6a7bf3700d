// cuSOLVER's refactorization API (cusolverRf) through cucpu's libcusolver.so.12, compared with the
// GPU's output. An 8x8 and a 200x200 sparse system are factored once on the host with partial
// pivoting (this program's own dense LU, as NVIDIA's cuSolverRf sample does with cusolverSp's),
// giving P A Q^T = L U with Q = I; cusolverRf then sets up from P, Q, L and U, refactors, solves,
// takes new values of the same pattern (ResetValues) and refactors again, in each unit-diagonal
// format, from host and device, with each algorithm, and in CSC. Also: the bundled and split
// factors, zero pivots and the numeric boost, calls out of order and the statuses of bad
// arguments. Batched: only BatchSetupHost, since NVIDIA's BatchAnalyze crashes on an H200; the
// whole batched flow runs with the argument `batched` (e2e.cusolver_refactorization_batched).
// Every matrix is A = P0^T L0 U0 with L0's entries multiples of 1/8 below 1 and U0's small
// integers over a power-of-two diagonal, so partial pivoting finds P0 again and every LU and
// solve is exact in binary floating point whatever order a library adds in; the few values that
// are not (a solve with unfactored M, the 2x2 boost cases) are printed to 7 digits.
// NVCC-FLAGS: -lcusolver
#define DISABLE_CUSOLVER_DEPRECATED
#include <cuda_runtime.h>
#include <cusolverRf.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using Dense = std::vector<double>;  // n x n, row-major

struct Csr {
  std::vector<int> ptr, ind;
  std::vector<double> val;
  int nnz() const { return static_cast<int>(ind.size()); }
};

// Which entries L0 (below the diagonal) and U0 (above it) have, and the row order P0.
struct Shape {
  int n;
  std::vector<char> lower, upper;
  std::vector<int> p0;
};

// A deterministic generator (an LCG), the same on every machine.
struct Random {
  unsigned long long state;
  unsigned next(unsigned bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<unsigned>(state >> 33) % bound;
  }
};

Shape small_shape() {
  Shape s{8, std::vector<char>(64), std::vector<char>(64), {3, 6, 0, 7, 1, 5, 2, 4}};
  for (auto [i, j] : {std::pair{1, 0}, {3, 1}, {4, 0}, {5, 3}, {6, 2}, {7, 4}, {7, 6}}) s.lower[i * 8 + j] = 1;
  for (auto [i, j] : {std::pair{0, 2}, {1, 2}, {1, 5}, {2, 6}, {3, 4}, {4, 7}, {5, 6}}) s.upper[i * 8 + j] = 1;
  return s;
}

// Banded with a few long-range entries, rows scrambled.
Shape banded_shape(int n) {
  Shape s{n, std::vector<char>(n * n), std::vector<char>(n * n), std::vector<int>(n)};
  Random random{12345};
  for (int i = 0; i < n; ++i) {
    for (int d = 1; d <= 3; ++d) {
      if (i - d >= 0 && random.next(3) != 0) s.lower[i * n + i - d] = 1;
      if (i + d < n && random.next(3) != 0) s.upper[i * n + i + d] = 1;
    }
    if (i % 5 == 0 && i >= 17) s.lower[i * n + i - 17] = 1;
    if (i % 7 == 0 && i + 23 < n) s.upper[i * n + i + 23] = 1;
  }
  for (int i = 0; i < n; ++i) s.p0[i] = i;
  for (int i = n - 1; i > 0; --i) std::swap(s.p0[i], s.p0[random.next(i + 1)]);
  return s;
}

// L0 and U0 of one version of the values (all positive: no product cancels).
void factors(const Shape& s, int version, Dense& l0, Dense& u0) {
  const int n = s.n;
  l0.assign(n * n, 0);
  u0.assign(n * n, 0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if (i == j) {
        l0[i * n + j] = 1;
        u0[i * n + j] = 2 << ((i + version) % 3);
      } else if (s.lower[i * n + j]) {
        l0[i * n + j] = (1 + (3 * i + 5 * j + version) % 7) / 8.0;
      } else if (s.upper[i * n + j]) {
        u0[i * n + j] = 1 + (i + 2 * j + version) % 5;
      }
    }
}

// A = P0^T L0 U0: row P0[i] of A is row i of L0 U0.
Dense compose(const Shape& s, const Dense& l0, const Dense& u0) {
  const int n = s.n;
  Dense a(n * n, 0);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k <= i; ++k)
      if (l0[i * n + k] != 0)
        for (int j = k; j < n; ++j) a[s.p0[i] * n + j] += l0[i * n + k] * u0[k * n + j];
  return a;
}

Csr to_csr(int n, const Dense& a) {
  Csr c{{0}, {}, {}};
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j)
      if (a[i * n + j] != 0) {
        c.ind.push_back(j);
        c.val.push_back(a[i * n + j]);
      }
    c.ptr.push_back(c.nnz());
  }
  return c;
}

// New values on an existing pattern (entries of `a` outside it must be zero).
Csr on_pattern(int n, const Csr& pattern, const Dense& a) {
  Csr c = pattern;
  for (int i = 0; i < n; ++i)
    for (int k = c.ptr[i]; k < c.ptr[i + 1]; ++k) c.val[k] = a[i * n + c.ind[k]];
  return c;
}

// The same matrix stored by columns (CSC), as CSR arrays of its transpose.
Csr transposed(int n, const Csr& a) {
  Dense t(n * n, 0);
  std::vector<char> in(n * n, 0);
  for (int i = 0; i < n; ++i)
    for (int k = a.ptr[i]; k < a.ptr[i + 1]; ++k) {
      t[a.ind[k] * n + i] = a.val[k];
      in[a.ind[k] * n + i] = 1;
    }
  Csr c{{0}, {}, {}};
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j)
      if (in[i * n + j]) {
        c.ind.push_back(j);
        c.val.push_back(t[i * n + j]);
      }
    c.ptr.push_back(c.nnz());
  }
  return c;
}

// The host LU with partial pivoting, P A = L U (Q = I), and the factors' pattern by symbolic
// elimination on A's, so that L + U hold every entry a refactorization can fill.
struct HostLu {
  std::vector<int> p, q;
  Dense lu;                // L below the diagonal (unit), U on and above it
  std::vector<char> fill;  // the pattern of L + U
};

HostLu factor_with_pivoting(int n, const Dense& a) {
  HostLu f{std::vector<int>(n), std::vector<int>(n), a, {}};
  for (int i = 0; i < n; ++i) f.p[i] = f.q[i] = i;
  Dense& m = f.lu;
  for (int k = 0; k < n; ++k) {
    int r = k;
    for (int i = k + 1; i < n; ++i)
      if (std::fabs(m[i * n + k]) > std::fabs(m[r * n + k])) r = i;
    if (r != k) {
      for (int j = 0; j < n; ++j) std::swap(m[k * n + j], m[r * n + j]);
      std::swap(f.p[k], f.p[r]);
    }
    for (int i = k + 1; i < n; ++i)
      if (m[i * n + k] != 0) {
        const double l = m[i * n + k] / m[k * n + k];
        m[i * n + k] = l;
        for (int j = k + 1; j < n; ++j) m[i * n + j] -= l * m[k * n + j];
      }
  }
  f.fill.assign(n * n, 0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) f.fill[i * n + j] = i == j || a[f.p[i] * n + j] != 0;
  for (int k = 0; k < n; ++k)
    for (int i = k + 1; i < n; ++i)
      if (f.fill[i * n + k])
        for (int j = k + 1; j < n; ++j)
          if (f.fill[k * n + j]) f.fill[i * n + j] = 1;
  return f;
}

// L and U in CSR over the fill pattern, in one of cusolverRf's unit-diagonal forms: the L forms
// keep the pivots in U (L's unit diagonal stored or not), the U forms in L (L D and D^-1 U).
void split(int n, const HostLu& f, cusolverRfUnitDiagonal_t form, Csr& l, Csr& u) {
  const bool unit_u = form == CUSOLVERRF_UNIT_DIAGONAL_STORED_U || form == CUSOLVERRF_UNIT_DIAGONAL_ASSUMED_U;
  l = Csr{{0}, {}, {}};
  u = Csr{{0}, {}, {}};
  for (int i = 0; i < n; ++i) {
    const double pivot = f.lu[i * n + i];
    for (int j = 0; j < n; ++j) {
      if (!f.fill[i * n + j]) continue;
      const double v = f.lu[i * n + j];
      if (j < i || (j == i && (form == CUSOLVERRF_UNIT_DIAGONAL_STORED_L || unit_u))) {
        l.ind.push_back(j);
        l.val.push_back(j == i ? (unit_u ? pivot : 1) : unit_u ? v * f.lu[j * n + j] : v);
      }
      if (j > i || (j == i && form != CUSOLVERRF_UNIT_DIAGONAL_ASSUMED_U)) {
        u.ind.push_back(j);
        u.val.push_back(j == i ? (unit_u ? 1 : pivot) : unit_u ? v / pivot : v);
      }
    }
    l.ptr.push_back(l.nnz());
    u.ptr.push_back(u.nnz());
  }
}

// A whole system: the matrix, its LU, a solution of small integers and its right-hand side.
struct System {
  int n;
  Dense a;
  Csr csr;
  HostLu lu;
  std::vector<double> x, b;
};

std::vector<double> times(int n, const Dense& a, const std::vector<double>& x) {
  std::vector<double> b(n, 0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) b[i] += a[i * n + j] * x[j];
  return b;
}

std::vector<double> solution(int n, int version) {
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i) x[i] = ((i * 7 + version) % 11) - 5;
  return x;
}

// Version 0 of a shape's values, factored on the host.
System make_system(const Shape& s) {
  Dense l0, u0;
  factors(s, 0, l0, u0);
  System sys{s.n, compose(s, l0, u0), {}, {}, solution(s.n, 0), {}};
  sys.csr = to_csr(s.n, sys.a);
  sys.lu = factor_with_pivoting(s.n, sys.a);
  sys.b = times(s.n, sys.a, sys.x);
  return sys;
}

// Another version of the values, on the first version's pattern; `pivot` replaces U0(k, k).
Dense new_values(const Shape& s, int version, int k = -1, double pivot = 0) {
  Dense l0, u0;
  factors(s, version, l0, u0);
  if (k >= 0) u0[k * s.n + k] = pivot;
  return compose(s, l0, u0);
}

// ---- device helpers and printing ----

template <typename T>
T* to_device(const std::vector<T>& v) {
  T* d = nullptr;
  cudaMalloc(&d, (v.empty() ? 1 : v.size()) * sizeof(T));
  cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

template <typename T>
std::vector<T> to_host(const T* d, int n) {
  std::vector<T> v(n);
  cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return v;
}

// Exact values in full; `rounded` ones (not exact in binary) to 7 digits.
void print_vector(const char* what, const std::vector<double>& x, bool rounded = false) {
  std::printf("%s:", what);
  for (size_t i = 0; i < x.size(); ++i)
    std::printf(rounded ? "%s%.6e" : "%s%.10g", i % 20 == 0 && i > 0 ? "\n   " : " ", x[i]);
  std::printf("\n");
}

void print_matrix(const char* what, int n, int nnz, const int* ptr, const int* ind, const double* val) {
  std::printf("%s: nnz %d\n", what, nnz);
  for (int i = 0; i < n; ++i) {
    std::printf("  %d:", i);
    for (int k = ptr[i]; k < ptr[i + 1]; ++k) std::printf(" %d:%.10g", ind[k], val[k]);
    std::printf("\n");
  }
}

bool all_finite(const std::vector<double>& x) {
  for (double v : x)
    if (!std::isfinite(v)) return false;
  return true;
}

bool same(const std::vector<double>& x, const std::vector<double>& y) { return x == y; }

// The largest |b - A x| relative to |A| |x|, said as whether it is tiny.
const char* residual(int n, const Dense& a, const std::vector<double>& x, const std::vector<double>& b) {
  double r = 0, an = 0, xn = 0;
  std::vector<double> ax = times(n, a, x);
  for (int i = 0; i < n; ++i) {
    r = std::fmax(r, std::fabs(b[i] - ax[i]));
    xn = std::fmax(xn, std::fabs(x[i]));
    double row = 0;
    for (int j = 0; j < n; ++j) row += std::fabs(a[i * n + j]);
    an = std::fmax(an, row);
  }
  return r <= 1e-12 * an * xn ? "residual ok" : "residual LARGE";
}

cusolverStatus_t setup_host(cusolverRfHandle_t h, System& s, Csr& l, Csr& u, Csr* a = nullptr) {
  Csr& m = a ? *a : s.csr;
  return cusolverRfSetupHost(s.n, m.nnz(), m.ptr.data(), m.ind.data(), m.val.data(), l.nnz(), l.ptr.data(),
                             l.ind.data(), l.val.data(), u.nnz(), u.ptr.data(), u.ind.data(), u.val.data(),
                             s.lu.p.data(), s.lu.q.data(), h);
}

// Solves A x = b with the handle's factors; the status, and x.
cusolverStatus_t solve(cusolverRfHandle_t h, const System& s, const std::vector<double>& b, std::vector<double>& x) {
  int* dp = to_device(s.lu.p);
  int* dq = to_device(s.lu.q);
  double* dt = to_device(std::vector<double>(s.n));
  double* dx = to_device(b);
  cusolverStatus_t status = cusolverRfSolve(h, dp, dq, 1, dt, s.n, dx, s.n);
  x = to_host(dx, s.n);
  for (void* d : {(void*)dp, (void*)dq, (void*)dt, (void*)dx}) cudaFree(d);
  return status;
}

// M's value at (i, i), read through the device pointers AccessBundledFactorsDevice gives.
double pivot_of(cusolverRfHandle_t h, int n, int i) {
  int nnz = 0, *mp = nullptr, *mi = nullptr;
  double* mx = nullptr;
  cusolverRfAccessBundledFactorsDevice(h, &nnz, &mp, &mi, &mx);
  std::vector<int> ptr = to_host(mp, n + 1), ind = to_host(mi, nnz);
  std::vector<double> val = to_host(mx, nnz);
  for (int k = ptr[i]; k < ptr[i + 1]; ++k)
    if (ind[k] == i) return val[k];
  return NAN;
}

void print_bundled_device(cusolverRfHandle_t h, const char* what, int n) {
  int nnz = -1, *mp = nullptr, *mi = nullptr;
  double* mx = nullptr;
  cusolverStatus_t status = cusolverRfAccessBundledFactorsDevice(h, &nnz, &mp, &mi, &mx);
  std::printf("AccessBundledFactorsDevice: status %d\n", status);
  if (status != CUSOLVER_STATUS_SUCCESS) return;
  std::vector<int> ptr = to_host(mp, n + 1), ind = to_host(mi, nnz);
  std::vector<double> val = to_host(mx, nnz);
  print_matrix(what, n, nnz, ptr.data(), ind.data(), val.data());
}

void print_extracted(cusolverRfHandle_t h, int n, bool contents) {
  int nnz_m = -1, *mp = nullptr, *mi = nullptr;
  double* mx = nullptr;
  cusolverStatus_t status = cusolverRfExtractBundledFactorsHost(h, &nnz_m, &mp, &mi, &mx);
  std::printf("ExtractBundledFactorsHost: status %d, nnzM %d\n", status, nnz_m);
  if (status == CUSOLVER_STATUS_SUCCESS) {
    if (contents) print_matrix("M", n, nnz_m, mp, mi, mx);
    std::free(mp);
    std::free(mi);
    std::free(mx);
  }
  int nnz_l = -1, nnz_u = -1, *lp = nullptr, *li = nullptr, *up = nullptr, *ui = nullptr;
  double *lx = nullptr, *ux = nullptr;
  status = cusolverRfExtractSplitFactorsHost(h, &nnz_l, &lp, &li, &lx, &nnz_u, &up, &ui, &ux);
  std::printf("ExtractSplitFactorsHost: status %d, nnzL %d, nnzU %d\n", status, nnz_l, nnz_u);
  if (status == CUSOLVER_STATUS_SUCCESS) {
    if (contents) {
      print_matrix("L", n, nnz_l, lp, li, lx);
      print_matrix("U", n, nnz_u, up, ui, ux);
    }
    for (void* p : {(void*)lp, (void*)li, (void*)lx, (void*)up, (void*)ui, (void*)ux}) std::free(p);
  }
}

// ---- the cases ----

void defaults_and_settings() {
  std::printf("== defaults and settings\n");
  cusolverRfHandle_t h;
  std::printf("Create: status %d\n", cusolverRfCreate(&h));
  cusolverRfMatrixFormat_t format;
  cusolverRfUnitDiagonal_t diag;
  double zero = -1, boost = -1;
  cusolverRfFactorization_t fact;
  cusolverRfTriangularSolve_t solve_alg;
  cusolverRfResetValuesFastMode_t fast;
  cusolverRfNumericBoostReport_t report;
  auto show = [&] {
    int s1 = cusolverRfGetMatrixFormat(h, &format, &diag);
    int s2 = cusolverRfGetNumericProperties(h, &zero, &boost);
    int s3 = cusolverRfGetAlgs(h, &fact, &solve_alg);
    int s4 = cusolverRfGetResetValuesFastMode(h, &fast);
    int s5 = cusolverRfGetNumericBoostReport(h, &report);
    std::printf("  statuses %d %d %d %d %d: format %d diag %d zero %g boost %g algs %d %d fast mode %d report %d\n", s1,
                s2, s3, s4, s5, format, diag, zero, boost, fact, solve_alg, fast, report);
  };
  show();
  std::printf("SetMatrixFormat(CSC, ASSUMED_U): %d\n",
              cusolverRfSetMatrixFormat(h, CUSOLVERRF_MATRIX_FORMAT_CSC, CUSOLVERRF_UNIT_DIAGONAL_ASSUMED_U));
  std::printf("SetNumericProperties(1e-10, 0.5): %d\n", cusolverRfSetNumericProperties(h, 1e-10, 0.5));
  std::printf("SetAlgs(ALG2, ALG3): %d\n",
              cusolverRfSetAlgs(h, CUSOLVERRF_FACTORIZATION_ALG2, CUSOLVERRF_TRIANGULAR_SOLVE_ALG3));
  std::printf("SetResetValuesFastMode(ON): %d\n",
              cusolverRfSetResetValuesFastMode(h, CUSOLVERRF_RESET_VALUES_FAST_MODE_ON));
  show();
  std::printf("SetMatrixFormat(format 2): %d\n",
              cusolverRfSetMatrixFormat(h, (cusolverRfMatrixFormat_t)2, CUSOLVERRF_UNIT_DIAGONAL_STORED_L));
  std::printf("SetMatrixFormat(diag 4): %d\n",
              cusolverRfSetMatrixFormat(h, CUSOLVERRF_MATRIX_FORMAT_CSR, (cusolverRfUnitDiagonal_t)4));
  std::printf("SetMatrixFormat(diag -1): %d\n",
              cusolverRfSetMatrixFormat(h, CUSOLVERRF_MATRIX_FORMAT_CSR, (cusolverRfUnitDiagonal_t)-1));
  std::printf("SetNumericProperties(-1, 0.5): %d\n", cusolverRfSetNumericProperties(h, -1, 0.5));
  std::printf("SetNumericProperties(0, -2): %d\n", cusolverRfSetNumericProperties(h, 0, -2));
  std::printf("SetAlgs(fact 3, ALG1): %d\n",
              cusolverRfSetAlgs(h, (cusolverRfFactorization_t)3, CUSOLVERRF_TRIANGULAR_SOLVE_ALG1));
  std::printf("SetAlgs(ALG0, solve 0): %d\n",
              cusolverRfSetAlgs(h, CUSOLVERRF_FACTORIZATION_ALG0, (cusolverRfTriangularSolve_t)0));
  std::printf("SetAlgs(ALG0, solve 4): %d\n",
              cusolverRfSetAlgs(h, CUSOLVERRF_FACTORIZATION_ALG0, (cusolverRfTriangularSolve_t)4));
  std::printf("SetResetValuesFastMode(2): %d\n",
              cusolverRfSetResetValuesFastMode(h, (cusolverRfResetValuesFastMode_t)2));
  show();
  std::printf("Destroy: status %d\n", cusolverRfDestroy(h));
}

void small_system(const Shape& shape) {
  std::printf("== 8x8: setup from the host, refactor, solve, new values\n");
  System s = make_system(shape);
  const int n = s.n;
  std::printf("host LU: P =");
  for (int v : s.lu.p) std::printf(" %d", v);
  std::printf("\n");
  print_matrix("A", n, s.csr.nnz(), s.csr.ptr.data(), s.csr.ind.data(), s.csr.val.data());
  Csr l, u;
  split(n, s.lu, CUSOLVERRF_UNIT_DIAGONAL_STORED_L, l, u);
  print_matrix("host L", n, l.nnz(), l.ptr.data(), l.ind.data(), l.val.data());
  print_matrix("host U", n, u.nnz(), u.ptr.data(), u.ind.data(), u.val.data());
  cusolverRfHandle_t h;
  cusolverRfCreate(&h);
  std::printf("SetupHost: status %d\n", setup_host(h, s, l, u));
  print_bundled_device(h, "M after SetupHost", n);
  std::printf("Refactor before Analyze: status %d\n", cusolverRfRefactor(h));
  print_bundled_device(h, "M after Refactor before Analyze", n);
  std::printf("Analyze: status %d\n", cusolverRfAnalyze(h));
  std::printf("Refactor: status %d\n", cusolverRfRefactor(h));
  print_bundled_device(h, "M after Refactor", n);
  std::vector<double> x;
  std::printf("Solve: status %d\n", solve(h, s, s.b, x));
  print_vector("x", x);
  std::printf("%s, x %s\n", residual(n, s.a, x, s.b), same(x, s.x) ? "exact" : "NOT exact");
  print_extracted(h, n, true);
  std::printf("Refactor again, no new values: status %d\n", cusolverRfRefactor(h));
  print_bundled_device(h, "M after a second Refactor", n);

  // New values, the same pattern.
  const Dense a2 = new_values(shape, 1);
  Csr c2 = on_pattern(n, s.csr, a2);
  int* dptr = to_device(c2.ptr);
  int* dind = to_device(c2.ind);
  double* dval = to_device(c2.val);
  int* dp = to_device(s.lu.p);
  int* dq = to_device(s.lu.q);
  std::printf("ResetValues: status %d\n", cusolverRfResetValues(n, c2.nnz(), dptr, dind, dval, dp, dq, h));
  print_bundled_device(h, "M after ResetValues", n);
  std::printf("Refactor: status %d\n", cusolverRfRefactor(h));
  const std::vector<double> x2 = solution(n, 1), b2 = times(n, a2, x2);
  std::printf("Solve: status %d\n", solve(h, s, b2, x));
  print_vector("x", x);
  std::printf("%s, x %s\n", residual(n, a2, x, b2), same(x, x2) ? "exact" : "NOT exact");
  print_extracted(h, n, true);

  // Solve's arguments: only one right-hand side, Temp and XF at least n deep.
  double* dt = to_device(std::vector<double>(4 * n));
  double* dx = to_device(std::vector<double>(4 * n, 1.0));
  std::printf("Solve nrhs 2: %d\n", cusolverRfSolve(h, dp, dq, 2, dt, n, dx, n));
  std::printf("Solve nrhs 0: %d\n", cusolverRfSolve(h, dp, dq, 0, dt, n, dx, n));
  std::printf("Solve ldt n-1: %d\n", cusolverRfSolve(h, dp, dq, 1, dt, n - 1, dx, n));
  std::printf("Solve ldxf n-1: %d\n", cusolverRfSolve(h, dp, dq, 1, dt, n, dx, n - 1));
  std::printf("Solve ldt 2n, ldxf 2n: %d\n", cusolverRfSolve(h, dp, dq, 1, dt, 2 * n, dx, 2 * n));
  print_vector("x (ones in)", to_host(dx, n));
  std::printf("ResetValues n+1: %d\n", cusolverRfResetValues(n + 1, c2.nnz(), dptr, dind, dval, dp, dq, h));
  std::printf("ResetValues nnzA-1: %d\n", cusolverRfResetValues(n, c2.nnz() - 1, dptr, dind, dval, dp, dq, h));
  for (void* d : {(void*)dptr, (void*)dind, (void*)dval, (void*)dp, (void*)dq, (void*)dt, (void*)dx}) cudaFree(d);
  std::printf("Destroy: status %d\n", cusolverRfDestroy(h));
}

// Pivot k of B = P A Q^T set by new values: its refactored value, the status and the report.
void pivots(const Shape& shape) {
  std::printf("== 8x8: zero pivots and numeric boost\n");
  System s = make_system(shape);
  const int n = s.n, k = 3;
  Csr l, u;
  split(n, s.lu, CUSOLVERRF_UNIT_DIAGONAL_STORED_L, l, u);
  cusolverRfHandle_t h;
  cusolverRfCreate(&h);
  setup_host(h, s, l, u);
  cusolverRfAnalyze(h);
  int* dptr = to_device(s.csr.ptr);
  int* dind = to_device(s.csr.ind);
  int* dp = to_device(s.lu.p);
  int* dq = to_device(s.lu.q);
  struct Case {
    const char* what;
    double pivot, zero, boost;
  };
  const Case cases[] = {
      {"pivot 0, zero 0, boost 0", 0, 0, 0},
      {"pivot 2, zero 0, boost 0", 2, 0, 0},
      {"pivot 0, zero 0, boost 0.5", 0, 0, 0.5},
      {"pivot 1, zero 1, boost 4", 1, 1, 4},
      {"pivot 1, zero 0.999, boost 4", 1, 0.999, 4},
      {"pivot -2^-30, zero 1e-6, boost 0.25", -std::ldexp(1.0, -30), 1e-6, 0.25},
      {"pivot -2^-30, zero 1e-6, boost 0", -std::ldexp(1.0, -30), 1e-6, 0},
      {"pivot 4, zero 0, boost 0", 4, 0, 0},
  };
  for (const Case& c : cases) {
    const Dense a3 = new_values(shape, 2, k, c.pivot);
    Csr c3 = on_pattern(n, s.csr, a3);
    double* dval = to_device(c3.val);
    cusolverRfSetNumericProperties(h, c.zero, c.boost);
    int reset = cusolverRfResetValues(n, c3.nnz(), dptr, dind, dval, dp, dq, h);
    int refactor = cusolverRfRefactor(h);
    cusolverRfNumericBoostReport_t report;
    cusolverRfGetNumericBoostReport(h, &report);
    std::printf("%s: ResetValues %d, Refactor %d, report %d, M(%d,%d) = %.10g\n", c.what, reset, refactor, report, k, k,
                pivot_of(h, n, k));
    if (refactor == CUSOLVER_STATUS_SUCCESS) print_bundled_device(h, "  M", n);
    const std::vector<double> x3 = solution(n, 2), b3 = times(n, a3, x3);
    std::vector<double> x;
    int solved = solve(h, s, b3, x);
    if (all_finite(x))
      std::printf("  Solve %d, x %s\n", solved,
                  c.pivot != 0 && c.boost == 0 ? (same(x, x3) ? "exact" : "NOT exact") : "finite");
    else
      std::printf("  Solve %d, x not finite\n", solved);
    if (c.boost > 0 && all_finite(x)) print_vector("  x", x);
    cudaFree(dval);
  }
  for (void* d : {(void*)dptr, (void*)dind, (void*)dp, (void*)dq}) cudaFree(d);
  cusolverRfDestroy(h);
}

void unit_diagonal_forms(const Shape& shape) {
  std::printf("== 8x8: unit diagonal forms\n");
  System s = make_system(shape);
  const int n = s.n;
  for (auto form :
       {CUSOLVERRF_UNIT_DIAGONAL_ASSUMED_L, CUSOLVERRF_UNIT_DIAGONAL_STORED_U, CUSOLVERRF_UNIT_DIAGONAL_ASSUMED_U}) {
    std::printf("-- diag %d\n", form);
    Csr l, u;
    split(n, s.lu, form, l, u);
    cusolverRfHandle_t h;
    cusolverRfCreate(&h);
    std::printf("SetMatrixFormat: %d\n", cusolverRfSetMatrixFormat(h, CUSOLVERRF_MATRIX_FORMAT_CSR, form));
    std::printf("SetupHost (nnzL %d, nnzU %d): status %d\n", l.nnz(), u.nnz(), setup_host(h, s, l, u));
    int analyze = cusolverRfAnalyze(h);
    std::printf("Analyze %d, Refactor %d\n", analyze, cusolverRfRefactor(h));
    std::vector<double> x;
    const int solved = solve(h, s, s.b, x);
    std::printf("Solve: status %d, x %s\n", solved, same(x, s.x) ? "exact" : "NOT exact");
    print_extracted(h, n, true);
    cusolverRfDestroy(h);
  }
}

void large_system(const Shape& shape) {
  std::printf("== 200x200: setup from the device, each algorithm\n");
  System s = make_system(shape);
  const int n = s.n;
  bool found_p0 = s.lu.p == shape.p0;
  std::printf("nnz(A) %d, host LU found P0: %s\n", s.csr.nnz(), found_p0 ? "yes" : "no");
  Csr l, u;
  split(n, s.lu, CUSOLVERRF_UNIT_DIAGONAL_STORED_L, l, u);
  std::printf("nnz(L) %d, nnz(U) %d\n", l.nnz(), u.nnz());
  const Dense a2 = new_values(shape, 1);
  Csr c2 = on_pattern(n, s.csr, a2);
  const std::vector<double> x2 = solution(n, 1), b2 = times(n, a2, x2);
  int* d[] = {to_device(s.csr.ptr), to_device(s.csr.ind), to_device(l.ptr),  to_device(l.ind),
              to_device(u.ptr),     to_device(u.ind),     to_device(s.lu.p), to_device(s.lu.q)};
  double* v[] = {to_device(s.csr.val), to_device(l.val), to_device(u.val), to_device(c2.val)};
  const std::pair<cusolverRfFactorization_t, cusolverRfTriangularSolve_t> algs[] = {
      {CUSOLVERRF_FACTORIZATION_ALG0, CUSOLVERRF_TRIANGULAR_SOLVE_ALG1},
      {CUSOLVERRF_FACTORIZATION_ALG1, CUSOLVERRF_TRIANGULAR_SOLVE_ALG2},
      {CUSOLVERRF_FACTORIZATION_ALG1, CUSOLVERRF_TRIANGULAR_SOLVE_ALG3},
      {CUSOLVERRF_FACTORIZATION_ALG2, CUSOLVERRF_TRIANGULAR_SOLVE_ALG2},
      {CUSOLVERRF_FACTORIZATION_ALG2, CUSOLVERRF_TRIANGULAR_SOLVE_ALG3},
      {CUSOLVERRF_FACTORIZATION_ALG0, CUSOLVERRF_TRIANGULAR_SOLVE_ALG2},
      {CUSOLVERRF_FACTORIZATION_ALG1, CUSOLVERRF_TRIANGULAR_SOLVE_ALG1},
  };
  bool first = true;
  for (auto [fact, solve_alg] : algs) {
    cusolverRfHandle_t h;
    cusolverRfCreate(&h);
    int set = cusolverRfSetAlgs(h, fact, solve_alg);
    int fast = cusolverRfSetResetValuesFastMode(h, CUSOLVERRF_RESET_VALUES_FAST_MODE_ON);
    int setup = cusolverRfSetupDevice(n, s.csr.nnz(), d[0], d[1], v[0], l.nnz(), d[2], d[3], v[1], u.nnz(), d[4], d[5],
                                      v[2], d[6], d[7], h);
    int analyze = cusolverRfAnalyze(h);
    int refactor = cusolverRfRefactor(h);
    std::vector<double> x;
    int solved = solve(h, s, s.b, x);
    std::printf("algs %d/%d: SetAlgs %d, fast mode %d, SetupDevice %d, Analyze %d, Refactor %d, Solve %d, %s, x %s\n",
                fact, solve_alg, set, fast, setup, analyze, refactor, solved, residual(n, s.a, x, s.b),
                same(x, s.x) ? "exact" : "NOT exact");
    if (first) print_vector("x", x);
    int reset = cusolverRfResetValues(n, c2.nnz(), d[0], d[1], v[3], d[6], d[7], h);
    refactor = cusolverRfRefactor(h);
    solved = solve(h, s, b2, x);
    std::printf("  new values: ResetValues %d, Refactor %d, Solve %d, %s, x %s\n", reset, refactor, solved,
                residual(n, a2, x, b2), same(x, x2) ? "exact" : "NOT exact");
    if (first) {
      print_vector("x", x);
      print_extracted(h, n, false);
    }
    first = false;
    cusolverRfDestroy(h);
  }
  for (int* p : d) cudaFree(p);
  for (double* p : v) cudaFree(p);
}

void csc_format(const Shape& shape) {
  std::printf("== 8x8: CSC\n");
  System s = make_system(shape);
  const int n = s.n;
  Csr l, u;
  split(n, s.lu, CUSOLVERRF_UNIT_DIAGONAL_STORED_L, l, u);
  Csr at = transposed(n, s.csr), lt = transposed(n, l), ut = transposed(n, u);
  cusolverRfHandle_t h;
  cusolverRfCreate(&h);
  std::printf("SetMatrixFormat(CSC, STORED_L): %d\n",
              cusolverRfSetMatrixFormat(h, CUSOLVERRF_MATRIX_FORMAT_CSC, CUSOLVERRF_UNIT_DIAGONAL_STORED_L));
  std::printf("SetupHost: status %d\n", setup_host(h, s, lt, ut, &at));
  print_bundled_device(h, "M after SetupHost", n);
  int analyze = cusolverRfAnalyze(h);
  std::printf("Analyze %d, Refactor %d\n", analyze, cusolverRfRefactor(h));
  std::vector<double> x;
  std::printf("Solve: status %d\n", solve(h, s, s.b, x));
  print_vector("x", x);
  print_extracted(h, n, true);
  cusolverRfDestroy(h);
}

// A 2x2 [[p, 2], [3, 5]] refactored with a flagged pivot p: the factors show what the boost does.
void boost_2x2() {
  std::printf("== 2x2: what the boost does\n");
  std::vector<int> ap = {0, 2, 4}, ai = {0, 1, 0, 1}, lp = {0, 1, 3}, li = {0, 0, 1}, up = {0, 2, 3}, ui = {0, 1, 1},
                   p = {0, 1};
  std::vector<double> lv = {1, 1, 1}, uv = {1, 1, 1};
  struct Case {
    double pivot, zero, boost;
  };
  for (Case c : {Case{1, 1, 4}, Case{2, 2, 8}, Case{1, 1, 0}, Case{-1, 1, 4}, Case{0.5, 1, 4}, Case{0, 0, 2}}) {
    std::vector<double> av = {c.pivot, 2, 3, 5};
    cusolverRfHandle_t h;
    cusolverRfCreate(&h);
    cusolverRfSetNumericProperties(h, c.zero, c.boost);
    cusolverRfSetupHost(2, 4, ap.data(), ai.data(), av.data(), 3, lp.data(), li.data(), lv.data(), 3, up.data(),
                        ui.data(), uv.data(), p.data(), p.data(), h);
    cusolverRfAnalyze(h);
    int refactor = cusolverRfRefactor(h);
    int nnz = 0, *mp = nullptr, *mi = nullptr;
    double* mx = nullptr;
    cusolverRfAccessBundledFactorsDevice(h, &nnz, &mp, &mi, &mx);
    std::vector<double> m = to_host(mx, nnz);
    std::printf("p %g, zero %g, boost %g: Refactor %d, M = %.10g %.10g / %.10g %.10g\n", c.pivot, c.zero, c.boost,
                refactor, m[0], m[1], m[2], m[3]);
    int* dp = to_device(p);
    double* dt = to_device(std::vector<double>(2));
    double* dx = to_device(std::vector<double>{1, 1});
    cusolverRfSolve(h, dp, dp, 1, dt, 2, dx, 2);
    std::vector<double> x = to_host(dx, 2);
    std::printf("  solve of (1, 1): %.6e %.6e\n", x[0], x[1]);
    for (void* d : {(void*)dp, (void*)dt, (void*)dx}) cudaFree(d);
    cusolverRfDestroy(h);
  }
}

// What a handle does out of order, and Setup's bad arguments.
void lifecycle(const Shape& shape) {
  std::printf("== 8x8: calls out of order\n");
  System s = make_system(shape);
  const int n = s.n;
  Csr l, u;
  split(n, s.lu, CUSOLVERRF_UNIT_DIAGONAL_STORED_L, l, u);
  int* dp = to_device(s.lu.p);
  int* dq = to_device(s.lu.q);
  int* dptr = to_device(s.csr.ptr);
  int* dind = to_device(s.csr.ind);
  double* dval = to_device(s.csr.val);
  cusolverRfHandle_t h;
  cusolverRfCreate(&h);
  std::printf("before Setup: Analyze %d\n", cusolverRfAnalyze(h));
  std::printf("before Setup: Refactor %d\n", cusolverRfRefactor(h));
  std::vector<double> x;
  std::printf("before Setup: Solve %d\n", solve(h, s, s.b, x));
  std::printf("  x %s\n", same(x, s.b) ? "untouched" : "written");
  int nnz = -1, *mp = nullptr, *mi = nullptr;
  double* mx = nullptr;
  int access = cusolverRfAccessBundledFactorsDevice(h, &nnz, &mp, &mi, &mx);
  std::printf("before Setup: AccessBundledFactorsDevice %d, nnzM %d, pointers %s\n", access, nnz,
              mp || mi || mx ? "set" : "NULL");
  int extract = cusolverRfExtractBundledFactorsHost(h, &nnz, &mp, &mi, &mx);
  std::printf("before Setup: ExtractBundledFactorsHost %d\n", extract);
  std::printf("before Setup: ResetValues %d\n", cusolverRfResetValues(n, s.csr.nnz(), dptr, dind, dval, dp, dq, h));
  std::printf("SetupHost n -1: %d\n",
              cusolverRfSetupHost(-1, s.csr.nnz(), s.csr.ptr.data(), s.csr.ind.data(), s.csr.val.data(), l.nnz(),
                                  l.ptr.data(), l.ind.data(), l.val.data(), u.nnz(), u.ptr.data(), u.ind.data(),
                                  u.val.data(), s.lu.p.data(), s.lu.q.data(), h));
  std::printf("SetupHost nnzA -1: %d\n",
              cusolverRfSetupHost(n, -1, s.csr.ptr.data(), s.csr.ind.data(), s.csr.val.data(), l.nnz(), l.ptr.data(),
                                  l.ind.data(), l.val.data(), u.nnz(), u.ptr.data(), u.ind.data(), u.val.data(),
                                  s.lu.p.data(), s.lu.q.data(), h));
  std::printf("SetupHost values NULL: %d\n",
              cusolverRfSetupHost(n, s.csr.nnz(), s.csr.ptr.data(), s.csr.ind.data(), nullptr, l.nnz(), l.ptr.data(),
                                  l.ind.data(), l.val.data(), u.nnz(), u.ptr.data(), u.ind.data(), u.val.data(),
                                  s.lu.p.data(), s.lu.q.data(), h));
  std::printf("SetupHost: %d\n", setup_host(h, s, l, u));
  std::printf("Solve before Analyze: %d\n", solve(h, s, s.b, x));
  std::printf("  x %s\n", same(x, s.b) ? "untouched" : "written");
  std::printf("Analyze: %d\n", cusolverRfAnalyze(h));
  std::printf("Solve before Refactor: %d\n", solve(h, s, s.b, x));
  print_vector("  x", x, true);
  std::printf("Refactor: %d\n", cusolverRfRefactor(h));
  std::printf("SetupHost again: %d\n", setup_host(h, s, l, u));
  std::printf("Refactor without a new Analyze: %d\n", cusolverRfRefactor(h));
  std::printf("Solve: %d\n", solve(h, s, s.b, x));
  std::printf("  x %s\n", same(x, s.x) ? "exact" : "NOT exact");
  std::printf("SetAlgs(ALG1, solve 0): %d\n",
              cusolverRfSetAlgs(h, CUSOLVERRF_FACTORIZATION_ALG1, (cusolverRfTriangularSolve_t)0));
  std::printf("SetAlgs(ALG1, solve 4): %d\n",
              cusolverRfSetAlgs(h, CUSOLVERRF_FACTORIZATION_ALG1, (cusolverRfTriangularSolve_t)4));
  std::printf("SetAlgs(ALG2, ALG1): %d\n",
              cusolverRfSetAlgs(h, CUSOLVERRF_FACTORIZATION_ALG2, CUSOLVERRF_TRIANGULAR_SOLVE_ALG1));
  std::printf("SetAlgs(ALG1, ALG2) after Analyze: %d\n",
              cusolverRfSetAlgs(h, CUSOLVERRF_FACTORIZATION_ALG1, CUSOLVERRF_TRIANGULAR_SOLVE_ALG2));
  std::printf("  Refactor %d\n", cusolverRfRefactor(h));
  std::printf("  Solve %d\n", solve(h, s, s.b, x));
  std::printf("  x %s\n", same(x, s.b) ? "untouched" : "written");
  std::printf("Destroy: %d\n", cusolverRfDestroy(h));
  // P with a repeated row: Setup does not check it (NVIDIA's B then depends on memory it never
  // wrote, so nothing after Setup is printed).
  std::vector<int> p = s.lu.p;
  p[1] = p[0];
  cusolverRfCreate(&h);
  std::printf("SetupHost, P repeating a row: %d\n",
              cusolverRfSetupHost(n, s.csr.nnz(), s.csr.ptr.data(), s.csr.ind.data(), s.csr.val.data(), l.nnz(),
                                  l.ptr.data(), l.ind.data(), l.val.data(), u.nnz(), u.ptr.data(), u.ind.data(),
                                  u.val.data(), p.data(), s.lu.q.data(), h));
  cusolverRfDestroy(h);
  for (void* d : {(void*)dp, (void*)dq, (void*)dptr, (void*)dind, (void*)dval}) cudaFree(d);
}

// NVIDIA's batched routines (CUDA 13.0) crash in cusolverRfBatchAnalyze on an H200: only
// BatchSetupHost is compared with the GPU.
void batch_setup(const Shape& shape) {
  std::printf("== 8x8: batched setup\n");
  System s = make_system(shape);
  const int n = s.n;
  Csr l, u;
  split(n, s.lu, CUSOLVERRF_UNIT_DIAGONAL_STORED_L, l, u);
  std::vector<double*> values(3, s.csr.val.data());
  for (int batch : {0, 3}) {
    cusolverRfHandle_t h;
    cusolverRfCreate(&h);
    std::printf("BatchSetupHost batchSize %d: %d\n", batch,
                cusolverRfBatchSetupHost(batch, n, s.csr.nnz(), s.csr.ptr.data(), s.csr.ind.data(), values.data(),
                                         l.nnz(), l.ptr.data(), l.ind.data(), l.val.data(), u.nnz(), u.ptr.data(),
                                         u.ind.data(), u.val.data(), s.lu.p.data(), s.lu.q.data(), h));
    std::printf("Destroy: %d\n", cusolverRfDestroy(h));
  }
}

// The whole batched flow, run by `cusolver_refactorization batched` (not compared with a GPU:
// e2e.cusolver_refactorization_batched checks it against what the documentation says).
void batched(const Shape& shape) {
  std::printf("== 8x8: batched\n");
  System s = make_system(shape);
  const int n = s.n, batch = 3;
  Csr l, u;
  split(n, s.lu, CUSOLVERRF_UNIT_DIAGONAL_STORED_L, l, u);
  std::vector<Dense> a(batch);
  std::vector<Csr> c(batch);
  std::vector<double*> host_values(batch);
  for (int j = 0; j < batch; ++j) {
    a[j] = new_values(shape, j + 1);
    c[j] = on_pattern(n, s.csr, a[j]);
    host_values[j] = c[j].val.data();
  }
  cusolverRfHandle_t h;
  cusolverRfCreate(&h);
  std::printf("BatchSetupHost: status %d\n",
              cusolverRfBatchSetupHost(batch, n, s.csr.nnz(), s.csr.ptr.data(), s.csr.ind.data(), host_values.data(),
                                       l.nnz(), l.ptr.data(), l.ind.data(), l.val.data(), u.nnz(), u.ptr.data(),
                                       u.ind.data(), u.val.data(), s.lu.p.data(), s.lu.q.data(), h));
  std::fflush(stdout);
  std::printf("BatchAnalyze: status %d\n", cusolverRfBatchAnalyze(h));
  std::fflush(stdout);
  std::printf("BatchRefactor: status %d\n", cusolverRfBatchRefactor(h));
  int position[batch] = {7, 7, 7};
  int zp = cusolverRfBatchZeroPivot(h, position);
  std::printf("BatchZeroPivot: status %d, positions %d %d %d\n", zp, position[0], position[1], position[2]);
  int* dp = to_device(s.lu.p);
  int* dq = to_device(s.lu.q);
  double* dt = to_device(std::vector<double>(2 * batch * n));
  std::vector<double*> xs(batch);
  std::vector<std::vector<double>> want(batch), rhs(batch);
  for (int j = 0; j < batch; ++j) {
    want[j] = solution(n, j + 1);
    rhs[j] = times(n, a[j], want[j]);
    xs[j] = to_device(rhs[j]);
  }
  double** dxs = to_device(xs);
  std::printf("BatchSolve: status %d\n", cusolverRfBatchSolve(h, dp, dq, 1, dt, n, dxs, n));
  for (int j = 0; j < batch; ++j) {
    std::vector<double> x = to_host(xs[j], n);
    std::printf("  system %d: %s, x %s\n", j, residual(n, a[j], x, rhs[j]), same(x, want[j]) ? "exact" : "NOT exact");
  }
  print_bundled_device(h, "M (batched)", n);

  // New values; system 1's pivot 3 is zero.
  std::vector<double*> dvals(batch);
  for (int j = 0; j < batch; ++j) {
    a[j] = new_values(shape, j + 4, j == 1 ? 3 : -1, 0);
    c[j] = on_pattern(n, s.csr, a[j]);
    dvals[j] = to_device(c[j].val);
    rhs[j] = times(n, a[j], want[j]);
    cudaMemcpy(xs[j], rhs[j].data(), n * sizeof(double), cudaMemcpyHostToDevice);
  }
  double** ddvals = to_device(dvals);
  int* dptr = to_device(s.csr.ptr);
  int* dind = to_device(s.csr.ind);
  std::printf("BatchResetValues: status %d\n",
              cusolverRfBatchResetValues(batch, n, s.csr.nnz(), dptr, dind, ddvals, dp, dq, h));
  std::printf("BatchRefactor: status %d\n", cusolverRfBatchRefactor(h));
  position[0] = position[1] = position[2] = 7;
  zp = cusolverRfBatchZeroPivot(h, position);
  std::printf("BatchZeroPivot: status %d, positions %d %d %d\n", zp, position[0], position[1], position[2]);
  std::printf("BatchSolve: status %d\n", cusolverRfBatchSolve(h, dp, dq, 1, dt, n, dxs, n));
  for (int j = 0; j < batch; ++j) {
    std::vector<double> x = to_host(xs[j], n);
    if (all_finite(x))
      std::printf("  system %d: %s, x %s\n", j, residual(n, a[j], x, rhs[j]), same(x, want[j]) ? "exact" : "NOT exact");
    else
      std::printf("  system %d: x not finite\n", j);
  }
  std::printf("BatchSolve nrhs 2: %d\n", cusolverRfBatchSolve(h, dp, dq, 2, dt, n, dxs, n));
  std::printf("BatchSolve ldt n+1: %d\n", cusolverRfBatchSolve(h, dp, dq, 1, dt, n + 1, dxs, n));
  std::printf("BatchSolve ldxf n-1: %d\n", cusolverRfBatchSolve(h, dp, dq, 1, dt, n, dxs, n - 1));
  std::printf("BatchResetValues batchSize 2: %d\n",
              cusolverRfBatchResetValues(2, n, s.csr.nnz(), dptr, dind, ddvals, dp, dq, h));
  for (int j = 0; j < batch; ++j) {
    cudaFree(xs[j]);
    cudaFree(dvals[j]);
  }
  for (void* d : {(void*)dp, (void*)dq, (void*)dt, (void*)dxs, (void*)ddvals, (void*)dptr, (void*)dind}) cudaFree(d);
  std::printf("Destroy: status %d\n", cusolverRfDestroy(h));
}

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // what was printed survives a crash in the library
  const Shape small = small_shape(), large = banded_shape(200);
  if (argc > 1 && std::string(argv[1]) == "batched") {
    batched(small);
    return 0;
  }
  defaults_and_settings();
  small_system(small);
  pivots(small);
  unit_diagonal_forms(small);
  large_system(large);
  csc_format(small);
  boost_2x2();
  lifecycle(small);
  batch_setup(small);
  std::printf("device: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
