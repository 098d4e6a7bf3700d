// cuSOLVER's sparse API (cusolverSp) through cucpu's libcusolver.so.12, compared with the GPU's
// output: the linear solvers csrlsvchol/qr/lu (host; chol and qr also on the device) in every
// element type, with each reordering and index base; where each reports a singular matrix;
// csrissym, csrperm, csrzfd, the fill-reducing orderings (only that each is a permutation: which
// one differs between implementations, it goes to stderr), least squares (csrlsqvqr), the
// eigenvalue routines (csreigvsi, csreigs), batched QR (csrqrsvBatched) and the statuses of bad
// arguments. Every system's solution is a vector of small nonzero integers and is printed
// rounded well above the solvers' errors, so every printed value is the same whatever order a
// library adds in.
// NVCC-FLAGS: -lcusolver -lcusparse
#define DISABLE_CUSOLVER_DEPRECATED
#include <cuComplex.h>
#include <cuda_runtime.h>
#include <cusolverSp.h>
#include <cusparse.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

// A CSR matrix with values as doubles; turned into each element type where used.
struct Csr {
  int rows, cols;
  std::vector<int> row_ptr, col_ind;
  std::vector<double> values;
  int nnz() const { return static_cast<int>(col_ind.size()); }
};

Csr from_dense(int rows, int cols, const std::vector<double>& dense) {
  Csr a{rows, cols, {0}, {}, {}};
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j)
      if (dense[i * cols + j] != 0) {
        a.col_ind.push_back(j);
        a.values.push_back(dense[i * cols + j]);
      }
    a.row_ptr.push_back(a.nnz());
  }
  return a;
}

Csr with_base(Csr a, int base) {
  for (int& r : a.row_ptr) r += base;
  for (int& c : a.col_ind) c += base;
  return a;
}

// Symmetric positive definite: 4 on the diagonal, -1 next to it and three apart.
std::vector<double> spd(int n) {
  std::vector<double> d(n * n, 0);
  for (int i = 0; i < n; ++i) {
    d[i * n + i] = 4;
    for (int k : {1, 3})
      if (i + k < n) d[i * n + i + k] = d[(i + k) * n + i] = -1;
  }
  return d;
}

// Nonsymmetric, nonsingular; its first diagonal entry is small, so LU must pivot.
std::vector<double> general(int n) {
  std::vector<double> d(n * n, 0);
  for (int i = 0; i < n; ++i) {
    d[i * n + i] = i == 0 ? 1 : 6;
    if (i + 1 < n) d[i * n + i + 1] = 2;
    if (i >= 2) d[i * n + i - 2] = -3;
    if (i + 4 < n) d[(i + 4) * n + i] = 1;
  }
  d[1 * n + 0] = 5;
  return d;
}

std::vector<double> solution(int n) {
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i) x[i] = (i % 2 ? -1 : 1) * (1 + i % 5);
  return x;
}

std::vector<double> times(const Csr& a, const std::vector<double>& x) {
  std::vector<double> b(a.rows, 0);
  for (int i = 0; i < a.rows; ++i)
    for (int k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) b[i] += a.values[k] * x[a.col_ind[k]];
  return b;
}

// Element types: from double, and the real part printed (the imaginary parts are checked too).
template <typename T>
T element(double v, double imag = 0);
template <>
float element<float>(double v, double) { return static_cast<float>(v); }
template <>
double element<double>(double v, double) { return v; }
template <>
cuComplex element<cuComplex>(double v, double imag) { return make_cuComplex(static_cast<float>(v), static_cast<float>(imag)); }
template <>
cuDoubleComplex element<cuDoubleComplex>(double v, double imag) { return make_cuDoubleComplex(v, imag); }
double real_of(float v) { return v; }
double real_of(double v) { return v; }
double real_of(cuComplex v) { return cuCrealf(v); }
double real_of(cuDoubleComplex v) { return cuCreal(v); }
double imag_of(float) { return 0; }
double imag_of(double) { return 0; }
double imag_of(cuComplex v) { return cuCimagf(v); }
double imag_of(cuDoubleComplex v) { return cuCimag(v); }

// imag: each complex element's imaginary part equals its real part (right-hand sides, so that a
// complex system's solution is x (1 + i)).
template <typename T>
std::vector<T> converted(const std::vector<double>& v, bool imag = false) {
  std::vector<T> out;
  for (double d : v) out.push_back(element<T>(d, imag ? d : 0));
  return out;
}

// Prints a solution rounded to two decimals (each is a small integer), or "(not written)".
template <typename T>
void print_solution(const char* label, const std::vector<T>& x) {
  printf("  %s:", label);
  for (const T& v : x) {
    const double r = std::round(real_of(v) * 100) / 100, i = std::round(imag_of(v) * 100) / 100;
    if (std::isnan(real_of(v))) printf(" nan");
    else if (i != 0) printf(" %.2f%+.2fi", r + 0.0, i + 0.0);
    else printf(" %.2f", r + 0.0);
  }
  printf("\n");
}

cusparseMatDescr_t descriptor(int base, cusparseMatrixType_t type = CUSPARSE_MATRIX_TYPE_GENERAL) {
  cusparseMatDescr_t d;
  cusparseCreateMatDescr(&d);
  cusparseSetMatIndexBase(d, base ? CUSPARSE_INDEX_BASE_ONE : CUSPARSE_INDEX_BASE_ZERO);
  cusparseSetMatType(d, type);
  return d;
}

template <typename T>
struct Solvers;
#define SOLVERS(T, R, P)                                                                                 \
  template <>                                                                                          \
  struct Solvers<T> {                                                                                  \
    using Real = R;                                                                                    \
    static constexpr const char* name = #P;                                                            \
    static constexpr auto chol_host = cusolverSp##P##csrlsvcholHost;                                   \
    static constexpr auto qr_host = cusolverSp##P##csrlsvqrHost;                                       \
    static constexpr auto lu_host = cusolverSp##P##csrlsvluHost;                                       \
    static constexpr auto chol = cusolverSp##P##csrlsvchol;                                            \
    static constexpr auto qr = cusolverSp##P##csrlsvqr;                                                \
    static constexpr auto lsq = cusolverSp##P##csrlsqvqrHost;                                          \
    static constexpr auto qr_batched_info = cusolverSp##P##csrqrBufferInfoBatched;                     \
    static constexpr auto qr_batched = cusolverSp##P##csrqrsvBatched;                                  \
  };
SOLVERS(float, float, S)
SOLVERS(double, double, D)
SOLVERS(cuComplex, float, C)
SOLVERS(cuDoubleComplex, double, Z)

enum class Kind { chol, qr, lu };
const char* kind_name(Kind k) { return k == Kind::chol ? "chol" : k == Kind::qr ? "qr" : "lu"; }

// Solves A x = b on the host with `kind`, and, for chol and qr, on the device too.
template <typename T>
void solve_both(cusolverSpHandle_t handle, Kind kind, const Csr& a0, const std::vector<double>& b0, int base,
                int reorder, double tol) {
  using S = Solvers<T>;
  const Csr a = with_base(a0, base);
  const int n = a.rows, nnz = a.nnz();
  const std::vector<T> values = converted<T>(a.values), b = converted<T>(b0, true);
  std::vector<T> x(n, element<T>(-99));
  int singularity = -7;
  cusparseMatDescr_t descr = descriptor(base);
  const auto host = kind == Kind::chol ? S::chol_host : kind == Kind::qr ? S::qr_host : S::lu_host;
  cusolverStatus_t status = host(handle, n, nnz, descr, values.data(), a.row_ptr.data(), a.col_ind.data(), b.data(),
                                 static_cast<typename S::Real>(tol), reorder, x.data(), &singularity);
  printf(" %s %s host base %d reorder %d: status %d singularity %d\n", S::name, kind_name(kind), base, reorder, status,
         singularity);
  if (singularity < 0) print_solution("x", x);
  if (kind == Kind::lu) {
    cusparseDestroyMatDescr(descr);
    return;
  }
  int *d_rows, *d_cols;
  T *d_values, *d_b, *d_x;
  cudaMalloc(&d_rows, (n + 1) * sizeof(int));
  cudaMalloc(&d_cols, nnz * sizeof(int));
  cudaMalloc(&d_values, nnz * sizeof(T));
  cudaMalloc(&d_b, n * sizeof(T));
  cudaMalloc(&d_x, n * sizeof(T));
  cudaMemcpy(d_rows, a.row_ptr.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_cols, a.col_ind.data(), nnz * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_values, values.data(), nnz * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, b.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  std::vector<T> poison(n, element<T>(-99));
  cudaMemcpy(d_x, poison.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  singularity = -7;
  const auto device = kind == Kind::chol ? S::chol : S::qr;
  status = device(handle, n, nnz, descr, d_values, d_rows, d_cols, d_b, static_cast<typename S::Real>(tol), reorder,
                  d_x, &singularity);
  cudaMemcpy(x.data(), d_x, n * sizeof(T), cudaMemcpyDeviceToHost);
  printf(" %s %s device base %d reorder %d: status %d singularity %d\n", S::name, kind_name(kind), base, reorder,
         status, singularity);
  if (singularity < 0) print_solution("x", x);
  cudaFree(d_rows);
  cudaFree(d_cols);
  cudaFree(d_values);
  cudaFree(d_b);
  cudaFree(d_x);
  cusparseDestroyMatDescr(descr);
}

template <typename T>
void linear_solvers(cusolverSpHandle_t handle) {
  const int n = 12;
  const Csr s = from_dense(n, n, spd(n)), g = from_dense(n, n, general(n));
  const std::vector<double> x = solution(n);
  for (int reorder = 0; reorder <= 3; ++reorder) {
    solve_both<T>(handle, Kind::chol, s, times(s, x), reorder % 2, reorder, 1e-12);
    solve_both<T>(handle, Kind::qr, g, times(g, x), reorder % 2, reorder, 1e-12);
    solve_both<T>(handle, Kind::lu, g, times(g, x), reorder % 2, reorder, 1e-12);
  }
}

// Singular matrices: where each solver says the factorization breaks down.
void singular_matrices(cusolverSpHandle_t handle) {
  const int n = 8;
  // A zero row and column 5 in the SPD matrix.
  std::vector<double> d = spd(n);
  for (int k = 0; k < n; ++k) d[5 * n + k] = d[k * n + 5] = 0;
  const Csr zero_row = from_dense(n, n, d);
  // Column 4 equal to column 2 in the general matrix.
  std::vector<double> e = general(n);
  for (int i = 0; i < n; ++i) e[i * n + 4] = e[i * n + 2];
  const Csr repeated = from_dense(n, n, e);
  // Symmetric but indefinite: Cholesky's pivot 3 is negative.
  std::vector<double> f = spd(n);
  f[3 * n + 3] = -4;
  const Csr indefinite = from_dense(n, n, f);
  const std::vector<double> b(n, 1);
  printf("singular matrices\n");
  for (int reorder : {0, 1}) {
    // (Cholesky of it: 0 on the H200's host, 1 on its device: a missing diagonal entry.)
    for (Kind k : {Kind::chol, Kind::qr, Kind::lu}) solve_both<double>(handle, k, zero_row, b, 0, reorder, 1e-12);
    for (Kind k : {Kind::qr, Kind::lu}) solve_both<double>(handle, k, repeated, b, 0, reorder, 1e-12);
    solve_both<double>(handle, Kind::chol, indefinite, b, 0, reorder, 1e-12);
  }
  // A tolerance above a pivot's size.
  solve_both<double>(handle, Kind::qr, from_dense(n, n, general(n)), b, 0, 0, 100.0);
  solve_both<float>(handle, Kind::chol, from_dense(n, n, spd(n)), b, 0, 0, 3.0);
}

void structure_routines(cusolverSpHandle_t handle) {
  printf("issym\n");
  const int n = 10;
  for (int base : {0, 1}) {
    for (const auto& dense : {spd(n), general(n)}) {
      const Csr a = with_base(from_dense(n, n, dense), base);
      cusparseMatDescr_t descr = descriptor(base);
      int issym = -1;
      cusolverStatus_t st = cusolverSpXcsrissymHost(handle, n, a.nnz(), descr, a.row_ptr.data(), a.row_ptr.data() + 1,
                                                    a.col_ind.data(), &issym);
      printf(" base %d: status %d issym %d\n", base, st, issym);
      cusparseDestroyMatDescr(descr);
    }
  }

  printf("orderings\n");
  const int big = 30;
  for (int base : {0, 1}) {
    const Csr a = with_base(from_dense(big, big, spd(big)), base);
    cusparseMatDescr_t descr = descriptor(base);
    const char* names[] = {"symrcm", "symamd", "symmdq", "metisnd"};
    for (int which = 0; which < 4; ++which) {
      std::vector<int> p(big, -1);
      cusolverStatus_t st;
      if (which == 0) st = cusolverSpXcsrsymrcmHost(handle, big, a.nnz(), descr, a.row_ptr.data(), a.col_ind.data(), p.data());
      else if (which == 1) st = cusolverSpXcsrsymamdHost(handle, big, a.nnz(), descr, a.row_ptr.data(), a.col_ind.data(), p.data());
      else if (which == 2) st = cusolverSpXcsrsymmdqHost(handle, big, a.nnz(), descr, a.row_ptr.data(), a.col_ind.data(), p.data());
      else st = cusolverSpXcsrmetisndHost(handle, big, a.nnz(), descr, a.row_ptr.data(), a.col_ind.data(), nullptr, p.data());
      std::vector<int> sorted = p;
      std::sort(sorted.begin(), sorted.end());
      bool permutation = true;
      for (int i = 0; i < big; ++i) permutation = permutation && sorted[i] == i;
      printf(" %s base %d: status %d, a permutation of 0..%d: %s\n", names[which], base, st, big - 1,
             permutation ? "yes" : "no");
      fprintf(stderr, "%s base %d:", names[which], base);
      for (int v : p) fprintf(stderr, " %d", v);
      fprintf(stderr, "\n");
    }
    cusparseDestroyMatDescr(descr);
  }

  printf("csrperm\n");
  {
    const int m = 5, c = 6;
    std::vector<double> dense(m * c, 0);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < c; ++j)
        if ((i * 7 + j * 3) % 4 == 0 || i == j) dense[i * c + j] = 10 * i + j + 1;
    for (int base : {0, 1}) {
      Csr a = with_base(from_dense(m, c, dense), base);
      cusparseMatDescr_t descr = descriptor(base);
      const int p[m] = {3, 0, 4, 1, 2}, q[c] = {5, 2, 0, 1, 4, 3};
      size_t bytes = 0;
      cusolverStatus_t st = cusolverSpXcsrperm_bufferSizeHost(handle, m, c, a.nnz(), descr, a.row_ptr.data(),
                                                              a.col_ind.data(), p, q, &bytes);
      std::vector<char> buffer(bytes + 1);
      std::vector<int> map(a.nnz());
      for (int k = 0; k < a.nnz(); ++k) map[k] = k;
      st = cusolverSpXcsrpermHost(handle, m, c, a.nnz(), descr, a.row_ptr.data(), a.col_ind.data(), p, q, map.data(),
                                  buffer.data());
      printf(" base %d: status %d\n  rows:", base, st);
      for (int r : a.row_ptr) printf(" %d", r);
      printf("\n  columns:");
      for (int col : a.col_ind) printf(" %d", col);
      printf("\n  values:");
      for (int k : map) printf(" %g", a.values[k]);
      printf("\n");
      cusparseDestroyMatDescr(descr);
    }
  }

  printf("csrzfd\n");
  {
    // Nonzero diagonal after a row permutation; and one whose rows 2 and 4 share their only column.
    const int m = 6;
    std::vector<double> full(m * m, 0), deficient(m * m, 0);
    const int column_of[m] = {2, 0, 5, 1, 3, 4};
    for (int i = 0; i < m; ++i) {
      full[i * m + column_of[i]] = i + 1;
      if (i > 0) full[i * m + column_of[i - 1]] = 7;
    }
    for (int i = 0; i < m; ++i) deficient[i * m + (i == 4 ? 2 : i)] = i + 1;
    deficient[2 * m + 2] = 3;
    for (const auto& dense : {full, deficient}) {
      for (int base : {0, 1}) {
        const Csr a = with_base(from_dense(m, m, dense), base);
        cusparseMatDescr_t descr = descriptor(base);
        std::vector<int> p(m, -1);
        int numnz = -1;
        cusolverStatus_t st = cusolverSpDcsrzfdHost(handle, m, a.nnz(), descr, a.values.data(), a.row_ptr.data(),
                                                    a.col_ind.data(), p.data(), &numnz);
        // Whether row p[i] has a nonzero in column i, for every i.
        int zero_free = 0;
        for (int i = 0; i < m; ++i)
          if (p[i] >= 0 && p[i] < m && dense[p[i] * m + i] != 0) ++zero_free;
        printf(" base %d: status %d numnz %d, diagonal entries of A(P,:) that are nonzero: %d\n", base, st, numnz,
               zero_free);
        cusparseDestroyMatDescr(descr);
      }
    }
  }
}

template <typename T>
void least_squares(cusolverSpHandle_t handle) {
  using S = Solvers<T>;
  const int m = 10, n = 6;
  std::vector<double> dense(m * n, 0);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      if ((i + 2 * j) % 3 == 0 || i == j) dense[i * n + j] = 1 + (i * 5 + j) % 7;
  const Csr a = from_dense(m, n, dense);
  const std::vector<double> x0 = solution(n);
  std::vector<double> consistent = times(a, x0), inconsistent = consistent;
  inconsistent[m - 1] += 3;
  const std::vector<T> values = converted<T>(a.values);
  cusparseMatDescr_t descr = descriptor(0);
  for (const auto& b0 : {consistent, inconsistent}) {
    const std::vector<T> b = converted<T>(b0, true);
    std::vector<T> x(n, element<T>(-99));
    std::vector<int> p(n, -1);
    int rank = -1;
    typename S::Real min_norm = -1;
    cusolverStatus_t st = S::lsq(handle, m, n, a.nnz(), descr, values.data(), a.row_ptr.data(), a.col_ind.data(),
                                 b.data(), static_cast<typename S::Real>(1e-6), &rank, x.data(), p.data(), &min_norm);
    printf(" %s lsqvqr: status %d rank %d min_norm %.3f\n", S::name, st, rank, static_cast<double>(min_norm));
    print_solution("x", x);
  }
  // Rank deficient: column 3 twice.
  std::vector<double> deficient = dense;
  for (int i = 0; i < m; ++i) deficient[i * n + 5] = deficient[i * n + 3];
  const Csr d = from_dense(m, n, deficient);
  const std::vector<T> dv = converted<T>(d.values), b = converted<T>(times(d, x0), true);
  std::vector<T> x(n);
  std::vector<int> p(n);
  int rank = -1;
  typename S::Real min_norm = -1;
  cusolverStatus_t st = S::lsq(handle, m, n, d.nnz(), descr, dv.data(), d.row_ptr.data(), d.col_ind.data(), b.data(),
                               static_cast<typename S::Real>(1e-4), &rank, x.data(), p.data(), &min_norm);
  printf(" %s lsqvqr rank deficient: status %d rank %d min_norm %.3f\n", S::name, st, rank,
         static_cast<double>(min_norm));
  cusparseDestroyMatDescr(descr);
}

void eigenvalues(cusolverSpHandle_t handle) {
  printf("eigenvalues\n");
  // The 1D Laplacian of order n: eigenvalues 2 - 2 cos(k pi / (n + 1)).
  const int n = 16;
  std::vector<double> dense(n * n, 0);
  for (int i = 0; i < n; ++i) {
    dense[i * n + i] = 2;
    if (i + 1 < n) dense[i * n + i + 1] = dense[(i + 1) * n + i] = -1;
  }
  const Csr a = from_dense(n, n, dense);
  cusparseMatDescr_t descr = descriptor(0);
  const std::vector<double> x0(n, 1);
  for (double mu0 : {0.05, 1.3, 3.9}) {
    double mu = 0;
    std::vector<double> x(n);
    cusolverStatus_t st = cusolverSpDcsreigvsiHost(handle, n, a.nnz(), descr, a.values.data(), a.row_ptr.data(),
                                                   a.col_ind.data(), mu0, x0.data(), 100, 1e-10, &mu, x.data());
    double norm = 0;
    for (double v : x) norm += v * v;
    norm = std::sqrt(norm);
    const double sign = x[0] < 0 ? -1 : 1;
    printf(" eigvsi host mu0 %.2f: status %d mu %.6f |x| %.4f x/|x|:", mu0, st, mu, norm);
    for (double v : x) printf(" %.4f", sign * v / norm + 0.0);
    printf("\n");
  }
  // The same on the device.
  {
    int *d_rows, *d_cols;
    double *d_values, *d_x0, *d_mu, *d_x;
    cudaMalloc(&d_rows, (n + 1) * sizeof(int));
    cudaMalloc(&d_cols, a.nnz() * sizeof(int));
    cudaMalloc(&d_values, a.nnz() * sizeof(double));
    cudaMalloc(&d_x0, n * sizeof(double));
    cudaMalloc(&d_mu, sizeof(double));
    cudaMalloc(&d_x, n * sizeof(double));
    cudaMemcpy(d_rows, a.row_ptr.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_cols, a.col_ind.data(), a.nnz() * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_values, a.values.data(), a.nnz() * sizeof(double), cudaMemcpyHostToDevice);
    cudaMemcpy(d_x0, x0.data(), n * sizeof(double), cudaMemcpyHostToDevice);
    cusolverStatus_t st = cusolverSpDcsreigvsi(handle, n, a.nnz(), descr, d_values, d_rows, d_cols, 1.3, d_x0, 100,
                                               1e-10, d_mu, d_x);
    double mu = 0;
    cudaMemcpy(&mu, d_mu, sizeof(double), cudaMemcpyDeviceToHost);
    printf(" eigvsi device mu0 1.30: status %d mu %.6f\n", st, mu);
    cudaFree(d_rows);
    cudaFree(d_cols);
    cudaFree(d_values);
    cudaFree(d_x0);
    cudaFree(d_mu);
    cudaFree(d_x);
  }
  // How many eigenvalues lie in a box of the complex plane.
  const double boxes[][4] = {{0, -1, 1, 1}, {0.5, -0.5, 2.5, 0.5}, {-1, -1, 5, 1}, {3.5, -1, 3.9, 1}};
  for (const auto& box : boxes) {
    int count = -1;
    cusolverStatus_t st =
        cusolverSpDcsreigsHost(handle, n, a.nnz(), descr, a.values.data(), a.row_ptr.data(), a.col_ind.data(),
                               make_cuDoubleComplex(box[0], box[1]), make_cuDoubleComplex(box[2], box[3]), &count);
    printf(" eigs host in [%.1f, %.1f] x [%.1f, %.1f]i: status %d count %d\n", box[0], box[2], box[1], box[3], st,
           count);
  }
  cusparseDestroyMatDescr(descr);
}

template <typename T>
void batched_qr(cusolverSpHandle_t handle) {
  using S = Solvers<T>;
  const int n = 9, batch = 3;
  const Csr a = from_dense(n, n, general(n));
  const int nnz = a.nnz();
  std::vector<T> values(nnz * batch), b(n * batch), x(n * batch, element<T>(-99));
  const std::vector<double> x0 = solution(n);
  for (int j = 0; j < batch; ++j) {
    Csr aj = a;
    for (double& v : aj.values) v *= (j + 1);
    aj.values[0] += j;
    const std::vector<double> bj = times(aj, x0);
    for (int k = 0; k < nnz; ++k) values[j * nnz + k] = element<T>(aj.values[k]);
    for (int i = 0; i < n; ++i) b[j * n + i] = element<T>(bj[i], bj[i]);
  }
  int *d_rows, *d_cols;
  T *d_values, *d_b, *d_x;
  cudaMalloc(&d_rows, (n + 1) * sizeof(int));
  cudaMalloc(&d_cols, nnz * sizeof(int));
  cudaMalloc(&d_values, values.size() * sizeof(T));
  cudaMalloc(&d_b, b.size() * sizeof(T));
  cudaMalloc(&d_x, x.size() * sizeof(T));
  cudaMemcpy(d_rows, a.row_ptr.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_cols, a.col_ind.data(), nnz * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_values, values.data(), values.size() * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, b.data(), b.size() * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(d_x, x.data(), x.size() * sizeof(T), cudaMemcpyHostToDevice);
  cusparseMatDescr_t descr = descriptor(0);
  csrqrInfo_t info;
  cusolverStatus_t st = cusolverSpCreateCsrqrInfo(&info);
  printf(" %s batched qr: create %d", S::name, st);
  st = cusolverSpXcsrqrAnalysisBatched(handle, n, n, nnz, descr, d_rows, d_cols, info);
  printf(" analysis %d", st);
  size_t internal = 0, workspace = 0;
  st = S::qr_batched_info(handle, n, n, nnz, descr, d_values, d_rows, d_cols, batch, info, &internal, &workspace);
  printf(" buffer info %d", st);
  fprintf(stderr, "%s batched qr: internal %zu workspace %zu\n", S::name, internal, workspace);
  void* buffer;
  cudaMalloc(&buffer, workspace + 1);
  st = S::qr_batched(handle, n, n, nnz, descr, d_values, d_rows, d_cols, d_b, d_x, batch, info, buffer);
  printf(" solve %d\n", st);
  cudaMemcpy(x.data(), d_x, x.size() * sizeof(T), cudaMemcpyDeviceToHost);
  for (int j = 0; j < batch; ++j) print_solution("x", std::vector<T>(x.begin() + j * n, x.begin() + (j + 1) * n));
  printf("  destroy %d\n", cusolverSpDestroyCsrqrInfo(info));
  cudaFree(buffer);
  cudaFree(d_rows);
  cudaFree(d_cols);
  cudaFree(d_values);
  cudaFree(d_b);
  cudaFree(d_x);
  cusparseDestroyMatDescr(descr);
}

void bad_arguments(cusolverSpHandle_t handle) {
  printf("bad arguments\n");
  const int n = 6;
  const Csr a = from_dense(n, n, spd(n));
  const std::vector<double> b(n, 1);
  std::vector<double> x(n);
  int singularity = 0;
  cusparseMatDescr_t general_descr = descriptor(0), symmetric = descriptor(0, CUSPARSE_MATRIX_TYPE_SYMMETRIC);
  auto chol = [&](cusolverSpHandle_t h, int size, int nnz, cusparseMatDescr_t d, double tol, int reorder) {
    return cusolverSpDcsrlsvcholHost(h, size, nnz, d, a.values.data(), a.row_ptr.data(), a.col_ind.data(), b.data(),
                                     tol, reorder, x.data(), &singularity);
  };
  printf(" null handle: %d\n", chol(nullptr, n, a.nnz(), general_descr, 1e-12, 0));
  printf(" n = -1: %d\n", chol(handle, -1, a.nnz(), general_descr, 1e-12, 0));
  printf(" nnz = -1: %d\n", chol(handle, n, -1, general_descr, 1e-12, 0));
  printf(" n = 0: %d\n", chol(handle, 0, a.nnz(), general_descr, 1e-12, 0));
  printf(" symmetric matrix type: %d\n", chol(handle, n, a.nnz(), symmetric, 1e-12, 0));
  printf(" reorder 4: %d\n", chol(handle, n, a.nnz(), general_descr, 1e-12, 4));
  printf(" reorder -1: %d\n", chol(handle, n, a.nnz(), general_descr, 1e-12, -1));
  printf(" tol -1: %d\n", chol(handle, n, a.nnz(), general_descr, -1.0, 0));
  printf(" lu reorder 5: %d\n", cusolverSpDcsrlsvluHost(handle, n, a.nnz(), general_descr, a.values.data(),
                                                        a.row_ptr.data(), a.col_ind.data(), b.data(), 1e-12, 5,
                                                        x.data(), &singularity));
  int issym = 0;
  printf(" issym symmetric type: %d\n", cusolverSpXcsrissymHost(handle, n, a.nnz(), symmetric, a.row_ptr.data(),
                                                                a.row_ptr.data() + 1, a.col_ind.data(), &issym));
  std::vector<int> p(n);
  printf(" symrcm n = -1: %d\n",
         cusolverSpXcsrsymrcmHost(handle, -1, a.nnz(), general_descr, a.row_ptr.data(), a.col_ind.data(), p.data()));
  // Left out: cusolverSpDestroy(NULL) crashes NVIDIA's library on the H200, as do a NULL
  // `singularity` and a NULL `issym`.
  cusparseDestroyMatDescr(general_descr);
  cusparseDestroyMatDescr(symmetric);
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);  // what was printed survives a crash of the library
  cusolverSpHandle_t handle;
  printf("create: %d\n", cusolverSpCreate(&handle));
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  printf("set stream: %d\n", cusolverSpSetStream(handle, stream));
  cudaStream_t got = nullptr;
  const cusolverStatus_t got_status = cusolverSpGetStream(handle, &got);
  printf("get stream: %d same %d\n", got_status, got == stream);
  printf("linear solvers\n");
  linear_solvers<float>(handle);
  linear_solvers<double>(handle);
  linear_solvers<cuComplex>(handle);
  linear_solvers<cuDoubleComplex>(handle);
  singular_matrices(handle);
  structure_routines(handle);
  printf("least squares\n");
  least_squares<float>(handle);
  least_squares<double>(handle);
  least_squares<cuComplex>(handle);
  least_squares<cuDoubleComplex>(handle);
  eigenvalues(handle);
  printf("batched qr\n");
  batched_qr<float>(handle);
  batched_qr<double>(handle);
  batched_qr<cuComplex>(handle);
  batched_qr<cuDoubleComplex>(handle);
  bad_arguments(handle);
  printf("destroy: %d\n", cusolverSpDestroy(handle));
  cudaStreamDestroy(stream);
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
