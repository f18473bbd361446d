// Ruleset scenarios: for every built-in ruleset other than classic, and for
// every rule in which it differs from classic, a small canasta-log/1 log is
// replayed under that ruleset and under classic, and the exact findings
// (check and line) and, where a hand is scored, the exact breakdown are
// asserted under both. The cases are those of the rule comparison
// §3 (TC-C15..C17, TC-J*, TC-T09, TC-X*), with the §4 recommended readings.
//
// "Under classic" means the very same log. A two- or three-player log is
// refused by classic outright (log-player-count, the game is not replayed),
// so each such log is also replayed under "classic seated for N": the
// classic rules with only num_players and hand_size taken from the variant.
// Every other difference then shows up as a finding or a score.
//
// Seats: dealer 0 unless said otherwise, so seat 1 plays first. With four
// players the sides are {0, 2} and {1, 3}; with two or three, each seat is a
// side. The logs are built with tests/test_util.h (Log, DealSpec), which fills
// every hand and the stock with a consistent pack.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/card.h"
#include "core/rules.h"
#include "lint/checks.h"
#include "replay/auditor.h"
#include "scripting/resolver.h"
#include "scripting/ruleset.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

using test::C;
using test::DealSpec;
using test::Log;
using test::M;

// ===========================================================================
// Rulesets and auditing

// A built-in ruleset, loaded once through the scripting loader (as the CLI
// does), ready to replay with.
const RulesetChoice& Builtin(const std::string& name) {
  static std::map<std::string, RulesetChoice> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  RulesetChoice c;
  std::variant<Ruleset, LuaError> loaded = LoadRuleset(name);
  if (auto* e = std::get_if<LuaError>(&loaded)) {
    ADD_FAILURE() << "ruleset " << name << " does not load: " << e->ToString();
    c.name = name;
    c.hooks = std::shared_ptr<const RuleHooks>(&DefaultHooks(), [](const RuleHooks*) {});
  } else {
    c = std::get<Ruleset>(loaded).Choose();
  }
  return cache.emplace(name, c).first->second;
}

// The classic rules at a table of `players` dealt `hand_size` each: what the
// two- and three-player logs are compared with (see the file comment).
RulesetChoice ClassicSeated(int players, int hand_size) {
  RulesetChoice c = Builtin("classic");
  c.name = "classic seated for " + std::to_string(players);
  c.rules.num_players = players;
  c.rules.hand_size = hand_size;
  return c;
}

FileReport AuditWith(const std::string& log, const RulesetChoice& choice) {
  AuditOptions options;
  options.forced_ruleset = choice.name;
  options.resolve = [choice](const std::string&, const std::string&, RulesetChoice* out,
                             std::string*) {
    *out = choice;
    return true;
  };
  std::istringstream in(log);
  return AuditStream(in, "scenario.jsonl", options);
}

// The resolver the command line uses for what the log names.
FileReport AuditByName(const std::string& log) {
  AuditOptions options;
  options.resolve = ResolveRuleset;
  std::istringstream in(log);
  return AuditStream(in, "scenario.jsonl", options);
}

FileReport AuditAs(const Log& log, const std::string& ruleset) {
  return AuditWith(log.str(), Builtin(ruleset));
}

// --- Findings, spelled with the checks' stable names (lint/checks.h) ---

std::string F(int line, CheckId id) {
  return "line " + std::to_string(line) + ": " + GetCheck(id).name;
}

using Lines = std::vector<std::string>;

// Every finding but log-incomplete (a log that stops mid-hand carries it),
// sorted by line; findings on one line keep their order.
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
  std::ostringstream s;
  s << "findings:\n";
  auto one = [&](const Finding& f) {
    s << "  line " << f.line << ": [" << GetCheck(f.id).name << "] " << f.message << "\n";
    for (const std::string& n : f.notes) s << "      note: " << n << "\n";
  };
  for (const Finding& f : r.findings) one(f);
  for (const GameReport& g : r.games) {
    for (const Finding& f : g.findings) one(f);
    for (const HandReport& h : g.hands) {
      s << "  hand " << h.hand << ":";
      for (size_t i = 0; i < h.breakdown.size(); ++i) {
        const ScoreBreakdown& b = h.breakdown[i];
        s << " [side " << i << ": canastas " << b.canastas << ", red_threes " << b.red_threes
          << ", going_out " << b.going_out << ", melded " << b.melded << ", in_hand "
          << b.in_hand << ", penalties " << b.penalties << " = " << b.total() << "]";
      }
      s << "\n";
    }
  }
  return s.str();
}

#define EXPECT_FINDS(ruleset_label, report, ...)                                  \
  EXPECT_EQ(Got(report), (Lines{__VA_ARGS__})) << "under " << (ruleset_label) << "\n" \
                                               << Describe(report)
// No finding but log-incomplete.
#define EXPECT_NONE(ruleset_label, report) \
  EXPECT_EQ(Got(report), Lines{}) << "under " << (ruleset_label) << "\n" << Describe(report)

const HandReport& HandOf(const FileReport& r, size_t i = 0) {
  static const HandReport kNone;
  if (r.games.size() != 1 || r.games[0].hands.size() <= i) {
    ADD_FAILURE() << "no hand " << i << " in the report\n" << Describe(r);
    return kNone;
  }
  return r.games[0].hands[i];
}

// A side's computed breakdown, part by part, compared as one value so that a
// failure prints all of it.
struct Parts {
  int canastas = 0, red_threes = 0, going_out = 0, melded = 0, in_hand = 0, penalties = 0;
  bool operator==(const Parts& o) const {
    return canastas == o.canastas && red_threes == o.red_threes && going_out == o.going_out &&
           melded == o.melded && in_hand == o.in_hand && penalties == o.penalties;
  }
  int total() const { return canastas + red_threes + going_out + melded + in_hand + penalties; }
};
std::ostream& operator<<(std::ostream& os, const Parts& p) {
  return os << "{canastas " << p.canastas << ", red_threes " << p.red_threes << ", going_out "
            << p.going_out << ", melded " << p.melded << ", in_hand " << p.in_hand
            << ", penalties " << p.penalties << " = " << p.total() << "}";
}
Parts PartsOf(const FileReport& r, int side, size_t hand = 0) {
  const HandReport& h = HandOf(r, hand);
  Parts p;
  if (side >= int(h.breakdown.size())) {
    ADD_FAILURE() << "no side " << side;
    return p;
  }
  const ScoreBreakdown& b = h.breakdown[side];
  EXPECT_EQ(b.house, 0);
  p.canastas = b.canastas;
  p.red_threes = b.red_threes;
  p.going_out = b.going_out;
  p.melded = b.melded;
  p.in_hand = b.in_hand;
  p.penalties = b.penalties;
  return p;
}
#define EXPECT_PARTS(ruleset_label, report, side, ...)                          \
  EXPECT_EQ(PartsOf(report, side), (Parts{__VA_ARGS__})) << "under " << (ruleset_label) \
                                                         << ", side " << (side) << "\n" \
                                                         << Describe(report)

// ===========================================================================
// Building logs

const char* const kNames[] = {"Ann", "Bob", "Cat", "Dan"};

// A log whose header names `ruleset`, for `players` players.
Log NewLog(const std::string& ruleset, int players) {
  Log log(players, /*header=*/false);
  std::string s = R"({"type":"game","format":"canasta-log/1","ruleset":")" + ruleset +
                  R"(","players":[)";
  for (int i = 0; i < players; ++i) s += std::string(i ? "," : "") + "\"" + kNames[i] + "\"";
  log.Raw(s + "]}");
  return log;
}

// One ordinary turn of the seat in turn, drawing `n` stock cards: red threes
// drawn are laid out (each replaced by the next stock card), then a drawn
// natural card that is not a three is discarded (or, failing one, the hand's
// first such card). Returns the draw's line.
int Pass(Log& log, int n) {
  const int p = log.current();
  const CardCounts before = log.hand(p);
  const int line = log.Draw(p, n);
  std::vector<Card> drawn;
  {
    CardCounts seen = before;
    for (Card c : log.hand_cards(p))
      if (!seen.Remove(c)) drawn.push_back(c);
  }
  for (size_t i = 0; i < drawn.size(); ++i) {
    if (!drawn[i].is_red_three()) continue;
    std::optional<Card> r = log.stock_next();
    log.Three(p, ToString(drawn[i]));
    if (r) drawn.push_back(*r);
  }
  std::optional<Card> out;
  for (Card c : drawn)
    if (!out && !c.is_wild() && !c.is_three() && log.hand(p).count(c)) out = c;
  for (Card c : log.hand_cards(p))
    if (!out && !c.is_wild() && !c.is_three()) out = c;
  log.Discard(p, ToString(*out));
  return line;
}

// The draws of several Pass turns, for the expected draw-count findings.
std::vector<int> PassN(Log& log, int turns, int n) {
  std::vector<int> draws;
  for (int i = 0; i < turns; ++i) draws.push_back(Pass(log, n));
  return draws;
}

Lines DrawCounts(const std::vector<int>& draws) {
  Lines out;
  for (int line : draws) out.push_back(F(line, CheckId::kDrawCount));
  return out;
}

// Concatenates expected findings and sorts them by line (stable).
Lines Sorted(Lines v) {
  std::stable_sort(v.begin(), v.end(), [](const std::string& a, const std::string& b) {
    auto line = [](const std::string& s) { return std::stoi(s.substr(5)); };
    return line(a) < line(b);
  });
  return v;
}
Lines Join(Lines a, const Lines& b) {
  a.insert(a.end(), b.begin(), b.end());
  return Sorted(a);
}

std::vector<std::string> Cat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
// Seven or eight natural kings / queens, as the pack holds them (two of each suit).
std::vector<std::string> Kings(int n) {
  const std::vector<std::string> all = {"KS", "KS", "KH", "KH", "KD", "KD", "KC", "KC"};
  return std::vector<std::string>(all.begin(), all.begin() + n);
}
std::vector<std::string> Queens(int n) {
  const std::vector<std::string> all = {"QS", "QS", "QH", "QH", "QD", "QD", "QC", "QC"};
  return std::vector<std::string>(all.begin(), all.begin() + n);
}

const char* const kRunnable[] = {"classic", "hutto",  "two-handed", "three-handed",
                                 "jaques",  "jaques-two-handed", "jaques-three-handed",
                                 "tutorial"};

// ===========================================================================
// The incomplete rulesets (readings R52): they refuse to load, naming every value
// their source leaves open, and a log naming one is not replayed.

// The names listed in an IncompleteMessage ("  name: why" lines), in order.
std::vector<std::string> ListedValues(const std::string& message) {
  std::vector<std::string> out;
  std::istringstream in(message);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("  ", 0) != 0) continue;
    const size_t colon = line.find(':');
    if (colon != std::string::npos) out.push_back(line.substr(2, colon - 2));
  }
  return out;
}

TEST(RulesetScenarios, A52_IncompleteRulesetsRefuseNamingEveryMissingValue) {
  struct Case {
    std::string name;
    std::vector<std::string> missing;  // as the ruleset file lists them
  };
  const std::vector<Case> cases = {
      {"bolivia",
       {"base", "num_players", "decks", "jokers", "hand_size", "stock_draw", "canastas_to_go_out",
        "sequence_lowest", "sequence_ace", "sequence_max_wilds"}},
      {"hand-and-foot",
       {"base", "decks", "jokers", "hand_size", "stock_draw", "canastas_to_go_out",
        "target_score", "foot_size"}},
      {"pinnacle",
       {"base", "jokers", "num_players", "hand_size", "stock_draw", "canastas_to_go_out",
        "target_score", "sequence_canasta_bonus", "sequence_min_length", "sequence_lowest", "sequence_ace", "sequence_max_wilds"}},
  };
  for (const Case& c : cases) {
    std::variant<Ruleset, LuaError> loaded = LoadRuleset(c.name);
    const LuaError* error = std::get_if<LuaError>(&loaded);
    ASSERT_NE(error, nullptr) << c.name << " loaded, but its source leaves values open";
    EXPECT_EQ(error->file, "rulesets/" + c.name + ".lua");
    EXPECT_EQ(error->message.rfind("ruleset \"" + c.name + "\" cannot run", 0), 0u)
        << error->message;
    EXPECT_NE(error->message.find("readings R52"), std::string::npos) << error->message;
    std::vector<std::string> listed = ListedValues(error->message);
    std::sort(listed.begin(), listed.end());
    std::vector<std::string> want = c.missing;
    std::sort(want.begin(), want.end());
    EXPECT_EQ(listed, want) << error->message;

    // A log that names it: the game is refused at its header, with the same
    // list of missing values, and nothing is replayed.
    Log log = NewLog(c.name, 4);
    log.Deal(DealSpec{});
    log.PassTurn();
    FileReport r = AuditByName(log.str());
    EXPECT_FINDS(c.name, r, F(1, CheckId::kLogUnknownRuleset));
    const std::string message = test::MessageOf(r, CheckId::kLogUnknownRuleset);
    for (const std::string& value : c.missing)
      EXPECT_NE(message.find("  " + value + ": "), std::string::npos)
          << c.name << ": the refusal does not name " << value << "\n" << message;
    ASSERT_EQ(r.games.size(), 1u);
    EXPECT_TRUE(r.games[0].hands.empty());
  }
  // Loaded for `rules show` (allow_incomplete), it says it cannot run.
  LoadOptions options;
  options.allow_incomplete = true;
  for (const Case& c : cases) {
    std::variant<Ruleset, LuaError> loaded = LoadRuleset(c.name, options);
    ASSERT_TRUE(std::holds_alternative<Ruleset>(loaded)) << c.name;
    EXPECT_FALSE(std::get<Ruleset>(loaded).runnable());
  }
}

// ===========================================================================
// TC-J01, TC-X03 (and TC-T12, TC-C02): the minimum-count bands. 002's table
// leaves 1,495 and 2,995 in no band; readings R24 reads it by lower bound, which is
// 000's and 004's table: every built-in has the same bands.

TEST(RulesetScenarios, TC_J01_TC_X03_MinimumBandsOfEveryRuleset) {
  const std::vector<std::pair<int, int>> bands = {
      {-1000, 15}, {-5, 15},   {0, 50},    {1494, 50},  {1495, 50},
      {1500, 90},  {2994, 90}, {2995, 90}, {3000, 120}, {8000, 120}};
  for (const char* name : kRunnable) {
    const RulesetChoice& c = Builtin(name);
    for (const auto& [total, minimum] : bands)
      EXPECT_EQ(c.hooks->MinimumCount(c.rules, total), minimum) << name << " at " << total;
  }
}

// Seat `seat` draws the four red threes one after another in its first turn
// (each laid out and replaced from the stock: a drawn red three is handled
// alike in every ruleset), melds eight natural aces, discards 9D, and in its
// second turn melds K-K-K and goes out. Its side scores 500 + 800 + 100 +
// (160 + 30) = 1,590, less the partner's hand `partner` (dealt and kept: the
// other turns draw a card and discard it). The seat has melded before going
// out, so jaques gives no concealed bonus: the hand scores alike everywhere.
void BigHand(Log& log, int hand, int dealer, int seat, const std::vector<std::string>& partner) {
  const int first = (dealer + 1) % 4;
  const int before = (seat - first + 4) % 4;
  const std::vector<std::string> pool = {"9S", "9H", "9C", "TS", "TC", "TD"};
  size_t next = 0;
  DealSpec d;
  d.hand = hand;
  d.dealer = dealer;
  d.hands.resize(4);
  d.hands[seat] = {"AS", "AS", "AH", "AH", "AD", "AD", "AC", "KS", "KS", "KH", "9D"};
  d.hands[(seat + 2) % 4] = partner;
  for (int i = 0; i < before; ++i) d.stock.push_back(pool[next++]);
  for (const char* c : {"3H", "3H", "3D", "3D", "AC"}) d.stock.push_back(c);
  for (int i = 0; i < 3; ++i) d.stock.push_back(pool[next++]);
  d.stock.push_back("TH");
  log.Deal(d);
  log.PassTurns(before);
  log.Draw(seat);            // 3H
  log.Three(seat, "3H");     // replaced by 3H
  log.Three(seat, "3H");     // by 3D
  log.Three(seat, "3D");     // by 3D
  log.Three(seat, "3D");     // by AC
  log.Meld(seat, {{"AS", "AS", "AH", "AH", "AD", "AD", "AC", "AC"}});
  log.Discard(seat, "9D");
  log.PassTurns(3);
  log.Draw(seat);  // TH
  log.Meld(seat, {{"KS", "KS", "KH"}});
  log.Discard(seat, "TH");
}

const std::vector<std::string> kPartner95 = {"QS", "QS", "QH", "QH", "JS", "JS",
                                             "JH", "JH", "4S", "4S", "4H"};
const std::vector<std::string> kPartner90 = {"QS", "QS", "QH", "QH", "JS", "JS",
                                             "JH", "4S", "4S", "4H", "4H"};

// TC-J01 / TC-X03 at 1,495: side 1 ends hand 1 on exactly 1,495; in hand 2
// its first meld needs 50 (not 90): K-K-K + 5-5-5-5 (50) opens, K-K-K +
// 5-5-5 (45) does not. The same log, the same result, under jaques, classic
// and tutorial.
TEST(RulesetScenarios, TC_J01_TC_X03_At1495TheMinimumIs50) {
  for (bool enough : {true, false}) {
    Log log = NewLog("jaques", 4);
    BigHand(log, 1, /*dealer=*/0, /*seat=*/1, kPartner95);
    log.EndHand(1);
    DealSpec d;
    d.hand = 2;
    d.dealer = 1;  // seat 2 begins, then seat 3 (side 1)
    d.hands = {{}, {}, {}, {"KS", "KH", "KD", "5S", "5H", "5D", "5C"}};
    d.stock = {"9S", "9H"};
    log.Deal(d);
    log.PassTurn();  // seat 2
    log.Draw(3);     // 9H
    const int meld = enough ? log.Meld(3, {{"KS", "KH", "KD"}, {"5S", "5H", "5D", "5C"}})
                            : log.Meld(3, {{"KS", "KH", "KD"}, {"5S", "5H", "5D"}});
    log.Discard(3, "9H");
    for (const char* ruleset : {"jaques", "classic", "tutorial"}) {
      FileReport r = AuditAs(log, ruleset);
      if (enough) {
        EXPECT_NONE(ruleset, r);
      } else {
        EXPECT_FINDS(ruleset, r, F(meld, CheckId::kInitialMeldMinimum));
        EXPECT_NE(test::MessageOf(r, CheckId::kInitialMeldMinimum)
                      .find("counts 45; the side needs 50"),
                  std::string::npos)
            << ruleset << "\n" << Describe(r);
      }
      EXPECT_PARTS(ruleset, r, 1, 500, 800, 100, 190, -95, 0);
      EXPECT_EQ(HandOf(r, 0).totals[1], 1495) << ruleset;
      EXPECT_EQ(HandOf(r, 0).went_out, 1) << ruleset;
    }
  }
}

// TC-J01 / TC-X03 at 2,995: hand 2 adds exactly 1,500 (the partner holds
// 90), so side 1 stands on 2,995 and needs 90 (not 120) in hand 3:
// A-A-A + K-K-K (90) opens, A-A-A + five 5s (85) does not.
TEST(RulesetScenarios, TC_J01_TC_X03_At2995TheMinimumIs90) {
  for (bool enough : {true, false}) {
    Log log = NewLog("jaques", 4);
    BigHand(log, 1, 0, 1, kPartner95);
    log.EndHand(1);
    BigHand(log, 2, 1, 3, kPartner90);  // seat 2 begins; seat 3 goes out
    log.EndHand(2);
    DealSpec d;
    d.hand = 3;
    d.dealer = 2;  // seat 3 begins
    d.hands = {{}, {}, {}, {"AS", "AH", "AD", "KS", "KH", "KD", "5S", "5H", "5D", "5C", "5S"}};
    d.stock = {"9H"};
    log.Deal(d);
    log.Draw(3);
    const int meld = enough ? log.Meld(3, {{"AS", "AH", "AD"}, {"KS", "KH", "KD"}})
                            : log.Meld(3, {{"AS", "AH", "AD"}, {"5S", "5H", "5D", "5C", "5S"}});
    log.Discard(3, "9H");
    for (const char* ruleset : {"jaques", "classic", "tutorial"}) {
      FileReport r = AuditAs(log, ruleset);
      if (enough) {
        EXPECT_NONE(ruleset, r);
      } else {
        EXPECT_FINDS(ruleset, r, F(meld, CheckId::kInitialMeldMinimum));
        EXPECT_NE(test::MessageOf(r, CheckId::kInitialMeldMinimum)
                      .find("counts 85; the side needs 90"),
                  std::string::npos)
            << ruleset << "\n" << Describe(r);
      }
      EXPECT_EQ(PartsOf(r, 1, 1), (Parts{500, 800, 100, 190, -90, 0})) << ruleset;
      EXPECT_EQ(HandOf(r, 1).totals[1], 2995) << ruleset;
    }
  }
}

// ===========================================================================
// TC-C15: two-handed (000 §21). 15 cards each; draw 2, discard 1; two
// canastas to go out; no penalty for an insufficient meld; no partner.

TEST(RulesetScenarios, TC_C15_TwoHanded_FifteenCardsDrawTwo) {
  const RulesetChoice classic2 = ClassicSeated(2, 15);
  {
    Log log = NewLog("two-handed", 2);
    DealSpec d;
    d.hand_size = 15;
    log.Deal(d);
    const std::vector<int> draws = PassN(log, 4, 2);
    EXPECT_NONE("two-handed", AuditAs(log, "two-handed"));
    EXPECT_FINDS("classic", AuditAs(log, "classic"), F(1, CheckId::kLogPlayers));
    FileReport r = AuditWith(log.str(), classic2);
    EXPECT_EQ(Got(r), DrawCounts(draws)) << Describe(r);  // classic draws one
  }
  {
    Log log = NewLog("two-handed", 2);
    DealSpec d;
    d.hand_size = 15;
    log.Deal(d);
    const std::vector<int> draws = PassN(log, 4, 1);
    FileReport r = AuditAs(log, "two-handed");
    EXPECT_EQ(Got(r), DrawCounts(draws)) << Describe(r);
    EXPECT_NONE(classic2.name, AuditWith(log.str(), classic2));
  }
  {
    Log log = NewLog("two-handed", 2);
    const int deal = log.Deal(DealSpec{});  // 11 cards each
    EXPECT_FINDS("two-handed", AuditAs(log, "two-handed"), F(deal, CheckId::kDealHandSize),
                 F(deal, CheckId::kDealHandSize));
  }
  {
    // Individual play: there is no partner to ask.
    Log log = NewLog("two-handed", 2);
    DealSpec d;
    d.hand_size = 15;
    log.Deal(d);
    const int ask = log.AskOut(1);
    Pass(log, 2);
    EXPECT_FINDS("two-handed", AuditAs(log, "two-handed"), F(ask, CheckId::kOutAskNoPartner));
  }
}

// readings R10: with one stock card left, a draw-2 turn draws that one card. The
// whole stock is drawn two by two (77 cards after a two-player deal: the
// last turn draws one, the four red threes drawn costing one replacement
// each), each turn discarding a card drawn.
TEST(RulesetScenarios, TC_C15_A10_TwoHanded_LastStockCardDrawnAlone) {
  Log log = NewLog("two-handed", 2);
  DealSpec d;
  d.hand_size = 15;
  d.stock_bottom = {"9S", "9H"};  // the red threes are not the last cards
  log.Deal(d);
  std::vector<int> draws;
  int last_draw_size = 0;
  while (log.stock_left() > 0) {
    last_draw_size = std::min(2, log.stock_left());
    draws.push_back(Pass(log, 2));
  }
  EXPECT_EQ(last_draw_size, 1);
  EXPECT_NONE("two-handed", AuditAs(log, "two-handed"));
  // Classic draws one: every two-card draw is wrong, the last one is not.
  draws.pop_back();
  FileReport c = AuditWith(log.str(), ClassicSeated(2, 15));
  EXPECT_EQ(Got(c), DrawCounts(draws)) << Describe(c);
}

// Seat 1 goes out in its first turn of a deal for `players`: dealt `dealt`,
// draws `drawn`, melds `melds`, then discards `discard` (or, when it is
// empty, goes out by melding every card). Returns {draw, meld, discard}.
struct OutLines {
  int draw = 0, meld = 0, discard = 0;
};
OutLines GoOutFirstTurn(Log& log, int players, int hand_size,
                        const std::vector<std::string>& dealt,
                        const std::vector<std::string>& drawn,
                        const std::vector<std::vector<std::string>>& melds,
                        const std::string& discard) {
  DealSpec d;
  d.hand_size = hand_size;
  d.hands.resize(players);
  d.hands[1] = dealt;
  d.stock = drawn;
  log.Deal(d);
  OutLines o;
  o.draw = log.Draw(1, int(drawn.size()));
  o.meld = log.Meld(1, melds);
  if (!discard.empty()) o.discard = log.Discard(1, discard);
  return o;
}

TEST(RulesetScenarios, TC_C15_TwoHanded_TwoCanastasToGoOut) {
  const RulesetChoice classic2 = ClassicSeated(2, 15);
  {
    // Two canastas: K x8 and Q x8 from 15 dealt + QC, 9D drawn; 9D discarded.
    Log log = NewLog("two-handed", 2);
    OutLines o = GoOutFirstTurn(log, 2, 15, Cat(Kings(8), Queens(7)), {"QC", "9D"},
                                {Kings(8), Queens(8)}, "9D");
    const int seat0 = -log.SideHandValue(0);
    FileReport r = AuditAs(log, "two-handed");
    EXPECT_NONE("two-handed", r);
    EXPECT_PARTS("two-handed", r, 1, 1000, 0, 100, 160, 0, 0);
    EXPECT_PARTS("two-handed", r, 0, 0, 0, 0, 0, seat0, 0);
    FileReport c = AuditWith(log.str(), classic2);
    EXPECT_FINDS(classic2.name, c, F(o.draw, CheckId::kDrawCount));
    EXPECT_PARTS(classic2.name, c, 1, 1000, 0, 100, 160, 0, 0);
    EXPECT_FINDS("classic", AuditAs(log, "classic"), F(1, CheckId::kLogPlayers));
  }
  {
    // One canasta: K x7, Q-Q-Q, J-J-J, 9-9-9, 5S discarded.
    Log log = NewLog("two-handed", 2);
    OutLines o = GoOutFirstTurn(
        log, 2, 15, Cat(Kings(7), {"QS", "QH", "QD", "JS", "JH", "JD", "9S", "9H"}), {"9D", "5S"},
        {Kings(7), {"QS", "QH", "QD"}, {"JS", "JH", "JD"}, {"9S", "9H", "9D"}}, "5S");
    FileReport r = AuditAs(log, "two-handed");
    EXPECT_FINDS("two-handed", r, F(o.discard, CheckId::kOutWithoutCanastas));
    // The out is scored as recorded.
    EXPECT_PARTS("two-handed", r, 1, 500, 0, 100, 160, 0, 0);
    FileReport c = AuditWith(log.str(), classic2);
    EXPECT_FINDS(classic2.name, c, F(o.draw, CheckId::kDrawCount));
    EXPECT_PARTS(classic2.name, c, 1, 500, 0, 100, 160, 0, 0);
  }
}

// TC-C15 (readings R21): the minimum follows each player's own total. After hand 1
// seat 1 has 1,260 (minimum 50) and seat 0 is below zero (minimum 15).
TEST(RulesetScenarios, TC_C15_TwoHanded_MinimumPerPlayer) {
  Log log = NewLog("two-handed", 2);
  GoOutFirstTurn(log, 2, 15, Cat(Kings(8), Queens(7)), {"QC", "9D"}, {Kings(8), Queens(8)},
                 "9D");
  log.EndHand(1);
  DealSpec d;
  d.hand = 2;
  d.dealer = 1;  // seat 0 begins
  d.hand_size = 15;
  d.hands = {{"4S", "4H", "4D"}, {"KS", "KH", "KD", "5S", "5H", "5D"}};
  d.stock = {"9S", "9H", "9D", "9C"};
  log.Deal(d);
  log.Draw(0, 2);
  log.Meld(0, {{"4S", "4H", "4D"}});  // 15: enough below zero
  log.Discard(0, "9S");
  log.Draw(1, 2);
  const int meld = log.Meld(1, {{"KS", "KH", "KD"}, {"5S", "5H", "5D"}});  // 45 < 50
  log.Discard(1, "9D");
  FileReport r = AuditAs(log, "two-handed");
  EXPECT_FINDS("two-handed", r, F(meld, CheckId::kInitialMeldMinimum));
  EXPECT_EQ(HandOf(r, 0).totals[1], 1260);
  EXPECT_LT(HandOf(r, 0).totals[0], 0);
}

// TC-C15 (000 §21: "no penalties for ... insufficient melds") against
// three-handed (TC-C16), which keeps classic's penalties (000 §10).
// (a) Seat 1 lays K-K-K + 5-5-5 (45 < 50), takes back only the 5s and lays
// Q-Q-Q (60): classic loses 100; two-handed nothing. (b) It takes back every
// card: classic's minimum rises to 60 for the deal, so K-K-K + 5-5-5-5 (50)
// laid next is short; in two-handed the minimum stays 50.
Log RetractLog(const std::string& ruleset, int players, int hand_size, bool all, int* draw,
               int* last_meld, int draw_count = 2) {
  Log log = NewLog(ruleset, players);
  DealSpec d;
  d.hand_size = hand_size;
  d.hands.resize(players);
  d.hands[1] = {"KS", "KH", "KD", "5S", "5H", "5D", "5C", "QS", "QH", "QD"};
  d.stock = {"9D", "9S"};
  log.Deal(d);
  *draw = log.Draw(1, draw_count);
  log.Meld(1, {{"KS", "KH", "KD"}, {"5S", "5H", "5D"}});
  if (all) {
    log.Retract(1, {"KS", "KH", "KD", "5S", "5H", "5D"});
    *last_meld = log.Meld(1, {{"KS", "KH", "KD"}, {"5S", "5H", "5D", "5C"}});
  } else {
    log.Retract(1, {"5S", "5H", "5D"});
    *last_meld = log.Meld(1, {{"QS", "QH", "QD"}});
  }
  log.Discard(1, "9D");
  return log;
}

TEST(RulesetScenarios, TC_C15_TC_C16_InsufficientMeldRetracted) {
  struct Table {
    const char* ruleset;
    int players, hand_size;
    int partial_penalty;  // retracting some of the cards
    bool minimum_rises;   // retracting them all
  };
  for (const Table& t : {Table{"two-handed", 2, 15, 0, false},
                         Table{"three-handed", 3, 13, -100, true}}) {
    const RulesetChoice classic = ClassicSeated(t.players, t.hand_size);
    int draw = 0, meld = 0;
    {
      Log log = RetractLog(t.ruleset, t.players, t.hand_size, /*all=*/false, &draw, &meld);
      FileReport r = AuditAs(log, t.ruleset);
      EXPECT_NONE(t.ruleset, r);
      EXPECT_EQ(PartsOf(r, 1).penalties, t.partial_penalty) << t.ruleset << Describe(r);
      FileReport c = AuditWith(log.str(), classic);
      EXPECT_FINDS(classic.name, c, F(draw, CheckId::kDrawCount));
      EXPECT_EQ(PartsOf(c, 1).penalties, -100) << Describe(c);
    }
    {
      Log log = RetractLog(t.ruleset, t.players, t.hand_size, /*all=*/true, &draw, &meld);
      FileReport r = AuditAs(log, t.ruleset);
      if (t.minimum_rises) {
        EXPECT_FINDS(t.ruleset, r, F(meld, CheckId::kInitialMeldMinimum));
        EXPECT_NE(test::MessageOf(r, CheckId::kInitialMeldMinimum).find("needs 60"),
                  std::string::npos)
            << Describe(r);
      } else {
        EXPECT_NONE(t.ruleset, r);
      }
      EXPECT_EQ(PartsOf(r, 1).penalties, 0) << t.ruleset;
      FileReport c = AuditWith(log.str(), classic);
      EXPECT_FINDS(classic.name, c, F(draw, CheckId::kDrawCount),
                   F(meld, CheckId::kInitialMeldMinimum));
    }
  }
}

// ===========================================================================
// TC-C16: three-handed (000 §21). 13 cards each; draw 2; two canastas;
// individual play.

TEST(RulesetScenarios, TC_C16_ThreeHanded_ThirteenCardsDrawTwo) {
  const RulesetChoice classic3 = ClassicSeated(3, 13);
  {
    Log log = NewLog("three-handed", 3);
    DealSpec d;
    d.hand_size = 13;
    log.Deal(d);
    const std::vector<int> draws = PassN(log, 6, 2);
    EXPECT_NONE("three-handed", AuditAs(log, "three-handed"));
    EXPECT_FINDS("classic", AuditAs(log, "classic"), F(1, CheckId::kLogPlayers));
    FileReport r = AuditWith(log.str(), classic3);
    EXPECT_EQ(Got(r), DrawCounts(draws)) << Describe(r);
  }
  {
    Log log = NewLog("three-handed", 3);
    DealSpec d;
    d.hand_size = 13;
    log.Deal(d);
    const std::vector<int> draws = PassN(log, 6, 1);
    FileReport r = AuditAs(log, "three-handed");
    EXPECT_EQ(Got(r), DrawCounts(draws)) << Describe(r);
    EXPECT_NONE(classic3.name, AuditWith(log.str(), classic3));
  }
  {
    Log log = NewLog("three-handed", 3);
    const int deal = log.Deal(DealSpec{});  // 11 cards each
    EXPECT_FINDS("three-handed", AuditAs(log, "three-handed"), F(deal, CheckId::kDealHandSize),
                 F(deal, CheckId::kDealHandSize), F(deal, CheckId::kDealHandSize));
  }
  {
    Log log = NewLog("three-handed", 3);
    DealSpec d;
    d.hand_size = 13;
    log.Deal(d);
    const int ask = log.AskOut(1);
    Pass(log, 2);
    EXPECT_FINDS("three-handed", AuditAs(log, "three-handed"),
                 F(ask, CheckId::kOutAskNoPartner));
  }
}

TEST(RulesetScenarios, TC_C16_ThreeHanded_TwoCanastasToGoOut) {
  const RulesetChoice classic3 = ClassicSeated(3, 13);
  {
    Log log = NewLog("three-handed", 3);
    OutLines o = GoOutFirstTurn(log, 3, 13, Cat(Kings(7), Queens(6)), {"QC", "9D"},
                                {Kings(7), Queens(7)}, "9D");
    FileReport r = AuditAs(log, "three-handed");
    EXPECT_NONE("three-handed", r);
    EXPECT_PARTS("three-handed", r, 1, 1000, 0, 100, 140, 0, 0);
    FileReport c = AuditWith(log.str(), classic3);
    EXPECT_FINDS(classic3.name, c, F(o.draw, CheckId::kDrawCount));
    EXPECT_PARTS(classic3.name, c, 1, 1000, 0, 100, 140, 0, 0);
  }
  {
    Log log = NewLog("three-handed", 3);
    OutLines o = GoOutFirstTurn(log, 3, 13, Cat(Kings(7), {"QS", "QH", "QD", "JS", "JH", "JD"}),
                                {"JC", "5S"},
                                {Kings(7), {"QS", "QH", "QD"}, {"JS", "JH", "JD", "JC"}}, "5S");
    FileReport r = AuditAs(log, "three-handed");
    EXPECT_FINDS("three-handed", r, F(o.discard, CheckId::kOutWithoutCanastas));
    EXPECT_PARTS("three-handed", r, 1, 500, 0, 100, 140, 0, 0);
    FileReport c = AuditWith(log.str(), classic3);
    EXPECT_FINDS(classic3.name, c, F(o.draw, CheckId::kDrawCount));
    EXPECT_PARTS(classic3.name, c, 1, 500, 0, 100, 140, 0, 0);
  }
}


// ===========================================================================
// TC-C17: hutto (000 §21). Four players; red threes before play in seat
// order; jokers do not count toward the minimum; draw 2; two canastas; no
// discard needed to go out. Every hutto log draws two, so under classic each
// of its draws is also a draw-count finding.

// (a) Seat 1 holds 3H and seat 3 holds 3D. `order` lists the seats laying
// them out before play (their replacements are 9S, then 9H); `late` is a
// seat that lays its one out in its own first turn instead: before its draw
// (kLateBeforeDraw) or after it (kLateAfterDraw).
enum class Late { kNo, kBeforeDraw, kAfterDraw };
struct ThreesLog {
  Log log = NewLog("hutto", 4);
  std::vector<int> threes;  // lines, in `order`, then the late one
  std::vector<int> draws;
};
ThreesLog HuttoThrees(const std::string& ruleset, int draw, const std::vector<int>& order,
                      Late late) {
  ThreesLog t;
  t.log = NewLog(ruleset, 4);
  DealSpec d;
  d.hands = {{}, {"3H"}, {}, {"3D"}};
  d.stock = {"9S", "9H"};
  t.log.Deal(d);
  for (int seat : order) t.threes.push_back(t.log.Three(seat, seat == 1 ? "3H" : "3D"));
  t.draws = PassN(t.log, 2, draw);  // seats 1 and 2
  if (late == Late::kBeforeDraw) {
    t.threes.push_back(t.log.Three(3, "3D"));
    t.draws.push_back(Pass(t.log, draw));
  } else if (late == Late::kAfterDraw) {
    t.draws.push_back(t.log.Draw(3, draw));
    t.threes.push_back(t.log.Three(3, "3D"));
    t.log.Discard(3, ToString(t.log.hand_cards(3).front()));
  } else {
    t.draws.push_back(Pass(t.log, draw));
  }
  t.draws.push_back(Pass(t.log, draw));  // seat 0
  return t;
}

TEST(RulesetScenarios, TC_C17a_Hutto_RedThreesBeforePlayInSeatOrder) {
  {
    // In seat order from the dealer's left, before anyone plays.
    ThreesLog t = HuttoThrees("hutto", 2, {1, 3}, Late::kNo);
    EXPECT_NONE("hutto", AuditAs(t.log, "hutto"));
    // classic lays them out in the player's first turn: seat 3 is early.
    FileReport c = AuditAs(t.log, "classic");
    EXPECT_EQ(Got(c), Join({F(t.threes[1], CheckId::kThreeTiming)}, DrawCounts(t.draws)))
        << Describe(c);
  }
  {
    // Out of seat order: seat 3 before seat 1.
    ThreesLog t = HuttoThrees("hutto", 2, {3, 1}, Late::kNo);
    EXPECT_FINDS("hutto", AuditAs(t.log, "hutto"), F(t.threes[1], CheckId::kThreeTiming));
    FileReport c = AuditAs(t.log, "classic");
    EXPECT_EQ(Got(c), Join({F(t.threes[0], CheckId::kThreeTiming)}, DrawCounts(t.draws)))
        << Describe(c);
  }
  {
    // Seat 3 waits for its first turn and lays 3D out before drawing:
    // late in hutto, just right in classic.
    ThreesLog t = HuttoThrees("hutto", 2, {1}, Late::kBeforeDraw);
    EXPECT_FINDS("hutto", AuditAs(t.log, "hutto"), F(t.threes[1], CheckId::kThreeTiming));
    FileReport c = AuditAs(t.log, "classic");
    EXPECT_EQ(Got(c), DrawCounts(t.draws)) << Describe(c);
  }
  {
    // The same, laid out after its first draw: just as late in hutto. (In
    // classic, readings R6 would lay dealt red threes out before the draw; the engine
    // does not tell a dealt red three from a drawn one there, so classic is
    // not asserted for this log.)
    ThreesLog t = HuttoThrees("hutto", 2, {1}, Late::kAfterDraw);
    EXPECT_FINDS("hutto", AuditAs(t.log, "hutto"), F(t.threes[1], CheckId::kThreeTiming));
  }
  {
    // The classic way (each in the first turn), replayed under classic's
    // draw of one: clean in classic; in hutto seat 3's 3D is late and every
    // draw is one card short.
    ThreesLog t = HuttoThrees("classic", 1, {1}, Late::kBeforeDraw);
    EXPECT_NONE("classic", AuditAs(t.log, "classic"));
    FileReport h = AuditAs(t.log, "hutto");
    EXPECT_EQ(Got(h), Join({F(t.threes[1], CheckId::kThreeTiming)}, DrawCounts(t.draws)))
        << Describe(h);
  }
}

// A red three drawn in play is laid out at once (000 §7 "draw again";
// hutto inherits it): seat 1 draws 3H (and 9S in hutto) and discards 9D,
// keeping the 3H. Reported at the end of the turn in both.
TEST(RulesetScenarios, TC_C17_Hutto_DrawnRedThreeKeptThroughTheTurn) {
  for (const char* ruleset : {"hutto", "classic"}) {
    const int draw = Builtin(ruleset).rules.stock_draw;
    Log log = NewLog(ruleset, 4);
    DealSpec d;
    d.hands = {{}, {"9D"}};
    d.stock = {"3H", "9S"};
    log.Deal(d);
    log.Draw(1, draw);  // 3H (and 9S)
    const int discard = log.Discard(1, "9D");
    EXPECT_FINDS(ruleset, AuditAs(log, ruleset), F(discard, CheckId::kThreeTiming));
  }
}

// (b) readings R22 (b): Joker-K-K counts 20 toward hutto's minimum, 70 in classic.
TEST(RulesetScenarios, TC_C17b_Hutto_JokersDoNotCountTowardTheMinimum) {
  for (bool with_queens : {false, true}) {
    for (int draw : {2, 1}) {
      Log log = NewLog(draw == 2 ? "hutto" : "classic", 4);
      DealSpec d;
      d.hands = {{}, {"JK", "KS", "KH", "QS", "QH", "QD"}};
      d.stock = {"9S", "9H"};
      log.Deal(d);
      const int drawn = log.Draw(1, draw);
      const int meld = with_queens ? log.Meld(1, {{"JK", "KS", "KH"}, {"QS", "QH", "QD"}})
                                   : log.Meld(1, {{"JK", "KS", "KH"}});
      log.Discard(1, "9S");
      FileReport h = AuditAs(log, "hutto");
      FileReport c = AuditAs(log, "classic");
      Lines hutto, classic;
      if (draw == 1) hutto.push_back(F(drawn, CheckId::kDrawCount));
      if (draw == 2) classic.push_back(F(drawn, CheckId::kDrawCount));
      if (!with_queens) hutto.push_back(F(meld, CheckId::kInitialMeldMinimum));
      EXPECT_EQ(Got(h), hutto) << "hutto, draw " << draw << "\n" << Describe(h);
      EXPECT_EQ(Got(c), classic) << "classic, draw " << draw << "\n" << Describe(c);
      if (!with_queens) {
        EXPECT_NE(test::MessageOf(h, CheckId::kInitialMeldMinimum)
                      .find("counts 20; the side needs 50"),
                  std::string::npos)
            << Describe(h);
      }
    }
  }
}

// (c), (d) Draw 2; one canasta cannot go out. Seat 1: K x7 + Q x4 dealt,
// QS and 5S drawn, K x7 and Q x5 melded, 5S discarded.
TEST(RulesetScenarios, TC_C17cd_Hutto_DrawTwoAndOneCanastaCannotGoOut) {
  {
    Log log = NewLog("hutto", 4);
    OutLines o = GoOutFirstTurn(log, 4, 11, Cat(Kings(7), {"QS", "QH", "QD", "QC"}),
                                {"QS", "5S"}, {Kings(7), {"QS", "QH", "QD", "QC", "QS"}}, "5S");
    const int seat3 = -log.SideHandValue(1);
    FileReport h = AuditAs(log, "hutto");
    EXPECT_FINDS("hutto", h, F(o.discard, CheckId::kOutWithoutCanastas));
    EXPECT_PARTS("hutto", h, 1, 500, 0, 100, 120, seat3, 0);
    FileReport c = AuditAs(log, "classic");
    EXPECT_FINDS("classic", c, F(o.draw, CheckId::kDrawCount));
    EXPECT_PARTS("classic", c, 1, 500, 0, 100, 120, seat3, 0);
  }
  {
    // The same by melding every card: K x7, Q-Q-Q, 9-9-9.
    Log log = NewLog("hutto", 4);
    OutLines o = GoOutFirstTurn(log, 4, 11, Cat(Kings(7), {"QS", "QH", "QD", "9S"}),
                                {"9H", "9D"}, {Kings(7), {"QS", "QH", "QD"}, {"9S", "9H", "9D"}},
                                "");
    FileReport h = AuditAs(log, "hutto");
    EXPECT_FINDS("hutto", h, F(o.meld, CheckId::kOutWithoutCanastas));
    FileReport c = AuditAs(log, "classic");
    EXPECT_FINDS("classic", c, F(o.draw, CheckId::kDrawCount));
    EXPECT_PARTS("classic", c, 1, 500, 0, 100, 130, -log.SideHandValue(1), 0);
  }
}

// (e) and TC-X04: two canastas, out by melding every card, no discard. Seat
// 1 melds K x7 and Q-Q-Q in its first turn (QH, QC drawn; 9S discarded);
// in its second it draws QD, QD and adds four queens: a second canasta.
Log HuttoTwoCanastasOut(std::vector<int>* draws, int* out) {
  Log log = NewLog("hutto", 4);
  DealSpec d;
  d.hands = {{}, Cat(Kings(7), {"QS", "QS", "QH", "9S"})};
  d.stock = {"QH", "QC", "9H", "9D", "9C", "TS", "TH", "TD", "QD", "QD"};
  log.Deal(d);
  draws->push_back(log.Draw(1, 2));
  log.Meld(1, {Kings(7), {"QS", "QS", "QH"}});
  log.Discard(1, "9S");
  for (int line : PassN(log, 3, 2)) draws->push_back(line);
  draws->push_back(log.Draw(1, 2));
  *out = log.Add(1, "Q", {"QH", "QC", "QD", "QD"});
  return log;
}

TEST(RulesetScenarios, TC_C17e_TC_X04_Hutto_OutWithoutDiscard) {
  std::vector<int> draws;
  int out = 0;
  Log log = HuttoTwoCanastasOut(&draws, &out);
  log.EndHand(1);
  const int seat3 = -log.SideHandValue(1);
  const int side0 = -log.SideHandValue(0);
  FileReport h = AuditAs(log, "hutto");
  EXPECT_NONE("hutto", h);
  EXPECT_EQ(HandOf(h).went_out, 1);
  EXPECT_PARTS("hutto", h, 1, 1000, 0, 100, 140, seat3, 0);
  EXPECT_PARTS("hutto", h, 0, 0, 0, 0, 0, side0, 0);
  FileReport c = AuditAs(log, "classic");
  EXPECT_EQ(Got(c), DrawCounts(draws)) << Describe(c);
  EXPECT_PARTS("classic", c, 1, 1000, 0, 100, 140, seat3, 0);
  // In the jaques family the same ending needs a final discard (readings R29).
  FileReport j = AuditAs(log, "jaques");
  EXPECT_EQ(Got(j), Join({F(out, CheckId::kOutWithoutDiscard)}, DrawCounts(draws)))
      << Describe(j);
}


// ===========================================================================
// Jaques (002) and its two- and three-player versions.

// 002 Setup-7: red threes in the dealt hand are laid out at once, before
// play, in any order; classic lays them out in the player's own first turn.
TEST(RulesetScenarios, Jaques_DealtRedThreesLaidOutImmediately) {
  {
    ThreesLog t = HuttoThrees("jaques", 1, {3, 1}, Late::kNo);  // any order
    EXPECT_NONE("jaques", AuditAs(t.log, "jaques"));
    EXPECT_FINDS("classic", AuditAs(t.log, "classic"), F(t.threes[0], CheckId::kThreeTiming));
    // hutto wants them in seat order, and draws two.
    FileReport h = AuditAs(t.log, "hutto");
    EXPECT_EQ(Got(h), Join({F(t.threes[1], CheckId::kThreeTiming)}, DrawCounts(t.draws)))
        << Describe(h);
  }
  for (Late late : {Late::kBeforeDraw, Late::kAfterDraw}) {
    // Seat 3 waits for its own first turn: late in jaques; classic's way.
    ThreesLog t = HuttoThrees("jaques", 1, {1}, late);
    EXPECT_FINDS("jaques", AuditAs(t.log, "jaques"), F(t.threes[1], CheckId::kThreeTiming));
    if (late == Late::kBeforeDraw) {
      EXPECT_NONE("classic", AuditAs(t.log, "classic"));
    }
  }
}

// TC-J02 (002 Setup-6, readings R27): the upcard is a joker, then 3H, 3S and 8D are
// turned. Jaques buries the joker and both threes in the stock: the pile is
// [8D]. Classic keeps them all in the pile ([JK, 3H, 3S, 8D], frozen), and
// the taker lays the 3H out with no replacement. Seat 1 takes 8D with 8S-8H
// and melds Q-Q-Q (10 + 20 + 30 = 60). The stock is not recorded, so that
// the same deal is valid under both.
struct UpcardLog {
  Log log = NewLog("jaques", 4);
  int deal = 0, take = 0, three = 0;
};
UpcardLog TakeAfterSpecialUpcards(const std::string& ruleset,
                                  const std::vector<std::string>& upcard, const std::string& top,
                                  int count, bool lay_out_red_three) {
  UpcardLog u;
  u.log = NewLog(ruleset, 4);
  DealSpec d;
  d.upcard = upcard;
  d.record_stock = false;
  d.hands = {{}, {top.substr(0, 1) + "S", top.substr(0, 1) + "H", "QS", "QH", "QD"}};
  u.deal = u.log.Deal(d);
  u.take = u.log.Take(1, top, {top.substr(0, 1) + "S", top.substr(0, 1) + "H"}, count);
  u.log.Meld(1, {{"QS", "QH", "QD"}});
  if (lay_out_red_three) u.three = u.log.ThreeWith(1, "3H", std::nullopt);
  // A filler card (a 4, 5, 6 or 7) is discarded.
  for (Card c : u.log.hand_cards(1)) {
    if (c.rank() >= Rank::kFour && c.rank() <= Rank::kSeven) {
      u.log.Discard(1, ToString(c));
      break;
    }
  }
  return u;
}

TEST(RulesetScenarios, TC_J02_SpecialUpcardsAreBuriedInJaques) {
  const std::vector<std::string> up = {"JK", "3H", "3S", "8D"};
  {
    // Recorded the jaques way: the pile is the 8D alone.
    UpcardLog u = TakeAfterSpecialUpcards("jaques", up, "8D", 1, false);
    FileReport j = AuditAs(u.log, "jaques");
    EXPECT_NONE("jaques", j);
    // (The log builder put the whole recorded upcard into seat 1's hand;
    // under jaques JK, 3H and 3S are in the stock.)
    const int in_hand = u.log.SideHandValue(1) - test::PointValue(test::Cs({"JK", "3H", "3S"}));
    EXPECT_PARTS("jaques", j, 1, 0, 0, 0, 10 + 20 + 30, -in_hand, 0);
    // Under classic the pile holds four cards, and the 3H taken with it is
    // never laid out: still held when the turn ends.
    FileReport c = AuditAs(u.log, "classic");
    EXPECT_FINDS("classic", c, F(u.take, CheckId::kPileCount),
                 F(u.log.line(), CheckId::kThreeTiming));
  }
  {
    // Recorded the classic way: the pile of four comes into the hand, and
    // the 3H is laid out with no replacement (it scores for side 1).
    UpcardLog u = TakeAfterSpecialUpcards("classic", up, "8D", 4, true);
    FileReport c = AuditAs(u.log, "classic");
    EXPECT_NONE("classic", c);
    EXPECT_EQ(PartsOf(c, 1).red_threes, 100) << Describe(c);
    EXPECT_EQ(PartsOf(c, 1).melded, 60) << Describe(c);
    // Under jaques the pile held one card, and the 3H never reached the hand.
    FileReport j = AuditAs(u.log, "jaques");
    EXPECT_FINDS("jaques", j, F(u.take, CheckId::kPileCount), F(u.three, CheckId::kCardNotHeld),
                 F(u.three, CheckId::kThreeReplacement));
    // tutorial stops turning at the 3S, which is neither wild nor a red three.
    FileReport t = AuditAs(u.log, "tutorial");
    EXPECT_FINDS("tutorial", t, F(u.deal, CheckId::kDealUpcard));
  }
  {
    // With the stock recorded, jaques's stock holds the buried cards (the
    // engine checks only that they are in it, not where): clean. Classic
    // counts one joker, 3H and 3S too many. (Seat 0 holds the other copies,
    // so that the builder lists the buried ones in the stock as well as in
    // the upcard, as a jaques recorder does.)
    Log log = NewLog("jaques", 4);
    DealSpec d;
    d.upcard = up;
    d.hands = {{"JK", "JK", "JK", "3H", "3S"}};
    d.stock_bottom = {"JK", "3H", "3S"};
    const int deal = log.Deal(d);
    EXPECT_NONE("jaques", AuditAs(log, "jaques"));
    EXPECT_FINDS("classic", AuditAs(log, "classic"), F(deal, CheckId::kDealPack));
  }
}

// TC-X09: a red three is the first upcard, KC turned onto it. Classic and
// tutorial keep it in the pile, and the taker scores it (readings R5, R35); jaques
// buries it. Seat 1 takes KC with K-K and melds Q-Q-Q.
TEST(RulesetScenarios, TC_X09_RedThreeAsTheFirstUpcard) {
  const std::vector<std::string> up = {"3H", "KC"};
  {
    UpcardLog u = TakeAfterSpecialUpcards("classic", up, "KC", 2, true);
    for (const char* ruleset : {"classic", "tutorial"}) {
      FileReport r = AuditAs(u.log, ruleset);
      EXPECT_NONE(ruleset, r);
      EXPECT_EQ(PartsOf(r, 1).red_threes, 100) << ruleset << Describe(r);
    }
    FileReport j = AuditAs(u.log, "jaques");
    EXPECT_FINDS("jaques", j, F(u.take, CheckId::kPileCount), F(u.three, CheckId::kCardNotHeld),
                 F(u.three, CheckId::kThreeReplacement));
  }
  {
    UpcardLog u = TakeAfterSpecialUpcards("jaques", up, "KC", 1, false);
    FileReport j = AuditAs(u.log, "jaques");
    EXPECT_NONE("jaques", j);
    EXPECT_EQ(PartsOf(j, 1).red_threes, 0) << Describe(j);
    EXPECT_EQ(PartsOf(j, 1).melded, 60) << Describe(j);
    // Classic and tutorial: the pile held two cards, and the 3H taken with
    // it is still held when the turn ends.
    for (const char* ruleset : {"classic", "tutorial"})
      EXPECT_FINDS(ruleset, AuditAs(u.log, ruleset), F(u.take, CheckId::kPileCount),
                   F(u.log.line(), CheckId::kThreeTiming));
  }
}

// The upcard triggers of each ruleset (000 §6 / readings R4; 002 Setup-6 / readings R27;
// 004 L7 / readings R35), deal by deal: clean, or deal-upcard at the deal's line.
TEST(RulesetScenarios, TC_X09_TC_J02_UpcardTriggersOfEveryRuleset) {
  struct Row {
    std::vector<std::string> upcard;
    bool classic, jaques, tutorial;  // legal? (the 000 variants follow
                                     // classic, the jaques ones jaques)
  };
  const std::vector<Row> rows = {
      {{"8D"}, true, true, true},
      {{"3S"}, false, true, true},        // a black three triggers in 000 only
      {{"3S", "8D"}, true, false, false},
      {{"2H", "3S"}, false, false, true},  // 004 stops at a card neither wild nor red three
      {{"JK", "3S", "8D"}, true, true, false},
      {{"JK", "3H", "3S", "8D"}, true, true, false},
      {{"3H", "KC"}, true, true, true},
      {{"JK", "2D", "4C"}, true, true, true},
      {{"JK", "3D"}, false, false, false},  // turning stopped at a red three
      {{"8D", "9D"}, false, false, false},  // turning went on after a natural card
  };
  for (const Row& row : rows) {
    for (const char* name : kRunnable) {
      const Rules& rules = Builtin(name).rules;
      const std::string n = name;
      const bool legal = n == "tutorial"              ? row.tutorial
                         : n.rfind("jaques", 0) == 0 ? row.jaques
                                                     : row.classic;
      Log log = NewLog(name, rules.num_players);
      DealSpec d;
      d.upcard = row.upcard;
      d.hand_size = rules.hand_size;
      d.record_stock = false;
      const int deal = log.Deal(d);
      std::string up;
      for (const std::string& c : row.upcard) up += c + " ";
      FileReport r = AuditAs(log, name);
      if (legal) {
        EXPECT_NONE(std::string(name) + ", upcard " + up, r);
      } else {
        EXPECT_FINDS(std::string(name) + ", upcard " + up, r, F(deal, CheckId::kDealUpcard));
      }
    }
  }
}

// TC-J04 / TC-X08: going out concealed (002 Play-12, readings R29). Seat 1 has made
// no meld before; in its first turn it melds K x8 and Q-Q-Q and discards
// 9D: 200 in jaques, 100 in classic and tutorial (no such bonus).
TEST(RulesetScenarios, TC_J04_TC_X08_ConcealedGoingOut) {
  Log log = NewLog("jaques", 4);
  GoOutFirstTurn(log, 4, 11, Cat(Kings(8), {"QS", "QH", "QD"}), {"9D"},
                 {Kings(8), {"QS", "QH", "QD"}}, "9D");
  log.EndHand(1);
  const int seat3 = -log.SideHandValue(1);
  FileReport j = AuditAs(log, "jaques");
  EXPECT_NONE("jaques", j);
  EXPECT_PARTS("jaques", j, 1, 500, 0, 200, 110, seat3, 0);
  for (const char* ruleset : {"classic", "tutorial"}) {
    FileReport r = AuditAs(log, ruleset);
    EXPECT_NONE(ruleset, r);
    EXPECT_PARTS(ruleset, r, 1, 500, 0, 100, 110, seat3, 0);
  }
}

// readings R29: concealed means the player (not the side) has melded nothing before
// and lays all its melds in the one turn, without adding to the partner's.
// Seat 3 opens with Q-Q-Q + J-J-J; seat 1, in its second turn, melds 8-8-8
// and either K x8 (all its own melds: concealed, 200) or K x7 and adds QC
// to the partner's queens (not concealed: 100). Classic: 100 either way.
TEST(RulesetScenarios, TC_J04_ConcealedNeedsNoAdditionToThePartnersMelds) {
  for (bool add_to_partner : {false, true}) {
    Log log = NewLog("jaques", 4);
    DealSpec d;
    d.hands = {{},
               add_to_partner ? Cat(Kings(7), {"8S", "8H", "8D", "QC"})
                              : Cat(Kings(8), {"8S", "8H", "8D"}),
               {},
               {"QS", "QH", "QD", "JS", "JH", "JD"}};
    d.stock = {"9S", "9H", "9C", "TS", "TH"};
    log.Deal(d);
    log.PassTurns(2);  // seats 1 and 2
    log.Draw(3);       // 9C
    log.Meld(3, {{"QS", "QH", "QD"}, {"JS", "JH", "JD"}});
    log.Discard(3, "9C");
    log.PassTurn();  // seat 0
    log.Draw(1);     // TH
    if (add_to_partner)
      log.MeldEvent(1, {M{Kings(7), "", ""}, M{{"8S", "8H", "8D"}, "", ""}, M{{"QC"}, "Q", ""}});
    else
      log.Meld(1, {Kings(8), {"8S", "8H", "8D"}});
    log.Discard(1, "TH");
    log.EndHand(1);
    const int seat3 = -log.SideHandValue(1);
    const int melded = add_to_partner ? 70 + 30 + 40 + 30 : 80 + 30 + 30 + 30;
    FileReport j = AuditAs(log, "jaques");
    EXPECT_NONE("jaques", j);
    EXPECT_PARTS("jaques", j, 1, 500, 0, add_to_partner ? 100 : 200, melded, seat3, 0);
    FileReport c = AuditAs(log, "classic");
    EXPECT_NONE("classic", c);
    EXPECT_PARTS("classic", c, 1, 500, 0, 100, melded, seat3, 0);
  }
}

// TC-J05 (002 L47, Play-5) and D9 (002 Play-4 vs 000 §13). Seat 1 opens
// with K x5 + J x5 and discards either 2C (holding only 2C and 2D: a wild
// discard jaques allows, having no other card) or 9S; seat 2 discards QC;
// seat 3 (side 1, opened) takes QC with `with` from its hand (or, with
// `with` empty, JC onto the side's jacks).
struct PileLog {
  Log log = NewLog("jaques", 4);
  int take = 0;
};
PileLog TakeQueen(bool wild_in_pile, const std::vector<std::string>& with) {
  PileLog p;
  p.log = NewLog("jaques", 4);
  const bool onto_jacks = with.empty();
  const std::string top = onto_jacks ? "JC" : "QC";
  DealSpec d;
  d.hands = {{}, {"KS", "KS", "KH", "KH", "KD", "JS", "JS", "JH", "JH", "JD", "2C"}, {top}, with};
  d.stock = {wild_in_pile ? "2D" : "9S", "9H", "9D"};
  p.log.Deal(d);
  p.log.Draw(1);
  p.log.Meld(1, {{"KS", "KS", "KH", "KH", "KD"}, {"JS", "JS", "JH", "JH", "JD"}});
  p.log.Discard(1, wild_in_pile ? "2C" : "9S");
  p.log.Draw(2);
  p.log.Discard(2, top);
  if (onto_jacks)
    p.take = p.log.TakeTo(3, top, "J");
  else
    p.take = p.log.Take(3, top, with, /*count=*/3);  // [8C, 2C or 9S, QC]
  // Seat 3 discards a filler card.
  for (Card c : p.log.hand_cards(3)) {
    if (c.rank() >= Rank::kFour && c.rank() <= Rank::kSeven) {
      p.log.Discard(3, ToString(c));
      break;
    }
  }
  return p;
}

TEST(RulesetScenarios, TC_J05_WildCardBuriedInThePile) {
  // The pile is [8C, 2C, QC]: the buried 2C freezes it in every ruleset.
  {
    PileLog p = TakeQueen(true, {"QS", "JK"});
    for (const char* ruleset : {"jaques", "classic", "tutorial"})
      EXPECT_FINDS(ruleset, AuditAs(p.log, ruleset), F(p.take, CheckId::kPileFrozenNeedsPair));
  }
  {
    PileLog p = TakeQueen(true, {"QS", "QH"});  // a natural pair: a new meld Q-Q-Q
    for (const char* ruleset : {"jaques", "classic", "tutorial"}) {
      FileReport r = AuditAs(p.log, ruleset);
      EXPECT_NONE(ruleset, r);
      EXPECT_EQ(PartsOf(r, 1).melded, 50 + 50 + 30) << ruleset << Describe(r);
    }
  }
  {
    PileLog p = TakeQueen(true, {});  // the top card alone onto J x5
    for (const char* ruleset : {"jaques", "classic", "tutorial"})
      EXPECT_FINDS(ruleset, AuditAs(p.log, ruleset), F(p.take, CheckId::kPileFrozenNeedsPair));
  }
}

TEST(RulesetScenarios, A25_FrozenPileTakenWithExactlyTheNaturalPairInJaques) {
  // 002 Play-5: "use all three to form a new meld". Jaques takes a frozen
  // pile with the natural pair alone; classic and the tutorial also accept a
  // pair with a wild card (000 §13 asks only for the pair).
  PileLog p = TakeQueen(true, {"QS", "QH", "JK"});
  EXPECT_FINDS("jaques", AuditAs(p.log, "jaques"), F(p.take, CheckId::kPileTakeInvalid));
  for (const char* ruleset : {"classic", "tutorial"}) {
    FileReport r = AuditAs(p.log, ruleset);
    EXPECT_NONE(ruleset, r);
    EXPECT_EQ(PartsOf(r, 1).melded, 50 + 50 + 30 + 50) << ruleset << Describe(r);
  }
}

TEST(RulesetScenarios, D9_UnfrozenPileNeedsTwoNaturalsInJaques) {
  // The pile is [8C, 9S, QC], unfrozen for side 1. Classic (readings R2) lets a
  // natural and a wild card, or the top card alone onto an unfinished meld,
  // take it; jaques needs two natural queens from the hand (002 Play-4).
  {
    PileLog p = TakeQueen(false, {"QS", "JK"});
    EXPECT_FINDS("jaques", AuditAs(p.log, "jaques"), F(p.take, CheckId::kPileTakeInvalid));
    for (const char* ruleset : {"classic", "tutorial"}) {
      FileReport r = AuditAs(p.log, ruleset);
      EXPECT_NONE(ruleset, r);
      EXPECT_EQ(PartsOf(r, 1).melded, 50 + 50 + 10 + 50 + 10) << ruleset << Describe(r);
    }
  }
  {
    PileLog p = TakeQueen(false, {});
    EXPECT_FINDS("jaques", AuditAs(p.log, "jaques"), F(p.take, CheckId::kPileTakeInvalid));
    for (const char* ruleset : {"classic", "tutorial"}) {
      FileReport r = AuditAs(p.log, ruleset);
      EXPECT_NONE(ruleset, r);
      EXPECT_EQ(PartsOf(r, 1).melded, 50 + 60) << ruleset << Describe(r);
    }
  }
  {
    PileLog p = TakeQueen(false, {"QS", "QH"});
    for (const char* ruleset : {"jaques", "classic", "tutorial"})
      EXPECT_NONE(ruleset, AuditAs(p.log, ruleset));
  }
}

// ===========================================================================
// Jaques follows 002 where 002 speaks (issue 7): "may I go out?" (002
// Play-11, L47; readings R105, R109) and the pile before the side's first
// meld (002 Play-4, Play-5; readings R25, R31). Every finding under jaques
// cites 002 in its "rule:" note; the same log under classic cites 000.

// The "rule: ..." note of the first finding with `id`, or "".
std::string RuleNote(const FileReport& r, CheckId id) {
  for (const GameReport& g : r.games)
    for (const Finding& f : g.findings)
      if (f.id == id)
        for (const std::string& n : f.notes)
          if (n.rfind("rule: ", 0) == 0) return n;
  return "";
}
std::string MessageOf(const FileReport& r, CheckId id) {
  for (const GameReport& g : r.games)
    for (const Finding& f : g.findings)
      if (f.id == id) return f.message;
  return "";
}

// Seat 1 holds K x3, Q x3 and `rest` (11 cards), draws TS, opens with K-K-K
// and Q-Q-Q (60) and discards TS. `ask`: before the draw ("before"), after
// the meld ("after"), or not at all (""); seat 3 answers `yes`.
struct AskLog {
  Log log = NewLog("jaques", 4);
  int ask = 0, answer = 0, meld = 0, discard = 0;
};
AskLog AskAndOpen(const std::string& ask, bool yes, const std::vector<std::string>& rest) {
  AskLog a;
  DealSpec d;
  d.hands = {{}, Cat({"KS", "KH", "KD", "QS", "QH", "QD"}, rest)};
  d.stock = {"TS"};
  a.log.Deal(d);
  auto question = [&] {
    a.ask = a.log.AskOut(1);
    a.answer = a.log.Answer(3, yes);
  };
  if (ask == "before") question();
  a.log.Draw(1);
  a.meld = a.log.Meld(1, {{"KS", "KH", "KD"}, {"QS", "QH", "QD"}});
  if (ask == "after") question();
  a.discard = a.log.Discard(1, "TS");
  return a;
}
const std::vector<std::string> kNothingToMeld = {"4S", "5H", "6D", "7C", "9S"};
const std::vector<std::string> kJacksToMeld = {"JS", "JH", "JD", "4S", "5H"};

TEST(RulesetScenarios, R109_MayIGoOutAfterMeldingJaquesAllowsClassicDoesNot) {
  // 002 Play-11: "Before going out a player may ask"; 000 §17: not "after
  // melding". Asked after the meld, answered no, not going out.
  AskLog a = AskAndOpen("after", false, kNothingToMeld);
  EXPECT_NONE("jaques", AuditAs(a.log, "jaques"));
  FileReport c = AuditAs(a.log, "classic");
  EXPECT_FINDS("classic", c, F(a.ask, CheckId::kOutAskTiming));
  EXPECT_EQ(RuleNote(c, CheckId::kOutAskTiming), "rule: 000 §17");
  // Asked before the draw: allowed in both.
  AskLog b = AskAndOpen("before", false, kNothingToMeld);
  for (const char* ruleset : {"jaques", "classic"}) EXPECT_NONE(ruleset, AuditAs(b.log, ruleset));
}

TEST(RulesetScenarios, R109_MayIGoOutOutsideTheOwnTurnCites002UnderJaques) {
  // Seat 2 asks during seat 1's turn: wrong in both, each citing its seed.
  Log log = NewLog("jaques", 4);
  DealSpec d;
  log.Deal(d);
  log.Draw(1);
  const int ask = log.AskOut(2);
  FileReport j = AuditAs(log, "jaques");
  EXPECT_FINDS("jaques", j, F(ask, CheckId::kOutAskTiming));
  EXPECT_EQ(RuleNote(j, CheckId::kOutAskTiming), "rule: 002 Play-11, R109");
  FileReport c = AuditAs(log, "classic");
  EXPECT_FINDS("classic", c, F(ask, CheckId::kOutAskTiming));
  EXPECT_EQ(RuleNote(c, CheckId::kOutAskTiming), "rule: 000 §17");
}

TEST(RulesetScenarios, R105_YesThatCannotBeHonouredIsExcusedInJaques) {
  // Seat 1 has no canasta and nothing more to meld: it cannot go out. 002
  // L47: no penalty. 000 §17: the answer is binding.
  AskLog a = AskAndOpen("before", true, kNothingToMeld);
  FileReport j = AuditAs(a.log, "jaques");
  EXPECT_NONE("jaques", j);
  EXPECT_EQ(PartsOf(j, 1).penalties, 0);
  FileReport c = AuditAs(a.log, "classic");
  EXPECT_FINDS("classic", c, F(a.discard, CheckId::kOutAnswerBinding));
  EXPECT_EQ(RuleNote(c, CheckId::kOutAnswerBinding), "rule: 000 §17");
}

TEST(RulesetScenarios, R105_YesObligesAJaquesPlayerToMeldAsMuchAsPossible) {
  // Seat 1 keeps J-J-J, which it could have melded: 002 L47 "they must meld
  // as much as possible before discarding".
  AskLog a = AskAndOpen("before", true, kJacksToMeld);
  FileReport j = AuditAs(a.log, "jaques");
  EXPECT_FINDS("jaques", j, F(a.discard, CheckId::kOutAnswerBinding));
  EXPECT_EQ(MessageOf(j, CheckId::kOutAnswerBinding),
            "the partner answered yes to \"may I go out?\", so seat 1 had to go out if at all "
            "possible, else meld as much as possible; JS JH JD could still be melded");
  EXPECT_EQ(RuleNote(j, CheckId::kOutAnswerBinding), "rule: 002 Play-11, L47, R105");
  FileReport c = AuditAs(a.log, "classic");
  EXPECT_FINDS("classic", c, F(a.discard, CheckId::kOutAnswerBinding));
  EXPECT_EQ(MessageOf(c, CheckId::kOutAnswerBinding),
            "the partner answered yes to \"may I go out?\", so seat 1 had to go out");
}

TEST(RulesetScenarios, R105_AWildCardKeptThatAMeldCouldTakeIsMeldedToo) {
  // Seat 1 keeps 2C, which the kings could have taken (002 L47).
  AskLog a = AskAndOpen("before", true, {"2C", "4S", "5H", "6D", "7C"});
  FileReport j = AuditAs(a.log, "jaques");
  EXPECT_FINDS("jaques", j, F(a.discard, CheckId::kOutAnswerBinding));
  EXPECT_EQ(MessageOf(j, CheckId::kOutAnswerBinding),
            "the partner answered yes to \"may I go out?\", so seat 1 had to go out if at all "
            "possible, else meld as much as possible; 2C could still be melded");
}

TEST(RulesetScenarios, R105_YesAndTheJacksMeldedIsExcusedInJaques) {
  // The same hand, with J-J-J melded too: as much as possible, no finding.
  AskLog a;
  DealSpec d;
  d.hands = {{}, Cat({"KS", "KH", "KD", "QS", "QH", "QD"}, kJacksToMeld)};
  d.stock = {"TS"};
  a.log.Deal(d);
  a.log.AskOut(1);
  a.log.Answer(3, true);
  a.log.Draw(1);
  a.log.Meld(1, {{"KS", "KH", "KD"}, {"QS", "QH", "QD"}, {"JS", "JH", "JD"}});
  a.discard = a.log.Discard(1, "TS");
  EXPECT_NONE("jaques", AuditAs(a.log, "jaques"));
  FileReport c = AuditAs(a.log, "classic");
  EXPECT_FINDS("classic", c, F(a.discard, CheckId::kOutAnswerBinding));
}

TEST(RulesetScenarios, GoingOutWithoutACanastaCitesTheRulesetsSeed) {
  // K x4, Q x4, J x3 melded and 9S discarded: no canasta. Wrong in both;
  // jaques cites 002 Play-11 ("provided their side has completed at least
  // one canasta"), classic 000 §9, §17.
  Log log = NewLog("jaques", 4);
  OutLines o = GoOutFirstTurn(log, 4, 11, Cat(Kings(4), Cat(Queens(4), {"JS", "JH", "JD"})),
                              {"9S"}, {Kings(4), Queens(4), {"JS", "JH", "JD"}}, "9S");
  FileReport j = AuditAs(log, "jaques");
  EXPECT_FINDS("jaques", j, F(o.discard, CheckId::kOutWithoutCanastas));
  EXPECT_EQ(RuleNote(j, CheckId::kOutWithoutCanastas), "rule: 002 Play-11");
  FileReport c = AuditAs(log, "classic");
  EXPECT_FINDS("classic", c, F(o.discard, CheckId::kOutWithoutCanastas));
  EXPECT_EQ(RuleNote(c, CheckId::kOutWithoutCanastas), "rule: 000 §9, §17");
}

// Rules no parameter decides cite the ruleset's rule key (docs/lua-api.md,
// `sources`): under jaques the 002 step that states the rule, under classic
// 000 as before. Each log is wrong in both rulesets in the same way.
struct CitedUnder {
  std::string jaques, classic;
};
void ExpectCited(const Log& log, const Lines& findings, CheckId id, const CitedUnder& cited) {
  FileReport j = AuditAs(log, "jaques");
  EXPECT_FINDS("jaques", j, findings);
  EXPECT_EQ(RuleNote(j, id), "rule: " + cited.jaques) << Describe(j);
  FileReport c = AuditAs(log, "classic");
  EXPECT_FINDS("classic", c, findings);
  EXPECT_EQ(RuleNote(c, id), "rule: " + cited.classic) << Describe(c);
}

TEST(RulesetScenarios, OutOfTurnCites002Play1UnderJaques) {
  // Seat 1 plays first (002 Play-1: "the player to the dealer's left").
  Log log = NewLog("jaques", 4);
  log.Deal(DealSpec{});
  const int draw = log.Draw(2);
  ExpectCited(log, {F(draw, CheckId::kTurnOrder)}, CheckId::kTurnOrder, {"002 Play-1", "000 §11"});
}

TEST(RulesetScenarios, DiscardBeforeDrawingCites002Play2UnderJaques) {
  // 002 Play-2: "On your turn you must first draw".
  Log log = NewLog("jaques", 4);
  DealSpec d;
  d.hands = {{}, {"9S"}};
  log.Deal(d);
  const int discard = log.Discard(1, "9S");
  ExpectCited(log, {F(discard, CheckId::kTurnSequence)}, CheckId::kTurnSequence,
              {"002 Play-2", "000 §11"});
}

TEST(RulesetScenarios, TurnWithoutADiscardCites002Play8UnderJaques) {
  // 002 Play-8: "You must discard exactly one card ... to end your turn."
  Log log = NewLog("jaques", 4);
  log.Deal(DealSpec{});
  log.Draw(1);
  const int next = log.Draw(2);
  ExpectCited(log, {F(next, CheckId::kDiscardMissing)}, CheckId::kDiscardMissing,
              {"002 Play-8", "000 §8, §11"});
}

TEST(RulesetScenarios, MixedRanksCite002Play3UnderJaques) {
  // 002 Play-3: "A meld is three or more cards of the same rank."
  Log log = NewLog("jaques", 4);
  DealSpec d;
  d.hands = {{}, {"KS", "KH", "QD"}};
  log.Deal(d);
  log.Draw(1);
  const int meld = log.Meld(1, {{"KS", "KH", "QD"}});
  ExpectCited(log, {F(meld, CheckId::kMeldMixedRanks)}, CheckId::kMeldMixedRanks,
              {"002 Play-3", "000 §8"});
}

TEST(RulesetScenarios, WildCardsAloneCite002Play3UnderJaques) {
  // 002 Play-3: "a meld must always contain more natural cards than wild
  // cards"; decided by wild_melds, which jaques cites.
  Log log = NewLog("jaques", 4);
  DealSpec d;
  d.hands = {{}, {"JK", "JK", "2S"}};
  log.Deal(d);
  log.Draw(1);
  const int meld = log.Meld(1, {{"JK", "JK", "2S"}});
  ExpectCited(log, {F(meld, CheckId::kMeldTooFewNaturals)}, CheckId::kMeldTooFewNaturals,
              {"002 Play-3", "000 §8"});
}

TEST(RulesetScenarios, AddingToTheOpponentsMeldCites002Play10UnderJaques) {
  // Seat 1 opens K-K-K and Q-Q-Q (60); seat 2, of the other side, adds KC to
  // those kings. 002 Play-10: "You may not add cards to an opponent's meld."
  Log log = NewLog("jaques", 4);
  DealSpec d;
  d.hands = {{}, {"KS", "KH", "KD", "QS", "QH", "QD", "9S"}, {"KC"}};
  log.Deal(d);
  log.Draw(1);
  log.Meld(1, {{"KS", "KH", "KD"}, {"QS", "QH", "QD"}});
  log.Discard(1, "9S");
  log.Draw(2);
  const int add = log.Add(2, "K", {"KC"});
  ExpectCited(log, {F(add, CheckId::kMeldTargetMissing)}, CheckId::kMeldTargetMissing,
              {"002 Play-10", "000 §8"});
  EXPECT_EQ(MessageOf(AuditAs(log, "jaques"), CheckId::kMeldTargetMissing),
            "the meld of Ks belongs to the other side; players never add to an opponent's meld");
}

TEST(RulesetScenarios, AddingToAMeldNobodyHasCites000UnderJaquesToo) {
  // The other direction: no side has kings. 002 says nothing of adding to a
  // meld that does not exist, so the engine's 000 §8 stays.
  Log log = NewLog("jaques", 4);
  DealSpec d;
  d.hands = {{}, {"KC"}};
  log.Deal(d);
  log.Draw(1);
  const int add = log.Add(1, "K", {"KC"});
  ExpectCited(log, {F(add, CheckId::kMeldTargetMissing)}, CheckId::kMeldTargetMissing,
              {"000 §8", "000 §8"});
}

TEST(RulesetScenarios, RedThreeNotReplacedCites002Setup7UnderJaques) {
  // Seat 1 draws 3H and lays it out without a replacement card. 002 Setup-7:
  // "draw a replacement card from stock".
  Log log = NewLog("jaques", 4);
  DealSpec d;
  d.hands = {{}, {"9S"}};
  d.stock = {"3H"};
  log.Deal(d);
  log.Draw(1);
  const int three = log.ThreeWith(1, "3H", std::nullopt);
  log.Discard(1, "9S");
  ExpectCited(log, {F(three, CheckId::kThreeReplacement)}, CheckId::kThreeReplacement,
              {"002 Setup-7", "000 §7"});
}

TEST(RulesetScenarios, CardNotHeldCites000UnderJaquesWhere002IsSilent) {
  // 002 never says a player plays only cards they hold: the engine's rule
  // and its citation (000 §11) apply under jaques too.
  Log log = NewLog("jaques", 4);
  DealSpec d;
  d.hands = {{}, {}, {"9S"}, {"9S"}};
  log.Deal(d);
  log.Draw(1);
  const int discard = log.Raw(R"({"type":"discard","player":1,"card":"9S"})");
  ExpectCited(log, {F(discard, CheckId::kCardNotHeld)}, CheckId::kCardNotHeld,
              {"000 §11", "000 §11"});
}

// Seat 1 draws and discards 9S, seat 2 draws 9H and discards QC; seat 3
// (side 1, which has not melded) takes the unfrozen pile [8C, 9S, QC] with
// `with` and discards a filler card.
PileLog TakeBeforeFirstMeld(const std::vector<std::string>& with) {
  PileLog p;
  p.log = NewLog("jaques", 4);
  DealSpec d;
  d.hands = {{}, {}, {"QC"}, with};
  d.stock = {"9S", "9H"};
  p.log.Deal(d);
  p.log.Draw(1);
  p.log.Discard(1, "9S");
  p.log.Draw(2);
  p.log.Discard(2, "QC");
  p.take = p.log.Take(3, "QC", with, /*count=*/3);
  for (Card c : p.log.hand_cards(3)) {
    if (c.rank() >= Rank::kFour && c.rank() <= Rank::kSeven) {
      p.log.Discard(3, ToString(c));
      break;
    }
  }
  return p;
}

TEST(RulesetScenarios, R31_UnfrozenPileBeforeTheFirstMeldInJaques) {
  {
    // A natural pair and a two: 002 Play-4 (the pile holds no wild card or
    // red three, so it is not frozen: Play-5). Classic: frozen for a side
    // that has not melded, and the pair takes it (000 §13, §14). The top card
    // counts toward the minimum in both (readings R3, R31): 10 + 10 + 20 and
    // the QC's 10 make the 50 needed.
    PileLog p = TakeBeforeFirstMeld({"QS", "QH", "2C"});
    for (const char* ruleset : {"jaques", "classic"}) {
      FileReport r = AuditAs(p.log, ruleset);
      EXPECT_NONE(ruleset, r);
    }
  }
  {
    // One natural and a joker: two naturals from the hand are needed in
    // jaques (002 Play-4); classic calls the pile frozen for the side and
    // asks for the pair (000 §13, §14).
    PileLog p = TakeBeforeFirstMeld({"QS", "JK"});
    FileReport j = AuditAs(p.log, "jaques");
    EXPECT_FINDS("jaques", j, F(p.take, CheckId::kPileTakeInvalid));
    EXPECT_EQ(RuleNote(j, CheckId::kPileTakeInvalid), "rule: 002 Play-4, readings R25");
    FileReport c = AuditAs(p.log, "classic");
    EXPECT_FINDS("classic", c, F(p.take, CheckId::kPileFrozenNeedsPair));
    EXPECT_EQ(RuleNote(c, CheckId::kPileFrozenNeedsPair), "rule: 000 §13, §14");
  }
}

// TC-J12 / TC-X05 (002 Play-8, readings R26): seat 1 draws and discards 2C while
// holding natural cards. Rejected in the jaques family; allowed (it freezes
// the pile) in classic, its 000 variants and tutorial.
TEST(RulesetScenarios, TC_J12_TC_X05_WildDiscard) {
  for (const char* name : kRunnable) {
    const Rules& rules = Builtin(name).rules;
    Log log = NewLog(name, rules.num_players);
    DealSpec d;
    d.hand_size = rules.hand_size;
    d.hands.resize(rules.num_players);
    d.hands[1] = {"2C"};
    log.Deal(d);
    log.Draw(1, rules.stock_draw);
    const int discard = log.Discard(1, "2C");
    FileReport r = AuditAs(log, name);
    if (std::string(name).rfind("jaques", 0) == 0) {
      EXPECT_FINDS(name, r, F(discard, CheckId::kDiscardWild));
    } else {
      EXPECT_NONE(name, r);
    }
  }
  // The same four-player log (one card drawn) under classic and jaques.
  Log log = NewLog("jaques", 4);
  DealSpec d;
  d.hands = {{}, {"2C"}};
  log.Deal(d);
  log.Draw(1);
  const int discard = log.Discard(1, "2C");
  EXPECT_FINDS("jaques", AuditAs(log, "jaques"), F(discard, CheckId::kDiscardWild));
  EXPECT_NONE("classic", AuditAs(log, "classic"));
}

// TC-J09 (002 Play-7; 004 L26 for tutorial; readings R19 for classic): black threes
// melded by a player going out. Seat 1 melds K x8 (or K x7) and the threes,
// and discards 9D.
TEST(RulesetScenarios, TC_J09_BlackThreesWhenGoingOut) {
  struct Case {
    std::vector<std::string> threes;
    bool going_out;
    bool jaques_ok, tutorial_ok, classic_ok;
  };
  const std::vector<Case> cases = {
      {{"3C", "3S", "3C"}, true, true, true, true},
      {{"3C", "3S", "3C", "3S"}, true, true, true, true},
      {{"3C", "3S", "JK"}, true, false, false, true},  // no wild card in 002/004
      {{"3C", "3S", "3C"}, false, false, false, false},  // only when going out
  };
  for (const Case& c : cases) {
    Log log = NewLog("jaques", 4);
    const int kings = c.going_out ? 11 - int(c.threes.size()) : 7;
    std::vector<std::string> dealt = Cat(Kings(kings), c.threes);
    while (dealt.size() < 11) dealt.push_back("9S");
    OutLines o = GoOutFirstTurn(log, 4, 11, dealt, {"9D"}, {Kings(kings), c.threes}, "9D");
    std::string label;
    for (const std::string& t : c.threes) label += t + " ";
    label += c.going_out ? "going out" : "not going out";
    const int threes = test::PointValue(test::Cs(c.threes));
    for (const char* ruleset : {"jaques", "tutorial", "classic"}) {
      const std::string r_name = ruleset;
      const bool ok = r_name == "jaques" ? c.jaques_ok : r_name == "tutorial" ? c.tutorial_ok
                                                                              : c.classic_ok;
      FileReport r = AuditAs(log, ruleset);
      if (ok) {
        EXPECT_NONE(r_name + ", " + label, r);
      } else {
        EXPECT_FINDS(r_name + ", " + label, r, F(o.meld, CheckId::kMeldBlackThree));
      }
      if (c.going_out) {
        // K x8 (or x7) is the canasta; concealed in jaques.
        EXPECT_EQ(PartsOf(r, 1), (Parts{500, 0, r_name == "jaques" ? 200 : 100,
                                        kings * 10 + threes, PartsOf(r, 1).in_hand, 0}))
            << r_name << ", " << label;
      }
    }
  }
}

// TC-J10 (002 L63, readings R34): two- and three-handed jaques deal 15 / 13 and
// draw ONE card, where 000's two- and three-handed draw two.
TEST(RulesetScenarios, TC_J10_JaquesTwoAndThreeHanded_DrawStaysOne) {
  struct Table {
    const char* jaques;
    const char* family000;
    int players, hand_size;
  };
  for (const Table& t : {Table{"jaques-two-handed", "two-handed", 2, 15},
                         Table{"jaques-three-handed", "three-handed", 3, 13}}) {
    const RulesetChoice classic = ClassicSeated(t.players, t.hand_size);
    for (int draw : {1, 2}) {
      Log log = NewLog(t.jaques, t.players);
      DealSpec d;
      d.hand_size = t.hand_size;
      log.Deal(d);
      const std::vector<int> draws = PassN(log, 2 * t.players, draw);
      FileReport j = AuditAs(log, t.jaques);
      FileReport f = AuditAs(log, t.family000);
      FileReport c = AuditWith(log.str(), classic);
      EXPECT_EQ(Got(j), draw == 1 ? Lines{} : DrawCounts(draws)) << t.jaques << Describe(j);
      EXPECT_EQ(Got(f), draw == 2 ? Lines{} : DrawCounts(draws)) << t.family000 << Describe(f);
      EXPECT_EQ(Got(c), draw == 1 ? Lines{} : DrawCounts(draws)) << classic.name << Describe(c);
      EXPECT_FINDS("classic", AuditAs(log, "classic"), F(1, CheckId::kLogPlayers));
    }
    {
      Log log = NewLog(t.jaques, t.players);
      const int deal = log.Deal(DealSpec{});  // 11 each
      Lines want(t.players, F(deal, CheckId::kDealHandSize));
      FileReport j = AuditAs(log, t.jaques);
      EXPECT_EQ(Got(j), want) << Describe(j);
    }
    {
      Log log = NewLog(t.jaques, t.players);
      DealSpec d;
      d.hand_size = t.hand_size;
      log.Deal(d);
      const int ask = log.AskOut(1);  // individual play (002 L63)
      Pass(log, 1);
      EXPECT_FINDS(t.jaques, AuditAs(log, t.jaques), F(ask, CheckId::kOutAskNoPartner));
    }
  }
}

// TC-J10 / TC-J04: two canastas to go out in two-handed jaques, concealed
// or not. Seat 1, dealt K x8 + Q x7, draws 9D and goes out concealed with
// both canastas: 200. Dealt K x7 + Q x4 + J x3 + 5S, it draws JC and goes
// out with one canasta: out-without-canastas (scored as recorded).
TEST(RulesetScenarios, TC_J10_JaquesTwoHanded_TwoCanastasToGoOut) {
  const RulesetChoice classic2 = ClassicSeated(2, 15);
  {
    Log log = NewLog("jaques-two-handed", 2);
    OutLines o = GoOutFirstTurn(log, 2, 15, Cat(Kings(8), Queens(7)), {"9D"},
                                {Kings(8), Queens(7)}, "9D");
    FileReport j = AuditAs(log, "jaques-two-handed");
    EXPECT_NONE("jaques-two-handed", j);
    EXPECT_PARTS("jaques-two-handed", j, 1, 1000, 0, 200, 150, 0, 0);
    FileReport c = AuditWith(log.str(), classic2);
    EXPECT_NONE(classic2.name, c);
    EXPECT_PARTS(classic2.name, c, 1, 1000, 0, 100, 150, 0, 0);
    FileReport f = AuditAs(log, "two-handed");
    EXPECT_FINDS("two-handed", f, F(o.draw, CheckId::kDrawCount));
    EXPECT_PARTS("two-handed", f, 1, 1000, 0, 100, 150, 0, 0);
  }
  {
    Log log = NewLog("jaques-two-handed", 2);
    OutLines o = GoOutFirstTurn(
        log, 2, 15, Cat(Kings(7), {"QS", "QH", "QD", "QC", "JS", "JH", "JD", "5S"}), {"JC"},
        {Kings(7), {"QS", "QH", "QD", "QC"}, {"JS", "JH", "JD", "JC"}}, "5S");
    FileReport j = AuditAs(log, "jaques-two-handed");
    EXPECT_FINDS("jaques-two-handed", j, F(o.discard, CheckId::kOutWithoutCanastas));
    EXPECT_PARTS("jaques-two-handed", j, 1, 500, 0, 200, 150, 0, 0);
    FileReport c = AuditWith(log.str(), classic2);
    EXPECT_NONE(classic2.name, c);
    EXPECT_PARTS(classic2.name, c, 1, 500, 0, 100, 150, 0, 0);
  }
  {
    // Three-handed jaques: K x7, Q-Q-Q, J-J-J from 13 dealt + 5S drawn.
    const RulesetChoice classic3 = ClassicSeated(3, 13);
    Log log = NewLog("jaques-three-handed", 3);
    OutLines o = GoOutFirstTurn(log, 3, 13, Cat(Kings(7), {"QS", "QH", "QD", "JS", "JH", "JD"}),
                                {"5S"}, {Kings(7), {"QS", "QH", "QD"}, {"JS", "JH", "JD"}}, "5S");
    FileReport j = AuditAs(log, "jaques-three-handed");
    EXPECT_FINDS("jaques-three-handed", j, F(o.discard, CheckId::kOutWithoutCanastas));
    EXPECT_PARTS("jaques-three-handed", j, 1, 500, 0, 200, 130, 0, 0);
    FileReport c = AuditWith(log.str(), classic3);
    EXPECT_NONE(classic3.name, c);
    EXPECT_PARTS(classic3.name, c, 1, 500, 0, 100, 130, 0, 0);
  }
}

// TC-X04: going out by melding every card, no discard, with the canastas
// the ruleset needs: allowed in classic, hutto (TC_C17e above), two- and
// three-handed and tutorial; the jaques family needs a final discard (readings R29).
// The out is scored as recorded (a jaques player who had not melded before
// is even concealed).
TEST(RulesetScenarios, TC_X04_GoingOutByMeldingEveryCard) {
  struct Case {
    const char* ruleset;
    int players, hand_size;
    std::vector<std::string> dealt, drawn;
    std::vector<std::vector<std::string>> melds;
    Parts parts;  // side 1, with in_hand 0 (one player each in 2/3-player games)
  };
  const std::vector<Case> cases = {
      {"classic", 4, 11, Cat(Kings(8), {"QS", "QH", "QD"}), {"QC"},
       {Kings(8), {"QS", "QH", "QD", "QC"}}, {500, 0, 100, 120, 0, 0}},
      {"tutorial", 4, 11, Cat(Kings(8), {"QS", "QH", "QD"}), {"QC"},
       {Kings(8), {"QS", "QH", "QD", "QC"}}, {500, 0, 100, 120, 0, 0}},
      {"jaques", 4, 11, Cat(Kings(8), {"QS", "QH", "QD"}), {"QC"},
       {Kings(8), {"QS", "QH", "QD", "QC"}}, {500, 0, 200, 120, 0, 0}},
      {"two-handed", 2, 15, Cat(Cat(Kings(7), Queens(7)), {"JS"}), {"JH", "JD"},
       {Kings(7), Queens(7), {"JS", "JH", "JD"}}, {1000, 0, 100, 170, 0, 0}},
      {"three-handed", 3, 13, Cat(Kings(7), Queens(6)), {"QC", "QC"},
       {Kings(7), Queens(8)}, {1000, 0, 100, 150, 0, 0}},
      {"jaques-two-handed", 2, 15, Cat(Kings(8), Queens(7)), {"QC"},
       {Kings(8), Queens(8)}, {1000, 0, 200, 160, 0, 0}},
      {"jaques-three-handed", 3, 13, Cat(Kings(7), Queens(6)), {"QC"},
       {Kings(7), Queens(7)}, {1000, 0, 200, 140, 0, 0}},
  };
  for (const Case& c : cases) {
    Log log = NewLog(c.ruleset, c.players);
    OutLines o = GoOutFirstTurn(log, c.players, c.hand_size, c.dealt, c.drawn, c.melds, "");
    log.EndHand(1);
    const std::string name = c.ruleset;
    const bool jaques = name.rfind("jaques", 0) == 0;
    FileReport r = AuditAs(log, c.ruleset);
    if (jaques) {
      EXPECT_FINDS(name, r, F(o.meld, CheckId::kOutWithoutDiscard));
    } else {
      EXPECT_NONE(name, r);
    }
    Parts want = c.parts;
    if (c.players == 4) want.in_hand = -log.SideHandValue(1);
    EXPECT_EQ(PartsOf(r, 1), want) << name << Describe(r);
    EXPECT_EQ(HandOf(r).went_out, 1) << name;
    // Under classic (seated as the log is): allowed, and no concealed bonus.
    const RulesetChoice classic =
        c.players == 4 ? Builtin("classic") : ClassicSeated(c.players, c.hand_size);
    FileReport k = AuditWith(log.str(), classic);
    if (int(c.drawn.size()) == 2) {
      EXPECT_FINDS(classic.name + " for " + name, k, F(o.draw, CheckId::kDrawCount));
    } else {
      EXPECT_NONE(classic.name + " for " + name, k);
    }
    want.going_out = 100;
    EXPECT_EQ(PartsOf(k, 1), want) << classic.name << " for " << name << Describe(k);
  }
}

// TC-J11 / TC-X07 (002 Play-13 vs 000 §15, readings R12): the stock is gone, 9C is
// on top, side 1 has an unfinished 9-9-9 and the pile is not frozen. The
// player in turn does not take it and the hand ends: compulsory in classic
// and tutorial (stock-out-must-take at the end_hand), a refusal jaques
// allows. Nobody went out: no going-out bonus anywhere.
//
// As test::ExhaustWithNineOnTop, but the deal is valid under jaques too: to
// change who draws the last card, the dealer is seat 3 (seat 0 passes a
// turn first) instead of a black-three upcard (a deal-upcard in jaques).
Log ExhaustWithNineOnTopAnyRuleset() {
  for (int variant = 0; variant < 2; ++variant) {
    Log log = NewLog("jaques", 4);
    DealSpec d;
    d.dealer = variant == 0 ? 0 : 3;
    d.hands = {{"2S", "2S", "2H", "2H", "2D", "2D"},
               {"9S", "9H", "9D", "KS", "KH", "KD"},
               {"2C", "2C", "JK", "JK", "JK", "JK"}};
    d.stock = variant == 0 ? std::vector<std::string>{"AC"} : std::vector<std::string>{"TC", "AC"};
    d.stock_bottom = {"9C"};
    log.Deal(d);
    if (variant == 1) log.PassTurn();  // seat 0
    log.Draw(1);
    log.Meld(1, {{"9S", "9H", "9D"}, {"KS", "KH", "KD"}});
    log.Discard(1, "AC");
    log.PassTurnsUntilStockEmpty();
    if (log.current() % 2 == 1 && !log.pile().empty() && log.pile().back() == C("9C"))
      return log;
  }
  ADD_FAILURE() << "no variant puts side 1 in turn with 9C on top";
  return NewLog("jaques", 4);
}

TEST(RulesetScenarios, TC_J11_TC_X07_StockExhaustedRefusal) {
  Log log = ExhaustWithNineOnTopAnyRuleset();
  const int end = log.EndHand(1);
  FileReport j = AuditAs(log, "jaques");
  EXPECT_NONE("jaques", j);
  for (const char* ruleset : {"classic", "tutorial"}) {
    FileReport r = AuditAs(log, ruleset);
    EXPECT_FINDS(ruleset, r, F(end, CheckId::kStockOutMustTake));
    EXPECT_EQ(HandOf(r).went_out, -1);
    for (int side : {0, 1}) {
      EXPECT_EQ(PartsOf(r, side).going_out, 0) << ruleset;
      // The same hand, the same score: the refusal costs nothing.
      EXPECT_EQ(PartsOf(r, side), PartsOf(j, side)) << ruleset << ", side " << side;
    }
  }
  EXPECT_EQ(HandOf(j).went_out, -1);
  EXPECT_EQ(PartsOf(j, 1).melded, 60);
  EXPECT_EQ(PartsOf(j, 1).going_out, 0);
  EXPECT_EQ(PartsOf(j, 0).going_out, 0);
}

// TC-X06 (000 §14, 004 L25; readings R27): seat 1 discards 3S onto the 8C upcard.
// Seat 2 (side 0, not yet opened) takes it with 3C-3C, adds its 3S and
// melds K x8, and discards 8C: out. Classic and tutorial: a black three on
// top blocks the next player (the take is reported, then replayed as
// recorded). Jaques: no block; the black threes are melded going out, as
// 3-4 threes with no wild card (Play-7), and it is concealed (200).
TEST(RulesetScenarios, TC_X06_BlackThreeOnTopOfThePile) {
  for (bool going_out : {true, false}) {
    Log log = NewLog("jaques", 4);
    DealSpec d;
    d.hands = {{}, {"3S"},
               going_out ? Cat({"3C", "3C", "3S"}, Kings(8))
                         : Cat({"3C", "3C", "QS", "QS"}, Kings(7))};
    d.stock = {"9S", "9H"};
    log.Deal(d);
    log.Draw(1);
    log.Discard(1, "3S");
    const int take = log.Take(2, "3S", {"3C", "3C"});
    if (going_out) {
      log.MeldEvent(2, {M{{"3S"}, "3", ""}, M{Kings(8), "", ""}});
      log.Discard(2, "8C");
      log.EndHand(1);
    } else {
      log.Meld(2, {Kings(7)});
      log.Discard(2, "8C");
    }
    FileReport j = AuditAs(log, "jaques");
    if (going_out) {
      EXPECT_NONE("jaques", j);
      EXPECT_PARTS("jaques", j, 0, 500, 0, 200, 80 + 20, -log.SideHandValue(0), 0);
    } else {
      // Taken without going out: the black-three meld is the fault.
      EXPECT_FINDS("jaques", j, F(take, CheckId::kMeldBlackThree));
    }
    for (const char* ruleset : {"classic", "tutorial"}) {
      FileReport r = AuditAs(log, ruleset);
      if (going_out) {
        EXPECT_FINDS(ruleset, r, F(take, CheckId::kPileBlockedTop));
        EXPECT_PARTS(ruleset, r, 0, 500, 0, 100, 80 + 20, -log.SideHandValue(0), 0);
      } else {
        EXPECT_FINDS(ruleset, r, F(take, CheckId::kPileBlockedTop),
                     F(take, CheckId::kMeldBlackThree));
      }
    }
  }
}


// ===========================================================================
// Meld composition: TC-T09 and the rows of TC-X01 (000 §8-9 / readings R1, 002 Play-3,
// 004 L22 / readings R36).

// TC-T09: seat 1 opens with Q-Q-Q + J-J-J and 9-9-2C, then adds the joker
// to the nines (2 naturals, 2 wilds), and may take it back. Legal in
// tutorial only. Taking the illegal card back costs 100 in classic and its
// variants (000 §10; two-handed exempts only exposed cards and insufficient
// melds), nothing in the jaques family (002 states no penalty); in
// tutorial there is nothing to take back.
TEST(RulesetScenarios, TC_T09_JokerAddedToTheNines) {
  for (bool retract : {false, true}) {
    for (const char* name : kRunnable) {
      const Rules& rules = Builtin(name).rules;
      const std::string n = name;
      Log log = NewLog(name, rules.num_players);
      DealSpec d;
      d.hand_size = rules.hand_size;
      d.hands.resize(rules.num_players);
      d.hands[1] = {"QS", "QH", "QD", "JS", "JH", "JD", "9S", "9H", "2C", "JK"};
      d.stock = {"TS", "TH"};
      log.Deal(d);
      log.Draw(1, rules.stock_draw);
      log.Meld(1, {{"QS", "QH", "QD"}, {"JS", "JH", "JD"}, {"9S", "9H", "2C"}});
      const int add = log.Add(1, "9", {"JK"});
      const int back = retract ? log.Retract(1, {"JK"}) : 0;
      log.Discard(1, "TS");
      FileReport r = AuditAs(log, name);
      const std::string label = n + (retract ? ", joker taken back" : "");
      int penalty = 0;
      if (n == "tutorial") {
        if (retract) {
          EXPECT_FINDS(label, r, F(back, CheckId::kRetractNotAllowed));
        } else {
          EXPECT_NONE(label, r);
        }
      } else {
        EXPECT_FINDS(label, r, F(add, CheckId::kMeldTooManyWilds));
        if (retract && n.rfind("jaques", 0) != 0) penalty = -100;
      }
      EXPECT_EQ(PartsOf(r, 1).penalties, penalty) << label << Describe(r);
      // Q-Q-Q + J-J-J + 9-9-2C (+ the joker when it stays).
      EXPECT_EQ(PartsOf(r, 1).melded, 30 + 30 + 40 + (retract ? 0 : 50)) << label;
    }
  }
}

// Side 1 has opened (seat 1: Q-Q-Q + J-J-J); seat 2 passes; seat 3 lays
// `first` as a new meld, then adds `added` to it (if any), and discards.
struct RowLog {
  Log log = NewLog("classic", 4);
  int first = 0, added = 0;
};
RowLog LayRow(const std::string& ruleset, int draw, const std::vector<std::string>& first,
              const std::vector<std::string>& added, const std::string& rank) {
  const std::vector<std::string> pool = {"TS", "TH", "TD", "TC", "8S", "8H"};
  RowLog r;
  r.log = NewLog(ruleset, 4);
  DealSpec d;
  d.hands = {{}, {"QS", "QH", "QD", "JS", "JH", "JD"}, {}, Cat(first, added)};
  d.stock.assign(pool.begin(), pool.begin() + 3 * draw);
  r.log.Deal(d);
  r.log.Draw(1, draw);
  r.log.Meld(1, {{"QS", "QH", "QD"}, {"JS", "JH", "JD"}});
  r.log.Discard(1, "TS");
  Pass(r.log, draw);  // seat 2
  r.log.Draw(3, draw);
  r.first = r.log.Meld(3, {first});
  if (!added.empty()) r.added = r.log.Add(3, rank, added);
  r.log.Discard(3, pool[3 * draw - 1]);
  return r;
}

TEST(RulesetScenarios, TC_X01_MeldCompositionTable) {
  // Which line is wrong, if any: under classic, hutto and jaques (alike)
  // and under tutorial. 0: legal; 1: the new meld; 2: the addition.
  struct Row {
    std::vector<std::string> first, added;
    int classic_bad, tutorial_bad;
    CheckId id;
    int canasta_bonus;  // side 1's canastas when the row is legal
  };
  const CheckId wilds = CheckId::kMeldTooManyWilds;
  const std::vector<Row> rows = {
      {{"KS", "KH", "2S"}, {}, 0, 0, wilds, 0},                       // 2N+1W
      {{"KS", "KH", "2S", "JK"}, {}, 1, 0, wilds, 0},                 // 2N+2W
      {{"KS", "KH", "2S", "2H", "JK"}, {}, 1, 0, wilds, 0},           // 2N+3W
      {{"KS", "KH", "KD", "2S", "2H", "2D"}, {}, 1, 0, wilds, 0},     // 3N+3W
      {{"KS", "KH", "KD", "KC", "2S", "2H", "JK"}, {}, 0, 0, wilds, 300},  // 4N+3W canasta
      {Cat(Kings(5), {"2S", "JK"}), {}, 0, 0, wilds, 300},            // 5N+2W canasta
      {Cat(Kings(5), {"2S", "JK"}), {"2H", "JK"}, 0, 0, wilds, 300},  // 4th wild after completion
      {{"KS", "KH", "KD", "KC", "2S", "2H", "JK"}, {"2D"}, 2, 0, wilds, 300},  // 4N+4W
      {{"KS", "KH", "KD", "KC", "2S", "2H", "2D", "JK"}, {}, 1, 0, wilds, 300},  // the same at once
      {{"2S", "2H", "JK"}, {}, 1, 1, CheckId::kMeldTooFewNaturals, 0},  // wild cards alone
      {{"7S", "7H", "2S"}, {}, 0, 0, wilds, 0},
      {{"AS", "AH", "2S"}, {}, 0, 0, wilds, 0},
  };
  for (const Row& row : rows) {
    std::string label;
    for (const std::string& c : row.first) label += c + " ";
    if (!row.added.empty()) {
      label += "+";
      for (const std::string& c : row.added) label += " " + c;
    }
    for (const char* name : {"classic", "hutto", "jaques", "tutorial"}) {
      const std::string n = name;
      RowLog r = LayRow(name, Builtin(name).rules.stock_draw, row.first, row.added,
                        row.first.front().substr(0, 1));
      const int bad = n == "tutorial" ? row.tutorial_bad : row.classic_bad;
      FileReport rep = AuditAs(r.log, name);
      if (bad == 0) {
        EXPECT_NONE(n + ": " + label, rep);
        EXPECT_EQ(PartsOf(rep, 1).canastas, row.canasta_bonus) << n << ": " << label;
      } else {
        EXPECT_FINDS(n + ": " + label, rep, F(bad == 1 ? r.first : r.added, row.id));
      }
    }
  }
}

// ===========================================================================
// D21: jaques states no penalty at all (002 L49 is a redeal for signals).

TEST(RulesetScenarios, D21_JaquesHasNoInsufficientMeldPenalties) {
  int draw = 0, meld = 0;
  {
    // K-K-K + 5-5-5 (45), the 5s taken back, Q-Q-Q laid: classic -100.
    Log log = RetractLog("jaques", 4, 11, /*all=*/false, &draw, &meld, /*draw_count=*/1);
    FileReport j = AuditAs(log, "jaques");
    EXPECT_NONE("jaques", j);
    EXPECT_EQ(PartsOf(j, 1).penalties, 0) << Describe(j);
    FileReport c = AuditAs(log, "classic");
    EXPECT_NONE("classic", c);
    EXPECT_EQ(PartsOf(c, 1).penalties, -100) << Describe(c);
  }
  {
    // All taken back, then K-K-K + 5-5-5-5 (50): classic needs 60 now.
    Log log = RetractLog("jaques", 4, 11, /*all=*/true, &draw, &meld, 1);
    EXPECT_NONE("jaques", AuditAs(log, "jaques"));
    EXPECT_FINDS("classic", AuditAs(log, "classic"), F(meld, CheckId::kInitialMeldMinimum));
  }
}

// TC-C04 against jaques: seat 2 keeps a dealt 3H through its turn; seat 1
// goes out in its second turn (K x8 + Q-Q-Q, never melded before: concealed
// in jaques). The 3H is undeclared when play ends: classic's side 0 loses
// 500 (000 §7); jaques requires the declaration (002 Setup-7, Play-7) but
// states no penalty.
TEST(RulesetScenarios, D21_UndeclaredRedThreeCostsNothingInJaques) {
  Log log = NewLog("jaques", 4);
  DealSpec d;
  d.hands = {{}, Cat(Kings(8), {"QS", "QH", "QD"}), {"3H"}};
  d.stock = {"9S", "9H", "9C", "TS", "9D"};
  log.Deal(d);
  log.PassTurn();                          // seat 1
  const int seat2_discard = log.PassTurn();  // seat 2, keeping 3H
  log.PassTurns(2);                        // seats 3, 0
  log.Draw(1);                             // 9D
  log.Meld(1, {Kings(8), {"QS", "QH", "QD"}});
  log.Discard(1, "9D");
  const int end = log.EndHand(1);
  // The 3H counts as a bonus card, not in the hand (readings R8, R20).
  const int seat0 = test::PointValue(log.hand_cards(0));
  const int seat2 = test::PointValue(log.hand_cards(2)) - 100;
  FileReport c = AuditAs(log, "classic");
  FileReport j = AuditAs(log, "jaques");
  // In both: seat 2 ended its turn still holding the red three (it should
  // have been laid out: in its first turn, or at once), and it is undeclared
  // when play ends.
  for (const char* ruleset : {"classic", "jaques"})
    EXPECT_FINDS(ruleset, ruleset == std::string("classic") ? c : j,
                 F(seat2_discard, CheckId::kThreeTiming), F(end, CheckId::kRedThreeUndeclared));
  EXPECT_PARTS("classic", c, 0, 0, 0, 0, 0, -(seat0 + seat2), -500);
  EXPECT_PARTS("jaques", j, 0, 0, 0, 0, 0, -(seat0 + seat2), 0);
  EXPECT_PARTS("jaques", j, 1, 500, 0, 200, 110, PartsOf(j, 1).in_hand, 0);
}

}  // namespace
}  // namespace canasta
