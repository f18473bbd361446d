// Sequence melds (escaleras; 002 L67, L75; readings R115): the shape check
// alone, then real logs replayed under a classic ruleset with sequences
// switched on, each rule both ways, with exact findings and scores; the
// move generator's sequences; and the same logs under classic, unchanged.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "core/legal_moves.h"
#include "core/meld.h"
#include "lint/checks.h"
#include "replay/auditor.h"
#include "replay/inject.h"
#include "replay/simulate.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

using test::C;
using test::Cs;
using test::DealSpec;
using test::Findings;
using test::Log;
using test::M;

RulesetChoice WithSequences(void (*change)(Rules&) = nullptr) {
  RulesetChoice c{"sequences", Rules(),
                  std::shared_ptr<const RuleHooks>(&DefaultHooks(), [](const RuleHooks*) {})};
  c.rules.sequence_melds = true;
  c.rules.sequence_canasta_bonus = 1500;  // 002 L67
  if (change) change(c.rules);
  return c;
}

FileReport AuditWith(const Log& log, const RulesetChoice& choice) {
  AuditOptions options;
  options.forced_ruleset = choice.name;
  options.resolve = [choice](const std::string&, const std::string&, RulesetChoice* out,
                             std::string*) {
    *out = choice;
    return true;
  };
  std::istringstream in(log.str());
  return AuditStream(in, "sequence.jsonl", options);
}

std::optional<Violation> Shape(const Rules& r, const std::string& cards, bool is_new = true) {
  std::istringstream in(cards);
  std::vector<std::string> v;
  for (std::string w; in >> w;) v.push_back(w);
  return CheckSequence(r, Cs(v), is_new);
}

// A shape the test expects refused: its refusal, or a failure where the
// check accepts it (never a read of an empty optional).
Violation Refused(const Rules& r, const std::string& cards, bool is_new = true) {
  std::optional<Violation> v = Shape(r, cards, is_new);
  if (!v) {
    ADD_FAILURE() << "accepted: " << cards;
    return Violation{};
  }
  return *v;
}

// --- The shape (002 L67: "three or more consecutive cards of the same suit") ---

TEST(SequenceShape, ConsecutiveCardsOfOneSuit_002L67) {
  Rules r;
  r.sequence_melds = true;
  EXPECT_FALSE(Shape(r, "5H 6H 7H"));
  EXPECT_FALSE(Shape(r, "7H 5H 6H")) << "order of the cards carries no rule";
  EXPECT_FALSE(Shape(r, "JS QS KS AS"));
  EXPECT_EQ(Refused(r, "5H 6H 8H").id, CheckId::kSequenceNotConsecutive);
  EXPECT_EQ(Refused(r, "5H 6S 7H").id, CheckId::kSequenceMixedSuits);
  EXPECT_EQ(Refused(r, "5H 6H").id, CheckId::kMeldTooSmall);
  EXPECT_FALSE(Shape(r, "4H", /*is_new=*/false)) << "an addition is judged with its meld";
  EXPECT_EQ(Refused(r, "5H 5H 6H").message,
            "the sequence 5H 5H 6H is not a sequence: it holds two 5s");
  // Threes never stand in a sequence with the default lowest rank, 4.
  EXPECT_EQ(Refused(r, "3H 4H 5H").message,
            "the sequence 3H 4H 5H is not a sequence: 3s never stand in a sequence (the lowest "
            "rank is 4)");
  // The ace is high by default: A 4 5 is no sequence, Q K A is.
  EXPECT_TRUE(Shape(r, "AH 4H 5H"));
  r.sequence_ace = SequenceAce::kLow;
  EXPECT_FALSE(Shape(r, "AH 4H 5H"));
  EXPECT_TRUE(Shape(r, "QH KH AH"));
  r.sequence_ace = SequenceAce::kEither;
  EXPECT_FALSE(Shape(r, "AH 4H 5H"));
  EXPECT_FALSE(Shape(r, "QH KH AH"));
  // Never round the corner, and never longer than the order.
  EXPECT_TRUE(Shape(r, "KH AH 4H"));
}

TEST(SequenceShape, WildCardsStandForMissingCardsUpToTheLimit) {
  Rules r;
  r.sequence_melds = true;
  EXPECT_EQ(Refused(r, "5H 2C 7H").id, CheckId::kSequenceTooManyWilds);
  EXPECT_EQ(Refused(r, "5H 2C 7H").message,
            "the sequence 5H 2C 7H holds 1 wild card(s); a sequence may hold none");
  r.sequence_max_wilds = 1;
  EXPECT_FALSE(Shape(r, "5H 2C 7H"));
  EXPECT_FALSE(Shape(r, "5H 6H JK")) << "a wild card at an end";
  EXPECT_EQ(Refused(r, "5H 2C 8H").message,
            "the sequence 5H 2C 8H is not a sequence: its cards are not consecutive even with "
            "its 1 wild card(s) filling the gaps");
  EXPECT_EQ(Refused(r, "5H 2C JK").id, CheckId::kSequenceTooManyWilds);
  EXPECT_EQ(Refused(r, "2C JK 2D").message, "the sequence 2C JK 2D holds no natural card");
  // No longer than the order, 4 to A: a wild card may stand for the ace, not past it.
  EXPECT_FALSE(Shape(r, "4H 5H 6H 7H 8H 9H TH JH QH KH 2C"));
  const auto longer = Shape(r, "4H 5H 6H 7H 8H 9H TH JH QH KH AH 2C");
  ASSERT_TRUE(longer);
  EXPECT_EQ(longer->id, CheckId::kSequenceNotConsecutive);
}

TEST(SequenceShape, LengthAndValuesAreTheRulesets) {
  Rules r;
  r.sequence_melds = true;
  r.sequence_min_length = 4;
  r.sequence_max_length = 7;
  EXPECT_EQ(Refused(r, "5H 6H 7H").id, CheckId::kMeldTooSmall);
  EXPECT_FALSE(Shape(r, "5H 6H 7H 8H"));
  EXPECT_EQ(Refused(r, "4H 5H 6H 7H 8H 9H TH JH").id, CheckId::kMeldTooBig);
  r.sequence_max_length = 3;
  EXPECT_EQ(r.Validate(), "sequence_max_length (3) is below sequence_min_length (4)");
  r.sequence_max_length = 0;
  r.sequence_lowest = 2;
  EXPECT_NE(r.Validate().find("sequence_lowest"), std::string::npos) << r.Validate();
}

TEST(SequenceShape, ASequenceCanastaScoresTheSequenceBonus_002L67) {
  Rules r;
  r.sequence_canasta_bonus = 1500;
  Meld seq;
  seq.rank = Rank::kSequence;
  for (const char* c : {"4H", "5H", "6H", "7H", "8H", "9H", "TH"}) seq.Add(C(c));
  EXPECT_EQ(CanastaBonus(r, seq), 1500);
  r.sequence_canasta_bonus = 0;  // scored as a natural canasta
  EXPECT_EQ(CanastaBonus(r, seq), 500);
  EXPECT_EQ(UnfinishedPenalty(r, seq), 0);
}

// --- Logs ---

// Bob (seat 1) plays first. His hand: a hearts run 4H..TH and four kings.
Log OpeningDeal(const std::vector<std::string>& bob, const std::string& draw = "9C") {
  Log log;
  DealSpec d;
  d.hands = {{}, bob};
  d.stock = {draw};
  log.Deal(d);
  return log;
}

const std::vector<std::string> kRunAndKings = {"4H", "5H", "6H", "7H", "8H", "9H",
                                               "TH", "KS", "KH", "KD", "KC"};

TEST(SequenceLogs, AnOpeningWithASequenceCountsTowardTheMinimum_002L67) {
  Log log = OpeningDeal(kRunAndKings);
  log.Draw(1);
  // 5H 6H 7H 8H: 25 points, with three kings 30: 55 of the 50 needed.
  // The log names no id: the sequence is "seq1" (readings R115).
  log.MeldEvent(1, {M{{"5H", "6H", "7H", "8H"}, "", "sequence"}, M{{"KS", "KH", "KD"}, "", ""}});
  log.Discard(1, "9C");
  log.PassTurns(3);
  log.Draw(1);
  // Extended at both ends by name, one end at a time.
  log.MeldEvent(1, {M{{"4H"}, "seq1", ""}, M{{"9H"}, "seq1", ""}});
  log.Discard(1, "KC");
  FileReport r = AuditWith(log, WithSequences());
  EXPECT_EQ(test::Problems(r), test::FoundList{}) << test::Dump(r);
}

TEST(SequenceLogs, EachWrongSequenceIsOneFindingAtItsLine) {
  struct Case {
    const char* cards;
    CheckId id;
  } cases[] = {
      {R"(["5H","6H","8H"])", CheckId::kSequenceNotConsecutive},
      {R"(["5H","6S","7H"])", CheckId::kSequenceMixedSuits},
      {R"(["5H","2C","7H"])", CheckId::kSequenceTooManyWilds},
  };
  for (const Case& c : cases) {
    Log log = OpeningDeal({"5H", "6H", "7H", "8H", "6S", "2C", "KS", "KH", "KD", "KC", "QS"});
    log.Draw(1);
    const int bad = log.Raw(std::string(R"({"type":"meld","player":1,"melds":[{"cards":)") +
                            c.cards + R"(},{"cards":["KS","KH","KD","KC"]}]})");
    log.Discard(1, "QS");
    FileReport r = AuditWith(log, WithSequences());
    EXPECT_EQ(test::Problems(r), (test::FoundList{{bad, c.id}})) << c.cards << "\n" << test::Dump(r);
  }
}

TEST(SequenceLogs, AnAdditionMustExtendTheSequence) {
  Log log = OpeningDeal(kRunAndKings);
  log.Draw(1);
  log.Raw(R"({"type":"meld","player":1,"melds":[{"id":"h","cards":["5H","6H","7H","8H"]},{"cards":["KS","KH","KD"]}]})");
  log.Discard(1, "9C");
  log.PassTurns(3);
  log.Draw(1);
  const int gap = log.Raw(R"({"type":"meld","player":1,"melds":[{"to":"h","cards":["TH"]}]})");
  const int missing = log.Raw(R"({"type":"meld","player":1,"melds":[{"to":"s","cards":["9H"]}]})");
  FileReport r = AuditWith(log, WithSequences());
  const test::FoundList found = Findings(r);
  EXPECT_NE(std::find(found.begin(), found.end(), test::Found{gap, CheckId::kSequenceNotConsecutive}),
            found.end())
      << test::Dump(r);
  EXPECT_NE(std::find(found.begin(), found.end(), test::Found{missing, CheckId::kMeldTargetMissing}),
            found.end())
      << test::Dump(r);
  EXPECT_EQ(test::MessageOf(r, CheckId::kMeldTargetMissing),
            "the side has no meld named \"s\" to add to");
}

TEST(SequenceLogs, WithoutSequenceMeldsTheRunIsMixedRanksAsBefore_000S8) {
  Log log = OpeningDeal(kRunAndKings);
  log.Draw(1);
  const int run = log.Raw(R"({"type":"meld","player":1,"melds":[{"cards":["5H","6H","7H"]},{"cards":["KS","KH","KD","KC"]}]})");
  log.Discard(1, "9C");
  FileReport classic = AuditWith(log, WithSequences([](Rules& r) { r.sequence_melds = false; }));
  const test::FoundList found = Findings(classic);
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(found.front(), (test::Found{run, CheckId::kMeldMixedRanks})) << test::Dump(classic);
}

// Going out with a sequence canasta of seven: its bonus, 1,500 (002 L67).
TEST(SequenceLogs, GoingOutWithASequenceCanastaScoresItsBonus_002L67) {
  Log log = OpeningDeal(kRunAndKings);
  log.Draw(1);
  log.Raw(R"({"type":"meld","player":1,"melds":[{"as":"sequence","cards":["4H","5H","6H","7H","8H","9H","TH"]},{"cards":["KS","KH","KD","KC"]}]})");
  log.Discard(1, "9C");
  int held = 0;
  for (int seat : {0, 2}) held += test::PointValue(log.hand_cards(seat));
  // The canasta, 4H-7H at 5, 8H-TH at 10, the kings, going out; Dan's cards against.
  const int bob = 1500 + 20 + 30 + 40 + 100 - test::PointValue(log.hand_cards(3));
  log.EndHand(1, "\"scores\":[" + std::to_string(-held) + "," + std::to_string(bob) +
                     "],\"totals\":[" + std::to_string(-held) + "," + std::to_string(bob) + "]");
  FileReport r = AuditWith(log, WithSequences());
  EXPECT_EQ(test::Problems(r), test::FoundList{}) << test::Dump(r);
  ASSERT_EQ(r.games.size(), 1u);
  const HandReport& hand = r.games[0].hands[0];
  EXPECT_EQ(hand.breakdown[1].canastas, 1500);
  EXPECT_EQ(hand.breakdown[1].melded, 90);
  EXPECT_EQ(hand.breakdown[1].going_out, 100);
  EXPECT_EQ(hand.scores, (std::vector<int>{-held, bob}));
}

TEST(SequenceLogs, SequenceCanastasNeededToGoOut) {
  // A canasta of kings and a short sequence: out with no sequence canasta.
  Log log = OpeningDeal({"KS", "KH", "KD", "KC", "KS", "KH", "KD", "5H", "6H", "7H", "8H"});
  log.Draw(1);
  const int out = log.Raw(R"({"type":"meld","player":1,"melds":[{"cards":["KS","KH","KD","KC","KS","KH","KD"]},{"cards":["5H","6H","7H","8H"]}]})");
  const int discard = log.Discard(1, "9C");
  auto need_one = [](Rules& r) { r.sequence_canastas_to_go_out = 1; };
  FileReport r = AuditWith(log, WithSequences(need_one));
  EXPECT_EQ(test::Problems(r), (test::FoundList{{discard, CheckId::kOutWithoutCanastas}}))
      << test::Dump(r);
  EXPECT_EQ(test::MessageOf(r, CheckId::kOutWithoutCanastas),
            "seat 1 goes out with 0 sequence canastas; the side needs 1");
  (void)out;
  FileReport fine = AuditWith(log, WithSequences());
  EXPECT_EQ(test::Problems(fine), test::FoundList{}) << test::Dump(fine);
}

TEST(SequenceLogs, AShortSequenceLaidToGoOutIsNoCanasta_000S17_002L67) {
  // Bob melds every card (no discard needed by default: 000 §17): a new
  // sequence of three and two melds of three. No canasta: he may not go out.
  Log log = OpeningDeal({"5H", "6H", "7H", "KS", "KH", "KD", "QS", "QH", "QD", "JS", "JH"}, "JD");
  log.Draw(1);
  const int out = log.Raw(
      R"({"type":"meld","player":1,"melds":[{"as":"sequence","cards":["5H","6H","7H"]},{"cards":["KS","KH","KD"]},{"cards":["QS","QH","QD"]},{"cards":["JS","JH","JD"]}]})");
  FileReport r = AuditWith(log, WithSequences());
  EXPECT_EQ(test::Problems(r), (test::FoundList{{out, CheckId::kOutWithoutCanastas}}))
      << test::Dump(r);
}

TEST(SequenceLogs, ASequenceCanastaExtendedIsNoSecondCanasta_000S17_002L67) {
  // Bob lays a sequence canasta, then melds every card, JH onto it: one
  // canasta, and this ruleset asks for two to go out.
  Log log;
  DealSpec d;
  d.hands = {{}, {"4H", "5H", "6H", "7H", "8H", "9H", "TH", "KS", "KH", "KD", "JH"}};
  d.stock = {"9C", "4C", "5C", "6C", "KC"};
  log.Deal(d);
  log.Draw(1);
  log.MeldEvent(1, {M{{"4H", "5H", "6H", "7H", "8H", "9H", "TH"}, "", "sequence"},
                    M{{"KS", "KH", "KD"}, "", ""}});
  log.Discard(1, "9C");
  log.PassTurns(3);
  log.Draw(1);
  const int out = log.MeldEvent(1, {M{{"JH"}, "seq1", ""}, M{{"KC"}, "K", ""}});
  FileReport r = AuditWith(log, WithSequences([](Rules& x) { x.canastas_to_go_out = 2; }));
  EXPECT_EQ(test::Problems(r), (test::FoundList{{out, CheckId::kOutWithoutCanastas}}))
      << test::Dump(r);
  EXPECT_EQ(test::MessageOf(r, CheckId::kOutWithoutCanastas),
            "seat 1 goes out with 1 canasta; the side needs 2");
}

// --- The move generator ---

TEST(SequenceMoves, EverySequenceTheHandAllowsIsOffered) {
  Log log = OpeningDeal({"5H", "6H", "7H", "8H", "KS", "KH", "KD", "QS", "QH", "JC", "4C"});
  Rules rules = WithSequences().rules;
  Position pos(rules, DefaultHooks(), {0, 0});
  ASSERT_TRUE(pos.Deal(log.deal_move()).empty());
  ASSERT_TRUE(pos.Play(DrawMove{1, {C("9C")}, 0}).empty());
  // The side has not opened: 50 points are needed, the kings give 30. 5-6-7
  // (15) falls short and is not offered; 6-7-8 (20) and 5-6-7-8 (25) reach it.
  std::vector<std::string> seqs;
  for (const Move& m : LegalMoves(pos))
    if (const auto* x = std::get_if<MeldMove>(&m))
      if (x->parts[0].sequence) seqs.push_back(ToString(x->parts[0].cards));
  EXPECT_EQ(seqs, (std::vector<std::string>{"5H 6H 7H 8H", "6H 7H 8H"}));
}

// Self-play: the bots lay and extend sequences (the generator offers them),
// and their games audit clean, with wild cards in sequences and without.
TEST(SequenceSelfPlay, GamesWithSequencesAuditClean) {
  for (int wilds : {0, 1}) {
    RulesetChoice c = WithSequences();
    c.rules.sequence_max_wilds = wilds;
    c.rules.sequence_canastas_to_go_out = wilds;  // one sequence canasta to go out, or none
    AuditOptions options;
    options.forced_ruleset = c.name;
    options.resolve = [c](const std::string&, const std::string&, RulesetChoice* out,
                          std::string*) {
      *out = c;
      return true;
    };
    int laid = 0, extended = 0, finished = 0;
    for (int i = 0; i < 6; ++i) {
      SimulateOptions so;
      so.bots = i % 2 ? std::vector<std::string>{"random", "sensible"}
                      : std::vector<std::string>{"sensible"};
      std::stringstream log;
      finished += SimulateGame(c, GameSeed(6700 + wilds, i), so, log).finished;
      const std::string text = log.str();
      for (size_t at = text.find("\"as\":\"sequence\""); at != std::string::npos;
           at = text.find("\"as\":\"sequence\"", at + 1))
        ++laid;
      for (size_t at = text.find("\"to\":\"seq"); at != std::string::npos;
           at = text.find("\"to\":\"seq", at + 1))
        ++extended;
      FileReport report = AuditStream(log, "selfplay", options);
      const std::vector<Finding> findings = test::AllFindings(report);
      ASSERT_TRUE(findings.empty()) << "wilds " << wilds << " game " << i << ": line "
                                    << findings[0].line << ": " << findings[0].message;
    }
    EXPECT_EQ(finished, 6) << wilds;
    EXPECT_GT(laid, 20) << wilds;
    EXPECT_GT(extended, 5) << wilds;
  }
}

// The fault injector's sequence mistakes (a gap, two suits, a wild card too
// many) are each caught at their line by their check, and nothing else.
TEST(SequenceSelfPlay, EveryInjectedSequenceMistakeIsCaughtAtItsLine) {
  RulesetChoice c = WithSequences();
  AuditOptions options;
  options.forced_ruleset = c.name;
  options.resolve = [c](const std::string&, const std::string&, RulesetChoice* out,
                        std::string*) {
    *out = c;
    return true;
  };
  for (FaultKind kind : {FaultKind::kSequenceGap, FaultKind::kSequenceMixedSuits,
                         FaultKind::kSequenceTooManyWilds}) {
    int injected = 0;
    for (int i = 0; i < 8; ++i) {
      std::optional<InjectedFault> fault = InjectFault(c, GameSeed(7100 + int(kind), i), kind, i % 2);
      if (!fault) continue;
      ++injected;
      std::istringstream in(fault->log);
      FileReport report = AuditStream(in, "injected", options);
      EXPECT_EQ(test::Problems(report), (test::FoundList{{fault->line, fault->expected}}))
          << FaultName(kind) << " " << fault->description << "\n" << test::Dump(report);
    }
    EXPECT_GE(injected, 4) << FaultName(kind);
  }
}

}  // namespace
}  // namespace canasta
