// The emulated device's attribute table and the host facts that replace the GPU's
// memory size and name.
#include "core/device.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <array>

#include "exec/grid.h"

namespace cucpu::core {
namespace {

struct AttributeValue {
  int number;
  int value;
};

constexpr AttributeValue kAttributes[] = {
#define DEVICE_ATTRIBUTE(name, number, value) {number, value},
#include "core/device_attributes.def"
};

}  // namespace

std::optional<int> device_attribute(int number) {
  auto it = std::find_if(std::begin(kAttributes), std::end(kAttributes),
                         [number](const AttributeValue& a) { return a.number == number; });
  if (it == std::end(kAttributes)) return std::nullopt;
  return it->value;
}

int device_attribute(DeviceAttribute attribute) { return device_attribute(static_cast<int>(attribute)).value_or(0); }

std::string device_name() {
  return fmt::format("cucpu CPU device (H200 profile, {} workers)", exec::GridExecutor::instance().worker_count());
}

uint64_t total_memory_bytes() {
  return static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

uint64_t free_memory_bytes() {
  return static_cast<uint64_t>(sysconf(_SC_AVPHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace cucpu::core
