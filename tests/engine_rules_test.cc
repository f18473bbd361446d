// Scenario tests of engine rules read where the seeds leave a gap (issue 7,
// "Scores"): real canasta-log/1 logs replayed under classic, with the exact
// findings and breakdowns, each rule in both directions.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/card.h"
#include "core/violation.h"
#include "replay/auditor.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

using test::Audit;
using test::DealSpec;
using test::Log;

const ScoreBreakdown& Side(const FileReport& r, int side) {
  return test::OnlyGame(r).hands.at(0).breakdown.at(side);
}

// ===========================================================================
// readings R107: a red three in the hand of a player who never had a turn is
// a card in hand (000 §3 values, §9 cards left in hand); the 500 penalty
// needs one turn played (000 §7).

// Seat 1 opens with K x7 and Q x4 and goes out at once (discarding 9D) in its
// first turn, or (`later`) first passes a turn so that seats 2, 3 and 0 play
// one turn each. Seat 0, the dealer, was dealt 3H and never lays it out.
struct ThreeInHand {
  Log log;
  int seat0_discard = 0;
  int end = 0;
};
ThreeInHand DealerKeepsARedThree(bool later) {
  ThreeInHand t;
  DealSpec d;
  d.hands = {{"3H"}, {"KS", "KS", "KH", "KH", "KD", "KD", "KC", "QS", "QS", "QH", "QH"}};
  d.stock = {"9D", "TS", "TH", "TD", "TC"};
  if (later) d.stock = {"TS", "TH", "TD", "TC", "9D"};
  t.log.Deal(d);
  if (later) {
    t.log.PassTurns(3);  // seats 1, 2, 3
    t.seat0_discard = t.log.PassTurn();
  }
  t.log.Draw(1);  // 9D
  t.log.Meld(1, {{"KS", "KS", "KH", "KH", "KD", "KD", "KC"}, {"QS", "QS", "QH", "QH"}});
  t.log.Discard(1, "9D");
  t.end = t.log.EndHand(1);
  return t;
}

TEST(EngineRules, R107_RedThreeOfAPlayerWithoutATurnCountsAsACardInHand) {
  ThreeInHand t = DealerKeepsARedThree(false);
  FileReport r = Audit(t.log.str());
  EXPECT_CLEAN(r);  // no penalty: seat 0 never played a turn
  // Seats 0 and 2 hold their dealt cards; the 3H counts 100 against side 0.
  int in_hand = 0;
  for (int seat : {0, 2}) in_hand += test::PointValue(test::Cs(t.log.dealt(seat)));
  EXPECT_EQ(Side(r, 0).in_hand, -in_hand) << test::Dump(r);
  EXPECT_EQ(Side(r, 0).red_threes, 0);
  EXPECT_EQ(Side(r, 0).penalties, 0);
  EXPECT_EQ(Side(r, 0).total(), -in_hand);
  EXPECT_EQ(Side(r, 1).total(), 500 + 100 + 110 - test::PointValue(test::Cs(t.log.dealt(3))));
}

TEST(EngineRules, R107_RedThreeOfAPlayerWhoHadATurnIsPenalisedNotCounted) {
  ThreeInHand t = DealerKeepsARedThree(true);
  FileReport r = Audit(t.log.str());
  EXPECT_PROBLEMS(r, {t.seat0_discard, CheckId::kThreeTiming},
                  {t.end, CheckId::kRedThreeUndeclared});
  // The 500 deals with the 3H (readings R20); it is not counted in hand too.
  const int in_hand = t.log.SideHandValue(0) - 100;
  EXPECT_EQ(Side(r, 0).in_hand, -in_hand) << test::Dump(r);
  EXPECT_EQ(Side(r, 0).penalties, -500);
  EXPECT_EQ(Side(r, 0).total(), -in_hand - 500);
}

// ===========================================================================
// readings R108: cards taken back (000 §10) are cards from the hand again;
// melded again in the same turn they count toward the initial-meld minimum.
// Cards from the pile stay cards from the pile (000 §13).
//
// Seat 1 discards 4C; seats 2, 3 and 0 discard 4S, 4H and 9S. Seat 1 takes
// 9S with 9H 9D (30, the top card counting: readings R3), so 8C 4C 4S 4H join
// its hand; it melds 4S 4H 4D (only 4D is from the hand: 35 < 50), takes the
// three back (a partial retraction: 100, 000 §10) and melds `again`.
struct Reopen {
  Log log;
  int meld_again = 0;
  int discard = 0;
};
Reopen RetractAndMeldAgain(const std::vector<std::vector<std::string>>& again) {
  Reopen o;
  DealSpec d;
  d.hands = {
      {"9S"}, {"4C", "4D", "9H", "9D", "5S", "5H", "5D", "JS", "JH", "QS", "QH"}, {"4S"}, {"4H"}};
  d.stock = {"TS", "TH", "TD", "TC", "KS"};
  o.log.Deal(d);
  o.log.Draw(1);
  o.log.Discard(1, "4C");
  o.log.Draw(2);
  o.log.Discard(2, "4S");
  o.log.Draw(3);
  o.log.Discard(3, "4H");
  o.log.Draw(0);
  o.log.Discard(0, "9S");
  o.log.Take(1, "9S", {"9H", "9D"});
  o.log.Meld(1, {{"4S", "4H", "4D"}});
  o.log.Retract(1, {"4S", "4H", "4D"});
  o.meld_again = o.log.Meld(1, again);
  o.discard = o.log.Discard(1, "TS");
  return o;
}

TEST(EngineRules, R108_RetractedHandCardsCountAgain) {
  // 30 + 4D (5) + 5S 5H 5D (15) = 50: the opening is legal. Before, the 4D
  // taken back no longer counted: "counts 45; the side needs 50".
  Reopen o = RetractAndMeldAgain({{"4S", "4H", "4D"}, {"5S", "5H", "5D"}});
  FileReport r = Audit(o.log.str());
  EXPECT_CLEAN(r);
  EXPECT_EQ(Side(r, 1).penalties, -100) << "the partial retraction (000 §10)";
}

TEST(EngineRules, R108_RetractedPileCardsStillDoNotCount) {
  // 30 + 4D (5) only: 4S 4H 4C came with the pile, taking them back does not
  // make them count (they would make 50).
  Reopen o = RetractAndMeldAgain({{"4S", "4H", "4D", "4C"}});
  FileReport r = Audit(o.log.str());
  EXPECT_PROBLEMS(r, {o.meld_again, CheckId::kInitialMeldMinimum});
  EXPECT_EQ(test::MessageOf(r, CheckId::kInitialMeldMinimum),
            "the initial meld counts 35; the side needs 50");
}

}  // namespace
}  // namespace canasta
