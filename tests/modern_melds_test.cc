// The meld and pile rules of seed 001 (Modern American) as general
// parameters (issue 10): the rule of five (wilds_need_naturals), ranks with
// no wild cards or wild cards only in the initial meld, wild melds one at a
// time (one_unfinished_wild_meld), dead ranks (natural_canasta_closes_rank)
// and the natural-pair take into a meld capped at seven. Each is replayed
// both ways with the exact findings (TC-M07, M11, M12, M13, M18); the move
// generator is held to the checks by self-play under these values.
//
// Seats: dealer 0, so seat 1 plays first; sides {0, 2} and {1, 3}. No
// initial-meld minimum, so that only the rule under test decides.

#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/hooks.h"
#include "core/position.h"
#include "core/rules.h"
#include "replay/auditor.h"
#include "replay/simulate.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

using test::DealSpec;
using test::Log;
using test::M;

RankSet Ranks(std::initializer_list<Rank> ranks) {
  RankSet s;
  for (Rank r : ranks) s.Add(r);
  return s;
}

// Seed 001's meld and pile values (001 L23-28, L39-41, L59-60, L63).
Rules Modern() {
  Rules r;
  r.hand_size = 13;
  r.upcards = 0;
  r.minimum_table = {{-1000000000, 0}};
  r.max_meld_size = 7;
  r.max_wilds_incomplete = 2;
  r.wild_melds = true;
  r.one_unfinished_wild_meld = true;
  r.wilds_need_naturals = 5;
  r.no_wild_ranks = Ranks({Rank::kSeven});
  r.wild_only_in_initial_meld_ranks = Ranks({Rank::kAce});
  r.natural_canasta_closes_rank = true;
  r.unfrozen_take = UnfrozenTake::kNaturalPair;
  return r;
}

// The older wild-card rule (001 L107, readings R41): no rule of five, two
// wild cards in any meld except sevens.
Rules Older() {
  Rules r = Modern();
  r.wilds_need_naturals = 0;
  r.wild_only_in_initial_meld_ranks = RankSet();
  return r;
}

RulesetChoice WithRules(const Rules& rules) {
  RulesetChoice c;
  c.name = "modern-melds-test";
  c.rules = rules;
  c.hooks = std::shared_ptr<const RuleHooks>(&DefaultHooks(), [](const RuleHooks*) {});
  return c;
}

FileReport AuditWith(const Log& log, const Rules& rules) {
  const RulesetChoice choice = WithRules(rules);
  AuditOptions options;
  options.forced_ruleset = choice.name;
  options.resolve = [choice](const std::string&, const std::string&, RulesetChoice* out,
                             std::string*) {
    *out = choice;
    return true;
  };
  std::istringstream in(log.str());
  return AuditStream(in, "modern.jsonl", options);
}

// Seat 1 holds `hand` (and 9D to discard each turn; 13 cards dealt) and
// lays `opening` as the side's initial meld in its first turn; the other
// seats pass, and seat 1 has drawn for its second turn.
Log SecondTurn(std::vector<std::string> hand,
               const std::vector<std::vector<std::string>>& opening) {
  Log log;
  DealSpec d;
  d.upcard = {};
  d.hand_size = 13;
  hand.push_back("9D");
  hand.push_back("9D");
  d.hands = {{}, hand};
  log.Deal(d);
  log.Draw(1);
  log.Meld(1, opening);
  log.Discard(1, "9D");
  log.PassTurns(3);
  log.Draw(1);
  return log;
}

const std::vector<std::string> kEights = {"8C", "8D", "8H", "8S", "8C", "2C",
                                          "2D", "KC", "KD", "KH", "2H"};

// --- The rule of five (TC-M11; 001 L25, readings R40) ---

TEST(RuleOfFive, NoWildOnAMeldOfFourNaturalsAfterTheInitialMeld) {
  Log log = SecondTurn(kEights, {{"8C", "8D", "8H"}});
  log.Add(1, "8", {"8S"});
  const int wild = log.Add(1, "8", {"2C"});
  log.Discard(1, "9D");
  EXPECT_PROBLEMS(AuditWith(log, Modern()), {wild, CheckId::kMeldTooManyWilds});
  EXPECT_CLEAN(AuditWith(log, Older()));
}

TEST(RuleOfFive, FiveNaturalsTakeTwoWildsIntoAMixedCanasta) {
  Log log = SecondTurn(kEights, {{"8C", "8D", "8H"}});
  log.Add(1, "8", {"8S", "8C"});
  log.Add(1, "8", {"2C", "2D"});
  log.Discard(1, "9D");
  EXPECT_CLEAN(AuditWith(log, Modern()));
}

TEST(RuleOfFive, TheFifthNaturalAndAWildLaidTogether) {
  Log log = SecondTurn(kEights, {{"8C", "8D", "8H", "8S"}});
  log.Add(1, "8", {"8C", "2C"});
  log.Discard(1, "9D");
  EXPECT_CLEAN(AuditWith(log, Modern()));
}

TEST(RuleOfFive, NewMeldWithAWildOnlyInTheInitialMeld) {
  Log later = SecondTurn(kEights, {{"8C", "8D", "8H"}});
  const int kings = later.Meld(1, {{"KC", "KD", "2H"}});
  later.Discard(1, "9D");
  EXPECT_PROBLEMS(AuditWith(later, Modern()), {kings, CheckId::kMeldTooManyWilds});
  EXPECT_CLEAN(AuditWith(later, Older()));

  // In the initial meld it is an ordinary mixed meld; it takes no further
  // wild card until it holds five naturals.
  Log opening = SecondTurn(kEights, {{"8C", "8D", "8H"}, {"KC", "KD", "2H"}});
  const int more = opening.Add(1, "K", {"KH", "2C"});
  opening.Discard(1, "9D");
  EXPECT_PROBLEMS(AuditWith(opening, Modern()), {more, CheckId::kMeldTooManyWilds});
  EXPECT_CLEAN(AuditWith(opening, Older()));
}

// --- Sevens and aces (TC-M13; 001 L59-60, L107, readings R41) ---

TEST(SevensAndAces, SevensNeverTakeAWild) {
  Log log;
  DealSpec d;
  d.upcard = {};
  d.hand_size = 13;
  d.hands = {{}, {"7C", "7D", "2C", "9D"}};
  log.Deal(d);
  log.Draw(1);
  const int sevens = log.Meld(1, {{"7C", "7D", "2C"}});
  log.Discard(1, "9D");
  EXPECT_PROBLEMS(AuditWith(log, Modern()), {sevens, CheckId::kMeldTooManyWilds});
  EXPECT_PROBLEMS(AuditWith(log, Older()), {sevens, CheckId::kMeldTooManyWilds});
  Rules any = Older();
  any.no_wild_ranks = RankSet();
  EXPECT_CLEAN(AuditWith(log, any));
}

TEST(SevensAndAces, AcesTakeAWildInTheInitialMeld) {
  Log log;
  DealSpec d;
  d.upcard = {};
  d.hand_size = 13;
  d.hands = {{}, {"AC", "AD", "2C", "9D"}};
  log.Deal(d);
  log.Draw(1);
  log.Meld(1, {{"AC", "AD", "2C"}});
  log.Discard(1, "9D");
  EXPECT_CLEAN(AuditWith(log, Modern()));
}

TEST(SevensAndAces, AcesTakeNoWildAfterTheInitialMeldEvenWithFiveNaturals) {
  Log log = SecondTurn({"AC", "AD", "AH", "AS", "AC", "2C"}, {{"AC", "AD", "AH"}});
  const int wild = log.Add(1, "A", {"AS", "AC", "2C"});
  log.Discard(1, "9D");
  const FileReport modern = AuditWith(log, Modern());
  EXPECT_PROBLEMS(modern, {wild, CheckId::kMeldTooManyWilds});
  EXPECT_NE(
      test::MessageOf(modern, CheckId::kMeldTooManyWilds).find("only in the side's initial meld"),
      std::string::npos)
      << test::MessageOf(modern, CheckId::kMeldTooManyWilds);
  // The older rule: aces take wild cards at any time (readings R41).
  EXPECT_CLEAN(AuditWith(log, Older()));
  Log later = SecondTurn({"8C", "8D", "8H", "AC", "AD", "2C"}, {{"8C", "8D", "8H"}});
  const int aces = later.Meld(1, {{"AC", "AD", "2C"}});
  later.Discard(1, "9D");
  EXPECT_PROBLEMS(AuditWith(later, Modern()), {aces, CheckId::kMeldTooManyWilds});
  EXPECT_CLEAN(AuditWith(later, Older()));
}

// --- Wild melds (TC-M12; 001 L63, readings R40) ---

const std::vector<std::string> kWilds = {"8C", "8D", "8H", "8S", "8C", "2C",
                                         "2D", "2H", "2S", "JK", "JK"};

TEST(WildMelds, StartedAfterTheInitialMeld) {
  Log log = SecondTurn(kWilds, {{"8C", "8D", "8H"}});
  log.Meld(1, {{"2C", "2D", "JK"}});
  log.Discard(1, "9D");
  EXPECT_CLEAN(AuditWith(log, Modern()));
  Rules none = Modern();
  none.wild_melds = false;
  none.one_unfinished_wild_meld = false;
  const FileReport r = AuditWith(log, none);
  EXPECT_EQ(test::Problems(r).size(), 1u) << test::Dump(r);
}

TEST(WildMelds, WhileUnfinishedNoOtherMeldTakesAWild) {
  Log log = SecondTurn(kWilds, {{"8C", "8D", "8H"}});
  log.Meld(1, {{"2C", "2D", "JK"}});
  log.Add(1, "8", {"8S", "8C"});
  const int eight = log.Add(1, "8", {"2H"});
  log.Discard(1, "9D");
  EXPECT_PROBLEMS(AuditWith(log, Modern()), {eight, CheckId::kMeldTooManyWilds});
  Rules many = Modern();
  many.one_unfinished_wild_meld = false;
  EXPECT_CLEAN(AuditWith(log, many));
}

TEST(WildMelds, WhileUnfinishedInOneMeldEvent) {
  Log log = SecondTurn(kWilds, {{"8C", "8D", "8H"}});
  const int both =
      log.MeldEvent(1, {M{{"2C", "2D", "JK"}, "", ""}, M{{"8S", "8C", "2H"}, "8", ""}});
  log.Discard(1, "9D");
  EXPECT_PROBLEMS(AuditWith(log, Modern()), {both, CheckId::kMeldTooManyWilds});
}

TEST(WildMelds, OnceACanastaOtherMeldsTakeWildsAndASecondOneStarts) {
  Log log;
  DealSpec d;
  d.upcard = {};
  d.hand_size = 13;
  d.hands = {{}, {"8C", "8D", "8H", "8S", "8C", "2C", "2D", "2H", "2S", "JK", "JK", "JK", "2C"}};
  d.stock = {"4S"};
  log.Deal(d);
  log.Draw(1);
  log.Meld(1, {{"8C", "8D", "8H", "8S", "8C"}});
  log.Meld(1, {{"2C", "2D", "2H", "2S", "JK", "JK", "JK"}});
  log.Add(1, "8", {"2C"});
  log.Discard(1, "4S");
  EXPECT_CLEAN(AuditWith(log, Modern()));

  // A second wild meld is its own meld: an eighth card on the canasta is
  // refused, three wild cards laid as a new meld are not.
  Log second = SecondTurn({"2C", "2D", "2H", "2S", "JK", "JK", "JK", "2C", "2D", "2H", "JK"},
                          {{"2C", "2D", "2H", "2S", "JK", "JK", "JK"}});
  const int eighth = second.Add(1, "wild", {"2C"});
  second.Meld(1, {{"2D", "2H", "JK"}});
  second.Discard(1, "9D");
  EXPECT_PROBLEMS(AuditWith(second, Modern()), {eighth, CheckId::kMeldTooBig});
}

TEST(WildMelds, TheSecondWildMeldIsSeparateOnTheTable) {
  const Rules r = Modern();
  Log log;
  DealSpec d;
  d.upcard = {};
  d.hand_size = 13;
  d.hands = {{}, {"2C", "2D", "2H", "2S", "JK", "JK", "JK", "2C", "2D", "2H", "2S", "JK", "9D"}};
  log.Deal(d);
  Position pos(r, DefaultHooks(), {0, 0});
  ASSERT_TRUE(pos.Deal(log.deal_move()).empty());
  auto play = [&](const Move& m) {
    TaggedViolations v = pos.Play(m);
    ASSERT_TRUE(v.empty()) << v[0].violation.message;
  };
  play(DrawMove{1, pos.StockTop(1), 0});
  play(MeldMove{1, {MeldPart{{}, {}, test::Cs({"2C", "2D", "2H", "2S", "JK", "JK", "JK"})}}, 0});
  play(MeldMove{1, {MeldPart{{}, {}, test::Cs({"2C", "2D", "2H"})}}, 0});
  // An addition to "wild" goes to the unfinished wild meld.
  play(MeldMove{1, {MeldPart{Rank::kJoker, {}, test::Cs({"2S"})}}, 0});
  std::vector<int> sizes;
  for (const Meld& m : pos.melds(1))
    if (m.rank == Rank::kJoker) sizes.push_back(m.size());
  EXPECT_EQ(sizes, (std::vector<int>{7, 4}));
  EXPECT_EQ(pos.CanastaCount(1), 1);
}

// --- Dead ranks (TC-M18; 001 L28, L41, readings R39) ---

TEST(DeadRanks, ANaturalCanastaClosesTheRankForBothSides) {
  // Three decks, so that the other side still holds a pair of nines.
  Rules r = Modern();
  r.decks = 3;
  Log log;
  DealSpec d;
  d.upcard = {};
  d.hand_size = 13;
  d.record_stock = false;
  d.hands = {{}, {"9C", "9D", "9H", "9S", "9C", "9D", "9H", "4C"}, {"9S", "9S", "9C", "5D"}};
  log.Deal(d);
  log.Draw(1);
  log.Meld(1, {{"9C", "9D", "9H", "9S", "9C", "9D", "9H"}});
  log.Discard(1, "4C");
  log.Draw(2);
  const int nines = log.Meld(2, {{"9S", "9S", "9C"}});
  log.Discard(2, "5D");
  EXPECT_PROBLEMS(AuditWith(log, r), {nines, CheckId::kMeldTooBig});
  Rules open = r;
  open.natural_canasta_closes_rank = false;
  EXPECT_CLEAN(AuditWith(log, open));
}

TEST(DeadRanks, ADeadCardOnTopCannotBeTaken) {
  Rules r = Modern();
  r.decks = 3;
  Log log;
  DealSpec d;
  d.upcard = {};
  d.hand_size = 13;
  d.record_stock = false;
  d.hands = {
      {"9S", "9C", "7D"}, {"9C", "9D", "9H", "9S", "9C", "9D", "9H", "4C"}, {"5D"}, {"9S", "6D"}};
  log.Deal(d);
  log.Draw(1);
  log.Meld(1, {{"9C", "9D", "9H", "9S", "9C", "9D", "9H"}});
  log.Discard(1, "4C");
  log.Draw(2);
  log.Discard(2, "5D");
  log.Draw(3);
  log.Discard(3, "9S");
  // The other side holds a natural pair of nines.
  const int take = log.Take(0, "9S", {"9S", "9C"});
  log.Discard(0, "7D");
  EXPECT_PROBLEMS(AuditWith(log, r), {take, CheckId::kPileBlockedTop});
  Rules open = r;
  open.natural_canasta_closes_rank = false;
  EXPECT_CLEAN(AuditWith(log, open));
}

TEST(DeadRanks, AMixedCanastaLeavesTheRankOpen) {
  Rules r = Modern();
  r.decks = 3;
  Log log;
  DealSpec d;
  d.upcard = {};
  d.hand_size = 13;
  d.record_stock = false;
  d.hands = {{}, {"9C", "9D", "9H", "9S", "9C", "2D", "2H", "4C"}, {"9S", "9S", "9C", "5D"}};
  log.Deal(d);
  log.Draw(1);
  log.Meld(1, {{"9C", "9D", "9H", "9S", "9C", "2D", "2H"}});
  log.Discard(1, "4C");
  log.Draw(2);
  log.Meld(2, {{"9S", "9S", "9C"}});
  log.Discard(2, "5D");
  EXPECT_CLEAN(AuditWith(log, r));
}

// --- Taking the pile (TC-M07; 001 L39-41) ---

// Seat 1 opens with `kings` natural kings; seat 0 then discards KH and seat
// 1 takes it with `with`.
Log KingTake(const std::vector<std::string>& kings, const std::vector<std::string>& with,
             int* take) {
  Log log;
  DealSpec d;
  d.upcard = {};
  d.hand_size = 13;
  std::vector<std::string> hand = kings;
  hand.insert(hand.end(), with.begin(), with.end());
  hand.push_back("4C");
  hand.push_back("4D");
  d.hands = {{"KH", "5C"}, hand};
  log.Deal(d);
  log.Draw(1);
  log.Meld(1, {kings});
  log.Discard(1, "4C");
  log.PassTurns(2);
  log.Draw(0);
  log.Discard(0, "KH");
  *take = log.Take(1, "KH", with);
  log.Discard(1, "4D");
  return log;
}

TEST(PileIntoMeld, PairAndTopJoinAMeldOfThreeOrFour) {
  int take = 0;
  EXPECT_CLEAN(AuditWith(KingTake({"KC", "KD", "KH"}, {"KS", "KS"}, &take), Modern()));
  // Four: the three make a natural canasta of seven (and kings are dead).
  EXPECT_CLEAN(AuditWith(KingTake({"KC", "KD", "KH", "KS"}, {"KS", "KD"}, &take), Modern()));
}

TEST(PileIntoMeld, AMeldOfFiveWouldPassSeven) {
  int take = 0;
  Log log = KingTake({"KC", "KD", "KH", "KS", "KC"}, {"KS", "KD"}, &take);
  EXPECT_PROBLEMS(AuditWith(log, Modern()), {take, CheckId::kMeldTooBig});
  Rules open = Modern();
  open.max_meld_size = 0;
  EXPECT_CLEAN(AuditWith(log, open));
}

TEST(PileIntoMeld, OnlyANaturalPair) {
  int take = 0;
  Log log = KingTake({"KC", "KD", "KH"}, {"KS", "2C"}, &take);
  EXPECT_PROBLEMS(AuditWith(log, Modern()), {take, CheckId::kPileTakeInvalid});
}

// --- The move generator follows the checks ---

// Self-play under these values: SimulateGame throws if the engine refuses
// a move its generator offered, and the games audit clean.
TEST(ModernMeldsGenerator, SelfPlayPlaysOnlyLegalMoves) {
  Rules r = Modern();
  r.minimum_table = Rules().minimum_table;
  const RulesetChoice c = WithRules(r);
  AuditOptions options;
  options.resolve = [c](const std::string&, const std::string&, RulesetChoice* out, std::string*) {
    *out = c;
    return true;
  };
  int wild_melds = 0;
  for (int i = 0; i < 6; ++i) {
    SimulateOptions so;
    so.bots = {"sensible"};
    std::stringstream log;
    ASSERT_NO_THROW(SimulateGame(c, GameSeed(1001, i), so, log)) << "game " << i;
    const std::string text = log.str();
    for (size_t at = text.find("\"to\":\"wild\""); at != std::string::npos;
         at = text.find("\"to\":\"wild\"", at + 1))
      ++wild_melds;
    std::istringstream in(text);
    FileReport report = AuditStream(in, "selfplay", options);
    EXPECT_EQ(test::Problems(report), test::FoundList{}) << "game " << i << test::Dump(report);
  }
  std::printf("[ modern melds ] %d additions to wild melds\n", wild_melds);
}

}  // namespace
}  // namespace canasta
