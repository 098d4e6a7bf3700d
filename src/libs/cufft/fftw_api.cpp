// libcufftw.so.12: cuFFTW, the FFTW interface of cuFFT (cufftw.h), over the Transforms of
// transform.h and so over cuFFT's private FFTW. cuFFTW works on host arrays (and device
// ones) and returns when the transform is done; its plan flags have values of their own
// and are all taken as FFTW_ESTIMATE: planning never touches the arrays (the H200's
// cuFFTW left them as they were after FFTW_MEASURE too). Measured on the H200, cuFFTW
// never overwrites the input of an out-of-place transform, C2R included: neither does this.
// fftw_cost, fftw_flops and fftw_print_plan answer with FFTW's values for the plan FFTW
// made (cuFFTW answers 1 and "Unsupported.").
#include <cufftw.h>

#include <memory>
#include <vector>

#include "libs/common/stream_work.h"
#include "libs/cufft/transform.h"

using namespace cucpu::cufft;

namespace {

struct CufftwPlan {
  std::unique_ptr<Transform> transform;
  void* in;
  void* out;
  int sign;
};

// A plan of `axes` repeated over `batches`; null (as cuFFTW's) where a size is not positive
// or FFTW cannot plan it.
void* make(Precision precision, Kind kind, std::vector<Axis> axes, std::vector<Axis> batches, void* in, void* out,
           int sign) {
  if (axes.empty()) return nullptr;
  for (const Axis& axis : axes)
    if (axis.size <= 0) return nullptr;
  for (const Axis& batch : batches)
    if (batch.size <= 0) return nullptr;
  auto transform = std::make_unique<Transform>(Shape{precision, kind, std::move(axes), std::move(batches)});
  if (!transform->prepare(in == out)) return nullptr;
  return new CufftwPlan{std::move(transform), in, out, sign > 0 ? 1 : -1};
}

// fftw_plan_many_dft and its R2C/C2R kin. A null embedding is FFTW's default: n, with the
// complex side of R2C/C2R cut to n/2+1 along the last axis and the real side of an
// in-place one padded to 2 * (n/2+1).
void* make_many(Precision precision, Kind kind, int rank, const int* n, int howmany, void* in, const int* inembed,
                int istride, int idist, void* out, const int* onembed, int ostride, int odist, int sign) {
  if (rank < 1 || !n) return nullptr;
  std::vector<long long> in_embed(n, n + rank), out_embed(n, n + rank);
  long long half = n[rank - 1] / 2 + 1, padded = in == out ? 2 * half : n[rank - 1];
  if (kind == Kind::RealToComplex) in_embed.back() = padded, out_embed.back() = half;
  if (kind == Kind::ComplexToReal) in_embed.back() = half, out_embed.back() = padded;
  if (inembed) in_embed.assign(inembed, inembed + rank);
  if (onembed) out_embed.assign(onembed, onembed + rank);
  std::vector<Axis> axes;
  for (int k = 0; k < rank; ++k) {
    long long in_step = istride, out_step = ostride;
    for (int j = k + 1; j < rank; ++j) in_step *= in_embed[j], out_step *= out_embed[j];
    axes.push_back({n[k], in_step, out_step});
  }
  return make(precision, kind, std::move(axes), {{howmany, idist, odist}}, in, out, sign);
}

void* make_dense(Precision precision, Kind kind, std::vector<int> n, void* in, void* out, int sign) {
  return make_many(precision, kind, static_cast<int>(n.size()), n.data(), 1, in, nullptr, 1, 0, out, nullptr, 1, 0,
                   sign);
}

template <typename Dimension>
std::vector<Axis> axes_of(int rank, const Dimension* dims) {
  std::vector<Axis> axes;
  for (int k = 0; k < rank && dims; ++k) axes.push_back({dims[k].n, dims[k].is, dims[k].os});
  return axes;
}

template <typename Dimension>
void* make_guru(Precision precision, Kind kind, int rank, const Dimension* dims, int batch_rank,
                const Dimension* batch_dims, void* in, void* out, int sign) {
  if (rank < 1 || batch_rank < 0) return nullptr;
  return make(precision, kind, axes_of(rank, dims), axes_of(batch_rank, batch_dims), in, out, sign);
}

// Runs `plan` on `in` and `out` and returns when it is done. Device arrays are read after
// the work queued before on the legacy stream, as cuFFTW's copies would be.
void run(const void* plan, void* in, void* out) {
  auto cufftw = static_cast<const CufftwPlan*>(plan);
  if (!cufftw) return;
  if (cucpu::libs::is_device_memory({in, 1}) || cucpu::libs::is_device_memory({out, 1}))
    (void)cucpu::libs::synchronize(nullptr);
  cufftw->transform->execute(in, out, cufftw->sign, true);
}

const Transform* transform_of(const void* plan) {
  return plan ? static_cast<const CufftwPlan*>(plan)->transform.get() : nullptr;
}

}  // namespace

// The API of one precision: X names a function, R is the real type, C the complex one.
#define CUCPU_CUFFTW_API(X, R, C, PRECISION)                                                                         \
  X(plan) X(plan_dft_1d)(int n, C* in, C* out, int sign, unsigned) {                                                 \
    return make_dense(PRECISION, Kind::ComplexToComplex, {n}, in, out, sign);                                        \
  }                                                                                                                  \
  X(plan) X(plan_dft_2d)(int n0, int n1, C* in, C* out, int sign, unsigned) {                                        \
    return make_dense(PRECISION, Kind::ComplexToComplex, {n0, n1}, in, out, sign);                                   \
  }                                                                                                                  \
  X(plan) X(plan_dft_3d)(int n0, int n1, int n2, C* in, C* out, int sign, unsigned) {                                \
    return make_dense(PRECISION, Kind::ComplexToComplex, {n0, n1, n2}, in, out, sign);                               \
  }                                                                                                                  \
  X(plan) X(plan_dft)(int rank, const int* n, C* in, C* out, int sign, unsigned) {                                   \
    return make_many(PRECISION, Kind::ComplexToComplex, rank, n, 1, in, nullptr, 1, 0, out, nullptr, 1, 0, sign);    \
  }                                                                                                                  \
  X(plan) X(plan_dft_r2c_1d)(int n, R* in, C* out, unsigned) {                                                       \
    return make_dense(PRECISION, Kind::RealToComplex, {n}, in, out, -1);                                             \
  }                                                                                                                  \
  X(plan) X(plan_dft_r2c_2d)(int n0, int n1, R* in, C* out, unsigned) {                                              \
    return make_dense(PRECISION, Kind::RealToComplex, {n0, n1}, in, out, -1);                                        \
  }                                                                                                                  \
  X(plan) X(plan_dft_r2c_3d)(int n0, int n1, int n2, R* in, C* out, unsigned) {                                      \
    return make_dense(PRECISION, Kind::RealToComplex, {n0, n1, n2}, in, out, -1);                                    \
  }                                                                                                                  \
  X(plan) X(plan_dft_r2c)(int rank, const int* n, R* in, C* out, unsigned) {                                         \
    return make_many(PRECISION, Kind::RealToComplex, rank, n, 1, in, nullptr, 1, 0, out, nullptr, 1, 0, -1);         \
  }                                                                                                                  \
  X(plan) X(plan_dft_c2r_1d)(int n, C* in, R* out, unsigned) {                                                       \
    return make_dense(PRECISION, Kind::ComplexToReal, {n}, in, out, 1);                                              \
  }                                                                                                                  \
  X(plan) X(plan_dft_c2r_2d)(int n0, int n1, C* in, R* out, unsigned) {                                              \
    return make_dense(PRECISION, Kind::ComplexToReal, {n0, n1}, in, out, 1);                                         \
  }                                                                                                                  \
  X(plan) X(plan_dft_c2r_3d)(int n0, int n1, int n2, C* in, R* out, unsigned) {                                      \
    return make_dense(PRECISION, Kind::ComplexToReal, {n0, n1, n2}, in, out, 1);                                     \
  }                                                                                                                  \
  X(plan) X(plan_dft_c2r)(int rank, const int* n, C* in, R* out, unsigned) {                                         \
    return make_many(PRECISION, Kind::ComplexToReal, rank, n, 1, in, nullptr, 1, 0, out, nullptr, 1, 0, 1);          \
  }                                                                                                                  \
  X(plan)                                                                                                            \
  X(plan_many_dft)                                                                                                   \
  (int rank, const int* n, int batch, C* in, const int* inembed, int istride, int idist, C* out, const int* onembed, \
   int ostride, int odist, int sign, unsigned) {                                                                     \
    return make_many(PRECISION, Kind::ComplexToComplex, rank, n, batch, in, inembed, istride, idist, out, onembed,   \
                     ostride, odist, sign);                                                                          \
  }                                                                                                                  \
  X(plan)                                                                                                            \
  X(plan_many_dft_r2c)                                                                                               \
  (int rank, const int* n, int batch, R* in, const int* inembed, int istride, int idist, C* out, const int* onembed, \
   int ostride, int odist, unsigned) {                                                                               \
    return make_many(PRECISION, Kind::RealToComplex, rank, n, batch, in, inembed, istride, idist, out, onembed,      \
                     ostride, odist, -1);                                                                            \
  }                                                                                                                  \
  X(plan)                                                                                                            \
  X(plan_many_dft_c2r)                                                                                               \
  (int rank, const int* n, int batch, C* in, const int* inembed, int istride, int idist, R* out, const int* onembed, \
   int ostride, int odist, unsigned) {                                                                               \
    return make_many(PRECISION, Kind::ComplexToReal, rank, n, batch, in, inembed, istride, idist, out, onembed,      \
                     ostride, odist, 1);                                                                             \
  }                                                                                                                  \
  X(plan)                                                                                                            \
  X(plan_guru_dft)                                                                                                   \
  (int rank, const X(iodim) * dims, int batch_rank, const X(iodim) * batch_dims, C * in, C * out, int sign,          \
   unsigned) {                                                                                                       \
    return make_guru(PRECISION, Kind::ComplexToComplex, rank, dims, batch_rank, batch_dims, in, out, sign);          \
  }                                                                                                                  \
  X(plan)                                                                                                            \
  X(plan_guru_dft_r2c)                                                                                               \
  (int rank, const X(iodim) * dims, int batch_rank, const X(iodim) * batch_dims, R * in, C * out, unsigned) {        \
    return make_guru(PRECISION, Kind::RealToComplex, rank, dims, batch_rank, batch_dims, in, out, -1);               \
  }                                                                                                                  \
  X(plan)                                                                                                            \
  X(plan_guru_dft_c2r)                                                                                               \
  (int rank, const X(iodim) * dims, int batch_rank, const X(iodim) * batch_dims, C * in, R * out, unsigned) {        \
    return make_guru(PRECISION, Kind::ComplexToReal, rank, dims, batch_rank, batch_dims, in, out, 1);                \
  }                                                                                                                  \
  X(plan)                                                                                                            \
  X(plan_guru64_dft)                                                                                                 \
  (int rank, const X(iodim64) * dims, int batch_rank, const X(iodim64) * batch_dims, C * in, C * out, int sign,      \
   unsigned) {                                                                                                       \
    return make_guru(PRECISION, Kind::ComplexToComplex, rank, dims, batch_rank, batch_dims, in, out, sign);          \
  }                                                                                                                  \
  X(plan)                                                                                                            \
  X(plan_guru64_dft_r2c)                                                                                             \
  (int rank, const X(iodim64) * dims, int batch_rank, const X(iodim64) * batch_dims, R * in, C * out, unsigned) {    \
    return make_guru(PRECISION, Kind::RealToComplex, rank, dims, batch_rank, batch_dims, in, out, -1);               \
  }                                                                                                                  \
  X(plan)                                                                                                            \
  X(plan_guru64_dft_c2r)                                                                                             \
  (int rank, const X(iodim64) * dims, int batch_rank, const X(iodim64) * batch_dims, C * in, R * out, unsigned) {    \
    return make_guru(PRECISION, Kind::ComplexToReal, rank, dims, batch_rank, batch_dims, in, out, 1);                \
  }                                                                                                                  \
  void X(execute)(const X(plan) plan) {                                                                              \
    if (plan) run(plan, static_cast<const CufftwPlan*>(plan)->in, static_cast<const CufftwPlan*>(plan)->out);        \
  }                                                                                                                  \
  void X(execute_dft)(const X(plan) plan, C* idata, C* odata) { run(plan, idata, odata); }                           \
  void X(execute_dft_r2c)(const X(plan) plan, R* idata, C* odata) { run(plan, idata, odata); }                       \
  void X(execute_dft_c2r)(const X(plan) plan, C* idata, R* odata) { run(plan, idata, odata); }                       \
  void X(destroy_plan)(X(plan) plan) { delete static_cast<CufftwPlan*>(plan); }                                      \
  void* X(malloc)(size_t n) { return allocate(n); }                                                                  \
  void X(free)(void* pointer) { release(pointer); }                                                                  \
  /* FFTW's cleanup would free what live plans use: forgetting wisdom is what remains safe. */                       \
  void X(cleanup)(void) { forget_wisdom(PRECISION == Precision::Single); }                                           \
  void X(export_wisdom_to_file)(FILE * output_file) { export_wisdom(output_file, PRECISION == Precision::Single); }  \
  int X(import_wisdom_from_file)(FILE * input_file) {                                                                \
    return import_wisdom(input_file, PRECISION == Precision::Single);                                                \
  }                                                                                                                  \
  void X(print_plan)(const X(plan) plan) {                                                                           \
    if (const Transform* transform = transform_of(plan)) transform->print(stdout);                                   \
  }                                                                                                                  \
  void X(set_timelimit)(double) {} /* planning is always FFTW_ESTIMATE: nothing to limit */                          \
  double X(cost)(const X(plan) plan) {                                                                               \
    const Transform* transform = transform_of(plan);                                                                 \
    return transform ? transform->cost() : 0;                                                                        \
  }                                                                                                                  \
  void X(flops)(const X(plan) plan, double* add, double* mul, double* fma) {                                         \
    *add = *mul = *fma = 0;                                                                                          \
    if (const Transform* transform = transform_of(plan)) transform->flops(add, mul, fma);                            \
  }

#define CUCPU_CUFFTW_DOUBLE(name) fftw_##name
#define CUCPU_CUFFTW_SINGLE(name) fftwf_##name

extern "C" {
CUCPU_CUFFTW_API(CUCPU_CUFFTW_DOUBLE, double, fftw_complex, Precision::Double)
CUCPU_CUFFTW_API(CUCPU_CUFFTW_SINGLE, float, fftwf_complex, Precision::Single)
}
