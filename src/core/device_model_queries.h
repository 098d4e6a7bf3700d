// core's answers to what the device runtime asks of the device model (exec/device_model_queries.h).
#pragma once

namespace cucpu::core {

// Hands exec the device model's answers (device attributes, occupancy); idempotent.
void provide_device_model_queries();

}  // namespace cucpu::core
