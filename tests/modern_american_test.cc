// The built-in modern-american ruleset (seed 001) as a whole: every rule it
// sets is one the engine checks, so bots that play by the move generator
// under it make no move the audit refuses. It still refuses to run alone for
// want of the special hands (001 L65-L71), so it is loaded as incomplete.
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "lint/checks.h"
#include "replay/auditor.h"
#include "replay/simulate.h"
#include "scripting/ruleset.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

RulesetChoice ModernAmerican() {
  LoadOptions options;
  options.allow_incomplete = true;
  std::variant<Ruleset, LuaError> r = LoadRuleset("modern-american", options);
  EXPECT_TRUE(std::holds_alternative<Ruleset>(r));
  const Ruleset& rs = std::get<Ruleset>(r);
  EXPECT_FALSE(rs.runnable());
  EXPECT_EQ(rs.unmet().size(), 1u) << rs.IncompleteMessage();
  EXPECT_EQ(rs.unmet().front().name, "special_hands");
  return rs.Choose();
}

TEST(ModernAmerican, OnlyTheSpecialHandsAreMissing) { ModernAmerican(); }

TEST(ModernAmerican, SelfPlayUnderEveryRuleOf001AuditsClean) {
  const RulesetChoice c = ModernAmerican();
  const AuditOptions options = test::UnderRuleset(c);
  int hands = 0;
  for (int i = 0; i < 6; ++i) {
    SimulateOptions so;
    so.max_deals = 6;  // the games stop short of 8,500: only that is reported
    if (i % 2) so.bots = {"random", "sensible"};
    std::ostringstream log;
    SimulateStats stats = SimulateGame(c, GameSeed(2001, i), so, log);
    hands += stats.deals;
    std::istringstream in(log.str());
    FileReport report = AuditStream(in, "modern-american", options);
    for (const Finding& f : test::AllFindings(report))
      EXPECT_EQ(f.id, CheckId::kGameEnd)
          << "game " << i << " line " << f.line << ": " << f.message << " ["
          << GetCheck(f.id).name << "]";
  }
  EXPECT_EQ(hands, 36);
}

}  // namespace
}  // namespace canasta
