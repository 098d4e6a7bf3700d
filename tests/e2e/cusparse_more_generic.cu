// More of cuSPARSE's generic API through cucpu's libcusparse.so.12, compared with the GPU's
// output: SpGEMM (buffer-size queries, work estimation, compute, C's nnz, copy; ALG1 and
// ALG3 with estimateMemory; base 1, 64-bit indices, device scalars) and SpGEMMreuse (beta,
// new values of A on the same structure); SpSM (CSR and COO, lower and upper, unit and
// non-unit diagonal, op(A) N/T/C, op(B) N/T, B and C in either order); Csr2cscEx2,
// SparseToDense and DenseToSparse (CSR, CSC, COO, Blocked-ELL), Xcoo2csr / Xcsr2coo;
// Blocked-ELL descriptors and SpMM on them; each in float, double and the complex types,
// and the statuses of bad arguments. Every matrix holds small integers (triangular ones
// with a diagonal of +-1 or +-i), so every printed result is exact whatever order the
// library adds in. Buffer sizes and what the library prints for a bad argument go to
// stderr, which is not compared.
// NVCC-FLAGS: -lcusparse
#include <cuda_runtime.h>
#include <cusparse.h>
#include <unistd.h>

#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
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

static void* device_buffer(size_t size) {
  void* buffer = nullptr;
  cudaMalloc(&buffer, size);
  return buffer;
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
static constexpr bool is_complex = !std::is_floating_point_v<T>;

template <typename T>
static T make(int re, int im) {
  if constexpr (std::is_floating_point_v<T>)
    return T(re);
  else
    return T(re, im);
}

// Values printed with a zero's sign dropped (x + 0.0): whether a sum comes out -0 or +0
// depends on the order it was added in.
template <typename T>
static void print_values(const char* what, const std::vector<T>& v) {
  printf("%s:", what);
  for (const T& x : v) {
    if constexpr (std::is_floating_point_v<T>)
      printf(" %g", static_cast<double>(x) + 0.0);
    else
      printf(" %g%+gi", static_cast<double>(x.real()) + 0.0, static_cast<double>(x.imag()) + 0.0);
  }
  printf("\n");
}

template <typename I>
static void print_indices(const char* what, const std::vector<I>& v) {
  printf("%s:", what);
  for (I x : v) printf(" %lld", static_cast<long long>(x));
  printf("\n");
}

static const char* name(cusparseOperation_t op) {
  return op == CUSPARSE_OPERATION_NON_TRANSPOSE ? "N" : op == CUSPARSE_OPERATION_TRANSPOSE ? "T" : "C";
}
static const char* name(cusparseOrder_t order) { return order == CUSPARSE_ORDER_COL ? "col" : "row"; }
static const char* name(cusparseSpGEMMAlg_t alg) {
  return alg == CUSPARSE_SPGEMM_DEFAULT ? "DEFAULT" : alg == CUSPARSE_SPGEMM_ALG1 ? "ALG1" : "ALG3";
}

template <typename I>
static constexpr cusparseIndexType_t index_type = sizeof(I) == 4 ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I;

// A sparse matrix given as (row, column, re, im) entries in row order.
struct Entry {
  int row, col, re, im;
};

// That matrix as CSR on the device, with index type I and base `base`.
template <typename T, typename I = int32_t>
struct DeviceCsr {
  std::vector<I> offsets, columns;
  std::vector<T> values;
  I* d_offsets = nullptr;
  I* d_columns = nullptr;
  T* d_values = nullptr;
  cusparseSpMatDescr_t descr = nullptr;

  DeviceCsr(int rows, int cols, const std::vector<Entry>& entries, int base = 0) {
    offsets.assign(rows + 1, 0);
    for (const Entry& e : entries) {
      ++offsets[e.row + 1];
      columns.push_back(static_cast<I>(e.col + base));
      values.push_back(make<T>(e.re, e.im));
    }
    for (int i = 0; i < rows; ++i) offsets[i + 1] += offsets[i];
    for (I& o : offsets) o += base;
    d_offsets = device_copy(offsets);
    d_columns = device_copy(columns);
    d_values = device_copy(values);
    cusparseStatus_t s = cusparseCreateCsr(&descr, rows, cols, static_cast<int64_t>(entries.size()), d_offsets,
                                           d_columns, d_values, index_type<I>, index_type<I>,
                                           base ? CUSPARSE_INDEX_BASE_ONE : CUSPARSE_INDEX_BASE_ZERO, Type<T>::value);
    if (s != CUSPARSE_STATUS_SUCCESS) status("create CSR", s);
  }
  ~DeviceCsr() {
    cusparseDestroySpMat(descr);
    cudaFree(d_offsets);
    cudaFree(d_columns);
    cudaFree(d_values);
  }
};

// ---- SpGEMM ----

// A is 4 x 5 with an empty row; B is 5 x 4. C(0, 1) sums to zero in the real types (and
// stays an entry); C's row 1 is empty.
static const std::vector<Entry> kGemmA = {{0, 0, 1, 1}, {0, 2, 2, 0},  {0, 4, -1, 2}, {2, 1, 3, -1},
                                          {2, 3, 1, 0}, {3, 0, -2, 0}, {3, 1, 1, 1},  {3, 4, 2, -1}};
static const std::vector<Entry> kGemmB = {{0, 1, 2, 0},  {0, 3, 2, 1}, {1, 0, -1, 1}, {1, 2, 1, 0},  {2, 1, 1, 1},
                                          {2, 3, -1, 0}, {3, 0, 1, 0}, {4, 1, 4, 0},  {4, 2, -1, -1}};

// The result matrix C: its arrays, printed once copy has written them.
template <typename T, typename I>
struct ResultCsr {
  I* d_offsets = nullptr;
  I* d_columns = nullptr;
  T* d_values = nullptr;
  int rows;
  int64_t nnz = 0;
  cusparseSpMatDescr_t descr = nullptr;
  explicit ResultCsr(int rows, int cols, int base) : rows(rows) {
    cudaMalloc(&d_offsets, (rows + 1) * sizeof(I));
    cusparseCreateCsr(&descr, rows, cols, 0, nullptr, nullptr, nullptr, index_type<I>, index_type<I>,
                      base ? CUSPARSE_INDEX_BASE_ONE : CUSPARSE_INDEX_BASE_ZERO, Type<T>::value);
  }
  // After compute (or reuse_nnz): C's nnz read back, its arrays made and given to C.
  cusparseStatus_t take_size(const char* what) {
    int64_t r, c;
    cusparseStatus_t s = cusparseSpMatGetSize(descr, &r, &c, &nnz);
    printf("%s: C is %lld x %lld, nnz %lld\n", what, (long long)r, (long long)c, (long long)nnz);
    cudaMalloc(&d_columns, nnz * sizeof(I) + 1);
    cudaMalloc(&d_values, nnz * sizeof(T) + 1);
    if (s == CUSPARSE_STATUS_SUCCESS) s = cusparseCsrSetPointers(descr, d_offsets, d_columns, d_values);
    return s;
  }
  void print(const char* what, bool values = true) {
    char line[200];
    snprintf(line, sizeof line, "%s offsets", what);
    print_indices(line, host_copy(d_offsets, rows + 1));
    snprintf(line, sizeof line, "%s columns", what);
    print_indices(line, host_copy(d_columns, nnz));
    snprintf(line, sizeof line, "%s values", what);
    if (values) print_values(line, host_copy(d_values, nnz));
  }
  ~ResultCsr() {
    cusparseDestroySpMat(descr);
    cudaFree(d_offsets);
    cudaFree(d_columns);
    cudaFree(d_values);
  }
};

// C = alpha A B through the whole protocol; ALG3 also estimates its memory.
template <typename T, typename I>
static void spgemm(cusparseHandle_t handle, int base, bool device_scalars, cusparseSpGEMMAlg_t alg) {
  DeviceCsr<T, I> a(4, 5, kGemmA, base), b(5, 4, kGemmB, base);
  ResultCsr<T, I> c(4, 4, base);
  const T alpha = make<T>(2, -1), beta = make<T>(0, 0);
  T* d_scalars = device_copy(std::vector<T>{alpha, beta});
  const T* pa = device_scalars ? d_scalars : &alpha;
  const T* pb = device_scalars ? d_scalars + 1 : &beta;
  char what[160];
  snprintf(what, sizeof what, "SpGEMM %s index%d base%d %s %s", Type<T>::name, int(8 * sizeof(I)), base,
           device_scalars ? "device scalars" : "host scalars", name(alg));
  const cusparseOperation_t n = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const cudaDataType type = Type<T>::value;
  cusparseSpGEMMDescr_t gemm;
  cusparseSpGEMM_createDescr(&gemm);
  cusparseSetPointerMode(handle, device_scalars ? CUSPARSE_POINTER_MODE_DEVICE : CUSPARSE_POINTER_MODE_HOST);
  size_t size1 = 0, size2 = 0, size3 = 0;
  void *buffer1 = nullptr, *buffer2 = nullptr, *buffer3 = nullptr;
  cusparseStatus_t s =
      cusparseSpGEMM_workEstimation(handle, n, n, pa, a.descr, b.descr, pb, c.descr, type, alg, gemm, &size1, nullptr);
  if (s == CUSPARSE_STATUS_SUCCESS) {
    buffer1 = device_buffer(size1);
    s = cusparseSpGEMM_workEstimation(handle, n, n, pa, a.descr, b.descr, pb, c.descr, type, alg, gemm, &size1,
                                      buffer1);
  }
  if (s == CUSPARSE_STATUS_SUCCESS && alg == CUSPARSE_SPGEMM_ALG3) {
    int64_t products = -1;
    s = cusparseSpGEMM_getNumProducts(gemm, &products);
    printf("%s: %lld products\n", what, (long long)products);
    if (s == CUSPARSE_STATUS_SUCCESS)
      s = cusparseSpGEMM_estimateMemory(handle, n, n, pa, a.descr, b.descr, pb, c.descr, type, alg, gemm, 0.2f, &size3,
                                        nullptr, nullptr);
    if (s == CUSPARSE_STATUS_SUCCESS) {
      buffer3 = device_buffer(size3);
      s = cusparseSpGEMM_estimateMemory(handle, n, n, pa, a.descr, b.descr, pb, c.descr, type, alg, gemm, 0.2f, &size3,
                                        buffer3, &size2);
    }
  } else if (s == CUSPARSE_STATUS_SUCCESS) {
    s = cusparseSpGEMM_compute(handle, n, n, pa, a.descr, b.descr, pb, c.descr, type, alg, gemm, &size2, nullptr);
  }
  if (s == CUSPARSE_STATUS_SUCCESS) {
    buffer2 = device_buffer(size2);
    s = cusparseSpGEMM_compute(handle, n, n, pa, a.descr, b.descr, pb, c.descr, type, alg, gemm, &size2, buffer2);
  }
  fprintf(stderr, "%s: buffers %zu %zu %zu bytes\n", what, size1, size2, size3);
  if (s == CUSPARSE_STATUS_SUCCESS) s = c.take_size(what);
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseSpGEMM_copy(handle, n, n, pa, a.descr, b.descr, pb, c.descr, type, alg, gemm);
  cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_HOST);
  if (s != CUSPARSE_STATUS_SUCCESS)
    status(what, s);
  else
    c.print(what);
  cusparseSpGEMM_destroyDescr(gemm);
  cudaFree(buffer1);
  cudaFree(buffer2);
  cudaFree(buffer3);
  cudaFree(d_scalars);
}

// SpGEMMreuse: C's structure, then C = alpha A B + beta C on it, then again after A's
// values change.
template <typename T>
static void spgemm_reuse(cusparseHandle_t handle) {
  DeviceCsr<T> a(4, 5, kGemmA), b(5, 4, kGemmB);
  ResultCsr<T, int32_t> c(4, 4, 0);
  cusparseCsrSetPointers(c.descr, c.d_offsets, nullptr, nullptr);
  char what[160];
  snprintf(what, sizeof what, "SpGEMMreuse %s", Type<T>::name);
  const cusparseOperation_t n = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const cusparseSpGEMMAlg_t alg = CUSPARSE_SPGEMM_DEFAULT;
  cusparseSpGEMMDescr_t gemm;
  cusparseSpGEMM_createDescr(&gemm);
  size_t size1 = 0, size2 = 0, size3 = 0, size4 = 0, size5 = 0;
  void *buffer1 = nullptr, *buffer2 = nullptr, *buffer3 = nullptr, *buffer4 = nullptr, *buffer5 = nullptr;
  cusparseStatus_t s =
      cusparseSpGEMMreuse_workEstimation(handle, n, n, a.descr, b.descr, c.descr, alg, gemm, &size1, nullptr);
  if (s == CUSPARSE_STATUS_SUCCESS) {
    buffer1 = device_buffer(size1);
    s = cusparseSpGEMMreuse_workEstimation(handle, n, n, a.descr, b.descr, c.descr, alg, gemm, &size1, buffer1);
  }
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseSpGEMMreuse_nnz(handle, n, n, a.descr, b.descr, c.descr, alg, gemm, &size2, nullptr, &size3, nullptr,
                                &size4, nullptr);
  if (s == CUSPARSE_STATUS_SUCCESS) {
    buffer2 = device_buffer(size2);
    buffer3 = device_buffer(size3);
    buffer4 = device_buffer(size4);
    s = cusparseSpGEMMreuse_nnz(handle, n, n, a.descr, b.descr, c.descr, alg, gemm, &size2, buffer2, &size3, buffer3,
                                &size4, buffer4);
  }
  if (s == CUSPARSE_STATUS_SUCCESS) s = c.take_size(what);
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseSpGEMMreuse_copy(handle, n, n, a.descr, b.descr, c.descr, alg, gemm, &size5, nullptr);
  if (s == CUSPARSE_STATUS_SUCCESS) {
    buffer5 = device_buffer(size5);
    s = cusparseSpGEMMreuse_copy(handle, n, n, a.descr, b.descr, c.descr, alg, gemm, &size5, buffer5);
  }
  fprintf(stderr, "%s: buffers %zu %zu %zu %zu %zu bytes\n", what, size1, size2, size3, size4, size5);
  if (s != CUSPARSE_STATUS_SUCCESS) {
    status(what, s);
  } else {
    c.print(what, false);
    // C's values set to k - 2 + i, then C = alpha A B + beta C.
    std::vector<T> old;
    for (int64_t k = 0; k < c.nnz; ++k) old.push_back(make<T>(static_cast<int>(k) - 2, 1));
    cudaMemcpy(c.d_values, old.data(), old.size() * sizeof(T), cudaMemcpyHostToDevice);
    const T alpha = make<T>(1, 1), beta = make<T>(-1, 2), zero = make<T>(0, 0);
    s = cusparseSpGEMMreuse_compute(handle, n, n, &alpha, a.descr, b.descr, &beta, c.descr, Type<T>::value, alg, gemm);
    snprintf(what, sizeof what, "SpGEMMreuse %s beta", Type<T>::name);
    if (s != CUSPARSE_STATUS_SUCCESS)
      status(what, s);
    else
      print_values(what, host_copy(c.d_values, c.nnz));
    // A's values changed (each entry times 1 - k), C = A B.
    std::vector<T> changed = a.values;
    for (size_t k = 0; k < changed.size(); ++k) changed[k] *= make<T>(1 - static_cast<int>(k), 0);
    cudaMemcpy(a.d_values, changed.data(), changed.size() * sizeof(T), cudaMemcpyHostToDevice);
    const T one = make<T>(1, 0);
    s = cusparseSpGEMMreuse_compute(handle, n, n, &one, a.descr, b.descr, &zero, c.descr, Type<T>::value, alg, gemm);
    snprintf(what, sizeof what, "SpGEMMreuse %s new A", Type<T>::name);
    if (s != CUSPARSE_STATUS_SUCCESS)
      status(what, s);
    else
      print_values(what, host_copy(c.d_values, c.nnz));
  }
  cusparseSpGEMM_destroyDescr(gemm);
  for (void* buffer : {buffer1, buffer2, buffer3, buffer4, buffer5}) cudaFree(buffer);
}

// SpGEMM with beta 1 into a C without values: only the statuses and C's nnz are printed.
static void spgemm_beta(cusparseHandle_t handle) {
  DeviceCsr<float> a(4, 5, kGemmA), b(5, 4, kGemmB);
  ResultCsr<float, int32_t> c(4, 4, 0);
  const float one = 1;
  const cusparseOperation_t n = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const cusparseSpGEMMAlg_t alg = CUSPARSE_SPGEMM_DEFAULT;
  cusparseSpGEMMDescr_t gemm;
  cusparseSpGEMM_createDescr(&gemm);
  size_t size1 = 0, size2 = 0;
  void *buffer1 = nullptr, *buffer2 = nullptr;
  cusparseStatus_t s = cusparseSpGEMM_workEstimation(handle, n, n, &one, a.descr, b.descr, &one, c.descr, CUDA_R_32F,
                                                     alg, gemm, &size1, nullptr);
  status("SpGEMM beta 1 workEstimation query", s);
  if (s == CUSPARSE_STATUS_SUCCESS) {
    buffer1 = device_buffer(size1);
    status("SpGEMM beta 1 workEstimation",
           s = cusparseSpGEMM_workEstimation(handle, n, n, &one, a.descr, b.descr, &one, c.descr, CUDA_R_32F, alg, gemm,
                                             &size1, buffer1));
  }
  if (s == CUSPARSE_STATUS_SUCCESS)
    status("SpGEMM beta 1 compute query", s = cusparseSpGEMM_compute(handle, n, n, &one, a.descr, b.descr, &one,
                                                                     c.descr, CUDA_R_32F, alg, gemm, &size2, nullptr));
  if (s == CUSPARSE_STATUS_SUCCESS) {
    buffer2 = device_buffer(size2);
    status("SpGEMM beta 1 compute", s = cusparseSpGEMM_compute(handle, n, n, &one, a.descr, b.descr, &one, c.descr,
                                                               CUDA_R_32F, alg, gemm, &size2, buffer2));
  }
  if (s == CUSPARSE_STATUS_SUCCESS) c.take_size("SpGEMM beta 1");
  cusparseSpGEMM_destroyDescr(gemm);
  cudaFree(buffer1);
  cudaFree(buffer2);
}

static void spgemm_bad_arguments(cusparseHandle_t handle) {
  DeviceCsr<float> a(4, 5, kGemmA), b(5, 4, kGemmB), square(5, 5, kGemmB);
  ResultCsr<float, int32_t> c(4, 4, 0);
  const float one = 1, zero = 0;
  const cusparseOperation_t n = CUSPARSE_OPERATION_NON_TRANSPOSE, t = CUSPARSE_OPERATION_TRANSPOSE;
  const cusparseSpGEMMAlg_t alg = CUSPARSE_SPGEMM_DEFAULT;
  cusparseSpGEMMDescr_t gemm;
  status("SpGEMM_createDescr", cusparseSpGEMM_createDescr(&gemm));
  quietly("SpGEMM_createDescr(NULL)", [&] { return cusparseSpGEMM_createDescr(nullptr); });
  size_t size = 0;
  quietly("SpGEMM_workEstimation opA T", [&] {
    return cusparseSpGEMM_workEstimation(handle, t, n, &one, a.descr, b.descr, &zero, c.descr, CUDA_R_32F, alg, gemm,
                                         &size, nullptr);
  });
  quietly("SpGEMM_workEstimation opB T", [&] {
    return cusparseSpGEMM_workEstimation(handle, n, t, &one, a.descr, b.descr, &zero, c.descr, CUDA_R_32F, alg, gemm,
                                         &size, nullptr);
  });
  quietly("SpGEMM_workEstimation A cols != B rows", [&] {
    return cusparseSpGEMM_workEstimation(handle, n, n, &one, a.descr, a.descr, &zero, c.descr, CUDA_R_32F, alg, gemm,
                                         &size, nullptr);
  });
  quietly("SpGEMM_workEstimation C of another shape", [&] {
    return cusparseSpGEMM_workEstimation(handle, n, n, &one, a.descr, square.descr, &zero, c.descr, CUDA_R_32F, alg,
                                         gemm, &size, nullptr);
  });
  quietly("SpGEMM_workEstimation compute type double", [&] {
    const double d_one = 1, d_zero = 0;
    return cusparseSpGEMM_workEstimation(handle, n, n, &d_one, a.descr, b.descr, &d_zero, c.descr, CUDA_R_64F, alg,
                                         gemm, &size, nullptr);
  });
  quietly("SpGEMM_workEstimation NULL descriptor", [&] {
    return cusparseSpGEMM_workEstimation(handle, n, n, &one, a.descr, b.descr, &zero, c.descr, CUDA_R_32F, alg, nullptr,
                                         &size, nullptr);
  });
  quietly("SpGEMM_workEstimation NULL bufferSize", [&] {
    return cusparseSpGEMM_workEstimation(handle, n, n, &one, a.descr, b.descr, &zero, c.descr, CUDA_R_32F, alg, gemm,
                                         nullptr, nullptr);
  });
  quietly("SpGEMM_workEstimation NULL handle", [&] {
    return cusparseSpGEMM_workEstimation(nullptr, n, n, &one, a.descr, b.descr, &zero, c.descr, CUDA_R_32F, alg, gemm,
                                         &size, nullptr);
  });
  // A CSC operand.
  std::vector<int> offsets{0, 1, 2, 2, 2, 3}, rows{0, 1, 3};
  std::vector<float> values{1, 2, 3};
  int *d_offsets = device_copy(offsets), *d_rows = device_copy(rows);
  float* d_values = device_copy(values);
  cusparseSpMatDescr_t csc;
  cusparseCreateCsc(&csc, 4, 5, 3, d_offsets, d_rows, d_values, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
  quietly("SpGEMM_workEstimation CSC A", [&] {
    return cusparseSpGEMM_workEstimation(handle, n, n, &one, csc, b.descr, &zero, c.descr, CUDA_R_32F, alg, gemm, &size,
                                         nullptr);
  });
  cusparseDestroySpMat(csc);
  cudaFree(d_offsets);
  cudaFree(d_rows);
  cudaFree(d_values);
  status("SpGEMM_destroyDescr", cusparseSpGEMM_destroyDescr(gemm));
}

// ---- SpSM ----

// op(A) C = alpha op(B) for a 5 x 5 matrix holding both triangles (the other one must not
// be read): diagonal +-1 (+-i in the complex types; 7, ignored, for a unit diagonal); B has
// 3 columns (op(B) does).
template <typename T>
static void triangular_solve(cusparseHandle_t handle, bool coo, cusparseFillMode_t fill, cusparseDiagType_t diag,
                             cusparseOperation_t op_a, cusparseOperation_t op_b, cusparseOrder_t order) {
  const int n = 5, nrhs = 3;
  std::vector<int> rows, columns, offsets{0};
  std::vector<T> values;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if ((i + 2 * j) % 3 == 1 && i != j) continue;  // some entries missing
      T v = i == j ? (diag == CUSPARSE_DIAG_TYPE_UNIT ? make<T>(7, 0)
                      : i % 2                         ? make<T>(-1, 0)
                                                      : (i == 2 && is_complex<T> ? make<T>(0, 1) : make<T>(1, 0)))
                   : make<T>((i * 2 + j) % 5 - 2, (i + j) % 3 - 1);
      rows.push_back(i);
      columns.push_back(j);
      values.push_back(v);
    }
    offsets.push_back(static_cast<int>(columns.size()));
  }
  const int nnz = static_cast<int>(values.size());
  // B stored as op(B): n x nrhs, or nrhs x n transposed; ld one more than needed.
  const bool b_plain = op_b == CUSPARSE_OPERATION_NON_TRANSPOSE;
  const int b_rows = b_plain ? n : nrhs, b_cols = b_plain ? nrhs : n;
  const int ldb = (order == CUSPARSE_ORDER_COL ? b_rows : b_cols) + 1;
  const int ldc = (order == CUSPARSE_ORDER_COL ? n : nrhs) + 1;
  std::vector<T> b(static_cast<size_t>(ldb) * (order == CUSPARSE_ORDER_COL ? b_cols : b_rows), make<T>(5, 5));
  for (int i = 0; i < b_rows; ++i)
    for (int j = 0; j < b_cols; ++j)
      b[order == CUSPARSE_ORDER_COL ? i + j * ldb : i * ldb + j] = make<T>((i + 2 * j) % 5 - 2, (i * j) % 3 - 1);
  std::vector<T> c(static_cast<size_t>(ldc) * (order == CUSPARSE_ORDER_COL ? nrhs : n), make<T>(9, -9));
  int *d_off = device_copy(coo ? rows : offsets), *d_col = device_copy(columns);
  T* d_val = device_copy(values);
  T* db = device_copy(b);
  T* dc = device_copy(c);
  cusparseSpMatDescr_t a;
  if (coo)
    cusparseCreateCoo(&a, n, n, nnz, d_off, d_col, d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, Type<T>::value);
  else
    cusparseCreateCsr(&a, n, n, nnz, d_off, d_col, d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                      CUSPARSE_INDEX_BASE_ZERO, Type<T>::value);
  cusparseSpMatSetAttribute(a, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill);
  cusparseSpMatSetAttribute(a, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof diag);
  cusparseDnMatDescr_t mb, mc;
  cusparseCreateDnMat(&mb, b_rows, b_cols, ldb, db, Type<T>::value, order);
  cusparseCreateDnMat(&mc, n, nrhs, ldc, dc, Type<T>::value, order);
  cusparseSpSMDescr_t spsm;
  cusparseSpSM_createDescr(&spsm);
  const T alpha = make<T>(2, 1);
  size_t size = 0;
  cusparseStatus_t s = cusparseSpSM_bufferSize(handle, op_a, op_b, &alpha, a, mb, mc, Type<T>::value,
                                               CUSPARSE_SPSM_ALG_DEFAULT, spsm, &size);
  void* buffer = device_buffer(size);
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseSpSM_analysis(handle, op_a, op_b, &alpha, a, mb, mc, Type<T>::value, CUSPARSE_SPSM_ALG_DEFAULT, spsm,
                              buffer);
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseSpSM_solve(handle, op_a, op_b, &alpha, a, mb, mc, Type<T>::value, CUSPARSE_SPSM_ALG_DEFAULT, spsm);
  char what[160];
  snprintf(what, sizeof what, "SpSM %s %s %s %s opA %s opB %s %s", Type<T>::name, coo ? "COO" : "CSR",
           fill == CUSPARSE_FILL_MODE_LOWER ? "lower" : "upper", diag == CUSPARSE_DIAG_TYPE_UNIT ? "unit" : "non-unit",
           name(op_a), name(op_b), name(order));
  fprintf(stderr, "%s: buffer %zu bytes\n", what, size);
  if (s != CUSPARSE_STATUS_SUCCESS)
    status(what, s);
  else
    print_values(what, host_copy(dc, c.size()));  // the padding too: it must be untouched
  cusparseSpSM_destroyDescr(spsm);
  cusparseDestroySpMat(a);
  cusparseDestroyDnMat(mb);
  cusparseDestroyDnMat(mc);
  cudaFree(buffer);
  cudaFree(d_off);
  cudaFree(d_col);
  cudaFree(d_val);
  cudaFree(db);
  cudaFree(dc);
}

template <typename T>
static void triangular_solves(cusparseHandle_t handle) {
  const cusparseOperation_t n = CUSPARSE_OPERATION_NON_TRANSPOSE, t = CUSPARSE_OPERATION_TRANSPOSE,
                            h = CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
  for (cusparseFillMode_t fill : {CUSPARSE_FILL_MODE_LOWER, CUSPARSE_FILL_MODE_UPPER})
    for (cusparseDiagType_t diag : {CUSPARSE_DIAG_TYPE_NON_UNIT, CUSPARSE_DIAG_TYPE_UNIT})
      for (cusparseOperation_t op_a : {n, t, h}) {
        if (!is_complex<T> && op_a == h) continue;
        triangular_solve<T>(handle, false, fill, diag, op_a, n, CUSPARSE_ORDER_COL);
      }
  triangular_solve<T>(handle, false, CUSPARSE_FILL_MODE_LOWER, CUSPARSE_DIAG_TYPE_NON_UNIT, n, t, CUSPARSE_ORDER_COL);
  triangular_solve<T>(handle, false, CUSPARSE_FILL_MODE_UPPER, CUSPARSE_DIAG_TYPE_NON_UNIT, t, t, CUSPARSE_ORDER_COL);
  triangular_solve<T>(handle, false, CUSPARSE_FILL_MODE_LOWER, CUSPARSE_DIAG_TYPE_NON_UNIT, n, n, CUSPARSE_ORDER_ROW);
  triangular_solve<T>(handle, true, CUSPARSE_FILL_MODE_LOWER, CUSPARSE_DIAG_TYPE_NON_UNIT, n, n, CUSPARSE_ORDER_COL);
  triangular_solve<T>(handle, true, CUSPARSE_FILL_MODE_UPPER, CUSPARSE_DIAG_TYPE_UNIT, t, n, CUSPARSE_ORDER_COL);
}

static void spsm_bad_arguments(cusparseHandle_t handle) {
  DeviceCsr<float> a(4, 5, kGemmA);  // not square
  std::vector<float> zeros(40, 0);
  float* d = device_copy(zeros);
  cusparseDnMatDescr_t b4, b5;
  cusparseCreateDnMat(&b4, 4, 2, 4, d, CUDA_R_32F, CUSPARSE_ORDER_COL);
  cusparseCreateDnMat(&b5, 5, 2, 5, d, CUDA_R_32F, CUSPARSE_ORDER_COL);
  cusparseSpSMDescr_t spsm;
  status("SpSM_createDescr", cusparseSpSM_createDescr(&spsm));
  quietly("SpSM_createDescr(NULL)", [&] { return cusparseSpSM_createDescr(nullptr); });
  const float one = 1;
  size_t size = 0;
  const cusparseOperation_t n = CUSPARSE_OPERATION_NON_TRANSPOSE;
  quietly("SpSM_bufferSize A not square", [&] {
    return cusparseSpSM_bufferSize(handle, n, n, &one, a.descr, b4, b4, CUDA_R_32F, CUSPARSE_SPSM_ALG_DEFAULT, spsm,
                                   &size);
  });
  DeviceCsr<float> square(5, 5, kGemmB);
  quietly("SpSM_bufferSize B of another height", [&] {
    return cusparseSpSM_bufferSize(handle, n, n, &one, square.descr, b4, b5, CUDA_R_32F, CUSPARSE_SPSM_ALG_DEFAULT,
                                   spsm, &size);
  });
  quietly("SpSM_bufferSize NULL alpha", [&] {
    return cusparseSpSM_bufferSize(handle, n, n, nullptr, square.descr, b5, b5, CUDA_R_32F, CUSPARSE_SPSM_ALG_DEFAULT,
                                   spsm, &size);
  });
  quietly("SpSM_bufferSize NULL bufferSize", [&] {
    return cusparseSpSM_bufferSize(handle, n, n, &one, square.descr, b5, b5, CUDA_R_32F, CUSPARSE_SPSM_ALG_DEFAULT,
                                   spsm, nullptr);
  });
  quietly("SpSM_bufferSize compute type double", [&] {
    const double d_one = 1;
    return cusparseSpSM_bufferSize(handle, n, n, &d_one, square.descr, b5, b5, CUDA_R_64F, CUSPARSE_SPSM_ALG_DEFAULT,
                                   spsm, &size);
  });
  quietly("SpSM_bufferSize NULL descriptor", [&] {
    return cusparseSpSM_bufferSize(handle, n, n, &one, square.descr, b5, b5, CUDA_R_32F, CUSPARSE_SPSM_ALG_DEFAULT,
                                   nullptr, &size);
  });
  // The analysis in the compute type the buffer-size query took, with the buffer it asked for.
  quietly("SpSM_analysis compute type double", [&] {
    const double d_one = 1;
    size = 0;
    cusparseSpSM_bufferSize(handle, n, n, &d_one, square.descr, b5, b5, CUDA_R_64F, CUSPARSE_SPSM_ALG_DEFAULT, spsm,
                            &size);
    void* buffer = device_buffer(size);
    cusparseStatus_t s = cusparseSpSM_analysis(handle, n, n, &d_one, square.descr, b5, b5, CUDA_R_64F,
                                               CUSPARSE_SPSM_ALG_DEFAULT, spsm, buffer);
    cudaFree(buffer);
    return s;
  });
  status("SpSM_destroyDescr", cusparseSpSM_destroyDescr(spsm));
  cusparseDestroyDnMat(b4);
  cusparseDestroyDnMat(b5);
  cudaFree(d);
}

// ---- conversions ----

// The 5 x 4 matrix of cusparse_generic; row 3 is empty.
static const std::vector<Entry> kConvert = {{0, 0, 1, 2}, {0, 2, -2, 1}, {1, 1, 3, 0}, {1, 3, 4, -1}, {2, 0, -1, -1},
                                            {2, 1, 2, 3}, {2, 3, 1, 0},  {4, 2, 5, 2}, {4, 3, -3, 1}};

template <typename T>
static void csr_to_csc(cusparseHandle_t handle, int base, cusparseAction_t action) {
  DeviceCsr<T> a(5, 4, kConvert, base);
  const int nnz = static_cast<int>(kConvert.size());
  int *col_ptr = nullptr, *row_ind = nullptr;
  cudaMalloc(&col_ptr, 5 * sizeof(int));
  cudaMalloc(&row_ind, nnz * sizeof(int));
  T* values = device_copy(std::vector<T>(nnz, make<T>(-7, 7)));
  size_t size = 0;
  cusparseStatus_t s = cusparseCsr2cscEx2_bufferSize(
      handle, 5, 4, nnz, a.d_values, a.d_offsets, a.d_columns, values, col_ptr, row_ind, Type<T>::value, action,
      base ? CUSPARSE_INDEX_BASE_ONE : CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, &size);
  void* buffer = device_buffer(size);
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseCsr2cscEx2(handle, 5, 4, nnz, a.d_values, a.d_offsets, a.d_columns, values, col_ptr, row_ind,
                           Type<T>::value, action, base ? CUSPARSE_INDEX_BASE_ONE : CUSPARSE_INDEX_BASE_ZERO,
                           CUSPARSE_CSR2CSC_ALG1, buffer);
  char what[160];
  snprintf(what, sizeof what, "Csr2cscEx2 %s base%d %s", Type<T>::name, base,
           action == CUSPARSE_ACTION_NUMERIC ? "numeric" : "symbolic");
  fprintf(stderr, "%s: buffer %zu bytes\n", what, size);
  if (s != CUSPARSE_STATUS_SUCCESS) {
    status(what, s);
  } else {
    char line[200];
    snprintf(line, sizeof line, "%s column offsets", what);
    print_indices(line, host_copy(col_ptr, 5));
    snprintf(line, sizeof line, "%s rows", what);
    print_indices(line, host_copy(row_ind, nnz));
    snprintf(line, sizeof line, "%s values", what);
    print_values(line, host_copy(values, nnz));
  }
  cudaFree(buffer);
  cudaFree(col_ptr);
  cudaFree(row_ind);
  cudaFree(values);
}

// The 6 x 6 Blocked-ELL matrix: blocks of 2, two per block row, block row 1's second one
// empty (its values, 9, must not be read).
static const std::vector<int> kEllColumns = {0, 2, 1, -1, 1, 2};

template <typename T, typename I = int32_t>
struct DeviceBlockedEll {
  T* d_values = nullptr;
  I* d_columns = nullptr;
  cusparseSpMatDescr_t descr = nullptr;
  explicit DeviceBlockedEll(int base) {
    std::vector<I> columns;
    for (int c : kEllColumns) columns.push_back(static_cast<I>(c < 0 ? -1 : c + base));
    std::vector<T> values;
    for (int r = 0; r < 6; ++r)
      for (int e = 0; e < 4; ++e)
        values.push_back(r / 2 == 1 && e >= 2 ? make<T>(9, 9) : make<T>((r * 3 + e) % 7 - 3, (r + e) % 3 - 1));
    d_values = device_copy(values);
    d_columns = device_copy(columns);
    cusparseStatus_t s =
        cusparseCreateBlockedEll(&descr, 6, 6, 2, 4, d_columns, d_values, index_type<I>,
                                 base ? CUSPARSE_INDEX_BASE_ONE : CUSPARSE_INDEX_BASE_ZERO, Type<T>::value);
    if (s != CUSPARSE_STATUS_SUCCESS) status("create Blocked-ELL", s);
  }
  ~DeviceBlockedEll() {
    cusparseDestroySpMat(descr);
    cudaFree(d_values);
    cudaFree(d_columns);
  }
};

// A sparse matrix into a dense one with ld one more than needed, filled with 77 first.
template <typename T>
static void sparse_to_dense(cusparseHandle_t handle, const char* format, cusparseSpMatDescr_t a, int rows, int cols,
                            cusparseOrder_t order) {
  const int ld = (order == CUSPARSE_ORDER_COL ? rows : cols) + 1;
  std::vector<T> dense(static_cast<size_t>(ld) * (order == CUSPARSE_ORDER_COL ? cols : rows), make<T>(77, 0));
  T* d = device_copy(dense);
  cusparseDnMatDescr_t b;
  cusparseCreateDnMat(&b, rows, cols, ld, d, Type<T>::value, order);
  size_t size = 0;
  cusparseStatus_t s = cusparseSparseToDense_bufferSize(handle, a, b, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, &size);
  void* buffer = device_buffer(size);
  if (s == CUSPARSE_STATUS_SUCCESS) s = cusparseSparseToDense(handle, a, b, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, buffer);
  char what[160];
  snprintf(what, sizeof what, "SparseToDense %s %s %s", Type<T>::name, format, name(order));
  fprintf(stderr, "%s: buffer %zu bytes\n", what, size);
  if (s != CUSPARSE_STATUS_SUCCESS)
    status(what, s);
  else
    print_values(what, host_copy(d, dense.size()));
  cusparseDestroyDnMat(b);
  cudaFree(buffer);
  cudaFree(d);
}

template <typename T>
static void sparse_to_dense_all(cusparseHandle_t handle) {
  DeviceCsr<T> csr(5, 4, kConvert, 1);
  sparse_to_dense<T>(handle, "CSR base1", csr.descr, 5, 4, CUSPARSE_ORDER_COL);
  sparse_to_dense<T>(handle, "CSR base1", csr.descr, 5, 4, CUSPARSE_ORDER_ROW);
  // The same matrix as CSC and COO (0-based), made from the CSR's arrays.
  std::vector<int> col_offsets{0}, rows, coo_rows, coo_cols;
  std::vector<T> csc_values, coo_values;
  for (int c = 0; c < 4; ++c) {
    for (const Entry& e : kConvert)
      if (e.col == c) {
        rows.push_back(e.row);
        csc_values.push_back(make<T>(e.re, e.im));
      }
    col_offsets.push_back(static_cast<int>(rows.size()));
  }
  for (const Entry& e : kConvert) {
    coo_rows.push_back(e.row);
    coo_cols.push_back(e.col);
    coo_values.push_back(make<T>(e.re, e.im));
  }
  int *d_co = device_copy(col_offsets), *d_rows = device_copy(rows), *d_cr = device_copy(coo_rows),
      *d_cc = device_copy(coo_cols);
  T *d_csc = device_copy(csc_values), *d_coo = device_copy(coo_values);
  cusparseSpMatDescr_t csc, coo;
  cusparseCreateCsc(&csc, 5, 4, 9, d_co, d_rows, d_csc, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_BASE_ZERO, Type<T>::value);
  cusparseCreateCoo(&coo, 5, 4, 9, d_cr, d_cc, d_coo, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, Type<T>::value);
  sparse_to_dense<T>(handle, "CSC", csc, 5, 4, CUSPARSE_ORDER_COL);
  sparse_to_dense<T>(handle, "COO", coo, 5, 4, CUSPARSE_ORDER_ROW);
  DeviceBlockedEll<T> ell(0);
  sparse_to_dense<T>(handle, "Blocked-ELL", ell.descr, 6, 6, CUSPARSE_ORDER_ROW);
  DeviceBlockedEll<T> ell1(1);
  sparse_to_dense<T>(handle, "Blocked-ELL base1", ell1.descr, 6, 6, CUSPARSE_ORDER_COL);
  cusparseDestroySpMat(csc);
  cusparseDestroySpMat(coo);
  for (int* p : {d_co, d_rows, d_cr, d_cc}) cudaFree(p);
  cudaFree(d_csc);
  cudaFree(d_coo);
}

// A 4 x 5 dense matrix (column-major, ld 6) with zeros, into CSR, CSC or COO: the analysis
// gives the sparse matrix its nnz, then its arrays are made and the conversion fills them.
template <typename T>
static void dense_to_sparse(cusparseHandle_t handle, cusparseFormat_t format, int base) {
  const int rows = 4, cols = 5, ld = 6;
  std::vector<T> dense(ld * cols, make<T>(55, 55));
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      dense[i + j * ld] = (i * 3 + j * 2) % 4 == 0 ? make<T>(0, 0) : make<T>((i + j) % 5 - 2, (i * j) % 3 - 1);
  if (is_complex<T>) dense[1 + 2 * ld] = make<T>(0, 3);  // zero real part, an entry
  T* d = device_copy(dense);
  cusparseDnMatDescr_t a;
  cusparseCreateDnMat(&a, rows, cols, ld, d, Type<T>::value, CUSPARSE_ORDER_COL);
  const int outer = format == CUSPARSE_FORMAT_CSC ? cols : rows;
  int* d_offsets = nullptr;
  cudaMalloc(&d_offsets, (outer + 1) * sizeof(int));
  const cusparseIndexBase_t ib = base ? CUSPARSE_INDEX_BASE_ONE : CUSPARSE_INDEX_BASE_ZERO;
  cusparseSpMatDescr_t b;
  const char* fname = format == CUSPARSE_FORMAT_CSR ? "CSR" : format == CUSPARSE_FORMAT_CSC ? "CSC" : "COO";
  if (format == CUSPARSE_FORMAT_CSR)
    cusparseCreateCsr(&b, rows, cols, 0, d_offsets, nullptr, nullptr, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, ib,
                      Type<T>::value);
  else if (format == CUSPARSE_FORMAT_CSC)
    cusparseCreateCsc(&b, rows, cols, 0, d_offsets, nullptr, nullptr, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, ib,
                      Type<T>::value);
  else
    cusparseCreateCoo(&b, rows, cols, 0, nullptr, nullptr, nullptr, CUSPARSE_INDEX_32I, ib, Type<T>::value);
  char what[160];
  snprintf(what, sizeof what, "DenseToSparse %s %s base%d", Type<T>::name, fname, base);
  size_t size = 0;
  cusparseStatus_t s = cusparseDenseToSparse_bufferSize(handle, a, b, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, &size);
  void* buffer = device_buffer(size);
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseDenseToSparse_analysis(handle, a, b, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, buffer);
  fprintf(stderr, "%s: buffer %zu bytes\n", what, size);
  int64_t r = 0, c = 0, nnz = 0;
  if (s == CUSPARSE_STATUS_SUCCESS) s = cusparseSpMatGetSize(b, &r, &c, &nnz);
  int *d_first = nullptr, *d_second = nullptr;
  T* d_values = nullptr;
  if (s == CUSPARSE_STATUS_SUCCESS) {
    printf("%s: nnz %lld after the analysis\n", what, (long long)nnz);
    cudaMalloc(&d_second, nnz * sizeof(int) + 1);
    cudaMalloc(&d_values, nnz * sizeof(T) + 1);
    if (format == CUSPARSE_FORMAT_COO) {
      cudaMalloc(&d_first, nnz * sizeof(int) + 1);
      s = cusparseCooSetPointers(b, d_first, d_second, d_values);
    } else if (format == CUSPARSE_FORMAT_CSR) {
      s = cusparseCsrSetPointers(b, d_offsets, d_second, d_values);
    } else {
      s = cusparseCscSetPointers(b, d_offsets, d_second, d_values);
    }
  }
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseDenseToSparse_convert(handle, a, b, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, buffer);
  if (s != CUSPARSE_STATUS_SUCCESS) {
    status(what, s);
  } else {
    char line[200];
    snprintf(line, sizeof line, "%s %s", what, format == CUSPARSE_FORMAT_COO ? "rows" : "offsets");
    if (format == CUSPARSE_FORMAT_COO)
      print_indices(line, host_copy(d_first, nnz));
    else
      print_indices(line, host_copy(d_offsets, outer + 1));
    snprintf(line, sizeof line, "%s %s", what, format == CUSPARSE_FORMAT_CSC ? "rows" : "columns");
    print_indices(line, host_copy(d_second, nnz));
    snprintf(line, sizeof line, "%s values", what);
    print_values(line, host_copy(d_values, nnz));
  }
  cusparseDestroySpMat(b);
  cusparseDestroyDnMat(a);
  cudaFree(buffer);
  cudaFree(d);
  cudaFree(d_offsets);
  cudaFree(d_first);
  cudaFree(d_second);
  cudaFree(d_values);
}

// A 6 x 6 dense matrix into the Blocked-ELL matrix's blocks (its columns given).
template <typename T>
static void dense_to_blocked_ell(cusparseHandle_t handle) {
  std::vector<T> dense;
  for (int j = 0; j < 6; ++j)
    for (int i = 0; i < 6; ++i) dense.push_back(make<T>(i * 6 + j, -j));
  T* d = device_copy(dense);
  cusparseDnMatDescr_t a;
  cusparseCreateDnMat(&a, 6, 6, 6, d, Type<T>::value, CUSPARSE_ORDER_COL);
  DeviceBlockedEll<T> ell(0);
  char what[160];
  snprintf(what, sizeof what, "DenseToSparse %s Blocked-ELL", Type<T>::name);
  size_t size = 0;
  cusparseStatus_t s =
      cusparseDenseToSparse_bufferSize(handle, a, ell.descr, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, &size);
  void* buffer = device_buffer(size);
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseDenseToSparse_analysis(handle, a, ell.descr, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, buffer);
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseDenseToSparse_convert(handle, a, ell.descr, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, buffer);
  fprintf(stderr, "%s: buffer %zu bytes\n", what, size);
  if (s != CUSPARSE_STATUS_SUCCESS) {
    status(what, s);
  } else {
    print_values(what, host_copy(ell.d_values, 24));  // the empty block's too
  }
  cusparseDestroyDnMat(a);
  cudaFree(buffer);
  cudaFree(d);
}

static void index_conversions(cusparseHandle_t handle) {
  for (int base : {0, 1}) {
    const cusparseIndexBase_t ib = base ? CUSPARSE_INDEX_BASE_ONE : CUSPARSE_INDEX_BASE_ZERO;
    std::vector<int> coo_rows{0, 0, 2, 2, 2, 3, 5, 5};  // rows 1 and 4 empty, 6 rows
    for (int& r : coo_rows) r += base;
    int* d_rows = device_copy(coo_rows);
    int* d_offsets = device_copy(std::vector<int>(7, -5));
    char what[80];
    snprintf(what, sizeof what, "Xcoo2csr base%d", base);
    cusparseStatus_t s = cusparseXcoo2csr(handle, d_rows, 8, 6, d_offsets, ib);
    if (s != CUSPARSE_STATUS_SUCCESS)
      status(what, s);
    else
      print_indices(what, host_copy(d_offsets, 7));
    int* d_back = device_copy(std::vector<int>(8, -5));
    snprintf(what, sizeof what, "Xcsr2coo base%d", base);
    s = cusparseXcsr2coo(handle, d_offsets, 8, 6, d_back, ib);
    if (s != CUSPARSE_STATUS_SUCCESS)
      status(what, s);
    else
      print_indices(what, host_copy(d_back, 8));
    cudaFree(d_rows);
    cudaFree(d_offsets);
    cudaFree(d_back);
  }
  int* d = device_copy(std::vector<int>(8, 0));
  quietly("Xcoo2csr m -1", [&] { return cusparseXcoo2csr(handle, d, 2, -1, d, CUSPARSE_INDEX_BASE_ZERO); });
  quietly("Xcoo2csr nnz -1", [&] { return cusparseXcoo2csr(handle, d, -1, 2, d, CUSPARSE_INDEX_BASE_ZERO); });
  quietly("Xcsr2coo base 2", [&] { return cusparseXcsr2coo(handle, d, 2, 2, d, static_cast<cusparseIndexBase_t>(2)); });
  quietly("Csr2cscEx2_bufferSize m -1", [&] {
    size_t size;
    return cusparseCsr2cscEx2_bufferSize(handle, -1, 2, 2, d, d, d, d, d, d, CUDA_R_32F, CUSPARSE_ACTION_NUMERIC,
                                         CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, &size);
  });
  quietly("Csr2cscEx2_bufferSize action 5", [&] {
    size_t size;
    return cusparseCsr2cscEx2_bufferSize(handle, 2, 2, 2, d, d, d, d, d, d, CUDA_R_32F,
                                         static_cast<cusparseAction_t>(5), CUSPARSE_INDEX_BASE_ZERO,
                                         CUSPARSE_CSR2CSC_ALG1, &size);
  });
  quietly("Csr2cscEx2_bufferSize NULL bufferSize", [&] {
    return cusparseCsr2cscEx2_bufferSize(handle, 2, 2, 2, d, d, d, d, d, d, CUDA_R_32F, CUSPARSE_ACTION_NUMERIC,
                                         CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, nullptr);
  });
  cudaFree(d);
}

static void conversion_bad_arguments(cusparseHandle_t handle) {
  DeviceCsr<float> csr(5, 4, kConvert);
  float* d = device_copy(std::vector<float>(40, 0));
  cusparseDnMatDescr_t wrong, doubles;
  cusparseCreateDnMat(&wrong, 4, 5, 4, d, CUDA_R_32F, CUSPARSE_ORDER_COL);
  cusparseCreateDnMat(&doubles, 5, 4, 5, d, CUDA_R_64F, CUSPARSE_ORDER_COL);
  size_t size = 0;
  quietly("SparseToDense_bufferSize other shape", [&] {
    return cusparseSparseToDense_bufferSize(handle, csr.descr, wrong, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, &size);
  });
  quietly("SparseToDense other value type",
          [&] { return cusparseSparseToDense(handle, csr.descr, doubles, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, d); });
  quietly("SparseToDense_bufferSize NULL bufferSize", [&] {
    return cusparseSparseToDense_bufferSize(handle, csr.descr, doubles, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, nullptr);
  });
  quietly("DenseToSparse_analysis other shape", [&] {
    return cusparseDenseToSparse_analysis(handle, wrong, csr.descr, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, d);
  });
  quietly("DenseToSparse_bufferSize NULL matrix", [&] {
    return cusparseDenseToSparse_bufferSize(handle, wrong, nullptr, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, &size);
  });
  cusparseDestroyDnMat(wrong);
  cusparseDestroyDnMat(doubles);
  cudaFree(d);
}

// ---- Blocked-ELL ----

static void blocked_ell_descriptors() {
  float* values = device_copy(std::vector<float>(24, 1));
  int* columns = device_copy(kEllColumns);
  cusparseSpMatDescr_t a;
  status("CreateBlockedEll", cusparseCreateBlockedEll(&a, 6, 6, 2, 4, columns, values, CUSPARSE_INDEX_32I,
                                                      CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  int64_t rows, cols, block, ell_cols, nnz;
  void *c, *v;
  cusparseIndexType_t it;
  cusparseIndexBase_t base;
  cudaDataType type;
  status("BlockedEllGet", cusparseBlockedEllGet(a, &rows, &cols, &block, &ell_cols, &c, &v, &it, &base, &type));
  printf("BlockedEllGet: %lld x %lld, block %lld, ell cols %lld, pointers %s, index type %d, base %d, type %d\n",
         (long long)rows, (long long)cols, (long long)block, (long long)ell_cols,
         c == columns && v == values ? "same" : "other", it, base, type);
  cusparseFormat_t format;
  status("SpMatGetFormat", cusparseSpMatGetFormat(a, &format));
  status("SpMatGetSize", cusparseSpMatGetSize(a, &rows, &cols, &nnz));
  printf("format %d, size %lld x %lld, nnz %lld\n", format, (long long)rows, (long long)cols, (long long)nnz);
  int64_t r2, c2, nnz2;
  status("CsrGet on Blocked-ELL", [&] {
    void *o, *i, *vv;
    cusparseIndexType_t ot, itt;
    return cusparseCsrGet(a, &r2, &c2, &nnz2, &o, &i, &vv, &ot, &itt, &base, &type);
  }());
  cusparseDestroySpMat(a);
  cusparseConstSpMatDescr_t k;
  status("CreateConstBlockedEll", cusparseCreateConstBlockedEll(&k, 6, 6, 2, 4, columns, values, CUSPARSE_INDEX_32I,
                                                                CUSPARSE_INDEX_BASE_ONE, CUDA_R_32F));
  const void *kc, *kv;
  status("ConstBlockedEllGet",
         cusparseConstBlockedEllGet(k, &rows, &cols, &block, &ell_cols, &kc, &kv, &it, &base, &type));
  printf("ConstBlockedEllGet: %lld x %lld, block %lld, ell cols %lld, pointers %s, base %d\n", (long long)rows,
         (long long)cols, (long long)block, (long long)ell_cols, kc == columns && kv == values ? "same" : "other",
         base);
  cusparseDestroySpMat(k);
  // The nnz a Blocked-ELL matrix reports, for other shapes (rows, cols, block, ell cols).
  const int64_t shapes[][4] = {{8, 6, 2, 4}, {6, 10, 2, 4}, {6, 6, 3, 6}, {4, 8, 4, 4}, {6, 6, 2, 2}};
  for (const auto& shape : shapes) {
    nnz = -1;
    cusparseStatus_t s = cusparseCreateBlockedEll(&a, shape[0], shape[1], shape[2], shape[3], columns, values,
                                                  CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
    if (s == CUSPARSE_STATUS_SUCCESS) s = cusparseSpMatGetSize(a, &rows, &cols, &nnz);
    printf("Blocked-ELL %lld x %lld, block %lld, ell cols %lld: %s, nnz %lld\n", (long long)shape[0],
           (long long)shape[1], (long long)shape[2], (long long)shape[3], cusparseGetErrorName(s), (long long)nnz);
    if (s == CUSPARSE_STATUS_SUCCESS) cusparseDestroySpMat(a);
  }
  quietly("CreateBlockedEll block 0", [&] {
    return cusparseCreateBlockedEll(&a, 6, 6, 0, 4, columns, values, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                    CUDA_R_32F);
  });
  quietly("CreateBlockedEll ell cols 8 > cols", [&] {
    return cusparseCreateBlockedEll(&a, 6, 6, 2, 8, columns, values, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                    CUDA_R_32F);
  });
  quietly("CreateBlockedEll rows -1", [&] {
    return cusparseCreateBlockedEll(&a, -1, 6, 2, 4, columns, values, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                    CUDA_R_32F);
  });
  quietly("CreateBlockedEll NULL descriptor", [&] {
    return cusparseCreateBlockedEll(nullptr, 6, 6, 2, 4, columns, values, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                    CUDA_R_32F);
  });
  cudaFree(values);
  cudaFree(columns);
}

// C = alpha op(A) B + beta C for the Blocked-ELL matrix, B 6 x 3.
template <typename T>
static void blocked_ell_spmm(cusparseHandle_t handle, cusparseOperation_t op_a, cusparseOrder_t order, bool beta_zero) {
  DeviceBlockedEll<T> a(0);
  const int n = 3, ldb = (order == CUSPARSE_ORDER_COL ? 6 : n), ldc = ldb;
  std::vector<T> b(18), c(18);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < n; ++j) {
      b[order == CUSPARSE_ORDER_COL ? i + j * ldb : i * ldb + j] = make<T>((i + 2 * j) % 5 - 2, (i * j) % 3 - 1);
      c[order == CUSPARSE_ORDER_COL ? i + j * ldc : i * ldc + j] = make<T>(i - j, 1);
    }
  T* db = device_copy(b);
  T* dc = device_copy(c);
  cusparseDnMatDescr_t mb, mc;
  cusparseCreateDnMat(&mb, 6, n, ldb, db, Type<T>::value, order);
  cusparseCreateDnMat(&mc, 6, n, ldc, dc, Type<T>::value, order);
  const T alpha = make<T>(1, 1), beta = beta_zero ? make<T>(0, 0) : make<T>(2, 0);
  const cusparseOperation_t op_b = CUSPARSE_OPERATION_NON_TRANSPOSE;
  size_t size = 0;
  cusparseStatus_t s = cusparseSpMM_bufferSize(handle, op_a, op_b, &alpha, a.descr, mb, &beta, mc, Type<T>::value,
                                               CUSPARSE_SPMM_BLOCKED_ELL_ALG1, &size);
  void* buffer = device_buffer(size);
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseSpMM(handle, op_a, op_b, &alpha, a.descr, mb, &beta, mc, Type<T>::value, CUSPARSE_SPMM_BLOCKED_ELL_ALG1,
                     buffer);
  char what[160];
  snprintf(what, sizeof what, "SpMM Blocked-ELL %s opA %s %s%s", Type<T>::name, name(op_a), name(order),
           beta_zero ? " beta 0" : "");
  fprintf(stderr, "%s: buffer %zu bytes\n", what, size);
  if (s != CUSPARSE_STATUS_SUCCESS)
    status(what, s);
  else
    print_values(what, host_copy(dc, c.size()));
  cusparseDestroyDnMat(mb);
  cusparseDestroyDnMat(mc);
  cudaFree(buffer);
  cudaFree(db);
  cudaFree(dc);
}

template <typename T>
static void all(cusparseHandle_t handle) {
  spgemm<T, int32_t>(handle, 0, false, CUSPARSE_SPGEMM_DEFAULT);
  spgemm<T, int32_t>(handle, 1, false, CUSPARSE_SPGEMM_ALG1);
  spgemm<T, int64_t>(handle, 0, true, CUSPARSE_SPGEMM_DEFAULT);
  spgemm<T, int32_t>(handle, 0, false, CUSPARSE_SPGEMM_ALG3);
  spgemm_reuse<T>(handle);
  triangular_solves<T>(handle);
  for (int base : {0, 1}) csr_to_csc<T>(handle, base, CUSPARSE_ACTION_NUMERIC);
  csr_to_csc<T>(handle, 0, CUSPARSE_ACTION_SYMBOLIC);
  sparse_to_dense_all<T>(handle);
  dense_to_sparse<T>(handle, CUSPARSE_FORMAT_CSR, 0);
  dense_to_sparse<T>(handle, CUSPARSE_FORMAT_CSR, 1);
  dense_to_sparse<T>(handle, CUSPARSE_FORMAT_CSC, 0);
  dense_to_sparse<T>(handle, CUSPARSE_FORMAT_COO, 0);
  dense_to_blocked_ell<T>(handle);
  for (cusparseOrder_t order : {CUSPARSE_ORDER_COL, CUSPARSE_ORDER_ROW})
    blocked_ell_spmm<T>(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, order, false);
  blocked_ell_spmm<T>(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_ORDER_ROW, true);
  blocked_ell_spmm<T>(handle, CUSPARSE_OPERATION_TRANSPOSE, CUSPARSE_ORDER_COL, false);
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  cusparseHandle_t handle;
  status("Create", cusparseCreate(&handle));
  all<float>(handle);
  all<double>(handle);
  all<std::complex<float>>(handle);
  all<std::complex<double>>(handle);
  spgemm_beta(handle);
  spgemm_bad_arguments(handle);
  spsm_bad_arguments(handle);
  index_conversions(handle);
  conversion_bad_arguments(handle);
  blocked_ell_descriptors();
  status("Destroy", cusparseDestroy(handle));
  printf("last error: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
