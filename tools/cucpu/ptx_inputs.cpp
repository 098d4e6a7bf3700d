#include "tools/cucpu/ptx_inputs.h"

#include <fmt/format.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "fatbin/fatbin.h"
#include "tools/cucpu/elf_sections.h"

namespace cucpu::tool {
namespace {

Error invalid_input(std::string message) { return Error{ErrorCode::InvalidValue, std::move(message)}; }

bool starts_with_fatbin_magic(std::string_view bytes) {
  uint32_t magic = 0;
  if (bytes.size() < sizeof magic) return false;
  std::memcpy(&magic, bytes.data(), sizeof magic);
  return magic == fatbin::kFatbinMagic;
}

// The PTX for `arch` of each fatbin in `blob` that has some; fatbins of machine code only
// (nvlink's output in an -rdc program) have none and are passed over.
Result<std::vector<std::vector<fatbin::Entry>>> fatbins_with_ptx(std::string_view blob) {
  auto fatbins = fatbin::read_fatbins(blob.data(), blob.size());
  if (!fatbins) return fatbins.error();
  std::vector<std::vector<fatbin::Entry>> with_ptx;
  for (auto& entries : *fatbins) {
    bool has_ptx = false;
    for (const fatbin::Entry& entry : entries) has_ptx = has_ptx || entry.kind == fatbin::EntryKind::Ptx;
    if (has_ptx) with_ptx.push_back(std::move(entries));
  }
  return with_ptx;
}

// The modules of one nvcc-built binary (see read_ptx_inputs).
Result<std::vector<PtxModuleSource>> binary_modules(const std::string& file, std::string_view bytes, uint32_t arch) {
  std::string_view main_fatbins = bytes, relocatable_fatbins;
  if (!starts_with_fatbin_magic(bytes)) {
    main_fatbins = {};
    for (const ElfSection& section : read_elf_sections(bytes)) {
      if (section.name == ".nv_fatbin") main_fatbins = section.bytes;
      if (section.name == "__nv_relfatbin") relocatable_fatbins = section.bytes;
    }
  }
  std::vector<PtxModuleSource> modules;
  if (!relocatable_fatbins.empty()) {
    auto objects = fatbins_with_ptx(relocatable_fatbins);
    if (!objects) return objects.error();
    PtxModuleSource linked{fmt::format("{} (-rdc)", file), {}};
    for (const auto& entries : *objects) {
      if (objects->size() > 1 && fatbin::is_device_runtime_library(entries)) continue;
      auto text = fatbin::select_ptx(entries, arch);
      if (!text) return Error{text.error().code, fmt::format("{}: {}", file, text.error().message)};
      linked.units.push_back(std::move(*text));
    }
    if (!linked.units.empty()) modules.push_back(std::move(linked));
  }
  if (modules.empty() && !main_fatbins.empty()) {
    auto fatbins = fatbins_with_ptx(main_fatbins);
    if (!fatbins) return Error{fatbins.error().code, fmt::format("{}: {}", file, fatbins.error().message)};
    for (size_t i = 0; i < fatbins->size(); ++i) {
      auto text = fatbin::select_ptx((*fatbins)[i], arch);
      if (!text) return Error{text.error().code, fmt::format("{}: {}", file, text.error().message)};
      modules.push_back({fmt::format("{} (fatbin {})", file, i + 1), {std::move(*text)}});
    }
  }
  if (modules.empty()) return invalid_input(fmt::format("{}: no PTX in it (no fatbin with PTX)", file));
  return modules;
}

}  // namespace

Result<std::vector<PtxModuleSource>> read_ptx_inputs(const std::vector<std::string>& files, uint32_t arch) {
  std::vector<PtxModuleSource> modules;
  PtxModuleSource plain;
  for (const std::string& file : files) {
    std::ifstream stream(file, std::ios::binary);
    if (!stream) return invalid_input(fmt::format("cannot open {}", file));
    std::string bytes((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
    if (starts_with_fatbin_magic(bytes) || !read_elf_sections(bytes).empty()) {
      auto found = binary_modules(file, bytes, arch);
      if (!found) return found.error();
      for (auto& module : *found) modules.push_back(std::move(module));
      continue;
    }
    plain.name += plain.name.empty() ? file : " + " + file;
    plain.units.push_back(std::move(bytes));
  }
  if (!plain.units.empty()) modules.insert(modules.begin(), std::move(plain));
  return modules;
}

}  // namespace cucpu::tool
