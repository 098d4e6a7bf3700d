// cudaArray_t <-> core::CudaArray: a handle is the array's address, valid while the
// array is live (core/cuda_array.h keeps the set).
#pragma once

#include <cuda_runtime_api.h>

#include "core/cuda_array.h"

namespace cucpu::runtime {

// nullptr for a null handle or one that names no live array.
inline core::CudaArray* to_array(cudaArray_const_t handle) { return core::find_array(handle); }

}  // namespace cucpu::runtime
