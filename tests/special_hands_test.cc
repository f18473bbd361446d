// Special hands (001 L65-L71, L74, L79; readings R42, R44): the shapes, and
// real logs replayed under modern-american asserting exact findings and
// scores, each hand both ways (declared right, and with a card wrong), a
// declaration by a side that has melded, one before the draw, and the same
// log under special-hands-3500 (001 L110). The generator offers a special
// hand and the sensible bot declares it; the samples of Modern American.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "canasta/canasta.h"
#include "core/bots.h"
#include "core/legal_moves.h"
#include "core/special_hand.h"
#include "lint/checks.h"
#include "replay/auditor.h"
#include "scripting/ruleset.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

using test::C;
using test::DealSpec;
using test::Log;

const std::string kSource = CANASTA_SOURCE_DIR;

RulesetChoice Load(const std::string& name) {
  std::variant<Ruleset, LuaError> r = LoadRuleset(name);
  if (const LuaError* e = std::get_if<LuaError>(&r)) {
    ADD_FAILURE() << name << ": " << e->message;
    return std::get<Ruleset>(LoadRuleset("classic")).Choose();
  }
  return std::get<Ruleset>(r).Choose();
}

const RulesetChoice& Modern() {
  static const RulesetChoice c = Load("modern-american");
  return c;
}

FileReport AuditUnder(const Log& log, const RulesetChoice& c) {
  std::istringstream in(log.str());
  return AuditStream(in, "special.jsonl", test::UnderRuleset(c));
}

CardCounts Counts(const std::vector<std::string>& cards) {
  CardCounts out;
  for (const std::string& c : cards) out.Add(C(c));
  return out;
}

std::vector<std::string> Split(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// --- The shapes (001 L68-L71, readings R42) ---

TEST(SpecialHandShapes, EachOf001sFourHands) {
  const Rules& r = Modern().rules;
  auto of = [&](const std::string& cards) { return SpecialHandOf(r, Counts(Split(cards))); };
  EXPECT_EQ(of("AS 2C 3H 4S 5S 6S 7S 8S 9S TS JS QS KS JK"), SpecialHandKind::kStraight);
  // Sevens and aces pair in the 2,500 hand (readings R42).
  EXPECT_EQ(of("4S 4H 7S 7C 9S 9S TS TS JS JS KS KS AS AC"), SpecialHandKind::kPairsNatural);
  EXPECT_EQ(of("2S 2C 4S 4S 7S 7C 9S 9S TS TS JS JS KS KS"), SpecialHandKind::kPairsWithTwos);
  EXPECT_EQ(of("KS KS KC KC QS QS QC QC 7S 7S 7C AS AS AC"), SpecialHandKind::kGarbage);
  // Four of a rank are not two pairs; threes pair with nothing; a joker
  // is in no pair; 13 cards are no special hand.
  EXPECT_EQ(of("4S 4H 4D 4C 9S 9S TS TS JS JS KS KS AS AC"), std::nullopt);
  EXPECT_EQ(of("3S 3C 7S 7C 9S 9S TS TS JS JS KS KS AS AC"), std::nullopt);
  EXPECT_EQ(of("2S JK 4S 4S 7S 7C 9S 9S TS TS JS JS KS KS"), std::nullopt);
  EXPECT_EQ(of("AS 2C 3H 4S 5S 6S 7S 8S 9S TS JS QS KS"), std::nullopt);
  // Under the classic defaults no cards are a special hand.
  EXPECT_EQ(SpecialHandOf(Rules(), Counts(Split("AS 2C 3H 4S 5S 6S 7S 8S 9S TS JS QS KS JK"))),
            std::nullopt);
}

TEST(SpecialHandShapes, TheShortfallNamesWhatTheNearestLacks) {
  const Rules& r = Modern().rules;
  auto why = [&](const std::string& cards) {
    return SpecialHandShortfall(r, Counts(Split(cards)));
  };
  EXPECT_EQ(why("AS 2C 3S 4S 5S 6S 7S 8S 8S TS JS QS KS JK"),
            (std::vector<std::string>{
                "not a straight: no 9, two 8s",
                "nor is it garbage, seven natural pairs or seven pairs with twos"}));
  EXPECT_EQ(why("4S 4S 7S 7C 9S 9S TS TS JS JS KS KS AS QS").front(),
            "not seven natural pairs: one Q, one A");
  EXPECT_EQ(why("2S 2C 4S 4S 7S 7C 9S 9S TS TS JS JS KS JK").front(),
            "not seven pairs with twos: a joker, one K");
  EXPECT_EQ(why("KS KS KC KC QS QS QC QC 7S 7S 7C AS AS 5S").front(),
            "not garbage: two fours of a kind (Qs, Ks), one three of a kind (7s); besides, one 5, "
            "two As");
}

TEST(SpecialHandShapes, ValuesAreValidatedOnce) {
  Rules r;
  r.special_hand_straight = 3000;
  EXPECT_EQ(r.Validate(),
            "the special hands (special_hand_straight, special_hand_pairs_natural, "
            "special_hand_pairs_with_twos, special_hand_garbage) are 14 cards, the hand after "
            "the draw, so they need hand_size + stock_draw = 14; got 11 + 1");
  r.hand_size = 13;
  EXPECT_EQ(r.Validate(), "");
  r.jokers = 0;
  EXPECT_EQ(r.Validate(),
            "special_hand_straight (3000) needs a joker in the pack (001 L68: \"plus a joker\"); "
            "jokers is 0");
  r.special_hand_straight = 0;
  r.special_hand_garbage = 2000;
  EXPECT_EQ(r.Validate(), "");
}

// --- Real logs under modern-american ---

// Seats 0 and 2 hold 100 and 135 points and never meld; seat 1 (dealt
// `seat1`, 13 cards) draws `drawn` and lays the 14 down. Returns the log;
// *special is the special_hand line.
const std::vector<std::string> kSeat0 = Split("4H 4D 5H 5D 6H 6D 8H 8D 9D TH TD JH JD");
const std::vector<std::string> kSeat2 = Split("QH QD KH KD AH AD 4C 5C 6C 8C 9C TC JC");
constexpr int kOtherSide = -235;  // 001 L79: "the other team scores as usual"

Log Declared(const std::string& seat1, const std::string& drawn, int recorded, int* special,
             bool draw = true) {
  Log log;
  DealSpec d;
  d.hand_size = 13;
  d.upcard = {};
  d.hands = {kSeat0, Split(seat1), kSeat2};
  d.stock = {drawn};
  log.Deal(d);
  if (draw) log.Draw(1);
  std::vector<std::string> cards = Split(seat1);
  cards.push_back(drawn);
  *special = log.Raw(R"({"type":"special_hand","player":1,"cards":)" + Log::Quoted(cards) + "}");
  const std::string scores = "[" + std::to_string(kOtherSide) + "," + std::to_string(recorded) + "]";
  log.EndHand(1, "\"scores\":" + scores + ",\"totals\":" + scores);
  return log;
}

struct Hand {
  const char* name;
  const char* cards;  // dealt to seat 1
  const char* drawn;
  int value;          // 001 L68-L71
  const char* wrong;  // the same hand with a card wrong
  const char* wrong_drawn;
  const char* message;
};

const Hand kHands[] = {
    {"straight", "AS 2C 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", "JK", 3000,
     "AS 2C 3S 4S 5S 6S 7S 8S 8S TS JS QS KS", "JK", "not a straight: no 9, two 8s"},
    {"natural pairs", "4S 4S 7S 7C 9S 9S TS TS JS JS KS KS AS", "AC", 2500,
     "4S 4S 7S 7C 9S 9S TS TS JS JS KS KS AS", "QS", "not seven natural pairs: one Q, one A"},
    {"pairs with twos", "2S 2C 4S 4S 7S 7C 9S 9S TS TS JS JS KS", "KS", 2000,
     "2S 2C 4S 4S 7S 7C 9S 9S TS TS JS JS KS", "JK", "not seven pairs with twos: a joker, one K"},
    {"garbage", "KS KS KC KC QS QS QC QC 7S 7S 7C AS AS", "AC", 2000,
     "KS KS KC KC QS QS QC QC 7S 7S 7C AS AS", "5S",
     "not garbage: two fours of a kind (Qs, Ks), one three of a kind (7s); besides, one 5, two "
     "As"}};

TEST(SpecialHandScenario, EachHandDeclaredIsScoredAloneAndTheOtherSideAsUsual) {
  for (const Hand& h : kHands) {
    int special = 0;
    const Log log = Declared(h.cards, h.drawn, h.value, &special);
    const FileReport r = AuditUnder(log, Modern());
    EXPECT_CLEAN(r) << h.name;
    ASSERT_EQ(r.games.size(), 1u);
    ASSERT_EQ(r.games[0].hands.size(), 1u);
    const HandReport& hand = r.games[0].hands[0];
    EXPECT_EQ(hand.scores, (std::vector<int>{kOtherSide, h.value})) << h.name;
    EXPECT_EQ(hand.went_out, 1);
    // 001 L79: that value and nothing else; the other side as usual, no going out.
    ScoreBreakdown alone;
    alone.special_hand = h.value;
    EXPECT_EQ(hand.breakdown[1], alone) << h.name;
    EXPECT_EQ(hand.breakdown[0].in_hand, kOtherSide);
    EXPECT_EQ(hand.breakdown[0].going_out, 0);
    EXPECT_EQ(hand.breakdown[0].special_hand, 0);
  }
}

TEST(SpecialHandScenario, DeclaredBySeatZeroIsScoredForItsSide_001L79) {
  // Dealer 3: seat 0 plays first and lays the straight; seats 1 and 3 score
  // their hands as usual (seat 2, seat 0's partner, is not counted: 001 L79).
  Log log;
  DealSpec d;
  d.hand_size = 13;
  d.dealer = 3;
  d.upcard = {};
  d.hands = {Split("AS 2C 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"), kSeat0, {}, kSeat2};
  d.stock = {"JK"};
  log.Deal(d);
  log.Draw(0);
  log.Raw(R"({"type":"special_hand","player":0,"cards":)" +
          Log::Quoted(Split("AS 2C 3S 4S 5S 6S 7S 8S 9S TS JS QS KS JK")) + "}");
  const std::string scores = "[3000," + std::to_string(kOtherSide) + "]";
  log.EndHand(1, "\"scores\":" + scores + ",\"totals\":" + scores);
  const FileReport r = AuditUnder(log, Modern());
  EXPECT_CLEAN(r);
  ASSERT_EQ(r.games.size(), 1u);
  ASSERT_EQ(r.games[0].hands.size(), 1u);
  const HandReport& hand = r.games[0].hands[0];
  EXPECT_EQ(hand.scores, (std::vector<int>{3000, kOtherSide}));
  ScoreBreakdown alone;
  alone.special_hand = 3000;
  EXPECT_EQ(hand.breakdown[0], alone);
  EXPECT_EQ(hand.breakdown[1].in_hand, kOtherSide);
}

TEST(SpecialHandScenario, EachHandWithACardWrongIsOneFindingAndTheRecordedScores) {
  for (const Hand& h : kHands) {
    int special = 0;
    const Log log = Declared(h.wrong, h.wrong_drawn, h.value, &special);
    const FileReport r = AuditUnder(log, Modern());
    EXPECT_PROBLEMS(r, {special, CheckId::kSpecialHandShape}) << h.name;
    EXPECT_EQ(test::MessageOf(r, CheckId::kSpecialHandShape), h.message) << h.name;
    // The replay cannot value the cards: the hand's recorded scores stand.
    ASSERT_EQ(r.games[0].hands.size(), 1u);
    EXPECT_EQ(r.games[0].hands[0].scores, (std::vector<int>{kOtherSide, h.value})) << h.name;
    EXPECT_EQ(r.games[0].totals, (std::vector<int>{kOtherSide, h.value})) << h.name;
  }
}

TEST(SpecialHandScenario, BeforeTheDrawIsOneTimingFinding) {
  int special = 0;
  const Log log = Declared(kHands[0].cards, "JK", 3000, &special, /*draw=*/false);
  const FileReport r = AuditUnder(log, Modern());
  EXPECT_PROBLEMS(r, {special, CheckId::kSpecialHandTiming});
  EXPECT_EQ(test::MessageOf(r, CheckId::kSpecialHandTiming),
            "seat 1 declares a special hand without drawing first; it is laid down after the "
            "draw from the stock");
  EXPECT_EQ(r.games[0].hands[0].scores, (std::vector<int>{kOtherSide, 3000}));
}

TEST(SpecialHandScenario, PartOfTheHandLaidDownIsOneShapeFinding_001L65) {
  // "lay the whole hand down" (001 L65): the straight's 13, the joker drawn kept.
  Log log;
  DealSpec d;
  d.hand_size = 13;
  d.upcard = {};
  d.hands = {kSeat0, Split(kHands[0].cards), kSeat2};
  d.stock = {"JK"};
  log.Deal(d);
  log.Draw(1);
  const int special = log.Raw(R"({"type":"special_hand","player":1,"cards":)" +
                              Log::Quoted(Split(kHands[0].cards)) + "}");
  log.EndHand(1, R"("scores":[-235,3000],"totals":[-235,3000])");
  const FileReport r = AuditUnder(log, Modern());
  EXPECT_PROBLEMS(r, {special, CheckId::kSpecialHandShape});
  EXPECT_EQ(test::MessageOf(r, CheckId::kSpecialHandShape),
            "a special hand is the whole hand, laid down at once; seat 1 still holds JK");
}

// Seat 3 makes the side's initial meld (150, with bonus cards, 001 L37);
// at seat 1's next turn it declares the straight: its side has melded.
TEST(SpecialHandScenario, BySideThatHasMeldedIsOneTimingFinding) {
  Log log;
  DealSpec d;
  d.hand_size = 13;
  d.upcard = {};
  d.hands = {kSeat0, Split(kHands[0].cards), kSeat2,
             Split("AS AC AC KS KC KC QS QC QC JS JC JH 5S")};
  d.stock = Split("9H 7H 8S 4S 6S 7D 9S TC JK");
  log.Deal(d);
  log.Draw(1);
  log.Discard(1, "9H");
  log.Draw(2);
  log.Discard(2, "7H");
  log.Draw(3);
  log.Meld(3, {{"AS", "AC", "AC"}, {"KS", "KC", "KC"}, {"QS", "QC", "QC"}, {"JS", "JC", "JH"}});
  log.Discard(3, "8S");
  log.Raw(R"({"type":"draw","player":3,"cards":["4S","6S","7D","9S"],"bonus":true})");
  log.set_current(0);
  log.Raw(R"({"type":"draw","player":0,"cards":["TC"]})");
  log.Raw(R"({"type":"discard","player":0,"card":"TC"})");
  log.Raw(R"({"type":"draw","player":1,"cards":["JK"]})");
  std::vector<std::string> cards = Split(kHands[0].cards);
  cards.push_back("JK");
  const int special =
      log.Raw(R"({"type":"special_hand","player":1,"cards":)" + Log::Quoted(cards) + "}");
  log.EndHand(1, R"("scores":[-235,3000],"totals":[-235,3000])");
  const FileReport r = AuditUnder(log, Modern());
  EXPECT_PROBLEMS(r, {special, CheckId::kSpecialHandTiming});
  EXPECT_EQ(test::MessageOf(r, CheckId::kSpecialHandTiming),
            "seat 1's side has melded; only a player whose side has not melded may declare a "
            "special hand");
  // Declared all the same: the side scores the straight alone.
  EXPECT_EQ(r.games[0].hands[0].scores, (std::vector<int>{kOtherSide, 3000}));
}

// The same log with and without special-hands-3500 (001 L110): the pairs
// recorded at 2,500 are right under modern-american, 1,000 short under 3,500.
TEST(SpecialHandScenario, TheSameLogUnderSpecialHands3500) {
  int special = 0;
  const Log log = Declared(kHands[1].cards, kHands[1].drawn, 2500, &special);
  const int end = log.line();
  EXPECT_CLEAN(AuditUnder(log, Modern()));
  const RulesetChoice rich = Load(kSource + "/samples/rulesets/modern-american/special-hands-3500.lua");
  EXPECT_EQ(rich.rules.special_hand_pairs_natural, 3500);
  EXPECT_EQ(rich.rules.special_hand_straight, 3000);
  const FileReport r = AuditUnder(log, rich);
  EXPECT_PROBLEMS(r, {end, CheckId::kScoreHand});  // the total carries it (a note)
  EXPECT_EQ(r.games[0].hands[0].scores, (std::vector<int>{kOtherSide, 3500}));
  // Garbage too: 2,000 in 001's table, 3,500 in the option.
  const Log garbage = Declared(kHands[3].cards, kHands[3].drawn, 3500, &special);
  EXPECT_EQ(AuditUnder(garbage, rich).games[0].hands[0].scores,
            (std::vector<int>{kOtherSide, 3500}));
  EXPECT_EQ(AuditUnder(garbage, Modern()).games[0].hands[0].scores,
            (std::vector<int>{kOtherSide, 2000}));
}

// The API's own loop reports what the audit reports.
TEST(SpecialHandScenario, TheApiReportsTheSameFindings) {
  std::optional<api::Ruleset> rs = api::Ruleset::Load("modern-american");
  ASSERT_TRUE(rs);
  for (const Hand& h : kHands) {
    int special = 0;
    const Log log = Declared(h.wrong, h.wrong_drawn, h.value, &special);
    api::Replay replay(*rs, {"Ann", "Bob", "Cat", "Dan"});
    std::vector<std::string> found;
    std::istringstream in(log.str());
    int line = 0;
    for (std::string text; std::getline(in, text);) {
      ++line;
      for (const api::Finding& f : replay.Feed(text))
        found.push_back(std::to_string(line) + " " + f.check + ": " + f.message);
    }
    EXPECT_EQ(found, (std::vector<std::string>{std::to_string(special) +
                                               " special-hand-shape: " + h.message}))
        << h.name;
  }
}

// A hand recorded by its scores only (docs/sheets.md): a special hand is one
// of the ruleset's values and nothing else (001 L79); classic has none.
TEST(SpecialHandScenario, ASheetEntryScoresOneOfTheValuesAndNothingElse) {
  Log log;
  log.EndHand(1, R"("scores":[-235,3000],"totals":[-235,3000],)"
                 R"("breakdown":[{"in_hand":-235},{"special_hand":3000}])");
  const int wrong = log.EndHand(2, R"("scores":[-235,1300],"totals":[-470,4300],)"
                                   R"("breakdown":[{"in_hand":-235},{"special_hand":1234,"melded":66}])");
  const FileReport r = AuditUnder(log, Modern());
  EXPECT_PROBLEMS(r, {wrong, CheckId::kScoreBreakdown}, {wrong, CheckId::kScoreBreakdown});
  std::vector<std::string> messages;
  for (const Finding& f : r.games[0].findings)
    if (f.id == CheckId::kScoreBreakdown) messages.push_back(f.message);
  EXPECT_EQ(messages,
            (std::vector<std::string>{
                "side 1 (Bob and Dan) records special_hand 1234, which no special hand of this "
                "ruleset scores",
                "side 1 (Bob and Dan) records a special hand and melded 66: a side out with a "
                "special hand scores that value and nothing else"}));
  Log classic;
  const int line = classic.EndHand(1, R"("scores":[-235,3000],"totals":[-235,3000],)"
                                      R"("breakdown":[{"in_hand":-235},{"special_hand":3000}])");
  EXPECT_PROBLEMS(test::Audit(classic.str()), {line, CheckId::kScoreBreakdown});
  // The note lists each value the ruleset scores once (001 L65-L71: garbage
  // and pairs with twos are both 2,000).
  int worded = 0;
  for (const Finding& f : r.games[0].findings) {
    if (f.message.find("1234") == std::string::npos) continue;
    ++worded;
    EXPECT_NE(std::find(f.notes.begin(), f.notes.end(), "special hands score 3000, 2500, 2000"),
              f.notes.end())
        << test::Dump(r);
  }
  EXPECT_EQ(worded, 1) << test::Dump(r);
}

// After taking the pile (readings R44: only a stock draw comes first).
TEST(SpecialHandScenario, AfterTakingThePileIsATimingFinding) {
  Rules r;
  r.hand_size = 13;
  r.special_hand_straight = 3000;
  r.frozen_before_initial_meld = false;
  ASSERT_EQ(r.Validate(), "");
  Position pos(r, DefaultHooks(), {0, 0});
  DealMove d;
  d.dealer = 0;
  d.hands = {{}, test::Cs(Split("AS 2C 3S 4S 5S 6S 7S 8S 9S TS JS KD KS")), {}, {}};
  d.upcards = {C("KH")};
  pos.Deal(d);
  pos.Apply(TakePileMove{1, C("KH"), {C("KS"), C("KD")}, std::nullopt, std::nullopt, 0});
  ASSERT_EQ(pos.phase(), Phase::kPlay);
  bool timing = false;
  for (const TaggedViolation& v : pos.Check(SpecialHandMove{1, pos.hand(1).ToVector(), 0}))
    timing |= v.violation.id == CheckId::kSpecialHandTiming &&
              v.violation.message ==
                  "seat 1 took the pile this turn; a special hand is declared after drawing from "
                  "the stock, by a side that has not melded";
  EXPECT_TRUE(timing);
}

// --- The move generator and the bot ---

TEST(SpecialHandMoves, OfferedAfterTheDrawAndDeclaredByTheSensibleBot) {
  const Rules& r = Modern().rules;
  const RuleHooks& hooks = *Modern().hooks;
  int special = 0;
  const Log log = Declared(kHands[0].cards, "JK", 3000, &special);
  Position pos(r, hooks, {0, 0});
  pos.Deal(log.deal_move());
  ASSERT_TRUE(pos.Play(DrawMove{1, {C("JK")}, 0}).empty());
  std::vector<Move> legal = LegalMoves(pos);
  ASSERT_FALSE(legal.empty());
  ASSERT_TRUE(std::holds_alternative<SpecialHandMove>(legal[0]));
  EXPECT_EQ(std::get<SpecialHandMove>(legal[0]).cards.size(), 14u);
  Rng rng(7);
  EXPECT_EQ(MakeSensibleBot()->Choose(SeatView(pos, 1), legal, rng), 0u);
  // The three of the straight is not forced out before it (001 L57).
  bool three = false;
  for (const Move& m : legal) three |= std::holds_alternative<ThreeMove>(m);
  EXPECT_TRUE(three);
  pos.Apply(legal[0]);
  EXPECT_EQ(pos.phase(), Phase::kOver);
  EXPECT_EQ(pos.Score()[1].total(), 3000);
  // Before the draw, and with a card short of a straight, none is offered.
  Position before(r, hooks, {0, 0});
  before.Deal(log.deal_move());
  for (const Move& m : LegalMoves(before)) EXPECT_FALSE(std::holds_alternative<SpecialHandMove>(m));
  Position nine(r, hooks, {0, 0});
  nine.Deal(Declared(kHands[0].wrong, "JK", 3000, &special).deal_move());
  nine.Apply(DrawMove{1, {C("JK")}, 0});
  for (const Move& m : LegalMoves(nine)) EXPECT_FALSE(std::holds_alternative<SpecialHandMove>(m));
}

// --- The samples of Modern American ---

TEST(ModernAmericanSamples, TheGameAuditsClean) {
  const FileReport r = AuditFile(kSource + "/samples/modern-american/game.jsonl", test::UnderRuleset(Modern()));
  EXPECT_CLEAN(r);
  ASSERT_EQ(r.games.size(), 1u);
  EXPECT_EQ(r.games[0].ruleset, "modern-american");
  EXPECT_EQ(r.games[0].hands.size(), 6u);
  EXPECT_TRUE(r.games[0].finished);  // a whole game, to 8,500 (001 L104)
  EXPECT_EQ(r.games[0].totals, (std::vector<int>{8555, 5820}));
}

// 001's scoring arguments (L78: "Most arguments come from skipping step 2"):
// threes with one canasta (L55), caught holding aces (L61), an unfinished
// meld of sevens (L59), each recorded wrongly: one part of the breakdown,
// and the hand's score with it. Each slip is one score-hand finding whose
// note names the part (readings R126).
TEST(ModernAmericanSamples, TheScoringArgumentsAreFoundExactly) {
  const FileReport r = AuditFile(
      kSource + "/samples/modern-american/mistakes/scoring-arguments.jsonl",
      test::UnderRuleset(Modern()));
  EXPECT_PROBLEMS(r, {141, CheckId::kScoreHand}, {254, CheckId::kScoreHand},
                  {390, CheckId::kScoreHand});
  std::vector<std::string> parts;
  for (const Finding& f : r.games[0].findings)
    for (const std::string& note : f.notes)
      if (note.rfind("in the breakdown, ", 0) == 0) parts.push_back(f.message + ": " + note);
  EXPECT_EQ(parts, (std::vector<std::string>{
                       "side 1 (Bob and Dan) scores 3090 for hand 1, not 3890: in the breakdown, "
                       "red_threes is 0, not 800",
                       "side 1 (Bob and Dan) scores -2190 for hand 2, not -690: in the breakdown, "
                       "penalties is -1500, not 0",
                       "side 0 (Ann and Cat) scores 3210 for hand 3, not 5710: in the breakdown, "
                       "penalties is -2500, not 0"}));
  EXPECT_EQ(r.games[0].totals, (std::vector<int>{3320, 3005}));
}

}  // namespace
}  // namespace canasta
