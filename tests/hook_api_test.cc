// The v2 hook glue (core/hook_api.h, scripting/lua_hooks.cc) called directly:
// the context a hook sees, its strictness, each result kind, canasta.log.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/hook_api.h"
#include "core/hooks.h"
#include "core/rules.h"
#include "scripting/lua_bytecode.h"
#include "scripting/lua_hooks.h"

namespace canasta {
namespace {

std::unique_ptr<LuaHooks> Hooks(const std::string& hooks_table,
                                const std::string& extra_fields = "") {
  std::string source = "return { " + extra_fields + " hooks = {\n" + hooks_table + "\n} }";
  SandboxLimits limits;
  limits.instructions = 1'000'000;
  limits.seconds = 1.0;
  return std::make_unique<LuaHooks>(std::vector<LuaHooks::Chunk>{{"house.lua", source}}, limits);
}

HookValue DiscardContext() {
  HookValue ctx = HookValue::Table();
  ctx.Set("player", HookValue::Int(1));
  ctx.Set("card", HookValue::OfCard(Card(Rank::kSeven, Suit::kHearts)));
  ctx.Set("hand", HookValue::Cards({Card(Rank::kSeven, Suit::kHearts), Card::Joker()}));
  HookValue melds = HookValue::List();
  melds.Append(MeldValue(Rank::kSeven,
                         {Card(Rank::kSeven, Suit::kSpades), Card(Rank::kSeven, Suit::kClubs),
                          Card(Rank::kTwo, Suit::kClubs)},
                         7));
  ctx.Set("other_melds", std::move(melds));
  ctx.Set("pile_top", HookValue());
  return ctx;
}

std::string FirstFailure(const LuaHooks& hooks) {
  std::vector<HookError> errors = hooks.TakeErrors();
  return errors.empty() ? "" : errors.front().ToString();
}

TEST(HookApi, EveryHookHasOneDescriptorInIdOrder) {
  ASSERT_EQ(HookSpecs().size(), size_t(kNumHooks));
  for (int i = 0; i < kNumHooks; ++i) {
    const HookSpec& spec = HookSpecs()[size_t(i)];
    EXPECT_EQ(int(spec.id), i);
    EXPECT_EQ(FindHook(spec.name), spec.id);
    EXPECT_NE(std::string(spec.doc), "");
    EXPECT_NE(std::string(spec.example), "");
    EXPECT_FALSE(spec.fields.empty()) << spec.name;
  }
  EXPECT_EQ(FindHook("may_take_piles"), HookId::kCount);
  ASSERT_EQ(HookNames().size(), size_t(kNumHooks));
  EXPECT_EQ(HookNames()[size_t(HookId::kMayDiscard)], "may_discard");
}

TEST(HookApi, ReasonHookSeesItsContextAndRefuses) {
  auto hooks = Hooks(R"(may_discard = function(ctx, rules)
    for _, m in ipairs(ctx.other_melds) do
      if m.rank == canasta.rank(ctx.card) and not m.canasta then
        return "no feeding: " .. ctx.card .. " onto " .. #m.cards .. " cards, hand " .. #ctx.hand
      end
    end
  end)");
  Rules rules;
  EXPECT_TRUE(hooks->Overrides(HookId::kMayDiscard));
  EXPECT_FALSE(hooks->Overrides(HookId::kMayTakePile));
  HookAnswer a = hooks->Call(HookId::kMayDiscard, DiscardContext(), rules);
  EXPECT_TRUE(a.given);
  EXPECT_FALSE(a.allowed);
  EXPECT_EQ(a.reason, "no feeding: 7H onto 3 cards, hand 2");
  EXPECT_EQ(a.where, "house.lua:2");
  EXPECT_EQ(FirstFailure(*hooks), "");
}

TEST(HookApi, NilTrueAndFalseAnswers) {
  auto hooks = Hooks(R"(may_discard = function(ctx, rules)
    if ctx.player == 0 then return nil elseif ctx.player == 1 then return true end
    return false
  end)");
  Rules rules;
  HookValue ctx = DiscardContext();
  ctx.Set("player", HookValue::Int(0));
  EXPECT_FALSE(hooks->Call(HookId::kMayDiscard, ctx, rules).given);
  ctx.Set("player", HookValue::Int(1));
  HookAnswer yes = hooks->Call(HookId::kMayDiscard, ctx, rules);
  EXPECT_TRUE(yes.given && yes.allowed);
  ctx.Set("player", HookValue::Int(2));
  HookAnswer no = hooks->Call(HookId::kMayDiscard, ctx, rules);
  EXPECT_TRUE(no.given);
  EXPECT_FALSE(no.allowed);
  EXPECT_EQ(no.reason, "the ruleset's may_discard refuses this");
}

TEST(HookApi, MisspeltContextFieldIsAnErrorWithTheNearMiss) {
  auto hooks = Hooks(R"(may_discard = function(ctx, rules)
    if ctx.crad == "7H" then return false end
  end)");
  Rules rules;
  EXPECT_FALSE(hooks->Call(HookId::kMayDiscard, DiscardContext(), rules).given);
  const std::string failure = FirstFailure(*hooks);
  EXPECT_NE(failure.find("ctx has no field \"crad\" (did you mean \"card\"?)"), std::string::npos)
      << failure;
  EXPECT_NE(failure.find("house.lua:3:"), std::string::npos) << failure;
}

TEST(HookApi, FieldTheEngineLeftNilReadsNil) {
  auto hooks = Hooks(R"(may_discard = function(ctx, rules)
    if ctx.pile_top == nil then return "empty pile" end
  end)");
  Rules rules;
  EXPECT_EQ(hooks->Call(HookId::kMayDiscard, DiscardContext(), rules).reason, "empty pile");
  EXPECT_EQ(FirstFailure(*hooks), "");
}

TEST(HookApi, NestedTablesAreStrictToo) {
  auto hooks = Hooks(R"(may_discard = function(ctx, rules)
    return ctx.other_melds[1].rnak
  end)");
  Rules rules;
  hooks->Call(HookId::kMayDiscard, DiscardContext(), rules);
  const std::string failure = FirstFailure(*hooks);
  EXPECT_NE(failure.find("has no field \"rnak\" (did you mean \"rank\"?)"), std::string::npos)
      << failure;
}

TEST(HookApi, RulesTableIsStrict) {
  auto hooks = Hooks(R"(may_discard = function(ctx, rules)
    if rules.stok_draw == 2 then return false end
  end)");
  Rules rules;
  hooks->Call(HookId::kMayDiscard, DiscardContext(), rules);
  const std::string failure = FirstFailure(*hooks);
  EXPECT_NE(failure.find("rules has no field \"stok_draw\" (did you mean \"stock_draw\"?)"),
            std::string::npos)
      << failure;
}

// A hook that only reads ctx's fields by name gets a plain table
// (scripting/lua_bytecode.h); it must see what the token would show.
std::unique_ptr<LuaHooks> HooksFrom(const std::string& source) {
  SandboxLimits limits;
  limits.instructions = 1'000'000;
  limits.seconds = 1.0;
  return std::make_unique<LuaHooks>(std::vector<LuaHooks::Chunk>{{"house.lua", source}}, limits);
}

HookValue DiscardBy(int player) {
  HookValue ctx = DiscardContext();
  ctx.Set("player", HookValue::Int(player));
  return ctx;
}

TEST(LuaBytecode, ReadsThisBuildsCode) {
  LuaSandbox sandbox;
  struct Case {
    const char* source;
    bool reads_only;
    bool pure;
  };
  const Case cases[] = {
      {"return function(ctx, rules) if ctx.size < 3 and ctx.is_new then return nil end end", true,
       true},
      {"return function(ctx, rules) if ctx.default == true then return nil end end", true, true},
      {"return function(ctx, rules) return ctx.card .. '!' end", true, false},
      {"return function(ctx, rules) while ctx.x do end end", true, false},
      {"return function(ctx, rules) return rules.stock_draw == 2 end", true, false},
      {"return function(ctx, rules) for k, v in pairs(ctx) do end end", false, false},
      {"return function(ctx, rules) kept = ctx end", false, false},
  };
  for (const Case& c : cases) {
    ASSERT_FALSE(sandbox.Run(c.source, "case.lua", 1)) << c.source;
    FunctionFacts facts;
    ASSERT_FALSE(sandbox.Protected(
        [&](lua_State* L) {
          ASSERT_TRUE(BytecodeInspectionWorks(L));
          facts = InspectFunction(L, 1);
        },
        1));
    EXPECT_TRUE(facts.known) << c.source;
    EXPECT_EQ(facts.reads_first_param_only, c.reads_only) << c.source;
    EXPECT_EQ(facts.pure, c.pure) << c.source;
  }
}

TEST(HookApiTable, FieldsReadByNameSeeEachCallsValues) {
  auto hooks = Hooks(R"(may_discard = function(ctx, rules)
    if ctx.player == 1 then return "one" end
    if ctx.pile_top == nil and ctx.player == 2 then return ctx.card end
  end)");
  Rules rules;
  const int players[] = {1, 0, 2, 1, 0, 0, 2};
  for (int p : players) {
    const HookAnswer a = hooks->Call(HookId::kMayDiscard, DiscardBy(p), rules);
    EXPECT_EQ(a.given, p != 0) << p;
    EXPECT_EQ(a.reason, p == 1 ? "one" : p == 2 ? "7H" : "") << p;
  }
  EXPECT_EQ(FirstFailure(*hooks), "");
}

TEST(HookApiTable, MisspeltFieldIsStillAnError) {
  auto hooks = Hooks(R"(may_discard = function(ctx, rules)
    if ctx.player == 0 then return nil end
    if ctx.palyer == 1 then return false end
  end)");
  Rules rules;
  hooks->Call(HookId::kMayDiscard, DiscardBy(0), rules);
  EXPECT_EQ(FirstFailure(*hooks), "");
  for (int i = 0; i < 3; ++i)
    EXPECT_FALSE(hooks->Call(HookId::kMayDiscard, DiscardBy(1), rules).given);
  std::vector<HookError> errors = hooks->TakeErrors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].error.message.find("ctx has no field \"palyer\" (did you mean \"player\"?)"),
            std::string::npos)
      << errors[0].ToString();
  EXPECT_EQ(errors[0].error.line, 4);
  EXPECT_EQ(errors[0].count, 3);
}

TEST(HookApiTable, ListFieldsAreOneTablePerCall) {
  auto hooks = Hooks(R"(may_discard = function(ctx, rules)
    if ctx.hand ~= nil and ctx.hand[2] == "JK" and ctx.other_melds[1].rank == "7" then
      return "hand of " .. #ctx.hand
    end
  end)");
  Rules rules;
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(hooks->Call(HookId::kMayDiscard, DiscardContext(), rules).reason, "hand of 2");
  EXPECT_EQ(FirstFailure(*hooks), "");
}

TEST(HookApiTable, RunawayLoopIsStillStopped) {
  auto hooks = Hooks(R"(may_discard = function(ctx, rules)
    if ctx.player == 1 then while true do end end
  end)");
  Rules rules;
  EXPECT_FALSE(hooks->Call(HookId::kMayDiscard, DiscardBy(0), rules).given);
  EXPECT_EQ(FirstFailure(*hooks), "");
  EXPECT_FALSE(hooks->Call(HookId::kMayDiscard, DiscardBy(1), rules).given);
  EXPECT_NE(FirstFailure(*hooks).find("instruction limit exceeded"), std::string::npos);
}

TEST(HookApiTable, LoopsReachedThroughCallsAndMetamethodsAreStopped) {
  auto hooks = HooksFrom(R"(local function spin() while true do end end
    local trap = setmetatable({}, {__index = function() while true do end end})
    return { hooks = {
      may_discard = function(ctx, rules) if ctx.player == 1 then spin() end end,
      may_meld = function(ctx, rules) if ctx.size == 3 then return trap.x end end,
    } })");
  Rules rules;
  EXPECT_FALSE(hooks->Call(HookId::kMayDiscard, DiscardBy(1), rules).given);
  EXPECT_NE(FirstFailure(*hooks).find("instruction limit exceeded"), std::string::npos);
  HookValue meld = HookValue::Table();
  meld.Set("size", HookValue::Int(3));
  EXPECT_FALSE(hooks->Call(HookId::kMayMeld, meld, rules).given);
  EXPECT_NE(FirstFailure(*hooks).find("instruction limit exceeded"), std::string::npos);
}

TEST(HookApiTable, HookWithSideEffectsIsCalledEveryTime) {
  auto hooks = HooksFrom(R"(local n = 0
    return { hooks = { may_discard = function(ctx, rules)
      n = n + 1
      if ctx.player == 0 then return nil end
      return "call " .. n
    end } })");
  Rules rules;
  for (int i = 0; i < 3; ++i)
    EXPECT_FALSE(hooks->Call(HookId::kMayDiscard, DiscardBy(0), rules).given);
  EXPECT_EQ(hooks->Call(HookId::kMayDiscard, DiscardBy(1), rules).reason, "call 4");
}

TEST(HookApiTable, PureHookAnswersAsIfCalled) {
  // Pure (lua_bytecode.h): its nil answers are kept by the fields it read.
  auto hooks = Hooks(R"(may_discard = function(ctx, rules)
    if ctx.player < 1 or ctx.player > 2 then return nil end
    if ctx.player == 2 then return false end
  end)");
  Rules rules;
  const int players[] = {0, 0, 2, 0, 1, 3, 2, 0, 3};
  for (int p : players) {
    const HookAnswer a = hooks->Call(HookId::kMayDiscard, DiscardBy(p), rules);
    EXPECT_EQ(a.given, p == 2) << p;
  }
  EXPECT_EQ(FirstFailure(*hooks), "");
}

TEST(HookApiTable, ListFieldsAreNeverKept) {
  // A list field is read on every call: a pure hook that tests one is
  // asked again, whatever its other fields.
  auto hooks = Hooks(R"(may_discard = function(ctx, rules)
    if ctx.hand then return false end
  end)");
  Rules rules;
  HookValue without = HookValue::Table();
  without.Set("player", HookValue::Int(1));
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(hooks->Call(HookId::kMayDiscard, without, rules).given);
    EXPECT_TRUE(hooks->Call(HookId::kMayDiscard, DiscardBy(1), rules).given);
  }
  EXPECT_EQ(FirstFailure(*hooks), "");
}

TEST(HookApiTable, StringFieldsAreNeverKept) {
  // A string compared with a number calls the string metatable's __lt, which
  // a ruleset may set: such a call is made every time.
  auto hooks = HooksFrom(R"(local n = 0
    getmetatable("").__lt = function(a, b) n = n + 1 return n % 2 == 0 end
    return { hooks = { may_discard = function(ctx, rules)
      if 1 < ctx.card then return false end
    end } })");
  Rules rules;
  const bool given[] = {false, true, false, true};
  for (bool g : given)
    EXPECT_EQ(hooks->Call(HookId::kMayDiscard, DiscardContext(), rules).given, g);
  EXPECT_EQ(FirstFailure(*hooks), "");
}

TEST(HookApiTable, FailingPureCallsAreMadeAndCountedEveryTime) {
  auto hooks = Hooks(R"(may_discard = function(ctx, rules)
    if ctx.pile_top < 1 then return nil end
  end)");
  Rules rules;
  for (int i = 0; i < 4; ++i)
    EXPECT_FALSE(hooks->Call(HookId::kMayDiscard, DiscardBy(0), rules).given);
  std::vector<HookError> errors = hooks->TakeErrors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].error.message.find("attempt to compare"), std::string::npos)
      << errors[0].ToString();
  EXPECT_EQ(errors[0].count, 4);
}

TEST(HookApi, ContextKeptPastItsCallIsAnError) {
  auto hooks = Hooks(R"(may_discard = function(ctx, rules)
    if kept then local h = kept.hand end
    kept = ctx
  end)");
  Rules rules;
  hooks->Call(HookId::kMayDiscard, DiscardContext(), rules);
  EXPECT_EQ(FirstFailure(*hooks), "");
  hooks->Call(HookId::kMayDiscard, DiscardContext(), rules);
  const std::string failure = FirstFailure(*hooks);
  EXPECT_NE(failure.find("ctx is read after its hook call returned"), std::string::npos)
      << failure;
}

TEST(HookApi, ContextIsReadOnlyAndIterable) {
  auto hooks = Hooks(R"(may_discard = function(ctx, rules)
    local names = {}
    for k, v in pairs(ctx) do names[#names + 1] = k end
    if ctx.player == 0 then ctx.card = "2C" end
    return table.concat(names, ",") .. " " .. tostring(ctx)
  end)");
  Rules rules;
  HookValue ctx = DiscardContext();
  HookAnswer a = hooks->Call(HookId::kMayDiscard, ctx, rules);
  // The fields set, in the descriptor's order (pile_top is nil).
  EXPECT_EQ(a.reason, "player,hand,other_melds,card ctx of may_discard");
  EXPECT_EQ(FirstFailure(*hooks), "");
  ctx.Set("player", HookValue::Int(0));
  EXPECT_FALSE(hooks->Call(HookId::kMayDiscard, ctx, rules).given);
  EXPECT_NE(FirstFailure(*hooks).find("ctx is read-only"), std::string::npos);
}

// The rules' tables are read-only proxies (scripting/lua_internal.cc,
// MakeReadOnly): they iterate and count like the tables they stand for, and
// their protection cannot be taken off.
TEST(HookApi, RulesTablesAreReadOnlyProxiesThatIterateAndCount) {
  auto hooks = Hooks(R"(may_discard = function(ctx, rules)
    local n, sum = 0, 0
    for rank, value in pairs(rules.card_value) do n = n + 1; sum = sum + value end
    local bands = 0
    for _ in pairs(rules.minimum_table) do bands = bands + 1 end
    local unprotected = pcall(setmetatable, rules.card_value, nil)
    return n .. " " .. sum .. " " .. bands .. "=" .. #rules.minimum_table .. " " ..
           tostring(getmetatable(rules.card_value)) .. " " .. tostring(unprotected)
  end)");
  Rules rules;
  int sum = 0;
  for (int v : rules.card_value) sum += v;
  const HookAnswer a = hooks->Call(HookId::kMayDiscard, DiscardContext(), rules);
  EXPECT_EQ(FirstFailure(*hooks), "");
  EXPECT_EQ(a.reason, "14 " + std::to_string(sum) + " " +
                          std::to_string(rules.minimum_table.size()) + "=" +
                          std::to_string(rules.minimum_table.size()) + " read-only false");
}

// Each function of the canasta library answers with one value, so that a
// call inside a table constructor or an argument list adds one element.
TEST(HookApi, CanastaLibraryFunctionsReturnOneValueEach) {
  auto hooks = Hooks(R"(may_discard = function(ctx, rules)
    local c = ctx.card
    return table.concat({select("#", canasta.rank(c)), select("#", canasta.suit(c)),
                         select("#", canasta.is_wild(c)), select("#", canasta.is_natural(c)),
                         select("#", canasta.value(c, rules)), #{canasta.rank(c)}}, ",")
  end)");
  Rules rules;
  EXPECT_EQ(hooks->Call(HookId::kMayDiscard, DiscardContext(), rules).reason, "1,1,1,1,1,1");
  EXPECT_EQ(FirstFailure(*hooks), "");
}

TEST(HookApi, ListFieldIsOneTablePerCall) {
  auto hooks = Hooks(R"(may_discard = function(ctx, rules)
    if ctx.hand ~= ctx.hand then return "two tables" end
    return #ctx.hand .. " " .. ctx.hand[1]
  end)");
  Rules rules;
  EXPECT_EQ(hooks->Call(HookId::kMayDiscard, DiscardContext(), rules).reason, "2 7H");
  EXPECT_EQ(FirstFailure(*hooks), "");
}

TEST(HookApi, ScorePartsStandardAndDeclared) {
  auto hooks = Hooks(R"(score = function(ctx, rules)
    if ctx.side == 0 then return { sevens_bonus = 500, red_threes = 600 } end
    if ctx.side == 1 then return { sevens_bonsu = 1 } end
  end)",
                     "score_parts = {\"sevens_bonus\"},");
  Rules rules;
  ASSERT_EQ(hooks->ExtraParts(), std::vector<std::string>{"sevens_bonus"});
  HookValue ctx = HookValue::Table();
  ctx.Set("side", HookValue::Int(0));
  HookAnswer a = hooks->Call(HookId::kScore, ctx, rules);
  ASSERT_TRUE(a.given);
  // In report order: the standard parts, then the ruleset's.
  std::vector<std::pair<std::string, int>> expected = {{"red_threes", 600}, {"sevens_bonus", 500}};
  EXPECT_EQ(a.parts, expected);
  ctx.Set("side", HookValue::Int(1));
  EXPECT_FALSE(hooks->Call(HookId::kScore, ctx, rules).given);
  const std::string failure = FirstFailure(*hooks);
  EXPECT_NE(failure.find("unknown part \"sevens_bonsu\" (did you mean \"sevens_bonus\"?)"),
            std::string::npos)
      << failure;
}

// A part may be anything from -100,000 to 100,000 (docs/lua-api.md): both
// ends are answers, one past either is a failure.
TEST(HookApi, ScorePartsReachBothEndsOfTheirRange) {
  auto hooks = Hooks(R"(score = function(ctx, rules)
    return { red_threes = ctx.side }
  end)");
  Rules rules;
  HookValue ctx = HookValue::Table();
  for (int value : {100000, -100000}) {
    ctx.Set("side", HookValue::Int(value));
    const HookAnswer a = hooks->Call(HookId::kScore, ctx, rules);
    ASSERT_TRUE(a.given) << value;
    EXPECT_EQ(a.parts, (std::vector<std::pair<std::string, int>>{{"red_threes", value}}));
    EXPECT_EQ(FirstFailure(*hooks), "");
  }
  ctx.Set("side", HookValue::Int(100001));
  EXPECT_FALSE(hooks->Call(HookId::kScore, ctx, rules).given);
  EXPECT_NE(FirstFailure(*hooks).find("part red_threes must be an integer: -100000 to 100000 "
                                      "expected, got 100001"),
            std::string::npos);
  ctx.Set("side", HookValue::Int(-100001));
  EXPECT_FALSE(hooks->Call(HookId::kScore, ctx, rules).given);
  EXPECT_NE(FirstFailure(*hooks).find("got -100001"), std::string::npos);
}

TEST(HookApi, TieBreakSideIsInRange) {
  auto hooks = Hooks(R"(tie_break = function(ctx, rules) return ctx.hands end)");
  Rules rules;
  HookValue ctx = HookValue::Table();
  ctx.Set("hands", HookValue::Int(1));
  HookAnswer a = hooks->Call(HookId::kTieBreak, ctx, rules);
  EXPECT_TRUE(a.given);
  EXPECT_EQ(a.integer, 1);
  ctx.Set("hands", HookValue::Int(2));  // two sides: 0 or 1
  EXPECT_FALSE(hooks->Call(HookId::kTieBreak, ctx, rules).given);
  EXPECT_NE(FirstFailure(*hooks).find("a side 0 to 1 expected, got 2"), std::string::npos);
}

TEST(HookApi, MinimumCountSeesEveryTotal) {
  auto hooks = Hooks(R"(minimum_count = function(total, rules, ctx)
    return math.max(ctx.totals[1], ctx.totals[2]) >= 3000 and 120 or 50
  end)");
  Rules rules;
  std::vector<int> totals = {100, 3500};
  EXPECT_EQ(hooks->MinimumCount(rules, 100, 0, &totals), 120);
  totals = {100, 200};
  EXPECT_EQ(hooks->MinimumCount(rules, 100, 0, &totals), 50);
}

TEST(HookApi, MinimumByLeadingTotalWithoutHook) {
  Rules rules;
  rules.minimum_by = MinimumBy::kLeadingTotal;
  std::vector<int> totals = {100, 3500};
  EXPECT_EQ(DefaultHooks().MinimumCount(rules, 100, 0, &totals), 120);
  rules.minimum_by = MinimumBy::kTrailingTotal;
  EXPECT_EQ(DefaultHooks().MinimumCount(rules, 3500, 1, &totals), 50);
  rules.minimum_by = MinimumBy::kOwnTotal;
  EXPECT_EQ(DefaultHooks().MinimumCount(rules, 3500, 1, &totals), 120);
}

TEST(HookApi, LogPrintsFileAndLineOnStderr) {
  auto hooks = Hooks(R"(may_discard = function(ctx, rules)
    canasta.log("discarding", ctx.card, 3)
  end)");
  Rules rules;
  testing::internal::CaptureStderr();
  hooks->Call(HookId::kMayDiscard, DiscardContext(), rules);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err, "house.lua:3: discarding\t7H\t3\n");
}

// What a shared file logs reaches the terminal escaped: no screen clearing,
// no window title, no fake line.
TEST(HookApi, LogOutputIsEscapedOneLineACall) {
  auto hooks = Hooks(R"(may_discard = function(ctx, rules)
    canasta.log("\27[2J\27]0;title\7", "two\nlines\r")
  end)");
  Rules rules;
  testing::internal::CaptureStderr();
  hooks->Call(HookId::kMayDiscard, DiscardContext(), rules);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err, "house.lua:3: \\x1b[2J\\x1b]0;title\\x07\ttwo\\nlines\\r\n");
}

// The engine's tables refuse rawset as they refuse assignment: a hook
// cannot change a parameter that later calls read.
TEST(HookApi, RawsetCannotWriteTheEnginesTables) {
  auto hooks = Hooks(R"(may_discard = function(ctx, rules)
    local ok, err = pcall(rawset, rules, "stock_draw", 99)
    if ok then return "rawset wrote rules" end
    if rules.stock_draw ~= 1 then return "stock_draw changed" end
    local mine = {}
    rawset(mine, "x", 1)  -- a script's own table: as usual
    return mine.x == 1 and err:find("read%-only") and true or "unexpected: " .. tostring(err)
  end)");
  Rules rules;
  const HookAnswer answer = hooks->Call(HookId::kMayDiscard, DiscardContext(), rules);
  EXPECT_TRUE(answer.given);
  EXPECT_TRUE(answer.allowed) << answer.reason << FirstFailure(*hooks);
}

TEST(HookApi, LogOutputIsBounded) {
  auto hooks = Hooks(R"(may_discard = function(ctx, rules)
    for i = 1, 2000 do canasta.log(string.rep("x", 100)) end
  end)");
  Rules rules;
  testing::internal::CaptureStderr();
  hooks->Call(HookId::kMayDiscard, DiscardContext(), rules);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_LT(err.size(), size_t(70) << 10);
  EXPECT_NE(err.find("more output of this ruleset is suppressed"), std::string::npos);
}

// A hook the ruleset does not define is not called: the engine's rule
// stands, and nothing is reported as failing.
TEST(HookApi, AHookTheRulesetLeavesOutAnswersNothing) {
  auto hooks = Hooks(R"(may_discard = function(ctx, rules) return false end)");
  Rules rules;
  for (HookId id : {HookId::kMayTakePile, HookId::kMayMeld, HookId::kMayGoOut, HookId::kScore,
                    HookId::kTieBreak}) {
    EXPECT_FALSE(hooks->Overrides(id));
    EXPECT_FALSE(hooks->Call(id, DiscardContext(), rules).given) << int(id);
    EXPECT_EQ(FirstFailure(*hooks), "") << int(id);
  }
  EXPECT_TRUE(hooks->Call(HookId::kMayDiscard, DiscardContext(), rules).given);
}

TEST(HookApi, DefaultHooksAnswerNothing) {
  Rules rules;
  EXPECT_FALSE(DefaultHooks().Overrides(HookId::kMayDiscard));
  EXPECT_FALSE(DefaultHooks().Call(HookId::kMayDiscard, DiscardContext(), rules).given);
}

}  // namespace
}  // namespace canasta
