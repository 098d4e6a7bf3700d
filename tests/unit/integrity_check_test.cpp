// The hash of the static runtime's integrity check (api/driver/integrity_check.h): MD2
// against RFC 1319's test suite, HMAC-MD2 against the RFC 2104 construction spelled out,
// and the fixed answers for versions ending in 0 and 1.
#include "api/driver/integrity_check.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

using cucpu::driver::hmac_md2;
using cucpu::driver::integrity_answer;
using cucpu::driver::md2;

std::string hex(const std::array<uint8_t, 16>& digest) {
  std::string text;
  char byte[3];
  for (uint8_t b : digest) {
    std::snprintf(byte, sizeof byte, "%02x", b);
    text += byte;
  }
  return text;
}

std::array<uint8_t, 16> md2_of(const std::string& text) {
  return md2(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

TEST(IntegrityCheck, Md2MatchesTheRfcTestSuite) {
  EXPECT_EQ(hex(md2_of("")), "8350e5a3e24c153df2275c9f80692773");
  EXPECT_EQ(hex(md2_of("a")), "32ec01ec4a6dac72c0ab96fb34c0b5d1");
  EXPECT_EQ(hex(md2_of("abc")), "da853b0d3f88d99b30283a69e6ded6bb");
  EXPECT_EQ(hex(md2_of("message digest")), "ab4f496bfb2a530b219ff33031fe06b0");
  EXPECT_EQ(hex(md2_of("abcdefghijklmnopqrstuvwxyz")), "4e8ddff3650292ab5a4108c3aa47940b");
  EXPECT_EQ(hex(md2_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")),
            "da33def2a42df13975352846c30338cd");
  EXPECT_EQ(hex(md2_of("12345678901234567890123456789012345678901234567890123456789012345678901234567890")),
            "d5976f79d83d3a0dc9806c3c66f3efd8");
}

TEST(IntegrityCheck, HmacIsMd2OfTheOuterKeyAndTheInnerDigest) {
  const uint8_t key[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  const std::string message = "the message";
  std::string inner, outer;
  for (uint8_t k : key) {
    inner += static_cast<char>(k ^ 0x36);
    outer += static_cast<char>(k ^ 0x5c);
  }
  const auto inner_digest = md2_of(inner + message);
  outer.append(reinterpret_cast<const char*>(inner_digest.data()), inner_digest.size());
  const auto expected = md2_of(outer);
  const auto actual = hmac_md2(std::span<const uint8_t, 16>(key),
                               std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(message.data()), message.size()));
  EXPECT_EQ(hex(actual), hex(expected));
}

TEST(IntegrityCheck, VersionsEndingInZeroAndOneHaveFixedAnswers) {
  int table = 0;
  auto zero = integrity_answer(13000, 1234, &table, &table, &table);
  auto one = integrity_answer(13001, 5678, &table, &table, &table);
  EXPECT_EQ(zero[0], 0x3341181C03CB675Cull);
  EXPECT_EQ(zero[1], 0x8ED383AA1F4CD1E8ull);
  EXPECT_EQ(one[0], 0x1841181C03CB675Cull);
  EXPECT_EQ(one[1], 0x8ED383AA1F4CD1E8ull);
  // Otherwise the answer depends on what it covers: the time, for one.
  EXPECT_NE(integrity_answer(13002, 1, &table, &table, &table), integrity_answer(13002, 2, &table, &table, &table));
}

}  // namespace
