// Tests of the cubin reader: the register counts ptxas chose for the kernels of
// tests/fatbin/registers.cu (10 and 154, as `nvcc --resource-usage` reported when the
// fatbin was made; tests/fatbin/README.md), and damaged cubins that must give an
// InvalidImage error, never a crash.
#include "fatbin/cubin_info.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace cucpu::fatbin {
namespace {

std::vector<Entry> registers_fatbin() {
  std::ifstream in(std::filesystem::path(CUCPU_TEST_DATA) / "fatbin" / "registers_ptx90_sm90.fatbin", std::ios::binary);
  EXPECT_TRUE(in);
  std::vector<uint8_t> bytes(std::istreambuf_iterator<char>(in), {});
  auto entries = read_entries(bytes.data(), bytes.size());
  EXPECT_TRUE(entries) << entries.error().message;
  return entries ? *entries : std::vector<Entry>{};
}

std::vector<uint8_t> cubin_of(const std::vector<Entry>& entries) {
  for (const Entry& entry : entries)
    if (entry.kind == EntryKind::Cubin) return entry.data;
  ADD_FAILURE() << "no cubin in the fatbin";
  return {};
}

TEST(CubinInfo, RegisterCountsAreThoseOfPtxas) {
  auto counts = register_counts_for_arch(registers_fatbin(), 90);
  ASSERT_TRUE(counts) << counts.error().message;
  EXPECT_EQ(counts->size(), 2u);
  EXPECT_EQ(counts->at("_Z13few_registersPi"), 10);
  EXPECT_EQ(counts->at("_Z14many_registersPfi"), 154);
}

TEST(CubinInfo, NoCubinForTheArchGivesNoCounts) {
  auto counts = register_counts_for_arch(registers_fatbin(), 80);
  ASSERT_TRUE(counts) << counts.error().message;
  EXPECT_TRUE(counts->empty());
}

TEST(CubinInfo, NotAnElfIsAnError) {
  std::vector<uint8_t> bytes(100, 0x41);
  auto counts = read_register_counts(bytes);
  ASSERT_FALSE(counts);
  EXPECT_EQ(counts.error().code, ErrorCode::InvalidImage);
}

// A truncation that cuts a section the reader needs is an error, never a read past the
// end; one that cuts only what follows (program headers) still reads the same counts.
TEST(CubinInfo, TruncatedCubinsNeverCrash) {
  std::vector<uint8_t> cubin = cubin_of(registers_fatbin());
  ASSERT_FALSE(cubin.empty());
  for (size_t size = 0; size < cubin.size(); size += 7) {
    std::vector<uint8_t> truncated(cubin.begin(), cubin.begin() + static_cast<std::ptrdiff_t>(size));
    auto counts = read_register_counts(truncated);
    if (counts) {
      EXPECT_EQ(counts->size(), 2u) << "truncated to " << size;
    } else {
      EXPECT_EQ(counts.error().code, ErrorCode::InvalidImage);
    }
  }
}

// Flipping bytes anywhere gives counts or an error, never a crash.
TEST(CubinInfo, DamagedCubinsNeverCrash) {
  std::vector<uint8_t> cubin = cubin_of(registers_fatbin());
  ASSERT_FALSE(cubin.empty());
  for (size_t at = 0; at < cubin.size(); ++at) {
    std::vector<uint8_t> damaged = cubin;
    damaged[at] ^= 0xff;
    auto counts = read_register_counts(damaged);
    if (!counts) {
      EXPECT_EQ(counts.error().code, ErrorCode::InvalidImage);
    }
  }
}

}  // namespace
}  // namespace cucpu::fatbin
