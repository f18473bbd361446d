// The initial meld and the end of the stock as a table may change them
// (issues 9 and 10): each_meld_meets_minimum, initial_meld_condition,
// initial_meld_before_pile (take_pile "before"), pile_in_initial_meld_turn,
// splash_opens, splash_companions_need_minimum and stock_out_play. Each is
// replayed both ways with the exact findings, with seed 001's worked
// examples TC-M08 to TC-M10 under a ruleset of 001's values; self-play holds
// the move generator to the checks under them.
//
// Seats: dealer 0, so seat 1 plays first; sides {0, 2} and {1, 3}. The
// classic minimum at 0 is 50; 001's (Modern) is 125.

#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/hooks.h"
#include "core/rules.h"
#include "replay/auditor.h"
#include "replay/simulate.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

using test::DealSpec;
using test::Log;
using test::MessageOf;

RulesetChoice WithRules(const Rules& rules) {
  RulesetChoice c;
  c.name = "initial-meld-test";
  c.rules = rules;
  c.hooks = std::shared_ptr<const RuleHooks>(&DefaultHooks(), [](const RuleHooks*) {});
  return c;
}

AuditOptions OptionsFor(const RulesetChoice& choice) {
  AuditOptions options;
  options.forced_ruleset = choice.name;
  options.resolve = [choice](const std::string&, const std::string&, RulesetChoice* out,
                             std::string*) {
    *out = choice;
    return true;
  };
  return options;
}

FileReport AuditWith(const std::string& log, const Rules& rules) {
  std::istringstream in(log);
  return AuditStream(in, "initial.jsonl", OptionsFor(WithRules(rules)));
}
FileReport AuditWith(const Log& log, const Rules& rules) { return AuditWith(log.str(), rules); }

// Seed 001's values for the initial meld (001 L30-L36, L42, L108, L113),
// on the classic game otherwise.
Rules Modern() {
  Rules r;
  r.minimum_table = {{-1000000000, 125}, {3000, 155}, {5000, 180}};
  r.initial_meld_condition = InitialMeldCondition::kNaturalThreeOrWildMeld;
  r.initial_meld_before_pile = true;
  r.splash_opens = true;
  r.wild_melds = true;
  return r;
}

// Seat 1 holds `hand` and 9D, draws, lays `melds` in one event, discards 9D.
struct Opening {
  Log log;
  int meld = 0;
};
Opening OpenWith(const std::vector<std::vector<std::string>>& melds,
                 std::vector<std::string> extra = {}) {
  Opening o;
  DealSpec d;
  std::vector<std::string> hand = extra;
  for (const auto& m : melds) hand.insert(hand.end(), m.begin(), m.end());
  hand.push_back("9D");
  d.hands = {{}, hand};
  o.log.Deal(d);
  o.log.Draw(1);
  o.meld = o.log.Meld(1, melds);
  o.log.Discard(1, "9D");
  return o;
}

// --- each_meld_meets_minimum (house rule) ---

TEST(EachMeldMeetsMinimum, TheSumIsEnoughByDefaultEachMeldUnderTheRule) {
  Opening o = OpenWith({{"KS", "KH", "KD"}, {"AS", "AH", "AD"}});  // 30 + 60
  EXPECT_CLEAN(AuditWith(o.log, Rules()));
  Rules each;
  each.each_meld_meets_minimum = true;
  const FileReport r = AuditWith(o.log, each);
  EXPECT_PROBLEMS(r, {o.meld, CheckId::kInitialMeldMinimum});
  EXPECT_EQ(MessageOf(r, CheckId::kInitialMeldMinimum),
            "the meld of Ks counts 30; each meld of the initial meld needs 50 by itself");
  // Every meld reaching the minimum by itself is an opening.
  EXPECT_CLEAN(AuditWith(OpenWith({{"AS", "AH", "AD"}, {"JK", "KS", "KH"}}).log, each));
}

// --- initial_meld_condition (001 L35, L108; TC-M09) ---

TEST(InitialMeldCondition, CountOnlyByDefaultANaturalThreeUnderTheCondition) {
  Opening o = OpenWith({{"AS", "AH", "2D"}});  // 60, no natural three
  EXPECT_CLEAN(AuditWith(o.log, Rules()));
  Rules r;
  r.initial_meld_condition = InitialMeldCondition::kNaturalThreeOrWildMeld;
  const FileReport found = AuditWith(o.log, r);
  EXPECT_PROBLEMS(found, {o.meld, CheckId::kInitialMeldCondition});
  EXPECT_EQ(MessageOf(found, CheckId::kInitialMeldCondition),
            "the initial meld must include a meld of three or more natural cards with no wild "
            "card, or a meld of three or more wild cards; it has none");
  EXPECT_CLEAN(AuditWith(OpenWith({{"AS", "AH", "AD"}}).log, r));
}

TEST(InitialMeldCondition, WorkedExampleTcM09) {
  // A-A-2 (60) + K-K-2 (40) + Q-Q-Joker (70) = 170 >= 125, no natural three.
  Opening bad = OpenWith({{"AS", "AH", "2D"}, {"KS", "KH", "2C"}, {"QS", "QH", "JK"}});
  Rules modern = Modern();
  EXPECT_PROBLEMS(AuditWith(bad.log, modern), {bad.meld, CheckId::kInitialMeldCondition});
  Rules count_only = Modern();
  count_only.initial_meld_condition = InitialMeldCondition::kCountOnly;
  EXPECT_CLEAN(AuditWith(bad.log, count_only));
  Rules three_naturals = Modern();
  three_naturals.initial_meld_condition = InitialMeldCondition::kThreeNaturals;
  EXPECT_PROBLEMS(AuditWith(bad.log, three_naturals), {bad.meld, CheckId::kInitialMeldCondition});
  // A-A-A (60) + K-K-2 (40) + Q-Q-2 (40) = 140: A-A-A is a natural meld of three.
  EXPECT_CLEAN(AuditWith(OpenWith({{"AS", "AH", "AD"}, {"KS", "KH", "2D"}, {"QS", "QH", "2C"}}).log,
                         modern));
}

TEST(InitialMeldCondition, AWildMeldQualifiesUnlessANaturalThreeIsRequired) {
  // Joker-Joker-2 (120) + A-A-2 (60) = 180.
  Opening o = OpenWith({{"JK", "JK", "2S"}, {"AS", "AH", "2D"}});
  EXPECT_CLEAN(AuditWith(o.log, Modern()));
  Rules natural_three = Modern();
  natural_three.initial_meld_condition = InitialMeldCondition::kNaturalThree;
  EXPECT_PROBLEMS(AuditWith(o.log, natural_three), {o.meld, CheckId::kInitialMeldCondition});
  // Three naturals with a wild card qualify under three_naturals only.
  Opening mixed = OpenWith({{"AS", "AH", "AD", "2D"}, {"KS", "KH", "KD", "2C"}});  // 80 + 50
  Rules three_naturals = Modern();
  three_naturals.initial_meld_condition = InitialMeldCondition::kThreeNaturals;
  EXPECT_CLEAN(AuditWith(mixed.log, three_naturals));
  EXPECT_PROBLEMS(AuditWith(mixed.log, natural_three), {mixed.meld, CheckId::kInitialMeldCondition});
}

TEST(InitialMeldCondition, ExactlyThreeNaturalCardsMeetEveryCondition_001L35_L108) {
  // A-A-A (60) + K-K-2 (40) + Q-Q-2 (40) = 140: the aces are the one meld of
  // three natural cards with no wild card, at the least size that counts.
  Opening o = OpenWith({{"AS", "AH", "AD"}, {"KS", "KH", "2D"}, {"QS", "QH", "2C"}});
  for (InitialMeldCondition c :
       {InitialMeldCondition::kNaturalThreeOrWildMeld, InitialMeldCondition::kNaturalThree,
        InitialMeldCondition::kThreeNaturals}) {
    Rules r = Modern();
    r.initial_meld_condition = c;
    EXPECT_CLEAN(AuditWith(o.log, r)) << int(c);
  }
}

// --- initial_meld_before_pile (001 L42; TC-M08) ---

// Seat 1 holds K-K and `hand`, the upcard is KC. `take` is the take_pile
// line's fields after "top".
constexpr int kTakeHand = 15;  // room for an initial meld and the pair
FileReport AuditTake(const Log& log, Rules rules) {
  rules.hand_size = kTakeHand;
  return AuditWith(log, rules);
}
struct PileOpening {
  Log log;
  int take = 0;
};
PileOpening TakeKings(const std::vector<std::string>& hand, const std::string& take,
                      const std::vector<std::vector<std::string>>& after = {}) {
  PileOpening o;
  DealSpec d;
  d.upcard = {"KC"};
  d.hand_size = kTakeHand;
  std::vector<std::string> seat1 = {"KS", "KH", "5S", "6S", "9D"};
  seat1.insert(seat1.end(), hand.begin(), hand.end());
  d.hands = {{}, seat1};
  o.log.Deal(d);
  o.take = o.log.Raw(R"({"type":"take_pile","player":1,"top":"KC",)" + take + "}");
  if (!after.empty()) o.log.Meld(1, after);
  o.log.Discard(1, "9D");
  return o;
}

const std::vector<std::string> k120 = {"AS", "AH", "AD", "QS", "QH", "QD", "JS", "JH", "JD"};
const std::vector<std::string> k130 = {"AS", "AH", "AD", "QS", "QH", "QD",
                                       "JS", "JH", "JD", "JC"};

TEST(InitialMeldBeforePile, WorkedExampleTcM08) {
  // 120 from the hand: the top K and the pile do not count, so 120 < 125.
  PileOpening short_meld = TakeKings(
      k120,
      R"("before":[{"cards":["AS","AH","AD"]},{"cards":["QS","QH","QD"]},{"cards":["JS","JH","JD"]}],"with":["KS","KH"])");
  const FileReport r = AuditTake(short_meld.log, Modern());
  EXPECT_PROBLEMS(r, {short_meld.take, CheckId::kInitialMeldMinimum});
  EXPECT_EQ(MessageOf(r, CheckId::kInitialMeldMinimum),
            "the initial meld counts 120; the side needs 125");
  // 130 laid first, then K-K with the top K: the pile is taken.
  PileOpening enough = TakeKings(
      k130,
      R"("before":[{"cards":["AS","AH","AD"]},{"cards":["QS","QH","QD"]},{"cards":["JS","JH","JD","JC"]}],"with":["KS","KH"])");
  EXPECT_CLEAN(AuditTake(enough.log, Modern()));
}

TEST(InitialMeldBeforePile, TheClassicOrderByDefaultTheHandFirstUnderTheRule) {
  // The pile taken first, the rest melded after: 30 (the kings) + 130.
  PileOpening classic_order = TakeKings(
      k130, R"("with":["KS","KH"])",
      {{"AS", "AH", "AD"}, {"QS", "QH", "QD"}, {"JS", "JH", "JD", "JC"}});
  Rules classic_125 = Modern();
  classic_125.initial_meld_before_pile = false;
  EXPECT_CLEAN(AuditTake(classic_order.log, classic_125));
  const FileReport r = AuditTake(classic_order.log, Modern());
  EXPECT_PROBLEMS(r, {classic_order.take, CheckId::kInitialMeldMinimum});
  EXPECT_EQ(MessageOf(r, CheckId::kInitialMeldMinimum),
            "before the side has melded, its initial meld (125) is laid from the hand before "
            "the pile is taken; the pile's cards never count toward it (take_pile \"before\")");
  // Melds shown before the take where the rule does not ask for them.
  PileOpening early = TakeKings(
      k130,
      R"("before":[{"cards":["AS","AH","AD"]},{"cards":["QS","QH","QD"]},{"cards":["JS","JH","JD","JC"]}],"with":["KS","KH"])");
  EXPECT_PROBLEMS(AuditTake(early.log, classic_125), {early.take, CheckId::kTurnSequence});
}

TEST(InitialMeldBeforePile, TheConditionIsJudgedOnTheHandsMelds) {
  // 130 from the hand with no natural three: A-A-2, Q-Q-2, J-J-2... (the
  // kings melded with the top card would be one, but they never count).
  PileOpening o = TakeKings(
      {"AS", "AH", "2D", "QS", "QH", "2C", "JS", "JH", "2S"},
      R"("before":[{"cards":["AS","AH","2D"]},{"cards":["QS","QH","2C"]},{"cards":["JS","JH","2S"]}],"with":["KS","KH"])");
  // 60 + 40 + 40 = 140.
  EXPECT_PROBLEMS(AuditTake(o.log, Modern()), {o.take, CheckId::kInitialMeldCondition});
}

// --- pile_in_initial_meld_turn (001 L111) ---

TEST(PileInInitialMeldTurn, AllowedByDefaultRefusedUnderTheOption) {
  // K-K with the top K (30) and A-A-A (60) melded after: 90 >= 50.
  PileOpening o = TakeKings({"AS", "AH", "AD"}, R"("with":["KS","KH"])", {{"AS", "AH", "AD"}});
  EXPECT_CLEAN(AuditTake(o.log, Rules()));
  Rules never;
  never.pile_in_initial_meld_turn = false;
  const FileReport r = AuditTake(o.log, never);
  EXPECT_PROBLEMS(r, {o.take, CheckId::kPileTakeInvalid});
  EXPECT_EQ(MessageOf(r, CheckId::kPileTakeInvalid),
            "the side has not made its initial meld, and this ruleset does not allow taking the "
            "pile in the turn of the initial meld");
}

// --- splash_opens, splash_companions_need_minimum (001 L36, L113; TC-M10) ---

TEST(Splash, WorkedExampleTcM10) {
  const std::vector<std::string> queens = {"QS", "QS", "QH", "QH", "QD", "QD", "QC"};
  Opening o = OpenWith({queens, {"5S", "5H", "5D"}});  // 70 + 15
  EXPECT_CLEAN(AuditWith(o.log, Modern()));
  Rules companions = Modern();
  companions.splash_companions_need_minimum = true;
  const FileReport r = AuditWith(o.log, companions);
  EXPECT_PROBLEMS(r, {o.meld, CheckId::kInitialMeldMinimum});
  EXPECT_EQ(MessageOf(r, CheckId::kInitialMeldMinimum),
            "the melds laid with the splash count 15; they need 125 by themselves");
  // The splash alone needs nothing, even under the option.
  EXPECT_CLEAN(AuditWith(OpenWith({queens}).log, companions));
  Rules no_splash = Modern();
  no_splash.splash_opens = false;
  const FileReport plain = AuditWith(o.log, no_splash);
  EXPECT_PROBLEMS(plain, {o.meld, CheckId::kInitialMeldMinimum});
  EXPECT_EQ(MessageOf(plain, CheckId::kInitialMeldMinimum),
            "the initial meld counts 85; the side needs 125");
}

TEST(Splash, AMixedCanastaIsNoSplash) {
  Opening o = OpenWith({{"QS", "QS", "QH", "QH", "QD", "QD", "2C"}});  // 80
  const FileReport r = AuditWith(o.log, Modern());
  EXPECT_PROBLEMS(r, {o.meld, CheckId::kInitialMeldMinimum});
  // The same initial meld lacks what it must include too: one finding, the
  // condition its note (readings R149).
  EXPECT_TRUE(test::HasNote(r, CheckId::kInitialMeldMinimum,
                            "the same initial meld: the initial meld must include a meld of three "
                            "or more natural cards with no wild card, or a meld of three or more "
                            "wild cards; it has none (readings R149)"))
      << test::Dump(r);
}

TEST(Splash, ACanastaOfTheRankTakenFromThePileIsNoSplash_001L36) {
  // A splash is laid whole from the hand (001 L36). Seat 1 takes the 4C on
  // the pile with a pair and finishes a canasta of fours from the hand: the
  // fours came with the pile, so the opening needs its minimum (readings
  // R46), which the top card and the six fours from the hand, 35, do not
  // reach (000 §13).
  Rules r;
  r.splash_opens = true;
  Log log;
  DealSpec d;
  d.upcard = {"4C"};
  d.hands = {{}, {"4S", "4H", "4D", "4S", "4H", "4D", "9S", "TS", "JC", "QC", "KC"}};
  log.Deal(d);
  log.Take(1, "4C", {"4S", "4H"});
  const int add = log.Add(1, "4", {"4D", "4S", "4H", "4D"});
  log.Discard(1, "9S");
  const FileReport found = AuditWith(log, r);
  EXPECT_PROBLEMS(found, {add, CheckId::kInitialMeldMinimum});
  EXPECT_EQ(MessageOf(found, CheckId::kInitialMeldMinimum),
            "the initial meld counts 35; the side needs 50");
}

TEST(Splash, ValidateNamesBothValues) {
  Rules r;
  r.splash_companions_need_minimum = true;
  EXPECT_NE(r.Validate().find("splash_opens"), std::string::npos) << r.Validate();
  Rules p;
  p.initial_meld_before_pile = true;
  p.pile_in_initial_meld_turn = false;
  EXPECT_NE(p.Validate().find("pile_in_initial_meld_turn"), std::string::npos) << p.Validate();
}

// --- stock_out_play (000 §15; house rule) ---

TEST(StockOutPlay, PlayGoesOnByDefaultEndsAtTheLastCardUnderTheRule) {
  Log log = test::ExhaustWithNineOnTop({{"9S", "9H", "9D"}, {"KS", "KH", "KD"}}, {}, {});
  Log taken = log;
  const int end = log.EndHand(1);
  // 000 §15: side 1 must take the 9C onto its nines.
  EXPECT_PROBLEMS(AuditWith(log, Rules()), {end, CheckId::kStockOutMustTake});
  Rules last;
  last.stock_out_play = StockOutPlay::kEndsAtLastCard;
  EXPECT_CLEAN(AuditWith(log, last));
  // Under the rule the deal is over: no take after the last discard.
  const int take = taken.TakeTo(taken.current(), "9C", "9");
  taken.EndHand(1);
  const FileReport r = AuditWith(taken, last);
  EXPECT_PROBLEMS(r, {take, CheckId::kTurnSequence});
}

TEST(StockOutPlay, ThePlayerWhoDrewTheLastCardMayHoldOnlyCardsNoneMayDiscard) {
  // Under ends_at_last_card and wild_discard = never, the seat that draws
  // the last stock card, a joker, holds nothing but wild cards: it has no
  // card it may discard, so play ends there with no discard missing.
  Rules last;
  last.stock_out_play = StockOutPlay::kEndsAtLastCard;
  last.wild_discard = WildDiscard::kNever;
  const std::vector<std::string> wilds = {"2S", "2S", "2H", "2H", "2D", "2D",
                                          "2C", "2C", "JK", "JK", "JK"};
  bool tried = false;
  for (int seat = 0; seat < 4 && !tried; ++seat) {
    Log log;
    DealSpec d;
    d.hands.assign(4, {});
    d.hands[size_t(seat)] = wilds;
    d.stock = {"3H", "3H", "3D", "3D"};  // the red threes drawn first, none at the end
    d.stock_bottom = {"JK"};
    log.Deal(d);
    log.PassTurnsWhileStockAbove(1);
    if (log.current() != seat) continue;  // another seat draws the joker
    tried = true;
    log.Draw(seat);
    Log with_other = log;
    log.EndHand(1);
    EXPECT_CLEAN(AuditWith(log, last)) << "seat " << seat;
    // A wild card may be discarded by default: then the discard is missing.
    Rules allowed = last;
    allowed.wild_discard = WildDiscard::kAllowed;
    const int end = with_other.EndHand(1);
    EXPECT_PROBLEMS(AuditWith(with_other, allowed), {end, CheckId::kDiscardMissing});
  }
  EXPECT_TRUE(tried) << "no seat holding the wild cards draws the last stock card";
}

// --- The move generator follows the checks ---

// Self-play under each ruleset: SimulateGame throws if the engine refuses a
// move its generator offered, and the games audit clean.
void SelfPlayClean(const Rules& rules, const char* what, int games, int* befores) {
  const RulesetChoice c = WithRules(rules);
  for (int i = 0; i < games; ++i) {
    SimulateOptions so;
    so.bots = {"sensible"};
    std::stringstream log;
    ASSERT_NO_THROW(SimulateGame(c, GameSeed(31, i), so, log)) << what << ", game " << i;
    const std::string text = log.str();
    for (size_t at = text.find("\"before\":"); at != std::string::npos;
         at = text.find("\"before\":", at + 1))
      ++*befores;
    std::istringstream in(text);
    FileReport report = AuditStream(in, "selfplay", OptionsFor(c));
    EXPECT_EQ(test::Problems(report), test::FoundList{})
        << what << ", game " << i << test::Dump(report);
  }
}

TEST(InitialMeldSelfPlay, GeneratorPlaysOnlyLegalOpenings) {
  int befores = 0;
  // 001's rules at the classic minimums, so that openings with the pile come up.
  Rules modern = Modern();
  modern.minimum_table = Rules().minimum_table;
  SelfPlayClean(modern, "modern values", 6, &befores);
  EXPECT_GT(befores, 0) << "no initial meld laid before a take in self-play";
  Rules each;
  each.each_meld_meets_minimum = true;
  each.stock_out_play = StockOutPlay::kEndsAtLastCard;
  SelfPlayClean(each, "each meld, natural three", 4, &befores);
  Rules companions = modern;
  companions.initial_meld_condition = InitialMeldCondition::kNaturalThree;
  companions.splash_companions_need_minimum = true;
  SelfPlayClean(companions, "splash companions", 3, &befores);
  Rules never;
  never.pile_in_initial_meld_turn = false;
  SelfPlayClean(never, "no pile in the initial-meld turn", 3, &befores);
}

}  // namespace
}  // namespace canasta
