// The launch attributes' value checks (launch_attribute_checks.h).
#include "api/runtime/launch_attribute_checks.h"

#include "core/device.h"

namespace cucpu::runtime {

bool valid_access_policy_window(const cudaAccessPolicyWindow& window) {
  const auto max_bytes =
      static_cast<size_t>(core::device_attribute(core::DeviceAttribute::cudaDevAttrMaxAccessPolicyWindowSize));
  return window.hitRatio >= 0.0f && window.hitRatio <= 1.0f && window.num_bytes <= max_bytes &&
         window.missProp != cudaAccessPropertyPersisting;
}

bool valid_mem_sync_domain(int domain) {
  return domain == cudaLaunchMemSyncDomainDefault || domain == cudaLaunchMemSyncDomainRemote;
}

bool valid_mem_sync_domain_map(const cudaLaunchMemSyncDomainMap& map) { return map.default_ < 4 && map.remote < 4; }

bool valid_sync_policy(int policy) { return policy >= cudaSyncPolicyAuto && policy <= cudaSyncPolicyBlockingSync; }

bool valid_hint_value(cudaLaunchAttributeID attribute, const cudaLaunchAttributeValue& value) {
  switch (attribute) {
    case cudaLaunchAttributeAccessPolicyWindow: return valid_access_policy_window(value.accessPolicyWindow);
    case cudaLaunchAttributeMemSyncDomain: return valid_mem_sync_domain(value.memSyncDomain);
    case cudaLaunchAttributeMemSyncDomainMap: return valid_mem_sync_domain_map(value.memSyncDomainMap);
    case cudaLaunchAttributeClusterSchedulingPolicyPreference:
      return value.clusterSchedulingPolicyPreference <= cudaClusterSchedulingPolicyLoadBalancing;
    case cudaLaunchAttributePreferredSharedMemoryCarveout: return value.sharedMemCarveout <= 100;
    default: return true;
  }
}

}  // namespace cucpu::runtime
