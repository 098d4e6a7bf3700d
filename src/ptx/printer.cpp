// The PTX printer: writes a Module back as PTX text that ptxas and our parser accept,
// with parse(print(m)) structurally equal to m. Layout: the header, .file names, a
// prototype of every .func and .extern .entry (so that variables and bodies may name any
// function; an .entry before one gets one too, to keep its place), the module variables in
// order, then the definitions in order. Registers are declared in
// the `%r<N>` form where a run allows it; nested scopes were flattened by the parser,
// so everything is declared at function scope. Qualifiers are written in the order the
// PTX ISA grammar gives for each instruction family.
#include <fmt/format.h>

#include <map>

#include "ptx/parse.h"
#include "ptx/qualifier_words.h"

namespace cucpu::ptx {
namespace {

uint64_t scalar_bytes(Type type) { return (bit_width(type) + 7) / 8; }

// How many leading registers of `function` are its .reg parameters (declared in the
// parameter list, not the body).
size_t register_parameter_count(const Function& function) {
  size_t count = 0;
  for (const auto* list : {&function.returns, &function.params}) {
    for (const Parameter& parameter : *list) count += parameter.space == StateSpace::Reg;
  }
  return count;
}

// "%r12" -> ("%r", 12) when the name ends in a canonical decimal number.
bool split_numbered(const std::string& name, std::string_view& prefix, uint64_t& number) {
  size_t digits = name.size();
  while (digits > 0 && name[digits - 1] >= '0' && name[digits - 1] <= '9') --digits;
  if (digits == name.size() || digits == 0 || name.size() - digits > 9) return false;
  if (name[digits] == '0' && digits + 1 != name.size()) return false;  // leading zero
  prefix = std::string_view(name).substr(0, digits);
  number = std::stoull(name.substr(digits));
  return true;
}

class ModulePrinter {
 public:
  explicit ModulePrinter(const Module& module) : module_(module) {}

  std::string run() {
    print_header();
    // Prototypes keep the module's function order on reparse (a function's place is its
    // first appearance): every .func and .extern .entry, and any .entry placed before one.
    size_t prototypes = 0;
    for (size_t i = 0; i < module_.functions.size(); ++i) {
      if (!module_.functions[i].is_entry || module_.functions[i].is_extern) prototypes = i + 1;
    }
    for (size_t i = 0; i < prototypes; ++i) print_function_header(module_.functions[i], true);
    for (const Variable& variable : module_.variables) print_variable(variable, "");
    for (const Function& function : module_.functions) {
      if (!function.is_extern) print_function(function);
    }
    print_debug_placeholder();
    return std::move(out_);
  }

 private:
  void print_header() {
    if (module_.version_major != 0)
      out_ += fmt::format(".version {}.{}\n", module_.version_major, module_.version_minor);
    if (!module_.target.empty()) {
      out_ += ".target " + module_.target;
      for (const std::string& option : module_.target_options) out_ += ", " + option;
      out_ += "\n";
    }
    out_ += fmt::format(".address_size {}\n", module_.address_size);
    for (size_t i = 1; i < module_.files.size(); ++i) {
      if (!module_.files[i].empty()) out_ += fmt::format(".file {} \"{}\"\n", i, module_.files[i]);
    }
    out_ += "\n";
  }

  // The parser skips DWARF sections, but ptxas refuses `.target ..., debug` without
  // any: one empty abbreviation table satisfies it (and is skipped again on reparse).
  void print_debug_placeholder() {
    for (const std::string& option : module_.target_options) {
      if (option == "debug") return void(out_ += ".section .debug_abbrev\n{\n.b8 0\n}\n");
    }
  }

  // The header; with `prototype`, the declaration that ends in `;`.
  void print_function_header(const Function& function, bool prototype) {
    if (function.is_visible) out_ += ".visible ";
    if (function.is_extern) out_ += ".extern ";
    if (function.is_weak) out_ += ".weak ";
    out_ += function.is_entry ? ".entry " : ".func ";
    if (!function.returns.empty()) {
      print_parameter_list(function.returns);
      out_ += " ";
    }
    out_ += function.name;
    print_parameter_list(function.params);
    print_directives(function.directives);
    out_ += prototype ? ";\n" : "\n";
  }

  void print_parameter_list(const std::vector<Parameter>& parameters) {
    out_ += "(";
    for (size_t i = 0; i < parameters.size(); ++i) {
      out_ += i == 0 ? "\n\t" : ",\n\t";
      print_parameter(parameters[i], parameters[i].name);
    }
    out_ += parameters.empty() ? ")" : "\n)";
  }

  void print_parameter(const Parameter& parameter, const std::string& name) {
    out_ += spelling(parameter.space);
    if (parameter.align != 0) out_ += fmt::format(" .align {}", parameter.align);
    out_ += fmt::format(" {}", spelling(parameter.type));
    if (parameter.is_pointer) {
      out_ += " .ptr";
      if (parameter.pointee_space != StateSpace::Generic) out_ += fmt::format(" {}", spelling(parameter.pointee_space));
      if (parameter.pointee_align != 0) out_ += fmt::format(" .align {}", parameter.pointee_align);
    }
    out_ += " " + name;
    if (parameter.array_size != 0) out_ += fmt::format("[{}]", parameter.array_size);
  }

  void print_directives(const Directives& d) {
    auto triple = [&](const char* name, const uint32_t(&dims)[3]) {
      if (dims[0] != 0) out_ += fmt::format("\n{} {}, {}, {}", name, dims[0], dims[1], dims[2]);
    };
    triple(".maxntid", d.maxntid);
    triple(".reqntid", d.reqntid);
    triple(".reqnctapercluster", d.reqnctapercluster);
    if (d.minnctapersm != 0) out_ += fmt::format("\n.minnctapersm {}", d.minnctapersm);
    if (d.maxnreg != 0) out_ += fmt::format("\n.maxnreg {}", d.maxnreg);
    if (d.maxclusterrank != 0) out_ += fmt::format("\n.maxclusterrank {}", d.maxclusterrank);
    if (d.explicitcluster) out_ += "\n.explicitcluster";
    if (d.noreturn) out_ += "\n.noreturn";
  }

  // ------------------------------------------------------------ variables

  void print_variable(const Variable& variable, const char* indent) {
    out_ += indent;
    if (variable.is_visible) out_ += ".visible ";
    if (variable.is_extern) out_ += ".extern ";
    if (variable.is_weak) out_ += ".weak ";
    if (variable.is_common) out_ += ".common ";
    out_ += spelling(variable.space);
    if (variable.align != 0) out_ += fmt::format(" .align {}", variable.align);
    if (variable.vector != 1) out_ += fmt::format(" .v{}", variable.vector);
    out_ += fmt::format(" {} {}", spelling(variable.type), variable.name);
    for (uint64_t dim : variable.dims) out_ += dim == 0 ? std::string("[]") : fmt::format("[{}]", dim);
    if (!variable.init.empty() || !variable.address_inits.empty()) print_initializer(variable);
    out_ += ";\n";
  }

  void print_initializer(const Variable& variable) {
    std::vector<uint64_t> dims = variable.dims;
    if (variable.vector > 1) dims.push_back(variable.vector);
    std::map<uint64_t, const Variable::AddressInit*> addresses;
    for (const auto& address : variable.address_inits) addresses[address.offset] = &address;
    out_ += " = ";
    uint64_t index = 0;
    print_initializer_level(variable, dims, 0, index, addresses);
  }

  void print_initializer_level(const Variable& variable, const std::vector<uint64_t>& dims, size_t level,
                               uint64_t& index, const std::map<uint64_t, const Variable::AddressInit*>& addresses) {
    if (level == dims.size()) return print_initializer_element(variable, index++, addresses);
    out_ += "{";
    for (uint64_t i = 0; i < dims[level]; ++i) {
      if (i != 0) out_ += ", ";
      print_initializer_level(variable, dims, level + 1, index, addresses);
    }
    out_ += "}";
  }

  void print_initializer_element(const Variable& variable, uint64_t index,
                                 const std::map<uint64_t, const Variable::AddressInit*>& addresses) {
    const uint64_t size = scalar_bytes(variable.type);
    const uint64_t offset = index * size;
    // An address in a byte array spans eight elements, written as byte masks.
    if (size == 1) {
      auto it = addresses.upper_bound(offset);
      if (it != addresses.begin() && offset - std::prev(it)->first < 8) {
        const uint64_t byte = offset - std::prev(it)->first;
        const std::string symbol = address_text(*std::prev(it)->second);
        out_ += fmt::format("0x{:X}({})", 0xFFull << (8 * byte), symbol);
        return;
      }
    }
    if (auto it = addresses.find(offset); it != addresses.end()) {
      out_ += address_text(*it->second);
      return;
    }
    uint64_t bits = 0;
    for (uint64_t i = 0; i < size && i < 8 && offset + i < variable.init.size(); ++i) {
      bits |= static_cast<uint64_t>(variable.init[offset + i]) << (8 * i);
    }
    if (variable.type == Type::F32) {
      out_ += fmt::format("0f{:08X}", bits);
    } else if (variable.type == Type::F64) {
      out_ += fmt::format("0d{:016X}", bits);
    } else if (is_signed_int(variable.type)) {
      const unsigned shift = 64 - 8 * static_cast<unsigned>(size);  // sign-extend the element
      out_ += fmt::format("{}", static_cast<int64_t>(bits << shift) >> shift);
    } else {
      out_ += fmt::format("{}", bits);
    }
  }

  static std::string address_text(const Variable::AddressInit& address) {
    std::string text = address.generic ? fmt::format("generic({})", address.symbol) : address.symbol;
    if (address.addend != 0) text += fmt::format("+{}", address.addend);
    return text;
  }

  // ------------------------------------------------------------ functions

  void print_function(const Function& function) {
    print_function_header(function, false);
    out_ += "{\n";
    print_registers(function);
    for (const Variable& local : function.locals) print_variable(local, "\t");
    out_ += "\n";
    DebugLoc loc;
    for (const Statement& statement : function.body) {
      if (statement.kind == Statement::Kind::Label) {
        out_ += statement.label + ":\n";
        continue;
      }
      const Instruction& instruction = statement.instruction;
      if (instruction.loc.file != loc.file || instruction.loc.line != loc.line) {
        loc = instruction.loc;
        out_ += fmt::format("\t.loc\t{} {} 0\n", loc.file, loc.line);
      }
      print_instruction(function, instruction);
    }
    out_ += "}\n\n";
  }

  void print_registers(const Function& function) {
    const auto& registers = function.registers;
    for (size_t i = register_parameter_count(function); i < registers.size();) {
      const Register& first = registers[i];
      const char* vector = first.vector == 2 ? " .v2" : first.vector == 4 ? " .v4" : first.vector == 8 ? " .v8" : "";
      std::string_view prefix;
      uint64_t number = 0;
      size_t run = 1;
      if (split_numbered(first.name, prefix, number) && number == 0) {
        while (i + run < registers.size() && registers[i + run].type == first.type &&
               registers[i + run].vector == first.vector && registers[i + run].name.size() > prefix.size() &&
               registers[i + run].name.starts_with(prefix) &&
               registers[i + run].name.substr(prefix.size()) == std::to_string(run)) {
          ++run;
        }
      }
      if (run > 1) {
        out_ += fmt::format("\t.reg{} {} {}<{}>;\n", vector, spelling(first.type), prefix, run);
      } else {
        out_ += fmt::format("\t.reg{} {} {};\n", vector, spelling(first.type), first.name);
      }
      i += run;
    }
  }

  void print_instruction(const Function& function, const Instruction& instruction) {
    out_ += "\t";
    if (instruction.guard) {
      out_ += instruction.guard->negated ? "@!" : "@";
      out_ += register_name(function, instruction.guard->reg);
      out_ += " ";
    }
    if (instruction.opcode == Opcode::Call) return print_call(function, instruction);
    if (instruction.opcode == Opcode::Brx) return print_brx(function, instruction);
    out_ += spelling(instruction.opcode);
    print_qualifiers(instruction);
    const bool pair = has_destination_pair(instruction);
    for (size_t i = 0; i < instruction.operands.size(); ++i) {
      out_ += i == 0 ? " " : (pair && i == 1) ? "|" : ", ";
      print_operand(function, instruction.operands[i]);
    }
    out_ += ";\n";
  }

  // call (rets), target, (args) — with a .callprototype built from the argument
  // variables when the target is a register.
  void print_call(const Function& function, const Instruction& instruction) {
    const auto& operands = instruction.operands;
    if (operands.size() != 3) return void(out_ += "trap;\n");  // not from the parser
    std::string prototype;
    if (operands[1].kind == Operand::Kind::Register) {
      prototype = fmt::format("$__cucpu_prototype_{}", prototype_count_++);
      std::string declaration = prototype + ": .callprototype ";
      if (!operands[0].elements.empty()) declaration += prototype_list(function, operands[0].elements) + " ";
      declaration += "_ " + prototype_list(function, operands[2].elements) + ";\n\t";
      out_.insert(out_.rfind('\t') + 1, declaration);
    }
    out_ += "call";
    if (instruction.q.uni) out_ += ".uni";
    out_ += " ";
    if (!operands[0].elements.empty()) {
      print_operand_list(function, operands[0].elements);
      out_ += ", ";
    }
    print_operand(function, operands[1]);
    out_ += ", ";
    print_operand_list(function, operands[2].elements);
    if (!prototype.empty()) out_ += ", " + prototype;
    out_ += ";\n";
  }

  // brx.idx %r, table — with the .branchtargets table declared just before.
  void print_brx(const Function& function, const Instruction& instruction) {
    const auto& operands = instruction.operands;
    if (operands.size() != 2) return void(out_ += "trap;\n");  // not from the parser
    const std::string table = fmt::format("$__cucpu_targets_{}", table_count_++);
    std::string declaration = table + ": .branchtargets ";
    for (size_t i = 0; i < operands[1].elements.size(); ++i) {
      declaration += (i == 0 ? "" : ", ") + operands[1].elements[i].name;
    }
    out_.insert(out_.rfind('\t') + 1, declaration + ";\n\t");
    out_ += "brx.idx";
    if (instruction.q.uni) out_ += ".uni";
    out_ += " ";
    print_operand(function, operands[0]);
    out_ += ", " + table + ";\n";
  }

  // `(.param .b32 _, .param .align 8 .b8 _[16])` for the variables named in a call.
  std::string prototype_list(const Function& function, const std::vector<Operand>& elements) {
    std::string text = "(";
    for (size_t i = 0; i < elements.size(); ++i) {
      if (i != 0) text += ", ";
      const Operand& element = elements[i];
      if (element.kind == Operand::Kind::Register && element.reg < function.registers.size()) {
        text += fmt::format(".reg {} _", spelling(function.registers[element.reg].type));
        continue;
      }
      const Variable* variable = nullptr;
      for (const Variable& local : function.locals) {
        if (local.name == element.name) variable = &local;
      }
      if (variable == nullptr) {
        text += ".param .b64 _";
        continue;
      }
      text += ".param";
      if (variable->align != 0) text += fmt::format(" .align {}", variable->align);
      text += fmt::format(" {} _", spelling(variable->type));
      for (uint64_t dim : variable->dims) text += fmt::format("[{}]", dim);
    }
    return text + ")";
  }

  void print_operand_list(const Function& function, const std::vector<Operand>& operands) {
    out_ += "(";
    for (size_t i = 0; i < operands.size(); ++i) {
      if (i != 0) out_ += ", ";
      print_operand(function, operands[i]);
    }
    out_ += ")";
  }

  void put(const char* text) { out_ += text; }

  void print_qualifiers(const Instruction& instruction) {
    const Qualifiers& q = instruction.q;
    if (is_video(instruction.opcode)) {  // vadd4.s32.u32.s32.sat, vset2.u32.s32.lt.add
      print_types(q);
      put(spelling(q.compare));
      if (q.sat) put(".sat");
      return put(spelling(q.secondary));
    }
    switch (instruction.opcode) {
      case Opcode::Match:  // match.any.sync.b32: the mode comes first
        put(spelling(q.vote));
        if (q.sync) put(".sync");
        return print_types(q);
      case Opcode::Prmt:  // prmt.b32.f4e: the mode comes last
        print_types(q);
        return put(spelling(q.operation));
      case Opcode::Membar:
        if (q.proxy != Proxy::None) {  // membar.proxy.alias
          put(".proxy");
          return put(spelling(q.proxy));
        }
        return put(q.scope == Scope::Gpu ? ".gl" : spelling(q.scope));
      case Opcode::Bar:
      case Opcode::Barrier:
        if (q.sync && q.barrier == BarrierMode::None) return put(".warp.sync");
        put(spelling(q.scope));
        put(spelling(q.barrier));
        put(spelling(q.sem));
        put(spelling(q.atomic_op));
        if (q.aligned) put(".aligned");
        return print_types(q);
      case Opcode::Cp:
        return print_async_copy(q);
      case Opcode::Fence:  // fence.proxy.async.shared::cta, fence.proxy.tensormap::generic.acquire.gpu
        if (q.proxy != Proxy::None) put(".proxy");
        put(spelling(q.proxy));
        put(q.space == StateSpace::Shared ? ".shared::cta" : spelling(q.space));  // the only spelling it takes
        put(spelling(q.sem));
        return put(spelling(q.scope));
      case Opcode::Mbarrier:
        put(spelling(q.operation));
        if (q.expect_tx) put(".expect_tx");
        if (q.no_complete) put(".noComplete");
        if (q.parity) put(".parity");
        put(spelling(q.sem));
        put(spelling(q.scope));
        put(spelling(q.space));
        return print_types(q);
      case Opcode::Wmma:
      case Opcode::Mma:
      case Opcode::Ldmatrix:
      case Opcode::Stmatrix:
      case Opcode::Movmatrix:
        return print_matrix(instruction.opcode, q);
      default:
        break;
    }
    for (Word word : q.words) put(spelling(word));  // families not modelled yet: as written
    put(spelling(q.operation));
    if (q.async) put(".async");  // st.async, red.async
    if (q.sync) put(".sync");
    put(spelling(q.sem));
    if (q.sem == Semantics::MmioRelaxed) put(".relaxed");  // .mmio.relaxed is one order
    put(spelling(q.scope));
    if (q.to_space) put(".to");
    put(spelling(q.space));
    if (q.complete_tx) put(".mbarrier::complete_tx::bytes");
    put(spelling(q.atomic_op));
    const bool half = q.type == Type::F16 || q.type == Type::F16x2 || q.type == Type::BF16 || q.type == Type::BF16x2;
    if ((instruction.opcode == Opcode::Atom || instruction.opcode == Opcode::Red) && q.atomic_op == AtomicOp::Add &&
        half) {
      put(".noftz");  // required by ptxas for half-precision atomic adds
    }
    put(spelling(q.compare));
    put(spelling(q.bool_op));
    put(spelling(q.shuffle));
    put(spelling(q.vote));
    put(spelling(q.mul_mode));
    put(spelling(q.rounding));
    if (q.approx) put(".approx");
    if (q.full) put(".full");
    if (q.ftz) put(".ftz");
    if (q.sat) put(".sat");
    if (q.satfinite) put(".satfinite");
    if (q.relu) put(".relu");
    if (q.nan) put(".NaN");
    if (q.xorsign_abs) put(".xorsign.abs");
    if (q.nc) put(".nc");
    if (q.carry) put(".cc");
    // Cache levels are dropped as meaningless on a CPU, but these spellings need one.
    if (instruction.opcode == Opcode::Prefetch) put(".L2");
    if (instruction.opcode == Opcode::Prefetchu) put(".L1");
    if (instruction.opcode == Opcode::Discard) put(".L2");
    if (instruction.opcode == Opcode::Applypriority) put(".L2::evict_normal");
    if (q.uni) put(".uni");
    if (q.aligned) put(".aligned");
    if (instruction.opcode == Opcode::Shf) put(q.shift_left ? ".l" : ".r");
    if (instruction.opcode == Opcode::Shf || instruction.opcode == Opcode::Szext ||
        instruction.opcode == Opcode::Bmsk) {
      put(q.clamp ? ".clamp" : ".wrap");
    }
    if (q.vector != 1) out_ += fmt::format(".v{}", q.vector);
    print_types(q);
  }

  void print_types(const Qualifiers& q) {
    put(spelling(q.type));
    put(spelling(q.src_type));
    put(spelling(q.b_type));
    put(spelling(q.c_type));
  }

  // cp.async.ca.shared.global, cp.async.commit_group, cp.async.mbarrier.arrive.noinc.shared.b64,
  // cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes, cp.async.bulk.wait_group.read.
  void print_async_copy(const Qualifiers& q) {
    if (q.operation == Operation::Reduce) put(".reduce");
    if (q.async) put(".async");
    if (q.bulk) put(".bulk");
    if (q.on_mbarrier) put(".mbarrier");
    if (q.operation != Operation::Reduce) put(spelling(q.operation));
    if (q.tensor) out_ += fmt::format(".tensor.{}d", q.tensor_rank);
    if (q.operation == Operation::Prefetch) put(".L2");  // the only level, dropped when parsed
    if (q.noinc) put(".noinc");
    if (q.read_only) put(".read");
    // The cache level is dropped as meaningless on a CPU; .ca takes every copy size.
    if (!q.bulk && q.operation == Operation::None && !q.on_mbarrier) put(".ca");
    put(spelling(q.space));
    // Bulk copies from shared memory must spell it .shared::cta.
    put(q.bulk && q.src_space == StateSpace::Shared ? ".shared::cta" : spelling(q.src_space));
    if (q.tensor) put(spelling(q.atomic_op));  // cp.reduce.async.bulk.tensor: .op before the mode
    if (q.tensor) put(q.im2col ? ".im2col" : ".tile");
    if (q.complete_tx) put(".mbarrier::complete_tx::bytes");
    if (q.bulk_group) put(".bulk_group");
    if (q.multicast) put(".multicast::cluster");
    if (!q.tensor) put(spelling(q.atomic_op));  // cp.reduce.async.bulk: .op after the completion
    // A bulk .add on .f16/.bf16 is spelled .add.noftz (the only rounding it has).
    if (!q.tensor && q.atomic_op == AtomicOp::Add && (q.type == Type::F16 || q.type == Type::BF16)) put(".noftz");
    print_types(q);
  }

  // wmma.load.a.sync.aligned.row.m16n16k16.shared.f16, wmma.mma.xor.popc.sync.aligned.row.col...,
  // mma.sync.aligned.m16n8k16.row.col.satfinite.s32.s8.s8.s32, ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16.
  void print_matrix(Opcode opcode, const Qualifiers& q) {
    put(spelling(q.operation));
    put(spelling(q.fragment));
    if (opcode == Opcode::Wmma && q.bool_op != BoolOp::None) {
      put(spelling(q.bool_op));
      put(".popc");
    }
    if (q.sync) put(".sync");
    if (q.aligned) put(".aligned");
    if (opcode == Opcode::Wmma) {
      put(spelling(q.layout));
      put(spelling(q.layout_b));
      put(spelling(q.shape));
    } else {
      put(spelling(q.shape));
      put(spelling(q.layout));
      put(spelling(q.layout_b));
    }
    if (q.matrices != 0) out_ += fmt::format(".x{}", q.matrices);
    if (q.trans) put(".trans");
    put(spelling(q.rounding));
    if (opcode == Opcode::Mma && q.satfinite) put(".satfinite");
    put(spelling(q.space));
    print_types(q);
    if (opcode == Opcode::Wmma && q.satfinite) put(".satfinite");
    if (opcode == Opcode::Mma && q.bool_op != BoolOp::None) {
      put(spelling(q.bool_op));
      put(".popc");
    }
  }

  const std::string& register_name(const Function& function, uint32_t reg) {
    static const std::string kInvalid = "%invalid_register";
    return reg < function.registers.size() ? function.registers[reg].name : kInvalid;
  }

  void print_operand(const Function& function, const Operand& operand) {
    if (operand.negated) out_ += "!";
    switch (operand.kind) {
      case Operand::Kind::Register:
        out_ += register_name(function, operand.reg);
        if (operand.selector.lane_bits != 0) {
          out_ += operand.selector.lane_bits == 8 ? ".b" : ".h";
          for (uint8_t i = 0; i < operand.selector.count && i < 4; ++i) out_ += char('0' + operand.selector.digits[i]);
        }
        break;
      case Operand::Kind::SpecialRegister:
        out_ += spelling(operand.sreg);
        if (special_register_components(operand.sreg) != 0) out_ += std::string(".") + "xyzw"[operand.component & 3];
        break;
      case Operand::Kind::Immediate:
        if (operand.imm_is_double) {
          out_ += fmt::format("0d{:016X}", operand.imm);
        } else if (operand.imm_is_float) {
          out_ += fmt::format("0f{:08X}", operand.imm & 0xFFFFFFFFu);
        } else {
          out_ += fmt::format("{}", static_cast<int64_t>(operand.imm));
        }
        break;
      case Operand::Kind::Symbol:
      case Operand::Kind::Label:
        out_ += operand.name;
        break;
      case Operand::Kind::Sink:
        out_ += "_";
        break;
      case Operand::Kind::Address:
        out_ += "[";
        if (operand.elements.size() > 1) {  // [tex, sampler, {coordinates}]
          for (size_t i = 0; i < operand.elements.size(); ++i) {
            if (i != 0) out_ += ", ";
            print_operand(function, operand.elements[i]);
          }
        } else if (!operand.elements.empty()) {
          print_operand(function, operand.elements.front());
          if (operand.offset != 0) out_ += fmt::format("+{}", operand.offset);
        } else {
          out_ += fmt::format("{}", operand.offset);
        }
        out_ += "]";
        break;
      case Operand::Kind::Vector:
        out_ += "{";
        for (size_t i = 0; i < operand.elements.size(); ++i) {
          if (i != 0) out_ += ", ";
          print_operand(function, operand.elements[i]);
        }
        out_ += "}";
        break;
    }
  }

  const Module& module_;
  std::string out_;
  size_t prototype_count_ = 0;
  size_t table_count_ = 0;
};

}  // namespace

std::string print_module(const Module& module) { return ModulePrinter(module).run(); }

}  // namespace cucpu::ptx
