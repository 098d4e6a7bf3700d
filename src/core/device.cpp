// The device profiles (the H200 table with each profile's rows replaced), the choice of
// one through CUCPU_DEVICE, the device count, and the host facts that replace the GPU's
// memory size and name.
#include "core/device.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdio>
#include <cstdlib>

#include "exec/grid.h"

namespace cucpu::core {
namespace {

std::vector<DeviceProfile> build_profiles() {
  std::map<int, int> base = {
#define DEVICE_ATTRIBUTE(name, number, value) {number, value},
#include "core/device_attributes.def"
  };
  struct Row {
    DeviceProfile profile;
    std::vector<std::pair<int, int>> replaced;
  };
  std::vector<Row> rows = {
#define PROFILE(sm, gpu, unit, sub_partitions, max_registers, cluster, ...) \
  {DeviceProfile{sm, gpu, unit, sub_partitions, max_registers, cluster, {__VA_ARGS__}, {}, {}}, {
#define ATTRIBUTE(name, value) {static_cast<int>(DeviceAttribute::name), value},
#define END_PROFILE() }},
#define CLUSTER_SM_GROUPS(sm, ...)
#include "core/device_profiles.def"
  };
  const std::map<uint32_t, std::vector<int>> cluster_sm_groups = {
#define PROFILE(...)
#define ATTRIBUTE(...)
#define END_PROFILE()
#define CLUSTER_SM_GROUPS(sm, ...) {sm, {__VA_ARGS__}},
#include "core/device_profiles.def"
  };
  std::vector<DeviceProfile> profiles;
  for (Row& row : rows) {
    row.profile.attributes = base;
    for (auto [number, value] : row.replaced) row.profile.attributes[number] = value;
    if (auto groups = cluster_sm_groups.find(row.profile.arch); groups != cluster_sm_groups.end())
      row.profile.cluster_sm_groups = groups->second;
    profiles.push_back(std::move(row.profile));
  }
  return profiles;
}

const DeviceProfile& default_profile() { return *find_device_profile("sm_90"); }

const DeviceProfile* profile_from_environment() {
  const char* name = std::getenv("CUCPU_DEVICE");
  if (!name || !*name) return &default_profile();
  if (const DeviceProfile* profile = find_device_profile(name)) return profile;
  std::string known;
  for (const DeviceProfile& p : device_profiles()) known += fmt::format(" sm_{}", p.arch);
  std::fprintf(stderr, "cucpu: CUCPU_DEVICE=%s is not a known profile (known:%s); using sm_90\n", name, known.c_str());
  return &default_profile();
}

std::atomic<const DeviceProfile*>& active_profile() {
  static std::atomic<const DeviceProfile*> profile{profile_from_environment()};
  return profile;
}

int count_from_environment() {
  const char* text = std::getenv("CUCPU_DEVICE_COUNT");
  if (!text || !*text) return 1;
  int count = 0;
  auto [end, error] = std::from_chars(text, text + std::char_traits<char>::length(text), count);
  if (error != std::errc{} || *end != '\0' || count < 1 || count > kMaxDevices) {
    std::fprintf(stderr, "cucpu: CUCPU_DEVICE_COUNT=%s is not a number from 1 to %d; using 1\n", text, kMaxDevices);
    return 1;
  }
  return count;
}

}  // namespace

const std::vector<DeviceProfile>& device_profiles() {
  static const std::vector<DeviceProfile> profiles = build_profiles();
  return profiles;
}

const DeviceProfile* find_device_profile(std::string_view name) {
  for (std::string_view prefix : {"sm_", "compute_"})
    if (name.substr(0, prefix.size()) == prefix) name.remove_prefix(prefix.size());
  std::string digits(name);
  if (digits.size() == 3 && digits[1] == '.') digits.erase(1, 1);  // "8.0"
  for (const DeviceProfile& profile : device_profiles())
    if (digits == std::to_string(profile.arch)) return &profile;
  return nullptr;
}

const DeviceProfile& device_profile() { return *active_profile().load(std::memory_order_acquire); }

void select_device_profile(const DeviceProfile& profile) {
  active_profile().store(&profile, std::memory_order_release);
}

std::optional<int> device_attribute(int number, int ordinal) {
  const auto& attributes = device_profile().attributes;
  auto it = attributes.find(number);
  if (it == attributes.end()) return std::nullopt;
  // Identical devices differ only in where they sit on the bus.
  if (number == static_cast<int>(DeviceAttribute::cudaDevAttrPciBusId)) return it->second + ordinal;
  return it->second;
}

int device_attribute(DeviceAttribute attribute) { return device_attribute(static_cast<int>(attribute)).value_or(0); }

int compute_capability_major() { return device_attribute(DeviceAttribute::cudaDevAttrComputeCapabilityMajor); }
int compute_capability_minor() { return device_attribute(DeviceAttribute::cudaDevAttrComputeCapabilityMinor); }
uint32_t device_arch() { return device_profile().arch; }

int device_count() {
  static const int count = count_from_environment();
  return count;
}

bool is_valid_device(int ordinal) { return ordinal >= 0 && ordinal < device_count(); }

std::string device_pci_bus_id(int ordinal) {
  int domain = device_attribute(static_cast<int>(DeviceAttribute::cudaDevAttrPciDomainId), ordinal).value_or(0);
  int bus = device_attribute(static_cast<int>(DeviceAttribute::cudaDevAttrPciBusId), ordinal).value_or(0);
  return fmt::format("{:04x}:{:02x}:{:02x}.0", domain, bus, 0);
}

std::optional<int> device_by_pci_bus_id(const char* bus_id) {
  unsigned domain = 0, bus = 0, slot = 0, function = 0;
  char tail = 0;
  bool parsed = std::sscanf(bus_id, "%x:%x:%x.%x%c", &domain, &bus, &slot, &function, &tail) == 4 ||
                std::sscanf(bus_id, "%x:%x:%x%c", &domain, &bus, &slot, &tail) == 3;
  if (!parsed) {
    domain = 0;
    parsed = std::sscanf(bus_id, "%x:%x.%x%c", &bus, &slot, &function, &tail) == 3;
  }
  if (!parsed) return std::nullopt;
  const std::string wanted = fmt::format("{:04x}:{:02x}:{:02x}.0", domain, bus, slot);
  for (int ordinal = 0; ordinal < device_count(); ++ordinal)
    if (device_pci_bus_id(ordinal) == wanted) return ordinal;
  return -1;
}

std::array<unsigned char, 16> device_uuid(int ordinal) {
  std::array<unsigned char, 16> uuid{'c', 'u', 'c', 'p', 'u', 0, 0x40, 0, 0x80};
  for (int i = 0; i < 4; ++i) uuid[12 + i] = static_cast<unsigned char>(static_cast<unsigned>(ordinal) >> (24 - 8 * i));
  return uuid;
}

std::string device_name() {
  return fmt::format("cucpu CPU device ({} profile, {} workers)", device_profile().gpu,
                     exec::GridExecutor::instance().worker_count());
}

uint64_t total_memory_bytes() {
  return static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

uint64_t free_memory_bytes() {
  return static_cast<uint64_t>(sysconf(_SC_AVPHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace cucpu::core
