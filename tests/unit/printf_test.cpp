// The device printf formatter (exec/device_printf.cpp): conversions read their arguments
// from a buffer laid out as nvcc lays out vprintf's, each aligned to its size.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "exec/device_printf.h"

namespace cucpu::exec {
namespace {

// Builds an argument buffer the way nvcc does.
class Args {
 public:
  template <typename T>
  Args& add(T value) {
    size_t offset = (bytes_.size() + sizeof(T) - 1) / sizeof(T) * sizeof(T);
    bytes_.resize(offset + sizeof(T));
    std::memcpy(bytes_.data() + offset, &value, sizeof(T));
    return *this;
  }
  Args& add_string(const char* text) { return add(reinterpret_cast<uint64_t>(text)); }
  const uint8_t* data() const { return bytes_.data(); }

 private:
  std::vector<uint8_t> bytes_;
};

std::string format(const char* fmt, const Args& args, int* count = nullptr) {
  std::string out;
  int n = format_device_printf(fmt, args.data(), out);
  if (count) *count = n;
  return out;
}

TEST(DevicePrintf, IntegersWithFlagsAndWidths) {
  int count = 0;
  EXPECT_EQ(format("%d %i %5d|%-5d|%05d %+d", Args().add(-42).add(-42).add(7).add(7).add(7).add(7), &count),
            "-42 -42     7|7    |00007 +7");
  EXPECT_EQ(count, 6);
  EXPECT_EQ(format("%u %x %X %#x %o", Args().add(4000000000u).add(255u).add(255u).add(255u).add(8u)),
            "4000000000 ff FF 0xff 10");
}

TEST(DevicePrintf, LengthModifiersReadEightBytes) {
  EXPECT_EQ(format("%ld %lld %llu", Args().add(int64_t{-1234567890123}).add(int64_t{9223372036854775807})
                                        .add(~uint64_t{0})),
            "-1234567890123 9223372036854775807 18446744073709551615");
  // An int then a long: the long is aligned to 8.
  EXPECT_EQ(format("%d %zu %td %jd", Args().add(1).add(uint64_t{2}).add(int64_t{-3}).add(int64_t{4})), "1 2 -3 4");
  EXPECT_EQ(format("%hhd %hd %hhu", Args().add(0x1ff).add(0x18000).add(0x1ff)), "-1 -32768 255");
}

TEST(DevicePrintf, FloatsArriveAsDoubles) {
  EXPECT_EQ(format("%f %.2f %10.3f|%-10.1f|%e %E", Args().add(3.14159265).add(3.14159265).add(3.14159265)
                                                       .add(3.14159265).add(3.14159265).add(3.14159265)),
            "3.141593 3.14      3.142|3.1       |3.141593e+00 3.141593E+00");
  EXPECT_EQ(format("%g %G %a", Args().add(123456789.0).add(1e-10).add(1.0)), "1.23457e+08 1E-10 0x1p+0");
}

TEST(DevicePrintf, StringsCharsAndPercent) {
  int count = 0;
  EXPECT_EQ(format("%s|%10s|%-10s|%.3s|%c%c %%",
                   Args().add_string("cuda").add_string("right").add_string("left").add_string("truncate")
                       .add(int{'G'}).add(int{'P'}),
                   &count),
            "cuda|     right|left      |tru|GP %");
  EXPECT_EQ(count, 6);
  EXPECT_EQ(format("%s", Args().add(uint64_t{0})), "(null)");
}

TEST(DevicePrintf, StarWidthAndPrecision) {
  int count = 0;
  EXPECT_EQ(format("[%*d] [%-*d] [%.*f]", Args().add(5).add(42).add(4).add(7).add(2).add(3.14159), &count),
            "[   42] [7   ] [3.14]");
  EXPECT_EQ(count, 6);
  EXPECT_EQ(format("[%*d]", Args().add(-3).add(1)), "[1  ]");  // a negative width is the - flag
}

TEST(DevicePrintf, NoArgumentsAndOddFormats) {
  int count = -1;
  EXPECT_EQ(format("no arguments at all\n", Args(), &count), "no arguments at all\n");
  EXPECT_EQ(count, 0);
  std::string out;
  EXPECT_EQ(format_device_printf("plain", nullptr, out), 0);
  EXPECT_EQ(out, "plain");
  EXPECT_EQ(format("%y and %", Args()), "%y and %");  // not conversions: printed as written
  EXPECT_EQ(format("a%nb%d", Args().add(uint64_t{0}).add(5), &count), "ab5");  // %n ignored
  EXPECT_EQ(count, 2);
}

TEST(DevicePrintf, PointerConversion) {
  EXPECT_EQ(format("%p", Args().add(uint64_t{0x1234})), "0x1234");
}

TEST(DevicePrintfFifo, CapacityIsFixedOnceAKernelPrints) {
  reset_device_output();
  EXPECT_EQ(device_output_capacity(), kDefaultPrintfFifoBytes);
  EXPECT_TRUE(set_device_output_capacity(4096));
  EXPECT_EQ(device_output_capacity(), 4096u);
  append_device_output("");  // a kernel printed (nothing)
  EXPECT_FALSE(set_device_output_capacity(8192));
  EXPECT_EQ(device_output_capacity(), 4096u);
  reset_device_output();  // cudaDeviceReset
  EXPECT_EQ(device_output_capacity(), kDefaultPrintfFifoBytes);
  EXPECT_TRUE(set_device_output_capacity(8192));
  reset_device_output();
}

}  // namespace
}  // namespace cucpu::exec
