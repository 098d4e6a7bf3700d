// The answer NVIDIA's statically linked runtime (libcudart_static, nvcc's default) expects
// from its driver before it makes any allocation or launch: a keyed hash over the driver's
// version, the process, the thread, the export tables it was handed and the devices'
// identities (../shared/static-cudart.md, section 3.6). A wrong answer latches
// cudaErrorSoftwareValidityNotEstablished for every later runtime call.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace cucpu::driver {

// RFC 1319 MD2 and RFC 2104 HMAC over it (16-byte blocks), the hash the check uses.
std::array<uint8_t, 16> md2(std::span<const uint8_t> message);
std::array<uint8_t, 16> hmac_md2(std::span<const uint8_t, 16> key, std::span<const uint8_t> message);

// The two 64-bit words for the runtime's `version` (its own version plus 0, 1 or 2) and the
// time it passed, given the CUDART_INTERFACE and integrity tables as handed out and the
// function in the integrity table's slot 1.
std::array<uint64_t, 2> integrity_answer(uint32_t version, uint64_t unix_seconds, const void* cudart_table,
                                         const void* integrity_table, const void* check_function);

}  // namespace cucpu::driver
