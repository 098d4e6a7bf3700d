// Device printf: the formatter for the argument buffer nvcc builds for vprintf, and the
// process-wide output FIFO.
//
// nvcc lowers printf(fmt, ...) to vprintf(fmt, buffer), where the buffer holds the
// arguments after default promotions, each aligned to its size (int/char 4 bytes;
// long, long long, pointers and doubles 8). The formatter walks the format once,
// parses each conversion (flags, width, precision with `*`, length modifier), reads
// the argument with the C type the conversion names, and lets snprintf render that one
// conversion. %n writes nothing, as on the GPU.
//
// The FIFO: kernels run to completion inside the launch, but CUDA shows device output
// only when the host synchronises (cudaDeviceSynchronize, blocking copies, reset, exit),
// so host printf calls issued between a launch and the synchronisation come first.
// Each printf call is appended whole under one mutex, so the lines of one thread keep
// their order. Output beyond cudaLimitPrintfFifoSize is dropped, as on the GPU.
#include "exec/device_printf.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace cucpu::exec {
namespace {

// Reads promoted arguments from the buffer in order.
class ArgumentReader {
 public:
  explicit ArgumentReader(const uint8_t* args) : args_(args) {}

  template <typename T>
  T next() {
    ++count_;
    T value{};
    if (!args_) return value;  // a format asking for more than was passed: undefined; print zeros
    offset_ = (offset_ + sizeof(T) - 1) / sizeof(T) * sizeof(T);
    std::memcpy(&value, args_ + offset_, sizeof(T));
    offset_ += sizeof(T);
    return value;
  }
  int count() const { return count_; }

 private:
  const uint8_t* args_;
  size_t offset_ = 0;
  int count_ = 0;
};

template <typename T>
void append_formatted(std::string& out, const std::string& spec, T value) {
  char small[128];
  const int length = std::snprintf(small, sizeof(small), spec.c_str(), value);
  if (length <= 0) return;
  if (static_cast<size_t>(length) < sizeof(small)) {
    out.append(small, static_cast<size_t>(length));
    return;
  }
  const size_t start = out.size();
  out.resize(start + static_cast<size_t>(length) + 1);
  std::snprintf(out.data() + start, static_cast<size_t>(length) + 1, spec.c_str(), value);
  out.resize(start + static_cast<size_t>(length));
}

bool is_flag(char c) { return c == '-' || c == '+' || c == ' ' || c == '#' || c == '0' || c == '\''; }

enum class Length { None, Char, Short, Long, LongLong, Size, Ptrdiff, Intmax, LongDouble };

bool is_wide(Length length) {
  return length == Length::Long || length == Length::LongLong || length == Length::Size ||
         length == Length::Ptrdiff || length == Length::Intmax;
}

// The conversion at `p` (just past the '%'); returns the character after it.
const char* format_conversion(const char* p, ArgumentReader& reader, std::string& out) {
  const char* const start = p - 1;
  std::string flags;
  while (is_flag(*p)) flags += *p++;
  std::string width;
  if (*p == '*') {
    int w = reader.next<int32_t>();
    if (w < 0) {
      flags += '-';
      w = w == INT32_MIN ? INT32_MAX : -w;
    }
    width = std::to_string(w);
    ++p;
  } else {
    while (*p >= '0' && *p <= '9') width += *p++;
  }
  std::string precision;
  if (*p == '.') {
    ++p;
    if (*p == '*') {
      const int value = reader.next<int32_t>();
      if (value >= 0) precision = "." + std::to_string(value);  // negative: as if omitted
      ++p;
    } else {
      precision = ".";
      while (*p >= '0' && *p <= '9') precision += *p++;
    }
  }
  Length length = Length::None;
  switch (*p) {
    case 'h':
      length = p[1] == 'h' ? Length::Char : Length::Short;
      p += p[1] == 'h' ? 2 : 1;
      break;
    case 'l':
      length = p[1] == 'l' ? Length::LongLong : Length::Long;
      p += p[1] == 'l' ? 2 : 1;
      break;
    case 'q': length = Length::LongLong; ++p; break;
    case 'z': length = Length::Size; ++p; break;
    case 't': length = Length::Ptrdiff; ++p; break;
    case 'j': length = Length::Intmax; ++p; break;
    case 'L': length = Length::LongDouble; ++p; break;
    default: break;
  }
  const char conversion = *p;
  const std::string base = "%" + flags + width + precision;
  switch (conversion) {
    case 'd':
    case 'i': {
      long long value = is_wide(length) ? reader.next<int64_t>() : reader.next<int32_t>();
      if (length == Length::Char) value = static_cast<signed char>(value);
      if (length == Length::Short) value = static_cast<short>(value);
      append_formatted(out, base + "ll" + conversion, value);
      break;
    }
    case 'u':
    case 'o':
    case 'x':
    case 'X': {
      unsigned long long value = is_wide(length) ? reader.next<uint64_t>() : reader.next<uint32_t>();
      if (length == Length::Char) value = static_cast<unsigned char>(value);
      if (length == Length::Short) value = static_cast<unsigned short>(value);
      append_formatted(out, base + "ll" + conversion, value);
      break;
    }
    case 'c':
      append_formatted(out, base + 'c', static_cast<int>(reader.next<int32_t>()));
      break;
    case 's': {
      const auto* text = reinterpret_cast<const char*>(reader.next<uint64_t>());
      append_formatted(out, base + 's', text ? text : "(null)");
      break;
    }
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A':
      append_formatted(out, base + conversion, reader.next<double>());  // floats arrive promoted
      break;
    case 'p':
      append_formatted(out, base + 'p', reinterpret_cast<void*>(reader.next<uint64_t>()));
      break;
    case 'n':
      reader.next<uint64_t>();  // the GPU ignores %n
      break;
    case '%':
      out += '%';
      break;
    default:
      // Not a conversion: print what was written, up to here.
      out.append(start, static_cast<size_t>(p - start));
      return p;
  }
  return p + 1;
}

std::mutex fifo_mutex;
std::string fifo;
size_t fifo_capacity = kDefaultPrintfFifoBytes;
bool fifo_used = false;  // a kernel has printed: the capacity is fixed

// Program exit is a synchronisation point too.
struct FlushAtExit {
  ~FlushAtExit() { flush_device_output(); }
} flush_at_exit;

}  // namespace

int format_device_printf(const char* format, const uint8_t* args, std::string& out) {
  ArgumentReader reader(args);
  if (!format) {
    out += "(null)";  // what the GPU prints for a null format
    return 0;
  }
  const char* p = format;
  while (*p) {
    const char* percent = std::strchr(p, '%');
    if (!percent) {
      out += p;
      break;
    }
    out.append(p, static_cast<size_t>(percent - p));
    if (percent[1] == '\0') {
      out += '%';
      break;
    }
    p = format_conversion(percent + 1, reader, out);
  }
  return reader.count();
}

void append_device_output(std::string_view text) {
  std::lock_guard lock(fifo_mutex);
  fifo_used = true;
  if (fifo.size() + text.size() > fifo_capacity) return;  // full: the record is dropped
  fifo.append(text);
}

void flush_device_output() {
  std::string text;
  {
    std::lock_guard lock(fifo_mutex);
    if (fifo.empty()) return;
    text.swap(fifo);
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

bool set_device_output_capacity(size_t bytes) {
  std::lock_guard lock(fifo_mutex);
  if (fifo_used) return false;
  fifo_capacity = bytes;
  return true;
}

void reset_device_output() {
  flush_device_output();
  std::lock_guard lock(fifo_mutex);
  fifo_capacity = kDefaultPrintfFifoBytes;
  fifo_used = false;
}

size_t device_output_capacity() {
  std::lock_guard lock(fifo_mutex);
  return fifo_capacity;
}

}  // namespace cucpu::exec
