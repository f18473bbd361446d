// The worked examples of the seeds (their own examples and the cases derived from them) that apply to the
// classic ruleset, one test per case, named after it. Most are replayed logs
// (tests/test_util.h) asserting the exact findings and the computed scores.
//
// Seats: You = 0, West = 1, North = 2, East = 3 where a case names them;
// sides {0, 2} and {1, 3}. Dealer 0 (seat 1 begins) unless said otherwise.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/game.h"
#include "core/hooks.h"
#include "core/meld.h"
#include "core/rules.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

using test::Audit;
using test::C;
using test::Cs;
using test::DealSpec;
using test::Log;
using test::M;

const HandReport& Hand(const FileReport& r, size_t i = 0) {
  return test::OnlyGame(r).hands.at(i);
}

// Seat 1 goes out in its first turn: K x7 (a natural canasta) and Q x4, the
// drawn 9D discarded. `seat1` may add red threes to lay out first (their
// replacements are the first stock cards, `replacements`).
int QuickOut(Log& log, DealSpec d, const std::vector<std::string>& threes = {},
             const std::vector<std::string>& replacements = {}) {
  d.hands.resize(4);
  std::vector<std::string> seat1 = threes;
  std::vector<std::string> base = {"KS", "KS", "KH", "KH", "KD", "KD", "KC",
                                   "QS", "QS", "QH", "QH"};
  // The replacements stand in for the queens the threes displaced.
  for (size_t i = 0; i < base.size() - replacements.size(); ++i) seat1.push_back(base[i]);
  d.hands[1] = seat1;
  d.stock = replacements;
  d.stock.push_back("9D");
  log.Deal(d);
  for (const std::string& t : threes) log.Three(1, t);
  log.Draw(1);
  log.Meld(1, {{"KS", "KS", "KH", "KH", "KD", "KD", "KC"}, {"QS", "QS", "QH", "QH"}});
  return log.Discard(1, "9D");
}

// ===========================================================================
// 3.1 tutorial cases that carry over to classic

// TC-T11 (004 L35-42), replayed under classic: the end position of the
// tutorial hand. Side 0 (You and North): natural canasta of 7s, mixed
// canasta K x5 + 2H + JK, 9-9-2C-JK, Q-Q-Q, one red three, You went out,
// North holds 8S and 4S. 1,260. Under classic the 9s meld is illegal
// (TC-T09): it is reported, and scored as it lies.
TEST(WorkedExamples, TC_T11_HandScore1260) {
  Log log;
  DealSpec d;
  d.dealer = 3;  // You (seat 0) begin
  d.upcard = {"2C", "7C"};
  d.hands = {{"3H", "7S", "7H", "KS", "KH", "KD", "9S", "9H", "QS", "QD", "TS"},
             {},
             {"7S", "7H", "7D", "7D", "KC", "KC", "2H", "JK", "JK", "8S", "4S"},
             {}};
  d.stock = {"6C", "AS", "AH", "AD", "QH"};
  log.Deal(d);
  log.Three(0, "3H");                // replacement 6C
  log.Take(0, "7C", {"7S", "7H"});   // the frozen pile, with a natural pair; 2C joins the hand
  log.Meld(0, {{"KS", "KH", "KD"}, {"9S", "9H", "2C"}});
  log.Discard(0, "6C");
  log.PassTurn();  // West
  log.Draw(2);     // North: AH
  log.MeldEvent(2, {M{{"7S", "7H", "7D", "7D"}, "7", ""}, M{{"KC", "KC", "2H", "JK"}, "K", ""}});
  const int joker_on_nines = log.Add(2, "9", {"JK"});
  log.Discard(2, "AH");
  log.PassTurn();  // East
  log.Draw(0);     // QH
  log.AskOut(0);
  log.Answer(2, true);
  log.Meld(0, {{"QS", "QD", "QH"}});
  log.Discard(0, "TS");  // out
  const int other = -log.SideHandValue(1);
  log.EndHand(1, "\"scores\":[1260," + std::to_string(other) +
                     "],\"breakdown\":[{\"canastas\":800,\"red_threes\":100,\"going_out\":100,"
                     "\"melded\":275,\"in_hand\":-15},{}]");
  FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {joker_on_nines, CheckId::kMeldTooManyWilds});
  const ScoreBreakdown& b = Hand(r).breakdown[0];
  EXPECT_EQ(b.canastas, 800);
  EXPECT_EQ(b.red_threes, 100);
  EXPECT_EQ(b.going_out, 100);
  EXPECT_EQ(b.melded, 275);  // 35 + 120 + 90 + 30
  EXPECT_EQ(b.in_hand, -15);
  EXPECT_EQ(b.penalties, 0);
  EXPECT_EQ(b.total(), 1260);
  EXPECT_EQ(Hand(r).went_out, 0);
}

// TC-T12 (004 L44-47) and TC-C02 (000 §8): the minimum table, with the
// reachable 1,495 and 2,995 inside their bands.
TEST(WorkedExamples, TC_T12_TC_C02_MinimumCountTable) {
  const Rules r;
  EXPECT_EQ(r.MinimumFor(-5), 15);
  EXPECT_EQ(r.MinimumFor(-1000), 15);
  EXPECT_EQ(r.MinimumFor(0), 50);
  EXPECT_EQ(r.MinimumFor(1495), 50);
  EXPECT_EQ(r.MinimumFor(1500), 90);
  EXPECT_EQ(r.MinimumFor(2995), 90);
  EXPECT_EQ(r.MinimumFor(3000), 120);
  EXPECT_EQ(r.MinimumFor(8000), 120);
}

// TC-C02 replayed: after a hand that leaves side 0 below zero, 4-4-4 (15)
// opens for it; at a total of 0 it is short.
TEST(WorkedExamples, TC_C02_MinimumFollowsTheTotals) {
  DealSpec second;
  second.hand = 2;
  second.dealer = 1;  // seat 2 (side 0) begins
  second.hands = {{}, {}, {"4S", "4H", "4D"}};
  {
    Log log;
    QuickOut(log, DealSpec{});
    log.EndHand(1);
    log.Deal(second);
    log.Draw(2);
    log.Meld(2, {{"4S", "4H", "4D"}});
    log.Discard(2, ToString(log.hand_cards(2).back()));
    FileReport r = Audit(log.str());
    EXPECT_CLEAN(r);
    ASSERT_LT(test::OnlyGame(r).hands.at(0).totals[0], 0);
  }
  {
    Log log;
    DealSpec first = second;
    first.hand = 1;
    log.Deal(first);
    log.Draw(2);
    const int meld = log.Meld(2, {{"4S", "4H", "4D"}});
    log.Discard(2, ToString(log.hand_cards(2).back()));
    EXPECT_PROBLEMS(Audit(log.str()), {meld, CheckId::kInitialMeldMinimum});
  }
}

// ===========================================================================
// 3.2 classic

// TC-C01: JK, 2S, AH, KC, 9D, 8S, 7H, 4C, 3S left in hand count -135.
TEST(WorkedExamples, TC_C01_CardValues) {
  const Rules r;
  const std::vector<Card> hand = test::Cs({"JK", "2S", "AH", "KC", "9D", "8S", "7H", "4C", "3S"});
  int sum = 0;
  for (Card c : hand) sum += r.value(c);
  EXPECT_EQ(sum, 135);
  EXPECT_EQ(r.value(C("JK")), 50);
  EXPECT_EQ(r.value(C("2D")), 20);
  EXPECT_EQ(r.value(C("AS")), 20);
  for (const char* ten : {"KH", "QD", "JC", "TS", "9H", "8D"}) EXPECT_EQ(r.value(C(ten)), 10) << ten;
  for (const char* five : {"7S", "6H", "5D", "4C", "3S", "3C"}) EXPECT_EQ(r.value(C(five)), 5) << five;
  EXPECT_EQ(r.value(C("3H")), 100);

  // Replayed: seat 0 keeps those nine cards and 4S, 4H (10); North keeps
  // eleven fives and sixes (55). Side 0 loses 135 + 10 + 55 = 200.
  Log log;
  DealSpec d;
  d.hands = {{"JK", "2S", "AH", "KC", "9D", "8S", "7H", "4C", "3S", "4S", "4H"},
             {},
             {"5S", "5S", "5H", "5H", "5D", "5D", "5C", "5C", "6S", "6S", "6H"}};
  QuickOut(log, d);
  log.EndHand(1, "\"breakdown\":[{\"in_hand\":-200,\"melded\":0},{\"canastas\":500}]");
  FileReport r2 = Audit(log.str());
  EXPECT_CLEAN(r2);
  EXPECT_EQ(Hand(r2).breakdown[0].in_hand, -200);
  EXPECT_EQ(Hand(r2).scores[0], -200);
}

// TC-C03: red threes. (a) melded side, one: +100. (b) all four: 800, not
// 400 + 800. (c) a side with no meld, two: -200. (d) no meld, all four: -800.
TEST(WorkedExamples, TC_C03_RedThrees) {
  {
    Log log;
    QuickOut(log, DealSpec{}, {"3H"}, {"QH"});
    log.EndHand(1);
    FileReport r = Audit(log.str());
    EXPECT_CLEAN(r);
    EXPECT_EQ(Hand(r).breakdown[1].red_threes, 100);
  }
  {
    Log log;
    QuickOut(log, DealSpec{}, {"3H", "3H", "3D", "3D"}, {"QS", "QS", "QH", "QH"});
    log.EndHand(1);
    FileReport r = Audit(log.str());
    EXPECT_CLEAN(r);
    EXPECT_EQ(Hand(r).breakdown[1].red_threes, 800);
    EXPECT_EQ(Hand(r).breakdown[0].red_threes, 0);
  }
  // Side 0 lays out red threes but never melds; seat 1 goes out in its
  // second turn.
  auto unmelded = [](const std::vector<std::string>& seat2, const std::vector<std::string>& seat0) {
    Log log;
    DealSpec d;
    d.hands = {seat0, {"KS", "KS", "KH", "KH", "KD", "KD", "KC", "QS", "QH", "QD", "JS"}, seat2};
    // Seat 1's first draw, the replacements and three ordinary draws, then QC.
    const std::vector<std::string> nines = {"9S", "9H", "9D", "9C", "9S", "9H", "9D", "9C"};
    d.stock = {"JH"};
    d.stock.insert(d.stock.end(), nines.begin(), nines.begin() + long(seat2.size() + seat0.size() + 3));
    d.stock.push_back("QC");
    log.Deal(d);
    log.Draw(1);  // JH
    log.Meld(1, {{"KS", "KS", "KH", "KH", "KD", "KD", "KC"}, {"QS", "QH", "QD"}});
    log.Discard(1, "JH");
    for (const std::string& t : seat2) log.Three(2, t);
    log.PassTurn();  // seat 2
    log.PassTurn();  // seat 3
    for (const std::string& t : seat0) log.Three(0, t);
    log.PassTurn();  // seat 0
    log.Draw(1);     // QC
    log.Add(1, "Q", {"QC"});
    log.Discard(1, "JS");
    log.EndHand(1);
    return log;
  };
  {
    FileReport r = Audit(unmelded({"3H", "3D"}, {}).str());
    EXPECT_CLEAN(r);
    EXPECT_EQ(Hand(r).breakdown[0].red_threes, -200);
    EXPECT_EQ(Hand(r).breakdown[0].melded, 0);
  }
  {
    FileReport r = Audit(unmelded({"3H", "3D"}, {"3H", "3D"}).str());
    EXPECT_CLEAN(r);
    EXPECT_EQ(Hand(r).breakdown[0].red_threes, -800);
    EXPECT_EQ(Hand(r).breakdown[1].red_threes, 0);
  }
}

// TC-C04: a red three still held when play ends costs 500 if its holder has
// played a turn, nothing otherwise.
TEST(WorkedExamples, TC_C04_UndeclaredRedThree) {
  int first_discard = 0;
  auto hand = [&first_discard](int holder) {
    Log log;
    DealSpec d;
    d.hands = {{}, {"KS", "KS", "KH", "KH", "KD", "KD", "KC", "QS", "QH", "QD", "JS"}, {}, {}};
    d.hands[holder] = {"3H"};
    d.stock = {"JH", "9D", "9H", "9S", "QC"};
    log.Deal(d);
    log.Draw(1);
    log.Meld(1, {{"KS", "KS", "KH", "KH", "KD", "KD", "KC"}, {"QS", "QH", "QD"}});
    first_discard = log.Discard(1, "JH");
    log.PassTurns(3);
    log.Draw(1);
    log.Add(1, "Q", {"QC"});
    log.Discard(1, "JS");
    return log;
  };
  {
    Log log = hand(2);  // North played a turn holding it
    const int end = log.EndHand(1);
    FileReport r = Audit(log.str());
    // North's turn ended holding it (a warning there), and play ended with it.
    EXPECT_PROBLEMS(r, {first_discard + 2, CheckId::kThreeTiming},
                    {end, CheckId::kRedThreeUndeclared});
    EXPECT_EQ(Hand(r).breakdown[0].penalties, -500);
    EXPECT_EQ(Hand(r).breakdown[0].red_threes, 0);
    // The red three is scored once, by the penalty; it is not also counted
    // among the cards left in hand (readings R8, R20).
    std::vector<Card> held = log.hand_cards(0);
    for (Card c : log.hand_cards(2))
      if (!c.is_red_three()) held.push_back(c);
    EXPECT_EQ(Hand(r).breakdown[0].in_hand, -test::PointValue(held));
  }
  {
    // A red three held by a player who never had a turn (the dealer, when
    // West goes out in the first turn): no penalty.
    Log log;
    DealSpec d;
    d.hands = {{}, {"KS", "KS", "KH", "KH", "KD", "KD", "KC", "QS", "QS", "QH", "QH"}};
    d.hands[0] = {"3H"};  // the dealer: never had a turn
    QuickOut(log, d);
    log.EndHand(1);
    FileReport r = Audit(log.str());
    EXPECT_CLEAN(r);
    EXPECT_EQ(Hand(r).breakdown[0].penalties, 0);
  }
}

// TC-C05: K-K-K + 5-5-5 = 45 < 50.
TEST(WorkedExamples, TC_C05_InsufficientInitialMeld) {
  // (a) 7-7-7 added in the same turn: 60, legal, no penalty.
  {
    Log log;
    DealSpec d;
    d.hands = {{}, {"KS", "KH", "KD", "5S", "5H", "5D", "7S", "7H", "7D"}};
    log.Deal(d);
    log.Draw(1);
    log.Meld(1, {{"KS", "KH", "KD"}, {"5S", "5H", "5D"}});
    log.Meld(1, {{"7S", "7H", "7D"}});
    log.Discard(1, ToString(log.hand_cards(1).front()));
    FileReport r = Audit(log.str());
    EXPECT_CLEAN(r);
    EXPECT_EQ(Hand(r).breakdown[1].penalties, 0);
  }
  // (b) Everything retracted: no points lost, but the side's minimum is 60
  // for the rest of the deal: East (West's partner) then opens with 55 (short)
  // or 60.
  auto retract_all = [](const std::vector<std::vector<std::string>>& east_melds) {
    Log log;
    DealSpec d;
    d.hands = {{},
               {"KS", "KH", "KD", "5S", "5H", "5D"},
               {},
               {"8S", "8H", "8D", "6S", "6H", "6D", "6C", "6S", "9S", "9H", "9D"}};
    d.stock = {"AS", "AH", "AD"};
    log.Deal(d);
    log.Draw(1);
    log.Meld(1, {{"KS", "KH", "KD"}, {"5S", "5H", "5D"}});
    const int retract = log.Retract(1, {"KS", "KH", "KD", "5S", "5H", "5D"});
    log.Discard(1, "AS");
    log.PassTurn();  // seat 2
    log.Draw(3);
    const int meld = log.Meld(3, east_melds);
    log.Discard(3, "AD");
    return std::make_tuple(log, retract, meld);
  };
  {
    auto [log, retract, meld] = retract_all({{"8S", "8H", "8D"}, {"6S", "6H", "6D", "6C", "6S"}});
    (void)retract;
    FileReport r = Audit(log.str());  // 30 + 25 = 55 < 60
    EXPECT_PROBLEMS(r, {meld, CheckId::kInitialMeldMinimum});
    EXPECT_NE(test::MessageOf(r, CheckId::kInitialMeldMinimum).find("needs 60"), std::string::npos)
        << test::Dump(r);
    EXPECT_EQ(Hand(r).breakdown[1].penalties, 0);
  }
  {
    auto [log, retract, meld] = retract_all({{"8S", "8H", "8D"}, {"9S", "9H", "9D"}});  // 60
    (void)retract;
    (void)meld;
    FileReport r = Audit(log.str());
    EXPECT_CLEAN(r);
    EXPECT_EQ(Hand(r).breakdown[1].penalties, 0);
  }
  // (c) Only the 5s retracted: -100; Q-Q-Q then makes the count 60.
  {
    Log log;
    DealSpec d;
    d.hands = {{}, {"KS", "KH", "KD", "5S", "5H", "5D", "QS", "QH", "QD"}};
    log.Deal(d);
    log.Draw(1);
    log.Meld(1, {{"KS", "KH", "KD"}, {"5S", "5H", "5D"}});
    log.Retract(1, {"5S", "5H", "5D"});
    log.Meld(1, {{"QS", "QH", "QD"}});
    log.Discard(1, "5S");
    FileReport r = Audit(log.str());
    EXPECT_CLEAN(r);
    EXPECT_EQ(Hand(r).breakdown[1].penalties, -100);
    EXPECT_EQ(Hand(r).breakdown[1].melded, 60);
  }
}

// TC-C06: K-K-2-JK is illegal; retracted, the side loses 100.
TEST(WorkedExamples, TC_C06_IllegalMeldRetracted) {
  Log log;
  DealSpec d;
  d.hands = {{}, {"KS", "KH", "KD", "QS", "QH", "QD"}, {}, {"JS", "JH", "2C", "JK"}};
  d.stock = {"AC", "AD", "AH"};
  log.Deal(d);
  log.Draw(1);
  log.Meld(1, {{"KS", "KH", "KD"}, {"QS", "QH", "QD"}});
  log.Discard(1, "AC");
  log.PassTurn();
  log.Draw(3);
  const int meld = log.Meld(3, {{"JS", "JH", "2C", "JK"}});
  log.Retract(3, {"JS", "JH", "2C", "JK"});
  log.Discard(3, "AH");
  FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {meld, CheckId::kMeldTooManyWilds});
  EXPECT_EQ(Hand(r).breakdown[1].penalties, -100);
  EXPECT_EQ(Hand(r).breakdown[1].melded, 60);  // the jacks are back in the hand
}

// TC-C07: canasta bonuses. East lays J x4 + 2S 2H JK (four naturals, three
// wilds: 300) and 5-5-5; West completes the 5s naturally, then adds 2C (a
// natural canasta that gets a wild: 300), lays K x6 and goes out.
TEST(WorkedExamples, TC_C07_CanastaBonuses) {
  Log log;
  DealSpec d;
  d.dealer = 2;  // East begins
  d.hands = {{},
             {"KS", "KS", "KH", "KH", "KD", "KD", "5H", "5D", "5D", "2C", "9D"},
             {},
             {"JS", "JH", "JD", "JC", "2S", "2H", "JK", "5S", "5S", "5H", "KC"}};
  d.stock = {"9H", "AS", "5C"};
  log.Deal(d);
  log.Draw(3);
  log.Meld(3, {{"JS", "JH", "JD", "JC", "2S", "2H", "JK"}, {"5S", "5S", "5H"}});
  log.Discard(3, "9H");
  log.PassTurn();  // seat 0
  log.Draw(1);     // 5C
  log.Add(1, "5", {"5H", "5D", "5D", "5C"});
  log.Add(1, "5", {"2C"});
  log.Meld(1, {{"KS", "KS", "KH", "KH", "KD", "KD"}});
  log.Discard(1, "9D");  // out
  log.EndHand(1);
  FileReport r = Audit(log.str());
  EXPECT_CLEAN(r);
  const ScoreBreakdown& b = Hand(r).breakdown[1];
  EXPECT_EQ(b.canastas, 600);
  EXPECT_EQ(b.melded, 130 + 55 + 60);
  EXPECT_EQ(b.going_out, 100);
  EXPECT_EQ(b.in_hand, -10);  // East's KC
  EXPECT_EQ(b.total(), 935);
}

// TC-C07 / TC-C12 (a) / TC-X04: a natural canasta of eight kings is 500
// (nothing more for the eighth card); West melds every card and goes out
// without a discard.
TEST(WorkedExamples, TC_C12a_OutByMeldingEveryCard) {
  Log log;
  DealSpec d;
  d.hands = {{}, {"KS", "KS", "KH", "KH", "KD", "KD", "KC", "9S", "9H", "9D", "9C"}};
  d.stock = {"JH", "AS", "AH", "AD", "KC"};
  log.Deal(d);
  log.Draw(1);  // JH
  log.Meld(1, {{"KS", "KS", "KH", "KH", "KD", "KD", "KC"}, {"9S", "9H", "9D"}});
  log.Discard(1, "JH");  // 9C is left
  log.PassTurns(3);
  log.Draw(1);  // KC
  log.MeldEvent(1, {M{{"KC"}, "K", ""}, M{{"9C"}, "9", ""}});  // no discard
  log.EndHand(1);
  FileReport r = Audit(log.str());
  EXPECT_CLEAN(r);
  const ScoreBreakdown& b = Hand(r).breakdown[1];
  EXPECT_EQ(Hand(r).went_out, 1);
  EXPECT_EQ(b.canastas, 500);
  EXPECT_EQ(b.going_out, 100);
  EXPECT_EQ(b.melded, 80 + 40);
}

TEST(WorkedExamples, TC_X04_GoingOutWithoutDiscardIsClassic) {
  // The same as TC-C12 (a), first turn: K x8 + Q x4 from the hand.
  Log log;
  DealSpec d;
  d.hands = {{}, {"KS", "KS", "KH", "KH", "KD", "KD", "KC", "KC", "QS", "QH", "QD"}};
  d.stock = {"QC"};
  log.Deal(d);
  log.Draw(1);
  log.Meld(1, {{"KS", "KS", "KH", "KH", "KD", "KD", "KC", "KC"}, {"QS", "QH", "QD", "QC"}});
  log.EndHand(1);
  FileReport r = Audit(log.str());
  EXPECT_CLEAN(r);
  EXPECT_EQ(Hand(r).went_out, 1);
  EXPECT_EQ(Hand(r).breakdown[1].going_out, 100);
  EXPECT_EQ(Hand(r).breakdown[1].canastas, 500);
}

// TC-C12 (b): no canasta yet, Q x5 on the table; West draws the second
// queen and melds both, completing the canasta, out with no discard.
// (c) Without the queen, West must keep a card.
TEST(WorkedExamples, TC_C12bc_CanastaMadeInGoingOut) {
  auto build = [](const std::string& second_draw) {
    Log log;
    DealSpec d;
    d.hands = {{}, {"QS", "QS", "QH", "QD", "QC", "KS", "KS", "KH", "KH", "KD", "QH"}};
    d.stock = {"9S", "AS", "AH", "AD", second_draw};
    log.Deal(d);
    log.Draw(1);  // 9S
    log.Meld(1, {{"QS", "QS", "QH", "QD", "QC"}, {"KS", "KS", "KH", "KH", "KD"}});
    log.Discard(1, "9S");  // QH is left
    log.PassTurns(3);
    log.Draw(1);
    return log;
  };
  {
    Log log = build("QD");
    log.Add(1, "Q", {"QH", "QD"});
    log.EndHand(1);
    FileReport r = Audit(log.str());
    EXPECT_CLEAN(r);
    EXPECT_EQ(Hand(r).went_out, 1);
    EXPECT_EQ(Hand(r).breakdown[1].canastas, 500);
    EXPECT_EQ(Hand(r).breakdown[1].melded, 70 + 50);
  }
  {
    Log log = build("9D");
    log.Add(1, "Q", {"QH"});
    const int out = log.Discard(1, "9D");  // out with no canasta
    EXPECT_PROBLEMS(Audit(log.str()), {out, CheckId::kOutWithoutCanastas});
  }
  {
    Log log = build("9D");
    log.Discard(1, "9D");  // keeps QH
    EXPECT_CLEAN(Audit(log.str()));
  }
}

// TC-C08: a frozen pile (a wild card in it) with a jack on top is taken only
// with a natural pair of jacks; J + 2 may not.
TEST(WorkedExamples, TC_C08_JackExample) {
  auto build = [](const std::vector<std::string>& east) {
    Log log;
    DealSpec d;
    d.upcard = {"2H", "8C"};
    d.hands = {{}, {"KS", "KH", "KD", "QS", "QH", "QD"}, {"JS"}, east};
    d.stock = {"AC", "AD"};
    log.Deal(d);
    log.Draw(1);
    log.Meld(1, {{"KS", "KH", "KD"}, {"QS", "QH", "QD"}});
    log.Discard(1, "AC");
    log.Draw(2);
    log.Discard(2, "JS");
    const int take = log.Take(3, "JS", {east[0], east[1]});
    log.Discard(3, "AC");
    return std::make_pair(log, take);
  };
  {
    auto [log, take] = build({"JH", "2C"});
    FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {take, CheckId::kPileFrozenNeedsPair});
  }
  {
    auto [log, take] = build({"JH", "JD"});
    (void)take;
    FileReport r = Audit(log.str());
    EXPECT_CLEAN(r);
    EXPECT_EQ(Hand(r).breakdown[1].melded, 60 + 30);  // J-J-J joined the table
  }
}

// TC-C09: West discards 3S; North may not take; North draws and discards
// 9H; East takes under the unfrozen rules (a natural and a wild card).
TEST(WorkedExamples, TC_C09_BlackThreeCovered) {
  DealSpec d;
  d.hands = {{}, {"KS", "KH", "KD", "QS", "QH", "QD", "3S"}, {"3S", "3C", "9H"}, {"9S", "JK"}};
  d.stock = {"AC", "AD"};
  {
    Log log;
    log.Deal(d);
    log.Draw(1);
    log.Meld(1, {{"KS", "KH", "KD"}, {"QS", "QH", "QD"}});
    log.Discard(1, "3S");
    const int take = log.Take(2, "3S", {"3S", "3C"});
    EXPECT_PROBLEMS(Audit(log.str()), {take, CheckId::kPileBlockedTop});
  }
  {
    Log log;
    log.Deal(d);
    log.Draw(1);
    log.Meld(1, {{"KS", "KH", "KD"}, {"QS", "QH", "QD"}});
    log.Discard(1, "3S");
    log.Draw(2);  // AD
    log.Discard(2, "9H");
    log.Take(3, "9H", {"9S", "JK"});
    log.Discard(3, "8C");  // from the pile
    FileReport r = Audit(log.str());
    EXPECT_CLEAN(r);
    EXPECT_EQ(Hand(r).breakdown[1].melded, 60 + 10 + 10 + 50);
  }
}

// TC-C10: special upcards. (a) JK then 8D: the pile is [JK, 8D] and frozen.
// (b) 3H then KC: frozen; the taker lays out 3H with no replacement and
// scores it. (c) 3S then 6H: the covered black three does not freeze.
TEST(WorkedExamples, TC_C10_SpecialUpcards) {
  // A side that has melded meets the pile with natural + wild for the top 9D.
  auto natural_and_wild = [](const std::vector<std::string>& upcard) {
    Log log;
    DealSpec d;
    d.upcard = upcard;
    d.hands = {{}, {"KS", "KH", "KD", "QS", "QH", "QD"}, {"9D"}, {"9S", "2D"}};
    d.stock = {"AC", "AD"};
    log.Deal(d);
    log.Draw(1);
    log.Meld(1, {{"KS", "KH", "KD"}, {"QS", "QH", "QD"}});
    log.Discard(1, "AC");
    log.Draw(2);
    log.Discard(2, "9D");
    const int take = log.Take(3, "9D", {"9S", "2D"});
    log.Discard(3, "AC");
    return std::make_pair(log, take);
  };
  {
    auto [log, take] = natural_and_wild({"JK", "8D"});  // (a)
    FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {take, CheckId::kPileFrozenNeedsPair});
  }
  {
    // (b) as far as freezing goes: the red three in the pile freezes it.
    auto [log, take] = natural_and_wild({"3H", "KC"});
    FileReport r = Audit(log.str());
    // The taker also keeps the pile's red three instead of laying it out.
    EXPECT_PROBLEMS(r, {take, CheckId::kPileFrozenNeedsPair}, {take + 1, CheckId::kThreeTiming});
  }
  {
    auto [log, take] = natural_and_wild({"3S", "6H"});  // (c)
    (void)take;
    EXPECT_CLEAN(Audit(log.str()));
  }
  // (b) West takes KC with K-K (the pile is frozen), Q-Q-Q makes 60; the 3H
  // comes with the pile and is laid out with no replacement.
  DealSpec d;
  d.upcard = {"3H", "KC"};
  d.hands = {{}, {"KS", "KH", "QS", "QH", "QD"}};
  d.stock = {"AC"};
  {
    Log log;
    log.Deal(d);
    log.Take(1, "KC", {"KS", "KH"});
    log.Meld(1, {{"QS", "QH", "QD"}});
    log.ThreeWith(1, "3H", std::nullopt);
    log.Discard(1, ToString(log.hand_cards(1).front()));
    FileReport r = Audit(log.str());
    EXPECT_CLEAN(r);
    EXPECT_EQ(Hand(r).breakdown[1].red_threes, 100);
  }
  {
    Log log;
    log.Deal(d);
    log.Take(1, "KC", {"KS", "KH"});
    log.Meld(1, {{"QS", "QH", "QD"}});
    const int three = log.ThreeWith(1, "3H", "AC");
    EXPECT_PROBLEMS(Audit(log.str()), {three, CheckId::kThreeReplacement});
  }
  {
    // The deal itself is clean in all three cases.
    for (std::vector<std::string> up : {std::vector<std::string>{"JK", "8D"},
                                        std::vector<std::string>{"3H", "KC"},
                                        std::vector<std::string>{"3S", "6H"}}) {
      Log log;
      DealSpec e;
      e.upcard = up;
      log.Deal(e);
      EXPECT_CLEAN(Audit(log.str()));
    }
  }
}

// TC-C11: a player holding one card may not take a pile of one card.
TEST(WorkedExamples, TC_C11_OneCardRule) {
  Log log;
  DealSpec d;
  d.hands = {{"JS", "JH", "AS", "AH", "AD", "QC"},
             {"KS", "KS", "KH", "KH", "KD", "KD", "KC", "QS", "QH", "QD", "9S"}};
  d.stock = {"9H", "9D", "JC"};
  log.Deal(d);
  log.Draw(1);
  log.Meld(1, {{"KS", "KS", "KH", "KH", "KD", "KD", "KC"}, {"QS", "QH", "QD"}});
  log.Discard(1, "9H");  // West holds 9S alone
  log.PassTurn();
  log.Draw(3);
  log.Discard(3, "JC");
  log.Take(0, "JC", {"JS", "JH"});
  log.Meld(0, {{"AS", "AH", "AD"}});
  log.Discard(0, "QC");  // the pile is [QC]
  const int take = log.TakeTo(1, "QC", "Q");
  EXPECT_PROBLEMS(Audit(log.str()), {take, CheckId::kPileOneCard});
}

// TC-C13 (a): the last stock card is a red three: it is revealed, and play
// ends; no meld or discard follows.
TEST(WorkedExamples, TC_C13a_LastStockCardIsARedThree) {
  auto build = [](bool discard_after) {
    Log log;
    DealSpec d;
    d.upcard = {"3H", "3H", "3D", "8D"};  // the other red threes stay in the pile
    d.stock_bottom = {"3D"};
    log.Deal(d);
    log.PassTurnsWhileStockAbove(1);
    EXPECT_EQ(log.stock_left(), 1);
    const int seat = log.current();
    log.Draw(seat);  // 3D
    log.Three(seat, "3D");  // no replacement: the stock is empty
    int line = 0;
    if (discard_after) line = log.Discard(seat, ToString(log.hand_cards(seat).front()));
    log.EndHand(1);
    return std::make_tuple(log, line, seat);
  };
  {
    auto [log, line, seat] = build(false);
    (void)line;
    FileReport r = Audit(log.str());
    EXPECT_CLEAN(r);
    EXPECT_EQ(Hand(r).breakdown[seat % 2].red_threes, -100);  // no meld: against
    EXPECT_EQ(Hand(r).breakdown[1 - seat % 2].red_threes, 0);
    EXPECT_EQ(Hand(r).went_out, -1);
    EXPECT_EQ(Hand(r).breakdown[seat % 2].going_out, 0);
  }
  {
    auto [log, line, seat] = build(true);
    (void)seat;
    EXPECT_PROBLEMS(Audit(log.str()), {line, CheckId::kTurnSequence});
  }
}

// TC-C13 (b), (c): with the stock gone, a 9 on top that fits the side's
// unfinished 9-9-9 must be taken; one that would only make a new meld may
// be refused, which ends the hand.
TEST(WorkedExamples, TC_C13bc_StockExhausted) {
  {
    Log log = test::ExhaustWithNineOnTop({{"9S", "9H", "9D"}, {"KS", "KH", "KD"}}, {}, {});
    const int end = log.EndHand(1);
    FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {end, CheckId::kStockOutMustTake});
    EXPECT_EQ(Hand(r).went_out, -1);
    EXPECT_EQ(Hand(r).breakdown[1].going_out, 0);
  }
  {
    Log log = test::ExhaustWithNineOnTop({{"QS", "QH", "QD"}, {"KS", "KH", "KD"}}, {"9D", "9D"},
                                 {"9S", "9H"});
    log.EndHand(1);
    EXPECT_CLEAN(Audit(log.str()));
  }
}

// TC-C14: the game, replayed with values scaled so that one deal crosses
// 5,000: each red three is worth 5,000 and kings 100 (so K-K-K is 300) and
// nines 25. At the end of the deal A (side 0) has 5,300 and B (side 1) 5,100:
// A wins; the deal went on while A's count "surely" passed 5,000.
TEST(WorkedExamples, TC_C14_HigherTotalWinsWhenBothPass5000) {
  Rules r;
  r.card_value.fill(0);
  r.card_value[int(Rank::kKing)] = 100;
  r.card_value[int(Rank::kNine)] = 25;
  r.red_three_bonus = 5000;
  r.minimum_table = {{-1000000000, 0}};
  r.going_out_bonus = 0;
  r.natural_canasta_bonus = r.mixed_canasta_bonus = 0;
  r.canastas_to_go_out = 0;
  ASSERT_EQ(r.Validate(), "");
  Game game(r, DefaultHooks());
  DealMove deal;
  deal.dealer = 0;
  deal.hands = {Cs({"3D", "KS", "KH", "KD", "4S", "4H", "4D", "4C", "6S", "6H", "6D"}),
                Cs({"3H", "9S", "9H", "9D", "5S", "5H", "5D", "5C", "7S", "7H", "7D"}),
                Cs({"8S", "8H", "8D", "8C", "TS", "TH", "TD", "TC", "JS", "JH", "JD"}),
                Cs({"8S", "8H", "8D", "8C", "TS", "TH", "TD", "TC", "JS", "JH", "JD"})};
  deal.upcards = Cs({"QS"});
  ASSERT_TRUE(game.StartDeal(1, deal).empty());
  Position& pos = *game.position();
  auto play = [&](Move m) {
    TaggedViolations v = pos.Play(m);
    EXPECT_TRUE(v.empty()) << (v.empty() ? "" : v[0].violation.message);
  };
  // Seat 1 (B): lays out 3H, melds 9-9-9 (75), keeps 5s and 7s.
  play(ThreeMove{1, C("3H"), C("7C")});
  play(DrawMove{1, Cs({"AH"})});
  play(MeldMove{1, {MeldPart{{}, {}, Cs({"9S", "9H", "9D"})}}});
  play(DiscardMove{1, C("AH")});
  play(DrawMove{2, Cs({"AD"})});
  play(DiscardMove{2, C("AD")});
  play(DrawMove{3, Cs({"AC"})});
  play(DiscardMove{3, C("AC")});
  // Seat 0 (A): 3D and K-K-K: 5,300 on the table; the deal goes on.
  play(ThreeMove{0, C("3D"), C("QH")});
  play(DrawMove{0, Cs({"QD"})});
  play(MeldMove{0, {MeldPart{{}, {}, Cs({"KS", "KH", "KD"})}}});
  play(DiscardMove{0, C("QD")});
  EXPECT_NE(pos.phase(), Phase::kOver);
  EXPECT_FALSE(game.over());
  // Seat 1 adds 9C (100 melded) and melds the rest of its hand: out.
  play(DrawMove{1, Cs({"9C"})});
  play(MeldMove{1, {MeldPart{Rank::kNine, {}, Cs({"9C"})},
                    MeldPart{{}, {}, Cs({"5S", "5H", "5D", "5C"})},
                    MeldPart{{}, {}, Cs({"7S", "7H", "7D", "7C"})}}});
  ASSERT_EQ(pos.phase(), Phase::kOver) << "seat 1 should be out";
  EXPECT_TRUE(pos.End(0).empty());
  std::vector<ScoreBreakdown> parts = game.FinishDeal();
  EXPECT_EQ(game.totals(), (std::vector<int>{5300, 5100}));
  EXPECT_TRUE(game.over());
  EXPECT_EQ(game.winner(), 0);
  (void)parts;
}

// TC-C20: the top K onto the side's unfinished K-K-K-K takes the pile (and
// the meld grows to five); onto a completed canasta it may not go directly.
TEST(WorkedExamples, TC_C20_UnfrozenTakeOntoAnExistingMeld) {
  auto build = [](const std::vector<std::string>& west, const std::vector<std::vector<std::string>>& melds) {
    Log log;
    DealSpec d;
    d.hands = {{}, west, {"KS"}};
    d.stock = {"AC", "AD"};
    log.Deal(d);
    log.Draw(1);
    log.Meld(1, melds);
    log.Discard(1, "AC");
    log.Draw(2);
    log.Discard(2, "KS");
    const int take = log.TakeTo(3, "KS", "K");
    log.Discard(3, "AC");
    return std::make_pair(log, take);
  };
  {
    auto [log, take] = build({"KS", "KH", "KD", "KC", "QS", "QH", "QD"},
                             {{"KS", "KH", "KD", "KC"}, {"QS", "QH", "QD"}});
    (void)take;
    FileReport r = Audit(log.str());
    EXPECT_CLEAN(r);
    EXPECT_EQ(Hand(r).breakdown[1].melded, 50 + 30);
  }
  {
    auto [log, take] = build({"KH", "KH", "KD", "KD", "KC", "KC", "KS"},
                             {{"KH", "KH", "KD", "KD", "KC", "KC", "KS"}});
    EXPECT_PROBLEMS(Audit(log.str()), {take, CheckId::kPileOntoCanasta});
  }
}

// ===========================================================================
// 3.5 cross-ruleset cases, classic column

// TC-X01: meld composition under classic (000 §8-9, readings R1).
TEST(WorkedExamples, TC_X01_MeldCompositionClassic) {
  const Rules r;
  struct Row {
    const char* what;
    Rank rank;
    int naturals, twos, jokers;
    bool was_canasta;
    std::optional<CheckId> expected;
  };
  const std::optional<CheckId> ok;
  const Row rows[] = {
      {"K K 2", Rank::kKing, 2, 1, 0, false, ok},
      {"K K 2 JK", Rank::kKing, 2, 1, 1, false, CheckId::kMeldTooManyWilds},
      {"K K 2 2 JK", Rank::kKing, 2, 2, 1, false, CheckId::kMeldTooManyWilds},
      {"K K K 2 2 2", Rank::kKing, 3, 3, 0, false, CheckId::kMeldTooManyWilds},
      {"K x4 + 3 wilds (canasta)", Rank::kKing, 4, 2, 1, false, ok},
      {"K x5 + 2 wilds", Rank::kKing, 5, 1, 1, false, ok},
      {"K x5 + 4 wilds, 4th after completion", Rank::kKing, 5, 2, 2, true, ok},
      {"K x4 + 4 wilds", Rank::kKing, 4, 2, 2, true, CheckId::kMeldTooManyWilds},
      {"2 2 JK", Rank::kJoker, 0, 2, 1, false, CheckId::kMeldTooFewNaturals},
      {"7 7 2", Rank::kSeven, 2, 1, 0, false, ok},
      {"A A 2", Rank::kAce, 2, 1, 0, false, ok},
  };
  for (const Row& row : rows) {
    MeldShape s;
    s.rank = row.rank;
    s.naturals = row.naturals;
    s.twos = row.twos;
    s.jokers = row.jokers;
    s.was_canasta = row.was_canasta;
    s.is_new = !row.was_canasta;
    std::optional<Violation> v = CheckMeldShape(r, DefaultHooks(), s);
    if (row.expected) {
      ASSERT_TRUE(v.has_value()) << row.what;
      EXPECT_EQ(v->id, *row.expected) << row.what;
    } else {
      EXPECT_FALSE(v.has_value()) << row.what << ": " << (v ? v->message : "");
    }
  }

  // Replayed: K x5 + 2 wilds is a mixed canasta (300); two more wild cards
  // after completion are legal (K x5 + 4 wilds); a completed K x4 + 3 wilds
  // may not take a fourth.
  auto build = [](const std::vector<std::string>& first, const std::vector<std::string>& later) {
    Log log;
    DealSpec d;
    d.hands = {{}, first};
    d.stock = {"AC", "AD", "AH", "AS", "KC"};
    d.hands[1].insert(d.hands[1].end(), later.begin(), later.end());
    d.hands[1].push_back("4S");
    log.Deal(d);
    log.Draw(1);
    log.Meld(1, {first});
    log.Discard(1, "AC");
    log.PassTurns(3);
    log.Draw(1);
    const int add = log.Add(1, "K", later);
    log.Discard(1, "KC");
    return std::make_pair(log, add);
  };
  {
    auto [log, add] = build({"KS", "KS", "KH", "KH", "KD", "2C", "JK"}, {"2D", "2H"});
    (void)add;
    FileReport r2 = Audit(log.str());
    EXPECT_CLEAN(r2);
    EXPECT_EQ(Hand(r2).breakdown[1].canastas, 300);
  }
  {
    auto [log, add] = build({"KS", "KS", "KH", "KH", "2C", "2D", "JK"}, {"2H"});
    EXPECT_PROBLEMS(Audit(log.str()), {add, CheckId::kMeldTooManyWilds});
  }
}

// TC-X02 classic: the top card counts toward the initial meld (000 §8); the
// rest of the pile does not (000 §13).
TEST(WorkedExamples, TC_X02_TopCardCountsRestOfPileDoesNot) {
  {
    // 7C + 7S + 7H (15) + K-K-K (30) + 9-9-2C (40) = 85, as in TC-T04.
    Log log;
    DealSpec d;
    d.upcard = {"7C"};
    d.hands = {{}, {"7S", "7H", "KS", "KH", "KD", "9S", "9H", "2C"}};
    log.Deal(d);
    log.Take(1, "7C", {"7S", "7H"});
    log.Meld(1, {{"KS", "KH", "KD"}, {"9S", "9H", "2C"}});
    log.Discard(1, ToString(log.hand_cards(1).front()));
    EXPECT_CLEAN(Audit(log.str()));
  }
  {
    // The pile [JK, 8D, ..., 7C]: seat 0 takes the 7C with 7S 7H and lays
    // K-K-JK with the joker from the pile. Only 7C, 7S, 7H, KS, KH count:
    // 35 < 50 (with the joker it would be 85).
    Log log;
    DealSpec d;
    d.upcard = {"JK", "8D"};
    d.hands = {{"7S", "7H", "KS", "KH"}, {}, {}, {"7C"}};
    log.Deal(d);
    log.PassTurns(2);  // seats 1, 2
    log.Draw(3);
    log.Discard(3, "7C");
    log.Take(0, "7C", {"7S", "7H"});
    const int meld = log.Meld(0, {{"KS", "KH", "JK"}});
    log.Discard(0, "8D");
    FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {meld, CheckId::kInitialMeldMinimum});
    EXPECT_NE(test::MessageOf(r, CheckId::kInitialMeldMinimum).find("counts 35"),
              std::string::npos)
        << test::Dump(r);
  }
}

// TC-X05 classic: discarding a 2 while holding natural cards is allowed, and
// the pile is then frozen, even for a side that has melded.
TEST(WorkedExamples, TC_X05_WildDiscardFreezesThePile) {
  Log log;
  DealSpec d;
  d.hands = {{}, {"KS", "KH", "KD", "QS", "QH", "QD"}, {"2C", "9D"}, {"9S", "9H", "JK"}};
  d.stock = {"AC", "AD", "AH", "AS"};
  log.Deal(d);
  log.Draw(1);
  log.Meld(1, {{"KS", "KH", "KD"}, {"QS", "QH", "QD"}});
  log.Discard(1, "AC");
  log.Draw(2);
  log.Discard(2, "2C");  // allowed in classic
  {
    FileReport r = Audit(log.str());
    EXPECT_CLEAN(r);
  }
  // East may not take the wild card; after it is covered, East needs a pair.
  Log blocked = log;
  const int take_wild = blocked.Take(3, "2C", {"9S", "JK"});
  EXPECT_PROBLEMS(Audit(blocked.str()), {take_wild, CheckId::kPileBlockedTop});

  Log next = log;
  next.Draw(3);  // AH
  next.Discard(3, "AH");
  next.Draw(0);  // AS
  next.Discard(0, "AS");
  next.PassTurn();  // seat 1
  next.Draw(2);
  next.Discard(2, "9D");
  Log natural_wild = next;
  const int take = natural_wild.Take(3, "9D", {"9S", "JK"});
  EXPECT_PROBLEMS(Audit(natural_wild.str()), {take, CheckId::kPileFrozenNeedsPair});
  Log pair = next;
  pair.Take(3, "9D", {"9S", "9H"});
  pair.Discard(3, "JK");
  EXPECT_CLEAN(Audit(pair.str()));
}

}  // namespace
}  // namespace canasta
