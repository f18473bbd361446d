// The foot (002 L71, readings R116): the deal's feet, the `foot` event and
// its findings, going out only from the foot, and a foot left unpicked
// counted against the side; self-play with feet audits clean, and the fault
// injector's "foot picked up early" is caught at its line.
#include <gtest/gtest.h>

#include <fstream>
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

// The injected "foot picked up early" is caught at its line, and nothing else.
TEST(FootSelfPlay, FootPickedUpEarlyIsCaughtAtItsLine) {
  for (FootPickup pickup : {FootPickup::kAtOnce, FootPickup::kNextTurn}) {
    const RulesetChoice c = JaquesWithFeet(pickup);
    int injected = 0;
    for (int i = 0; i < 6; ++i) {
      std::optional<InjectedFault> fault =
          InjectFault(c, GameSeed(7100, i), FaultKind::kFootEarly, i % 3);
      if (!fault) continue;
      ++injected;
      EXPECT_EQ(fault->expected, CheckId::kFootPickup);
      std::istringstream in(fault->log);
      FileReport report = AuditStream(in, "injected", test::UnderRuleset(c));
      EXPECT_EQ(test::Problems(report), (test::FoundList{{fault->line, CheckId::kFootPickup}}))
          << test::Dump(report);
    }
    EXPECT_EQ(injected, 6);
  }
  // No foot, no opportunity.
  EXPECT_FALSE(InjectFault(Choice("classic"), GameSeed(7100, 0), FaultKind::kFootEarly));
}

TEST(FootSelfPlay, AtOnceGamesAuditClean) { SelfPlayAuditsClean(FootPickup::kAtOnce, 6); }
TEST(FootSelfPlay, NextTurnGamesAuditClean) { SelfPlayAuditsClean(FootPickup::kNextTurn, 6); }


// --- Scenarios: small hand-written logs under a two-player game with a foot
// of three cards (classic otherwise, no minimum, no canasta needed to go out).

RulesetChoice TwoWithFeet(FootPickup pickup, int foot_size = 3, int canastas = 0) {
  RulesetChoice c = Choice("classic");
  c.rules.num_players = 2;
  c.rules.hand_size = 4;
  c.rules.foot_size = foot_size;
  c.rules.foot_pickup = pickup;
  c.rules.canastas_to_go_out = canastas;
  c.rules.minimum_table = {{-1000000000, 0}};
  EXPECT_EQ(c.rules.Validate(), "");
  return c;
}

const char* const kHeader =
    R"({"type":"game","format":"canasta-log/1","ruleset":"classic","players":["Ann","Bob"]})";
const char* const kDeal =
    R"({"type":"deal","hand":1,"dealer":0,"hands":[["4S","5S","6S","7S"],["KS","KH","KD","KC"]],"feet":[["4H","4D","4C"],["QS","QH","QD"]],"upcard":["8C"]})";
const char* const kDraw1 = R"({"type":"draw","player":1,"cards":["9D"]})";
const char* const kMeldKings =
    R"({"type":"meld","player":1,"melds":[{"cards":["KS","KH","KD","KC"]}]})";
const char* const kDiscardLast = R"({"type":"discard","player":1,"card":"9D"})";
const char* const kFoot1 = R"({"type":"foot","player":1})";
const char* const kDraw0 = R"({"type":"draw","player":0,"cards":["8D"]})";
const char* const kDiscard0 = R"({"type":"discard","player":0,"card":"8D"})";
const char* const kDrawQueen = R"({"type":"draw","player":1,"cards":["QC"]})";
const char* const kMeldQueens =
    R"({"type":"meld","player":1,"melds":[{"cards":["QS","QH","QD","QC"]}]})";
// Seat 0: 4S 5S 6S 7S in hand (-20) and its foot 4H 4D 4C never picked up
// (-15); seat 1: kings and queens melded (80) and out (100).
const char* const kEnd = R"({"type":"end_hand","hand":1,"scores":[-35,180],"totals":[-35,180]})";

FileReport Replay(const std::vector<std::string>& lines, const RulesetChoice& c) {
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  std::istringstream in(text);
  return AuditStream(in, "test.jsonl", test::UnderRuleset(c));
}

std::vector<int> Scores(const FileReport& r) {
  if (r.games.empty() || r.games[0].hands.empty()) return {};
  return r.games[0].hands[0].scores;
}

// 002 L71, at once: the hand emptied by the discard (line 5), the foot picked
// up before the next turn (line 6), played, and out from it (line 10).
TEST(FootScenario, AtOnceEmptiedByDiscardThenOutFromTheFoot) {
  FileReport r = Replay({kHeader, kDeal, kDraw1, kMeldKings, kDiscardLast, kFoot1, kDraw0,
                         kDiscard0, kDrawQueen, kMeldQueens, kEnd},
                        TwoWithFeet(FootPickup::kAtOnce));
  EXPECT_CLEAN(r);
  EXPECT_EQ(Scores(r), (std::vector<int>{-35, 180})) << test::Dump(r);
  ASSERT_FALSE(r.games.empty());
  EXPECT_EQ(r.games[0].hands[0].went_out, 1);
}

// The same log with four canastas to go out: emptying the hand at line 5 is
// not going out (no finding there); going out at line 10 is.
TEST(FootScenario, EmptyingTheHandIsNotGoingOut) {
  FileReport r = Replay({kHeader, kDeal, kDraw1, kMeldKings, kDiscardLast, kFoot1, kDraw0,
                         kDiscard0, kDrawQueen, kMeldQueens},
                        TwoWithFeet(FootPickup::kAtOnce, 3, 4));
  EXPECT_PROBLEMS(r, {10, CheckId::kOutWithoutCanastas});
}

// The hand emptied by the last discard, and the deal ends there: no one went
// out, no going-out bonus, the foot is not picked up and counts against.
TEST(FootScenario, AnUnpickedFootCountsAgainstTheSide) {
  RulesetChoice c = TwoWithFeet(FootPickup::kAtOnce);
  FileReport r = Replay({kHeader, kDeal, kDraw1, kMeldKings, kDiscardLast}, c);
  EXPECT_NO_PROBLEMS(r);
  // Nobody is out: the deal is not over after line 5 (seat 0 plays on).
  FileReport on = Replay({kHeader, kDeal, kDraw1, kMeldKings, kDiscardLast, kFoot1, kDraw0}, c);
  EXPECT_NO_PROBLEMS(on);
}

TEST(FootScenario, PickedUpEarly) {
  FileReport r = Replay({kHeader, kDeal, kDraw1, kMeldKings, kFoot1},
                        TwoWithFeet(FootPickup::kAtOnce));
  EXPECT_PROBLEMS(r, {5, CheckId::kFootPickup});
  EXPECT_EQ(test::MessageOf(r, CheckId::kFootPickup),
            "seat 1 picks up the foot early: the hand still holds 1 card; the foot is picked up "
            "once the hand is exhausted");
}

TEST(FootScenario, PickedUpTwice) {
  FileReport r = Replay({kHeader, kDeal, kDraw1, kMeldKings, kDiscardLast, kFoot1, kFoot1},
                        TwoWithFeet(FootPickup::kAtOnce));
  EXPECT_PROBLEMS(r, {7, CheckId::kFootPickup});
  EXPECT_EQ(test::MessageOf(r, CheckId::kFootPickup),
            "seat 1 picks up the foot a second time; it was picked up already");
}

TEST(FootScenario, AtOncePickedUpLate) {
  FileReport r = Replay({kHeader, kDeal, kDraw1, kMeldKings, kDiscardLast, kDraw0, kFoot1},
                        TwoWithFeet(FootPickup::kAtOnce));
  EXPECT_PROBLEMS(r, {7, CheckId::kFootPickup});
}

TEST(FootScenario, PlaysOnWithoutPickingItUp) {
  FileReport r = Replay({kHeader, kDeal, kDraw1, kMeldKings, kDiscardLast, kDraw0, kDiscard0,
                         kDrawQueen, kMeldQueens},
                        TwoWithFeet(FootPickup::kAtOnce));
  // The draw at line 8 is the finding; the replay picks the foot up for it,
  // so the queens melded at line 9 are found (and go out).
  EXPECT_PROBLEMS(r, {8, CheckId::kFootMissed});
}

// next_turn: the foot comes at the start of the player's next turn, before
// the draw (line 8); right after the discard it is out of time.
TEST(FootScenario, NextTurnPickedUpBeforeTheDraw) {
  const RulesetChoice c = TwoWithFeet(FootPickup::kNextTurn);
  FileReport r = Replay({kHeader, kDeal, kDraw1, kMeldKings, kDiscardLast, kDraw0, kDiscard0,
                         kFoot1, kDrawQueen, kMeldQueens, kEnd},
                        c);
  EXPECT_CLEAN(r);
  EXPECT_EQ(Scores(r), (std::vector<int>{-35, 180})) << test::Dump(r);
  FileReport early = Replay({kHeader, kDeal, kDraw1, kMeldKings, kDiscardLast, kFoot1}, c);
  EXPECT_PROBLEMS(early, {6, CheckId::kFootPickup});
}

// At once, emptied by melding: the foot is picked up in the same turn and
// play goes on from it (the discard at line 6 is from the foot).
TEST(FootScenario, AtOnceEmptiedByMeldingPlaysOnFromTheFoot) {
  const char* const deal =
      R"({"type":"deal","hand":1,"dealer":0,"hands":[["4S","5S","6S","7S"],["KS","KH","KD","KC"]],"feet":[["4H","4D","4C"],["QS","QH","9S"]],"upcard":["8C"]})";
  const char* const meld_all =
      R"({"type":"meld","player":1,"melds":[{"cards":["KS","KH","KD","KC","JK"]}]})";
  const char* const draw_joker = R"({"type":"draw","player":1,"cards":["JK"]})";
  const char* const discard_nine = R"({"type":"discard","player":1,"card":"9S"})";
  const RulesetChoice c = TwoWithFeet(FootPickup::kAtOnce);
  FileReport r = Replay({kHeader, deal, draw_joker, meld_all, kFoot1, discard_nine, kDraw0}, c);
  EXPECT_NO_PROBLEMS(r);
  // Without the foot event the discard plays on from an empty hand.
  FileReport missed = Replay({kHeader, deal, draw_joker, meld_all, discard_nine}, c);
  EXPECT_PROBLEMS(missed, {5, CheckId::kFootMissed});
}

// next_turn: a hand emptied by melding ends the turn with no discard
// (readings R116); under at_once the turn goes on, so the next player's draw
// finds it ended without one.
TEST(FootScenario, NextTurnEmptiedByMeldingEndsTheTurn) {
  const char* const draw_joker = R"({"type":"draw","player":1,"cards":["JK"]})";
  const char* const meld_all =
      R"({"type":"meld","player":1,"melds":[{"cards":["KS","KH","KD","KC","JK"]}]})";
  const std::vector<std::string> lines = {kHeader, kDeal,     draw_joker, meld_all,
                                          kDraw0,  kDiscard0, kFoot1,     kDrawQueen};
  EXPECT_NO_PROBLEMS(Replay(lines, TwoWithFeet(FootPickup::kNextTurn)));
  EXPECT_PROBLEMS(Replay(lines, TwoWithFeet(FootPickup::kAtOnce)),
                  {5, CheckId::kDiscardMissing}, {7, CheckId::kFootPickup});
}

TEST(FootScenario, DealFeetChecked) {
  const RulesetChoice c = TwoWithFeet(FootPickup::kAtOnce);
  const char* const no_feet =
      R"({"type":"deal","hand":1,"dealer":0,"hands":[["4S","5S","6S","7S"],["KS","KH","KD","KC"]],"upcard":["8C"]})";
  const char* const short_foot =
      R"({"type":"deal","hand":1,"dealer":0,"hands":[["4S","5S","6S","7S"],["KS","KH","KD","KC"]],"feet":[["4H","4D","4C"],["QS","QH"]],"upcard":["8C"]})";
  const char* const one_foot =
      R"({"type":"deal","hand":1,"dealer":0,"hands":[["4S","5S","6S","7S"],["KS","KH","KD","KC"]],"feet":[["4H","4D","4C"]],"upcard":["8C"]})";
  EXPECT_NO_PROBLEMS(Replay({kHeader, kDeal}, c));
  EXPECT_PROBLEMS(Replay({kHeader, no_feet}, c), {2, CheckId::kDealFoot});
  FileReport s = Replay({kHeader, short_foot}, c);
  EXPECT_PROBLEMS(s, {2, CheckId::kDealFoot});
  EXPECT_EQ(test::MessageOf(s, CheckId::kDealFoot), "seat 1's foot has 2 cards, not 3");
  EXPECT_PROBLEMS(Replay({kHeader, one_foot}, c), {2, CheckId::kDealFoot});
  // A copy too many in seat 0's foot: the finding says where it is (000 §1).
  const char* const foot_copy =
      R"({"type":"deal","hand":1,"dealer":0,"hands":[["4S","5S","6S","7S"],["KS","KH","KD","KC"]],"feet":[["4H","4S","4S"],["QS","QH","QD"]],"upcard":["8C"]})";
  FileReport copies = Replay({kHeader, foot_copy}, c);
  EXPECT_PROBLEMS(copies, {2, CheckId::kDealPack});
  EXPECT_EQ(test::MessageOf(copies, CheckId::kDealPack),
            "the deal holds more copies of 4S than the pack has (2); one is in seat 0's foot");
  // Feet under a ruleset without a foot, and a foot event there.
  RulesetChoice none = TwoWithFeet(FootPickup::kAtOnce, 0);
  EXPECT_PROBLEMS(Replay({kHeader, kDeal}, none), {2, CheckId::kDealFoot});
  FileReport event = Replay({kHeader, no_feet, kDraw1, kFoot1}, none);
  EXPECT_PROBLEMS(event, {4, CheckId::kFootPickup});
}

// hand-and-foot with every open value supplied, the foot among them, runs
// (readings R52, R116); its self-play audits clean.
TEST(FootRules, HandAndFootRunsOnceTheValuesAreSupplied) {
  std::variant<Ruleset, LuaError> loaded =
      LoadRuleset(CANASTA_SOURCE_DIR "/tests/rulesets/hand-and-foot-supplied.lua");
  ASSERT_TRUE(std::holds_alternative<Ruleset>(loaded)) << std::get<LuaError>(loaded).ToString();
  const RulesetChoice c = std::get<Ruleset>(loaded).Choose();
  EXPECT_EQ(c.rules.foot_size, 11);
  EXPECT_EQ(c.rules.foot_pickup, FootPickup::kNextTurn);
  std::stringstream log;
  SimulateGame(c, GameSeed(52, 1), SimulateOptions(), log);
  FileReport report = AuditStream(log, "hf", test::UnderRuleset(c));
  EXPECT_TRUE(test::AllFindings(report).empty()) << test::Dump(report);
  // Without foot_size it still refuses, naming it.
  const std::string partial = ::testing::TempDir() + "partial-hand-and-foot.lua";
  std::ofstream(partial) << R"(return { extends = "hand-and-foot", base = "jaques",
  params = { decks = 5, jokers = 10, hand_size = 11, stock_draw = 2,
             canastas_to_go_out = 4, target_score = 8500 } })";
  std::variant<Ruleset, LuaError> refused = LoadRuleset(partial);
  ASSERT_TRUE(std::holds_alternative<LuaError>(refused));
  EXPECT_NE(std::get<LuaError>(refused).message.find("  foot_size:"), std::string::npos)
      << std::get<LuaError>(refused).message;
}

TEST(FootRules, ThePackMustHoldEveryHandAndFoot) {
  Rules r;
  r.foot_size = 11;  // 4 x (11 + 11) + 1 = 89 of 108: fits
  EXPECT_EQ(r.Validate(), "");
  r.foot_size = 16;  // 4 x 27 + 1 = 109
  EXPECT_EQ(r.Validate(),
            "the deal (num_players x (hand_size + foot_size) + upcards = 4 x (11 + 16) + 1 = 109 "
            "cards) does not fit in the pack (decks x 52 + jokers = 108 cards, and the stock "
            "needs one)");
}

}  // namespace
}  // namespace canasta
