// Stream attributes: cudaStreamSetAttribute / GetAttribute / CopyAttributes (and their
// _ptsz twins), served by the driver's (api/driver/launch_attributes.h): an H200 takes the
// access policy window, the synchronization policy, the priority, the memory
// synchronization domain and its map; every other attribute is cudaErrorInvalidValue, both
// ways (tests/e2e/setter_sweep.cu).
#include <cuda_runtime_api.h>

#include "api/driver/launch_attributes.h"
#include "api/runtime/launch_attribute_values.h"
#include "api/runtime/runtime_state.h"
#include "core/stream_handle.h"

using namespace cucpu;
using core::NullStream;

namespace {

cudaError_t recorded(const Result<void>& result) { return result ? cudaSuccess : runtime::record(result.error()); }

cudaError_t set_attribute(cudaStream_t handle, cudaStreamAttrID attribute, const cudaStreamAttrValue* value,
                          NullStream null_stream) {
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return runtime::record(cudaErrorInvalidResourceHandle);
  if (!value) return runtime::record(cudaErrorInvalidValue);
  return recorded(driver::set_stream_attribute(*stream, runtime::to_driver(attribute), runtime::to_driver(*value)));
}

cudaError_t get_attribute(cudaStream_t handle, cudaStreamAttrID attribute, cudaStreamAttrValue* value,
                          NullStream null_stream) {
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return runtime::record(cudaErrorInvalidResourceHandle);
  if (!value) return runtime::record(cudaErrorInvalidValue);
  return recorded(driver::get_stream_attribute(*stream, runtime::to_driver(attribute), runtime::to_driver(value)));
}

cudaError_t copy_attributes(cudaStream_t destination, cudaStream_t source, NullStream null_stream) {
  core::Stream* to = core::to_stream(destination, null_stream);
  core::Stream* from = core::to_stream(source, null_stream);
  if (!to || !from) return runtime::record(cudaErrorInvalidResourceHandle);
  driver::copy_stream_attributes(*to, *from);
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
