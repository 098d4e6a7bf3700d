// Pool attributes by number (memory_pool_attributes.h).
#include "core/memory_pool_attributes.h"

#include <cstdint>

namespace cucpu::core {
namespace {

// cudaMemPoolAttr's numbers.
enum : int {
  kReuseFollowEventDependencies = 1,
  kReuseAllowOpportunistic = 2,
  kReuseAllowInternalDependencies = 3,
  kReleaseThreshold = 4,
  kReservedMemCurrent = 5,
  kReservedMemHigh = 6,
  kUsedMemCurrent = 7,
  kUsedMemHigh = 8,
};

Error invalid() { return Error{ErrorCode::InvalidValue, "not a pool attribute that can be set so"}; }

}  // namespace

Result<void> set_pool_attribute(MemoryPool& pool, int attribute, const void* value) {
  ReusePolicy policy = pool.reuse_policy();
  const int flag = *static_cast<const int*>(value);
  const uint64_t bytes = attribute >= kReleaseThreshold ? *static_cast<const uint64_t*>(value) : 0;
  switch (attribute) {
    case kReuseFollowEventDependencies: policy.follow_event_dependencies = flag != 0; break;
    case kReuseAllowOpportunistic: policy.allow_opportunistic = flag != 0; break;
    case kReuseAllowInternalDependencies: policy.allow_internal_dependencies = flag != 0; break;
    case kReleaseThreshold: pool.set_release_threshold(bytes); return {};
    case kReservedMemHigh:
      if (bytes != 0) return invalid();
      pool.reset_reserved_high();
      return {};
    case kUsedMemHigh:
      if (bytes != 0) return invalid();
      pool.reset_used_high();
      return {};
    default: return invalid();  // the current sizes are read-only
  }
  pool.set_reuse_policy(policy);
  return {};
}

Result<void> get_pool_attribute(const MemoryPool& pool, int attribute, void* value) {
  const ReusePolicy policy = pool.reuse_policy();
  const PoolUsage usage = pool.usage();
  auto* flag = static_cast<int*>(value);
  auto* bytes = static_cast<uint64_t*>(value);
  switch (attribute) {
    case kReuseFollowEventDependencies: *flag = policy.follow_event_dependencies; break;
    case kReuseAllowOpportunistic: *flag = policy.allow_opportunistic; break;
    case kReuseAllowInternalDependencies: *flag = policy.allow_internal_dependencies; break;
    case kReleaseThreshold: *bytes = pool.release_threshold(); break;
    case kReservedMemCurrent: *bytes = usage.reserved; break;
    case kReservedMemHigh: *bytes = usage.reserved_high; break;
    case kUsedMemCurrent: *bytes = usage.used; break;
    case kUsedMemHigh: *bytes = usage.used_high; break;
    default: return invalid();
  }
  return {};
}

}  // namespace cucpu::core
