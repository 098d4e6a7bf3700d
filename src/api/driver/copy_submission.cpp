// Running a described copy on a driver stream (copy_submission.h).
#include "api/driver/copy_submission.h"

#include "api/driver/driver_state.h"
#include "exec/device_printf.h"

namespace cucpu::driver {

CUresult submit_copy(const Result<core::StridedCopy>& copy, CUstream handle, core::NullStream null_stream,
                     core::HostSync sync) {
  if (!copy) return to_cu_result(copy.error());
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return CUDA_ERROR_INVALID_HANDLE;
  if (core::is_empty(*copy)) return CUDA_SUCCESS;
  if (auto submitted = core::submit_strided_copy(*stream, *copy, sync); !submitted)
    return to_cu_result(submitted.error());
  if (sync == core::HostSync::Asynchronous) return CUDA_SUCCESS;
  exec::flush_device_output();
  return sticky();
}

}  // namespace cucpu::driver
