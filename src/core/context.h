// CUDA contexts (the driver API's CUcontext): a device as one host thread works with it.
// Every device's memory, modules and streams live in the one engine (core/device.h: the
// devices share the host's memory), so a context carries what the driver API makes its
// own: its device, its flags, whether it is a device's primary context and how often that
// was retained, the modules loaded into it, and the context-local storage of the
// libraries that keep per-context state. Each host thread has a stack of current
// contexts; the runtime API's current device is the device of the top one.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>

namespace cucpu::core {

class Context {
 public:
  Context(int device, unsigned flags, bool primary, uint64_t id)
      : device_(device), flags_(flags), primary_(primary), id_(id) {}

  int device() const { return device_; }
  bool primary() const { return primary_; }
  uint64_t id() const { return id_; }  // cuCtxGetId: unique for the process's lifetime
  // A primary context's flags are its device's settings (core/device_settings.h: what
  // cudaSetDeviceFlags sets); a created context keeps its own.
  unsigned flags() const;
  void set_flags(unsigned flags);

  // A created context lives until cuCtxDestroy. A primary one can always be made current
  // and used (NVIDIA's static runtime makes it current before it retains it); whether it
  // is retained (active) is Contexts::retained's answer.
  bool alive() const;

  // Context-local storage: a value per (context, key), with the function to call when the
  // context goes (destroyed, or a primary context reset).
  using StorageDestructor = std::function<void(void* key, void* value)>;
  void store(void* key, void* value, StorageDestructor destructor);
  bool erase(void* key);
  bool load(void* key, void** value) const;

 private:
  friend class Contexts;
  struct Stored {
    void* value;
    StorageDestructor destructor;
  };
  // Runs the storage destructors, outside the lock (they may call back into the driver).
  void clear_storage();

  const int device_;
  unsigned flags_;  // a created context's
  const bool primary_;
  const uint64_t id_;
  mutable std::mutex mutex_;
  int retained_ = 0;        // primary: cuDevicePrimaryCtxRetain count, the runtime's included
  bool destroyed_ = false;  // created: cuCtxDestroy has run
  std::atomic<bool> runtime_holds_{false};  // primary: the runtime's reference is among retained_
  std::map<void*, Stored> storage_;
};

// Every context of the process. Context objects are never freed: a handle a program keeps
// after cuCtxDestroy stays safe to check (it is no longer alive()).
class Contexts {
 public:
  static Contexts& instance();

  // The device's primary context (the same handle for the life of the process).
  Context& primary(int device);
  // cuDevicePrimaryCtxRetain/Release; Reset destroys its state (storage) and makes it inactive.
  void retain(Context& primary);
  // False when the primary context was not retained.
  bool release(Context& primary);
  void reset(Context& primary);
  int retained(const Context& primary) const;
  // The runtime's one reference to a primary context, taken at its first use of the device
  // (again after a reset, which drops it).
  void retain_for_runtime(Context& primary);

  Context& create(int device, unsigned flags);
  void destroy(Context& context);
  // A handle the program got from us (primary or created, alive or not).
  bool known(const void* handle) const;

 private:
  mutable std::mutex mutex_;
  std::map<int, Context*> primaries_;
  std::map<const void*, Context*> all_;
  uint64_t next_id_ = 1;
};

// The calling thread's context stack (cuCtxPush/Pop/Get/SetCurrent); null when empty.
Context* current_context();
void set_current_context(Context* context);  // replaces the top; null pops it
void push_context(Context& context);
Context* pop_context();
// Removes a destroyed context from the calling thread's stack, wherever it is.
void forget_context(Context& context);

// The runtime API's view: the device of the current context; where the thread has none,
// device 0's primary context is retained (once, for the runtime) and made current, as
// NVIDIA's runtime does on a thread's first call.
int runtime_device();
// cudaSetDevice: the device's primary context, retained for the runtime, becomes current.
void set_runtime_device(int device);

// cudaDeviceReset, cuDevicePrimaryCtxReset: waits for all work, then destroys the device's
// state: every allocation, the sticky error, its settings and limits, the primary
// context's storage and references. Modules stay compiled; their variables keep their
// values (a known difference, see README).
void reset_device(int device);

}  // namespace cucpu::core
