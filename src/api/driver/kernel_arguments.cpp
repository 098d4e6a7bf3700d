// A launch's arguments through the driver (kernel_arguments.h).
#include "api/driver/kernel_arguments.h"

#include "api/driver/driver_state.h"

namespace cucpu::driver {
namespace {

CUresult unpack_extra(void** extra, const jit::KernelInfo& info, std::vector<void*>* args) {
  char* buffer = nullptr;
  size_t* size = nullptr;
  for (void** option = extra; *option != CU_LAUNCH_PARAM_END; option += 2) {
    if (*option == CU_LAUNCH_PARAM_BUFFER_POINTER) {
      buffer = static_cast<char*>(option[1]);
    } else if (*option == CU_LAUNCH_PARAM_BUFFER_SIZE) {
      size = static_cast<size_t*>(option[1]);
    } else {
      return CUDA_ERROR_INVALID_VALUE;
    }
  }
  if (!info.params.empty() && (!buffer || !size || *size < info.param_bytes)) return CUDA_ERROR_INVALID_VALUE;
  for (const jit::ParamSlot& slot : info.params) args->push_back(buffer + slot.offset);
  return CUDA_SUCCESS;
}

}  // namespace

CUresult kernel_arguments(core::Kernel& kernel, void** params, void** extra, std::vector<void*>* unpacked,
                          void*** args) {
  if (params && extra) return CUDA_ERROR_INVALID_VALUE;
  *args = params;
  if (!extra) return CUDA_SUCCESS;
  auto info = core::modules().load_kernel(kernel);
  if (!info) return to_cu_result(info.error());
  if (CUresult bad = unpack_extra(extra, **info, unpacked); bad != CUDA_SUCCESS) return bad;
  *args = unpacked->data();
  return CUDA_SUCCESS;
}

}  // namespace cucpu::driver
