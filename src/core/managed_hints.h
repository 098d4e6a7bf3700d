// Unified memory hints for both APIs: cudaMemAdvise/cuMemAdvise, cudaMemPrefetchAsync/
// cuMemPrefetchAsync and the range attributes that read them back
// (cudaMemRangeGetAttribute/cuMemRangeGetAttribute). Host and device share one memory, so
// a hint moves nothing; it is checked as CUDA checks it (a range inside one managed
// allocation, a valid location) and recorded (managed_advice.h). Advice, attribute and
// location type numbers are the same in both APIs (cudaMemoryAdvise = CUmem_advise, ...).
#pragma once

#include <cstddef>

#include "core/managed_advice.h"
#include "support/result.h"

namespace cucpu::core {

// Whether [base, base + count) lies inside one managed allocation (count > 0).
bool is_managed_range(const void* base, size_t count);

// InvalidValue for a range that is not managed memory or an unknown advice or location
// type, InvalidDevice for a device location with no such device.
Result<void> advise_range(const void* base, size_t count, int advice, MemoryLocation location);
// Recorded at once: with one memory there is nothing for a stream to wait for.
Result<void> prefetch_range(const void* base, size_t count, MemoryLocation location, unsigned flags);
// One attribute of the range into `data` (`size` bytes: an int, or ints for accessed-by).
Result<void> range_attribute(void* data, size_t size, int attribute, const void* base, size_t count);

}  // namespace cucpu::core
