// The device model's answers core hands to exec (device_model_queries.h).
#include "exec/device_model_queries.h"

#include <atomic>

namespace cucpu::exec {
namespace {

std::atomic<const DeviceModelQueries*> provided{nullptr};

}  // namespace

void set_device_model_queries(const DeviceModelQueries* queries) { provided.store(queries, std::memory_order_release); }

const DeviceModelQueries* device_model_queries() { return provided.load(std::memory_order_acquire); }

}  // namespace cucpu::exec
