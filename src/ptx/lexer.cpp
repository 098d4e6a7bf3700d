// The PTX lexer (PTX ISA 9.0 §4: syntax). Whitespace and // and /* */ comments
// separate tokens; identifiers may start with a letter, `_`, `$` or `%`; directives and
// qualifiers are a dot and a word, with `::` sub-parts (`.shared::cta`); numbers keep
// their spelling and are converted by the parser, which knows the context. Every byte
// of any input produces a token or is skipped, so the lexer never fails and never
// loops: an unknown byte is an Invalid token the parser reports.
#include "ptx/lexer.h"

namespace cucpu::ptx {
namespace {

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex_digit(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_follow(char c) { return is_letter(c) || is_digit(c) || c == '_' || c == '$'; }
bool is_punct(char c) {
  switch (c) {
    case ',':
    case ';':
    case ':':
    case '{':
    case '}':
    case '[':
    case ']':
    case '(':
    case ')':
    case '<':
    case '>':
    case '+':
    case '-':
    case '!':
    case '@':
    case '|':
    case '=':
    case '*':
    case '/':
    case '~':
    case '&':
    case '^':
      return true;
    default:
      return false;
  }
}

}  // namespace

Lexer::Lexer(std::string_view text) : text_(text) {}

const Token& Lexer::peek(size_t ahead) {
  if (ahead >= kMaxLookahead) ahead = kMaxLookahead - 1;
  while (count_ <= ahead) {
    buffer_[(head_ + count_) % kMaxLookahead] = scan();
    ++count_;
  }
  return buffer_[(head_ + ahead) % kMaxLookahead];
}

Token Lexer::next() {
  Token token = peek();
  head_ = (head_ + 1) % kMaxLookahead;
  --count_;
  return token;
}

SourcePos Lexer::position() const { return SourcePos{line_, static_cast<uint32_t>(offset_ - line_start_ + 1)}; }

Token Lexer::make(Token::Kind kind, size_t start, SourcePos pos) const {
  return Token{kind, text_.substr(start, offset_ - start), pos};
}

void Lexer::skip_space_and_comments() {
  while (offset_ < text_.size()) {
    const char c = text_[offset_];
    if (c == '\n') {
      ++offset_;
      ++line_;
      line_start_ = offset_;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++offset_;
    } else if (c == '/' && offset_ + 1 < text_.size() && text_[offset_ + 1] == '/') {
      while (offset_ < text_.size() && text_[offset_] != '\n') ++offset_;
    } else if (c == '/' && offset_ + 1 < text_.size() && text_[offset_ + 1] == '*') {
      offset_ += 2;
      while (offset_ < text_.size() &&
             !(text_[offset_] == '*' && offset_ + 1 < text_.size() && text_[offset_ + 1] == '/')) {
        if (text_[offset_] == '\n') {
          ++line_;
          line_start_ = offset_ + 1;
        }
        ++offset_;
      }
      offset_ = offset_ + 2 <= text_.size() ? offset_ + 2 : text_.size();
    } else {
      return;
    }
  }
}

Token Lexer::scan() {
  skip_space_and_comments();
  const SourcePos pos = position();
  const size_t start = offset_;
  if (offset_ >= text_.size()) return Token{Token::Kind::End, {}, pos};
  const char c = text_[offset_];
  const char next = offset_ + 1 < text_.size() ? text_[offset_ + 1] : '\0';

  if (is_letter(c) || c == '_' || c == '$' || c == '%') {
    ++offset_;
    while (offset_ < text_.size() && is_follow(text_[offset_])) ++offset_;
    return make(Token::Kind::Identifier, start, pos);
  }
  // A dot glued to the word before it starts a qualifier even when a digit follows:
  // `tex.2d`, `.a2d` (PTX ISA 9.0 §9.7.9.3); a free-standing `.5` is a number.
  const bool glued = offset_ > 0 && (is_follow(text_[offset_ - 1]) || text_[offset_ - 1] == ':');
  if (c == '.' && (is_letter(next) || next == '_' || next == '$' || (glued && is_digit(next)))) {
    ++offset_;
    while (offset_ < text_.size()) {
      if (is_follow(text_[offset_])) {
        ++offset_;
      } else if (text_[offset_] == ':' && offset_ + 2 < text_.size() && text_[offset_ + 1] == ':' &&
                 is_follow(text_[offset_ + 2])) {
        offset_ += 2;  // .shared::cta, .L2::cache_hint
      } else {
        break;
      }
    }
    return make(Token::Kind::Directive, start, pos);
  }
  if (is_digit(c) || (c == '.' && is_digit(next))) return scan_number(start, pos);
  if (c == '"') return scan_string(start, pos);
  ++offset_;
  return make(is_punct(c) ? Token::Kind::Punct : Token::Kind::Invalid, start, pos);
}

Token Lexer::scan_number(size_t start, SourcePos pos) {
  auto at = [&](size_t i) { return offset_ + i < text_.size() ? text_[offset_ + i] : '\0'; };
  if (at(0) == '0' && (at(1) == 'f' || at(1) == 'F' || at(1) == 'd' || at(1) == 'D') && is_hex_digit(at(2))) {
    offset_ += 2;  // 0f3F800000 / 0d3FF0000000000000: the parser checks the digit count
    while (is_hex_digit(at(0))) ++offset_;
    return make(Token::Kind::Float, start, pos);
  }
  if (at(0) == '0' && (at(1) == 'x' || at(1) == 'X' || at(1) == 'b' || at(1) == 'B')) {
    offset_ += 2;
    while (is_hex_digit(at(0))) ++offset_;
    if (at(0) == 'U' || at(0) == 'u') ++offset_;
    return make(Token::Kind::Integer, start, pos);
  }
  bool is_float = false;
  while (is_digit(at(0))) ++offset_;
  if (at(0) == '.' && !is_letter(at(1))) {  // `1.5`, but `1.x` is not a number
    is_float = true;
    ++offset_;
    while (is_digit(at(0))) ++offset_;
  }
  if ((at(0) == 'e' || at(0) == 'E') && (is_digit(at(1)) || ((at(1) == '+' || at(1) == '-') && is_digit(at(2))))) {
    is_float = true;
    offset_ += 2;
    while (is_digit(at(0))) ++offset_;
  }
  if (!is_float && (at(0) == 'U' || at(0) == 'u')) ++offset_;
  return make(is_float ? Token::Kind::Float : Token::Kind::Integer, start, pos);
}

Token Lexer::scan_string(size_t start, SourcePos pos) {
  ++offset_;
  while (offset_ < text_.size() && text_[offset_] != '"' && text_[offset_] != '\n') {
    if (text_[offset_] == '\\' && offset_ + 1 < text_.size() && text_[offset_ + 1] != '\n') ++offset_;
    ++offset_;
  }
  if (offset_ >= text_.size() || text_[offset_] != '"') return make(Token::Kind::Invalid, start, pos);
  ++offset_;
  return make(Token::Kind::String, start, pos);
}

}  // namespace cucpu::ptx
