// The registration ABI that nvcc's host stubs call before main: fatbins, kernels and
// variables (crt/host_runtime.h). Handles returned to the stubs are FatbinModule
// pointers; nothing is compiled here (modules load lazily, see core/module_registry.h).
#include <cuda_runtime_api.h>

#include "core/module_registry.h"
#include "support/log.h"

using cucpu::core::FatbinModule;
using cucpu::core::modules;

namespace {

FatbinModule* module_of(void** handle) { return reinterpret_cast<FatbinModule*>(handle); }

}  // namespace

extern "C" {

void** CUDARTAPI __cudaRegisterFatBinary(void* fatCubin) {
  cucpu::log::debug(cucpu::log::Category::Api, "__cudaRegisterFatBinary({})", fatCubin);
  return reinterpret_cast<void**>(modules().register_fatbin(fatCubin));
}

void CUDARTAPI __cudaRegisterFatBinaryEnd(void** fatCubinHandle) { (void)fatCubinHandle; }

void CUDARTAPI __cudaUnregisterFatBinary(void** fatCubinHandle) { modules().unregister_fatbin(module_of(fatCubinHandle)); }

void CUDARTAPI __cudaRegisterFunction(void** fatCubinHandle, const char* hostFun, char* deviceFun,
                                      const char* deviceName, int thread_limit, uint3* tid, uint3* bid, dim3* bDim,
                                      dim3* gDim, int* wSize) {
  (void)deviceName, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
  cucpu::log::debug(cucpu::log::Category::Api, "__cudaRegisterFunction({})", deviceFun);
  modules().register_kernel(module_of(fatCubinHandle), hostFun, deviceFun);
}

void CUDARTAPI __cudaRegisterVar(void** fatCubinHandle, char* hostVar, char* deviceAddress, const char* deviceName,
                                 int ext, size_t size, int constant, int global) {
  (void)deviceName, (void)ext, (void)global;
  cucpu::core::Variable variable;
  variable.host_shadow = hostVar;
  variable.device_name = deviceAddress;  // the stubs pass the PTX name here
  variable.size = size;
  variable.constant = constant != 0;
  modules().register_variable(module_of(fatCubinHandle), std::move(variable));
}

void CUDARTAPI __cudaRegisterManagedVar(void** fatCubinHandle, void** hostVarPtrAddress, char* deviceAddress,
                                        const char* deviceName, int ext, size_t size, int constant, int global) {
  (void)deviceName, (void)ext, (void)global;
  cucpu::core::Variable variable;
  variable.host_shadow = hostVarPtrAddress;
  variable.device_name = deviceAddress;
  variable.size = size;
  variable.constant = constant != 0;
  variable.managed = true;
  variable.managed_host_pointer = hostVarPtrAddress;
  modules().register_variable(module_of(fatCubinHandle), std::move(variable));
}

// Called before host code first touches a __managed__ variable: the module must be
// loaded so that the variable's host pointer points at its storage.
char CUDARTAPI __cudaInitModule(void** fatCubinHandle) {
  return modules().initialize(module_of(fatCubinHandle)).has_value() ? 1 : 0;
}

}  // extern "C"
