// NVCC-FLAGS: -lcufftw -lcufft
// cuFFTW, the FFTW interface of cuFFT (cufftw.h), on host arrays: plans of every shape the
// header offers (1D/2D/3D, rank n, many, guru and guru64), complex, real-to-complex and
// complex-to-real in both precisions, fftw_execute on the planned arrays and the new-array
// execute functions on others. Each transform is compared with a double-precision DFT
// computed here and prints whether its largest error, relative to the largest reference
// value, is below 1e-5 (single) or 1e-12 (double).
#include <cufftw.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

// Arrays of complex numbers as FFTW takes them (std::complex has their layout).
template <typename T>
static auto as_fftw(std::vector<std::complex<T>>& v) {
  if constexpr (sizeof(T) == 4) return reinterpret_cast<fftwf_complex*>(v.data());
  else return reinterpret_cast<fftw_complex*>(v.data());
}

using Complex = std::complex<double>;

static uint64_t seed = 77;
static double next_random() {
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return static_cast<double>(seed >> 11) / 9007199254740992.0 * 2 - 1;
}

// The DFT of `count` sequences of length n, element j of sequence b at b * dist + j * stride.
static std::vector<Complex> reference_dft(const std::vector<Complex>& data, int n, int sign) {
  std::vector<Complex> out(n);
  for (int k = 0; k < n; ++k) {
    Complex sum = 0;
    for (int j = 0; j < n; ++j) sum += data[j] * std::polar(1.0, sign * 2 * M_PI * static_cast<double>(j * k % n) / n);
    out[k] = sum;
  }
  return out;
}

// A dense row-major multidimensional DFT.
static std::vector<Complex> reference_nd(std::vector<Complex> data, const std::vector<int>& dims, int sign) {
  long total = 1, inner = 1;
  for (int d : dims) total *= d;
  for (int k = static_cast<int>(dims.size()) - 1; k >= 0; --k) {
    int n = dims[k];
    for (long start = 0; start < total; ++start) {
      if (start / inner % n != 0) continue;
      std::vector<Complex> line(n);
      for (int j = 0; j < n; ++j) line[j] = data[start + j * inner];
      line = reference_dft(line, n, sign);
      for (int j = 0; j < n; ++j) data[start + j * inner] = line[j];
    }
    inner *= n;
  }
  return data;
}

static void verdict(const char* name, double error, double largest, bool single) {
  double bound = single ? 1e-5 : 1e-12;
  std::printf("%-48s error below %g: %s\n", name, bound, error / largest < bound ? "yes" : "NO");
}

static void complex_1d_single() {
  const int n = 500;
  fftwf_complex* in = static_cast<fftwf_complex*>(fftwf_malloc(sizeof(fftwf_complex) * n));
  fftwf_complex* out = static_cast<fftwf_complex*>(fftwf_malloc(sizeof(fftwf_complex) * n));
  fftwf_plan plan = fftwf_plan_dft_1d(n, in, out, FFTW_FORWARD, FFTW_ESTIMATE);
  std::printf("fftwf_plan_dft_1d: %s\n", plan ? "a plan" : "null");
  std::vector<Complex> data(n);
  for (int i = 0; i < n; ++i) {
    data[i] = Complex(next_random(), next_random());
    in[i][0] = static_cast<float>(data[i].real());
    in[i][1] = static_cast<float>(data[i].imag());
  }
  fftwf_execute(plan);
  std::vector<Complex> expected = reference_dft(data, n, FFTW_FORWARD);
  double error = 0, largest = 0;
  for (int i = 0; i < n; ++i) {
    error = std::max(error, std::abs(Complex(out[i][0], out[i][1]) - expected[i]));
    largest = std::max(largest, std::abs(expected[i]));
  }
  verdict("fftwf 1d 500 forward", error, largest, true);

  // The same plan on other arrays (plain malloc, in place is another plan: out of place here).
  fftwf_complex* in2 = static_cast<fftwf_complex*>(std::malloc(sizeof(fftwf_complex) * n));
  fftwf_complex* out2 = static_cast<fftwf_complex*>(std::malloc(sizeof(fftwf_complex) * n));
  for (int i = 0; i < n; ++i) {
    data[i] = Complex(next_random(), 0.5 * next_random());
    in2[i][0] = static_cast<float>(data[i].real());
    in2[i][1] = static_cast<float>(data[i].imag());
  }
  fftwf_execute_dft(plan, in2, out2);
  expected = reference_dft(data, n, FFTW_FORWARD);
  error = largest = 0;
  for (int i = 0; i < n; ++i) {
    error = std::max(error, std::abs(Complex(out2[i][0], out2[i][1]) - expected[i]));
    largest = std::max(largest, std::abs(expected[i]));
  }
  verdict("fftwf 1d 500 forward, new arrays", error, largest, true);
  fftwf_destroy_plan(plan);
  fftwf_free(in);
  fftwf_free(out);
  std::free(in2);
  std::free(out2);
}

static void complex_3d_double_in_place() {
  std::vector<int> dims = {8, 6, 10};
  const int total = 8 * 6 * 10;
  fftw_complex* data = static_cast<fftw_complex*>(fftw_malloc(sizeof(fftw_complex) * total));
  fftw_plan plan = fftw_plan_dft_3d(8, 6, 10, data, data, FFTW_BACKWARD, FFTW_MEASURE);
  std::vector<Complex> values(total);
  for (int i = 0; i < total; ++i) {
    values[i] = Complex(next_random(), next_random());
    data[i][0] = values[i].real();
    data[i][1] = values[i].imag();
  }
  fftw_execute(plan);
  std::vector<Complex> expected = reference_nd(values, dims, FFTW_BACKWARD);
  double error = 0, largest = 0;
  for (int i = 0; i < total; ++i) {
    error = std::max(error, std::abs(Complex(data[i][0], data[i][1]) - expected[i]));
    largest = std::max(largest, std::abs(expected[i]));
  }
  verdict("fftw 3d 8x6x10 backward in place", error, largest, false);
  fftw_destroy_plan(plan);
  fftw_free(data);
}

static void real_2d_double() {
  const int rows = 20, columns = 18, half = columns / 2 + 1;
  std::vector<double> in(rows * columns), back(rows * columns);
  std::vector<Complex> spectrum(rows * half);
  fftw_plan forward = fftw_plan_dft_r2c_2d(rows, columns, in.data(), as_fftw(spectrum), FFTW_ESTIMATE);
  fftw_plan inverse = fftw_plan_dft_c2r_2d(rows, columns, as_fftw(spectrum), back.data(), FFTW_ESTIMATE);
  std::vector<Complex> values(rows * columns);
  for (int i = 0; i < rows * columns; ++i) values[i] = in[i] = next_random();
  fftw_execute(forward);
  std::vector<Complex> expected = reference_nd(values, {rows, columns}, FFTW_FORWARD);
  double error = 0, largest = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < half; ++c) {
      Complex got = spectrum[r * half + c];
      error = std::max(error, std::abs(got - expected[r * columns + c]));
      largest = std::max(largest, std::abs(expected[r * columns + c]));
    }
  verdict("fftw r2c 2d 20x18", error, largest, false);
  fftw_execute(inverse);
  error = largest = 0;
  for (int i = 0; i < rows * columns; ++i) {
    error = std::max(error, std::abs(back[i] - in[i] * rows * columns));
    largest = std::max(largest, std::abs(in[i] * rows * columns));
  }
  verdict("fftw c2r 2d 20x18 (round trip)", error, largest, false);
  fftw_destroy_plan(forward);
  fftw_destroy_plan(inverse);
}

static void real_1d_single_in_place() {
  const int n = 100, half = n / 2 + 1;
  float* data = static_cast<float*>(fftwf_malloc(sizeof(float) * 2 * half));
  fftwf_plan plan = fftwf_plan_dft_r2c_1d(n, data, reinterpret_cast<fftwf_complex*>(data), FFTW_ESTIMATE);
  std::vector<Complex> values(n);
  for (int i = 0; i < n; ++i) values[i] = data[i] = static_cast<float>(next_random());
  fftwf_execute(plan);
  std::vector<Complex> expected = reference_dft(values, n, FFTW_FORWARD);
  double error = 0, largest = 0;
  for (int k = 0; k < half; ++k) {
    error = std::max(error, std::abs(Complex(data[2 * k], data[2 * k + 1]) - expected[k]));
    largest = std::max(largest, std::abs(expected[k]));
  }
  verdict("fftwf r2c 1d 100 in place (padded)", error, largest, true);
  fftwf_destroy_plan(plan);
  fftwf_free(data);
}

// plan_many_dft: 3 sequences of 64, input every other element, output with a gap between.
static void many_single() {
  const int n = 64, batch = 3, istride = 2, idist = 2 * 64 + 3, ostride = 1, odist = 64 + 5;
  int dims[] = {n}, inembed[] = {n}, onembed[] = {n};
  std::vector<std::complex<float>> in(idist * batch), out(odist * batch);
  fftwf_plan plan = fftwf_plan_many_dft(1, dims, batch, as_fftw(in), inembed, istride, idist, as_fftw(out), onembed,
                                        ostride, odist, FFTW_FORWARD, FFTW_ESTIMATE);
  std::vector<std::vector<Complex>> values(batch, std::vector<Complex>(n));
  for (int b = 0; b < batch; ++b)
    for (int j = 0; j < n; ++j) {
      values[b][j] = Complex(next_random(), next_random());
      in[b * idist + j * istride] = std::complex<float>(values[b][j]);
    }
  fftwf_execute(plan);
  double error = 0, largest = 0;
  for (int b = 0; b < batch; ++b) {
    std::vector<Complex> expected = reference_dft(values[b], n, FFTW_FORWARD);
    for (int k = 0; k < n; ++k) {
      error = std::max(error, std::abs(Complex(out[b * odist + k * ostride]) - expected[k]));
      largest = std::max(largest, std::abs(expected[k]));
    }
  }
  verdict("fftwf many 64 x3 strided", error, largest, true);
  fftwf_destroy_plan(plan);
}

// plan_many_dft_c2r of 2 spectra of real signals of 48, dense.
static void many_c2r_double() {
  const int n = 48, half = n / 2 + 1, batch = 2;
  int dims[] = {n};
  std::vector<Complex> in(half * batch);
  std::vector<double> out(n * batch);
  fftw_plan plan = fftw_plan_many_dft_c2r(1, dims, batch, as_fftw(in), nullptr, 1, half, out.data(), nullptr, 1, n,
                                          FFTW_ESTIMATE);
  std::vector<std::vector<double>> signal(batch, std::vector<double>(n));
  for (int b = 0; b < batch; ++b) {
    std::vector<Complex> values(n);
    for (int j = 0; j < n; ++j) values[j] = signal[b][j] = next_random();
    std::vector<Complex> spectrum = reference_dft(values, n, FFTW_FORWARD);
    for (int k = 0; k < half; ++k) {
      in[b * half + k] = spectrum[k];
    }
  }
  fftw_execute(plan);
  double error = 0, largest = 0;
  for (int b = 0; b < batch; ++b)
    for (int j = 0; j < n; ++j) {
      error = std::max(error, std::abs(out[b * n + j] - signal[b][j] * n));
      largest = std::max(largest, std::abs(signal[b][j] * n));
    }
  verdict("fftw many c2r 48 x2", error, largest, false);
  fftw_destroy_plan(plan);
}

// guru: a 2D transform of 12x10 over 2 batches interleaved (stride 2, distance 1).
static void guru_double() {
  const int rows = 12, columns = 10, batch = 2;
  fftw_iodim dims[] = {{rows, columns * batch, columns * batch}, {columns, batch, batch}};
  fftw_iodim howmany[] = {{batch, 1, 1}};
  std::vector<Complex> in(rows * columns * batch), out(rows * columns * batch);
  fftw_plan plan = fftw_plan_guru_dft(2, dims, 1, howmany, as_fftw(in), as_fftw(out), FFTW_FORWARD, FFTW_ESTIMATE);
  std::printf("fftw_plan_guru_dft: %s\n", plan ? "a plan" : "null");
  std::vector<std::vector<Complex>> values(batch, std::vector<Complex>(rows * columns));
  for (int b = 0; b < batch; ++b)
    for (int i = 0; i < rows * columns; ++i) {
      values[b][i] = Complex(next_random(), next_random());
      in[i * batch + b] = values[b][i];
    }
  fftw_execute(plan);
  double error = 0, largest = 0;
  for (int b = 0; b < batch; ++b) {
    std::vector<Complex> expected = reference_nd(values[b], {rows, columns}, FFTW_FORWARD);
    for (int i = 0; i < rows * columns; ++i) {
      error = std::max(error, std::abs(out[i * batch + b] - expected[i]));
      largest = std::max(largest, std::abs(expected[i]));
    }
  }
  verdict("fftw guru 2d 12x10 x2 interleaved", error, largest, false);
  fftw_destroy_plan(plan);
}

// guru64 r2c in single precision: 1D of 30, 4 batches.
static void guru64_r2c_single() {
  const int n = 30, half = n / 2 + 1, batch = 4;
  fftwf_iodim64 dims[] = {{n, 1, 1}};
  fftwf_iodim64 howmany[] = {{batch, n, half}};
  std::vector<float> in(n * batch);
  std::vector<std::complex<float>> out(half * batch);
  fftwf_plan plan = fftwf_plan_guru64_dft_r2c(1, dims, 1, howmany, in.data(), as_fftw(out), FFTW_ESTIMATE);
  std::vector<std::vector<Complex>> values(batch, std::vector<Complex>(n));
  for (int b = 0; b < batch; ++b)
    for (int j = 0; j < n; ++j) values[b][j] = in[b * n + j] = static_cast<float>(next_random());
  fftwf_execute(plan);
  double error = 0, largest = 0;
  for (int b = 0; b < batch; ++b) {
    std::vector<Complex> expected = reference_dft(values[b], n, FFTW_FORWARD);
    for (int k = 0; k < half; ++k) {
      error = std::max(error, std::abs(Complex(out[b * half + k]) - expected[k]));
      largest = std::max(largest, std::abs(expected[k]));
    }
  }
  verdict("fftwf guru64 r2c 30 x4", error, largest, true);
  fftwf_destroy_plan(plan);
}

int main() {
  complex_1d_single();
  complex_3d_double_in_place();
  real_2d_double();
  real_1d_single_in_place();
  many_single();
  many_c2r_double();
  guru_double();
  guru64_r2c_single();
  return 0;
}
