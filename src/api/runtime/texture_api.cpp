// Texture and surface objects: cudaCreateTextureObject, cudaDestroyTextureObject,
// cudaGetTextureObjectResourceDesc/TextureDesc/ResourceViewDesc, cudaCreateSurfaceObject,
// cudaDestroySurfaceObject, cudaGetSurfaceObjectResourceDesc. The descriptions are checked
// with CUDA's rules (the header docs of cudaCreateTextureObject: alignment of linear and
// pitched memory, formats, read modes) and turned into exec::TextureObject, which kernels
// reach by handle (exec/texture_object.h); the descriptions as given are kept for the
// getters. Mipmapped arrays and resource views are not supported (cudaErrorNotSupported).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "api/runtime/array_handle.h"
#include "api/runtime/channel_format.h"
#include "api/runtime/runtime_state.h"
#include "core/device.h"
#include "core/stream_engine.h"
#include "exec/texture_object.h"

using namespace cucpu;

namespace {

using A = core::DeviceAttribute;

struct TextureDescriptions {
  cudaResourceDesc resource{};
  cudaTextureDesc texture{};
};

// A destroyed object whose handle kernels queued before its destruction may still use:
// it stays in the exec table, and its handle unused, until that work is done.
struct Retired {
  uint64_t handle;
  bool surface;
  core::CompletionList queued_before;
};

// What the getters return, by handle (live objects only); the exec tables hold what
// kernels read.
struct Descriptions {
  std::mutex mutex;
  std::map<uint64_t, TextureDescriptions> textures;
  std::map<uint64_t, cudaResourceDesc> surfaces;
  std::vector<Retired> retired;
  std::set<std::pair<bool, uint64_t>> destroyed;  // (surface?, handle): destroyed, not handed out again
};

Descriptions& descriptions() {
  static auto* kept = new Descriptions;  // never destroyed: objects may be destroyed during exit
  return *kept;
}

// Frees the retired objects whose earlier work has finished; called under the mutex on
// every creation and destruction, so handles come back before new ones are made.
void free_retired_locked() {
  std::erase_if(descriptions().retired, [](const Retired& r) {
    if (!std::ranges::all_of(r.queued_before, [](const core::CompletionRef& c) { return c->is_done(); }))
      return false;
    if (r.surface)
      exec::remove_surface_object(r.handle);
    else
      exec::remove_texture_object(r.handle);
    return true;
  });
}

// cudaDestroyTextureObject / cudaDestroySurfaceObject: the handle is invalid for the API
// at once; kernels already queued still reach the object (NVIDIA's NV12toBGRandResize
// destroys its textures right after the launch that reads them, and passes on the GPU).
// Destroying one again succeeds, as on the H200.
template <typename Map>
cudaError_t retire(Map& live, uint64_t handle, bool surface) {
  std::lock_guard lock(descriptions().mutex);
  if (live.erase(handle) == 0)
    return descriptions().destroyed.contains({surface, handle}) ? cudaSuccess : runtime::record(cudaErrorInvalidValue);
  descriptions().destroyed.insert({surface, handle});
  descriptions().retired.push_back(Retired{handle, surface, core::StreamEngine::instance().tails()});
  free_retired_locked();
  return cudaSuccess;
}

cudaError_t not_supported(const char* what) {
  std::fprintf(stderr, "cucpu: %s is not supported yet: it returns cudaErrorNotSupported\n", what);
  return runtime::record(cudaErrorNotSupported);
}

uint64_t attribute(A a) { return static_cast<uint64_t>(core::device_attribute(a)); }

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
      const auto address = reinterpret_cast<uintptr_t>(r.res.linear.devPtr);
      const uint64_t texels = r.res.linear.sizeInBytes / format->bytes();
      // Size 0 is accepted (H100: cudaSuccess); such a texture reads zeros.
      if (address == 0 || address % attribute(A::cudaDevAttrTextureAlignment) != 0 ||
          texels > attribute(A::cudaDevAttrMaxTexture1DLinearWidth))
        return runtime::record(cudaErrorInvalidValue);
      s = exec::TexelStorage{};
      s.data = static_cast<uint8_t*>(r.res.linear.devPtr);
      s.format = *format;
      s.width = texels;
      s.row_pitch = s.slice_pitch = s.layer_pitch = texels * format->bytes();
      s.linear = true;
      return cudaSuccess;
    }
    case cudaResourceTypePitch2D: {
      Result<exec::TexelFormat> format = runtime::to_texel_format(r.res.pitch2D.desc);
      if (!format) return format_error(format.error());
      const auto address = reinterpret_cast<uintptr_t>(r.res.pitch2D.devPtr);
      const auto& p = r.res.pitch2D;
      if (address == 0 || address % attribute(A::cudaDevAttrTextureAlignment) != 0 ||
          p.pitchInBytes % attribute(A::cudaDevAttrTexturePitchAlignment) != 0 || p.width == 0 || p.height == 0 ||
          p.width * format->bytes() > p.pitchInBytes || p.width > attribute(A::cudaDevAttrMaxTexture2DLinearWidth) ||
          p.height > attribute(A::cudaDevAttrMaxTexture2DLinearHeight) ||
          p.pitchInBytes > attribute(A::cudaDevAttrMaxTexture2DLinearPitch))
        return runtime::record(cudaErrorInvalidValue);
      s = exec::TexelStorage{};
      s.data = static_cast<uint8_t*>(p.devPtr);
      s.format = *format;
      s.width = p.width;
      s.height = p.height;
      s.row_pitch = p.pitchInBytes;
      s.slice_pitch = s.layer_pitch = p.pitchInBytes * p.height;
      s.dimensions = 2;
      return cudaSuccess;
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
  std::lock_guard lock(descriptions().mutex);
  free_retired_locked();
  const uint64_t handle = exec::add_texture_object(object);
  if (handle == 0) return runtime::record(cudaErrorMemoryAllocation);
  descriptions().textures[handle] = TextureDescriptions{*pResDesc, *pTexDesc};
  descriptions().destroyed.erase({false, handle});
  *pTexObject = handle;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDestroyTextureObject(cudaTextureObject_t texObject) {
  if (texObject == 0) return cudaSuccess;
  return retire(descriptions().textures, texObject, false);
}

cudaError_t CUDARTAPI cudaGetTextureObjectResourceDesc(struct cudaResourceDesc* pResDesc,
                                                       cudaTextureObject_t texObject) {
  if (!pResDesc) return runtime::record(cudaErrorInvalidValue);
  std::lock_guard lock(descriptions().mutex);
  auto it = descriptions().textures.find(texObject);
  if (it == descriptions().textures.end()) return runtime::record(cudaErrorInvalidValue);
  *pResDesc = it->second.resource;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetTextureObjectTextureDesc(struct cudaTextureDesc* pTexDesc, cudaTextureObject_t texObject) {
  if (!pTexDesc) return runtime::record(cudaErrorInvalidValue);
  std::lock_guard lock(descriptions().mutex);
  auto it = descriptions().textures.find(texObject);
  if (it == descriptions().textures.end()) return runtime::record(cudaErrorInvalidValue);
  *pTexDesc = it->second.texture;
  return cudaSuccess;
}

// cucpu creates no texture with a resource view, so there is none to return.
cudaError_t CUDARTAPI cudaGetTextureObjectResourceViewDesc(struct cudaResourceViewDesc* pResViewDesc,
                                                           cudaTextureObject_t texObject) {
  if (!pResViewDesc) return runtime::record(cudaErrorInvalidValue);
  std::lock_guard lock(descriptions().mutex);
  if (!descriptions().textures.contains(texObject)) return runtime::record(cudaErrorInvalidValue);
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
  std::lock_guard lock(descriptions().mutex);
  free_retired_locked();
  const uint64_t handle = exec::add_surface_object(exec::SurfaceObject{array->storage()});
  if (handle == 0) return runtime::record(cudaErrorMemoryAllocation);
  descriptions().surfaces[handle] = *pResDesc;
  descriptions().destroyed.erase({true, handle});
  *pSurfObject = handle;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
  if (surfObject == 0) return cudaSuccess;
  return retire(descriptions().surfaces, surfObject, true);
}

cudaError_t CUDARTAPI cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc* pResDesc,
                                                       cudaSurfaceObject_t surfObject) {
  if (!pResDesc) return runtime::record(cudaErrorInvalidValue);
  std::lock_guard lock(descriptions().mutex);
  auto it = descriptions().surfaces.find(surfObject);
  if (it == descriptions().surfaces.end()) return runtime::record(cudaErrorInvalidValue);
  *pResDesc = it->second;
  return cudaSuccess;
}

}  // extern "C"
