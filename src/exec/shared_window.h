// A block's shared memory, placed so that an access outside it faults: the window ends
// (to within kSharedWindowAlignment) where an inaccessible reservation of 4 GiB begins, and
// an inaccessible page precedes it. A .shared address is a 32-bit offset from the window's
// base, so every .shared access past the block's shared size (static + dynamic) lands in the
// reservation, as does a generic address formed from one (cvta); the SIGSEGV handler
// (kernel_faults.h) turns that into cudaErrorIllegalAddress naming block and thread.
// Guard pages cost nothing per access, which explicit checks in generated code would; the
// price is that the last kSharedWindowAlignment - 1 bytes past an unaligned size do not fault.
//
// A thread block cluster's blocks share one window: their shared memory lies side by side,
// shared_span(bytes) apart, rank 0 first, so that distributed shared memory is plain
// address arithmetic (jit/lower_cluster.cpp). A .shared::cluster address is a signed
// 32-bit offset from a block's own base, so such windows also have 2 GiB of inaccessible
// reservation below them: any such address outside the cluster's blocks faults.
#pragma once

#include <cstddef>
#include <cstdint>

#include "jit/kernel_abi.h"

namespace cucpu::exec {

// The base alignment of a block's shared memory: what the shared layout assumes
// (jit/lay_out_shared_memory.cpp: .shared alignments are at most 16), and what the block
// function tells LLVM (jit/kernel_abi.h kSharedBaseAlignment): a warp's 32 consecutive
// 4-byte elements from an aligned offset then lie on one page without a check. The H100
// allocates shared memory in units of 128 bytes too (%total_smem_size).
constexpr std::size_t kSharedWindowAlignment = jit::kSharedBaseAlignment;

// The bytes one block takes in a window: its reserved shared memory, its own bytes, aligned.
uint32_t shared_span(uint32_t bytes);

class SharedWindow {
 public:
  SharedWindow() = default;
  ~SharedWindow();
  SharedWindow(const SharedWindow&) = delete;
  SharedWindow& operator=(const SharedWindow&) = delete;

  // A window for a block of `bytes` of shared memory (static and dynamic), valid until the
  // next place(); null when the address space cannot be had. It starts with the reserved
  // shared memory (jit::kReservedSharedBytes), where the returned base points: the block's
  // own bytes follow it, as the JIT's .shared offsets expect. Contents undefined, as CUDA's.
  uint8_t* place(uint32_t bytes);
  // A window for `blocks` blocks of `bytes` each, shared_span(bytes) apart: the base of the
  // first (rank 0). Null when the address space cannot be had.
  uint8_t* place_cluster(uint32_t bytes, uint32_t blocks);

  // Whether `address` lies in the reservation around the window: a fault there is a shared
  // memory access out of range. `offset` receives the address's offset from the base.
  bool holds(uintptr_t address, int64_t& offset) const;

 private:
  bool reserve(std::size_t accessible_capacity, std::size_t guard_below);

  uint8_t* reservation_ = nullptr;  // guard below, accessible pages, 4 GiB inaccessible
  std::size_t guard_below_ = 0;     // one page, or 2 GiB and a page for clusters
  std::size_t reservation_bytes_ = 0;
  std::size_t capacity_ = 0;    // the most accessible bytes the reservation can hold
  std::size_t accessible_ = 0;  // accessible bytes now, after the leading guard page
  uint8_t* base_ = nullptr;
};

}  // namespace cucpu::exec
