// Kernel launch: validation with the errors a CUDA 13 GPU returns (all invalid shapes
// are cudaErrorInvalidValue on H100/H200, see tests/e2e/launch_errors.cu), the PTX
// parameter buffer, and the grid queued on its stream, to run on the executor.
#include "core/launch.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "core/cluster_launch.h"
#include "core/device.h"
#include "core/graph.h"
#include "core/occupancy.h"
#include "core/sticky_error.h"
#include "core/stream_engine.h"

namespace cucpu::core {
namespace {

// The device's launch limits, read once: a launch checks them all.
struct LaunchLimits {
  uint32_t block[3], threads_per_block, grid[3], shared_per_block_optin;
};

const LaunchLimits& launch_limits() {
  using A = DeviceAttribute;
  auto get = [](A attribute) { return static_cast<uint32_t>(device_attribute(attribute)); };
  static const LaunchLimits limits{
      {get(A::cudaDevAttrMaxBlockDimX), get(A::cudaDevAttrMaxBlockDimY), get(A::cudaDevAttrMaxBlockDimZ)},
      get(A::cudaDevAttrMaxThreadsPerBlock),
      {get(A::cudaDevAttrMaxGridDimX), get(A::cudaDevAttrMaxGridDimY), get(A::cudaDevAttrMaxGridDimZ)},
      get(A::cudaDevAttrMaxSharedMemoryPerBlockOptin)};
  return limits;
}

Result<void> check_shape(const jit::KernelInfo& info, const Kernel& kernel, const LaunchRequest& request) {
  const LaunchLimits& limits = launch_limits();
  const exec::Dim3& g = request.grid;
  const exec::Dim3& b = request.block;
  auto invalid = [](std::string why) { return make_error(ErrorCode::InvalidValue, std::move(why)); };
  if (b.x == 0 || b.y == 0 || b.z == 0) return invalid("a block dimension is 0");
  if (g.x == 0 || g.y == 0 || g.z == 0) return invalid("a grid dimension is 0");
  if (b.x > limits.block[0] || b.y > limits.block[1] || b.z > limits.block[2])
    return invalid(fmt::format("block ({}, {}, {}) exceeds the maximum block dimensions", b.x, b.y, b.z));
  if (b.count() > limits.threads_per_block)
    return invalid(fmt::format("{} threads per block exceed the device's limit", b.count()));
  if (g.x > limits.grid[0] || g.y > limits.grid[1] || g.z > limits.grid[2])
    return invalid(fmt::format("grid ({}, {}, {}) exceeds the maximum grid dimensions", g.x, g.y, g.z));
  const size_t dynamic_limit = max_dynamic_shared_bytes(kernel.max_dynamic_shared_bytes, info.static_shared_bytes);
  if (request.dynamic_shared_bytes > dynamic_limit)
    return invalid(fmt::format("{} bytes of dynamic shared memory exceed the kernel's limit of {}",
                               request.dynamic_shared_bytes, dynamic_limit));
  if (info.dynamic_shared_offset + request.dynamic_shared_bytes > limits.shared_per_block_optin)
    return invalid("static and dynamic shared memory exceed the device's shared memory per block");
  const uint32_t thread_limit =
      max_threads_per_block(info.max_threads_per_block, kernel.module->registers_per_thread(kernel.device_name));
  if (b.count() > thread_limit)
    return make_error(ErrorCode::LaunchOutOfResources,
                      fmt::format("{} threads per block exceed what the kernel's launch bounds and registers allow ({})",
                                  b.count(), thread_limit));
  if (info.reqntid[0] != 0 && (b.x != info.reqntid[0] || b.y != std::max(info.reqntid[1], 1u) ||
                               b.z != std::max(info.reqntid[2], 1u)))
    return invalid("the block shape differs from the kernel's required block size (.reqntid)");
  return {};
}

}  // namespace

PreparedLaunch::PreparedLaunch(const jit::KernelInfo& info, const LaunchRequest& request)
    : info_(info),
      shape_{request.grid, request.block, static_cast<uint32_t>(request.dynamic_shared_bytes)},
      cooperative_(request.cooperative) {
  const std::size_t slots = (info.param_bytes + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t) + 1;
  if (slots > kInlineParamSlots) large_params_.resize(slots);
}

void PreparedLaunch::run() const {
  exec::GridExecutor& executor = exec::GridExecutor::instance();
  // The priority is the stream's that runs the launch now: a graph's kernels take the
  // priority of the stream the graph is launched into.
  exec::LaunchShape shape = shape_;
  shape.priority = running_stream_priority();
  shape.gridid = running_graph_node_gridid();  // 0 outside a graph: the executor draws one
  auto ran = cooperative_ ? executor.run_cooperative_grid(info_, shape, param_slots())
                          : executor.run_grid(info_, shape, param_slots());
  if (!ran) {
    // A fault inside the kernel: the context is broken from now on, as on the GPU, and
    // the next synchronising call reports it (kernel faults are asynchronous).
    Error error = ran.error();
    error.message = fmt::format("kernel {}: {}", info_.name, error.message);
    std::fprintf(stderr, "cucpu: %s\n", error.message.c_str());
    set_sticky_error(error);
  }
}

Result<std::shared_ptr<const PreparedLaunch>> prepare_launch(const Kernel& kernel, const LaunchRequest& request) {
  auto info = modules().load_kernel(kernel);
  if (!info) return info.error();
  if (auto checked = check_shape(**info, kernel, request); !checked) return checked.error();
  auto cluster = resolve_cluster_dims(**info, kernel, request);
  if (!cluster) return cluster.error();
  if (request.cooperative) {
    // As many blocks as the device holds at once, no more (what the GPU allows).
    const uint64_t resident =
        uint64_t(max_active_blocks_per_sm(static_cast<uint32_t>(request.block.count()),
                                          (*info)->dynamic_shared_offset + request.dynamic_shared_bytes,
                                          kernel.module->registers_per_thread(kernel.device_name))) *
        uint64_t(device_attribute(DeviceAttribute::cudaDevAttrMultiProcessorCount));
    if (request.grid.count() > resident)
      return make_error(ErrorCode::CooperativeLaunchTooLarge,
                        fmt::format("cooperative grid of {} blocks exceeds the {} the device holds at once",
                                    request.grid.count(), resident));
  }

  // The PTX parameter buffer: each argument copied to its slot now, so that the caller
  // may change its arguments as soon as the launch returns.
  auto launch = std::make_shared<PreparedLaunch>(**info, request);
  launch->set_cluster(*cluster, request.explicit_cluster || required_cluster_dims(**info, kernel).count() != 0);
  for (size_t i = 0; i < (*info)->params.size(); ++i) {
    const jit::ParamSlot& slot = (*info)->params[i];
    if (!request.args || !request.args[i])
      return make_error(ErrorCode::InvalidValue, fmt::format("argument {} of {} is missing", i, kernel.device_name));
    std::memcpy(launch->params() + slot.offset, request.args[i], slot.size);
  }
  return std::shared_ptr<const PreparedLaunch>(std::move(launch));
}

Command kernel_command(std::shared_ptr<const PreparedLaunch> launch) {
  Command command;
  command.kind = CommandKind::Kernel;
  command.run = [launch = std::move(launch)] { launch->run(); };
  return command;
}

Result<void> launch_kernel(const Kernel& kernel, const LaunchRequest& request, Stream& stream) {
  auto launch = prepare_launch(kernel, request);
  if (!launch) return launch.error();
  auto queued = StreamEngine::instance().enqueue(stream, kernel_command(std::move(*launch)));
  if (!queued) return queued.error();
  // CUDA_LAUNCH_BLOCKING=1: every launch synchronous, for debugging (CUDA Programming
  // Guide "CUDA Environment Variables").
  static const bool blocking = [] {
    const char* value = std::getenv("CUDA_LAUNCH_BLOCKING");
    return value && std::string_view(value) == "1";
  }();
  if (blocking) (*queued)->wait();
  return {};
}

}  // namespace cucpu::core
