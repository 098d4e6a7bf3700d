// cuSPARSE's generic API through cucpu's libcusparse.so.12, compared with the GPU's output:
// handles, status names, the legacy matrix descriptor, sparse and dense descriptors and
// their accessors, SpMV (CSR, CSC, COO; every operation; float, double and the complex
// types; 32- and 64-bit indices; base 0 and 1; scalars on the host and on the device),
// SpMM (CSR, COO; either order of B and C; B transposed), Axpby, Gather, Scatter, SpVV, a
// large SpMV, and the statuses of bad arguments. Every matrix holds small integers, so
// every printed product is exact whatever order the library adds in. Buffer sizes (which
// differ between implementations) and whatever the library prints for a bad argument go to
// stderr, which is not compared.
// NVCC-FLAGS: -lcusparse
#include <cuda_runtime.h>
#include <cusparse.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <unistd.h>
#include <vector>

static void status(const char* what, cusparseStatus_t s) { printf("%s: %s\n", what, cusparseGetErrorName(s)); }

// Runs a call whose arguments are bad with stdout and stderr caught: what the library says
// goes to stderr afterwards, so that only the status is compared.
template <typename Call>
static cusparseStatus_t quietly(const char* what, Call call) {
  fflush(stdout);
  fflush(stderr);
  FILE* caught = tmpfile();
  int out = dup(1), err = dup(2);
  dup2(fileno(caught), 1);
  dup2(fileno(caught), 2);
  cusparseStatus_t s = call();
  fflush(stdout);
  fflush(stderr);
  dup2(out, 1);
  dup2(err, 2);
  close(out);
  close(err);
  rewind(caught);
  char line[512];
  while (fgets(line, sizeof line, caught)) fprintf(stderr, "[%s] library said: %s", what, line);
  fclose(caught);
  status(what, s);
  return s;
}

template <typename T>
static T* device_copy(const std::vector<T>& host) {
  T* device = nullptr;
  cudaMalloc(&device, host.size() * sizeof(T) + 1);
  cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return device;
}

template <typename T>
static std::vector<T> host_copy(const T* device, size_t n) {
  std::vector<T> host(n);
  cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}

template <typename T>
struct Type;
template <>
struct Type<float> {
  static constexpr cudaDataType value = CUDA_R_32F;
  static constexpr const char* name = "float";
};
template <>
struct Type<double> {
  static constexpr cudaDataType value = CUDA_R_64F;
  static constexpr const char* name = "double";
};
template <>
struct Type<std::complex<float>> {
  static constexpr cudaDataType value = CUDA_C_32F;
  static constexpr const char* name = "complex float";
};
template <>
struct Type<std::complex<double>> {
  static constexpr cudaDataType value = CUDA_C_64F;
  static constexpr const char* name = "complex double";
};

template <typename T>
static T make(int re, int im) {
  if constexpr (std::is_floating_point_v<T>)
    return T(re);
  else
    return T(re, im);
}

template <typename T>
static T nan_value() {
  if constexpr (std::is_floating_point_v<T>)
    return T(NAN);
  else
    return T(NAN, NAN);
}

template <typename T>
static void print_values(const char* what, const std::vector<T>& v) {
  printf("%s:", what);
  for (const T& x : v) {
    if constexpr (std::is_floating_point_v<T>)
      printf(" %g", static_cast<double>(x));
    else
      printf(" %g%+gi", static_cast<double>(x.real()), static_cast<double>(x.imag()));
  }
  printf("\n");
}

// The 5 x 4 test matrix, as (row, column, re, im) entries in row order; row 3 is empty.
struct Entry {
  int row, col, re, im;
};
static const Entry kEntries[] = {{0, 0, 1, 2}, {0, 2, -2, 1}, {1, 1, 3, 0},  {1, 3, 4, -1}, {2, 0, -1, -1},
                                 {2, 1, 2, 3}, {2, 3, 1, 0},  {4, 2, 5, 2},  {4, 3, -3, 1}};
static const int kRows = 5, kCols = 4, kNnz = 9;

enum class Format { Csr, Csc, Coo };
static const char* name(Format f) { return f == Format::Csr ? "CSR" : f == Format::Csc ? "CSC" : "COO"; }
static const char* name(cusparseOperation_t op) {
  return op == CUSPARSE_OPERATION_NON_TRANSPOSE ? "N" : op == CUSPARSE_OPERATION_TRANSPOSE ? "T" : "C";
}

// The test matrix in `format` with index type I and base `base`, on the device.
template <typename T, typename I>
struct DeviceMatrix {
  std::vector<I> offsets, indices;
  std::vector<T> values;
  I* d_offsets = nullptr;
  I* d_indices = nullptr;
  T* d_values = nullptr;
  cusparseSpMatDescr_t descr = nullptr;

  DeviceMatrix(Format format, int base) {
    if (format == Format::Csr || format == Format::Coo) {
      offsets.assign(format == Format::Csr ? kRows + 1 : 0, 0);
      for (const Entry& e : kEntries) {
        if (format == Format::Csr)
          ++offsets[e.row + 1];
        else
          offsets.push_back(e.row + base);
        indices.push_back(e.col + base);
        values.push_back(make<T>(e.re, e.im));
      }
      if (format == Format::Csr)
        for (int i = 0; i < kRows; ++i) offsets[i + 1] += offsets[i];
    } else {
      offsets.assign(kCols + 1, 0);
      for (int c = 0; c < kCols; ++c)
        for (const Entry& e : kEntries)
          if (e.col == c) {
            ++offsets[c + 1];
            indices.push_back(e.row + base);
            values.push_back(make<T>(e.re, e.im));
          }
      for (int c = 0; c < kCols; ++c) offsets[c + 1] += offsets[c];
    }
    if (format != Format::Coo)
      for (I& o : offsets) o += base;
    d_offsets = device_copy(offsets);
    d_indices = device_copy(indices);
    d_values = device_copy(values);
    const cusparseIndexType_t it = sizeof(I) == 4 ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I;
    const cusparseIndexBase_t ib = base ? CUSPARSE_INDEX_BASE_ONE : CUSPARSE_INDEX_BASE_ZERO;
    cusparseStatus_t s;
    if (format == Format::Csr)
      s = cusparseCreateCsr(&descr, kRows, kCols, kNnz, d_offsets, d_indices, d_values, it, it, ib, Type<T>::value);
    else if (format == Format::Csc)
      s = cusparseCreateCsc(&descr, kRows, kCols, kNnz, d_offsets, d_indices, d_values, it, it, ib, Type<T>::value);
    else
      s = cusparseCreateCoo(&descr, kRows, kCols, kNnz, d_offsets, d_indices, d_values, it, ib, Type<T>::value);
    if (s != CUSPARSE_STATUS_SUCCESS) status("create matrix", s);
  }
  ~DeviceMatrix() {
    cusparseDestroySpMat(descr);
    cudaFree(d_offsets);
    cudaFree(d_indices);
    cudaFree(d_values);
  }
};

// y = alpha op(A) x + beta y for the test matrix in one format; beta 0 with y full of NaN
// (which must not be read).
template <typename T, typename I>
static void spmv(cusparseHandle_t handle, Format format, int base, cusparseOperation_t op, bool device_scalars,
                 bool beta_zero) {
  DeviceMatrix<T, I> a(format, base);
  const int x_len = op == CUSPARSE_OPERATION_NON_TRANSPOSE ? kCols : kRows;
  const int y_len = op == CUSPARSE_OPERATION_NON_TRANSPOSE ? kRows : kCols;
  std::vector<T> x, y;
  for (int i = 0; i < x_len; ++i) x.push_back(make<T>(i + 1, 1 - i));
  for (int i = 0; i < y_len; ++i) y.push_back(beta_zero ? make<T>(0, 0) + nan_value<T>() : make<T>(2 - i, i));
  T* dx = device_copy(x);
  T* dy = device_copy(y);
  const T alpha = make<T>(2, -1), beta = beta_zero ? make<T>(0, 0) : make<T>(-1, 2);
  T* d_scalars = device_copy(std::vector<T>{alpha, beta});
  cusparseDnVecDescr_t vx, vy;
  cusparseCreateDnVec(&vx, x_len, dx, Type<T>::value);
  cusparseCreateDnVec(&vy, y_len, dy, Type<T>::value);
  cusparseSetPointerMode(handle, device_scalars ? CUSPARSE_POINTER_MODE_DEVICE : CUSPARSE_POINTER_MODE_HOST);
  const T* pa = device_scalars ? d_scalars : &alpha;
  const T* pb = device_scalars ? d_scalars + 1 : &beta;
  size_t size = 0;
  cusparseStatus_t s = cusparseSpMV_bufferSize(handle, op, pa, a.descr, vx, pb, vy, Type<T>::value,
                                               CUSPARSE_SPMV_ALG_DEFAULT, &size);
  void* buffer = nullptr;
  cudaMalloc(&buffer, size);
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseSpMV(handle, op, pa, a.descr, vx, pb, vy, Type<T>::value, CUSPARSE_SPMV_ALG_DEFAULT, buffer);
  cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_HOST);
  char what[160];
  snprintf(what, sizeof what, "SpMV %s %s index%d base%d op %s %s%s", Type<T>::name, name(format),
           int(8 * sizeof(I)), base, name(op), device_scalars ? "device scalars" : "host scalars",
           beta_zero ? " beta 0" : "");
  fprintf(stderr, "%s: buffer %zu bytes\n", what, size);
  if (s != CUSPARSE_STATUS_SUCCESS)
    status(what, s);
  else
    print_values(what, host_copy(dy, y_len));
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  cudaFree(buffer);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(d_scalars);
}

template <typename T>
static void spmv_all(cusparseHandle_t handle) {
  for (Format f : {Format::Csr, Format::Csc, Format::Coo})
    for (cusparseOperation_t op : {CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_TRANSPOSE,
                                   CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE}) {
      if (std::is_floating_point_v<T> && op == CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE) continue;
      spmv<T, int32_t>(handle, f, 0, op, false, false);
    }
  spmv<T, int64_t>(handle, Format::Csr, 1, CUSPARSE_OPERATION_NON_TRANSPOSE, true, false);
  spmv<T, int32_t>(handle, Format::Coo, 1, CUSPARSE_OPERATION_TRANSPOSE, true, false);
  spmv<T, int32_t>(handle, Format::Csr, 0, CUSPARSE_OPERATION_NON_TRANSPOSE, false, true);
}

// C = alpha op(A) op(B) + beta C, B and C in either order.
template <typename T>
static void spmm(cusparseHandle_t handle, Format format, cusparseOperation_t op_a, cusparseOperation_t op_b,
                 cusparseOrder_t order_b, cusparseOrder_t order_c) {
  DeviceMatrix<T, int32_t> a(format, 0);
  const int m = op_a == CUSPARSE_OPERATION_NON_TRANSPOSE ? kRows : kCols;
  const int k = op_a == CUSPARSE_OPERATION_NON_TRANSPOSE ? kCols : kRows;
  const int n = 3;
  const int b_rows = op_b == CUSPARSE_OPERATION_NON_TRANSPOSE ? k : n;
  const int b_cols = op_b == CUSPARSE_OPERATION_NON_TRANSPOSE ? n : k;
  const int ldb = (order_b == CUSPARSE_ORDER_COL ? b_rows : b_cols) + 1;
  const int ldc = (order_c == CUSPARSE_ORDER_COL ? m : n) + 2;
  std::vector<T> b(static_cast<size_t>(ldb) * (order_b == CUSPARSE_ORDER_COL ? b_cols : b_rows), make<T>(7, 7));
  for (int i = 0; i < b_rows; ++i)
    for (int j = 0; j < b_cols; ++j)
      b[order_b == CUSPARSE_ORDER_COL ? i + j * ldb : i * ldb + j] = make<T>((i + 2 * j) % 5 - 2, (i * j) % 3 - 1);
  std::vector<T> c(static_cast<size_t>(ldc) * (order_c == CUSPARSE_ORDER_COL ? n : m), make<T>(1, -1));
  T* db = device_copy(b);
  T* dc = device_copy(c);
  cusparseDnMatDescr_t mb, mc;
  cusparseCreateDnMat(&mb, b_rows, b_cols, ldb, db, Type<T>::value, order_b);
  cusparseCreateDnMat(&mc, m, n, ldc, dc, Type<T>::value, order_c);
  const T alpha = make<T>(1, 1), beta = make<T>(3, 0);
  size_t size = 0;
  cusparseStatus_t s = cusparseSpMM_bufferSize(handle, op_a, op_b, &alpha, a.descr, mb, &beta, mc, Type<T>::value,
                                               CUSPARSE_SPMM_ALG_DEFAULT, &size);
  void* buffer = nullptr;
  cudaMalloc(&buffer, size);
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseSpMM(handle, op_a, op_b, &alpha, a.descr, mb, &beta, mc, Type<T>::value, CUSPARSE_SPMM_ALG_DEFAULT,
                     buffer);
  char what[160];
  snprintf(what, sizeof what, "SpMM %s %s opA %s opB %s B %s C %s", Type<T>::name, name(format), name(op_a),
           name(op_b), order_b == CUSPARSE_ORDER_COL ? "col" : "row", order_c == CUSPARSE_ORDER_COL ? "col" : "row");
  fprintf(stderr, "%s: buffer %zu bytes\n", what, size);
  if (s != CUSPARSE_STATUS_SUCCESS)
    status(what, s);
  else
    print_values(what, host_copy(dc, c.size()));  // the padding too: it must be untouched
  cusparseDestroyDnMat(mb);
  cusparseDestroyDnMat(mc);
  cudaFree(buffer);
  cudaFree(db);
  cudaFree(dc);
}

// Axpby, Gather, Scatter and SpVV on a sparse vector of 4 entries in 9.
template <typename T>
static void vector_routines(cusparseHandle_t handle) {
  const std::vector<int32_t> idx{1, 3, 4, 8};
  std::vector<T> xv{make<T>(2, 1), make<T>(-1, 3), make<T>(4, 0), make<T>(1, -2)};
  std::vector<T> y;
  for (int i = 0; i < 9; ++i) y.push_back(make<T>(i - 3, 2 - i));
  int32_t* di = device_copy(idx);
  T* dx = device_copy(xv);
  T* dy = device_copy(y);
  cusparseSpVecDescr_t sx;
  cusparseDnVecDescr_t vy;
  cusparseCreateSpVec(&sx, 9, 4, di, dx, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, Type<T>::value);
  cusparseCreateDnVec(&vy, 9, dy, Type<T>::value);
  char what[120];

  // SpVV, host result, both operations for complex types.
  for (cusparseOperation_t op : {CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE}) {
    if (std::is_floating_point_v<T> && op != CUSPARSE_OPERATION_NON_TRANSPOSE) continue;
    T result = make<T>(99, 99);
    size_t size = 0;
    cusparseStatus_t s = cusparseSpVV_bufferSize(handle, op, sx, vy, &result, Type<T>::value, &size);
    void* buffer = nullptr;
    cudaMalloc(&buffer, size);
    if (s == CUSPARSE_STATUS_SUCCESS) s = cusparseSpVV(handle, op, sx, vy, &result, Type<T>::value, buffer);
    snprintf(what, sizeof what, "SpVV %s op %s host result", Type<T>::name, name(op));
    fprintf(stderr, "%s: buffer %zu bytes\n", what, size);
    if (s != CUSPARSE_STATUS_SUCCESS)
      status(what, s);
    else
      print_values(what, std::vector<T>{result});
    cudaFree(buffer);
  }
  // SpVV, device result.
  {
    T* d_result = device_copy(std::vector<T>{make<T>(99, 99)});
    cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_DEVICE);
    size_t size = 0;
    cusparseStatus_t s =
        cusparseSpVV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, sx, vy, d_result, Type<T>::value, &size);
    void* buffer = nullptr;
    cudaMalloc(&buffer, size);
    if (s == CUSPARSE_STATUS_SUCCESS)
      s = cusparseSpVV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, sx, vy, d_result, Type<T>::value, buffer);
    cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_HOST);
    snprintf(what, sizeof what, "SpVV %s device result", Type<T>::name);
    if (s != CUSPARSE_STATUS_SUCCESS)
      status(what, s);
    else
      print_values(what, host_copy(d_result, 1));
    cudaFree(buffer);
    cudaFree(d_result);
  }
  // Axpby: y = alpha x + beta y.
  const T alpha = make<T>(3, -1), beta = make<T>(-2, 1);
  cusparseStatus_t s = cusparseAxpby(handle, &alpha, sx, &beta, vy);
  snprintf(what, sizeof what, "Axpby %s", Type<T>::name);
  if (s != CUSPARSE_STATUS_SUCCESS)
    status(what, s);
  else
    print_values(what, host_copy(dy, 9));
  // Gather: x = y at x's indices.
  s = cusparseGather(handle, vy, sx);
  snprintf(what, sizeof what, "Gather %s", Type<T>::name);
  if (s != CUSPARSE_STATUS_SUCCESS)
    status(what, s);
  else
    print_values(what, host_copy(dx, 4));
  // Scatter: y at x's indices = x, after x changed.
  cudaMemcpy(dx, xv.data(), xv.size() * sizeof(T), cudaMemcpyHostToDevice);
  s = cusparseScatter(handle, sx, vy);
  snprintf(what, sizeof what, "Scatter %s", Type<T>::name);
  if (s != CUSPARSE_STATUS_SUCCESS)
    status(what, s);
  else
    print_values(what, host_copy(dy, 9));
  cusparseDestroySpVec(sx);
  cusparseDestroyDnVec(vy);
  cudaFree(di);
  cudaFree(dx);
  cudaFree(dy);
}

// A tridiagonal matrix of 300000 rows (entries -1, 4, -1 with a twist), y = A x on a
// stream: the sum of y and a few entries, all exact integers in double.
static void large_spmv(cusparseHandle_t handle) {
  const int n = 300000;
  std::vector<int32_t> offsets(n + 1, 0), cols;
  std::vector<double> vals;
  for (int i = 0; i < n; ++i) {
    for (int j = i - 1; j <= i + 1; ++j)
      if (j >= 0 && j < n) {
        cols.push_back(j);
        vals.push_back(j == i ? 4.0 + i % 3 : -1.0 - (i + j) % 2);
      }
    offsets[i + 1] = static_cast<int32_t>(cols.size());
  }
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i) x[i] = (i * 7) % 11 - 5;
  int32_t* d_off = device_copy(offsets);
  int32_t* d_col = device_copy(cols);
  double* d_val = device_copy(vals);
  double* dx = device_copy(x);
  double* dy = nullptr;
  cudaMalloc(&dy, n * sizeof(double));
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  cusparseSetStream(handle, stream);
  cudaStream_t got = nullptr;
  cusparseGetStream(handle, &got);
  printf("stream set and got back: %s\n", got == stream ? "yes" : "no");
  cusparseSpMatDescr_t a;
  cusparseDnVecDescr_t vx, vy;
  cusparseCreateCsr(&a, n, n, static_cast<int64_t>(cols.size()), d_off, d_col, d_val, CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
  cusparseCreateDnVec(&vx, n, dx, CUDA_R_64F);
  cusparseCreateDnVec(&vy, n, dy, CUDA_R_64F);
  const double one = 1, zero = 0;
  size_t size = 0;
  cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx, &zero, vy, CUDA_R_64F,
                          CUSPARSE_SPMV_CSR_ALG1, &size);
  fprintf(stderr, "large SpMV: buffer %zu bytes\n", size);
  void* buffer = nullptr;
  cudaMalloc(&buffer, size);
  cusparseStatus_t s = cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx, &zero, vy, CUDA_R_64F,
                                    CUSPARSE_SPMV_CSR_ALG1, buffer);
  // A transposed product after it on the same stream, into x's copy.
  double* dz = nullptr;
  cudaMalloc(&dz, n * sizeof(double));
  cusparseDnVecDescr_t vz;
  cusparseCreateDnVec(&vz, n, dz, CUDA_R_64F);
  cusparseStatus_t s2 = cusparseSpMV(handle, CUSPARSE_OPERATION_TRANSPOSE, &one, a, vy, &zero, vz, CUDA_R_64F,
                                     CUSPARSE_SPMV_ALG_DEFAULT, buffer);
  cudaStreamSynchronize(stream);
  status("large SpMV", s);
  status("large SpMV transposed after it", s2);
  std::vector<double> y = host_copy(dy, n), z = host_copy(dz, n);
  double sum_y = 0, sum_z = 0;
  for (int i = 0; i < n; ++i) {
    sum_y += y[i];
    sum_z += z[i] * (i % 5);
  }
  printf("large SpMV: sum %.0f, y[0] %.0f, y[12345] %.0f, y[n-1] %.0f; A^T y weighted sum %.0f, z[777] %.0f\n", sum_y,
         y[0], y[12345], y[n - 1], sum_z, z[777]);
  cusparseSetStream(handle, nullptr);
  cusparseDestroySpMat(a);
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  cusparseDestroyDnVec(vz);
  cudaStreamDestroy(stream);
  cudaFree(buffer);
  cudaFree(d_off);
  cudaFree(d_col);
  cudaFree(d_val);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dz);
}

static void descriptors() {
  // The legacy matrix descriptor.
  cusparseMatDescr_t d;
  status("CreateMatDescr", cusparseCreateMatDescr(&d));
  printf("defaults: type %d fill %d diag %d base %d\n", cusparseGetMatType(d), cusparseGetMatFillMode(d),
         cusparseGetMatDiagType(d), cusparseGetMatIndexBase(d));
  status("SetMatType triangular", cusparseSetMatType(d, CUSPARSE_MATRIX_TYPE_TRIANGULAR));
  status("SetMatFillMode upper", cusparseSetMatFillMode(d, CUSPARSE_FILL_MODE_UPPER));
  status("SetMatDiagType unit", cusparseSetMatDiagType(d, CUSPARSE_DIAG_TYPE_UNIT));
  status("SetMatIndexBase one", cusparseSetMatIndexBase(d, CUSPARSE_INDEX_BASE_ONE));
  printf("set: type %d fill %d diag %d base %d\n", cusparseGetMatType(d), cusparseGetMatFillMode(d),
         cusparseGetMatDiagType(d), cusparseGetMatIndexBase(d));
  quietly("SetMatType 9", [&] { return cusparseSetMatType(d, static_cast<cusparseMatrixType_t>(9)); });
  quietly("SetMatIndexBase 2", [&] { return cusparseSetMatIndexBase(d, static_cast<cusparseIndexBase_t>(2)); });
  quietly("SetMatFillMode 5", [&] { return cusparseSetMatFillMode(d, static_cast<cusparseFillMode_t>(5)); });
  printf("after bad sets: type %d fill %d diag %d base %d\n", cusparseGetMatType(d), cusparseGetMatFillMode(d),
         cusparseGetMatDiagType(d), cusparseGetMatIndexBase(d));
  status("DestroyMatDescr", cusparseDestroyMatDescr(d));
  quietly("CreateMatDescr(NULL)", [&] { return cusparseCreateMatDescr(nullptr); });

  // A CSR descriptor's accessors.
  DeviceMatrix<float, int32_t> a(Format::Csr, 1);
  int64_t rows, cols, nnz;
  void *offsets, *indices, *values;
  cusparseIndexType_t ot, it;
  cusparseIndexBase_t base;
  cudaDataType type;
  status("CsrGet", cusparseCsrGet(a.descr, &rows, &cols, &nnz, &offsets, &indices, &values, &ot, &it, &base, &type));
  printf("CsrGet: %lld x %lld, nnz %lld, pointers %s, index types %d %d, base %d, type %d\n", (long long)rows,
         (long long)cols, (long long)nnz,
         offsets == a.d_offsets && indices == a.d_indices && values == a.d_values ? "same" : "other", ot, it, base,
         type);
  cusparseFormat_t format;
  status("SpMatGetFormat", cusparseSpMatGetFormat(a.descr, &format));
  status("SpMatGetIndexBase", cusparseSpMatGetIndexBase(a.descr, &base));
  status("SpMatGetSize", cusparseSpMatGetSize(a.descr, &rows, &cols, &nnz));
  printf("format %d base %d size %lld x %lld nnz %lld\n", format, base, (long long)rows, (long long)cols,
         (long long)nnz);
  cusparseFillMode_t fill = CUSPARSE_FILL_MODE_UPPER;
  status("SpMatSetAttribute fill", cusparseSpMatSetAttribute(a.descr, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill));
  fill = CUSPARSE_FILL_MODE_LOWER;
  status("SpMatGetAttribute fill", cusparseSpMatGetAttribute(a.descr, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill));
  printf("fill mode %d\n", fill);
  int batches = 0;
  status("SpMatGetStridedBatch", cusparseSpMatGetStridedBatch(a.descr, &batches));
  printf("batch count %d\n", batches);
  status("CsrSetPointers", cusparseCsrSetPointers(a.descr, a.d_offsets, a.d_indices, a.d_values));
  status("SpMatGetValues", cusparseSpMatGetValues(a.descr, &values));
  printf("values pointer %s\n", values == a.d_values ? "same" : "other");
  quietly("CscGet of a CSR", [&] {
    return cusparseCscGet(a.descr, &rows, &cols, &nnz, &offsets, &indices, &values, &ot, &it, &base, &type);
  });

  // Dense vector and matrix accessors.
  float* dv = nullptr;
  cudaMalloc(&dv, 64 * sizeof(float));
  cusparseDnVecDescr_t v;
  status("CreateDnVec", cusparseCreateDnVec(&v, 10, dv, CUDA_R_32F));
  int64_t size;
  void* vp;
  status("DnVecGet", cusparseDnVecGet(v, &size, &vp, &type));
  printf("DnVecGet: size %lld pointer %s type %d\n", (long long)size, vp == dv ? "same" : "other", type);
  status("DestroyDnVec", cusparseDestroyDnVec(v));
  cusparseDnMatDescr_t m;
  status("CreateDnMat", cusparseCreateDnMat(&m, 3, 4, 5, dv, CUDA_R_32F, CUSPARSE_ORDER_COL));
  int64_t ld;
  cusparseOrder_t order;
  status("DnMatGet", cusparseDnMatGet(m, &rows, &cols, &ld, &vp, &type, &order));
  printf("DnMatGet: %lld x %lld ld %lld pointer %s type %d order %d\n", (long long)rows, (long long)cols,
         (long long)ld, vp == dv ? "same" : "other", type, order);
  status("DestroyDnMat", cusparseDestroyDnMat(m));

  // Bad descriptors.
  cusparseSpMatDescr_t bad;
  quietly("CreateCsr rows -1", [&] {
    return cusparseCreateCsr(&bad, -1, 4, 0, a.d_offsets, a.d_indices, a.d_values, CUSPARSE_INDEX_32I,
                             CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
  });
  quietly("CreateCsr NULL descriptor", [&] {
    return cusparseCreateCsr(nullptr, 5, 4, 9, a.d_offsets, a.d_indices, a.d_values, CUSPARSE_INDEX_32I,
                             CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
  });
  quietly("CreateCsr nnz 9 NULL values", [&] {
    return cusparseCreateCsr(&bad, 5, 4, 9, a.d_offsets, a.d_indices, nullptr, CUSPARSE_INDEX_32I,
                             CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
  });
  quietly("CreateCoo base 2", [&] {
    return cusparseCreateCoo(&bad, 5, 4, 9, a.d_offsets, a.d_indices, a.d_values, CUSPARSE_INDEX_32I,
                             static_cast<cusparseIndexBase_t>(2), CUDA_R_32F);
  });
  quietly("CreateDnVec size -3", [&] { return cusparseCreateDnVec(&v, -3, dv, CUDA_R_32F); });
  quietly("CreateDnMat ld < rows", [&] { return cusparseCreateDnMat(&m, 4, 2, 3, dv, CUDA_R_32F, CUSPARSE_ORDER_COL); });
  if (cusparseStatus_t s = cusparseCreateCsr(&bad, 0, 0, 0, nullptr, nullptr, nullptr, CUSPARSE_INDEX_32I,
                                             CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
      s == CUSPARSE_STATUS_SUCCESS) {
    status("CreateCsr 0 x 0 without arrays", s);
    cusparseDestroySpMat(bad);
  } else {
    status("CreateCsr 0 x 0 without arrays", s);
  }
  cudaFree(dv);
}

static void bad_products(cusparseHandle_t handle) {
  DeviceMatrix<float, int32_t> a(Format::Csr, 0);
  float *dx = nullptr, *dy = nullptr;
  double* dd = nullptr;
  cudaMalloc(&dx, 16 * sizeof(float));
  cudaMalloc(&dy, 16 * sizeof(float));
  cudaMalloc(&dd, 16 * sizeof(double));
  cusparseDnVecDescr_t x4, y5, x5, xd;
  cusparseCreateDnVec(&x4, 4, dx, CUDA_R_32F);
  cusparseCreateDnVec(&x5, 5, dx, CUDA_R_32F);
  cusparseCreateDnVec(&y5, 5, dy, CUDA_R_32F);
  cusparseCreateDnVec(&xd, 4, dd, CUDA_R_64F);
  const float one = 1, zero = 0;
  size_t size = 0;
  const auto N = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const auto alg = CUSPARSE_SPMV_ALG_DEFAULT;
  quietly("SpMV_bufferSize x of 5 for 4 columns",
          [&] { return cusparseSpMV_bufferSize(handle, N, &one, a.descr, x5, &zero, y5, CUDA_R_32F, alg, &size); });
  quietly("SpMV x of 5 for 4 columns",
          [&] { return cusparseSpMV(handle, N, &one, a.descr, x5, &zero, y5, CUDA_R_32F, alg, nullptr); });
  quietly("SpMV transposed, y of 5 for 4 columns", [&] {
    return cusparseSpMV(handle, CUSPARSE_OPERATION_TRANSPOSE, &one, a.descr, x5, &zero, y5, CUDA_R_32F, alg, nullptr);
  });
  quietly("SpMV x double, A float",
          [&] { return cusparseSpMV(handle, N, &one, a.descr, xd, &zero, y5, CUDA_R_32F, alg, nullptr); });
  quietly("SpMV compute double, all float",
          [&] { return cusparseSpMV(handle, N, &one, a.descr, x4, &zero, y5, CUDA_R_64F, alg, nullptr); });
  quietly("SpMV alpha NULL",
          [&] { return cusparseSpMV(handle, N, nullptr, a.descr, x4, &zero, y5, CUDA_R_32F, alg, nullptr); });
  quietly("SpMV matA NULL",
          [&] { return cusparseSpMV(handle, N, &one, nullptr, x4, &zero, y5, CUDA_R_32F, alg, nullptr); });
  quietly("SpMV op 7", [&] {
    return cusparseSpMV(handle, static_cast<cusparseOperation_t>(7), &one, a.descr, x4, &zero, y5, CUDA_R_32F, alg,
                        nullptr);
  });
  quietly("SpMV handle NULL",
          [&] { return cusparseSpMV(nullptr, N, &one, a.descr, x4, &zero, y5, CUDA_R_32F, alg, nullptr); });
  quietly("SpMV_bufferSize size NULL",
          [&] { return cusparseSpMV_bufferSize(handle, N, &one, a.descr, x4, &zero, y5, CUDA_R_32F, alg, nullptr); });
  cusparseDnMatDescr_t b, c;
  cusparseCreateDnMat(&b, 3, 2, 3, dx, CUDA_R_32F, CUSPARSE_ORDER_COL);
  cusparseCreateDnMat(&c, 5, 2, 5, dy, CUDA_R_32F, CUSPARSE_ORDER_COL);
  quietly("SpMM B of 3 rows for 4 columns", [&] {
    return cusparseSpMM(handle, N, N, &one, a.descr, b, &zero, c, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, nullptr);
  });
  cusparseDestroyDnMat(b);
  cusparseDestroyDnMat(c);
  cusparseDestroyDnVec(x4);
  cusparseDestroyDnVec(x5);
  cusparseDestroyDnVec(y5);
  cusparseDestroyDnVec(xd);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dd);
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  int value = -1;
  cusparseGetProperty(MAJOR_VERSION, &value);
  printf("cusparse major version %d\n", value);
  for (int s = 0; s <= 12; ++s)
    printf("status %d: %s / %s\n", s, cusparseGetErrorName(static_cast<cusparseStatus_t>(s)),
           cusparseGetErrorString(static_cast<cusparseStatus_t>(s)));

  cusparseHandle_t handle;
  status("Create", cusparseCreate(&handle));
  int version = 0;
  status("GetVersion", cusparseGetVersion(handle, &version));
  int minor = -1, patch = -1;
  cusparseGetProperty(MINOR_VERSION, &minor);
  cusparseGetProperty(PATCH_LEVEL, &patch);
  fprintf(stderr, "cuSPARSE version %d (%d.%d.%d)\n", version, value, minor, patch);
  printf("version / 1000: %d\n", version / 1000);
  cusparsePointerMode_t mode;
  status("GetPointerMode", cusparseGetPointerMode(handle, &mode));
  printf("pointer mode %d\n", mode);
  quietly("SetPointerMode 2", [&] { return cusparseSetPointerMode(handle, static_cast<cusparsePointerMode_t>(2)); });
  quietly("SetStream NULL handle", [&] { return cusparseSetStream(nullptr, nullptr); });
  quietly("GetPointerMode NULL handle", [&] { return cusparseGetPointerMode(nullptr, &mode); });
  quietly("Create(NULL)", [&] { return cusparseCreate(nullptr); });
  quietly("Destroy(NULL)", [&] { return cusparseDestroy(nullptr); });

  descriptors();

  spmv_all<float>(handle);
  spmv_all<double>(handle);
  spmv_all<std::complex<float>>(handle);
  spmv_all<std::complex<double>>(handle);

  for (Format f : {Format::Csr, Format::Coo}) {
    spmm<float>(handle, f, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_ORDER_COL,
                CUSPARSE_ORDER_COL);
    spmm<double>(handle, f, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_ORDER_ROW,
                 CUSPARSE_ORDER_ROW);
    spmm<double>(handle, f, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_TRANSPOSE, CUSPARSE_ORDER_COL,
                 CUSPARSE_ORDER_COL);
    spmm<std::complex<float>>(handle, f, CUSPARSE_OPERATION_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                              CUSPARSE_ORDER_COL, CUSPARSE_ORDER_COL);
    spmm<std::complex<double>>(handle, f, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE,
                               CUSPARSE_ORDER_ROW, CUSPARSE_ORDER_ROW);
  }

  vector_routines<float>(handle);
  vector_routines<double>(handle);
  vector_routines<std::complex<float>>(handle);
  vector_routines<std::complex<double>>(handle);

  large_spmv(handle);
  bad_products(handle);

  status("Destroy", cusparseDestroy(handle));
  printf("last error: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
