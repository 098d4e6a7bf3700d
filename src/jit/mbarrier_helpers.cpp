// The mbarrier object (PTX ISA 9.0 §9.7.13.15): an opaque 64-bit word in memory that
// generated code changes only through these helpers. Layout (cucpu's choice; programs
// see only the opaque states mbarrier.arrive hands back):
//   bits  0..19  pending arrivals of the current phase
//   bits 20..39  expected arrivals per phase
//   bits 40..60  tx-count, 21-bit two's complement (range ±(2^20-1), as PTX allows)
//   bits 61..63  phase number, modulo 8 (its low bit is the parity)
// A phase completes when its pending arrivals and its tx-count both reach zero: the
// phase number steps and the pending count starts again from the expected count.
// Every change is one compare-and-swap, so arrivals from several threads (and, on a
// CPU, several workers) never lose each other.
#include <cstdint>

#include "jit/function_lowering.h"

namespace {

constexpr uint64_t kCountMask = (1u << 20) - 1;
constexpr unsigned kExpectedShift = 20;
constexpr unsigned kTxShift = 40;
constexpr uint64_t kTxMask = (1u << 21) - 1;
constexpr unsigned kPhaseShift = 61;

struct Fields {
  uint32_t pending, expected, phase;
  int32_t tx;
};

Fields decode(uint64_t word) {
  Fields f;
  f.pending = static_cast<uint32_t>(word & kCountMask);
  f.expected = static_cast<uint32_t>((word >> kExpectedShift) & kCountMask);
  const uint32_t tx = static_cast<uint32_t>((word >> kTxShift) & kTxMask);
  f.tx = static_cast<int32_t>(tx << 11) >> 11;  // sign-extend 21 bits
  f.phase = static_cast<uint32_t>(word >> kPhaseShift);
  return f;
}

uint64_t encode(const Fields& f) {
  return (uint64_t{f.pending} & kCountMask) | ((uint64_t{f.expected} & kCountMask) << kExpectedShift) |
         ((static_cast<uint64_t>(static_cast<uint32_t>(f.tx)) & kTxMask) << kTxShift) |
         (uint64_t{f.phase & 7} << kPhaseShift);
}

// Completes the phase when nothing is pending any more.
void complete_if_done(Fields& f) {
  if (f.pending != 0 || f.tx != 0) return;
  f.phase = (f.phase + 1) & 7;
  f.pending = f.expected;
}

// Applies `change` to the word atomically; returns the word before the change.
template <typename Change>
uint64_t update(uint64_t* object, Change change) {
  uint64_t old = __atomic_load_n(object, __ATOMIC_ACQUIRE);
  for (;;) {
    Fields f = decode(old);
    change(f);
    if (__atomic_compare_exchange_n(object, &old, encode(f), true, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return old;
  }
}

}  // namespace

extern "C" void __cucpu_jit_mbarrier_init(uint64_t* object, uint32_t count) {
  __atomic_store_n(object, encode(Fields{count, count, 0, 0}), __ATOMIC_RELEASE);
}

// mbarrier.arrive / arrive_drop: flags bit 0 = drop (the expected count falls by `count`
// for this and later phases), bit 1 = .noComplete, bit 2 = .expect_tx (tx-count rises by
// `tx` first). Returns the state: the word before the arrival (its phase is what
// test_wait compares with).
extern "C" uint64_t __cucpu_jit_mbarrier_arrive(uint64_t* object, uint32_t count, uint32_t flags, uint32_t tx) {
  return update(object, [&](Fields& f) {
    if (flags & 4) f.tx += static_cast<int32_t>(tx);
    if (flags & 1) f.expected -= count;
    f.pending -= count;
    if (!(flags & 2)) complete_if_done(f);
  });
}

// expect_tx (+bytes) and complete_tx (-bytes; also what a bulk copy's completion does).
extern "C" void __cucpu_jit_mbarrier_tx(uint64_t* object, int32_t delta) {
  update(object, [&](Fields& f) {
    f.tx += delta;
    complete_if_done(f);
  });
}

// test_wait: true once the phase `state` was taken in has completed. With `parity` set,
// `state` is a phase parity: true once the current phase's parity differs from it.
extern "C" uint32_t __cucpu_jit_mbarrier_test(const uint64_t* object, uint64_t state, uint32_t parity) {
  const uint32_t phase = decode(__atomic_load_n(object, __ATOMIC_ACQUIRE)).phase;
  if (parity) return (phase & 1) != (state & 1) ? 1 : 0;
  return phase != decode(state).phase ? 1 : 0;
}

extern "C" uint32_t __cucpu_jit_mbarrier_pending_count(uint64_t state) { return decode(state).pending; }

namespace cucpu::jit {

RuntimeSymbols mbarrier_helper_symbols() {
  return {
      {"__cucpu_jit_mbarrier_init", reinterpret_cast<void*>(&__cucpu_jit_mbarrier_init)},
      {"__cucpu_jit_mbarrier_arrive", reinterpret_cast<void*>(&__cucpu_jit_mbarrier_arrive)},
      {"__cucpu_jit_mbarrier_tx", reinterpret_cast<void*>(&__cucpu_jit_mbarrier_tx)},
      {"__cucpu_jit_mbarrier_test", reinterpret_cast<void*>(&__cucpu_jit_mbarrier_test)},
      {"__cucpu_jit_mbarrier_pending_count", reinterpret_cast<void*>(&__cucpu_jit_mbarrier_pending_count)},
  };
}

}  // namespace cucpu::jit
