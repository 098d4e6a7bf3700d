// Tensor-core products of special inputs, which tests/isa/tensor_core_rounding's random
// values never hold: zeros of both signs (what a block of only zero products gives),
// infinities and NaN (added in plain floating point), subnormal halves,
// accumulators that overflow f32 and sums that cancel exactly. mma.sync m16n8k16 with f16
// and bf16 inputs and an f32 accumulator, and m16n8k8 with tf32; each lane prints its D
// registers (hex), one case a line. Every case fills A, B and C from a few values: the
// element (i, j) of a matrix is values[(i * 7 + j * 3 + salt) % count].
#include <cstdio>
#include <cstring>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

static void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    printf("%s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

enum class Kind { F16, BF16, TF32 };

// The fragments of PTX ISA 9.0 §9.7.14.5.8 (m16n8k16 .f16/.bf16) and §9.7.14.5.7 (m16n8k8 .tf32):
// lane = 4 g + t holds A rows g and g + 8, B column g, C/D rows g and g + 8, columns 2t, 2t + 1.
// Four A, two B and four C/D registers a lane in each form.
#define MMA_OPERANDS                                                                                              \
  : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])                                                                \
  : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3])
#define MMA_REGISTERS "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"

template <Kind kind>
__global__ void mma(const unsigned* A, const unsigned* B, const float* C, float* D) {
  const int lane = threadIdx.x;
  const unsigned* a = A + lane * 4;
  const unsigned* b = B + lane * 2;
  const float* c = C + lane * 4;
  float d[4];
  if constexpr (kind == Kind::F16) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 " MMA_REGISTERS MMA_OPERANDS);
  } else if constexpr (kind == Kind::BF16) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 " MMA_REGISTERS MMA_OPERANDS);
  } else {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 " MMA_REGISTERS MMA_OPERANDS);
  }
  for (int i = 0; i < 4; ++i) D[lane * 4 + i] = d[i];
}

// One input element's bits from a float: a half, a bfloat16 (both round to nearest) or a
// tf32 (the float's bits; the tensor core reads the top 19).
unsigned element_bits(Kind kind, float v) {
  if (kind == Kind::F16) {
    __half h = __float2half_rn(v);
    unsigned short s;
    memcpy(&s, &h, 2);
    return s;
  }
  if (kind == Kind::BF16) {
    __nv_bfloat16 h = __float2bfloat16_rn(v);
    unsigned short s;
    memcpy(&s, &h, 2);
    return s;
  }
  unsigned u;
  memcpy(&u, &v, 4);
  return u;
}

struct Case {
  const char* name;
  float a[6], b[6], c[6];  // values, repeated over the matrices
  int count;
};

float pick(const float* values, int count, int i, int j, int salt) { return values[(i * 7 + j * 3 + salt) % count]; }

void run(Kind kind, const Case& test, unsigned* A, unsigned* B, float* C, float* D) {
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane / 4, t = lane % 4;
    for (int r = 0; r < 4; ++r) {
      // A register r: row g (+8 for r odd), columns by the form.
      const int row = g + 8 * (r % 2);
      if (kind == Kind::TF32) {
        A[lane * 4 + r] = element_bits(kind, pick(test.a, test.count, row, t + 4 * (r / 2), 0));
      } else {
        const int col = 2 * t + 8 * (r / 2);
        A[lane * 4 + r] = element_bits(kind, pick(test.a, test.count, row, col, 0)) |
                          element_bits(kind, pick(test.a, test.count, row, col + 1, 0)) << 16;
      }
    }
    for (int r = 0; r < 2; ++r) {
      if (kind == Kind::TF32) {
        B[lane * 2 + r] = element_bits(kind, pick(test.b, test.count, t + 4 * r, g, 1));
      } else {
        const int krow = 2 * t + 8 * r;
        B[lane * 2 + r] = element_bits(kind, pick(test.b, test.count, krow, g, 1)) |
                          element_bits(kind, pick(test.b, test.count, krow + 1, g, 1)) << 16;
      }
    }
    for (int r = 0; r < 4; ++r) C[lane * 4 + r] = pick(test.c, test.count, g + 8 * (r / 2), 2 * t + r % 2, 2);
  }
  if (kind == Kind::F16) mma<Kind::F16><<<1, 32>>>(A, B, C, D);
  if (kind == Kind::BF16) mma<Kind::BF16><<<1, 32>>>(A, B, C, D);
  if (kind == Kind::TF32) mma<Kind::TF32><<<1, 32>>>(A, B, C, D);
  check(cudaDeviceSynchronize(), test.name);
  printf("%s %s:", kind == Kind::F16 ? "f16" : kind == Kind::BF16 ? "bf16" : "tf32", test.name);
  for (int i = 0; i < 128; ++i) {
    unsigned u;
    memcpy(&u, &D[i], 4);
    printf(" %08x", u);
  }
  printf("\n");
}

int main() {
  const float inf = __builtin_inff(), nan = __builtin_nanf("");
  const Case cases[] = {
      {"zero_products_keep_c", {0.0f, -0.0f}, {1.5f, -2.0f}, {-0.0f, 0.0f, 3.25f, -1e-30f}, 2},
      {"signed_zero_products", {-0.0f, -0.0f, 0.0f}, {1.0f, 2.0f, 3.0f}, {-0.0f, -0.0f, -0.0f}, 3},
      {"infinite_a", {inf, 1.0f, 2.0f}, {1.0f, 0.5f, 0.25f}, {1.0f, -1.0f, 0.0f}, 3},
      {"infinity_times_zero", {inf, -inf, 1.0f}, {0.0f, 1.0f, 2.0f}, {0.0f, 1.0f, 2.0f}, 3},
      {"opposite_infinities", {inf, -inf}, {1.0f, 1.0f}, {0.0f, 0.0f}, 2},
      {"infinite_c", {1.0f, 2.0f}, {3.0f, 4.0f}, {inf, -inf, 5.0f}, 3},
      {"nan_input", {nan, 1.0f, 2.0f}, {1.0f, 2.0f, 3.0f}, {0.0f, 1.0f}, 3},
      {"subnormal_halves", {6e-8f, 3e-5f, -1e-7f, 2e-6f}, {5e-7f, -6e-8f, 1e-5f, 3e-6f}, {0.0f, 1e-12f, -3e-13f}, 4},
      {"overflowing_accumulator", {60000.0f, 65000.0f, -100.0f}, {60000.0f, 50000.0f, 7.0f}, {3.3e38f, -3.3e38f, 1e38f}, 3},
      {"exact_cancellation", {1.0f, -1.0f, 0.5f, -0.5f}, {2.0f, 2.0f, 4.0f, 4.0f}, {0.0f, -0.0f}, 4},
      {"tiny_against_huge", {1e-4f, 3e4f, -2e-3f}, {2e-4f, 3e4f, 1e-3f}, {1e-10f, -7e-9f, 4.0f}, 3},
  };
  unsigned *A, *B;
  float *C, *D;
  check(cudaMallocManaged(&A, 32 * 4 * sizeof(unsigned)), "A");
  check(cudaMallocManaged(&B, 32 * 2 * sizeof(unsigned)), "B");
  check(cudaMallocManaged(&C, 32 * 4 * sizeof(float)), "C");
  check(cudaMallocManaged(&D, 32 * 4 * sizeof(float)), "D");
  for (Kind kind : {Kind::F16, Kind::BF16, Kind::TF32})
    for (const Case& test : cases) run(kind, test, A, B, C, D);
  return 0;
}
