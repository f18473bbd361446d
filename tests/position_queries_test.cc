// Direct tests of Position's public queries that the rule checks and the
// move generator build on: the foot's state, the turn number, the pile's
// freezer, the side summary, the melds found by rank, id and kind, the dead
// ranks, the unfinished wild meld, the initial meld judged at a turn's end,
// and the two shared verdicts (MeldRefusal, HookRefusal). Each is asked on
// positions reached by playing moves, not by setting fields.

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "core/card.h"
#include "core/hook_api.h"
#include "core/hooks.h"
#include "core/meld.h"
#include "core/position.h"
#include "core/rules.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

using test::C;
using test::Cs;

// Two players, classic otherwise; no initial-meld minimum unless a test
// keeps it. Seat 1 is first to play (dealer 0, 000 §11).
Rules TwoPlayers(int hand_size = 11) {
  Rules r;
  r.num_players = 2;
  r.hand_size = hand_size;
  return r;
}

// Cards no test plays, to fill a hand up to the ruleset's hand size.
constexpr const char* kFillers[] = {"6H", "6D", "6C", "6S", "7H", "7D", "7C",
                                    "7S", "TH", "TD", "TC", "JH", "JD", "JC"};

// A deal with each hand filled up to `hand_size` (the stock is not recorded:
// any unseen card may be drawn).
DealMove Deal(std::vector<std::vector<std::string>> hands, std::vector<std::string> up = {"8C"},
              std::vector<std::vector<std::string>> feet = {}, int hand_size = 11) {
  DealMove d;
  d.dealer = 0;
  for (auto h : hands) {
    for (size_t i = 0; h.size() < size_t(hand_size); ++i) h.push_back(kFillers[i]);
    d.hands.push_back(Cs(h));
  }
  d.upcards = Cs(up);
  for (const auto& f : feet) d.feet.push_back(Cs(f));
  return d;
}

MeldPart Part(std::vector<std::string> cards) { return MeldPart{{}, {}, Cs(cards)}; }

// --- The turn (000 §11) ---

TEST(PositionQueries, TurnNumberCountsTheTurnBeingBegun_000S11) {
  const Rules rules = TwoPlayers(4);
  Position pos(rules, DefaultHooks(), {0, 0});
  ASSERT_TRUE(
      pos.Deal(Deal({{"4S", "5S", "6S", "7S"}, {"KS", "KH", "KD", "9C"}}, {"8C"}, {}, 4)).empty());
  EXPECT_EQ(pos.TurnNumber(1), 1);  // the first turn, not begun
  EXPECT_EQ(pos.TurnNumber(0), 1);
  ASSERT_TRUE(pos.Play(DrawMove{1, Cs({"QC"}), 0}).empty());
  EXPECT_EQ(pos.TurnNumber(1), 1);  // begun by the draw: counted once
  EXPECT_EQ(pos.turns_played(1), 1);
  ASSERT_TRUE(pos.Play(DiscardMove{1, C("QC"), 0}).empty());
  EXPECT_EQ(pos.TurnNumber(1), 2);  // over: the next is the second
  EXPECT_EQ(pos.TurnNumber(0), 1);
  ASSERT_TRUE(pos.Play(DrawMove{0, Cs({"QD"}), 0}).empty());
  EXPECT_EQ(pos.TurnNumber(0), 1);
}

// draw_left_out: a turn that melds before its draw (readings R121), until a
// draw comes late; a turn that draws first never is.
TEST(PositionQueries, DrawLeftOutUntilTheDrawComesLate_R121) {
  Rules rules = TwoPlayers(5);
  rules.minimum_table = {{-1000000000, 0}};
  Position pos(rules, DefaultHooks(), {0, 0});
  ASSERT_TRUE(pos.Deal(Deal({{"4S", "4H", "4D", "7S", "8S"}, {"KS", "KH", "KD", "9C", "9D"}},
                            {"8C"}, {}, 5))
                  .empty());
  ASSERT_TRUE(pos.Play(DrawMove{1, Cs({"QC"}), 0}).empty());
  EXPECT_FALSE(pos.draw_left_out());
  ASSERT_TRUE(pos.Play(DiscardMove{1, C("QC"), 0}).empty());
  // Seat 0 melds first: one turn-sequence finding, the turn plays on.
  EXPECT_FALSE(pos.Play(MeldMove{0, {Part({"4S", "4H", "4D"})}, 0}).empty());
  EXPECT_TRUE(pos.draw_left_out());
  ASSERT_TRUE(pos.Play(DrawMove{0, Cs({"QD"}), 0}).empty());  // late: no finding
  EXPECT_FALSE(pos.draw_left_out());
}

// --- The recorded stock (000 §12, readings R117, R123) ---

// IsStockNext and StockCardsBefore, on a stock the deal recorded: the next
// card, a card further on (how many lie before it), one out of reach or
// behind, and, after a slip, the place the slip left for the next draw.
TEST(PositionQueries, StockNextAndCardsBeforeACardFurtherOn_000S12) {
  test::Log log;
  test::DealSpec spec;
  spec.stock = {"9D", "AS", "KH", "QC", "JD"};
  log.Deal(spec);
  const Rules rules;
  Position pos(rules, DefaultHooks(), {0, 0});
  ASSERT_TRUE(pos.Deal(log.deal_move()).empty());
  EXPECT_TRUE(pos.IsStockNext(C("9D")));
  EXPECT_FALSE(pos.IsStockNext(C("AS")));
  EXPECT_FALSE(pos.stock_slip_open());
  EXPECT_EQ(pos.StockCardsBefore(C("9D")), 0);  // the next card
  EXPECT_EQ(pos.StockCardsBefore(C("AS")), 1);
  EXPECT_EQ(pos.StockCardsBefore(C("QC")), 3);
  ASSERT_TRUE(pos.Play(DrawMove{1, Cs({"9D"}), 0}).empty());
  EXPECT_EQ(pos.StockCardsBefore(C("9D")), 0);  // behind: a draw written twice, not cards before
  EXPECT_EQ(pos.StockCardsBefore(C("KH")), 1);
  ASSERT_TRUE(pos.Play(DiscardMove{1, C("9D"), 0}).empty());
  // A slip: KH drawn for AS. The next draw may be QC (KH was a wrong card)...
  EXPECT_FALSE(pos.Play(DrawMove{2, Cs({"KH"}), 0}).empty());
  EXPECT_TRUE(pos.stock_slip_open());
  EXPECT_FALSE(pos.IsStockNext(C("QC")));
  EXPECT_EQ(pos.StockCardsBefore(C("QC")), 0);  // the place the slip left for it
  EXPECT_EQ(pos.StockCardsBefore(C("JD")), 2);

  Position unrecorded(rules, DefaultHooks(), {0, 0});
  spec.record_stock = false;
  test::Log plain;
  plain.Deal(spec);
  ASSERT_TRUE(unrecorded.Deal(plain.deal_move()).empty());
  EXPECT_TRUE(unrecorded.IsStockNext(C("JD")));  // nothing to compare with
  EXPECT_EQ(unrecorded.StockCardsBefore(C("JD")), 0);
}

// AreStockNext and StockCardsBeforeDraw: a draw of several cards, whose
// first card may be a copy of the card skipped, so that only the draw as a
// whole shows how many cards on it lies (readings R123).
TEST(PositionQueries, ADrawOfSeveralCardsJudgedAsAWhole_000S12_R123) {
  test::Log log;
  test::DealSpec spec;
  spec.stock = {"8D", "8D", "7S", "KH", "QC", "JD"};
  log.Deal(spec);
  const Rules rules;
  Position pos(rules, DefaultHooks(), {0, 0});
  ASSERT_TRUE(pos.Deal(log.deal_move()).empty());
  EXPECT_TRUE(pos.AreStockNext(Cs({"8D", "8D"})));
  EXPECT_TRUE(pos.AreStockNext({}));
  EXPECT_FALSE(pos.AreStockNext(Cs({"8D", "7S"})));  // the first card a copy of the next
  EXPECT_FALSE(pos.AreStockNext(Cs({"8D", "8D", "7S", "KH", "QC", "JD", "AS"})));  // past the end
  EXPECT_EQ(pos.StockCardsBeforeDraw(Cs({"8D", "8D"})), 0);
  EXPECT_EQ(pos.StockCardsBeforeDraw(Cs({"8D", "7S"})), 1);  // the whole draw one card on
  EXPECT_EQ(pos.StockCardsBeforeDraw(Cs({"7S", "KH"})), 2);  // its first card: StockCardsBefore
  EXPECT_EQ(pos.StockCardsBeforeDraw(Cs({"KH"})), 3);
  EXPECT_EQ(pos.StockCardsBeforeDraw(Cs({"8D", "AS"})), 0);  // nowhere as a whole
  EXPECT_EQ(pos.StockCardsBeforeDraw(Cs({"8D", "JD", "AS"})), 0);
  EXPECT_EQ(pos.StockCardsBeforeDraw({}), 0);

  Position unrecorded(rules, DefaultHooks(), {0, 0});
  spec.record_stock = false;
  test::Log plain;
  plain.Deal(spec);
  ASSERT_TRUE(unrecorded.Deal(plain.deal_move()).empty());
  EXPECT_TRUE(unrecorded.AreStockNext(Cs({"JD", "AS"})));  // nothing to compare with
  EXPECT_EQ(unrecorded.StockCardsBeforeDraw(Cs({"JD", "AS"})), 0);
}

// --- The foot (002 L71, readings R116) ---

Rules WithFeet(FootPickup pickup) {
  Rules r = TwoPlayers(4);
  r.foot_size = 3;
  r.foot_pickup = pickup;
  r.canastas_to_go_out = 0;
  r.minimum_table = {{-1000000000, 0}};
  EXPECT_EQ(r.Validate(), "");
  return r;
}

TEST(PositionQueries, FootPendingUntilPickedUpAndOnlyWhereFeetAreDealt_002L71) {
  const Rules feet = WithFeet(FootPickup::kAtOnce);
  Position pos(feet, DefaultHooks(), {0, 0});
  ASSERT_TRUE(pos.Deal(Deal({{"4S", "5S", "6S", "7S"}, {"KS", "KH", "KD", "KC"}}, {"8C"},
                            {{"4H", "4D", "4C"}, {"QS", "QH", "QD"}}, 4))
                  .empty());
  EXPECT_TRUE(pos.FootPending(0));
  EXPECT_TRUE(pos.FootPending(1));
  EXPECT_FALSE(pos.FootPending(-1));  // no seat
  EXPECT_FALSE(pos.FootPending(2));

  const Rules plain = TwoPlayers(4);
  Position without(plain, DefaultHooks(), {0, 0});
  ASSERT_TRUE(
      without.Deal(Deal({{"4S", "5S", "6S", "7S"}, {"KS", "KH", "KD", "KC"}}, {"8C"}, {}, 4))
          .empty());
  EXPECT_FALSE(without.FootPending(0));
  EXPECT_EQ(without.FootDue(), -1);
}

// At once, emptied by melding: the foot is due to the player in turn, in the
// play phase; once picked up it is neither due nor pending.
TEST(PositionQueries, FootDueToTheSeatThatMeldsItsHandEmpty_002L71) {
  const Rules rules = WithFeet(FootPickup::kAtOnce);
  Position pos(rules, DefaultHooks(), {0, 0});
  ASSERT_TRUE(pos.Deal(Deal({{"4S", "5S", "6S", "7S"}, {"KS", "KH", "KD", "QC"}}, {"8C"},
                            {{"4H", "4D", "4C"}, {"QS", "QH", "QD"}}, 4))
                  .empty());
  EXPECT_EQ(pos.FootDue(), -1);  // before play
  ASSERT_TRUE(pos.Play(DrawMove{1, Cs({"KC"}), 0}).empty());
  EXPECT_EQ(pos.FootDue(), -1);  // the hand still holds cards
  ASSERT_TRUE(pos.Play(MeldMove{1, {Part({"KS", "KH", "KD", "KC"})}, 0}).empty());
  ASSERT_EQ(pos.hand(1).total(), 1);
  EXPECT_EQ(pos.FootDue(), -1);
  ASSERT_TRUE(pos.Play(MeldMove{1, {Part({"QC"})}, 0}).size() > 0);  // one queen is no meld
  // The queen was laid as recorded: the hand is empty and the foot is due.
  ASSERT_EQ(pos.hand(1).total(), 0);
  EXPECT_EQ(pos.FootDue(), 1);
  // Holding: the hand while it has cards, then the foot not picked up.
  EXPECT_EQ(pos.Holding(0).count(C("4S")), 1);
  EXPECT_EQ(pos.Holding(1).total(), 3);
  EXPECT_EQ(pos.Holding(1).count(C("QS")), 1);
  EXPECT_FALSE(pos.MayLayOutFootThrees(1));  // picked up in the turn, not after the discard
  ASSERT_TRUE(pos.Play(FootMove{1, 0}).empty());
  EXPECT_FALSE(pos.FootPending(1));
  EXPECT_TRUE(pos.foot_taken(1));
  EXPECT_EQ(pos.FootDue(), -1);
  EXPECT_EQ(pos.hand(1).total(), 3);
  EXPECT_FALSE(pos.MayLayOutFootThrees(1));
}

// Seat 1 (four kings in hand, `foot` as its foot) draws 9D, melds the
// kings and discards the 9D: its hand is emptied by the discard.
void EmptyTheHandByTheDiscard(Position* pos, const std::vector<std::string>& foot) {
  ASSERT_TRUE(pos->Deal(Deal({{"4S", "5S", "6S", "7S"}, {"KS", "KH", "KD", "KC"}}, {"8C"},
                             {{"4H", "4D", "4C"}, foot}, 4))
                  .empty());
  ASSERT_TRUE(pos->Play(DrawMove{1, Cs({"9D"}), 0}).empty());
  ASSERT_TRUE(pos->Play(MeldMove{1, {Part({"KS", "KH", "KD", "KC"})}, 0}).empty());
  ASSERT_TRUE(pos->Play(DiscardMove{1, C("9D"), 0}).empty());
}

// At once, emptied by the discard: the foot is due to the seat that
// discarded, before the next turn begins; picked up then, its threes may be
// laid out before that turn (readings R116), and the next turn ends that.
TEST(PositionQueries, FootDueAfterTheDiscardAndItsThreesMayBeLaidOut_ReadingsR116) {
  const Rules rules = WithFeet(FootPickup::kAtOnce);
  Position pos(rules, DefaultHooks(), {0, 0});
  EmptyTheHandByTheDiscard(&pos, {"3H", "QH", "QD"});
  EXPECT_EQ(pos.phase(), Phase::kDraw);
  EXPECT_EQ(pos.current_player(), 0);
  EXPECT_EQ(pos.FootDue(), 1);  // the seat before the one in turn
  EXPECT_FALSE(pos.MayLayOutFootThrees(1));
  ASSERT_TRUE(pos.Play(FootMove{1, 0}).empty());
  EXPECT_TRUE(pos.MayLayOutFootThrees(1));
  EXPECT_FALSE(pos.MayLayOutFootThrees(0));
  EXPECT_FALSE(pos.MayLayOutFootThrees(-1));
  ASSERT_TRUE(pos.Play(DrawMove{0, Cs({"8D"}), 0}).empty());
  EXPECT_FALSE(pos.MayLayOutFootThrees(1));  // the next turn began
}

// Next turn: due only at the start of the player's own next turn.
TEST(PositionQueries, FootDueAtTheStartOfTheNextTurnUnderNextTurn_002L71) {
  const Rules rules = WithFeet(FootPickup::kNextTurn);
  Position pos(rules, DefaultHooks(), {0, 0});
  EmptyTheHandByTheDiscard(&pos, {"QS", "QH", "QD"});
  EXPECT_EQ(pos.FootDue(), -1);  // seat 0 is in turn
  ASSERT_TRUE(pos.Play(DrawMove{0, Cs({"8D"}), 0}).empty());
  ASSERT_TRUE(pos.Play(DiscardMove{0, C("8D"), 0}).empty());
  EXPECT_EQ(pos.current_player(), 1);
  EXPECT_EQ(pos.FootDue(), 1);
}

// --- The pile (000 §14) ---

TEST(PositionQueries, PileFrozenByNamesWhatFreezesIt_000S14) {
  const Rules rules = TwoPlayers();
  Position pos(rules, DefaultHooks(), {0, 0});
  ASSERT_TRUE(pos.Deal(Deal({{"2C", "3S", "4S", "4H", "4D"}, {"KS", "KH", "KD", "QS", "QH", "QD"}}))
                  .empty());
  // Classic freezes the pile for a side without its initial meld.
  EXPECT_STREQ(pos.PileFrozenBy(1), "not_opened");
  ASSERT_TRUE(pos.Play(DrawMove{1, Cs({"AC"}), 0}).empty());
  ASSERT_TRUE(
      pos.Play(MeldMove{1, {Part({"KS", "KH", "KD"}), Part({"QS", "QH", "QD"})}, 0}).empty());
  ASSERT_TRUE(pos.Play(DiscardMove{1, C("AC"), 0}).empty());
  EXPECT_EQ(pos.PileFrozenBy(1), nullptr);  // opened; nothing in the pile freezes it
  EXPECT_STREQ(pos.PileFrozenBy(0), "not_opened");
  ASSERT_TRUE(pos.Play(DrawMove{0, Cs({"9C"}), 0}).empty());
  ASSERT_TRUE(pos.Play(DiscardMove{0, C("2C"), 0}).empty());
  EXPECT_STREQ(pos.PileFrozenBy(1), "wild");

  Rules open = TwoPlayers();
  open.frozen_before_initial_meld = false;
  Position other(open, DefaultHooks(), {0, 0});
  // A red three turned up makes another card turn, and freezes the pile.
  ASSERT_TRUE(other.Deal(Deal({{"2C"}, {"KS"}}, {"3H", "8C"})).empty());
  EXPECT_STREQ(other.PileFrozenBy(0), "red_three");
}

// --- The side's melds ---

// Fourteen cards a hand. Seat 1 lays a natural canasta of kings and six
// queens, and keeps 2D and the 9C it drew; side 0 lays nothing.
Rules FourteenCards() { return TwoPlayers(14); }
Position WithCanastas(const Rules& rules) {
  Position pos(rules, DefaultHooks(), {0, 0});
  EXPECT_TRUE(pos.Deal(Deal({{"4S", "4H", "4D", "5S", "5H"},
                             {"KS", "KS", "KH", "KH", "KD", "KD", "KC", "QS", "QS", "QH", "QH",
                              "QD", "QC", "2D"}},
                            {"8C"}, {}, 14))
                  .empty());
  EXPECT_TRUE(pos.Play(DrawMove{1, Cs({"9C"}), 0}).empty());
  EXPECT_TRUE(pos.Play(MeldMove{1, {Part({"KS", "KS", "KH", "KH", "KD", "KD", "KC"})}, 0}).empty());
  EXPECT_TRUE(pos.Play(MeldMove{1, {Part({"QS", "QS", "QH", "QH", "QD", "QC"})}, 0}).empty());
  return pos;
}

TEST(PositionQueries, SummaryCountsMeldsCanastasAndRedThrees_000S18) {
  const Rules rules = FourteenCards();
  Position pos = WithCanastas(rules);
  SideSummary s = pos.Summary(1);
  EXPECT_EQ(s.side, 1);
  EXPECT_EQ(s.melds, 2);
  EXPECT_EQ(s.canastas, 1);  // six queens are no canasta yet
  EXPECT_EQ(s.natural_canastas, 1);
  EXPECT_EQ(s.mixed_canastas, 0);
  EXPECT_EQ(s.sequence_canastas, 0);
  EXPECT_EQ(s.red_threes, 0);
  SideSummary none = pos.Summary(0);
  EXPECT_EQ(none.side, 0);
  EXPECT_EQ(none.melds + none.canastas + none.red_threes, 0);
}

// natural_canasta_closes_rank (001 L28, readings R39): only a natural
// canasta closes its rank, whoever holds it.
TEST(PositionQueries, RankClosedByANaturalCanastaOnly_001L28) {
  const Rules rules = FourteenCards();
  Position pos = WithCanastas(rules);
  EXPECT_TRUE(pos.RankClosed(Rank::kKing));
  EXPECT_FALSE(pos.RankClosed(Rank::kQueen));
  EXPECT_FALSE(pos.RankClosed(Rank::kJack));
  // The two on the queens makes a mixed canasta: their rank stays open.
  ASSERT_TRUE(pos.Play(MeldMove{1, {MeldPart{Rank::kQueen, {}, Cs({"2D"})}}, 0}).empty());
  EXPECT_EQ(pos.Summary(1).canastas, 2);
  EXPECT_EQ(pos.Summary(1).mixed_canastas, 1);
  EXPECT_FALSE(pos.RankClosed(Rank::kQueen));
  EXPECT_TRUE(pos.RankClosed(Rank::kKing));
}

// Melds of wild cards (000 §8 wild_melds; one_unfinished_wild_meld, 001 L63,
// readings R40): the unfinished one is where wild cards go, and a play with
// `to` names the latest wild canasta once none is unfinished.
TEST(PositionQueries, MeldForAndTheUnfinishedWildMeld_001L63) {
  Rules rules = TwoPlayers();
  rules.wild_melds = true;
  rules.one_unfinished_wild_meld = true;
  rules.minimum_table = {{-1000000000, 0}};
  Position pos(rules, DefaultHooks(), {0, 0});
  ASSERT_TRUE(
      pos.Deal(Deal({{"4S"}, {"2C", "2D", "JK", "2H", "2S", "JK", "2C", "KS", "KH", "KD", "5S"}}))
          .empty());
  ASSERT_TRUE(pos.Play(DrawMove{1, Cs({"9C"}), 0}).empty());
  EXPECT_FALSE(pos.HasUnfinishedWildMeld(1));
  EXPECT_EQ(pos.MeldFor(1, Rank::kJoker, false), nullptr);
  EXPECT_EQ(pos.MeldFor(1, Rank::kJoker, true), nullptr);  // no wild canasta either
  ASSERT_TRUE(
      pos.Play(MeldMove{1, {MeldPart{{}, Rank::kJoker, Cs({"2C", "2D", "JK"})}}, 0}).empty());
  EXPECT_TRUE(pos.HasUnfinishedWildMeld(1));
  EXPECT_FALSE(pos.HasUnfinishedWildMeld(0));
  const Meld* wild = pos.MeldFor(1, Rank::kJoker, false);
  ASSERT_NE(wild, nullptr);
  EXPECT_EQ(wild->size(), 3);
  EXPECT_EQ(pos.MeldFor(1, Rank::kJoker, true), wild);
  ASSERT_TRUE(
      pos.Play(MeldMove{1, {MeldPart{Rank::kJoker, {}, Cs({"2H", "2S", "JK", "2C"})}}, 0}).empty());
  EXPECT_FALSE(pos.HasUnfinishedWildMeld(1));  // a canasta now
  // None unfinished: a new wild meld starts (nullptr), or `to` names the canasta.
  EXPECT_EQ(pos.MeldFor(1, Rank::kJoker, false), nullptr);
  EXPECT_EQ(pos.MeldFor(1, Rank::kJoker, true), wild);
  // Other ranks: the side's meld of the rank, whatever `adding` says.
  ASSERT_TRUE(pos.Play(MeldMove{1, {Part({"KS", "KH", "KD"})}, 0}).empty());
  const Meld* kings = pos.MeldFor(1, Rank::kKing, false);
  ASSERT_NE(kings, nullptr);
  EXPECT_EQ(kings->rank, Rank::kKing);
  EXPECT_EQ(pos.MeldFor(1, Rank::kKing, true), kings);
  EXPECT_EQ(pos.MeldFor(0, Rank::kKing, true), nullptr);
}

// Sequences (002 L67, L75; readings R115): found by id, told from rank melds
// by their cards, counted as canastas at seven cards.
TEST(PositionQueries, SequencesByIdKindAndCanastaCount_002L67) {
  Rules rules = TwoPlayers(15);
  rules.sequence_melds = true;
  rules.minimum_table = {{-1000000000, 0}};
  Position pos(rules, DefaultHooks(), {0, 0});
  ASSERT_TRUE(pos.Deal(Deal({{"4H"},
                             {"4S", "5S", "6S", "7S", "8S", "9S", "TS", "KS", "KS", "KH", "KH",
                              "KD", "KD", "KC", "5D"}},
                            {"8C"}, {}, 15))
                  .empty());
  ASSERT_TRUE(pos.Play(DrawMove{1, Cs({"9C"}), 0}).empty());
  MeldPart run{{}, {}, Cs({"4S", "5S", "6S"})};
  run.id = "spades";
  const Meld* target = reinterpret_cast<const Meld*>(&pos);  // overwritten by the call
  EXPECT_TRUE(pos.IsSequencePart(1, run, &target));          // natural cards of several ranks
  EXPECT_EQ(target, nullptr);                                // a new sequence
  EXPECT_FALSE(pos.IsSequencePart(1, Part({"KH", "KD", "KC"}), &target));
  MeldPart named_rank{Rank::kKing, {}, Cs({"4S", "5S"})};
  EXPECT_FALSE(pos.IsSequencePart(1, named_rank, &target));  // `to` a rank: no sequence
  MeldPart flagged{{}, {}, Cs({"KH"})};
  flagged.sequence = true;
  EXPECT_TRUE(pos.IsSequencePart(1, flagged, &target));  // "as":"sequence"

  EXPECT_EQ(pos.FindMeldById(1, "spades"), nullptr);
  ASSERT_TRUE(pos.Play(MeldMove{1, {run}, 0}).empty());
  const Meld* spades = pos.FindMeldById(1, "spades");
  ASSERT_NE(spades, nullptr);
  EXPECT_TRUE(spades->sequence());
  EXPECT_EQ(pos.FindMeldById(0, "spades"), nullptr);  // the other side's name space
  EXPECT_EQ(pos.FindMeldById(1, ""), nullptr);
  EXPECT_EQ(pos.SequenceCanastaCount(1), 0);

  MeldPart more{{}, {}, Cs({"7S", "8S", "9S", "TS"})};
  more.to_id = "spades";
  EXPECT_TRUE(pos.IsSequencePart(1, more, &target));
  EXPECT_EQ(target, spades);
  MeldPart unknown = more;
  unknown.to_id = "hearts";
  EXPECT_FALSE(pos.IsSequencePart(1, unknown, &target));
  EXPECT_EQ(target, nullptr);
  ASSERT_TRUE(pos.Play(MeldMove{1, {more}, 0}).empty());
  EXPECT_EQ(pos.FindMeldById(1, "spades")->size(), 7);
  EXPECT_EQ(pos.SequenceCanastaCount(1), 1);
  EXPECT_EQ(pos.SequenceCanastaCount(0), 0);
  EXPECT_EQ(pos.Summary(1).sequence_canastas, 1);
  // A canasta of kings beside it is no sequence.
  ASSERT_TRUE(pos.Play(MeldMove{1, {Part({"KS", "KS", "KH", "KH", "KD", "KD", "KC"})}, 0}).empty());
  EXPECT_EQ(pos.CanastaCount(1), 2);
  EXPECT_EQ(pos.SequenceCanastaCount(1), 1);

  // Without sequence_melds, cards of several ranks are not taken for one.
  const Rules plain = TwoPlayers();
  Position classic(plain, DefaultHooks(), {0, 0});
  ASSERT_TRUE(classic.Deal(Deal({{"4H"}, {"4S", "5S", "8S"}})).empty());
  EXPECT_FALSE(classic.IsSequencePart(1, Part({"4S", "5S", "8S"}), &target));
}

// --- Storage passed from deal to deal ---

// A finished deal gives its storage to the next: it is left without melds or
// pile, and the next deal starts with no card of it and plays as a fresh one.
TEST(PositionQueries, PassMeldStorageGivesStorageNotCards) {
  const Rules rules = FourteenCards();
  Position done = WithCanastas(rules);
  ASSERT_TRUE(done.Play(DiscardMove{1, C("9C"), 0}).empty());
  ASSERT_EQ(done.melds(1).size(), 2u);
  ASSERT_EQ(done.pile().size(), 2u);
  Position next(rules, DefaultHooks(), {0, 0});
  done.PassMeldStorage(&next);
  EXPECT_TRUE(done.melds(1).empty());
  EXPECT_TRUE(done.pile().empty());
  EXPECT_TRUE(next.melds(0).empty());
  EXPECT_TRUE(next.melds(1).empty());
  EXPECT_TRUE(next.pile().empty());
  // The next deal, on the storage passed: the same table as a fresh position's.
  Position fresh(rules, DefaultHooks(), {0, 0});
  for (Position* p : {&next, &fresh}) {
    ASSERT_TRUE(
        p->Deal(Deal({{"4S"}, {"QS", "QH", "QD", "KS", "KH", "KD"}}, {"8C"}, {}, 14)).empty());
    ASSERT_TRUE(p->Play(DrawMove{1, Cs({"9C"}), 0}).empty());
    ASSERT_TRUE(
        p->Play(MeldMove{1, {Part({"QS", "QH", "QD"}), Part({"KS", "KH", "KD"})}, 0}).empty());
  }
  ASSERT_EQ(next.melds(1).size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(next.melds(1)[i].rank, fresh.melds(1)[i].rank);
    EXPECT_EQ(next.melds(1)[i].cards, fresh.melds(1)[i].cards);
  }
  EXPECT_EQ(next.pile(), Cs({"8C"}));
  EXPECT_EQ(next.hand(1).ToVector(), fresh.hand(1).ToVector());
}

// --- The initial meld judged at the turn's end (000 §10) ---

TEST(PositionQueries, TurnEndOpeningShortUntilTheMinimumIsLaid_000S10) {
  const Rules rules = TwoPlayers();  // 50 at a total of 0
  Position pos(rules, DefaultHooks(), {0, 0});
  ASSERT_TRUE(pos.Deal(Deal({{"4H"}, {"4S", "4H", "4D", "KS", "KH", "KD", "QS", "QH"}})).empty());
  ASSERT_EQ(pos.Minimum(1), 50);
  ASSERT_TRUE(pos.Play(DrawMove{1, Cs({"QD"}), 0}).empty());
  EXPECT_FALSE(pos.TurnEndOpeningShort());  // nothing melded: the turn may end
  ASSERT_TRUE(pos.Play(MeldMove{1, {Part({"4S", "4H", "4D"})}, 0}).empty());
  EXPECT_TRUE(pos.TurnEndOpeningShort());  // 15 < 50
  ASSERT_TRUE(pos.Play(MeldMove{1, {Part({"KS", "KH", "KD"})}, 0}).empty());
  EXPECT_TRUE(pos.TurnEndOpeningShort());  // 45 < 50
  ASSERT_TRUE(pos.Play(MeldMove{1, {Part({"QS", "QH", "QD"})}, 0}).empty());
  EXPECT_FALSE(pos.TurnEndOpeningShort());  // 75
  EXPECT_EQ(pos.turn_initial_count(), 75);
}

// --- The shared verdicts ---

// MeldRefusal is the one statement of whether a meld may be laid: the
// composition (000 §8), then the table's rules (001 L28, L63).
TEST(PositionQueries, MeldRefusalJudgesShapeThenPlacement_000S8) {
  const Rules rules = FourteenCards();
  Position pos = WithCanastas(rules);
  auto shape = [](Rank rank, int naturals, int twos, int jokers, bool is_new) {
    return test::ShapeOf(rank, naturals, twos, jokers, /*was_canasta=*/false, is_new);
  };
  EXPECT_EQ(pos.MeldRefusal(1, shape(Rank::kJack, 3, 0, 0, true), Cs({"JS", "JH", "JD"}), false),
            std::nullopt);
  std::optional<Violation> small =
      pos.MeldRefusal(1, shape(Rank::kJack, 2, 0, 0, true), Cs({"JS", "JH"}), false);
  ASSERT_TRUE(small.has_value());
  EXPECT_EQ(small->id, CheckId::kMeldTooSmall);
  std::optional<Violation> wilds = pos.MeldRefusal(1, shape(Rank::kJack, 2, 2, 1, true),
                                                   Cs({"JS", "JH", "2C", "2D", "JK"}), false);
  ASSERT_TRUE(wilds.has_value());
  EXPECT_EQ(wilds->id, CheckId::kMeldTooManyWilds);

  // Kings are a natural canasta: dead only where the ruleset says so.
  const MeldShape king = shape(Rank::kKing, 8, 0, 0, false);
  EXPECT_EQ(pos.MeldRefusal(1, king, Cs({"KC"}), false), std::nullopt);
  Rules dead = rules;
  dead.natural_canasta_closes_rank = true;
  Position closed = WithCanastas(dead);
  std::optional<Violation> v = closed.MeldRefusal(0, king, Cs({"KC"}), false);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->id, CheckId::kMeldTooBig);

  // An unfinished wild meld, as the caller says it stands mid-move.
  Rules one_wild = rules;
  one_wild.one_unfinished_wild_meld = true;
  Position waiting = WithCanastas(one_wild);
  const MeldShape jacks = shape(Rank::kJack, 3, 1, 0, true);
  EXPECT_EQ(waiting.MeldRefusal(1, jacks, Cs({"JS", "JH", "JD", "2C"}), false, false),
            std::nullopt);
  std::optional<Violation> open =
      waiting.MeldRefusal(1, jacks, Cs({"JS", "JH", "JD", "2C"}), false, true);
  ASSERT_TRUE(open.has_value());
  EXPECT_EQ(open->id, CheckId::kMeldTooManyWilds);
  // Without the caller's word, the table decides: no wild meld, no refusal.
  EXPECT_EQ(waiting.MeldRefusal(1, jacks, Cs({"JS", "JH", "JD", "2C"}), false), std::nullopt);
}

// A v2 hook's refusal: its reason, cited by the ruleset's `sources` entry
// for the hook, else by the hook's own file and line.
TEST(PositionQueries, HookRefusalWordsTheReasonAndCitesTheHook) {
  Rules rules = TwoPlayers();
  Position pos(rules, DefaultHooks(), {0, 0});
  HookAnswer answer;
  answer.given = true;
  answer.allowed = false;
  answer.reason = "no melds of sevens on Sundays";
  answer.where = "house.lua:12";
  TaggedViolation t = pos.HookRefusal(CheckId::kMeldHouseRule, HookId::kMayMeld, answer);
  EXPECT_EQ(t.tag, 0);
  EXPECT_EQ(t.violation.id, CheckId::kMeldHouseRule);
  EXPECT_EQ(t.violation.message, "no melds of sevens on Sundays");
  EXPECT_EQ(t.violation.notes, std::vector<std::string>{"rule: house.lua:12 (may_meld)"});

  answer.reason.clear();
  answer.where.clear();
  t = pos.HookRefusal(CheckId::kDiscardHouseRule, HookId::kMayDiscard, answer);
  EXPECT_EQ(t.violation.id, CheckId::kDiscardHouseRule);
  EXPECT_EQ(t.violation.message, "the ruleset's may_discard refuses this");
  EXPECT_EQ(t.violation.notes, std::vector<std::string>{"rule: the ruleset's may_discard"});

  Rules cited = rules;
  cited.SetCitation("may_meld", "house rules §3");
  Position with_source(cited, DefaultHooks(), {0, 0});
  answer.where = "house.lua:12";
  t = with_source.HookRefusal(CheckId::kMeldHouseRule, HookId::kMayMeld, answer);
  EXPECT_EQ(t.violation.notes, std::vector<std::string>{"rule: house rules §3"});
}

// --- A move of no seat (the API's caller, not the replay, may send one) ---

// What a move could change, to compare before and after.
struct Snapshot {
  Phase phase;
  int current;
  std::vector<Card> pile;
  int stock;
  std::vector<int> held, turns, melds;
  bool operator==(const Snapshot& o) const {
    return phase == o.phase && current == o.current && pile == o.pile && stock == o.stock &&
           held == o.held && turns == o.turns && melds == o.melds;
  }
};
Snapshot SnapshotOf(const Position& pos) {
  Snapshot s{pos.phase(), pos.current_player(), pos.pile(), pos.stock_size(), {}, {}, {}};
  for (int seat = 0; seat < pos.num_players(); ++seat) {
    s.held.push_back(pos.hand(seat).total());
    s.turns.push_back(pos.turns_played(seat));
  }
  for (int side = 0; side < pos.rules().num_sides(); ++side)
    s.melds.push_back(int(pos.melds(side).size()));
  return s;
}

TEST(PositionQueries, AMoveOfNoSeatIsRefusedAndChangesNothing_PositionH) {
  // position.h: Apply performs a move that is physically possible; one of a
  // seat the game does not have is not, whatever its kind.
  const Rules rules = TwoPlayers(4);
  for (int seat : {-1, 2, 1000}) {
    Position pos(rules, DefaultHooks(), {0, 0});
    const DealMove deal = Deal({{"4S", "5S", "6S", "7S"}, {"KS", "KH", "KD", "9C"}}, {"8C"}, {}, 4);
    ASSERT_TRUE(pos.Deal(deal).empty());
    const Snapshot before = SnapshotOf(pos);
    const std::vector<Move> moves = {
        DrawMove{seat, Cs({"QC"}), 0},
        TakePileMove{seat, C("8C"), Cs({"8S", "8H"})},
        MeldMove{seat, {Part({"KS", "KH", "KD"})}, 0},
        DiscardMove{seat, C("9C"), 0},
        ThreeMove{seat, C("3H"), std::nullopt, 0},
        AskOutMove{seat, 0},
        AnswerMove{seat, true, 0},
        RetractMove{seat, Cs({"KS"}), 0},
        SpecialHandMove{seat, Cs({"KS", "KH", "KD", "9C"}), 0},
        FootMove{seat, 0},
    };
    for (const Move& m : moves) {
      EXPECT_FALSE(pos.Check(m).empty()) << "seat " << seat << ", move " << m.index();
      pos.Apply(m);
      EXPECT_TRUE(SnapshotOf(pos) == before) << "seat " << seat << ", move " << m.index();
    }
  }
}

}  // namespace
}  // namespace canasta
