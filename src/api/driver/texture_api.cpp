// Texture and surface objects through the driver: cuTexObjectCreate/Destroy and its
// getters, cuSurfObjectCreate/Destroy/GetResourceDesc. The objects are core's
// (core/texture_objects.h), shared with the runtime's; the descriptions here are
// CUDA_RESOURCE_DESC/CUDA_TEXTURE_DESC, checked with the rules of cuTexObjectCreate's
// documentation. An integer texture without CU_TRSF_READ_AS_INTEGER reads as normalized
// float (except 32-bit channels, never promoted). Mipmapped arrays and resource views are
// not supported (CUDA_ERROR_NOT_SUPPORTED, said on stderr).
#include <cuda.h>

#include <cstdio>
#include <optional>

#include "api/driver/array_format.h"
#include "api/driver/driver_state.h"
#include "core/cuda_array.h"
#include "core/texture_objects.h"

using namespace cucpu;

namespace {

struct TextureDescriptions {
  CUDA_RESOURCE_DESC resource{};
  CUDA_TEXTURE_DESC texture{};
};

CUresult not_supported(const char* what) {
  std::fprintf(stderr, "cucpu: %s is not supported yet: it returns CUDA_ERROR_NOT_SUPPORTED\n", what);
  return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult keep(const Result<exec::TexelStorage>& texels, exec::TexelStorage& s) {
  if (!texels) return driver::to_cu_result(texels.error());
  s = *texels;
  return CUDA_SUCCESS;
}

// The texels a resource description names, or the driver's error for it.
CUresult describe_storage(const CUDA_RESOURCE_DESC& r, exec::TexelStorage& s) {
  if (r.flags != 0) return CUDA_ERROR_INVALID_VALUE;
  switch (r.resType) {
    case CU_RESOURCE_TYPE_ARRAY: {
      const core::CudaArray* array = core::find_array(r.res.array.hArray);
      if (!array) return CUDA_ERROR_INVALID_HANDLE;
      s = array->storage();
      return CUDA_SUCCESS;
    }
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
      return not_supported("cuTexObjectCreate over a mipmapped array (CU_RESOURCE_TYPE_MIPMAPPED_ARRAY)");
    case CU_RESOURCE_TYPE_LINEAR: {
      const auto& l = r.res.linear;
      Result<exec::TexelFormat> format = driver::to_texel_format(l.format, l.numChannels);
      if (!format) return driver::to_cu_result(format.error());
      return keep(core::linear_texels(driver::to_pointer(l.devPtr), *format, l.sizeInBytes), s);
    }
    case CU_RESOURCE_TYPE_PITCH2D: {
      const auto& p = r.res.pitch2D;
      Result<exec::TexelFormat> format = driver::to_texel_format(p.format, p.numChannels);
      if (!format) return driver::to_cu_result(format.error());
      return keep(core::pitched_texels(driver::to_pointer(p.devPtr), *format, p.width, p.height, p.pitchInBytes), s);
    }
  }
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult describe_sampler(const CUDA_TEXTURE_DESC& t, const exec::TexelStorage& storage, exec::Sampler& s) {
  for (int i = 0; i < 3; ++i) {
    if (t.addressMode[i] < CU_TR_ADDRESS_MODE_WRAP || t.addressMode[i] > CU_TR_ADDRESS_MODE_BORDER)
      return CUDA_ERROR_INVALID_VALUE;
    s.address[i] = static_cast<exec::AddressMode>(t.addressMode[i]);
  }
  if (t.filterMode != CU_TR_FILTER_MODE_POINT && t.filterMode != CU_TR_FILTER_MODE_LINEAR)
    return CUDA_ERROR_INVALID_VALUE;
  s.filter = static_cast<exec::FilterMode>(t.filterMode);
  const bool integer = storage.format.kind != exec::ChannelKind::Float;
  s.normalized_float = integer && storage.format.channel_bits != 32 && !(t.flags & CU_TRSF_READ_AS_INTEGER);
  // An integer texture read as integers with linear filtering is accepted (the H200:
  // CUDA_SUCCESS; the runtime refuses it before the driver sees it).
  s.normalized_coords = t.flags & CU_TRSF_NORMALIZED_COORDINATES;
  s.srgb = t.flags & CU_TRSF_SRGB;
  for (int i = 0; i < 4; ++i) s.border[i] = t.borderColor[i];
  return CUDA_SUCCESS;
}

CUresult destroy(core::ObjectKind kind, uint64_t handle) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (handle == 0) return CUDA_SUCCESS;
  Result<void> destroyed = core::destroy_object(kind, handle);
  return destroyed ? CUDA_SUCCESS : driver::to_cu_result(destroyed.error());
}

}  // namespace

extern "C" {

CUresult CUDAAPI cuTexObjectCreate(CUtexObject* pTexObject, const CUDA_RESOURCE_DESC* pResDesc,
                                   const CUDA_TEXTURE_DESC* pTexDesc, const CUDA_RESOURCE_VIEW_DESC* pResViewDesc) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!pTexObject || !pResDesc || !pTexDesc) return CUDA_ERROR_INVALID_VALUE;
  CUCPU_DRIVER_RETURN_IF_STICKY();
  if (pResViewDesc) return not_supported("cuTexObjectCreate with a resource view (CUDA_RESOURCE_VIEW_DESC)");
  exec::TextureObject object;
  if (CUresult error = describe_storage(*pResDesc, object.storage); error != CUDA_SUCCESS) return error;
  if (CUresult error = describe_sampler(*pTexDesc, object.storage, object.sampler); error != CUDA_SUCCESS)
    return error;
  Result<uint64_t> handle = core::create_texture_object(object, TextureDescriptions{*pResDesc, *pTexDesc});
  if (!handle) return driver::to_cu_result(handle.error());
  *pTexObject = *handle;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuTexObjectDestroy(CUtexObject texObject) { return destroy(core::ObjectKind::Texture, texObject); }

CUresult CUDAAPI cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC* pResDesc, CUtexObject texObject) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!pResDesc) return CUDA_ERROR_INVALID_VALUE;
  auto described = core::object_description_as<TextureDescriptions>(core::ObjectKind::Texture, texObject);
  if (!described) return CUDA_ERROR_INVALID_VALUE;
  *pResDesc = described->resource;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC* pTexDesc, CUtexObject texObject) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!pTexDesc) return CUDA_ERROR_INVALID_VALUE;
  auto described = core::object_description_as<TextureDescriptions>(core::ObjectKind::Texture, texObject);
  if (!described) return CUDA_ERROR_INVALID_VALUE;
  *pTexDesc = described->texture;
  return CUDA_SUCCESS;
}

// cucpu creates no texture with a resource view, so there is none to return.
CUresult CUDAAPI cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC* pResViewDesc, CUtexObject texObject) {
  CUCPU_REQUIRE_CONTEXT(context);
  (void)pResViewDesc;
  (void)texObject;
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI cuSurfObjectCreate(CUsurfObject* pSurfObject, const CUDA_RESOURCE_DESC* pResDesc) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!pSurfObject || !pResDesc || pResDesc->resType != CU_RESOURCE_TYPE_ARRAY || pResDesc->flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  CUCPU_DRIVER_RETURN_IF_STICKY();
  const core::CudaArray* array = core::find_array(pResDesc->res.array.hArray);
  if (!array) return CUDA_ERROR_INVALID_HANDLE;
  Result<uint64_t> handle = core::create_surface_object(exec::SurfaceObject{array->storage()}, *pResDesc);
  if (!handle) return driver::to_cu_result(handle.error());
  *pSurfObject = *handle;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuSurfObjectDestroy(CUsurfObject surfObject) { return destroy(core::ObjectKind::Surface, surfObject); }

CUresult CUDAAPI cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC* pResDesc, CUsurfObject surfObject) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!pResDesc) return CUDA_ERROR_INVALID_VALUE;
  auto described = core::object_description_as<CUDA_RESOURCE_DESC>(core::ObjectKind::Surface, surfObject);
  if (!described) return CUDA_ERROR_INVALID_VALUE;
  *pResDesc = *described;
  return CUDA_SUCCESS;
}

}  // extern "C"
