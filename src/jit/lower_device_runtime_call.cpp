// Calls of the device runtime's externs (CUDA Programming Guide "CUDA Dynamic
// Parallelism"): the __cudaCDP2* functions of cuda_device_runtime_api.h that nvcc 13
// emits for a `<<<>>>` launch in device code, cudaGetLastError and the other device-side
// runtime calls, and the plain names of the guide's Appendix D ABI (cudaLaunchDeviceV2,
// cudaDeviceSynchronize, ...) that it emits with -DCUDA_FORCE_CDP1_IF_SUPPORTED. NVIDIA's
// libcudadevrt is not linked in (ptx/link.cpp leaves it out), so each becomes a call of
// the executor's "__cucpu_devrt.NAME" with one generic ABI
// (kernel_abi.h): void(ThreadContext*, void* const* args, void* result), where args[i]
// points at the i-th argument's .param memory, laid out as the extern's PTX declaration
// says, and result at the return .param. One ABI for all of them keeps this file free of
// per-function knowledge; the executor decodes each function's arguments. Where the
// library's own PTX is compiled (`cucpu ptx --compile`, tests), the driver entry points it
// calls (cnp*, __cuda_syscall_*: kDeviceRuntimeDriverFunctions) are lowered the same way.
#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <string>

#include "jit/call_site.h"
#include "jit/function_lowering.h"
#include "jit/kernel_abi.h"

namespace cucpu::jit {
namespace {

bool is_device_runtime_function(const std::string& name) {
  auto named = [&](const char* known) { return name == known; };
  return std::any_of(std::begin(kDeviceRuntimeFunctions), std::end(kDeviceRuntimeFunctions), named) ||
         std::any_of(std::begin(kGraphDeviceFunctions), std::end(kGraphDeviceFunctions), named) ||
         std::any_of(std::begin(kDeviceRuntimeDriverFunctions), std::end(kDeviceRuntimeDriverFunctions), named);
}

// The address of a .param variable of this frame, or null when `op` is not one.
llvm::Value* param_memory(FunctionLowering& fl, const ptx::Operand& op) {
  if (op.kind != ptx::Operand::Kind::Symbol) return nullptr;
  const SymbolBinding* s = fl.find_symbol(op.name);
  if (s == nullptr || s->kind != SymbolBinding::Kind::Memory) return nullptr;
  return s->address;
}

}  // namespace

bool lower_device_runtime_call(FunctionLowering& fl, const CallSite& site, const ptx::Function& callee) {
  if (!is_device_runtime_function(callee.name)) return false;
  auto& b = fl.b;
  if (site.arguments.size() != callee.params.size() || site.returns.size() != callee.returns.size() ||
      site.returns.size() > 1) {
    fl.fail(fmt::format("call to {} with {} results and {} arguments; it declares {} and {}", callee.name,
                        site.returns.size(), site.arguments.size(), callee.returns.size(), callee.params.size()));
    return true;
  }
  llvm::Type* ptr = fl.ptr_type();
  llvm::Value* args = llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(fl.ctx));
  if (!site.arguments.empty()) {
    auto* array_type = llvm::ArrayType::get(ptr, site.arguments.size());
    args = fl.entry_alloca(array_type, 8, "devrt.args");
    for (size_t i = 0; i < site.arguments.size(); ++i) {
      const ptx::Operand& op = *site.arguments[i];
      llvm::Value* memory = param_memory(fl, op);
      if (memory == nullptr) {
        // A register or immediate argument: spill it to a slot of the parameter's type.
        const ptx::Parameter& param = callee.params[i];
        if (param.array_size != 0) {
          fl.fail(fmt::format("argument {} of {} must be a .param variable", i, callee.name));
          return true;
        }
        llvm::AllocaInst* slot = fl.entry_alloca(fl.value_type(param.type), param.alignment(), "devrt.arg");
        b.CreateStore(fl.read(op, param.type), slot);
        memory = slot;
      }
      b.CreateStore(memory, b.CreateConstInBoundsGEP2_32(array_type, args, 0, static_cast<unsigned>(i)));
    }
  }
  llvm::Value* result = llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(fl.ctx));
  if (!site.returns.empty()) {
    result = param_memory(fl, *site.returns[0]);
    if (result == nullptr) {
      fl.fail("call results must be .param variables");
      return true;
    }
  }
  if (fl.failed()) return true;
  // cudaDeviceSynchronize waits for other threads, those of the grids the block launched:
  // the kernel's blocks must run as fibers, so that a waiting block can be suspended.
  if (callee.name == kDeviceSynchronize) fl.waits_for_other_threads = true;
  const std::string symbol = std::string(kDeviceRuntimePrefix) + callee.name;
  b.CreateCall(fl.runtime_function(symbol.c_str(), b.getVoidTy(), {ptr, ptr, ptr}), {fl.thread_context, args, result});
  return true;
}

}  // namespace cucpu::jit
