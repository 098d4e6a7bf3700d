// Stream attributes: cudaStreamSetAttribute / GetAttribute / CopyAttributes (and their
// _ptsz twins). An H200 takes the access policy window, the synchronization policy, the
// priority (clamped to the stream priority range, as cudaStreamCreateWithPriority does),
// the memory synchronization domain and its map; every other attribute is
// cudaErrorInvalidValue, both ways (tests/e2e/setter_sweep.cu). The priority becomes the
// stream's; the rest steer caches and waits a CPU does not have, and are kept to be read back.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <mutex>

#include "api/runtime/launch_attribute_checks.h"
#include "api/runtime/runtime_state.h"
#include "core/stream_handle.h"
#include "core/stream.h"

using namespace cucpu;
using core::NullStream;

namespace {

std::mutex hints_mutex;  // guards every stream's hints

cudaError_t set_attribute(cudaStream_t handle, cudaStreamAttrID attribute, const cudaStreamAttrValue* value,
                          NullStream null_stream) {
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return runtime::record(cudaErrorInvalidResourceHandle);
  if (!value) return runtime::record(cudaErrorInvalidValue);
  std::lock_guard lock(hints_mutex);
  core::StreamHints& hints = stream->hints;
  switch (attribute) {
    case cudaStreamAttributeAccessPolicyWindow: {
      const cudaAccessPolicyWindow& w = value->accessPolicyWindow;
      if (!runtime::valid_access_policy_window(w)) return runtime::record(cudaErrorInvalidValue);
      hints.window_base = w.base_ptr;
      hints.window_bytes = w.num_bytes;
      hints.hit_ratio = w.hitRatio;
      hints.hit_property = w.hitProp;
      hints.miss_property = w.missProp;
      return cudaSuccess;
    }
    case cudaStreamAttributeSynchronizationPolicy:
      if (!runtime::valid_sync_policy(value->syncPolicy)) return runtime::record(cudaErrorInvalidValue);
      hints.sync_policy = value->syncPolicy;
      return cudaSuccess;
    case cudaStreamAttributePriority:
      stream->set_priority(std::clamp(value->priority, core::kGreatestStreamPriority, core::kLeastStreamPriority));
      return cudaSuccess;
    case cudaStreamAttributeMemSyncDomain:
      if (!runtime::valid_mem_sync_domain(value->memSyncDomain)) return runtime::record(cudaErrorInvalidValue);
      hints.mem_sync_domain = value->memSyncDomain;
      return cudaSuccess;
    case cudaStreamAttributeMemSyncDomainMap:
      if (!runtime::valid_mem_sync_domain_map(value->memSyncDomainMap)) return runtime::record(cudaErrorInvalidValue);
      hints.domain_map_default = value->memSyncDomainMap.default_;
      hints.domain_map_remote = value->memSyncDomainMap.remote;
      return cudaSuccess;
    default:
      return runtime::record(cudaErrorInvalidValue);
  }
}

cudaError_t get_attribute(cudaStream_t handle, cudaStreamAttrID attribute, cudaStreamAttrValue* value,
                          NullStream null_stream) {
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return runtime::record(cudaErrorInvalidResourceHandle);
  if (!value) return runtime::record(cudaErrorInvalidValue);
  std::lock_guard lock(hints_mutex);
  const core::StreamHints& hints = stream->hints;
  switch (attribute) {
    case cudaStreamAttributeAccessPolicyWindow:
      value->accessPolicyWindow = cudaAccessPolicyWindow{const_cast<void*>(hints.window_base), hints.window_bytes,
                                                         hints.hit_ratio,
                                                         static_cast<cudaAccessProperty>(hints.hit_property),
                                                         static_cast<cudaAccessProperty>(hints.miss_property)};
      return cudaSuccess;
    case cudaStreamAttributeSynchronizationPolicy:
      value->syncPolicy = static_cast<cudaSynchronizationPolicy>(hints.sync_policy);
      return cudaSuccess;
    case cudaStreamAttributePriority:
      value->priority = stream->priority();
      return cudaSuccess;
    case cudaStreamAttributeMemSyncDomain:
      value->memSyncDomain = static_cast<cudaLaunchMemSyncDomain>(hints.mem_sync_domain);
      return cudaSuccess;
    case cudaStreamAttributeMemSyncDomainMap:
      value->memSyncDomainMap.default_ = hints.domain_map_default;
      value->memSyncDomainMap.remote = hints.domain_map_remote;
      return cudaSuccess;
    default:
      return runtime::record(cudaErrorInvalidValue);
  }
}

cudaError_t copy_attributes(cudaStream_t destination, cudaStream_t source, NullStream null_stream) {
  core::Stream* to = core::to_stream(destination, null_stream);
  core::Stream* from = core::to_stream(source, null_stream);
  if (!to || !from) return runtime::record(cudaErrorInvalidResourceHandle);
  std::lock_guard lock(hints_mutex);
  to->hints = from->hints;
  to->set_priority(from->priority());
  return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaStreamSetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
                                             const cudaStreamAttrValue* value) {
  return set_attribute(hStream, attr, value, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaStreamSetAttribute_ptsz(cudaStream_t hStream, cudaStreamAttrID attr,
                                                  const cudaStreamAttrValue* value) {
  return set_attribute(hStream, attr, value, NullStream::PerThread);
}
cudaError_t CUDARTAPI cudaStreamGetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
                                             cudaStreamAttrValue* value_out) {
  return get_attribute(hStream, attr, value_out, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaStreamGetAttribute_ptsz(cudaStream_t hStream, cudaStreamAttrID attr,
                                                  cudaStreamAttrValue* value_out) {
  return get_attribute(hStream, attr, value_out, NullStream::PerThread);
}
cudaError_t CUDARTAPI cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src) {
  return copy_attributes(dst, src, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src) {
  return copy_attributes(dst, src, NullStream::PerThread);
}

}  // extern "C"
