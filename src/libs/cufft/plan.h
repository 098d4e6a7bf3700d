// A cuFFT plan (a cufftHandle) and the layouts it runs on: what cufftPlanMany and its
// relatives ask for (Request), checked as cuFFT checks it, and the Transforms it becomes.
#pragma once

#include <cufft.h>

#include <memory>

#include "libs/cufft/transform.h"

namespace cucpu::cufft {

// A plan's sizes and layout, in 64-bit integers whatever the entry point took.
struct Request {
  int rank = 0;
  long long n[3] = {};
  // Whether embeddings were given (the advanced layout); without them, cuFFT's basic layout
  // (dense, the real side of an in-place R2C/C2R padded), whatever the strides say.
  bool advanced = false;
  long long inembed[3] = {}, istride = 1, idist = 0;
  long long onembed[3] = {}, ostride = 1, odist = 0;
  long long batch = 1;
  Kind kind = Kind::ComplexToComplex;
  Precision precision = Precision::Single;
};

// Reads cufftPlanMany-style arguments into `request` (whose kind is already read), checking
// them as cuFFT 12 does on an H200: the status cuFFT returns for them, CUFFT_SUCCESS where
// they can be planned.
template <typename Int>
cufftResult read_request(int rank, const Int* n, const Int* inembed, long long istride, long long idist,
                         const Int* onembed, long long ostride, long long odist, long long batch, Request& request);

// The transform kind and precision of a cuFFT type; false where it is none.
bool read_type(cufftType type, Kind& kind, Precision& precision);

struct Plan {
  bool made = false;
  Kind kind = Kind::ComplexToComplex;
  Precision precision = Precision::Single;
  cudaStream_t stream = nullptr;  // NULL: the legacy default stream
  void* work_area = nullptr;      // cufftSetWorkArea: kept, FFTW needs none from us
  bool auto_allocation = true;
  long long patient_jit = 0;  // NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT: kept, nothing to JIT
  // The transforms of out-of-place and in-place executions: one and the same unless the
  // basic layout pads an in-place R2C/C2R's real side.
  std::shared_ptr<const Transform> out_of_place, in_place;
};

// Makes `plan` what `request` describes (cufftMakePlan*): plans its FFTW transforms.
cufftResult make_plan(Plan& plan, const Request& request);

// The handle table. Handles count from 1, as cuFFT's do.
cufftHandle add_plan();
std::shared_ptr<Plan> find_plan(cufftHandle handle);
bool remove_plan(cufftHandle handle);

}  // namespace cucpu::cufft
