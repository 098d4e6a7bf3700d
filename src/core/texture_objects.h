// Texture and surface objects of both APIs (cudaCreateTextureObject, cuTexObjectCreate,
// and the surface forms): the handle a kernel names (exec/texture_object.h), the
// description the creating API was given (kept for its getters, in that API's own
// structs), and the retirement of destroyed objects that queued kernels may still read.
// The texel storage of linear and pitched memory is checked here with CUDA's alignment
// and size rules; each API checks its own descriptor structs.
#pragma once

#include <any>
#include <cstdint>
#include <optional>

#include "exec/texture_object.h"
#include "support/result.h"

namespace cucpu::core {

enum class ObjectKind : uint8_t { Texture, Surface };

// A new object's handle (never 0), keeping `description` for texture_description/
// surface_description. MemoryAllocation when the handle table is full.
Result<uint64_t> create_texture_object(const exec::TextureObject& object, std::any description);
Result<uint64_t> create_surface_object(const exec::SurfaceObject& object, std::any description);

// The handle is invalid for the API at once; kernels queued before still reach the object
// (NVIDIA's NV12toBGRandResize destroys its textures right after the launch that reads
// them, and passes on the GPU). Destroying one again succeeds, as on the H200; a handle
// never handed out is InvalidValue.
Result<void> destroy_object(ObjectKind kind, uint64_t handle);

// The description a live object was created with; nullopt for a handle that is not live.
std::optional<std::any> object_description(ObjectKind kind, uint64_t handle);
// ... as the API's own type; nullopt too for an object the other API made.
template <typename Description>
std::optional<Description> object_description_as(ObjectKind kind, uint64_t handle) {
  std::optional<std::any> kept = object_description(kind, handle);
  const Description* description = kept ? std::any_cast<Description>(&*kept) : nullptr;
  return description ? std::optional<Description>(*description) : std::nullopt;
}

// The texels of linear memory (cudaResourceTypeLinear: `bytes` bytes from `data`) and of
// pitched 2D memory, or InvalidValue where CUDA refuses them (misaligned address or
// pitch, sizes past the device's limits). A linear texture of size 0 is accepted (H100:
// success) and reads zeros.
Result<exec::TexelStorage> linear_texels(void* data, const exec::TexelFormat& format, uint64_t bytes);
Result<exec::TexelStorage> pitched_texels(void* data, const exec::TexelFormat& format, uint64_t width,
                                          uint64_t height, uint64_t pitch);

}  // namespace cucpu::core
