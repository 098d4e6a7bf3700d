// Device-side malloc and free (CUDA Programming Guide, "Dynamic Global Memory Allocation
// and Operations"): one heap of cudaLimitMallocHeapSize bytes shared by every kernel.
#pragma once

#include <cstddef>

namespace cucpu::exec {

constexpr std::size_t kDefaultMallocHeapBytes = std::size_t{8} << 20;  // what CUDA reserves by default

// A block of at least `bytes`, 16-byte aligned (as the GPU's malloc), or nullptr when the
// heap has no room left. Thread-safe.
void* device_malloc(std::size_t bytes);

// Returns a block of device_malloc to the heap. nullptr, and pointers the heap never
// handed out, are ignored (CUDA leaves them undefined; this way they cannot corrupt it).
void device_free(void* pointer);

// cudaLimitMallocHeapSize. The heap is made at the first device_malloc; from then on its
// size is fixed (false), as CUDA refuses a new size once a kernel using malloc has run.
bool set_device_heap_bytes(std::size_t bytes);
std::size_t device_heap_bytes();

// cudaDeviceReset: every block is freed, the size is the default again.
void reset_device_heap();

}  // namespace cucpu::exec
