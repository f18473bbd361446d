// The Lua sandbox against the attacks a shared ruleset file could make.
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <string>

#include "scripting/lua_sandbox.h"

namespace canasta {
namespace {

std::string EvalOrDie(LuaSandbox& sandbox, const std::string& expression) {
  LuaError error;
  std::optional<std::string> value = sandbox.Eval(expression, &error);
  EXPECT_TRUE(value.has_value()) << expression << ": " << error.ToString();
  return value.value_or("");
}

TEST(SandboxTest, DangerousFunctionsAreAbsent) {
  LuaSandbox sandbox;
  for (const char* name : {"io", "os", "package", "debug", "require", "dofile", "loadfile", "load",
                           "loadstring", "collectgarbage", "coroutine", "utf8", "warn",
                           "string.dump", "math.random", "math.randomseed"}) {
    EXPECT_EQ(EvalOrDie(sandbox, std::string("type(") + name + ")"), "nil") << name;
  }
  // What rulesets need is there.
  for (const char* name : {"string.format", "table.insert", "math.floor", "pairs", "pcall",
                           "setmetatable", "tostring"}) {
    EXPECT_EQ(EvalOrDie(sandbox, std::string("type(") + name + ")"), "function") << name;
  }
  // print is accepted and writes nothing.
  EXPECT_FALSE(sandbox.Run("print('hello')", "print.lua"));
}

TEST(SandboxTest, BinaryChunkIsRefused) {
  LuaSandbox sandbox;
  std::string binary("\x1bLuaT\x00\x19\x93\r\n\x1a\n\x04\x08\x08", 15);
  std::optional<LuaError> error = sandbox.Run(binary, "evil.luac");
  ASSERT_TRUE(error);
  EXPECT_NE(error->message.find("binary"), std::string::npos) << error->ToString();
}

TEST(SandboxTest, InfiniteLoopIsStopped) {
  LuaSandbox sandbox;
  std::optional<LuaError> error =
      sandbox.Run("local x = 0\nwhile true do\n  x = x + 1\nend\n", "loop.lua");
  ASSERT_TRUE(error);
  EXPECT_NE(error->message.find("instruction limit"), std::string::npos) << error->ToString();
  EXPECT_EQ(error->file, "loop.lua");
  EXPECT_GE(error->line, 2);
  // The budget is per call: the state goes on working.
  EXPECT_EQ(EvalOrDie(sandbox, "1 + 1"), "2");
}

TEST(SandboxTest, PcallCannotSwallowTheBudget) {
  LuaSandbox sandbox;
  std::optional<LuaError> error =
      sandbox.Run("while true do pcall(function() while true do end end) end", "pcall_loop.lua");
  ASSERT_TRUE(error);
  EXPECT_NE(error->message.find("limit"), std::string::npos) << error->ToString();
  EXPECT_EQ(EvalOrDie(sandbox, "'still here'"), "still here");
}

TEST(SandboxTest, TimeLimitStopsExpensiveInstructions) {
  SandboxLimits limits;
  limits.instructions = int64_t{1} << 50;
  limits.seconds = 0.2;
  LuaSandbox sandbox(limits);
  auto start = std::chrono::steady_clock::now();
  std::optional<LuaError> error = sandbox.Run(
      "local s = string.rep('x', 400000)\nwhile true do local t = s .. s end", "slow.lua");
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(error);
  EXPECT_NE(error->message.find("time limit"), std::string::npos) << error->ToString();
  EXPECT_LT(seconds, 5.0);
}

TEST(SandboxTest, TableMemoryBombIsStoppedAndStateStaysUsable) {
  SandboxLimits limits;
  limits.memory_bytes = size_t{8} << 20;
  limits.instructions = 200'000'000;
  LuaSandbox sandbox(limits);
  std::optional<LuaError> error =
      sandbox.Run("local t = {}\nfor i = 1, 1e9 do t[i] = {i} end", "bomb.lua");
  ASSERT_TRUE(error);
  EXPECT_NE(error->message.find("memory limit"), std::string::npos) << error->ToString();
  EXPECT_LE(sandbox.memory_used(), limits.memory_bytes);
  // The garbage is collected when needed: the state still works.
  EXPECT_EQ(EvalOrDie(sandbox, "#string.rep('ab', 1000)"), "2000");
  EXPECT_FALSE(sandbox.Run("local t = {} for i = 1, 10000 do t[i] = i end", "after.lua"));
}

TEST(SandboxTest, StringBombsAreStopped) {
  LuaSandbox sandbox;
  auto start = std::chrono::steady_clock::now();
  for (const char* code : {"return string.rep('x', 1e10)", "return ('x'):rep(1e10)",
                           "return string.rep('abc', 2^40, ',')"}) {
    std::optional<LuaError> error = sandbox.Run(code, "rep.lua", 1);
    ASSERT_TRUE(error) << code;
    EXPECT_NE(error->message.find("limit"), std::string::npos) << error->ToString();
  }
  // rep of an empty string would loop n times inside one C call.
  EXPECT_EQ(EvalOrDie(sandbox, "#string.rep('', 1e15)"), "0");
  // Growing a string by concatenation hits the per-string cap.
  std::optional<LuaError> error =
      sandbox.Run("local s = 'x'\nfor i = 1, 40 do s = s .. s end", "concat.lua");
  ASSERT_TRUE(error);
  EXPECT_NE(error->message.find("string limit"), std::string::npos) << error->ToString();
  EXPECT_EQ(EvalOrDie(sandbox, "('ok'):upper()"), "OK");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
}

TEST(SandboxTest, PathologicalPatternsAndLoopsInCAreBounded) {
  LuaSandbox sandbox;
  auto start = std::chrono::steady_clock::now();
  for (const char* code :
       {"return string.find(string.rep('a', 20000), string.rep('a*', 12) .. 'b')",
        "return string.match(string.rep('a', 20000), '(.-)%1(.-)%2b')",
        "return string.gsub(string.rep('a', 100000), '.*.*.*x', '')",
        "return table.move({}, 1, 1e12, 2)", "return table.concat({}, ',', 1, 1e12)"}) {
    std::optional<LuaError> error = sandbox.Run(code, "pattern.lua", 1);
    ASSERT_TRUE(error) << code;
    EXPECT_NE(error->message.find("sandbox"), std::string::npos) << error->ToString();
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
  // Ordinary use is untouched.
  EXPECT_EQ(EvalOrDie(sandbox, "string.match('KS', '^(%w+)(%a)$')"), "K");
  EXPECT_EQ(EvalOrDie(sandbox, "select(2, string.gsub('a,b,c', ',', ';'))"), "2");
  EXPECT_EQ(EvalOrDie(sandbox, "table.concat({1, 2, 3}, '-')"), "1-2-3");
}

TEST(SandboxTest, RuntimeErrorHasFileLineAndTraceback) {
  LuaSandbox sandbox;
  std::optional<LuaError> error =
      sandbox.Run("local x = 1\nlocal function f()\n  error('boom')\nend\nf()\n", "house/rule.lua");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->file, "house/rule.lua");
  EXPECT_EQ(error->line, 3);
  EXPECT_EQ(error->message, "boom");
  EXPECT_NE(error->traceback.find("stack traceback:"), std::string::npos);
  EXPECT_NE(error->traceback.find("house/rule.lua:5"), std::string::npos) << error->traceback;
  EXPECT_EQ(error->ToString(), "house/rule.lua:3: boom");
}

TEST(SandboxTest, SyntaxErrorAndLongChunkNames) {
  LuaSandbox sandbox;
  std::optional<LuaError> error = sandbox.Run("return {\n  a = 1\n  b = 2\n}", "syntax.lua");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->file, "syntax.lua");
  EXPECT_EQ(error->line, 3);
  // Lua shortens long chunk names in messages; the error gives the full one.
  std::string long_name = "/very/long/path/" + std::string(80, 'd') + "/rules.lua";
  error = sandbox.Run("\n\nerror('deep')", long_name);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->file, long_name);
  EXPECT_EQ(error->line, 3);
}

TEST(SandboxTest, NonStringErrorObject) {
  LuaSandbox sandbox;
  std::optional<LuaError> error = sandbox.Run("error({})", "obj.lua");
  ASSERT_TRUE(error);
  EXPECT_NE(error->message.find("error object is a table"), std::string::npos) << error->message;
}

TEST(SandboxTest, CppExceptionNeverEscapes) {
  LuaSandbox sandbox;
  sandbox.SetGlobalFunction("explode", [](const std::vector<std::string>& args) -> std::string {
    throw std::runtime_error("kaboom " + (args.empty() ? std::string() : args[0]));
  });
  sandbox.SetGlobalFunction("explode_oddly",
                            [](const std::vector<std::string>&) -> std::string { throw 42; });
  sandbox.SetGlobalFunction(
      "greet", [](const std::vector<std::string>& args) { return "hello " + args.at(0); });
  std::optional<LuaError> error = sandbox.Run("\nexplode('now')", "host.lua");
  ASSERT_TRUE(error);
  EXPECT_NE(error->message.find("kaboom now"), std::string::npos) << error->message;
  EXPECT_EQ(error->file, "host.lua");
  EXPECT_EQ(error->line, 2);
  error = sandbox.Run("explode_oddly()", "host.lua");
  ASSERT_TRUE(error);
  EXPECT_NE(error->message.find("unknown C++ exception"), std::string::npos) << error->message;
  // A Lua pcall sees it as an ordinary error.
  EXPECT_EQ(EvalOrDie(sandbox, "select('#', pcall(explode))"), "2");
  // args.at(0) throws std::out_of_range without an argument.
  EXPECT_FALSE(sandbox.Eval("greet()").has_value());
  EXPECT_EQ(EvalOrDie(sandbox, "greet('you')"), "hello you");

  // The same for C++ code run through Protected().
  error = sandbox.Protected([](lua_State*) { throw std::logic_error("inside"); });
  ASSERT_TRUE(error);
  EXPECT_NE(error->message.find("inside"), std::string::npos) << error->message;
}

TEST(SandboxTest, FinalizersAreRefused) {
  // Lua runs __gc with debug hooks off, where no budget could stop a loop.
  auto start = std::chrono::steady_clock::now();
  {
    LuaSandbox sandbox;
    std::optional<LuaError> error =
        sandbox.Run("setmetatable({}, {__gc = function() while true do end end})", "gc.lua");
    ASSERT_TRUE(error);
    EXPECT_NE(error->message.find("__gc"), std::string::npos) << error->ToString();
    // A __gc added later does not mark the object (Lua 5.4 manual 2.5.3).
    EXPECT_FALSE(
        sandbox.Run("local mt = {}\nlocal t = setmetatable({}, mt)\n"
                    "mt.__gc = function() while true do end end\nt = nil",
                    "gc_late.lua"));
    EXPECT_EQ(EvalOrDie(sandbox, "getmetatable(setmetatable({}, {__index = {a = 1}})).__index.a"),
              "1");
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
}

TEST(SandboxTest, TooSmallMemoryLimitIsAnException) {
  SandboxLimits limits;
  limits.memory_bytes = 1024;
  EXPECT_THROW(LuaSandbox sandbox(limits), std::runtime_error);
}

}  // namespace
}  // namespace canasta
