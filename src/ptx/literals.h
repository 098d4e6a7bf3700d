// Numeric literals of PTX (PTX ISA 9.0 §4.5.1): integers in decimal, hex (0x), octal
// (leading 0) and binary (0b) with an optional U suffix; floats as 0fXXXXXXXX (single,
// exact bits), 0dXXXXXXXXXXXXXXXX (double, exact bits) or decimal (a double).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace cucpu::ptx {

// The value of an Integer token's text; nullopt if malformed or above 2^64 - 1.
std::optional<uint64_t> parse_integer_literal(std::string_view text);

struct FloatLiteral {
  uint64_t bits = 0;
  bool is_double = false;  // bits are an IEEE double (0d or decimal), else a float (0f)
};
// The value of a Float token's text; nullopt if malformed.
std::optional<FloatLiteral> parse_float_literal(std::string_view text);

// The literal as a double / as float bits, whatever its spelling.
double literal_as_double(const FloatLiteral& literal);
uint32_t double_to_float_bits(double value);
uint64_t double_to_bits(double value);

}  // namespace cucpu::ptx
