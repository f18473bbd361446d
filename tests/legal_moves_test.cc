// The legal-move generator (core/legal_moves.h): the exact set it generates,
// move kind by move kind, on scripted classic positions; then, on random
// positions reached by self-play under every runnable built-in ruleset, the
// same set as a brute-force enumeration of the hand filtered by
// Position::Check and by the turn's legal finish.
#include "core/legal_moves.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/bots.h"
#include "replay/log_writer.h"
#include "scripting/ruleset.h"
#include "test_util.h"

namespace canasta {
namespace {

using test::C;
using test::Cs;

std::set<std::string> Keys(const std::vector<Move>& moves) {
  std::set<std::string> keys;
  for (const Move& m : moves) keys.insert(PlayKey(m));
  return keys;
}

// The keys of one kind of move only ("meld", "take", "discard", ...).
std::set<std::string> KeysOf(const std::vector<Move>& moves, const std::string& kind) {
  std::set<std::string> keys;
  for (const std::string& k : Keys(moves))
    if (k.compare(0, kind.size() + 1, kind + " ") == 0) keys.insert(k);
  return keys;
}

// A classic deal: seat 1 (first to play) holds `hand` exactly; the upcard
// and the stock's first cards as given.
DealMove ClassicDeal(const std::vector<std::string>& hand, const std::string& upcard,
                     const std::vector<std::string>& stock) {
  test::Log log;
  test::DealSpec d;
  d.hands = {{}, hand};
  d.upcard = {upcard};
  d.stock = stock;
  log.Deal(d);
  return log.deal_move();
}

void Play(Position& pos, const Move& m) {
  TaggedViolations v = pos.Play(m);
  ASSERT_TRUE(v.empty()) << PlayKey(m) << ": " << v[0].violation.message;
}

// --- Discards -------------------------------------------------------------

TEST(LegalMovesDiscard, OnePerClassOfInterchangeableCards) {
  const Rules rules;
  Position pos(rules, DefaultHooks(), {0, 0});
  ASSERT_TRUE(
      pos.Deal(ClassicDeal({"KS", "KH", "7C", "5S", "4H", "3S", "9D", "QH", "8D", "6H", "TD"}, "8C",
                           {"JS"}))
          .empty());
  Play(pos, DrawMove{1, Cs({"JS"}), 0});
  const std::vector<Move> legal = LegalMoves(pos);
  // KS and KH are one discard; no meld is possible (a pair and no wild card).
  EXPECT_EQ(KeysOf(legal, "discard"),
            (std::set<std::string>{"discard 1: b3x1", "discard 1: 4x1", "discard 1: 5x1",
                                   "discard 1: 6x1", "discard 1: 7x1", "discard 1: 8x1",
                                   "discard 1: 9x1", "discard 1: Tx1", "discard 1: Jx1",
                                   "discard 1: Qx1", "discard 1: Kx1"}));
  EXPECT_EQ(KeysOf(legal, "meld"), std::set<std::string>{});
  // "May I go out?" is offered (the answer no leaves the turn finishable).
  EXPECT_EQ(KeysOf(legal, "ask"), std::set<std::string>{"ask 1"});
  EXPECT_EQ(legal.size(), 12u);
}

TEST(LegalMovesDiscard, WildCardsOnlyWhereTheRulesetAllows) {
  Rules rules;
  rules.wild_discard = WildDiscard::kOnlyIfNoOtherCard;  // 002 Play-8, readings R26
  Position pos(rules, DefaultHooks(), {0, 0});
  ASSERT_TRUE(
      pos.Deal(ClassicDeal({"KS", "7C", "5S", "4H", "9D", "QH", "8D", "6H", "TD", "2C", "JK"}, "8C",
                           {"JS"}))
          .empty());
  Play(pos, DrawMove{1, Cs({"JS"}), 0});
  const std::set<std::string> discards = KeysOf(LegalMoves(pos), "discard");
  EXPECT_EQ(discards.count("discard 1: 2x1"), 0u);
  EXPECT_EQ(discards.count("discard 1: JKx1"), 0u);
  EXPECT_EQ(discards.size(), 10u);  // K 4 5 6 7 8 9 T J Q
}

// --- Taking the pile ------------------------------------------------------

// Seat 1 has not melded, so the pile is frozen for it (000 §14): only takes
// with a natural pair of 8s, with or without the two and the third 8.
TEST(LegalMovesTake, FrozenForTheSideEveryTakeWithANaturalPair) {
  const Rules rules;
  Position pos(rules, DefaultHooks(), {0, 0});
  ASSERT_TRUE(
      pos.Deal(ClassicDeal({"8S", "8H", "8D", "KS", "KH", "KD", "AS", "AH", "2C", "5S", "6H"}, "8C",
                           {"JS"}))
          .empty());
  EXPECT_EQ(Keys(LegalMoves(pos)),
            (std::set<std::string>{"draw 1", "take 1: 8x2", "take 1: 8x2 2x1", "take 1: 8x3",
                                   "take 1: 8x3 2x1"}));
}

TEST(LegalMovesTake, FrozenTakeNewMeldIsThePairAlone) {
  Rules rules;
  rules.frozen_take_new_meld = true;  // 002 Play-5
  Position pos(rules, DefaultHooks(), {0, 0});
  ASSERT_TRUE(
      pos.Deal(ClassicDeal({"8S", "8H", "8D", "KS", "KH", "KD", "AS", "AH", "2C", "5S", "6H"}, "8C",
                           {"JS"}))
          .empty());
  EXPECT_EQ(Keys(LegalMoves(pos)), (std::set<std::string>{"draw 1", "take 1: 8x2"}));
}

// The take must leave a legal finish: 8-8-8 counts 30, and nothing else in
// the hand melds, so the initial meld cannot reach 50.
TEST(LegalMovesTake, OnlyWhereTheInitialMeldCanReachTheMinimum) {
  const Rules rules;
  Position pos(rules, DefaultHooks(), {0, 0});
  ASSERT_TRUE(
      pos.Deal(ClassicDeal({"8S", "8H", "KS", "QH", "AS", "9H", "JC", "TC", "5S", "6H", "7D"}, "8C",
                           {"JS"}))
          .empty());
  EXPECT_EQ(Keys(LegalMoves(pos)), (std::set<std::string>{"draw 1"}));
  // The take itself is one Check accepts: the generator leaves it out because
  // the turn could not end legally.
  EXPECT_TRUE(pos.Check(TakePileMove{1, C("8C"), Cs({"8S", "8H"}), {}, {}, 0}).empty());
}

// Seat 1 opens with K-K-K and A-A-A; a later king on the pile is taken onto
// the meld, with one king, with a wild card, or with a king and a wild card.
TEST(LegalMovesTake, UnfrozenOntoTheMeldWithANaturalOrAWild) {
  const Rules rules;
  Position pos(rules, DefaultHooks(), {0, 0});
  test::Log log;
  test::DealSpec d;
  d.hands = {{"KC", "5C", "5C", "6C", "6C", "7C", "7C", "9S", "9S", "TS", "TS"},
             {"KS", "KH", "KD", "AS", "AH", "AD", "KD", "2C", "5S", "6H", "7D"},
             {"4S", "4S", "4H", "4H", "5H", "5H", "6S", "6S", "7S", "7S", "9C"},
             {"4C", "4C", "4D", "4D", "5D", "5D", "6D", "6D", "9D", "9D", "TD"}};
  d.upcard = {"8C"};
  d.stock = {"JS", "JH", "JC", "JD", "QS"};
  log.Deal(d);
  ASSERT_TRUE(pos.Deal(log.deal_move()).empty());
  Play(pos, DrawMove{1, Cs({"JS"}), 0});
  Play(pos, MeldMove{1, {MeldPart{{}, {}, Cs({"KS", "KH", "KD"})}}, 0});
  Play(pos, MeldMove{1, {MeldPart{{}, {}, Cs({"AS", "AH", "AD"})}}, 0});
  Play(pos, DiscardMove{1, C("JS"), 0});
  Play(pos, DrawMove{2, Cs({"JH"}), 0});
  Play(pos, DiscardMove{2, C("JH"), 0});
  Play(pos, DrawMove{3, Cs({"JC"}), 0});
  Play(pos, DiscardMove{3, C("JC"), 0});
  Play(pos, DrawMove{0, Cs({"JD"}), 0});
  Play(pos, DiscardMove{0, C("KC"), 0});
  EXPECT_EQ(Keys(LegalMoves(pos)), (std::set<std::string>{"draw 1", "take 1: onto", "take 1: Kx1",
                                                          "take 1: 2x1", "take 1: Kx1 2x1"}));
}

// --- Melds ----------------------------------------------------------------

// The initial meld (50) may be made of K-K-K and Q-Q-Q, with or without the
// two: every one-part meld that more melds can complete is offered.
TEST(LegalMovesMeld, EveryOnePartMeldTowardTheInitialMeld) {
  const Rules rules;
  Position pos(rules, DefaultHooks(), {0, 0});
  ASSERT_TRUE(
      pos.Deal(ClassicDeal({"KS", "KH", "KD", "QS", "QH", "QD", "2C", "5S", "6H", "7D", "9C"}, "8C",
                           {"JS"}))
          .empty());
  Play(pos, DrawMove{1, Cs({"JS"}), 0});
  const std::vector<Move> legal = LegalMoves(pos);
  EXPECT_EQ(KeysOf(legal, "meld"),
            (std::set<std::string>{"meld 1 K: Kx3;", "meld 1 K: Kx3 2x1;", "meld 1 K: Kx2 2x1;",
                                   "meld 1 Q: Qx3;", "meld 1 Q: Qx3 2x1;", "meld 1 Q: Qx2 2x1;"}));
  // Before any meld, every discard is legal.
  EXPECT_EQ(KeysOf(legal, "discard").size(), 8u);
  EXPECT_EQ(legal.size(), 6u + 1u + 8u);

  // After K-K-K (30), only what brings the count to 50: Q-Q-Q, Q-Q-2,
  // Q-Q-Q-2, or the two onto the kings; no discard yet (30 < 50).
  Play(pos, MeldMove{1, {MeldPart{{}, {}, Cs({"KS", "KH", "KD"})}}, 0});
  const std::vector<Move> after = LegalMoves(pos);
  EXPECT_EQ(Keys(after), (std::set<std::string>{"meld 1 K: 2x1;", "meld 1 Q: Qx3;",
                                                "meld 1 Q: Qx3 2x1;", "meld 1 Q: Qx2 2x1;"}));
  // A retract is legal now (the meld is insufficient) but never generated.
  EXPECT_TRUE(pos.Check(RetractMove{1, Cs({"KS", "KH", "KD"}), 0}).empty());
}

TEST(LegalMovesMeld, NoMeldWhenTheMinimumIsOutOfReach) {
  const Rules rules;
  Position pos(rules, DefaultHooks(), {1500, 0});  // side 1 needs 90 (000 §8)
  ASSERT_TRUE(
      pos.Deal(ClassicDeal({"KS", "KH", "KD", "QS", "QH", "QD", "2C", "5S", "6H", "7D", "9C"}, "8C",
                           {"JS"}))
          .empty());
  ASSERT_EQ(pos.Minimum(1), 50);
  Position high(rules, DefaultHooks(), {0, 1500});
  ASSERT_TRUE(
      high.Deal(ClassicDeal({"KS", "KH", "KD", "QS", "QH", "QD", "2C", "5S", "6H", "7D", "9C"},
                            "8C", {"JS"}))
          .empty());
  ASSERT_EQ(high.Minimum(1), 90);
  Play(high, DrawMove{1, Cs({"JS"}), 0});
  // K-K-K, Q-Q-Q and the two count 80 < 90.
  EXPECT_EQ(KeysOf(LegalMoves(high), "meld"), std::set<std::string>{});
}

// --- Going out, asking ----------------------------------------------------

TEST(LegalMovesGoingOut, TheLastMeldAndTheLastDiscard) {
  Rules rules;
  rules.canastas_to_go_out = 0;  // so that a first turn may go out
  Position pos(rules, DefaultHooks(), {0, 0});
  ASSERT_TRUE(
      pos.Deal(ClassicDeal({"KS", "KH", "KD", "QS", "QH", "QD", "AS", "AH", "AD", "7S", "7H"}, "8C",
                           {"7D"}))
          .empty());
  Play(pos, DrawMove{1, Cs({"7D"}), 0});
  Play(pos, MeldMove{1, {MeldPart{{}, {}, Cs({"KS", "KH", "KD"})}}, 0});
  Play(pos, MeldMove{1, {MeldPart{{}, {}, Cs({"QS", "QH", "QD"})}}, 0});
  Play(pos, MeldMove{1, {MeldPart{{}, {}, Cs({"AS", "AH", "AD"})}}, 0});
  // 7-7-7 goes out; discarding a 7 leaves two.
  EXPECT_EQ(Keys(LegalMoves(pos)), (std::set<std::string>{"meld 1 7: 7x3;", "discard 1: 7x1"}));
  Play(pos, DiscardMove{1, C("7S"), 0});
  EXPECT_EQ(pos.phase(), Phase::kDraw);
}

TEST(LegalMovesGoingOut, DiscardOfTheLastCard) {
  Rules rules;
  rules.canastas_to_go_out = 0;
  Position pos(rules, DefaultHooks(), {0, 0});
  ASSERT_TRUE(
      pos.Deal(ClassicDeal({"KS", "KH", "KD", "KC", "QS", "QH", "QD", "QC", "AS", "AH", "AD"}, "8C",
                           {"9C"}))
          .empty());
  Play(pos, DrawMove{1, Cs({"9C"}), 0});
  Play(pos, MeldMove{1, {MeldPart{{}, {}, Cs({"KS", "KH", "KD", "KC"})}}, 0});
  Play(pos, MeldMove{1, {MeldPart{{}, {}, Cs({"QS", "QH", "QD", "QC"})}}, 0});
  EXPECT_EQ(Keys(LegalMoves(pos)),
            (std::set<std::string>{"meld 1 A: Ax3;", "discard 1: 9x1", "discard 1: Ax1"}));
  Play(pos, MeldMove{1, {MeldPart{{}, {}, Cs({"AS", "AH", "AD"})}}, 0});
  // The last card's discard goes out.
  EXPECT_EQ(Keys(LegalMoves(pos)), (std::set<std::string>{"discard 1: 9x1"}));
  Play(pos, DiscardMove{1, C("9C"), 0});
  EXPECT_EQ(pos.went_out(), 1);
}

TEST(LegalMovesAsk, AnswersOnlyThoseThatLeaveALegalFinish) {
  const Rules rules;  // one canasta to go out: seat 1 cannot go out
  Position pos(rules, DefaultHooks(), {0, 0});
  ASSERT_TRUE(
      pos.Deal(ClassicDeal({"KS", "KH", "7C", "5S", "4H", "3S", "9D", "QH", "8D", "6H", "TD"}, "8C",
                           {"JS"}))
          .empty());
  Play(pos, DrawMove{1, Cs({"JS"}), 0});
  Play(pos, AskOutMove{1, 0});
  EXPECT_EQ(Keys(LegalMoves(pos)), (std::set<std::string>{"answer 3: no"}));

  Rules easy;
  easy.canastas_to_go_out = 0;
  Position out(easy, DefaultHooks(), {0, 0});
  ASSERT_TRUE(
      out.Deal(ClassicDeal({"KS", "KH", "KD", "QS", "QH", "QD", "AS", "AH", "AD", "7S", "7H"}, "8C",
                           {"7D"}))
          .empty());
  Play(out, DrawMove{1, Cs({"7D"}), 0});
  Play(out, AskOutMove{1, 0});
  EXPECT_EQ(Keys(LegalMoves(out)), (std::set<std::string>{"answer 3: yes", "answer 3: no"}));
  Play(out, AnswerMove{3, true, 0});
  // Bound to go out: no ask again, and only melds that still go out.
  const std::vector<Move> bound = LegalMoves(out);
  EXPECT_EQ(KeysOf(bound, "ask"), std::set<std::string>{});
  EXPECT_EQ(KeysOf(bound, "discard"), std::set<std::string>{});
  EXPECT_EQ(KeysOf(bound, "meld"), (std::set<std::string>{"meld 1 K: Kx3;", "meld 1 Q: Qx3;",
                                                          "meld 1 A: Ax3;", "meld 1 7: 7x3;"}));
}

// "May I go out?" asked before the draw (000 §17 lets it be asked before
// drawing): the turn is still to be played, so LeavesLegalFinish holds
// whatever the answer will be. The generator leaves it out (core/
// legal_moves.h: whether the asker can go out depends on the card drawn).
TEST(LegalMovesAsk, AskingBeforeTheDrawLeavesTheTurnToBePlayed_000S17) {
  Rules easy;
  easy.canastas_to_go_out = 0;
  Position pos(easy, DefaultHooks(), {0, 0});
  ASSERT_TRUE(
      pos.Deal(ClassicDeal({"KS", "KH", "KD", "QS", "QH", "QD", "AS", "AH", "AD", "7S", "7H"}, "8C",
                           {"7D"}))
          .empty());
  ASSERT_NE(pos.phase(), Phase::kPlay);  // dealt: the first turn not begun
  ASSERT_TRUE(pos.Check(AskOutMove{1, 0}).empty());
  EXPECT_TRUE(LeavesLegalFinish(pos, AskOutMove{1, 0}));
  EXPECT_EQ(KeysOf(LegalMoves(pos), "ask"), std::set<std::string>{});
}

// Bound to go out in the opening turn: every finish goes out, and going out
// needs the initial meld's count as a discard does (000 §10, §17;
// Position::CheckTurnEnd). At a total of 1,500 the side needs 90 (000 §10);
// the count reaches 100 only when everything but the 9 is laid, so a first
// meld of three is legal only because going out there reaches the minimum
// (the finish judged on counts, docs/simulation.md, must count it for going
// out, and not more).
TEST(LegalMovesAsk, BoundToGoOutTheOpeningCountIsReachedByGoingOut) {
  Rules rules;
  rules.canastas_to_go_out = 0;
  Position pos(rules, DefaultHooks(), {0, 1500});
  ASSERT_TRUE(
      pos.Deal(ClassicDeal({"8S", "8H", "8D", "5S", "5H", "5D", "6S", "6H", "6D", "9C", "2C"}, "8C",
                           {"2D"}))
          .empty());
  Play(pos, DrawMove{1, Cs({"2D"}), 0});
  Play(pos, AskOutMove{1, 0});
  Play(pos, AnswerMove{3, true, 0});
  const std::set<std::string> melds = KeysOf(LegalMoves(pos), "meld");
  for (const char* key : {"meld 1 8: 8x3;", "meld 1 5: 5x3;", "meld 1 6: 6x3;"})
    EXPECT_EQ(melds.count(key), 1u) << key;
  // The finish it stands for is legal, card for card.
  Play(pos, MeldMove{1, {MeldPart{{}, {}, Cs({"8S", "8H", "8D"})}}, 0});
  Play(pos, MeldMove{1, {MeldPart{{}, {}, Cs({"5S", "5H", "5D"})}}, 0});
  Play(pos, MeldMove{1, {MeldPart{{}, {}, Cs({"6S", "6H", "6D", "2C", "2D"})}}, 0});
  Play(pos, DiscardMove{1, C("9C"), 0});
  EXPECT_EQ(pos.went_out(), 1);
}

// --- The self-play walk of the tests below ---------------------------------

// Plays deals of `choice` while `more()` holds and `deals` are left: each
// dealt with totals_for(deal), played on from LegalMoves by a random bot
// (even deals) or a sensible one (odd deals), the red threes due laid first
// unasked, until the deal is over, no move is legal, or the stock is gone
// and the player in turn may end the deal. visit(deal, pos, legal) sees every
// position before its move is played; a failed assertion ends the walk.
template <class More, class Totals, class Visit>
void WalkSelfPlay(const RulesetChoice& choice, Rng& rng, int deals, More&& more,
                  Totals&& totals_for, Visit&& visit) {
  const Rules& r = choice.rules;
  std::unique_ptr<Bot> bots[2] = {MakeRandomBot(), MakeSensibleBot()};
  for (int deal = 0; more() && deal < deals; ++deal) {
    Position pos(r, *choice.hooks, totals_for(deal));
    ASSERT_TRUE(pos.Deal(ShuffledDeal(r, deal % r.num_players, rng)).empty());
    for (int guard = 0; guard < 3000; ++guard) {
      if (pos.phase() == Phase::kOver && DueThrees(pos, pos.current_player()).empty()) break;
      const std::vector<Move> legal = LegalMoves(pos);
      visit(deal, pos, legal);
      if (::testing::Test::HasFailure()) return;
      if (legal.empty()) break;
      const bool threes = std::holds_alternative<ThreeMove>(legal[0]);
      if (pos.stock_size() == 0 && pos.phase() != Phase::kPlay && MayEndDeal(pos) && !threes) break;
      size_t pick = 0;
      if (!threes) pick = bots[deal % 2]->Choose(SeatView(pos, pos.current_player()), legal, rng);
      TaggedViolations v = pos.Play(legal[pick]);
      ASSERT_TRUE(v.empty()) << PlayKey(legal[pick]) << ": " << v[0].violation.message;
    }
  }
}

// WalkSelfPlay with each deal's totals drawn side by side from a few values,
// so that every band of the initial-meld minimum is met.
template <class More, class Visit>
void WalkWithMixedTotals(const RulesetChoice& choice, Rng& rng, int deals, More&& more,
                         Visit&& visit) {
  static constexpr int kTotals[] = {0, 1600, 3200, -100};
  WalkSelfPlay(
      choice, rng, deals, more,
      [&](int) {
        std::vector<int> totals(size_t(choice.rules.num_sides()));
        for (int& t : totals) t = kTotals[rng.Below(4)];
        return totals;
      },
      visit);
}

// A built-in ruleset or a ruleset file, chosen; nothing if it does not load.
std::optional<RulesetChoice> ChoiceOf(const char* name) {
  std::variant<Ruleset, LuaError> loaded = LoadRuleset(name);
  if (!std::holds_alternative<Ruleset>(loaded)) return std::nullopt;
  return std::get<Ruleset>(loaded).Choose();
}

// --- The brute force ------------------------------------------------------

// Every sub-multiset of the hand by class (where there are more than
// kFullLimit, only those whose natural cards are of one class: a meld part
// or a take of two natural classes is refused by Check as mixed ranks, which
// the full enumeration on the smaller hands shows).
constexpr long kFullLimit = 3000;

std::vector<std::vector<Card>> SubMultisets(const CardCounts& hand) {
  std::vector<std::pair<Card, int>> faces;  // one face per class
  std::vector<std::vector<Card>> by_class(16);
  for (Card c : hand.ToVector()) by_class[size_t(CardClass(c))].push_back(c);
  long product = 1;
  for (const auto& v : by_class) product *= long(v.size()) + 1;
  std::vector<std::vector<Card>> out;
  std::vector<int> classes;
  for (int k = 0; k < 16; ++k)
    if (!by_class[size_t(k)].empty()) classes.push_back(k);
  auto expand = [&](const std::vector<int>& ks) {
    std::vector<int> take(ks.size(), 0);
    while (true) {
      std::vector<Card> s;
      for (size_t i = 0; i < ks.size(); ++i)
        s.insert(s.end(), by_class[size_t(ks[i])].begin(),
                 by_class[size_t(ks[i])].begin() + take[i]);
      if (!s.empty()) out.push_back(s);
      size_t i = 0;
      while (i < ks.size() && ++take[i] > int(by_class[size_t(ks[i])].size())) take[i++] = 0;
      if (i == ks.size()) break;
    }
  };
  if (product <= kFullLimit) {
    expand(classes);
  } else {
    std::vector<int> wild = {2, 15};
    expand(wild);  // wild cards alone (twice listed below is avoided)
    for (int k : classes) {
      if (k == 2 || k == 15) continue;
      std::vector<std::vector<Card>> before;
      before.swap(out);
      expand({k, 2, 15});
      for (auto& s : out)
        if (std::any_of(s.begin(), s.end(), [&](Card c) { return CardClass(c) == k; }))
          before.push_back(s);
      out.swap(before);
    }
  }
  return out;
}

bool Legal(const Position& pos, const Move& m) {
  return pos.Check(m).empty() && LeavesLegalFinish(pos, m);
}

std::set<std::string> BruteForce(const Position& pos) {
  std::set<std::string> keys;
  const int seat = pos.current_player();
  const int side = pos.side_of(seat);
  const CardCounts& hand = pos.hand(seat);
  auto add = [&](const Move& m) {
    if (Legal(pos, m)) keys.insert(PlayKey(m));
  };
  if (pos.rules().partnerships()) {
    for (bool yes : {true, false}) {
      AnswerMove a{(seat + 2) % pos.num_players(), yes, 0};
      if (pos.Check(a).empty()) {
        if (pos.phase() != Phase::kPlay || LeavesLegalFinish(pos, a)) keys.insert(PlayKey(a));
      }
    }
    if (!keys.empty()) return keys;
  }
  const std::vector<std::vector<Card>> subsets = SubMultisets(hand);
  if (pos.phase() != Phase::kPlay) {
    if (pos.stock_size() > 0)
      add(DrawMove{seat, pos.StockTop(std::min(pos.rules().stock_draw, pos.stock_size())), 0});
    if (pos.pile().empty()) return keys;
    const Card top = pos.pile().back();
    add(TakePileMove{seat, top, {}, {}, {}, 0});
    add(TakePileMove{seat, top, {}, top.rank(), {}, 0});
    for (const auto& s : subsets) add(TakePileMove{seat, top, s, {}, {}, 0});
    return keys;
  }
  std::vector<std::optional<Rank>> targets = {std::nullopt};
  for (const Meld& m : pos.melds(side))
    if (!m.cards.empty()) targets.push_back(m.rank);
  for (const auto& s : subsets) {
    for (const auto& to : targets) add(MeldMove{seat, {MeldPart{to, {}, s}}, 0});
    if (std::all_of(s.begin(), s.end(), [](Card c) { return c.is_wild(); }))
      for (int r = 3; r <= 14; ++r) add(MeldMove{seat, {MeldPart{{}, Rank(r), s}}, 0});
  }
  for (Card c : hand.ToVector()) add(DiscardMove{seat, c, 0});
  if (!pos.turn_answer()) add(AskOutMove{seat, 0});
  return keys;
}

class LegalMovesBruteForce : public ::testing::TestWithParam<const char*> {};

// Random positions from self-play (random and sensible bots, various totals
// so that every minimum band is met): the generated set equals the brute
// force, and no play is generated twice.
TEST_P(LegalMovesBruteForce, GeneratedSetEqualsBruteForce) {
  const std::optional<RulesetChoice> loaded = ChoiceOf(GetParam());
  ASSERT_TRUE(loaded.has_value()) << GetParam();
  const RulesetChoice& choice = *loaded;
  Rng rng(20261201);
  int compared = 0, melds = 0, takes = 0, asks = 0;
  WalkWithMixedTotals(
      choice, rng, 80, [&] { return compared < 150; },
      [&](int deal, const Position& pos, const std::vector<Move>& legal) {
        const bool may_end =
            pos.stock_size() == 0 && pos.phase() != Phase::kPlay && MayEndDeal(pos);
        if (legal.empty()) {
          EXPECT_TRUE(may_end) << "no legal move where the deal goes on";
          return;
        }
        if (std::holds_alternative<ThreeMove>(legal[0]) || may_end || rng.Below(5) != 0) return;
        const std::set<std::string> generated = Keys(legal);
        EXPECT_EQ(generated.size(), legal.size()) << "a play generated twice";
        const std::set<std::string> brute = BruteForce(pos);
        EXPECT_EQ(generated, brute)
            << GetParam() << " deal " << deal << " seat " << pos.current_player() << " hand "
            << ToString(pos.hand(pos.current_player()).ToVector()) << " phase " << int(pos.phase());
        ++compared;
        melds += !KeysOf(legal, "meld").empty();
        takes += !KeysOf(legal, "take").empty();
        asks += !KeysOf(legal, "ask").empty() || !KeysOf(legal, "answer").empty();
      });
  if (HasFailure()) return;
  std::printf("[ %s ] %d positions compared (%d with melds, %d with takes, %d with asks)\n",
              GetParam(), compared, melds, takes, asks);
  EXPECT_GE(compared, 150);
  EXPECT_GT(melds, 0);
  EXPECT_GT(takes, 0);
}

// The rulesets the generator is compared on.
const char* const kGeneratorRulesets[] = {"classic", "hutto", "two-handed", "three-handed",
                                          "jaques", "jaques-two-handed", "jaques-three-handed",
                                          "tutorial",
                                          // seed 001's meld and pile values (issue 10)
                                          CANASTA_SOURCE_DIR "/tests/rulesets/modern-melds.lua"};

std::string RulesetTestName(const ::testing::TestParamInfo<const char*>& param_info) {
  std::string n = param_info.param;
  // A ruleset file: its name without the folder and ".lua".
  n = n.substr(n.rfind('/') + 1);
  if (n.size() > 4 && n.compare(n.size() - 4, 4, ".lua") == 0) n.resize(n.size() - 4);
  for (char& ch : n)
    if (ch == '-') ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Rulesets, LegalMovesBruteForce, ::testing::ValuesIn(kGeneratorRulesets),
                         RulesetTestName);

// --- Drawing one legal move (SampleLegalMove) -------------------------------

class SampleLegalMoveDraws : public ::testing::TestWithParam<const char*> {};

// On random positions from self-play: every move drawn is one of
// LegalMoves(pos) (the same move, card for card), every legal move is drawn
// over enough draws, a red three due first is the move drawn (no choice), and
// no move is drawn where none is legal. At a few positions with several moves,
// each is drawn about equally often.
TEST_P(SampleLegalMoveDraws, EveryDrawIsALegalMoveAndEveryLegalMoveIsDrawn) {
  const std::optional<RulesetChoice> loaded = ChoiceOf(GetParam());
  ASSERT_TRUE(loaded.has_value()) << GetParam();
  const RulesetChoice& choice = *loaded;
  const Rules& r = choice.rules;
  Rng rng(20261203), draws(7);
  int positions = 0, forced = 0, even = 0;
  WalkSelfPlay(
      choice, rng, 60, [&] { return positions < 120; },
      [&](int deal) { return std::vector<int>(size_t(r.num_sides()), deal % 3 == 0 ? 3200 : 0); },
      [&](int, const Position& pos, const std::vector<Move>& legal) {
        Move drawn;
        if (legal.empty()) {
          EXPECT_FALSE(SampleLegalMove(pos, draws, &drawn)) << "a move drawn where none is legal";
          return;
        }
        const bool threes = std::holds_alternative<ThreeMove>(legal[0]);
        if (rng.Below(4) != 0) return;
        ++positions;
        std::map<std::string, int> seen;
        for (const Move& m : legal) seen[MoveLine(m)] = 0;
        const int n = threes ? 1 : int(legal.size());
        const int tries = n >= 2 && n <= 8 && even < 5 ? 300 * n : 12 * n;
        for (int i = 0; i < tries; ++i) {
          ASSERT_TRUE(SampleLegalMove(pos, draws, &drawn));
          auto it = seen.find(MoveLine(drawn));
          ASSERT_NE(it, seen.end()) << "drawn but not legal: " << MoveLine(drawn);
          ++it->second;
        }
        if (threes) {
          ++forced;
          EXPECT_EQ(seen[MoveLine(legal[0])], tries) << "a red three due is laid first";
          return;
        }
        for (const auto& [line, count] : seen) EXPECT_GT(count, 0) << "never drawn: " << line;
        if (tries == 300 * n) {
          ++even;
          for (const auto& [line, count] : seen) {
            EXPECT_GT(count, 200) << line;
            EXPECT_LT(count, 400) << line;
          }
        }
      });
  if (HasFailure()) return;
  std::printf("[ %s ] %d positions drawn from (%d with a three due, %d counted)\n", GetParam(),
              positions, forced, even);
  EXPECT_GE(positions, 120);
  EXPECT_GT(even, 0);
}

INSTANTIATE_TEST_SUITE_P(Rulesets, SampleLegalMoveDraws, ::testing::ValuesIn(kGeneratorRulesets),
                         RulesetTestName);

// --- The usual discard and draw in one pass --------------------------------

// What a position shows: every seat's cards, the pile, the melds and threes,
// the stock's next cards, the phase and the turn's record, the scores, and
// the moves legal next (which read the rest of the turn's record).
std::string StateOf(const Position& p) {
  std::string s = std::to_string(int(p.phase())) + " seat " + std::to_string(p.current_player()) +
                  " bonus " + std::to_string(p.bonus_player()) + "x" +
                  std::to_string(p.bonus_count()) + " stock " + std::to_string(p.stock_size()) +
                  (p.stock_slip_open() ? " slip" : "") + " out " + std::to_string(p.went_out());
  s += " turn " + std::to_string(p.drew_this_turn()) + std::to_string(p.draw_left_out()) +
       std::to_string(p.turn_melded()) + std::to_string(p.turn_opening()) +
       std::to_string(p.turn_took_pile_or_melded()) + std::to_string(p.turn_initial_count()) +
       std::to_string(p.turn_answer().value_or(false)) +
       std::to_string(p.turn_answer().has_value());
  for (int seat = 0; seat < p.num_players(); ++seat)
    s += " | " + ToString(p.hand(seat).ToVector()) + " / " + ToString(p.foot(seat).ToVector()) +
         " turns " + std::to_string(p.turns_played(seat));
  s += " | pile " + ToString(p.pile());
  for (int side = 0; side < p.rules().num_sides(); ++side) {
    s += " | side " + std::to_string(p.has_melded(side)) + " " + ToString(p.threes(side));
    for (const Meld& m : p.melds(side)) s += " " + ToString(m.cards);
  }
  if (p.stock_size() > 0) s += " | next " + ToString(p.StockTop(std::min(3, p.stock_size())));
  for (const ScoreBreakdown& b : p.Score()) s += " | score " + std::to_string(b.total());
  for (const std::string& k : Keys(LegalMoves(p))) s += " | " + k;
  return s;
}

// Position::PlayUsualDiscard and PlayUsualDraw against Check and Apply, on
// random positions from self-play: for every discard of each card held (as
// played, face down, and by the next seat), of each card the next seat holds
// and the seat in turn does not, and the stock draws (the cards due, one too
// many, a card other than the stock's next, by the next seat, marked as
// bonus cards, as the bonus cards due, none from an empty stock), a move the one-pass path plays
// has no finding from Check and leaves the position Apply leaves; a move it declines leaves the
// position untouched. Both answers are met many times.
class UsualMovesInOnePass : public ::testing::TestWithParam<const char*> {};

TEST_P(UsualMovesInOnePass, SameAsCheckThenApply) {
  const std::optional<RulesetChoice> loaded = ChoiceOf(GetParam());
  ASSERT_TRUE(loaded.has_value()) << GetParam();
  const RulesetChoice& choice = *loaded;
  Rng rng(20261207);
  int positions = 0;
  std::map<std::string, int> played, declined;
  auto compare = [&](const Position& pos, const auto& m, auto usual, const char* kind) {
    Position fused = pos;
    if (!(fused.*usual)(m)) {
      ++declined[kind];
      EXPECT_EQ(StateOf(fused), StateOf(pos)) << kind << " " << PlayKey(m) << " declined";
      return;
    }
    ++played[kind];
    Position general = pos;
    const TaggedViolations v = general.Check(m);
    EXPECT_TRUE(v.empty()) << kind << " " << PlayKey(m) << ": " << v[0].violation.message;
    general.Apply(m);
    EXPECT_EQ(StateOf(fused), StateOf(general)) << kind << " " << PlayKey(m);
  };
  WalkWithMixedTotals(
      choice, rng, 60, [&] { return positions < 400; },
      [&](int, const Position& pos, const std::vector<Move>&) {
        if (rng.Below(2) != 0) return;
        ++positions;
        const int seat = pos.current_player();
        const int next = (seat + 1) % pos.num_players();
        for (Card c : pos.hand(seat).ToVector()) {
          compare(pos, DiscardMove{seat, c, 0}, &Position::PlayUsualDiscard, "discard");
          if (rng.Below(8) == 0)
            compare(pos, DiscardMove{seat, c, 0, true}, &Position::PlayUsualDiscard, "face down");
        }
        for (Card c : pos.hand(next).ToVector()) {
          compare(pos, DiscardMove{next, c, 0}, &Position::PlayUsualDiscard, "out of turn");
          if (pos.hand(seat).count(c) == 0)
            compare(pos, DiscardMove{seat, c, 0}, &Position::PlayUsualDiscard, "not held");
        }
        if (pos.stock_size() == 0) {
          compare(pos, DrawMove{seat, {}, 0}, &Position::PlayUsualDraw, "empty stock");
          return;
        }
        const int due = std::min(pos.rules().stock_draw, pos.stock_size());
        const std::vector<Card> cards = pos.StockTop(due);
        compare(pos, DrawMove{seat, cards, 0}, &Position::PlayUsualDraw, "draw");
        compare(pos, DrawMove{seat, cards, 0, true}, &Position::PlayUsualDraw, "bonus");
        compare(pos, DrawMove{next, cards, 0}, &Position::PlayUsualDraw, "out of turn");
        if (pos.stock_size() > due)
          compare(pos, DrawMove{seat, pos.StockTop(due + 1), 0}, &Position::PlayUsualDraw,
                  "draw too many");
        std::vector<Card> wrong = cards;
        wrong.back() = wrong.back() == C("KH") ? C("QS") : C("KH");
        compare(pos, DrawMove{seat, wrong, 0}, &Position::PlayUsualDraw, "wrong card");
        if (pos.bonus_count() > 0)
          compare(pos, DrawMove{pos.bonus_player(), pos.StockTop(pos.bonus_count()), 0, true},
                  &Position::PlayUsualDraw, "bonus");
      });
  std::printf(
      "[ %s ] %d positions: discards %d played, %d declined; draws %d played, %d declined\n",
      GetParam(), positions, played["discard"], declined["discard"] + declined["face down"],
      played["draw"], declined["draw"] + declined["wrong card"] + declined["draw too many"]);
  EXPECT_GE(positions, 200);
  // A ruleset's may_discard hook is asked on the general path only.
  if (choice.hooks->Overrides(HookId::kMayDiscard))
    EXPECT_EQ(played["discard"], 0);
  else
    EXPECT_GT(played["discard"], 100);
  EXPECT_GT(declined["discard"], 0);
  EXPECT_GT(played["draw"], 50);
  EXPECT_EQ(played["face down"], 0);
  EXPECT_EQ(played["not held"], 0);
  EXPECT_EQ(played["empty stock"], 0);
  EXPECT_EQ(played["out of turn"], 0);
  EXPECT_EQ(played["wrong card"], 0);
  EXPECT_EQ(played["draw too many"], 0);
  EXPECT_EQ(played["bonus"], 0);
}

// Asking "may I go out?" before the draw begins the turn (000 §17): a
// discard then, before any draw, is not the usual one, whose turn has drawn.
TEST(UsualMovesInOnePass, ADiscardAfterAskingBeforeTheDrawIsNotTheUsualOne) {
  const std::optional<RulesetChoice> loaded = ChoiceOf("classic");
  ASSERT_TRUE(loaded.has_value());
  const Rules& r = loaded->rules;
  Rng rng(7);
  Position pos(r, *loaded->hooks, {0, 0});
  // A deal where the seat to play holds no red three (whose layout would
  // decline the discard first).
  do {
    pos = Position(r, *loaded->hooks, {0, 0});
    ASSERT_TRUE(pos.Deal(ShuffledDeal(r, 0, rng)).empty());
  } while (r.LaidOutThreesIn(pos.hand(pos.current_player())) > 0);
  const int seat = pos.current_player();
  ASSERT_NE(pos.phase(), Phase::kPlay);
  ASSERT_TRUE(pos.Play(AskOutMove{seat, 0}).empty());
  Card held;
  for (Card c : pos.hand(seat).ToVector())
    if (!c.is_wild() && !c.is_three()) held = c;
  ASSERT_TRUE(held.valid());
  const DiscardMove discard{seat, held, 0};
  EXPECT_FALSE(pos.Check(discard).empty());
  Position copy = pos;
  EXPECT_FALSE(copy.PlayUsualDiscard(discard));
  EXPECT_EQ(StateOf(copy), StateOf(pos));
}

const char* const kUsualMoveRulesets[] = {
    "classic", "hutto", "two-handed", "three-handed", "jaques", "jaques-two-handed",
    "jaques-three-handed", "tutorial", "modern-american", "classic-001",
    CANASTA_SOURCE_DIR "/tests/rulesets/modern-melds.lua",
    // the foot (a hand emptied before it is picked up)
    CANASTA_SOURCE_DIR "/tests/rulesets/hand-and-foot-supplied.lua",
    // a may_discard hook (the one-pass discard leaves it to the general path)
    CANASTA_SOURCE_DIR "/docs/checks/examples/aces-stay.lua"};

INSTANTIATE_TEST_SUITE_P(Rulesets, UsualMovesInOnePass, ::testing::ValuesIn(kUsualMoveRulesets),
                         RulesetTestName);

// --- Keyed tie-breaks ------------------------------------------------------

// A keyed draw is a function of the key and of what the move plays: equal
// moves draw alike in any position, in [0, draws).
TEST(KeyedDraw, EqualMovesDrawAlikeAndTheKeyChangesTheDraws) {
  const Move discard = DiscardMove{1, C("7H"), 3};
  const Move same = DiscardMove{1, C("7H"), 9};  // the tag is not the move
  const Move other = DiscardMove{1, C("7D"), 3};
  const Move meld = MeldMove{1, {MeldPart{{}, {}, Cs({"7H", "7D", "7C"})}}, 0};
  const Move added = MeldMove{1, {MeldPart{Rank::kSeven, {}, Cs({"7H", "7D", "7C"})}}, 0};
  EXPECT_EQ(KeyedDraw(5, discard, 100), KeyedDraw(5, same, 100));
  EXPECT_EQ(KeyedDraw(5, discard, 1), 0);
  EXPECT_EQ(KeyedDraw(5, discard, 0), 0);
  int differ_by_key = 0, differ_by_card = 0, differ_by_target = 0;
  for (uint64_t key = 1; key <= 200; ++key) {
    for (const Move* m : {&discard, &other, &meld, &added}) {
      const int d = KeyedDraw(key, *m, 100);
      EXPECT_GE(d, 0);
      EXPECT_LT(d, 100);
    }
    differ_by_key += KeyedDraw(key, discard, 100) != KeyedDraw(key + 1000, discard, 100);
    differ_by_card += KeyedDraw(key, discard, 100) != KeyedDraw(key, other, 100);
    differ_by_target += KeyedDraw(key, meld, 100) != KeyedDraw(key, added, 100);
  }
  // Equal by chance about once in a hundred.
  EXPECT_GT(differ_by_key, 180);
  EXPECT_GT(differ_by_card, 180);
  EXPECT_GT(differ_by_target, 180);
}

// --- BestLegalMove against the loop it replaces ---------------------------

class BestLegalMoveChoices : public ::testing::TestWithParam<const char*> {};

// The move of highest score over LegalMoves(pos), the first of equal scores,
// or LegalMoves(pos)[0] where that is a red three (PlayOut lays it unasked).
size_t FirstBest(const std::vector<Move>& legal, const std::function<double(const Move&)>& score) {
  if (std::holds_alternative<ThreeMove>(legal[0])) return 0;
  size_t pick = 0;
  for (size_t i = 1; i < legal.size(); ++i)
    if (score(legal[i]) > score(legal[pick])) pick = i;
  return pick;
}

// On random positions from self-play, with no tie-break draws (TieBreak{1}:
// every draw is 0) BestLegalMove picks exactly the first legal move of the
// highest score, under scores that favour the moves often refused (melds,
// the biggest first), that tie everywhere, that are arbitrary, and the
// sensible bot's; with a keyed tie, the first of the highest score plus its
// keyed draw, the generator's draws untouched; with the sensible bot's draws, its pick is always one of
// LegalMoves(pos) that Choose could make (within the draws of the best
// legal score), and each of those is picked.
TEST_P(BestLegalMoveChoices, TheSameMoveAsTheLoopOverEveryLegalMove) {
  const std::optional<RulesetChoice> loaded = ChoiceOf(GetParam());
  ASSERT_TRUE(loaded.has_value()) << GetParam();
  const RulesetChoice& choice = *loaded;
  const Rules& r = choice.rules;
  Rng rng(20261204), draws(9);
  const std::unique_ptr<Bot> sensible = MakeSensibleBot();
  ASSERT_TRUE(sensible->scored());
  int positions = 0, refused_first = 0;
  WalkSelfPlay(
      choice, rng, 60, [&] { return positions < 120; },
      [&](int deal) { return std::vector<int>(size_t(r.num_sides()), deal % 3 == 0 ? 3200 : 0); },
      [&](int deal, const Position& pos, const std::vector<Move>& legal) {
        Move got;
        const SeatView view(pos, pos.current_player());
        const auto by_bot = [&](const Move& m) { return sensible->Score(view, m); };
        if (legal.empty()) {
          EXPECT_FALSE(BestLegalMove(pos, by_bot, TieBreak{}, draws, &got));
          return;
        }
        const bool threes = std::holds_alternative<ThreeMove>(legal[0]);
        if (rng.Below(3) != 0) return;
        ++positions;
        const auto melds_first = [](const Move& m) {
          const auto* x = std::get_if<MeldMove>(&m);
          if (x == nullptr) return 0.0;
          double n = 0;
          for (const MeldPart& p : x->parts) n += double(p.cards.size());
          return 100 + n;
        };
        const auto ties = [](const Move&) { return 1.0; };
        const auto arbitrary = [](const Move& m) {
          return double(std::hash<std::string>()(MoveLine(m)) % 7);
        };
        const std::function<double(const Move&)> scores[] = {melds_first, ties, arbitrary, by_bot};
        for (const auto& score : scores) {
          ASSERT_TRUE(BestLegalMove(pos, score, TieBreak{1, 1.0}, draws, &got));
          EXPECT_EQ(MoveLine(got), MoveLine(legal[FirstBest(legal, score)]))
              << GetParam() << " deal " << deal;
        }
        // Keyed ties: the first move of the highest score + KeyedDraw / scale,
        // and no draw of the generator used.
        {
          TieBreak keyed;
          keyed.key = 0x5eed0000u + uint64_t(positions);
          const auto total = [&](const Move& m) {
            return by_bot(m) + KeyedDraw(keyed.key, m, keyed.draws) / keyed.scale;
          };
          Rng before = draws;
          ASSERT_TRUE(BestLegalMove(pos, by_bot, keyed, draws, &got));
          EXPECT_EQ(MoveLine(got), MoveLine(legal[FirstBest(legal, total)]))
              << GetParam() << " deal " << deal;
          EXPECT_EQ(before.Next(), Rng(draws).Next());
        }
        // Counted: positions where melds_first's favourites were refused
        // (three of a rank held, or a pair and a wild card, and no meld legal:
        // short of the minimum, say), so that later passes were needed.
        if (pos.phase() == Phase::kPlay &&
            !std::holds_alternative<MeldMove>(legal[FirstBest(legal, melds_first)])) {
          const CardCounts& hand = pos.hand(pos.current_player());
          int wilds = 0, most = 0;
          std::map<int, int> by_rank;
          for (Card c : hand.ToVector()) {
            if (c.is_wild())
              ++wilds;
            else if (!c.is_red_three() && !c.is_black_three())
              most = std::max(most, ++by_rank[int(c.rank())]);
          }
          refused_first += most >= 3 || (most >= 2 && wilds > 0);
        }
        // With the draws: only moves Choose could pick, and each of them.
        std::map<std::string, int> could;
        if (threes) {
          could[MoveLine(legal[0])] = 0;
        } else {
          double best = -1e300;
          for (const Move& m : legal) best = std::max(best, by_bot(m));
          for (const Move& m : legal)
            if (by_bot(m) + TieBreak().most() >= best) could[MoveLine(m)] = 0;
        }
        for (int i = 0; i < 40 * int(could.size()); ++i) {
          ASSERT_TRUE(BestLegalMove(pos, by_bot, TieBreak{}, draws, &got));
          auto it = could.find(MoveLine(got));
          ASSERT_NE(it, could.end()) << "not a pick of Choose: " << MoveLine(got);
          ++it->second;
        }
        for (const auto& [line, n] : could) EXPECT_GT(n, 0) << "never picked: " << line;
      });
  if (HasFailure()) return;
  std::printf("[ %s ] %d positions, %d with the favoured candidates refused\n", GetParam(),
              positions, refused_first);
  EXPECT_GE(positions, 120);
  EXPECT_GT(refused_first, 0);
}

INSTANTIATE_TEST_SUITE_P(Rulesets, BestLegalMoveChoices, ::testing::ValuesIn(kGeneratorRulesets),
                         RulesetTestName);

// --- The finish judged on counts against the search -----------------------

class FinishJudges : public ::testing::TestWithParam<const char*> {};

// The finish after a move is judged on card counts first (core/legal_moves.cc,
// QuickFinish) and by the search where that does not decide. On random
// positions from self-play, for every take and one-part meld Check accepts:
// where the counts decide, their verdict is the search's; where the search
// spent its budget, the counts may find a finish it missed, never miss one
// it found.
TEST_P(FinishJudges, CountsAgreeWithTheSearch) {
  const std::optional<RulesetChoice> loaded = ChoiceOf(GetParam());
  ASSERT_TRUE(loaded.has_value()) << GetParam();
  const RulesetChoice& choice = *loaded;
  Rng rng(20261202);
  int yes = 0, no = 0, undecided = 0, beyond_budget = 0;
  WalkWithMixedTotals(
      choice, rng, 60, [&] { return yes + no < 3000; },
      [&](int deal, const Position& pos, const std::vector<Move>& legal) {
        if (legal.empty() || std::holds_alternative<ThreeMove>(legal[0]) || rng.Below(3) != 0)
          return;
        const int seat = pos.current_player();
        std::vector<Move> candidates;
        const std::vector<std::vector<Card>> subsets = SubMultisets(pos.hand(seat));
        if (pos.phase() == Phase::kPlay) {
          std::vector<std::optional<Rank>> targets = {std::nullopt};
          for (const Meld& m : pos.melds(pos.side_of(seat)))
            if (!m.cards.empty()) targets.push_back(m.rank);
          for (const auto& sub : subsets)
            for (const auto& to : targets)
              candidates.push_back(MeldMove{seat, {MeldPart{to, {}, sub}}, 0});
        } else if (!pos.pile().empty()) {
          for (const auto& sub : subsets)
            candidates.push_back(TakePileMove{seat, pos.pile().back(), sub, {}, {}, 0});
        }
        for (const Move& m : candidates) {
          if (!pos.Check(m).empty()) continue;
          const internal::FinishVerdicts v = internal::JudgeFinish(pos, m);
          if (!v.counted) {
            ++undecided;
            continue;
          }
          v.counts ? ++yes : ++no;
          if (v.search_budget_spent) {
            ++beyond_budget;
            EXPECT_FALSE(v.search && !v.counts) << PlayKey(m);
          } else {
            EXPECT_EQ(v.counts, v.search) << GetParam() << " deal " << deal << ": " << PlayKey(m)
                                          << " with " << ToString(pos.hand(seat).ToVector());
          }
          if (HasFailure()) return;
        }
      });
  if (HasFailure()) return;
  std::printf(
      "[ %s ] counts decided %d finishes (%d yes, %d no; %d beyond the search's budget), "
      "left %d to the search\n",
      GetParam(), yes + no, yes, no, beyond_budget, undecided);
  EXPECT_GT(yes, 100);
  EXPECT_GT(no, 100);
  // The counts decide nearly every finish where they apply (core/
  // legal_moves.h): a plan they find that fails Check when played leaves the
  // finish to the search, the work the relaxation is there to spare.
  EXPECT_LE(undecided * 10, yes + no) << "the counts left " << undecided << " finishes undecided";
}

// A third judge of the finish, sharing no code with the generator's two
// above: every move Check accepts, tried. The turn can end from `pos` (play phase) when
// Check accepts a discard of some card, or some one-part meld (every
// sub-multiset of the hand, new or onto each of the side's melds, wild cards
// alone `as` each rank) after which the deal is over (gone out), the turn has
// ended, or the turn can end. Positions known to fail are remembered by the
// hand and the side's melds. Exponential: for small hands only.
class TurnEndsByTrying {
 public:
  bool From(const Position& pos) {
    if (pos.phase() != Phase::kPlay) return true;  // gone out, or the turn ended
    const int seat = pos.current_player();
    const int side = pos.side_of(seat);
    std::string key = ToString(pos.hand(seat).ToVector());
    for (const Meld& m : pos.melds(side)) key += "|" + ToString(m.cards);
    if (failed_.count(key)) return false;
    if (++tried_ > kMostPositions) {
      gave_up_ = true;
      return false;
    }
    const std::vector<Card> cards = pos.hand(seat).ToVector();
    for (Card c : cards)
      if (pos.Check(DiscardMove{seat, c, 0}).empty()) return true;
    std::vector<std::optional<Rank>> targets = {std::nullopt};
    for (const Meld& m : pos.melds(side))
      if (!m.cards.empty()) targets.push_back(m.rank);
    auto after = [&](const MeldMove& m) {
      if (!pos.Check(m).empty()) return false;
      Position next = pos;
      next.Apply(m);
      return From(next);
    };
    for (const auto& sub : SubMultisets(pos.hand(seat))) {
      for (const auto& to : targets)
        if (after(MeldMove{seat, {MeldPart{to, {}, sub}}, 0})) return true;
      if (std::all_of(sub.begin(), sub.end(), [](Card c) { return c.is_wild(); }))
        for (int r = 3; r <= 14; ++r)
          if (after(MeldMove{seat, {MeldPart{{}, Rank(r), sub}}, 0})) return true;
    }
    failed_.insert(key);
    return false;
  }
  bool gave_up() const { return gave_up_; }

 private:
  static constexpr int kMostPositions = 20000;
  std::set<std::string> failed_;
  int tried_ = 0;
  bool gave_up_ = false;
};

// On random positions from self-play with few cards in the hand: for every
// one-part meld and every take Check accepts, LeavesLegalFinish (the counts'
// verdict or the search's) is the verdict of trying every move.
TEST_P(FinishJudges, TheVerdictIsThatOfTryingEveryMoveOnSmallHands) {
  const std::optional<RulesetChoice> loaded = ChoiceOf(GetParam());
  ASSERT_TRUE(loaded.has_value()) << GetParam();
  const RulesetChoice& choice = *loaded;
  Rng rng(20261205);
  int yes = 0, no = 0, opening = 0;
  WalkWithMixedTotals(
      choice, rng, 200, [&] { return yes + no < 1500; },
      [&](int deal, const Position& pos, const std::vector<Move>& legal) {
        if (legal.empty() || std::holds_alternative<ThreeMove>(legal[0])) return;
        const int seat = pos.current_player();
        const int held = pos.hand(seat).total();
        std::vector<Move> candidates;
        if (pos.phase() == Phase::kPlay && held <= 9) {
          std::vector<std::optional<Rank>> targets = {std::nullopt};
          for (const Meld& m : pos.melds(pos.side_of(seat)))
            if (!m.cards.empty()) targets.push_back(m.rank);
          for (const auto& sub : SubMultisets(pos.hand(seat)))
            for (const auto& to : targets)
              candidates.push_back(MeldMove{seat, {MeldPart{to, {}, sub}}, 0});
        } else if (pos.phase() == Phase::kDraw && !pos.pile().empty() && held <= 8 &&
                   pos.pile().size() <= 3) {
          for (const auto& sub : SubMultisets(pos.hand(seat)))
            candidates.push_back(TakePileMove{seat, pos.pile().back(), sub, {}, {}, 0});
        }
        for (const Move& m : candidates) {
          if (!pos.Check(m).empty()) continue;
          Position next = pos;
          next.Apply(m);
          TurnEndsByTrying trying;
          const bool tried = trying.From(next);
          if (trying.gave_up()) continue;
          tried ? ++yes : ++no;
          opening += !pos.has_melded(pos.side_of(seat));
          EXPECT_EQ(LeavesLegalFinish(pos, m), tried)
              << GetParam() << " deal " << deal << ": " << PlayKey(m) << " with "
              << ToString(pos.hand(seat).ToVector());
          if (HasFailure()) return;
        }
      });
  if (HasFailure()) return;
  std::printf("[ %s ] %d finishes tried move by move (%d yes, %d no; %d in an opening turn)\n",
              GetParam(), yes + no, yes, no, opening);
  EXPECT_GT(yes, 50);
  EXPECT_GT(no, 20);
  EXPECT_GT(opening, 20);
}

INSTANTIATE_TEST_SUITE_P(Rulesets, FinishJudges,
                         ::testing::Values("classic", "hutto", "two-handed", "three-handed",
                                           "jaques", "tutorial"),
                         [](const auto& param_info) {
                           std::string n = param_info.param;
                           for (char& ch : n)
                             if (ch == '-') ch = '_';
                           return n;
                         });

}  // namespace
}  // namespace canasta
