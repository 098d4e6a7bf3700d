// NVCC-FLAGS: -lcufft
// cuFFT's transforms against a double-precision DFT computed on the host: 1D, 2D and 3D plans,
// cufftPlanMany with strides, embeddings and batches, every type (C2C, R2C, C2R, Z2Z, D2Z,
// Z2D), in place and out of place, a plan bound to a stream between two kernels, a work area
// set by hand, cufftXt's plans, and the status codes of bad arguments. FFT results differ in
// their last bits between implementations, so each transform prints only whether its largest
// error, relative to the largest reference value, is below a bound: 1e-5 in single precision,
// 1e-12 in double (cuFFT's errors are about 1e-7 and 1e-15 at these sizes).
#include <cuda_runtime.h>
#include <cufft.h>
#include <cufftXt.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

using Complex = std::complex<double>;
using Dims = std::vector<long long>;

enum Kind { C2C, R2C, C2R };

// Where a transform's elements lie: element x of batch b at b * dist + stride * (row-major
// index of x within embed).
struct Layout {
  Dims embed;
  long long stride, dist;
};

static uint64_t seed = 2024;
static double next_random() {
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return static_cast<double>(seed >> 11) / 9007199254740992.0 * 2 - 1;
}

static long long product(const Dims& dims) {
  long long p = 1;
  for (long long d : dims) p *= d;
  return p;
}

static long long offset(const Layout& layout, const Dims& dims, long long batch, long long index) {
  long long within = 0, scale = 1;
  for (int k = static_cast<int>(dims.size()) - 1; k >= 0; --k) {
    within += index % dims[k] * scale;
    index /= dims[k];
    scale *= layout.embed[k];
  }
  return batch * layout.dist + within * layout.stride;
}

// The dense layout of dims (cuFFT's basic layout).
static Layout dense(const Dims& dims) { return {dims, 1, product(dims)}; }

// A multidimensional DFT of a dense row-major array, one axis at a time, in double precision.
static void reference_dft(std::vector<Complex>& data, const Dims& dims, int sign) {
  long long total = product(dims), inner = 1;
  for (int k = static_cast<int>(dims.size()) - 1; k >= 0; --k) {
    long long n = dims[k];
    std::vector<Complex> twiddle(n), line(n);
    for (long long j = 0; j < n; ++j) twiddle[j] = std::polar(1.0, sign * 2 * M_PI * static_cast<double>(j) / n);
    for (long long start = 0; start < total; ++start) {
      if (start / inner % n != 0) continue;  // the first element of each line along axis k
      for (long long j = 0; j < n; ++j) {
        Complex sum = 0;
        for (long long m = 0; m < n; ++m) sum += data[start + m * inner] * twiddle[j * m % n];
        line[j] = sum;
      }
      for (long long j = 0; j < n; ++j) data[start + j * inner] = line[j];
    }
    inner *= n;
  }
}

// The half spectrum cuFFT's R2C keeps: the last axis cut to n/2+1.
static Dims half(Dims dims) {
  dims.back() = dims.back() / 2 + 1;
  return dims;
}

static std::vector<Complex> cut_to_half(const std::vector<Complex>& full, const Dims& dims) {
  Dims h = half(dims);
  std::vector<Complex> out(product(h));
  for (long long i = 0; i < product(h); ++i) {
    long long row = i / h.back(), column = i % h.back();
    out[i] = full[row * dims.back() + column];
  }
  return out;
}

struct Transform {
  Kind kind;
  Dims n;
  Layout in, out;
  long long batch;
  bool in_place;
  int sign = CUFFT_FORWARD;
};

// Runs `t` with `plan` (through cufftXtExec when `xt`) on random data and returns the error
// relative to the largest reference value, or -1 after printing a failing status.
template <typename Real>
static double run(const char* name, cufftHandle plan, const Transform& t, cudaStream_t stream = nullptr,
                  bool xt = false) {
  Dims in_dims = t.kind == C2R ? half(t.n) : t.n, out_dims = t.kind == R2C ? half(t.n) : t.n;
  int in_parts = t.kind == R2C ? 1 : 2, out_parts = t.kind == C2R ? 1 : 2;
  long long in_reals = (offset(t.in, in_dims, t.batch - 1, product(in_dims) - 1) + 1) * in_parts;
  long long out_reals = (offset(t.out, out_dims, t.batch - 1, product(out_dims) - 1) + 1) * out_parts;
  std::vector<Real> host_in(in_reals);
  for (Real& value : host_in) value = static_cast<Real>(next_random());
  // C2R needs the spectrum of a real signal: that of `signal`, which it must give back n times.
  std::vector<std::vector<double>> signal(t.batch);
  if (t.kind == C2R) {
    for (long long b = 0; b < t.batch; ++b) {
      std::vector<Complex> full(product(t.n));
      for (Complex& value : full) value = next_random();
      for (const Complex& value : full) signal[b].push_back(value.real());
      reference_dft(full, t.n, CUFFT_FORWARD);
      std::vector<Complex> spectrum = cut_to_half(full, t.n);
      for (long long i = 0; i < product(in_dims); ++i) {
        long long at = offset(t.in, in_dims, b, i) * 2;
        host_in[at] = static_cast<Real>(spectrum[i].real());
        host_in[at + 1] = static_cast<Real>(spectrum[i].imag());
      }
    }
  }
  size_t in_bytes = in_reals * sizeof(Real), out_bytes = out_reals * sizeof(Real);
  void *device_in, *device_out;
  cudaMalloc(&device_in, t.in_place ? std::max(in_bytes, out_bytes) : in_bytes);
  cudaMemcpy(device_in, host_in.data(), in_bytes, cudaMemcpyHostToDevice);
  device_out = device_in;
  if (!t.in_place) {
    cudaMalloc(&device_out, out_bytes);
    cudaMemset(device_out, 0, out_bytes);
  }
  cufftResult status;
  constexpr bool single = sizeof(Real) == 4;
  if (xt)
    status = cufftXtExec(plan, device_in, device_out, t.sign);
  else if (t.kind == C2C)
    status = single ? cufftExecC2C(plan, (cufftComplex*)device_in, (cufftComplex*)device_out, t.sign)
                    : cufftExecZ2Z(plan, (cufftDoubleComplex*)device_in, (cufftDoubleComplex*)device_out, t.sign);
  else if (t.kind == R2C)
    status = single ? cufftExecR2C(plan, (cufftReal*)device_in, (cufftComplex*)device_out)
                    : cufftExecD2Z(plan, (cufftDoubleReal*)device_in, (cufftDoubleComplex*)device_out);
  else
    status = single ? cufftExecC2R(plan, (cufftComplex*)device_in, (cufftReal*)device_out)
                    : cufftExecZ2D(plan, (cufftDoubleComplex*)device_in, (cufftDoubleReal*)device_out);
  std::vector<Real> host_out(out_reals);
  if (stream) cudaStreamSynchronize(stream);
  cudaMemcpy(host_out.data(), device_out, out_bytes, cudaMemcpyDeviceToHost);
  cudaFree(device_in);
  if (!t.in_place) cudaFree(device_out);
  if (status != CUFFT_SUCCESS) {
    std::printf("%-44s exec status %d\n", name, status);
    return -1;
  }
  double largest = 0, error = 0;
  for (long long b = 0; b < t.batch; ++b) {
    std::vector<Complex> expected(product(out_dims));
    if (t.kind == C2R) {
      for (long long i = 0; i < product(t.n); ++i) expected[i] = signal[b][i] * static_cast<double>(product(t.n));
    } else {
      std::vector<Complex> data(product(t.n));
      for (long long i = 0; i < product(t.n); ++i) {
        long long at = offset(t.in, in_dims, b, i) * in_parts;
        data[i] = t.kind == R2C ? Complex(host_in[at]) : Complex(host_in[at], host_in[at + 1]);
      }
      reference_dft(data, t.n, t.kind == R2C ? CUFFT_FORWARD : t.sign);
      expected = t.kind == R2C ? cut_to_half(data, t.n) : data;
    }
    for (long long i = 0; i < product(out_dims); ++i) {
      long long at = offset(t.out, out_dims, b, i) * out_parts;
      Complex got = out_parts == 1 ? Complex(host_out[at]) : Complex(host_out[at], host_out[at + 1]);
      largest = std::max(largest, std::abs(expected[i]));
      error = std::max(error, std::abs(got - expected[i]));
    }
  }
  return error / largest;
}

template <typename Real>
static void check(const char* name, cufftHandle plan, const Transform& t, cudaStream_t stream = nullptr,
                  bool xt = false) {
  double error = run<Real>(name, plan, t, stream, xt);
  if (error < 0) return;
  double bound = sizeof(Real) == 4 ? 1e-5 : 1e-12;
  std::printf("%-44s error below %g: %s\n", name, bound, error < bound ? "yes" : "NO");
}

// The layout cuFFT's basic plans give the real side of an in-place R2C or C2R: the last axis
// padded to 2 * (n/2 + 1) reals.
static Layout padded_real(const Dims& n) {
  Dims embed = n;
  embed.back() = 2 * (n.back() / 2 + 1);
  return {embed, 1, product(embed)};
}

static void transforms_of_basic_plans() {
  cufftHandle plan;
  std::printf("plan1d C2C 256 x4: %d\n", cufftPlan1d(&plan, 256, CUFFT_C2C, 4));
  Transform t{C2C, {256}, dense({256}), dense({256}), 4, false};
  check<float>("1d C2C 256 x4 forward out of place", plan, t);
  t.sign = CUFFT_INVERSE;
  check<float>("1d C2C 256 x4 inverse out of place", plan, t);
  t.in_place = true;
  check<float>("1d C2C 256 x4 inverse in place", plan, t);
  cufftDestroy(plan);

  std::printf("plan1d C2C 1000: %d\n", cufftPlan1d(&plan, 1000, CUFFT_C2C, 1));
  check<float>("1d C2C 1000 forward in place", plan, {C2C, {1000}, dense({1000}), dense({1000}), 1, true});
  cufftDestroy(plan);
  std::printf("plan1d C2C 997: %d\n", cufftPlan1d(&plan, 997, CUFFT_C2C, 2));
  check<float>("1d C2C 997 (prime) x2 forward", plan, {C2C, {997}, dense({997}), dense({997}), 2, false});
  cufftDestroy(plan);

  std::printf("plan2d C2C 64x48: %d\n", cufftPlan2d(&plan, 64, 48, CUFFT_C2C));
  check<float>("2d C2C 64x48 forward in place", plan, {C2C, {64, 48}, dense({64, 48}), dense({64, 48}), 1, true});
  cufftDestroy(plan);
  std::printf("plan3d C2C 16x12x10: %d\n", cufftPlan3d(&plan, 16, 12, 10, CUFFT_C2C));
  check<float>("3d C2C 16x12x10 inverse", plan,
               {C2C, {16, 12, 10}, dense({16, 12, 10}), dense({16, 12, 10}), 1, false, CUFFT_INVERSE});
  cufftDestroy(plan);

  std::printf("plan1d R2C 300 x2: %d\n", cufftPlan1d(&plan, 300, CUFFT_R2C, 2));
  check<float>("1d R2C 300 x2 out of place", plan, {R2C, {300}, dense({300}), dense({151}), 2, false});
  check<float>("1d R2C 300 x2 in place (padded)", plan, {R2C, {300}, padded_real({300}), dense({151}), 2, true});
  cufftDestroy(plan);
  std::printf("plan1d C2R 300 x2: %d\n", cufftPlan1d(&plan, 300, CUFFT_C2R, 2));
  check<float>("1d C2R 300 x2 out of place", plan, {C2R, {300}, dense({151}), dense({300}), 2, false});
  check<float>("1d C2R 300 x2 in place (padded)", plan, {C2R, {300}, dense({151}), padded_real({300}), 2, true});
  cufftDestroy(plan);

  std::printf("plan2d R2C 32x30: %d\n", cufftPlan2d(&plan, 32, 30, CUFFT_R2C));
  check<float>("2d R2C 32x30 out of place", plan, {R2C, {32, 30}, dense({32, 30}), dense({32, 16}), 1, false});
  check<float>("2d R2C 32x30 in place (padded)", plan, {R2C, {32, 30}, padded_real({32, 30}), dense({32, 16}), 1, true});
  cufftDestroy(plan);
  std::printf("plan2d C2R 33x31: %d\n", cufftPlan2d(&plan, 33, 31, CUFFT_C2R));
  check<float>("2d C2R 33x31 out of place", plan, {C2R, {33, 31}, dense({33, 16}), dense({33, 31}), 1, false});
  check<float>("2d C2R 33x31 in place (padded)", plan, {C2R, {33, 31}, dense({33, 16}), padded_real({33, 31}), 1, true});
  cufftDestroy(plan);

  std::printf("plan3d D2Z 8x10x12: %d\n", cufftPlan3d(&plan, 8, 10, 12, CUFFT_D2Z));
  check<double>("3d D2Z 8x10x12 out of place", plan,
                {R2C, {8, 10, 12}, dense({8, 10, 12}), dense({8, 10, 7}), 1, false});
  check<double>("3d D2Z 8x10x12 in place (padded)", plan,
                {R2C, {8, 10, 12}, padded_real({8, 10, 12}), dense({8, 10, 7}), 1, true});
  cufftDestroy(plan);
  std::printf("plan3d Z2D 6x5x9: %d\n", cufftPlan3d(&plan, 6, 5, 9, CUFFT_Z2D));
  check<double>("3d Z2D 6x5x9 out of place", plan, {C2R, {6, 5, 9}, dense({6, 5, 5}), dense({6, 5, 9}), 1, false});
  cufftDestroy(plan);
  std::printf("plan2d Z2Z 40x36: %d\n", cufftPlan2d(&plan, 40, 36, CUFFT_Z2Z));
  check<double>("2d Z2Z 40x36 inverse in place", plan,
                {C2C, {40, 36}, dense({40, 36}), dense({40, 36}), 1, true, CUFFT_INVERSE});
  cufftDestroy(plan);
  std::printf("plan1d Z2Z 4096 x2: %d\n", cufftPlan1d(&plan, 4096, CUFFT_Z2Z, 2));
  check<double>("1d Z2Z 4096 x2 forward", plan, {C2C, {4096}, dense({4096}), dense({4096}), 2, false});
  cufftDestroy(plan);
}

static void transforms_of_many_plans() {
  cufftHandle plan;
  int n2[] = {20, 24}, in2[] = {22, 26}, out2[] = {21, 25};
  std::printf("many C2C 20x24 embedded x3: %d\n",
              cufftPlanMany(&plan, 2, n2, in2, 2, 22 * 26 * 2 + 5, out2, 1, 21 * 25 + 3, CUFFT_C2C, 3));
  check<float>("many C2C 20x24 strided embedded x3", plan,
               {C2C, {20, 24}, {{22, 26}, 2, 22 * 26 * 2 + 5}, {{21, 25}, 1, 21 * 25 + 3}, 3, false});
  cufftDestroy(plan);

  int n1[] = {64}, in1[] = {64}, out1[] = {33};
  std::printf("many R2C 64 strided x5: %d\n",
              cufftPlanMany(&plan, 1, n1, in1, 3, 3 * 64 + 1, out1, 2, 2 * 33 + 4, CUFFT_R2C, 5));
  check<float>("many R2C 64 strided x5", plan, {R2C, {64}, {{64}, 3, 3 * 64 + 1}, {{33}, 2, 2 * 33 + 4}, 5, false});
  cufftDestroy(plan);
  std::printf("many C2R 64 strided x5: %d\n",
              cufftPlanMany(&plan, 1, n1, out1, 2, 2 * 33 + 4, in1, 3, 3 * 64 + 1, CUFFT_C2R, 5));
  check<float>("many C2R 64 strided x5", plan, {C2R, {64}, {{33}, 2, 2 * 33 + 4}, {{64}, 3, 3 * 64 + 1}, 5, false});
  cufftDestroy(plan);

  // Interleaved batches: stride = batch, distance 1.
  int n3[] = {6, 8, 10};
  std::printf("many Z2Z 6x8x10 interleaved x4: %d\n",
              cufftPlanMany(&plan, 3, n3, n3, 4, 1, n3, 4, 1, CUFFT_Z2Z, 4));
  check<double>("many Z2Z 6x8x10 interleaved x4", plan,
                {C2C, {6, 8, 10}, {{6, 8, 10}, 4, 1}, {{6, 8, 10}, 4, 1}, 4, false});
  cufftDestroy(plan);

  // NULL embeddings: the basic layout, whatever the strides say.
  int n4[] = {50};
  std::printf("many C2C 50 null embed x3: %d\n", cufftPlanMany(&plan, 1, n4, nullptr, 7, 9, nullptr, 5, 3, CUFFT_C2C, 3));
  check<float>("many C2C 50 null embed x3", plan, {C2C, {50}, dense({50}), dense({50}), 3, false});
  cufftDestroy(plan);
  int n5[] = {12, 18};
  std::printf("many D2Z 12x18 null embed x2: %d\n",
              cufftPlanMany(&plan, 2, n5, nullptr, 1, 0, nullptr, 1, 0, CUFFT_D2Z, 2));
  check<double>("many D2Z 12x18 null embed x2 in place", plan,
                {R2C, {12, 18}, padded_real({12, 18}), dense({12, 10}), 2, true});
  cufftDestroy(plan);

  // 64-bit sizes, made on a created handle.
  long long n6[] = {30, 40}, in6[] = {30, 40}, out6[] = {30, 21};
  size_t work = 0;
  cufftCreate(&plan);
  std::printf("makeplanmany64 R2C 30x40 x2: %d\n",
              cufftMakePlanMany64(plan, 2, n6, in6, 1, 1200, out6, 1, 630, CUFFT_R2C, 2, &work));
  check<float>("many64 R2C 30x40 x2", plan, {R2C, {30, 40}, dense({30, 40}), dense({30, 21}), 2, false});
  cufftDestroy(plan);
}

__global__ void fill_ramp(float2* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = make_float2(static_cast<float>(i % 7), 0);
}

__global__ void scale(float2* data, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = make_float2(data[i].x * factor, data[i].y * factor);
}

// A plan bound to a stream runs after the kernel queued before it and before the one after.
static void stream_order() {
  const int n = 1 << 16;
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  cufftHandle plan;
  cufftPlan1d(&plan, n, CUFFT_C2C, 1);
  std::printf("set stream: %d\n", cufftSetStream(plan, stream));
  float2* data;
  cudaMalloc(&data, n * sizeof(float2));
  cudaMemset(data, 0, n * sizeof(float2));
  cudaDeviceSynchronize();
  fill_ramp<<<n / 256, 256, 0, stream>>>(data, n);
  cufftResult forward = cufftExecC2C(plan, data, data, CUFFT_FORWARD);
  cufftResult inverse = cufftExecC2C(plan, data, data, CUFFT_INVERSE);
  scale<<<n / 256, 256, 0, stream>>>(data, n, 1.0f / n);
  cudaStreamSynchronize(stream);
  std::vector<float2> host(n);
  cudaMemcpy(host.data(), data, n * sizeof(float2), cudaMemcpyDeviceToHost);
  double error = 0;
  for (int i = 0; i < n; ++i) error = std::max(error, std::abs(Complex(host[i].x, host[i].y) - Complex(i % 7)));
  std::printf("stream: forward %d inverse %d, round trip error below 1e-4: %s\n", forward, inverse,
              error < 1e-4 ? "yes" : "NO");
  cufftDestroy(plan);
  cudaFree(data);
  cudaStreamDestroy(stream);
}

// A work area the program allocates itself, and the size queries.
static void work_area() {
  cufftHandle plan;
  size_t work = 0, size = 0, estimate = 0;
  std::printf("create: %d\n", cufftCreate(&plan));
  std::printf("set auto allocation 0: %d\n", cufftSetAutoAllocation(plan, 0));
  std::printf("estimate1d: %d\n", cufftEstimate1d(2048, CUFFT_C2C, 3, &estimate));
  std::printf("getsize1d before make: %d\n", cufftGetSize1d(plan, 2048, CUFFT_C2C, 3, &size));
  std::printf("makeplan1d: %d\n", cufftMakePlan1d(plan, 2048, CUFFT_C2C, 3, &work));
  std::printf("getsize: %d\n", cufftGetSize(plan, &size));
  std::printf("getsize equals makeplan's work size: %s\n", size == work ? "yes" : "no");
  void* area;
  cudaMalloc(&area, work + 1);
  std::printf("set work area: %d\n", cufftSetWorkArea(plan, area));
  check<float>("1d C2C 2048 x3 with own work area", plan, {C2C, {2048}, dense({2048}), dense({2048}), 3, false});
  cufftDestroy(plan);
  cudaFree(area);

  std::printf("estimate2d: %d\n", cufftEstimate2d(64, 64, CUFFT_R2C, &estimate));
  std::printf("estimate3d: %d\n", cufftEstimate3d(16, 16, 16, CUFFT_Z2Z, &estimate));
  int n[] = {100};
  std::printf("estimatemany: %d\n", cufftEstimateMany(1, n, nullptr, 1, 100, nullptr, 1, 100, CUFFT_C2C, 4, &estimate));
}

static void xt_plans() {
  cufftHandle plan;
  size_t work = 0;
  long long n[] = {128}, n2[] = {24, 20};
  cufftCreate(&plan);
  std::printf("xt makeplanmany C_32F: %d\n", cufftXtMakePlanMany(plan, 1, n, nullptr, 1, 128, CUDA_C_32F, nullptr, 1,
                                                                   128, CUDA_C_32F, 3, &work, CUDA_C_32F));
  check<float>("xt C2C 128 x3 inverse", plan, {C2C, {128}, dense({128}), dense({128}), 3, false, CUFFT_INVERSE},
               nullptr, true);
  cufftDestroy(plan);
  cufftCreate(&plan);
  std::printf("xt makeplanmany R_32F to C_32F: %d\n",
              cufftXtMakePlanMany(plan, 2, n2, nullptr, 1, 0, CUDA_R_32F, nullptr, 1, 0, CUDA_C_32F, 1, &work,
                                  CUDA_C_32F));
  check<float>("xt R2C 24x20", plan, {R2C, {24, 20}, dense({24, 20}), dense({24, 11}), 1, false}, nullptr, true);
  cufftDestroy(plan);
  cufftCreate(&plan);
  std::printf("xt makeplanmany C_64F to R_64F: %d\n",
              cufftXtMakePlanMany(plan, 2, n2, nullptr, 1, 0, CUDA_C_64F, nullptr, 1, 0, CUDA_R_64F, 2, &work,
                                  CUDA_C_64F));
  check<double>("xt Z2D 24x20 x2", plan, {C2R, {24, 20}, dense({24, 11}), dense({24, 20}), 2, false}, nullptr, true);
  cufftDestroy(plan);
  cufftCreate(&plan);
  std::printf("xt getsizemany: %d\n", cufftXtGetSizeMany(plan, 1, n, nullptr, 1, 128, CUDA_C_64F, nullptr, 1, 128,
                                                          CUDA_C_64F, 3, &work, CUDA_C_64F));
  std::printf("xt makeplanmany C_32F to R_64F: %d\n",
              cufftXtMakePlanMany(plan, 1, n, nullptr, 1, 128, CUDA_C_32F, nullptr, 1, 128, CUDA_R_64F, 1, &work,
                                  CUDA_C_32F));
  cufftDestroy(plan);
}

static void bad_arguments() {
  cufftHandle plan;
  std::printf("plan1d size 0: %d\n", cufftPlan1d(&plan, 0, CUFFT_C2C, 1));
  std::printf("plan1d size -5: %d\n", cufftPlan1d(&plan, -5, CUFFT_C2C, 1));
  std::printf("plan1d batch 0: %d\n", cufftPlan1d(&plan, 16, CUFFT_C2C, 0));
  std::printf("plan1d type 0x33: %d\n", cufftPlan1d(&plan, 16, static_cast<cufftType>(0x33), 1));
  std::printf("plan2d 0x16: %d\n", cufftPlan2d(&plan, 0, 16, CUFFT_C2C));
  std::printf("plan3d 4x4x0: %d\n", cufftPlan3d(&plan, 4, 4, 0, CUFFT_R2C));
  int n[] = {8, 8, 8, 8};
  std::printf("planmany rank 0: %d\n", cufftPlanMany(&plan, 0, n, nullptr, 1, 8, nullptr, 1, 8, CUFFT_C2C, 1));
  std::printf("planmany rank 4: %d\n", cufftPlanMany(&plan, 4, n, nullptr, 1, 8, nullptr, 1, 8, CUFFT_C2C, 1));
  size_t estimate;
  std::printf("estimate1d size 0: %d\n", cufftEstimate1d(0, CUFFT_C2C, 1, &estimate));

  cufftHandle good;
  cufftPlan1d(&good, 16, CUFFT_C2C, 1);
  cufftComplex* data;
  cudaMalloc(&data, 16 * sizeof(cufftComplex));
  cudaMemset(data, 0, 16 * sizeof(cufftComplex));
  std::printf("exec direction 0: %d\n", cufftExecC2C(good, data, data, 0));
  std::printf("exec direction 2: %d\n", cufftExecC2C(good, data, data, 2));
  std::printf("exec R2C on a C2C plan: %d\n", cufftExecR2C(good, reinterpret_cast<cufftReal*>(data), data));
  std::printf("exec Z2Z on a C2C plan: %d\n",
              cufftExecZ2Z(good, reinterpret_cast<cufftDoubleComplex*>(data),
                           reinterpret_cast<cufftDoubleComplex*>(data), CUFFT_FORWARD));
  std::printf("exec on handle 12345: %d\n", cufftExecC2C(12345, data, data, CUFFT_FORWARD));
  std::printf("set stream on handle 12345: %d\n", cufftSetStream(12345, nullptr));
  std::printf("set work area on handle 12345: %d\n", cufftSetWorkArea(12345, data));
  std::printf("set auto allocation on handle 12345: %d\n", cufftSetAutoAllocation(12345, 0));
  size_t size;
  std::printf("getsize on handle 12345: %d\n", cufftGetSize(12345, &size));
  std::printf("xtexec direction 0: %d\n", cufftXtExec(good, data, data, 0));
  std::printf("exec null output: %d\n", cufftExecC2C(good, data, nullptr, CUFFT_FORWARD));
  std::printf("destroy: %d\n", cufftDestroy(good));
  std::printf("exec on the destroyed plan: %d\n", cufftExecC2C(good, data, data, CUFFT_FORWARD));
  std::printf("destroy again: %d\n", cufftDestroy(good));
  std::printf("destroy handle 12345: %d\n", cufftDestroy(12345));
  std::printf("destroy CUFFT_PLAN_NULL: %d\n", cufftDestroy(CUFFT_PLAN_NULL));
  std::printf("plan1d null handle pointer: %d\n", cufftPlan1d(nullptr, 16, CUFFT_C2C, 1));
  std::printf("create null handle pointer: %d\n", cufftCreate(nullptr));
  int n2[] = {20, 24}, embed2[] = {20, 24};
  std::printf("planmany only inembed: %d\n", cufftPlanMany(&plan, 2, n2, embed2, 1, 480, nullptr, 1, 480, CUFFT_C2C, 1));
  std::printf("planmany istride 0: %d\n", cufftPlanMany(&plan, 2, n2, embed2, 0, 480, embed2, 1, 480, CUFFT_C2C, 1));
  std::printf("planmany idist 0 x2: %d\n", cufftPlanMany(&plan, 2, n2, embed2, 1, 0, embed2, 1, 480, CUFFT_C2C, 2));
  std::printf("planmany batch -1: %d\n", cufftPlanMany(&plan, 1, n2, nullptr, 1, 20, nullptr, 1, 20, CUFFT_C2C, -1));
  std::printf("planmany null n: %d\n", cufftPlanMany(&plan, 1, nullptr, nullptr, 1, 20, nullptr, 1, 20, CUFFT_C2C, 1));
  int value = -1;
  std::printf("getproperty 3: %d\n", cufftGetProperty(static_cast<libraryPropertyType>(3), &value));

  // A handle made once, its properties, R2C through cufftXtExec.
  cufftHandle handle;
  cufftCreate(&handle);
  size_t work;
  std::printf("exec before make: %d\n", cufftExecC2C(handle, data, data, CUFFT_FORWARD));
  std::printf("getsize before make: %d\n", cufftGetSize(handle, &work));
  long long property = -7;
  cufftResult got = cufftGetPlanPropertyInt64(handle, NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT, &property);
  std::printf("get patient jit: %d %lld\n", got, property);
  std::printf("set patient jit 5: %d\n", cufftSetPlanPropertyInt64(handle, NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT, 5));
  got = cufftGetPlanPropertyInt64(handle, NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT, &property);
  std::printf("get patient jit: %d %lld\n", got, property);
  std::printf("set host threads: %d\n",
              cufftSetPlanPropertyInt64(handle, NVFFT_PLAN_PROPERTY_INT64_MAX_NUM_HOST_THREADS, 4));
  std::printf("set property 99: %d\n", cufftSetPlanPropertyInt64(handle, static_cast<cufftProperty>(99), 1));
  std::printf("reset patient jit: %d\n", cufftResetPlanProperty(handle, NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT));
  std::printf("makeplan1d null work size: %d\n", cufftMakePlan1d(handle, 16, CUFFT_R2C, 1, nullptr));
  std::printf("makeplan1d R2C: %d\n", cufftMakePlan1d(handle, 16, CUFFT_R2C, 1, &work));
  std::printf("makeplan1d again: %d\n", cufftMakePlan1d(handle, 16, CUFFT_R2C, 1, &work));
  std::printf("set patient jit after make: %d\n",
              cufftSetPlanPropertyInt64(handle, NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT, 1));
  std::printf("getsize null: %d\n", cufftGetSize(handle, nullptr));
  std::printf("xtexec R2C inverse: %d\n", cufftXtExec(handle, data, data, CUFFT_INVERSE));
  std::printf("xtexec R2C forward: %d\n", cufftXtExec(handle, data, data, CUFFT_FORWARD));
  std::printf("exec C2R on an R2C plan: %d\n", cufftExecC2R(handle, data, reinterpret_cast<cufftReal*>(data)));
  std::printf("device after bad arguments: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));

  // Last, as it breaks the device: a null input faults when the transform runs.
  std::printf("exec null input: %d\n", cufftExecR2C(handle, nullptr, data));
  std::printf("device after a null input: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cufftDestroy(handle);
}

int main() {
  int version = 0, major = -1, minor = -1, patch = -1;
  cufftResult status = cufftGetVersion(&version);
  std::printf("version: %d %d\n", status, version);
  cufftGetProperty(MAJOR_VERSION, &major);
  cufftGetProperty(MINOR_VERSION, &minor);
  cufftGetProperty(PATCH_LEVEL, &patch);
  std::printf("properties: %d.%d.%d\n", major, minor, patch);
  transforms_of_basic_plans();
  transforms_of_many_plans();
  stream_order();
  work_area();
  xt_plans();
  bad_arguments();
  return 0;
}
