// Modern American play (seed 001): the discards, going out, keep-a-card and
// game-end parameters, and the built-in rulesets modern-american and
// classic-001. The cases are TC-M06, M16, M17, M20 and M22 of the rule
// comparison. Each parameter is shown in both directions: a log replayed
// under the classic rules with only that value changed, and under classic
// itself, with the exact findings (check and line) of each.
//
// modern-american cannot run yet (its `incomplete` list), so its own values
// are asserted as values; the scenarios use classic with 001's value.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/game.h"
#include "core/rules.h"
#include "lint/checks.h"
#include "replay/auditor.h"
#include "scripting/ruleset.h"
#include "scripting/ruleset_info.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

using test::DealSpec;
using test::Log;
using test::M;

Ruleset LoadAllowingIncomplete(const std::string& name) {
  LoadOptions options;
  options.allow_incomplete = true;
  std::variant<Ruleset, LuaError> loaded = LoadRuleset(name, options);
  if (const auto* e = std::get_if<LuaError>(&loaded)) {
    ADD_FAILURE() << name << ": " << e->ToString();
    std::variant<Ruleset, LuaError> classic = LoadRuleset("classic");
    return std::get<Ruleset>(std::move(classic));
  }
  return std::get<Ruleset>(std::move(loaded));
}

// Classic with `change` applied.
RulesetChoice ClassicWith(const std::string& label, const std::function<void(Rules&)>& change) {
  RulesetChoice c = LoadAllowingIncomplete("classic").Choose();
  c.name = label;
  change(c.rules);
  EXPECT_EQ(c.rules.Validate(), "") << label;
  return c;
}

RulesetChoice Classic() {
  return ClassicWith("classic", [](Rules&) {});
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
  return AuditStream(in, "scenario.jsonl", options);
}

std::string F(int line, CheckId id) {
  return "line " + std::to_string(line) + ": " + GetCheck(id).name;
}

using Lines = std::vector<std::string>;

// Every finding but log-incomplete, by line.
Lines Got(const FileReport& r) {
  std::vector<std::pair<int, CheckId>> all;
  for (const Finding& f : r.findings) all.emplace_back(f.line, f.id);
  for (const GameReport& g : r.games)
    for (const Finding& f : g.findings) all.emplace_back(f.line, f.id);
  std::stable_sort(all.begin(), all.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  Lines out;
  for (const auto& [line, id] : all)
    if (id != CheckId::kLogIncomplete) out.push_back(F(line, id));
  return out;
}

std::string Describe(const FileReport& r) {
  std::string s;
  auto one = [&](const Finding& f) {
    s += "  line " + std::to_string(f.line) + ": [" + GetCheck(f.id).name + "] " + f.message + "\n";
  };
  for (const Finding& f : r.findings) one(f);
  for (const GameReport& g : r.games)
    for (const Finding& f : g.findings) one(f);
  return s;
}

// The message of the first finding of `id`.
std::string MessageOf(const FileReport& r, CheckId id) {
  for (const GameReport& g : r.games)
    for (const Finding& f : g.findings)
      if (f.id == id) return f.message;
  return "";
}

#define EXPECT_FINDS(label, report, ...) \
  EXPECT_EQ(Got(report), (Lines{__VA_ARGS__})) << "under " << (label) << "\n" << Describe(report)
#define EXPECT_FINDS_NOTHING(label, report) \
  EXPECT_EQ(Got(report), Lines{}) << "under " << (label) << "\n" << Describe(report)

// ===========================================================================
// TC-M06 Keep a card (001 L21, readings R38)

// Seat 1 draws 5H and melds the kings and queens of its hand: with K x6 and
// Q x5 one card (5H) is left and the side has no canasta, so it cannot go
// out; the discard of 5H then goes out without one, the same shortfall: a
// note of the meld's finding (readings R144).
TEST(ModernPlay, TC_M06_KeepACardRefusesMeldingDownToOne) {
  Log log;
  DealSpec d;
  d.hands = {{}, {"KS", "KH", "KD", "KC", "KS", "KH", "QS", "QH", "QD", "QC", "QS"}};
  d.stock = {"5H"};
  log.Deal(d);
  log.Draw(1);
  const int meld =
      log.Meld(1, {{"KS", "KH", "KD", "KC", "KS", "KH"}, {"QS", "QH", "QD", "QC", "QS"}});
  const int discard = log.Discard(1, "5H");
  const RulesetChoice keep = ClassicWith("keep-a-card", [](Rules& r) { r.keep_a_card = true; });
  const FileReport with = AuditWith(log, keep);
  EXPECT_FINDS("keep_a_card", with, F(meld, CheckId::kMeldKeepACard));
  const std::string going_out = "line " + std::to_string(discard) +
                                ": seat 1 goes out with 0 canastas; the side needs 1: the same "
                                "canastas short that this finding is about (readings R144)";
  bool noted = false;
  for (const Finding& f : test::AllFindings(with))
    noted |= f.id == CheckId::kMeldKeepACard &&
             std::find(f.notes.begin(), f.notes.end(), going_out) != f.notes.end();
  EXPECT_TRUE(noted) << Describe(with);
  EXPECT_EQ(MessageOf(with, CheckId::kMeldKeepACard),
            "seat 1 melds down to one card without going out (the side has 0 of the 1 "
            "canastas needed); a player not going out keeps two cards after melding");
  // Classic has no such rule: only the going out is wrong.
  EXPECT_FINDS("classic", AuditWith(log, Classic()), F(discard, CheckId::kOutWithoutCanastas));
}

// Melding that keeps two cards (one to discard, one to hold) is allowed.
TEST(ModernPlay, TC_M06_KeepACardAllowsKeepingTwo) {
  Log log;
  DealSpec d;
  d.hands = {{}, {"KS", "KH", "KD", "KC", "KS", "KH", "QS", "QH", "QD", "QC", "5S"}};
  d.stock = {"5H"};
  log.Deal(d);
  log.Draw(1);
  log.Meld(1, {{"KS", "KH", "KD", "KC", "KS", "KH"}, {"QS", "QH", "QD", "QC"}});
  log.Discard(1, "5H");
  EXPECT_FINDS_NOTHING("keep_a_card",
               AuditWith(log, ClassicWith("keep", [](Rules& r) { r.keep_a_card = true; })));
  EXPECT_FINDS_NOTHING("classic", AuditWith(log, Classic()));
}

// A player who may go out melds down to one card and discards it: going out.
TEST(ModernPlay, TC_M06_KeepACardAllowsGoingOut) {
  Log log;
  DealSpec d;
  d.hands = {{}, {"KS", "KH", "KD", "KC", "KS", "KH", "KD", "QS", "QH", "QD", "QC"}};
  d.stock = {"5H"};
  log.Deal(d);
  log.Draw(1);
  log.Meld(1, {{"KS", "KH", "KD", "KC", "KS", "KH", "KD"}, {"QS", "QH", "QD", "QC"}});
  log.Discard(1, "5H");
  EXPECT_FINDS_NOTHING("keep_a_card",
               AuditWith(log, ClassicWith("keep", [](Rules& r) { r.keep_a_card = true; })));
}

// ===========================================================================
// TC-M16 Going out (001 L73-L75)

// 14 cards dealt so that one turn can make two canastas (001 deals 13 and
// the bonus cards come later; the rule is the same).
RulesetChoice TwoCanastasWithDiscard() {
  return ClassicWith("two canastas, discard", [](Rules& r) {
    r.hand_size = 14;
    r.canastas_to_go_out = 2;
    r.discard_required_to_go_out = true;
  });
}

const std::vector<std::string> kKings = {"KS", "KH", "KD", "KC", "KS", "KH", "KD"};
const std::vector<std::string> kQueens = {"QS", "QH", "QD", "QC", "QS", "QH", "QD"};

// Two canastas made this turn, and the last card discarded face down: out.
TEST(ModernPlay, TC_M16_GoingOutWithAFaceDownDiscard) {
  Log log;
  DealSpec d;
  d.hand_size = 14;
  std::vector<std::string> hand = kKings;
  hand.insert(hand.end(), kQueens.begin(), kQueens.end());
  d.hands = {{}, hand};
  d.stock = {"5H"};
  log.Deal(d);
  log.Draw(1);
  log.Meld(1, {kKings, kQueens});
  log.Raw(R"({"type":"discard","player":1,"card":"5H","face_down":true})");
  EXPECT_FINDS_NOTHING("two canastas", AuditWith(log, TwoCanastasWithDiscard()));
  // With one canasta needed (classic) it is as good.
  EXPECT_FINDS_NOTHING("classic",
               AuditWith(log, ClassicWith("classic 14", [](Rules& r) { r.hand_size = 14; })));
}

// Melding every card is no way out where a final discard is required.
TEST(ModernPlay, TC_M16_MeldingEveryCardIsRefused) {
  Log log;
  DealSpec d;
  d.hand_size = 14;
  std::vector<std::string> hand = kKings;
  hand.insert(hand.end(), kQueens.begin(), kQueens.end());
  d.hands = {{}, hand};
  d.stock = {"QC"};
  log.Deal(d);
  log.Draw(1);
  std::vector<std::string> eight = kQueens;
  eight.push_back("QC");
  const int meld = log.Meld(1, {kKings, eight});
  EXPECT_FINDS("two canastas", AuditWith(log, TwoCanastasWithDiscard()),
               F(meld, CheckId::kOutWithoutDiscard));
  EXPECT_FINDS_NOTHING("classic",
               AuditWith(log, ClassicWith("classic 14", [](Rules& r) { r.hand_size = 14; })));
}

// One canasta is not enough to go out where two are needed.
TEST(ModernPlay, TC_M16_OneCanastaIsNotEnough) {
  Log log;
  DealSpec d;
  d.hand_size = 14;
  std::vector<std::string> hand = kKings;
  for (const char* c : {"JS", "JH", "JD", "QS", "QH", "QD", "5S"}) hand.push_back(c);
  d.hands = {{}, hand};
  d.stock = {"QC"};
  log.Deal(d);
  log.Draw(1);
  log.Meld(1, {kKings, {"JS", "JH", "JD"}, {"QS", "QH", "QD", "QC"}});
  const int discard = log.Discard(1, "5S");
  EXPECT_FINDS("two canastas", AuditWith(log, TwoCanastasWithDiscard()),
               F(discard, CheckId::kOutWithoutCanastas));
  EXPECT_FINDS_NOTHING("classic",
               AuditWith(log, ClassicWith("classic 14", [](Rules& r) { r.hand_size = 14; })));
}

// Only the discard that goes out is laid face down (every ruleset).
TEST(ModernPlay, TC_M16_FaceDownDiscardThatDoesNotGoOut) {
  Log log;
  DealSpec d;
  d.hands = {{}, {"5S"}};
  d.stock = {"9H"};
  log.Deal(d);
  log.Draw(1);
  const int discard = log.Raw(R"({"type":"discard","player":1,"card":"5S","face_down":true})");
  EXPECT_FINDS("classic", AuditWith(log, Classic()), F(discard, CheckId::kDiscardFaceDown));
}

// The last discard may be wild (001 L74) even where wild cards are never
// discarded otherwise (wild_discard_to_go_out).
TEST(ModernPlay, TC_M16_LastDiscardMayBeWild) {
  Log log;
  DealSpec d;
  d.hands = {{}, {"KS", "KH", "KD", "KC", "KS", "KH", "KD", "QS", "QH", "QD", "QC"}};
  d.stock = {"2C"};
  log.Deal(d);
  log.Draw(1);
  log.Meld(1, {kKings, {"QS", "QH", "QD", "QC"}});
  const int discard = log.Discard(1, "2C");
  const RulesetChoice never =
      ClassicWith("never", [](Rules& r) { r.wild_discard = WildDiscard::kNever; });
  EXPECT_FINDS("wild_discard = never", AuditWith(log, never), F(discard, CheckId::kDiscardWild));
  const RulesetChoice to_go_out = ClassicWith("never, but to go out", [](Rules& r) {
    r.wild_discard = WildDiscard::kNever;
    r.wild_discard_to_go_out = true;
  });
  EXPECT_FINDS_NOTHING("wild_discard_to_go_out", AuditWith(log, to_go_out));
}

// "May I go out?" once a hand per player (001 L75, readings R48).
TEST(ModernPlay, TC_M16_AskOnceAHand) {
  Log log;
  DealSpec d;
  log.Deal(d);
  log.AskOut(1);
  log.Answer(3, false);
  log.PassTurn();  // seat 1 draws and discards
  log.PassTurn();
  log.PassTurn();
  log.PassTurn();
  const int again = log.AskOut(1);
  log.Answer(3, false);
  const RulesetChoice once = ClassicWith("once", [](Rules& r) { r.ask_out_once_per_hand = true; });
  const FileReport r = AuditWith(log, once);
  EXPECT_FINDS("ask_out_once_per_hand", r, F(again, CheckId::kOutAskTiming));
  EXPECT_FINDS_NOTHING("classic", AuditWith(log, Classic()));
}

// ===========================================================================
// TC-M17 Discard restrictions (001 L44-L46)

TEST(ModernPlay, TC_M17_ThreesAreNeverDiscarded) {
  Log log;
  DealSpec d;
  d.hands = {{}, {"3S"}};
  log.Deal(d);
  log.Draw(1);
  const int discard = log.Discard(1, "3S");
  const RulesetChoice never =
      ClassicWith("no threes", [](Rules& r) { r.threes_discardable = false; });
  const FileReport r = AuditWith(log, never);
  EXPECT_FINDS("threes_discardable = false", r, F(discard, CheckId::kThreeNotAllowed));
  EXPECT_EQ(MessageOf(r, CheckId::kThreeNotAllowed), "a three (3S) may never be discarded");
  // Classic: a black three is a stopper, discarded freely.
  EXPECT_FINDS_NOTHING("classic", AuditWith(log, Classic()));
}

// Holding 2C and natural cards, not going out: the two may not go.
TEST(ModernPlay, TC_M17_WildDiscardWhileHoldingOthers) {
  Log log;
  DealSpec d;
  d.hands = {{}, {"2C", "KS", "QS"}};
  log.Deal(d);
  log.Draw(1);
  const int discard = log.Discard(1, "2C");
  const RulesetChoice only = ClassicWith("001 wild discards", [](Rules& r) {
    r.wild_discard = WildDiscard::kOnlyIfNoOtherCard;
    r.wild_discard_to_go_out = true;
  });
  EXPECT_FINDS("001", AuditWith(log, only), F(discard, CheckId::kDiscardWild));
  EXPECT_FINDS_NOTHING("classic", AuditWith(log, Classic()));
}

// Holding nothing but wild cards, a wild card may be discarded.
TEST(ModernPlay, TC_M17_WildDiscardWithNothingElse) {
  Log log;
  DealSpec d;
  d.pad = false;
  d.hands = {{"4S", "4H", "4D", "4C", "5S", "5H", "5D", "5C", "6S", "6H", "6D"},
             {"2C", "2D", "2H", "2S", "JK", "JK", "JK", "JK", "2C", "2D", "2H"},
             {"6C", "7S", "7H", "7D", "7C", "8S", "8H", "8D", "8C", "9S", "9H"},
             {"9D", "9C", "TS", "TH", "TD", "TC", "JS", "JH", "JD", "JC", "QS"}};
  d.stock = {"2S"};
  log.Deal(d);
  log.Draw(1);
  log.Discard(1, "JK");
  const RulesetChoice only = ClassicWith("001 wild discards", [](Rules& r) {
    r.wild_discard = WildDiscard::kOnlyIfNoOtherCard;
    r.wild_discard_to_go_out = true;
  });
  EXPECT_FINDS_NOTHING("001", AuditWith(log, only));
}

RulesetChoice Swad(bool on) {
  return ClassicWith(on ? "swad" : "empty pile", [on](Rules& r) {
    r.upcards = 0;
    r.empty_pile_discard_restricted = on;
  });
}

// On an empty pile holding K, 7, A: the seven and the ace may not go; the K may.
TEST(ModernPlay, TC_M17_SwadOnAnEmptyPile) {
  for (const char* card : {"7S", "AS", "KS"}) {
    Log log;
    DealSpec d;
    d.upcard = {};
    d.hands = {{}, {"KS", "7S", "AS"}};
    log.Deal(d);
    log.Draw(1);
    const int discard = log.Discard(1, card);
    const FileReport r = AuditWith(log, Swad(true));
    if (std::string(card) == "KS") {
      EXPECT_FINDS_NOTHING(card, r);
    } else {
      EXPECT_FINDS(card, r, F(discard, CheckId::kDiscardEmptyPile));
    }
    EXPECT_FINDS_NOTHING("no SWAD", AuditWith(log, Swad(false)));
  }
}

// Holding only sevens, aces and wild cards there is no choice: any may go.
// A pile that is not empty is no matter either.
TEST(ModernPlay, TC_M17_SwadWithNoChoice) {
  Log log;
  DealSpec d;
  d.upcard = {};
  d.pad = false;
  d.hands = {{"4S", "4H", "4D", "4C", "5S", "5H", "5D", "5C", "6S", "6H", "6D"},
             {"7S", "7H", "7D", "7C", "7S", "7H", "AS", "AH", "AD", "AC", "AS"},
             {"6C", "8S", "8H", "8D", "8C", "9S", "9H", "9D", "9C", "TS", "TH"},
             {"TD", "TC", "JS", "JH", "JD", "JC", "QS", "QH", "QD", "QC", "KS"}};
  d.stock = {"JK", "KH"};
  log.Deal(d);
  log.Draw(1);
  log.Discard(1, "7S");
  log.Draw(2);
  log.Discard(2, "8S");  // the pile holds 7S: no restriction
  EXPECT_FINDS_NOTHING("swad", AuditWith(log, Swad(true)));
}

// readings R146: seat 1's discard left out on an empty pile; seat 2's AS
// then meets an empty pile only as replayed. One finding, the turn without
// a discard; the ace's finding is its note.
TEST(ModernPlay, TC_M17_SwadAfterADiscardLeftOutIsANoteOfIt_R146) {
  Log log;
  DealSpec d;
  d.upcard = {};
  d.hands = {{}, {"5C"}, {"KS", "7S", "AS"}};
  log.Deal(d);
  log.Draw(1);  // its discard of 5C left out
  const int draw = log.Draw(2);
  const int discard = log.Discard(2, "AS");
  const FileReport r = AuditWith(log, Swad(true));
  EXPECT_FINDS("swad", r, F(draw, CheckId::kDiscardMissing));
  EXPECT_TRUE(test::HasNote(r, CheckId::kDiscardMissing,
                            "line " + std::to_string(discard) +
                                ": on an empty pile AS may not be discarded while seat 2 holds "
                                "another card that may"))
      << Describe(r);
}

// R146 holds only while the pile keeps the card left out: once a take has
// emptied it, or in the next hand, a discard onto an empty pile is judged
// on its own.
TEST(ModernPlay, TC_M17_SwadAfterATakeOrInTheNextHandIsItsOwnFinding_R146) {
  Log log;
  DealSpec d;
  d.upcard = {};
  d.hands = {{"AS", "AH", "KS", "7S"}, {"KC"}, {}, {"AC"}};
  d.stock = {"5H", "6H", "6D"};
  log.Deal(d);
  log.Draw(1);
  log.Discard(1, "KC");
  log.Draw(2);  // its discard left out
  const int draw = log.Draw(3);
  log.Discard(3, "AC");
  log.Take(0, "AC", {"AS", "AH"});
  const int seven = log.Discard(0, "7S");
  const FileReport r = AuditWith(log, Swad(true));
  EXPECT_FINDS("swad", r, F(draw, CheckId::kDiscardMissing), F(seven, CheckId::kDiscardEmptyPile));

  Log next;
  d.hands = {{}, {"5C"}, {"KS", "7S", "AS"}};
  d.stock = {};
  next.Deal(d);
  next.Draw(1);  // its discard of 5C left out
  next.Draw(2);
  next.Discard(2, "KS");
  next.EndHand(1);
  d.hand = 2;
  d.dealer = 1;  // seat 2 plays first
  next.Deal(d);
  next.Draw(2);
  const int ace = next.Discard(2, "AS");
  const FileReport n = AuditWith(next, Swad(true));
  EXPECT_EQ(test::CountId(n, CheckId::kDiscardMissing), 1) << Describe(n);
  const Lines got = Got(n);
  EXPECT_NE(std::find(got.begin(), got.end(), F(ace, CheckId::kDiscardEmptyPile)), got.end())
      << Describe(n);
}

TEST(ModernPlay, TC_M17_SwadRanksAreAParameter) {
  Log log;
  DealSpec d;
  d.upcard = {};
  d.hands = {{}, {"KS", "7S", "AS"}};
  log.Deal(d);
  log.Draw(1);
  const int discard = log.Discard(1, "KS");
  RulesetChoice kings = ClassicWith("swad with kings", [](Rules& r) {
    r.upcards = 0;
    r.empty_pile_discard_restricted = true;
    r.empty_pile_avoid[size_t(Rank::kKing)] = 1;
  });
  EXPECT_FINDS("kings avoided", AuditWith(log, kings), F(discard, CheckId::kDiscardEmptyPile));
  Rules bad;
  bad.empty_pile_avoid[size_t(Rank::kKing)] = 2;
  EXPECT_EQ(bad.Validate(),
            "empty_pile_avoid[\"K\"] must be 0 to 1, got 2 (1: avoided on an empty pile)");
}

// ===========================================================================
// TC-M20 Game end (001 L104, readings R50)

TEST(ModernPlay, TC_M20_GameEnd) {
  const Rules ma = LoadAllowingIncomplete("modern-american").rules();
  const RuleHooks hooks;
  auto decide = [&](const Rules& r, std::vector<int> totals) {
    return DecideGame(r, hooks, totals, 5, {2, 2});
  };
  GameOutcome both = decide(ma, {8600, 8900});
  EXPECT_TRUE(both.over);
  EXPECT_EQ(both.winner, std::optional<int>(1));
  GameOutcome one = decide(ma, {8600, 7000});
  EXPECT_TRUE(one.over);
  EXPECT_EQ(one.winner, std::optional<int>(0));
  EXPECT_FALSE(decide(ma, {8495, 8000}).over);
  // An exact tie plays another deal (readings R50, as R17).
  GameOutcome tie = decide(ma, {8600, 8600});
  EXPECT_FALSE(tie.over);
  EXPECT_TRUE(tie.tied);
  // Classic ends at 5,000.
  EXPECT_TRUE(decide(Rules{}, {5000, 4000}).over);
  EXPECT_FALSE(decide(ma, {5000, 4000}).over);
}

// ===========================================================================
// The built-in rulesets

TEST(ModernPlay, ModernAmericanValues) {
  const Ruleset rs = LoadAllowingIncomplete("modern-american");
  EXPECT_TRUE(rs.runnable());
  const Rules& r = rs.rules();
  EXPECT_EQ(r.Validate(), "");
  EXPECT_EQ(r.hand_size, 13);
  EXPECT_EQ(r.upcards, 0);
  EXPECT_EQ(r.max_meld_size, 7);
  EXPECT_EQ(r.max_wilds_incomplete, 2);
  EXPECT_TRUE(r.wild_melds);
  EXPECT_EQ(r.canastas_to_go_out, 2);
  EXPECT_TRUE(r.discard_required_to_go_out);
  EXPECT_FALSE(r.threes_discardable);
  EXPECT_EQ(r.wild_discard, WildDiscard::kOnlyIfNoOtherCard);
  EXPECT_TRUE(r.wild_discard_to_go_out);
  EXPECT_TRUE(r.empty_pile_discard_restricted);
  EXPECT_TRUE(r.keep_a_card);
  EXPECT_TRUE(r.ask_out_once_per_hand);
  EXPECT_EQ(r.target_score, 8500);
  EXPECT_EQ(r.exact_tie, ExactTie::kPlayAnotherDeal);
  EXPECT_EQ((std::vector<MinimumBand>{{-1000000000, 125}, {3000, 155}, {5000, 180}}),
            r.minimum_table);
  EXPECT_EQ(rs.SourceOf("keep_a_card"), "modern-american: 001 L21, readings R38");
  EXPECT_EQ(r.turn_card_from_bottom, 9);
  EXPECT_EQ(r.bonus_cards_first, 4);
  EXPECT_EQ(r.bonus_cards_second, 3);
  EXPECT_EQ(r.wilds_need_naturals, 5);
  EXPECT_TRUE(r.natural_canasta_closes_rank);
  EXPECT_TRUE(r.black_threes_laid_out);
  EXPECT_EQ(r.three_values, (std::vector<int>{100, 300, 500, 1000}));
  EXPECT_EQ(r.initial_meld_condition, InitialMeldCondition::kNaturalThreeOrWildMeld);
  // The special hands (001 L68-L71, readings R42), each cited.
  EXPECT_EQ(r.special_hand_straight, 3000);
  EXPECT_EQ(r.special_hand_pairs_natural, 2500);
  EXPECT_EQ(r.special_hand_pairs_with_twos, 2000);
  EXPECT_EQ(r.special_hand_garbage, 2000);
  EXPECT_EQ(rs.SourceOf("special_hand_garbage"),
            "modern-american: 001 L65, L71, readings R42, R44");
  // Nothing is missing: it runs without allow_incomplete.
  std::variant<Ruleset, LuaError> loaded = LoadRuleset("modern-american");
  const LuaError* error = std::get_if<LuaError>(&loaded);
  EXPECT_EQ(error, nullptr) << error->message;
  ASSERT_TRUE(std::holds_alternative<Ruleset>(loaded));
  EXPECT_TRUE(std::get<Ruleset>(loaded).unmet().empty());
}

// TC-M22: classic-001 is classic with a flat cap of three wild cards.
TEST(ModernPlay, TC_M22_Classic001) {
  const Ruleset rs = LoadAllowingIncomplete("classic-001");
  EXPECT_TRUE(rs.runnable());
  const Rules& r = rs.rules();
  EXPECT_EQ(r.hand_size, 11);
  EXPECT_EQ(r.max_wilds_incomplete, 3);
  EXPECT_EQ(r.max_wilds_completed, 3);
  EXPECT_FALSE(r.wild_melds);
  EXPECT_EQ(r.canastas_to_go_out, 1);
  EXPECT_EQ(r.red_three_bonus, 100);
  EXPECT_EQ(r.target_score, 5000);
  EXPECT_EQ(r.card_value[size_t(Rank::kThree)], 5);
  const Ruleset classic = LoadAllowingIncomplete("classic");
  EXPECT_NE(DiffRulesets(classic, rs).find("classic -> classic-001: 1 value differs"),
            std::string::npos)
      << DiffRulesets(classic, rs);

  // A completed canasta takes a fourth wild card: classic allows it (000 §9),
  // classic-001 does not ("up to three wild cards", 001 L115).
  Log log;
  DealSpec d;
  d.hands = {{}, {"KS", "KH", "KD", "KC", "KS", "2C", "2D", "2H", "JK"}};
  d.stock = {"5H"};
  log.Deal(d);
  log.Draw(1);
  log.Meld(1, {{"KS", "KH", "KD", "KC", "KS", "2C", "2D"}});
  const int add = log.Add(1, "K", {"2H", "JK"});
  log.Discard(1, "5H");
  EXPECT_FINDS_NOTHING("classic", AuditWith(log, Classic()));
  EXPECT_FINDS("classic-001", AuditWith(log, rs.Choose()), F(add, CheckId::kMeldTooManyWilds));
}

// The options of "Where tables differ" (001 L105-L113): each sample loads
// and runs, as modern-american does, and names what it changes.
TEST(ModernPlay, WhereTablesDifferSamplesLoad) {
  const std::string dir = std::string(CANASTA_SOURCE_DIR) + "/samples/rulesets/modern-american/";
  const Ruleset ma = LoadAllowingIncomplete("modern-american");
  for (const char* file : {"older-wild-rule", "initial-meld-count-only", "club-minimums-and-target",
                           "special-hands-3500", "no-pile-initial-meld-turn", "threes-in-hand",
                           "splash-melds-need-minimum"}) {
    const Ruleset rs = LoadAllowingIncomplete(dir + file + ".lua");
    EXPECT_EQ(rs.name(), file);
    EXPECT_TRUE(rs.runnable()) << file;
    EXPECT_EQ(rs.chain().front().name, "modern-american") << file;
  }
  const std::string club =
      DiffRulesets(ma, LoadAllowingIncomplete(dir + "club-minimums-and-target.lua"));
  EXPECT_NE(club.find("target_score"), std::string::npos) << club;
  EXPECT_NE(club.find("minimum_table"), std::string::npos) << club;
  EXPECT_NE(club.find("10000"), std::string::npos) << club;
  const std::string pile =
      DiffRulesets(ma, LoadAllowingIncomplete(dir + "no-pile-initial-meld-turn.lua"));
  EXPECT_NE(pile.find("may_take_pile"), std::string::npos) << pile;
  // Each option names the value it changes.
  for (auto [file, param] : {std::pair{"older-wild-rule", "wilds_need_naturals"},
                             {"initial-meld-count-only", "initial_meld_condition"},
                             {"special-hands-3500", "special_hand_garbage"},
                             {"threes-in-hand", "threes_kept_before_meld"},
                             {"splash-melds-need-minimum", "splash_companions_need_minimum"}}) {
    const std::string diff =
        DiffRulesets(ma, LoadAllowingIncomplete(dir + file + ".lua"));
    EXPECT_NE(diff.find(param), std::string::npos) << file << "\n" << diff;
  }
}

}  // namespace
}  // namespace canasta
