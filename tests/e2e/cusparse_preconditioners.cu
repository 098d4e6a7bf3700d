// cuSPARSE's preconditioner routines through cucpu's libcusparse.so.12, compared with the
// GPU's output: the legacy incomplete factorizations csrilu02 (ILU(0)) and csric02 (IC(0))
// with their info objects, analysis, zero-pivot queries and numeric boost, and the generic
// triangular solve SpSV (CSR and COO, lower and upper, unit and non-unit diagonal, every
// operation), for float, double and the complex types. Factors round, so they are checked
// against a double-precision ILU(0)/IC(0) on the host and printed as "ok" or the error; the
// triangular matrices have diagonals of +-1, so every solution is an exact integer and is
// printed as it is, as are zero-pivot positions and statuses.
// NVCC-FLAGS: -lcusparse -DDISABLE_CUSPARSE_DEPRECATED
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

using Z = std::complex<double>;

static void status(const char* what, cusparseStatus_t s) { printf("%s: %s\n", what, cusparseGetErrorName(s)); }

template <typename T>
struct Type;
template <>
struct Type<float> {
  static constexpr cudaDataType value = CUDA_R_32F;
  static constexpr const char* name = "S";
  static constexpr double tolerance = 1e-5;
};
template <>
struct Type<double> {
  static constexpr cudaDataType value = CUDA_R_64F;
  static constexpr const char* name = "D";
  static constexpr double tolerance = 1e-13;
};
template <>
struct Type<cuComplex> {
  static constexpr cudaDataType value = CUDA_C_32F;
  static constexpr const char* name = "C";
  static constexpr double tolerance = 1e-5;
};
template <>
struct Type<cuDoubleComplex> {
  static constexpr cudaDataType value = CUDA_C_64F;
  static constexpr const char* name = "Z";
  static constexpr double tolerance = 1e-13;
};
template <typename T>
constexpr bool is_complex = !std::is_floating_point_v<T>;

static Z to_z(float x) { return x; }
static Z to_z(double x) { return x; }
static Z to_z(cuComplex x) { return Z(x.x, x.y); }
static Z to_z(cuDoubleComplex x) { return Z(x.x, x.y); }
template <typename T>
static T from_z(Z z) {
  if constexpr (is_complex<T>)
    return T{static_cast<decltype(T{}.x)>(z.real()), static_cast<decltype(T{}.x)>(z.imag())};
  else
    return static_cast<T>(z.real());
}

template <typename T>
static T* device_copy(const std::vector<T>& host) {
  T* device = nullptr;
  cudaMalloc(&device, host.size() * sizeof(T) + 16);
  cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return device;
}

template <typename T>
static std::vector<T> host_copy(const T* device, size_t n) {
  std::vector<T> host(n);
  cudaDeviceSynchronize();
  cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}

static void print_values(const char* what, const std::vector<Z>& v) {
  printf("%s:", what);
  for (const Z& x : v) {
    if (x.imag() == 0)
      printf(" %g", x.real());
    else
      printf(" %g%+gi", x.real(), x.imag());
  }
  printf("\n");
}

// A sparse matrix on the host: dense values with a pattern, turned into CSR (sorted columns).
struct Sparse {
  int n;
  std::vector<Z> a;
  std::vector<bool> present;
  explicit Sparse(int size) : n(size), a(size * size), present(size * size) {}
  void set(int i, int j, Z v) {
    a[i * n + j] = v;
    present[i * n + j] = true;
  }
  Z at(int i, int j) const { return a[i * n + j]; }
  bool has(int i, int j) const { return present[i * n + j]; }
  int nnz() const { return static_cast<int>(std::count(present.begin(), present.end(), true)); }
  // CSR arrays with index base `base`.
  void csr(int base, std::vector<int>& offsets, std::vector<int>& columns, std::vector<Z>& values) const {
    offsets.assign(1, base);
    columns.clear();
    values.clear();
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j)
        if (has(i, j)) {
          columns.push_back(j + base);
          values.push_back(at(i, j));
        }
      offsets.push_back(static_cast<int>(columns.size()) + base);
    }
  }
};

// ILU(0) and IC(0) on the host, in double precision, on the pattern only.
static Sparse ilu0(Sparse m) {
  for (int i = 0; i < m.n; ++i)
    for (int k = 0; k < i; ++k) {
      if (!m.has(i, k)) continue;
      m.a[i * m.n + k] /= m.at(k, k);
      for (int j = k + 1; j < m.n; ++j)
        if (m.has(i, j) && m.has(k, j)) m.a[i * m.n + j] -= m.at(i, k) * m.at(k, j);
    }
  return m;
}

static Sparse ic0(Sparse m) {
  for (int i = 0; i < m.n; ++i) {
    Z diagonal = m.at(i, i);
    for (int k = 0; k < i; ++k) {
      if (!m.has(i, k)) continue;
      Z sum = m.at(i, k);
      for (int j = 0; j < k; ++j)
        if (m.has(i, j) && m.has(k, j)) sum -= m.at(i, j) * std::conj(m.at(k, j));
      m.a[i * m.n + k] = sum / m.at(k, k);
      diagonal -= m.at(i, k) * std::conj(m.at(i, k));
    }
    m.a[i * m.n + i] = std::sqrt(diagonal.real());
  }
  return m;
}

// The 7 x 7 test matrix: diagonally dominant, a few entries off the three diagonals;
// Hermitian when `hermitian`.
template <typename T>
static Sparse test_matrix(bool hermitian) {
  Sparse m(7);
  const int extra[][2] = {{0, 3}, {4, 1}, {5, 2}, {6, 0}, {2, 6}};
  auto value = [](int i, int j) { return Z((i * 3 + j * 5) % 7 - 3, is_complex<T> ? (i + 2 * j) % 5 - 2 : 0); };
  for (int i = 0; i < 7; ++i) {
    m.set(i, i, Z(10 + i, 0));
    if (i + 1 < 7) {
      m.set(i, i + 1, value(i, i + 1));
      m.set(i + 1, i, hermitian ? std::conj(value(i, i + 1)) : value(i + 1, i));
    }
  }
  for (auto& e : extra) {
    m.set(e[0], e[1], value(e[0], e[1]));
    if (hermitian) m.set(e[1], e[0], std::conj(value(e[0], e[1])));
  }
  return m;
}

// Calls the S/D/C/Z routine of the element type.
#define BY_TYPE(T, NAME, ...)                                                               \
  [&] {                                                                                     \
    if constexpr (std::is_same_v<T, float>)                                                 \
      return cusparseS##NAME(__VA_ARGS__);                                                  \
    else if constexpr (std::is_same_v<T, double>)                                           \
      return cusparseD##NAME(__VA_ARGS__);                                                  \
    else if constexpr (std::is_same_v<T, cuComplex>)                                        \
      return cusparseC##NAME(__VA_ARGS__);                                                  \
    else                                                                                    \
      return cusparseZ##NAME(__VA_ARGS__);                                                  \
  }()

template <typename T>
static void incomplete_lu(cusparseHandle_t handle, int base) {
  const Sparse m = test_matrix<T>(false), reference = ilu0(m);
  std::vector<int> offsets, columns;
  std::vector<Z> values;
  m.csr(base, offsets, columns, values);
  std::vector<T> typed;
  for (const Z& v : values) typed.push_back(from_z<T>(v));
  int *d_off = device_copy(offsets), *d_col = device_copy(columns);
  T* d_val = device_copy(typed);
  const int n = m.n, nnz = m.nnz();
  cusparseMatDescr_t descr;
  cusparseCreateMatDescr(&descr);
  cusparseSetMatIndexBase(descr, base ? CUSPARSE_INDEX_BASE_ONE : CUSPARSE_INDEX_BASE_ZERO);
  csrilu02Info_t info;
  cusparseCreateCsrilu02Info(&info);
  int size = 0;
  cusparseStatus_t s = BY_TYPE(T, csrilu02_bufferSize, handle, n, nnz, descr, d_val, d_off, d_col, info, &size);
  fprintf(stderr, "%s csrilu02 buffer %d bytes\n", Type<T>::name, size);
  void* buffer = nullptr;
  cudaMalloc(&buffer, size);
  char what[120];
  snprintf(what, sizeof what, "%s csrilu02 base %d", Type<T>::name, base);
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = BY_TYPE(T, csrilu02_analysis, handle, n, nnz, descr, d_val, d_off, d_col, info,
                CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer);
  int position = -7;
  cusparseStatus_t zp = cusparseXcsrilu02_zeroPivot(handle, info, &position);
  printf("%s analysis: %s, zero pivot %s %d\n", what, cusparseGetErrorName(s), cusparseGetErrorName(zp), position);
  s = BY_TYPE(T, csrilu02, handle, n, nnz, descr, d_val, d_off, d_col, info, CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer);
  zp = cusparseXcsrilu02_zeroPivot(handle, info, &position);
  printf("%s: %s, zero pivot %s %d\n", what, cusparseGetErrorName(s), cusparseGetErrorName(zp), position);
  std::vector<T> got = host_copy(d_val, nnz);
  double error = 0;
  int k = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (m.has(i, j)) error = std::max(error, std::abs(to_z(got[k++]) - reference.at(i, j)));
  if (error <= Type<T>::tolerance * 16)
    printf("%s factors: ok\n", what);
  else
    printf("%s factors: error %.3g\n", what, error);
  cusparseDestroyCsrilu02Info(info);
  cusparseDestroyMatDescr(descr);
  cudaFree(buffer);
  cudaFree(d_off);
  cudaFree(d_col);
  cudaFree(d_val);
}

template <typename T>
static void incomplete_cholesky(cusparseHandle_t handle) {
  const Sparse m = test_matrix<T>(true), reference = ic0(m);
  std::vector<int> offsets, columns;
  std::vector<Z> values;
  m.csr(0, offsets, columns, values);
  std::vector<T> typed;
  for (const Z& v : values) typed.push_back(from_z<T>(v));
  int *d_off = device_copy(offsets), *d_col = device_copy(columns);
  T* d_val = device_copy(typed);
  const int n = m.n, nnz = m.nnz();
  cusparseMatDescr_t descr;
  cusparseCreateMatDescr(&descr);
  csric02Info_t info;
  cusparseCreateCsric02Info(&info);
  int size = 0;
  cusparseStatus_t s = BY_TYPE(T, csric02_bufferSize, handle, n, nnz, descr, d_val, d_off, d_col, info, &size);
  fprintf(stderr, "%s csric02 buffer %d bytes\n", Type<T>::name, size);
  void* buffer = nullptr;
  cudaMalloc(&buffer, size);
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = BY_TYPE(T, csric02_analysis, handle, n, nnz, descr, d_val, d_off, d_col, info,
                CUSPARSE_SOLVE_POLICY_NO_LEVEL, buffer);
  status((std::string(Type<T>::name) + " csric02_analysis").c_str(), s);
  s = BY_TYPE(T, csric02, handle, n, nnz, descr, d_val, d_off, d_col, info, CUSPARSE_SOLVE_POLICY_NO_LEVEL, buffer);
  int position = -7;
  cusparseStatus_t zp = cusparseXcsric02_zeroPivot(handle, info, &position);
  printf("%s csric02: %s, zero pivot %s %d\n", Type<T>::name, cusparseGetErrorName(s), cusparseGetErrorName(zp),
         position);
  std::vector<T> got = host_copy(d_val, nnz);
  double error = 0;
  bool upper_unchanged = true;
  int k = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (m.has(i, j)) {
        const Z v = to_z(got[k++]);
        if (j <= i)
          error = std::max(error, std::abs(v - reference.at(i, j)));
        else if (v != m.at(i, j))
          upper_unchanged = false;
      }
  if (error <= Type<T>::tolerance * 16)
    printf("%s csric02 lower factor: ok\n", Type<T>::name);
  else
    printf("%s csric02 lower factor: error %.3g\n", Type<T>::name, error);
  printf("%s csric02 upper part unchanged: %s\n", Type<T>::name, upper_unchanged ? "yes" : "no");
  cusparseDestroyCsric02Info(info);
  cusparseDestroyMatDescr(descr);
  cudaFree(buffer);
  cudaFree(d_off);
  cudaFree(d_col);
  cudaFree(d_val);
}

// Zero pivots: a missing diagonal entry (structural), one that elimination makes zero
// (numerical), the latter again with a numeric boost; queried with the position on the host
// and on the device.
template <typename T>
static void zero_pivots(cusparseHandle_t handle) {
  // 3 x 3: rows 0 and 1 equal in their first two columns, so U(1,1) = 0; row 2 has no diagonal.
  const std::vector<int> offsets{1, 3, 5, 7}, columns{1, 2, 1, 2, 1, 2};
  const std::vector<T> values{from_z<T>(2), from_z<T>(4), from_z<T>(1), from_z<T>(2), from_z<T>(3), from_z<T>(5)};
  int *d_off = device_copy(offsets), *d_col = device_copy(columns);
  T* d_val = device_copy(values);
  cusparseMatDescr_t descr;
  cusparseCreateMatDescr(&descr);
  cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ONE);
  csrilu02Info_t info;
  cusparseCreateCsrilu02Info(&info);
  int size = 0;
  BY_TYPE(T, csrilu02_bufferSize, handle, 3, 6, descr, d_val, d_off, d_col, info, &size);
  void* buffer = nullptr;
  cudaMalloc(&buffer, std::max(size, 4));
  int position = -7;
  cusparseStatus_t s = BY_TYPE(T, csrilu02_analysis, handle, 3, 6, descr, d_val, d_off, d_col, info,
                               CUSPARSE_SOLVE_POLICY_NO_LEVEL, buffer);
  cusparseStatus_t zp = cusparseXcsrilu02_zeroPivot(handle, info, &position);
  printf("%s structural zero pivot: analysis %s, query %s, position %d\n", Type<T>::name, cusparseGetErrorName(s),
         cusparseGetErrorName(zp), position);
  s = BY_TYPE(T, csrilu02, handle, 3, 6, descr, d_val, d_off, d_col, info, CUSPARSE_SOLVE_POLICY_NO_LEVEL, buffer);
  int* d_position = device_copy(std::vector<int>{-7});
  cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_DEVICE);
  zp = cusparseXcsrilu02_zeroPivot(handle, info, d_position);
  cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_HOST);
  printf("%s numerical zero pivot: factor %s, query on the device %s, position %d\n", Type<T>::name,
         cusparseGetErrorName(s), cusparseGetErrorName(zp), host_copy(d_position, 1)[0]);
  // The same rows 0 and 1 as a 2 x 2 matrix, boosted: a pivot of magnitude <= 0.5 becomes 8.
  cudaMemcpy(d_val, values.data(), values.size() * sizeof(T), cudaMemcpyHostToDevice);
  double tol = 0.5;
  T boost = from_z<T>(8);
  s = BY_TYPE(T, csrilu02_numericBoost, handle, info, 1, &tol, &boost);
  status((std::string(Type<T>::name) + " numericBoost").c_str(), s);
  s = BY_TYPE(T, csrilu02, handle, 2, 4, descr, d_val, d_off, d_col, info, CUSPARSE_SOLVE_POLICY_NO_LEVEL, buffer);
  zp = cusparseXcsrilu02_zeroPivot(handle, info, &position);
  std::vector<Z> got;
  for (const T& v : host_copy(d_val, 4)) got.push_back(to_z(v));
  printf("%s boosted: factor %s, query %s, position %d\n", Type<T>::name, cusparseGetErrorName(s),
         cusparseGetErrorName(zp), position);
  print_values((std::string(Type<T>::name) + " boosted factors").c_str(), got);
  // A matrix type other than general.
  cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_SYMMETRIC);
  s = BY_TYPE(T, csrilu02, handle, 2, 4, descr, d_val, d_off, d_col, info, CUSPARSE_SOLVE_POLICY_NO_LEVEL, buffer);
  status((std::string(Type<T>::name) + " csrilu02 of a symmetric-type matrix").c_str(), s);
  cusparseDestroyCsrilu02Info(info);
  cusparseDestroyMatDescr(descr);
  cudaFree(buffer);
  cudaFree(d_off);
  cudaFree(d_col);
  cudaFree(d_val);
  cudaFree(d_position);
}

// SpSV on a 5 x 5 matrix holding both triangles (the other one must not be read): diagonal
// +-1 (or 7, ignored, for a unit diagonal) and small integers elsewhere.
template <typename T>
static void triangular_solve(cusparseHandle_t handle, bool coo, cusparseFillMode_t fill, cusparseDiagType_t diag,
                             cusparseOperation_t op) {
  const int n = 5;
  std::vector<int> rows, columns;
  std::vector<T> values;
  std::vector<int> offsets{0};
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if ((i + 2 * j) % 3 == 1 && i != j) continue;  // some entries missing
      Z v = i == j ? Z(diag == CUSPARSE_DIAG_TYPE_UNIT ? 7 : (i % 2 ? -1 : 1), 0)
                   : Z((i * 2 + j) % 5 - 2, is_complex<T> ? (i + j) % 3 - 1 : 0);
      rows.push_back(i);
      columns.push_back(j);
      values.push_back(from_z<T>(v));
    }
    offsets.push_back(static_cast<int>(columns.size()));
  }
  const int nnz = static_cast<int>(values.size());
  std::vector<T> x;
  for (int i = 0; i < n; ++i) x.push_back(from_z<T>(Z(i - 2, is_complex<T> ? 1 - i : 0)));
  int *d_off = device_copy(coo ? rows : offsets), *d_col = device_copy(columns);
  T* d_val = device_copy(values);
  T* dx = device_copy(x);
  T* dy = device_copy(std::vector<T>(n));
  cusparseSpMatDescr_t a;
  if (coo)
    cusparseCreateCoo(&a, n, n, nnz, d_off, d_col, d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                      Type<T>::value);
  else
    cusparseCreateCsr(&a, n, n, nnz, d_off, d_col, d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                      CUSPARSE_INDEX_BASE_ZERO, Type<T>::value);
  cusparseSpMatSetAttribute(a, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill);
  cusparseSpMatSetAttribute(a, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof diag);
  cusparseDnVecDescr_t vx, vy;
  cusparseCreateDnVec(&vx, n, dx, Type<T>::value);
  cusparseCreateDnVec(&vy, n, dy, Type<T>::value);
  cusparseSpSVDescr_t spsv;
  cusparseSpSV_createDescr(&spsv);
  const T alpha = from_z<T>(Z(2, is_complex<T> ? 1 : 0));
  size_t size = 0;
  cusparseStatus_t s = cusparseSpSV_bufferSize(handle, op, &alpha, a, vx, vy, Type<T>::value,
                                               CUSPARSE_SPSV_ALG_DEFAULT, spsv, &size);
  void* buffer = nullptr;
  cudaMalloc(&buffer, size);
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseSpSV_analysis(handle, op, &alpha, a, vx, vy, Type<T>::value, CUSPARSE_SPSV_ALG_DEFAULT, spsv, buffer);
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseSpSV_solve(handle, op, &alpha, a, vx, vy, Type<T>::value, CUSPARSE_SPSV_ALG_DEFAULT, spsv);
  char what[160];
  snprintf(what, sizeof what, "%s SpSV %s %s %s op %s", Type<T>::name, coo ? "COO" : "CSR",
           fill == CUSPARSE_FILL_MODE_LOWER ? "lower" : "upper", diag == CUSPARSE_DIAG_TYPE_UNIT ? "unit" : "non-unit",
           op == CUSPARSE_OPERATION_NON_TRANSPOSE ? "N" : op == CUSPARSE_OPERATION_TRANSPOSE ? "T" : "C");
  fprintf(stderr, "%s: buffer %zu bytes\n", what, size);
  if (s != CUSPARSE_STATUS_SUCCESS) {
    status(what, s);
  } else {
    std::vector<Z> y;
    for (const T& v : host_copy(dy, n)) y.push_back(to_z(v));
    print_values(what, y);
  }
  cusparseSpSV_destroyDescr(spsv);
  cusparseDestroySpMat(a);
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  cudaFree(buffer);
  cudaFree(d_off);
  cudaFree(d_col);
  cudaFree(d_val);
  cudaFree(dx);
  cudaFree(dy);
}

template <typename T>
static void all(cusparseHandle_t handle) {
  incomplete_lu<T>(handle, 0);
  incomplete_lu<T>(handle, 1);
  incomplete_cholesky<T>(handle);
  zero_pivots<T>(handle);
  for (bool coo : {false, true})
    for (cusparseFillMode_t fill : {CUSPARSE_FILL_MODE_LOWER, CUSPARSE_FILL_MODE_UPPER})
      for (cusparseDiagType_t diag : {CUSPARSE_DIAG_TYPE_NON_UNIT, CUSPARSE_DIAG_TYPE_UNIT})
        for (cusparseOperation_t op : {CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_TRANSPOSE,
                                       CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE}) {
          if (!is_complex<T> && op == CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE) continue;
          if (coo && diag == CUSPARSE_DIAG_TYPE_UNIT) continue;
          triangular_solve<T>(handle, coo, fill, diag, op);
        }
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  cusparseHandle_t handle;
  status("Create", cusparseCreate(&handle));
  all<float>(handle);
  all<double>(handle);
  all<cuComplex>(handle);
  all<cuDoubleComplex>(handle);
  status("Destroy", cusparseDestroy(handle));
  printf("last error: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
