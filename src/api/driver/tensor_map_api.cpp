// Tensor maps for TMA (cuTensorMapEncodeTiled): checked and laid out by the JIT's tensor
// map code (jit/tensor_map.h), which the kernels' cp.async.bulk.tensor reads. Programs
// without -lcuda reach it through cudaGetDriverEntryPoint. cuTensorMapEncodeIm2col is not
// implemented (a generated stub).
#include <cuda.h>

#include <cstdio>
#include <cstring>

#include "jit/tensor_map.h"

using cucpu::jit::TensorMapStatus;

extern "C" {

CUresult CUDAAPI cuTensorMapEncodeTiled(CUtensorMap* tensor_map, CUtensorMapDataType data_type, cuuint32_t rank,
                                        void* global_address, const cuuint64_t* global_dim,
                                        const cuuint64_t* global_strides, const cuuint32_t* box_dim,
                                        const cuuint32_t* element_strides, CUtensorMapInterleave interleave,
                                        CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2_promotion,
                                        CUtensorMapFloatOOBfill oob_fill) {
  if (tensor_map == nullptr || reinterpret_cast<uintptr_t>(tensor_map) % 64 != 0) return CUDA_ERROR_INVALID_VALUE;
  cucpu::jit::TiledTensorMapRequest request;
  request.data_type = static_cast<uint32_t>(data_type);
  request.rank = rank;
  request.global_address = global_address;
  request.global_dim = global_dim;
  request.global_strides = global_strides;
  request.box_dim = box_dim;
  request.element_strides = element_strides;
  request.interleave = static_cast<uint32_t>(interleave);
  request.swizzle = static_cast<uint32_t>(swizzle);
  request.l2_promotion = static_cast<uint32_t>(l2_promotion);
  request.oob_fill = static_cast<uint32_t>(oob_fill);
  cucpu::jit::TensorMap map;
  const TensorMapStatus status = cucpu::jit::encode_tiled_tensor_map(request, map);
  switch (status.kind) {
    case TensorMapStatus::Kind::Ok:
      static_assert(sizeof map == sizeof *tensor_map);
      std::memcpy(tensor_map, &map, sizeof map);
      return CUDA_SUCCESS;
    case TensorMapStatus::Kind::NotSupported:
      std::fprintf(stderr, "cucpu: %s\n", status.why.c_str());
      return CUDA_ERROR_NOT_SUPPORTED;
    case TensorMapStatus::Kind::Invalid:
      break;
  }
  return CUDA_ERROR_INVALID_VALUE;  // the driver says nothing more; status.why is for tests
}

}  // extern "C"
