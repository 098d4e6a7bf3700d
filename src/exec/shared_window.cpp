// Shared memory windows between inaccessible pages. The reservation is address space only
// (PROT_NONE, MAP_NORESERVE); the pages the window needs are made accessible with mprotect,
// and only when a launch needs a different number of them, so blocks of one grid reuse the
// window at no cost.
#include "exec/shared_window.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>

#include "jit/kernel_abi.h"

namespace cucpu::exec {

namespace {

constexpr std::size_t kBeyond = std::size_t{1} << 32;  // every 32-bit .shared offset past the end
constexpr std::size_t kInitialCapacity = 256 * 1024;   // above any GPU's shared memory per block
constexpr std::size_t kBelowCluster = std::size_t{1} << 31;  // every negative 32-bit .shared::cluster offset

std::size_t page_size() {
  static const std::size_t size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

std::size_t round_up(std::size_t value, std::size_t unit) { return (value + unit - 1) / unit * unit; }

}  // namespace

SharedWindow::~SharedWindow() {
  if (reservation_) munmap(reservation_, reservation_bytes_);
}

uint32_t shared_span(uint32_t bytes) {
  return static_cast<uint32_t>(round_up(std::size_t{jit::kReservedSharedBytes} + bytes, kSharedWindowAlignment));
}

bool SharedWindow::reserve(std::size_t accessible_capacity, std::size_t guard_below) {
  if (reservation_) munmap(reservation_, reservation_bytes_);
  reservation_ = nullptr;
  capacity_ = accessible_ = 0;
  guard_below_ = guard_below;
  const std::size_t bytes = guard_below + accessible_capacity + kBeyond;
  void* memory = mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) return false;
  reservation_ = static_cast<uint8_t*>(memory);
  reservation_bytes_ = bytes;
  capacity_ = accessible_capacity;
  return true;
}

uint8_t* SharedWindow::place(uint32_t bytes) { return place_cluster(bytes, 1); }

uint8_t* SharedWindow::place_cluster(uint32_t bytes, uint32_t blocks) {
  const std::size_t window = std::size_t{shared_span(bytes)} * blocks;
  const std::size_t accessible = round_up(window, page_size());
  const std::size_t guard_below = blocks > 1 ? kBelowCluster + page_size() : page_size();
  if ((!reservation_ || accessible > capacity_ || guard_below > guard_below_) &&
      !reserve(std::max(accessible, kInitialCapacity), std::max(guard_below, guard_below_)))
    return nullptr;
  uint8_t* first = reservation_ + guard_below_;
  if (accessible != accessible_) {
    if (accessible > accessible_ &&
        mprotect(first + accessible_, accessible - accessible_, PROT_READ | PROT_WRITE) != 0)
      return nullptr;
    if (accessible < accessible_) mprotect(first + accessible, accessible_ - accessible, PROT_NONE);
    accessible_ = accessible;
  }
  base_ = first + accessible - window;
  return base_;
}

bool SharedWindow::holds(uintptr_t address, int64_t& offset) const {
  const auto low = reinterpret_cast<uintptr_t>(reservation_);
  if (!reservation_ || address < low || address - low >= reservation_bytes_) return false;
  offset = static_cast<int64_t>(address - reinterpret_cast<uintptr_t>(base_));
  return true;
}

}  // namespace cucpu::exec
