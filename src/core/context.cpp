// Contexts and the per-thread context stack (context.h).
#include "core/context.h"

#include <algorithm>
#include <vector>

#include "core/device_settings.h"
#include "core/memory_pool.h"
#include "core/memory_registry.h"
#include "core/sticky_error.h"
#include "core/stream_engine.h"
#include "exec/device_limits.h"
#include "exec/device_printf.h"

namespace cucpu::core {
namespace {

thread_local std::vector<Context*> context_stack;

}  // namespace

unsigned Context::flags() const {
  if (primary_) return device_settings(device_).flags;
  std::lock_guard lock(mutex_);
  return flags_;
}

void Context::set_flags(unsigned flags) {
  if (primary_) return set_device_flags(device_, flags);
  std::lock_guard lock(mutex_);
  flags_ = flags;
}

bool Context::alive() const {
  std::lock_guard lock(mutex_);
  return primary_ || !destroyed_;
}

void Context::store(void* key, void* value, StorageDestructor destructor) {
  std::lock_guard lock(mutex_);
  storage_[key] = Stored{value, std::move(destructor)};
}

bool Context::erase(void* key) {
  std::lock_guard lock(mutex_);
  return storage_.erase(key) != 0;
}

bool Context::load(void* key, void** value) const {
  std::lock_guard lock(mutex_);
  auto it = storage_.find(key);
  if (it == storage_.end()) return false;
  *value = it->second.value;
  return true;
}

void Context::clear_storage() {
  std::map<void*, Stored> stored;
  {
    std::lock_guard lock(mutex_);
    stored.swap(storage_);
  }
  for (auto& [key, entry] : stored)
    if (entry.destructor) entry.destructor(key, entry.value);
}

Contexts& Contexts::instance() {
  static auto* contexts = new Contexts;  // immortal: handles are checked from atexit handlers
  return *contexts;
}

Context& Contexts::primary(int device) {
  std::lock_guard lock(mutex_);
  Context*& primary = primaries_[device];
  if (!primary) {
    primary = new Context(device, 0, true, next_id_++);
    all_[primary] = primary;
  }
  return *primary;
}

void Contexts::retain(Context& primary) {
  std::lock_guard lock(primary.mutex_);
  ++primary.retained_;
}

bool Contexts::release(Context& primary) {
  {
    std::lock_guard lock(primary.mutex_);
    if (primary.retained_ == 0) return false;
    if (--primary.retained_ > 0) return true;
    primary.runtime_holds_ = false;
  }
  primary.clear_storage();  // the last reference gone: the context's state goes with it
  return true;
}

void Contexts::reset(Context& primary) {
  {
    std::lock_guard lock(primary.mutex_);
    primary.retained_ = 0;
    primary.runtime_holds_ = false;
  }
  primary.clear_storage();
}

int Contexts::retained(const Context& primary) const {
  std::lock_guard lock(primary.mutex_);
  return primary.retained_;
}

void Contexts::retain_for_runtime(Context& primary) {
  if (primary.runtime_holds_.load(std::memory_order_acquire)) return;  // the common case, without the lock
  std::lock_guard lock(primary.mutex_);
  if (primary.runtime_holds_) return;
  primary.runtime_holds_ = true;
  ++primary.retained_;
}

Context& Contexts::create(int device, unsigned flags) {
  std::lock_guard lock(mutex_);
  auto* context = new Context(device, flags, false, next_id_++);
  all_[context] = context;
  return *context;
}

void Contexts::destroy(Context& context) {
  {
    std::lock_guard lock(context.mutex_);
    context.destroyed_ = true;
  }
  context.clear_storage();
}

bool Contexts::known(const void* handle) const {
  std::lock_guard lock(mutex_);
  return all_.count(handle) != 0;
}

Context* current_context() { return context_stack.empty() ? nullptr : context_stack.back(); }

void set_current_context(Context* context) {
  if (!context_stack.empty()) context_stack.pop_back();
  if (context) context_stack.push_back(context);
}

void push_context(Context& context) { context_stack.push_back(&context); }

Context* pop_context() {
  if (context_stack.empty()) return nullptr;
  Context* top = context_stack.back();
  context_stack.pop_back();
  return top;
}

void forget_context(Context& context) {
  std::erase(context_stack, &context);
}

int runtime_device() {
  if (Context* current = current_context()) {
    // A primary context released or reset under the runtime is taken up again at its next call.
    if (current->primary()) Contexts::instance().retain_for_runtime(*current);
    return current->device();
  }
  set_runtime_device(0);
  return 0;
}

void set_runtime_device(int device) {
  Contexts& contexts = Contexts::instance();
  Context& primary = contexts.primary(device);
  contexts.retain_for_runtime(primary);
  set_current_context(&primary);
}

void reset_device(int device) {
  StreamEngine::instance().synchronize_all();  // queued work must not touch freed memory
  exec::flush_device_output();
  memory().release_all();
  forget_pool_memory();  // the pools' blocks went with every other allocation
  clear_sticky_error();
  reset_device_settings(device);
  exec::reset_device_limits();  // stack, printf FIFO and malloc heap back to their defaults
  Contexts::instance().reset(Contexts::instance().primary(device));
}

}  // namespace cucpu::core
