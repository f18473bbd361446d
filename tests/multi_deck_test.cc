// Packs of any number of decks and jokers (000 §1; 002 L69-75: Italian
// Canasta's and Bolivia's 162 cards, Hand and Foot's five decks): the pack's
// size, card conservation in the deal and the draws, the rules that count
// "all" of a kind (red threes, jokers), and bots' games that audit clean.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/meld.h"
#include "core/position.h"
#include "lint/checks.h"
#include "replay/auditor.h"
#include "replay/inject.h"
#include "replay/sheet.h"
#include "replay/simulate.h"
#include "scripting/ruleset.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

using test::C;
using test::Cs;

const std::string kRulesets = std::string(CANASTA_SOURCE_DIR) + "/tests/rulesets/";

RulesetChoice Load(const std::string& file) {
  std::variant<Ruleset, LuaError> r = LoadRuleset(kRulesets + file);
  if (auto* e = std::get_if<LuaError>(&r)) {
    ADD_FAILURE() << e->ToString();
    return RulesetChoice{"classic", Rules(), std::make_shared<RuleHooks>()};
  }
  return std::get<Ruleset>(r).Choose();
}

std::string Quoted(const std::vector<Card>& cards) {
  std::string s = "[";
  for (size_t i = 0; i < cards.size(); ++i) s += (i ? ",\"" : "\"") + ToString(cards[i]) + "\"";
  return s + "]";
}

// A deal under `rules`: the chosen cards in seat 1's hand (the first to
// play), every other seat filled from the pack with cards that are neither
// wild nor threes, the upcard 8C, and the rest of the pack as the stock
// (`stock_top` first). Cards asked beyond the pack's copies are added all
// the same (that is what the tests look at). The log's lines: 1 the game,
// 2 the deal.
struct MultiDeckDeal {
  std::vector<std::string> seat1;
  std::vector<std::string> stock_top;
  bool record_stock = true;
};

DealMove BuildDeal(const Rules& rules, const MultiDeckDeal& spec) {
  CardCounts pack;
  for (int i = 0; i < kNumFaces; ++i) pack.Add(Card::FromIndex(i), rules.copies(Card::FromIndex(i)));
  DealMove deal;
  deal.dealer = 0;
  deal.hands.resize(size_t(rules.num_players));
  for (const std::string& t : spec.seat1) {
    deal.hands[1].push_back(C(t));
    pack.Remove(C(t));
  }
  deal.upcards = {C("8C")};
  pack.Remove(C("8C"));
  std::vector<Card> stock;
  for (const std::string& t : spec.stock_top) {
    stock.push_back(C(t));
    pack.Remove(C(t));
  }
  // Plain cards first (no wild card, no three: nothing to lay out), the
  // others after them, all at the bottom of the stock.
  std::vector<Card> plain, special;
  for (Card c : pack.ToVector()) (c.is_wild() || c.is_three() ? special : plain).push_back(c);
  size_t next = 0;
  for (std::vector<Card>& hand : deal.hands)
    while (int(hand.size()) < rules.hand_size) hand.push_back(plain[next++]);
  stock.insert(stock.end(), plain.begin() + long(next), plain.end());
  stock.insert(stock.end(), special.begin(), special.end());
  deal.stock = stock;
  return deal;
}

std::string DealLog(const Rules& rules, const MultiDeckDeal& spec) {
  const DealMove deal = BuildDeal(rules, spec);
  std::string log = R"({"type":"game","format":"canasta-log/1","ruleset":"multi-deck","players":[)";
  for (int i = 0; i < rules.num_players; ++i)
    log += std::string(i ? "," : "") + "\"P" + std::to_string(i) + "\"";
  log += "]}\n{\"type\":\"deal\",\"hand\":1,\"dealer\":0,\"hands\":[";
  for (size_t s = 0; s < deal.hands.size(); ++s) log += (s ? "," : "") + Quoted(deal.hands[s]);
  log += "],\"upcard\":[\"8C\"]";
  if (spec.record_stock) log += ",\"stock\":" + Quoted(*deal.stock);
  return log + "}\n";
}

std::string DrawLine(int player, const std::vector<std::string>& cards) {
  return "{\"type\":\"draw\",\"player\":" + std::to_string(player) + ",\"cards\":" +
         Quoted(Cs(cards)) + "}\n";
}

FileReport AuditUnder(const RulesetChoice& c, const std::string& log) {
  std::istringstream in(log);
  return AuditStream(in, "multi-deck.jsonl", test::UnderRuleset(c));
}

std::vector<std::string> Copies(const std::string& card, int n) {
  return std::vector<std::string>(size_t(n), card);
}

// --- The pack's size ---

TEST(MultiDeck, TCJ14ThreeDecksAndSixJokersAre162Cards) {
  const RulesetChoice c = Load("three-decks.lua");
  EXPECT_EQ(c.rules.decks, 3);
  EXPECT_EQ(c.rules.jokers, 6);
  EXPECT_EQ(c.rules.pack_size(), 162);  // 002 L75
  EXPECT_EQ(c.rules.copies(C("KS")), 3);
  EXPECT_EQ(c.rules.copies(Card::Joker()), 6);
  EXPECT_EQ(c.rules.Validate(), "");
}

TEST(MultiDeck, FiveDecksAndTenJokersAre270Cards) {
  const RulesetChoice c = Load("five-decks.lua");
  EXPECT_EQ(c.rules.pack_size(), 270);  // Hand and Foot's pack (002 L69-71)
  EXPECT_EQ(c.rules.copies(C("3H")), 5);
  EXPECT_EQ(c.rules.copies(Card::Joker()), 10);
  EXPECT_EQ(c.rules.Validate(), "");
}

TEST(MultiDeck, SixDecksAreTheMostAndADealThatDoesNotFitIsRefused) {
  Rules r;
  r.decks = 6;
  r.jokers = 12;
  EXPECT_EQ(r.Validate(), "");
  r.decks = 7;
  EXPECT_EQ(r.Validate(), "decks must be 1 to 6, got 7");
  // 4 x 68 + 1 = 273 cards from a pack of 270.
  r.decks = 5;
  r.jokers = 10;
  r.hand_size = 68;
  EXPECT_EQ(r.Validate(),
            "the deal (num_players x hand_size + upcards = 4 x 68 + 1 = 273 cards) does not fit in "
            "the pack (decks x 52 + jokers = 270 cards, and the stock needs one)");
  r.hand_size = 67;  // 269 cards: the stock holds one
  EXPECT_EQ(r.Validate(), "");
}

TEST(MultiDeck, ARulesetFileWhoseDealDoesNotFitIsRefusedWithTheValuesNamed) {
  const std::string dir = ::testing::TempDir();
  const std::string path = dir + "/too-many-cards.lua";
  std::ofstream(path) << "return {\n  name = \"too-many-cards\",\n  extends = \"jaques\",\n"
                         "  params = {\n    decks = 5, jokers = 10,\n    hand_size = 68,\n  },\n}\n";
  std::variant<Ruleset, LuaError> r = LoadRuleset(path);
  ASSERT_TRUE(std::holds_alternative<LuaError>(r));
  const std::string why = std::get<LuaError>(r).ToString();
  EXPECT_NE(why.find("the deal (num_players x hand_size + upcards = 4 x 68 + 1 = 273 cards) does "
                     "not fit in the pack (decks x 52 + jokers = 270 cards, and the stock needs "
                     "one)"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("hand_size is set at"), std::string::npos) << why;
  std::remove(path.c_str());
}

// --- Card conservation (000 §1) ---

TEST(MultiDeck, TCJ14ThreeCopiesOfACardAndSixJokersAreDealtClean) {
  const RulesetChoice c = Load("three-decks.lua");
  MultiDeckDeal d;
  d.seat1 = Copies("KS", 3);
  for (const std::string& t : Copies("JK", 6)) d.seat1.push_back(t);
  d.stock_top = {"QH", "QH"};
  const std::string log = DealLog(c.rules, d) + DrawLine(1, {"QH", "QH"});
  FileReport r = AuditUnder(c, log);
  EXPECT_CLEAN(r);
}

TEST(MultiDeck, TCJ14AFourthCopyOrASeventhJokerInTheDealIsAFinding) {
  const RulesetChoice c = Load("three-decks.lua");
  MultiDeckDeal d;
  d.seat1 = Copies("KS", 4);
  FileReport r = AuditUnder(c, DealLog(c.rules, d));
  EXPECT_PROBLEMS(r, {2, CheckId::kDealPack});
  EXPECT_NE(test::MessageOf(r, CheckId::kDealPack)
                .find("more copies of KS than the pack has (3)"),
            std::string::npos)
      << test::Dump(r);

  d.seat1 = Copies("JK", 7);
  r = AuditUnder(c, DealLog(c.rules, d));
  EXPECT_PROBLEMS(r, {2, CheckId::kDealPack});
  EXPECT_NE(test::MessageOf(r, CheckId::kDealPack)
                .find("more copies of JK than the pack has (6)"),
            std::string::npos)
      << test::Dump(r);
}

TEST(MultiDeck, TCJ14ARecordedStockWithAFourthCopyIsAFinding) {
  const RulesetChoice c = Load("three-decks.lua");
  MultiDeckDeal d;
  d.seat1 = Copies("KS", 3);
  std::string log = DealLog(c.rules, d);
  // One more KS on top of the stock the deal records.
  const std::string from = "\"stock\":[";
  log.replace(log.find(from), from.size(), from + "\"KS\",");
  FileReport r = AuditUnder(c, log);
  EXPECT_PROBLEMS(r, {2, CheckId::kDealPack});
  EXPECT_NE(test::MessageOf(r, CheckId::kDealPack).find("too many KS"), std::string::npos)
      << test::Dump(r);
}

TEST(MultiDeck, TCJ14TheThirdCopyDrawnIsFineTheFourthIsAFinding) {
  const RulesetChoice c = Load("three-decks.lua");
  MultiDeckDeal d;
  d.seat1 = Copies("KS", 2);
  d.record_stock = false;
  // Seat 1 holds two; it draws the third (fine) and a fourth (one too many).
  FileReport fine = AuditUnder(c, DealLog(c.rules, d) + DrawLine(1, {"KS", "QH"}));
  EXPECT_CLEAN(fine);
  FileReport fourth = AuditUnder(c, DealLog(c.rules, d) + DrawLine(1, {"KS", "KS"}));
  EXPECT_PROBLEMS(fourth, {3, CheckId::kCardTooManyCopies});
  EXPECT_NE(test::MessageOf(fourth, CheckId::kCardTooManyCopies).find("the pack has 3"),
            std::string::npos)
      << test::Dump(fourth);
}

TEST(MultiDeck, FiveDecksHoldFiveCopiesAndTenJokers) {
  const RulesetChoice c = Load("five-decks.lua");
  MultiDeckDeal d;
  d.seat1 = Copies("KS", 5);
  for (const std::string& t : Copies("JK", 6)) d.seat1.push_back(t);  // 11 cards
  d.record_stock = false;
  EXPECT_CLEAN(AuditUnder(c, DealLog(c.rules, d)));

  d.seat1 = Copies("KS", 6);
  FileReport sixth = AuditUnder(c, DealLog(c.rules, d));
  EXPECT_PROBLEMS(sixth, {2, CheckId::kDealPack});
  EXPECT_NE(test::MessageOf(sixth, CheckId::kDealPack).find("than the pack has (5)"),
            std::string::npos)
      << test::Dump(sixth);

  d.seat1 = Copies("JK", 10);
  EXPECT_CLEAN(AuditUnder(c, DealLog(c.rules, d)));
  // Ten in the hand: an eleventh drawn is one too many, the tenth is not.
  FileReport eleventh = AuditUnder(c, DealLog(c.rules, d) + DrawLine(1, {"QH", "JK"}));
  EXPECT_PROBLEMS(eleventh, {3, CheckId::kCardTooManyCopies});
  d.seat1 = Copies("JK", 9);
  EXPECT_CLEAN(AuditUnder(c, DealLog(c.rules, d) + DrawLine(1, {"JK", "QH"})));
}

// --- "All" of a kind counts the pack's copies ---

// Seat 1 lays out the red threes it was dealt (jaques: immediately, 002
// Setup-7), each replaced from the stock; the side's red-three score.
int RedThreeScore(const RulesetChoice& c, int red_threes) {
  MultiDeckDeal d;
  const char* reds[] = {"3H", "3D"};
  for (int i = 0; i < red_threes; ++i) d.seat1.push_back(reds[i % 2]);
  const DealMove deal = BuildDeal(c.rules, d);
  Position pos(c.rules, *c.hooks, {0, 0});
  EXPECT_TRUE(pos.Deal(deal).empty());
  for (int i = 0; i < red_threes; ++i) {
    TaggedViolations v = pos.Play(ThreeMove{1, C(reds[i % 2]), (*deal.stock)[size_t(i)], 0});
    EXPECT_TRUE(v.empty()) << v[0].violation.message;
  }
  return pos.Score()[1].red_threes;
}

TEST(MultiDeck, AllSixRedThreesOfThreeDecksScoreTheWholeSetBonus) {
  // 000 §7 (readings R8): the bonus for all of them, in total, replaces the
  // per-card values; with three decks "all" is six (002 L75). Seat 1's side
  // has not melded, so the threes count against it (000 §7).
  const RulesetChoice c = Load("three-decks.lua");
  ASSERT_EQ(c.rules.red_three_bonus, 100);
  ASSERT_EQ(c.rules.all_red_threes_bonus, 800);
  EXPECT_EQ(RedThreeScore(c, 6), -800);
  EXPECT_EQ(RedThreeScore(c, 5), -500);
  EXPECT_EQ(RedThreeScore(c, 4), -400);  // four are not all of a 162-card pack
  const RulesetChoice five = Load("five-decks.lua");
  EXPECT_EQ(RedThreeScore(five, 10), -800);
  EXPECT_EQ(RedThreeScore(five, 9), -900);
}

Meld MeldOf(const std::vector<std::string>& cards) {
  Meld m;
  m.rank = Rank::kJoker;
  for (Card card : Cs(cards)) m.Add(card);
  return m;
}

TEST(MultiDeck, AWildCanastaOfAllJokersHoldsEveryJokerOfThePack) {
  // 001 L93's bonus for the jokers of the pack: four of them are all of two
  // decks' jokers but not of three decks'.
  Rules r;
  r.wild_melds = true;
  r.wild_canasta_bonus = 1000;
  r.wild_canasta_all_jokers_bonus = 4000;
  const Meld four = MeldOf({"JK", "JK", "JK", "JK", "2S", "2H", "2D"});
  const Meld six = MeldOf({"JK", "JK", "JK", "JK", "JK", "JK", "2D"});
  EXPECT_EQ(CanastaBonus(r, four), 4000);
  r.decks = 3;
  r.jokers = 6;
  EXPECT_EQ(CanastaBonus(r, four), 1000);
  EXPECT_EQ(CanastaBonus(r, six), 4000);
}

TEST(MultiDeck, ScoreSheetsKnowSixRedThreesOfThreeDecks) {
  // A sheet's red_threes part is read back as a number of red threes
  // (replay/sheet.cc): with three decks 500 is five, 800 is all six and 600
  // is no number of them (000 §7, readings R114).
  const RulesetChoice c = Load("three-decks.lua");
  const std::vector<std::pair<int, int>> values = RedThreeValues(c.rules);
  const std::vector<std::pair<int, int>> expected = {{0, 0},   {100, 1}, {200, 2}, {300, 3},
                                                     {400, 4}, {500, 5}, {800, 6}};
  EXPECT_EQ(values, expected);
  // At most pack / canasta_size canastas: 162 / 7 = 23 natural ones.
  EXPECT_EQ(CanastaCombinations(c.rules, 23 * 500).back(), (std::pair<int, int>{23, 0}));
  // 12,000 would take 24 canastas or more (500 a natural, 300 a mixed one).
  EXPECT_TRUE(CanastaCombinations(c.rules, 24 * 500).empty());
  Rules two_decks;
  EXPECT_EQ(CanastaCombinations(two_decks, 15 * 500).back(), (std::pair<int, int>{15, 0}));
  EXPECT_TRUE(CanastaCombinations(two_decks, 16 * 500).empty());  // 108 / 7 = 15
}

// --- Bots play whole games under big packs; the audit finds nothing ---

class MultiDeckSelfPlay : public ::testing::TestWithParam<const char*> {};

TEST_P(MultiDeckSelfPlay, GamesAuditClean) {
  const RulesetChoice c = Load(GetParam());
  const AuditOptions options = test::UnderRuleset(c);
  int finished = 0;
  for (int i = 0; i < 20; ++i) {
    SimulateOptions so;
    so.bots = i % 2 ? std::vector<std::string>{"random", "sensible"}
                    : std::vector<std::string>{"sensible"};
    std::stringstream log;
    SimulateStats stats = SimulateGame(c, GameSeed(1620, i), so, log);
    finished += stats.finished;
    FileReport report = AuditStream(log, "selfplay", options);
    std::vector<Finding> findings = test::AllFindings(report);
    ASSERT_TRUE(findings.empty()) << GetParam() << " game " << i << ": line "
                                  << findings[0].line << ": " << findings[0].message << " ["
                                  << GetCheck(findings[0].id).name << "]";
    ASSERT_EQ(report.games.size(), 1u);
    EXPECT_TRUE(report.games[0].finished);
  }
  EXPECT_EQ(finished, 20);
}

TEST_P(MultiDeckSelfPlay, EveryInjectedMistakeIsCaughtAtItsLine) {
  const RulesetChoice c = Load(GetParam());
  const AuditOptions options = test::UnderRuleset(c);
  int injected = 0, caught = 0;
  for (int k = 0; k < int(FaultKind::kCount); ++k) {
    for (int i = 0; i < 4; ++i) {
      std::optional<InjectedFault> fault =
          InjectFault(c, GameSeed(5270 + k, i), FaultKind(k), /*skip=*/i % 3);
      if (!fault) continue;
      ++injected;
      std::istringstream in(fault->log);
      FileReport report = AuditStream(in, "injected", options);
      bool hit = false;
      std::string others;
      for (const Finding& f : test::AllFindings(report)) {
        if (f.line == fault->line && f.id == fault->expected && !hit) {
          hit = true;
        } else if (!(FaultKind(k) == FaultKind::kTruncatedFile &&
                     f.id == CheckId::kLogIncomplete)) {
          others += " line " + std::to_string(f.line) + ": " + f.message + " [" +
                    GetCheck(f.id).name + "];";
        }
      }
      EXPECT_EQ(others, "") << GetParam() << " " << FaultName(FaultKind(k));
      EXPECT_TRUE(hit) << GetParam() << " " << FaultName(FaultKind(k)) << " at line "
                       << fault->line;
      caught += hit;
    }
  }
  EXPECT_GE(injected, 2 * int(FaultKind::kCount));
  EXPECT_EQ(caught, injected);
}

INSTANTIATE_TEST_SUITE_P(Packs, MultiDeckSelfPlay,
                         ::testing::Values("three-decks.lua", "five-decks.lua", "six-decks.lua"),
                         [](const auto& param_info) {
                           std::string n = param_info.param;
                           return n.substr(0, n.find('-')) + "_decks";
                         });

}  // namespace
}  // namespace canasta
