// The arguments of v1 hooks (docs/lua-api.md, "Argument tables"): the meld
// of extra_meld_check and the side of canastas_to_go_out and
// house_score_adjustment are one table each, refilled for every call; each
// call sees exactly its own fields whatever an earlier call did to the
// table. And the sandbox's string.sub, written out for speed.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/card.h"
#include "core/hook_api.h"
#include "core/hooks.h"
#include "core/rules.h"
#include "scripting/lua_hooks.h"
#include "scripting/lua_sandbox.h"

namespace canasta {
namespace {

std::unique_ptr<LuaHooks> Make(const std::string& source) {
  auto hooks = std::make_unique<LuaHooks>(std::vector<LuaHooks::Chunk>{{"args.lua", source}},
                                          SandboxLimits());
  for (const HookError& e : hooks->errors()) ADD_FAILURE() << e.ToString();
  return hooks;
}

std::string Failures(const LuaHooks& hooks) {
  std::string out;
  for (const HookError& e : hooks.TakeErrors()) out += e.ToString() + "\n";
  return out;
}

// Each call checks that its meld has the eight fields, no metatable and
// values that agree, then spoils the table in one of the ways a hook can
// (some allocate nothing), and answers the meld's rank.
constexpr const char* kTamperingHook = R"lua(
local mt = {__index = function() return 1 end}
local calls = 0
return { hooks = {
  extra_meld_check = function(m, rules)
    local n = 0
    for _ in pairs(m) do n = n + 1 end
    if n ~= 8 then return "fields" end
    if getmetatable(m) ~= nil then return "metatable" end
    if m.size ~= m.naturals + m.twos + m.jokers or m.wilds ~= m.twos + m.jokers then
      return "values"
    end
    if m.was_canasta ~= false or type(m.is_new) ~= "boolean" then return "flags" end
    local rank = m.rank
    calls = calls + 1
    if calls == 1 then m.size = 99
    elseif calls == 2 then m.rank = nil; m.zz = true
    elseif calls == 3 then setmetatable(m, mt)
    elseif calls == 4 then rawset(m, "naturals", -5)
    elseif calls == 5 then m.extra = {}
    elseif calls == 6 then m.is_new = nil; m.was_canasta = nil
    elseif calls == 7 then m.wilds = nil; m.a = 1; m.wilds = 2; m.a = nil
    elseif calls == 8 then for k in pairs(m) do m[k] = nil end
    end
    return rank
  end,
}}
)lua";

TEST(HookArgsTest, EachExtraMeldCheckCallSeesExactlyItsOwnMeld) {
  std::unique_ptr<LuaHooks> owned = Make(kTamperingHook);
  LuaHooks& hooks = *owned;
  Rules rules;
  const std::vector<Rank> ranks = {Rank::kSeven, Rank::kKing, Rank::kAce, Rank::kFour,
                                   Rank::kJoker, Rank::kNine, Rank::kTen, Rank::kQueen,
                                   Rank::kFive, Rank::kSix,  Rank::kEight, Rank::kJack};
  for (size_t i = 0; i < ranks.size(); ++i) {
    MeldShape m;
    m.rank = ranks[i];
    m.naturals = ranks[i] == Rank::kJoker ? 0 : 3 + int(i % 3);
    m.twos = int(i % 2);
    m.jokers = ranks[i] == Rank::kJoker ? 3 : 0;
    m.is_new = i % 2 == 0;
    const std::string want = ranks[i] == Rank::kJoker ? "wild" : ToString(ranks[i]);
    EXPECT_EQ(hooks.ExtraMeldCheck(rules, m), want) << "call " << i + 1;
  }
  EXPECT_EQ(Failures(hooks), "");
}

TEST(HookArgsTest, EachSideTableHoldsItsOwnCallsFields) {
  std::unique_ptr<LuaHooks> owned = Make(R"lua(
local calls = 0
return { hooks = {
  canastas_to_go_out = function(s, rules)
    local n = 0
    for _ in pairs(s) do n = n + 1 end
    if n ~= 6 or getmetatable(s) ~= nil then return 20 end
    calls = calls + 1
    local answer = s.side * 10 + s.canastas
    if calls % 2 == 1 then s.canastas = 9; s.side = nil; s.other = true end
    return answer
  end,
  house_score_adjustment = function(s, went_out, rules)
    local n = 0
    for _ in pairs(s) do n = n + 1 end
    if n ~= 6 then return -1 end
    s.red_threes = 1000
    return s.melds + (went_out and 100 or 0)
  end,
}}
)lua");
  LuaHooks& hooks = *owned;
  Rules rules;
  for (int i = 0; i < 6; ++i) {
    SideSummary side;
    side.side = i % 2;
    side.canastas = i;
    side.melds = 10 + i;
    EXPECT_EQ(hooks.CanastasToGoOut(rules, side), side.side * 10 + i) << i;
    EXPECT_EQ(hooks.HouseScoreAdjustment(rules, side, i % 2 == 0), 10 + i + (i % 2 == 0 ? 100 : 0))
        << i;
  }
  EXPECT_EQ(Failures(hooks), "");
}

// A hook that keeps its table past the call does not keep that call's
// values: the next call refills the same table (documented; a hook copies
// what it wants to keep).
TEST(HookArgsTest, AKeptMeldTableIsRefilledByLaterCalls) {
  std::unique_ptr<LuaHooks> owned = Make(R"lua(
local kept, copy
return { hooks = {
  extra_meld_check = function(m, rules)
    if kept == nil then
      kept = m
      copy = m.size
      return nil
    end
    if not rawequal(kept, m) then kept = m; copy = m.size; return "new" end
    if copy ~= m.size and kept.size == m.size then copy = m.size; return "refilled" end
    return "same"
  end,
}}
)lua");
  LuaHooks& hooks = *owned;
  Rules rules;
  MeldShape m;
  m.rank = Rank::kKing;
  m.naturals = 3;
  // The first calls may make new tables (the state still grows); then,
  // with nothing allocated between calls, the one table is refilled.
  for (int i = 0; i < 3; ++i) hooks.ExtraMeldCheck(rules, m);
  for (int i = 0; i < 4; ++i) {
    m.naturals = 4 + i;
    EXPECT_EQ(hooks.ExtraMeldCheck(rules, m), "refilled") << i;
  }
  EXPECT_EQ(Failures(hooks), "");
}

TEST(HookArgsTest, CardStringsAreTheLogsNotation) {
  std::unique_ptr<LuaHooks> owned = Make(R"lua(
local seen = {}
return { hooks = {
  initial_meld_value = function(card, rules)
    if seen[card] then return -1 end
    seen[card] = true
    if card == "JK" then return 0 end
    local ranks = "23456789TJQKA"
    local suits = "SHDC"
    local r = ranks:find(card:sub(1, 1), 1, true)
    local s = suits:find(card:sub(2, 2), 1, true)
    if #card ~= 2 or not r or not s then return -2 end
    return r * 10 + s
  end,
}}
)lua");
  LuaHooks& hooks = *owned;
  Rules rules;
  for (int i = 0; i < kNumFaces; ++i) {
    const Card c = Card::FromIndex(i);
    const int want = c.is_joker() ? 0 : (int(c.rank()) - 1) * 10 + int(c.suit()) + 1;
    EXPECT_EQ(hooks.InitialMeldValue(rules, c), want) << ToString(c);
  }
  EXPECT_EQ(Failures(hooks), "");
}

// LuaHooks::Call tells a v2 hook by its place in HookId.
TEST(HookArgsTest, TheV1HooksComeFirstInHookId) {
  for (const HookSpec& spec : HookSpecs())
    EXPECT_EQ(spec.v2, spec.id >= HookId::kMayTakePile) << spec.name;
}

std::string Eval(LuaSandbox& sandbox, const std::string& expression) {
  LuaError error;
  std::optional<std::string> out = sandbox.Eval(expression, &error);
  return out ? *out : "error: " + error.ToString();
}

TEST(HookArgsTest, StringSubKeepsLuasMeaning) {
  LuaSandbox sandbox;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"('hello'):sub(2)", "ello"},         {"('hello'):sub(-3)", "llo"},
      {"('hello'):sub(0)", "hello"},        {"('hello'):sub(2, 100)", "ello"},
      {"('hello'):sub(-100, 2)", "he"},     {"('hello'):sub(3, 2)", ""},
      {"('hello'):sub(-2, -1)", "lo"},      {"('hello'):sub(6)", ""},
      {"('hello'):sub(1, 0)", ""},          {"('hello'):sub(2, -100)", ""},
      {"('hello'):sub(5, 5)", "o"},         {"string.sub('KS', 1, 1)", "K"},
      {"('hello'):sub(2.0, 3)", "el"},      {"(''):sub(1, 1)", ""},
      {"('hello'):sub(math.mininteger, math.maxinteger)", "hello"},
      {"('hello'):sub(math.maxinteger)", ""},
      {"string.sub(12345, 2, 3)", "23"},
  };
  for (const auto& [code, want] : cases) EXPECT_EQ(Eval(sandbox, code), want) << code;
  EXPECT_NE(Eval(sandbox, "('hello'):sub()").find("bad argument #1 to 'sub'"), std::string::npos)
      << Eval(sandbox, "('hello'):sub()");
  EXPECT_NE(Eval(sandbox, "('hello'):sub(1.5)").find("number has no integer representation"),
            std::string::npos);
  EXPECT_NE(Eval(sandbox, "string.sub({}, 1)").find("bad argument #1 to 'sub'"),
            std::string::npos);
}

TEST(HookArgsTest, StringSubIsChargedAsCWork) {
  SandboxLimits limits;
  limits.c_work = 100'000;
  LuaSandbox sandbox(limits);
  std::optional<LuaError> error = sandbox.Run(
      "local s = string.rep('a', 60000)\nreturn s:sub(1, 10), s:sub(2, 20)", "sub.lua", 2);
  ASSERT_TRUE(error);
  EXPECT_NE(error->message.find("C work limit exceeded"), std::string::npos) << error->ToString();
}

// initial_meld_value, extra_meld_check and canastas_to_go_out are functions
// of their arguments (docs/lua-api.md, "Value hooks are asked once per
// argument"): each distinct argument is asked once per Lua state and set of
// parameters. minimum_count, which is asked every time, reports the
// counters the others keep in upvalues.
constexpr const char* kCountingHooks = R"lua(
local calls = {value = 0, meld = 0, side = 0}
return { hooks = {
  initial_meld_value = function(card, rules)
    calls.value = calls.value + 1
    return canasta.value(card, rules)
  end,
  extra_meld_check = function(m, rules)
    calls.meld = calls.meld + 1
    if m.rank == "7" and m.wilds > 0 then return "no wild sevens" end
  end,
  canastas_to_go_out = function(side, rules)
    calls.side = calls.side + 1
    return side.red_threes == 4 and 1 or 2
  end,
  minimum_count = function(total, rules)
    return ({calls.value, calls.meld, calls.side})[total]
  end,
}}
)lua";

TEST(HookMemoTest, AValueHookIsAskedOncePerDistinctArgument) {
  std::unique_ptr<LuaHooks> owned = Make(kCountingHooks);
  LuaHooks& hooks = *owned;
  Rules rules;
  auto calls = [&](int which) { return hooks.MinimumCount(rules, which); };

  const Card cards[] = {*ParseCard("KS"), *ParseCard("2C"), *ParseCard("KS"), Card::Joker(),
                        *ParseCard("2C"), Card::Joker(),    *ParseCard("KS")};
  for (Card c : cards) EXPECT_EQ(hooks.InitialMeldValue(rules, c), rules.value(c)) << ToString(c);
  EXPECT_EQ(calls(1), 3);

  MeldShape sevens;
  sevens.rank = Rank::kSeven;
  sevens.naturals = 3;
  sevens.twos = 1;
  MeldShape kings;
  kings.rank = Rank::kKing;
  kings.naturals = 3;
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(hooks.ExtraMeldCheck(rules, sevens), "no wild sevens");
    EXPECT_EQ(hooks.ExtraMeldCheck(rules, kings), "");
  }
  kings.is_new = false;  // another argument: the hook sees is_new
  EXPECT_EQ(hooks.ExtraMeldCheck(rules, kings), "");
  EXPECT_EQ(calls(2), 3);

  SideSummary side;
  side.canastas = 1;
  for (int i = 0; i < 4; ++i) EXPECT_EQ(hooks.CanastasToGoOut(rules, side), 2);
  side.red_threes = 4;
  EXPECT_EQ(hooks.CanastasToGoOut(rules, side), 1);
  EXPECT_EQ(hooks.CanastasToGoOut(rules, side), 1);
  EXPECT_EQ(calls(3), 2);

  // A copy of the same Rules shares the answers; other parameters do not.
  Rules copy = rules;
  EXPECT_EQ(hooks.InitialMeldValue(copy, *ParseCard("KS")), 10);
  EXPECT_EQ(calls(1), 3);
  Rules other = rules;
  other.card_value[size_t(Rank::kKing)] = 15;
  EXPECT_EQ(hooks.InitialMeldValue(other, *ParseCard("KS")), 15);
  EXPECT_EQ(hooks.InitialMeldValue(other, *ParseCard("KS")), 15);
  EXPECT_EQ(calls(1), 4);
  EXPECT_EQ(Failures(hooks), "");
}

// A call that fails is not remembered: every call with that argument runs
// the hook again, fails, falls back to the default and is counted, as
// before; the arguments that succeed are still asked once.
TEST(HookMemoTest, AFailingCallIsMadeAndRecordedEveryTime) {
  std::unique_ptr<LuaHooks> owned = Make(R"lua(
local calls = 0
return { hooks = {
  initial_meld_value = function(card, rules)
    calls = calls + 1
    if card == "JK" then error("no jokers here") end
    return 1
  end,
  extra_meld_check = function(m, rules)
    if m.rank == "A" then return 42 end
  end,
  minimum_count = function(total, rules) return calls end,
}}
)lua");
  LuaHooks& hooks = *owned;
  Rules rules;
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(hooks.InitialMeldValue(rules, Card::Joker()), 50);  // classic's default
    EXPECT_EQ(hooks.InitialMeldValue(rules, *ParseCard("AS")), 1);
  }
  EXPECT_EQ(hooks.MinimumCount(rules, 0), 4);  // three failing calls, one that answered
  MeldShape aces;
  aces.rank = Rank::kAce;
  aces.naturals = 3;
  EXPECT_EQ(hooks.ExtraMeldCheck(rules, aces), "");
  EXPECT_EQ(hooks.ExtraMeldCheck(rules, aces), "");
  std::vector<HookError> errors = hooks.TakeErrors();
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].hook, "initial_meld_value");
  EXPECT_EQ(errors[0].count, 3);
  EXPECT_EQ(errors[0].call, "initial_meld_value(\"JK\", rules)");
  EXPECT_EQ(errors[0].error.line, 6);
  EXPECT_NE(errors[0].error.message.find("no jokers here"), std::string::npos);
  EXPECT_EQ(errors[1].hook, "extra_meld_check");
  EXPECT_EQ(errors[1].count, 2);
  EXPECT_NE(errors[1].error.message.find("must return nil or true"), std::string::npos)
      << errors[1].error.message;
}

// A script's own text in a finding is bounded (kMaxScriptText): a reason
// or an error of a megabyte is cut, and says how long it was.
TEST(HookTextTest, AReasonOrAnErrorOfAMegabyteIsCutInTheFinding) {
  std::unique_ptr<LuaHooks> owned = Make(R"lua(
return { hooks = {
  extra_meld_check = function(m, rules) return string.rep("x", 1000000) end,
  initial_meld_value = function(card, rules) error(string.rep("y", 1000000)) end,
}}
)lua");
  LuaHooks& hooks = *owned;
  Rules rules;
  MeldShape aces;
  aces.rank = Rank::kAce;
  aces.naturals = 3;
  EXPECT_EQ(hooks.ExtraMeldCheck(rules, aces),
            std::string(kMaxScriptText, 'x') + " ... (1000000 bytes in all)");
  EXPECT_EQ(hooks.InitialMeldValue(rules, *ParseCard("AS")), 20);  // classic's default
  std::vector<HookError> errors = hooks.TakeErrors();
  ASSERT_EQ(errors.size(), 1u);
  const std::string& message = errors[0].error.message;
  EXPECT_EQ(message.size(), kMaxScriptText + std::string(" ... (1000000 bytes in all)").size())
      << message.substr(0, 80);
  EXPECT_EQ(message.find_first_not_of('y'), kMaxScriptText);
}

// Past the memo's bound (docs/lua-api.md: 1,024 melds) the hook is asked
// again, and every answer is still the hook's.
TEST(HookMemoTest, ManyDistinctMeldsKeepTheirOwnAnswers) {
  std::unique_ptr<LuaHooks> owned = Make(R"lua(
return { hooks = {
  extra_meld_check = function(m, rules)
    if m.naturals % 3 == 0 then return m.rank .. m.naturals .. "/" .. m.twos end
  end,
}}
)lua");
  LuaHooks& hooks = *owned;
  Rules rules;
  for (int round = 0; round < 2; ++round) {
    for (int naturals = 0; naturals < 256; ++naturals) {
      for (int twos = 0; twos < 6; ++twos) {
        MeldShape m;
        m.rank = Rank::kNine;
        m.naturals = naturals;
        m.twos = twos;
        const std::string want =
            naturals % 3 == 0 ? "9" + std::to_string(naturals) + "/" + std::to_string(twos) : "";
        ASSERT_EQ(hooks.ExtraMeldCheck(rules, m), want) << naturals << " " << twos;
      }
    }
  }
  EXPECT_EQ(Failures(hooks), "");
}

}  // namespace
}  // namespace canasta
