// The device code a program registered: one FatbinModule per __cudaRegisterFatBinary,
// with the kernels and variables the host stubs registered against it. Modules are
// compiled lazily, on the first use of one of their kernels or variables (as CUDA's
// lazy loading does), so that a program whose PTX cucpu cannot compile still starts and
// gets the error from the launch that needs it.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "fatbin/fatbin.h"
#include "jit/compile.h"
#include "support/result.h"

namespace cucpu::core {

class FatbinModule;

// Whether a driver API module is compiled when it is loaded (cuModuleLoadData: bad code is
// the load's error) or at its first use (cuLibraryLoadData, the runtime's own fatbins).
enum class Loading { Now, Lazy };

// A kernel as the host knows it: the stub's address and the mangled device name.
struct Kernel {
  FatbinModule* module = nullptr;
  const void* host_function = nullptr;
  std::string device_name;
  // Set by cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize).
  // -1: not set, the default (kernel_launch_limits.h: 48 KiB less the static shared memory).
  int max_dynamic_shared_bytes = -1;
  int preferred_shared_carveout = -1;
  int cache_config = 0;  // cudaFuncSetCacheConfig (cudaFuncCache): the occupancy rules read it
  // Thread block clusters (cudaFuncSetAttribute): a required shape (0s: none), whether more
  // than 8 blocks may form one (any nonzero value; an H100 reads back the value set, 2
  // included), the scheduling policy. Whether a launch must name a shape is the kernel's
  // own (__cluster_dims__): the attribute cannot be set.
  uint32_t required_cluster[3] = {0, 0, 0};
  int non_portable_cluster_size_allowed = 0;
  int cluster_scheduling_policy = 0;
};

// A __device__/__constant__/__managed__ variable as the host knows it.
struct Variable {
  FatbinModule* module = nullptr;
  const void* host_shadow = nullptr;  // the host-side variable (symbol for cudaMemcpyToSymbol)
  std::string device_name;
  size_t size = 0;
  bool constant = false;
  bool managed = false;
  void** managed_host_pointer = nullptr;  // __cudaRegisterManagedVar: set to the storage at load
};

class FatbinModule {
 public:
  explicit FatbinModule(const void* wrapper) : wrapper_(wrapper) {}
  // A module the driver API loads (cuModuleLoadData, ...): its PTX chosen already, one
  // text per translation unit, and the entries of its fatbin, if it came in one (their
  // cubins give register counts). `name` says in messages which module it is.
  FatbinModule(std::vector<std::string> ptx_texts, std::vector<fatbin::Entry> entries, std::string name)
      : wrapper_(nullptr), ptx_texts_(std::move(ptx_texts)), entries_(std::move(entries)), name_(std::move(name)) {}

  // The context a driver API module was loaded into (its kernels launch only there); null
  // for the program's registered modules, which every context shares.
  const void* context() const { return context_; }
  void set_context(const void* context) { context_ = context; }
  // Loaded lazily: its kernels are looked up by name only when they run.
  bool lazy() const { return lazy_; }
  void set_lazy(bool lazy) { lazy_ = lazy; }

  // Compiles the module if not done yet; the result (or the error) is kept.
  Result<const jit::CompiledModule*> load();
  const void* wrapper() const { return wrapper_; }
  std::vector<Variable*>& variables() { return variables_; }
  // Registers per thread of a kernel of this module: what ptxas chose, where the program
  // carries a cubin for the emulated arch, else kRegistersPerThread (core/occupancy.h).
  // Valid once load() succeeded.
  int registers_per_thread(const std::string& kernel) const;

 private:
  Result<std::unique_ptr<jit::CompiledModule>> compile() const;
  std::string label() const;  // the module in log lines: its wrapper's address, or its name
  void publish_variables();
  void read_register_counts();

  const void* wrapper_;
  std::vector<std::string> ptx_texts_;  // a loaded module's (wrapper_ null)
  std::vector<fatbin::Entry> entries_;
  std::string name_;
  const void* context_ = nullptr;
  bool lazy_ = false;
  std::mutex mutex_;
  bool attempted_ = false;
  std::unique_ptr<jit::CompiledModule> compiled_;
  Error error_;
  std::vector<Variable*> variables_;
  std::map<std::string, int> register_counts_;  // from the cubin, by mangled kernel name
};

class ModuleRegistry {
 public:
  FatbinModule* register_fatbin(const void* wrapper);
  void unregister_fatbin(FatbinModule* module);
  void register_kernel(FatbinModule* module, const void* host_function, const char* device_name);
  void register_variable(FatbinModule* module, Variable variable);

  Kernel* find_kernel(const void* host_function);
  // The registered kernel whose compiled code is `info` (device code names kernels by their
  // code); null for a kernel of a module the host never registered.
  Kernel* find_kernel_of(const jit::KernelInfo& info);
  Variable* find_variable(const void* host_shadow);

  // The compiled kernel, compiling its module on first use.
  Result<const jit::KernelInfo*> load_kernel(const Kernel& kernel);
  // The device address and size of a variable, compiling its module on first use.
  Result<jit::GlobalInfo> load_variable(const Variable& variable);
  // Loads a module and points its managed variables' host pointers at their storage.
  Result<void> initialize(FatbinModule* module);

  // The driver API's modules (CUmodule/CUlibrary, CUfunction/CUkernel): loaded from an
  // image in memory (a fatbin, a fatbin wrapper, PTX text) into `context` (null: every
  // context's). `name` names the image in messages (a file name, "image").
  Result<FatbinModule*> load_image(const void* image, std::string name, const void* context,
                                   Loading loading = Loading::Now);
  bool is_loaded(const void* handle);
  // Unloading makes the handles invalid; the code stays, for grids still running it.
  Result<void> unload(FatbinModule* module);
  // A kernel of a loaded module by its (mangled) name; the same Kernel for every call.
  Result<Kernel*> loaded_function(FatbinModule* module, const std::string& name);
  // A kernel handle (CUfunction) of either API: a loaded module's or a registered one's.
  bool is_function(const void* handle);
  // A variable of a loaded module (cuModuleGetGlobal, cuLibraryGetManaged): its storage
  // becomes device (or managed) memory.
  Result<jit::GlobalInfo> loaded_global(FatbinModule* module, const std::string& name, bool managed = false);
  // The names of a loaded module's kernels (compiling it if it was loaded lazily).
  Result<std::vector<std::string>> loaded_kernel_names(FatbinModule* module);

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<FatbinModule>> modules_;
  std::map<const void*, std::unique_ptr<Kernel>> kernels_;      // by host stub
  std::map<const void*, std::unique_ptr<Variable>> variables_;  // by host shadow
  // Loaded modules (live ones in loaded_) and their kernels, by name and by handle.
  std::map<const void*, FatbinModule*> loaded_;
  std::map<std::pair<FatbinModule*, std::string>, std::unique_ptr<Kernel>> loaded_kernels_;
  std::map<const void*, Kernel*> function_handles_;  // every Kernel, loaded or registered
};

ModuleRegistry& modules();

}  // namespace cucpu::core
