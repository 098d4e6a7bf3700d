// Managed-memory advice as interval maps over addresses: a set of read-mostly bytes, a
// map to the preferred and last-prefetch locations (overwritten range by range), and a
// map to the set of accessing locations (joined and split as advice comes and goes).
#include "core/managed_advice.h"

#include <boost/icl/interval_map.hpp>
#include <boost/icl/interval_set.hpp>

#include <mutex>
#include <set>

namespace cucpu::core {
namespace {

namespace icl = boost::icl;
using Address = uintptr_t;
using Range = icl::discrete_interval<Address>;
using LocationKey = int64_t;  // type in the high half, id in the low: never 0 for a valid type

LocationKey key_of(MemoryLocation location) {
  return (LocationKey{location.type} << 32) | static_cast<uint32_t>(location.id);
}
MemoryLocation location_of(LocationKey key) {
  return MemoryLocation{static_cast<int>(key >> 32), static_cast<int>(static_cast<uint32_t>(key))};
}

Range range_of(const void* base, size_t size) {
  auto begin = reinterpret_cast<Address>(base);
  return Range::right_open(begin, begin + size);
}

struct Advice {
  std::mutex mutex;
  icl::interval_set<Address> read_mostly;
  icl::interval_map<Address, LocationKey> preferred;
  icl::interval_map<Address, LocationKey> prefetched;
  icl::interval_map<Address, std::set<LocationKey>> accessed_by;
};

Advice& advice() {
  static auto* state = new Advice;  // immortal: managed memory is freed from static destructors
  return *state;
}

// The one value a map gives every byte of `range`; nullopt where a byte has none or two differ.
std::optional<LocationKey> uniform_value(const icl::interval_map<Address, LocationKey>& map, Range range) {
  std::optional<LocationKey> value;
  Address covered = range.lower();
  auto [first, last] = map.equal_range(range);
  for (auto it = first; it != last; ++it) {
    const Range segment = it->first & range;
    if (segment.lower() != covered || (value && *value != it->second)) return std::nullopt;
    value = it->second;
    covered = segment.upper();
  }
  if (covered != range.upper()) return std::nullopt;
  return value;
}

void overwrite(icl::interval_map<Address, LocationKey>& map, Range range, std::optional<MemoryLocation> location) {
  map.erase(range);
  if (location) map.add({range, key_of(*location)});
}

}  // namespace

void advise_read_mostly(const void* base, size_t size, AdviceChange change) {
  std::lock_guard lock(advice().mutex);
  if (change == AdviceChange::Set)
    advice().read_mostly.add(range_of(base, size));
  else
    advice().read_mostly.subtract(range_of(base, size));
}

void advise_preferred_location(const void* base, size_t size, AdviceChange change, MemoryLocation location) {
  std::lock_guard lock(advice().mutex);
  overwrite(advice().preferred, range_of(base, size),
            change == AdviceChange::Set ? std::optional(location) : std::nullopt);
}

void advise_accessed_by(const void* base, size_t size, AdviceChange change, MemoryLocation location) {
  std::lock_guard lock(advice().mutex);
  auto segment = std::make_pair(range_of(base, size), std::set<LocationKey>{key_of(location)});
  if (change == AdviceChange::Set)
    advice().accessed_by += segment;
  else
    advice().accessed_by -= segment;
}

void record_prefetch(const void* base, size_t size, MemoryLocation location) {
  std::lock_guard lock(advice().mutex);
  overwrite(advice().prefetched, range_of(base, size), location);
}

bool is_read_mostly(const void* base, size_t size) {
  std::lock_guard lock(advice().mutex);
  return icl::contains(advice().read_mostly, range_of(base, size));
}

std::optional<MemoryLocation> preferred_location(const void* base, size_t size) {
  std::lock_guard lock(advice().mutex);
  auto key = uniform_value(advice().preferred, range_of(base, size));
  return key ? std::optional(location_of(*key)) : std::nullopt;
}

std::optional<MemoryLocation> last_prefetch_location(const void* base, size_t size) {
  std::lock_guard lock(advice().mutex);
  auto key = uniform_value(advice().prefetched, range_of(base, size));
  return key ? std::optional(location_of(*key)) : std::nullopt;
}

std::vector<MemoryLocation> accessed_by(const void* base, size_t size) {
  std::lock_guard lock(advice().mutex);
  const Range range = range_of(base, size);
  std::optional<std::set<LocationKey>> common;
  Address covered = range.lower();
  auto [first, last] = advice().accessed_by.equal_range(range);
  for (auto it = first; it != last; ++it) {
    const Range segment = it->first & range;
    if (segment.lower() != covered) return {};
    if (!common) {
      common = it->second;
    } else {
      std::erase_if(*common, [&](LocationKey key) { return !it->second.count(key); });
    }
    covered = segment.upper();
  }
  if (covered != range.upper() || !common) return {};
  std::vector<MemoryLocation> locations;
  for (LocationKey key : *common) locations.push_back(location_of(key));
  return locations;
}

void forget_advice(const void* base, size_t size) {
  std::lock_guard lock(advice().mutex);
  const Range range = range_of(base, size);
  advice().read_mostly.erase(range);
  advice().preferred.erase(range);
  advice().prefetched.erase(range);
  advice().accessed_by.erase(range);
}

}  // namespace cucpu::core
