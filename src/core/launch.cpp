// Kernel launch: validation with the errors a CUDA 13 GPU returns (all invalid shapes
// are cudaErrorInvalidValue on H100/H200, see tests/e2e/launch_errors.cu), the PTX
// parameter buffer, and the grid run on the executor.
#include "core/launch.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "core/device.h"
#include "core/occupancy.h"
#include "core/sticky_error.h"

namespace cucpu::core {
namespace {

Result<void> check_shape(const jit::KernelInfo& info, const Kernel& kernel, const LaunchRequest& request) {
  using A = DeviceAttribute;
  const exec::Dim3& g = request.grid;
  const exec::Dim3& b = request.block;
  auto invalid = [](std::string why) { return make_error(ErrorCode::InvalidValue, std::move(why)); };
  if (b.x == 0 || b.y == 0 || b.z == 0) return invalid("a block dimension is 0");
  if (g.x == 0 || g.y == 0 || g.z == 0) return invalid("a grid dimension is 0");
  if (b.x > uint32_t(device_attribute(A::cudaDevAttrMaxBlockDimX)) ||
      b.y > uint32_t(device_attribute(A::cudaDevAttrMaxBlockDimY)) ||
      b.z > uint32_t(device_attribute(A::cudaDevAttrMaxBlockDimZ)))
    return invalid(fmt::format("block ({}, {}, {}) exceeds the maximum block dimensions", b.x, b.y, b.z));
  if (b.count() > uint64_t(device_attribute(A::cudaDevAttrMaxThreadsPerBlock)))
    return invalid(fmt::format("{} threads per block exceed the device's limit", b.count()));
  if (g.x > uint32_t(device_attribute(A::cudaDevAttrMaxGridDimX)) ||
      g.y > uint32_t(device_attribute(A::cudaDevAttrMaxGridDimY)) ||
      g.z > uint32_t(device_attribute(A::cudaDevAttrMaxGridDimZ)))
    return invalid(fmt::format("grid ({}, {}, {}) exceeds the maximum grid dimensions", g.x, g.y, g.z));
  if (request.dynamic_shared_bytes > size_t(kernel.max_dynamic_shared_bytes))
    return invalid(fmt::format("{} bytes of dynamic shared memory exceed the kernel's limit of {}",
                               request.dynamic_shared_bytes, kernel.max_dynamic_shared_bytes));
  if (info.dynamic_shared_offset + request.dynamic_shared_bytes >
      size_t(device_attribute(A::cudaDevAttrMaxSharedMemoryPerBlockOptin)))
    return invalid("static and dynamic shared memory exceed the device's shared memory per block");
  if (b.count() > info.max_threads_per_block)
    return make_error(ErrorCode::LaunchOutOfResources,
                      fmt::format("{} threads per block exceed the kernel's launch bounds ({})", b.count(),
                                  info.max_threads_per_block));
  if (info.reqntid[0] != 0 && (b.x != info.reqntid[0] || b.y != std::max(info.reqntid[1], 1u) ||
                               b.z != std::max(info.reqntid[2], 1u)))
    return invalid("the block shape differs from the kernel's required block size (.reqntid)");
  return {};
}

}  // namespace

Result<void> launch_kernel(const Kernel& kernel, const LaunchRequest& request) {
  auto info = modules().load_kernel(kernel);
  if (!info) return info.error();
  if (auto checked = check_shape(**info, kernel, request); !checked) return checked;
  if (request.cooperative) {
    // As many blocks as the device holds at once, no more (what the GPU allows).
    const uint64_t resident =
        uint64_t(max_active_blocks_per_sm(static_cast<uint32_t>(request.block.count()),
                                          (*info)->dynamic_shared_offset + request.dynamic_shared_bytes,
                                          kRegistersPerThread)) *
        uint64_t(device_attribute(DeviceAttribute::cudaDevAttrMultiProcessorCount));
    if (request.grid.count() > resident)
      return make_error(ErrorCode::CooperativeLaunchTooLarge,
                        fmt::format("cooperative grid of {} blocks exceeds the {} the device holds at once",
                                    request.grid.count(), resident));
  }

  // The PTX parameter buffer: each argument copied to its slot. 16-byte aligned storage
  // because .param alignments go up to 16 (and struct arguments may ask for more).
  std::vector<std::max_align_t> storage(((*info)->param_bytes + sizeof(std::max_align_t) - 1) /
                                            sizeof(std::max_align_t) + 1);
  auto* buffer = reinterpret_cast<uint8_t*>(storage.data());
  for (size_t i = 0; i < (*info)->params.size(); ++i) {
    const jit::ParamSlot& slot = (*info)->params[i];
    if (!request.args || !request.args[i])
      return make_error(ErrorCode::InvalidValue, fmt::format("argument {} of {} is missing", i, kernel.device_name));
    std::memcpy(buffer + slot.offset, request.args[i], slot.size);
  }

  exec::LaunchShape shape{request.grid, request.block, static_cast<uint32_t>(request.dynamic_shared_bytes)};
  exec::GridExecutor& executor = exec::GridExecutor::instance();
  auto ran = request.cooperative ? executor.run_cooperative_grid(**info, shape, buffer)
                                 : executor.run_grid(**info, shape, buffer);
  if (!ran) {
    // A fault inside the kernel: the context is broken from now on, as on the GPU.
    Error error = ran.error();
    error.message = fmt::format("kernel {}: {}", kernel.device_name, error.message);
    std::fprintf(stderr, "cucpu: %s\n", error.message.c_str());
    set_sticky_error(error);
    // Kernel faults are asynchronous on the GPU: the launch itself succeeded, and the
    // next synchronising call reports the (sticky) error.
    return {};
  }
  return {};
}

}  // namespace cucpu::core
