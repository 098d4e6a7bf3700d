// cudaLaunchAttributeValue as the driver's CUlaunchAttributeValue: the same union byte for
// byte, with the same attribute ids, so that the runtime's stream, kernel-node and launch
// attributes are the driver's (api/driver/launch_attributes.h), as in NVIDIA's runtime.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <type_traits>

namespace cucpu::runtime {

static_assert(sizeof(cudaLaunchAttributeValue) == sizeof(CUlaunchAttributeValue));
static_assert(std::is_trivially_copyable_v<cudaLaunchAttributeValue>);

inline const CUlaunchAttributeValue& to_driver(const cudaLaunchAttributeValue& value) {
  return reinterpret_cast<const CUlaunchAttributeValue&>(value);
}
inline CUlaunchAttributeValue* to_driver(cudaLaunchAttributeValue* value) {
  return reinterpret_cast<CUlaunchAttributeValue*>(value);
}
inline CUlaunchAttributeID to_driver(cudaLaunchAttributeID attribute) {
  return static_cast<CUlaunchAttributeID>(attribute);
}

}  // namespace cucpu::runtime
