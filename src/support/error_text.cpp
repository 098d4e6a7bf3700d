#include "support/error_text.h"

namespace cucpu {
namespace {

constexpr ErrorText kErrorTexts[] = {
#define ERROR_STRING(code, name, text) {code, name, text},
#include "support/error_strings.def"
};

}  // namespace

const ErrorText* find_error_text(int code) {
  for (const ErrorText& entry : kErrorTexts)
    if (entry.code == code) return &entry;
  return nullptr;
}

}  // namespace cucpu
