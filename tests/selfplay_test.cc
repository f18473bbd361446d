// Self-play and fault injection under every runnable built-in ruleset: bots
// play legal games that audit with zero findings, and every injected mistake
// is caught at its line.
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "lint/checks.h"
#include "replay/auditor.h"
#include "replay/inject.h"
#include "replay/simulate.h"
#include "scripting/ruleset.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

const char* const kRulesets[] = {"classic",  "hutto",             "two-handed",
                                 "three-handed", "jaques",        "jaques-two-handed",
                                 "jaques-three-handed", "tutorial"};

RulesetChoice Choice(const std::string& name) {
  std::variant<Ruleset, LuaError> r = LoadRuleset(name);
  if (auto* e = std::get_if<LuaError>(&r)) ADD_FAILURE() << e->ToString();
  return std::get<Ruleset>(r).Choose();
}



class SelfPlay : public ::testing::TestWithParam<const char*> {};

TEST_P(SelfPlay, TwoHundredGamesAuditClean) {
  const RulesetChoice c = Choice(GetParam());
  const AuditOptions options = test::UnderRuleset(c);
  int finished = 0;
  for (int i = 0; i < 200; ++i) {
    SimulateOptions so;
    // Half the games between sensible bots, half with random ones at the table.
    so.bots = i % 2 ? std::vector<std::string>{"random", "sensible"}
                    : std::vector<std::string>{"sensible"};
    std::stringstream log;
    SimulateStats stats = SimulateGame(c, GameSeed(2026, i), so, log);
    finished += stats.finished;
    FileReport report = AuditStream(log, "selfplay", options);
    std::vector<Finding> findings = test::AllFindings(report);
    ASSERT_TRUE(findings.empty()) << GetParam() << " game " << i << ": line "
                                  << findings[0].line << ": " << findings[0].message << " ["
                                  << GetCheck(findings[0].id).name << "]";
    ASSERT_EQ(report.games.size(), 1u);
    EXPECT_TRUE(report.games[0].finished);
  }
  EXPECT_EQ(finished, 200) << "every game reaches the target score";
}

TEST_P(SelfPlay, SameSeedSameBytes) {
  const RulesetChoice c = Choice(GetParam());
  std::ostringstream a, b, other;
  SimulateGame(c, 77, SimulateOptions(), a);
  SimulateGame(c, 77, SimulateOptions(), b);
  SimulateGame(c, 78, SimulateOptions(), other);
  EXPECT_EQ(a.str(), b.str());
  EXPECT_NE(a.str(), other.str());
}

INSTANTIATE_TEST_SUITE_P(Rulesets, SelfPlay, ::testing::ValuesIn(kRulesets),
                         [](const auto& param_info) {
                           std::string n = param_info.param;
                           for (char& ch : n)
                             if (ch == '-') ch = '_';
                           return n;
                         });

// 12 kinds x 12 games x 8 rulesets: up to 1,152 injected mistakes; every one
// must be reported with the expected check at the injected line, and no
// other finding may appear (issue 8: a test that cannot fail).
class FaultInjection : public ::testing::TestWithParam<const char*> {};

TEST_P(FaultInjection, EveryInjectedMistakeIsCaughtAtItsLine) {
  const RulesetChoice c = Choice(GetParam());
  const AuditOptions options = test::UnderRuleset(c);
  int injected = 0, caught = 0, kinds = 0;
  std::map<std::string, int> missed;
  for (int k = 0; k < int(FaultKind::kCount); ++k) {
    // Sequence mistakes exist only where the ruleset has sequences (002 L67).
    const bool sequence_kind = k >= int(FaultKind::kSequenceGap) &&
                               k <= int(FaultKind::kSequenceTooManyWilds);
    if (sequence_kind && !c.rules.sequence_melds) continue;
    ++kinds;
    for (int i = 0; i < 12; ++i) {
      std::optional<InjectedFault> fault =
          InjectFault(c, GameSeed(31337 + k, i), FaultKind(k), /*skip=*/i % 3);
      if (!fault) continue;
      ++injected;
      std::istringstream in(fault->log);
      FileReport report = AuditStream(in, "injected", options);
      // The expected finding, at its line, and nothing else: one mistake is
      // one finding. A file cut short also stops in the middle of the game.
      bool hit = false;
      std::string others;
      for (const Finding& f : test::AllFindings(report)) {
        if (f.line == fault->line && f.id == fault->expected && !hit) {
          hit = true;
        } else if (!(FaultKind(k) == FaultKind::kTruncatedFile &&
                     f.id == CheckId::kLogIncomplete)) {
          others += " line " + std::to_string(f.line) + ": " + f.message + " [" +
                    GetCheck(f.id).name + "];";
        }
      }
      EXPECT_EQ(others, "") << GetParam() << " " << FaultName(FaultKind(k)) << " seed "
                            << GameSeed(31337 + k, i) << " at line " << fault->line;
      if (hit) ++caught;
      else ++missed[FaultName(FaultKind(k))];
    }
  }
  std::ostringstream why;
  for (const auto& [name, n] : missed) why << name << " missed " << n << "; ";
  RecordProperty("injected", injected);
  RecordProperty("caught", caught);
  std::printf("[ %s ] injected %d mistakes, caught %d (%.1f%%)\n", GetParam(), injected, caught,
              injected ? 100.0 * caught / injected : 0.0);
  // Some rulesets rarely offer a kind of mistake (four wild cards in one
  // hand for the tutorial's wild limit): most must still be injected.
  EXPECT_GE(injected, 12 * kinds * 3 / 4) << "opportunities were found";
  EXPECT_EQ(caught, injected) << why.str();
}

INSTANTIATE_TEST_SUITE_P(Rulesets, FaultInjection, ::testing::ValuesIn(kRulesets),
                         [](const auto& param_info) {
                           std::string n = param_info.param;
                           for (char& ch : n)
                             if (ch == '-') ch = '_';
                           return n;
                         });

}  // namespace
}  // namespace canasta
