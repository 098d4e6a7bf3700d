// Choosing the PTX that the emulated device runs from the entries of a fatbin.
//
// PTX for compute_XX runs on any device of compute capability XX or higher (CUDA
// Programming Guide, "Application Compatibility"), and the newest such PTX is what the
// driver would JIT-compile, so that is the one chosen. Machine code (cubins) and LTO IR are
// of no use to cucpu; when nothing fits, the error lists what the program does hold and
// the nvcc options that would embed PTX the device can run.
//
// One exception: a program with machine code the device runs (sm_90 for a 9.0 device) but
// PTX only for newer devices, as NVIDIA's own libraries and CuPy's CUB kernels ship
// (sm_75 ... sm_120 code, compute_120 PTX). A GPU of the emulated kind runs its machine
// code, which was compiled from the same source; cucpu, which cannot run machine code,
// runs the oldest newer PTX instead and says so on stderr: code that the source tunes per
// architecture (block sizes, the order of a float reduction) may then round differently
// from the GPU.
#include <fmt/format.h>
#include <fmt/ranges.h>  // fmt::join

#include <algorithm>
#include <cstdio>
#include <map>

#include "fatbin/fatbin.h"

namespace cucpu::fatbin {

namespace {

// "compute_75, compute_90 PTX and sm_90 machine code": what the entries hold, by kind.
std::string describe(const std::vector<Entry>& entries) {
  std::map<EntryKind, std::vector<uint32_t>> archs;
  for (const Entry& entry : entries) {
    auto& list = archs[entry.kind];
    if (std::find(list.begin(), list.end(), entry.arch) == list.end()) list.push_back(entry.arch);
  }
  std::vector<std::string> parts;
  auto add = [&](EntryKind kind, const char* prefix, const char* what) {
    auto it = archs.find(kind);
    if (it == archs.end()) return;
    std::sort(it->second.begin(), it->second.end());
    std::vector<std::string> names;
    for (uint32_t arch : it->second) names.push_back(fmt::format("{}{}", prefix, arch));
    parts.push_back(fmt::format("{} {}", fmt::join(names, ", "), what));
  };
  add(EntryKind::Ptx, "compute_", "PTX");
  add(EntryKind::Cubin, "sm_", "machine code");
  add(EntryKind::LtoIr, "compute_", "LTO IR");
  if (auto it = archs.find(EntryKind::Unknown); it != archs.end()) parts.push_back("entries of unknown kind");
  if (parts.empty()) return "nothing: the fatbin is empty";
  return fmt::format("{}", fmt::join(parts, " and "));
}

// The nvcc options that embed PTX for `arch`.
std::string rebuild_hint(uint32_t arch) {
  return fmt::format(
      "rebuild with -arch=sm_{0} (which embeds compute_{0} PTX) or add -gencode arch=compute_{0},code=compute_{0}",
      arch);
}

// The arch to suggest: the newest the program was built for that the device can run,
// so that the rebuild changes as little as possible; else the device's own.
uint32_t suggested_arch(const std::vector<Entry>& entries, uint32_t device_arch) {
  uint32_t best = 0;
  for (const Entry& entry : entries)
    if (entry.arch <= device_arch) best = std::max(best, entry.arch);
  return best != 0 ? best : device_arch;
}

// The newest machine code a device of `arch` runs (same major version, minor not above
// the device's), or 0.
uint32_t machine_code_for(const std::vector<Entry>& entries, uint32_t arch) {
  uint32_t best = 0;
  for (const Entry& entry : entries)
    if (entry.kind == EntryKind::Cubin && entry.arch / 10 == arch / 10 && entry.arch <= arch)
      best = std::max(best, entry.arch);
  return best;
}

// The oldest PTX newer than `arch`, where machine code for `arch` exists (see the file comment).
const Entry* newer_ptx_beside_machine_code(const std::vector<Entry>& entries, uint32_t arch) {
  if (machine_code_for(entries, arch) == 0) return nullptr;
  const Entry* oldest = nullptr;
  for (const Entry& entry : entries)
    if (entry.kind == EntryKind::Ptx && entry.arch > arch && (oldest == nullptr || entry.arch < oldest->arch))
      oldest = &entry;
  return oldest;
}

}  // namespace

Result<std::string> select_ptx(const std::vector<Entry>& entries, uint32_t arch) {
  const Entry* chosen = nullptr;
  bool any_ptx = false;
  for (const Entry& entry : entries) {
    if (entry.kind != EntryKind::Ptx) continue;
    any_ptx = true;
    if (entry.arch <= arch && (chosen == nullptr || entry.arch > chosen->arch)) chosen = &entry;
  }
  if (chosen != nullptr) return std::string(chosen->data.begin(), chosen->data.end());
  if (const Entry* newer = newer_ptx_beside_machine_code(entries, arch)) {
    std::fprintf(stderr,
                 "cucpu: the program holds %s; a %u.%u GPU runs its sm_%u machine code, which cucpu cannot: "
                 "running its compute_%u PTX instead (built from the same source; per-architecture tuning may "
                 "round differently)\n",
                 describe(entries).c_str(), arch / 10, arch % 10, machine_code_for(entries, arch), newer->arch);
    return std::string(newer->data.begin(), newer->data.end());
  }

  std::string hint = rebuild_hint(suggested_arch(entries, arch));
  if (!any_ptx)
    return make_error(ErrorCode::NoKernelImage,
                      fmt::format("the program holds no PTX (only {}); cucpu needs PTX: {}", describe(entries), hint));
  return make_error(ErrorCode::NoKernelImage,
                    fmt::format("the program holds {}, but no PTX for compute capability {}.{} (the emulated "
                                "device) or older; {}",
                                describe(entries), arch / 10, arch % 10, hint));
}

}  // namespace cucpu::fatbin
