// The built-in modern-american ruleset (seed 001) as a whole: every rule it
// sets is one the engine checks, the special hands (001 L65-L71) included,
// so it runs, and bots that play by the move generator under it make no
// move the audit refuses.
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
  std::variant<Ruleset, LuaError> r = LoadRuleset("modern-american");
  if (const LuaError* e = std::get_if<LuaError>(&r)) ADD_FAILURE() << e->message;
  const Ruleset& rs = std::get<Ruleset>(r);
  EXPECT_TRUE(rs.runnable());
  EXPECT_TRUE(rs.unmet().empty()) << rs.IncompleteMessage();
  return rs.Choose();
}

// Nothing of 001 is missing: it loads without allow_incomplete, with the
// special hands' values of 001 L68-L71.
TEST(ModernAmerican, NothingOf001IsMissing) {
  const RulesetChoice c = ModernAmerican();
  EXPECT_EQ(c.rules.special_hand_straight, 3000);
  EXPECT_EQ(c.rules.special_hand_pairs_natural, 2500);
  EXPECT_EQ(c.rules.special_hand_pairs_with_twos, 2000);
  EXPECT_EQ(c.rules.special_hand_garbage, 2000);
  EXPECT_TRUE(c.rules.special_hands());
}

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
