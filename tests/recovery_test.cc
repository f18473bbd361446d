// Error recovery and score comparison (issue 7): after an event the engine
// cannot apply, the replay reports the root cause once and resumes at the
// next deal or end_hand; recorded totals are compared with the true ones.
// Every test states the exact findings.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "replay/auditor.h"
#include "replay/decisions.h"
#include "replay/driver.h"
#include "scripting/resolver.h"
#include "scripting/ruleset.h"
#include "test_util.h"
#include "tests/run_shell.h"

namespace canasta {
namespace {

using test::Audit;
using test::DealSpec;
using test::HasNote;
using test::Log;

// The player at the dealer's left goes out in the first turn with a natural
// canasta of kings and four queens, discarding the card drawn (9D).
void PlayQuickOut(Log& log, int hand, int dealer) {
  const int seat = (dealer + 1) % 4;
  DealSpec d;
  d.hand = hand;
  d.dealer = dealer;
  d.hands.resize(4);
  d.hands[seat] = {"KS", "KS", "KH", "KH", "KD", "KD", "KC", "QS", "QS", "QH", "QH"};
  d.stock = {"9D"};
  log.Deal(d);
  log.Draw(seat);
  log.Meld(seat, {{"KS", "KS", "KH", "KH", "KD", "KD", "KC"}, {"QS", "QS", "QH", "QH"}});
  log.Discard(seat, "9D");
}
// 000 §18: the side going out scores 500 (natural canasta) + 110 (melded
// cards) + 100 (going out) and loses its partner's cards; the other side
// loses its cards.
std::vector<int> QuickOutScores(const Log& log, int dealer) {
  const int side = (dealer + 1) % 2;
  std::vector<int> s(2);
  s[size_t(side)] = 500 + 110 + 100 - log.SideHandValue(side);
  s[size_t(1 - side)] = -log.SideHandValue(1 - side);
  return s;
}
std::string Ints(const std::vector<int>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}
// As findings list numbers: "[1, 2]".
std::string Listed(const std::vector<int>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}
std::vector<int> Plus(const std::vector<int>& a, const std::vector<int>& b) {
  return {a[0] + b[0], a[1] + b[1]};
}
std::string ScoresAndTotals(const std::vector<int>& scores, const std::vector<int>& totals) {
  return "\"scores\":" + Ints(scores) + ",\"totals\":" + Ints(totals);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// ===========================================================================
// Resynchronisation points

#ifdef CANASTA_SOURCE_DIR
// The lines of samples/classic/game.jsonl, a test's log made of lines.
// The lines of samples/<name>/game.jsonl.
std::vector<std::string> SampleLines(const std::string& name) {
  std::istringstream in(
      ReadFile(std::string(CANASTA_SOURCE_DIR) + "/samples/" + name + "/game.jsonl"));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}
std::vector<std::string> ClassicSampleLines() { return SampleLines("classic"); }
// The lines of tests/scenarios/<name>.jsonl.
std::vector<std::string> ScenarioLines(const std::string& name) {
  std::istringstream in(
      ReadFile(std::string(CANASTA_SOURCE_DIR) + "/tests/scenarios/" + name + ".jsonl"));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}
// `lines` with line `index` (0-based), which must be `line`, left out.
std::vector<std::string> LeftOut(std::vector<std::string> lines, size_t index,
                                 const std::string& line) {
  EXPECT_EQ(lines.at(index), line);
  lines.erase(lines.begin() + std::ptrdiff_t(index));
  return lines;
}
// `lines` with lines `index` and `index + 1` (0-based), which must begin
// with `first` and `second`, swapped.
std::vector<std::string> Swapped(std::vector<std::string> lines, size_t index,
                                 const std::string& first, const std::string& second) {
  EXPECT_EQ(lines.at(index).rfind(first, 0), 0u) << lines.at(index);
  EXPECT_EQ(lines.at(index + 1).rfind(second, 0), 0u) << lines.at(index + 1);
  std::swap(lines[index], lines[index + 1]);
  return lines;
}
std::string Unlines(const std::vector<std::string>& lines) {
  std::string log;
  for (const std::string& line : lines) log += line + "\n";
  return log;
}
// The audit of a log under the ruleset its header names (any built-in).
FileReport AuditUnderItsRuleset(const std::vector<std::string>& lines) {
  AuditOptions options;
  options.resolve = ResolveRuleset;
  std::istringstream in(Unlines(lines));
  return AuditStream(in, "game.jsonl", options);
}

// samples/classic/game.jsonl with one slip: exactly one finding, `id` at
// `line` with a note holding `note`, and the game's totals as recorded.
void ExpectOneFinding(const FileReport& r, int line, CheckId id, const std::string& note) {
  EXPECT_FINDINGS(r, {line, id});
  EXPECT_TRUE(HasNote(r, id, note)) << test::Dump(r);
  ASSERT_EQ(r.games.size(), 1u);
  EXPECT_EQ(r.games[0].totals, (std::vector<int>{6180, 3750}));
}

// `damaged`, a sample's lines (`good`) with one slip, audited under the
// ruleset its header names: exactly one finding, `id` at `line` with a note
// holding `note`, and the game's totals those of the good log.
void ExpectOneFindingOf(const std::vector<std::string>& good,
                        const std::vector<std::string>& damaged, int line, CheckId id,
                        const std::string& note) {
  const FileReport right = AuditUnderItsRuleset(good);
  const FileReport r = AuditUnderItsRuleset(damaged);
  EXPECT_FINDINGS(r, {line, id});
  EXPECT_TRUE(HasNote(r, id, note)) << test::Dump(r);
  ASSERT_EQ(r.games.size(), 1u);
  ASSERT_EQ(right.games.size(), 1u);
  EXPECT_EQ(r.games[0].totals, right.games[0].totals);
}

// One line of a sample left out, and what its one finding's note says.
struct LeftOutLine {
  size_t index;      // 0-based: the finding is at line index + 1
  const char* line;  // the line left out, as the sample writes it
  const char* note;
};

// ExpectOneFindingOf for each line of `cases` left out of `good` in turn.
void ExpectEachLeftOutOneFinding(const std::vector<std::string>& good, CheckId id,
                                 std::initializer_list<LeftOutLine> cases) {
  for (const LeftOutLine& c : cases) {
    SCOPED_TRACE(c.line);
    ExpectOneFindingOf(good, LeftOut(good, c.index, c.line), int(c.index) + 1, id, c.note);
  }
}

// One line of a named sample left out.
struct SampleLeftOut {
  const char* sample;
  LeftOutLine left_out;
};

// ExpectEachLeftOutOneFinding for each case, in its own sample.
void ExpectEachSampleLeftOutOneFinding(CheckId id, std::initializer_list<SampleLeftOut> cases) {
  for (const SampleLeftOut& c : cases) {
    SCOPED_TRACE(c.sample);
    ExpectEachLeftOutOneFinding(SampleLines(c.sample), id, {c.left_out});
  }
}

// The measure of issue 7: samples/classic/game.jsonl with a comma missing in
// its first deal line gave 80 findings; now the bad line alone, its note
// counting the 74 events of hand 1 that were not replayed, and hand 1's
// recorded scores taken so that every later total and the end agree.
TEST(Recovery, BrokenFirstDealLineOfTheClassicSample) {
  std::string log = ReadFile(std::string(CANASTA_SOURCE_DIR) + "/samples/classic/game.jsonl");
  const std::string at = "\"hand\":1,\"dealer\"";
  ASSERT_NE(log.find(at), std::string::npos);
  log.replace(log.find(at), at.size(), "\"hand\":1\"dealer\"");
  FileReport r = Audit(log);
  EXPECT_FINDINGS(r, {2, CheckId::kLogBadJson});
  EXPECT_TRUE(HasNote(r, CheckId::kLogBadJson, "74 event(s) not replayed (lines 3-76)"))
      << test::Dump(r);
  EXPECT_TRUE(HasNote(r, CheckId::kLogBadJson, "recorded scores [185, 975] are taken as true"))
      << test::Dump(r);
  ASSERT_EQ(r.games.size(), 1u);
  EXPECT_EQ(r.games[0].totals, (std::vector<int>{6180, 3750}));
  EXPECT_TRUE(r.games[0].finished);
}

// A hand that really ended at a discard, whose log goes on with 20 events
// of another hand before its end_hand: one error, then the end_hand is
// checked as usual (the engine knows that the hand is over).
TEST(Recovery, HandOverAtADiscardButTheLogGoesOn) {
  const std::string log = ReadFile(std::string(CANASTA_SOURCE_DIR) + "/samples/classic/game.jsonl");
  std::vector<std::string> lines;
  std::istringstream in(log);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::string edited;
  for (size_t i = 0; i < 76; ++i) edited += lines[i] + "\n";             // hand 1 up to going out
  for (size_t i = 78; i < 98; ++i) edited += lines[i] + "\n";            // 20 events of hand 2
  for (size_t i = 76; i < lines.size(); ++i) edited += lines[i] + "\n";  // end_hand 1 and on
  FileReport r = Audit(edited);
  EXPECT_FINDINGS(r, {77, CheckId::kTurnSequence});
  EXPECT_TRUE(HasNote(r, CheckId::kTurnSequence, "seat 3 (Dan) went out at line 76"))
      << test::Dump(r);
  EXPECT_TRUE(HasNote(r, CheckId::kTurnSequence, "19 event(s) not replayed (lines 78-96)"))
      << test::Dump(r);
}
#endif

TEST(Recovery, HandOverTheEndHandIsStillChecked) {
  Log log;
  PlayQuickOut(log, 1, 0);
  const std::vector<int> s = QuickOutScores(log, 0);
  const int after = log.Draw(2);
  log.Discard(2, "4S");
  const int end = log.EndHand(1, ScoresAndTotals({s[0] + 5, s[1]}, {s[0] + 5, s[1]}));
  FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {after, CheckId::kTurnSequence}, {end, CheckId::kScoreHand});
  EXPECT_TRUE(HasNote(r, CheckId::kTurnSequence,
                      "1 event(s) not replayed (line " + std::to_string(after + 1) + ")"))
      << test::Dump(r);
}

TEST(Recovery, DealWithBadFieldsSkipsItsHand) {
  Log log;
  const int deal = log.Raw(R"({"type":"deal","hand":1,"dealer":"north","hands":[],"upcard":[]})");
  log.Raw(R"({"type":"draw","player":1,"cards":["5S"]})");
  log.Raw(R"({"type":"discard","player":1,"card":"KH"})");
  log.Raw(R"({"type":"end_hand","hand":1,"scores":[100,-50],"totals":[100,-50]})");
  DealSpec d;
  d.hand = 2;
  d.dealer = 1;
  log.Deal(d);
  const int wrong = log.Draw(0);  // seat 2's turn: hand 2 is replayed
  FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {deal, CheckId::kLogBadEvent}, {wrong, CheckId::kTurnOrder});
  EXPECT_TRUE(HasNote(r, CheckId::kLogBadEvent, "2 event(s) not replayed (lines 3-4)"))
      << test::Dump(r);
  EXPECT_TRUE(HasNote(r, CheckId::kLogBadEvent, "recorded scores [100, -50] are taken as true"))
      << test::Dump(r);
  ASSERT_EQ(test::OnlyGame(r).hands.size(), 2u);
  EXPECT_EQ(test::OnlyGame(r).hands[0].scores, (std::vector<int>{100, -50}));
  EXPECT_EQ(test::OnlyGame(r).hands[0].totals, (std::vector<int>{100, -50}));
  EXPECT_FALSE(test::OnlyGame(r).hands[0].complete && test::OnlyGame(r).hands[0].went_out >= 0);
}

TEST(Recovery, MovesBeforeAnyDealAreOneFinding) {
  Log log;
  const int first = log.Raw(R"({"type":"draw","player":1,"cards":["5S"]})");
  log.Raw(R"({"type":"discard","player":1,"card":"5S"})");
  log.Raw(R"({"type":"draw","player":2,"cards":["6S"]})");
  log.Deal(DealSpec{});
  const int wrong = log.Draw(3);  // seat 1's turn
  FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {first, CheckId::kLogOutOfPlace}, {wrong, CheckId::kTurnOrder});
  EXPECT_TRUE(HasNote(r, CheckId::kLogOutOfPlace, "2 event(s) not replayed (lines 3-4)"))
      << test::Dump(r);
}

TEST(Recovery, BadCardIsOneFindingAndNoFollowOn) {
  Log log;
  log.Deal(DealSpec{});
  log.Draw(1);
  const int bad = log.Raw(R"({"type":"discard","player":1,"card":"1S"})");
  log.Draw(2);  // would be "seat 1's turn ended without a discard"
  log.Raw(R"({"type":"discard","player":2,"card":"QS"})");  // and "not held"
  FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {bad, CheckId::kLogBadCard});
  EXPECT_TRUE(HasNote(r, CheckId::kLogBadCard,
                      "2 event(s) not replayed (lines 5-6): the state of hand 1 is unknown "
                      "after line 4"))
      << test::Dump(r);
}

// A card played many more times than held is one fact: one finding for the
// card, with the count, not one per copy (000 §11).
TEST(Recovery, ACardPlayedManyTimesIsOneFinding) {
  Log log;
  log.Deal(DealSpec{});
  log.Draw(1);
  std::string cards;
  for (int i = 0; i < 500; ++i) cards += std::string(i ? "," : "") + "\"9S\"";
  const int bad = log.Raw(R"({"type":"meld","player":1,"melds":[{"cards":[)" + cards + "]}]}");
  FileReport r = Audit(log.str());
  ASSERT_EQ(test::CountId(r, CheckId::kCardNotHeld), 1) << test::Dump(r);
  EXPECT_NE(test::MessageOf(r, CheckId::kCardNotHeld).find("plays 9S 500 times but holds"),
            std::string::npos)
      << test::Dump(r);
  for (const test::Found& f : test::Findings(r)) {
    if (f.second == CheckId::kCardNotHeld) {
      EXPECT_EQ(f.first, bad);
    }
  }
}

// A deal holding 200 copies of one card is one deal-pack finding for that
// card with the count, not one per copy (000 §1).
TEST(Recovery, ADealWithTooManyCopiesIsOneFindingPerCard) {
  Log big;
  std::string hands = "[";
  for (int i = 0; i < 200; ++i) hands += std::string(i ? "," : "") + "\"9S\"";
  hands += "]";
  const int line = big.Raw(R"({"type":"deal","hand":1,"dealer":0,"hands":[)" + hands +
                           R"(,[],[],[]],"upcard":["7C"]})");
  FileReport r = Audit(big.str());
  ASSERT_EQ(test::CountId(r, CheckId::kDealPack), 1) << test::Dump(r);
  EXPECT_NE(test::MessageOf(r, CheckId::kDealPack).find("198 copies too many in all"),
            std::string::npos)
      << test::Dump(r);
  for (const test::Found& f : test::Findings(r)) {
    if (f.second == CheckId::kDealPack) {
      EXPECT_EQ(f.first, line);
    }
  }
}

TEST(Recovery, BadPlayerIndexIsOneFinding) {
  Log log;
  log.Deal(DealSpec{});
  const int bad = log.Raw(R"({"type":"draw","player":-1,"cards":["5S"]})");
  log.Draw(1);
  log.Discard(1, "KH");
  FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {bad, CheckId::kLogBadEvent});
}

// A deal where seat 1 (Bob, first to play) is dealt no card; its line.
int DealSeatOneNothing(Log* log) {
  DealSpec d;
  d.pad = false;
  d.hands = {{"4S", "4H", "4D", "4C", "5S", "5H", "5D", "5C", "6S", "6H", "6D"},
             {},
             {"7S", "7H", "7D", "7C", "8S", "8H", "8D", "8C", "9S", "9H", "9D"},
             {"TS", "TH", "TD", "TC", "JS", "JH", "JD", "JC", "QS", "QH", "QD"}};
  return log->Deal(d);
}

// A player dealt no card at all, who discards first: the engine cannot know
// that hand (its deal is already reported).
TEST(Recovery, PlayerWithAnEmptyHandKeepsPlaying) {
  Log log;
  const int deal = DealSeatOneNothing(&log);
  const int empty = log.Raw(R"({"type":"discard","player":1,"card":"KS"})");
  log.Raw(R"({"type":"meld","player":1,"melds":[{"cards":["KS","KH","KD"]}]})");
  FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {deal, CheckId::kDealHandSize}, {empty, CheckId::kCardNotHeld});
  EXPECT_NE(test::MessageOf(r, CheckId::kCardNotHeld).find("has no card left"), std::string::npos);
}

// A seat dealt no card plays one: one finding for each kind of move that
// needs a card of its own (a discard, a meld, a red three laid out, a pile
// taken with cards shown), worded the same way, and nothing more.
TEST(Recovery, EveryMoveOfASeatWithNoCardLeftIsOneFinding) {
  const char* const moves[] = {
      R"({"type":"discard","player":1,"card":"KS"})",
      R"({"type":"meld","player":1,"melds":[{"cards":["KS","KH","KD"]}]})",
      R"({"type":"three","player":1,"card":"3H"})",
      R"({"type":"take_pile","player":1,"top":"8C","with":["8S","8H"]})",
  };
  for (const char* move : moves) {
    Log log;
    const int deal = DealSeatOneNothing(&log);
    const int played = log.Raw(move);
    FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {deal, CheckId::kDealHandSize}, {played, CheckId::kCardNotHeld}) << move;
    EXPECT_EQ(test::MessageOf(r, CheckId::kCardNotHeld),
              "seat 1 (Bob) has no card left, yet plays one")
        << move;
  }
}

// A line that did not parse may have been the end_hand: no "no end_hand"
// warning at the next deal, whose hand is replayed.
TEST(Recovery, UnreadLineBeforeTheNextDeal) {
  Log log;
  PlayQuickOut(log, 1, 0);
  const int bad = log.Raw(R"({"type":"end_hand","hand":1,)");
  DealSpec d;
  d.hand = 2;
  d.dealer = 1;
  log.Deal(d);
  const int wrong = log.Draw(0);
  EXPECT_FINDINGS(Audit(log.str()), {bad, CheckId::kLogBadJson}, {wrong, CheckId::kTurnOrder},
                  {wrong, CheckId::kLogIncomplete}, {wrong, CheckId::kLogIncomplete});
}

// Legal play that merely surprises, and an illegal move that can be made,
// are replayed: the next mistake of the same hand is still found.
TEST(Recovery, AnIllegalMoveThatCanBeMadeIsNoResyncPoint) {
  Log log;
  log.Deal(DealSpec{});
  const int out_of_turn = log.Draw(2);  // seat 1's turn
  const int not_held = log.Discard(2, "KS");
  FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {out_of_turn, CheckId::kTurnOrder}, {not_held, CheckId::kCardNotHeld});
}

#ifdef CANASTA_SOURCE_DIR
// readings R118: a move whose seat number was written wrong. A shipped
// sample with one line given to another seat: one finding, the move
// replayed as the right seat's, and the game's end as recorded.
TEST(Recovery, AMoveGivenToTheWrongSeatIsOneFinding_R118) {
  struct Case {
    const char* sample;
    int line;
    int seat;
    CheckId id;
    const char* note;
  };
  const Case cases[] = {
      // the seat in turn holds the cards, the named seat does not
      {"classic", 4, 0, CheckId::kTurnOrder, "holds the cards played and seat 0 (Ann) does not"},
      // a discard after the seat in turn drew (the named seat holds the card too)
      {"classic", 6, 3, CheckId::kTurnOrder, "has drawn and holds the cards played"},
      {"classic", 7, 0, CheckId::kTurnOrder, "the move is replayed as seat 2's"},  // a red three
      // a take onto a meld only the seat in turn's side has
      {"classic", 231, 1, CheckId::kTurnOrder, "the move breaks no rule for seat 2 (Cat)"},
      // a draw, and a take onto the side's meld by the partner: the next
      // move shows whose they were
      {"classic", 554, 2, CheckId::kTurnOrder,
       "the next move (line 555) is seat 3 (Dan)'s, which holds its cards: the draw is "
       "replayed as seat 3's"},
      {"classic", 56, 3, CheckId::kTurnOrder,
       "the next move (line 57) is seat 1 (Bob)'s, which holds its cards: the take is "
       "replayed as seat 1's"},
      // a dealt red three that one seat alone holds
      {"hutto", 343, 1, CheckId::kCardNotHeld, "seat 2 (Cat) alone holds it"},
      // a dealt red three that two other seats hold, the next line the other's
      {"hutto", 3, 3, CheckId::kCardNotHeld,
       "seat 2 (Cat) and seat 0 (Ann) hold it, and line 4 lays out seat 0 (Ann)'s: the move is "
       "replayed as seat 2's"},
      // bonus cards drawn by a seat none are due to (001 L37)
      {"modern-american", 576, 1, CheckId::kDrawCount, "seat 2 (Cat) has 4 bonus card(s) due"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.sample) + " line " + std::to_string(c.line));
    const std::string sample =
        ReadFile(std::string(CANASTA_SOURCE_DIR) + "/samples/" + c.sample + "/game.jsonl");
    AuditOptions options;
    options.resolve = ResolveRuleset;  // the sample's header names its ruleset
    std::istringstream clean_in(sample);
    const FileReport clean = AuditStream(clean_in, "game.jsonl", options);
    ASSERT_EQ(test::Findings(clean), test::FoundList{}) << test::Dump(clean);
    std::istringstream in(sample);
    std::string log, line;
    for (int n = 1; std::getline(in, line); ++n) {
      if (n == c.line) {
        const size_t at = line.find("\"player\":");
        ASSERT_NE(at, std::string::npos);
        ASSERT_NE(line[at + 9], char('0' + c.seat));
        line[at + 9] = char('0' + c.seat);
      }
      log += line + "\n";
    }
    std::istringstream in_log(log);
    const FileReport r = AuditStream(in_log, "game.jsonl", options);
    EXPECT_FINDINGS(r, {c.line, c.id});
    EXPECT_TRUE(HasNote(r, c.id, c.note)) << test::Dump(r);
    ASSERT_EQ(r.games.size(), 1u);
    EXPECT_EQ(r.games[0].totals, clean.games[0].totals);
  }
}
// readings R118: the next move shows whose a draw was only when the seat in
// turn holds that move's cards. Classic line 554, seat 3's draw, written as
// seat 2's, and seat 3's discard after it (line 555) written as a QS that
// seat 3 does not hold, drawn or not: two slips, and the draw stays seat
// 2's as written (no note that seat 3 holds the cards).
TEST(Recovery, ADrawIsReseatedOnlyByANextMoveOfCardsTheSeatHolds_R118) {
  std::vector<std::string> lines = SampleLines("classic");
  ASSERT_EQ(lines[553], R"({"type":"draw","player":3,"cards":["6H"]})");
  lines[553] = R"({"type":"draw","player":2,"cards":["6H"]})";
  lines[554] = R"({"type":"discard","player":3,"card":"QS"})";
  const FileReport r = AuditUnderItsRuleset(lines);
  EXPECT_TRUE(test::HasFindingAt(r, 554, CheckId::kTurnOrder)) << test::Dump(r);
  EXPECT_TRUE(test::HasFindingAt(r, 555, CheckId::kCardNotHeld)) << test::Dump(r);
  EXPECT_FALSE(HasNote(r, CheckId::kTurnOrder, "readings R118")) << test::Dump(r);
}

// readings R118: a red three that two other seats hold, and the next line
// is not one of them laying it out: the log does not say whose it was, and
// the three stays as written.
TEST(Recovery, AThreeTwoOtherSeatsHoldStaysAsWrittenWithoutTheNextLine_R118) {
  std::vector<std::string> lines = SampleLines("hutto");
  ASSERT_EQ(lines[2], R"({"type":"three","player":2,"card":"3D","replacement":"QC"})");
  ASSERT_EQ(lines[3], R"({"type":"three","player":0,"card":"3D","replacement":"5H"})");
  lines[2] = R"({"type":"three","player":3,"card":"3D","replacement":"QC"})";
  lines.erase(lines.begin() + 3);
  const FileReport r = AuditUnderItsRuleset(lines);
  EXPECT_TRUE(test::HasId(r, CheckId::kCardNotHeld)) << test::Dump(r);
  for (const Finding& f : test::AllFindings(r))
    for (const std::string& note : f.notes)
      EXPECT_EQ(note.find("readings R118"), std::string::npos) << test::Dump(r);
}

// The end_game line copied into the middle of hand 1: the hand plays on
// after it, so it is one finding and the game is replayed to its real end.
TEST(Recovery, AnEndGameInTheMiddleOfAHandThatPlaysOnIsOutOfPlace) {
  std::vector<std::string> lines = ClassicSampleLines();
  ASSERT_NE(lines.back().find("\"end_game\""), std::string::npos);
  lines.insert(lines.begin() + 40, lines.back());  // line 41, in hand 1
  const FileReport r = Audit(Unlines(lines));
  EXPECT_FINDINGS(r, {41, CheckId::kLogOutOfPlace});
  EXPECT_EQ(test::MessageOf(r, CheckId::kLogOutOfPlace),
            "end_game in the middle of hand 1, whose play goes on at line 42");
  ASSERT_EQ(r.games.size(), 1u);
  EXPECT_EQ(r.games[0].totals, (std::vector<int>{6180, 3750}));
  EXPECT_TRUE(r.games[0].finished);
}

// readings R123: the sample's line 6 (seat 2 lays out its dealt 3D, replaced
// by 5H) left out. The draw of line 8, now 7, then comes one card on in the stock:
// one finding, the three laid out there, and hand 1's scores and the game's
// totals are the recorded ones (8 findings before: the kept three, its
// penalty and the scores).
TEST(Recovery, AThreeLineLeftOutIsLaidOutAtTheDraw_R123) {
  std::vector<std::string> lines = ClassicSampleLines();
  ASSERT_NE(lines[6].find(R"("type":"three","player":2,"card":"3D","replacement":"5H")"),
            std::string::npos);
  lines.erase(lines.begin() + 6);
  const FileReport r = Audit(Unlines(lines));
  EXPECT_FINDINGS(r, {7, CheckId::kStockMismatch});
  EXPECT_EQ(test::MessageOf(r, CheckId::kStockMismatch),
            "the card drawn is 7S but the stock's next card is 5H");
  EXPECT_TRUE(HasNote(r, CheckId::kStockMismatch,
                      "7S comes 1 card on, and seat 2 (Cat) holds a red three to lay out: a "
                      "`three` line left out before this line; laid out here: 3D replaced by 5H "
                      "(readings R123)"))
      << test::Dump(r);
  ASSERT_EQ(r.games.size(), 1u);
  EXPECT_EQ(r.games[0].totals, (std::vector<int>{6180, 3750}));
  EXPECT_TRUE(r.games[0].finished);
}
#endif

// R123's limits: two threes left out are laid out together; a seat that
// holds fewer red threes than the cards skipped, or that draws a card from
// before the stock's next, keeps the plain slip of R117.
TEST(Recovery, ThreesLeftOutOnlyWhenTheSeatHoldsThem_R123) {
  DealSpec d;
  d.hands = {{}, {"3H", "3D", "KS", "QS"}};
  d.stock = {"5H", "6C", "7S", "8D", "9C"};
  {
    Log log;
    log.Deal(d);
    const int draw = log.Draw(1, std::vector<std::string>{"7S"});  // 5H and 6C replaced the threes
    log.Discard(1, "7S");
    log.Draw(2, std::vector<std::string>{"8D"});
    const FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {draw, CheckId::kStockMismatch});
    EXPECT_TRUE(HasNote(r, CheckId::kStockMismatch,
                        "laid out here: 3H replaced by 5H, 3D replaced by 6C (readings R123)"))
        << test::Dump(r);
  }
  {
    Log log;
    log.Deal(d);
    const int draw = log.Draw(1, std::vector<std::string>{"8D"});  // three cards on, two threes
    log.Discard(1, "8D");
    log.Draw(2, std::vector<std::string>{"9C"});
    const FileReport r = Audit(log.str());
    EXPECT_EQ(test::Findings(r).front(), test::Found(draw, CheckId::kStockMismatch));
    EXPECT_FALSE(HasNote(r, CheckId::kStockMismatch, "R123")) << test::Dump(r);
    EXPECT_TRUE(HasNote(r, CheckId::kStockMismatch, "8D comes after 5H 6C 7S in the stock"))
        << test::Dump(r);
  }
  {  // the seat's next move lays a three out: the threes come after the
     // draw, which was a wrong card (R117), and nothing was left out
    Log log;
    log.Deal(d);
    const int draw = log.Draw(1, std::vector<std::string>{"7S"});  // 7S for 5H
    log.ThreeWith(1, "3H", "6C");
    log.ThreeWith(1, "3D", "7S");
    log.Discard(1, "KS");
    log.Draw(2, std::vector<std::string>{"8D"});
    const FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {draw, CheckId::kStockMismatch});
    EXPECT_FALSE(HasNote(r, CheckId::kStockMismatch, "R123")) << test::Dump(r);
  }
}

// R123 after the turn's draw: a red three drawn, its `three` line left out,
// then its replacement melded (card-not-held, one finding); and a second
// three's replacement taken one card on, when the first three's line is
// left out (stock-mismatch, one finding). Each three is laid out there, so
// nothing is kept to the turn's end.
TEST(Recovery, ThreesLeftOutAfterTheDraw_R123) {
  DealSpec d;
  d.hands = {{}, {"AS", "AH", "JK", "QS"}};
  {  // 3H drawn, its line (replaced by AD) left out, AD melded
    d.stock = {"3H", "AD", "9C"};
    Log log;
    log.Deal(d);
    log.Draw(1, std::vector<std::string>{"3H"});
    const int meld = log.Meld(1, {{"AS", "AH", "AD", "JK"}});
    log.Discard(1, "QS");
    log.Draw(2, std::vector<std::string>{"9C"});
    const FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {meld, CheckId::kCardNotHeld});
    EXPECT_EQ(test::MessageOf(r, CheckId::kCardNotHeld),
              "seat 1 (Bob) plays AD, which it does not hold: the stock's next card");
    EXPECT_TRUE(HasNote(r, CheckId::kCardNotHeld,
                        "seat 1 (Bob) holds a red three to lay out: a `three` line left out "
                        "before this line; laid out here: 3H replaced by AD (readings R123)"))
        << test::Dump(r);
  }
  {  // the three's line written after the meld: the three was laid out for
     // the meld, and its late line is not replayed
    d.stock = {"3H", "AD", "9C"};
    Log log;
    log.Deal(d);
    log.Draw(1, std::vector<std::string>{"3H"});
    const int meld = log.Meld(1, {{"AS", "AH", "AD", "JK"}});
    const int late = log.ThreeWith(1, "3H", "AD");
    log.Discard(1, "QS");
    log.Draw(2, std::vector<std::string>{"9C"});
    const FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {meld, CheckId::kCardNotHeld});
    EXPECT_TRUE(HasNote(
        r, CheckId::kCardNotHeld,
        "the `three` line of 3H comes late, at line " + std::to_string(late) + ": not replayed"))
        << test::Dump(r);
  }
  {  // the same, but the card lacking is not the stock's next: no inference
    d.stock = {"3H", "AD", "9C"};
    Log log;
    log.Deal(d);
    log.Draw(1, std::vector<std::string>{"3H"});
    const int meld = log.Meld(1, {{"AS", "AH", "AC", "JK"}});
    const FileReport r = Audit(log.str());
    EXPECT_EQ(test::Findings(r).front(), test::Found(meld, CheckId::kCardNotHeld));
    EXPECT_EQ(test::MessageOf(r, CheckId::kCardNotHeld), "seat 1 plays AC but holds none");
    EXPECT_FALSE(HasNote(r, CheckId::kCardNotHeld, "R123")) << test::Dump(r);
  }
  {  // 3H drawn, its line (replaced by AD) left out, the turn ended keeping
     // it: the next seat's draw comes one card on
    d.stock = {"3H", "AD", "9C", "8D"};
    Log log;
    log.Deal(d);
    log.Draw(1, std::vector<std::string>{"3H"});
    const int discard = log.Discard(1, "QS");
    const int next = log.Draw(2, std::vector<std::string>{"9C"});
    log.Discard(2, "9C");
    log.Draw(3, std::vector<std::string>{"8D"});
    const FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {next, CheckId::kStockMismatch});
    EXPECT_EQ(test::MessageOf(r, CheckId::kStockMismatch),
              "the card drawn is 9C but the stock's next card is AD");
    EXPECT_TRUE(HasNote(r, CheckId::kStockMismatch,
                        "9C comes 1 card on, and seat 1 (Bob) ended its turn at line " +
                            std::to_string(discard) +
                            " keeping a red three to lay out: a `three` line left out before "
                            "that line; laid out there: 3H replaced by AD (readings R123)"))
        << test::Dump(r);
  }
  {  // the same turn, and the next draw is the stock's next card: the three
     // was kept, one three-timing finding
    d.stock = {"3H", "AD", "9C"};
    Log log;
    log.Deal(d);
    log.Draw(1, std::vector<std::string>{"3H"});
    const int discard = log.Discard(1, "QS");
    log.Draw(2, std::vector<std::string>{"AD"});
    const FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {discard, CheckId::kThreeTiming});
  }
  {  // 3H drawn, its line (replaced by 3D) left out; 3D laid out, replaced
     // by AD one card on
    d.stock = {"3H", "3D", "AD", "9C"};
    Log log;
    log.Deal(d);
    log.Draw(1, std::vector<std::string>{"3H"});
    const int second = log.ThreeWith(1, "3D", "AD");
    log.Meld(1, {{"AS", "AH", "AD", "JK"}});
    log.Discard(1, "QS");
    log.Draw(2, std::vector<std::string>{"9C"});
    const FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {second, CheckId::kStockMismatch});
    EXPECT_EQ(test::MessageOf(r, CheckId::kStockMismatch),
              "the replacement drawn is AD but the stock's next card is 3D");
  }
}

// A jaques deal with `hands` and the stock QC 5H 7S, before play: seat 0
// lays out its 3D replaced by 5H (at line *three, one card on), then seat 1
// draws 7S.
FileReport AuditThreeOneCardOnBeforePlay(std::vector<std::vector<std::string>> hands, int* three) {
  DealSpec d;
  d.hands = std::move(hands);
  d.stock = {"QC", "5H", "7S"};
  RulesetChoice choice;
  std::string error;
  EXPECT_TRUE(ResolveUserRuleset("jaques", &choice, &error)) << error;
  d.hand_size = choice.rules.hand_size;
  Log jaques(4, /*header=*/false);
  jaques.Raw(
      R"({"type":"game","format":"canasta-log/1","ruleset":"jaques","players":["A","B","C","D"]})");
  jaques.Deal(d);
  *three = jaques.ThreeWith(0, "3D", "5H");
  jaques.Draw(1, std::vector<std::string>{"7S"});
  std::istringstream in(jaques.str());
  return AuditStream(in, "test.jsonl", test::UnderRuleset(choice));
}

// R123 before the first turn, where each seat lays out its own threes (R23):
// a seat's three replaced one card on is another seat's three left out,
// when that seat alone holds one (seat 2's 3H replaced by QC).
TEST(Recovery, AnotherSeatsThreeLeftOutBeforeTheFirstTurn_R123) {
  int three = 0;
  const FileReport r = AuditThreeOneCardOnBeforePlay({{"3D"}, {}, {"3H"}}, &three);
  EXPECT_PROBLEMS(r, {three, CheckId::kStockMismatch});
  EXPECT_TRUE(HasNote(r, CheckId::kStockMismatch,
                      "5H comes 1 card on, and seat 2 (C) holds a red three to lay out: a `three` "
                      "line left out before this line; laid out here: 3H replaced by QC "
                      "(readings R123)"))
      << test::Dump(r);
}

// R123's limit before play: two other seats hold a three the card skipped
// may have replaced, and no line after tells which: nothing is laid out,
// the three is judged as written.
TEST(Recovery, AThreeTwoSeatsCouldHaveLaidOutIsJudgedAsWritten_R123) {
  int three = 0;
  const FileReport r = AuditThreeOneCardOnBeforePlay({{"3D"}, {"3H"}, {"3H"}}, &three);
  EXPECT_EQ(test::MessageOf(r, CheckId::kStockMismatch),
            "the card drawn is 5H but the stock's next card is QC");
  EXPECT_FALSE(HasNote(r, CheckId::kStockMismatch, "R123")) << test::Dump(r);
  EXPECT_PROBLEMS(r, {three, CheckId::kStockMismatch});
}

#ifdef CANASTA_SOURCE_DIR
// The first deal line written twice: one finding, the copy ignored, and the
// game replayed to its recorded end.
TEST(Recovery, TheSameDealWrittenTwiceIsOneFinding) {
  std::vector<std::string> lines = ClassicSampleLines();
  lines.insert(lines.begin() + 2, lines[1]);  // line 3 repeats line 2
  const FileReport r = Audit(Unlines(lines));
  EXPECT_FINDINGS(r, {3, CheckId::kLogOutOfPlace});
  EXPECT_EQ(test::MessageOf(r, CheckId::kLogOutOfPlace),
            "hand 1 was dealt at line 2, and the same deal is written again before any move");
  ASSERT_EQ(r.games.size(), 1u);
  EXPECT_EQ(r.games[0].totals, (std::vector<int>{6180, 3750}));
}

// readings R120: hand 1's end_hand written before its last move (the going
// out). The hand ends early: one finding, its recorded scores taken as true
// (the scores as it stands are a note), and the move after it out of place;
// every later total agrees.
TEST(Recovery, AHandEndedEarlyTakesItsRecordedScores_R120) {
  std::vector<std::string> lines = ClassicSampleLines();
  ASSERT_NE(lines[76].find("\"end_hand\""), std::string::npos);
  // The last discard (line 76) left out: the end_hand at line 76 comes with
  // seat 3 still holding a card. (Written after the end_hand, it is R135.)
  lines.erase(lines.begin() + 75);
  const FileReport r = Audit(Unlines(lines));
  EXPECT_FINDINGS(r, {76, CheckId::kHandEndedEarly});
  EXPECT_TRUE(HasNote(r, CheckId::kHandEndedEarly,
                      "scores as the hand stands [185, 865]; its recorded scores [185, 975] are "
                      "taken as true"))
      << test::Dump(r);
  ASSERT_EQ(r.games.size(), 1u);
  EXPECT_EQ(r.games[0].totals, (std::vector<int>{6180, 3750}));
}
#endif

// readings R124: seat 2 is dealt a twelfth card (JC) the recorder never
// counted. The replay's hand departs from the log's at the deal, so the
// hand's scores differ from the recorded ones: that is the deal's one
// finding, whose note gives the scores as replayed, and the recorded ones
// stand (the totals go on from them).
TEST(Recovery, ScoresAfterTheReplayDepartedAreTheRecordedOnes_R124) {
  for (const bool scored_as_replayed : {false, true}) {
    Log log;
    DealSpec d;
    d.hands.resize(4);
    d.hands[1] = {"KS", "KS", "KH", "KH", "KD", "KD", "KC", "QS", "QS", "QH", "QH"};
    d.hands[2] = {"JC", "4S", "4H", "4D", "4C", "5S", "5H", "5D", "5C", "6S", "6H", "6D"};
    d.stock = {"9D"};
    const int deal = log.Deal(d);
    log.Draw(1);
    log.Meld(1, {{"KS", "KS", "KH", "KH", "KD", "KD", "KC"}, {"QS", "QS", "QH", "QH"}});
    log.Discard(1, "9D");
    const std::vector<int> replayed = QuickOutScores(log, 0);  // JC counts -10 for side 0
    const std::vector<int> recorded =
        scored_as_replayed ? replayed : std::vector<int>{replayed[0] + 10, replayed[1]};
    log.EndHand(1, ScoresAndTotals(recorded, recorded));
    const FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {deal, CheckId::kDealHandSize});
    EXPECT_EQ(
        HasNote(r, CheckId::kDealHandSize,
                "the replay departs from the log here: hand 1 ends with scores [" +
                    std::to_string(replayed[0]) + ", " + std::to_string(replayed[1]) +
                    "] as replayed; its recorded scores [" + std::to_string(recorded[0]) + ", " +
                    std::to_string(recorded[1]) + "] are taken as true (readings R124)"),
        !scored_as_replayed)
        << test::Dump(r);
    ASSERT_EQ(test::OnlyGame(r).hands.size(), 1u);
    EXPECT_EQ(test::OnlyGame(r).hands[0].scores, recorded);
    EXPECT_EQ(test::OnlyGame(r).hands[0].complete, scored_as_replayed);
  }
}

// readings R124: seat 3's discard of 3S (line 26) left out. Seat 3 keeps a
// card the log's seat 3 no longer holds, so when it goes out (line 75) the
// replay has it holding one: the hand ends with nobody out as replayed.
// That early end is the departure's consequence: a note of the
// `discard-missing` finding, not a finding of its own, and every total as
// recorded.
TEST(Recovery, AHandEndedEarlyAfterTheReplayDepartedIsANoteOfTheDeparture_R124) {
  std::vector<std::string> lines =
      LeftOut(ClassicSampleLines(), 25, R"({"type":"discard","player":3,"card":"3S"})");
  const FileReport r = Audit(Unlines(lines));
  ExpectOneFinding(r, 26, CheckId::kDiscardMissing,
                   "line 76: as replayed, the deal ends with nobody out and 37 cards still in "
                   "the stock; the replay's hands are not the log's since this finding");
  EXPECT_TRUE(HasNote(r, CheckId::kDiscardMissing, "the replay departs from the log here"));
}

// Seat 0's meld of 2D onto its tens (line 16) left out: nothing in the hand
// shows it, and the hand's score is the only trace. One `score-hand`
// finding, whose note points at the cause (the record moves 20 points from
// the cards left in hand to the melded ones); every later total and the
// final totals carry it (readings R133).
TEST(Recovery, AMeldLineLeftOutIsOneScoreFindingThatNamesTheCause) {
  std::vector<std::string> lines =
      LeftOut(ClassicSampleLines(), 15,
              R"({"type":"meld","player":0,"melds":[{"to":"T","cards":["2D"]}]})");
  const FileReport r = Audit(Unlines(lines));
  EXPECT_FINDINGS(r, {76, CheckId::kScoreHand});
  EXPECT_TRUE(HasNote(r, CheckId::kScoreHand,
                      "the record counts 20 points more melded and 20 fewer left in hand than the "
                      "replay: cards the replay has in a hand of side 0 (Ann and Cat) were melded "
                      "as recorded (a meld line left out of the log?)"))
      << test::Dump(r);
  EXPECT_TRUE(HasNote(r, CheckId::kScoreHand,
                      "the final totals [6180, 3750] (line 596) carry it: the true final totals "
                      "are [6140, 3750]"))
      << test::Dump(r);

  // The same in the modern-american sample (seat 0's meld at line 133): the
  // recorded totals end the game at 8,555, the true ones (8,475) do not. The
  // early end carries the slip as well: a note, not a game-end finding.
  std::vector<std::string> ma = SampleLines("modern-american");
  ASSERT_EQ(ma[132].rfind(R"({"type":"meld","player":0,)", 0), 0u);
  ma.erase(ma.begin() + 132);
  const FileReport m = AuditUnderItsRuleset(ma);
  EXPECT_FINDINGS(m, {230, CheckId::kScoreHand});
  EXPECT_TRUE(HasNote(m, CheckId::kScoreHand,
                      "the game ends at line 656 as the recorded totals [8555, 5820] reach 8500; "
                      "the true totals [8475, 5820] do not, so another deal was due"))
      << test::Dump(m);
}

// R124 is for a replay that departed from the log: after a move that breaks
// a rule but is played as recorded (a meld of one natural and two wild
// cards), the hand's state is the log's, and a score that differs is a
// finding of its own.
TEST(Recovery, AScoreSlipAfterARuleBrokenAsRecordedIsStillFound_R124) {
  int meld = 0, end = 0;
  auto build = [&](const std::vector<int>& recorded) {
    Log log;
    DealSpec d;
    d.hands.resize(4);
    d.hands[1] = {"KS", "KS", "KH", "KH", "KD", "KD", "KC", "KC", "QS", "2H", "JK"};
    d.stock = {"9D"};
    log.Deal(d);
    log.Draw(1);
    meld = log.Meld(1, {{"KS", "KS", "KH", "KH", "KD", "KD", "KC", "KC"}, {"QS", "2H", "JK"}});
    log.Discard(1, "9D");
    end = log.EndHand(1, ScoresAndTotals(recorded, recorded));
    return log.str();
  };
  const std::vector<int> computed = test::OnlyGame(Audit(build({0, 0}))).hands.at(0).scores;
  const std::vector<int> slip = {computed[0], computed[1] + 5};
  const FileReport r = Audit(build(slip));
  EXPECT_PROBLEMS(r, {meld, CheckId::kMeldTooFewNaturals}, {end, CheckId::kScoreHand});
  EXPECT_EQ(test::OnlyGame(r).hands.at(0).scores, computed);
}

#ifdef CANASTA_SOURCE_DIR
// readings R121: seat 3's draw (line 350) and discard (line 351) written in
// the wrong order. The discard would end the turn (and, its last card gone,
// the hand) before any draw; the draw after it shows the swap. One finding,
// the draw replayed first, and every total as recorded. The same for a take.
TEST(Recovery, ADrawOrTakeWrittenAfterItsDiscardIsReplayedFirst_R121) {
  std::vector<std::string> lines = ClassicSampleLines();
  ASSERT_EQ(lines[349], R"({"type":"draw","player":3,"cards":["2D"]})");
  ASSERT_EQ(lines[350], R"({"type":"discard","player":3,"card":"2S"})");
  std::swap(lines[349], lines[350]);
  const FileReport r = Audit(Unlines(lines));
  ExpectOneFinding(r, 350, CheckId::kTurnSequence,
                   "its draw comes after this line, at line 351: the two lines are written in "
                   "the wrong order, and are replayed draw first (readings R121)");
  EXPECT_TRUE(!r.games.empty() && r.games[0].finished);

  // The same for a take: seat 1 takes the pile (QS onto its queens, line
  // 108) and discards 3C (line 109).
  std::vector<std::string> take = ClassicSampleLines();
  ASSERT_EQ(take[107], R"({"type":"take_pile","player":1,"top":"QS","to":"Q"})");
  ASSERT_EQ(take[108], R"({"type":"discard","player":1,"card":"3C"})");
  std::swap(take[107], take[108]);
  const FileReport t = Audit(Unlines(take));
  ExpectOneFinding(t, 108, CheckId::kTurnSequence,
                   "its take of the pile comes after this line, at line 109: the two lines "
                   "are written in the wrong order, and are replayed take first (readings "
                   "R121)");
}

// readings R132: seat 0's meld (2D onto its tens, line 16) written after
// the discard that ended its turn (QH, line 17). Judged as written, the meld
// would be out of turn and begin a turn of seat 0's that ends without a
// discard. One finding, the meld laid as part of the turn just ended, and
// every total as recorded.
TEST(Recovery, AMeldWrittenAfterItsTurnsDiscardIsOneFinding_R132) {
  std::vector<std::string> lines = ClassicSampleLines();
  ASSERT_EQ(lines[15], R"({"type":"meld","player":0,"melds":[{"to":"T","cards":["2D"]}]})");
  ASSERT_EQ(lines[16], R"({"type":"discard","player":0,"card":"QH"})");
  std::swap(lines[15], lines[16]);
  ExpectOneFinding(Audit(Unlines(lines)), 17, CheckId::kTurnSequence,
                   "a turn melds before it discards: the meld is replayed as made before that "
                   "discard (readings R132)");

  // A discard with a fault of its own (face down, and not going out): two
  // findings, one for each slip.
  lines[15] = R"({"type":"discard","player":0,"card":"QH","face_down":true})";
  const FileReport both = Audit(Unlines(lines));
  EXPECT_FINDINGS(both, {16, CheckId::kDiscardFaceDown}, {17, CheckId::kTurnSequence});

  // Two melds after the same discard (8H, then 2D onto seat 0's eights,
  // lines 28-29, before the discard of line 30): still one finding, the
  // second a note of it.
  std::vector<std::string> two = ClassicSampleLines();
  ASSERT_EQ(two[27], R"({"type":"meld","player":0,"melds":[{"to":"8","cards":["8H"]}]})");
  ASSERT_EQ(two[28], R"({"type":"meld","player":0,"melds":[{"to":"8","cards":["2D"]}]})");
  ASSERT_EQ(two[29].rfind(R"({"type":"discard","player":0,)", 0), 0u);
  std::rotate(two.begin() + 27, two.begin() + 29, two.begin() + 30);
  const FileReport r = Audit(Unlines(two));
  ExpectOneFinding(r, 29, CheckId::kTurnSequence, "(readings R132)");
  EXPECT_NE(r.games[0].findings[0].message.find("after their discard at line 28"),
            std::string::npos);
  EXPECT_TRUE(HasNote(r, CheckId::kTurnSequence,
                      "line 30: another meld after that discard, replayed before it too"));

  // readings R141: the side's initial meld written after the discard
  // (seat 1's nines, lines 4-5, before its discard at line 6) is that
  // turn's initial meld, judged as its end would judge it (50 + 20 meet the
  // minimum of 50): one finding.
  std::vector<std::string> opening = ClassicSampleLines();
  ASSERT_EQ(opening[5].rfind(R"({"type":"discard","player":1,)", 0), 0u);
  std::rotate(opening.begin() + 3, opening.begin() + 5, opening.begin() + 6);
  const FileReport o = Audit(Unlines(opening));
  ExpectOneFinding(o, 5, CheckId::kTurnSequence,
                   "line 6: another meld after that discard, replayed before it too");
  // Short: seat 1's nines alone written after the discard, without the
  // wild card (30): the initial meld is short, a finding of its own.
  opening[4] = R"({"type":"meld","player":1,"melds":[{"cards":["9S","9S","9D"]}]})";
  opening.erase(opening.begin() + 5);
  const FileReport s = Audit(Unlines(opening));
  EXPECT_TRUE(HasNote(s, CheckId::kTurnSequence, "readings R132")) << test::Dump(s);
  EXPECT_EQ(test::MessageOf(s, CheckId::kInitialMeldMinimum),
            "the initial meld counts 30; the side needs 50");
}

// readings R121: seat 0's take of the pile (line 579 of the classic sample)
// left out, or written after the red three the pile brings (3H, laid out
// with no replacement at line 580): the three, before the turn's draw,
// lays out a card only the pile holds. The take is made up there, one
// finding, every total as recorded.
TEST(Recovery, ARedThreeFromThePileBeforeItsTakeShowsTheTake_R121) {
  const std::vector<std::string> good = ClassicSampleLines();
  const std::string take = R"({"type":"take_pile","player":0,"top":"4S","with":["4H","4C"]})";
  const std::string note =
      "the take of the pile (28 cards, 4S on top, with 4H 4C) was left out before this line: the "
      "three lays out 3H from the pile; made up here (readings R121)";
  ExpectOneFinding(Audit(Unlines(LeftOut(good, 578, take))), 579, CheckId::kTurnSequence, note);
  const FileReport swapped =
      Audit(Unlines(Swapped(good, 578, take, R"({"type":"three","player":0,"card":"3H"})")));
  ExpectOneFinding(swapped, 579, CheckId::kTurnSequence, note);
  EXPECT_TRUE(HasNote(swapped, CheckId::kTurnSequence, "the take comes late, at line 580"))
      << test::Dump(swapped);
}

// readings R137: a take of the pile onto a meld the side lacks shows a
// meld line left out, as an addition to it does. In the classic sample,
// seat 3's queens (line 86) left out: the side's opening judged at line 85
// is short, and seat 1's take onto the queens (line 107 then) is its note;
// seat 2's queens (line 234) left out: the take onto them (line 253 then)
// is the one finding, the meld too short that follows its note.
TEST(Recovery, ATakeOntoAMeldLeftOutShowsTheMeldLine_R137) {
  const std::vector<std::string> good = ClassicSampleLines();
  ExpectOneFinding(
      Audit(Unlines(
          LeftOut(good, 85, R"({"type":"meld","player":3,"melds":[{"cards":["QH","QD","QC"]}]})"))),
      85, CheckId::kInitialMeldMinimum,
      "line 107: as replayed, the side has no meld of Qs for the top card to join; the side's "
      "melds lack the meld line left out (readings R137)");
  const FileReport r = Audit(Unlines(LeftOut(
      good, 233, R"({"type":"meld","player":2,"melds":[{"cards":["QS","QS","QD","QC"]}]})")));
  ExpectOneFinding(r, 253, CheckId::kPileTakeInvalid,
                   "a meld line of the side was likely left out before this line");
  EXPECT_TRUE(HasNote(r, CheckId::kPileTakeInvalid,
                      "line 262: as replayed, the meld of Qs has 1 natural card(s)"))
      << test::Dump(r);
}

// R137 at the end of play: in the two-handed sample, seat 0's kings (line
// 412) left out. Its take onto the kings (line 447 then) is the one
// finding. With the stock gone, the last discard KC fits the kings as
// replayed (five fewer), and the pile was not taken; in the log the meld
// was a canasta, which the pile need not join (R12): a note.
TEST(Recovery, APileNotTakenOntoAMeldLeftOutAtTheStocksEndIsANote_R137) {
  const std::vector<std::string> good = SampleLines("two-handed");
  const std::string kings =
      R"({"type":"meld","player":0,"melds":[{"cards":["KS","KS","KH","KD","KC"]}]})";
  ExpectOneFindingOf(good, LeftOut(good, 411, kings), 447, CheckId::kPileTakeInvalid,
                     "line 464: as replayed, the stock is gone and the top discard KC fits the "
                     "side's meld, so seat 0 had to take the pile; the side's melds lack the meld "
                     "line left out, which may have made that meld a canasta (readings R137)");
}

// R137 shown by the scores alone: in the three-handed self-play game, seat
// 1's 8C added to its six 8s (line 567) left out. Nothing in the hand
// leans on it until play ends: with the stock gone, the top discard 8H fits
// the 8s as replayed (six, no canasta), and seat 1 did not take the pile.
// The hand's record counts the side the canasta and the 8 melded, which the
// replay has in seat 1's hand: the score's finding is the one finding, the
// pile not taken its note. With another slip that makes the hand's recorded
// scores stand (an unknown event), no score finding is left to carry it,
// and the pile not taken is reported as found.
TEST(Recovery, APileNotTakenWhereTheScoresShowAMeldLeftOutIsANoteOfTheScore_R137_R12) {
  const std::vector<std::string> left_out =
      LeftOut(ScenarioLines("selfplay_three_handed"), 566,
              R"({"type":"meld","player":1,"melds":[{"to":"8","cards":["8C"]}]})");
  const FileReport r = AuditUnderItsRuleset(left_out);
  EXPECT_FINDINGS(r, {642, CheckId::kScoreHand});
  EXPECT_EQ(test::MessageOf(r, CheckId::kScoreHand),
            "seat 1 (Bob) scores 1370 for hand 5, not 1690");
  EXPECT_TRUE(HasNote(r, CheckId::kScoreHand,
                      "line 642: as replayed, the stock is gone and the top discard 8H fits the "
                      "side's meld, so seat 1 had to take the pile; the record melds a card of "
                      "that rank the replay still has in a hand of the side: the meld line left "
                      "out may have made that meld a canasta, which the pile need not join "
                      "(readings R137, R12)"))
      << test::Dump(r);

  std::vector<std::string> two_slips = left_out;
  two_slips.insert(two_slips.begin() + 600, R"({"type":"chat","text":"x"})");
  const FileReport both = AuditUnderItsRuleset(two_slips);
  EXPECT_FINDINGS(both, {601, CheckId::kLogUnknownEvent}, {643, CheckId::kStockOutMustTake});
}

// readings R121, in the jaques sample: seat 0's draw of 8D (line 314) left
// out before its discard of another card; seat 1 then draws the second 8D,
// next in the stock after the first. Taken as the stock's next, the turn
// would have taken the pile, which no legal take could; the second copy, a
// whole draw on, shows the draw. One finding, every total as recorded.
TEST(Recovery, ADrawLeftOutBeforeTheNextSeatDrawsASecondCopyIsMadeUp_R121) {
  const std::vector<std::string> good = SampleLines("jaques");
  ExpectOneFindingOf(good, LeftOut(good, 313, R"({"type":"draw","player":0,"cards":["8D"]})"), 314,
                     CheckId::kTurnSequence,
                     "the draw of 8D, the stock's next, was left out before this line: the draw "
                     "of line 315 comes after it; made up here (readings R121)");

  // Where a take of the pile can be made up, the stock's next card drawn
  // next shows the take, a second copy after it or not: seat 1 holds a
  // pair of aces for the AC on the pile, only discards, and seat 2 draws
  // the first of two 6D.
  DealSpec d;
  d.hands = {{}, {"AS", "AH", "5S"}};
  d.upcard = {"AC"};
  d.stock = {"6D", "6D"};
  Log log;
  log.Deal(d);
  const int discard = log.Discard(1, "5S");
  log.Draw(2);
  const FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {discard, CheckId::kTurnSequence});
  EXPECT_TRUE(HasNote(r, CheckId::kTurnSequence, "the take of the pile (1 cards, AC on top"))
      << test::Dump(r);
  EXPECT_FALSE(HasNote(r, CheckId::kTurnSequence, "the draw of 6D")) << test::Dump(r);
}

// A discard left out in the three-handed sample, one finding each, every
// total as recorded:
// - readings R124: the hand's last discard (seat 0's 3S, line 256, after
//   the stock's last card): the card stays in the seat's hand as replayed,
//   so the hand's score differs by it; the recorded scores are taken;
// - readings R130: seat 1's 9D (line 189), where the pile already shows a
//   9D on top: seat 2's take of it, and its play of the second 9D, show the
//   discard left out;
// - readings R146: seat 2's 3C (line 201): the pile as replayed holds one
//   card when seat 1 takes it at line 205 (then), which it may not with one
//   card in hand; it held the card left out too.
TEST(Recovery, ADiscardLeftOutIsOneFindingWhateverShowsIt_R124_R130_R146) {
  const std::vector<std::string> good = SampleLines("three-handed");
  ExpectOneFindingOf(good, LeftOut(good, 255, R"({"type":"discard","player":0,"card":"3S"})"), 256,
                     CheckId::kDiscardMissing,
                     "the replay departs from the log here: hand 2 ends with scores [1360, 270, "
                     "1590] as replayed; its recorded scores [1365, 270, 1590] are taken as true "
                     "(readings R124)");
  ExpectOneFindingOf(good, LeftOut(good, 188, R"({"type":"discard","player":1,"card":"9D"})"), 189,
                     CheckId::kDiscardMissing,
                     "line 190: seat 2 (Cat) plays 9D from the pile it took at line 189, a card "
                     "seat 1 (Bob) still held: the discard left out was 9D (readings R130)");
  ExpectOneFindingOf(good, LeftOut(good, 200, R"({"type":"discard","player":2,"card":"3C"})"), 201,
                     CheckId::kDiscardMissing,
                     "line 205: seat 1 holds one card and may not take a pile of one card: the "
                     "pile held the discard left out here too, so it held more than one card "
                     "(readings R146)");
}

// R146 holds for the first take after the discard left out only: that take
// took the card. Seat 2's discard left out; seat 0 then takes the pile
// (JC), and seat 1, down to one card, takes a pile of one card later: its
// own finding.
TEST(Recovery, APileOfOneCardTakenAfterTheFirstTakeIsItsOwnFinding_R146) {
  Log log = test::SeatOneDownToOneCard();
  log.Draw(2);                   // 9D; its discard left out
  const int draw = log.Draw(3);  // JC
  log.Discard(3, "JC");
  log.Take(0, "JC", {"JS", "JH"});
  log.Meld(0, {{"AS", "AH", "AD"}});
  log.Discard(0, "QC");
  const int take = log.TakeTo(1, "QC", "Q");
  const FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {draw, CheckId::kDiscardMissing}, {take, CheckId::kPileOneCard});
}

// readings R147: in the modern-american sample, seat 2's third opening
// meld (2S 2H 2D, line 35) written after its discard (line 36): without it
// the opening counts 90 of the 125 needed. One finding; the side opens at
// the discard and draws its bonus, and every total is as recorded.
TEST(Recovery, AnOpeningMeldWrittenAfterItsDiscardCompletesTheOpening_R147) {
  const std::vector<std::string> good = SampleLines("modern-american");
  ExpectOneFindingOf(
      good, Swapped(good, 34, R"({"type":"meld","player":2,)", R"({"type":"discard","player":2,)"),
      36, CheckId::kTurnSequence,
      "the meld is replayed as made before that discard, and completes the "
      "initial meld (readings R147)");
}

// R147 in classic (a minimum of 50): kings (30) laid, then the discard,
// then queens (30 more). Only a meld that makes the opening legal is read
// so: fives (15 more) leave it short, and a meld of cards the seat lacks
// is no meld of that turn; both are judged as written (R132).
TEST(Recovery, AnOpeningMeldAfterItsDiscardThatDoesNotCompleteItIsJudgedAsWritten_R147) {
  auto turn = [](const std::vector<std::string>& late_cards, int* late) {
    DealSpec d;
    d.hands = {{}, {"KS", "KH", "KD", "QS", "QH", "QD", "5S", "5H", "5D", "9C", "4C"}};
    d.stock = {"6C", "6D"};
    Log log;
    log.Deal(d);
    log.Draw(1);
    log.Meld(1, {{"KS", "KH", "KD"}});
    log.Discard(1, "9C");
    *late = log.Meld(1, {late_cards});
    log.Draw(2);
    return Audit(log.str());
  };
  int late = 0;
  const FileReport queens = turn({"QS", "QH", "QD"}, &late);
  EXPECT_PROBLEMS(queens, {late, CheckId::kTurnSequence});
  EXPECT_TRUE(HasNote(queens, CheckId::kTurnSequence, "(readings R147)")) << test::Dump(queens);

  const FileReport fives = turn({"5S", "5H", "5D"}, &late);
  EXPECT_FALSE(HasNote(fives, CheckId::kTurnSequence, "(readings R147)")) << test::Dump(fives);
  EXPECT_TRUE(test::HasId(fives, CheckId::kInitialMeldMinimum)) << test::Dump(fives);

  const FileReport jacks = turn({"JS", "JH", "JD"}, &late);
  EXPECT_FALSE(HasNote(jacks, CheckId::kTurnSequence, "(readings R147)")) << test::Dump(jacks);
  EXPECT_TRUE(test::HasId(jacks, CheckId::kInitialMeldMinimum)) << test::Dump(jacks);
}

// readings R153: in the modern-american sample, seat 2's last meld (8H,
// line 452) written after its going-out discard of 7D (line 453). As
// written, 7D goes on an empty pile while 8H, which may, is held (001 L46).
// One finding, on the meld; the seat goes out, and every total is as
// recorded. Two findings before: the discard's and the late meld's.
TEST(Recovery, AMeldWrittenAfterTheDiscardItMadeLegalIsOneFinding_R153) {
  const std::vector<std::string> good = SampleLines("modern-american");
  const std::vector<std::string> swapped =
      Swapped(good, 451, R"({"type":"meld","player":2,"melds":[{"to":"8","cards":["8H"]}]})",
              R"({"type":"discard","player":2,"card":"7D"})");
  ExpectOneFindingOf(good, swapped, 453, CheckId::kTurnSequence,
                     "as written, the discard breaks a rule (on an empty pile 7D may not be "
                     "discarded while seat 2 holds another card that may (8H)); a turn melds "
                     "before it discards: the meld is replayed as made before that discard, and "
                     "the discard is then legal (readings R153)");
  // A meld after which the discard is still refused (8H added to a meld of
  // 9s the side lacks) is no meld of that turn: the discard keeps its own
  // finding.
  std::vector<std::string> other = swapped;
  other[452] = R"({"type":"meld","player":2,"melds":[{"to":"9","cards":["8H"]}]})";
  const FileReport r = AuditUnderItsRuleset(other);
  EXPECT_TRUE(test::HasId(r, CheckId::kDiscardEmptyPile)) << test::Dump(r);
  EXPECT_FALSE(HasNote(r, CheckId::kTurnSequence, "(readings R153)")) << test::Dump(r);
}

// R153 with a wild card: in the jaques self-play game (seed 23), seat 2
// draws JK, adds 8H to its eights (line 90) and goes out with the joker
// (line 91). Written the other way round, the joker goes out of a hand
// that still holds 8H, which only a hand with no other card may do (002
// Play-8): one finding, on the meld. Two before (and a turn-order one).
TEST(Recovery, AMeldWrittenAfterTheWildDiscardItMadeLegalIsOneFinding_R153) {
  const std::vector<std::string> good = ScenarioLines("selfplay_jaques");
  ExpectOneFindingOf(
      good,
      Swapped(good, 89, R"({"type":"meld","player":2,"melds":[{"to":"8","cards":["8H"]}]})",
              R"({"type":"discard","player":2,"card":"JK"})"),
      91, CheckId::kTurnSequence,
      "as written, the discard breaks a rule (a wild card (JK) may not be discarded while the "
      "player holds other cards); a turn melds before it discards: the meld is replayed as made "
      "before that discard, and the discard is then legal (readings R153)");
}

// R153 and R135: a refused discard replayed as the hand's last move, after
// the end_hand written before it, waits for no later meld: the hand ends
// with it. In the modern-american self-play game, seat 3 draws the stock's
// last card and discards it (line 445); here that discard comes after the
// end_hand and is written as JK, a wild card, while seat 3 holds others
// (002 Play-8). Its own finding stays, at its line; kept waiting, it was
// lost, and the hand ended "without a discard".
TEST(Recovery, ARefusedDiscardAfterItsEndHandIsTheHandsLastMove_R135_R153) {
  std::vector<std::string> lines = ScenarioLines("selfplay_modern_american");
  ASSERT_EQ(lines[444], R"({"type":"discard","player":3,"card":"9H"})");
  ASSERT_EQ(lines[445].rfind(R"({"type":"end_hand","hand":4,)", 0), 0u) << lines[445];
  std::swap(lines[444], lines[445]);
  lines[445] = R"({"type":"discard","player":3,"card":"JK"})";
  const FileReport r = AuditUnderItsRuleset(lines);
  EXPECT_TRUE(test::HasFindingAt(r, 446, CheckId::kDiscardWild)) << test::Dump(r);
  EXPECT_TRUE(test::HasFindingAt(r, 445, CheckId::kLogOutOfPlace)) << test::Dump(r);
  EXPECT_EQ(test::CountId(r, CheckId::kDiscardMissing), 0) << test::Dump(r);
}

// readings R148: in the modern-american sample, seat 3's take of the pile
// (line 38) written before seat 2's bonus draw (line 37), which its initial
// meld earned at the discard before. One finding, the draw replayed first,
// every total as recorded. A bonus draw of other cards than the stock's
// next is no line written late: the take is judged as written.
TEST(Recovery, ATakeWrittenBeforeTheBonusDrawDueIsOneFinding_R148) {
  const std::vector<std::string> good = SampleLines("modern-american");
  std::vector<std::string> lines =
      Swapped(good, 36, R"({"type":"draw","player":2,)", R"({"type":"take_pile","player":3,)");
  ExpectOneFindingOf(good, lines, 37, CheckId::kLogOutOfPlace,
                     "the bonus cards are drawn before the next turn: the two lines are written "
                     "in the wrong order, and are replayed line 38 first (readings R148)");
  EXPECT_EQ(test::MessageOf(AuditUnderItsRuleset(lines), CheckId::kLogOutOfPlace),
            "seat 3 (Dan)'s take of the pile comes before seat 2 (Cat)'s bonus draw at line 38");

  ASSERT_EQ(lines[37], R"({"type":"draw","player":2,"cards":["AD","9C","3S"],"bonus":true})");
  lines[37] = R"({"type":"draw","player":2,"cards":["AD","3S","9C"],"bonus":true})";
  const FileReport other = AuditUnderItsRuleset(lines);
  EXPECT_FALSE(HasNote(other, CheckId::kLogOutOfPlace, "(readings R148)")) << test::Dump(other);
  EXPECT_TRUE(test::HasId(other, CheckId::kDrawCount)) << test::Dump(other);
}

// readings R134: hand 2's first draw (seat 2's 7S, line 79) written before
// its deal (line 78). Judged as written, the draw is outside a hand and the
// hand's state is lost from it. One finding, the draw replayed after the
// deal, and every total as recorded. A draw before a deal whose stock does
// not begin with its cards is no hand's first: it stays ignored.
TEST(Recovery, AHandsFirstDrawWrittenBeforeItsDealIsReplayedAfterIt_R134) {
  std::vector<std::string> lines = ClassicSampleLines();
  ASSERT_EQ(lines[77].rfind(R"({"type":"deal","hand":2,)", 0), 0u);
  ASSERT_EQ(lines[78], R"({"type":"draw","player":2,"cards":["7S"]})");
  std::swap(lines[77], lines[78]);
  ExpectOneFinding(Audit(Unlines(lines)), 78, CheckId::kLogOutOfPlace,
                   "the hand's deal comes next, at line 79: the two lines are written in the "
                   "wrong order, and the move is replayed after the deal (readings R134)");

  lines[77] = R"({"type":"draw","player":2,"cards":["AS"]})";  // not among the stock's first
  const FileReport r = Audit(Unlines(lines));
  EXPECT_TRUE(HasNote(r, CheckId::kLogOutOfPlace, "event ignored")) << test::Dump(r);
  EXPECT_FALSE(HasNote(r, CheckId::kLogOutOfPlace, "readings R134")) << test::Dump(r);
}

// readings R121 with R137: in the classic-001 and tutorial self-play games,
// seat 3's take of the pile (JC on top, with JC JK, line 12) left out. Its
// turn melds aces before any draw (turn-sequence); nothing there tells a
// draw from a take. The partner's JH onto the jacks (line 22) adds to a meld
// the side lacks: the take left out, whose top was a jack and whose seat
// held one, laid it. One finding, the turn's, and every total as recorded.
TEST(Recovery, ATakeLeftOutShownByALaterAdditionToTheMeldItLaidIsOneFinding_R121_R137) {
  for (const char* game : {"selfplay_classic_001", "selfplay_tutorial"}) {
    SCOPED_TRACE(game);
    const std::vector<std::string> good = ScenarioLines(game);
    ExpectOneFindingOf(
        good, LeftOut(good, 11, R"({"type":"take_pile","player":3,"top":"JC","with":["JC","JK"]})"),
        12, CheckId::kTurnSequence,
        "the take of the pile (JC on top) was likely left out of this turn: it laid the meld of "
        "Js that later lines add to; what its absence makes of the hand is noted here (readings "
        "R121, R137)");
    const FileReport r = AuditUnderItsRuleset(
        LeftOut(good, 11, R"({"type":"take_pile","player":3,"top":"JC","with":["JC","JK"]})"));
    EXPECT_TRUE(HasNote(r, CheckId::kTurnSequence,
                        "line 22: as replayed, the side has no meld of Js to add to; the side's "
                        "melds lack the meld line left out (readings R137)"))
        << test::Dump(r);
  }
}

// readings R134 for a take: the classic self-play game (seed 33) opens
// with seat 1 taking the upcard JH with JS JD (line 4), written before the
// deal. The take names the deal's upcard as its top and cards of its
// seat's dealt hand: one finding, the take replayed after the deal. Named
// with a card the seat was not dealt, it is no hand's first move.
TEST(Recovery, AHandsFirstTakeWrittenBeforeItsDealIsReplayedAfterIt_R134) {
  const std::vector<std::string> good = ScenarioLines("selfplay_classic");
  const std::string take = R"({"type":"take_pile","player":1,"top":"JH","with":["JS","JD"]})";
  std::vector<std::string> lines = Swapped(good, 2, R"({"type":"deal",)", take);
  ExpectOneFindingOf(good, lines, 3, CheckId::kLogOutOfPlace,
                     "the hand's deal comes next, at line 4: the two lines are written in the "
                     "wrong order, and the move is replayed after the deal (readings R134)");
  for (const char* other : {R"({"type":"take_pile","player":1,"top":"JH","with":["JS","AS"]})",
                            R"({"type":"take_pile","player":1,"top":"QH","with":["JS","JD"]})"}) {
    SCOPED_TRACE(other);
    lines[2] = other;
    const FileReport r = AuditUnderItsRuleset(lines);
    EXPECT_TRUE(HasNote(r, CheckId::kLogOutOfPlace, "event ignored")) << test::Dump(r);
    EXPECT_FALSE(HasNote(r, CheckId::kLogOutOfPlace, "readings R134")) << test::Dump(r);
  }
}

// readings R137 in samples/modern-american: one meld line left out, one
// finding, every total as recorded. Each case names the line left out, the
// one finding and a note it carries:
// - a meld of wild cards (2S 2C JK, line 9): the addition of a joker to the
//   wild meld the side lacks, its wild cards still held, shows it; the
//   initial meld judged short without it is its note;
// - an addition of 5S 5D to the 5s (line 449): seat 2's last card, 7D, then
//   goes onto the pile it emptied while it holds 5S 5D (SWAD, 001 L46), and
//   the hand ends with nobody out as replayed; the record counts the 5s
//   melded, so the discard's finding is the one, the rest its notes;
// - a part of seat 2's initial meld (JH JC JC, line 33; 2S 2H 2D, line 35):
//   the initial meld judged short, and at the hand's end the record has
//   those cards melded, not in hand, the side with no canasta: melded more
//   negative by as much as in_hand is less (001 L84), the hand's score right
//   or not, its note;
// - seat 2's 6S 6D 6C (line 404): seat 0's addition to the 6s shows it, and
//   seat 2's 7D later onto an empty pile while it holds the sixes is a note;
// - seat 2's 8S 8D 8C (line 475): the addition to the 8s shows it, and seat
//   0's meld down to one card short of the canasta the 8s became is a note,
//   as is the going out that follows (R144);
// - seat 1's 5H 5D 5C onto the 5s (line 621): its 2S onto them is then
//   refused (five naturals first, 001 L25); the record has the 5s a canasta
//   and so the melded part for the side (001 L84), the replay has none and
//   the part against it: in size, 15 points more melded and 15 fewer in
//   hand, the score's finding a note.
TEST(Recovery, MeldLinesLeftOutAreOneFindingEach_R137) {
  struct Case {
    size_t index;  // of the line left out
    const char* line;
    int finding_line;
    CheckId id;
    const char* note;
  };
  const Case cases[] = {
      {8, R"({"type":"meld","player":3,"melds":[{"cards":["2S","2C","JK"]}]})", 10,
       CheckId::kMeldTargetMissing,
       "line 11: as replayed, the initial meld counts 110; the side needs 125; the side's melds "
       "lack the meld line left out (readings R137)"},
      {448, R"({"type":"meld","player":2,"melds":[{"to":"5","cards":["5S","5D"]}]})", 452,
       CheckId::kDiscardEmptyPile,
       "hand 4's record (line 453) counts 10 points more melded and 10 fewer left in hand for "
       "side 0 (Ann and Cat) than the replay: a meld line of the side was left out of the log "
       "(readings R137)"},
      {32, R"({"type":"meld","player":2,"melds":[{"cards":["JH","JC","JC"]}]})", 34,
       CheckId::kInitialMeldMinimum,
       "hand 1's record (line 109) counts 30 points more melded and 30 fewer left in hand for "
       "side 0 (Ann and Cat) than the replay: a meld line of the side was left out of the log "
       "(readings R137)"},
      {34, R"({"type":"meld","player":2,"melds":[{"cards":["2S","2H","2D"]}]})", 34,
       CheckId::kInitialMeldMinimum,
       "hand 1's record (line 109) counts 60 points more melded and 60 fewer left in hand for "
       "side 0 (Ann and Cat) than the replay: a meld line of the side was left out of the log "
       "(readings R137)"},
      {403, R"({"type":"meld","player":2,"melds":[{"cards":["6S","6D","6C"]}]})", 426,
       CheckId::kMeldTargetMissing,
       "line 452: as replayed, on an empty pile 7D may not be discarded while seat 2 holds "
       "another card that may (6S 6D 6C); the side's melds lack the meld line left out (readings "
       "R137)"},
      {474, R"({"type":"meld","player":2,"melds":[{"cards":["8S","8D","8C"]}]})", 488,
       CheckId::kMeldTargetMissing,
       "line 531: as replayed, seat 0 melds down to one card without going out (the side has 1 "
       "of the 2 canastas needed); a player not going out keeps two cards after melding; the "
       "side's melds lack the meld line left out (readings R137)"},
      {620, R"({"type":"meld","player":1,"melds":[{"to":"5","cards":["5H","5D","5C"]}]})", 621,
       CheckId::kMeldTooManyWilds,
       "hand 6's record (line 655) counts 15 points more melded and 15 fewer left in hand for "
       "side 1 (Bob and Dan) than the replay: a meld line of the side was left out of the log "
       "(readings R137)"},
  };
  const std::vector<std::string> good = SampleLines("modern-american");
  for (const Case& c : cases) {
    SCOPED_TRACE("line " + std::to_string(c.index + 1) + " left out");
    ExpectOneFindingOf(good, LeftOut(good, c.index, c.line), c.finding_line, c.id, c.note);
  }

  // Where wild melds are not allowed, a `to` of "wild" is a wrong
  // reference, not a line left out.
  std::variant<Ruleset, LuaError> loaded = LoadRuleset("modern-american");
  ASSERT_TRUE(std::holds_alternative<Ruleset>(loaded));
  RulesetChoice no_wild_melds = std::get<Ruleset>(loaded).Choose();
  no_wild_melds.rules.wild_melds = false;
  std::istringstream in(Unlines(LeftOut(good, cases[0].index, cases[0].line)));
  const FileReport r = AuditStream(in, "game.jsonl", test::UnderRuleset(no_wild_melds));
  EXPECT_TRUE(test::HasId(r, CheckId::kMeldTargetMissing)) << test::Dump(r);
  EXPECT_FALSE(HasNote(r, CheckId::kMeldTargetMissing, "readings R137")) << test::Dump(r);
}

// readings R137: seat 1's meld of 9S 9S 9D 2H (line 4) left out. Judged as
// written, the next line adds to a meld of 9s the side lacks; that addition
// is then the side's initial meld (too small), the pile later taken onto
// the 9s makes a meld with one natural, and the partner goes out without
// the canasta the 9s became. One finding; the rest are its notes, and the
// hand's recorded scores stand, so every total is as recorded.
TEST(Recovery, AnAdditionToAMeldLeftOutIsOneFinding_R137) {
  std::vector<std::string> lines =
      LeftOut(ClassicSampleLines(), 3,
              R"({"type":"meld","player":1,"melds":[{"cards":["9S","9S","9D","2H"]}]})");
  const FileReport r = Audit(Unlines(lines));
  ExpectOneFinding(r, 4, CheckId::kMeldTargetMissing,
                   "a meld line of the side was likely left out before this line; what its "
                   "absence makes of the hand is noted here (readings R137)");
  EXPECT_EQ(test::MessageOf(r, CheckId::kMeldTargetMissing),
            "the side has no meld of 9s to add to");
  for (const char* note :
       {"line 4: as replayed, the initial meld counts 20; the side needs 50; the side's melds "
        "lack the meld line left out (readings R137)",
        "line 55: as replayed, the meld of 9s has 1 natural card(s); it needs at least 2; the "
        "side's melds lack the meld line left out (readings R137)",
        "line 75: as replayed, seat 3 goes out with 0 canastas; the side needs 1; the side's "
        "melds lack the meld line left out (readings R137)",
        "its recorded scores [185, 975] are taken as true (readings R124)"})
    EXPECT_TRUE(HasNote(r, CheckId::kMeldTargetMissing, note)) << note << "\n" << test::Dump(r);

  // One line may lay many melds: seat 0's going-out line of nine (line 581)
  // left out, each later addition to one of them is a note of the first.
  std::vector<std::string> many = ClassicSampleLines();
  ASSERT_EQ(many[580].rfind(R"({"type":"meld","player":0,"melds":[{"to":"4","cards":["4C"]},)", 0),
            0u);
  many.erase(many.begin() + 580);
  const FileReport m = Audit(Unlines(many));
  ExpectOneFinding(m, 581, CheckId::kMeldTargetMissing,
                   "line 589: as replayed, the side has no meld of Ts to add to; the side's melds "
                   "lack the meld line left out (readings R137)");
  EXPECT_TRUE(HasNote(m, CheckId::kMeldTargetMissing,
                      "line 592: as replayed, the meld of Ts has 1 natural card(s); it needs at "
                      "least 2; the side's melds lack the meld line left out (readings R137)"))
      << test::Dump(m);

  // A finding about the other side's melds is not the left-out meld's:
  // seat 2's meld of 8s written with two cards (line 21) stays a finding of
  // its own next to it.
  std::vector<std::string> other = ClassicSampleLines();
  other.erase(other.begin() + 3);
  ASSERT_EQ(other[20], R"({"type":"meld","player":2,"melds":[{"cards":["8S","8D","8C"]}]})");
  other[20] = R"({"type":"meld","player":2,"melds":[{"cards":["8S","8D"]}]})";
  const FileReport o = Audit(Unlines(other));
  EXPECT_FINDINGS(o, {4, CheckId::kMeldTargetMissing}, {21, CheckId::kMeldTooSmall});
}

// readings R137: seat 3's meld of TS TH TD TC (line 85), part of the side's
// initial meld, left out. The initial meld is judged short at once (line
// 85); seat 1's addition to the tens (line 139) shows why. One finding, the
// first, with the second as its note; the hand's recorded scores stand.
TEST(Recovery, AnInitialMeldJudgedShortThenAnAdditionToTheMeldLeftOutIsOneFinding_R137) {
  std::vector<std::string> lines =
      LeftOut(ClassicSampleLines(), 84,
              R"({"type":"meld","player":3,"melds":[{"cards":["TS","TH","TD","TC"]}]})");
  ExpectOneFinding(Audit(Unlines(lines)), 85, CheckId::kInitialMeldMinimum,
                   "line 138: as replayed, the side has no meld of Ts to add to; the side's melds "
                   "lack the meld line left out (readings R137)");
}

// readings R137: seat 1's addition of 2S to the nines (line 5) left out.
// Nothing later adds to a meld the side lacks; seat 3 goes out without the
// canasta (line 76), and the hand's record melds 20 points the replay has
// in the side's hands, and only that side's score differs. The going out
// is the one finding; its note gives the record's evidence, and the
// recorded scores stand. Seat 3's addition of AC (line 428) left out: the
// meld of As it played to later holds too many wilds, and the hand ends
// with nobody out as replayed; the same.
TEST(Recovery, AScoreThatMeldsCardsTheReplayHoldsNamesTheMeldFindingBeforeIt_R137) {
  std::vector<std::string> lines = LeftOut(
      ClassicSampleLines(), 4, R"({"type":"meld","player":1,"melds":[{"to":"9","cards":["2S"]}]})");
  ExpectOneFinding(Audit(Unlines(lines)), 75, CheckId::kOutWithoutCanastas,
                   "hand 1's record (line 76) counts 20 points more melded and 20 fewer left in "
                   "hand for side 1 (Bob and Dan) than the replay: a meld line of the side was "
                   "left out of the log (readings R137)");

  // The other side's recorded score wrong too (195 for 185): not one
  // side's slip, so both scores are judged as before, the going out too.
  ASSERT_EQ(lines[75].rfind(R"({"type":"end_hand","hand":1,"scores":[185,975],)", 0), 0u);
  lines[75].replace(lines[75].find("[185,975]"), 9, "[195,975]");
  const FileReport both = Audit(Unlines(lines));
  EXPECT_FINDINGS(both, {75, CheckId::kOutWithoutCanastas}, {76, CheckId::kScoreHand},
                  {76, CheckId::kScoreHand});
  EXPECT_FALSE(HasNote(both, CheckId::kOutWithoutCanastas, "readings R137")) << test::Dump(both);

  std::vector<std::string> early =
      LeftOut(ClassicSampleLines(), 320,
              R"({"type":"meld","player":3,"melds":[{"to":"A","cards":["AC"]}]})");
  const FileReport r = Audit(Unlines(early));
  ExpectOneFinding(r, 427, CheckId::kMeldTooManyWilds,
                   "hand 5's record (line 429) counts 20 points more melded and 20 fewer left in "
                   "hand for side 1 (Bob and Dan) than the replay: a meld line of the side was "
                   "left out of the log (readings R137)");
  EXPECT_TRUE(HasNote(r, CheckId::kMeldTooManyWilds,
                      "line 429: as replayed, the deal ends with nobody out and 13 cards still in "
                      "the stock; the replay's hands are not the log's since this finding"))
      << test::Dump(r);
}

// readings R138: seat 1's discard of 3S (line 6) left out; seat 2's red
// three (line 7), which it holds, comes while seat 1's turn is in play, and
// seat 2's draw follows. Judged as written, the three is laid out outside
// seat 2's turn and its draw then ends seat 1's turn without a discard (two
// findings). One finding, at the three: the turn ends there and the three
// opens seat 2's turn; the take of the pile (line 9) shows the card left out
// (R130), and every total is as recorded. Written before seat 1's discard,
// the three is laid out out of turn as written (one warning).
TEST(Recovery, ADiscardLeftOutBeforeTheNextSeatsThreeIsOneFinding_R138) {
  std::vector<std::string> lines = ClassicSampleLines();
  ASSERT_EQ(lines[5], R"({"type":"discard","player":1,"card":"3S"})");
  ASSERT_EQ(lines[6], R"({"type":"three","player":2,"card":"3D","replacement":"5H"})");
  std::vector<std::string> left_out = lines;
  left_out.erase(left_out.begin() + 5);
  const FileReport r = Audit(Unlines(left_out));
  ExpectOneFinding(r, 6, CheckId::kDiscardMissing,
                   "seat 2 (Cat) lays out 3D at the start of its own turn: the discard that ended "
                   "seat 1 (Bob)'s turn was left out before it (readings R138)");
  EXPECT_EQ(test::MessageOf(r, CheckId::kDiscardMissing),
            "seat 1's turn ended without a discard; seat 2 begins the next turn");
  EXPECT_TRUE(HasNote(r, CheckId::kDiscardMissing, "the discard left out was 3S (readings R130)"))
      << test::Dump(r);

  std::vector<std::string> swapped = lines;
  std::swap(swapped[5], swapped[6]);
  const FileReport s = Audit(Unlines(swapped));
  EXPECT_FINDINGS(s, {6, CheckId::kThreeTiming});
  EXPECT_FALSE(HasNote(s, CheckId::kThreeTiming, "readings R138")) << test::Dump(s);
}

// readings R139: seat 0's meld of JH JD onto its jacks (line 43 of the
// modern-american sample) left out. The side has no canasta, so its melded
// cards count against it (001 L84) and the hand's score is the same either
// way; the record's melded and in_hand each differ by 20, the opposite way.
// One finding, the first part's, whose note names the second and the
// likely cause. Parts that differ by unequal amounts are findings of their
// own.
TEST(Recovery, TwoPartsThatTradePointsAreOneFinding_R139) {
  std::vector<std::string> lines =
      LeftOut(SampleLines("modern-american"), 42,
              R"({"type":"meld","player":0,"melds":[{"to":"J","cards":["JH","JD"]}]})");
  const FileReport r = AuditUnderItsRuleset(lines);
  EXPECT_FINDINGS(r, {109, CheckId::kScoreBreakdown});
  EXPECT_EQ(test::MessageOf(r, CheckId::kScoreBreakdown),
            "side 0 (Ann and Cat)'s melded is -250, not -270");
  EXPECT_TRUE(HasNote(r, CheckId::kScoreBreakdown,
                      "in the breakdown, in_hand is -90, not -70 too: the record moves 20 points "
                      "between melded and in_hand, and the hand's score is right; cards the "
                      "replay has in a hand of the side were melded as recorded (a meld line "
                      "left out of the log?) (readings R139)"))
      << test::Dump(r);

  ASSERT_NE(lines[108].find(R"("melded":-270,"in_hand":-70,"penalties":-2000)"), std::string::npos);
  lines[108].replace(lines[108].find(R"("in_hand":-70)"), 13, R"("in_hand":-60)");
  lines[108].replace(lines[108].find(R"("penalties":-2000)"), 17, R"("penalties":-2010)");
  const FileReport three = AuditUnderItsRuleset(lines);
  EXPECT_FINDINGS(three, {109, CheckId::kScoreBreakdown}, {109, CheckId::kScoreBreakdown},
                  {109, CheckId::kScoreBreakdown});
  EXPECT_FALSE(HasNote(three, CheckId::kScoreBreakdown, "readings R139")) << test::Dump(three);
}

// readings R135: hand 1's last discard (seat 3's TS, line 76, its last
// card) written after the hand's end_hand (line 77). Judged as written, the
// hand ends with nobody out and the discard is outside a hand. One finding,
// the discard replayed first, and every total as recorded.
TEST(Recovery, AHandsLastDiscardWrittenAfterItsEndHandIsReplayedFirst_R135) {
  const FileReport r = Audit(
      Unlines(Swapped(ClassicSampleLines(), 75, R"({"type":"discard","player":3,"card":"TS"})",
                      R"({"type":"end_hand","hand":1,)")));
  ExpectOneFinding(r, 76, CheckId::kLogOutOfPlace,
                   "the two lines are written in the wrong order, and are replayed discard first "
                   "(readings R135)");
  EXPECT_EQ(test::MessageOf(r, CheckId::kLogOutOfPlace),
            "the end_hand of hand 1 comes before the hand's last move, seat 3 (Dan)'s discard at "
            "line 77");
  ASSERT_FALSE(r.games.empty() || r.games[0].hands.empty());
  EXPECT_EQ(r.games[0].hands[0].went_out, 3);

  // An end_hand before a discard that leaves the seat cards (seat 0's QH,
  // line 17) is no last move written late: the end_hand is judged where it
  // stands.
  std::vector<std::string> early = ClassicSampleLines();
  ASSERT_EQ(early[16], R"({"type":"discard","player":0,"card":"QH"})");
  early.insert(early.begin() + 16, early[76]);
  early.erase(early.begin() + 77);
  const FileReport e = Audit(Unlines(early));
  EXPECT_FALSE(HasNote(e, CheckId::kLogOutOfPlace, "readings R135")) << test::Dump(e);
  EXPECT_TRUE(HasNote(e, CheckId::kHandEndedEarly, "scores as the hand stands")) << test::Dump(e);
}

// readings R135 for a meld that goes out: hand 3's last move in the
// classic sample is seat 1's meld of KD KD 2D (line 271), its last cards.
// Written after the end_hand (line 272), one finding, the meld replayed
// first, every total as recorded. An end_hand before a meld that leaves
// the seat cards (seat 3's 7S, line 266) is judged where it stands.
TEST(Recovery, AMeldThatGoesOutWrittenAfterTheEndHandIsReplayedFirst_R135) {
  const std::vector<std::string> good = ClassicSampleLines();
  const std::vector<std::string> lines =
      Swapped(good, 270, R"({"type":"meld","player":1,"melds":[{"cards":["KD","KD","2D"]}]})",
              R"({"type":"end_hand","hand":3,)");
  ExpectOneFindingOf(good, lines, 271, CheckId::kLogOutOfPlace,
                     "the two lines are written in the wrong order, and are replayed meld first "
                     "(readings R135)");
  EXPECT_EQ(test::MessageOf(Audit(Unlines(lines)), CheckId::kLogOutOfPlace),
            "the end_hand of hand 3 comes before the hand's last move, seat 1 (Bob)'s meld at "
            "line 272");

  std::vector<std::string> early = good;
  ASSERT_EQ(early[265], R"({"type":"meld","player":3,"melds":[{"to":"7","cards":["7S"]}]})");
  early.insert(early.begin() + 265, early[271]);
  early.erase(early.begin() + 272);
  const FileReport e = Audit(Unlines(early));
  EXPECT_FALSE(HasNote(e, CheckId::kLogOutOfPlace, "readings R135")) << test::Dump(e);
  EXPECT_TRUE(HasNote(e, CheckId::kHandEndedEarly, "scores as the hand stands")) << test::Dump(e);
}

// readings R135 at the stock's end: in the three-handed sample, hand 1
// ends when seat 1 has drawn the stock's last cards (line 121) and
// discards 7C (line 123). That discard written after the end_hand (line
// 124) is one finding, replayed first; every total as recorded.
TEST(Recovery, TheDiscardAfterTheLastStockCardWrittenAfterTheEndHand_R135) {
  const std::vector<std::string> good = SampleLines("three-handed");
  const std::vector<std::string> lines = Swapped(
      good, 122, R"({"type":"discard","player":1,"card":"7C"})", R"({"type":"end_hand","hand":1,)");
  ExpectOneFindingOf(good, lines, 123, CheckId::kLogOutOfPlace, "(readings R135)");
  EXPECT_EQ(test::MessageOf(AuditUnderItsRuleset(lines), CheckId::kLogOutOfPlace),
            "the end_hand of hand 1 comes before the hand's last move, seat 1 (Bob)'s discard at "
            "line 124");
}

// readings R121: seat 0's draw of 9C (line 66) left out; its discard of 9C
// follows, and the next seat takes the pile, so no later stock card tells.
// The discard plays the stock's next card, which the seat lacks: the draw
// is made up before it, one finding, and every total as recorded.
TEST(Recovery, ADrawLeftOutIsShownByTheDiscardOfTheCardItDrew_R121) {
  std::vector<std::string> lines = ClassicSampleLines();
  ASSERT_EQ(lines[65], R"({"type":"draw","player":0,"cards":["9C"]})");
  ASSERT_EQ(lines[66], R"({"type":"discard","player":0,"card":"9C"})");
  lines.erase(lines.begin() + 65);
  ExpectOneFinding(Audit(Unlines(lines)), 66, CheckId::kTurnSequence,
                   "the draw of 9C, the stock's next, was left out before this line: the "
                   "discard plays 9C; made up here (readings R121)");
}

// readings R136: seat 3's bonus draw (line 14 of the modern-american
// sample), earned by the initial meld of its turn, written before that
// turn's discard (line 13). Judged as written, the bonus is drawn when none
// is due, and then missing after the discard. One finding, the discard
// replayed first. A bonus draw before a discard that earns no such cards
// is played as written.
TEST(Recovery, ABonusDrawWrittenBeforeItsDiscardIsReplayedAfterIt_R136) {
  std::vector<std::string> lines = SampleLines("modern-american");
  ASSERT_EQ(lines[12], R"({"type":"discard","player":3,"card":"TH"})");
  ASSERT_EQ(lines[13], R"({"type":"draw","player":3,"cards":["TS","2D","9H","KS"],"bonus":true})");
  std::swap(lines[12], lines[13]);
  const FileReport r = AuditUnderItsRuleset(lines);
  EXPECT_FINDINGS(r, {13, CheckId::kLogOutOfPlace});
  EXPECT_EQ(test::MessageOf(r, CheckId::kLogOutOfPlace),
            "seat 3's bonus draw comes before the discard that earns it (line 14)");
  EXPECT_TRUE(HasNote(r, CheckId::kLogOutOfPlace, "replayed discard first (readings R136)"))
      << test::Dump(r);

  lines[12] = R"({"type":"draw","player":3,"cards":["TS","2D","9H"],"bonus":true})";
  const FileReport three = AuditUnderItsRuleset(lines);
  EXPECT_FALSE(HasNote(three, CheckId::kLogOutOfPlace, "readings R136")) << test::Dump(three);
  EXPECT_EQ(test::MessageOf(three, CheckId::kDrawCount),
            "seat 3 draws bonus cards, but none are due");
}

// readings R140: seat 3's discard of TH (line 13 of the modern-american
// sample), which ended the turn of its initial meld and earned the bonus
// cards, left out before the bonus draw (line 14). Judged as written, the
// bonus is drawn when none is due, and the next seat's draw ends the turn
// without a discard (two findings). One finding at the bonus draw: the turn
// ends there, the bonus is due as after the discard and drawn, and the take
// of the pile (line 16) shows the card left out (R130). A bonus draw of
// other cards than the bonus due is judged as written.
TEST(Recovery, ADiscardLeftOutBeforeItsBonusDrawIsOneFinding_R140) {
  // One discard left out, then the audit's one finding and its note.
  auto expect_one = [](std::vector<std::string> lines, size_t index, const std::string& discard,
                       const std::string& note) {
    lines = LeftOut(std::move(lines), index, discard);
    const FileReport r = AuditUnderItsRuleset(lines);
    EXPECT_FINDINGS(r, {int(index) + 1, CheckId::kDiscardMissing});
    EXPECT_TRUE(HasNote(r, CheckId::kDiscardMissing, note)) << test::Dump(r);
    return r;
  };
  std::vector<std::string> lines = SampleLines("modern-american");
  ASSERT_EQ(lines[13], R"({"type":"draw","player":3,"cards":["TS","2D","9H","KS"],"bonus":true})");
  const FileReport r = expect_one(lines, 12, R"({"type":"discard","player":3,"card":"TH"})",
                                  "seat 3 (Dan) draws the bonus cards its initial meld earned: "
                                  "the discard that ended its turn, and earned them, was left out "
                                  "before this line (readings R140)");
  EXPECT_TRUE(HasNote(r, CheckId::kDiscardMissing, "the discard left out was TH (readings R130)"))
      << test::Dump(r);

  // Seat 2's discard of TC (line 36) left out before its bonus draw, and
  // seat 3 takes the pile with TC on top next: the card is known, and its
  // discard is made up before the bonus draw (as in R129).
  ASSERT_EQ(lines[37].rfind(R"({"type":"take_pile","player":3,"top":"TC",)", 0), 0u);
  expect_one(lines, 35, R"({"type":"discard","player":2,"card":"TC"})",
             "the top card it takes at line 37, TC, is one seat 2 (Cat) held: the discard of TC, "
             "which earned the bonus drawn here, was left out before this line; made up here "
             "(readings R140)");
  lines.erase(lines.begin() + 12);

  lines[12] = R"({"type":"draw","player":3,"cards":["TS","2D","9H"],"bonus":true})";
  const FileReport three = AuditUnderItsRuleset(lines);
  EXPECT_FALSE(HasNote(three, CheckId::kDiscardMissing, "readings R140")) << test::Dump(three);
  EXPECT_EQ(test::MessageOf(three, CheckId::kDrawCount),
            "seat 3 draws bonus cards, but none are due");
}

// The classic sample's lines, where seat 2 discards AH (line 9) and seat 3
// takes the pile with AH on top (line 10).
std::vector<std::string> DiscardAndTakeOfAH() {
  std::vector<std::string> lines = ClassicSampleLines();
  EXPECT_EQ(lines[8], R"({"type":"discard","player":2,"card":"AH"})");
  EXPECT_NE(lines[9].find(R"("type":"take_pile","player":3,"top":"AH")"), std::string::npos);
  return lines;
}

// readings R118: seat 2's discard of AH (line 9) and seat 3's take of the
// pile, AH on top (line 10), written in the wrong order. Judged as written,
// seat 2's turn would end without a discard, the take would name a top card
// not there, and the discard would come out of turn. One finding, the
// discard replayed first, and every total as recorded.
TEST(Recovery, ATakeWrittenBeforeTheDiscardItTakesIsReplayedAfterIt_R118) {
  std::vector<std::string> lines = DiscardAndTakeOfAH();
  std::swap(lines[8], lines[9]);
  const FileReport r = Audit(Unlines(lines));
  ExpectOneFinding(r, 9, CheckId::kTurnOrder,
                   "seat 2 (Cat)'s discard comes after this line, at line 10: the two lines "
                   "are written in the wrong order, and are replayed discard first (readings "
                   "R118)");
  EXPECT_TRUE(!r.games.empty() && r.games[0].finished);
}

// readings R125: hand 1's end_hand (line 77) and hand 2's deal (line 78)
// written in the wrong order. Judged as written, hand 1 would have no
// end_hand, and hand 2 one before any move (every total after it off). One
// finding, the end_hand replayed first, every total as recorded; a deal with
// no end_hand after it at all is still the hand's one finding.
TEST(Recovery, AnEndHandWrittenAfterTheNextDealIsReplayedFirst_R125) {
  std::vector<std::string> lines = ClassicSampleLines();
  ASSERT_NE(lines[76].find(R"({"type":"end_hand","hand":1,)"), std::string::npos);
  ASSERT_NE(lines[77].find(R"({"type":"deal","hand":2,)"), std::string::npos);
  std::vector<std::string> swapped = lines;
  std::swap(swapped[76], swapped[77]);
  const FileReport r = Audit(Unlines(swapped));
  ExpectOneFinding(r, 77, CheckId::kLogOutOfPlace,
                   "the two lines are written in the wrong order, and are replayed end_hand "
                   "first (readings R125)");
  EXPECT_EQ(test::MessageOf(r, CheckId::kLogOutOfPlace),
            "the deal of hand 2 comes before the end_hand of hand 1 (line 78)");
  EXPECT_TRUE(!r.games.empty() && r.games[0].finished);

  std::vector<std::string> missing = lines;
  missing.erase(missing.begin() + 76);
  const FileReport m = Audit(Unlines(missing));
  EXPECT_FINDINGS(m, {77, CheckId::kLogIncomplete});
  EXPECT_EQ(test::MessageOf(m, CheckId::kLogIncomplete),
            "hand 1 has no end_hand event before the next deal");
}

// readings R127: seat 1's dealt JK written as a 3D (line 2), so that the
// deal holds three 3Ds and three jokers. Before, five findings: the surplus
// 3D, the stock without the rest of the pack (so set aside), seat 1 ending
// its turn with a red three, playing a JK it did not hold, and the red
// three's 500 at the end. Now the deal's one finding, the stock followed,
// and seat 1's 3D read as the JK at its first turn's end (line 6), where it
// keeps a red three that the other two seats lay out.
TEST(Recovery, ADealtCardWrittenAsAnotherIsOneFinding_R127) {
  std::vector<std::string> lines = ClassicSampleLines();
  const std::string seat1 = R"(["JK","2H","2S","3S","9S","9S","AD","8C","9D","KD","4D"])";
  ASSERT_NE(lines[1].find(seat1), std::string::npos);
  std::vector<std::string> three = lines;
  three[1].replace(three[1].find(seat1), 5, R"(["3D")");
  const FileReport r = Audit(Unlines(three));
  ExpectOneFinding(r, 2, CheckId::kDealPack,
                   "line 6: seat 1 (Bob) ends its turn holding the 3D, never laid out; it was "
                   "the JK");
  EXPECT_EQ(test::MessageOf(r, CheckId::kDealPack),
            "the deal holds one 3D more than the pack has (2) and one JK fewer: one 3D, in "
            "seat 0's, seat 1's or seat 2's hand, is written for JK");

  // Seat 1's 9D written as an 8C (seats 1 and 2 hold one each): its meld
  // of nines at line 4 plays the 9D, which it holds only as that 8C.
  std::vector<std::string> played = lines;
  played[1].replace(played[1].find(seat1) + seat1.find("9D"), 2, "8C");
  const FileReport p = Audit(Unlines(played));
  ExpectOneFinding(p, 2, CheckId::kDealPack,
                   "line 4: seat 1 (Bob) plays 9D, which it holds only as the 8C written in its "
                   "hand; it was the 9D");
  EXPECT_EQ(test::MessageOf(p, CheckId::kDealPack),
            "the deal holds one 8C more than the pack has (2) and one 9D fewer: one 8C, in "
            "seat 1's or seat 2's hand, is written for 9D");

  // Hand 7: seat 0's 9S written as a 2H (the other 2H lies in the stock).
  // Seat 0 takes the pile (line 579) and melds the 9S in its initial meld
  // (line 581): the 9S counts toward it as a card held before the take.
  std::vector<std::string> taken = lines;
  const std::string seat0 = R"([["3D","AD","9D","9H","6C","4H","KH","9S","9D","4C","8H"])";
  ASSERT_NE(taken[518].find(seat0), std::string::npos);
  taken[518].replace(taken[518].find(seat0) + seat0.find("9S"), 2, "2H");
  const FileReport t = Audit(Unlines(taken));
  ExpectOneFinding(t, 519, CheckId::kDealPack,
                   "line 581: seat 0 (Ann) plays 9S, which it holds only as the 2H written in its "
                   "hand; it was the 9S");
}

// readings R127 where dealt red threes are laid out before play: a card
// written as a red three in a seat's hand, never laid out before play. In
// the jaques sample, seat 1's 8S written as a 3D (line 212): seat 1 then
// lays out the 3D it draws (line 223), which judged as written is late,
// the 3D held since the deal never laid out; the three shows it was the
// 8S. In the hutto sample, seat 1's 8D written as a 3D (line 211): its turn
// ends holding the 3D (line 218), and later, its own three drawn (line 245)
// is in time once the 3D was read as the 8D. Before, two findings each (a
// three-timing); now the deal's one, every total as recorded.
TEST(Recovery, ADealtCardWrittenAsARedThreeWhereThreesGoBeforePlay_R127) {
  // `deal` with seat `seat`'s `from` written as `to`.
  auto written_as = [](std::string deal, int seat, const std::string& from, const std::string& to) {
    size_t at = deal.find(R"("hands":[[)");
    EXPECT_NE(at, std::string::npos);
    for (int s = 0; s < seat; ++s) at = deal.find("],[", at + 1);
    const size_t end = deal.find(']', at + 3);
    const size_t card = deal.find('"' + from + '"', at);
    EXPECT_LT(card, end) << deal;
    deal.replace(card + 1, from.size(), to);
    return deal;
  };
  const std::vector<std::string> jaques = SampleLines("jaques");
  std::vector<std::string> lines = jaques;
  lines[211] = written_as(lines[211], 1, "8S", "3D");
  ExpectOneFindingOf(jaques, lines, 212, CheckId::kDealPack,
                     "line 223: seat 1 (Bob) lays out 3D in play, holding the 3D never laid out "
                     "before play; it was the 8S");
  const std::vector<std::string> hutto = SampleLines("hutto");
  lines = hutto;
  lines[210] = written_as(lines[210], 1, "8D", "3D");
  ExpectOneFindingOf(hutto, lines, 211, CheckId::kDealPack,
                     "line 218: seat 1 (Bob) ends its turn holding the 3D, never laid out; it was "
                     "the 8D");
}

// readings R121 before a `three` line: a turn's draw left out, and the
// turn's three laid out with the replacement a whole draw on. Seat 3's
// draw of 3H (line 62) before it lays the 3H out; seat 2's first-turn draw
// of 7S (line 79) before it lays out its dealt 3H. Before, three findings
// each (the three not held or the replacement a stock-mismatch, then every
// move of the turn before its draw); now one, the draw made up.
TEST(Recovery, ADrawLeftOutBeforeTheTurnsThreeIsMadeUp_R121) {
  const std::vector<std::string> lines = ClassicSampleLines();
  ASSERT_EQ(lines[61], R"({"type":"draw","player":3,"cards":["3H"]})");
  ASSERT_EQ(lines[62], R"({"type":"three","player":3,"card":"3H","replacement":"2H"})");
  std::vector<std::string> drawn_three = lines;
  drawn_three.erase(drawn_three.begin() + 61);
  ExpectOneFinding(Audit(Unlines(drawn_three)), 62, CheckId::kTurnSequence,
                   "the draw of 3H, the stock's next, was left out before this line: the "
                   "three's replacement, 2H, comes after it; made up here (readings R121)");

  ASSERT_EQ(lines[78], R"({"type":"draw","player":2,"cards":["7S"]})");
  ASSERT_EQ(lines[79], R"({"type":"three","player":2,"card":"3H","replacement":"5D"})");
  std::vector<std::string> first_turn = lines;
  first_turn.erase(first_turn.begin() + 78);
  ExpectOneFinding(Audit(Unlines(first_turn)), 79, CheckId::kTurnSequence,
                   "the draw of 7S, the stock's next, was left out before this line: the "
                   "three's replacement, 5D, comes after it; made up here (readings R121)");

  // The draw written after the three: the two lines swapped, one finding.
  std::vector<std::string> late = lines;
  std::swap(late[61], late[62]);
  const FileReport r = Audit(Unlines(late));
  ExpectOneFinding(r, 62, CheckId::kTurnSequence, "the draw comes late, at line 63: not replayed");
}

// readings R121: seat 3's take of the pile (AH with AC JK, line 10) left
// out; its meld of JS JD JK (cards it holds) comes before any draw, and its
// discard of 3C is no card of the pile. Seat 0's three replacement (line 12)
// is the stock's next: the turn drew none and took the pile, made up before
// the discard. Before, six findings (the meld, then the aces' meld missing,
// the cards of the pile played, and the hand's end); now one.
TEST(Recovery, ATakeLeftOutBeforeMeldsOfHeldCardsShowsAtTheNextStockCard_R121) {
  std::vector<std::string> lines = LeftOut(
      ClassicSampleLines(), 9, R"({"type":"take_pile","player":3,"top":"AH","with":["AC","JK"]})");
  ExpectOneFinding(Audit(Unlines(lines)), 10, CheckId::kTurnSequence,
                   "the take of the pile (3 cards, AH on top, with AC JK) was left out: the "
                   "three's replacement at line 12 is the stock's next card, so the turn drew "
                   "none (readings R121)");
}

// readings R121: a take left out before melds of held cards, whose
// discard then plays a card from under the pile's top. In the hutto
// sample, seat 1's take of QC onto its queens (line 437) left out: its
// four melds (lines 438-441) play only cards it held, and its discard of
// 3C (line 442) is the card under QC. In the jaques sample, seat 1's take
// of 4C with 4S 4H (line 567), whose discard of 3S (line 573) is the
// pile's other card: made up in the form after which the discard is
// legal. Before, two findings each (the discard a card-not-held, and the
// hand's scores); now one, every total as recorded.
TEST(Recovery, ATakeLeftOutIsShownByADiscardFromUnderThePilesTop_R121) {
  const std::vector<std::string> hutto = SampleLines("hutto");
  ExpectOneFindingOf(hutto,
                     LeftOut(hutto, 436, R"({"type":"take_pile","player":1,"top":"QC","to":"Q"})"),
                     437, CheckId::kTurnSequence,
                     "the take of the pile (2 cards, QC on top, onto the meld of Qs) was left "
                     "out: the discard at line 441 plays 3C, a card of that pile; made up there "
                     "(readings R121)");
  const std::vector<std::string> jaques = SampleLines("jaques");
  ExpectOneFindingOf(
      jaques,
      LeftOut(jaques, 566, R"({"type":"take_pile","player":1,"top":"4C","with":["4S","4H"]})"), 567,
      CheckId::kTurnSequence,
      "the take of the pile (2 cards, 4C on top, with 4S 4H) was left out: the discard at line "
      "573 plays 3S, a card of that pile; made up there (readings R121)");
}

// readings R121 after the turn: seat 2's draw of 7S (line 8) left out
// after its three, so the turn only discards AH; seat 3's take of the pile
// next takes nothing from the stock. Seat 0's three (line 12), replaced by
// QH a card on, shows the draw: 7S goes to seat 2, which plays it at line
// 59 (and seat 0, whose own draw follows its three, is given none). Before,
// three findings (the discard before any draw, the replacement a
// stock-mismatch, 7S not held); now one.
TEST(Recovery, ADrawLeftOutIsShownByALaterStockCard_R121) {
  std::vector<std::string> lines =
      LeftOut(ClassicSampleLines(), 7, R"({"type":"draw","player":2,"cards":["7S"]})");
  ExpectOneFinding(Audit(Unlines(lines)), 8, CheckId::kTurnSequence,
                   "the draw of 7S, the stock's next, was left out before this line: the three's "
                   "replacement at line 12 comes after it; made up (readings R121)");
}

// readings R129: seat 2's discard of AH (line 9) left out; seat 3 takes
// the pile with AH on top (line 10). Before, five findings and more (the
// discard missing, the pile's top, a black three blocking it, its meld,
// then the cards that followed); now one, the discard made up before the
// take, and every total as recorded.
TEST(Recovery, ADiscardLeftOutBeforeTheNextSeatsTakeIsMadeUp_R129) {
  std::vector<std::string> lines = DiscardAndTakeOfAH();
  lines.erase(lines.begin() + 8);
  const FileReport r = Audit(Unlines(lines));
  ExpectOneFinding(r, 9, CheckId::kDiscardMissing,
                   "the top card it takes, AH, is one seat 2 (Cat) held: the discard of AH was "
                   "left out before this line; made up here (readings R129)");
  EXPECT_EQ(test::MessageOf(r, CheckId::kDiscardMissing),
            "seat 2's turn ended without a discard; seat 3 takes the pile");

  // The take names 9H, which seat 2 does not hold: no discard is made up.
  lines[8].replace(lines[8].find(R"("top":"AH")"), 10, R"("top":"9H")");
  const FileReport k = Audit(Unlines(lines));
  EXPECT_TRUE(test::HasId(k, CheckId::kDiscardMissing)) << test::Dump(k);
  EXPECT_FALSE(HasNote(k, CheckId::kDiscardMissing, "readings R129")) << test::Dump(k);
}

// readings R130: seat 3's discard of KD (line 45) left out; seat 0 draws
// next, so the card is not known there. Seat 1 takes the pile (line 55)
// and plays a KD it lacks (line 56), which seat 3 still holds: that was the
// discard. Before, three findings (the discard missing, KD not held, and the
// hand's end, seat 3's going out a card short); now one.
TEST(Recovery, ADiscardLeftOutBeforeADrawIsShownByThePilesTaker_R130) {
  std::vector<std::string> lines = ClassicSampleLines();
  ASSERT_EQ(lines[44], R"({"type":"discard","player":3,"card":"KD"})");
  ASSERT_EQ(lines[45], R"({"type":"draw","player":0,"cards":["9D"]})");
  lines.erase(lines.begin() + 44);
  ExpectOneFinding(Audit(Unlines(lines)), 45, CheckId::kDiscardMissing,
                   "line 56: seat 1 (Bob) plays KD from the pile it took at line 55, a card "
                   "seat 3 (Dan) still held: the discard left out was KD (readings R130)");
}

// readings R121's limit before a `three`: in samples/modern-american, seat
// 2's three 3S (replaced by 3H, line 49) left out. Its three 3H (replaced
// by TH) then comes a card on in the stock, as after a draw left out; but
// its own draw of 6S follows, so no draw is made up: the three line left
// out is (R123), 3S replaced by 3H, one finding, every total as recorded.
TEST(Recovery, NoDrawIsMadeUpBeforeAThreeWhenTheSeatsOwnDrawFollows_R121) {
  const std::vector<std::string> good = SampleLines("modern-american");
  ASSERT_EQ(good[49], R"({"type":"three","player":2,"card":"3H","replacement":"TH"})");
  ASSERT_EQ(good[50], R"({"type":"draw","player":2,"cards":["6S"]})");
  const std::vector<std::string> lines =
      LeftOut(good, 48, R"({"type":"three","player":2,"card":"3S","replacement":"3H"})");
  ExpectOneFindingOf(good, lines, 49, CheckId::kStockMismatch,
                     "laid out here: 3S replaced by 3H (readings R123)");
  const FileReport r = AuditUnderItsRuleset(lines);
  for (const Finding& f : test::AllFindings(r))
    for (const std::string& note : f.notes)
      EXPECT_EQ(note.find("the draw of 3H, the stock's next, was left out"), std::string::npos)
          << test::Dump(r);
}

// readings R131: in samples/modern-american, seat 3's bonus draw after its
// initial meld (TS 2D 9H KS, line 14) left out; seat 0's draw (line 15)
// comes four cards on. Before, six findings (the bonus not drawn, the draw
// a stock-mismatch, each bonus card played later not held); now one, the
// bonus draw made up. Written after seat 0's draw instead, it is that
// draw's line, late, and not replayed.
TEST(Recovery, ABonusDrawLeftOutIsMadeUpAtTheNextDraw_R131) {
  std::vector<std::string> lines = SampleLines("modern-american");
  ASSERT_EQ(lines[13], R"({"type":"draw","player":3,"cards":["TS","2D","9H","KS"],"bonus":true})");
  ASSERT_EQ(lines[14], R"({"type":"draw","player":0,"cards":["QD"]})");
  const auto audit = AuditUnderItsRuleset;
  std::vector<std::string> missing = lines;
  missing.erase(missing.begin() + 13);
  const FileReport r = audit(missing);
  EXPECT_FINDINGS(r, {14, CheckId::kDrawCount});
  EXPECT_TRUE(HasNote(r, CheckId::kDrawCount,
                      "the bonus draw of TS 2D 9H KS, the stock's next, was left out before this "
                      "line: this draw comes after it; made up here (readings R131)"))
      << test::Dump(r);

  std::vector<std::string> late = lines;
  std::swap(late[13], late[14]);
  const FileReport l = audit(late);
  EXPECT_FINDINGS(l, {14, CheckId::kDrawCount});
  EXPECT_TRUE(HasNote(l, CheckId::kDrawCount, "the draw comes late, at line 15: not replayed"))
      << test::Dump(l);
}

// readings R131 after a take: in samples/modern-american, seat 2's bonus
// draw (AD 9C 3S, line 37) left out; seat 3 takes the pile next, which
// forfeits the bonus cards, and seat 1's draw (line 45) comes three cards on.
// Before, four findings (the bonus not drawn, the draw a stock-mismatch, 3S
// and 9C played later not held); now one, the bonus draw made up at seat
// 1's draw. A draw two cards on (as many as the bonus cards less one) makes
// up nothing.
TEST(Recovery, ABonusDrawLeftOutBeforeATakeIsMadeUpAtTheNextDraw_R131) {
  const std::vector<std::string> good = SampleLines("modern-american");
  ASSERT_EQ(good[36], R"({"type":"draw","player":2,"cards":["AD","9C","3S"],"bonus":true})");
  ASSERT_EQ(good[37], R"({"type":"take_pile","player":3,"top":"TC","with":["TS","TS"]})");
  ASSERT_EQ(good[45], R"({"type":"draw","player":1,"cards":["AS"]})");
  std::vector<std::string> missing = good;
  missing.erase(missing.begin() + 36);
  const FileReport r = AuditUnderItsRuleset(missing);
  EXPECT_FINDINGS(r, {37, CheckId::kDrawCount});
  EXPECT_TRUE(HasNote(r, CheckId::kDrawCount,
                      "the bonus draw of AD 9C 3S, the stock's next, was left out before this "
                      "line: the next draw from the stock, at line 45, comes after it; made up "
                      "there (readings R131)"))
      << test::Dump(r);
  // The hand scores as recorded: the replay did not depart from the log (R124).
  for (const Finding& f : test::AllFindings(r))
    for (const std::string& note : f.notes)
      EXPECT_EQ(note.find("departs from the log"), std::string::npos) << test::Dump(r);

  // The next draw two cards on, not three: not the bonus draw made up.
  std::vector<std::string> drawn = missing;
  drawn[44] = R"({"type":"draw","player":1,"cards":["3S"]})";
  const FileReport d = AuditUnderItsRuleset(drawn);
  EXPECT_TRUE(test::HasId(d, CheckId::kDrawCount)) << test::Dump(d);
  for (const Finding& f : test::AllFindings(d))
    for (const std::string& note : f.notes)
      EXPECT_EQ(note.find("made up there"), std::string::npos) << test::Dump(d);
}

// readings R128: seat 1's draw (line 3) written with the stock's next card
// too, 5H, which seat 2's three takes as its replacement (line 7). Before,
// the draw-count and a stock-mismatch at line 7; now one finding, 5H back on
// the stock, and every total as recorded. An extra card the seat has played
// since cannot go back.
TEST(Recovery, ADrawWrittenWithTheNextStockCardIsOneFinding_R128) {
  std::vector<std::string> lines = ClassicSampleLines();
  ASSERT_EQ(lines[2], R"({"type":"draw","player":1,"cards":["QC"]})");
  ASSERT_EQ(lines[6], R"({"type":"three","player":2,"card":"3D","replacement":"5H"})");
  lines[2] = R"({"type":"draw","player":1,"cards":["QC","5H"]})";
  const FileReport r = Audit(Unlines(lines));
  ExpectOneFinding(r, 3, CheckId::kDrawCount,
                   "line 7 takes 5H from the stock: 5H went back to the stock, written in this "
                   "draw by mistake (readings R128)");

  // Seat 2's replacement written as TS, neither 5H nor the stock's next:
  // nothing shows the draw wrong, and 5H stays drawn.
  std::vector<std::string> other = lines;
  other[6] = R"({"type":"three","player":2,"card":"3D","replacement":"TS"})";
  const FileReport o = Audit(Unlines(other));
  EXPECT_FALSE(HasNote(o, CheckId::kDrawCount, "readings R128")) << test::Dump(o);

  // Seat 1 discards the 5H it drew (line 6): it was drawn, and cannot go
  // back. Seat 2's replacement 5H is then a card already taken.
  lines[5] = R"({"type":"discard","player":1,"card":"5H"})";
  const FileReport drawn = Audit(Unlines(lines));
  EXPECT_EQ(test::CountId(drawn, CheckId::kDrawCount), 1) << test::Dump(drawn);
  EXPECT_FALSE(HasNote(drawn, CheckId::kDrawCount, "readings R128")) << test::Dump(drawn);
  EXPECT_EQ(test::CountId(drawn, CheckId::kStockMismatch), 1) << test::Dump(drawn);
}

// `lines` with line `index` (0-based), a draw, written with `extra` too.
std::vector<std::string> DrawnWith(std::vector<std::string> lines, size_t index,
                                   const std::string& draw, const std::string& extra) {
  EXPECT_EQ(lines.at(index), draw);
  const std::string end = "]}";
  EXPECT_EQ(draw.substr(draw.size() - end.size()), end);
  lines[index] = draw.substr(0, draw.size() - end.size()) + ",\"" + extra + "\"" + end;
  return lines;
}

// readings R128 where the stock's next cards are copies of the one drawn
// too many: the take of the copy tells nothing, the next take does. Classic
// seat 0's draw of 9C (line 170) written with JH too: seat 1 draws JH at
// line 173, and seat 2 JH's copy at line 178. Hutto seat 2's draw of 6H QD
// (line 203) written with 8C too: seat 0 draws 8C 8C (line 207). Before,
// three findings each (a stock-mismatch and a card-too-many-copies at the
// second copy); now one, every total as recorded.
TEST(Recovery, ADrawWrittenWithACardWhoseCopyComesNextIsOneFinding_R128) {
  const std::vector<std::string> classic = ClassicSampleLines();
  ExpectOneFindingOf(classic,
                     DrawnWith(classic, 169, R"({"type":"draw","player":0,"cards":["9C"]})", "JH"),
                     170, CheckId::kDrawCount,
                     "lines 173 and 178 take JH and its copy from the stock: JH went back to the "
                     "stock, written in this draw by mistake (readings R128)");
  const std::vector<std::string> hutto = SampleLines("hutto");
  ExpectOneFindingOf(
      hutto, DrawnWith(hutto, 202, R"({"type":"draw","player":2,"cards":["6H","QD"]})", "8C"), 203,
      CheckId::kDrawCount,
      "line 207 takes 8C from the stock: 8C went back to the stock, written in this draw by "
      "mistake (readings R128)");
}

// readings R128 with a red three drawn too many: seat 2's draw of AD (line
// 60) written with 3H, which seat 3 draws next (line 62). Seat 2 ends its
// turn (line 61) holding that three: a note of the draw-count finding, not
// a three-timing finding of its own. One finding, every total as recorded.
TEST(Recovery, ARedThreeDrawnTooManyIsNoThreeTimingFinding_R128) {
  const std::vector<std::string> classic = ClassicSampleLines();
  ExpectOneFindingOf(
      classic, DrawnWith(classic, 59, R"({"type":"draw","player":2,"cards":["AD"]})", "3H"), 60,
      CheckId::kDrawCount,
      "line 61: seat 2 ends the turn holding 1 red three that should have been laid out: the "
      "three came with the cards drawn beyond the turn's due (readings R128)");

  // A red three of the turn's due draw, kept: its own finding.
  DealSpec d;
  d.hands = {{}, {"QS"}};
  d.stock = {"3D", "5H", "9C", "7S"};
  Log log;
  log.Deal(d);
  const int draw = log.Draw(1, std::vector<std::string>{"3D", "5H"});
  const int discard = log.Discard(1, "QS");
  log.Draw(2, std::vector<std::string>{"5H"});
  log.Discard(2, "5H");
  const FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {draw, CheckId::kDrawCount}, {discard, CheckId::kThreeTiming});
}

// R128 with a red three drawn too many whose copy is the stock's card
// after it: in the jaques-two-handed game, seat 0's draw of 7H (line 256)
// written with 3D, which seat 1 draws next (line 258). As replayed the
// stock's next is then TH, and 3D a card on: the three kept at line 257 is
// no three whose `three` line was left out (R123), which would have put
// every later draw of the hand one card off (42 findings before).
// Where a wild card may be discarded only with no other card held, seat
// 1's draw of JK (line 152) written with TH: its discard of JK next, while
// holding TH alone, is a note of the draw's finding too.
TEST(Recovery, ARedThreeDrawnTooManyIsNoThreeLeftOutAndNoWildDiscardFinding_R128) {
  const std::vector<std::string> good = ScenarioLines("selfplay_jaques_two_handed");
  ExpectOneFindingOf(good,
                     DrawnWith(good, 255, R"({"type":"draw","player":0,"cards":["7H"]})", "3D"),
                     256, CheckId::kDrawCount,
                     "line 258 takes 3D from the stock: 3D went back to the stock, written in "
                     "this draw by mistake (readings R128)");
  ExpectOneFindingOf(good,
                     DrawnWith(good, 151, R"({"type":"draw","player":1,"cards":["JK"]})", "TH"),
                     152, CheckId::kDrawCount,
                     "line 153: a wild card (JK) may not be discarded while the player holds "
                     "other cards: the natural cards held are those drawn beyond the turn's due "
                     "(readings R128)");
}

// readings R121 in a hand's first turn: seat 1's draw of QC (line 3) left
// out. Its melds come before any draw, one finding at the first; the next
// card taken from the stock (seat 2's three, replaced by 5H, a whole draw
// on) shows the draw, made up before the discard. Before, each meld was a
// finding of its own and QC a stock-mismatch and a card-not-held.
TEST(Recovery, ADrawLeftOutInTheHandsFirstTurnIsMadeUp_R121) {
  std::vector<std::string> lines =
      LeftOut(ClassicSampleLines(), 2, R"({"type":"draw","player":1,"cards":["QC"]})");
  const FileReport r = Audit(Unlines(lines));
  ExpectOneFinding(r, 3, CheckId::kTurnSequence,
                   "the draw of QC, the stock's next, was left out: the three's replacement "
                   "at line 6 comes after it (readings R121)");
}

// readings R121's limit: seat 2's first turn (hand 6) written as its
// discard of 3S alone (its draw of 2H and its two `three` lines left out),
// and seat 3's draw after it written as 2H, the stock's next card. The
// turn took no card from the stock, yet no take of the pile is made up: a
// take of TS with TS TD would be the side's initial meld, 30 of the 120 it
// needs, so the turn could not end with that discard. The discard is the
// turn's plain finding.
TEST(Recovery, NoTakeIsMadeUpThatTheTurnCouldNotEndWith_R121) {
  std::vector<std::string> lines = ClassicSampleLines();
  ASSERT_EQ(lines[431], R"({"type":"draw","player":2,"cards":["2H"]})");
  ASSERT_EQ(lines[434], R"({"type":"discard","player":2,"card":"3S"})");
  ASSERT_EQ(lines[435], R"({"type":"draw","player":3,"cards":["5D"]})");
  lines[435] = R"({"type":"draw","player":3,"cards":["2H"]})";
  lines.erase(lines.begin() + 431, lines.begin() + 434);
  const FileReport r = Audit(Unlines(lines));
  const std::vector<Finding> all = test::AllFindings(r);
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all[0].line, 432);
  EXPECT_EQ(all[0].id, CheckId::kTurnSequence);
  for (const std::string& note : all[0].notes)
    EXPECT_EQ(note.find("the take of the pile"), std::string::npos) << test::Dump(r);
}

// readings R121: in samples/hutto, seat 2's draw (line 75) and its meld of
// KH, its last card (line 76), written in the wrong order. The meld before
// the draw empties the hand, which is no going out: the draw comes late and
// the turn plays on. One finding; before, the hand ended at the meld and
// its last 29 lines were not replayed.
TEST(Recovery, AHandEmptiedBeforeTheTurnsDrawHasNotGoneOut_R121) {
  std::vector<std::string> lines = SampleLines("hutto");
  ASSERT_EQ(lines[74], R"({"type":"draw","player":2,"cards":["4D","7H"]})");
  ASSERT_EQ(lines[75], R"({"type":"meld","player":2,"melds":[{"to":"K","cards":["KH"]}]})");
  const auto audit = AuditUnderItsRuleset;
  std::vector<std::string> swapped = lines;
  std::swap(swapped[74], swapped[75]);
  const FileReport r = audit(swapped);
  EXPECT_FINDINGS(r, {75, CheckId::kTurnSequence});
  ASSERT_EQ(r.games.size(), 1u);
  EXPECT_EQ(r.games[0].totals, audit(lines).games.at(0).totals);

  // Not so for a meld out of turn: in samples/classic seat 3's last meld
  // (2S onto its aces, line 75) written after its discard (line 76) still
  // goes out, in the next seat's turn: one turn-order finding.
  std::vector<std::string> classic = ClassicSampleLines();
  ASSERT_EQ(classic[74], R"({"type":"meld","player":3,"melds":[{"to":"A","cards":["2S"]}]})");
  std::swap(classic[74], classic[75]);
  EXPECT_FINDINGS(Audit(Unlines(classic)), {76, CheckId::kTurnOrder});
}
#endif

// A game given up in the middle of a hand: its end_game is the last line,
// and is judged as the game's end.
TEST(Recovery, AnEndGameThatEndsTheLogInTheMiddleOfAHandIsTheGamesEnd) {
  Log log;
  log.Deal(DealSpec{});
  log.Draw(1);
  const int end = log.EndGame();
  EXPECT_FINDINGS(Audit(log.str()), {end, CheckId::kLogIncomplete}, {end, CheckId::kGameEnd});
}

#ifdef CANASTA_SOURCE_DIR
// Modern American's bonus draw (001 L37) written twice: the copy is one
// finding and not replayed (R119). (Left out: R131.)
TEST(Recovery, ABonusDrawWrittenTwice_R119) {
  std::vector<std::string> lines = SampleLines("modern-american");
  ASSERT_NE(lines[13].find("\"bonus\":true"), std::string::npos);  // line 14, four cards
  const auto audit = AuditUnderItsRuleset;
  std::vector<std::string> twice = lines;
  twice.insert(twice.begin() + 14, lines[13]);
  const FileReport r = audit(twice);
  EXPECT_FINDINGS(r, {15, CheckId::kDrawCount});
  EXPECT_TRUE(HasNote(r, CheckId::kDrawCount, "the bonus draw of line 14 written again"))
      << test::Dump(r);
  ASSERT_EQ(r.games.size(), 1u);
  EXPECT_EQ(r.games[0].totals, audit(lines).games.at(0).totals);
}
#endif

// readings R119: the turn's draw marked "bonus" where no bonus cards are
// due is one draw-count finding, and is the turn's draw: the turn goes on.
// readings R119 for the other moves: a meld, a discard and a red three
// written twice are one finding each, the copy not replayed; the same meld
// again, of cards the seat still holds, is a move of its own.
TEST(Recovery, AMeldDiscardOrThreeWrittenTwiceIsOneFinding_R119) {
  DealSpec d;
  d.hands = {{}, {"KS", "KS", "KH", "KD", "JK", "QS"}};
  d.stock = {"9D", "AS", "7C", "6H"};
  {
    Log log;
    log.Deal(d);
    log.Draw(1, std::vector<std::string>{"9D"});
    const int meld = log.Meld(1, {{"KH", "KD", "JK", "KS"}});
    const int again = log.Raw(log.Line(meld));
    log.Add(1, "K", {"KS"});  // the other KS: no finding
    const int discard = log.Discard(1, "QS");
    const int twice = log.Raw(log.Line(discard));
    log.Draw(2, std::vector<std::string>{"AS"});
    const FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {{again, CheckId::kCardNotHeld}, {twice, CheckId::kTurnOrder}});
    EXPECT_TRUE(HasNote(r, CheckId::kCardNotHeld,
                        "the meld of line " + std::to_string(meld) +
                            " written again: this line is not replayed (readings R119)"))
        << test::Dump(r);
    EXPECT_TRUE(HasNote(r, CheckId::kTurnOrder,
                        "the discard of line " + std::to_string(discard) +
                            " written again: this line is not replayed (readings R119)"))
        << test::Dump(r);
  }
  d.hands[1].push_back("3H");
  {
    Log log;
    log.Deal(d);
    const int three = log.ThreeWith(1, "3H", "9D");
    const int again = log.Raw(log.Line(three));
    log.Draw(1, std::vector<std::string>{"AS"});
    log.Discard(1, "AS");
    log.Draw(2, std::vector<std::string>{"7C"});
    const FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {again, CheckId::kCardNotHeld});
    EXPECT_EQ(test::MessageOf(r, CheckId::kCardNotHeld), "seat 1 lays out 3H again");
  }
}

// readings R119: in the classic self-play game (seed 33), seat 1's JK onto
// its nines (line 347) written twice. The seat holds a second JK, so the
// copy is legal and replayed; its next line lays a JK onto its jacks, which
// the copy took. The copy was the line written twice: one finding at its
// line, the position before it back, and every total as recorded. Where
// the next line lays other cards, the copy stays a meld of its own.
TEST(Recovery, AMeldCopyWhoseCardsTheNextLinePlaysIsOneFinding_R119) {
  const std::vector<std::string> good = ScenarioLines("selfplay_classic");
  const std::string copy = R"({"type":"meld","player":1,"melds":[{"to":"9","cards":["JK"]}]})";
  ASSERT_EQ(good.at(346), copy);
  std::vector<std::string> twice = good;
  twice.insert(twice.begin() + 347, copy);
  ExpectOneFindingOf(good, twice, 348, CheckId::kCardNotHeld,
                     "the meld of line 347 written again: line 349 plays JK, which this line "
                     "took; it is not replayed (readings R119)");
  EXPECT_EQ(test::MessageOf(AuditUnderItsRuleset(twice), CheckId::kCardNotHeld),
            "seat 1 plays JK again");
  // Written three times: the third, of a card the seat no longer holds, is
  // the line written twice, judged as before.
  std::vector<std::string> thrice = twice;
  thrice.insert(thrice.begin() + 347, copy);
  const FileReport three = AuditUnderItsRuleset(thrice);
  EXPECT_TRUE(test::HasFindingAt(three, 349, CheckId::kCardNotHeld)) << test::Dump(three);
  EXPECT_TRUE(HasNote(three, CheckId::kCardNotHeld,
                      "the meld of line 348 written again: this line is not replayed (readings "
                      "R119)"))
      << test::Dump(three);
  // The copy kept, the jacks' line written with another card the seat lacks:
  // the copy took none of it, so the jacks' line is judged as written.
  std::vector<std::string> other = twice;
  ASSERT_EQ(other.at(348), R"({"type":"meld","player":1,"melds":[{"to":"J","cards":["JK"]}]})");
  other[348] = R"({"type":"meld","player":1,"melds":[{"to":"J","cards":["JS"]}]})";
  const FileReport r = AuditUnderItsRuleset(other);
  EXPECT_TRUE(test::HasFindingAt(r, 349, CheckId::kCardNotHeld)) << test::Dump(r);
  EXPECT_FALSE(HasNote(r, CheckId::kCardNotHeld, "which this line took")) << test::Dump(r);
}

// readings R119 for a meld written twice whose cards the seat still holds
// (a second copy): the copy that breaks a rule is the line written again,
// one finding of that rule, not replayed. Classic line 16 (2D onto the
// tens, the seat holding another 2D) written twice: the copy would make
// the tens 3 naturals and 3 wild cards; before, two findings (that, and
// 2D not held when the seat plays it at line 29). Modern-american line 517
// (a joker onto the eights): the copy would make 8 cards. A copy that is
// legal is a meld of its own, replayed, no finding.
TEST(Recovery, AMeldWrittenTwiceThatBreaksARuleIsOneFinding_R119) {
  const std::vector<std::string> classic = ClassicSampleLines();
  std::vector<std::string> twice = classic;
  ASSERT_EQ(twice[15], R"({"type":"meld","player":0,"melds":[{"to":"T","cards":["2D"]}]})");
  twice.insert(twice.begin() + 16, twice[15]);
  ExpectOneFindingOf(classic, twice, 17, CheckId::kMeldTooManyWilds,
                     "the meld of line 16 written again: this line is not replayed (readings "
                     "R119)");
  const std::vector<std::string> ma = SampleLines("modern-american");
  twice = ma;
  ASSERT_EQ(twice[516], R"({"type":"meld","player":2,"melds":[{"to":"8","cards":["JK"]}]})");
  twice.insert(twice.begin() + 517, twice[516]);
  ExpectOneFindingOf(ma, twice, 518, CheckId::kMeldTooBig,
                     "the meld of line 517 written again: this line is not replayed (readings "
                     "R119)");

  DealSpec d;
  d.hands = {{}, {"KS", "KS", "KC", "KH", "KD", "QS", "QH", "9C", "9D"}};
  d.stock = {"5D", "6H", "7C"};
  Log log;
  log.Deal(d);
  log.Draw(1, std::vector<std::string>{"5D"});
  log.Meld(1, {{"KH", "KD", "KC"}});
  const int add = log.Add(1, "K", {"KS"});
  log.Raw(log.Line(add));  // the other KS: legal, a meld of its own
  log.Discard(1, "QS");
  log.Draw(2, std::vector<std::string>{"6H"});
  const FileReport r = Audit(log.str());
  EXPECT_TRUE(test::Problems(r).empty()) << test::Dump(r);

  // The copied line broke a rule itself: the two share one cause, and the
  // copy is replayed. In the jaques-two-handed game, seat 0's aces (line
  // 343) left out: its 2H added to them (line 345, meld-target-missing,
  // the meld left out) and its second 2H (line 346) judged again there,
  // a note of that finding, not a line written twice.
  const std::vector<std::string> jaques2 = ScenarioLines("selfplay_jaques_two_handed");
  ExpectOneFindingOf(
      jaques2,
      LeftOut(jaques2, 342,
              R"({"type":"meld","player":0,"melds":[{"cards":["AS","AH","AD","AC"]}]})"),
      344, CheckId::kMeldTargetMissing,
      "line 345: as replayed, the meld of As has 0 natural card(s); it needs at least 2; the "
      "side's melds lack the meld line left out (readings R137)");
  // So where the copied line's finding was folded into an earlier one's
  // notes: in the jaques game (seed 23), seat 1's eights (line 166) left
  // out; seat 3's 8C onto them (line 175) is the finding, and its 2C and
  // second 2C (lines 178, 179) are notes of it. Before, the second 2C was
  // read as written twice: two findings.
  const std::vector<std::string> jaques = ScenarioLines("selfplay_jaques");
  ExpectOneFindingOf(
      jaques,
      LeftOut(jaques, 165, R"({"type":"meld","player":1,"melds":[{"cards":["8S","8H","8C"]}]})"),
      175, CheckId::kMeldTargetMissing,
      "line 179: as replayed, the meld of 8s has 1 natural card(s); it needs at least 2; the "
      "side's melds lack the meld line left out (readings R137)");
  // And where it broke none: seat 3's 8C onto the eights (line 176) left
  // out, its second 2C (line 180) would make three wild cards to three
  // naturals, and is read as written again, a finding about the side's
  // melds all the same. Seat 3 then holds that 2C and 8C, cannot go out,
  // and the hand's record counts them melded: the hand ended early is a
  // note of that finding (R137). Two findings before.
  ExpectOneFindingOf(
      jaques,
      LeftOut(jaques, 175, R"({"type":"meld","player":3,"melds":[{"to":"8","cards":["8C"]}]})"),
      179, CheckId::kMeldTooManyWilds,
      "hand 3's record (line 216) counts 30 points more melded and 30 fewer left in hand for "
      "side 1 (Bob and Dan) than the replay: a meld line of the side was left out of the log "
      "(readings R137)");
}

// readings R119 for a red three written twice, in the classic sample: the
// copy is one finding and not replayed, before any other reading of it.
// Seat 2's 3D (line 7) written again while seat 0 alone holds a 3D is not
// seat 0's three (R118); seat 2's first 3D (line 433) written again while
// it still holds its second is not that one laid with a card already drawn.
TEST(Recovery, ARedThreeWrittenTwiceIsOneFindingWhoeverHoldsAnother_R119) {
  std::vector<std::string> lines = ClassicSampleLines();
  ASSERT_EQ(lines[6], R"({"type":"three","player":2,"card":"3D","replacement":"5H"})");
  lines.insert(lines.begin() + 6, lines[6]);
  const FileReport other = Audit(Unlines(lines));
  ExpectOneFinding(other, 8, CheckId::kCardNotHeld,
                   "the three of line 7 written again: this line is not replayed (readings R119)");

  lines = ClassicSampleLines();
  ASSERT_EQ(lines[432], R"({"type":"three","player":2,"card":"3D","replacement":"7C"})");
  ASSERT_EQ(lines[433], R"({"type":"three","player":2,"card":"3D","replacement":"KD"})");
  lines.insert(lines.begin() + 432, lines[432]);
  const FileReport own = Audit(Unlines(lines));
  ExpectOneFinding(own, 434, CheckId::kStockMismatch,
                   "the three of line 433 written again: this line is not replayed "
                   "(readings R119)");
  EXPECT_EQ(test::MessageOf(own, CheckId::kStockMismatch),
            "seat 2 lays out 3D again, replaced by 7C, which line 433 drew already");
}

// readings R119 for a red three written again with another replacement
// (the stock's next card): the seat holds no other copy, so the line is its
// last one written again, one finding, not replayed (seat 2's 3D, classic
// line 7: before, the copy's 7S was taken from the stock, and the turn's
// draw of it, the hand's scores and seat 0's 3D went wrong after it).
// Unless another seat may lay that three out now (hutto, before the first
// turn): the line is then that seat's, its seat miswritten (R118).
TEST(Recovery, AThreeWrittenAgainWithAnotherReplacementIsOneFinding_R119) {
  std::vector<std::string> lines = ClassicSampleLines();
  ASSERT_EQ(lines[6], R"({"type":"three","player":2,"card":"3D","replacement":"5H"})");
  ASSERT_EQ(lines[7], R"({"type":"draw","player":2,"cards":["7S"]})");
  lines.insert(lines.begin() + 7, R"({"type":"three","player":2,"card":"3D","replacement":"7S"})");
  const FileReport copy = Audit(Unlines(lines));
  ExpectOneFinding(copy, 8, CheckId::kCardNotHeld,
                   "the three of line 7 written again: this line is not replayed (readings R119)");
  EXPECT_EQ(test::MessageOf(copy, CheckId::kCardNotHeld),
            "seat 2 lays out 3D again, replaced by 7S where line 7 has 5H");

  const std::vector<std::string> hutto = SampleLines("hutto");
  std::vector<std::string> reseated = hutto;
  ASSERT_EQ(reseated[2], R"({"type":"three","player":2,"card":"3D","replacement":"QC"})");
  ASSERT_EQ(reseated[3], R"({"type":"three","player":0,"card":"3D","replacement":"5H"})");
  reseated[3] = R"({"type":"three","player":2,"card":"3D","replacement":"5H"})";
  ExpectOneFindingOf(
      hutto, reseated, 4, CheckId::kCardNotHeld,
      "seat 0 (Ann) alone holds it: the move is replayed as seat 0's (readings R118)");
}

// readings R118 before play: a three written for the next seat, which
// holds that card too, is replayed as written; the real holder's own line
// then finds its seat holding none. The seat that lays out its threes
// first in the hand's order owned the earlier line, so the two lines'
// replacements go to the seats as written. Modern-american lines 114
// (seat 3's 3H, written as seat 0's) and 234 (seat 0's 3C, written as seat
// 1's): one finding each, every total as recorded (before, the swapped
// replacements cost two card-not-held findings later in the hand).
TEST(Recovery, AThreeWrittenForASeatThatHoldsTheSameCardIsOneFinding_R118) {
  const std::vector<std::string> ma = SampleLines("modern-american");
  struct Case {
    size_t index;
    const char* written;
    int finding;
    const char* note;
  };
  for (const Case& c :
       {Case{113, R"({"type":"three","player":0,"card":"3H","replacement":"QS"})", 115,
             "line 114 lays out 3H for seat 0 (Ann), who held one; seat 3 (Dan) alone holds one "
             "now, and lays out its threes before seat 0 (Ann) does: line 114 was seat 3 (Dan)'s "
             "(replaced by QS), and this line is seat 0 (Ann)'s (replaced by AS) (readings R118)"},
        Case{233, R"({"type":"three","player":1,"card":"3C","replacement":"8S"})", 236,
             "line 234 lays out 3C for seat 1 (Bob), who held one; seat 0 (Ann) alone holds one "
             "now, and lays out its threes before seat 1 (Bob) does: line 234 was seat 0 (Ann)'s "
             "(replaced by 8S), and this line is seat 1 (Bob)'s (replaced by JS) (readings "
             "R118)"}}) {
    SCOPED_TRACE(c.written);
    std::vector<std::string> reseated = ma;
    ASSERT_EQ(reseated[c.index].find(R"("type":"three")"), 1u) << reseated[c.index];
    reseated[c.index] = c.written;
    ExpectOneFindingOf(ma, reseated, c.finding, CheckId::kCardNotHeld, c.note);
  }
  // Seat 1's 3D (line 117) written for seat 2, whose own 3D line 112 laid
  // out earlier: seat 1 lays out its threes after seat 2, so this line is
  // seat 1's, and the replacements stay.
  std::vector<std::string> later = ma;
  ASSERT_EQ(later[116], R"({"type":"three","player":1,"card":"3D","replacement":"8H"})");
  later[116] = R"({"type":"three","player":2,"card":"3D","replacement":"8H"})";
  ExpectOneFindingOf(
      ma, later, 117, CheckId::kCardNotHeld,
      "seat 1 (Bob) alone holds it: the move is replayed as seat 1's (readings R118)");
}

// readings R142: the game's end_game (line 597) written before the last
// hand's end_hand (line 596): one finding; the hand ends, then the game,
// with every total and the winner as recorded.
TEST(Recovery, AnEndGameWrittenBeforeTheLastEndHandIsOneFinding_R142) {
  const FileReport r = Audit(Unlines(Swapped(
      ClassicSampleLines(), 595, R"({"type":"end_hand","hand":7,)", R"({"type":"end_game",)")));
  ExpectOneFinding(r, 596, CheckId::kLogOutOfPlace,
                   "the two lines are written in the wrong order, and are replayed end_hand first "
                   "(readings R142)");
  EXPECT_EQ(test::MessageOf(r, CheckId::kLogOutOfPlace),
            "the end_game comes before the end_hand of hand 7 at line 597");
  EXPECT_EQ(r.games[0].hands.size(), 7u);

  // An end_game in the middle of the hand, then that hand's end_hand: the
  // same two lines swapped, the hand ended early (R120) and the one finding
  // for that stands as the hand's.
  const std::vector<std::string> all = ClassicSampleLines();
  std::vector<std::string> early(all.begin(), all.begin() + 590);  // lines 591-595 left out
  early.push_back(all[596]);
  early.push_back(all[595]);
  const FileReport e = Audit(Unlines(early));
  EXPECT_TRUE(HasNote(e, CheckId::kLogOutOfPlace, "readings R142")) << test::Dump(e);
  EXPECT_EQ(test::CountId(e, CheckId::kLogIncomplete), 0) << test::Dump(e);
  EXPECT_EQ(test::CountId(e, CheckId::kGameEnd), 0) << test::Dump(e);
  EXPECT_EQ(test::CountId(e, CheckId::kHandEndedEarly), 1) << test::Dump(e);
}

// readings R143: a three written after the line it came before is one
// finding, the two replayed three first, and every total as in the log
// written right. In the jaques sample: seat 0's 3D (line 4, laid out before
// play) after the first turn's draw (line 5); seat 2's 3D (line 3) after
// seat 0's, whose replacement is the stock's card after it; seat 2's 3H
// (line 322, drawn at line 321) after the discard that ends its turn.
TEST(Recovery, AThreeWrittenAfterTheLineItCameBeforeIsOneFinding_R143) {
  const std::vector<std::string> good = SampleLines("jaques");
  struct Case {
    size_t first;  // 0-based: lines `first` and `first + 1` swapped
    const char* message;
  };
  for (const Case& c : {
           Case{3, "seat 1 (Bob)'s draw comes before seat 0 (Ann)'s 3D, laid out at line 5"},
           Case{2, "seat 0 (Ann)'s 3D comes before seat 2 (Cat)'s 3D, laid out at line 4"},
           Case{321, "seat 2 (Cat)'s discard comes before its 3H, laid out at line 323"},
       }) {
    SCOPED_TRACE(c.message);
    std::vector<std::string> lines = good;
    ASSERT_NE(lines[c.first].find(R"("type":"three")"), std::string::npos);
    std::swap(lines[c.first], lines[c.first + 1]);
    const int line = int(c.first) + 1;
    ExpectOneFindingOf(good, lines, line, CheckId::kLogOutOfPlace,
                       "the two lines are written in the wrong order, and are replayed line " +
                           std::to_string(line + 1) + " first (readings R143)");
    EXPECT_EQ(test::MessageOf(AuditUnderItsRuleset(lines), CheckId::kLogOutOfPlace), c.message);
  }

  // Where threes are laid out at once (modern-american), before the first
  // turn's draw: seat 3's 3H (line 114) before seat 2's 3C (line 113),
  // whose replacement is the stock's card after it.
  const std::vector<std::string> modern = SampleLines("modern-american");
  std::vector<std::string> swapped =
      Swapped(modern, 112, R"({"type":"three","player":2,"card":"3C")",
              R"({"type":"three","player":3,"card":"3H")");
  ExpectOneFindingOf(modern, swapped, 113, CheckId::kLogOutOfPlace,
                     "the two lines are written in the wrong order, and are replayed line 114 "
                     "first (readings R143)");
  EXPECT_EQ(test::MessageOf(AuditUnderItsRuleset(swapped), CheckId::kLogOutOfPlace),
            "seat 3 (Dan)'s 3H comes before seat 2 (Cat)'s 3C, laid out at line 114");

  // A three after the discard whose replacement is not the stock's next
  // card is no line written late: the seat kept it (three-timing), and its
  // lay-out outside its turn is judged as written.
  std::vector<std::string> kept = good;
  ASSERT_EQ(kept[321], R"({"type":"three","player":2,"card":"3H","replacement":"TS"})");
  kept[321] = R"({"type":"three","player":2,"card":"3H","replacement":"AC"})";
  std::swap(kept[321], kept[322]);
  const FileReport k = AuditUnderItsRuleset(kept);
  EXPECT_FALSE(HasNote(k, CheckId::kLogOutOfPlace, "readings R143")) << test::Dump(k);
  EXPECT_GE(test::CountId(k, CheckId::kThreeTiming), 1) << test::Dump(k);

  // Under hutto, where threes are laid out before play in seat order from
  // the dealer's left (R23), two lines whose order the stock reverses are
  // no lines swapped when the reversed order breaks that rule: seat 0
  // (last in order) cannot have laid out before seat 2.
  std::vector<std::string> hutto = SampleLines("hutto");
  ASSERT_EQ(hutto[2], R"({"type":"three","player":2,"card":"3D","replacement":"QC"})");
  ASSERT_EQ(hutto[3], R"({"type":"three","player":0,"card":"3D","replacement":"5H"})");
  hutto[2] = R"({"type":"three","player":2,"card":"3D","replacement":"5H"})";
  hutto[3] = R"({"type":"three","player":0,"card":"3D","replacement":"QC"})";
  const FileReport h = AuditUnderItsRuleset(hutto);
  EXPECT_FALSE(HasNote(h, CheckId::kLogOutOfPlace, "readings R143")) << test::Dump(h);
  EXPECT_EQ(test::CountId(h, CheckId::kThreeTiming), 0) << test::Dump(h);
}

// readings R144: in the modern-american sample, seat 1's addition of AS
// AC to the aces (line 19) left out: the side's aces make no canasta, so
// seat 3's meld down to one card (line 107 then) and its going out (108)
// are short of canastas. One finding, the going out its note, the hand's
// record showing the meld line left out (R137), every total as recorded.
TEST(Recovery, MeldingDownThenGoingOutShortOfCanastasIsOneFinding_R144) {
  const std::vector<std::string> good = SampleLines("modern-american");
  const std::vector<std::string> lines =
      LeftOut(good, 18, R"({"type":"meld","player":1,"melds":[{"to":"A","cards":["AS","AC"]}]})");
  ExpectOneFindingOf(good, lines, 107, CheckId::kMeldKeepACard,
                     "line 108: seat 3 goes out with 1 canasta; the side needs 2: the same "
                     "canastas short that this finding is about (readings R144)");
  const FileReport r = AuditUnderItsRuleset(lines);
  EXPECT_TRUE(HasNote(r, CheckId::kMeldKeepACard, "a meld line of the side was left out"))
      << test::Dump(r);
}

// readings R145: in the modern-american sample, seat 2's 9D added to the
// nines (line 172) left out: the meld holds 4 naturals, so the 2C and the
// joker added next (lines 173, 174, 172 and 173 then) each break the
// five-naturals rule (001 L25). One finding, the second its note, every
// total as recorded.
TEST(Recovery, AWildAddedAgainToTheSameShortMeldIsOneFinding_R145) {
  const std::vector<std::string> good = SampleLines("modern-american");
  ExpectOneFindingOf(
      good, LeftOut(good, 171, R"({"type":"meld","player":2,"melds":[{"to":"9","cards":["9D"]}]})"),
      172, CheckId::kMeldTooManyWilds,
      "line 173: the meld of 9s holds 4 natural card(s); a wild card may join it only once it "
      "holds 5: the same meld, with no more naturals than at this finding (readings R145)");
}

// readings R137: an addition of naturals left out, shown first by a wild
// card added to the meld (meld-too-many-wilds), then by the side going out
// short of the canasta that addition made. The record counts that canasta:
// the going out is a note of the first finding. Classic lines 290, 369 and
// 470, jaques line 225: two findings each before, now one, every total as
// recorded.
TEST(Recovery, GoingOutShortOfTheCanastaAMeldLeftOutMadeIsANote_R137) {
  const std::vector<std::string> classic = ClassicSampleLines();
  const std::vector<std::string> jaques = SampleLines("jaques");
  struct Case {
    const std::vector<std::string>& good;
    LeftOutLine left_out;
    int finding_line;  // the meld-too-many-wilds finding
  };
  for (const Case& c : {
           Case{classic,
                {289, R"({"type":"meld","player":0,"melds":[{"to":"7","cards":["7H","7D","7C"]}]})",
                 "line 308: as replayed, seat 2 goes out with 0 canastas; the side needs 1; the "
                 "record counts 300 for canastas, not 0: the meld line left out made the canasta "
                 "(readings R137)"},
                296},
           Case{classic,
                {368, R"({"type":"meld","player":1,"melds":[{"to":"A","cards":["AH"]}]})",
                 "line 428: as replayed, seat 3 goes out with 0 canastas"},
                427},
           Case{classic,
                {469, R"({"type":"meld","player":2,"melds":[{"to":"T","cards":["TS","TD"]}]})",
                 "line 516: as replayed, seat 0 goes out with 0 canastas"},
                473},
           Case{jaques,
                {224, R"({"type":"meld","player":1,"melds":[{"to":"Q","cards":["QS","QC"]}]})",
                 "line 257: as replayed, seat 3 goes out with 0 canastas"},
                229},
       }) {
    SCOPED_TRACE(c.left_out.line);
    ExpectOneFindingOf(c.good, LeftOut(c.good, c.left_out.index, c.left_out.line), c.finding_line,
                       CheckId::kMeldTooManyWilds, c.left_out.note);
  }
  // So is melding down to one card short of canastas (meld-keep-a-card),
  // with the going out of the same turn, its R144 note: modern-american
  // lines 153 and 476 left out.
  const std::vector<std::string> ma = SampleLines("modern-american");
  const std::string to_4 = R"({"type":"meld","player":3,"melds":[{"to":"4","cards":["4C","4C"]}]})";
  ExpectOneFindingOf(ma, LeftOut(ma, 152, to_4), 153, CheckId::kMeldTooManyWilds,
                     "line 228: as replayed, seat 1 melds down to one card without going out "
                     "(the side has 1 of the 2 canastas needed); a player not going out keeps two "
                     "cards after melding; the record counts 600 for canastas, not 300: the meld "
                     "line left out made the canasta (readings R137)");
  EXPECT_TRUE(HasNote(AuditUnderItsRuleset(LeftOut(ma, 152, to_4)), CheckId::kMeldTooManyWilds,
                      "line 229: seat 1 goes out with 1 canasta; the side needs 2: the same "
                      "canastas short that this finding is about (readings R144)"));
  ExpectOneFindingOf(
      ma,
      LeftOut(ma, 475, R"({"type":"meld","player":2,"melds":[{"to":"K","cards":["KS","KH"]}]})"),
      482, CheckId::kMeldTooManyWilds, "line 531: as replayed, seat 0 melds down to one card");
  {  // a record that counts no canasta more: reported as found, R144's
     // note on it
    std::vector<std::string> lines = LeftOut(ma, 152, to_4);
    const std::string with = R"({"canastas":600,"red_threes":600,"going_out":100,)";
    ASSERT_NE(lines[229].find(with), std::string::npos) << lines[229];
    lines[229].replace(lines[229].find(with), with.size(),
                       R"({"canastas":300,"red_threes":600,"going_out":100,)");
    const FileReport r = AuditUnderItsRuleset(lines);
    EXPECT_PROBLEMS(r, {153, CheckId::kMeldTooManyWilds}, {228, CheckId::kMeldKeepACard});
    EXPECT_TRUE(HasNote(r, CheckId::kMeldKeepACard,
                        "line 229: seat 1 goes out with 1 canasta; the side needs 2: the same "
                        "canastas short that this finding is about (readings R144)"))
        << test::Dump(r);
  }
  // A record that counts no canasta more than the replay does not say the
  // meld left out made one: the going out stays its own finding, at its
  // line.
  std::vector<std::string> lines = LeftOut(
      classic, 289, R"({"type":"meld","player":0,"melds":[{"to":"7","cards":["7H","7D","7C"]}]})");
  const std::string with = R"("breakdown":[{"canastas":300,)";
  ASSERT_NE(lines[308].find(with), std::string::npos) << lines[308];
  lines[308].replace(lines[308].find(with), with.size(), R"("breakdown":[{"canastas":0,)");
  const FileReport r = Audit(Unlines(lines));
  EXPECT_PROBLEMS(r, {296, CheckId::kMeldTooManyWilds}, {308, CheckId::kOutWithoutCanastas});
  EXPECT_TRUE(HasNote(r, CheckId::kOutWithoutCanastas, "hand 4, turn of seat 2 (Cat)"))
      << test::Dump(r);
}

// readings R137: a side's initial meld line left out, then its next take
// of the pile judged frozen because the side had not opened, and the same
// seat's next line adding to a meld the side lacks. The side had opened:
// the take's finding is a note of the addition's. Classic line 277 (seat
// 1's aces) and hutto line 115 (seat 3's fours and tens) left out: two
// findings each before, now one, every total as recorded.
TEST(Recovery, ATakeFrozenOnlyByTheMeldLineLeftOutIsANote_R137) {
  const std::vector<std::string> classic = ClassicSampleLines();
  const std::string aces = R"({"type":"meld","player":1,"melds":[{"cards":["AS","AD","JK"]}]})";
  ExpectOneFindingOf(classic, LeftOut(classic, 276, aces), 284, CheckId::kMeldTargetMissing,
                     "line 283: as replayed, the pile is frozen; taking it needs a natural pair of "
                     "9s from the hand; the side had opened by the meld line left out, so the pile "
                     "was not frozen for it (readings R137)");
  const std::vector<std::string> hutto = SampleLines("hutto");
  ExpectOneFindingOf(
      hutto,
      LeftOut(
          hutto, 114,
          R"({"type":"meld","player":3,"melds":[{"cards":["4S","4H","2S"]},{"cards":["TS","TC","TC"]}]})"),
      123, CheckId::kMeldTargetMissing,
      "line 122: as replayed, the pile is frozen; taking it needs a natural pair of Ks");

  // The seat's next line not such a meld: the take's finding as found.
  std::vector<std::string> lines = LeftOut(classic, 276, aces);
  ASSERT_EQ(lines[283],
            R"({"type":"meld","player":3,"melds":[{"to":"A","cards":["AS","AH","AH"]}]})");
  lines.erase(lines.begin() + 283);
  const FileReport r = Audit(Unlines(lines));
  EXPECT_FALSE(HasNote(r, CheckId::kMeldTargetMissing, "so the pile was not frozen"))
      << test::Dump(r);
  EXPECT_TRUE(HasNote(r, CheckId::kPileFrozenNeedsPair,
                      "frozen because the side has not made its initial meld"))
      << test::Dump(r);
  EXPECT_TRUE(HasNote(r, CheckId::kPileFrozenNeedsPair, "hand 4, turn of seat 3 (Dan)"))
      << test::Dump(r);

  // A pile its cards freeze too (a wild card discarded): the take breaks
  // the rule whether the side had opened or not, a finding of its own.
  DealSpec d;
  d.hands = {{}, {"2C"}, {"9S"}, {"9H", "JK", "AS", "AH", "AD", "AC"}};
  d.stock = {"5D", "6H"};
  Log log;
  log.Deal(d);
  log.Draw(1, std::vector<std::string>{"5D"});
  log.Discard(1, "2C");
  log.Draw(2, std::vector<std::string>{"6H"});
  log.Discard(2, "9S");
  const int take = log.Take(3, "9S", {"9H", "JK"});
  const int add = log.Add(3, "A", {"AS", "AH"});
  const FileReport frozen = Audit(log.str());
  EXPECT_PROBLEMS(frozen, {take, CheckId::kPileFrozenNeedsPair},
                  {add, CheckId::kMeldTargetMissing});
}

// The self-play games of tests/scenarios/ (classic-001, tutorial,
// jaques-two-handed, jaques-three-handed, and second modern-american,
// two-handed, hutto, classic and three-handed games), clean as recorded,
// damaged one line at a time below.
TEST(Recovery, TheSelfPlayScenariosAreClean) {
  for (const char* name :
       {"selfplay_classic_001", "selfplay_tutorial", "selfplay_jaques_two_handed",
        "selfplay_jaques_three_handed", "selfplay_modern_american", "selfplay_two_handed",
        "selfplay_hutto", "selfplay_classic", "selfplay_three_handed", "selfplay_jaques"}) {
    SCOPED_TRACE(name);
    const FileReport r = AuditUnderItsRuleset(ScenarioLines(name));
    EXPECT_TRUE(test::AllFindings(r).empty()) << test::Dump(r);
    ASSERT_EQ(r.games.size(), 1u);
    EXPECT_TRUE(r.games[0].finished);
  }
}

// readings R121: a turn that only discards its last card, its draw left
// out. Judged as written the discard goes out, and every later line of the
// hand is a move after its end. The log plays on, so the seat held more:
// the draw of the stock's next card is made up before the discard. In the
// classic-001 game, seat 2's draw of TC (line 378) left out: before, four
// findings; now one, every total as recorded.
TEST(Recovery, ALastCardDiscardedWhileTheLogPlaysOnShowsTheDrawLeftOut_R121) {
  const std::vector<std::string> good = ScenarioLines("selfplay_classic_001");
  ExpectOneFindingOf(good, LeftOut(good, 377, R"({"type":"draw","player":2,"cards":["TC"]})"), 378,
                     CheckId::kTurnSequence,
                     "the draw of TC, the stock's next, was left out before this line: the "
                     "discard of its last card would go out, and the log plays on at line 379; "
                     "made up here (readings R121)");
}

// readings R121 with copies: in the classic-001 game, seat 3's draw of 7D
// (line 344) left out; it discards 5S, which it held. Seat 1's draw of 7D
// (line 353 then) is both the stock's next card and, the two 7Ds lying
// together, a whole draw on: it took the second copy, and the first is
// seat 3's draw, made up. Before, three findings (seat 2's JD one card
// off, seat 3's meld of two 7Ds later).
TEST(Recovery, ADrawLeftOutShownByASecondCopyAWholeDrawOnIsMadeUp_R121) {
  const std::vector<std::string> good = ScenarioLines("selfplay_classic_001");
  ExpectOneFindingOf(good, LeftOut(good, 343, R"({"type":"draw","player":3,"cards":["7D"]})"), 344,
                     CheckId::kTurnSequence,
                     "the draw of 7D, the stock's next, was left out before this line: the draw "
                     "of line 353 comes after it; made up (readings R121)");
}

// readings R137 where the finding about the side's melds comes with the
// going out itself: in the classic-001 game, seat 0's TH added to the tens
// (line 403) left out; seat 2's going out (line 411) adds a wild card to
// them (meld-too-many-wilds) and goes out short of the canasta they made.
TEST(Recovery, GoingOutShortInTheMoveOfTheMeldFindingIsANote_R137) {
  const std::vector<std::string> good = ScenarioLines("selfplay_classic_001");
  ExpectOneFindingOf(
      good, LeftOut(good, 402, R"({"type":"meld","player":0,"melds":[{"to":"T","cards":["TH"]}]})"),
      411, CheckId::kMeldTooManyWilds,
      "line 411: as replayed, seat 2 goes out with 0 canastas; the side needs 1; the record "
      "counts 300 for canastas, not 0: the meld line left out made the canasta (readings R137)");
}

// The hand's end by the stock's last card, a red three (000 §15), in the
// tutorial game: seat 3 draws 3H (line 195) and lays it out with no
// replacement (line 196). Its draw written twice (R119), its `three` line
// left out (R151: the end_hand scores it laid out) or written after the
// end_hand (R135): one finding each, every total as recorded. Before,
// three, two and three findings.
TEST(Recovery, TheStocksLastCardARedThreeIsOneFindingPerSlip_R119_R135_R151) {
  const std::vector<std::string> good = ScenarioLines("selfplay_tutorial");
  const std::string draw = R"({"type":"draw","player":3,"cards":["3H"]})";
  const std::string three = R"({"type":"three","player":3,"card":"3H"})";
  ASSERT_EQ(good[194], draw);
  std::vector<std::string> twice = good;
  twice.insert(twice.begin() + 195, draw);
  ExpectOneFindingOf(good, twice, 196, CheckId::kTurnSequence,
                     "the draw of line 195 written again: this line is not replayed (readings "
                     "R119)");
  ExpectOneFindingOf(good, LeftOut(good, 195, three), 196, CheckId::kThreeTiming,
                     "the end_hand scores side 1 (Bob and Dan) with it laid out: its `three` line "
                     "was left out of the log; laid out (readings R151)");
  EXPECT_EQ(test::MessageOf(AuditUnderItsRuleset(LeftOut(good, 195, three)), CheckId::kThreeTiming),
            "seat 3 (Dan) drew 3H, the stock's last card, and never laid it out");
  ExpectOneFindingOf(good, Swapped(good, 195, three, R"({"type":"end_hand",)"), 196,
                     CheckId::kLogOutOfPlace,
                     "the two lines are written in the wrong order, and are replayed red three "
                     "first (readings R135)");
}

// A meld or discard line left out where wild cards may be discarded only
// with no other card held (jaques-two-handed, 002 Play-8): the seat keeps,
// as replayed, the natural cards it had melded or discarded, and each later
// discard of a wild card is a discard-wild finding. In the jaques-two-handed
// game, seat 1's discard of 7S (line 185, R130: the one natural card held
// is that discard), its meld of 9S 9S 9D (line 180, R137: the cards of the
// meld left out) and of KD KD KC (line 181, R152: the same natural cards
// held at each): seven findings each before, now one, every total as
// recorded.
TEST(Recovery, WildCardsDiscardedHoldingTheCardsOfALineLeftOutAreOneFinding_R130_R137_R152) {
  const std::vector<std::string> good = ScenarioLines("selfplay_jaques_two_handed");
  ExpectOneFindingOf(good, LeftOut(good, 184, R"({"type":"discard","player":1,"card":"7S"})"), 185,
                     CheckId::kDiscardMissing,
                     "line 328: a wild card (2H) may not be discarded while the player holds "
                     "other cards: the one natural card it holds as replayed is the discard left "
                     "out here (readings R130)");
  ExpectOneFindingOf(
      good,
      LeftOut(good, 179, R"({"type":"meld","player":1,"melds":[{"cards":["9S","9S","9D"]}]})"), 182,
      CheckId::kMeldTargetMissing,
      "line 328: as replayed, a wild card (2H) may not be discarded while the player holds other "
      "cards; the side's melds lack the meld line left out (readings R137)");
  ExpectOneFindingOf(
      good,
      LeftOut(good, 180, R"({"type":"meld","player":1,"melds":[{"cards":["KD","KD","KC"]}]})"), 226,
      CheckId::kDiscardWild,
      "line 328: a wild card (2H) may not be discarded while the player holds other cards: the "
      "same natural cards held as at this finding (readings R152)");

  // Two slips: the kings' meld and seat 1's discard of 7H (line 247) left
  // out. From that discard on, the seat holds 7H and the kings: other
  // natural cards than at the first finding (R152), and more than one
  // (R130). The next wild card discarded is a finding of its own.
  std::vector<std::string> two = good;
  ASSERT_EQ(two[246], R"({"type":"discard","player":1,"card":"7H"})");
  two.erase(two.begin() + 246);
  two.erase(two.begin() + 180);
  const FileReport r = AuditUnderItsRuleset(two);
  EXPECT_PROBLEMS(r, {226, CheckId::kDiscardWild}, {246, CheckId::kDiscardMissing},
                  {249, CheckId::kDiscardWild});
  // So with the nines' meld left out (R137): 7H is no card of it.
  std::vector<std::string> nines = good;
  nines.erase(nines.begin() + 246);
  nines.erase(nines.begin() + 179);
  const FileReport n = AuditUnderItsRuleset(nines);
  EXPECT_PROBLEMS(n, {182, CheckId::kMeldTargetMissing}, {246, CheckId::kDiscardMissing},
                  {249, CheckId::kDiscardWild});
}

// A dealt red three's `three` line left out, its replacement then shown
// among the cards from the hand of the seat's take of the pile
// (jaques-two-handed game, line 4: seat 1 lays out 3H, replaced by QD, and
// takes QC with QS QD). The take is the one finding; the three is laid out
// there. Eight findings before: the three kept to the end, the stock one
// card off, and a wild discard judged with 3H held.
TEST(Recovery, AThreeLeftOutShownByTheCardsOfATakeIsOneFinding_R123) {
  const std::vector<std::string> good = ScenarioLines("selfplay_jaques_two_handed");
  ExpectOneFindingOf(
      good, LeftOut(good, 3, R"({"type":"three","player":1,"card":"3H","replacement":"QD"})"), 4,
      CheckId::kCardNotHeld,
      "seat 1 (Bob) holds a red three to lay out: a `three` line left out before "
      "this line; laid out here: 3H replaced by QD (readings R123)");
}

// R137 where the line left out is shown only by a finding about the
// side's melds, not by a later line naming its meld: in the jaques-two-
// handed game, seat 0's addition of 5H to its fives (line 33) left out
// makes its next addition of a wild card too many (line 78), and seat 0's
// initial meld of JS JH JC (line 820) left out makes its initial meld short
// (line 821). The natural cards held when the seat later discards a wild
// card are the ones those lines laid: notes of those findings. Two or five
// findings before.
TEST(Recovery, WildCardsDiscardedHoldingTheCardsOfAMeldShownShortAreNotes_R137) {
  const std::vector<std::string> good = ScenarioLines("selfplay_jaques_two_handed");
  ExpectOneFindingOf(
      good, LeftOut(good, 32, R"({"type":"meld","player":0,"melds":[{"to":"5","cards":["5H"]}]})"),
      78, CheckId::kMeldTooManyWilds,
      "line 166: a wild card (2D) may not be discarded while the player holds other cards: every "
      "natural card held is of the rank of the meld this finding found short of naturals: a meld "
      "line left out likely laid them there (readings R137)");
  // With seat 0's discard of 9H (line 42) left out too, it holds 9H, no
  // card of the fives: the wild card's discard is judged on its own.
  std::vector<std::string> nines = good;
  ASSERT_EQ(nines[41], R"({"type":"discard","player":0,"card":"9H"})");
  nines.erase(nines.begin() + 41);
  nines.erase(nines.begin() + 32);
  const FileReport n = AuditUnderItsRuleset(nines);
  EXPECT_PROBLEMS(n, {41, CheckId::kDiscardMissing}, {77, CheckId::kMeldTooManyWilds},
                  {165, CheckId::kDiscardWild});
  const std::vector<std::string> jacks =
      LeftOut(good, 819, R"({"type":"meld","player":0,"melds":[{"cards":["JS","JH","JC"]}]})");
  ExpectOneFindingOf(good, jacks, 821, CheckId::kInitialMeldMinimum,
                     "line 901: a wild card (JK) may not be discarded while the player holds "
                     "other cards: every natural card held is in a meld's worth of its rank: a "
                     "line left out of the initial meld this finding judged short likely laid "
                     "them (readings R137)");
  // With seat 0's discard of TC (line 869) left out too, it holds TC, which
  // is no meld of its own: the wild card's discard is judged on its own.
  std::vector<std::string> two = jacks;
  ASSERT_EQ(two[867], R"({"type":"discard","player":0,"card":"TC"})");
  two.erase(two.begin() + 867);
  const FileReport r = AuditUnderItsRuleset(two);
  EXPECT_PROBLEMS(r, {821, CheckId::kInitialMeldMinimum}, {868, CheckId::kDiscardMissing},
                  {900, CheckId::kDiscardWild});
}

// R118 with the stock's last card: in the tutorial game, seat 3's draw of
// 3H (line 195), the stock's last card, written as seat 0's. The draw ends
// play (000 §15), and seat 3 lays the three out next (line 196): the draw
// was seat 3's. One finding, every total as recorded; two before (the
// three replayed as seat 0's, which held it).
TEST(Recovery, TheStocksLastRedThreeDrawnUnderAnotherSeatIsOneFinding_R118) {
  const std::vector<std::string> good = ScenarioLines("selfplay_tutorial");
  std::vector<std::string> reseated = good;
  ASSERT_EQ(reseated[194], R"({"type":"draw","player":3,"cards":["3H"]})");
  reseated[194] = R"({"type":"draw","player":0,"cards":["3H"]})";
  ExpectOneFindingOf(good, reseated, 195, CheckId::kTurnOrder,
                     "the next move (line 196) is seat 3 (Dan)'s, which holds its cards: the draw "
                     "is replayed as seat 3's (readings R118)");
}

// R121 with copies next in the stock: in the second modern-american game,
// seat 3's draw of 4H (line 26) left out before it melds and discards; seat
// 0 then draws the other 4H, both the stock's next and a whole draw on. A
// take made up there (as before) put each later draw of the hand one card
// off: nine findings. The draw is made up: one, every total as recorded.
TEST(Recovery, ADrawLeftOutBeforeMeldsWithCopiesNextIsMadeUpAsTheDraw_R121) {
  const std::vector<std::string> good = ScenarioLines("selfplay_modern_american");
  ExpectOneFindingOf(good, LeftOut(good, 25, R"({"type":"draw","player":3,"cards":["4H"]})"), 26,
                     CheckId::kTurnSequence,
                     "the draw of 4H, the stock's next, was left out: the draw of line 28 comes "
                     "after it (readings R121)");
}

// R131 with a copy among the bonus cards: in the second modern-american
// game, seat 0's bonus draw of AC TD JS (line 190) left out, or written
// after seat 1's draw of TD (line 191), the stock's card three on, a copy
// of the bonus's second card. One finding each (six and four before).
TEST(Recovery, ABonusDrawLeftOutWithACopyOfTheNextDrawAmongItIsOneFinding_R131) {
  const std::vector<std::string> good = ScenarioLines("selfplay_modern_american");
  const std::string bonus = R"({"type":"draw","player":0,"cards":["AC","TD","JS"],"bonus":true})";
  ExpectOneFindingOf(good, LeftOut(good, 189, bonus), 190, CheckId::kDrawCount,
                     "the bonus draw of AC TD JS, the stock's next, was left out before this line: "
                     "this draw comes after it; made up here (readings R131)");
  ExpectOneFindingOf(good,
                     Swapped(good, 189, bonus, R"({"type":"draw","player":1,"cards":["TD"]})"), 190,
                     CheckId::kDrawCount, "the draw comes late, at line 191: not replayed");
}

// R130 with R138: in the second two-handed game, seat 1's discard of 8C
// (line 8) left out. Seat 0 lays out a red three next (R138: the turn
// ended without a discard), then takes the pile with 8C on top: the card
// seat 1 still held goes onto the pile, and the take is legal. One
// finding, every total as recorded; five before.
TEST(Recovery, ATakeNamingTheDiscardLeftOutAsItsTopShowsTheCard_R130) {
  const std::vector<std::string> good = ScenarioLines("selfplay_two_handed");
  ExpectOneFindingOf(good, LeftOut(good, 7, R"({"type":"discard","player":1,"card":"8C"})"), 8,
                     CheckId::kDiscardMissing,
                     "line 9: seat 0 (Ann) takes the pile with 8C on top, a card seat 1 (Bob) "
                     "still held: the discard left out was 8C; laid on the pile (readings R130)");
}

// R118 where threes are laid out before play in seat order (hutto): in
// the second hutto game, seat 3's three of 3D (line 230) written as seat
// 0's, which holds a 3D too and lays it out next (line 231). Seat 3 lays
// out first: line 230 was its, with its own replacement, and laying it out
// after seat 0 as replayed is no finding of its own. One finding, every
// total as recorded; five before (the second line read as a copy).
TEST(Recovery, AThreeWrittenForALaterSeatThatHoldsTheSameCardIsOneFinding_R118) {
  const std::vector<std::string> good = ScenarioLines("selfplay_hutto");
  std::vector<std::string> reseated = good;
  ASSERT_EQ(reseated[229], R"({"type":"three","player":3,"card":"3D","replacement":"2H"})");
  reseated[229] = R"({"type":"three","player":0,"card":"3D","replacement":"2H"})";
  ExpectOneFindingOf(good, reseated, 231, CheckId::kCardNotHeld,
                     "line 231: seat 3 lays out red threes out of seat order (from the dealer's "
                     "left): the earlier line was this seat's, which lays out its threes first "
                     "(readings R118)");
}

// R121 with a copy of the replacement next in the stock: in the second
// hutto game, seat 0's draw of 3H 7C (line 421) left out before its red
// three 3H, replaced by the other 3H (line 422), then that one, replaced by
// AH. The replacement is the stock's next and a whole draw on; the seat
// lacks the three, which only the draw gives it. The draw is made up, one
// finding (four before); so with the two lines swapped.
TEST(Recovery, ADrawLeftOutBeforeAThreeReplacedByACopyIsMadeUp_R121) {
  const std::vector<std::string> good = ScenarioLines("selfplay_hutto");
  const std::string draw = R"({"type":"draw","player":0,"cards":["3H","7C"]})";
  ExpectOneFindingOf(good, LeftOut(good, 420, draw), 421, CheckId::kTurnSequence,
                     "the draw of 3H 7C, the stock's next, was left out before this line: the "
                     "three's replacement, 3H, comes after it; made up here (readings R121)");
  ExpectOneFindingOf(
      good,
      Swapped(good, 420, draw, R"({"type":"three","player":0,"card":"3H","replacement":"3H"})"),
      421, CheckId::kTurnSequence, "the draw comes late, at line 422: not replayed");
}

// R121, a turn that only discards, with copies next in the stock: in the
// second classic game, seat 1's draw of QC (line 299) left out before its
// discard of 3C; seat 2 then lays out a red three replaced by the other QC.
// No take of the pile can be made up, and the discard tells nothing (the
// seat holds 3C): the card, a copy a whole draw on, shows the draw. One
// finding, every total as recorded; three before.
TEST(Recovery, ADrawLeftOutBeforeADiscardWithCopiesNextIsMadeUp_R121) {
  const std::vector<std::string> good = ScenarioLines("selfplay_classic");
  ExpectOneFindingOf(good, LeftOut(good, 298, R"({"type":"draw","player":1,"cards":["QC"]})"), 299,
                     CheckId::kTurnSequence,
                     "the draw of QC, the stock's next, was left out before this line: the "
                     "three's replacement at line 300 comes after it; made up here (readings "
                     "R121)");
}

// R123 where the three left out is replaced by a three: in the second
// modern-american game, seat 0's three 3H, replaced by 3C (line 127), left
// out before its threes 3D (replaced by 5S, one card on) and 3C (replaced
// by TS, the card after). The seat holds 3C only once 3H is laid out with
// it: the lines follow the stock, and 3H's line was left out. One finding,
// every total as recorded; three before.
TEST(Recovery, AThreeLeftOutWhoseReplacementIsTheNextThreeIsOneFinding_R123) {
  const std::vector<std::string> good = ScenarioLines("selfplay_modern_american");
  ExpectOneFindingOf(
      good, LeftOut(good, 126, R"({"type":"three","player":0,"card":"3H","replacement":"3C"})"),
      127, CheckId::kStockMismatch,
      "5S comes 1 card on, and seat 0 (Ann) holds 2 threes to lay out: a `three` line left out "
      "before this line; laid out here: 3H replaced by 3C (readings R123)");
}

// R137 after a short initial meld, the cards held with a wild card: in the
// hutto self-play game, seat 2's meld of QD QD JK (line 433) left out of
// its opening turn. It later melds black threes (line 462) and discards,
// as replayed still holding QD QD JK, which make a meld: a note of the
// initial meld's finding. So with its 2C added to its sevens (line 435)
// left out instead: the 2C held goes onto the sevens on the table.
TEST(Recovery, BlackThreesHoldingAMeldWithAWildCardOfAShortOpeningAreANote_R137) {
  const std::vector<std::string> good = ScenarioLines("selfplay_hutto");
  for (const LeftOutLine& c : {
           LeftOutLine{432, R"({"type":"meld","player":2,"melds":[{"cards":["QD","QD","JK"]}]})",
                       ""},
           LeftOutLine{434, R"({"type":"meld","player":2,"melds":[{"to":"7","cards":["2C"]}]})",
                       ""},
       }) {
    SCOPED_TRACE(c.line);
    ExpectOneFindingOf(
        good, LeftOut(good, c.index, c.line), 434, CheckId::kInitialMeldMinimum,
        "line 462: black threes may only be melded by a player going out, and seat 2 did not go "
        "out this turn: the cards held can all be melded: a line left out of the initial meld "
        "this finding judged short likely laid them, and the seat went out (readings R137)");
  }
}

// readings R130: in the hutto self-play game, seat 0's discard of 3C (line
// 80) left out. Seat 0 keeps that card as replayed, so its going out at the
// hand's end (black threes melded at line 114, the last discard at line
// 116) leaves it one card: the black threes' finding, and the hand ended
// with nobody out, are notes of the discard-missing finding.
TEST(Recovery, BlackThreesOfTheSeatWhoseDiscardWasLeftOutAreANote_R130) {
  const std::vector<std::string> good = ScenarioLines("selfplay_hutto");
  ExpectOneFindingOf(good, LeftOut(good, 79, R"({"type":"discard","player":0,"card":"3C"})"), 80,
                     CheckId::kDiscardMissing,
                     "line 114: black threes may only be melded by a player going out, and seat 0 "
                     "did not go out this turn: the one card left in the seat's hand as replayed "
                     "is the discard left out here; without it this discard went out (readings "
                     "R130)");
}

// R137 after a short initial meld: in the second three-handed game, seat
// 2's meld of 8S 8S 8C (line 151) left out makes its initial meld short
// (line 151 then). It later melds black threes (line 250) and discards
// (line 256), as replayed still holding the eights, so not going out: a
// note of the initial meld's finding (at the black threes' line), as is the
// hand ended with nobody out. Two findings before.
TEST(Recovery, BlackThreesMeldedHoldingTheCardsOfAShortOpeningAreANote_R137) {
  const std::vector<std::string> good = ScenarioLines("selfplay_three_handed");
  ExpectOneFindingOf(
      good,
      LeftOut(good, 150, R"({"type":"meld","player":2,"melds":[{"cards":["8S","8S","8C"]}]})"), 151,
      CheckId::kInitialMeldMinimum,
      "line 250: black threes may only be melded by a player going out, and seat 2 did not go "
      "out this turn: the cards held can all be melded: a line left out of the "
      "initial meld this finding judged short likely laid them, and the seat went out (readings "
      "R137)");
  // With seat 2's last discard written as 8S (line 257), it holds QS, no
  // meld of its own: the black threes' finding is judged on its own.
  std::vector<std::string> two = good;
  ASSERT_EQ(two[256], R"({"type":"discard","player":2,"card":"QS"})");
  two[256] = R"({"type":"discard","player":2,"card":"8S"})";
  two.erase(two.begin() + 150);
  const FileReport r = AuditUnderItsRuleset(two);
  EXPECT_PROBLEMS(r, {151, CheckId::kInitialMeldMinimum}, {250, CheckId::kMeldBlackThree});

  // Seat 2's last meld (JK onto its jacks, line 256) left out: its going
  // out at line 257 keeps JK as replayed, the black threes' finding, and
  // the end_hand right after that discard is the seat out in the log. The
  // hand ended with nobody out is a note of the black threes' finding,
  // though the scores show nothing. Two findings before.
  ExpectOneFindingOf(
      good, LeftOut(good, 255, R"({"type":"meld","player":2,"melds":[{"to":"J","cards":["JK"]}]})"),
      251, CheckId::kMeldBlackThree,
      "line 257: as replayed, the deal ends with nobody out and 3 cards still in the stock; the "
      "replay's hands are not the log's since this finding");
  // The same, but seat 0 draws after that discard (its stock's next two
  // cards): play went on, so the log did not have seat 2 out there, and
  // the hand ended early after another move is a finding of its own.
  std::vector<std::string> on =
      LeftOut(good, 255, R"({"type":"meld","player":2,"melds":[{"to":"J","cards":["JK"]}]})");
  ASSERT_EQ(on[255], R"({"type":"discard","player":2,"card":"QS"})");
  on.insert(on.begin() + 256, R"({"type":"draw","player":0,"cards":["3C","7H"]})");
  const FileReport later = AuditUnderItsRuleset(on);
  EXPECT_PROBLEMS(later, {251, CheckId::kMeldBlackThree}, {258, CheckId::kHandEndedEarly});
}

// R135 with R141 where an initial meld earns bonus cards: in the second
// modern-american game, the hand's last discard (seat 3's 9H, its side not
// opened, line 445) written after the end_hand. The discard is replayed
// before the end at once, not kept for a late initial meld (R141): one
// finding, as before R141 kept such discards.
TEST(Recovery, ALastDiscardAfterTheEndHandIsNotKeptForALateInitialMeld_R135_R141) {
  const std::vector<std::string> good = ScenarioLines("selfplay_modern_american");
  ExpectOneFindingOf(good,
                     Swapped(good, 444, R"({"type":"discard","player":3,"card":"9H"})",
                             R"({"type":"end_hand","hand":4,)"),
                     445, CheckId::kLogOutOfPlace,
                     "the two lines are written in the wrong order, and are replayed discard "
                     "first (readings R135)");
}

// R137 and R153 with black threes, which only a player going out may meld
// (000 §8): in the jaques-three-handed game seat 2 goes out at line 464,
// after melding 3C 3S 3C (line 461). A meld line of seat 2 left out keeps
// its cards in the hand as replayed, so the seat does not go out: the
// black threes' finding is a note of the root (the addition to the 9s
// left out, line 336), or, with no later line naming the meld (the 7s,
// line 438), the root that the hand's score shows. Seat 2's last meld
// written after the going-out discard leaves QD in the hand as written:
// one finding on the meld, replayed first. Two findings each before.
TEST(Recovery, BlackThreesMeldedByASeatThatGoesOutInTheLogAreOneFinding_R137_R153) {
  const std::vector<std::string> good = ScenarioLines("selfplay_jaques_three_handed");
  const std::string nines = R"({"type":"meld","player":2,"melds":[{"cards":["9H","9H","2D"]}]})";
  ExpectOneFindingOf(good, LeftOut(good, 335, nines), 444, CheckId::kMeldTargetMissing,
                     "line 460: as replayed, black threes may only be melded by a player going "
                     "out, and seat 2 did not go out this turn; the side's melds lack the meld "
                     "line left out (readings R137)");
  const std::string sevens =
      R"({"type":"meld","player":2,"melds":[{"cards":["7S","7S","7H","7H","7D","7D","7C"]}]})";
  ExpectOneFindingOf(good, LeftOut(good, 437, sevens), 460, CheckId::kMeldBlackThree,
                     "hand 3's record (line 464) counts 35 points more melded and 35 fewer left "
                     "in hand for seat 2 (Cat) than the replay: a meld line of the side was left "
                     "out of the log (readings R137)");
  ExpectOneFindingOf(
      good,
      Swapped(good, 462, R"({"type":"meld","player":2,"melds":[{"to":"Q","cards":["QD"]}]})",
              R"({"type":"discard","player":2,"card":"9C"})"),
      464, CheckId::kTurnSequence,
      "as written, the discard breaks a rule (black threes may only be melded by a player going "
      "out, and seat 2 did not go out this turn); a turn melds before it discards: the meld is "
      "replayed as made before that discard, and the discard is then legal (readings R153)");
}

// R145 needs the same meld, its naturals unchanged since the finding, so
// that the meld cannot have been legal in between. Classic (naturals must
// outnumber wild cards): 2D makes the nines 2 and 2, a finding; 2S and a
// joker add to it, notes; 9D then makes them 3 and 4, judged on its own;
// the last joker is a note of that finding. The same fault on another
// meld, the kings, is its own finding.
TEST(Recovery, AShortMeldIsJudgedAgainOnceANaturalJoinsAndOnAnotherMeld_R145) {
  auto opened = [](std::vector<std::string> hand, std::vector<std::vector<std::string>> melds) {
    DealSpec d;
    d.hands = {{}, std::move(hand)};
    d.stock = {"5H", "6C", "7C"};
    Log log;
    log.Deal(d);
    log.Draw(1);
    log.Meld(1, melds);
    return log;
  };
  Log log = opened({"AS", "AH", "AD", "9S", "9H", "9D", "2C", "2D", "2S", "JK", "JK"},
                   {{"AS", "AH", "AD"}, {"9S", "9H", "2C"}});
  const int first = log.Add(1, "9", {"2D"});
  const int again = log.Add(1, "9", {"2S"});
  log.Add(1, "9", {"JK"});
  const int natural = log.Add(1, "9", {"9D"});
  const int last = log.Add(1, "9", {"JK"});
  const FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {{first, CheckId::kMeldTooManyWilds}, {natural, CheckId::kMeldTooManyWilds}});
  EXPECT_TRUE(HasNote(r, CheckId::kMeldTooManyWilds,
                      "line " + std::to_string(again) + ": the meld of 9s would hold 2 natural"))
      << test::Dump(r);
  EXPECT_TRUE(HasNote(r, CheckId::kMeldTooManyWilds,
                      "line " + std::to_string(last) + ": the meld of 9s would hold 3 natural"))
      << test::Dump(r);

  Log two = opened({"AS", "AH", "AD", "9S", "9H", "KS", "KH", "2C", "2D", "2S", "2H"},
                   {{"AS", "AH", "AD"}, {"9S", "9H", "2C"}, {"KS", "KH", "2D"}});
  const int nines = two.Add(1, "9", {"2S"});
  const int kings = two.Add(1, "K", {"2H"});
  EXPECT_PROBLEMS(Audit(two.str()),
                  {{nines, CheckId::kMeldTooManyWilds}, {kings, CheckId::kMeldTooManyWilds}});
}

// readings R146: in the modern-american sample, seat 1's first discard
// (QH, line 5) left out: the pile is empty when seat 2 discards AS at
// line 6 then, a card the empty pile refuses (001 L46) only as replayed.
// One finding, the ace's its note, every total as recorded.
TEST(Recovery, ADiscardOntoThePileOfADiscardLeftOutIsOneFinding_R146) {
  const std::vector<std::string> good = SampleLines("modern-american");
  ExpectOneFindingOf(good, LeftOut(good, 4, R"({"type":"discard","player":1,"card":"QH"})"), 5,
                     CheckId::kDiscardMissing,
                     "line 6: on an empty pile AS may not be discarded while seat 2 holds another "
                     "card that may (4H 4C 5S 6S TC JH JC): the pile held the discard left out "
                     "here, so it was not empty (readings R146)");
}

// readings R121, in the jaques sample: a turn's draw left out, shown by
// its discard of the stock's next card, one finding and every total as
// recorded. Seat 1's draw of 4S (line 100) left out before its discard of
// 4S, though the next seat then draws the other 4S, the stock's next card
// too; seat 1's draw of KD (line 131) left out before melds (the turn's
// finding) and its discard of KD (a note of it).
TEST(Recovery, ADrawLeftOutShownByItsDiscardOfTheStocksNextCard_R121) {
  const std::vector<std::string> good = SampleLines("jaques");
  ExpectOneFindingOf(good, LeftOut(good, 99, R"({"type":"draw","player":1,"cards":["4S"]})"), 100,
                     CheckId::kTurnSequence,
                     "the draw of 4S, the stock's next, was left out before this line: the "
                     "discard plays 4S; made up here (readings R121)");
  ExpectOneFindingOf(good, LeftOut(good, 130, R"({"type":"draw","player":1,"cards":["KD"]})"), 131,
                     CheckId::kTurnSequence,
                     "the draw of KD, the stock's next, was left out: the discard at line 134 "
                     "plays KD; made up there (readings R121)");
}

// readings R123 when the seat's next line follows in the stock: in the
// three-handed sample, seat 0's first `three` line left out, before its
// second three and then its draw of other cards (hand 2, line 130), or
// before two more threes that take the stock's cards in order (hand 3, line
// 259): the three left out is made up, one finding, every total as
// recorded. In the classic sample a skip of a whole draw before the turn's
// draw stays R121's: seat 3's draw of 9S (line 164) left out before its
// three threes is the draw made up, not one of the threes.
TEST(Recovery, AThreeLineLeftOutBeforeTheSeatsNextLinesInTheStocksOrder_R123) {
  const std::vector<std::string> good = SampleLines("three-handed");
  ExpectEachLeftOutOneFinding(
      good, CheckId::kStockMismatch,
      {
          LeftOutLine{129, R"({"type":"three","player":0,"card":"3H","replacement":"9S"})",
                      "laid out here: 3H replaced by 9S (readings R123)"},
          LeftOutLine{258, R"({"type":"three","player":0,"card":"3H","replacement":"AC"})",
                      "laid out here: 3H replaced by AC (readings R123)"},
      });
  const FileReport draw = Audit(
      Unlines(LeftOut(ClassicSampleLines(), 163, R"({"type":"draw","player":3,"cards":["9S"]})")));
  ExpectOneFinding(draw, 164, CheckId::kTurnSequence,
                   "the draw of 9S, the stock's next, was left out before this line");
}

// readings R121 at a hand's last draw, which takes the stock's last card,
// fewer than a turn draws: left out before a meld that plays it, it is made
// up there, one finding, every total as recorded (hutto line 338, two-handed
// line 328, three-handed line 488: before, the meld was a card-not-held
// finding too, and the replay's hand ended with the card still in the stock).
TEST(Recovery, AHandsLastDrawLeftOutBeforeAMeldIsMadeUp_R121) {
  ExpectEachSampleLeftOutOneFinding(
      CheckId::kTurnSequence,
      {
          SampleLeftOut{
              "hutto",
              {337, R"({"type":"draw","player":1,"cards":["JK"]})",
               "the draw of JK, the stock's next, was left out before this line: the meld "
               "plays JK; made up here (readings R121)"}},
          SampleLeftOut{"two-handed",
                        {327, R"({"type":"draw","player":1,"cards":["7D"]})",
                         "the draw of 7D, the stock's next, was left out before this line"}},
          SampleLeftOut{"three-handed",
                        {487, R"({"type":"draw","player":0,"cards":["KC"]})",
                         "the draw of KC, the stock's next, was left out before this line"}},
      });
}

// readings R121 for a meld before the draw that adds to a meld of the
// pile's top rank, which the side lacks: the take that lays that meld was
// left out, made up before the meld in a form after which the meld is
// legal. Two-handed line 212 (seat 1 takes TC with TS TD, then adds TD):
// left out, or written after the meld, one finding, every total as
// recorded (before, meld-target-missing too, and the hand departed).
TEST(Recovery, AMeldOntoTheMeldALeftOutTakeLaysShowsTheTake_R121) {
  const std::vector<std::string> good = SampleLines("two-handed");
  const char* take = R"({"type":"take_pile","player":1,"top":"TC","with":["TS","TD"]})";
  const char* note =
      "the take of the pile (5 cards, TC on top, with TS TD) was left out before this line: the "
      "meld adds to the meld of Ts that the take lays; made up here (readings R121)";
  ExpectEachLeftOutOneFinding(good, CheckId::kTurnSequence, {LeftOutLine{211, take, note}});
  ExpectOneFindingOf(good, Swapped(good, 211, take, R"({"type":"meld","player":1,)"), 212,
                     CheckId::kTurnSequence, "the take comes late, at line 213: not replayed");
  // The form is one after which the meld is legal: in the classic sample,
  // seat 1's take of 4H with 4H 2D (line 94) left out before it adds 4C to
  // the 4s, not the natural pair 4H 4C, which would leave it no 4C.
  ExpectEachLeftOutOneFinding(
      ClassicSampleLines(), CheckId::kTurnSequence,
      {LeftOutLine{93, R"({"type":"take_pile","player":1,"top":"4H","with":["4H","2D"]})",
                   "the take of the pile (4 cards, 4H on top, with 4H 2S) was left out"}});
}

// readings R121: a take made up with the first wild card the seat holds,
// when a later meld of the turn plays that card, or the take's own line
// comes late: the take laid another wild card the seat holds, and the two
// change places. Classic line 94 (4H with 4H 2D; made up with 2S, which
// line 96 plays) and hutto line 361 (9D with 9S 2H; made up with 2S, which
// line 364 plays), left out or written after the next line: one finding
// each, every total as recorded (before, card-not-held too, and the hand
// departed from the log).
TEST(Recovery, ATakeMadeUpWithAnotherWildCardIsMended_R121) {
  const char* classic_take = R"({"type":"take_pile","player":1,"top":"4H","with":["4H","2D"]})";
  const char* hutto_take = R"({"type":"take_pile","player":2,"top":"9D","with":["9S","2H"]})";
  const std::vector<std::string> classic = ClassicSampleLines();
  const std::vector<std::string> hutto = SampleLines("hutto");
  ExpectEachLeftOutOneFinding(
      classic, CheckId::kTurnSequence,
      {LeftOutLine{93, classic_take,
                   "the take laid 2D, not 2S: the meld at line 95 plays 2S (readings R121)"}});
  ExpectEachLeftOutOneFinding(
      hutto, CheckId::kTurnSequence,
      {LeftOutLine{360, hutto_take,
                   "the take laid 2H, not 2S: the meld at line 363 plays 2S (readings R121)"}});
  ExpectOneFindingOf(classic, Swapped(classic, 93, classic_take, R"({"type":"meld","player":1,)"),
                     94, CheckId::kTurnSequence,
                     "the take laid 2D, not 2S, as its line shows (readings R121)");
  ExpectOneFindingOf(hutto, Swapped(hutto, 360, hutto_take, R"({"type":"meld","player":2,)"), 361,
                     CheckId::kTurnSequence,
                     "the take laid 2H, not 2S, as its line shows (readings R121)");
}

// readings R123: the first turn's draw of a red three one card on, then
// that three laid out with the stock's next card: the card skipped replaced
// another seat's three, left out before play. Modern-american line 237
// (seat 2's 3H, replaced by 8D) left out: one finding at seat 3's draw of
// 3S (before, that draw was judged alone, and seat 2's 3H and 8D cost a
// card-not-held and a three-timing finding later).
// readings R123: the hutto self-play game's seat 3 lays out its 3H replaced
// by a second 3H (line 190), then that one replaced by 8D (line 191, left
// out here); its turn ends holding the 3H (three-timing). Seat 1's draw
// (line 195 in the log) takes 8D 7S: the stock's next cards as replayed
// are 8D 8D, the draw's first card a copy of the card skipped, so the skip
// shows at its second card. The draw as a whole is one place on: the line
// left out, laid out there, and a note of the three-timing finding.
TEST(Recovery, ATwoCardDrawWhoseFirstCardIsACopyOfTheCardSkippedShowsAThreeLeftOut_R123) {
  const std::vector<std::string> good = ScenarioLines("selfplay_hutto");
  ExpectOneFindingOf(
      good, LeftOut(good, 190, R"({"type":"three","player":3,"card":"3H","replacement":"8D"})"),
      191, CheckId::kThreeTiming,
      "line 194: the cards drawn are 8D 7S but the stock's next cards are 8D 8D, the draw 1 card "
      "on: seat 3 (Dan)'s `three` line was left out; laid out there: 3H replaced by 8D (readings "
      "R123)");
}

// readings R123: the same seat's 3H laid out replaced by a second 3H (line
// 190) left out. The next line lays out a 3H replaced by 8D, one card on:
// the seat holds only the 3H that line lays, but the card skipped is a copy
// of it. The seat's own 3H was laid out first, replaced by the card skipped.
//
// Written one line late instead (the two lines swapped), it is that line
// left out and written late: the same finding, and the late line is not
// replayed.
TEST(Recovery, AThreeLeftOutWhoseReplacementTheNextLineLaysOutIsOneFinding_R123) {
  const std::vector<std::string> good = ScenarioLines("selfplay_hutto");
  const char* const three = R"({"type":"three","player":3,"card":"3H","replacement":"3H"})";
  const char* const found =
      "8D comes 1 card on, and seat 3 (Dan) holds a red three to lay out: a `three` line left out "
      "before this line; laid out here: 3H replaced by 3H (readings R123)";
  ExpectOneFindingOf(good, LeftOut(good, 189, three), 190, CheckId::kStockMismatch, found);
  const std::vector<std::string> swapped =
      Swapped(good, 189, three, R"({"type":"three","player":3,"card":"3H","replacement":"8D"})");
  ExpectOneFindingOf(good, swapped, 190, CheckId::kStockMismatch, found);
  const FileReport r = AuditUnderItsRuleset(swapped);
  EXPECT_TRUE(HasNote(r, CheckId::kStockMismatch,
                      "the `three` line of 3H comes late, at line 191: not replayed"))
      << test::Dump(r);
}

TEST(Recovery, AThreeLeftOutBeforeADrawnThreeIsMadeUp_R123) {
  ExpectEachSampleLeftOutOneFinding(
      CheckId::kStockMismatch,
      {{"modern-american",
        {236, R"({"type":"three","player":2,"card":"3H","replacement":"8D"})",
         "3S comes 1 card on, and seat 2 (Cat) holds a red three to lay out: a `three` line left "
         "out before this line; laid out here: 3H replaced by 8D (readings R123)"}}});
}

// readings R123 for a three kept past its turn's end: the turn's
// three-timing finding comes first; the next draw one card on, the seat's
// own or another seat's, shows the `three` line left out, a note of that
// finding. Two-handed lines 251 (3H, KD) and 440 (3D, TC) and three-handed
// line 106 (3H, 6C, shown by the next seat's draw) left out: one finding
// each, every total as recorded (before, a stock-mismatch too, and for the
// three-handed line the three kept to the end).
TEST(Recovery, AThreeKeptPastItsTurnShownByTheStockIsANoteOfItsTiming_R123) {
  const std::vector<std::string> good = SampleLines("two-handed");
  ExpectOneFindingOf(
      good, LeftOut(good, 250, R"({"type":"three","player":1,"card":"3H","replacement":"KD"})"),
      252, CheckId::kThreeTiming,
      "line 255: the card drawn is JC but the stock's next card is KD, JC 1 card on: "
      "seat 1 (Bob)'s `three` line was left out; laid out there: 3H replaced by KD "
      "(readings R123)");
  ExpectOneFindingOf(
      good, LeftOut(good, 439, R"({"type":"three","player":1,"card":"3D","replacement":"TC"})"),
      441, CheckId::kThreeTiming,
      "line 444: the card drawn is 5H but the stock's next card is TC, 5H 1 card on: "
      "seat 1 (Bob)'s `three` line was left out; laid out there: 3D replaced by TC "
      "(readings R123)");
  const std::vector<std::string> three = SampleLines("three-handed");
  ExpectOneFindingOf(
      three, LeftOut(three, 105, R"({"type":"three","player":2,"card":"3H","replacement":"6C"})"),
      107, CheckId::kThreeTiming,
      "line 111: the card drawn is QS but the stock's next card is 6C, QS 1 card on: "
      "seat 2 (Cat)'s `three` line was left out; laid out there: 3H replaced by 6C "
      "(readings R123)");
}

// readings R137 for an initial meld left out, shown by the bonus cards
// the seat draws after its discard (001 L37): the side has opened, and what
// the meld's absence makes of the hand is noted on the bonus draw's
// finding. Modern-american line 373 (seat 2's JK JK JK) left out: one
// finding, every total as recorded (before, the partner's next meld judged
// as an initial meld short of its minimum, and its bonus cards not drawn).
TEST(Recovery, AnInitialMeldLeftOutShownByItsBonusDrawIsOneFinding_R137) {
  const std::vector<std::string> ma = SampleLines("modern-american");
  ExpectOneFindingOf(
      ma, LeftOut(ma, 372, R"({"type":"meld","player":2,"melds":[{"cards":["JK","JK","JK"]}]})"),
      374, CheckId::kDrawCount,
      "bonus cards follow the initial meld that earns them (001 L37): the initial meld line of "
      "seat 2 (Cat)'s turn, before its discard at line 373, was likely left out; what its "
      "absence makes of the hand is noted here (readings R137)");
}

// readings R151: a red three taken with the pile whose `three` line was
// left out is kept, as replayed, to the end of play; the end_hand's scores
// count it laid out. Classic line 580 (seat 0's 3H) left out: the turn's
// three-timing warning alone, every total as recorded (before, the end's
// red-three-undeclared and score-hand findings too).
TEST(Recovery, ARedThreeLeftOutThatTheHandsScoresCountLaidOut_R151) {
  const std::vector<std::string> good = ClassicSampleLines();
  ExpectOneFindingOf(good, LeftOut(good, 579, R"({"type":"three","player":0,"card":"3H"})"), 582,
                     CheckId::kThreeTiming,
                     "line 595: as replayed, seat 0 still holds 1 red three when play ends; the "
                     "side loses 500; the end_hand scores side 0 (Ann and Cat) with it laid out: "
                     "its `three` line was left out of the log; laid out (readings R151)");
}

// The hand of ScenarioThree.UndeclaredRedThreeCosts500: seat 3 keeps its
// dealt 3H through a turn (seat 0 `seat0`'s cards too), then seat 1 goes
// out in its second turn. `ends(scores)` is the log with an end_hand
// recording those scores; `charged` the replay's scores (threes kept,
// penalties charged); `discard` seat 1's first discard's line.
struct KeptThreeHand {
  explicit KeptThreeHand(const std::vector<std::string>& seat0) {
    test::DealSpec d;
    d.hands = {
        seat0, {"KS", "KS", "KH", "KH", "KD", "KD", "KC", "QS", "QH", "QD", "JS"}, {}, {"3H"}};
    d.stock = {"JH", "9D", "9H", "9S", "QC"};
    log.Deal(d);
    log.Draw(1);  // JH
    log.Meld(1, {{"KS", "KS", "KH", "KH", "KD", "KD", "KC"}, {"QS", "QH", "QD"}});
    discard = log.Discard(1, "JH");
    log.PassTurns(3);  // seats 2, 3 (still holding 3H), 0
    log.Draw(1);       // QC
    log.Add(1, "Q", {"QC"});
    log.Discard(1, "JS");  // out
    end = log.line() + 1;
    charged = test::OnlyGame(Audit(log.str() + R"({"type":"end_hand","hand":1})" + "\n"))
                  .hands.at(0)
                  .scores;
  }
  std::string ends(int side0, int side1) const {
    return log.str() + R"({"type":"end_hand","hand":1,"scores":[)" + std::to_string(side0) + "," +
           std::to_string(side1) + "]}\n";
  }
  test::Log log;
  int discard = 0;
  int end = 0;
  std::vector<int> charged;
};

// readings R151, both ways: seat 3 keeps its dealt 3H through a turn and
// seat 1 goes out. An end_hand whose scores charge the penalty leaves both
// findings; one whose scores count the three laid out leaves the turn's.
TEST(Recovery, AKeptRedThreeIsLaidOutOnlyWhenTheScoresCountItSo_R151) {
  const KeptThreeHand h({});
  ASSERT_EQ(h.charged.size(), 2u);
  const FileReport penalty = Audit(h.ends(h.charged[0], h.charged[1]));
  EXPECT_PROBLEMS(penalty, {h.discard + 4, CheckId::kThreeTiming},
                  {h.end, CheckId::kRedThreeUndeclared});
  // Laid out: the 500 taken back, and the three's 100 for a side that melded.
  const FileReport laid = Audit(h.ends(h.charged[0], h.charged[1] + 600));
  EXPECT_PROBLEMS(laid, {h.discard + 4, CheckId::kThreeTiming});
  EXPECT_TRUE(HasNote(laid, CheckId::kThreeTiming,
                      "the end_hand scores side 1 (Bob and Dan) with it laid out"))
      << test::Dump(laid);
  EXPECT_EQ(test::OnlyGame(laid).hands.at(0).scores[1], h.charged[1] + 600);
  // Scores that are neither: the penalty stands, and the score is wrong.
  const FileReport neither = Audit(h.ends(h.charged[0], h.charged[1] + 100));
  EXPECT_PROBLEMS(neither, {h.discard + 4, CheckId::kThreeTiming},
                  {h.end, CheckId::kRedThreeUndeclared}, {h.end, CheckId::kScoreHand});
}

// readings R151 needs the seat of the last three-timing finding to be the
// only one holding red threes: the end's findings name no seat. Seat 0
// keeps 3D too; the scores count seat 0's laid out (the 500 back, and 100
// against a side with no meld) and charge seat 3's. Nothing is laid out:
// both penalties stand, and side 0's score is wrong.
TEST(Recovery, KeptRedThreesOfTwoSeatsAreNotLaidOut_R151) {
  const KeptThreeHand h({"3D"});
  ASSERT_EQ(h.charged.size(), 2u);
  const FileReport r = Audit(h.ends(h.charged[0] + 400, h.charged[1]));
  EXPECT_PROBLEMS(r, {h.discard + 4, CheckId::kThreeTiming}, {h.discard + 6, CheckId::kThreeTiming},
                  {h.end, CheckId::kRedThreeUndeclared}, {h.end, CheckId::kRedThreeUndeclared},
                  {h.end, CheckId::kScoreHand});
}

// readings R121: the card a made-up take trades back is one the seat holds
// beyond the meld's own cards, of any value. Seat 1 takes QC with QS and a
// wild card (left out), adds QH to its queens, then melds KS KH KD 2S 2D.
// The take is made up with 2S, the seat's first wild card; the kings' meld
// plays 2S, and of the wild cards the seat still holds, 2D is the meld's
// own: the take laid the other one, a two (2C) or a joker.
TEST(Recovery, ATakeMadeUpTradesBackNoCardTheMeldPlays_R121) {
  for (const std::string wild : {"2C", "JK"}) {
    SCOPED_TRACE(wild);
    test::Log log;
    test::DealSpec d;
    d.hands = {{"QC"}, {"AS", "AH", "AC", "QS", "QH", "2S", "2D", wild, "KS", "KH", "KD"}};
    d.stock = {"8D"};
    log.Deal(d);
    log.Draw(1);  // 8D
    log.Meld(1, {{"AS", "AH", "AC"}});
    log.Discard(1, "8D");
    log.PassTurns(2);
    log.Draw(0);
    log.Discard(0, "QC");
    const int take = log.Take(1, "QC", {"QS", wild});  // left out below
    log.Add(1, "Q", {"QH"});
    const int kings = log.Meld(1, {{"KS", "KH", "KD", "2S", "2D"}});
    std::istringstream in(log.str());
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    lines.erase(lines.begin() + (take - 1));
    const FileReport r = Audit(Unlines(lines));
    EXPECT_PROBLEMS(r, {take, CheckId::kTurnSequence});
    EXPECT_TRUE(HasNote(r, CheckId::kTurnSequence,
                        "the take laid " + wild + ", not 2S: the meld at line " +
                            std::to_string(kings - 1) + " plays 2S (readings R121)"))
        << test::Dump(r);
  }
}

// readings R121: a meld before the draw onto the side's own meld of the
// pile's top rank shows no take (the side could add to it after a draw as
// well): seat 1's draw of 9S left out, then AS added to its aces with AC on
// the pile, then 9S discarded. The discard shows the draw, one finding (a
// take made up at the meld would leave the discard of 9S a second one).
TEST(Recovery, AMeldBeforeTheDrawOntoTheSidesMeldOfTheTopRankShowsNoTake_R121) {
  test::Log log;
  test::DealSpec d;
  d.hands = {{"AC"}, {"AS", "AH", "AD", "AS", "QS"}};
  d.stock = {"7S", "6H", "5D", "4C", "9S"};
  log.Deal(d);
  log.Draw(1);  // 7S
  log.Meld(1, {{"AS", "AH", "AD"}});
  log.Discard(1, "QS");
  log.PassTurns(2);
  log.Draw(0);  // 4C
  log.Discard(0, "AC");
  const int draw = log.Draw(1);  // 9S, left out below
  const int meld = log.Add(1, "A", {"AS"});
  log.Discard(1, "9S");
  std::istringstream in(log.str());
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  lines.erase(lines.begin() + (draw - 1));
  const FileReport r = Audit(Unlines(lines));
  EXPECT_PROBLEMS(r, {meld - 1, CheckId::kTurnSequence});
  EXPECT_TRUE(HasNote(r, CheckId::kTurnSequence,
                      "the draw of 9S, the stock's next, was left out: the discard at line " +
                          std::to_string(meld) + " plays 9S"))
      << test::Dump(r);
}

// readings R121 for a turn that melded before its draw, when the event
// after its discard takes nothing from the stock (the next seat takes the
// pile): the next card taken from the stock, a whole draw on, shows the
// draw. Jaques line 276 (seat 3's AD) left out: one finding, every total as
// recorded (before, a stock-mismatch at the next draw, line 282, too).
TEST(Recovery, ADrawLeftOutBeforeMeldsShownByALaterDraw_R121) {
  ExpectEachLeftOutOneFinding(
      SampleLines("jaques"), CheckId::kTurnSequence,
      {LeftOutLine{275, R"({"type":"draw","player":3,"cards":["AD"]})",
                   "the draw of AD, the stock's next, was left out before this line: the draw of "
                   "line 282 comes after it; made up (readings R121)"}});
}

// readings R121 for a turn that only discards when no card is taken from
// the stock after it before the hand ends: the end_hand's score of the
// seat's side, the replay's with the stock's next card in the seat's hand,
// shows the draw. Jaques line 565 (seat 0's 5S) and modern-american line
// 445 (seat 1's 7S) left out: one finding each, every total as recorded
// (before, a score-hand finding for the card's points too).
TEST(Recovery, ADrawLeftOutThatOnlyTheHandsScoresShowIsMadeUp_R121) {
  ExpectEachSampleLeftOutOneFinding(
      CheckId::kTurnSequence,
      {
          SampleLeftOut{
              "jaques",
              {564, R"({"type":"draw","player":0,"cards":["5S"]})",
               "the draw of 5S, the stock's next, was left out before this line: the end_hand "
               "at line 574 scores side 0 (Ann and Cat) with them in seat 0 (Ann)'s hand; made "
               "up (readings R121)"}},
          SampleLeftOut{
              "modern-american",
              {444, R"({"type":"draw","player":1,"cards":["7S"]})",
               "the draw of 7S, the stock's next, was left out before this line: the end_hand "
               "at line 453"}},
      });
  // A record that scores the hand as replayed, without the card: the turn
  // drew nothing at the table; nothing is made up.
  std::vector<std::string> lines =
      LeftOut(SampleLines("jaques"), 564, R"({"type":"draw","player":0,"cards":["5S"]})");
  ASSERT_EQ(lines.at(573).rfind(R"({"type":"end_hand","hand":7,"scores":[380,845],)", 0), 0u);
  lines[573] = R"({"type":"end_hand","hand":7,"scores":[385,845],"totals":[4300,5145],)"
               R"("breakdown":[{"canastas":0,"red_threes":200,"going_out":0,"melded":215,)"
               R"("in_hand":-30,"penalties":0},{"canastas":300,"red_threes":0,"going_out":100,)"
               R"("melded":465,"in_hand":-20,"penalties":0}]})";
  ASSERT_EQ(lines.at(574), R"({"type":"end_game","totals":[4295,5145],"winner":1})");
  lines[574] = R"({"type":"end_game","totals":[4300,5145],"winner":1})";
  const FileReport r = AuditUnderItsRuleset(lines);
  EXPECT_FINDINGS(r, {565, CheckId::kTurnSequence});
  EXPECT_FALSE(HasNote(r, CheckId::kTurnSequence, "made up")) << test::Dump(r);
  ASSERT_EQ(r.games.size(), 1u);
  EXPECT_EQ(r.games[0].totals, (std::vector<int>{4300, 5145}));
}

// readings R123 before the first turn, when the seat's next line is a
// three of its own that the threes left out would have laid: in the jaques
// sample, seat 2's 3D (hand 2, line 121) and seat 3's 3D (hand 6, line 406)
// left out before seat 0 lays out its 3H and then its 3D, each replaced by
// the stock's card after the other's. The card skipped was the other seat's
// three's: one finding, every total as recorded (before, seat 0's own 3D
// was taken for the three left out, and the log and the replay parted).
TEST(Recovery, AnotherSeatsThreeLeftOutBeforeTheSeatsOwnNextThree_R123) {
  const std::vector<std::string> good = SampleLines("jaques");
  ExpectEachLeftOutOneFinding(
      good, CheckId::kStockMismatch,
      {
          LeftOutLine{
              120, R"({"type":"three","player":2,"card":"3D","replacement":"KC"})",
              "seat 2 (Cat) holds a red three to lay out: a `three` line left out before this "
              "line; laid out here: 3D replaced by KC (readings R123)"},
          LeftOutLine{
              405, R"({"type":"three","player":3,"card":"3D","replacement":"9H"})",
              "seat 3 (Dan) holds a red three to lay out: a `three` line left out before this "
              "line; laid out here: 3D replaced by 9H (readings R123)"},
      });
  // Another seat's three next, though it holds a three the threes left out
  // would have laid: the seat's own three was left out (modern-american,
  // hand 2, line 115: seat 0's 3H, then its 3S and seat 1's 3D).
  const std::vector<std::string> ma = SampleLines("modern-american");
  ExpectOneFindingOf(
      ma, LeftOut(ma, 114, R"({"type":"three","player":0,"card":"3H","replacement":"AS"})"), 115,
      CheckId::kStockMismatch,
      "seat 0 (Ann) holds a red three to lay out: a `three` line left out before "
      "this line; laid out here: 3H replaced by AS (readings R123)");
}

// readings R123 before play, when several seats hold a three the card
// skipped may have replaced: the `three` lines after it tell whose three's
// line was left out, the one three that leaves every later line legal. In
// the modern-american sample (threes laid out at once, in any order): seat
// 2's 3C (line 113), seat 3's 3H (114), seat 3's 3D (233), seat 0's 3C
// (234) and seat 0's 3H (348), each left out; one finding naming the
// seat, every total as recorded.
TEST(Recovery, AThreeSeveralSeatsCouldHaveLaidOutIsToldByTheLinesAfter_R123) {
  const std::vector<std::string> good = SampleLines("modern-american");
  ExpectEachLeftOutOneFinding(
      good, CheckId::kStockMismatch,
      {
          LeftOutLine{112, R"({"type":"three","player":2,"card":"3C","replacement":"2H"})",
                      "seat 2 (Cat) holds a black three to lay out: a `three` line left out before "
                      "this line; laid out here: 3C replaced by 2H (readings R123)"},
          LeftOutLine{
              113, R"({"type":"three","player":3,"card":"3H","replacement":"QS"})",
              "seat 3 (Dan) holds a red three to lay out: a `three` line left out before this "
              "line; laid out here: 3H replaced by QS (readings R123)"},
          LeftOutLine{
              232, R"({"type":"three","player":3,"card":"3D","replacement":"QC"})",
              "seat 3 (Dan) holds a red three to lay out: a `three` line left out before this "
              "line; laid out here: 3D replaced by QC (readings R123)"},
          LeftOutLine{233, R"({"type":"three","player":0,"card":"3C","replacement":"8S"})",
                      "seat 0 (Ann) holds a black three to lay out: a `three` line left out before "
                      "this line; laid out here: 3C replaced by 8S (readings R123)"},
          LeftOutLine{
              347, R"({"type":"three","player":0,"card":"3H","replacement":"QH"})",
              "seat 0 (Ann) holds a red three to lay out: a `three` line left out before this "
              "line; laid out here: 3H replaced by QH (readings R123)"},
      });
}

// readings R150: a discard left out before the next seat's draw (R130),
// its card never shown, and the seat that took that pile then going out as
// replayed, a card short of the log's hand: the going out short of
// canastas and the log's next move are notes of the discard-missing
// finding. In the hutto sample, seat 0's 3S (line 135), seat 1's 3S (202)
// and seat 2's 7C (239); one finding each, every total as recorded.
TEST(Recovery, GoingOutAsReplayedWithTheDiscardLeftOutIsANote_R150) {
  const std::vector<std::string> good = SampleLines("hutto");
  for (const LeftOutLine& c : {
           LeftOutLine{
               134, R"({"type":"discard","player":0,"card":"3S"})",
               "line 196: the log plays on after seat 3 (Dan) went out as replayed at line 195, "
               "holding the discard left out (readings R150)"},
           LeftOutLine{
               201, R"({"type":"discard","player":1,"card":"3S"})",
               "line 206: the log plays on after seat 3 (Dan) went out as replayed at line 205, "
               "holding the discard left out (readings R150)"},
           LeftOutLine{
               238, R"({"type":"discard","player":2,"card":"7C"})",
               "line 314: the log plays on after seat 0 (Ann) went out as replayed at line 313, "
               "holding the discard left out (readings R150)"},
       }) {
    SCOPED_TRACE(c.line);
    const std::vector<std::string> damaged = LeftOut(good, c.index, c.line);
    ExpectOneFindingOf(good, damaged, int(c.index) + 1, CheckId::kDiscardMissing, c.note);
    EXPECT_TRUE(HasNote(AuditUnderItsRuleset(damaged), CheckId::kDiscardMissing,
                        "held the discard left out, a card more than replayed: not out "
                        "(readings R150)"));
  }
  // The same where the going out as replayed melds every card
  // (out-without-discard) and the next move shows the card (R130): jaques,
  // seat 3's 3S (line 564).
  const std::vector<std::string> jaques = SampleLines("jaques");
  ExpectOneFindingOf(jaques, LeftOut(jaques, 563, R"({"type":"discard","player":3,"card":"3S"})"),
                     564, CheckId::kDiscardMissing,
                     "line 573: the log plays on after seat 1 (Bob) went out as replayed at line "
                     "572, holding the discard left out (readings R150)");
  // And where the going out as replayed is legal (hutto goes out by a meld
  // of every card), so it gives no finding to fold, and the next move shows
  // the card: hutto, seat 3's 3C (line 433).
  ExpectOneFindingOf(good, LeftOut(good, 432, R"({"type":"discard","player":3,"card":"3C"})"), 433,
                     CheckId::kDiscardMissing,
                     "line 441: the log plays on after seat 1 (Bob) went out as replayed at line "
                     "440, holding the discard left out (readings R150)");
}

// R150's limit: before anyone takes the pile that held the discard left
// out, a seat going out short of canastas is its own finding.
TEST(Recovery, GoingOutBeforeThePileIsTakenStaysAFinding_R150) {
  Log log;
  DealSpec d;
  d.hands = {{}, {}, {"KS", "KH", "KD", "KC", "KS", "KH", "QS", "QH", "QD", "QC", "QS"}};
  d.stock = {"9D", "5H"};
  log.Deal(d);
  log.Draw(1);  // seat 1's discard left out
  const int draw = log.Draw(2);
  log.Meld(2, {{"KS", "KH", "KD", "KC", "KS", "KH"}, {"QS", "QH", "QD", "QC", "QS"}});
  const int discard = log.Discard(2, "5H");
  const FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {draw, CheckId::kDiscardMissing}, {discard, CheckId::kOutWithoutCanastas});
}

// readings R121 where the next card taken from the stock is the seat's own
// bonus draw: in the modern-american sample, seat 3's draw of JH (line
// 124) left out before its initial meld; after its discard it draws the
// bonus cards, a whole draw on. The draw is made up there, one finding,
// every total as recorded.
TEST(Recovery, ADrawLeftOutBeforeTheSeatsOwnBonusDraw_R121) {
  const std::vector<std::string> good = SampleLines("modern-american");
  ExpectOneFindingOf(good, LeftOut(good, 123, R"({"type":"draw","player":3,"cards":["JH"]})"), 124,
                     CheckId::kTurnSequence,
                     "the draw of JH, the stock's next, was left out: the draw of line 128 comes "
                     "after it (readings R121)");
}

// readings R121 in a draw-two game: in the hutto sample, seat 1's draw of
// 2C QC (line 234) left out before its discard; seat 2's draw of 6D JK
// then comes a whole draw on, though another 6D was drawn just before (the
// nearest 6D is behind): the draw is made up, one finding, every total as
// recorded.
TEST(Recovery, ADrawLeftOutAWholeDrawBeforeTheNextSeatsDraw_R121) {
  const std::vector<std::string> good = SampleLines("hutto");
  ExpectOneFindingOf(good, LeftOut(good, 233, R"({"type":"draw","player":1,"cards":["2C","QC"]})"),
                     234, CheckId::kTurnSequence,
                     "the draw of 2C QC, the stock's next, was left out before this line: the "
                     "draw of line 235 comes after it; made up here (readings R121)");
}

// readings R119 for a take of the pile: seat 3's take (AH onto AC JK, line
// 10 of the classic sample) written twice is one finding, the copy not
// replayed, and every total as recorded.
TEST(Recovery, ATakeOfThePileWrittenTwiceIsOneFinding_R119) {
  std::vector<std::string> lines = DiscardAndTakeOfAH();
  lines.insert(lines.begin() + 9, lines[9]);
  const FileReport r = Audit(Unlines(lines));
  ExpectOneFinding(r, 11, CheckId::kTurnSequence,
                   "the take of the pile of line 10 written again: this line is not replayed "
                   "(readings R119)");
  EXPECT_EQ(test::MessageOf(r, CheckId::kTurnSequence), "seat 3 has already drawn this turn");
}

// A discard replayed as another seat's (R118) is not that seat's own line:
// the seat's next discard of the same card is no line written twice.
TEST(Recovery, ADiscardAfterAReseatedOneIsNotWrittenTwice_R119) {
  DealSpec d;
  d.hands = {{}, {"QC", "KS"}, {"QC", "QC"}};
  d.stock = {"9D", "AS", "7C", "6H"};
  Log log;
  log.Deal(d);
  log.Draw(1, std::vector<std::string>{"9D"});
  log.Draw(2, std::vector<std::string>{"AS"});  // seat 1's discard missing
  log.Discard(1, "QC");                         // out of turn: seat 2 holds QC and drew
  log.Discard(2, "QC");                         // seat 2's own line
  const FileReport r = Audit(log.str());
  EXPECT_FALSE(HasNote(r, CheckId::kTurnOrder, "written again")) << test::Dump(r);
  EXPECT_FALSE(HasNote(r, CheckId::kCardNotHeld, "written again")) << test::Dump(r);
}

TEST(Recovery, ATurnsDrawMarkedBonusIsOneFinding_R119) {
  Log log;
  DealSpec d;
  d.stock = {"9D", "AS", "KH"};
  log.Deal(d);
  const int marked = log.Raw(R"({"type":"draw","player":1,"cards":["9D"],"bonus":true})");
  log.Discard(1, "9D");
  log.Draw(2, std::vector<std::string>{"AS"});
  log.Discard(2, "AS");
  const FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {marked, CheckId::kDrawCount});
  EXPECT_TRUE(HasNote(r, CheckId::kDrawCount, "read as the turn's draw"));
}

// readings R121: melds before the turn's draw are one turn-sequence finding
// (at the first); the turn plays on as drawn, and the draw that comes after
// them is its draw, late.
TEST(Recovery, MeldsBeforeTheDrawAreOneFinding_R121) {
  Log log;
  DealSpec d;
  d.hands = {{}, {}, {"KS", "KH", "KD", "QS", "QH", "QD"}};
  d.stock = {"9D", "AS", "7C"};
  log.Deal(d);
  log.Draw(1, std::vector<std::string>{"9D"});
  log.Discard(1, "9D");
  const int first = log.Meld(2, {{"KS", "KH", "KD"}});  // no draw yet
  log.Meld(2, {{"QS", "QH", "QD"}});
  log.Draw(2, std::vector<std::string>{"AS"});  // the draw, late
  log.Discard(2, "AS");
  log.Draw(3, std::vector<std::string>{"7C"});
  const FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {first, CheckId::kTurnSequence});
  EXPECT_EQ(test::MessageOf(r, CheckId::kTurnSequence), "seat 2 must draw or take the pile first");
}

// readings R122: cards of one rank declared "as":"sequence" under a ruleset
// without sequences are one finding, and are laid as a meld of their rank,
// so the card added to it later is no finding. Cards of several ranks stay
// the sequence refused as before.
TEST(Recovery, ASequenceDeclaredWhereThereAreNoneIsAMeldOfItsRank_R122) {
  Log log;
  DealSpec d;
  d.hands = {{}, {"9S", "9S", "9D", "2H", "9C", "KS", "QH", "7D"}};
  d.stock = {"4D", "4C", "4H"};
  log.Deal(d);
  log.Draw(1, std::vector<std::string>{"4D"});
  const int declared = log.Raw(
      R"({"type":"meld","player":1,"melds":[{"as":"sequence","cards":["9S","9S","9D","2H"]}]})");
  log.Add(1, "9", {"9C"});
  log.Discard(1, "4D");
  log.Draw(2, std::vector<std::string>{"4C"});
  FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {declared, CheckId::kMeldMixedRanks});
  EXPECT_EQ(test::MessageOf(r, CheckId::kMeldMixedRanks),
            "the cards 9S 9S 9D 2H are declared a sequence (\"as\":\"sequence\"); sequences are "
            "not melds under this ruleset, so they are replayed as a meld of 9s (readings R122)");

  Log mixed;
  mixed.Deal(d);
  mixed.Draw(1, std::vector<std::string>{"4D"});
  const int run = mixed.Raw(
      R"({"type":"meld","player":1,"melds":[{"as":"sequence","cards":["KS","QH","2H"]}]})");
  r = Audit(mixed.str());
  EXPECT_PROBLEMS(r, {run, CheckId::kMeldMixedRanks});
  EXPECT_EQ(
      test::MessageOf(r, CheckId::kMeldMixedRanks),
      "the cards KS QH 2H are laid as a sequence; sequences are not melds under this ruleset");
}

// R121: a turn that melds and discards with no draw at all, and the next
// seat's draw comes a card on in the stock: the draw left out was the
// stock's next card. It is made up before the discard, a note on the turn's
// one finding; the seat holds it, and discards it a round later.
TEST(Recovery, ADrawLeftOutIsMadeUpFromTheStock_R121) {
  Log log;
  DealSpec d;
  d.hands = {{}, {}, {"KS", "KH", "KD", "JK", "QS"}};
  d.stock = {"9D", "AS", "7C", "6H", "5C", "4D"};
  log.Deal(d);
  log.Draw(1, std::vector<std::string>{"9D"});
  log.Discard(1, "9D");
  const int meld = log.Meld(2, {{"KS", "KH", "KD", "JK"}});  // the draw of AS left out
  log.Discard(2, "QS");
  const int next = log.Draw(3, std::vector<std::string>{"7C"});
  log.Discard(3, "7C");
  log.Draw(0, std::vector<std::string>{"6H"});
  log.Discard(0, "6H");
  log.Draw(1, std::vector<std::string>{"5C"});
  log.Discard(1, "5C");
  log.Draw(2, std::vector<std::string>{"4D"});
  log.Discard(2, "AS");
  const FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {meld, CheckId::kTurnSequence});
  EXPECT_TRUE(HasNote(r, CheckId::kTurnSequence,
                      "the draw of AS, the stock's next, was left out: the draw of line " +
                          std::to_string(next) + " comes after it (readings R121)"))
      << test::Dump(r);
}

// R121, a take of the pile left out: seat 3 takes 7C with 7S 7H (the line
// left out). Its meld of 5D from the pile then shows the take, made up
// before the meld; a turn that only discards shows it by the next seat's
// draw, the stock's next card; a turn that only discards, with the next
// draw a card on, drew that card.
TEST(Recovery, ATakeOrDrawLeftOutBeforeTheTurnsMovesIsMadeUp_R121) {
  DealSpec d;
  d.hands = {{}, {"QS", "QH", "QD", "JK", "5D"}, {"7C"}, {"7S", "7H", "5S", "5H", "9C"}};
  d.upcard = {"8C"};
  d.stock = {"6D", "4D", "KC", "KD", "KH"};
  // Seats 1 and 2 play their turns; `deal` is d, or d changed.
  auto opening = [&](Log& log, const DealSpec& deal) {
    log.Deal(deal);
    log.Draw(1, std::vector<std::string>{"6D"});
    log.Meld(1, {{"QS", "QH", "QD", "JK"}});
    log.Discard(1, "5D");
    log.Draw(2, std::vector<std::string>{"4D"});
    log.Discard(2, "7C");
  };
  // The take's form depends on the 7s the seat holds (the deal pads hands).
  const std::string take = "the take of the pile (3 cards, 7C on top, with 7";
  {
    Log log;
    opening(log, d);
    // take_pile 7C with two 7s left out; 5D came with the pile
    const int meld = log.Meld(3, {{"5D", "5S", "5H"}});
    log.Discard(3, "9C");
    log.Draw(0, std::vector<std::string>{"KC"});
    const FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {meld, CheckId::kTurnSequence});
    EXPECT_TRUE(HasNote(r, CheckId::kTurnSequence, take)) << test::Dump(r);
    EXPECT_TRUE(HasNote(r, CheckId::kTurnSequence,
                        ") was left out before this line: the meld plays 5D from the pile; made "
                        "up here (readings R121)"))
        << test::Dump(r);
  }
  {
    Log log;
    opening(log, d);
    const int discard = log.Discard(3, "5D");  // 5D came with the pile
    const int next = log.Draw(0, std::vector<std::string>{"KC"});
    log.Discard(0, "KC");
    const FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {discard, CheckId::kTurnSequence});
    EXPECT_TRUE(HasNote(r, CheckId::kTurnSequence, take)) << test::Dump(r);
    EXPECT_TRUE(HasNote(r, CheckId::kTurnSequence,
                        ") was left out before this line: the draw of line " +
                            std::to_string(next) +
                            " is the stock's next card, so the turn drew none; made up here "
                            "(readings R121)"))
        << test::Dump(r);
  }
  {  // a meld before the draw of a card the seat holds, then a discard of a
     // card from the pile: the take shows at the discard
    DealSpec q = d;
    q.hands[3].push_back("QC");
    Log log;
    opening(log, q);
    const int meld = log.Add(3, "Q", {"QC"});  // before any draw, a card it holds
    log.Discard(3, "5D");                      // 5D lies in the pile
    log.Draw(0, std::vector<std::string>{"KC"});  // the stock's next
    const FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {meld, CheckId::kTurnSequence});
    EXPECT_TRUE(HasNote(r, CheckId::kTurnSequence,
                        take + "S 7S) was left out: the discard at line " +
                            std::to_string(meld + 1) +
                            " plays 5D, a card of that pile; made up there (readings R121)"))
        << test::Dump(r);
  }
  {  // the same meld, then a discard of the pile's top card, which every
     // form of the take melds: no take is made up, the card not held
    DealSpec q = d;
    q.hands[3].push_back("QC");
    Log log;
    opening(log, q);
    const int meld = log.Add(3, "Q", {"QC"});
    const int discard = log.Discard(3, "7C");
    const FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {meld, CheckId::kTurnSequence}, {discard, CheckId::kCardNotHeld});
    EXPECT_FALSE(HasNote(r, CheckId::kTurnSequence, "a card of that pile")) << test::Dump(r);
  }
  {  // the same meld, then a discard of a card the seat held: the next
     // seat's draw of the stock's next card shows the take
    DealSpec q = d;
    q.hands[3].push_back("QC");
    Log log;
    opening(log, q);
    const int meld = log.Add(3, "Q", {"QC"});
    log.Discard(3, "9C");
    const int next = log.Draw(0, std::vector<std::string>{"KC"});
    const FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {meld, CheckId::kTurnSequence});
    EXPECT_TRUE(HasNote(r, CheckId::kTurnSequence,
                        ") was left out: the draw of line " + std::to_string(next) +
                            " is the stock's next card, so the turn drew none (readings R121)"))
        << test::Dump(r);
  }
  {  // the same when the discard is a card the seat held before: the next
     // seat's draw of the stock's next card is evidence enough
    Log log;
    opening(log, d);
    const int discard = log.Discard(3, "9C");
    log.Draw(0, std::vector<std::string>{"KC"});
    log.Discard(0, "KC");
    const FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {discard, CheckId::kTurnSequence});
    EXPECT_TRUE(HasNote(r, CheckId::kTurnSequence, take)) << test::Dump(r);
  }
  {  // a meld of the stock's next card before the draw, the draw written
     // after it: made up at the meld, the late line not replayed
    DealSpec q = d;
    q.stock = {"6D", "4D", "QC", "KD"};
    Log log;
    opening(log, q);
    const int meld = log.Add(3, "Q", {"QC"});  // QC: the stock's next, not drawn yet
    const int late = log.Draw(3, std::vector<std::string>{"QC"});
    log.Discard(3, "9C");
    log.Draw(0, std::vector<std::string>{"KD"});
    const FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {meld, CheckId::kTurnSequence});
    EXPECT_TRUE(HasNote(r, CheckId::kTurnSequence,
                        "the draw comes late, at line " + std::to_string(late) + ": not replayed"))
        << test::Dump(r);
  }
  {
    Log log;
    opening(log, d);
    const int discard = log.Discard(3, "9C");  // the draw of KC left out
    const int next = log.Draw(0, std::vector<std::string>{"KD"});
    log.Discard(0, "KD");
    log.Draw(1, std::vector<std::string>{"KH"});
    const FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {discard, CheckId::kTurnSequence});
    EXPECT_TRUE(HasNote(r, CheckId::kTurnSequence,
                        "the draw of KC, the stock's next, was left out before this line: the "
                        "draw of line " +
                            std::to_string(next) + " comes after it; made up here (readings R121)"))
        << test::Dump(r);
  }
}

// A header that names no ruleset (absent, null or "") is read under
// classic: no finding of its own, and a note on the game's first finding.
TEST(Recovery, AHeaderWithoutARulesetIsClassicAndTheFirstFindingSaysSo) {
  const std::string note =
      "the header names no ruleset: the game was audited under \"classic\" (name the ruleset "
      "in the header, or choose it with --rules)";
  for (const char* ruleset : {"", R"("ruleset":null,)", R"("ruleset":"",)"}) {
    SCOPED_TRACE(ruleset);
    Log log(4, /*header=*/false);
    log.Raw(std::string(R"({"type":"game","format":"canasta-log/1",)") + ruleset +
            R"("players":["Ann","Bob","Cat","Dan"]})");
    log.Deal(DealSpec{});
    const int wrong = log.Draw(2);  // seat 1's turn
    const FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {wrong, CheckId::kTurnOrder});
    ASSERT_FALSE(r.games.at(0).findings.empty());
    const std::vector<std::string>& notes = r.games[0].findings.front().notes;
    EXPECT_NE(std::find(notes.begin(), notes.end(), note), notes.end()) << test::Dump(r);
  }
  Log named;
  named.Deal(DealSpec{});
  named.Draw(2);
  EXPECT_FALSE(HasNote(Audit(named.str()), CheckId::kTurnOrder, "names no ruleset"));
}

// A discard out of turn before the seat in turn has drawn, of a card the
// named seat holds, is no misnumbered seat (R118): it is replayed as
// recorded, the play going on from that seat.
TEST(Recovery, ADiscardOutOfTurnBeforeTheDrawStaysTheNamedSeats_R118) {
  Log log;
  DealSpec d;
  d.hands = {{}, {"KS"}, {"KS"}, {}};
  log.Deal(d);
  const int out_of_turn = log.Discard(2, "KS");  // seat 1's turn, not drawn yet
  log.Draw(3);                                   // in turn after seat 2's discard: no finding
  const FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {out_of_turn, CheckId::kTurnOrder});
  EXPECT_FALSE(HasNote(r, CheckId::kTurnOrder, "replayed as")) << test::Dump(r);
}

// ===========================================================================
// Scores compared with the truth (000 §18, §19)

struct TwoHands {
  std::vector<int> s1, s2, s3, t1, t2, t3;
};
TwoHands Truth() {
  Log probe;
  PlayQuickOut(probe, 1, 0);
  TwoHands t;
  t.s1 = QuickOutScores(probe, 0);
  probe.EndHand(1);
  PlayQuickOut(probe, 2, 1);
  t.s2 = QuickOutScores(probe, 1);
  probe.EndHand(2);
  PlayQuickOut(probe, 3, 2);
  t.s3 = QuickOutScores(probe, 2);
  t.t1 = t.s1;
  t.t2 = Plus(t.t1, t.s2);
  t.t3 = Plus(t.t2, t.s3);
  return t;
}

TEST(RecoveryScores, SlipAtHandTwoCorrectTotalsAtHandThree) {
  const TwoHands t = Truth();
  Log log;
  PlayQuickOut(log, 1, 0);
  log.EndHand(1, ScoresAndTotals(t.s1, t.t1));
  PlayQuickOut(log, 2, 1);
  const int slip = log.EndHand(2, ScoresAndTotals(t.s2, {t.t2[0] + 5, t.t2[1]}));
  PlayQuickOut(log, 3, 2);
  const int back = log.EndHand(3, ScoresAndTotals(t.s3, t.t3));
  FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {slip, CheckId::kScoreTotal});
  EXPECT_NE(
      test::MessageOf(r, CheckId::kScoreTotal)
          .find("should be " + std::to_string(t.t2[0]) + ", not " + std::to_string(t.t2[0] + 5)),
      std::string::npos);
  EXPECT_TRUE(HasNote(r, CheckId::kScoreTotal,
                      "hand 3 (line " + std::to_string(back) + ") records the true total " +
                          std::to_string(t.t3[0])))
      << test::Dump(r);
}

TEST(RecoveryScores, SlipAtHandTwoCarriedIntoHandThree) {
  const TwoHands t = Truth();
  Log log;
  PlayQuickOut(log, 1, 0);
  log.EndHand(1, ScoresAndTotals(t.s1, t.t1));
  PlayQuickOut(log, 2, 1);
  const std::vector<int> off = {t.t2[0] + 5, t.t2[1]};
  const int slip = log.EndHand(2, ScoresAndTotals(t.s2, off));
  PlayQuickOut(log, 3, 2);
  log.EndHand(3, ScoresAndTotals(t.s3, Plus(off, t.s3)));
  FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {slip, CheckId::kScoreTotal});
  EXPECT_TRUE(HasNote(r, CheckId::kScoreTotal, "hand 3")) << test::Dump(r);
  EXPECT_EQ(test::OnlyGame(r).totals, t.t3);
}

TEST(RecoveryScores, SlipAtHandTwoThenAnotherAtHandThree) {
  const TwoHands t = Truth();
  Log log;
  PlayQuickOut(log, 1, 0);
  log.EndHand(1, ScoresAndTotals(t.s1, t.t1));
  PlayQuickOut(log, 2, 1);
  const int slip = log.EndHand(2, ScoresAndTotals(t.s2, {t.t2[0] + 5, t.t2[1]}));
  PlayQuickOut(log, 3, 2);
  // Neither true nor the sheet's own sum: a second slip.
  const int again = log.EndHand(3, ScoresAndTotals(t.s3, {t.t3[0] + 50, t.t3[1]}));
  EXPECT_PROBLEMS(Audit(log.str()), {slip, CheckId::kScoreTotal}, {again, CheckId::kScoreTotal});
}

TEST(RecoveryScores, WrongHandScoreCarriedIntoTheTotalIsOneError) {
  const TwoHands t = Truth();
  Log log;
  PlayQuickOut(log, 1, 0);
  const std::vector<int> wrong = {t.s1[0], t.s1[1] + 5};
  const int end = log.EndHand(1, ScoresAndTotals(wrong, wrong));
  FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {end, CheckId::kScoreHand});
  EXPECT_TRUE(HasNote(r, CheckId::kScoreHand, "carries it")) << test::Dump(r);
}

TEST(RecoveryScores, WrongHandScoreWithTheTrueTotalIsOneError) {
  const TwoHands t = Truth();
  Log log;
  PlayQuickOut(log, 1, 0);
  const int end = log.EndHand(1, ScoresAndTotals({t.s1[0], t.s1[1] + 5}, t.t1));
  FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {end, CheckId::kScoreHand});
  EXPECT_TRUE(HasNote(r, CheckId::kScoreHand, "records the true total")) << test::Dump(r);
}

TEST(RecoveryScores, EndGameTotalsAndWinnerAgainstTheTruth) {
  const TwoHands t = Truth();
  auto game = [&](const std::string& end_game, int* slip) {
    Log log;
    PlayQuickOut(log, 1, 0);
    log.EndHand(1, ScoresAndTotals(t.s1, t.t1));
    PlayQuickOut(log, 2, 1);
    *slip = log.EndHand(2, ScoresAndTotals(t.s2, {t.t2[0] + 5, t.t2[1]}));
    log.EndGame(end_game);
    return log;
  };
  const int winner = t.t2[0] > t.t2[1] ? 0 : 1;
  int slip = 0;
  {
    // The true final totals and winner: the slip is the only error (the
    // game is far from 5,000: end_game is early, game-end).
    Log log = game("\"totals\":" + Ints(t.t2) + ",\"winner\":" + std::to_string(winner), &slip);
    FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {slip, CheckId::kScoreTotal}, {log.line(), CheckId::kGameEnd});
    EXPECT_TRUE(HasNote(r, CheckId::kScoreTotal, "the final totals")) << test::Dump(r);
  }
  {
    // Final totals that repeat the slip carry it, as the running totals do:
    // a note of the slip's finding, not an error of their own (readings R133).
    Log log = game("\"totals\":" + Ints({t.t2[0] + 5, t.t2[1]}), &slip);
    FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {slip, CheckId::kScoreTotal}, {log.line(), CheckId::kGameEnd});
    EXPECT_TRUE(HasNote(r, CheckId::kScoreTotal,
                        "the final totals " + Listed({t.t2[0] + 5, t.t2[1]}) + " (line " +
                            std::to_string(log.line()) + ") carry it: the true final totals are " +
                            Listed(t.t2)))
        << test::Dump(r);
  }
  {
    // Final totals wrong in another way (not the running totals) are an
    // error of their own.
    Log log = game("\"totals\":" + Ints({t.t2[0] + 7, t.t2[1]}), &slip);
    FileReport r = Audit(log.str());
    EXPECT_PROBLEMS(r, {slip, CheckId::kScoreTotal}, {log.line(), CheckId::kGameEnd},
                    {log.line(), CheckId::kGameTotals});
  }
}

// A hand the replay lost takes its recorded scores, and its recorded running
// totals are the sheet's last ones (000 §19): here they carry hand 1's slip,
// and so do final totals that repeat them: a note of the slip (readings R133).
TEST(RecoveryScores, ALostHandsRecordedTotalsAreTheLastRecordedOnes) {
  const TwoHands t = Truth();
  Log log;
  PlayQuickOut(log, 1, 0);
  const std::vector<int> off = {t.t1[0] + 5, t.t1[1]};
  const int slip = log.EndHand(1, ScoresAndTotals(t.s1, off));
  const int deal = log.Raw(R"({"type":"deal","hand":2,"dealer":"north","hands":[],"upcard":[]})");
  const std::vector<int> recorded = Plus(off, {100, -50});
  log.EndHand(2, ScoresAndTotals({100, -50}, recorded));
  const int end = log.EndGame("\"totals\":" + Ints(recorded));
  FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {slip, CheckId::kScoreTotal}, {deal, CheckId::kLogBadEvent},
                  {end, CheckId::kGameEnd});
  const std::vector<int> truth = Plus(t.t1, {100, -50});
  EXPECT_EQ(test::OnlyGame(r).totals, truth);
  EXPECT_TRUE(HasNote(r, CheckId::kScoreTotal,
                      "the final totals " + Listed(recorded) + " (line " + std::to_string(end) +
                          ") carry it: the true final totals are " + Listed(truth)))
      << test::Dump(r);
}

#ifdef CANASTA_SOURCE_DIR
// Readings R133: seat 1's meld of JK onto its aces (line 252 of the
// two-handed sample) left out. Hand 3's score is one finding; the running
// totals, the final totals and the recorded winner (seat 1, whom the wrong
// totals make the winner; the true winner is seat 0) all carry it, as notes.
// A winner that does not follow the recorded totals stays a finding.
TEST(RecoveryScores, AWinnerThatFollowsTotalsCarryingASlipCarriesItToo_R133) {
  std::vector<std::string> lines =
      LeftOut(SampleLines("two-handed"), 251,
              R"({"type":"meld","player":1,"melds":[{"to":"A","cards":["JK"]}]})");
  const FileReport r = AuditUnderItsRuleset(lines);
  EXPECT_FINDINGS(r, {330, CheckId::kScoreHand});
  EXPECT_TRUE(HasNote(r, CheckId::kScoreHand,
                      "the recorded winner, seat 1 (line 465), follows the totals that carry it: "
                      "the true winner is seat 0"))
      << test::Dump(r);

  ASSERT_NE(lines[464].find(R"("winner":1)"), std::string::npos) << lines[464];
  lines[464].replace(lines[464].find(R"("winner":1)"), 10, R"("winner":0)");
  const FileReport right = AuditUnderItsRuleset(lines);
  EXPECT_FINDINGS(right, {330, CheckId::kScoreHand});
  EXPECT_FALSE(HasNote(right, CheckId::kScoreHand, "the recorded winner")) << test::Dump(right);
}
#endif

// A recorded total at the reader's limit (10^9): no signed overflow in the
// sums; the total is simply wrong. Beyond the limit the reader reports the
// number itself (log_reader_test).
TEST(RecoveryScores, HugeRecordedTotalIsNoOverflow) {
  const TwoHands t = Truth();
  Log log;
  PlayQuickOut(log, 1, 0);
  const int first = log.EndHand(1, ScoresAndTotals(t.s1, {1000000000, t.t1[1]}));
  PlayQuickOut(log, 2, 1);
  const std::vector<int> huge_score = {1000000000, t.s2[1]};
  const int end = log.EndHand(2, ScoresAndTotals(huge_score, {1000000000, t.t2[1]}));
  FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {first, CheckId::kScoreTotal}, {end, CheckId::kScoreHand},
                  {end, CheckId::kScoreTotal});
  EXPECT_TRUE(HasNote(r, CheckId::kScoreTotal, "= 2000000000")) << test::Dump(r);
}

// A lost hand whose recorded score is at the reader's limit: the totals stay
// in range, and
// the game is over, so the next deal is one too many.
TEST(RecoveryScores, HugeRecordedScoreOfALostHand) {
  Log log;
  const int deal = log.Raw(R"({"type":"deal","hand":1,"dealer":0,"hands":7,"upcard":[]})");
  log.Raw(R"({"type":"end_hand","hand":1,"scores":[1000000000,-1000000000]})");
  DealSpec d;
  d.hand = 2;
  d.dealer = 1;
  const int next = log.Deal(d);
  FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {deal, CheckId::kLogBadEvent}, {next, CheckId::kGameEnd});
  EXPECT_EQ(test::OnlyGame(r).hands.at(0).totals, (std::vector<int>{1000000000, -1000000000}));
}

// Recorded scores taken as true may carry the totals past what the audit
// counts in: one finding there, and no later total, sum or winner compared
// (a capped "should be" value would be wrong).
TEST(RecoveryScores, TotalsPastTheIntRangeAreOneFindingAndNotCompared) {
  Log log;
  log.Raw(R"({"type":"end_hand","hand":1,"scores":[1000000000,0]})");
  const int second = log.Raw(R"({"type":"end_hand","hand":2,"scores":[1000000000,0]})");
  const int third =
      log.Raw(R"({"type":"end_hand","hand":3,"scores":[1000000000,0],"totals":[1,2]})");
  log.Raw(R"({"type":"end_hand","hand":4,"scores":[5,0],"totals":[3,4]})");
  log.EndGame(R"("totals":[1000000000,0],"winner":1)");
  const FileReport r = Audit(log.str());
  EXPECT_PROBLEMS(r, {second, CheckId::kGameEnd}, {third, CheckId::kGameTotals});
  EXPECT_TRUE(
      HasNote(r, CheckId::kGameTotals, "side 0 (Ann and Cat) 3000000000, side 1 (Bob and Dan) 0"))
      << test::Dump(r);
}

// ===========================================================================
// The cap on findings per file (docs/report-format.md)

TEST(RecoveryCap, FindingsStopAtTheLimitWithOneFindingSayingSo) {
  Log log;
  log.Deal(DealSpec{});
  for (int i = 0; i < 1200; ++i) log.Raw(R"({"type":"shuffle"})");  // unknown: one finding each
  FileReport r = Audit(log.str());
  ASSERT_EQ(r.games.size(), 1u);
  const std::vector<Finding>& f = r.games[0].findings;
  ASSERT_EQ(f.size(), size_t(kDefaultMaxFindings) + 1);
  EXPECT_EQ(f[0].id, CheckId::kLogUnknownEvent);
  EXPECT_EQ(f.back().id, CheckId::kLogIncomplete);
  EXPECT_EQ(f.back().line, 3 + kDefaultMaxFindings);
  EXPECT_NE(f.back().message.find("more than 1000 findings"), std::string::npos);

  AuditOptions few;
  few.max_findings = 5;
  std::istringstream in(log.str());
  FileReport small = AuditStream(in, "x", few);
  ASSERT_EQ(small.games[0].findings.size(), 6u);
  EXPECT_EQ(small.games[0].findings.back().line, 8);
}

// ===========================================================================
// canasta tree on the driver

TEST(RecoveryTree, BadPlayerIndexIsReportedWithItsLine) {
  Log log;
  log.Deal(DealSpec{});
  log.Draw(1);
  const int bad = log.Raw(R"({"type":"discard","player":-1,"card":"KS"})");
  std::istringstream in(log.str());
  HandDecisions d;
  std::string error;
  EXPECT_FALSE(CollectDecisions(in, "x.jsonl", 1, 1, AuditOptions{}, &d, &error));
  EXPECT_EQ(error.rfind("line " + std::to_string(bad) + ": \"discard\" event: \"player\" is -1", 0),
            0u)
      << error;
}

// A hand whose deal could not be replayed: the error says why there is no
// hand to draw, with the deal's line.
TEST(RecoveryTree, AHandWhoseDealWasLostSaysWhy) {
  Log log;
  const int deal =
      log.Raw(R"({"type":"deal","hand":1,"dealer":0,"hands":[["1X"],[],[],[]],"upcard":["5S"]})");
  log.Draw(1);
  std::istringstream in(log.str());
  HandDecisions d;
  std::string error;
  EXPECT_FALSE(CollectDecisions(in, "x.jsonl", 1, 1, AuditOptions{}, &d, &error));
  EXPECT_EQ(error, "game 1 has no hand 1 the replay could follow (line " + std::to_string(deal) +
                       ": \"deal\" event: \"hands\"[0][0] is \"1X\", not a card)");
}

#if defined(CANASTA_BINARY)
TEST(RecoveryTree, TheProgramExitsTwoOnABadPlayerIndex) {
  Log log;
  log.Deal(DealSpec{});
  log.Draw(1);
  const int bad = log.Raw(R"({"type":"discard","player":-1,"card":"KS"})");
  const std::string path = ::testing::TempDir() + "recovery_bad_player.jsonl";
  {
    std::ofstream out(path, std::ios::binary);
    out << log.str();
  }
  const test::ShellRun run =
      test::RunShell(std::string(CANASTA_BINARY) + " tree --format dot " + path + " 2>&1");
  const std::string& text = run.out;
  EXPECT_EQ(run.status, 2) << text;
  EXPECT_NE(text.find("line " + std::to_string(bad) + ":"), std::string::npos) << text;
  std::remove(path.c_str());
}
#endif

}  // namespace
}  // namespace canasta
