// cuFFT's plans: the handle table, the checks of a plan's request (the statuses an H200
// returned for each kind of bad argument) and the shapes its transforms take.
#include "libs/cufft/plan.h"

#include <map>
#include <mutex>

#include "libs/common/missing_function.h"

namespace cucpu::cufft {
namespace {

std::mutex plans_mutex;
std::map<cufftHandle, std::shared_ptr<Plan>> plans;
cufftHandle next_handle = 1;

// The shape of `request`'s transform in or out of place: the axes' strides are the
// layout's stride times the embedding's size below each axis.
Shape shape_of(const Request& request, bool in_place) {
  long long in_embed[3], out_embed[3], istride = request.istride, ostride = request.ostride;
  long long idist = request.idist, odist = request.odist;
  int last = request.rank - 1;
  if (request.advanced) {
    std::copy(request.inembed, request.inembed + 3, in_embed);
    std::copy(request.onembed, request.onembed + 3, out_embed);
  } else {
    // cuFFT's basic layout (the cuFFT guide, "Data Layout"): dense, the complex side of
    // R2C/C2R cut to n/2+1 along the last axis, the real side of an in-place one padded to
    // 2 * (n/2+1) there.
    std::copy(request.n, request.n + 3, in_embed);
    std::copy(request.n, request.n + 3, out_embed);
    long long half = request.n[last] / 2 + 1;
    if (request.kind == Kind::RealToComplex) {
      out_embed[last] = half;
      if (in_place) in_embed[last] = 2 * half;
    } else if (request.kind == Kind::ComplexToReal) {
      in_embed[last] = half;
      if (in_place) out_embed[last] = 2 * half;
    }
    istride = ostride = idist = odist = 1;
    for (int k = 0; k < request.rank; ++k) idist *= in_embed[k], odist *= out_embed[k];
  }
  Shape shape{request.precision, request.kind, {}, {{request.batch, idist, odist}}};
  for (int k = 0; k < request.rank; ++k) {
    long long in_step = istride, out_step = ostride;
    for (int j = k + 1; j < request.rank; ++j) in_step *= in_embed[j], out_step *= out_embed[j];
    shape.axes.push_back({request.n[k], in_step, out_step});
  }
  return shape;
}

}  // namespace

template <typename Int>
cufftResult read_request(int rank, const Int* n, const Int* inembed, long long istride, long long idist,
                         const Int* onembed, long long ostride, long long odist, long long batch, Request& request) {
  if (!n || rank < 1 || rank > 3) return CUFFT_INVALID_VALUE;
  request.rank = rank;
  // The last axis of R2C/C2R is checked as its complex size n/2+1: 0 passes there, and the
  // plan then fails with CUFFT_INTERNAL_ERROR (the H200's answer to cufftPlan3d(4, 4, 0, R2C)).
  bool halved = request.kind != Kind::ComplexToComplex;
  bool internal_error = false;
  for (int k = 0; k < rank; ++k) {
    bool last = k == rank - 1;
    if ((last && halved ? n[k] / 2 + 1 : n[k]) <= 0) return CUFFT_INVALID_SIZE;
    internal_error |= n[k] <= 0;
    request.n[k] = n[k];
  }
  if (batch <= 0) return CUFFT_INVALID_SIZE;
  if (internal_error) return CUFFT_INTERNAL_ERROR;
  request.batch = batch;
  // Embeddings come both or neither; given, the strides and (for several transforms) the
  // distances must be positive. An embedding smaller than n passes, as on the GPU.
  if (!inembed != !onembed) return CUFFT_INVALID_VALUE;
  request.advanced = inembed != nullptr;
  if (!request.advanced) return CUFFT_SUCCESS;
  if (istride <= 0 || ostride <= 0 || (batch > 1 && (idist <= 0 || odist <= 0))) return CUFFT_INVALID_VALUE;
  for (int k = 0; k < rank; ++k) {
    request.inembed[k] = inembed[k];
    request.onembed[k] = onembed[k];
  }
  request.istride = istride, request.idist = idist, request.ostride = ostride, request.odist = odist;
  return CUFFT_SUCCESS;
}

template cufftResult read_request<int>(int, const int*, const int*, long long, long long, const int*, long long,
                                       long long, long long, Request&);
template cufftResult read_request<long long>(int, const long long*, const long long*, long long, long long,
                                             const long long*, long long, long long, long long, Request&);

bool read_type(cufftType type, Kind& kind, Precision& precision) {
  switch (type) {
    case CUFFT_C2C:
      kind = Kind::ComplexToComplex, precision = Precision::Single;
      return true;
    case CUFFT_R2C:
      kind = Kind::RealToComplex, precision = Precision::Single;
      return true;
    case CUFFT_C2R:
      kind = Kind::ComplexToReal, precision = Precision::Single;
      return true;
    case CUFFT_Z2Z:
      kind = Kind::ComplexToComplex, precision = Precision::Double;
      return true;
    case CUFFT_D2Z:
      kind = Kind::RealToComplex, precision = Precision::Double;
      return true;
    case CUFFT_Z2D:
      kind = Kind::ComplexToReal, precision = Precision::Double;
      return true;
  }
  return false;
}

cufftResult make_plan(Plan& plan, const Request& request) {
  auto out_of_place = std::make_shared<Transform>(shape_of(request, false));
  if (!out_of_place->prepare(false)) {
    libs::report_missing_function("cufftMakePlan (a layout FFTW cannot plan)", "CUFFT_NOT_SUPPORTED");
    return CUFFT_NOT_SUPPORTED;
  }
  std::shared_ptr<Transform> in_place = out_of_place;
  if (!request.advanced && request.kind != Kind::ComplexToComplex)
    in_place = std::make_shared<Transform>(shape_of(request, true));
  in_place->prepare(true);
  plan.kind = request.kind;
  plan.precision = request.precision;
  plan.out_of_place = std::move(out_of_place);
  plan.in_place = std::move(in_place);
  plan.made = true;
  return CUFFT_SUCCESS;
}

cufftHandle add_plan() {
  std::lock_guard lock(plans_mutex);
  cufftHandle handle = next_handle++;
  plans[handle] = std::make_shared<Plan>();
  return handle;
}

std::shared_ptr<Plan> find_plan(cufftHandle handle) {
  std::lock_guard lock(plans_mutex);
  auto found = plans.find(handle);
  return found == plans.end() ? nullptr : found->second;
}

bool remove_plan(cufftHandle handle) {
  std::shared_ptr<Plan> plan;  // released after the lock: its FFTW plans are destroyed under the planner's
  std::lock_guard lock(plans_mutex);
  auto found = plans.find(handle);
  if (found == plans.end()) return false;
  plan = std::move(found->second);
  plans.erase(found);
  return true;
}

}  // namespace cucpu::cufft
