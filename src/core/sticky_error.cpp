// The sticky error behind one mutex: set from whichever thread ran the failing grid,
// read by every API call.
#include "core/sticky_error.h"

#include <atomic>
#include <mutex>

namespace cucpu::core {
namespace {

std::mutex mutex;
std::optional<Error> current;
std::atomic<bool> present{false};  // lets the common case (no error) skip the mutex

}  // namespace

void set_sticky_error(const Error& error) {
  std::lock_guard lock(mutex);
  if (!current) current = error;
  present.store(true, std::memory_order_release);
}

std::optional<Error> sticky_error() {
  if (!present.load(std::memory_order_acquire)) return std::nullopt;
  std::lock_guard lock(mutex);
  return current;
}

void clear_sticky_error() {
  std::lock_guard lock(mutex);
  current.reset();
  present.store(false, std::memory_order_release);
}

}  // namespace cucpu::core
