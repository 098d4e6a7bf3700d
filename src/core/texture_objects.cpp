// Texture and surface objects of both APIs (texture_objects.h).
#include "core/texture_objects.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

#include "core/device.h"
#include "core/stream_engine.h"

namespace cucpu::core {
namespace {

using A = DeviceAttribute;

// A destroyed object whose handle kernels queued before its destruction may still use:
// it stays in the exec table, and its handle unused, until that work is done.
struct Retired {
  ObjectKind kind;
  uint64_t handle;
  CompletionList queued_before;
};

struct Objects {
  std::mutex mutex;
  std::map<std::pair<ObjectKind, uint64_t>, std::any> live;  // the descriptions, by handle
  std::vector<Retired> retired;
  std::set<std::pair<ObjectKind, uint64_t>> destroyed;  // destroyed, not handed out again
};

Objects& objects() {
  static auto* kept = new Objects;  // never destroyed: objects may be destroyed during exit
  return *kept;
}

void remove_from_exec(ObjectKind kind, uint64_t handle) {
  if (kind == ObjectKind::Surface)
    exec::remove_surface_object(handle);
  else
    exec::remove_texture_object(handle);
}

// Frees the retired objects whose earlier work has finished; called under the mutex on
// every creation and destruction, so handles come back before new ones are made.
void free_retired_locked() {
  std::erase_if(objects().retired, [](const Retired& r) {
    if (!std::ranges::all_of(r.queued_before, [](const CompletionRef& c) { return c->is_done(); })) return false;
    remove_from_exec(r.kind, r.handle);
    return true;
  });
}

template <typename Add>
Result<uint64_t> create(ObjectKind kind, Add add, std::any description) {
  std::lock_guard lock(objects().mutex);
  free_retired_locked();
  const uint64_t handle = add();
  if (handle == 0) return Error{ErrorCode::MemoryAllocation, "too many texture or surface objects"};
  objects().live[{kind, handle}] = std::move(description);
  objects().destroyed.erase({kind, handle});
  return handle;
}

uint64_t attribute(A a) { return static_cast<uint64_t>(device_attribute(a)); }

bool aligned(const void* data) {
  const auto address = reinterpret_cast<uintptr_t>(data);
  return address != 0 && address % attribute(A::cudaDevAttrTextureAlignment) == 0;
}

}  // namespace

Result<uint64_t> create_texture_object(const exec::TextureObject& object, std::any description) {
  return create(ObjectKind::Texture, [&] { return exec::add_texture_object(object); }, std::move(description));
}

Result<uint64_t> create_surface_object(const exec::SurfaceObject& object, std::any description) {
  return create(ObjectKind::Surface, [&] { return exec::add_surface_object(object); }, std::move(description));
}

Result<void> destroy_object(ObjectKind kind, uint64_t handle) {
  std::lock_guard lock(objects().mutex);
  if (objects().live.erase({kind, handle}) == 0) {
    if (objects().destroyed.contains({kind, handle})) return {};
    return Error{ErrorCode::InvalidValue, "not a texture or surface object"};
  }
  objects().destroyed.insert({kind, handle});
  objects().retired.push_back(Retired{kind, handle, StreamEngine::instance().tails()});
  free_retired_locked();
  return {};
}

std::optional<std::any> object_description(ObjectKind kind, uint64_t handle) {
  std::lock_guard lock(objects().mutex);
  auto it = objects().live.find({kind, handle});
  if (it == objects().live.end()) return std::nullopt;
  return it->second;
}

Result<exec::TexelStorage> linear_texels(void* data, const exec::TexelFormat& format, uint64_t bytes) {
  const uint64_t texels = bytes / format.bytes();
  if (!aligned(data) || texels > attribute(A::cudaDevAttrMaxTexture1DLinearWidth))
    return Error{ErrorCode::InvalidValue, "linear texture memory misaligned or too large"};
  exec::TexelStorage s;
  s.data = static_cast<uint8_t*>(data);
  s.format = format;
  s.width = texels;
  s.row_pitch = s.slice_pitch = s.layer_pitch = texels * format.bytes();
  s.linear = true;
  return s;
}

Result<exec::TexelStorage> pitched_texels(void* data, const exec::TexelFormat& format, uint64_t width,
                                          uint64_t height, uint64_t pitch) {
  if (!aligned(data) || pitch % attribute(A::cudaDevAttrTexturePitchAlignment) != 0 || width == 0 || height == 0 ||
      width * format.bytes() > pitch || width > attribute(A::cudaDevAttrMaxTexture2DLinearWidth) ||
      height > attribute(A::cudaDevAttrMaxTexture2DLinearHeight) ||
      pitch > attribute(A::cudaDevAttrMaxTexture2DLinearPitch))
    return Error{ErrorCode::InvalidValue, "pitched texture memory misaligned or of a size the device refuses"};
  exec::TexelStorage s;
  s.data = static_cast<uint8_t*>(data);
  s.format = format;
  s.width = width;
  s.height = height;
  s.row_pitch = pitch;
  s.slice_pitch = s.layer_pitch = pitch * height;
  s.dimensions = 2;
  return s;
}

}  // namespace cucpu::core
