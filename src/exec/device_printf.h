// Device-side formatted output (CUDA Programming Guide "Formatted Output"): the formatter
// for vprintf's argument buffer, and the buffer the output waits in until the host
// synchronises.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cucpu::exec {

// Formats `format` with the arguments nvcc packed into `args` (each aligned to its own
// size: 4-byte ints and chars, 8-byte longs, pointers and doubles) and appends the text
// to `out`. Returns the number of arguments the format consumed (what device printf
// returns). `args` may be null when the format takes no arguments.
int format_device_printf(const char* format, const uint8_t* args, std::string& out);

// The device's printf FIFO: output appended by kernels, written to stdout at the next
// synchronisation point. What does not fit is dropped, as on the GPU.
void append_device_output(std::string_view text);
void flush_device_output();                   // fwrite + fflush to stdout, then empty
// cudaLimitPrintfFifoSize. CUDA refuses a new size once a kernel that prints has been
// launched; cucpu refuses it once a kernel has printed (false), until reset_device_output.
bool set_device_output_capacity(size_t bytes);
size_t device_output_capacity();
// cudaDeviceReset: the FIFO is empty and unused again, with the default capacity.
void reset_device_output();

constexpr size_t kDefaultPrintfFifoBytes = 8650752;  // what an H100 reports (tests/data/device_limits.out)

}  // namespace cucpu::exec
