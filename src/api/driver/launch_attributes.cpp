// Launch attributes as both APIs keep them (launch_attributes.h).
#include "api/driver/launch_attributes.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <mutex>

#include "core/device.h"

namespace cucpu::driver {
namespace {

static_assert(sizeof(CUlaunchAttributeValue) == core::GraphNode::kLaunchAttributeBytes);

std::mutex hints_mutex;  // guards every stream's hints

Error invalid() { return Error{ErrorCode::InvalidValue, "a launch attribute value the device refuses"}; }

bool valid_access_policy_window(const CUaccessPolicyWindow& window) {
  const auto max_bytes =
      static_cast<size_t>(core::device_attribute(core::DeviceAttribute::cudaDevAttrMaxAccessPolicyWindowSize));
  return window.hitRatio >= 0.0f && window.hitRatio <= 1.0f && window.num_bytes <= max_bytes &&
         window.missProp != CU_ACCESS_PROPERTY_PERSISTING;
}

bool valid_mem_sync_domain(int domain) {
  return domain == CU_LAUNCH_MEM_SYNC_DOMAIN_DEFAULT || domain == CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE;
}

bool valid_mem_sync_domain_map(const CUlaunchMemSyncDomainMap& map) { return map.default_ < 4 && map.remote < 4; }

// Auto .. BlockingSync (an H200 refuses 0).
bool valid_sync_policy(int policy) { return policy >= CU_SYNC_POLICY_AUTO && policy <= CU_SYNC_POLICY_BLOCKING_SYNC; }

int clamped_priority(int priority) {
  return std::clamp(priority, core::kGreatestStreamPriority, core::kLeastStreamPriority);
}

// The attributes a kernel node keeps (the hints).
bool kept_on_node(CUlaunchAttributeID attribute) {
  return attribute == CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW || attribute == CU_LAUNCH_ATTRIBUTE_PRIORITY ||
         attribute == CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN || attribute == CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP ||
         attribute == CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE ||
         attribute == CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT;
}

}  // namespace

bool valid_hint_value(CUlaunchAttributeID attribute, const CUlaunchAttributeValue& value) {
  switch (attribute) {
    case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW: return valid_access_policy_window(value.accessPolicyWindow);
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN: return valid_mem_sync_domain(value.memSyncDomain);
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP: return valid_mem_sync_domain_map(value.memSyncDomainMap);
    case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
      return value.clusterSchedulingPolicyPreference <= CU_CLUSTER_SCHEDULING_POLICY_LOAD_BALANCING;
    case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: return value.sharedMemCarveout <= 100;
    default: return true;
  }
}

Result<void> set_stream_attribute(core::Stream& stream, CUlaunchAttributeID attribute,
                                  const CUlaunchAttributeValue& value) {
  std::lock_guard lock(hints_mutex);
  core::StreamHints& hints = stream.hints;
  switch (attribute) {
    case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW: {
      const CUaccessPolicyWindow& w = value.accessPolicyWindow;
      if (!valid_access_policy_window(w)) return invalid();
      hints.window_base = w.base_ptr;
      hints.window_bytes = w.num_bytes;
      hints.hit_ratio = w.hitRatio;
      hints.hit_property = w.hitProp;
      hints.miss_property = w.missProp;
      return {};
    }
    case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
      if (!valid_sync_policy(value.syncPolicy)) return invalid();
      hints.sync_policy = value.syncPolicy;
      return {};
    case CU_LAUNCH_ATTRIBUTE_PRIORITY: stream.set_priority(clamped_priority(value.priority)); return {};
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
      if (!valid_mem_sync_domain(value.memSyncDomain)) return invalid();
      hints.mem_sync_domain = value.memSyncDomain;
      return {};
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
      if (!valid_mem_sync_domain_map(value.memSyncDomainMap)) return invalid();
      hints.domain_map_default = value.memSyncDomainMap.default_;
      hints.domain_map_remote = value.memSyncDomainMap.remote;
      return {};
    default: return invalid();
  }
}

Result<void> get_stream_attribute(core::Stream& stream, CUlaunchAttributeID attribute, CUlaunchAttributeValue* value) {
  std::lock_guard lock(hints_mutex);
  const core::StreamHints& hints = stream.hints;
  switch (attribute) {
    case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
      value->accessPolicyWindow = CUaccessPolicyWindow{const_cast<void*>(hints.window_base), hints.window_bytes,
                                                       hints.hit_ratio,
                                                       static_cast<CUaccessProperty>(hints.hit_property),
                                                       static_cast<CUaccessProperty>(hints.miss_property)};
      return {};
    case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
      value->syncPolicy = static_cast<CUsynchronizationPolicy>(hints.sync_policy);
      return {};
    case CU_LAUNCH_ATTRIBUTE_PRIORITY: value->priority = stream.priority(); return {};
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
      value->memSyncDomain = static_cast<CUlaunchMemSyncDomain>(hints.mem_sync_domain);
      return {};
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
      value->memSyncDomainMap.default_ = hints.domain_map_default;
      value->memSyncDomainMap.remote = hints.domain_map_remote;
      return {};
    default: return invalid();
  }
}

void copy_stream_attributes(core::Stream& to, core::Stream& from) {
  std::lock_guard lock(hints_mutex);
  to.hints = from.hints;
  to.set_priority(from.priority());
}

Result<void> set_kernel_node_attribute(core::GraphNode& node, CUlaunchAttributeID attribute,
                                       const CUlaunchAttributeValue& value, const char* function) {
  if (attribute == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION || attribute == CU_LAUNCH_ATTRIBUTE_COOPERATIVE) {
    std::fprintf(stderr, "cucpu: %s: attribute %d (%s) is not supported yet\n", function, static_cast<int>(attribute),
                 attribute == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION ? "cluster dimension" : "cooperative");
    return Error{ErrorCode::NotSupported, "a kernel node's cluster shape or cooperative launch"};
  }
  if (!kept_on_node(attribute) || !valid_hint_value(attribute, value)) return invalid();
  CUlaunchAttributeValue stored = value;
  // Priorities are clamped to the stream priority range, as the H200 reads them back.
  if (attribute == CU_LAUNCH_ATTRIBUTE_PRIORITY) stored.priority = clamped_priority(stored.priority);
  std::memcpy(node.launch_attributes[attribute].data(), &stored, sizeof stored);
  return {};
}

Result<void> get_kernel_node_attribute(const core::GraphNode& node, CUlaunchAttributeID attribute,
                                       CUlaunchAttributeValue* value) {
  if (!kept_on_node(attribute)) return invalid();
  std::memcpy(value, node.launch_attributes[attribute].data(), sizeof *value);
  return {};
}

}  // namespace cucpu::driver
