// Conversion of PTX numeric literal spellings to values, with overflow and malformed
// digits reported as "no value" (the parser turns that into a diagnostic): huge or
// garbled numbers in hostile input must neither wrap silently nor throw.
#include "ptx/literals.h"

#include <bit>
#include <charconv>

namespace cucpu::ptx {
namespace {

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

std::optional<uint64_t> parse_digits(std::string_view digits, unsigned base) {
  if (digits.empty()) return std::nullopt;
  uint64_t value = 0;
  for (char c : digits) {
    const int digit = digit_value(c);
    if (digit >= static_cast<int>(base)) return std::nullopt;
    if (value > (UINT64_MAX - static_cast<uint64_t>(digit)) / base) return std::nullopt;
    value = value * base + static_cast<uint64_t>(digit);
  }
  return value;
}

}  // namespace

std::optional<uint64_t> parse_integer_literal(std::string_view text) {
  if (!text.empty() && (text.back() == 'U' || text.back() == 'u')) text.remove_suffix(1);
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) return parse_digits(text.substr(2), 16);
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) return parse_digits(text.substr(2), 2);
  if (text.size() > 1 && text[0] == '0') return parse_digits(text.substr(1), 8);
  return parse_digits(text, 10);
}

std::optional<FloatLiteral> parse_float_literal(std::string_view text) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'f' || text[1] == 'F')) {
    if (text.size() != 10) return std::nullopt;
    auto bits = parse_digits(text.substr(2), 16);
    if (!bits) return std::nullopt;
    return FloatLiteral{*bits, false};
  }
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'd' || text[1] == 'D')) {
    if (text.size() != 18) return std::nullopt;
    auto bits = parse_digits(text.substr(2), 16);
    if (!bits) return std::nullopt;
    return FloatLiteral{*bits, true};
  }
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  // Out-of-range decimals (1e400) are refused like malformed ones: PTX has no meaning for them.
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return FloatLiteral{double_to_bits(value), true};
}

double literal_as_double(const FloatLiteral& literal) {
  if (literal.is_double) return std::bit_cast<double>(literal.bits);
  return static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(literal.bits)));
}

uint32_t double_to_float_bits(double value) { return std::bit_cast<uint32_t>(static_cast<float>(value)); }
uint64_t double_to_bits(double value) { return std::bit_cast<uint64_t>(value); }

}  // namespace cucpu::ptx
