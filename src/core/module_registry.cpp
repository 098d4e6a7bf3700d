// Registration of the program's device code and its lazy compilation:
// fatbin wrapper -> entries -> PTX for compute capability 9.0 -> ptx::Module -> native code.
#include "core/module_registry.h"

#include <fmt/format.h>

#include <chrono>
#include <optional>
#include <cctype>
#include <cstdio>
#include <cstring>

#include "core/device.h"
#include "core/device_model_queries.h"
#include "core/link_image.h"
#include "core/memory_registry.h"
#include "core/occupancy.h"
#include "exec/grid.h"
#include "fatbin/cubin_info.h"
#include "fatbin/fatbin.h"
#include "jit/cache_settings.h"
#include "ptx/link.h"
#include "ptx/parse.h"
#include "support/log.h"

namespace cucpu::core {

ModuleRegistry& modules() {
  static auto* registry = new ModuleRegistry;  // immortal: stubs unregister from atexit handlers
  return *registry;
}

namespace {

// Device-side cudaDeviceSynchronize (the guide's Appendix D ABI, nvcc's
// -DCUDA_FORCE_CDP1_IF_SUPPORTED for sm < 90) does not run on compute capability 9.0 and
// later: an H100 refuses to load such a module, and every launch of its kernels returns
// cudaErrorUnsupportedDevSideSync (not sticky). Older emulated devices run it.
std::optional<Error> refuse_device_side_sync(const ptx::Module& module) {
  if (device_arch() < 90) return std::nullopt;
  for (const ptx::Function& function : module.functions) {
    if (function.is_extern && function.name == "cudaDeviceSynchronize")
      return Error{ErrorCode::UnsupportedDevSideSync,
                   fmt::format("the provided PTX contains unsupported call to cudaDeviceSynchronize (device-side "
                               "synchronisation does not run on compute capability {}.{}, as on the GPU; "
                               "CUCPU_DEVICE=sm_80 emulates a device that runs it)",
                               device_arch() / 10, device_arch() % 10)};
  }
  return std::nullopt;
}

}  // namespace

Result<std::unique_ptr<jit::CompiledModule>> FatbinModule::compile() const {
  auto started = std::chrono::steady_clock::now();
  auto texts = wrapper_ ? fatbin::select_wrapper_ptx(wrapper_, device_arch())
                        : Result<std::vector<std::string>>(ptx_texts_);
  if (!texts) return texts.error();
  std::vector<ptx::Module> units;
  size_t ptx_bytes = 0;
  for (size_t i = 0; i < texts->size(); ++i) {
    // An -rdc program's messages name the translation unit: its PTX is one of several.
    auto unit = ptx::parse((*texts)[i], texts->size() == 1 ? "ptx" : fmt::format("ptx (translation unit {})", i));
    if (!unit) return unit.error();
    units.push_back(std::move(*unit));
    ptx_bytes += (*texts)[i].size();
  }
  auto module = ptx::link_modules(std::move(units));
  if (!module) return module.error();
  if (auto refused = refuse_device_side_sync(*module)) return *refused;
  auto parsed = std::chrono::steady_clock::now();
  jit::CompileOptions options;
  options.runtime = exec::GridExecutor::runtime_symbols();
  options.cache = jit::process_disk_cache();
  options.ptx_texts.assign(texts->begin(), texts->end());
  provide_device_model_queries();  // for the device runtime's driver entry points
  auto compiled = jit::compile_module(*module, options);
  auto done = std::chrono::steady_clock::now();
  using ms = std::chrono::duration<double, std::milli>;
  log::debug(log::Category::Jit, "module {}: {} bytes of PTX in {} unit(s), parse {:.1f} ms, compile or load {:.1f} ms",
             label(), ptx_bytes, texts->size(), ms(parsed - started).count(), ms(done - parsed).count());
  return compiled;
}

std::string FatbinModule::label() const { return wrapper_ ? fmt::format("{}", wrapper_) : name_; }

Result<const jit::CompiledModule*> FatbinModule::load() {
  std::lock_guard lock(mutex_);
  if (!attempted_) {
    attempted_ = true;
    auto compiled = compile();
    if (compiled) {
      compiled_ = std::move(*compiled);
      publish_variables();
      read_register_counts();
    } else {
      error_ = compiled.error();
      // Said once, where the user sees it: the launch itself only returns an error code.
      std::fprintf(stderr, "cucpu: cannot load the program's device code: %s\n", error_.message.c_str());
    }
  }
  if (!compiled_) return error_;
  return static_cast<const jit::CompiledModule*>(compiled_.get());
}

// Register counts are a nicety (cudaFuncGetAttributes, occupancy): a cubin cucpu cannot
// read is reported in the debug log and the kernels keep the default.
void FatbinModule::read_register_counts() {
  auto entries = wrapper_ ? fatbin::read_wrapped(wrapper_) : Result<std::vector<fatbin::Entry>>(entries_);
  if (!entries) return;
  auto counts = fatbin::register_counts_for_arch(*entries, device_arch());
  if (!counts) {
    log::debug(log::Category::Jit, "module {}: register counts not read: {}",
               label(), counts.error().message);
    return;
  }
  register_counts_ = std::move(*counts);
}

int FatbinModule::registers_per_thread(const std::string& kernel) const {
  auto it = register_counts_.find(kernel);
  return it == register_counts_.end() ? kRegistersPerThread : it->second;
}

// Registered variables become device memory (cudaMemcpy to them is a device copy), and
// managed ones get their host pointer, which host code dereferences directly.
void FatbinModule::publish_variables() {
  for (Variable* variable : variables_) {
    const jit::GlobalInfo* info = compiled_->find_global(variable->device_name);
    if (!info) continue;
    memory().add_external(info->address, info->size,
                          variable->managed ? MemoryKind::Managed : MemoryKind::ModuleVariable);
    if (variable->managed && variable->managed_host_pointer) *variable->managed_host_pointer = info->address;
  }
}

FatbinModule* ModuleRegistry::register_fatbin(const void* wrapper) {
  std::lock_guard lock(mutex_);
  modules_.push_back(std::make_unique<FatbinModule>(wrapper));
  return modules_.back().get();
}

void ModuleRegistry::unregister_fatbin(FatbinModule* module) {
  // Kernels and variables stay registered: at exit other atexit handlers may still ask,
  // and a module's code must outlive any grid still referring to it.
  (void)module;
}

void ModuleRegistry::register_kernel(FatbinModule* module, const void* host_function, const char* device_name) {
  std::lock_guard lock(mutex_);
  auto kernel = std::make_unique<Kernel>();
  kernel->module = module;
  kernel->host_function = host_function;
  kernel->device_name = device_name;
  function_handles_[kernel.get()] = kernel.get();
  kernels_[host_function] = std::move(kernel);
}

void ModuleRegistry::register_variable(FatbinModule* module, Variable variable) {
  std::lock_guard lock(mutex_);
  variable.module = module;
  auto owned = std::make_unique<Variable>(std::move(variable));
  module->variables().push_back(owned.get());
  variables_[owned->host_shadow] = std::move(owned);
}

Kernel* ModuleRegistry::find_kernel(const void* host_function) {
  std::lock_guard lock(mutex_);
  auto it = kernels_.find(host_function);
  return it == kernels_.end() ? nullptr : it->second.get();
}

Kernel* ModuleRegistry::find_kernel_of(const jit::KernelInfo& info) {
  std::vector<Kernel*> named;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [stub, kernel] : kernels_)
      if (kernel->device_name == info.name) named.push_back(kernel.get());
    // Kernels of modules loaded through the driver (cuModuleGetFunction, cuLibraryGetKernel:
    // how NVIDIA's static runtime reaches every kernel).
    for (const auto& [key, kernel] : loaded_kernels_)
      if (kernel->device_name == info.name) named.push_back(kernel.get());
  }
  // Loading is done already for the module whose code runs: this only finds its result.
  for (Kernel* kernel : named) {
    auto loaded = load_kernel(*kernel);
    if (loaded && *loaded == &info) return kernel;
  }
  return nullptr;
}

Variable* ModuleRegistry::find_variable(const void* host_shadow) {
  std::lock_guard lock(mutex_);
  auto it = variables_.find(host_shadow);
  return it == variables_.end() ? nullptr : it->second.get();
}

Result<const jit::KernelInfo*> ModuleRegistry::load_kernel(const Kernel& kernel) {
  auto compiled = kernel.module->load();
  if (!compiled) return compiled.error();
  const jit::KernelInfo* info = (*compiled)->find_kernel(kernel.device_name);
  if (!info)
    return make_error(ErrorCode::InvalidDeviceFunction,
                      fmt::format("kernel {} is not in the program's PTX", kernel.device_name));
  return info;
}

Result<jit::GlobalInfo> ModuleRegistry::load_variable(const Variable& variable) {
  auto compiled = variable.module->load();
  if (!compiled) return compiled.error();
  const jit::GlobalInfo* info = (*compiled)->find_global(variable.device_name);
  if (!info)
    return make_error(ErrorCode::InvalidValue,
                      fmt::format("variable {} is not in the program's PTX", variable.device_name));
  return *info;
}

Result<void> ModuleRegistry::initialize(FatbinModule* module) {
  auto compiled = module->load();
  if (!compiled) return compiled.error();
  return {};
}

namespace {

// What a driver API image holds: a fatbin wrapper, a fatbin, a link image, an ELF cubin or
// PTX text.
Result<std::unique_ptr<FatbinModule>> module_of_image(const void* image, const std::string& name) {
  uint32_t magic = 0;
  std::memcpy(&magic, image, sizeof magic);
  if (magic == static_cast<uint32_t>(fatbin::kWrapperMagic)) return std::make_unique<FatbinModule>(image);
  if (auto units = read_link_image(image))  // what cuLinkComplete made
    return std::make_unique<FatbinModule>(std::move(*units), std::vector<fatbin::Entry>{}, name);
  if (magic == fatbin::kFatbinMagic) {
    auto entries = fatbin::read_entries(image, SIZE_MAX);
    if (!entries) return entries.error();
    auto ptx = fatbin::select_ptx(*entries, device_arch());
    if (!ptx) return ptx.error();
    return std::make_unique<FatbinModule>(std::vector<std::string>{std::move(*ptx)}, std::move(*entries), name);
  }
  if (magic == 0x464c457fu)  // "\x7fELF": a cubin, machine code for one GPU
    return make_error(ErrorCode::NoKernelImage,
                      fmt::format("{} is a cubin: it holds GPU machine code only, which cucpu cannot run; build "
                                  "PTX instead (nvcc -ptx, or -fatbin with -gencode arch=compute_XX,code=compute_XX)",
                                  name));
  const char* text = static_cast<const char*>(image);
  if (!looks_like_ptx(text))
    return make_error(ErrorCode::InvalidImage,
                      fmt::format("{} is neither PTX, a fatbin nor a cubin (it starts with bytes {:02x} {:02x} {:02x} "
                                  "{:02x})", name, magic & 0xff, (magic >> 8) & 0xff, (magic >> 16) & 0xff, magic >> 24));
  return std::make_unique<FatbinModule>(std::vector<std::string>{std::string(text)}, std::vector<fatbin::Entry>{},
                                        name);
}

}  // namespace

Result<FatbinModule*> ModuleRegistry::load_image(const void* image, std::string name, const void* context,
                                                 Loading loading) {
  if (!image) return make_error(ErrorCode::InvalidValue, "no image");
  auto module = module_of_image(image, name);
  if (!module) return module.error();
  (*module)->set_context(context);
  (*module)->set_lazy(loading == Loading::Lazy);
  if (loading == Loading::Now)
    if (auto compiled = (*module)->load(); !compiled) return compiled.error();
  std::lock_guard lock(mutex_);
  FatbinModule* loaded = module->get();
  modules_.push_back(std::move(*module));
  loaded_[loaded] = loaded;
  return loaded;
}

bool ModuleRegistry::is_loaded(const void* handle) {
  std::lock_guard lock(mutex_);
  return loaded_.count(handle) != 0;
}

Result<void> ModuleRegistry::unload(FatbinModule* module) {
  std::lock_guard lock(mutex_);
  if (loaded_.erase(module) == 0) return make_error(ErrorCode::InvalidResourceHandle, "not a loaded module");
  for (auto it = function_handles_.begin(); it != function_handles_.end();)
    it = it->second->module == module ? function_handles_.erase(it) : std::next(it);
  return {};
}

Result<Kernel*> ModuleRegistry::loaded_function(FatbinModule* module, const std::string& name) {
  if (!module->lazy()) {
    auto compiled = module->load();
    if (!compiled) return compiled.error();
    if (!(*compiled)->find_kernel(name))
      return make_error(ErrorCode::InvalidDeviceFunction, fmt::format("the module has no kernel {}", name));
  }
  std::lock_guard lock(mutex_);
  auto& kernel = loaded_kernels_[{module, name}];
  if (!kernel) {
    kernel = std::make_unique<Kernel>();
    kernel->module = module;
    kernel->device_name = name;
    function_handles_[kernel.get()] = kernel.get();
  }
  return kernel.get();
}

Result<std::vector<std::string>> ModuleRegistry::loaded_kernel_names(FatbinModule* module) {
  auto compiled = module->load();
  if (!compiled) return compiled.error();
  return (*compiled)->kernel_names();
}

Result<jit::GlobalInfo> ModuleRegistry::loaded_global(FatbinModule* module, const std::string& name, bool managed) {
  auto compiled = module->load();
  if (!compiled) return compiled.error();
  const jit::GlobalInfo* info = (*compiled)->find_global(name);
  if (!info) return make_error(ErrorCode::InvalidDeviceFunction, fmt::format("the module has no variable {}", name));
  memory().add_external(info->address, info->size, managed ? MemoryKind::Managed : MemoryKind::ModuleVariable);
  return *info;
}

bool ModuleRegistry::is_function(const void* handle) {
  std::lock_guard lock(mutex_);
  return function_handles_.count(handle) != 0;
}

}  // namespace cucpu::core
