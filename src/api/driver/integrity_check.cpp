// The static runtime's integrity check (integrity_check.h). The constants are the public
// ones every reimplementation of the driver uses (../shared/static-cudart.md, 3.6); MD2 and
// HMAC are written from their RFCs and checked against RFC 1319's test vectors
// (tests/unit/integrity_check_test.cpp).
#include "api/driver/integrity_check.h"

#include <pthread.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include <cuda.h>

#include "core/device.h"

namespace cucpu::driver {
namespace {

// RFC 1319's permutation of 0..255 built from the digits of pi.
constexpr uint8_t kPiSubstitution[256] = {
    41,  46,  67,  201, 162, 216, 124, 1,   61,  54,  84,  161, 236, 240, 6,   19,  98,  167, 5,   243, 192, 199,
    115, 140, 152, 147, 43,  217, 188, 76,  130, 202, 30,  155, 87,  60,  253, 212, 224, 22,  103, 66,  111, 24,
    138, 23,  229, 18,  190, 78,  196, 214, 218, 158, 222, 73,  160, 251, 245, 142, 187, 47,  238, 122, 169, 104,
    121, 145, 21,  178, 7,   63,  148, 194, 16,  137, 11,  34,  95,  33,  128, 127, 93,  154, 90,  144, 50,  39,
    53,  62,  204, 231, 191, 247, 151, 3,   255, 25,  48,  179, 72,  165, 181, 209, 215, 94,  146, 42,  172, 86,
    170, 198, 79,  184, 56,  210, 150, 164, 125, 182, 118, 252, 107, 226, 156, 116, 4,   241, 69,  157, 112, 89,
    100, 113, 135, 32,  134, 91,  207, 101, 230, 45,  168, 2,   27,  96,  37,  173, 174, 176, 185, 246, 28,  70,
    97,  105, 52,  64,  126, 15,  85,  71,  163, 35,  221, 81,  175, 58,  195, 92,  249, 206, 186, 197, 234, 38,
    44,  83,  13,  110, 133, 40,  132, 9,   211, 223, 205, 244, 65,  129, 77,  82,  106, 220, 55,  200, 108, 193,
    171, 250, 36,  225, 123, 8,   12,  189, 177, 74,  120, 136, 149, 139, 227, 99,  232, 109, 233, 203, 213, 254,
    59,  0,   29,  57,  242, 239, 183, 14,  102, 88,  208, 228, 166, 119, 114, 248, 235, 117, 75,  10,  49,  68,
    80,  180, 143, 237, 31,  26,  219, 153, 141, 51,  159, 17,  131, 20};

// The check's key and the answers for versions ending in 0 and 1.
constexpr uint8_t kKey[16] = {0x14, 0x6A, 0xDD, 0xAE, 0x53, 0xA9, 0xA7, 0x52,
                              0xAA, 0x08, 0x41, 0x36, 0x0B, 0xF5, 0x5A, 0x9F};
constexpr std::array<uint64_t, 2> kAnswerVersion0 = {0x3341181C03CB675Cull, 0x8ED383AA1F4CD1E8ull};
constexpr std::array<uint64_t, 2> kAnswerVersion1 = {0x1841181C03CB675Cull, 0x8ED383AA1F4CD1E8ull};

template <typename T>
void append(std::vector<uint8_t>& message, const T& value) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(&value);
  message.insert(message.end(), bytes, bytes + sizeof value);
}

}  // namespace

std::array<uint8_t, 16> md2(std::span<const uint8_t> message) {
  // Padding to whole blocks (always at least one byte), then the checksum block.
  std::vector<uint8_t> padded(message.begin(), message.end());
  const size_t pad = 16 - padded.size() % 16;
  padded.insert(padded.end(), pad, static_cast<uint8_t>(pad));
  uint8_t checksum[16] = {};
  uint8_t last = 0;
  for (size_t block = 0; block < padded.size(); block += 16) {
    for (int j = 0; j < 16; ++j) last = checksum[j] ^= kPiSubstitution[padded[block + j] ^ last];
  }
  padded.insert(padded.end(), checksum, checksum + 16);
  uint8_t state[48] = {};
  for (size_t block = 0; block < padded.size(); block += 16) {
    for (int j = 0; j < 16; ++j) {
      state[16 + j] = padded[block + j];
      state[32 + j] = state[16 + j] ^ state[j];
    }
    uint8_t t = 0;
    for (int round = 0; round < 18; ++round) {
      for (uint8_t& byte : state) t = byte ^= kPiSubstitution[t];
      t = static_cast<uint8_t>(t + round);
    }
  }
  std::array<uint8_t, 16> digest;
  std::memcpy(digest.data(), state, 16);
  return digest;
}

std::array<uint8_t, 16> hmac_md2(std::span<const uint8_t, 16> key, std::span<const uint8_t> message) {
  std::vector<uint8_t> inner(16), outer(16);
  for (int i = 0; i < 16; ++i) {
    inner[i] = key[i] ^ 0x36;
    outer[i] = key[i] ^ 0x5c;
  }
  inner.insert(inner.end(), message.begin(), message.end());
  const std::array<uint8_t, 16> inner_digest = md2(inner);
  outer.insert(outer.end(), inner_digest.begin(), inner_digest.end());
  return md2(outer);
}

std::array<uint64_t, 2> integrity_answer(uint32_t version, uint64_t unix_seconds, const void* cudart_table,
                                         const void* integrity_table, const void* check_function) {
  if (version % 10 == 0) return kAnswerVersion0;
  if (version % 10 == 1) return kAnswerVersion1;
  std::vector<uint8_t> message;
  append(message, static_cast<uint32_t>(CUDA_VERSION));  // what cuDriverGetVersion says
  append(message, version);
  append(message, static_cast<uint32_t>(getpid()));
  append(message, static_cast<uint32_t>(pthread_self()));
  append(message, cudart_table);
  append(message, integrity_table);
  append(message, check_function);
  append(message, unix_seconds);
  using A = core::DeviceAttribute;
  for (int device = 0; device < core::device_count(); ++device) {
    const std::array<unsigned char, 16> uuid = core::device_uuid(device);
    message.insert(message.end(), uuid.begin(), uuid.end());
    for (A attribute : {A::cudaDevAttrPciDomainId, A::cudaDevAttrPciBusId, A::cudaDevAttrPciDeviceId})
      append(message, static_cast<int32_t>(core::device_attribute(static_cast<int>(attribute), device).value_or(0)));
  }
  const std::array<uint8_t, 16> digest = hmac_md2(std::span<const uint8_t, 16>(kKey), message);
  std::array<uint64_t, 2> answer;
  std::memcpy(answer.data(), digest.data(), sizeof answer);
  return answer;
}

}  // namespace cucpu::driver
