// cuFFT's executions: each queues its transform on the plan's stream like a kernel
// (libs::enqueue), which checks there that the arrays are device memory. As on the H200,
// every cufftExec* runs the plan's own transform whatever its name says (cufftExecZ2Z on a
// C2C plan runs the C2C one): what it checks is its direction, which must be the plan's
// (either for C2C, CUFFT_FORWARD for R2C, CUFFT_INVERSE for C2R; the R2C functions pass
// CUFFT_FORWARD and the C2R ones CUFFT_INVERSE), else CUFFT_INVALID_VALUE. A plan not made
// (or no plan) is CUFFT_INVALID_PLAN, a null output CUFFT_EXEC_FAILED at the call, a null
// input a fault when the transform runs.
#include <cufft.h>
#include <cufftXt.h>

#include "libs/common/stream_work.h"
#include "libs/cufft/plan.h"

using namespace cucpu::cufft;

namespace {

cufftResult execute(const char* function, cufftHandle handle, void* in, void* out, int direction) {
  auto plan = find_plan(handle);
  if (!plan || !plan->made) return CUFFT_INVALID_PLAN;
  bool valid = plan->kind == Kind::ComplexToComplex
                   ? direction == CUFFT_FORWARD || direction == CUFFT_INVERSE
                   : direction == (plan->kind == Kind::RealToComplex ? CUFFT_FORWARD : CUFFT_INVERSE);
  if (!valid) return CUFFT_INVALID_VALUE;
  if (!out) return CUFFT_EXEC_FAILED;
  std::shared_ptr<const Transform> transform = in == out ? plan->in_place : plan->out_of_place;
  Extent from = transform->input_extent(), to = transform->output_extent();
  auto queued = cucpu::libs::enqueue(plan->stream, function,
                                     {{static_cast<char*>(in) + from.begin, static_cast<size_t>(from.end - from.begin)},
                                      {static_cast<char*>(out) + to.begin, static_cast<size_t>(to.end - to.begin)}},
                                     [transform, in, out, direction] { transform->execute(in, out, direction); });
  return queued ? CUFFT_SUCCESS : CUFFT_EXEC_FAILED;
}

}  // namespace

extern "C" {

cufftResult cufftExecC2C(cufftHandle plan, cufftComplex* idata, cufftComplex* odata, int direction) {
  return execute("cufftExecC2C", plan, idata, odata, direction);
}

cufftResult cufftExecR2C(cufftHandle plan, cufftReal* idata, cufftComplex* odata) {
  return execute("cufftExecR2C", plan, idata, odata, CUFFT_FORWARD);
}

cufftResult cufftExecC2R(cufftHandle plan, cufftComplex* idata, cufftReal* odata) {
  return execute("cufftExecC2R", plan, idata, odata, CUFFT_INVERSE);
}

cufftResult cufftExecZ2Z(cufftHandle plan, cufftDoubleComplex* idata, cufftDoubleComplex* odata, int direction) {
  return execute("cufftExecZ2Z", plan, idata, odata, direction);
}

cufftResult cufftExecD2Z(cufftHandle plan, cufftDoubleReal* idata, cufftDoubleComplex* odata) {
  return execute("cufftExecD2Z", plan, idata, odata, CUFFT_FORWARD);
}

cufftResult cufftExecZ2D(cufftHandle plan, cufftDoubleComplex* idata, cufftDoubleReal* odata) {
  return execute("cufftExecZ2D", plan, idata, odata, CUFFT_INVERSE);
}

cufftResult cufftXtExec(cufftHandle plan, void* input, void* output, int direction) {
  return execute("cufftXtExec", plan, input, output, direction);
}

}  // extern "C"
