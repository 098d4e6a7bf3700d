// A short busy wait before a blocking one. Handing work to another thread and back costs
// two wake-ups through the kernel (several microseconds each on a virtual machine, more
// than a small kernel runs); CUDA's default host synchronisation (cudaDeviceScheduleAuto)
// spins first for the same reason. The spin is bounded, so a long wait still sleeps and
// leaves its core to the threads doing the work.
#pragma once

#include <chrono>
#include <mutex>

namespace cucpu::support {

// How long a waiter spins before it blocks: longer than a launch's round trip between
// threads, short enough to cost little next to a grid that runs for milliseconds.
inline constexpr std::chrono::microseconds kSpinBeforeBlocking{50};

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Spins until `ready()` holds or kSpinBeforeBlocking has passed; returns ready()'s last value.
template <typename Ready>
bool spin_until(Ready ready) {
  if (ready()) return true;
  const auto deadline = std::chrono::steady_clock::now() + kSpinBeforeBlocking;
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (ready()) return true;
      cpu_relax();
    }
    if (std::chrono::steady_clock::now() >= deadline) return ready();
  }
}

// Locks `lock` (a mutex, or a std::unique_lock on one), spinning on try_lock for a while
// before it blocks: a lock another thread holds for a moment would otherwise cost a futex
// sleep and a wake-up on each side.
template <typename Lockable>
void lock_spinning(Lockable& lock) {
  if (!spin_until([&] { return lock.try_lock(); })) lock.lock();
}

// `mutex` locked so, held by the lock returned.
template <typename Mutex>
std::unique_lock<Mutex> locked_spinning(Mutex& mutex) {
  std::unique_lock lock(mutex, std::defer_lock);
  lock_spinning(lock);
  return lock;
}

}  // namespace cucpu::support
