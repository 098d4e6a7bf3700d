// The encoding of opcodes.def's third column: which qualifier groups and flags an
// opcode accepts. Each is one bit; a row ORs the bits of everything that opcode may
// carry after its name (`ld.global.nc.v4.f32`: kSpace | kNc | kVector | kType, ...).
// The parser reads a `.word` only as a member of an accepted group, so one spelling can
// mean different things on different opcodes (`.and` on setp vs atom) and a word no
// accepted group knows is a diagnostic.
#pragma once

#include <cstdint>

#include "ptx/module.h"

namespace cucpu::ptx::accepts {

inline constexpr uint64_t kType = 1ull << 0;     // a type: first -> type
inline constexpr uint64_t kSrcType = 1ull << 1;  // a second type -> src_type
inline constexpr uint64_t kSpace = 1ull << 2;    // .global .shared ... -> space
inline constexpr uint64_t kTo = 1ull << 3;       // cvta.to
inline constexpr uint64_t kRounding = 1ull << 4;
inline constexpr uint64_t kMulMode = 1ull << 5;
inline constexpr uint64_t kCompare = 1ull << 6;
inline constexpr uint64_t kBoolOp = 1ull << 7;
inline constexpr uint64_t kAtomicOp = 1ull << 8;
inline constexpr uint64_t kBarrierMode = 1ull << 9;
inline constexpr uint64_t kShuffleMode = 1ull << 10;
inline constexpr uint64_t kVoteMode = 1ull << 11;
inline constexpr uint64_t kSemantics = 1ull << 12;
inline constexpr uint64_t kScope = 1ull << 13;
inline constexpr uint64_t kOperation = 1ull << 14;
inline constexpr uint64_t kVector = 1ull << 15;  // .v2 .v4 .v8
inline constexpr uint64_t kFtz = 1ull << 16;
inline constexpr uint64_t kSat = 1ull << 17;
inline constexpr uint64_t kApprox = 1ull << 18;
inline constexpr uint64_t kFull = 1ull << 19;
inline constexpr uint64_t kCarry = 1ull << 20;  // .cc
inline constexpr uint64_t kUni = 1ull << 21;
inline constexpr uint64_t kSync = 1ull << 22;  // .sync as a flag
inline constexpr uint64_t kAligned = 1ull << 23;
inline constexpr uint64_t kRelu = 1ull << 24;
inline constexpr uint64_t kNan = 1ull << 25;    // .NaN
inline constexpr uint64_t kShift = 1ull << 26;  // shf .l / .r
inline constexpr uint64_t kClamp = 1ull << 27;  // .clamp / .wrap
inline constexpr uint64_t kNc = 1ull << 28;
inline constexpr uint64_t kCache = 1ull << 29;  // cache operators and eviction hints: dropped
inline constexpr uint64_t kNoftz = 1ull << 30;  // atom/red .noftz: dropped (implied for f16)
inline constexpr uint64_t kWarp = 1ull << 31;   // bar.warp.sync
inline constexpr uint64_t kIdx = 1ull << 32;    // brx.idx: the only form, dropped
inline constexpr uint64_t kWord = 1ull << 33;   // every word kept in order (Qualifiers::words)
inline constexpr uint64_t kXorsign = 1ull << 34; // min/max .xorsign.abs
inline constexpr uint64_t kShape = 1ull << 35;     // .m16n16k16 ...
inline constexpr uint64_t kFragment = 1ull << 36;  // wmma .a .b .c .d
inline constexpr uint64_t kLayout = 1ull << 37;    // .row .col: first -> layout, second -> layout_b
inline constexpr uint64_t kMatrixTypes = 1ull << 38;  // third and fourth type -> b_type, c_type
inline constexpr uint64_t kSrcSpace = 1ull << 39;  // a second space -> src_space
inline constexpr uint64_t kAsyncCopy = 1ull << 40; // cp: .async .bulk .mbarrier .noinc .read, completions
inline constexpr uint64_t kMbarrier = 1ull << 41;  // mbarrier: .parity .noComplete, .expect_tx after .arrive
inline constexpr uint64_t kMatrixCount = 1ull << 42;  // .x1 .x2 .x4
inline constexpr uint64_t kTrans = 1ull << 43;
inline constexpr uint64_t kSatfinite = 1ull << 44;
inline constexpr uint64_t kPopc = 1ull << 45;      // mma .xor.popc / .and.popc: .popc dropped
inline constexpr uint64_t kProxy = 1ull << 46;     // fence.proxy.async / .alias / .tensormap::generic
inline constexpr uint64_t kThirdType = 1ull << 47; // a third type -> b_type (video d.a.b)
inline constexpr uint64_t kSecondaryOp = 1ull << 48;  // video .add .min .max

// The third column of opcodes.def for `opcode`.
uint64_t accepted_qualifiers(Opcode opcode);

}  // namespace cucpu::ptx::accepts
