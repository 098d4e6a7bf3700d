// JIT options: checked, and their outputs written (jit_options.h).
#include "api/driver/jit_options.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace cucpu::driver {
namespace {

// A size option's value travels in the pointer itself.
size_t size_value(void* value) { return static_cast<size_t>(reinterpret_cast<uintptr_t>(value)); }

void write_log(char* buffer, size_t capacity, const std::string& log, void** size_slot) {
  if (!buffer || capacity == 0) return;
  const size_t written = std::min(log.size(), capacity - 1);
  std::memcpy(buffer, log.data(), written);
  buffer[written] = '\0';
  if (size_slot) *size_slot = reinterpret_cast<void*>(static_cast<uintptr_t>(written + (written ? 1 : 0)));
}

}  // namespace

CUresult JitOptions::check() const {
  if (count_ > 0 && (!options_ || !values_)) return CUDA_ERROR_INVALID_VALUE;
  for (unsigned i = 0; i < count_; ++i)
    if (options_[i] < 0 || options_[i] >= CU_JIT_NUM_OPTIONS) return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

void JitOptions::report(const std::string& info_log, const std::string& error_log, float wall_ms) const {
  // The buffers and their sizes are separate options, in any order.
  char* info = nullptr;
  char* error = nullptr;
  size_t info_size = 0, error_size = 0;
  void** info_size_slot = nullptr;
  void** error_size_slot = nullptr;
  for (unsigned i = 0; i < count_; ++i) {
    switch (options_[i]) {
      case CU_JIT_INFO_LOG_BUFFER: info = static_cast<char*>(values_[i]); break;
      case CU_JIT_ERROR_LOG_BUFFER: error = static_cast<char*>(values_[i]); break;
      case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
        info_size = size_value(values_[i]);
        info_size_slot = &values_[i];
        break;
      case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
        error_size = size_value(values_[i]);
        error_size_slot = &values_[i];
        break;
      case CU_JIT_WALL_TIME: std::memcpy(&values_[i], &wall_ms, sizeof wall_ms); break;
      default: break;
    }
  }
  write_log(info, info_size, info_log, info_size_slot);
  write_log(error, error_size, error_log, error_size_slot);
}

}  // namespace cucpu::driver
