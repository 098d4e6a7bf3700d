// Texture and surface objects: cudaCreateTextureObject, cudaDestroyTextureObject,
// cudaGetTextureObjectResourceDesc/TextureDesc/ResourceViewDesc, cudaCreateSurfaceObject,
// cudaDestroySurfaceObject, cudaGetSurfaceObjectResourceDesc. The descriptions are checked
// with CUDA's rules (the header docs of cudaCreateTextureObject: alignment of linear and
// pitched memory, formats, read modes) and turned into exec::TextureObject, which kernels
// reach by handle (exec/texture_object.h); the descriptions as given are kept for the
// getters. Mipmapped arrays and resource views are not supported (cudaErrorNotSupported).
#include <cuda_runtime_api.h>

#include <cstdio>
#include <optional>

#include "api/runtime/array_handle.h"
#include "api/runtime/channel_format.h"
#include "api/runtime/runtime_state.h"
#include "core/texture_objects.h"
#include "exec/texture_object.h"

using namespace cucpu;

namespace {

struct TextureDescriptions {
  cudaResourceDesc resource{};
  cudaTextureDesc texture{};
};

cudaError_t destroy(core::ObjectKind kind, uint64_t handle) {
  if (handle == 0) return cudaSuccess;
  Result<void> destroyed = core::destroy_object(kind, handle);
  return destroyed ? cudaSuccess : runtime::record(destroyed.error());
}

cudaError_t not_supported(const char* what) {
  std::fprintf(stderr, "cucpu: %s is not supported yet: it returns cudaErrorNotSupported\n", what);
  return runtime::record(cudaErrorNotSupported);
}

cudaError_t keep(const Result<exec::TexelStorage>& texels, exec::TexelStorage& s) {
  if (!texels) return runtime::record(texels.error());
  s = *texels;
  return cudaSuccess;
}

cudaError_t format_error(const Error& error) {
  return runtime::record(error.code == ErrorCode::NotSupported ? cudaErrorNotSupported : cudaErrorInvalidValue);
}

// The texels a resource description names, or the error CUDA gives for it.
cudaError_t describe_storage(const cudaResourceDesc& r, exec::TexelStorage& s) {
  switch (r.resType) {
    case cudaResourceTypeArray: {
      if (!r.res.array.array) return runtime::record(cudaErrorInvalidValue);
      const core::CudaArray* array = runtime::to_array(r.res.array.array);
      if (!array) return runtime::record(cudaErrorInvalidResourceHandle);
      s = array->storage();
      return cudaSuccess;
    }
    case cudaResourceTypeMipmappedArray:
      return not_supported("cudaCreateTextureObject over a mipmapped array (cudaResourceTypeMipmappedArray)");
    case cudaResourceTypeLinear: {
      Result<exec::TexelFormat> format = runtime::to_texel_format(r.res.linear.desc);
      if (!format) return format_error(format.error());
      return keep(core::linear_texels(r.res.linear.devPtr, *format, r.res.linear.sizeInBytes), s);
    }
    case cudaResourceTypePitch2D: {
      const auto& p = r.res.pitch2D;
      Result<exec::TexelFormat> format = runtime::to_texel_format(p.desc);
      if (!format) return format_error(format.error());
      return keep(core::pitched_texels(p.devPtr, *format, p.width, p.height, p.pitchInBytes), s);
    }
  }
  return runtime::record(cudaErrorInvalidValue);
}

cudaError_t describe_sampler(const cudaTextureDesc& t, const exec::TexelStorage& storage, exec::Sampler& s) {
  for (int i = 0; i < 3; ++i) {
    if (t.addressMode[i] < cudaAddressModeWrap || t.addressMode[i] > cudaAddressModeBorder)
      return runtime::record(cudaErrorInvalidValue);
    s.address[i] = static_cast<exec::AddressMode>(t.addressMode[i]);
  }
  if (t.filterMode != cudaFilterModePoint && t.filterMode != cudaFilterModeLinear)
    return runtime::record(cudaErrorInvalidValue);
  if (t.readMode != cudaReadModeElementType && t.readMode != cudaReadModeNormalizedFloat)
    return runtime::record(cudaErrorInvalidValue);
  s.filter = static_cast<exec::FilterMode>(t.filterMode);
  s.normalized_float = t.readMode == cudaReadModeNormalizedFloat;
  const bool integer = storage.format.kind != exec::ChannelKind::Float;
  // Normalized float reads exist for 8- and 16-bit integers; linear filtering needs float
  // reads. The codes are the H100's.
  if (s.normalized_float && integer && storage.format.channel_bits == 32)
    return runtime::record(cudaErrorInvalidNormSetting);
  if (s.filter == exec::FilterMode::Linear && integer && !s.normalized_float)
    return runtime::record(cudaErrorInvalidFilterSetting);
  s.normalized_coords = t.normalizedCoords != 0;
  s.srgb = t.sRGB != 0;
  for (int i = 0; i < 4; ++i) s.border[i] = t.borderColor[i];
  return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaCreateTextureObject(cudaTextureObject_t* pTexObject, const struct cudaResourceDesc* pResDesc,
                                              const struct cudaTextureDesc* pTexDesc,
                                              const struct cudaResourceViewDesc* pResViewDesc) {
  if (!pTexObject || !pResDesc) return runtime::record(cudaErrorInvalidValue);
  if (!pTexDesc) return runtime::record(cudaErrorInvalidResourceHandle);  // the H100's code
  CUCPU_RETURN_IF_STICKY();
  if (pResViewDesc) return not_supported("cudaCreateTextureObject with a resource view (cudaResourceViewDesc)");
  exec::TextureObject object;
  if (cudaError_t error = describe_storage(*pResDesc, object.storage); error != cudaSuccess) return error;
  if (cudaError_t error = describe_sampler(*pTexDesc, object.storage, object.sampler); error != cudaSuccess)
    return error;
  Result<uint64_t> handle = core::create_texture_object(object, TextureDescriptions{*pResDesc, *pTexDesc});
  if (!handle) return runtime::record(handle.error());
  *pTexObject = *handle;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDestroyTextureObject(cudaTextureObject_t texObject) {
  return destroy(core::ObjectKind::Texture, texObject);
}

cudaError_t CUDARTAPI cudaGetTextureObjectResourceDesc(struct cudaResourceDesc* pResDesc,
                                                       cudaTextureObject_t texObject) {
  if (!pResDesc) return runtime::record(cudaErrorInvalidValue);
  auto described = core::object_description_as<TextureDescriptions>(core::ObjectKind::Texture, texObject);
  if (!described) return runtime::record(cudaErrorInvalidValue);
  *pResDesc = described->resource;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetTextureObjectTextureDesc(struct cudaTextureDesc* pTexDesc, cudaTextureObject_t texObject) {
  if (!pTexDesc) return runtime::record(cudaErrorInvalidValue);
  auto described = core::object_description_as<TextureDescriptions>(core::ObjectKind::Texture, texObject);
  if (!described) return runtime::record(cudaErrorInvalidValue);
  *pTexDesc = described->texture;
  return cudaSuccess;
}

// cucpu creates no texture with a resource view, so there is none to return.
cudaError_t CUDARTAPI cudaGetTextureObjectResourceViewDesc(struct cudaResourceViewDesc* pResViewDesc,
                                                           cudaTextureObject_t texObject) {
  (void)pResViewDesc;
  (void)texObject;
  return runtime::record(cudaErrorInvalidValue);
}

cudaError_t CUDARTAPI cudaCreateSurfaceObject(cudaSurfaceObject_t* pSurfObject, const struct cudaResourceDesc* pResDesc) {
  if (!pSurfObject || !pResDesc) return runtime::record(cudaErrorInvalidValue);
  CUCPU_RETURN_IF_STICKY();
  if (pResDesc->resType != cudaResourceTypeArray || !pResDesc->res.array.array)
    return runtime::record(cudaErrorInvalidValue);
  const core::CudaArray* array = runtime::to_array(pResDesc->res.array.array);
  if (!array) return runtime::record(cudaErrorInvalidResourceHandle);
  // An array without cudaArraySurfaceLoadStore is accepted too (H100: cudaSuccess).
  Result<uint64_t> handle = core::create_surface_object(exec::SurfaceObject{array->storage()}, *pResDesc);
  if (!handle) return runtime::record(handle.error());
  *pSurfObject = *handle;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
  return destroy(core::ObjectKind::Surface, surfObject);
}

cudaError_t CUDARTAPI cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc* pResDesc,
                                                       cudaSurfaceObject_t surfObject) {
  if (!pResDesc) return runtime::record(cudaErrorInvalidValue);
  auto described = core::object_description_as<cudaResourceDesc>(core::ObjectKind::Surface, surfObject);
  if (!described) return runtime::record(cudaErrorInvalidValue);
  *pResDesc = *described;
  return cudaSuccess;
}

}  // extern "C"
