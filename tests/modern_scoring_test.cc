// Threes, the turn card, bonus cards and the scoring of seed 001 (Modern
// American), as general parameters: TC-M01, M02, M04, M05, M12, M13, M14,
// M19, M21. Each is checked on a Position under rules set to 001's values,
// and in the other direction under the classic defaults.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/rules.h"
#include "replay/auditor.h"
#include "replay/simulate.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

using test::C;
using test::Cs;

// 001's values for the parameters of this file (001 L18, L37, L48-L61, L84-L103).
Rules Modern() {
  Rules r;
  r.hand_size = 13;
  r.upcards = 0;
  r.wild_melds = true;
  r.canastas_to_go_out = 2;
  r.black_threes_laid_out = true;
  r.threes_kept_before_meld = 1;
  r.three_values = {100, 300, 500, 1000};
  r.three_sign_by_canastas = true;
  r.turn_card_from_bottom = 9;
  r.bonus_cards_first = 4;
  r.bonus_cards_second = 3;
  r.natural_canasta_bonus_by_rank[size_t(Rank::kAce)] = 2500;
  r.natural_canasta_bonus_by_rank[size_t(Rank::kSeven)] = 2500;
  r.wild_canasta_bonus = 2000;
  r.wild_canasta_twos_bonus = 3000;
  r.wild_canasta_all_jokers_bonus = 2500;
  r.unfinished_natural_meld_penalty[size_t(Rank::kAce)] = 2500;
  r.unfinished_natural_meld_penalty[size_t(Rank::kSeven)] = 2500;
  r.unfinished_wild_meld_penalty = 2000;
  r.unfinished_wild_meld_all_jokers_penalty = 2500;
  r.caught_holding_penalty[size_t(Rank::kAce)] = 1500;
  r.caught_holding_penalty[size_t(Rank::kSeven)] = 1500;
  r.melded_counts_against_without_canasta = true;
  return r;
}

// Positions keep a reference to their rules: these outlive them.
const Rules kModern = Modern();
const Rules kClassic;

// A position after a deal of `hands` (seat 1 plays first: dealer 0).
Position Dealt(const Rules& r, const std::vector<std::vector<std::string>>& hands,
               std::optional<std::vector<Card>> stock = std::nullopt) {
  Position p(r, DefaultHooks(), std::vector<int>(size_t(r.num_sides()), 0));
  DealMove d;
  d.dealer = 0;
  for (const auto& h : hands) d.hands.push_back(Cs(h));
  d.stock = std::move(stock);
  p.Deal(d);
  return p;
}

void Lay(Position* p, int seat, const std::vector<std::string>& cards,
         std::optional<Rank> as = std::nullopt) {
  p->Apply(MeldMove{seat, {MeldPart{std::nullopt, as, Cs(cards)}}, 0});
}

void Three(Position* p, int seat, const std::string& card) {
  p->Apply(ThreeMove{seat, C(card), std::nullopt, 0});
}

const std::vector<std::string> kSevenKings = {"KS", "KH", "KD", "KC", "KS", "KH", "KD"};
const std::vector<std::string> kSevenQueens = {"QS", "QH", "QD", "QC", "QS", "QH", "QD"};

// TC-M01 (001 L57): 2 red + 3 black threes are 300 + 500 = 800, counted
// against a side with no canasta, nothing with one, for it with two.
TEST(ModernScoring, TC_M01_ThreesSignByCanastas) {
  for (int canastas : {0, 1, 2}) {
    Position p = Dealt(kModern, {{}, {}, {}, {}});
    for (const char* t : {"3H", "3D", "3C", "3S", "3C"}) Three(&p, 0, t);
    Lay(&p, 0, {"9S", "9H", "9D"});
    if (canastas >= 1) Lay(&p, 0, kSevenKings);
    if (canastas >= 2) Lay(&p, 0, kSevenQueens);
    EXPECT_EQ(p.Score()[0].red_threes, canastas == 0 ? -800 : canastas == 1 ? 0 : 800) << canastas;
  }
  // Classic: red threes only, 100 each, for a side that has melded.
  Position classic = Dealt(kClassic, {{}, {}, {}, {}});
  Three(&classic, 0, "3H");
  Three(&classic, 0, "3D");
  Lay(&classic, 0, {"9S", "9H", "9D"});
  EXPECT_EQ(classic.Score()[0].red_threes, 200);
}

// TC-M02 (001 L49-L51): the table, each colour looked up on its own.
TEST(ModernScoring, TC_M02_ThreesTable) {
  struct Case {
    int reds, blacks, points;
  };
  const std::vector<std::string> reds = {"3H", "3D", "3H", "3D"};
  const std::vector<std::string> blacks = {"3C", "3S", "3C", "3S"};
  for (Case c : {Case{1, 0, 100}, Case{4, 1, 1100}, Case{4, 4, 2000}, Case{3, 2, 800}}) {
    Position p = Dealt(kModern, {{}, {}, {}, {}});
    for (int i = 0; i < c.reds; ++i) Three(&p, 0, reds[size_t(i)]);
    for (int i = 0; i < c.blacks; ++i) Three(&p, 0, blacks[size_t(i)]);
    Lay(&p, 0, kSevenKings);
    Lay(&p, 0, kSevenQueens);
    EXPECT_EQ(p.Score()[0].red_threes, c.points) << c.reds << " red, " << c.blacks << " black";
  }
}

// 001 L20, L44: a black three is laid out and never discarded; under the
// classic rules it is not laid out.
TEST(ModernScoring, BlackThreesLaidOutOnlyWhereTheRulesetSaysSo) {
  Position modern = Dealt(kModern, {{}, {"3S", "5H", "6H"}, {}, {}});
  modern.Apply(DrawMove{1, {C("8H")}, 0});
  EXPECT_TRUE(modern.Check(ThreeMove{1, C("3S"), C("9H"), 0}).empty());
  TaggedViolations discard = modern.Check(DiscardMove{1, C("3S"), 0});
  ASSERT_FALSE(discard.empty());
  EXPECT_EQ(discard[0].violation.id, CheckId::kThreeNotAllowed);
  EXPECT_EQ(discard[0].violation.message, "a three is laid out, never discarded");

  Position classic = Dealt(kClassic, {{}, {"3S", "5H", "6H"}, {}, {}});
  classic.Apply(DrawMove{1, {C("8H")}, 0});
  TaggedViolations three = classic.Check(ThreeMove{1, C("3S"), C("9H"), 0});
  ASSERT_EQ(three.size(), 1u);
  EXPECT_EQ(three[0].violation.id, CheckId::kThreeNotAllowed);
}

// readings R43: a side that has not melded may keep one three (001 L57);
// two kept, or one kept after the side melded, are found at the discard.
TEST(ModernScoring, ThreesKeptBeforeTheSideMelds) {
  auto timing = [](const Rules& r, const std::vector<std::string>& hand, bool melded_before) {
    Position p = Dealt(r, {{"9S", "9H", "9D"}, hand, {}, {"AS", "AH", "AD", "KS", "QS"}});
    if (melded_before) {
      Lay(&p, 3, {"AS", "AH", "AD"});  // 60, the minimum is 50
      p.Apply(DiscardMove{3, C("KS"), 0});
    }
    p.Apply(DrawMove{1, {C("8H")}, 0});
    int found = 0;
    for (const TaggedViolation& v : p.Check(DiscardMove{1, C("8H"), 0}))
      found += v.violation.id == CheckId::kThreeTiming;
    return found;
  };
  EXPECT_EQ(timing(Modern(), {"3S", "5H", "6H"}, false), 0);
  EXPECT_EQ(timing(Modern(), {"3S", "3H", "6H"}, false), 1);
  EXPECT_EQ(timing(Modern(), {"3S", "5H", "6H"}, true), 1);
  Rules freely = Modern();
  freely.threes_kept_before_meld = 100;  // 001 L112, "keep threes freely"
  EXPECT_EQ(timing(freely, {"3S", "3H", "6H"}, false), 0);
  Rules none = Modern();
  none.threes_kept_before_meld = 0;
  EXPECT_EQ(timing(none, {"3S", "5H", "6H"}, false), 1);
}

// The whole pack in a fixed order: 52 cards dealt, 56 in the stock.
std::vector<Card> Pack() {
  std::vector<Card> out;
  for (int i = 0; i < kNumFaces; ++i) {
    Card c = Card::FromIndex(i);
    for (int k = 0; k < Rules().copies(c); ++k) out.push_back(c);
  }
  return out;
}

struct DealtPack {
  std::vector<std::vector<std::string>> hands;
  std::vector<Card> stock;
};
DealtPack SplitPack(const std::vector<std::vector<std::string>>& fixed) {
  std::vector<Card> pack = Pack();
  DealtPack d;
  d.hands.assign(4, {});
  for (int s = 0; s < 4; ++s) {
    for (const std::string& t : fixed[size_t(s)]) {
      auto it = std::find(pack.begin(), pack.end(), C(t));
      pack.erase(it);
      d.hands[size_t(s)].push_back(t);
    }
  }
  size_t next = 0;
  for (int s = 0; s < 4; ++s)
    while (d.hands[size_t(s)].size() < 13) d.hands[size_t(s)].push_back(ToString(pack[next++]));
  d.stock.assign(pack.begin() + long(next), pack.end());
  return d;
}

// TC-M04 (001 L18): 56 cards in the stock; the turn card is the 9th from
// the bottom, the 48th from the top; once drawn, 8 are left.
TEST(ModernScoring, TC_M04_TurnCard) {
  DealtPack d = SplitPack({{}, {}, {}, {}});
  ASSERT_EQ(d.stock.size(), 56u);
  Position p = Dealt(kModern, d.hands, d.stock);
  EXPECT_TRUE(p.turn_card_in_stock());
  p.Apply(DrawMove{1, p.StockTop(47), 0});
  EXPECT_EQ(p.stock_size(), 9);
  EXPECT_TRUE(p.turn_card_in_stock());  // the turn card is on top
  p.Apply(DrawMove{1, p.StockTop(1), 0});
  EXPECT_EQ(p.stock_size(), 8);
  EXPECT_FALSE(p.turn_card_in_stock());
  Position classic = Dealt(kClassic, d.hands, d.stock);
  EXPECT_FALSE(classic.turn_card_in_stock());
}

// TC-M05 (001 L37, readings R47): 4 bonus cards for the first initial meld
// of the hand, 3 for the other side's, none once the turn card is drawn.
TEST(ModernScoring, TC_M05_BonusCards) {
  DealtPack d = SplitPack({{}, {"KS", "KH", "KD", "QS", "QH", "QD"}, {"JS", "JH", "JD"}, {}});
  Position p = Dealt(kModern, d.hands, d.stock);
  // East (seat 1) makes the first initial meld and discards.
  p.Apply(DrawMove{1, p.StockTop(1), 0});
  Lay(&p, 1, {"KS", "KH", "KD"});
  Lay(&p, 1, {"QS", "QH", "QD"});
  const Card east_discard = p.hand(1).ToVector().back();
  p.Apply(DiscardMove{1, east_discard, 0});
  EXPECT_EQ(p.bonus_player(), 1);
  EXPECT_EQ(p.bonus_count(), 4);
  // The next player may not draw first.
  TaggedViolations early = p.Check(DrawMove{2, p.StockTop(1), 0});
  ASSERT_FALSE(early.empty());
  EXPECT_EQ(early[0].violation.id, CheckId::kDrawCount);
  EXPECT_EQ(early[0].violation.message,
            "seat 1 did not draw the 4 bonus cards due after the initial meld");
  // Three bonus cards are not four; another player's are not due.
  TaggedViolations three = p.Check(DrawMove{1, p.StockTop(3), 0, true});
  ASSERT_EQ(three.size(), 1u);
  EXPECT_EQ(three[0].violation.message, "seat 1 draws 3 bonus cards; 4 are due");
  TaggedViolations other = p.Check(DrawMove{3, p.StockTop(4), 0, true});
  ASSERT_EQ(other.size(), 1u);
  EXPECT_EQ(other[0].violation.id, CheckId::kDrawCount);
  const DrawMove bonus{1, p.StockTop(4), 0, true};
  EXPECT_TRUE(p.Check(bonus).empty());
  p.Apply(bonus);
  EXPECT_EQ(p.bonus_player(), -1);
  EXPECT_EQ(p.hand(1).total(), 13 + 1 - 6 - 1 + 4);
  // South (side 0) makes its initial meld later: 3 cards.
  p.Apply(DrawMove{2, p.StockTop(1), 0});
  Lay(&p, 2, {"JS", "JH", "JD"});
  p.Apply(DiscardMove{2, p.hand(2).ToVector().back(), 0});
  EXPECT_EQ(p.bonus_player(), 2);
  EXPECT_EQ(p.bonus_count(), 3);
  TaggedViolations none_due = p.Check(DrawMove{2, p.StockTop(1), 0, true});
  ASSERT_EQ(none_due.size(), 1u);
  EXPECT_EQ(none_due[0].violation.message, "seat 2 draws 1 bonus card; 3 are due");

  // Once the turn card is drawn, an initial meld earns none.
  Position late = Dealt(kModern, d.hands, d.stock);
  late.Apply(DrawMove{1, late.StockTop(48), 0});
  Lay(&late, 1, {"KS", "KH", "KD"});
  late.Apply(DiscardMove{1, late.hand(1).ToVector().back(), 0});
  EXPECT_EQ(late.bonus_player(), -1);
  TaggedViolations not_due = late.Check(DrawMove{1, late.StockTop(4), 0, true});
  ASSERT_EQ(not_due.size(), 1u);
  EXPECT_EQ(not_due[0].violation.message, "seat 1 draws bonus cards, but none are due");
  // Classic: no turn card, no bonus cards.
  Position classic = Dealt(kClassic, d.hands, d.stock);
  classic.Apply(DrawMove{1, classic.StockTop(1), 0});
  Lay(&classic, 1, {"KS", "KH", "KD"});
  classic.Apply(DiscardMove{1, classic.hand(1).ToVector().back(), 0});
  EXPECT_EQ(classic.bonus_player(), -1);
}

// TC-M12 (001 L63, L92-L94, L100-L101): wild canastas by make-up, and the
// unfinished wild meld's penalty.
TEST(ModernScoring, TC_M12_WildCanastas) {
  struct Case {
    std::vector<std::string> cards;
    int canastas, penalties;
  };
  const std::vector<Case> cases = {
      {{"2S", "2H", "2D", "2C", "2S", "2H", "2D"}, 3000, 0},
      {{"JK", "JK", "JK", "JK", "2S", "2H", "2D"}, 2500, 0},
      {{"JK", "JK", "2S", "2H", "2D", "2C", "2S"}, 2000, 0},
      {{"2S", "2H", "JK"}, 0, -2000},
      {{"JK", "JK", "JK", "JK", "2S"}, 0, -2500},
  };
  for (const Case& c : cases) {
    Position p = Dealt(kModern, {{}, {}, {}, {}});
    Lay(&p, 0, c.cards, Rank::kJoker);
    const ScoreBreakdown b = p.Score()[0];
    EXPECT_EQ(b.canastas, c.canastas) << ToString(Cs(c.cards));
    EXPECT_EQ(b.penalties, c.penalties) << ToString(Cs(c.cards));
  }
  // Classic scores a canasta of wild cards (wild_melds aside) as mixed, with
  // no penalty unfinished.
  Rules classic;
  classic.wild_melds = true;
  Position p = Dealt(classic, {{}, {}, {}, {}});
  Lay(&p, 0, cases[0].cards, Rank::kJoker);
  Lay(&p, 0, {"JK", "JK", "2C"}, Rank::kJoker);
  EXPECT_EQ(p.Score()[0].canastas, 300);
  EXPECT_EQ(p.Score()[0].penalties, 0);
}

// TC-M13 (001 L59-L60, L90-L91, L98-L99): sevens and natural aces.
TEST(ModernScoring, TC_M13_SevensAndAces) {
  struct Case {
    std::vector<std::string> cards;
    int canastas, penalties;
  };
  const std::vector<Case> cases = {
      {{"7S", "7H", "7D", "7C", "7S", "7H", "7D"}, 2500, 0},
      {{"7S", "7H", "7D"}, 0, -2500},
      {{"AS", "AH", "AD", "AC", "AS", "AH", "AD"}, 2500, 0},
      {{"AS", "AH", "AD"}, 0, -2500},
      {{"AS", "AH", "2D"}, 0, 0},  // wild cards from the initial meld: no penalty
      {{"AS", "AH", "AD", "AC", "AS", "AH", "2D"}, 300, 0},
  };
  for (const Case& c : cases) {
    Position p = Dealt(kModern, {{}, {}, {}, {}});
    Lay(&p, 0, c.cards);
    const ScoreBreakdown b = p.Score()[0];
    EXPECT_EQ(b.canastas, c.canastas) << ToString(Cs(c.cards));
    EXPECT_EQ(b.penalties, c.penalties) << ToString(Cs(c.cards));
  }
  Position classic = Dealt(kClassic, {{}, {}, {}, {}});
  Lay(&classic, 0, cases[0].cards);
  Lay(&classic, 0, cases[3].cards);
  EXPECT_EQ(classic.Score()[0].canastas, 500);
  EXPECT_EQ(classic.Score()[0].penalties, 0);
}

// TC-M14 (001 L61, L85; readings R49): A-A-A-7-7-7 in a hand costs 1,500
// twice plus 75; the partner's A-A only its 40.
TEST(ModernScoring, TC_M14_CaughtHolding) {
  Position p = Dealt(kModern, {{"AS", "AH", "AD", "7S", "7H", "7D"}, {}, {"AC", "AS"}, {}});
  ScoreBreakdown b = p.Score()[0];
  EXPECT_EQ(b.in_hand, -75 - 40);
  EXPECT_EQ(b.penalties, -3000);
  EXPECT_EQ(b.in_hand + b.penalties, -3075 - 40);
  Position alone = Dealt(kModern, {{"AS", "AH", "AD", "7S", "7H", "7D"}, {}, {}, {}});
  EXPECT_EQ(alone.Score()[0].total(), -3075);
  Position classic = Dealt(kClassic, {{"AS", "AH", "AD", "7S", "7H", "7D"}, {}, {}, {}});
  EXPECT_EQ(classic.Score()[0].penalties, 0);
  EXPECT_EQ(classic.Score()[0].total(), -75);
}

// 001 L61 names no rank that could not be caught: the penalty reaches every
// rank of the table, from the twos to the jokers (readings R49).
TEST(ModernScoring, CaughtHoldingReachesTwosAndJokers_001L61) {
  Rules r;
  r.caught_holding_penalty[size_t(Rank::kTwo)] = 700;
  r.caught_holding_penalty[size_t(Rank::kJoker)] = 1000;
  ASSERT_EQ(r.Validate(), "");
  Position p = Dealt(r, {{"2S", "2H", "2D", "JK", "JK", "JK"}, {}, {}, {}});
  const ScoreBreakdown b = p.Score()[0];
  EXPECT_EQ(b.penalties, -1700);
  EXPECT_EQ(b.in_hand, -3 * 20 - 3 * 50);
}

// TC-M19 (001 L78-L85): the full order of scoring, teams X, Y and Z.
TEST(ModernScoring, TC_M19_FullScoringOrder) {
  // X (side 0) goes out; Y (side 1) has one canasta and an unfinished 7-7-7.
  Position p = Dealt(kModern, {{"9C"},
                               {"AS", "AH", "AD", "6S", "6H", "6D", "6C", "6S", "6H"},
                               {"8S", "8H", "5S"},
                               {"QS", "QH", "QD"}});
  Three(&p, 0, "3H");
  Three(&p, 0, "3C");
  Three(&p, 0, "3S");
  Three(&p, 1, "3H");
  Three(&p, 1, "3D");
  Lay(&p, 1, kSevenKings);                                 // 500, 70
  Lay(&p, 1, {"7S", "7H", "7D"});                          // -2,500, 15
  Lay(&p, 1, {"QS", "QH", "QD", "QC", "QS", "QH"});        // 60
  Lay(&p, 1, {"JS", "JH", "JD", "JC", "JS", "JH"});        // 60
  Lay(&p, 1, {"TS", "TH", "TD", "TC", "TS", "TH"});        // 60
  Lay(&p, 1, {"9S", "9H"});                                // 20
  Lay(&p, 1, {"5S", "5H", "5D"});                          // 15
  Lay(&p, 0, {"8S", "8H", "8D", "8C", "8S", "8H", "8D"});  // 500, 70
  Lay(&p, 0, {"TS", "TH", "TD", "TC", "TS", "2S", "JK"});  // 300, 120
  Lay(&p, 0, {"KS", "KH", "KD", "KC", "KS", "KH"});        // 60
  Lay(&p, 0, {"QS", "QH", "QD", "QC", "QS"});              // 50
  Lay(&p, 0, {"9S", "9H", "9D", "9D", "9S", "9H"});        // 60; X keeps its 9C
  Lay(&p, 0, {"JS", "JH", "JD", "JC"});                    // 40
  p.Apply(DiscardMove{0, C("9C"), 0});                     // out
  ASSERT_EQ(p.went_out(), 0);
  const std::vector<ScoreBreakdown> b = p.Score();
  EXPECT_EQ(b[0].canastas, 800);
  EXPECT_EQ(b[0].going_out, 100);
  EXPECT_EQ(b[0].red_threes, 400);
  EXPECT_EQ(b[0].melded, 400);
  EXPECT_EQ(b[0].in_hand, -25);
  EXPECT_EQ(b[0].total(), 1675);
  EXPECT_EQ(b[1].canastas, 500);
  EXPECT_EQ(b[1].red_threes, 0);
  EXPECT_EQ(b[1].melded, 300);
  EXPECT_EQ(b[1].in_hand, -120);
  EXPECT_EQ(b[1].penalties, -2500 - 1500);
  EXPECT_EQ(b[1].total(), -3320);

  // Z has no canasta: its melded cards and its red three count against it.
  Position z = Dealt(kModern, {{"KS", "KH", "KD", "KC", "KS", "KH"}, {}, {}, {}});
  Three(&z, 0, "3H");
  Lay(&z, 0, {"QS", "QH", "QD"});
  Lay(&z, 0, {"JS", "JH", "JD"});
  Lay(&z, 0, {"9S", "9H", "9D"});
  const ScoreBreakdown bz = z.Score()[0];
  EXPECT_EQ(bz.melded, -90);
  EXPECT_EQ(bz.red_threes, -100);
  EXPECT_EQ(bz.in_hand, -60);
  EXPECT_EQ(bz.total(), -250);
  // Classic: melded cards count for a side whatever its canastas.
  Position classic = Dealt(kClassic, {{}, {}, {}, {}});
  Lay(&classic, 0, {"QS", "QH", "QD"});
  EXPECT_EQ(classic.Score()[0].melded, 30);
}

// TC-M21 (001 L57): a three kept toward a straight and still in hand at the
// end costs 5; under the classic rules a red three held after a turn costs
// the undeclared penalty instead.
TEST(ModernScoring, TC_M21_ThreeLeftInHand) {
  Position p = Dealt(kModern, {{}, {"3H", "5S"}, {}, {}});
  p.Apply(DrawMove{1, {C("9S")}, 0});
  p.Apply(DiscardMove{1, C("9S"), 0});
  p.End(0);
  EXPECT_EQ(p.Score()[1].in_hand, -10);
  EXPECT_EQ(p.Score()[1].penalties, 0);

  Position classic = Dealt(kClassic, {{}, {"3H", "5S"}, {}, {}});
  classic.Apply(DrawMove{1, {C("9S")}, 0});
  classic.Apply(DiscardMove{1, C("9S"), 0});
  classic.End(0);
  EXPECT_EQ(classic.Score()[1].in_hand, -5);
  EXPECT_EQ(classic.Score()[1].penalties, -500);
}

// Self-play under 001's values of these parameters: the bots lay out black
// threes, draw their bonus cards, and the log they write audits clean
// (the checks and the move generator share the rules). Six hands of three
// games, cut short of the target.
TEST(ModernScoring, SelfPlayedLogsWithBonusCardsAndBlackThreesAuditClean) {
  RulesetChoice choice{"modern-scoring", kModern,
                       std::shared_ptr<const RuleHooks>(&DefaultHooks(), [](const RuleHooks*) {})};
  int bonus_draws = 0, black_threes = 0;
  for (uint64_t seed : {1, 2, 3}) {
    SimulateOptions options;
    options.max_deals = 6;
    options.header_ruleset = choice.name;
    std::ostringstream out;
    SimulateGame(choice, seed, options, out);
    const std::string log = out.str();
    for (size_t at = log.find("\"bonus\":true"); at != std::string::npos;
         at = log.find("\"bonus\":true", at + 1))
      ++bonus_draws;
    std::istringstream lines(log);
    for (std::string line; std::getline(lines, line);)
      black_threes += line.find("\"type\":\"three\"") != std::string::npos &&
                      (line.find("\"card\":\"3C\"") != std::string::npos ||
                       line.find("\"card\":\"3S\"") != std::string::npos);
    AuditOptions audit;
    audit.forced_ruleset = choice.name;
    audit.resolve = [choice](const std::string&, const std::string&, RulesetChoice* o,
                             std::string*) {
      *o = choice;
      return true;
    };
    std::istringstream in(log);
    FileReport r = AuditStream(in, "modern.jsonl", audit);
    // Six hands only: the game stops short of the target (game-end).
    EXPECT_EQ(test::FindingsExcept(r, {CheckId::kLogIncomplete, CheckId::kGameEnd}),
              test::FoundList{})
        << "seed " << seed << "\n"
        << test::Dump(r);
  }
  EXPECT_GT(bonus_draws, 0);
  EXPECT_GT(black_threes, 0);
}

// A self-played log with its first bonus draw left out (and no recorded
// stock): the next player's draw is the finding, at its line (readings R47).
TEST(ModernScoring, AMissingBonusDrawIsFoundAtTheNextDraw) {
  RulesetChoice choice{"modern-scoring", kModern,
                       std::shared_ptr<const RuleHooks>(&DefaultHooks(), [](const RuleHooks*) {})};
  SimulateOptions options;
  options.max_deals = 1;
  options.header_ruleset = choice.name;
  std::ostringstream out;
  SimulateGame(choice, 1, options, out);
  std::vector<std::string> lines;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  size_t bonus = 0;
  while (bonus < lines.size() && lines[bonus].find("\"bonus\":true") == std::string::npos) ++bonus;
  ASSERT_LT(bonus, lines.size());
  lines.erase(lines.begin() + long(bonus));
  // Without the recorded stock, the draws after it are not stock mismatches.
  for (std::string& l : lines) {
    const size_t at = l.find(",\"stock\":[");
    if (at != std::string::npos) l.erase(at, l.find(']', at) + 1 - at);
  }
  std::string log;
  for (const std::string& l : lines) log += l + "\n";
  AuditOptions audit;
  audit.forced_ruleset = choice.name;
  audit.resolve = [choice](const std::string&, const std::string&, RulesetChoice* o, std::string*) {
    *o = choice;
    return true;
  };
  std::istringstream log_in(log);
  FileReport r = AuditStream(log_in, "modern.jsonl", audit);
  const test::FoundList found =
      test::FindingsExcept(r, {CheckId::kLogIncomplete, CheckId::kGameEnd});
  ASSERT_FALSE(found.empty()) << test::Dump(r);
  EXPECT_EQ(found.front(), (test::Found{int(bonus) + 1, CheckId::kDrawCount})) << test::Dump(r);
}

}  // namespace
}  // namespace canasta
