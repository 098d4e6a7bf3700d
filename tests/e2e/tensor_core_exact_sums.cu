// Tensor-core products at the edge of exactness: the H100 truncates each term of a block
// below 2^(largest exponent - 25), so a product or accumulator whose lowest bit lies one
// place below that edge loses it, and one whose lowest bit lies on it keeps it. cucpu adds
// such a product without truncating anything when it can show no term has bits below the
// edge (integer-valued GEMMs, the common case); these cases sit on both sides of the edge,
// with every other element zero or small integers. wmma m16n16k16 with f16 and bf16 inputs
// and an f32 accumulator; each case prints D's elements (hex) of its first two rows and
// a checksum of the whole result.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

static void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    printf("%s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

constexpr int kN = 16;

template <typename T>
__global__ void product(const T* A, const T* B, const float* C, float* D) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::load_matrix_sync(a, A, kN);
  wmma::load_matrix_sync(b, B, kN);
  wmma::load_matrix_sync(acc, C, kN, wmma::mem_row_major);
  wmma::mma_sync(acc, a, b, acc);
  wmma::store_matrix_sync(D, acc, kN, wmma::mem_row_major);
}

struct Case {
  const char* name;
  float a[kN * kN], b[kN * kN], c[kN * kN];
};

static uint32_t bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

template <typename T>
static void run(const char* type, const Case& k) {
  T ha[kN * kN], hb[kN * kN];
  for (int i = 0; i < kN * kN; ++i) {
    ha[i] = T(k.a[i]);
    hb[i] = T(k.b[i]);
  }
  T *da, *db;
  float *dc, *dd;
  check(cudaMalloc(&da, sizeof ha), "cudaMalloc");
  check(cudaMalloc(&db, sizeof hb), "cudaMalloc");
  check(cudaMalloc(&dc, sizeof k.c), "cudaMalloc");
  check(cudaMalloc(&dd, sizeof k.c), "cudaMalloc");
  check(cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice), "cudaMemcpy");
  check(cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice), "cudaMemcpy");
  check(cudaMemcpy(dc, k.c, sizeof k.c, cudaMemcpyHostToDevice), "cudaMemcpy");
  product<T><<<1, 32>>>(da, db, dc, dd);
  check(cudaGetLastError(), "launch");
  float d[kN * kN];
  check(cudaMemcpy(d, dd, sizeof d, cudaMemcpyDeviceToHost), "cudaMemcpy");
  uint32_t sum = 0;
  for (int i = 0; i < kN * kN; ++i) sum = sum * 31 + bits(d[i]);
  printf("%s %s: checksum %08x\n", type, k.name, sum);
  for (int row = 0; row < 2; ++row) {
    printf("  row %d:", row);
    for (int col = 0; col < kN; ++col) printf(" %08x", bits(d[row * kN + col]));
    printf("\n");
  }
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cudaFree(dd);
}

// Small integers everywhere (0, 1, 2 and -1), C among them.
static void fill_integers(Case& k, int salt) {
  for (int i = 0; i < kN * kN; ++i) {
    k.a[i] = float((i * 7 + salt) % 4 - 1);
    k.b[i] = float((i * 5 + 3 * salt) % 4 - 1);
    k.c[i] = float((i * 3 + salt) % 4 - 1);
  }
}

static void clear(Case& k) {
  memset(k.a, 0, sizeof k.a);
  memset(k.b, 0, sizeof k.b);
  memset(k.c, 0, sizeof k.c);
}

int main() {
  static Case cases[9];
  int n = 0;
  // Row 0, column 0 of D: C = 2^24, the products -2^24 and `small`; the edge is at 2^-1.
  auto product_edge = [&](const char* name, float small) {
    Case& k = cases[n++];
    clear(k);
    k.name = name;
    k.c[0] = 16777216.0f;
    k.a[0] = -4096.0f, k.b[0] = 4096.0f;       // A[0][0] * B[0][0] = -2^24
    k.a[1] = 1.0f, k.b[1 * kN + 0] = small;    // A[0][1] * B[1][0]
    k.a[kN + 2] = 3.0f, k.b[2 * kN + 5] = 2.0f;  // row 1 of D: a plain 6 in column 5
  };
  product_edge("product_below_edge", 0.25f);
  product_edge("product_on_edge", 0.5f);
  // Row 0, column 0 of D: the products 2^24 and -2^24 and C = `small`; the edge is at 2^-1.
  auto accumulator_edge = [&](const char* name, float small) {
    Case& k = cases[n++];
    clear(k);
    k.name = name;
    k.c[0] = small;
    k.a[0] = 4096.0f, k.b[0] = 4096.0f;
    k.a[1] = -4096.0f, k.b[1 * kN + 0] = 4096.0f;
    k.c[kN + 3] = 0.5f;  // row 1: an accumulator alone, its row far from any edge
  };
  accumulator_edge("accumulator_below_edge", 0.25f);
  accumulator_edge("accumulator_on_edge", 0.5f);
  // The edge set by products alone (C = 0): 2^13 * 2^11 = 2^24 and its negative, with
  // 0.75 = 2^-1 + 2^-2 beside them (its lowest bit below the edge).
  {
    Case& k = cases[n++];
    clear(k);
    k.name = "products_set_edge";
    k.a[0] = 8192.0f, k.b[0] = 2048.0f;
    k.a[1] = -8192.0f, k.b[1 * kN + 0] = 2048.0f;
    k.a[2] = 1.0f, k.b[2 * kN + 0] = 0.75f;
    k.a[3] = -1.0f, k.b[3 * kN + 1] = 0.75f;  // column 1: -0.75 alone
  }
  // Integers, as a GEMM's tiles hold them, and the same with a large running sum in C.
  fill_integers(cases[n], 1), cases[n++].name = "integers";
  fill_integers(cases[n], 2), cases[n].name = "integers_large_accumulator";
  for (int i = 0; i < kN * kN; ++i) cases[n].c[i] += 16384.0f * (i % 3);
  ++n;
  // Zeros of both signs: D must be +0.
  {
    Case& k = cases[n++];
    clear(k);
    k.name = "negative_zeros";
    for (int i = 0; i < kN * kN; ++i) k.a[i] = -0.0f, k.c[i] = -0.0f;
  }
  // Halves and quarters that cancel exactly beside a large accumulator in other rows.
  {
    Case& k = cases[n++];
    clear(k);
    k.name = "exact_cancellation";
    for (int i = 0; i < kN; ++i) k.a[i] = (i % 2 ? -0.5f : 0.5f), k.b[i * kN] = 0.25f;
    k.c[kN] = 1048576.0f;
  }
  for (int i = 0; i < n; ++i) run<__half>("f16", cases[i]);
  for (int i = 0; i < n; ++i) run<__nv_bfloat16>("bf16", cases[i]);
  return 0;
}
