// The values an H200 accepts for the launch attributes that a stream, a launch
// (cudaLaunchKernelEx) and a kernel node share (tests/e2e/setter_sweep.cu): one check each,
// so that the three places refuse the same values with cudaErrorInvalidValue.
#pragma once

#include <cuda_runtime_api.h>

namespace cucpu::runtime {

// A hit ratio in [0, 1], at most cudaDevAttrMaxAccessPolicyWindowSize bytes, and a miss
// property that is not cudaAccessPropertyPersisting (any base, a null one too).
bool valid_access_policy_window(const cudaAccessPolicyWindow& window);
// cudaLaunchMemSyncDomainDefault or Remote.
bool valid_mem_sync_domain(int domain);
// Both domains below 4 (an H200 has four).
bool valid_mem_sync_domain_map(const cudaLaunchMemSyncDomainMap& map);
// cudaSyncPolicyAuto .. cudaSyncPolicyBlockingSync (an H200 refuses 0).
bool valid_sync_policy(int policy);
// The value of a hint attribute of a launch or kernel node: the checks above for the window
// and the memory sync domain and map, a known cluster scheduling policy, a carveout of at
// most 100 percent; attributes without a value check are valid.
bool valid_hint_value(cudaLaunchAttributeID attribute, const cudaLaunchAttributeValue& value);

}  // namespace cucpu::runtime
