// Unit tests of the PTX front end (src/ptx): real nvcc output under tests/ptx/inputs
// parses into the expected structure and survives print -> parse unchanged; the files
// under tests/ptx/bad give the one-line error their `// EXPECT:` line names; and
// truncated or corrupted inputs never crash the parser.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "ptx/parse.h"

namespace cucpu::ptx {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<fs::path> files_in(const char* directory) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(fs::path(CUCPU_TEST_DATA) / "ptx" / directory)) {
    if (entry.path().extension() == ".ptx") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

Module parse_ok(const std::string& text) {
  auto result = parse(text);
  EXPECT_TRUE(result.has_value()) << (result ? "" : result.error().message);
  return result ? std::move(result).value() : Module{};
}

Module parse_input(const char* name) {
  return parse_ok(read_file(fs::path(CUCPU_TEST_DATA) / "ptx" / "inputs" / name));
}

// A module body, wrapped in a header and one kernel, for the small grammar tests.
std::string kernel(const std::string& body, const std::string& declarations = "") {
  return ".version 9.0\n.target sm_90\n.address_size 64\n" + declarations +
         "\n.visible .entry k(.param .u64 p)\n{\n"
         "\t.reg .pred %p<4>;\n\t.reg .b16 %rs<4>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n"
         "\t.reg .f32 %f<4>;\n\t.reg .f64 %fd<4>;\n" +
         body + "\n\tret;\n}\n";
}

// The first instruction of the kernel `k`.
Instruction first_instruction(const std::string& body, const std::string& declarations = "") {
  Module module = parse_ok(kernel(body, declarations));
  for (const Statement& statement : module.functions.at(0).body) {
    if (statement.kind == Statement::Kind::Instruction) return statement.instruction;
  }
  ADD_FAILURE() << "no instruction";
  return {};
}

std::string first_error(const std::string& text) {
  auto result = parse(text);
  return result ? std::string("(parsed)") : result.error().message;
}

const Function& function_named(const Module& module, const std::string& name) {
  const Function* function = module.find_function(name);
  EXPECT_NE(function, nullptr) << name;
  static const Function kNone;
  return function != nullptr ? *function : kNone;
}

std::vector<const Instruction*> instructions_of(const Function& function, Opcode opcode) {
  std::vector<const Instruction*> found;
  for (const Statement& statement : function.body) {
    if (statement.kind == Statement::Kind::Instruction && statement.instruction.opcode == opcode) {
      found.push_back(&statement.instruction);
    }
  }
  return found;
}

// ---------------------------------------------------------------- structural equality

// Everything in a module except source positions, as text: equal text = equal modules.
class Describer {
 public:
  std::string module(const Module& m) {
    line("version", m.version_major, m.version_minor, m.target, m.address_size);
    for (const auto& option : m.target_options) line("option", option);
    for (size_t i = 0; i < m.files.size(); ++i) line("file", i, m.files[i]);
    for (const Variable& v : m.variables) variable(v);
    for (const Function& f : m.functions) function(f);
    return out_.str();
  }

 private:
  template <typename... T>
  void line(const T&... values) {
    ((out_ << values << ' '), ...);
    out_ << '\n';
  }
  void variable(const Variable& v) {
    line("var", v.name, int(v.space), int(v.type), int(v.vector), v.align, v.is_extern, v.is_visible, v.is_weak,
         v.is_common, v.init.size());
    for (uint64_t d : v.dims) line("dim", d);
    std::string bytes(v.init.begin(), v.init.end());
    line("init", std::hash<std::string>{}(bytes));
    for (const auto& a : v.address_inits) line("addr", a.offset, a.symbol, a.addend, a.generic);
  }
  void parameter(const char* what, const Parameter& p) {
    line(what, p.name, int(p.type), p.align, p.array_size, p.is_pointer, int(p.pointee_space), p.pointee_align,
         int(p.space));
  }
  void function(const Function& f) {
    line("func", f.name, f.is_entry, f.is_visible, f.is_extern, f.is_weak);
    for (const auto& p : f.params) parameter("param", p);
    for (const auto& p : f.returns) parameter("return", p);
    const Directives& d = f.directives;
    line("directives", d.maxntid[0], d.maxntid[1], d.maxntid[2], d.reqntid[0], d.reqntid[1], d.reqntid[2],
         d.minnctapersm, d.maxnreg, d.reqnctapercluster[0], d.explicitcluster, d.maxclusterrank, d.noreturn);
    for (const Register& r : f.registers) line("reg", r.name, int(r.type), int(r.vector));
    for (const Variable& v : f.locals) variable(v);
    for (const Statement& s : f.body) {
      if (s.kind == Statement::Kind::Label) {
        line("label", s.label);
      } else {
        instruction(s.instruction);
      }
    }
  }
  void instruction(const Instruction& i) {
    const Qualifiers& q = i.q;
    line("insn", spelling(i.opcode), int(q.type), int(q.src_type), int(q.space), q.to_space, int(q.rounding),
         int(q.mul_mode), int(q.compare), int(q.bool_op), int(q.atomic_op), int(q.barrier), int(q.shuffle), int(q.vote),
         int(q.sem), int(q.scope), int(q.operation), int(q.vector), q.ftz, q.sat, q.approx, q.full, q.carry, q.uni,
         q.sync, q.aligned, q.relu, q.nan, q.shift_left, q.clamp, q.nc);
    if (i.guard) line("guard", i.guard->reg, i.guard->negated);
    line("loc", i.loc.file, i.loc.line);
    for (const Operand& o : i.operands) operand(o);
  }
  void operand(const Operand& o) {
    line("operand", int(o.kind), o.reg, int(o.sreg), int(o.component), o.negated, o.imm, o.imm_is_float,
         o.imm_is_double, o.name, o.offset, o.elements.size());
    for (const Operand& e : o.elements) operand(e);
  }
  std::ostringstream out_;
};

std::string describe(const Module& module) { return Describer().module(module); }

// ---------------------------------------------------------------- nvcc output

TEST(PtxInputs, EveryInputParsesAndRoundTrips) {
  const auto files = files_in("inputs");
  ASSERT_GE(files.size(), 10u);
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.filename().string());
    Module module = parse_ok(read_file(path));
    EXPECT_FALSE(module.functions.empty());
    const std::string printed = print_module(module);
    auto reparsed = parse(printed, "printed");
    ASSERT_TRUE(reparsed.has_value()) << reparsed.error().message << "\n" << printed;
    EXPECT_EQ(describe(module), describe(*reparsed));
    EXPECT_EQ(printed, print_module(*reparsed));  // printing is a fixed point
  }
}

TEST(PtxInputs, VectorAdd) {
  Module module = parse_input("vector_add.ptx");
  EXPECT_EQ(module.version_major, 9u);
  EXPECT_EQ(module.version_minor, 0u);
  EXPECT_EQ(module.target, "sm_90");
  EXPECT_EQ(module.address_size, 64u);
  ASSERT_EQ(module.functions.size(), 1u);
  const Function& k = module.functions[0];
  EXPECT_EQ(k.name, "_Z10vector_addPKfS0_Pfi");
  EXPECT_TRUE(k.is_entry);
  EXPECT_TRUE(k.is_visible);
  ASSERT_EQ(k.params.size(), 4u);
  EXPECT_EQ(k.params[0].type, Type::U64);
  EXPECT_EQ(k.params[3].type, Type::U32);
  EXPECT_EQ(k.params[3].size_bytes(), 4u);
  EXPECT_EQ(k.params[3].name, "_Z10vector_addPKfS0_Pfi_param_3");
  // %p<2>, %f<4>, %r<6>, %rd<11>: every element of the parameterized declarations.
  EXPECT_EQ(k.registers.size(), 2u + 4u + 6u + 11u);
  EXPECT_EQ(k.registers[0].name, "%p0");
  EXPECT_EQ(k.registers[0].type, Type::Pred);

  auto mads = instructions_of(k, Opcode::Mad);
  ASSERT_EQ(mads.size(), 1u);
  EXPECT_EQ(mads[0]->q.mul_mode, MulMode::Lo);
  EXPECT_EQ(mads[0]->q.type, Type::S32);

  auto movs = instructions_of(k, Opcode::Mov);
  ASSERT_GE(movs.size(), 3u);
  bool saw_tid = false;
  for (const Instruction* mov : movs) {
    const Operand& source = mov->operands.at(1);
    if (source.kind == Operand::Kind::SpecialRegister && source.sreg == SpecialRegister::Tid) {
      EXPECT_EQ(source.component, 0);
      saw_tid = true;
    }
  }
  EXPECT_TRUE(saw_tid);

  auto branches = instructions_of(k, Opcode::Bra);
  ASSERT_EQ(branches.size(), 1u);
  ASSERT_TRUE(branches[0]->guard.has_value());
  EXPECT_EQ(k.registers.at(branches[0]->guard->reg).type, Type::Pred);
  EXPECT_EQ(branches[0]->operands.at(0).kind, Operand::Kind::Label);

  auto loads = instructions_of(k, Opcode::Ld);
  ASSERT_GE(loads.size(), 2u);
  const Instruction& param_load = *loads[0];
  EXPECT_EQ(param_load.q.space, StateSpace::Param);
  EXPECT_EQ(param_load.operands.at(1).kind, Operand::Kind::Address);
  EXPECT_EQ(param_load.operands.at(1).elements.at(0).kind, Operand::Kind::Symbol);
  auto cvtas = instructions_of(k, Opcode::Cvta);
  ASSERT_FALSE(cvtas.empty());
  EXPECT_TRUE(cvtas[0]->q.to_space);
  EXPECT_EQ(cvtas[0]->q.space, StateSpace::Global);
  EXPECT_EQ(cvtas[0]->q.type, Type::U64);
}

TEST(PtxInputs, TiledMatmulSharedMemoryAndBarriers) {
  Module module = parse_input("matmul_tiled.ptx");
  const Variable* dynamic = module.find_variable("dynamic_smem");
  ASSERT_NE(dynamic, nullptr);
  EXPECT_TRUE(dynamic->is_extern);
  EXPECT_EQ(dynamic->space, StateSpace::Shared);
  ASSERT_EQ(dynamic->dims.size(), 1u);
  EXPECT_EQ(dynamic->dims[0], 0u);
  EXPECT_EQ(dynamic->size_bytes(), 0u);
  EXPECT_EQ(dynamic->alignment(), 16u);

  const Function& k = function_named(module, "_Z12matmul_tiledPKfS0_Pfi");
  ASSERT_EQ(k.locals.size(), 2u);  // the two __shared__ tiles, demoted into the kernel
  for (const Variable& tile : k.locals) {
    EXPECT_EQ(tile.space, StateSpace::Shared);
    EXPECT_EQ(tile.size_bytes(), 16u * 16u * 4u);
    EXPECT_EQ(tile.alignment(), 4u);
  }
  auto barriers = instructions_of(k, Opcode::Bar);
  ASSERT_EQ(barriers.size(), 2u);
  EXPECT_EQ(barriers[0]->q.barrier, BarrierMode::Sync);
  EXPECT_FALSE(barriers[0]->q.sync);
  EXPECT_EQ(barriers[0]->operands.at(0).kind, Operand::Kind::Immediate);
  EXPECT_EQ(barriers[0]->operands.at(0).imm, 0u);
  auto shared_stores = instructions_of(k, Opcode::St);
  EXPECT_TRUE(std::any_of(shared_stores.begin(), shared_stores.end(),
                          [](const Instruction* st) { return st->q.space == StateSpace::Shared; }));
}

TEST(PtxInputs, StructParameterAndInitializedVariables) {
  Module module = parse_input("struct_param.ptx");
  const Function& k = function_named(module, "_Z12apply_params6Params");
  ASSERT_EQ(k.params.size(), 1u);
  EXPECT_EQ(k.params[0].type, Type::B8);
  EXPECT_EQ(k.params[0].array_size, 48u);
  EXPECT_EQ(k.params[0].align, 8u);
  EXPECT_EQ(k.params[0].size_bytes(), 48u);
  EXPECT_EQ(k.params[0].alignment(), 8u);

  const Variable* coefficients = module.find_variable("coefficients");
  ASSERT_NE(coefficients, nullptr);
  EXPECT_EQ(coefficients->space, StateSpace::Const);
  ASSERT_EQ(coefficients->init.size(), 16u);
  EXPECT_EQ(coefficients->init[2], 128);  // 1.0f = 0x3F800000, little-endian
  EXPECT_EQ(coefficients->init[3], 63);

  const Variable* counter = module.find_variable("counter");
  ASSERT_NE(counter, nullptr);
  EXPECT_EQ(counter->init, (std::vector<uint8_t>{7, 0, 0, 0}));

  const Variable* counter_ptr = module.find_variable("counter_ptr");
  ASSERT_NE(counter_ptr, nullptr);
  ASSERT_EQ(counter_ptr->address_inits.size(), 1u);
  EXPECT_EQ(counter_ptr->address_inits[0].symbol, "counter");
  EXPECT_TRUE(counter_ptr->address_inits[0].generic);
  EXPECT_EQ(counter_ptr->address_inits[0].offset, 0u);

  // ld.param.v2.u32 {%r5, %r6}, [param+16]
  auto loads = instructions_of(k, Opcode::Ld);
  ASSERT_FALSE(loads.empty());
  EXPECT_EQ(loads[0]->q.vector, 2);
  EXPECT_EQ(loads[0]->operands.at(0).kind, Operand::Kind::Vector);
  EXPECT_EQ(loads[0]->operands.at(0).elements.size(), 2u);
  EXPECT_EQ(loads[0]->operands.at(1).offset, 16);
}

TEST(PtxInputs, DeviceFunctionsAndCalls) {
  Module module = parse_input("device_calls.ptx");
  // Prototypes and definitions merge into one entry each, at the prototype's place.
  ASSERT_EQ(module.functions.size(), 5u);
  EXPECT_EQ(module.functions[0].name, "_Z6squaref");
  const Function& square = function_named(module, "_Z6squaref");
  EXPECT_FALSE(square.is_entry);
  EXPECT_FALSE(square.is_extern);
  EXPECT_FALSE(square.body.empty());
  ASSERT_EQ(square.returns.size(), 1u);
  EXPECT_EQ(square.returns[0].name, "func_retval0");
  EXPECT_EQ(square.returns[0].type, Type::B32);

  const Variable* table = module.find_variable("table");
  ASSERT_NE(table, nullptr);
  ASSERT_EQ(table->address_inits.size(), 2u);
  EXPECT_EQ(table->address_inits[1].symbol, "_Z5twicef");
  EXPECT_EQ(table->address_inits[1].offset, 8u);

  const Function& k = function_named(module, "_Z14call_functionsPfi");
  auto calls = instructions_of(k, Opcode::Call);
  ASSERT_EQ(calls.size(), 4u);
  const Instruction& direct = *calls[0];
  EXPECT_TRUE(direct.q.uni);
  ASSERT_EQ(direct.operands.size(), 3u);
  EXPECT_EQ(direct.operands[0].elements.at(0).name, "retval0");
  EXPECT_EQ(direct.operands[1].kind, Operand::Kind::Symbol);
  EXPECT_EQ(direct.operands[1].name, "_Z6squaref");
  EXPECT_EQ(direct.operands[2].elements.at(0).name, "param0");
  // The callseq scopes each declare param0/retval0: renamed apart, flat and unique.
  EXPECT_EQ(calls[1]->operands[2].elements.at(0).name, "param0$1");
  const Instruction& indirect = *calls[2];
  EXPECT_FALSE(indirect.q.uni);
  EXPECT_EQ(indirect.operands[1].kind, Operand::Kind::Register);
  EXPECT_EQ(calls[3]->operands[0].elements.size(), 0u);
  std::vector<std::string> names;
  for (const Variable& local : k.locals) names.push_back(local.name);
  std::sort(names.begin(), names.end());
  EXPECT_TRUE(std::adjacent_find(names.begin(), names.end()) == names.end());
  // temp_param_reg, declared in every callseq scope.
  EXPECT_EQ(std::count_if(k.registers.begin(), k.registers.end(),
                          [](const Register& r) { return r.name.starts_with("temp_param_reg"); }),
            4);
}

TEST(PtxInputs, Atomics) {
  Module module = parse_input("atomics.ptx");
  const Function& k = module.functions.at(0);
  auto atoms = instructions_of(k, Opcode::Atom);
  ASSERT_GE(atoms.size(), 15u);
  auto find = [&](AtomicOp op, Type type) -> const Instruction* {
    for (const Instruction* atom : atoms) {
      if (atom->q.atomic_op == op && atom->q.type == type) return atom;
    }
    return nullptr;
  };
  const Instruction* cas = find(AtomicOp::Cas, Type::B32);
  ASSERT_NE(cas, nullptr);
  EXPECT_EQ(cas->q.space, StateSpace::Global);
  EXPECT_EQ(cas->operands.size(), 4u);
  ASSERT_NE(find(AtomicOp::Add, Type::F64), nullptr);
  ASSERT_NE(find(AtomicOp::Inc, Type::U32), nullptr);
  const Instruction* acq_rel = find(AtomicOp::Add, Type::S32);
  ASSERT_NE(acq_rel, nullptr);
  EXPECT_EQ(acq_rel->q.sem, Semantics::AcqRel);
  EXPECT_EQ(acq_rel->q.scope, Scope::Gpu);
  EXPECT_EQ(acq_rel->q.space, StateSpace::Generic);
  EXPECT_TRUE(std::any_of(atoms.begin(), atoms.end(), [](const Instruction* a) { return a->q.scope == Scope::Sys; }));
  EXPECT_TRUE(
      std::any_of(atoms.begin(), atoms.end(), [](const Instruction* a) { return a->q.space == StateSpace::Shared; }));
  auto membars = instructions_of(k, Opcode::Membar);
  ASSERT_EQ(membars.size(), 2u);
  EXPECT_EQ(membars[0]->q.scope, Scope::Gpu);  // membar.gl
  EXPECT_EQ(membars[1]->q.scope, Scope::Cta);
  auto stores = instructions_of(k, Opcode::St);
  EXPECT_TRUE(std::any_of(stores.begin(), stores.end(), [](const Instruction* st) {
    return st->q.sem == Semantics::Release && st->q.scope == Scope::Gpu;
  }));
}

TEST(PtxInputs, WarpIntrinsics) {
  Module module = parse_input("warp.ptx");
  const Function& k = module.functions.at(0);
  auto shuffles = instructions_of(k, Opcode::Shfl);
  ASSERT_EQ(shuffles.size(), 9u);
  const Instruction& bfly = *shuffles[0];
  EXPECT_TRUE(bfly.q.sync);
  EXPECT_EQ(bfly.q.shuffle, ShuffleMode::Bfly);
  EXPECT_EQ(bfly.q.type, Type::B32);
  ASSERT_EQ(bfly.operands.size(), 6u);  // %r12|%p1, a, b, c, mask
  EXPECT_TRUE(has_destination_pair(bfly));
  EXPECT_EQ(k.registers.at(bfly.operands[1].reg).type, Type::Pred);

  auto votes = instructions_of(k, Opcode::Vote);
  ASSERT_EQ(votes.size(), 3u);
  EXPECT_EQ(votes[0]->q.vote, VoteMode::Ballot);
  EXPECT_TRUE(votes[0]->q.sync);
  EXPECT_EQ(votes[1]->q.vote, VoteMode::All);
  EXPECT_EQ(votes[1]->q.type, Type::Pred);

  auto reductions = instructions_of(k, Opcode::Redux);
  ASSERT_EQ(reductions.size(), 2u);
  EXPECT_EQ(reductions[0]->q.atomic_op, AtomicOp::Add);
  EXPECT_EQ(reductions[0]->q.type, Type::U32);
  EXPECT_TRUE(reductions[0]->q.sync);

  auto matches = instructions_of(k, Opcode::Match);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(matches[0]->q.vote, VoteMode::Any);
  EXPECT_FALSE(has_destination_pair(*matches[0]));

  auto bars = instructions_of(k, Opcode::Bar);
  ASSERT_EQ(bars.size(), 4u);
  EXPECT_TRUE(bars[0]->q.sync);  // bar.warp.sync
  EXPECT_EQ(bars[0]->q.barrier, BarrierMode::None);
  EXPECT_EQ(bars[1]->q.barrier, BarrierMode::Red);
  EXPECT_EQ(bars[1]->q.atomic_op, AtomicOp::Popc);
  EXPECT_EQ(bars[1]->q.type, Type::U32);
  EXPECT_EQ(bars[2]->q.atomic_op, AtomicOp::And);
  EXPECT_EQ(bars[2]->q.type, Type::Pred);
  // The inner `{ .reg .pred %p1; }` scopes shadow the kernel's %p1: a distinct register.
  const uint32_t inner = bars[1]->operands.at(2).reg;
  EXPECT_EQ(k.registers.at(inner).name, "%p1$1");
  EXPECT_NE(inner, bfly.operands[1].reg);

  auto bfinds = instructions_of(k, Opcode::Bfind);
  ASSERT_EQ(bfinds.size(), 1u);
  EXPECT_EQ(bfinds[0]->q.operation, Operation::ShiftAmount);
  EXPECT_EQ(instructions_of(k, Opcode::Activemask).size(), 1u);
}

TEST(PtxInputs, PrintfLocalArraysDoubleMath) {
  Module module = parse_input("printf_local.ptx");
  const Function* vprintf = module.find_function("vprintf");
  ASSERT_NE(vprintf, nullptr);
  EXPECT_TRUE(vprintf->is_extern);
  EXPECT_TRUE(vprintf->body.empty());
  EXPECT_EQ(vprintf->params.size(), 2u);
  const Variable* str = module.find_variable("$str");
  ASSERT_NE(str, nullptr);
  EXPECT_EQ(str->size_bytes(), 32u);
  ASSERT_EQ(str->init.size(), 32u);  // 31 listed bytes, zero-padded to the declared size
  EXPECT_EQ(str->init[0], 't');
  EXPECT_EQ(str->init[31], 0);
  const Function& k = function_named(module, "_Z12printf_localPdi");
  ASSERT_FALSE(k.locals.empty());
  EXPECT_EQ(k.locals[0].name, "__local_depot0");
  EXPECT_EQ(k.locals[0].space, StateSpace::Local);
  EXPECT_EQ(k.locals[0].alignment(), 16u);
  auto fmas = instructions_of(k, Opcode::Fma);
  ASSERT_FALSE(fmas.empty());
  EXPECT_EQ(fmas[0]->q.rounding, Rounding::NearestEven);
  EXPECT_EQ(fmas[0]->q.type, Type::F64);
  bool saw_double_immediate = false;
  for (const Statement& statement : k.body) {
    for (const Operand& operand : statement.instruction.operands) {
      saw_double_immediate |= operand.kind == Operand::Kind::Immediate && operand.imm_is_double;
    }
  }
  EXPECT_TRUE(saw_double_immediate);
}

TEST(PtxInputs, HalfPrecisionInlineAsmScopes) {
  Module module = parse_input("half_precision.ptx");
  const Function& k = module.functions.at(0);
  // Inline asm declares plain names (`.reg.b32 f;`) in nested scopes.
  EXPECT_TRUE(std::any_of(k.registers.begin(), k.registers.end(), [](const Register& r) { return r.name == "f"; }));
  auto cvts = instructions_of(k, Opcode::Cvt);
  EXPECT_TRUE(std::any_of(cvts.begin(), cvts.end(), [](const Instruction* cvt) {
    return cvt->q.type == Type::F16 && cvt->q.src_type == Type::F32 && cvt->q.rounding == Rounding::NearestEven;
  }));
  EXPECT_TRUE(
      std::any_of(cvts.begin(), cvts.end(), [](const Instruction* cvt) { return cvt->q.src_type == Type::BF16; }));
  auto fmas = instructions_of(k, Opcode::Fma);
  EXPECT_TRUE(std::any_of(fmas.begin(), fmas.end(), [](const Instruction* fma) { return fma->q.type == Type::F16x2; }));
}

TEST(PtxInputs, DebugInfoFilesAndLocations) {
  Module module = parse_input("device_calls_debug.ptx");
  ASSERT_EQ(module.files.size(), 2u);
  EXPECT_TRUE(module.files[1].ends_with("device_calls.cu"));
  EXPECT_EQ(module.target_options, std::vector<std::string>{"debug"});
  const Function& k = function_named(module, "_Z14call_functionsPfi");
  bool saw_line_11 = false;
  for (const Statement& statement : k.body) {
    if (statement.kind != Statement::Kind::Instruction) continue;
    EXPECT_EQ(statement.instruction.loc.file, 1u);
    saw_line_11 |= statement.instruction.loc.line == 11;
  }
  EXPECT_TRUE(saw_line_11);
}

TEST(PtxInputs, HandWrittenGrammar) {
  Module module = parse_input("grammar.ptx");
  EXPECT_EQ(module.target, "sm_90a");
  EXPECT_EQ(module.files.at(1), "grammar.cu");
  const Variable* vec = module.find_variable("vec_var");
  ASSERT_NE(vec, nullptr);
  EXPECT_EQ(vec->vector, 2);
  EXPECT_EQ(vec->size_bytes(), 16u);
  EXPECT_EQ(vec->init.at(4 + 3), 0x40);  // 2.5f = 0x40200000
  const Variable* grid = module.find_variable("grid");
  ASSERT_NE(grid, nullptr);
  ASSERT_EQ(grid->init.size(), 24u);
  EXPECT_EQ(grid->init[4], 0xFE);  // -2
  EXPECT_EQ(grid->init[12], 4);    // {4} starts the second row
  const Variable* bytes = module.find_variable("bytes");
  ASSERT_NE(bytes, nullptr);
  EXPECT_EQ(bytes->dims, std::vector<uint64_t>{4});
  EXPECT_EQ(bytes->init, (std::vector<uint8_t>{5, 15, 31, 255}));
  const Variable* dbl = module.find_variable("dbl");
  ASSERT_NE(dbl, nullptr);
  EXPECT_EQ(dbl->init.at(7), 0xC0);  // -150.0
  const Variable* ptrs = module.find_variable("ptrs");
  ASSERT_NE(ptrs, nullptr);
  ASSERT_EQ(ptrs->address_inits.size(), 3u);
  EXPECT_EQ(ptrs->address_inits[1].addend, 8);
  EXPECT_TRUE(ptrs->address_inits[1].generic);
  EXPECT_EQ(ptrs->address_inits[2].offset, 16u);
  const Variable* masked = module.find_variable("struct_with_ptr");
  ASSERT_NE(masked, nullptr);
  ASSERT_EQ(masked->address_inits.size(), 1u);
  EXPECT_EQ(masked->address_inits[0].offset, 8u);
  EXPECT_EQ(masked->address_inits[0].symbol, "dbl");
  EXPECT_TRUE(module.find_variable("weak_var")->is_weak);
  EXPECT_TRUE(module.find_variable("common_var")->is_common);
  ASSERT_NE(module.find_variable("list_b"), nullptr);

  const Function& reg_fn = function_named(module, "reg_fn");
  EXPECT_EQ(reg_fn.params.at(0).space, StateSpace::Reg);
  EXPECT_EQ(reg_fn.registers.size(), 2u);  // .reg parameters are registers too

  const Function& k = function_named(module, "grammar_kernel");
  EXPECT_EQ(k.directives.maxntid[0], 128u);
  EXPECT_EQ(k.directives.maxntid[1], 1u);
  EXPECT_EQ(k.directives.minnctapersm, 2u);
  EXPECT_TRUE(k.params[0].is_pointer);
  EXPECT_EQ(k.params[0].pointee_space, StateSpace::Global);
  EXPECT_EQ(k.params[0].pointee_align, 8u);
  auto brx = instructions_of(k, Opcode::Brx);
  ASSERT_EQ(brx.size(), 1u);
  ASSERT_EQ(brx[0]->operands.at(1).kind, Operand::Kind::Vector);
  EXPECT_EQ(brx[0]->operands[1].elements.size(), 3u);
  EXPECT_EQ(brx[0]->operands[1].elements[2].name, "$L_c");
  auto elects = instructions_of(k, Opcode::Elect);
  ASSERT_EQ(elects.size(), 2u);
  EXPECT_EQ(elects[1]->operands.at(0).kind, Operand::Kind::Sink);
  auto ldu = instructions_of(k, Opcode::Ld);
  EXPECT_TRUE(std::any_of(ldu.begin(), ldu.end(), [](const Instruction* ld) {
    return ld->q.nc && ld->q.vector == 4 && ld->operands.at(1).offset == -16;
  }));
  // ld.global.L2::cache_hint: the hint and its policy operand are dropped.
  EXPECT_TRUE(std::any_of(ldu.begin(), ldu.end(), [](const Instruction* ld) {
    return ld->q.type == Type::U32 && ld->q.space == StateSpace::Global && ld->operands.size() == 2 &&
           ld->operands[1].elements.size() == 1 && ld->operands[1].offset == 0;
  }));
  EXPECT_EQ(k.body.front().instruction.loc.line, 10u);
}

// ---------------------------------------------------------------- qualifiers and operands

TEST(PtxQualifiers, TypesAndSourceTypes) {
  Instruction cvt = first_instruction("\tcvt.rn.f32.s32 %f1, %r1;");
  EXPECT_EQ(cvt.opcode, Opcode::Cvt);
  EXPECT_EQ(cvt.q.type, Type::F32);
  EXPECT_EQ(cvt.q.src_type, Type::S32);
  EXPECT_EQ(cvt.q.rounding, Rounding::NearestEven);
  Instruction wide = first_instruction("\tmul.wide.s32 %rd1, %r1, %r2;");
  EXPECT_EQ(wide.q.type, Type::S32);
  EXPECT_EQ(wide.q.src_type, Type::None);
  EXPECT_EQ(wide.q.mul_mode, MulMode::Wide);
  EXPECT_EQ(first_error(kernel("\tadd.s32.s32 %r1, %r1, %r1;")), "ptx:13:9: conflicting qualifier '.s32' on 'add'");
}

// Packed 16-bit integer types and the SIMD video instructions: three types d.a.b, .sat,
// the .add secondary operation, and lane selectors on register operands (PTX ISA 9.0 §9.7.17).
TEST(PtxQualifiers, PackedIntegersAndVideoSelectors) {
  Instruction packed = first_instruction("\tmax.s16x2.relu %r1, %r2, %r3;");
  EXPECT_EQ(packed.q.type, Type::S16x2);
  EXPECT_TRUE(packed.q.relu);
  Instruction video = first_instruction("\tvmin2.s32.u32.s32.add %r1.h1, %r2.h02, %r3.h31, %r4;");
  EXPECT_EQ(video.opcode, Opcode::Vmin2);
  EXPECT_EQ(video.q.type, Type::S32);
  EXPECT_EQ(video.q.src_type, Type::U32);
  EXPECT_EQ(video.q.b_type, Type::S32);
  EXPECT_EQ(video.q.secondary, SecondaryOp::Add);
  ASSERT_EQ(video.operands.size(), 4u);
  EXPECT_EQ(video.operands[0].selector.lane_bits, 16);
  EXPECT_EQ(video.operands[0].selector.count, 1);
  EXPECT_EQ(video.operands[2].selector.count, 2);
  EXPECT_EQ(video.operands[2].selector.digits[0], 3);
  EXPECT_EQ(video.operands[2].selector.digits[1], 1);
  EXPECT_EQ(video.operands[3].selector.lane_bits, 0);
  Instruction set = first_instruction("\tvset4.s32.u32.ne.add %r1.b310, %r2.b7654, %r3.b0000, %r4;");
  EXPECT_EQ(set.q.compare, Compare::Ne);
  EXPECT_EQ(set.q.b_type, Type::None);
  EXPECT_EQ(set.operands[0].selector.lane_bits, 8);
  EXPECT_EQ(set.operands[0].selector.count, 3);
  // Printed as written, and reparsed to the same.
  const std::string text = kernel(
      "\tvadd4.u32.u32.u32.sat %r1.b20, %r2.b3210, %r3.b7654, %r4;\n"
      "\tvset2.u32.s32.le %r1, %r2.h10, %r3, %r4;\n\tadd.u16x2 %r1, %r2, %r3;");
  const std::string printed = print_module(parse_ok(text));
  EXPECT_NE(printed.find("vadd4.u32.u32.u32.sat %r1.b20, %r2.b3210, %r3.b7654, %r4;"), std::string::npos) << printed;
  EXPECT_NE(printed.find("vset2.u32.s32.le %r1, %r2.h10, %r3, %r4;"), std::string::npos) << printed;
  EXPECT_NE(printed.find("add.u16x2 %r1, %r2, %r3;"), std::string::npos) << printed;
  EXPECT_EQ(printed, print_module(parse_ok(printed)));
  // Selectors only on video instructions, with digits of the operand pair's lanes.
  EXPECT_EQ(first_error(kernel("\tadd.u32 %r1.b0, %r2, %r3;")),
            "ptx:13:2: a lane selector on 'add', which is no video instruction");
  EXPECT_EQ(first_error(kernel("\tvadd2.u32.u32.u32 %r1, %r2.h14, %r3, %r4;")),
            "ptx:13:28: invalid lane selector '.h14'");
  EXPECT_EQ(first_error(kernel("\tvadd4.u32.u32.u32 %r1, %r2.b01234, %r3, %r4;")),
            "ptx:13:28: invalid lane selector '.b01234'");
  // The scalar video instructions are not implemented: refused by name.
  EXPECT_EQ(first_error(kernel("\tvadd.u32.u32.u32 %r1, %r2, %r3;")), "ptx:13:2: unknown opcode 'vadd'");
}

TEST(PtxQualifiers, SameSpellingDifferentGroups) {
  Instruction setp = first_instruction("\tsetp.lt.and.s32 %p1, %r1, %r2, %p2;");
  EXPECT_EQ(setp.q.compare, Compare::Lt);
  EXPECT_EQ(setp.q.bool_op, BoolOp::And);
  EXPECT_FALSE(has_destination_pair(setp));
  Instruction atom = first_instruction("\tatom.global.and.b32 %r1, [%rd1], 3;");
  EXPECT_EQ(atom.q.atomic_op, AtomicOp::And);
  EXPECT_EQ(atom.q.bool_op, BoolOp::None);
  Instruction hi = first_instruction("\tsetp.hi.u32 %p1, %r1, %r2;");
  EXPECT_EQ(hi.q.compare, Compare::Hi);
  Instruction mul_hi = first_instruction("\tmul.hi.u32 %r1, %r1, %r2;");
  EXPECT_EQ(mul_hi.q.mul_mode, MulMode::Hi);
}

TEST(PtxQualifiers, MemoryQualifiers) {
  Instruction ld = first_instruction("\tld.global.nc.L1::evict_last.L2::128B.v2.f32 {%f1, %f2}, [%rd1+8];");
  EXPECT_EQ(ld.q.space, StateSpace::Global);
  EXPECT_TRUE(ld.q.nc);
  EXPECT_EQ(ld.q.vector, 2);
  EXPECT_EQ(ld.q.type, Type::F32);
  Instruction st = first_instruction("\tst.shared::cluster.wb.u32 [%rd1], %r1;");
  EXPECT_EQ(st.q.space, StateSpace::SharedCluster);
  Instruction cvta = first_instruction("\tcvta.to.shared.u64 %rd1, %rd2;");
  EXPECT_TRUE(cvta.q.to_space);
  EXPECT_EQ(cvta.q.space, StateSpace::Shared);
  Instruction relaxed = first_instruction("\tld.relaxed.sys.global.u32 %r1, [%rd1];");
  EXPECT_EQ(relaxed.q.sem, Semantics::Relaxed);
  EXPECT_EQ(relaxed.q.scope, Scope::Sys);
}

// ld/st.mmio.relaxed.sys (one order spelled in two words), createpolicy and pmevent.mask;
// each prints back as it came (the cache policy and its hint are dropped).
TEST(PtxQualifiers, MmioCreatepolicyAndPmevent) {
  const std::string body =
      "\tld.mmio.relaxed.sys.global.u32 %r1, [%rd1];\n"
      "\tst.mmio.relaxed.sys.global.b32 [%rd1], %r1;\n"
      "\tcreatepolicy.fractional.L2::evict_last.b64 %rd2, 0f3F800000;\n"
      "\tcreatepolicy.cvt.L2.b64 %rd3, %rd2;\n"
      "\tld.global.L2::cache_hint.u32 %r2, [%rd1], %rd2;\n"
      "\tpmevent.mask 9;\n"
      "\tpmevent 3;";
  Module module = parse_ok(kernel(body));
  const Function& k = module.functions.at(0);
  std::vector<const Instruction*> loads = instructions_of(k, Opcode::Ld);
  ASSERT_EQ(loads.size(), 2u);
  EXPECT_EQ(loads[0]->q.sem, Semantics::MmioRelaxed);
  EXPECT_EQ(loads[0]->q.scope, Scope::Sys);
  EXPECT_EQ(loads[1]->operands.size(), 2u);  // the policy went with the hint
  EXPECT_EQ(instructions_of(k, Opcode::St).at(0)->q.sem, Semantics::MmioRelaxed);
  std::vector<const Instruction*> policies = instructions_of(k, Opcode::Createpolicy);
  ASSERT_EQ(policies.size(), 2u);
  EXPECT_EQ(policies[0]->q.operation, Operation::Fractional);
  EXPECT_EQ(policies[1]->q.operation, Operation::Convert);
  std::vector<const Instruction*> events = instructions_of(k, Opcode::Pmevent);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0]->q.operation, Operation::Mask);
  EXPECT_EQ(events[1]->q.operation, Operation::None);
  const std::string printed = print_module(module);
  EXPECT_NE(printed.find("ld.mmio.relaxed.sys.global.u32"), std::string::npos) << printed;
  EXPECT_NE(printed.find("pmevent.mask"), std::string::npos) << printed;
  // .relaxed goes with .mmio only.
  const std::string twice = first_error(kernel("\tld.relaxed.relaxed.global.u32 %r1, [%rd1];"));
  EXPECT_NE(twice.find("conflicting qualifier '.relaxed'"), std::string::npos) << twice;
}

// Tensor cores, cp.async and mbarrier: their words become meanings (shape, fragment,
// layouts, four types, spaces, completion mechanisms, operation and its modifiers).
TEST(PtxQualifiers, TensorCoreAsyncCopyAndMbarrierForms) {
  Instruction mma = first_instruction(
      "\tmma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32 {%r1, %r2, %r3, %r4}, {%r1, %r2, %r3, %r4}, "
      "{%r5, %r6}, {%r1, %r2, %r3, %r4};");
  EXPECT_EQ(mma.q.shape, Shape::M16n8k32);
  EXPECT_EQ(mma.q.layout, Layout::Row);
  EXPECT_EQ(mma.q.layout_b, Layout::Col);
  EXPECT_TRUE(mma.q.satfinite && mma.q.sync && mma.q.aligned);
  EXPECT_EQ(mma.q.type, Type::S32);
  EXPECT_EQ(mma.q.src_type, Type::S8);
  EXPECT_EQ(mma.q.b_type, Type::U8);
  EXPECT_EQ(mma.q.c_type, Type::S32);
  Instruction b1 = first_instruction(
      "\tmma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc {%r1, %r2, %r3, %r4}, {%r1, %r2}, {%r5}, "
      "{%r1, %r2, %r3, %r4};");
  EXPECT_EQ(b1.q.bool_op, BoolOp::Xor);
  EXPECT_EQ(b1.q.src_type, Type::B1);
  Instruction load = first_instruction("\twmma.load.b.sync.aligned.col.m32n8k16.shared.f16 {%r1, %r2, %r3, %r4, "
                                       "%r5, %r6, %r7, %r1}, [%rd1], %r2;");
  EXPECT_EQ(load.q.operation, Operation::Load);
  EXPECT_EQ(load.q.fragment, Fragment::B);
  EXPECT_EQ(load.q.layout, Layout::Col);
  EXPECT_EQ(load.q.shape, Shape::M32n8k16);
  EXPECT_EQ(load.q.space, StateSpace::Shared);
  Instruction ldmatrix = first_instruction("\tldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r1, %r2, %r3, %r4}, [%r5];");
  EXPECT_EQ(ldmatrix.q.matrices, 4);
  EXPECT_TRUE(ldmatrix.q.trans);
  Instruction copy = first_instruction("\tcp.async.cg.shared.global.L2::cache_hint [%r1], [%rd1], 16, %rd2;");
  EXPECT_TRUE(copy.q.async);
  EXPECT_EQ(copy.q.space, StateSpace::Shared);
  EXPECT_EQ(copy.q.src_space, StateSpace::Global);
  EXPECT_EQ(copy.operands.size(), 3u);  // the cache policy went with the hint
  Instruction bulk = first_instruction(
      "\tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 16, [%r2];");
  EXPECT_TRUE(bulk.q.bulk && bulk.q.complete_tx);
  EXPECT_EQ(bulk.q.space, StateSpace::SharedCluster);
  Instruction arrive = first_instruction("\tcp.async.mbarrier.arrive.noinc.shared::cta.b64 [%r1];");
  EXPECT_TRUE(arrive.q.on_mbarrier && arrive.q.noinc);
  EXPECT_EQ(arrive.q.operation, Operation::Arrive);
  Instruction expect = first_instruction("\tmbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %rd1, [%r1], 16;");
  EXPECT_EQ(expect.q.operation, Operation::Arrive);
  EXPECT_TRUE(expect.q.expect_tx);
  EXPECT_EQ(expect.q.sem, Semantics::Release);
  EXPECT_EQ(expect.q.scope, Scope::Cta);
  Instruction tx = first_instruction("\tmbarrier.expect_tx.relaxed.cluster.shared::cta.b64 [%r1], 16;");
  EXPECT_EQ(tx.q.operation, Operation::ExpectTx);
  EXPECT_FALSE(tx.q.expect_tx);
  Instruction wait = first_instruction("\tmbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], %r2;");
  EXPECT_EQ(wait.q.operation, Operation::TryWait);
  EXPECT_TRUE(wait.q.parity);
  Instruction fp8 = first_instruction("\tcvt.rn.satfinite.relu.e4m3x2.f32 %rs1, %f1, %f2;");
  EXPECT_EQ(fp8.q.type, Type::E4m3x2);
  EXPECT_TRUE(fp8.q.satfinite && fp8.q.relu);
  EXPECT_EQ(first_error(kernel("\tmbarrier.init.parity.shared.b64 [%r1], 1;")), "(parsed)");  // the JIT rejects it
  EXPECT_TRUE(first_error(kernel("\tmma.sync.aligned.m16n8k16.row.col.row.f32.f16.f16.f32 {%f1}, {%r1}, {%r2}, {%f1};"))
                  .starts_with("ptx:13:35: conflicting qualifier '.row' on 'mma'"));
}

TEST(PtxQualifiers, UnknownQualifierIsADiagnostic) {
  EXPECT_EQ(first_error(kernel("\tld.global.rn.u32 %r1, [%rd1];")), "ptx:13:11: unknown qualifier '.rn' for 'ld'");
  EXPECT_EQ(first_error(kernel("\tbra.sync $L;\n$L:")), "ptx:13:5: unknown qualifier '.sync' for 'bra'");
  EXPECT_EQ(first_error(kernel("\tmov.u32.bogus %r1, 1;")), "ptx:13:9: unknown qualifier '.bogus' for 'mov'");
}

TEST(PtxOperands, Immediates) {
  auto imm = [](const std::string& text) { return first_instruction("\tmov.b64 %rd1, " + text + ";").operands.at(1); };
  EXPECT_EQ(imm("42").imm, 42u);
  EXPECT_EQ(imm("0x2A").imm, 42u);
  EXPECT_EQ(imm("052").imm, 42u);
  EXPECT_EQ(imm("0b101010").imm, 42u);
  EXPECT_EQ(imm("42U").imm, 42u);
  EXPECT_EQ(imm("-1").imm, ~0ull);
  EXPECT_EQ(imm("18446744073709551615").imm, ~0ull);
  Operand f = imm("0f3F800000");
  EXPECT_TRUE(f.imm_is_float);
  EXPECT_FALSE(f.imm_is_double);
  EXPECT_EQ(f.imm, 0x3F800000u);
  Operand d = imm("0d3FF0000000000000");
  EXPECT_TRUE(d.imm_is_double);
  EXPECT_EQ(d.imm, 0x3FF0000000000000u);
  Operand decimal = imm("1.5");
  EXPECT_TRUE(decimal.imm_is_double);
  EXPECT_EQ(decimal.imm, 0x3FF8000000000000u);
  EXPECT_EQ(imm("-2.0").imm, 0xC000000000000000u);
  EXPECT_EQ(first_error(kernel("\tmov.b64 %rd1, 0f3F80;")), "ptx:13:16: invalid float '0f3F80'");
}

TEST(PtxOperands, AddressesVectorsAndSpecialRegisters) {
  Instruction ld = first_instruction("\tld.u32 %r1, [%rd2+-12];");
  const Operand& address = ld.operands.at(1);
  EXPECT_EQ(address.kind, Operand::Kind::Address);
  EXPECT_EQ(address.offset, -12);
  EXPECT_EQ(address.elements.at(0).kind, Operand::Kind::Register);
  Instruction local = first_instruction("\tld.local.u32 %r1, [24];");
  EXPECT_TRUE(local.operands.at(1).elements.empty());
  EXPECT_EQ(local.operands.at(1).offset, 24);
  Instruction sym = first_instruction("\tld.global.u32 %r1, [g+4];", ".global .u32 g[4];");
  EXPECT_EQ(sym.operands.at(1).elements.at(0).name, "g");
  EXPECT_EQ(sym.operands.at(1).offset, 4);
  Instruction unpack = first_instruction("\tmov.b32 {%rs1, _}, %r1;");
  EXPECT_EQ(unpack.operands.at(0).elements.at(1).kind, Operand::Kind::Sink);
  Instruction tid = first_instruction("\tmov.u32 %r1, %ntid.z;");
  EXPECT_EQ(tid.operands.at(1).sreg, SpecialRegister::Ntid);
  EXPECT_EQ(tid.operands.at(1).component, 2);
  Instruction warp = first_instruction("\tmov.u32 %r1, WARP_SZ;");
  EXPECT_EQ(warp.operands.at(1).sreg, SpecialRegister::WarpSize);
  Instruction negated = first_instruction("\tselp.b32 %r1, 1, 0, !%p1;");
  EXPECT_TRUE(negated.operands.at(3).negated);
  Instruction guarded = first_instruction("\t@!%p2 mov.u32 %r1, 1;");
  ASSERT_TRUE(guarded.guard.has_value());
  EXPECT_TRUE(guarded.guard->negated);
  EXPECT_EQ(first_error(kernel("\tmov.u32 %r1, %tid;")),
            "ptx:13:19: expected a component (.x, .y, .z) of '%tid', found ';'");
}

TEST(PtxDeclarations, ParameterizedRegistersExpand) {
  Module module = parse_ok(kernel("\t.reg .b32 %q<22>;\n\tmov.u32 %q21, 1;"));
  const Function& k = module.functions.at(0);
  auto it = std::find_if(k.registers.begin(), k.registers.end(), [](const Register& r) { return r.name == "%q0"; });
  ASSERT_NE(it, k.registers.end());
  EXPECT_EQ(
      std::count_if(k.registers.begin(), k.registers.end(), [](const Register& r) { return r.name.starts_with("%q"); }),
      22);
  const Instruction& mov = k.body.at(0).instruction;
  EXPECT_EQ(k.registers.at(mov.operands.at(0).reg).name, "%q21");
  EXPECT_EQ(first_error(kernel("\tmov.u32 %q22, 1;", "")), "ptx:13:10: undeclared register '%q22'");
}

TEST(PtxDeclarations, LabelsAndSymbolsMustExist) {
  EXPECT_EQ(first_error(kernel("\tbra.uni $L_nowhere;")), "ptx:13:2: undeclared label '$L_nowhere'");
  EXPECT_EQ(first_error(kernel("\tmov.u64 %rd1, nothing;")), "ptx:13:2: undeclared symbol 'nothing'");
  EXPECT_EQ(first_error(kernel("$L:\n$L:")), "ptx:14:1: duplicate label '$L'");
  // Forward branches and forward function references resolve.
  EXPECT_EQ(first_error(kernel("\tbra $L_later;\n$L_later:")), "(parsed)");
}

TEST(PtxErrors, ParseFoldsDiagnosticsIntoOneError) {
  auto result = parse(kernel("\tfoo.u32 %r1;\n\tbar2 %r1;"), "x.ptx");
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, ErrorCode::InvalidPtx);
  EXPECT_EQ(result.error().message, "x.ptx:13:2: unknown opcode 'foo' (and 1 more errors)");
  ParseOutput output = parse_module(std::string(5000, '}'));
  EXPECT_EQ(output.diagnostics.size(), 20u);  // capped
}

// ---------------------------------------------------------------- bad inputs

// Each file under tests/ptx/bad starts with `// EXPECT: ptx:<line>:<col>: <message>`.
TEST(PtxBadInputs, EachGivesItsExpectedError) {
  const auto files = files_in("bad");
  ASSERT_GE(files.size(), 15u);
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.filename().string());
    const std::string text = read_file(path);
    const std::string marker = "// EXPECT: ";
    ASSERT_TRUE(text.starts_with(marker));
    const std::string expected = text.substr(marker.size(), text.find('\n') - marker.size());
    auto result = parse(text);
    ASSERT_FALSE(result.has_value());
    const std::string& message = result.error().message;
    EXPECT_TRUE(message == expected || message.starts_with(expected + " (and ")) << message;
  }
}

// ---------------------------------------------------------------- robustness

TEST(PtxRobustness, TruncatedAndCorruptedInputsNeverCrash) {
  std::mt19937_64 random(20240917);
  size_t runs = 0;
  for (const fs::path& path : files_in("inputs")) {
    const std::string text = read_file(path);
    const size_t step = std::max<size_t>(1, text.size() / 400);
    for (size_t cut = 0; cut < text.size(); cut += step, ++runs) {
      (void)parse_module(std::string_view(text).substr(0, cut));
    }
    for (int trial = 0; trial < 200; ++trial, ++runs) {
      std::string corrupted = text;
      const int flips = 1 + static_cast<int>(random() % 8);
      for (int i = 0; i < flips; ++i) {
        corrupted[random() % corrupted.size()] = static_cast<char>(random() % 256);
      }
      ParseOutput output = parse_module(corrupted);
      if (output.diagnostics.empty()) (void)parse(print_module(output.module));
    }
  }
  EXPECT_GT(runs, 5000u);
}

TEST(PtxRobustness, PathologicalInputs) {
  (void)parse_module("");
  (void)parse_module(std::string(100000, '{'));
  (void)parse_module(kernel(std::string(100000, '{')));
  (void)parse_module(kernel("\tmov.b32 " + std::string(50000, '{')));
  (void)parse_module(".global .u32 x[2][2] = " + std::string(100000, '{'));
  (void)parse_module(std::string("\0\0\0\xff\xfe", 5));
  (void)parse_module(kernel("\t.reg .b32 %x<99999999999>;"));
  (void)parse_module(".global .b8 huge[1099511627776] = {1};");
  (void)parse_module(kernel("\tmov.u32 %r1, " + std::string(10000, '9') + ";"));
  (void)parse_module("\"unterminated");
  (void)parse_module(".section .debug_info { { {");
  (void)parse_module(kernel("\t@@@@!!!! ;;;; [[[[ ]]]] ((((("));
  EXPECT_EQ(first_error(".global .b8 huge[1099511627776] = {1};"), "ptx:1:13: initializer of 'huge' too large");
}

}  // namespace
}  // namespace cucpu::ptx
