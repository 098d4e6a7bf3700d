// Unit tests of PTX linking (src/ptx/link.h): the rules nvlink applies to the translation
// units of an -rdc program, on small hand-written modules.
#include <gtest/gtest.h>

#include <algorithm>

#include "ptx/link.h"
#include "ptx/parse.h"

namespace cucpu::ptx {
namespace {

Module parsed(const std::string& body) {
  auto module = parse(".version 9.0\n.target sm_90\n.address_size 64\n" + body);
  EXPECT_TRUE(module) << (module ? "" : module.error().message);
  return module ? std::move(*module) : Module{};
}

size_t count_functions(const Module& module, const std::string& name, bool extern_only) {
  return std::count_if(module.functions.begin(), module.functions.end(), [&](const Function& f) {
    return f.name == name && f.is_extern == extern_only;
  });
}

// The name called by the first `call` in function `caller`.
std::string callee_of(const Module& module, const std::string& caller) {
  const Function* f = module.find_function(caller);
  for (const Statement& s : f->body)
    if (s.kind == Statement::Kind::Instruction && s.instruction.opcode == Opcode::Call)
      return s.instruction.operands[1].name;
  return "";
}

const char* kUser = R"(
.extern .func (.param .b32 r) helper(.param .b32 x);
.extern .global .align 4 .u32 shared_counter;
.func (.param .b32 r) local_fn(.param .b32 x) { ret; }
.visible .entry kernel() {
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  { .param .b32 a; .param .b32 b; st.param.b32 [a], 1; call.uni (b), helper, (a); }
  { .param .b32 a; .param .b32 b; st.param.b32 [a], 1; call.uni (b), local_fn, (a); }
  mov.u64 %rd1, shared_counter;
  ret;
}
)";

const char* kLibrary = R"(
.visible .global .align 4 .u32 shared_counter = 3;
.func (.param .b32 r) local_fn(.param .b32 x) { ret; }
.visible .func (.param .b32 r) helper(.param .b32 x) {
  { .param .b32 a; .param .b32 b; st.param.b32 [a], 1; call.uni (b), local_fn, (a); }
  ret;
}
)";

TEST(PtxLink, ExternDeclarationsResolveToAnotherUnitsDefinition) {
  std::vector<Module> units;
  units.push_back(parsed(kUser));
  units.push_back(parsed(kLibrary));
  auto linked = link_modules(std::move(units));
  ASSERT_TRUE(linked) << linked.error().message;
  EXPECT_EQ(count_functions(*linked, "helper", false), 1u);
  EXPECT_EQ(count_functions(*linked, "helper", true), 0u);
  const Variable* counter = linked->find_variable("shared_counter");
  ASSERT_NE(counter, nullptr);
  EXPECT_FALSE(counter->is_extern);
  EXPECT_EQ(std::count_if(linked->variables.begin(), linked->variables.end(),
                          [](const Variable& v) { return v.name == "shared_counter"; }),
            1);
}

TEST(PtxLink, PrivateFunctionsOfTheSameNameStayApart) {
  std::vector<Module> units;
  units.push_back(parsed(kUser));
  units.push_back(parsed(kLibrary));
  auto linked = link_modules(std::move(units));
  ASSERT_TRUE(linked) << linked.error().message;
  const Function* kernel = linked->find_function("kernel");
  ASSERT_NE(kernel, nullptr);
  std::string first = "", second = "";
  for (const Statement& s : kernel->body)
    if (s.kind == Statement::Kind::Instruction && s.instruction.opcode == Opcode::Call)
      (first.empty() ? first : second) = s.instruction.operands[1].name;
  EXPECT_EQ(first, "helper");
  EXPECT_EQ(second, "local_fn$tu0");
  EXPECT_EQ(callee_of(*linked, "helper"), "local_fn$tu1");
  EXPECT_NE(linked->find_function("local_fn$tu0"), nullptr);
  EXPECT_NE(linked->find_function("local_fn$tu1"), nullptr);
}

TEST(PtxLink, TwoStrongDefinitionsAreAnError) {
  std::vector<Module> units;
  units.push_back(parsed(kLibrary));
  units.push_back(parsed(kLibrary));
  auto linked = link_modules(std::move(units));
  ASSERT_FALSE(linked);
  EXPECT_EQ(linked.error().code, ErrorCode::InvalidPtx);
  EXPECT_NE(linked.error().message.find("shared_counter"), std::string::npos) << linked.error().message;
}

TEST(PtxLink, WeakDefinitionsYieldToStrongOnes) {
  const char* weak = R"(
.weak .func (.param .b32 r) twice(.param .b32 x) { .reg .b32 %r<2>; mov.b32 %r1, 1; st.param.b32 [r], %r1; ret; }
.weak .global .align 4 .u32 tuning = 1;
)";
  const char* strong = R"(
.visible .func (.param .b32 r) twice(.param .b32 x) { .reg .b32 %r<2>; mov.b32 %r1, 2; st.param.b32 [r], %r1; ret; }
.visible .global .align 4 .u32 tuning = 2;
)";
  std::vector<Module> units;
  units.push_back(parsed(weak));
  units.push_back(parsed(strong));
  units.push_back(parsed(weak));
  auto linked = link_modules(std::move(units));
  ASSERT_TRUE(linked) << linked.error().message;
  ASSERT_EQ(count_functions(*linked, "twice", false), 1u);
  EXPECT_TRUE(linked->find_function("twice")->is_visible);
  const Variable* tuning = linked->find_variable("tuning");
  ASSERT_NE(tuning, nullptr);
  EXPECT_FALSE(tuning->is_weak);
  EXPECT_EQ(tuning->init.at(0), 2);
}

TEST(PtxLink, UndefinedDeclarationsStayForTheRuntimeAndDynamicSharedMemoryIsOne) {
  const char* a = R"(
.extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 args);
.extern .shared .align 16 .b8 dynamic_smem[];
)";
  const char* b = R"(
.extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 args);
.extern .shared .align 8 .b8 dynamic_smem[];
)";
  std::vector<Module> units;
  units.push_back(parsed(a));
  units.push_back(parsed(b));
  auto linked = link_modules(std::move(units));
  ASSERT_TRUE(linked) << linked.error().message;
  EXPECT_EQ(count_functions(*linked, "vprintf", true), 1u);
  const Variable* smem = linked->find_variable("dynamic_smem");
  ASSERT_NE(smem, nullptr);
  EXPECT_TRUE(smem->is_extern);
  EXPECT_EQ(smem->alignment(), 16u);
  EXPECT_EQ(std::count_if(linked->variables.begin(), linked->variables.end(),
                          [](const Variable& v) { return v.name == "dynamic_smem"; }),
            1);
}

}  // namespace
}  // namespace cucpu::ptx
