#include "support/error_text.h"

#include <cstddef>

namespace cucpu {
namespace {

constexpr ErrorText kErrorTexts[] = {
#define ERROR_STRING(code, name, text) {code, name, text},
#include "support/error_strings.def"
};

constexpr ErrorText kDriverErrorTexts[] = {
#define ERROR_STRING(code, name, text) {code, name, text},
#include "support/driver_error_strings.def"
};

template <size_t N>
const ErrorText* find_in(const ErrorText (&table)[N], int code) {
  for (const ErrorText& entry : table)
    if (entry.code == code) return &entry;
  return nullptr;
}

}  // namespace

const ErrorText* find_error_text(int code) { return find_in(kErrorTexts, code); }

const ErrorText* find_driver_error_text(int code) { return find_in(kDriverErrorTexts, code); }

}  // namespace cucpu
