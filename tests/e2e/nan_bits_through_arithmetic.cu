// NaN bits through chains of f32 arithmetic. An sm_90 f32 add/sub/mul/fma that gives NaN
// gives 0x7fffffff whatever its operands' bits; cucpu leaves the host's NaN in a register
// no instruction looks at the bits of (jit/nan_bits.h) and makes it canonical where one
// may: stores, moves to integer registers, shuffles whose result is stored, neg/abs/min/
// max, conversions, .sat, comparisons. Each case prints, per input pair, the hex bits of
// what the kernel stored. Inputs: NaNs with payloads and both signs (quiet and signalling),
// infinities (inf - inf, 0 * inf make NaNs of the host's own), zeros and numbers.
#include <cstdio>
#include <cstdint>
#include <cstring>

static void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    printf("%s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

constexpr int kInputs = 12;
constexpr int kCases = 16;

__global__ void chains(const float* x, const float* y, uint32_t* out) {
  const int i = threadIdx.x;  // one warp: lane i works on the pair (x[i % kInputs], y[i / kInputs ...])
  const float a = x[i % kInputs], b = y[i % kInputs], c = x[(i + 5) % kInputs];
  uint32_t* o = out + i * kCases;
  // 0: a chain whose intermediates nobody looks at, stored at its end
  float s = a + b;
  s = s * c;
  s = fmaf(s, b, a);
  s = s - c;
  o[0] = __float_as_uint(s);
  // 1: a sum's bits moved to an integer register, then masked
  o[1] = __float_as_uint(a + b) & 0xffffffffu;
  // 2, 3: a shuffled difference, added to and stored as it is
  const float d = a - b;
  const float r = __shfl_xor_sync(0xffffffffu, d, 1);
  o[2] = __float_as_uint(r + 1.0f);
  o[3] = __float_as_uint(__shfl_down_sync(0xffffffffu, b * b - a, 2));  // read by nothing else
  // 4: comparisons of a NaN product see only that it is NaN
  const float p = a * c;
  o[4] = (p < 1.0f) | (p != p) << 1 | (p == p) << 2 | (p >= 0.0f) << 3;
  // 5, 6: min and max of a NaN sum
  o[5] = __float_as_uint(fminf(a + c, 1.0f));
  o[6] = __float_as_uint(fmaxf(a * b, b + c));
  // 7, 8: negation and absolute value of a NaN sum
  o[7] = __float_as_uint(-(a + b));
  o[8] = __float_as_uint(fabsf(b - c));
  // 9: .sat of a NaN sum is 0
  o[9] = __float_as_uint(__saturatef(a + b));
  // 10, 11: conversions of a NaN sum
  o[10] = static_cast<uint32_t>(static_cast<int>(a + c));
  const double wide = static_cast<double>(b * c);
  uint64_t bits;
  memcpy(&bits, &wide, 8);
  o[11] = static_cast<uint32_t>(bits >> 32) ^ static_cast<uint32_t>(bits);
  // 12: a select between two sums
  o[12] = __float_as_uint(i & 1 ? a + b : b * c);
  // 13: a loop's accumulator
  float acc = 0.0f;
  for (int k = 0; k < kInputs; k += 3) acc += x[(i + k) % kInputs] * y[k];
  o[13] = __float_as_uint(acc);
  // 14: a warp's shuffle-down sum (offsets 16 .. 1)
  float v = a * b + c;
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  o[14] = __float_as_uint(v);
  // 15: a directed rounding mode and a division in the chain
  o[15] = __float_as_uint(__fadd_rz(a, b) / (c + 0.0f));
}

int main() {
  const uint32_t x_bits[kInputs] = {0x7fc00001u, 0xffc00002u, 0x7f800001u, 0xff800005u, 0x7f800000u, 0xff800000u,
                                    0x00000000u, 0x80000000u, 0x3fc00000u, 0xc0000000u, 0x7fffffffu, 0x00000001u};
  const uint32_t y_bits[kInputs] = {0x3f800000u, 0x7f800000u, 0xff800000u, 0x7fc12345u, 0xff800000u, 0x00000000u,
                                    0x7f800000u, 0xffbfffffu, 0x40000000u, 0x7f800000u, 0x3f800000u, 0xfff00000u};
  float x[kInputs], y[kInputs];
  memcpy(x, x_bits, sizeof x);
  memcpy(y, y_bits, sizeof y);
  float *dx, *dy;
  uint32_t* dout;
  check(cudaMalloc(&dx, sizeof x), "cudaMalloc");
  check(cudaMalloc(&dy, sizeof y), "cudaMalloc");
  check(cudaMalloc(&dout, 32 * kCases * 4), "cudaMalloc");
  check(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice), "cudaMemcpy");
  check(cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice), "cudaMemcpy");
  chains<<<1, 32>>>(dx, dy, dout);
  check(cudaGetLastError(), "launch");
  uint32_t out[32 * kCases];
  check(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost), "cudaMemcpy");
  for (int c = 0; c < kCases; ++c) {
    printf("case %2d:", c);
    for (int lane = 0; lane < 32; ++lane) printf(" %08x", out[lane * kCases + c]);
    printf("\n");
  }
  return 0;
}
