// Lua rulesets: the built-ins, user files, errors with their lines, hooks.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>
#include <type_traits>

#include "core/hooks.h"
#include "core/rules.h"
#include "core/suggest.h"
#include "replay/auditor.h"
#include "scripting/lua_hooks.h"
#include "scripting/param_values.h"
#include "scripting/ruleset.h"
#include "scripting/ruleset_info.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

using test::TempDir;

namespace fs = std::filesystem;

const char* const kIncomplete[] = {"bolivia", "hand-and-foot", "modern-american", "pinnacle"};

bool IsIncomplete(const std::string& name) {
  return std::find(std::begin(kIncomplete), std::end(kIncomplete), name) != std::end(kIncomplete);
}

std::optional<Ruleset> Load(const std::string& name, const LoadOptions& options = LoadOptions()) {
  std::variant<Ruleset, LuaError> loaded = LoadRuleset(name, options);
  if (const auto* error = std::get_if<LuaError>(&loaded)) {
    ADD_FAILURE() << name << ": " << error->ToString();
    return std::nullopt;
  }
  return std::get<Ruleset>(std::move(loaded));
}

LuaError LoadError(const std::string& name, const LoadOptions& options = LoadOptions()) {
  std::variant<Ruleset, LuaError> loaded = LoadRuleset(name, options);
  if (const auto* error = std::get_if<LuaError>(&loaded)) return *error;
  ADD_FAILURE() << name << " loaded but should not";
  return {};
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(BuiltinRulesetsTest, AllNamesArePresent) {
  std::vector<std::string> expected = {"bolivia",
                                       "classic",
                                       "classic-001",
                                       "hand-and-foot",
                                       "hutto",
                                       "jaques",
                                       "jaques-three-handed",
                                       "jaques-two-handed",
                                       "modern-american",
                                       "pinnacle",
                                       "three-handed",
                                       "tutorial",
                                       "two-handed"};
  EXPECT_EQ(BuiltinRulesetNames(), expected);
}

TEST(BuiltinRulesetsTest, EveryRunnableBuiltinLoadsAndValidates) {
  for (const std::string& name : BuiltinRulesetNames()) {
    if (IsIncomplete(name)) continue;
    std::optional<Ruleset> rs = Load(name);
    ASSERT_TRUE(rs) << name;
    EXPECT_EQ(rs->name(), name);
    EXPECT_TRUE(rs->runnable());
    EXPECT_TRUE(rs->builtin());
    EXPECT_EQ(rs->file(), "rulesets/" + name + ".lua");
    EXPECT_EQ(rs->rules().Validate(), "") << name;
    EXPECT_FALSE(rs->description().empty()) << name;
    EXPECT_TRUE(rs->hooks().empty()) << name;  // the built-ins need no Lua in the hot path
    std::unique_ptr<RuleHooks> hooks = rs->MakeHooks();
    EXPECT_EQ(dynamic_cast<LuaHooks*>(hooks.get()), nullptr) << name;
  }
}

TEST(BuiltinRulesetsTest, ClassicIsTheEngineDefault) {
  std::optional<Ruleset> classic = Load("classic");
  ASSERT_TRUE(classic);
  std::vector<ParamText> got = DescribeParams(classic->rules());
  std::vector<ParamText> want = DescribeParams(Rules());
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i].value, want[i].value) << got[i].name;
  EXPECT_EQ(classic->chain().size(), 1u);
  EXPECT_EQ(classic->SourceOf("stock_draw"), "default: 000 §12");
}

TEST(BuiltinRulesetsTest, HuttoValues) {
  std::optional<Ruleset> rs = Load("hutto");
  ASSERT_TRUE(rs);
  const Rules& r = rs->rules();
  EXPECT_EQ(r.stock_draw, 2);
  EXPECT_EQ(r.canastas_to_go_out, 2);
  EXPECT_FALSE(r.jokers_count_toward_minimum);
  EXPECT_EQ(r.three_layout, ThreeLayout::kBeforePlay);
  EXPECT_FALSE(r.discard_required_to_go_out);
  EXPECT_EQ(r.num_players, 4);
  EXPECT_EQ(r.hand_size, 11);
  ASSERT_EQ(rs->chain().size(), 2u);
  EXPECT_EQ(rs->chain()[0].name, "classic");
  EXPECT_EQ(rs->SourceOf("stock_draw"), "hutto: 000 §21");
  // The hook default reads the parameter: Hutto's jokers count nothing.
  EXPECT_EQ(rs->MakeHooks()->InitialMeldValue(r, Card::Joker()), 0);
}

// Rule keys in `sources` (docs/lua-api.md): jaques cites 002 where 002
// states a rule no parameter decides, its variants inherit that, and where
// 002 is silent (or under classic) the engine's classic citation stays.
TEST(BuiltinRulesetsTest, RuleKeysCiteTheRulesetsSeed) {
  for (const char* name : {"jaques", "jaques-two-handed", "jaques-three-handed"}) {
    std::optional<Ruleset> rs = Load(name);
    ASSERT_TRUE(rs) << name;
    EXPECT_EQ(rs->rules().Cite("rule.turn_order", "000 §11"), "002 Play-1") << name;
    EXPECT_EQ(rs->rules().Cite("rule.opponent_meld", "000 §8"), "002 Play-10") << name;
    EXPECT_EQ(rs->rules().Cite("rule.card_held", "000 §11"), "000 §11") << name;
  }
  std::optional<Ruleset> classic = Load("classic");
  ASSERT_TRUE(classic);
  for (const std::string& key : Rules::RuleKeys())
    EXPECT_EQ(classic->rules().Cite(key, "classic"), "classic") << key;
}

TEST(BuiltinRulesetsTest, TwoAndThreeHanded000) {
  std::optional<Ruleset> two = Load("two-handed");
  ASSERT_TRUE(two);
  EXPECT_EQ(two->rules().num_players, 2);
  EXPECT_EQ(two->rules().num_sides(), 2);
  EXPECT_EQ(two->rules().hand_size, 15);
  EXPECT_EQ(two->rules().stock_draw, 2);
  EXPECT_EQ(two->rules().canastas_to_go_out, 2);
  EXPECT_FALSE(two->rules().insufficient_meld_penalties);
  EXPECT_EQ(two->rules().illegal_meld_penalty, 100);  // still penalised (TC-T09)

  std::optional<Ruleset> three = Load("three-handed");
  ASSERT_TRUE(three);
  EXPECT_EQ(three->rules().num_players, 3);
  EXPECT_EQ(three->rules().num_sides(), 3);
  EXPECT_EQ(three->rules().hand_size, 13);
  EXPECT_EQ(three->rules().stock_draw, 2);
  EXPECT_EQ(three->rules().canastas_to_go_out, 2);
  EXPECT_TRUE(three->rules().insufficient_meld_penalties);
}

TEST(BuiltinRulesetsTest, JaquesValues) {
  std::optional<Ruleset> rs = Load("jaques");
  ASSERT_TRUE(rs);
  const Rules& r = rs->rules();
  EXPECT_TRUE(r.discard_required_to_go_out);
  EXPECT_EQ(r.concealed_going_out_bonus, 200);
  EXPECT_EQ(r.unfrozen_take, UnfrozenTake::kTwoNaturalsFromHand);
  EXPECT_TRUE(r.frozen_take_new_meld);
  EXPECT_EQ(r.wild_discard, WildDiscard::kOnlyIfNoOtherCard);
  EXPECT_EQ(r.black_three_meld, BlackThreeMeld::kThreeOrFourNoWild);
  EXPECT_FALSE(r.black_three_blocks_until_covered);
  EXPECT_EQ(r.upcard_first_triggers, kTriggerJoker | kTriggerTwo | kTriggerRedThree);
  EXPECT_TRUE(r.upcard_specials_to_stock);
  EXPECT_EQ(r.three_layout, ThreeLayout::kImmediately);
  EXPECT_FALSE(r.must_take_when_stock_out);
  EXPECT_EQ(r.stock_draw, 1);
  EXPECT_EQ(r.MinimumFor(1495), 50);  // readings R24
  EXPECT_EQ(r.MinimumFor(2995), 90);
  EXPECT_EQ(r.MinimumFor(-5), 15);
  EXPECT_EQ(r.MinimumFor(3000), 120);
  EXPECT_EQ(rs->chain().size(), 1u);  // 002 names no base
  EXPECT_EQ(rs->SourceOf("hand_size"), "jaques: 002 Setup-3");

  for (const char* name : {"jaques-two-handed", "jaques-three-handed"}) {
    std::optional<Ruleset> variant = Load(name);
    ASSERT_TRUE(variant) << name;
    bool two = std::string(name) == "jaques-two-handed";
    EXPECT_EQ(variant->rules().num_players, two ? 2 : 3);
    EXPECT_EQ(variant->rules().hand_size, two ? 15 : 13);
    EXPECT_EQ(variant->rules().canastas_to_go_out, 2);
    EXPECT_EQ(variant->rules().stock_draw, 1);                 // readings R34: not 000's draw-2
    EXPECT_TRUE(variant->rules().discard_required_to_go_out);  // inherited
    EXPECT_EQ(variant->rules().unfrozen_take, UnfrozenTake::kTwoNaturalsFromHand);
  }
}

TEST(BuiltinRulesetsTest, TutorialValues) {
  std::optional<Ruleset> rs = Load("tutorial");
  ASSERT_TRUE(rs);
  const Rules& r = rs->rules();
  EXPECT_FALSE(r.naturals_must_outnumber_wilds);
  EXPECT_EQ(r.min_naturals, 2);
  EXPECT_EQ(r.max_wilds_incomplete, 3);
  EXPECT_EQ(r.max_wilds_completed, -1);
  EXPECT_EQ(r.upcard_first_triggers, kTriggerJoker | kTriggerTwo | kTriggerRedThree);
  EXPECT_EQ(r.upcard_more_triggers, kTriggerJoker | kTriggerTwo | kTriggerRedThree);
  EXPECT_FALSE(r.upcard_specials_to_stock);
  EXPECT_EQ(r.black_three_meld, BlackThreeMeld::kThreeOrFourNoWild);
  EXPECT_EQ(r.hand_size, 11);
  EXPECT_TRUE(r.one_card_rule);  // silent in 004: classic
}

TEST(BuiltinRulesetsTest, IncompleteOnesRefuseNamingEachValue) {
  struct Case {
    const char* name;
    std::vector<std::string> values;
  };
  std::vector<Case> cases = {
      {"bolivia",
       {"base:", "num_players:", "hand_size:", "stock_draw:", "canastas_to_go_out:",
        "sequence_lowest:", "sequence_ace:", "sequence_max_wilds:"}},
      {"hand-and-foot",
       {"base:", "hand_size:", "stock_draw:", "canastas_to_go_out:", "target_score:",
        "foot_size:"}},
      {"pinnacle",
       {"base:", "jokers:", "hand_size:", "stock_draw:", "canastas_to_go_out:", "sequence_min_length:", "sequence_lowest:", "sequence_ace:", "sequence_max_wilds:",
        "sequence_canasta_bonus:"}},
  };
  for (const Case& c : cases) {
    LuaError error = LoadError(c.name);
    EXPECT_EQ(error.file, std::string("rulesets/") + c.name + ".lua");
    EXPECT_TRUE(Contains(error.message, "cannot run")) << error.message;
    EXPECT_TRUE(Contains(error.message, "readings R52")) << error.message;
    for (const std::string& value : c.values) {
      EXPECT_TRUE(Contains(error.message, "  " + value)) << c.name << " lacks " << value << "\n"
                                                         << error.message;
    }
    LoadOptions options;
    options.allow_incomplete = true;
    std::optional<Ruleset> rs = Load(c.name, options);
    ASSERT_TRUE(rs);
    EXPECT_FALSE(rs->runnable());
    EXPECT_EQ(rs->IncompleteMessage(), error.message);
  }
  LoadOptions options;
  options.allow_incomplete = true;
  std::optional<Ruleset> pinnacle = Load("pinnacle", options);
  ASSERT_TRUE(pinnacle);
  EXPECT_EQ(pinnacle->rules().decks, 3);
  std::optional<Ruleset> bolivia = Load("bolivia", options);
  ASSERT_TRUE(bolivia);
  EXPECT_EQ(bolivia->rules().target_score, 15000);
  EXPECT_TRUE(bolivia->rules().wild_melds);
}

TEST(UserRulesetTest, ExtendsABuiltin) {
  TempDir dir;
  std::string path = dir.Write("ours.lua", R"(-- our club
return {
  name = "ours",
  extends = "hutto",
  description = "Hutto, but a short game",
  params = {
    target_score = 3000,
    card_value = { JK = 40, ["10"] = 15 },
    minimum_table = { {from = -math.huge, minimum = 15}, {0, 60} },
  },
  sources = { target_score = "club vote, 2026" },
}
)");
  std::optional<Ruleset> rs = Load(path);
  ASSERT_TRUE(rs);
  EXPECT_EQ(rs->name(), "ours");
  EXPECT_FALSE(rs->builtin());
  EXPECT_EQ(rs->rules().target_score, 3000);
  EXPECT_EQ(rs->rules().stock_draw, 2);  // from hutto
  EXPECT_EQ(rs->rules().card_value[size_t(Rank::kJoker)], 40);
  EXPECT_EQ(rs->rules().card_value[size_t(Rank::kTen)], 15);
  EXPECT_EQ(rs->rules().card_value[size_t(Rank::kAce)], 20);  // untouched ranks stay
  EXPECT_EQ(rs->rules().MinimumFor(5000), 60);
  EXPECT_EQ(rs->rules().MinimumFor(-20), 15);
  ASSERT_EQ(rs->chain().size(), 3u);
  EXPECT_EQ(rs->chain()[0].name, "classic");
  EXPECT_EQ(rs->chain()[1].name, "hutto");
  EXPECT_EQ(rs->chain()[2].file, path);
  EXPECT_EQ(rs->SourceOf("target_score"), "ours: club vote, 2026");
  EXPECT_EQ(rs->SourceOf("card_value"), "ours: " + path + ":8");
  EXPECT_EQ(rs->SourceOf("stock_draw"), "hutto: 000 §21");
  const Ruleset::Origin* origin = rs->origin("minimum_table");
  ASSERT_NE(origin, nullptr);
  EXPECT_EQ(origin->line, 9);
}

TEST(UserRulesetTest, ExtendsAnotherFileRelativeToItself) {
  TempDir dir;
  dir.Write("club/base.lua", R"(return {
  name = "club-base",
  extends = "jaques",
  params = { target_score = 7500 },
})");
  std::string child = dir.Write("club/variants/fast.lua", R"(return {
  extends = "../base.lua",
  params = { hand_size = 9 },
})");
  std::optional<Ruleset> rs = Load(child);
  ASSERT_TRUE(rs);
  EXPECT_EQ(rs->name(), "fast");  // no name given: the file's stem
  EXPECT_EQ(rs->rules().target_score, 7500);
  EXPECT_EQ(rs->rules().hand_size, 9);
  EXPECT_TRUE(rs->rules().discard_required_to_go_out);  // from jaques
  ASSERT_EQ(rs->chain().size(), 3u);
  EXPECT_EQ(rs->chain()[1].name, "club-base");
}

TEST(UserRulesetTest, UnknownParameterNamesTheLine) {
  TempDir dir;
  std::string path = dir.Write("typo.lua", R"(return {
  extends = "classic",
  params = {
    target_score = 3000,
    stok_draw = 2,
  },
})");
  LuaError error = LoadError(path);
  EXPECT_EQ(error.file, path);
  EXPECT_EQ(error.line, 5);
  EXPECT_TRUE(Contains(error.message, "unknown parameter \"stok_draw\"")) << error.message;
  EXPECT_TRUE(Contains(error.message, "did you mean \"stock_draw\"")) << error.message;
}

TEST(UserRulesetTest, WrongTypesAndRangesNameTheLine) {
  TempDir dir;
  struct Case {
    std::string param;
    std::string expect;
  };
  std::vector<Case> cases = {
      {"stock_draw = \"two\"", "expected an integer, got \"two\""},
      {"stock_draw = 1.5", "expected an integer, got 1.5"},
      {"stock_draw = 2^40", "out of range"},
      {"one_card_rule = 1", "expected true or false"},
      {"three_layout = \"later\"", "\"first_turn\", \"before_play\", \"immediately\""},
      {"upcard_first_triggers = {\"joker\", \"queen\"}", "got \"queen\""},
      {"card_value = { Z = 3 }", "unknown rank \"Z\""},
      {"card_value = { K = \"ten\" }", "rank \"K\": expected an integer"},
      {"minimum_table = { {0} }", "band 1: minimum"},
      {"minimum_table = 50", "expected a list of bands"},
  };
  for (const Case& c : cases) {
    std::string path =
        dir.Write("bad.lua", "return {\n  params = {\n    " + c.param + ",\n  },\n}\n");
    LuaError error = LoadError(path);
    EXPECT_EQ(error.file, path) << c.param;
    EXPECT_EQ(error.line, 3) << c.param;
    EXPECT_TRUE(Contains(error.message, c.expect)) << c.param << " -> " << error.message;
  }
}

// Before, these three named no file or line, unlike every other ruleset
// error.
TEST(UserRulesetTest, MemoryStringAndStackErrorsNameFileAndLine) {
  TempDir dir;
  LoadOptions options;
  options.load_limits.memory_bytes = size_t{4} << 20;  // fills fast
  struct Case {
    std::string source;
    int line;
    std::string message;
  };
  std::vector<Case> cases = {
      {"local t = {}\nfor i = 1, 1e8 do\n  t[i] = {i}\nend\nreturn {}\n", 3,
       "memory limit exceeded (4 MB)"},
      {"local s = 'x'\nfor i = 1, 40 do\n  s = s .. s\nend\nreturn {}\n", 3,
       "a string of 1048601 bytes is larger than the sandbox's string limit (1048576 bytes)"},
      {"local function f(s)\n  return (string.gsub(s, '.', f))\nend\nf('ab')\nreturn {}\n", 2,
       "C stack overflow"},
      {"return {\n  params = { stock_draw = " + std::string(300, '(') + "1" +
           std::string(300, ')') + " },\n}\n",
       2, "C stack overflow"},
  };
  for (const Case& c : cases) {
    std::string path = dir.Write("bad.lua", c.source);
    LuaError error = LoadError(path, options);
    EXPECT_EQ(error.file, path) << c.message;
    EXPECT_EQ(error.line, c.line) << c.message;
    EXPECT_EQ(error.message, c.message);
  }
}

TEST(UserRulesetTest, AttackHooksAreStoppedQuickly) {
  // The hook sorts a table built cheaply at load with a C comparator: no
  // Lua instruction runs during the sort. Small limits keep the test fast.
  TempDir dir;
  std::string path = dir.Write("sort.lua", R"(local big = {1}
for _ = 1, 14 do table.move(big, 1, #big, #big + 1) end
return {
  extends = "classic",
  hooks = {
    minimum_count = function(total, rules)
      table.sort(big, math.ult)
      return 77
    end,
  },
}
)");
  LoadOptions options;
  options.hook_limits.c_work = 100'000;
  std::optional<Ruleset> rs = Load(path, options);
  ASSERT_TRUE(rs);
  std::unique_ptr<RuleHooks> hooks = rs->MakeHooks();
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(hooks->MinimumCount(rs->rules(), 0), 50);  // the default band, not 77
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1.0);
  std::vector<HookError> errors = TakeHookErrors(*hooks);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].error.file, path);
  EXPECT_EQ(errors[0].error.line, 7);
  EXPECT_TRUE(Contains(errors[0].error.message, "table.sort: the arguments would take about"))
      << errors[0].error.message;

  // Five such sorts while loading.
  path = dir.Write("load.lua", R"(local big = {1}
for _ = 1, 14 do table.move(big, 1, #big, #big + 1) end
for _ = 1, 5 do
  table.sort(big, math.ult)
end
return { extends = "classic" }
)");
  options.load_limits.c_work = 1'000'000;
  start = std::chrono::steady_clock::now();
  LuaError error = LoadError(path, options);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1.0);
  EXPECT_EQ(error.file, path);
  EXPECT_EQ(error.line, 4);
  EXPECT_TRUE(Contains(error.message, "table.sort")) << error.message;
}

// A hook slow enough, called often enough, would stall a review: once the
// calls together spend the hooks' total budget, no hook is called again;
// the engine's answers stand, and every call not made is counted with the
// failure that spent the budget (one failure, not one a call).
TEST(SandboxTest, HooksStopBeingCalledOnceTheirTotalIsSpent) {
  TempDir dir;
  const std::string path = dir.Write("slow.lua", R"(return {
  extends = "classic",
  hooks = {
    minimum_count = function(total, rules)
      local x = 0
      for i = 1, 20000 do x = x + i end
      return 77
    end,
  },
}
)");
  LoadOptions options;
  options.hook_limits.total_instructions = 250'000;
  std::optional<Ruleset> rs = Load(path, options);
  ASSERT_TRUE(rs);
  std::unique_ptr<RuleHooks> hooks = rs->MakeHooks();
  int answered = 0;
  for (int i = 0; i < 100; ++i) answered += hooks->MinimumCount(rs->rules(), i) == 77;
  EXPECT_EQ(answered, 6);  // 40,000 instructions a call: the seventh spends it
  EXPECT_EQ(hooks->MinimumCount(rs->rules(), 0), 50);  // the engine's own answer
  EXPECT_TRUE(hooks->HasFailures());
  std::vector<HookError> errors = TakeHookErrors(*hooks);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].hook, "minimum_count");
  EXPECT_EQ(errors[0].count, 95);  // the call that spent it and the 94 not made
  EXPECT_TRUE(Contains(errors[0].error.message, "calls together exceeded their instruction limit"))
      << errors[0].error.message;
  // Calls not made after the failure was taken: the same failure again.
  EXPECT_EQ(hooks->MinimumCount(rs->rules(), 0), 50);
  errors = TakeHookErrors(*hooks);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].count, 1);
  EXPECT_TRUE(Contains(errors[0].error.message, "calls together exceeded"));
}

// The hooks' state runs the files again under the limits they loaded under:
// top-level code over one hook call's budget (but within the load's) keeps
// its hooks. They were all dropped before, silently.
TEST(SandboxTest, TopLevelCodeWithinTheLoadLimitsKeepsItsHooks) {
  TempDir dir;
  const std::string path = dir.Write("big.lua", R"(local big = {}
for i = 1, 500000 do big[i] = i end
return { extends = "classic", hooks = { may_discard = function(ctx) return "no discards" end } }
)");
  std::optional<Ruleset> rs = Load(path);
  ASSERT_TRUE(rs);
  std::unique_ptr<RuleHooks> hooks = rs->MakeHooks();
  EXPECT_FALSE(hooks->HasFailures());
  EXPECT_TRUE(hooks->Overrides(HookId::kMayDiscard));
}

// Files that fail when a game's hooks are made leave no hook, and the audit
// says so at the game's header: it does not go on silently without them.
TEST(SandboxTest, HooksThatFailToLoadForAGameAreReportedAtItsHeader) {
  const std::string source =
      "local x = 0\nfor i = 1, 100000 do x = x + i end\n"
      "return { hooks = { may_discard = function(ctx) return 'no discards' end } }\n";
  SandboxLimits tiny;
  tiny.instructions = 10'000;
  auto hooks = std::make_shared<LuaHooks>(std::vector<LuaHooks::Chunk>{{"big.lua", source}},
                                          LoadOptions().hook_limits, tiny);
  EXPECT_FALSE(hooks->Overrides(HookId::kMayDiscard));
  EXPECT_TRUE(hooks->HasFailures());
  RulesetChoice choice{"big", Rules(), hooks};
  AuditOptions options;
  options.forced_ruleset = "big";
  options.resolve = [choice](const std::string&, const std::string&, RulesetChoice* out,
                             std::string*) {
    *out = choice;
    return true;
  };
  std::istringstream log(
      "{\"type\":\"game\",\"format\":\"canasta-log/1\",\"players\":[\"A\",\"B\",\"C\","
      "\"D\"]}\n");
  FileReport r = AuditStream(log, "game.jsonl", options);
  ASSERT_EQ(r.games.size(), 1u);
  ASSERT_FALSE(r.games[0].findings.empty());
  const Finding& f = r.games[0].findings[0];
  EXPECT_EQ(f.id, CheckId::kRulesetHookFailed);
  EXPECT_EQ(f.line, 1);
  EXPECT_NE(f.message.find("instruction limit"), std::string::npos) << f.message;
}

// The findings of samples/classic/game.jsonl audited under the ruleset file.
std::vector<Finding> SampleFindingsUnder(const std::string& path) {
  std::optional<Ruleset> rs = Load(path);
  if (!rs) return {};
  RulesetChoice choice = rs->Choose();
  AuditOptions options;
  options.forced_ruleset = rs->name();
  options.resolve = [choice](const std::string&, const std::string&, RulesetChoice* out,
                             std::string*) {
    *out = choice;
    return true;
  };
  FileReport r =
      AuditFile(std::string(CANASTA_SOURCE_DIR) + "/samples/classic/game.jsonl", options);
  std::vector<Finding> all;
  for (const GameReport& g : r.games) all.insert(all.end(), g.findings.begin(), g.findings.end());
  return all;
}

// A file's games together have a budget for the hooks' code: once the
// earlier games spent it, a later game calls no hook, with one finding.
// The sandbox reads a coarse clock (a tick of a few ms): each call works
// long enough that the first game's calls surely cross some ticks.
TEST(SandboxTest, AFilesGamesTogetherStopCallingHooksPastTheFileBudget) {
  TempDir dir;
  const std::string path = dir.Write("slow.lua", R"(return { extends = "classic", hooks = {
  may_discard = function(ctx, rules)
    local x = 0
    for i = 1, 50000 do x = x + i end
  end,
} }
)");
  std::optional<Ruleset> rs = Load(path);
  ASSERT_TRUE(rs);
  std::ifstream in(std::string(CANASTA_SOURCE_DIR) + "/samples/classic/game.jsonl");
  std::stringstream one;
  one << in.rdbuf();
  const Ruleset& ruleset = *rs;
  for (double budget : {1e-9, 1e9}) {
    AuditOptions options;
    options.forced_ruleset = ruleset.name();
    options.file_hook_seconds = budget;
    options.resolve = [&ruleset](const std::string&, const std::string&, RulesetChoice* out,
                                 std::string*) {
      *out = ruleset.Choose();  // each game its own hooks, as the command line's
      return true;
    };
    std::istringstream log(one.str() + one.str());
    FileReport r = AuditStream(log, "two.jsonl", options);
    ASSERT_EQ(r.games.size(), 2u);
    EXPECT_TRUE(r.games[0].findings.empty()) << budget;
    if (budget > 1) {
      EXPECT_TRUE(r.games[1].findings.empty());
      continue;
    }
    ASSERT_EQ(r.games[1].findings.size(), 1u);
    const Finding& f = r.games[1].findings[0];
    EXPECT_EQ(f.id, CheckId::kRulesetHookFailed);
    EXPECT_NE(f.message.find("this file's earlier games ran the ruleset's hooks for"),
              std::string::npos)
        << f.message;
    // The hooks of one game: the seconds their code ran, then stopped.
    RulesetChoice fresh = ruleset.Choose();
    EXPECT_EQ(fresh.hooks->SecondsSpent(), 0.0);
    fresh.hooks->StopCalling("stopped for the test");
    EXPECT_EQ(fresh.hooks->MinimumCount(fresh.rules, 0), 50);  // the engine's answer
    EXPECT_FALSE(fresh.hooks->HasFailures());                  // minimum_count is not the ruleset's
  }
}

// The tables the engine builds for hooks share a metatable: a hook gets a
// string for it, not the table, so it cannot give every later table a __gc
// (finalizers run outside the sandbox's limits; this one looped for ever).
TEST(SandboxTest, TheEnginesTablesMetatableIsLocked) {
  TempDir dir;
  const std::string path = dir.Write("gc.lua", R"(return { extends = "classic", hooks = {
  may_discard = function(ctx, rules)
    getmetatable(ctx.hand).__gc = function() while true do end end
  end,
} }
)");
  std::vector<Finding> found = SampleFindingsUnder(path);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].id, CheckId::kRulesetHookFailed);
  EXPECT_NE(found[0].message.find("attempt to index a string value"), std::string::npos)
      << found[0].message;
}

// A misspelt key of a megabyte: the near-miss search passes over names of
// another length at once, and the message quotes 64 bytes of it.
TEST(SandboxTest, AHugeUnknownKeyIsQuotedShortAndSearchedFast) {
  TempDir dir;
  const std::string path = dir.Write("key.lua", R"(local key = ("x"):rep(1000000)
return { extends = "classic", hooks = {
  may_discard = function(ctx, rules) return rules[key] end,
} }
)");
  std::vector<Finding> found = SampleFindingsUnder(path);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].id, CheckId::kRulesetHookFailed);
  EXPECT_NE(found[0].message.find("rules has no field \"" + std::string(64, 'x') +
                                  " ... (1000000 bytes in all)\""),
            std::string::npos)
      << found[0].message.substr(0, 300);
  EXPECT_LT(found[0].message.size(), 400u);
  EXPECT_EQ(NearestName(std::string(1000000, 'x'), {"stock_draw", "x"}), "");
  EXPECT_EQ(NearestName("stok_draw", {"stock_draw", "x"}), "stock_draw");
}

// `extends` names only built-ins and .lua files: a file of another kind is
// not opened, so its text never reaches a syntax error's message.
TEST(UserRulesetTest, ExtendsOpensOnlyRulesetFiles) {
  TempDir dir;
  dir.Write("secret.txt", "password hunter2\n");
  for (const char* target : {"secret.txt", "./secret.txt"}) {
    const std::string path =
        dir.Write("r.lua", std::string("return { extends = \"") + target + "\" }\n");
    std::variant<Ruleset, LuaError> r = LoadRuleset(path);
    const LuaError* e = std::get_if<LuaError>(&r);
    ASSERT_NE(e, nullptr) << target;
    EXPECT_EQ(e->line, 1);
    EXPECT_EQ(e->ToString().find("hunter2"), std::string::npos) << e->ToString();
    EXPECT_NE(
        e->ToString().find(std::string(target) == "secret.txt"
                               ? "a ruleset file's name ends in .lua"
                               : "does not end in .lua; a ruleset extends only ruleset files"),
        std::string::npos)
        << e->ToString();
  }
}

// A folder or another thing that is not a file is said to be so, and is
// not opened.
TEST(UserRulesetTest, AFolderOrDeviceIsNotARulesetFile) {
  TempDir dir;
  std::filesystem::create_directory(dir.path() + "/rules.lua");
  for (const std::pair<std::string, const char*>& c :
       {std::pair<std::string, const char*>{dir.path() + "/rules.lua", "which is a folder"},
        {"/dev/null", "which is not a regular file"}}) {
    std::variant<Ruleset, LuaError> r = LoadRuleset(c.first);
    const LuaError* e = std::get_if<LuaError>(&r);
    ASSERT_NE(e, nullptr) << c.first;
    EXPECT_NE(e->ToString().find(c.second), std::string::npos) << e->ToString();
    EXPECT_EQ(e->ToString().find("no such file"), std::string::npos) << e->ToString();
  }
}

// A value the file gives is never dropped: a list with a hole or another
// key, a band with a third entry or its bound given twice are load errors.
TEST(UserRulesetTest, ListsWithHolesOrExtraEntriesAreRefused) {
  TempDir dir;
  const std::pair<const char*, const char*> cases[] = {
      {"three_values = { [1] = 100, [3] = 1000 }",
       "parameter three_values: the entry at 3 is not part of the list"},
      {"three_values = { 100, 200, x = 5 }",
       "parameter three_values: the entry at \"x\" is not part of the list"},
      {"minimum_table = { {-math.huge, 15}, {0, 50, 75} }",
       "parameter minimum_table: band 2: unknown entry 3 (a band is {from_total, minimum})"},
      {"minimum_table = { {-math.huge, 15}, {from = 1500, from_total = 9999, minimum = 90} }",
       "parameter minimum_table: band 2: the lower bound is given more than once"},
      {"minimum_table = { {-math.huge, 15}, {1500, 90, minimum = 90} }",
       "parameter minimum_table: band 2: the minimum is given more than once"},
      {"wild_only_in_initial_meld_ranks = { \"7\", [3] = \"A\" }",
       "parameter wild_only_in_initial_meld_ranks: the entry at 3 is not part of the list"},
  };
  for (const auto& [param, want] : cases) {
    const std::string path =
        dir.Write("p.lua", std::string("return { extends = \"classic\", params = {\n  ") + param +
                               ",\n} }\n");
    std::variant<Ruleset, LuaError> r = LoadRuleset(path);
    const LuaError* e = std::get_if<LuaError>(&r);
    ASSERT_NE(e, nullptr) << param;
    EXPECT_EQ(e->line, 2) << param;
    EXPECT_NE(e->message.find(want), std::string::npos) << e->message;
  }
  // The two forms of a band, each alone, as before.
  const std::string good =
      dir.Write("good.lua",
                "return { extends = \"classic\", params = {\n  minimum_table = { {-math.huge, 15}, "
                "{from = 1500, minimum = 90}, {from_total = 3000, minimum = 120} },\n} }\n");
  EXPECT_TRUE(Load(good));
}

// A parameter's line is found by scanning the source for its key
// (ScanKeyLines): keys inside long comments, long strings and strings after
// a comparison are not keys.
TEST(UserRulesetTest, AParameterErrorIsAtItsLinePastLongCommentsAndStrings) {
  TempDir dir;
  std::string path = dir.Write("commented.lua", R"(--[[ params = { hand_size = 1 } ]]
--[==[
params = { hand_size = 2 }
]==]
local note = [[params = { hand_size = 3 }]]
local same = note=="params = { hand_size = 4 }"
return {
  extends = "classic",
  params = {
    hand_size = "twelve",
  },
})");
  LuaError error = LoadError(path);
  EXPECT_EQ(error.file, path);
  EXPECT_EQ(error.line, 10);
  EXPECT_EQ(error.message, "parameter hand_size: expected an integer, got \"twelve\"");
}

// A key that begins with a capital letter (the first or the last of them)
// is found at its line too (ScanKeyLines' names).
TEST(UserRulesetTest, AnUnknownCapitalisedParameterIsAtItsLine) {
  TempDir dir;
  for (const char* key : {"Abad", "Zbad"}) {
    std::string path = dir.Write(
        "caps.lua", std::string("return {\n  extends = \"classic\",\n  params = {\n\n    ") + key +
                        " = 1,\n  },\n}\n");
    LuaError error = LoadError(path);
    EXPECT_EQ(error.line, 5) << key << ": " << error.ToString();
    EXPECT_NE(error.message.find(std::string("unknown parameter \"") + key + "\""),
              std::string::npos)
        << error.message;
  }
}

TEST(UserRulesetTest, HugeIntegerParameterIsRefusedAtItsLine) {
  // hand_size = 2147483647 used to load, and overflowed num_players x
  // hand_size in Validate and in the deal (core/game.cc).
  TempDir dir;
  std::string path = dir.Write("huge.lua", R"(return {
  extends = "classic",
  params = {
    hand_size = 2147483647,
  },
})");
  LuaError error = LoadError(path);
  EXPECT_EQ(error.file, path);
  EXPECT_EQ(error.line, 4);
  EXPECT_EQ(error.message,
            "the rules do not make a playable game: hand_size must be 1 to 100, got 2147483647 "
            "(hand_size is set at " +
                path + ":4)");
}

// A set of meld ranks (no_wild_ranks, 001 L59) holds "4" to "A": the threes
// are never melded by rank (000 §7) and twos and jokers are wild (000 §4).
TEST(UserRulesetTest, RankSetParametersHoldFourToAce) {
  TempDir dir;
  std::optional<Ruleset> ok = Load(dir.Write("ranks.lua", R"(return {
  extends = "classic",
  params = { no_wild_ranks = {"4", "A"} },
})"));
  ASSERT_TRUE(ok);
  EXPECT_TRUE(ok->rules().no_wild_ranks.Contains(Rank::kFour));
  EXPECT_TRUE(ok->rules().no_wild_ranks.Contains(Rank::kAce));
  EXPECT_FALSE(ok->rules().no_wild_ranks.Contains(Rank::kKing));
  for (const char* bad : {"3", "2", "JK"}) {
    const std::string path = dir.Write(std::string("bad-") + bad + ".lua",
                                       std::string("return {\n  extends = \"classic\",\n"
                                                   "  params = { no_wild_ranks = {\"4\", \"") +
                                           bad + "\"} },\n}");
    LuaError error = LoadError(path);
    EXPECT_EQ(error.line, 3) << bad;
    EXPECT_EQ(error.message,
              std::string("parameter no_wild_ranks: entry 2: expected a rank a meld is made of, "
                          "\"4\"..\"9\", \"T\", \"J\", \"Q\", \"K\", \"A\", got \"") +
                  bad + "\"")
        << bad;
  }
}

// Lua numbers that are not ints: never undefined behaviour in the
// conversion (UBSan checks it in the sanitizer build), always a message.
TEST(UserRulesetTest, NonIntegerNumbersForAnIntegerParameter) {
  TempDir dir;
  struct Case {
    const char* value;
    const char* expect;  // "" for accepted
  };
  for (const Case& c :
       {Case{"0/0", "parameter stock_draw: expected an integer, got nan"},
        Case{"math.huge", "parameter stock_draw: inf is out of range for an integer"},
        Case{"-math.huge", "parameter stock_draw: -inf is out of range for an integer"},
        Case{"2^63", "parameter stock_draw: 9.2233720368548e+18 is out of range"},
        Case{"math.maxinteger", "parameter stock_draw: 9223372036854775807 is out of range"},
        Case{"math.mininteger", "parameter stock_draw: -9223372036854775808 is out of range"},
        Case{"3.5", "parameter stock_draw: expected an integer, got 3.5"},
        Case{"-0.0", "stock_draw must be 1 to 5, got 0"}, Case{"2.0", ""}}) {
    std::string path = dir.Write("n.lua", std::string("return {\n  params = {\n    stock_draw = ") +
                                              c.value + ",\n  },\n}\n");
    std::variant<Ruleset, LuaError> loaded = LoadRuleset(path);
    if (c.expect[0] == '\0') {
      ASSERT_TRUE(std::holds_alternative<Ruleset>(loaded)) << c.value;
      EXPECT_EQ(std::get<Ruleset>(loaded).rules().stock_draw, 2);
      continue;
    }
    ASSERT_TRUE(std::holds_alternative<LuaError>(loaded)) << c.value;
    const LuaError& error = std::get<LuaError>(loaded);
    EXPECT_EQ(error.line, 3) << c.value;
    EXPECT_TRUE(Contains(error.message, c.expect)) << c.value << " -> " << error.message;
  }
}

// Every integer parameter has a range, documented in docs/lua-api.md
// ("Ranges"); Validate accepts both ends and refuses one past each.
TEST(ParameterRangesTest, EveryIntegerParameterHasADocumentedRangeThatValidateEnforces) {
  std::string api = ReadFile(std::string(CANASTA_SOURCE_DIR) + "/docs/lua-api.md");
  size_t section = api.find("### Ranges");
  ASSERT_NE(section, std::string::npos);
  std::string table = api.substr(section, api.find("\n### ", section + 1) - section);
  int checked = 0;
  Rules defaults;
  VisitParams(defaults, [&](const ParamInfo& info, auto& field) {
    if constexpr (std::is_same_v<std::decay_t<decltype(field)>, int>) {
      std::string row = "| `" + std::string(info.name) + "` | ";
      size_t at = table.find(row);
      ASSERT_NE(at, std::string::npos) << info.name << " has no range in docs/lua-api.md";
      int min = 0, max = 0;
      ASSERT_EQ(std::sscanf(table.c_str() + at + row.size(), "%d to %d", &min, &max), 2)
          << info.name;
      std::string refusal =
          std::string(info.name) + " must be " + std::to_string(min) + " to " + std::to_string(max);
      for (int value : {min - 1, max + 1}) {
        Rules r;
        VisitParams(r, [&](const ParamInfo& other, auto& f) {
          if constexpr (std::is_same_v<std::decay_t<decltype(f)>, int>) {
            if (std::string(other.name) == info.name) f = value;
          }
        });
        EXPECT_EQ(r.Validate(), refusal + ", got " + std::to_string(value));
      }
      for (int value : {min, max}) {
        Rules r;
        VisitParams(r, [&](const ParamInfo& other, auto& f) {
          if constexpr (std::is_same_v<std::decay_t<decltype(f)>, int>) {
            if (std::string(other.name) == info.name) f = value;
          }
        });
        EXPECT_FALSE(Contains(r.Validate(), std::string(info.name) + " must be "))
            << info.name << " = " << value << ": " << r.Validate();
      }
      ++checked;
    }
  });
  EXPECT_EQ(checked, 47);
  // The values that are not plain integers.
  Rules r;
  r.num_players = 5;
  EXPECT_EQ(r.Validate(), "num_players must be 2, 3, 4 or 6, got 5");
  r = Rules();
  r.card_value[int(Rank::kKing)] = 1001;
  EXPECT_EQ(r.Validate(), "card_value[\"K\"] must be 0 to 1000, got 1001");
  r = Rules();
  r.upcard_more_triggers = 16;
  EXPECT_TRUE(Contains(r.Validate(), "upcard_more_triggers must be a set of")) << r.Validate();
  r = Rules();
  r.minimum_table = {{-1000000000, 15}, {2000000, 50}};
  EXPECT_EQ(r.Validate(),
            "minimum_table band 2: from_total must be -1000000 to 1000000, got 2000000 (or "
            "-math.huge for the first band)");
  r.minimum_table = {{-1000000000, 15}, {0, 10001}};
  EXPECT_EQ(r.Validate(), "minimum_table band 2: minimum must be 0 to 10000, got 10001");
  r.minimum_table.assign(101, MinimumBand{0, 50});
  EXPECT_EQ(r.Validate(), "minimum_table must have at most 100 bands, got 101");
}

TEST(ParameterRangesTest, ValuesThatInteractAreCheckedTogetherWithBothNamed) {
  Rules r;
  r.hand_size = 27;  // 4 x 27 + 1 = 109 > 108
  EXPECT_EQ(r.Validate(),
            "the deal (num_players x hand_size + upcards = 4 x 27 + 1 = 109 cards) does not fit "
            "in the pack (decks x 52 + jokers = 108 cards, and the stock needs one)");
  r.hand_size = 26;  // 105 leaves a stock of 3
  EXPECT_EQ(r.Validate(), "");
  r.upcards = 0;
  r.hand_size = 27;  // exactly the pack: no stock
  EXPECT_TRUE(Contains(r.Validate(), "does not fit in the pack")) << r.Validate();

  r = Rules();
  r.max_wilds_incomplete = 3;
  r.max_wilds_completed = 2;
  EXPECT_EQ(r.Validate(),
            "max_wilds_completed (2) must be -1 (no cap) or at least max_wilds_incomplete (3): "
            "completing a canasta cannot lower the wild cards a meld already holds");
  r.max_wilds_completed = 3;
  EXPECT_EQ(r.Validate(), "");
  r.max_wilds_completed = -1;
  EXPECT_EQ(r.Validate(), "");

  // Through the loader: both lines named, the latest pointed at.
  TempDir dir;
  std::string path = dir.Write("wilds.lua", R"(return {
  extends = "classic",
  params = {
    max_wilds_completed = 2,
    max_wilds_incomplete = 4,
  },
})");
  LuaError error = LoadError(path);
  EXPECT_EQ(error.file, path);
  EXPECT_EQ(error.line, 5);
  EXPECT_TRUE(Contains(error.message,
                       "max_wilds_completed (2) must be -1 (no cap) or at least "
                       "max_wilds_incomplete (4)"))
      << error.message;
  EXPECT_TRUE(Contains(error.message, "max_wilds_completed is set at " + path + ":4"))
      << error.message;
  EXPECT_TRUE(Contains(error.message, "max_wilds_incomplete is set at " + path + ":5"))
      << error.message;
}

TEST(HooksTest, IntegerResultsAreConvertedSafelyAndBounded) {
  // NaN, infinities, 2^63 and fractions are refused; -0.0 is 0; values
  // outside the documented range are refused too. The default is used.
  TempDir dir;
  struct Case {
    const char* value;
    const char* expect;  // "" when accepted
    int result;
  };
  for (const Case& c :
       {Case{"0/0", "must return an integer: expected an integer, got nan", 50},
        Case{"math.huge", "must return an integer: inf is out of range", 50},
        Case{"-math.huge", "must return an integer: -inf is out of range", 50},
        Case{"2^63", "must return an integer: 9.2233720368548e+18 is out of range", 50},
        Case{"3.5", "must return an integer: expected an integer, got 3.5", 50},
        Case{"2147483647",
             "must return an integer: 0 to 10000 expected, got "
             "2147483647",
             50},
        Case{"-1", "must return an integer: 0 to 10000 expected, got -1", 50}, Case{"-0.0", "", 0},
        Case{"70.0", "", 70}}) {
    std::string path =
        dir.Write("h.lua", std::string("return {\n  extends = \"classic\",\n  hooks = {\n"
                                       "    minimum_count = function(total, rules) return ") +
                               c.value + " end,\n  },\n}\n");
    std::optional<Ruleset> rs = Load(path);
    ASSERT_TRUE(rs) << c.value;
    std::unique_ptr<RuleHooks> hooks = rs->MakeHooks();
    EXPECT_EQ(hooks->MinimumCount(rs->rules(), 0), c.result) << c.value;
    std::vector<HookError> errors = TakeHookErrors(*hooks);
    if (c.expect[0] == '\0') {
      EXPECT_TRUE(errors.empty()) << c.value;
      continue;
    }
    ASSERT_EQ(errors.size(), 1u) << c.value;
    EXPECT_TRUE(Contains(errors[0].error.message, std::string("minimum_count ") + c.expect))
        << c.value << " -> " << errors[0].error.message;
    EXPECT_EQ(errors[0].error.file, path);
  }
  // The other integer hooks' ranges.
  std::string path = dir.Write("r.lua", R"(return {
  extends = "classic",
  hooks = {
    initial_meld_value = function(card, rules) return 1001 end,
    canastas_to_go_out = function(side, rules) return 21 end,
    house_score_adjustment = function(side, went_out, rules) return -100001 end,
  },
})");
  std::optional<Ruleset> rs = Load(path);
  ASSERT_TRUE(rs);
  std::unique_ptr<RuleHooks> hooks = rs->MakeHooks();
  EXPECT_EQ(hooks->InitialMeldValue(rs->rules(), Card(Rank::kKing, Suit::kSpades)), 10);
  SideSummary side{};
  EXPECT_EQ(hooks->CanastasToGoOut(rs->rules(), side), 1);
  EXPECT_EQ(hooks->HouseScoreAdjustment(rs->rules(), side, true), 0);
  std::vector<HookError> errors = TakeHookErrors(*hooks);
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_TRUE(Contains(errors[0].error.message, "-1000 to 1000 expected, got 1001"))
      << errors[0].error.message;
  EXPECT_TRUE(Contains(errors[1].error.message, "0 to 20 expected, got 21"))
      << errors[1].error.message;
  EXPECT_TRUE(Contains(errors[2].error.message, "-100000 to 100000 expected, got -100001"))
      << errors[2].error.message;
}

TEST(UserRulesetTest, InvalidCombinationPointsAtTheParameter) {
  TempDir dir;
  std::string path = dir.Write("huge.lua", R"(return {
  extends = "classic",
  params = {
    num_players = 4,
    hand_size = 40,
  },
})");
  LuaError error = LoadError(path);
  EXPECT_EQ(error.file, path);
  EXPECT_EQ(error.line, 5);
  EXPECT_TRUE(Contains(error.message, "does not fit in the pack")) << error.message;
}

TEST(UserRulesetTest, StructuralErrors) {
  TempDir dir;
  LuaError e = LoadError(dir.Write("field.lua", "return {\n  parms = {},\n}"));
  EXPECT_EQ(e.line, 2);
  EXPECT_TRUE(Contains(e.message, "did you mean \"params\"")) << e.message;

  e = LoadError(
      dir.Write("hook.lua", "return {\n  hooks = {\n    minimum_cout = function() end,\n  },\n}"));
  EXPECT_EQ(e.line, 3);
  EXPECT_TRUE(Contains(e.message, "unknown hook \"minimum_cout\"")) << e.message;

  e = LoadError(dir.Write("notfn.lua", "return { hooks = { minimum_count = 50 } }"));
  EXPECT_TRUE(Contains(e.message, "expected a function")) << e.message;

  e = LoadError(dir.Write("description.lua", "return {\n  description = 42,\n}"));
  EXPECT_EQ(e.line, 2);
  EXPECT_EQ(e.message, "description: expected a string, got 42");

  e = LoadError(dir.Write("number.lua", "return 42"));
  EXPECT_TRUE(Contains(e.message, "must return a table")) << e.message;

  e = LoadError(dir.Write("syntax.lua", "return {\n  params = {\n    stock_draw = = 2,\n  }\n}"));
  EXPECT_EQ(e.line, 3);

  e = LoadError(
      dir.Write("runtime.lua", "local x = nil\nreturn { params = { stock_draw = x.y } }"));
  EXPECT_EQ(e.line, 2);
  EXPECT_FALSE(e.traceback.empty());

  dir.Write("a.lua", "return { extends = \"b.lua\" }");
  dir.Write("b.lua", "return { extends = \"a.lua\" }");
  e = LoadError(dir.path() + "/a.lua");
  EXPECT_TRUE(Contains(e.message, "cycle")) << e.message;

  e = LoadError(dir.Write("missing.lua", "return {\n  extends = \"nowhere.lua\" }"));
  EXPECT_EQ(e.line, 2);
  EXPECT_TRUE(Contains(e.message, "no such file")) << e.message;

  e = LoadError("huto");
  EXPECT_TRUE(Contains(e.message, "not a built-in")) << e.message;
  EXPECT_TRUE(Contains(e.message, "did you mean \"hutto\"")) << e.message;

  e = LoadError(dir.Write("loop.lua", "while true do end"));
  EXPECT_TRUE(Contains(e.message, "instruction limit")) << e.message;

  e = LoadError(dir.Write("sources.lua", "return { sources = { stock_drw = \"x\" } }"));
  EXPECT_TRUE(Contains(e.message, "sources: unknown parameter")) << e.message;

  // A rule key (Rules::RuleKeys()) is accepted besides parameter names; a
  // misspelt one is an error at its line, with the near miss.
  e = LoadError(
      dir.Write("rule_key.lua", "return {\n  sources = {\n    [\"rule.turn_ordr\"] = \"x\" } }"));
  EXPECT_EQ(e.line, 3);
  EXPECT_TRUE(Contains(e.message, "did you mean \"rule.turn_order\"")) << e.message;

  e = LoadError(dir.Write("incomplete.lua", "return { incomplete = { \"no colon\" } }"));
  EXPECT_TRUE(Contains(e.message, "name: what is needed")) << e.message;

  e = LoadError(dir.Write("base.lua", "return {\n  extends = \"hutto\",\n  base = \"jaques\",\n}"));
  EXPECT_EQ(e.line, 3);
  EXPECT_TRUE(Contains(e.message, "only for extending an incomplete ruleset")) << e.message;
}

// docs/lua-api.md: files larger than 1 MB (1,048,576 bytes) are refused
// unread, and so are chains of more than 16 files extending each other.
TEST(UserRulesetTest, TheFileSizeAndChainLimitsHoldAtTheirBounds) {
  TempDir dir;
  const std::string head = "return { extends = \"classic\" }\n--";
  std::string text = head + std::string((1u << 20) - head.size() - 1, 'x') + "\n";
  ASSERT_EQ(text.size(), 1u << 20);
  EXPECT_TRUE(Load(dir.Write("exact.lua", text)).has_value());
  text.insert(text.size() - 1, "x");
  const LuaError big = LoadError(dir.Write("big.lua", text));
  EXPECT_TRUE(Contains(big.message, "big.lua is larger than 1 MB")) << big.message;

  // f0.lua extends f1.lua ... up to fN.lua, which extends classic.
  auto chain = [&dir](int files) {
    for (int i = 0; i < files; ++i)
      dir.Write("f" + std::to_string(i) + ".lua",
                i + 1 < files ? "return { extends = \"f" + std::to_string(i + 1) + ".lua\" }"
                              : std::string("return { extends = \"classic\" }"));
    return dir.path() + "/f0.lua";
  };
  EXPECT_TRUE(Load(chain(16)).has_value());
  const LuaError deep = LoadError(chain(17));
  EXPECT_TRUE(Contains(deep.message, "more than 16 files extend each other")) << deep.message;
}

TEST(UserRulesetTest, SupplyingAnIncompleteRuleset) {
  TempDir dir;
  std::string path = dir.Write("our-bolivia.lua", R"(return {
  extends = "bolivia",
  base = "jaques",
  params = {
    num_players = 4, decks = 2, jokers = 4, hand_size = 11, stock_draw = 1,
    canastas_to_go_out = 2,
  },
})");
  // The values of a table are given but for the escaleras' (readings R115).
  LuaError error = LoadError(path);
  EXPECT_FALSE(Contains(error.message, "hand_size:")) << error.message;
  EXPECT_FALSE(Contains(error.message, "base:")) << error.message;
  EXPECT_TRUE(Contains(error.message, "sequence_lowest:")) << error.message;
  EXPECT_TRUE(Contains(error.message, "sequence_ace:")) << error.message;
  EXPECT_TRUE(Contains(error.message, "sequence_max_wilds:")) << error.message;

  LoadOptions options;
  options.allow_incomplete = true;
  std::optional<Ruleset> rs = Load(path, options);
  ASSERT_TRUE(rs);
  ASSERT_EQ(rs->chain().size(), 3u);
  EXPECT_EQ(rs->chain()[0].name, "jaques");  // the base goes under bolivia
  EXPECT_EQ(rs->chain()[1].name, "bolivia");
  EXPECT_EQ(rs->rules().unfrozen_take, UnfrozenTake::kTwoNaturalsFromHand);
  EXPECT_EQ(rs->rules().target_score, 15000);
  EXPECT_EQ(rs->rules().canastas_to_go_out, 2);
  EXPECT_EQ(rs->unmet().size(), 3u);
  EXPECT_TRUE(rs->rules().sequence_melds);
  EXPECT_EQ(rs->rules().sequence_canasta_bonus, 1500);  // 002 L67
  EXPECT_EQ(rs->rules().wild_canasta_bonus, 2500);      // 002 L67

  // With those too, it runs.
  std::string whole = dir.Write("whole-bolivia.lua", R"(return {
  extends = "bolivia",
  base = "jaques",
  params = {
    num_players = 4, decks = 2, jokers = 4, hand_size = 11, stock_draw = 1,
    canastas_to_go_out = 2, sequence_lowest = 4, sequence_ace = "high", sequence_max_wilds = 0,
  },
})");
  std::optional<Ruleset> runs = Load(whole);
  ASSERT_TRUE(runs);
  EXPECT_TRUE(runs->runnable());

  // Naming only some values keeps the others listed.
  std::string partial = dir.Write(
      "partial.lua", "return { extends = \"hand-and-foot\", params = { hand_size = 13 } }");
  error = LoadError(partial);
  EXPECT_FALSE(Contains(error.message, "hand_size:")) << error.message;
  EXPECT_TRUE(Contains(error.message, "stock_draw:")) << error.message;
  EXPECT_TRUE(Contains(error.message, "base:")) << error.message;
}

constexpr char kHouseRules[] = R"(local calls = 0
return {
  name = "house",
  extends = "classic",
  hooks = {
    initial_meld_value = function(card, rules)
      if card == "JK" then
        error("no jokers here")
      end
      return canasta.value(card, rules) + (canasta.is_wild(card) and 5 or 0)
    end,
    minimum_count = function(total, rules)
      calls = calls + 1
      return calls
    end,
    extra_meld_check = function(shape, rules)
      if shape.rank == "7" and shape.wilds > 0 then return "no wild sevens at our table" end
    end,
    canastas_to_go_out = function(side, rules)
      return "two"
    end,
    house_score_adjustment = function(side, went_out, rules)
      if went_out then return rules.going_out_bonus end
      return 0
    end,
  },
}
)";

TEST(HooksTest, HooksAreCalledAndFailuresRecorded) {
  TempDir dir;
  std::optional<Ruleset> rs = Load(dir.Write("house.lua", kHouseRules));
  ASSERT_TRUE(rs);
  std::vector<std::string> names = {"canastas_to_go_out", "extra_meld_check",
                                    "house_score_adjustment", "initial_meld_value",
                                    "minimum_count"};
  EXPECT_EQ(rs->hooks(), names);
  std::unique_ptr<RuleHooks> hooks = rs->MakeHooks();
  ASSERT_NE(dynamic_cast<LuaHooks*>(hooks.get()), nullptr);
  const Rules& rules = rs->rules();

  EXPECT_EQ(hooks->InitialMeldValue(rules, *ParseCard("KS")), 10);
  EXPECT_EQ(hooks->InitialMeldValue(rules, *ParseCard("2C")), 25);
  EXPECT_EQ(hooks->InitialMeldValue(rules, *ParseCard("3H")), 100);  // a red three's value
  EXPECT_TRUE(TakeHookErrors(*hooks).empty());

  // A Lua error falls back to the default (a joker counts 50 in classic).
  EXPECT_EQ(hooks->InitialMeldValue(rules, Card::Joker()), 50);
  EXPECT_EQ(hooks->InitialMeldValue(rules, Card::Joker()), 50);
  std::vector<HookError> errors = TakeHookErrors(*hooks);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].hook, "initial_meld_value");
  EXPECT_EQ(errors[0].count, 2);
  EXPECT_EQ(errors[0].call, "initial_meld_value(\"JK\", rules)");
  EXPECT_EQ(errors[0].error.line, 8);
  EXPECT_TRUE(Contains(errors[0].error.message, "no jokers here"));
  EXPECT_TRUE(Contains(errors[0].error.traceback, "stack traceback:"));
  EXPECT_TRUE(TakeHookErrors(*hooks).empty());  // taken

  MeldShape sevens;
  sevens.rank = Rank::kSeven;
  sevens.naturals = 3;
  sevens.twos = 1;
  EXPECT_EQ(hooks->ExtraMeldCheck(rules, sevens), "no wild sevens at our table");
  sevens.twos = 0;
  EXPECT_EQ(hooks->ExtraMeldCheck(rules, sevens), "");

  // A wrong return type also falls back, and names where the hook is.
  SideSummary side;
  EXPECT_EQ(hooks->CanastasToGoOut(rules, side), 1);
  errors = TakeHookErrors(*hooks);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].error.line, 19);
  EXPECT_TRUE(Contains(errors[0].error.message, "must return an integer")) << errors[0].ToString();

  EXPECT_EQ(hooks->HouseScoreAdjustment(rules, side, true), 100);
  EXPECT_EQ(hooks->HouseScoreAdjustment(rules, side, false), 0);
  EXPECT_EQ(hooks->MinimumCount(rules, 0), 1);
  EXPECT_EQ(hooks->MinimumCount(rules, 0), 2);
  EXPECT_EQ(
      hooks->OverriddenHooks(),
      std::vector<std::string>({"initial_meld_value", "extra_meld_check", "canastas_to_go_out",
                                "minimum_count", "house_score_adjustment"}));
}

TEST(HooksTest, RunawayHookAndReadOnlyRules) {
  TempDir dir;
  std::optional<Ruleset> rs = Load(dir.Write("bad-hooks.lua", R"(return {
  hooks = {
    minimum_count = function(total, rules)
      while true do end
    end,
    initial_meld_value = function(card, rules)
      rules.stock_draw = 5
      return 1
    end,
  },
})"));
  ASSERT_TRUE(rs);
  std::unique_ptr<RuleHooks> hooks = rs->MakeHooks();
  EXPECT_EQ(hooks->MinimumCount(rs->rules(), 1500), 90);
  EXPECT_EQ(hooks->InitialMeldValue(rs->rules(), *ParseCard("KS")), 10);
  std::vector<HookError> errors = TakeHookErrors(*hooks);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_TRUE(Contains(errors[0].error.message, "instruction limit")) << errors[0].ToString();
  EXPECT_EQ(errors[0].error.line, 4);
  EXPECT_TRUE(Contains(errors[1].error.message, "read-only")) << errors[1].ToString();
  // Still usable after the budget ran out.
  EXPECT_EQ(hooks->MinimumCount(rs->rules(), 3000), 120);
}

TEST(HooksTest, MakeHooksGivesIndependentStates) {
  TempDir dir;
  std::optional<Ruleset> rs = Load(dir.Write("house.lua", kHouseRules));
  ASSERT_TRUE(rs);
  std::unique_ptr<RuleHooks> a = rs->MakeHooks();
  std::unique_ptr<RuleHooks> b = rs->MakeHooks();
  EXPECT_EQ(a->MinimumCount(rs->rules(), 0), 1);
  EXPECT_EQ(a->MinimumCount(rs->rules(), 0), 2);
  EXPECT_EQ(b->MinimumCount(rs->rules(), 0), 1);  // its own counter

  // One set of hooks per thread, all at once.
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&rs, &wrong] {
      std::unique_ptr<RuleHooks> hooks = rs->MakeHooks();
      for (int i = 1; i <= 2000; ++i) {
        if (hooks->MinimumCount(rs->rules(), 0) != i) ++wrong;
        if (hooks->InitialMeldValue(rs->rules(), *ParseCard("AS")) != 20) ++wrong;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(HooksTest, HooksOfABaseFileAreInherited) {
  TempDir dir;
  dir.Write("house.lua", kHouseRules);
  std::string child = dir.Write("child.lua", R"(return {
  extends = "house.lua",
  hooks = { minimum_count = function(total, rules) return 7 end },
})");
  std::optional<Ruleset> rs = Load(child);
  ASSERT_TRUE(rs);
  std::unique_ptr<RuleHooks> hooks = rs->MakeHooks();
  EXPECT_EQ(hooks->MinimumCount(rs->rules(), 0), 7);                      // overridden
  EXPECT_EQ(hooks->InitialMeldValue(rs->rules(), *ParseCard("2C")), 25);  // inherited
}

TEST(RulesetInfoTest, ShowDiffList) {
  std::optional<Ruleset> classic = Load("classic");
  std::optional<Ruleset> hutto = Load("hutto");
  ASSERT_TRUE(classic && hutto);
  std::string show = ShowRuleset(*hutto);
  EXPECT_TRUE(Contains(show, "ruleset:     hutto")) << show;
  EXPECT_TRUE(Contains(show, "chain:       classic -> hutto")) << show;
  EXPECT_TRUE(Contains(show, "hooks:       none")) << show;
  for (const std::string& name : ParamNames()) EXPECT_TRUE(Contains(show, name)) << name;
  EXPECT_TRUE(Contains(show, "three_layout")) << show;
  EXPECT_TRUE(Contains(show, "\"before_play\"")) << show;
  EXPECT_TRUE(Contains(show, "hutto: 000 §21, readings R23")) << show;

  std::string diff = DiffRulesets(*classic, *hutto);
  EXPECT_TRUE(Contains(diff, "classic -> hutto: 4 values differ")) << diff;
  EXPECT_TRUE(Contains(diff, "stock_draw")) << diff;
  EXPECT_TRUE(Contains(diff, "default: 000 §12")) << diff;
  EXPECT_FALSE(Contains(diff, "hand_size")) << diff;
  EXPECT_TRUE(Contains(DiffRulesets(*classic, *classic), "same parameter values"));

  LoadOptions options;
  options.allow_incomplete = true;
  std::optional<Ruleset> pinnacle = Load("pinnacle", options);
  ASSERT_TRUE(pinnacle);
  EXPECT_TRUE(Contains(ShowRuleset(*pinnacle), "status:      incomplete"));
  std::string card_diff = DiffRulesets(*classic, *pinnacle);
  EXPECT_TRUE(Contains(card_diff, "decks")) << card_diff;

  std::string list = ListRulesets();
  for (const std::string& name : BuiltinRulesetNames()) {
    EXPECT_TRUE(Contains(list, name)) << name;
  }
  EXPECT_TRUE(Contains(list, "bolivia (incomplete)")) << list;
  EXPECT_FALSE(Contains(list, "hutto (incomplete)")) << list;
  EXPECT_FALSE(Contains(list, "cannot load")) << list;
}

TEST(RulesetInfoTest, ShowOutputValuesAreValidLua) {
  // `rules show` prints values as a ruleset file writes them.
  std::optional<Ruleset> jaques = Load("jaques");
  ASSERT_TRUE(jaques);
  TempDir dir;
  std::string params;
  for (const ParamText& p : DescribeParams(jaques->rules())) {
    params += "    " + p.name + " = " + p.value + ",\n";
  }
  std::optional<Ruleset> copy =
      Load(dir.Write("copy.lua", "return {\n  params = {\n" + params + "  },\n}\n"));
  ASSERT_TRUE(copy);
  EXPECT_TRUE(Contains(DiffRulesets(*jaques, *copy), "same parameter values"));
}

TEST(DocsTest, EveryParameterHookAndBuiltinIsDocumented) {
  std::string api = ReadFile(std::string(CANASTA_SOURCE_DIR) + "/docs/lua-api.md");
  std::string rulesets = ReadFile(std::string(CANASTA_SOURCE_DIR) + "/docs/rulesets.md");
  ASSERT_FALSE(api.empty());
  ASSERT_FALSE(rulesets.empty());
  for (const std::string& name : ParamNames()) {
    EXPECT_TRUE(Contains(api, "`" + name + "`")) << name << " is not in docs/lua-api.md";
  }
  for (const std::string& name : HookNames()) {
    EXPECT_TRUE(Contains(api, "`" + name + "`")) << name << " is not in docs/lua-api.md";
  }
  for (const std::string& name : BuiltinRulesetNames()) {
    EXPECT_TRUE(Contains(rulesets, "`" + name + "`")) << name << " is not in docs/rulesets.md";
  }
}

TEST(DocsTest, SampleHouseRulesetLoads) {
  std::optional<Ruleset> rs =
      Load(std::string(CANASTA_SOURCE_DIR) + "/samples/rulesets/house-example.lua");
  ASSERT_TRUE(rs);
  EXPECT_FALSE(rs->hooks().empty());
  std::unique_ptr<RuleHooks> hooks = rs->MakeHooks();
  for (Card card : {Card::Joker(), *ParseCard("2S"), *ParseCard("AH"), *ParseCard("5C")}) {
    hooks->InitialMeldValue(rs->rules(), card);
  }
  SideSummary side;
  side.canastas = 3;
  hooks->HouseScoreAdjustment(rs->rules(), side, true);
  MeldShape shape;
  shape.rank = Rank::kKing;
  shape.naturals = 4;
  hooks->ExtraMeldCheck(rs->rules(), shape);
  std::vector<HookError> errors = TakeHookErrors(*hooks);
  EXPECT_TRUE(errors.empty()) << errors[0].ToString();
}

}  // namespace
}  // namespace canasta
