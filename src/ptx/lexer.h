// The PTX lexer: turns text into tokens on demand, with a few tokens of lookahead.
// Tokens are views into the text (no copies), so lexing a 10 MB module allocates nothing.
#pragma once

#include <cstddef>
#include <string_view>

#include "ptx/module.h"

namespace cucpu::ptx {

struct Token {
  enum class Kind : uint8_t {
    End,         // end of the text
    Identifier,  // foo, %r1, $L__BB0_2, _, WARP_SZ
    Directive,   // .global, .u32, .shared::cta, .L2::cache_hint (the dot included)
    Integer,     // 42, 0x2A, 052, 0b101, 42U (no sign)
    Float,       // 0f3F800000, 0d3FF0000000000000, 1.5, 2e10
    String,      // "text" (quotes included)
    Punct,       // one of , ; : { } [ ] ( ) < > + - ! @ | = * / ~ & ^
    Invalid,     // a byte that starts no token, or an unterminated string
  };
  Kind kind = Kind::End;
  std::string_view text;
  SourcePos pos;

  bool is_punct(char c) const { return kind == Kind::Punct && text.size() == 1 && text[0] == c; }
  bool is_directive(std::string_view name) const { return kind == Kind::Directive && text == name; }
};

class Lexer {
 public:
  static constexpr size_t kMaxLookahead = 4;

  explicit Lexer(std::string_view text);

  // The token `ahead` places after the current one (ahead < kMaxLookahead).
  const Token& peek(size_t ahead = 0);
  Token next();

 private:
  Token scan();
  void skip_space_and_comments();
  SourcePos position() const;
  Token make(Token::Kind kind, size_t start, SourcePos pos) const;
  Token scan_number(size_t start, SourcePos pos);
  Token scan_string(size_t start, SourcePos pos);

  std::string_view text_;
  size_t offset_ = 0;
  uint32_t line_ = 1;
  size_t line_start_ = 0;
  // A ring of scanned-but-not-consumed tokens.
  Token buffer_[kMaxLookahead];
  size_t head_ = 0;
  size_t count_ = 0;
};

}  // namespace cucpu::ptx
