// What a program has said about its managed memory: cudaMemAdvise's read-mostly,
// preferred-location and accessed-by advice, and where cudaMemPrefetchAsync last moved
// each range. Host and device share one memory, so nothing migrates; the advice is kept
// byte-range exact (Boost.ICL interval maps) so that cudaMemRangeGetAttribute answers
// what a GPU would.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace cucpu::core {

// A cudaMemLocation: its type number (device 1, host 2, host NUMA node 3) and id.
struct MemoryLocation {
  int type = 0;
  int id = 0;
  bool operator==(const MemoryLocation&) const = default;
};

enum class AdviceChange { Set, Unset };

void advise_read_mostly(const void* base, size_t size, AdviceChange change);
// Unset: the location is ignored.
void advise_preferred_location(const void* base, size_t size, AdviceChange change, MemoryLocation location);
void advise_accessed_by(const void* base, size_t size, AdviceChange change, MemoryLocation location);
void record_prefetch(const void* base, size_t size, MemoryLocation location);

// Over [base, base + size): whether all of it is read-mostly; the preferred or last
// prefetch location when the whole range has the same one; the locations advised to
// access every byte of it.
bool is_read_mostly(const void* base, size_t size);
std::optional<MemoryLocation> preferred_location(const void* base, size_t size);
std::optional<MemoryLocation> last_prefetch_location(const void* base, size_t size);
std::vector<MemoryLocation> accessed_by(const void* base, size_t size);

// cudaFree of managed memory: its advice goes with it.
void forget_advice(const void* base, size_t size);

}  // namespace cucpu::core
