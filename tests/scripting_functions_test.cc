// Direct tests of scripting/ functions that no other test names: the
// sandbox's two-step call path, its C-work budget and error parsing; the
// parameter values as Lua text (docs/lua-api.md); where a ruleset chain
// defines a hook.
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "scripting/lua_sandbox.h"
#include "scripting/param_values.h"
#include "scripting/ruleset.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

using test::TempDir;

// --- lua_sandbox.h ---

TEST(ScriptingFunctions, CallStatusIsZeroOnSuccessAndTakeErrorReadsTheFailure) {
  LuaSandbox sandbox;
  ASSERT_FALSE(sandbox.Load("return 1", "ok.lua"));
  EXPECT_EQ(sandbox.CallStatus(0, 0), 0);  // LUA_OK

  ASSERT_FALSE(sandbox.Load("local x = 1\nerror(\"boom\")\n", "bad.lua"));
  const int status = sandbox.CallStatus(0, 0);
  EXPECT_NE(status, 0);
  LuaError error = sandbox.TakeError(status);
  EXPECT_EQ(error.file, "bad.lua");
  EXPECT_EQ(error.line, 2);
  EXPECT_EQ(error.message, "boom");
  // The message handler's traceback, split off the message.
  EXPECT_EQ(error.traceback.rfind("stack traceback:", 0), 0u) << error.traceback;
  // The error was popped: the state goes on working.
  LuaError later;
  EXPECT_EQ(sandbox.Eval("6 * 7", &later), "42") << later.ToString();
}

SandboxLimits SmallWork() {
  SandboxLimits limits;
  limits.c_work = 1000;
  return limits;
}

TEST(ScriptingFunctions, ChargeWorkStopsACallPastItsBudget) {
  LuaSandbox sandbox(SmallWork());
  // Within the budget: nothing happens.
  EXPECT_FALSE(sandbox.Protected([&](lua_State* L) {
    sandbox.ChargeWork(L, 600, "test");
    sandbox.ChargeWork(L, 400, "test");  // exactly the budget
  }));
  // One unit more is over it.
  std::optional<LuaError> error = sandbox.Protected([&](lua_State* L) {
    sandbox.ChargeWork(L, 600, "test");
    sandbox.ChargeWork(L, 401, "test");
  });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message,
            "C work limit exceeded (string and table functions did too much work in one call)");
  // The budget is per call.
  EXPECT_FALSE(sandbox.Protected([&](lua_State* L) { sandbox.ChargeWork(L, 1000, "test"); }));
  // A single charge above the whole budget is refused by its size.
  error = sandbox.Protected([&](lua_State* L) { sandbox.ChargeWork(L, 5000, "string.rep"); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message,
            "string.rep: the arguments would take about 5000 steps, more than the sandbox allows "
            "in one call (1000)");
}

TEST(ScriptingFunctions, RefuseIfTooCostlyRefusesWhatTheCallCannotAffordAndChargesNothing) {
  LuaSandbox sandbox(SmallWork());
  // Affordable estimates charge nothing: the whole budget is still there.
  EXPECT_FALSE(sandbox.Protected([&](lua_State* L) {
    sandbox.RefuseIfTooCostly(L, 1000, "table.sort");
    sandbox.RefuseIfTooCostly(L, 1000, "table.sort");
    sandbox.ChargeWork(L, 1000, "table.sort");
  }));
  std::optional<LuaError> error =
      sandbox.Protected([&](lua_State* L) { sandbox.RefuseIfTooCostly(L, 1001, "table.sort"); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message,
            "table.sort: the arguments would take about 1001 steps, more than the sandbox allows "
            "in one call (1000)");
  // What is left of this call's budget counts.
  error = sandbox.Protected([&](lua_State* L) {
    sandbox.ChargeWork(L, 700, "table.insert");
    sandbox.RefuseIfTooCostly(L, 301, "table.insert");
  });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message,
            "table.insert: the arguments would take about 301 steps, more than the sandbox has "
            "left in this call (300 of 1000)");
}

TEST(ScriptingFunctions, ErrorFromMessageSplitsFileLineAndMessage) {
  LuaSandbox sandbox;
  LuaError e = sandbox.ErrorFromMessage("rulesets/house.lua:12: bad value");
  EXPECT_EQ(e.file, "rulesets/house.lua");
  EXPECT_EQ(e.line, 12);
  EXPECT_EQ(e.message, "bad value");
  EXPECT_EQ(e.ToString(), "rulesets/house.lua:12: bad value");
  // The first ":<digits>:" ends the file name; colons before it belong to it.
  e = sandbox.ErrorFromMessage("C:x/h.lua:7:no space");
  EXPECT_EQ(e.file, "C:x/h.lua");
  EXPECT_EQ(e.line, 7);
  EXPECT_EQ(e.message, "no space");
  // Line numbers with a zero in them.
  e = sandbox.ErrorFromMessage("house.lua:10: ten");
  EXPECT_EQ(e.line, 10);
  EXPECT_EQ(e.message, "ten");
  e = sandbox.ErrorFromMessage("house.lua:207: two hundred and seven");
  EXPECT_EQ(e.line, 207);
  // A file name that ends with a colon: the next colon is looked at too.
  e = sandbox.ErrorFromMessage("odd:9: m");
  EXPECT_EQ(e.file, "odd");
  e = sandbox.ErrorFromMessage("odd::9: m");
  EXPECT_EQ(e.file, "odd:");
  EXPECT_EQ(e.line, 9);
  EXPECT_EQ(e.message, "m");
  // No position: the whole text is the message.
  e = sandbox.ErrorFromMessage("attempt to call a nil value: x:y");
  EXPECT_EQ(e.file, "");
  EXPECT_EQ(e.line, 0);
  EXPECT_EQ(e.message, "attempt to call a nil value: x:y");
  // Lua shortens long chunk names to "...tail": the full name loaded is given.
  const std::string name = "club/a-long-directory-name/for-the-rulesets/of-our-club/house.lua";
  ASSERT_FALSE(sandbox.Load("return 1", name));
  e = sandbox.ErrorFromMessage(".../of-our-club/house.lua:3: oops");
  EXPECT_EQ(e.file, name);
  EXPECT_EQ(e.line, 3);
  EXPECT_EQ(e.message, "oops");
}

// --- param_values.h ---

TEST(ScriptingFunctions, TriggerNamesAreTheFourUpcardTriggerBits) {
  // docs/lua-api.md, upcard_first_triggers: 1 joker, 2 two, 4 red three, 8 black three.
  const std::vector<std::pair<std::string, uint8_t>> expected = {
      {"joker", kTriggerJoker},
      {"two", kTriggerTwo},
      {"red_three", kTriggerRedThree},
      {"black_three", kTriggerBlackThree}};
  EXPECT_EQ(TriggerNames(), expected);
  EXPECT_EQ(kTriggerJoker | kTriggerTwo | kTriggerRedThree | kTriggerBlackThree, 15);
}

TEST(ScriptingFunctions, ValueRanksAreTwoToAceThenTheJoker) {
  EXPECT_EQ(ValueRanks(),
            (std::vector<Rank>{Rank::kTwo, Rank::kThree, Rank::kFour, Rank::kFive, Rank::kSix,
                               Rank::kSeven, Rank::kEight, Rank::kNine, Rank::kTen, Rank::kJack,
                               Rank::kQueen, Rank::kKing, Rank::kAce, Rank::kJoker}));
}

TEST(ScriptingFunctions, FormatValueWritesLuaSyntax) {
  EXPECT_EQ(FormatValue(-50), "-50");
  EXPECT_EQ(FormatValue(true), "true");
  EXPECT_EQ(FormatValue(false), "false");
  // Trigger sets by name; bits without one as the number.
  EXPECT_EQ(FormatValue(uint8_t(kTriggerJoker | kTriggerTwo)), "{\"joker\", \"two\"}");
  EXPECT_EQ(FormatValue(uint8_t(kTriggerBlackThree)), "{\"black_three\"}");
  EXPECT_EQ(FormatValue(uint8_t(0)), "{}");
  EXPECT_EQ(FormatValue(uint8_t(16 | kTriggerJoker)), "17");
  // Ranks in ValueRanks order, whatever order they were added in.
  RankSet ranks;
  ranks.Add(Rank::kAce);
  ranks.Add(Rank::kSeven);
  EXPECT_EQ(FormatValue(ranks), "{\"7\", \"A\"}");
  EXPECT_EQ(FormatValue(RankSet()), "{}");
  EXPECT_EQ(FormatValue(std::vector<int>{3, 2, 1}), "{3, 2, 1}");
  EXPECT_EQ(FormatValue(std::vector<int>{}), "{}");
  // The first band from minus infinity (the classic table, 000 §8).
  std::vector<MinimumBand> table = {{kMinusInfinityTotal, 15}, {0, 50}, {1500, 90}, {3000, 120}};
  EXPECT_EQ(FormatValue(table), "{{-math.huge, 15}, {0, 50}, {1500, 90}, {3000, 120}}");
  // card_value keyed by rank (000 §3 values).
  std::array<int, 16> values{};
  for (Rank r : ValueRanks()) values[size_t(r)] = int(r);
  values[size_t(Rank::kJoker)] = 50;
  EXPECT_EQ(FormatValue(values),
            "{[\"2\"] = 2, [\"3\"] = 3, [\"4\"] = 4, [\"5\"] = 5, [\"6\"] = 6, [\"7\"] = 7, "
            "[\"8\"] = 8, [\"9\"] = 9, [\"T\"] = 10, [\"J\"] = 11, [\"Q\"] = 12, [\"K\"] = 13, "
            "[\"A\"] = 14, [\"JK\"] = 50}");
}

TEST(ScriptingFunctions, FindParamFindsEveryParameterByItsExactName) {
  const ParamInfo* hand_size = FindParam("hand_size");
  ASSERT_NE(hand_size, nullptr);
  EXPECT_STREQ(hand_size->name, "hand_size");
  EXPECT_STREQ(hand_size->source, "000 §6");
  for (const std::string& name : ParamNames()) {
    const ParamInfo* info = FindParam(name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_EQ(info->name, name);
  }
  EXPECT_EQ(FindParam("no_such_param"), nullptr);
  EXPECT_EQ(FindParam("Hand_size"), nullptr);
  EXPECT_EQ(FindParam("hand_size "), nullptr);
  EXPECT_EQ(FindParam(""), nullptr);
}

// --- ruleset.h ---

TEST(ScriptingFunctions, HookWhereGivesTheFileAndLineThatDefinesAHookLast) {
  TempDir dir;
  const std::string base = dir.Write("base.lua",
                                     "return {\n"
                                     "  extends = \"classic\",\n"
                                     "  hooks = {\n"
                                     "    minimum_count = function(total, rules) return 50 end,\n"
                                     "    initial_meld_value = function(card, rules)\n"
                                     "      return 10\n"
                                     "    end,\n"
                                     "  },\n"
                                     "}\n");
  const std::string house = dir.Write("house.lua",
                                      "-- our club\n"
                                      "return {\n"
                                      "  extends = \"base.lua\",\n"
                                      "  hooks = {\n"
                                      "\n"
                                      "    minimum_count = function(total, rules) return 90 end,\n"
                                      "  },\n"
                                      "}\n");
  std::variant<Ruleset, LuaError> loaded = LoadRuleset(house);
  ASSERT_TRUE(std::holds_alternative<Ruleset>(loaded)) << std::get<LuaError>(loaded).ToString();
  const Ruleset& rs = std::get<Ruleset>(loaded);
  // The later file's definition replaces the base's.
  EXPECT_EQ(rs.HookWhere("minimum_count"), house + ":6");
  EXPECT_EQ(rs.HookWhere("initial_meld_value"), base + ":5");
  EXPECT_EQ(rs.HookWhere("may_discard"), "");  // a hook the chain does not define
  EXPECT_EQ(rs.HookWhere("no_such_hook"), "");
}

}  // namespace
}  // namespace canasta
