// The device's sticky error: a fault inside a kernel breaks the context, and every later
// call reports it until cudaDeviceReset (CUDA 13 on H100/H200, see
// ../shared/conformance/error_sticky).
#pragma once

#include <optional>

#include "support/result.h"

namespace cucpu::core {

void set_sticky_error(const Error& error);  // keeps the first one
std::optional<Error> sticky_error();
void clear_sticky_error();

}  // namespace cucpu::core
