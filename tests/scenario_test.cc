// Scenario tests: small classic logs replayed through the auditor, one per
// check the classic ruleset can produce, each asserting the exact check and
// line, with the same situation played legally asserting the check is quiet.
//
// Checks the classic ruleset cannot produce, so not covered here:
//   kMeldHouseRule (only a Lua ruleset's meld hook), kMeldTooBig (classic has
//   no meld maximum), kDiscardWild (classic allows wild discards: TC-X05 in
//   worked_examples_test.cc), kOutWithoutDiscard (classic needs no final
//   discard: TC-X04), kOutAskNoPartner (classic is a partnership game),
//   kRulesetHookFailed (only a Lua ruleset's hooks can fail).
//   kSpecialHandNotAllowed is covered (a special_hand event in classic).
//
// Seats: dealer 0 unless said otherwise, so seat 1 plays first. Sides are
// {0, 2} and {1, 3}.

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "core/card.h"
#include "core/game.h"
#include "replay/auditor.h"
#include "replay/simulate.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

using test::Audit;
using test::DealSpec;
using test::Dump;
using test::Log;
using test::M;
using test::Problems;

// A plain deal: only filler cards, upcard 8C, dealer 0.
Log PlainDeal() {
  Log log;
  log.Deal(DealSpec{});
  return log;
}

// Dealer 0. Seat 1 opens with K-K-K and Q-Q-Q (60 >= 50) in the first turn,
// discarding the card drawn (AC); seat 2 draws AD and discards
// `seat2_discard`. Seat 3, seat 1's partner, is next, with `seat3` dealt.
// `later` are the stock cards after those two draws.
Log OpenedSide(const std::vector<std::string>& seat3, const std::vector<std::string>& seat2 = {},
               const std::string& seat2_discard = "AD", const std::vector<std::string>& later = {},
               const std::vector<std::string>& upcard = {"8C"}) {
  Log log;
  DealSpec d;
  d.upcard = upcard;
  d.hands = {{}, {"KS", "KH", "KD", "QS", "QH", "QD"}, seat2, seat3};
  d.stock = {"AC", "AD"};
  d.stock.insert(d.stock.end(), later.begin(), later.end());
  log.Deal(d);
  log.Draw(1);
  log.Meld(1, {{"KS", "KH", "KD"}, {"QS", "QH", "QD"}});
  log.Discard(1, "AC");
  log.Draw(2);
  log.Discard(2, seat2_discard);
  return log;
}

// The player at the dealer's left goes out in the first turn: a natural
// canasta of kings and four queens, discarding the card drawn.
struct QuickOut {
  int deal = 0;
  int meld = 0;
  int discard = 0;
};
QuickOut PlayQuickOut(Log& log, int hand, int dealer) {
  const int seat = (dealer + 1) % 4;
  DealSpec d;
  d.hand = hand;
  d.dealer = dealer;
  d.hands.resize(4);
  d.hands[seat] = {"KS", "KS", "KH", "KH", "KD", "KD", "KC", "QS", "QS", "QH", "QH"};
  d.stock = {"9D"};
  QuickOut q;
  q.deal = log.Deal(d);
  log.Draw(seat);
  q.meld = log.Meld(seat, {{"KS", "KS", "KH", "KH", "KD", "KD", "KC"}, {"QS", "QS", "QH", "QH"}});
  q.discard = log.Discard(seat, "9D");
  return q;
}
// The quick-out side scores 500 + 110 + 100 and loses its other player's
// 11 filler cards; the other side loses its 22 cards.
std::vector<int> QuickOutScores(const Log& log, int dealer) {
  const int side = (dealer + 1) % 2;
  std::vector<int> s(2);
  s[side] = 500 + 110 + 100 - log.SideHandValue(side);
  s[1 - side] = -log.SideHandValue(1 - side);
  return s;
}
std::string Ints(const std::vector<int>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

// ===========================================================================
// The deal

TEST(ScenarioDeal, HandNumberMustStartAtOne) {
  Log log;
  DealSpec d;
  d.hand = 2;
  const int deal = log.Deal(d);
  EXPECT_PROBLEMS(Audit(log.str()), {deal, CheckId::kDealHandNumber});
}

// A misnumbered deal is one finding: its end_hand and the next deal may go
// on from the log's number or from the due one.
TEST(ScenarioDeal, AMisnumberedDealIsOneFindingWhicheverNumbersFollow) {
  for (int end_number : {1, 2}) {  // the due number, then the log's own
    Log log;
    const QuickOut first = PlayQuickOut(log, 2, 0);  // due: hand 1
    log.EndHand(end_number);
    PlayQuickOut(log, end_number + 1, 1);
    log.EndHand(end_number + 1);
    EXPECT_PROBLEMS(Audit(log.str()), {first.deal, CheckId::kDealHandNumber}) << end_number;
  }
  // The engine's own record of it (Game::due_hand_number).
  const Rules rules;
  const RuleHooks hooks;
  Game game(rules, hooks);
  DealMove deal;
  deal.dealer = 0;
  EXPECT_EQ(game.due_hand_number(), -1);
  game.StartDeal(2, deal);
  EXPECT_EQ(game.due_hand_number(), 1);
  deal.dealer = 1;
  game.StartDeal(2, deal);  // the due numbering goes on: no second finding
  EXPECT_EQ(game.due_hand_number(), -1);
}

TEST(ScenarioDeal, HandNumbersFollowEachOther) {
  Log log;
  PlayQuickOut(log, 1, 0);
  log.EndHand(1);
  const QuickOut second = PlayQuickOut(log, 3, 1);  // skips hand 2
  log.EndHand(3);
  EXPECT_PROBLEMS(Audit(log.str()), {second.deal, CheckId::kDealHandNumber});

  Log good;
  PlayQuickOut(good, 1, 0);
  good.EndHand(1);
  PlayQuickOut(good, 2, 1);
  good.EndHand(2);
  EXPECT_CLEAN(Audit(good.str()));
}

TEST(ScenarioDeal, DealerPassesToTheLeft) {
  Log log;
  PlayQuickOut(log, 1, 0);
  log.EndHand(1);
  const QuickOut second = PlayQuickOut(log, 2, 2);  // seat 1 should deal
  log.EndHand(2);
  EXPECT_PROBLEMS(Audit(log.str()), {second.deal, CheckId::kDealDealer});

  // Four hands: dealers 0, 1, 2, 3, then 0 again.
  Log good;
  for (int h = 1; h <= 5; ++h) {
    PlayQuickOut(good, h, (h - 1) % 4);
    good.EndHand(h);
  }
  EXPECT_CLEAN(Audit(good.str()));
}

TEST(ScenarioDeal, DealerMustBeASeat) {
  Log log;
  DealSpec d;
  d.dealer = 4;
  const int deal = log.Deal(d);
  EXPECT_PROBLEMS(Audit(log.str()), {deal, CheckId::kDealDealer});
}

TEST(ScenarioDeal, HandSize) {
  Log log;
  DealSpec d;
  d.hands = {{}, {}, {"AS", "AS", "AH", "AH", "AD", "AD", "AC", "AC", "KS", "KS", "KH", "KH"}};
  const int deal = log.Deal(d);  // seat 2 gets 12 cards
  EXPECT_PROBLEMS(Audit(log.str()), {deal, CheckId::kDealHandSize});
  EXPECT_NE(test::MessageOf(Audit(log.str()), CheckId::kDealHandSize).find("seat 2"),
            std::string::npos);

  EXPECT_CLEAN(Audit(PlainDeal().str()));
}

// A deal to another number of seats than the game's cannot be followed: its
// findings, then the hand skipped to its end_hand, not a finding at each move.
TEST(ScenarioDeal, HandsForAnotherNumberOfSeatsSkipTheHand) {
  Log log;
  const int deal = log.Deal(DealSpec{});
  log.PassTurns(4);
  std::string text = log.str();
  // The deal's last hand left out: three hands for four seats.
  const size_t upcard = text.find("],\"upcard\"");
  const size_t last = text.rfind(",[", upcard);
  ASSERT_NE(upcard, std::string::npos);
  ASSERT_NE(last, std::string::npos);
  text.erase(last, upcard - last);
  const FileReport r = Audit(text);
  EXPECT_EQ(test::CountId(r, CheckId::kDealHandSize), 1) << test::Dump(r);
  for (const test::Found& f : test::Problems(r)) EXPECT_EQ(f.first, deal) << test::Dump(r);
}

TEST(ScenarioDeal, UpcardTurningStopsAtANaturalCard) {
  {
    Log log;
    DealSpec d;
    d.upcard = {"JK"};  // a joker calls for another card
    const int deal = log.Deal(d);
    EXPECT_PROBLEMS(Audit(log.str()), {deal, CheckId::kDealUpcard});
  }
  {
    Log log;
    DealSpec d;
    d.upcard = {"8C", "9D"};  // turning went on after a natural card
    const int deal = log.Deal(d);
    EXPECT_PROBLEMS(Audit(log.str()), {deal, CheckId::kDealUpcard});
  }
  {
    Log log;
    DealSpec d;
    d.upcard = {};  // classic turns an upcard
    const int deal = log.Deal(d);
    EXPECT_PROBLEMS(Audit(log.str()), {deal, CheckId::kDealUpcard});
  }
  {
    Log log;
    DealSpec d;
    d.upcard = {"JK", "2D", "3S", "3H", "8D"};  // every trigger, then a natural card
    log.Deal(d);
    EXPECT_CLEAN(Audit(log.str()));
  }
}

TEST(ScenarioDeal, PackHasTwoOfEachCard) {
  {
    Log log;
    DealSpec d;
    d.hands = {{}, {"KS", "KS", "KS"}};
    const int deal = log.Deal(d);
    EXPECT_PROBLEMS(Audit(log.str()), {deal, CheckId::kDealPack});
  }
  {
    // The stock does not hold the rest of the pack: one AS too many.
    Log log;
    DealSpec d;
    d.hands = {{"AS", "AS"}};
    d.stock = {"AS"};
    const int deal = log.Deal(d);
    EXPECT_PROBLEMS(Audit(log.str()), {deal, CheckId::kDealPack});
  }
  {
    Log log;
    DealSpec d;
    d.hands = {{}, {"KS", "KS", "JK", "JK"}, {"JK", "JK"}};
    log.Deal(d);
    EXPECT_CLEAN(Audit(log.str()));
  }
  {
    // The stock one card short of the rest of the pack, every card it holds
    // in the pack: the card left out is missing (000 §1, §6).
    Log log;
    const int deal = log.Deal(DealSpec{});
    std::string text = log.str();
    const size_t end = text.find(']', text.find("\"stock\":["));
    const size_t last = text.rfind(",\"", end);
    ASSERT_NE(last, std::string::npos);
    const std::string card = text.substr(last + 2, end - last - 3);
    text.erase(last, end - last);
    const FileReport r = Audit(text);
    EXPECT_PROBLEMS(r, {deal, CheckId::kDealPack});
    ASSERT_FALSE(r.games.empty());
    std::string message;
    for (const Finding& f : r.games[0].findings)
      if (f.id == CheckId::kDealPack) message = f.message;
    EXPECT_EQ(message, "the stock does not hold the rest of the pack: missing " + card);
  }
  {
    // A recorded stock cut to its first 5 cards is set aside: the turns
    // played on from the real pack are judged on the cards not yet seen,
    // not as 20 draws from an empty stock.
    Log log;
    const int deal = log.Deal(DealSpec{});
    log.PassTurns(20);
    std::string text = log.str();
    const size_t start = text.find("\"stock\":[");
    ASSERT_NE(start, std::string::npos);
    size_t cut = start + 9;
    for (int i = 0; i < 5; ++i) cut = text.find(',', cut + 1);
    text.erase(cut, text.find(']', start) - cut);
    const FileReport r = Audit(text);
    EXPECT_PROBLEMS(r, {deal, CheckId::kDealPack});
    bool noted = false;
    for (const Finding& f : r.games.at(0).findings)
      for (const std::string& n : f.notes)
        noted |= n.find("the recorded stock is set aside") != std::string::npos;
    EXPECT_TRUE(noted) << test::Dump(r);
  }
}

// ===========================================================================
// Turns, draws and cards

TEST(ScenarioTurn, WrongSeatDraws) {
  Log log = PlainDeal();
  const int draw = log.Draw(2);  // seat 1 plays first
  log.Discard(2, ToString(log.hand_cards(2).back()));
  EXPECT_PROBLEMS(Audit(log.str()), {draw, CheckId::kTurnOrder});

  Log good = PlainDeal();
  good.PassTurns(5);  // seats 1, 2, 3, 0, 1
  EXPECT_CLEAN(Audit(good.str()));
}

TEST(ScenarioTurn, DiscardBeforeDrawing) {
  Log log = PlainDeal();
  const int discard = log.Discard(1, ToString(log.hand_cards(1).front()));
  EXPECT_PROBLEMS(Audit(log.str()), {discard, CheckId::kTurnSequence});
}

TEST(ScenarioTurn, DrawingTwiceInOneTurn) {
  Log log = PlainDeal();
  log.Draw(1);
  const int again = log.Draw(1);
  EXPECT_PROBLEMS(Audit(log.str()), {again, CheckId::kTurnSequence});
}

TEST(ScenarioTurn, ActingAfterTheDealEnded) {
  Log log;
  PlayQuickOut(log, 1, 0);
  const int late = log.Draw(2);
  EXPECT_PROBLEMS(Audit(log.str()), {late, CheckId::kTurnSequence});
}

TEST(ScenarioTurn, DrawCountIsOne) {
  Log log = PlainDeal();
  const int draw = log.Draw(1, 2);
  EXPECT_PROBLEMS(Audit(log.str()), {draw, CheckId::kDrawCount});

  Log good = PlainDeal();
  good.Draw(1, 1);
  EXPECT_CLEAN(Audit(good.str()));
}

TEST(ScenarioTurn, DrawMustMatchTheRecordedStock) {
  Log log;
  DealSpec d;
  d.stock = {"9D", "AS"};
  log.Deal(d);
  const int draw = log.Draw(1, std::vector<std::string>{"AS"});  // the top is 9D
  log.Discard(1, "AS");
  EXPECT_PROBLEMS(Audit(log.str()), {draw, CheckId::kStockMismatch});

  Log good;
  good.Deal(d);
  good.Draw(1, std::vector<std::string>{"9D"});
  good.Discard(1, "9D");
  EXPECT_CLEAN(Audit(good.str()));
}

// The notes of the first finding with `id`, joined.
std::string NotesOf(const FileReport& r, CheckId id) {
  for (const GameReport& g : r.games)
    for (const Finding& f : g.findings)
      if (f.id == id) {
        std::string s;
        for (const std::string& n : f.notes) s += n + "\n";
        return s;
      }
  return "";
}

// One slip of the log is one finding, and the draws after it are checked
// against the right cards again (docs/readings.md R117).
TEST(ScenarioTurn, AStockSlipIsOneFindingAndLaterDrawsMatchAgain_000S12) {
  DealSpec d;
  d.stock = {"9D", "AS", "KH", "QC", "JD", "TS"};
  {  // a draw left out: seat 2 draws the card after the stock's next
    Log log;
    log.Deal(d);
    log.Draw(1, std::vector<std::string>{"9D"});
    log.Discard(1, "9D");
    const int skipped = log.Draw(2, std::vector<std::string>{"KH"});  // AS left out
    log.Discard(2, "KH");
    log.Draw(3, std::vector<std::string>{"QC"});
    log.Discard(3, "QC");
    log.Draw(0, std::vector<std::string>{"JD"});
    log.Discard(0, "JD");
    const FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {skipped, CheckId::kStockMismatch});
    EXPECT_NE(NotesOf(r, CheckId::kStockMismatch)
                  .find("KH comes after AS in the stock: a wrong card, or a draw of AS left out"),
              std::string::npos)
        << Dump(r);
  }
  {  // a draw line written twice (readings R119): one finding, not replayed
    Log log;
    log.Deal(d);
    const int first = log.Draw(1, std::vector<std::string>{"9D"});
    const int twice = log.Draw(1, std::vector<std::string>{"9D"});
    log.Discard(1, "9D");
    log.Draw(2, std::vector<std::string>{"AS"});
    log.Discard(2, "AS");
    log.Draw(3, std::vector<std::string>{"KH"});
    log.Discard(3, "KH");
    const FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {twice, CheckId::kTurnSequence});
    EXPECT_NE(NotesOf(r, CheckId::kTurnSequence)
                  .find("the draw of line " + std::to_string(first) +
                        " written again: this line is not replayed (readings R119)"),
              std::string::npos)
        << Dump(r);
  }
  {  // a second draw of the stock's card before (not the same line again)
    Log log;
    log.Deal(d);
    log.Draw(1, std::vector<std::string>{"9D"});
    log.Discard(1, "9D");
    const int again = log.Draw(2, std::vector<std::string>{"9D"});
    log.Discard(2, "9D");
    log.Draw(3, std::vector<std::string>{"AS"});
    log.Discard(3, "AS");
    const FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {again, CheckId::kStockMismatch});
    EXPECT_NE(
        NotesOf(r, CheckId::kStockMismatch)
            .find("9D was drawn from the stock 1 card before: a wrong card, or a draw written "
                  "twice; the next draw is compared with both"),
        std::string::npos)
        << Dump(r);
  }
  {  // a wrong card, found nowhere near: it stands for the stock's next
    Log log;
    log.Deal(d);
    const int wrong = log.Draw(1, std::vector<std::string>{"TS"});  // 6th in the stock
    log.Discard(1, "TS");
    log.Draw(2, std::vector<std::string>{"AS"});
    log.Discard(2, "AS");
    EXPECT_PROBLEMS(Audit(log.str()), {wrong, CheckId::kStockMismatch});
  }
  {  // a wrong card that the stock holds a little further on: still one
    Log log;
    log.Deal(d);
    const int wrong = log.Draw(1, std::vector<std::string>{"KH"});  // 3rd in the stock
    log.Discard(1, "KH");
    log.Draw(2, std::vector<std::string>{"AS"});
    log.Discard(2, "AS");
    log.Draw(3, std::vector<std::string>{"KH"});
    log.Discard(3, "KH");
    EXPECT_PROBLEMS(Audit(log.str()), {wrong, CheckId::kStockMismatch});
  }
}

TEST(ScenarioTurn, CardNotHeld) {
  Log log;
  DealSpec d;
  d.hands = {{"AS", "AS"}};
  log.Deal(d);
  log.Draw(1);
  const int discard = log.Discard(1, "AS");  // seat 0 holds both
  EXPECT_PROBLEMS(Audit(log.str()), {discard, CheckId::kCardNotHeld});

  Log good;
  d.hands = {{}, {"AS"}};
  good.Deal(d);
  good.Draw(1);
  good.Discard(1, "AS");
  EXPECT_CLEAN(Audit(good.str()));
}

TEST(ScenarioTurn, TooManyCopiesWithoutARecordedStock) {
  DealSpec d;
  d.record_stock = false;
  d.hands = {{"AS", "AS"}};
  Log log;
  log.Deal(d);
  const int draw = log.Draw(1, std::vector<std::string>{"AS"});  // both are in seat 0's hand
  log.Discard(1, "AS");
  EXPECT_PROBLEMS(Audit(log.str()), {draw, CheckId::kCardTooManyCopies});

  Log good;
  good.Deal(d);
  good.Draw(1, std::vector<std::string>{"AH"});  // not yet seen: may be in the stock
  good.Discard(1, "AH");
  EXPECT_CLEAN(Audit(good.str()));
}

TEST(ScenarioTurn, DrawingFromAnEmptyStock) {
  Log log;
  DealSpec d;
  d.hands = {{"2S", "2S", "2H", "2H", "2D", "2D"}, {}, {"2C", "2C", "JK", "JK", "JK", "JK"}};
  d.stock_bottom = {"9C"};
  log.Deal(d);
  log.PassTurnsUntilStockEmpty();
  ASSERT_EQ(log.stock_left(), 0);
  const int first = log.current();
  const int draw = log.Draw(first, std::vector<std::string>{"9C"});
  EXPECT_PROBLEMS(Audit(log.str()), {draw, CheckId::kStockEmpty});
  // A log that draws on past the stock's end disagrees with the engine about
  // the stock once (000 §15): one stock-empty a hand, not one a draw.
  log.Discard(first, "9C");
  const int next = (first + 1) % 4;
  log.Draw(next, std::vector<std::string>{"9C"});
  log.Discard(next, "9C");
  EXPECT_PROBLEMS(Audit(log.str()), {draw, CheckId::kStockEmpty});
}

TEST(ScenarioTurn, DiscardMissingBeforeTheNextTurn) {
  Log log = PlainDeal();
  log.Draw(1);
  const int next = log.Draw(2);  // seat 1 never discarded
  EXPECT_PROBLEMS(Audit(log.str()), {next, CheckId::kDiscardMissing});
}

TEST(ScenarioTurn, DiscardMissingStillEndsTheTurnForItsChecks) {
  // Seat 1 lays 45 toward a minimum of 50 and never discards: the next
  // player's draw ends that turn, and the short initial meld is still found.
  DealSpec d;
  d.hands = {{}, {"KS", "KH", "KD", "5S", "5H", "5D", "7S", "7H", "7D"}};
  d.stock = {"AC", "9D"};
  Log log;
  log.Deal(d);
  log.Draw(1);
  const int meld = log.Meld(1, {{"KS", "KH", "KD"}, {"5S", "5H", "5D"}});
  const int next = log.Draw(2);
  EXPECT_PROBLEMS(Audit(log.str()), {meld, CheckId::kInitialMeldMinimum},
                  {next, CheckId::kDiscardMissing});
}

TEST(ScenarioTurn, HandEndedEarly) {
  Log log = PlainDeal();
  log.PassTurns(3);
  const int end = log.EndHand(1);
  EXPECT_PROBLEMS(Audit(log.str()), {end, CheckId::kHandEndedEarly});

  Log good;
  PlayQuickOut(good, 1, 0);
  good.EndHand(1);
  EXPECT_CLEAN(Audit(good.str()));
}

// ===========================================================================
// Red threes

TEST(ScenarioThree, OnlyRedThreesAreLaidOut) {
  Log log;
  DealSpec d;
  d.hands = {{}, {"3S"}};
  log.Deal(d);
  const int three = log.ThreeWith(1, "3S", std::nullopt);
  EXPECT_PROBLEMS(Audit(log.str()), {three, CheckId::kThreeNotAllowed});
}

TEST(ScenarioThree, RedThreeIsNeverDiscarded) {
  Log log;
  DealSpec d;
  d.hands = {{}, {"3H"}};
  log.Deal(d);
  log.Draw(1);
  const int discard = log.Discard(1, "3H");
  EXPECT_PROBLEMS(Audit(log.str()), {discard, CheckId::kThreeNotAllowed});
}

TEST(ScenarioThree, ReplacementIsDrawnFromTheStock) {
  DealSpec d;
  d.hands = {{}, {"3H"}};
  d.stock = {"9D", "9H"};
  {
    Log log;
    log.Deal(d);
    const int three = log.ThreeWith(1, "3H", std::nullopt);
    EXPECT_PROBLEMS(Audit(log.str()), {three, CheckId::kThreeReplacement});
  }
  {
    Log log;
    log.Deal(d);
    const int three = log.ThreeWith(1, "3H", "AS");  // the stock's top is 9D
    EXPECT_PROBLEMS(Audit(log.str()), {three, CheckId::kStockMismatch});
  }
  {
    // At the start of the first turn, before the draw (readings R6): legal.
    Log log;
    log.Deal(d);
    log.Three(1, "3H");  // replacement 9D
    log.Draw(1);         // 9H
    log.Discard(1, "9H");
    EXPECT_CLEAN(Audit(log.str()));
  }
}

TEST(ScenarioThree, RedThreeDrawnInPlayIsReplaced) {
  Log log;
  DealSpec d;
  d.stock = {"3D", "9D"};
  log.Deal(d);
  log.Draw(1);          // 3D
  log.Three(1, "3D");   // replacement 9D
  log.Discard(1, "9D");
  EXPECT_CLEAN(Audit(log.str()));
}

TEST(ScenarioThree, LaidOutOutsideTheOwnTurn) {
  DealSpec d;
  d.hands = {{}, {}, {"3H"}};
  {
    Log log;  // before play, by a seat that does not begin
    log.Deal(d);
    const int three = log.Three(2, "3H");
    EXPECT_PROBLEMS(Audit(log.str()), {three, CheckId::kThreeTiming});
  }
  {
    Log log;  // during seat 1's turn
    log.Deal(d);
    log.Draw(1);
    const int three = log.Three(2, "3H");
    EXPECT_PROBLEMS(Audit(log.str()), {three, CheckId::kThreeTiming});
  }
  {
    Log log;  // in seat 2's own first turn, before its draw
    log.Deal(d);
    log.PassTurn();  // seat 1
    log.Three(2, "3H");
    log.PassTurn();  // seat 2 draws and discards
    EXPECT_CLEAN(Audit(log.str()));
  }
}

TEST(ScenarioThree, UndeclaredRedThreeCosts500) {
  // Seat 3 keeps its dealt 3H through a turn; seat 1 goes out in its second
  // turn. Side 1 loses 500.
  Log log;
  DealSpec d;
  d.hands = {{}, {"KS", "KS", "KH", "KH", "KD", "KD", "KC", "QS", "QH", "QD", "JS"}, {}, {"3H"}};
  d.stock = {"JH", "9D", "9H", "9S", "QC"};
  log.Deal(d);
  log.Draw(1);  // JH
  log.Meld(1, {{"KS", "KS", "KH", "KH", "KD", "KD", "KC"}, {"QS", "QH", "QD"}});
  const int discard = log.Discard(1, "JH");
  log.PassTurns(3);  // seats 2, 3 (still holding 3H), 0
  log.Draw(1);       // QC
  log.Add(1, "Q", {"QC"});
  log.Discard(1, "JS");  // out
  const int end = log.EndHand(1);
  FileReport r = Audit(log.str());
  // Seat 3's turn ends with the red three still held (a warning where it
  // happened), and play ends with it: the penalty.
  EXPECT_PROBLEMS(r, {discard + 4, CheckId::kThreeTiming}, {end, CheckId::kRedThreeUndeclared});
  const HandReport& h = test::OnlyGame(r).hands.at(0);
  EXPECT_EQ(h.breakdown[1].penalties, -500);
  EXPECT_EQ(h.went_out, 1);
}

TEST(ScenarioThree, AKeptRedThreeIsReportedOnceNotAtEveryTurn_000S7) {
  // Seat 3 keeps its dealt 3H for three turns: one three-timing finding, at
  // the first turn's end. A second red three dealt to seat 2 is its own.
  Log log;
  DealSpec d;
  d.hands = {{}, {}, {"3D"}, {"3H"}};
  d.stock = {"9D", "9H", "9S", "QC", "JD", "JH", "TS", "TD", "TC", "7S", "7H", "7D"};
  log.Deal(d);
  log.PassTurn();                    // seat 1
  const int seat2 = log.PassTurn();  // seat 2 keeps 3D
  const int seat3 = log.PassTurn();  // seat 3 keeps 3H
  log.PassTurns(9);                  // three more rounds: both kept
  FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {seat2, CheckId::kThreeTiming}, {seat3, CheckId::kThreeTiming});
}

TEST(ScenarioThree, RedThreeOfAPlayerWithoutATurnIsNotPenalised) {
  // Seat 1 goes out in the first turn; seat 0 (the dealer) never played.
  Log log;
  DealSpec d;
  d.hands = {{"3H"}, {"KS", "KS", "KH", "KH", "KD", "KD", "KC", "QS", "QS", "QH", "QH"}};
  d.stock = {"9D"};
  log.Deal(d);
  log.Draw(1);
  log.Meld(1, {{"KS", "KS", "KH", "KH", "KD", "KD", "KC"}, {"QS", "QS", "QH", "QH"}});
  log.Discard(1, "9D");
  log.EndHand(1);
  FileReport r = Audit(log.str());
  EXPECT_CLEAN(r);
  EXPECT_EQ(test::OnlyGame(r).hands.at(0).breakdown[0].penalties, 0);
}

// ===========================================================================
// The discard pile

TEST(ScenarioPile, TakingAnEmptyPile) {
  Log log;
  DealSpec d;
  d.upcard = {};
  d.hands = {{}, {"8S", "8H"}};
  const int deal = log.Deal(d);
  const int take = log.Take(1, "8C", {"8S", "8H"});
  EXPECT_PROBLEMS(Audit(log.str()), {deal, CheckId::kDealUpcard}, {take, CheckId::kPileEmpty});
}

TEST(ScenarioPile, RecordedTopMustBeTheTop) {
  DealSpec d;
  d.hands = {{}, {"8S", "8H", "KS", "KH", "KD"}};
  for (const char* top : {"8D", "8C"}) {
    Log log;
    log.Deal(d);
    const int take = log.Take(1, top, {"8S", "8H"});  // the pile is [8C]
    log.Meld(1, {{"KS", "KH", "KD"}});                  // 30 + 30 = 60
    log.Discard(1, ToString(log.hand_cards(1).front()));
    if (std::string(top) == "8D") {
      EXPECT_PROBLEMS(Audit(log.str()), {take, CheckId::kPileTopMismatch});
    } else {
      EXPECT_CLEAN(Audit(log.str()));
    }
  }
}

TEST(ScenarioPile, WildCardOnTopBlocks) {
  Log log = OpenedSide({"2S", "2H"}, {"2C"}, "2C");
  const int take = log.Take(3, "2C", {"2S", "2H"});
  EXPECT_PROBLEMS(Audit(log.str()), {take, CheckId::kPileBlockedTop});
}

TEST(ScenarioPile, BlackThreeOnTopBlocks) {
  Log log = OpenedSide({"3S", "3C"}, {"3S"}, "3S");
  const int take = log.Take(3, "3S", {"3S", "3C"});
  EXPECT_PROBLEMS(Audit(log.str()), {take, CheckId::kPileBlockedTop});
}

TEST(ScenarioPile, FrozenForASideThatHasNotMelded) {
  // The pile [8C] holds no freezing card, but side 1 has not melded.
  DealSpec d;
  d.hands = {{}, {"8S", "JK", "8H", "KS", "KH", "KD"}};
  {
    Log log;
    log.Deal(d);
    const int take = log.Take(1, "8C", {"8S", "JK"});
    EXPECT_PROBLEMS(Audit(log.str()), {take, CheckId::kPileFrozenNeedsPair});
    EXPECT_NE(test::MessageOf(Audit(log.str()), CheckId::kPileFrozenNeedsPair).find("frozen"),
              std::string::npos);
  }
  {
    Log log;
    log.Deal(d);
    log.Take(1, "8C", {"8S", "8H"});  // 30
    log.Meld(1, {{"KS", "KH", "KD"}});  // + 30
    log.Discard(1, "JK");
    EXPECT_CLEAN(Audit(log.str()));
  }
}

TEST(ScenarioPile, FrozenByAWildCardInThePile) {
  // The upcard 2H freezes the pile for everyone; side 1 has melded.
  {
    Log log = OpenedSide({"9S", "JK"}, {"9D"}, "9D", {}, {"2H", "8C"});
    const int take = log.Take(3, "9D", {"9S", "JK"});
    EXPECT_PROBLEMS(Audit(log.str()), {take, CheckId::kPileFrozenNeedsPair});
  }
  {
    Log log = OpenedSide({"9S", "9H"}, {"9D"}, "9D", {}, {"2H", "8C"});
    log.Take(3, "9D", {"9S", "9H"});
    log.Discard(3, "AC");  // from the pile
    EXPECT_CLEAN(Audit(log.str()));
  }
  {
    // Without the wild in the pile, natural + wild takes it (000 §13 ¶2).
    Log log = OpenedSide({"9S", "JK"}, {"9D"}, "9D");
    log.Take(3, "9D", {"9S", "JK"});
    log.Discard(3, "AC");
    EXPECT_CLEAN(Audit(log.str()));
  }
}

TEST(ScenarioPile, OneCardHandMayNotTakeAOneCardPile) {
  // Seat 1 melds down to one card (9S) in its first turn; seat 0 takes the
  // pile and discards QC, leaving a pile of one card.
  auto build = [](bool take) {
    Log log = test::SeatOneDownToOneCard();
    log.PassTurn();  // seat 2: 9D
    log.Draw(3);     // JC
    log.Discard(3, "JC");
    log.Take(0, "JC", {"JS", "JH"});  // 30 + aces 60
    log.Meld(0, {{"AS", "AH", "AD"}});
    log.Discard(0, "QC");
    int line;
    if (take) {
      line = log.TakeTo(1, "QC", "Q");
    } else {
      log.Draw(1);  // KC
      line = log.Add(1, "K", {"KC"});
    }
    log.Discard(1, "9S");  // out
    log.EndHand(1);
    return std::make_pair(log, line);
  };
  auto [bad, take] = build(true);
  EXPECT_PROBLEMS(Audit(bad.str()), {take, CheckId::kPileOneCard});
  auto [good, add] = build(false);
  (void)add;
  EXPECT_CLEAN(Audit(good.str()));
}

TEST(ScenarioPile, TopCardNotDirectlyOntoACompletedCanasta) {
  // TC-C20: the top K onto the side's meld of kings.
  {
    Log log;
    DealSpec d;
    d.hands = {{}, {"KS", "KS", "KH", "KH", "KD", "KD", "KC"}, {"KC"}};
    d.stock = {"AC", "AD"};
    log.Deal(d);
    log.Draw(1);
    log.Meld(1, {{"KS", "KS", "KH", "KH", "KD", "KD", "KC"}});  // a natural canasta, 70
    log.Discard(1, "AC");
    log.Draw(2);
    log.Discard(2, "KC");
    const int take = log.TakeTo(3, "KC", "K");
    EXPECT_PROBLEMS(Audit(log.str()), {take, CheckId::kPileOntoCanasta});
  }
  {
    Log log;
    DealSpec d;
    d.hands = {{}, {"KS", "KH", "KD", "KC", "QS", "QH", "QD"}, {"KS"}};
    d.stock = {"AC", "AD"};
    log.Deal(d);
    log.Draw(1);
    log.Meld(1, {{"KS", "KH", "KD", "KC"}, {"QS", "QH", "QD"}});  // 70
    log.Discard(1, "AC");
    log.Draw(2);
    log.Discard(2, "KS");
    log.TakeTo(3, "KS", "K");  // onto K-K-K-K, unfinished: legal
    log.Discard(3, "AC");       // from the pile
    EXPECT_CLEAN(Audit(log.str()));
  }
}

TEST(ScenarioPile, TakeThatMakesNoMeld) {
  {
    Log log = OpenedSide({"TS", "TH"}, {"9D"}, "9D");
    const int take = log.Take(3, "9D", {"TS", "TH"});
    EXPECT_PROBLEMS(Audit(log.str()), {take, CheckId::kPileTakeInvalid});
  }
  {
    Log log = OpenedSide({}, {"9D"}, "9D");
    const int take = log.TakeTo(3, "9D", "9");  // the side has no meld of 9s
    EXPECT_PROBLEMS(Audit(log.str()), {take, CheckId::kPileTakeInvalid});
  }
  {
    Log log = OpenedSide({"9S"}, {"9D"}, "9D");
    const int take = log.Take(3, "9D", {"9S"});  // one card and the top: no meld
    EXPECT_PROBLEMS(Audit(log.str()), {take, CheckId::kPileTakeInvalid});
  }
  {
    Log log = OpenedSide({"QC"}, {"QC"}, "QC");
    log.Take(3, "QC", {"QC"});  // one card with the top, onto Q-Q-Q: legal
    log.Discard(3, "AC");
    EXPECT_CLEAN(Audit(log.str()));
  }
}

TEST(ScenarioPile, RecordedPileCount) {
  // The pile at seat 3's turn: 8C, AC, 9D.
  {
    Log log = OpenedSide({"9S", "9H"}, {"9D"}, "9D");
    const int take = log.Take(3, "9D", {"9S", "9H"}, 4);
    log.Discard(3, "AC");
    EXPECT_PROBLEMS(Audit(log.str()), {take, CheckId::kPileCount});
  }
  {
    Log log = OpenedSide({"9S", "9H"}, {"9D"}, "9D");
    log.Take(3, "9D", {"9S", "9H"}, 3);
    log.Discard(3, "AC");
    EXPECT_CLEAN(Audit(log.str()));
  }
}

// ===========================================================================
// Stock exhaustion (000 §15, TC-C13)

TEST(ScenarioStockOut, MustTakeADiscardThatFitsAnUnfinishedMeld) {
  // TC-C13 (b): side 1 has 9-9-9; the top 9C is not frozen: it must be taken.
  Log log = test::ExhaustWithNineOnTop({{"9S", "9H", "9D"}, {"KS", "KH", "KD"}}, {}, {});
  ASSERT_EQ(ToString(log.pile().back()), "9C");
  const int end = log.EndHand(1);
  EXPECT_PROBLEMS(Audit(log.str()), {end, CheckId::kStockOutMustTake});
}

TEST(ScenarioStockOut, MayRefuseADiscardThatWouldMakeANewMeld) {
  // TC-C13 (c): the 9C would only make a new meld with a pair from the hand.
  Log log = test::ExhaustWithNineOnTop({{"QS", "QH", "QD"}, {"KS", "KH", "KD"}}, {"9D", "9D"},
                                 {"9S", "9H"});
  ASSERT_EQ(ToString(log.pile().back()), "9C");
  log.EndHand(1);
  EXPECT_CLEAN(Audit(log.str()));
}

TEST(ScenarioStockOut, NoDutyToTakeOntoACompletedCanasta) {
  // readings R12: the 9C fits only a completed canasta of nines, onto which the top
  // card may not go directly (000 §13): the player may refuse.
  Log log = test::ExhaustWithNineOnTop({{"9S", "9S", "9H", "9H", "9D", "9D", "9C"}}, {}, {});
  ASSERT_EQ(ToString(log.pile().back()), "9C");
  log.EndHand(1);
  EXPECT_CLEAN(Audit(log.str()));
}

TEST(ScenarioStockOut, TakingTheLastDiscardGoesOn) {
  // (b) done legally: the seat in turn takes the 9C onto 9-9-9 and discards.
  Log log = test::ExhaustWithNineOnTop({{"9S", "9H", "9D"}, {"KS", "KH", "KD"}}, {}, {});
  const int seat = log.current();
  log.TakeTo(seat, "9C", "9");
  std::string discard;
  for (Card c : log.hand_cards(seat))
    if (!c.is_wild() && !c.is_three() && c.rank() != Rank::kNine && c.rank() != Rank::kKing) {
      discard = ToString(c);
      break;
    }
  ASSERT_FALSE(discard.empty());
  log.Discard(seat, discard);
  log.EndHand(1);
  // The next seat (side 0) has no meld for the discard: it may refuse.
  EXPECT_CLEAN(Audit(log.str()));
}

TEST(ScenarioStockOut, DiscardMissingAfterTheLastStockCard) {
  Log log = test::ExhaustWithNineOnTop({{"9S", "9H", "9D"}, {"KS", "KH", "KD"}}, {}, {});
  // Take back the last turn's discard: the log ends after the last draw.
  std::string text = log.str();
  text.erase(text.rfind("{\"type\":\"discard\""));
  std::istringstream count(text);
  int lines = 0;
  for (std::string l; std::getline(count, l);) ++lines;
  text += "{\"type\":\"end_hand\",\"hand\":1}\n";
  FileReport r = Audit(text);
  EXPECT_PROBLEMS(r, {lines + 1, CheckId::kDiscardMissing});
}

// ===========================================================================
// Melds

TEST(ScenarioMeld, TooSmall) {
  Log log = OpenedSide({"JS", "JH", "JD"});
  log.Draw(3);
  const int meld = log.Meld(3, {{"JS", "JH"}});
  log.Discard(3, "JD");
  EXPECT_PROBLEMS(Audit(log.str()), {meld, CheckId::kMeldTooSmall});

  Log good = OpenedSide({"JS", "JH", "JD"});
  good.Draw(3);
  good.Meld(3, {{"JS", "JH", "JD"}});
  good.Discard(3, ToString(good.hand_cards(3).front()));
  EXPECT_CLEAN(Audit(good.str()));
}

TEST(ScenarioMeld, MixedRanks) {
  Log log = OpenedSide({"JS", "JH", "TD"});
  log.Draw(3);
  const int meld = log.Meld(3, {{"JS", "JH", "TD"}});
  log.Discard(3, ToString(log.hand_cards(3).front()));
  EXPECT_PROBLEMS(Audit(log.str()), {meld, CheckId::kMeldMixedRanks});
}

TEST(ScenarioMeld, TooFewNaturals) {
  {
    Log log = OpenedSide({"JS", "2C", "JK"});
    log.Draw(3);
    const int meld = log.Meld(3, {{"JS", "2C", "JK"}});
    log.Discard(3, ToString(log.hand_cards(3).front()));
    EXPECT_PROBLEMS(Audit(log.str()), {meld, CheckId::kMeldTooFewNaturals});
  }
  {
    Log log = OpenedSide({"2S", "2C", "JK"});
    log.Draw(3);
    const int meld = log.Meld(3, {{"2S", "2C", "JK"}});  // wild cards alone
    log.Discard(3, ToString(log.hand_cards(3).back()));
    EXPECT_PROBLEMS(Audit(log.str()), {meld, CheckId::kMeldTooFewNaturals});
  }
  {
    Log log = OpenedSide({"JS", "JH", "JK"});
    log.Draw(3);
    log.Meld(3, {{"JS", "JH", "JK"}});  // 2 naturals, 1 wild
    log.Discard(3, ToString(log.hand_cards(3).front()));
    EXPECT_CLEAN(Audit(log.str()));
  }
}

TEST(ScenarioMeld, TooManyWilds) {
  {
    // TC-C06: K-K-2-JK, naturals do not outnumber wild cards.
    Log log = OpenedSide({"JS", "JH", "2C", "JK"});
    log.Draw(3);
    const int meld = log.Meld(3, {{"JS", "JH", "2C", "JK"}});
    log.Discard(3, ToString(log.hand_cards(3).back()));
    EXPECT_PROBLEMS(Audit(log.str()), {meld, CheckId::kMeldTooManyWilds});
  }
  {
    // A wild card added to Q-Q-Q (the side's meld): 3 naturals, 1 wild, legal;
    // a second and third make 3 + 3: illegal.
    Log log = OpenedSide({"2C", "2D", "JK"});
    log.Draw(3);
    log.Add(3, "Q", {"2C"});
    const int more = log.Add(3, "Q", {"2D", "JK"});
    log.Discard(3, ToString(log.hand_cards(3).back()));
    EXPECT_PROBLEMS(Audit(log.str()), {more, CheckId::kMeldTooManyWilds});
  }
}

TEST(ScenarioMeld, RedThreeIsNeverMelded) {
  Log log = OpenedSide({"3H", "3H", "3D"});
  log.Draw(3);
  const int meld = log.Meld(3, {{"3H", "3H", "3D"}});
  log.Discard(3, ToString(log.hand_cards(3).back()));
  EXPECT_PROBLEMS(Audit(log.str()), {meld, CheckId::kMeldRedThree});
}

TEST(ScenarioMeld, BlackThreesOnlyWhenGoingOut) {
  // Seat 1 lays a natural canasta of kings and black threes.
  auto build = [](bool all_four) {
    Log log;
    DealSpec d;
    d.hands = {{}, {"KS", "KS", "KH", "KH", "KD", "KD", "KC", "3S", "3S", "3C", "3C"}};
    d.stock = {"9D"};
    log.Deal(d);
    log.Draw(1);
    std::vector<std::string> threes = {"3S", "3S", "3C"};
    if (all_four) threes.push_back("3C");
    const int meld = log.Meld(1, {{"KS", "KS", "KH", "KH", "KD", "KD", "KC"}, threes});
    if (all_four) {
      log.Discard(1, "9D");  // out
    } else {
      log.Discard(1, "3C");  // not out: 9D stays
    }
    log.EndHand(1);
    return std::make_pair(log, meld);
  };
  auto [bad, meld] = build(false);
  const int end = bad.line();
  EXPECT_PROBLEMS(Audit(bad.str()), {meld, CheckId::kMeldBlackThree}, {end, CheckId::kHandEndedEarly});
  auto [good, unused] = build(true);
  (void)unused;
  EXPECT_CLEAN(Audit(good.str()));
}

TEST(ScenarioMeld, AddingToAMeldTheSideDoesNotHave) {
  {
    Log log = OpenedSide({"JS"});
    log.Draw(3);
    const int add = log.Add(3, "J", {"JS"});
    log.Discard(3, ToString(log.hand_cards(3).back()));
    EXPECT_PROBLEMS(Audit(log.str()), {add, CheckId::kMeldTargetMissing});
  }
  {
    // Seat 0 (side 0) adds to side 1's kings.
    Log log;
    DealSpec d;
    d.hands = {{"KC"}, {"KS", "KH", "KD", "QS", "QH", "QD"}};
    log.Deal(d);
    log.Draw(1);
    log.Meld(1, {{"KS", "KH", "KD"}, {"QS", "QH", "QD"}});
    log.Discard(1, ToString(log.hand_cards(1).front()));
    log.PassTurns(2);  // seats 2, 3
    log.Draw(0);
    const int add = log.Add(0, "K", {"KC"});
    FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {add, CheckId::kMeldTargetMissing});
    EXPECT_NE(test::MessageOf(r, CheckId::kMeldTargetMissing).find("other side"),
              std::string::npos);
  }
  {
    Log log = OpenedSide({"KC"});
    log.Draw(3);
    log.Add(3, "K", {"KC"});  // the partner's meld
    log.Discard(3, ToString(log.hand_cards(3).back()));
    EXPECT_CLEAN(Audit(log.str()));
  }
}

TEST(ScenarioMeld, InitialMeldMinimum) {
  DealSpec d;
  d.hands = {{}, {"KS", "KH", "KD", "5S", "5H", "5D", "7S", "7H", "7D"}};
  d.stock = {"AC"};
  {
    // 30 + 15 = 45 < 50 at total 0 (TC-C05).
    Log log;
    log.Deal(d);
    log.Draw(1);
    const int meld = log.Meld(1, {{"KS", "KH", "KD"}, {"5S", "5H", "5D"}});
    log.Discard(1, "AC");
    EXPECT_PROBLEMS(Audit(log.str()), {meld, CheckId::kInitialMeldMinimum});
    EXPECT_NE(test::MessageOf(Audit(log.str()), CheckId::kInitialMeldMinimum).find("45"),
              std::string::npos);
  }
  {
    // TC-C05 (a): 7-7-7 in a second meld event of the same turn: 60.
    Log log;
    log.Deal(d);
    log.Draw(1);
    log.Meld(1, {{"KS", "KH", "KD"}, {"5S", "5H", "5D"}});
    log.Meld(1, {{"7S", "7H", "7D"}});
    log.Discard(1, "AC");
    EXPECT_CLEAN(Audit(log.str()));
  }
  {
    // The finding points at the turn's last meld.
    Log log;
    log.Deal(d);
    log.Draw(1);
    log.Meld(1, {{"5S", "5H", "5D"}});
    const int last = log.Meld(1, {{"7S", "7H", "7D"}});
    log.Discard(1, "AC");
    EXPECT_PROBLEMS(Audit(log.str()), {last, CheckId::kInitialMeldMinimum});
  }
}

TEST(ScenarioMeld, InitialMeldCountsTheTopCard) {
  {
    // TC-X02: the top AC counts: AC + AS + AH = 60 >= 50; from the hand
    // alone it would be 40.
    Log log;
    DealSpec d;
    d.upcard = {"AC"};
    d.hands = {{}, {"AS", "AH"}};
    log.Deal(d);
    log.Take(1, "AC", {"AS", "AH"});
    log.Discard(1, ToString(log.hand_cards(1).front()));
    EXPECT_CLEAN(Audit(log.str()));
  }
  {
    // 7C + 7S + 7H (15) + K-K-K (30) = 45 < 50.
    Log log;
    DealSpec d;
    d.upcard = {"7C"};
    d.hands = {{}, {"7S", "7H", "KS", "KH", "KD"}};
    log.Deal(d);
    log.Take(1, "7C", {"7S", "7H"});
    const int meld = log.Meld(1, {{"KS", "KH", "KD"}});
    log.Discard(1, ToString(log.hand_cards(1).front()));
    EXPECT_PROBLEMS(Audit(log.str()), {meld, CheckId::kInitialMeldMinimum});
  }
}

TEST(ScenarioMeld, RetractNotAllowed) {
  {
    // Cards laid in an earlier turn (by the partner) may not be taken back.
    Log log = OpenedSide({});
    log.Draw(3);
    const int retract = log.Retract(3, {"KS"});
    EXPECT_PROBLEMS(Audit(log.str()), {retract, CheckId::kRetractNotAllowed});
  }
  {
    // A sufficient, legal meld is not taken back.
    Log log;
    DealSpec d;
    d.hands = {{}, {"KS", "KH", "KD", "QS", "QH", "QD"}};
    log.Deal(d);
    log.Draw(1);
    log.Meld(1, {{"KS", "KH", "KD"}, {"QS", "QH", "QD"}});
    const int retract = log.Retract(1, {"QS", "QH", "QD"});
    EXPECT_PROBLEMS(Audit(log.str()), {retract, CheckId::kRetractNotAllowed});
  }
}

// ===========================================================================
// Going out

TEST(ScenarioOut, GoingOutNeedsACanasta) {
  {
    // By a discard: K-K-K, Q-Q-Q and five jacks, no canasta.
    Log log;
    DealSpec d;
    d.hands = {{}, {"KS", "KH", "KD", "QS", "QH", "QD", "JS", "JH", "JD", "JC", "JS"}};
    d.stock = {"5C"};
    log.Deal(d);
    log.Draw(1);
    log.Meld(1, {{"KS", "KH", "KD"}, {"QS", "QH", "QD"}, {"JS", "JH", "JD", "JC", "JS"}});
    const int out = log.Discard(1, "5C");
    EXPECT_PROBLEMS(Audit(log.str()), {out, CheckId::kOutWithoutCanastas});
  }
  {
    // By melding every card.
    Log log;
    DealSpec d;
    d.hands = {{}, {"KS", "KH", "KD", "QS", "QH", "QD", "JS", "JH", "JD", "TS", "TH"}};
    d.stock = {"TD"};
    log.Deal(d);
    log.Draw(1);
    const int out =
        log.Meld(1, {{"KS", "KH", "KD"}, {"QS", "QH", "QD"}, {"JS", "JH", "JD"}, {"TS", "TH", "TD"}});
    EXPECT_PROBLEMS(Audit(log.str()), {out, CheckId::kOutWithoutCanastas});
  }
}

TEST(ScenarioOut, GoingOutByTakingThePileNeedsACanasta) {
  // West melds down to 9S 9H; South takes the pile and leaves a pile of one
  // card, 9D; West takes it with the pair and holds nothing: out. Only with
  // the canasta East lays (seven queens) is that legal.
  auto build = [](bool east_canasta) {
    Log log;
    DealSpec d;
    d.hands = {{"AS", "AH", "9D"},
               {"KS", "KH", "KD", "JS", "JH", "JD", "5S", "5H", "5D", "9S", "9H"},
               {},
               {"QS", "QS", "QH", "QH", "QD", "QD", "QC"}};
    d.stock = {"TH", "TD", "AC"};
    log.Deal(d);
    log.Draw(1);  // TH
    log.Meld(1, {{"KS", "KH", "KD"}, {"JS", "JH", "JD"}, {"5S", "5H", "5D"}});
    log.Discard(1, "TH");
    log.PassTurn();  // seat 2: TD
    log.Draw(3);     // AC
    if (east_canasta) log.Meld(3, {{"QS", "QS", "QH", "QH", "QD", "QD", "QC"}});
    log.Discard(3, "AC");
    log.Take(0, "AC", {"AS", "AH"});  // 60
    log.Discard(0, "9D");
    const int take = log.Take(1, "9D", {"9S", "9H"});
    log.EndHand(1);
    return std::make_pair(log, take);
  };
  {
    auto [log, take] = build(false);
    FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {take, CheckId::kOutWithoutCanastas});
  }
  {
    auto [log, take] = build(true);
    (void)take;
    FileReport r = Audit(log.str());
    EXPECT_CLEAN(r);
    EXPECT_EQ(test::OnlyGame(r).hands.at(0).went_out, 1);
    EXPECT_EQ(test::OnlyGame(r).hands.at(0).breakdown[1].going_out, 100);
  }
}

TEST(ScenarioOut, AskOutTiming) {
  {
    // After melding.
    Log log = OpenedSide({"JS", "JH", "JD"});
    log.Draw(3);
    log.Meld(3, {{"JS", "JH", "JD"}});
    const int ask = log.AskOut(3);
    log.Discard(3, ToString(log.hand_cards(3).front()));
    EXPECT_PROBLEMS(Audit(log.str()), {ask, CheckId::kOutAskTiming});
  }
  {
    // After taking the pile ("showing an intention to take the discard pile").
    Log log = OpenedSide({"9S", "9H"}, {"9D"}, "9D");
    log.Take(3, "9D", {"9S", "9H"});
    const int ask = log.AskOut(3);
    log.Discard(3, "AC");
    EXPECT_PROBLEMS(Audit(log.str()), {ask, CheckId::kOutAskTiming});
  }
  {
    // Outside the own turn.
    Log log = OpenedSide({});
    const int ask = log.AskOut(1);  // seat 3's turn
    EXPECT_PROBLEMS(Audit(log.str()), {ask, CheckId::kOutAskTiming});
  }
  {
    // Before and after drawing: allowed (answered no, and not going out).
    Log log = OpenedSide({});
    log.AskOut(3);
    log.Answer(1, false);
    log.Draw(3);
    log.AskOut(3);
    log.Answer(1, false);
    log.Discard(3, ToString(log.hand_cards(3).front()));
    EXPECT_CLEAN(Audit(log.str()));
  }
}

TEST(ScenarioOut, AnswerComesFromThePartner) {
  {
    Log log = OpenedSide({});
    log.AskOut(3);
    const int answer = log.Answer(2, false);  // seat 3's partner is seat 1
    EXPECT_PROBLEMS(Audit(log.str()), {answer, CheckId::kOutAnswerPlayer});
  }
  {
    Log log = OpenedSide({});
    const int answer = log.Answer(1, true);  // nobody asked
    EXPECT_PROBLEMS(Audit(log.str()), {answer, CheckId::kOutAnswerPlayer});
  }
}

TEST(ScenarioOut, AnswerIsBinding) {
  // Seat 1 holds a natural canasta of kings and Q-Q-Q after its first turn,
  // and JS; in its second turn it draws QC.
  auto build = [](bool yes, bool go_out) {
    Log log;
    DealSpec d;
    d.hands = {{}, {"KS", "KS", "KH", "KH", "KD", "KD", "KC", "QS", "QH", "QD", "JS"}};
    d.stock = {"JH", "9D", "9H", "9S", "QC"};
    log.Deal(d);
    log.Draw(1);
    log.Meld(1, {{"KS", "KS", "KH", "KH", "KD", "KD", "KC"}, {"QS", "QH", "QD"}});
    log.Discard(1, "JH");
    log.PassTurns(3);
    log.AskOut(1);
    log.Answer(3, yes);
    log.Draw(1);  // QC
    int last;
    if (go_out) {
      log.Add(1, "Q", {"QC"});
      last = log.Discard(1, "JS");
    } else {
      last = log.Discard(1, "QC");
    }
    return std::make_pair(log, last);
  };
  {
    auto [log, discard] = build(true, false);
    EXPECT_PROBLEMS(Audit(log.str()), {discard, CheckId::kOutAnswerBinding});
  }
  {
    auto [log, discard] = build(false, true);
    EXPECT_PROBLEMS(Audit(log.str()), {discard, CheckId::kOutAnswerBinding});
  }
  {
    auto [log, discard] = build(true, true);
    (void)discard;
    EXPECT_CLEAN(Audit(log.str()));
  }
  {
    auto [log, discard] = build(false, false);
    (void)discard;
    EXPECT_CLEAN(Audit(log.str()));
  }
}

TEST(ScenarioOut, SpecialHandsAreNotClassic) {
  Log log = PlainDeal();
  log.Draw(1);
  const int special = log.Raw(R"({"type":"special_hand","player":1,"cards":["AS","AH"]})");
  EXPECT_PROBLEMS(Audit(log.str()), {special, CheckId::kSpecialHandNotAllowed});
}

// ===========================================================================
// Scores and the game

TEST(ScenarioScore, RecordedScoresAreChecked) {
  Log probe;
  PlayQuickOut(probe, 1, 0);
  const std::vector<int> s = QuickOutScores(probe, 0);
  {
    Log log;
    PlayQuickOut(log, 1, 0);
    log.EndHand(1, "\"scores\":" + Ints(s) + ",\"totals\":" + Ints(s));
    FileReport r = Audit(log.str());
    EXPECT_CLEAN(r);
    EXPECT_EQ(test::OnlyGame(r).hands.at(0).scores, s);
  }
  {
    Log log;
    PlayQuickOut(log, 1, 0);
    const std::vector<int> wrong = {s[0], s[1] + 5};
    const int end = log.EndHand(1, "\"scores\":" + Ints(wrong) + ",\"totals\":" + Ints(wrong));
    EXPECT_PROBLEMS(Audit(log.str()), {end, CheckId::kScoreHand});
  }
}

TEST(ScenarioScore, BreakdownPartsAreCheckedOneByOne) {
  Log log;
  PlayQuickOut(log, 1, 0);
  const int in_hand = -log.SideHandValue(1);
  const int end = log.EndHand(
      1, "\"breakdown\":[{\"in_hand\":" + std::to_string(-log.SideHandValue(0)) +
             "},{\"canastas\":500,\"red_threes\":0,\"going_out\":100,\"melded\":120,"
             "\"in_hand\":" +
             std::to_string(in_hand) + "}]");
  // melded is 110 (70 + 40), not 120.
  EXPECT_PROBLEMS(Audit(log.str()), {end, CheckId::kScoreBreakdown});
  EXPECT_NE(test::MessageOf(Audit(log.str()), CheckId::kScoreBreakdown).find("110"),
            std::string::npos);
}

TEST(ScenarioScore, MalformedScoreRecords) {
  {
    // "threes" is accepted for "red_threes"; an unknown part is reported.
    Log log;
    PlayQuickOut(log, 1, 0);
    const int end = log.EndHand(1, R"("breakdown":[{"threes":0},{"threes":0,"bonus":5}])");
    EXPECT_PROBLEMS(Audit(log.str()), {end, CheckId::kLogBadEvent});
  }
  {
    // end_hand names another hand; the scores array has three entries.
    Log log;
    PlayQuickOut(log, 1, 0);
    const int end = log.EndHand(2, R"("scores":[0,0,0])");
    EXPECT_PROBLEMS(Audit(log.str()), {end, CheckId::kLogBadEvent}, {end, CheckId::kLogBadEvent});
  }
}

TEST(ScenarioScore, RunningTotals) {
  Log probe;
  PlayQuickOut(probe, 1, 0);
  const std::vector<int> s1 = QuickOutScores(probe, 0);
  Log probe2 = probe;
  probe2.EndHand(1);
  PlayQuickOut(probe2, 2, 1);
  const std::vector<int> s2 = QuickOutScores(probe2, 1);
  const std::vector<int> t2 = {s1[0] + s2[0], s1[1] + s2[1]};
  {
    Log log;
    PlayQuickOut(log, 1, 0);
    log.EndHand(1, "\"scores\":" + Ints(s1) + ",\"totals\":" + Ints(s1));
    PlayQuickOut(log, 2, 1);
    log.EndHand(2, "\"scores\":" + Ints(s2) + ",\"totals\":" + Ints(t2));
    log.EndGame("\"totals\":" + Ints(t2));
    FileReport r = Audit(log.str());
    // The game is far from 5,000: the end_game is early.
    EXPECT_PROBLEMS(r, {log.line(), CheckId::kGameEnd});
    EXPECT_EQ(test::OnlyGame(r).totals, t2);
  }
  {
    Log log;
    PlayQuickOut(log, 1, 0);
    log.EndHand(1, "\"scores\":" + Ints(s1) + ",\"totals\":" + Ints(s1));
    PlayQuickOut(log, 2, 1);
    const std::vector<int> bad = {t2[0], t2[1] - 100};
    const int end = log.EndHand(2, "\"scores\":" + Ints(s2) + ",\"totals\":" + Ints(bad));
    EXPECT_PROBLEMS(Audit(log.str()), {end, CheckId::kScoreTotal});
  }
  {
    // A wrong running total is reported once: the next total is checked
    // against the recorded one (previous total + hand score).
    Log log;
    PlayQuickOut(log, 1, 0);
    const std::vector<int> off = {s1[0] + 100, s1[1]};
    const int first = log.EndHand(1, "\"scores\":" + Ints(s1) + ",\"totals\":" + Ints(off));
    PlayQuickOut(log, 2, 1);
    const std::vector<int> carried = {off[0] + s2[0], off[1] + s2[1]};
    log.EndHand(2, "\"scores\":" + Ints(s2) + ",\"totals\":" + Ints(carried));
    FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {first, CheckId::kScoreTotal});
    EXPECT_EQ(test::OnlyGame(r).totals, t2);  // the true totals
  }
}

TEST(ScenarioGame, EndGameTotalsAreChecked) {
  Log probe;
  PlayQuickOut(probe, 1, 0);
  const std::vector<int> s = QuickOutScores(probe, 0);
  Log log;
  PlayQuickOut(log, 1, 0);
  log.EndHand(1);
  const int end = log.EndGame("\"totals\":" + Ints({s[0] + 10, s[1]}));
  EXPECT_PROBLEMS(Audit(log.str()), {end, CheckId::kGameEnd}, {end, CheckId::kGameTotals});
}

// A complete simulated game: clean; with its end_game changed, the winner,
// totals and the end are checked.
std::string SimulatedGame(uint64_t seed) {
  RulesetChoice classic;
  std::string error;
  EXPECT_TRUE(ResolveClassicOnly("classic", "", &classic, &error));
  std::ostringstream out;
  SimulateGame(classic, seed, SimulateOptions{}, out);
  return out.str();
}

TEST(ScenarioGame, WinnerIsTheHigherTotal) {
  const std::string game = SimulatedGame(7);
  FileReport clean = Audit(game);
  ASSERT_EQ(test::Findings(clean), test::FoundList{}) << test::Dump(clean);
  const GameReport& g = test::OnlyGame(clean);
  ASSERT_TRUE(g.finished);
  ASSERT_TRUE(g.winner.has_value());

  // Replace the last line (end_game) with the wrong winner.
  std::string body = game.substr(0, game.rfind('\n', game.size() - 2) + 1);
  int lines = 0;
  for (char c : body) lines += c == '\n';
  const std::string end = "{\"type\":\"end_game\",\"totals\":" + Ints(g.totals) +
                          ",\"winner\":" + std::to_string(1 - *g.winner) + "}\n";
  FileReport r = Audit(body + end);
  EXPECT_PROBLEMS(r, {lines + 1, CheckId::kGameWinner});

  // Another deal after the game is over.
  Log extra(4, false);
  DealSpec d;
  d.hand = int(g.hands.size()) + 1;
  d.dealer = int(g.hands.size()) % 4;
  extra.Deal(d);
  FileReport r2 = Audit(game + extra.str());
  EXPECT_PROBLEMS(r2, {lines + 2, CheckId::kGameEnd});
}

// ===========================================================================
// The log itself

TEST(ScenarioLog, NotACanastaLog) {
  FileReport r = Audit("hello, world\n{\"type\":\"deal\"}\nmore text\n");
  EXPECT_FINDINGS(r, {1, CheckId::kLogNotCanastaLog});
  EXPECT_TRUE(r.games.empty());

  FileReport r2 = Audit("{\"type\":\"note\",\"text\":\"hi\"}\n");
  EXPECT_FINDINGS(r2, {1, CheckId::kLogNotCanastaLog});

  FileReport r3 = Audit("{\"type\":\"game\",\"format\":\"canasta-log/2\",\"players\":[]}\n");
  EXPECT_FINDINGS(r3, {1, CheckId::kLogNotCanastaLog});
}

// A line that does not parse may have been any move: the rest of its hand
// is not replayed, and the replay goes on at the next deal (issue 7).
TEST(ScenarioLog, MalformedJsonMidFileAndTheReplayGoesOnAtTheNextDeal) {
  Log log = PlainDeal();
  log.PassTurn();
  const int bad = log.Raw("{\"type\":\"draw\",\"player\":2,");
  log.PassTurn();
  log.Draw(0);  // out of turn, but the state is unknown: not reported
  log.EndHand(1);
  DealSpec d;
  d.hand = 2;
  d.dealer = 1;
  log.Deal(d);
  const int wrong = log.Draw(0);  // seat 2's turn: replayed again
  EXPECT_PROBLEMS(Audit(log.str()), {bad, CheckId::kLogBadJson}, {wrong, CheckId::kTurnOrder});
}

TEST(ScenarioLog, UnknownEvent) {
  Log log = PlainDeal();
  const int line = log.Raw(R"({"type":"shuffle","player":1})");
  log.PassTurn();
  EXPECT_PROBLEMS(Audit(log.str()), {line, CheckId::kLogUnknownEvent});
}

TEST(ScenarioLog, BadCard) {
  Log log = PlainDeal();
  log.Draw(1);
  const int line = log.Raw(R"({"type":"discard","player":1,"card":"1S"})");
  const int again = log.Discard(1, ToString(log.hand_cards(1).front()));
  // The bad discard is not applied: the good one after it is the turn's.
  EXPECT_PROBLEMS(Audit(log.str()), {line, CheckId::kLogBadCard});
  (void)again;
}

TEST(ScenarioLog, TenIsAcceptedForT) {
  Log log;
  DealSpec d;
  d.hands = {{}, {"10H"}};
  log.Deal(d);
  log.Draw(1);
  log.Discard(1, "10H");
  EXPECT_CLEAN(Audit(log.str()));
}

TEST(ScenarioLog, MissingField) {
  Log log = PlainDeal();
  const int line = log.Raw(R"({"type":"draw","player":1})");
  log.PassTurn();
  EXPECT_PROBLEMS(Audit(log.str()), {line, CheckId::kLogBadEvent});
}

TEST(ScenarioLog, EventBeforeAnyDeal) {
  Log log;
  const int line = log.Raw(R"({"type":"draw","player":1,"cards":["KS"]})");
  EXPECT_PROBLEMS(Audit(log.str()), {line, CheckId::kLogOutOfPlace});
}

TEST(ScenarioLog, UnknownRulesetAndPlayerCount) {
  FileReport r = Audit(
      R"({"type":"game","format":"canasta-log/1","ruleset":"no-such-rules","players":["A","B","C","D"]})"
      "\n");
  EXPECT_FINDINGS(r, {1, CheckId::kLogUnknownRuleset});

  FileReport r2 = Audit(
      R"({"type":"game","format":"canasta-log/1","ruleset":"classic","players":["A","B","C"]})"
      "\n");
  EXPECT_FINDINGS(r2, {1, CheckId::kLogPlayers});
}

TEST(ScenarioLog, TruncatedLastLine) {
  Log log = PlainDeal();
  log.PassTurn();
  std::string text = log.str() + R"({"type":"draw","player":2,"ca)";  // no newline
  const int last = log.line() + 1;
  FileReport r = Audit(text);
  EXPECT_PROBLEMS(r, {last, CheckId::kLogBadJson});
  EXPECT_TRUE(test::HasId(r, CheckId::kLogIncomplete));
}

TEST(ScenarioLog, NoEndGameIsAWarningAtTheLastLine) {
  Log log;
  PlayQuickOut(log, 1, 0);
  const int end = log.EndHand(1);
  FileReport r = Audit(log.str());
  EXPECT_FINDINGS(r, {end, CheckId::kLogIncomplete});

  // Stopping mid-hand: one for the hand, one for the game, both at the end.
  Log mid = PlainDeal();
  const int discard = mid.PassTurn();
  EXPECT_FINDINGS(Audit(mid.str()), {discard, CheckId::kLogIncomplete},
                  {discard, CheckId::kLogIncomplete});
}

// ===========================================================================
// The logs in tests/scenarios/ (readable examples; see the notes inside)

#ifdef CANASTA_SOURCE_DIR
FileReport AuditScenarioFile(const std::string& name) {
  return AuditFile(std::string(CANASTA_SOURCE_DIR) + "/tests/scenarios/" + name, AuditOptions{});
}

TEST(ScenarioFiles, QuickOutIsClean) {
  FileReport r = AuditScenarioFile("quick_out.jsonl");
  ASSERT_FALSE(r.unreadable);
  EXPECT_FINDINGS(r, {7, CheckId::kLogIncomplete});  // no end_game: the game is not over
  ASSERT_EQ(test::OnlyGame(r).hands.size(), 1u);
  EXPECT_EQ(test::OnlyGame(r).hands[0].went_out, 1);
  EXPECT_TRUE(test::OnlyGame(r).hands[0].complete);
}

TEST(ScenarioFiles, TutorialHandScores1260) {
  FileReport r = AuditScenarioFile("tc_t11_hand_1260.jsonl");
  ASSERT_FALSE(r.unreadable);
  EXPECT_PROBLEMS(r, {14, CheckId::kMeldTooManyWilds});
  ASSERT_EQ(test::OnlyGame(r).hands.size(), 1u);
  EXPECT_EQ(test::OnlyGame(r).hands[0].scores[0], 1260);
}

TEST(ScenarioFiles, OneMistakeOfEachKind) {
  FileReport r = AuditScenarioFile("mistakes.jsonl");
  ASSERT_FALSE(r.unreadable);
  EXPECT_PROBLEMS(r, {5, CheckId::kThreeReplacement}, {10, CheckId::kTurnOrder},
                  {14, CheckId::kCardNotHeld}, {25, CheckId::kPileFrozenNeedsPair},
                  {28, CheckId::kHandEndedEarly}, {30, CheckId::kLogBadCard},
                  {32, CheckId::kLogBadJson});
}
#endif

}  // namespace
}  // namespace canasta
