// Direct tests of replay/ functions that no other test names: the log
// writer's lines read back by the project's own LogReader (a round trip),
// the move conversions, the fault injector's expected checks, the wording of
// hook failures, the decision collector and the score-sheet checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/position.h"
#include "lint/checks.h"
#include "replay/decisions.h"
#include "replay/driver.h"
#include "replay/inject.h"
#include "replay/log_reader.h"
#include "replay/log_writer.h"
#include "replay/moves.h"
#include "replay/sheet.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

using test::C;

std::vector<Card> Cards(std::initializer_list<const char*> texts) {
  std::vector<Card> out;
  for (const char* t : texts) out.push_back(*ParseCard(t));
  return out;
}

// Reads one line with the project's reader; fails the test on any problem.
Event ReadBack(const std::string& line) {
  std::istringstream in(line + "\n");
  LogReader reader(in);
  Event e;
  std::vector<InputProblem> problems;
  EXPECT_TRUE(reader.Next(&e, &problems)) << line;
  for (const InputProblem& p : problems) ADD_FAILURE() << line << ": " << p.message;
  EXPECT_TRUE(e.ok) << line;
  return e;
}

// --- log_writer.h ---

TEST(ReplayFunctions, JsonStringEscapesQuotesBackslashesAndControls) {
  EXPECT_EQ(JsonString(""), "\"\"");
  EXPECT_EQ(JsonString("Ann"), "\"Ann\"");
  EXPECT_EQ(JsonString("a\"b"), "\"a\\\"b\"");
  EXPECT_EQ(JsonString("a\\b"), "\"a\\\\b\"");
  EXPECT_EQ(JsonString("a\nb\tc\rd"), "\"a\\nb\\tc\\rd\"");
  // Other C0 controls as \u00XX (RFC 8259 section 7); DEL and UTF-8 pass as is.
  EXPECT_EQ(JsonString(std::string("\x01\x1f", 2)), "\"\\u0001\\u001f\"");
  EXPECT_EQ(JsonString(std::string("x\0y", 3)), "\"x\\u0000y\"");
  EXPECT_EQ(JsonString("\x7f\xc3\xa9"), "\"\x7f\xc3\xa9\"");
}

TEST(ReplayFunctions, NoteLineReadsBackAsTheSameText) {
  const std::string text = std::string("say \"hi\" \\ to\nall\t\x01 caf\xc3\xa9", 26);
  const std::string line = NoteLine(text);
  EXPECT_EQ(line.find('\n'), std::string::npos);  // one JSON Lines record
  Event e = ReadBack(line);
  EXPECT_EQ(e.type, EventType::kNote);
  EXPECT_EQ(e.text, text);
  EXPECT_FALSE(e.player.has_value());
}

TEST(ReplayFunctions, GameLineReadsBackAsTheHeader) {
  const std::vector<std::string> players = {"Ann", "Bob \"the\" Builder", "C\\D", "Dan"};
  Event e = ReadBack(GameLine("rulesets/house.lua", players));
  EXPECT_EQ(e.type, EventType::kGame);
  EXPECT_EQ(e.format, "canasta-log/1");
  EXPECT_EQ(e.ruleset, "rulesets/house.lua");
  EXPECT_EQ(e.players, players);
}

TEST(ReplayFunctions, DealLineReadsBackAsTheDeal) {
  DealMove d;
  d.dealer = 3;
  d.hands = {Cards({"KS", "TH", "JK"}), Cards({"2C", "3D"})};
  d.upcards = Cards({"8C"});
  d.stock = Cards({"QH", "4S"});
  Event e = ReadBack(DealLine(2, d));
  EXPECT_EQ(e.type, EventType::kDeal);
  EXPECT_EQ(e.hand, 2);
  EXPECT_EQ(e.dealer, 3);
  EXPECT_EQ(e.hands, d.hands);
  EXPECT_EQ(e.upcard, d.upcards);
  ASSERT_TRUE(e.stock.has_value());
  EXPECT_EQ(*e.stock, *d.stock);
  EXPECT_FALSE(e.feet.has_value());  // none dealt: no "feet" field

  // Feet (002 L71) are written when dealt; an unrecorded stock is left out.
  d.feet = {Cards({"5H"}), Cards({"6H"})};
  d.stock.reset();
  e = ReadBack(DealLine(1, d));
  ASSERT_TRUE(e.feet.has_value());
  EXPECT_EQ(*e.feet, d.feet);
  EXPECT_FALSE(e.stock.has_value());
}

TEST(ReplayFunctions, EndHandLineReadsBackWithScoresTotalsAndBreakdown) {
  ScoreBreakdown a;
  a.canastas = 500;
  a.red_threes = 100;
  a.going_out = 100;
  a.melded = 235;
  ScoreBreakdown b;
  b.melded = 60;
  b.in_hand = -45;
  b.house = -10;  // written only where it is not 0
  Event e = ReadBack(EndHandLine(3, {a, b}, {2035, 415}));
  EXPECT_EQ(e.type, EventType::kEndHand);
  EXPECT_EQ(e.hand, 3);
  ASSERT_TRUE(e.scores && e.totals && e.breakdown);
  EXPECT_EQ(*e.scores, (std::vector<int>{935, 5}));  // each side's parts added up
  EXPECT_EQ(*e.totals, (std::vector<int>{2035, 415}));
  ASSERT_EQ(e.breakdown->size(), 2u);
  using Parts = std::vector<std::pair<std::string, int>>;
  EXPECT_EQ((*e.breakdown)[0], (Parts{{"canastas", 500},
                                      {"red_threes", 100},
                                      {"going_out", 100},
                                      {"melded", 235},
                                      {"in_hand", 0},
                                      {"penalties", 0}}));
  EXPECT_EQ((*e.breakdown)[1], (Parts{{"canastas", 0},
                                      {"red_threes", 0},
                                      {"going_out", 0},
                                      {"melded", 60},
                                      {"in_hand", -45},
                                      {"penalties", 0},
                                      {"house", -10}}));
}

TEST(ReplayFunctions, EndGameLineWritesTheWinnerOnlyWhenThereIsOne) {
  Event e = ReadBack(EndGameLine({5120, 3400}, 0));
  EXPECT_EQ(e.type, EventType::kEndGame);
  EXPECT_EQ(e.totals, (std::vector<int>{5120, 3400}));
  EXPECT_EQ(e.winner, 0);
  e = ReadBack(EndGameLine({5000, 5000}, std::nullopt));
  EXPECT_EQ(e.totals, (std::vector<int>{5000, 5000}));
  EXPECT_FALSE(e.winner.has_value());
}

// --- log_reader.h ---

TEST(ReplayFunctions, NextParsedOnlySkipsBlankLinesAndSaysWhichLinesAreJson) {
  std::istringstream in("{\"type\":\"note\"}\n\n   \n[1, 2\nnot json\n{\"a\":[1,{}]}\n\n");
  LogReader reader(in);
  bool valid = false;
  ASSERT_TRUE(reader.NextParsedOnly(&valid));
  EXPECT_TRUE(valid);
  EXPECT_EQ(reader.line(), 1);
  ASSERT_TRUE(reader.NextParsedOnly(&valid));  // the blank lines 2 and 3 are skipped
  EXPECT_FALSE(valid);
  EXPECT_EQ(reader.line(), 4);
  valid = true;
  ASSERT_TRUE(reader.NextParsedOnly(&valid));
  EXPECT_FALSE(valid);
  EXPECT_EQ(reader.line(), 5);
  ASSERT_TRUE(reader.NextParsedOnly(&valid));  // any JSON, not only an event
  EXPECT_TRUE(valid);
  EXPECT_EQ(reader.line(), 6);
  EXPECT_FALSE(reader.NextParsedOnly(&valid));  // a trailing blank line is no line
}

// --- moves.h ---

TEST(ReplayFunctions, RefRankReadsRanksAndWild) {
  EXPECT_EQ(RefRank(std::nullopt), std::nullopt);
  EXPECT_EQ(RefRank(std::string("K")), Rank::kKing);
  EXPECT_EQ(RefRank(std::string("2")), Rank::kTwo);
  EXPECT_EQ(RefRank(std::string("10")), Rank::kTen);  // docs/log-format.md: "10" or "T"
  EXPECT_EQ(RefRank(std::string("T")), Rank::kTen);
  EXPECT_EQ(RefRank(std::string("wild")), Rank::kJoker);
  EXPECT_EQ(RefRank(std::string("X")), std::nullopt);
  EXPECT_EQ(RefRank(std::string("seq1")), std::nullopt);  // a meld id, not a rank
  EXPECT_EQ(RefRank(std::string(1, '\0')), std::nullopt);  // no character of the table's end
}

TEST(ReplayFunctions, FillMoveCopiesADrawEvent) {
  Event e;
  e.type = EventType::kDraw;
  e.line = 12;
  e.cards = Cards({"QH", "2C"});
  e.bonus = true;
  DrawMove m{3, Cards({"4S", "4S", "4S"}), 0};  // reused storage is overwritten
  std::string error;
  ASSERT_TRUE(FillMove(e, 1, &m, &error));
  EXPECT_EQ(m.player, 1);
  EXPECT_EQ(m.cards, e.cards);
  EXPECT_TRUE(m.bonus);
  EXPECT_EQ(m.tag, 12);
}

TEST(ReplayFunctions, FillMoveReadsMeldTargetsDeclaredRanksAndIds) {
  Event e;
  e.type = EventType::kMeld;
  e.line = 7;
  e.melds.push_back(MeldSpec{std::string("K"), std::nullopt, std::nullopt, Cards({"KS"})});
  e.melds.push_back(MeldSpec{std::nullopt, std::string("run"), std::string("sequence"),
                             Cards({"4H", "5H", "6H"})});
  e.melds.push_back(MeldSpec{std::string("run"), std::nullopt, std::nullopt, Cards({"7H"})});
  e.melds.push_back(
      MeldSpec{std::nullopt, std::nullopt, std::string("wild"), Cards({"2C", "2D", "JK"})});
  MeldMove m;
  std::string error;
  ASSERT_TRUE(FillMove(e, 2, &m, &error)) << error;
  EXPECT_EQ(m.player, 2);
  EXPECT_EQ(m.tag, 7);
  ASSERT_EQ(m.parts.size(), 4u);
  EXPECT_EQ(m.parts[0].to, Rank::kKing);
  EXPECT_EQ(m.parts[0].to_id, "");
  EXPECT_EQ(m.parts[0].cards, Cards({"KS"}));
  EXPECT_TRUE(m.parts[1].sequence);  // 002 L67, L75
  EXPECT_EQ(m.parts[1].as, std::nullopt);
  EXPECT_EQ(m.parts[1].id, "run");
  EXPECT_EQ(m.parts[2].to, std::nullopt);  // not a rank: a meld's id
  EXPECT_EQ(m.parts[2].to_id, "run");
  EXPECT_EQ(m.parts[3].as, Rank::kJoker);
  EXPECT_FALSE(m.parts[3].sequence);

  // Fewer parts the next time: the move keeps only those.
  e.melds.resize(1);
  ASSERT_TRUE(FillMove(e, 2, &m, &error));
  EXPECT_EQ(m.parts.size(), 1u);
}

TEST(ReplayFunctions, FillMoveRefusesReferencesThatAreNotRanks) {
  Event e;
  e.type = EventType::kMeld;
  e.melds.push_back(MeldSpec{std::nullopt, std::nullopt, std::string("Z"), Cards({"KS"})});
  MeldMove meld;
  std::string error;
  EXPECT_FALSE(FillMove(e, 0, &meld, &error));
  EXPECT_EQ(error, "a meld's \"as\" is \"Z\", not a rank, \"wild\" or \"sequence\"");

  Event take;
  take.type = EventType::kTakePile;
  take.top = C("KS");
  take.to = "kings";
  TakePileMove t;
  error.clear();
  EXPECT_FALSE(FillMove(take, 0, &t, &error));
  EXPECT_EQ(error, "\"to\" is \"kings\", not a rank or \"wild\"");

  take.to = "K";
  take.count = 9;
  take.line = 4;
  ASSERT_TRUE(FillMove(take, 3, &t, &error));
  EXPECT_EQ(t.player, 3);
  EXPECT_EQ(t.top, C("KS"));
  EXPECT_EQ(t.to, Rank::kKing);
  EXPECT_EQ(t.count, 9);
  EXPECT_EQ(t.tag, 4);
}

TEST(ReplayFunctions, ToMoveConvertsMoveEventsOnly) {
  Event discard;
  discard.type = EventType::kDiscard;
  discard.player = 2;
  discard.card = C("9D");
  discard.face_down = true;
  discard.line = 30;
  std::optional<Move> m = ToMove(discard, nullptr);
  ASSERT_TRUE(m.has_value());
  const auto* d = std::get_if<DiscardMove>(&*m);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->player, 2);
  EXPECT_EQ(d->card, C("9D"));
  EXPECT_TRUE(d->face_down);
  EXPECT_EQ(d->tag, 30);

  Event answer;
  answer.type = EventType::kAnswer;
  answer.player = 1;
  answer.yes = true;
  m = ToMove(answer, nullptr);
  ASSERT_TRUE(m && std::holds_alternative<AnswerMove>(*m));
  EXPECT_TRUE(std::get<AnswerMove>(*m).yes);

  // Not a move: a note, an event with bad fields, an event without a player.
  Event note;
  note.type = EventType::kNote;
  note.player = 0;
  EXPECT_FALSE(ToMove(note, nullptr).has_value());
  Event bad = discard;
  bad.ok = false;
  EXPECT_FALSE(ToMove(bad, nullptr).has_value());
  Event nobody = discard;
  nobody.player.reset();
  EXPECT_FALSE(ToMove(nobody, nullptr).has_value());

  // A field that cannot be a move says why.
  Event meld;
  meld.type = EventType::kMeld;
  meld.player = 0;
  meld.melds.push_back(MeldSpec{std::nullopt, std::nullopt, std::string("Z"), Cards({"KS"})});
  std::string error;
  EXPECT_FALSE(ToMove(meld, &error).has_value());
  EXPECT_EQ(error, "a meld's \"as\" is \"Z\", not a rank, \"wild\" or \"sequence\"");
}

// --- inject.h ---

TEST(ReplayFunctions, ExpectedCheckIsTheCheckEachFaultKindNames) {
  // The finding each kind must produce, as inject.h documents it.
  const std::vector<std::pair<FaultKind, std::string>> expected = {
      {FaultKind::kCardNotHeld, "card-not-held"},
      {FaultKind::kStockMismatch, "stock-mismatch"},
      {FaultKind::kFrozenPileNoPair, "pile-frozen-needs-pair"},
      {FaultKind::kTooManyWilds, "meld-too-many-wilds"},
      {FaultKind::kInitialMeldTooLow, "initial-meld-minimum"},
      {FaultKind::kOutWithoutCanastas, "out-without-canastas"},
      {FaultKind::kOutOfTurn, "turn-order"},
      {FaultKind::kWrongHandScore, "score-hand"},
      {FaultKind::kWrongTotal, "score-total"},
      {FaultKind::kWrongWinner, "game-winner"},
      {FaultKind::kTruncatedFile, "log-bad-json"},
      {FaultKind::kCorruptedLine, "log-bad-json"},
      {FaultKind::kSequenceGap, "meld-sequence-not-consecutive"},
      {FaultKind::kSequenceMixedSuits, "meld-sequence-mixed-suits"},
      {FaultKind::kSequenceTooManyWilds, "meld-sequence-too-many-wilds"},
      {FaultKind::kFootEarly, "hand-foot-pickup"},
  };
  ASSERT_EQ(expected.size(), size_t(FaultKind::kCount));
  for (const auto& [kind, name] : expected)
    EXPECT_EQ(GetCheck(ExpectedCheck(kind)).name, name) << FaultName(kind);
}

// --- driver.h ---

TEST(ReplayFunctions, DescribeHookFailureWordsTheFailureAndItsNotes) {
  HookFailure f;
  f.hook = "initial_meld_value";
  f.message = "no jokers here";
  f.where = "house.lua:7";
  f.call = "initial_meld_value(\"JK\", rules)";
  f.traceback = "stack traceback:\n\thouse.lua:7: in function <house.lua:6>";
  f.count = 3;
  HookFailureText t = DescribeHookFailure(f);
  EXPECT_EQ(t.message, "ruleset hook initial_meld_value failed: no jokers here");
  EXPECT_EQ(t.notes,
            (std::vector<std::string>{
                "in house.lua:7", "call: initial_meld_value(\"JK\", rules)",
                "3 calls failed the same way", f.traceback,
                "the engine's default answer was used instead; later calls failing the same way "
                "in this game are not reported again"}));

  // What is not known is left out; one call is not counted.
  HookFailure bare;
  bare.hook = "minimum_count";
  bare.message = "boom";
  t = DescribeHookFailure(bare);
  EXPECT_EQ(t.message, "ruleset hook minimum_count failed: boom");
  ASSERT_EQ(t.notes.size(), 1u);
  EXPECT_EQ(t.notes[0].rfind("the engine's default answer was used instead", 0), 0u);
}

TEST(ReplayFunctions, HookFailureLineSaysItAllOnOneLine) {
  HookFailure f;
  f.hook = "may_take_pile";
  f.message = "a pile of 25";
  f.where = "big.lua:3";
  f.count = 121;
  EXPECT_EQ(HookFailureLine(f, " in the rollouts", "the values shown used the engine's answer"),
            "ruleset hook may_take_pile failed in the rollouts (121 calls): a pile of 25 "
            "(big.lua:3); the values shown used the engine's answer");
  f.where.clear();
  f.count = 1;
  EXPECT_EQ(HookFailureLine(f, "", "the engine's default answer was used"),
            "ruleset hook may_take_pile failed (1 call): a pile of 25; the engine's default "
            "answer was used");
}

TEST(ReplayFunctions, SetPlayersNamesTheFedGamesPlayers) {
  RulesetChoice classic;
  std::string error;
  ASSERT_TRUE(ResolveClassicOnly("classic", "", &classic, &error)) << error;
  GameFeed feed(classic, {"seat 0", "seat 1", "seat 2", "seat 3"});
  EXPECT_EQ(feed.report().players[0], "seat 0");
  // A header fed late names them.
  feed.SetPlayers({"Ann", "Bob", "Cat", "Dan"});
  EXPECT_EQ(feed.report().players, (std::vector<std::string>{"Ann", "Bob", "Cat", "Dan"}));
}

// --- decisions.h ---

// Stops the replay after the move on `line` (as a viewer that has seen
// enough would), so that no end of the log closes the hand.
class StopAfter : public ReplayObserver {
 public:
  StopAfter(ReplayDriver* driver, int line) : driver_(driver), line_(line) {}
  void AfterMove(const Event& e, const Position&, const TaggedViolations&) override {
    if (e.line == line_) driver_->Stop();
  }

 private:
  ReplayDriver* driver_;
  int line_;
};

TEST(ReplayFunctions, DecisionCollectorWithoutADriverCollectsEveryHand) {
  test::Log log;
  test::DealSpec d;
  d.stock = {"QH", "QS"};
  log.Deal(d);
  log.Draw(1);  // dealer 0: the seat after the dealer, Bob, plays first
  log.Discard(1, "QH");
  log.Draw(2);
  log.Discard(2, "QS");
  d.hand = 2;
  d.dealer = 1;
  log.Deal(d);
  const int draw = log.Draw(2);
  log.Discard(2, "QH");
  ReplayDriver driver{AuditOptions{}};
  DecisionCollector collector(nullptr, 0, 0);
  driver.AddObserver(&collector);
  std::istringstream in(log.str());
  driver.Run(in, "test.jsonl");
  collector.Finish();
  EXPECT_EQ(collector.games(), 1);
  EXPECT_TRUE(collector.found_hand());
  EXPECT_EQ(collector.error(), "");
  ASSERT_EQ(collector.hands().size(), 2u);
  const HandDecisions& first = collector.hands()[0];
  EXPECT_EQ(first.hand, 1);
  EXPECT_EQ(first.game, 1);
  EXPECT_EQ(first.ruleset, "classic");
  EXPECT_EQ(first.players, (std::vector<std::string>{"Ann", "Bob", "Cat", "Dan"}));
  // Two turns: each a draw and a play (its discard).
  ASSERT_EQ(first.decisions.size(), 4u);
  EXPECT_EQ(first.decisions[0].phase, "draw");
  EXPECT_EQ(first.decisions[0].player, "Bob");
  EXPECT_EQ(first.decisions[0].turn, 1);
  EXPECT_EQ(first.decisions[1].phase, "play");
  EXPECT_EQ(first.decisions[1].chosen, "discarded QH");
  EXPECT_EQ(first.decisions[2].player, "Cat");
  EXPECT_EQ(first.decisions[3].turn, 2);
  const HandDecisions& second = collector.hands()[1];
  EXPECT_EQ(second.hand, 2);
  ASSERT_EQ(second.decisions.size(), 2u);
  EXPECT_EQ(second.decisions[0].seat, 2);
  EXPECT_EQ(second.decisions[0].line, draw);
}

TEST(ReplayFunctions, FinishClosesAPlayCutShortByTheEndOfTheReplay) {
  test::Log log;
  test::DealSpec d;
  d.stock = {"QH", "QS"};
  log.Deal(d);
  log.Draw(1);
  const int discard = log.Discard(1, "QH");
  log.Draw(2);
  log.Discard(2, "QS");
  ReplayDriver driver{AuditOptions{}};
  DecisionCollector collector(&driver, 1, 1);
  StopAfter stop(&driver, discard);
  driver.AddObserver(&collector);
  driver.AddObserver(&stop);
  std::istringstream in(log.str());
  driver.Run(in, "test.jsonl");
  ASSERT_EQ(collector.hands().size(), 1u);
  // The replay stopped inside Bob's play phase: only his draw is closed.
  ASSERT_EQ(collector.hands()[0].decisions.size(), 1u);
  collector.Finish();
  const std::vector<Decision>& decisions = collector.hands()[0].decisions;
  ASSERT_EQ(decisions.size(), 2u);
  EXPECT_EQ(decisions[1].phase, "play");
  EXPECT_EQ(decisions[1].seat, 1);
  EXPECT_EQ(decisions[1].line, discard);
  EXPECT_EQ(decisions[1].chosen, "discarded QH");
  // A second Finish adds nothing.
  collector.Finish();
  EXPECT_EQ(collector.hands()[0].decisions.size(), 2u);
}

// The decisions of hand 1 of `log`, collected as `canasta tree` does.
std::vector<Decision> DecisionsOf(const test::Log& log) {
  std::istringstream in(log.str());
  HandDecisions hand;
  std::string error;
  EXPECT_TRUE(CollectDecisions(in, "test.jsonl", 1, 1, AuditOptions{}, &hand, &error)) << error;
  return hand.decisions;
}

// The alternatives of the play of Bob, who holds `hand`, draws `drawn` and
// discards `discard`.
std::vector<std::string> AlternativesOfPlay(const std::vector<std::string>& hand,
                                            const std::string& drawn, const std::string& discard) {
  test::Log log;
  test::DealSpec d;
  d.hands = {{}, hand};
  d.stock = {drawn};
  log.Deal(d);
  log.Draw(1);
  log.Discard(1, discard);
  const std::vector<Decision> decisions = DecisionsOf(log);
  EXPECT_EQ(decisions.size(), 2u);
  return decisions.size() == 2 ? decisions[1].alternatives : std::vector<std::string>{};
}

// A tree names up to eight other discards (one per class of equal plays,
// core/legal_moves.h: the suits of a rank are one class), and says "..."
// only when there are more (replay/decisions.h).
TEST(ReplayFunctions, DecisionsNameEightOtherDiscardsAndMarkOnlyMore) {
  const std::vector<std::string> hand = {"4S", "4H", "5S", "6S", "7S", "8S",
                                         "9S", "TS", "JS", "QS", "QH"};
  // Nine ranks after the draw of a second five: eight others, all named.
  EXPECT_EQ(AlternativesOfPlay(hand, "5H", "4S"),
            std::vector<std::string>{"other discards: 5S 6S 7S 8S 9S TS JS QS"});
  // Ten ranks after a king: nine others, the first eight named.
  EXPECT_EQ(AlternativesOfPlay(hand, "KH", "4S"),
            std::vector<std::string>{"other discards: 5S 6S 7S 8S 9S TS JS QS ..."});
}

// A draw that leaves a pile of three or more cards the player could have
// taken is a key decision; a smaller pile is not (docs/trees.md, "Key
// decisions").
TEST(ReplayFunctions, DecisionsMarkADrawThatLeavesAPileOfThreeOrMore) {
  // Cat could take Bob's KS (pile 8C KS: two cards) with KH KD and the aces
  // for the initial meld (000 §13), and draws; Dan could take Cat's KC
  // (three cards) the same way, and draws.
  test::Log log;
  test::DealSpec d;
  d.hands = {{}, {"KS"}, {"KH", "KD", "AH", "AD", "AC", "KC"}, {"KH", "KD", "AH", "AD", "AC"}};
  log.Deal(d);
  log.Draw(1);
  log.Discard(1, "KS");
  const int cat = log.Draw(2);
  log.Discard(2, "KC");
  const int dan = log.Draw(3);
  const std::vector<Decision> decisions = DecisionsOf(log);
  ASSERT_EQ(decisions.size(), 5u);
  EXPECT_EQ(decisions[2].line, cat);
  EXPECT_EQ(decisions[2].pile_size, 2);
  EXPECT_NE(std::find(decisions[2].alternatives.begin(), decisions[2].alternatives.end(),
                      "take the pile: the pile (2 cards) with KH KD"),
            decisions[2].alternatives.end())
      << testing::PrintToString(decisions[2].alternatives);
  EXPECT_FALSE(decisions[2].key);
  EXPECT_EQ(decisions[4].line, dan);
  EXPECT_EQ(decisions[4].pile_size, 3);
  EXPECT_TRUE(decisions[4].key);
  EXPECT_EQ(decisions[4].why_key, "left a pile of 3 cards");
}

// A tree names the first three melds the player could have made, and counts
// the others only when there are some (replay/decisions.h).
TEST(ReplayFunctions, DecisionsNameThreeMeldsAndCountOnlyTheOthers) {
  EXPECT_EQ(AlternativesOfPlay({"AH", "AD", "AC", "KH", "KD", "KC", "QH", "QD", "QC", "9S", "JS"},
                               "4H", "4H"),
            (std::vector<std::string>{"could have melded QH QD QC", "could have melded KH KD KC",
                                      "could have melded AH AD AC",
                                      "other discards: 9S JS QH KH AH"}));
  EXPECT_EQ(AlternativesOfPlay({"AH", "AD", "AC", "KH", "KD", "KC", "QH", "QD", "QC", "JH", "JD"},
                               "JC", "JC"),
            (std::vector<std::string>{"could have melded JH JD JC", "could have melded QH QD QC",
                                      "could have melded KH KD KC", "and 1 other meld(s)",
                                      "other discards: JH QH KH AH"}));
}

// --- sheet.h ---

std::string Side(int s) { return "side " + std::to_string(s); }

// A consistent classic entry: side 0 went out with a natural canasta and a
// red three, side 1 was caught with cards in hand (000 §18).
SheetEntry GoodEntry() {
  SheetEntry e;
  e.breakdown = std::vector<SheetParts>{
      {{"canastas", 500}, {"red_threes", 100}, {"going_out", 100}, {"melded", 200}, {"in_hand", 0}},
      {{"canastas", 0}, {"red_threes", 0}, {"going_out", 0}, {"melded", 50}, {"in_hand", -30}}};
  e.scores = std::vector<int>{900, 20};
  return e;
}

TEST(ReplayFunctions, CheckSheetEntryAcceptsAConsistentEntry) {
  Rules rules;
  RuleHooks hooks;
  SheetResult r = CheckSheetEntry(rules, hooks, GoodEntry(), Side);
  for (const SheetFinding& f : r.findings) ADD_FAILURE() << f.message;
  EXPECT_EQ(r.has_parts, (std::vector<bool>{true, true}));
  ASSERT_EQ(r.scores.size(), 2u);
  EXPECT_EQ(r.scores[0], 900);
  EXPECT_EQ(r.scores[1], 20);
  EXPECT_EQ(r.parts[0].canastas, 500);
  EXPECT_EQ(r.parts[1].in_hand, -30);
}

TEST(ReplayFunctions, CheckSheetEntryWithNoCardWorthAPointChecksNoMultiple) {
  // A ruleset where every card counts 0 has no step of card points: melded
  // and in_hand are not tested for multiples of it (000 §3), and nothing
  // divides by zero.
  Rules rules;
  rules.card_value.fill(0);
  RuleHooks hooks;
  SheetEntry e;
  e.breakdown = std::vector<SheetParts>{{{"melded", 35}, {"in_hand", -15}}, {{"melded", 0}}};
  e.scores = std::vector<int>{20, 0};
  SheetResult r = CheckSheetEntry(rules, hooks, e, Side);
  for (const SheetFinding& f : r.findings)
    EXPECT_EQ(f.message.find("not a multiple"), std::string::npos) << f.message;
}

TEST(ReplayFunctions, CheckSheetEntryFindsPartsThatDoNotAddUpToTheScore) {
  Rules rules;
  RuleHooks hooks;
  SheetEntry e = GoodEntry();
  (*e.scores)[1] = 25;  // the parts add up to 20 (000 §18)
  SheetResult r = CheckSheetEntry(rules, hooks, e, Side);
  ASSERT_EQ(r.findings.size(), 1u);
  const SheetFinding& f = r.findings[0];
  EXPECT_EQ(f.id, CheckId::kScoreHand);
  EXPECT_EQ(f.side, 1);
  EXPECT_TRUE(f.changes_score);
  EXPECT_EQ(f.message, "side 1's parts add up to 20, not the recorded hand score 25");
  // The parts are taken as true.
  EXPECT_EQ(r.scores[1], 20);
}

TEST(ReplayFunctions, CheckSheetEntryKeepsTheRecordedScoreOfASideWithAnUnknownPart) {
  Rules rules;
  RuleHooks hooks;
  SheetEntry e = GoodEntry();
  (*e.breakdown)[1][3].first = "melds";  // "melded", misspelt: 50 of side 1's 20
  SheetResult r = CheckSheetEntry(rules, hooks, e, Side);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].id, CheckId::kLogBadEvent);
  EXPECT_EQ(r.findings[0].side, 1);
  EXPECT_FALSE(r.findings[0].changes_score);
  EXPECT_EQ(r.findings[0].message, "unknown breakdown part \"melds\"");
  EXPECT_EQ(r.scores[1], 20);  // recorded, and what its parts add up to
  EXPECT_EQ(r.scores[0], 900);
  // Without scores, what the side recorded, that part too.
  e.scores.reset();
  r = CheckSheetEntry(rules, hooks, e, Side);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.scores[1], 20);
  // A slip besides is a finding of its own, and the recorded score stands.
  e.scores = std::vector<int>{900, 25};
  r = CheckSheetEntry(rules, hooks, e, Side);
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[1].id, CheckId::kScoreHand);
  EXPECT_EQ(r.scores[1], 25);
}

TEST(ReplayFunctions, CheckSheetEntryFindsPartsNoHandCanScore) {
  Rules rules;
  RuleHooks hooks;
  SheetEntry e = GoodEntry();
  // Card values are multiples of 5 (000 §3); cards in hand count against.
  (*e.breakdown)[0][3].second = 203;
  (*e.breakdown)[1][4].second = 30;
  e.scores = std::vector<int>{903, 80};
  SheetResult r = CheckSheetEntry(rules, hooks, e, Side);
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].id, CheckId::kScoreBreakdown);
  EXPECT_EQ(r.findings[0].side, 0);
  EXPECT_EQ(r.findings[0].part, "melded");
  EXPECT_EQ(r.findings[1].side, 1);
  EXPECT_EQ(r.findings[1].part, "in_hand");

  // A breakdown for three sides when there are two.
  e = GoodEntry();
  e.breakdown->push_back({});
  r = CheckSheetEntry(rules, hooks, e, Side);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].id, CheckId::kLogBadEvent);
  EXPECT_EQ(r.findings[0].side, -1);
  EXPECT_EQ(r.findings[0].message, "\"breakdown\" has 3 entries; there are 2 sides");
  // Without usable parts the recorded scores are taken.
  EXPECT_EQ(r.scores[0], 900);
  EXPECT_EQ(r.has_parts, (std::vector<bool>{false, false}));
}

TEST(ReplayFunctions, CheckSheetEntryFindsScoresForAnotherNumberOfSides) {
  // canasta-log/1 end_hand: "scores" holds one score a side (docs/log-format.md).
  Rules rules;
  RuleHooks hooks;
  SheetEntry e = GoodEntry();
  e.scores->push_back(0);
  SheetResult r = CheckSheetEntry(rules, hooks, e, Side);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].id, CheckId::kLogBadEvent);
  EXPECT_EQ(r.findings[0].side, -1);
  EXPECT_EQ(r.findings[0].message, "\"scores\" has 3 entries; there are 2 sides");
  // The parts give the scores.
  EXPECT_EQ(r.scores, (std::vector<std::optional<int>>{900, 20}));
  // Without parts, scores that are not one a side give none.
  e.breakdown.reset();
  r = CheckSheetEntry(rules, hooks, e, Side);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].message, "\"scores\" has 3 entries; there are 2 sides");
  EXPECT_EQ(r.scores, (std::vector<std::optional<int>>{std::nullopt, std::nullopt}));
}

}  // namespace
}  // namespace canasta
