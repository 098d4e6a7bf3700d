// Decompressing fatbin entry payloads. Internal to src/fatbin: the reader calls these
// with the compressed bytes and the uncompressed size its entry header records, and
// prefixes any error with the entry it was reading.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "support/result.h"

namespace cucpu::fatbin {

// A zstd stream (entry flag 0x8000; nvcc 13's default and -compress-mode=size/balance)
// that must decompress to exactly `size` bytes.
Result<std::vector<uint8_t>> decompress_zstd(std::span<const uint8_t> compressed, uint64_t size);

// nvcc's LZ4-style block format (entry flag 0x2000; older toolkits' default and nvcc 13's
// -compress-mode=speed) that must decompress to exactly `size` bytes.
Result<std::vector<uint8_t>> decompress_lz(std::span<const uint8_t> compressed, uint64_t size);

}  // namespace cucpu::fatbin
