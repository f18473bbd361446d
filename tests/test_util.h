// Helpers for tests that replay small canasta-log/1 logs through the auditor
// (classic rules only) and assert the exact findings, line by line.
//
//   Log log;                          // line 1: the game header
//   DealSpec d;
//   d.hands = {{}, {"KS", "KH"}};      // the rest of the pack is filled in
//   log.Deal(d);
//   int draw = log.Draw(2);           // the next stock card
//   log.Discard(1, "KS");
//   FileReport r = Audit(log.str());
//   EXPECT_PROBLEMS(r, {draw, CheckId::kTurnOrder});
//
// Findings are compared as (line, CheckId) pairs; on failure every finding is
// printed with its message. Problems() leaves out kLogIncomplete, which every
// log that stops before the game's end carries.
#ifndef CANASTA_TESTS_TEST_UTIL_H_
#define CANASTA_TESTS_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "core/card.h"
#include "core/meld.h"
#include "core/position.h"
#include "core/violation.h"
#include "lint/checks.h"
#include "replay/auditor.h"
#include "replay/report.h"

namespace canasta {
namespace test {

// --- Check names (lint/checks.h), for readable failures ---

inline std::string IdName(CheckId id) {
  const int i = static_cast<int>(id);
  if (i < 0 || i >= kNumCheckIds) return "check #" + std::to_string(i);
  return GetCheck(id).name;
}

// --- Auditing ---

// Replays `log` under the classic rules (the only ruleset without scripting).
inline FileReport Audit(const std::string& log) {
  std::istringstream in(log);
  return AuditStream(in, "test.jsonl", AuditOptions{});
}

// Options that replay every game under `c`, whatever its header names.
inline AuditOptions UnderRuleset(const RulesetChoice& c) {
  AuditOptions o;
  o.resolve = [c](const std::string&, const std::string&, RulesetChoice* out, std::string*) {
    *out = c;
    return true;
  };
  return o;
}

// The file's findings and every game's, in that order.
inline std::vector<Finding> AllFindings(const FileReport& r) {
  std::vector<Finding> all = r.findings;
  for (const GameReport& g : r.games) all.insert(all.end(), g.findings.begin(), g.findings.end());
  return all;
}

using Found = std::pair<int, CheckId>;
using FoundList = std::vector<Found>;

// Every finding of the file (file-level ones, then each game's), as
// (line, id), sorted by line; findings on one line keep their order.
inline FoundList Findings(const FileReport& r) {
  FoundList out;
  for (const Finding& f : r.findings) out.emplace_back(f.line, f.id);
  for (const GameReport& g : r.games)
    for (const Finding& f : g.findings) out.emplace_back(f.line, f.id);
  std::stable_sort(out.begin(), out.end(),
                   [](const Found& a, const Found& b) { return a.first < b.first; });
  return out;
}

inline FoundList FindingsExcept(const FileReport& r, std::initializer_list<CheckId> skip) {
  FoundList out;
  for (const Found& f : Findings(r))
    if (std::find(skip.begin(), skip.end(), f.second) == skip.end()) out.push_back(f);
  return out;
}

// The findings that are not kLogIncomplete.
inline FoundList Problems(const FileReport& r) {
  return FindingsExcept(r, {CheckId::kLogIncomplete});
}

// Whether the report has a finding of `id` at `line`.
inline bool HasFindingAt(const FileReport& r, int line, CheckId id) {
  const FoundList found = Findings(r);
  return std::find(found.begin(), found.end(), Found{line, id}) != found.end();
}

inline bool HasId(const FileReport& r, CheckId id) {
  for (const Found& f : Findings(r))
    if (f.second == id) return true;
  return false;
}

inline int CountId(const FileReport& r, CheckId id) {
  int n = 0;
  for (const Found& f : Findings(r)) n += f.second == id;
  return n;
}

// Whether a finding of a game with `id` has a note containing `text`.
inline bool HasNote(const FileReport& r, CheckId id, const std::string& text) {
  for (const GameReport& g : r.games)
    for (const Finding& f : g.findings)
      if (f.id == id)
        for (const std::string& n : f.notes)
          if (n.find(text) != std::string::npos) return true;
  return false;
}

// Every finding with its message and notes: printed when an assertion fails.
inline std::string Dump(const FileReport& r) {
  std::string s = "findings:\n";
  auto one = [&](const Finding& f) {
    s += "  line " + std::to_string(f.line) + ": [" + IdName(f.id) + "] " + f.message + "\n";
    for (const std::string& n : f.notes) s += "      note: " + n + "\n";
  };
  for (const Finding& f : r.findings) one(f);
  for (const GameReport& g : r.games)
    for (const Finding& f : g.findings) one(f);
  for (const GameReport& g : r.games)
    for (const HandReport& h : g.hands) {
      s += "  hand " + std::to_string(h.hand) + " scores:";
      for (int v : h.scores) s += " " + std::to_string(v);
      s += "\n";
    }
  return s;
}

// The message of the first finding with `id`, or "".
inline std::string MessageOf(const FileReport& r, CheckId id) {
  for (const Finding& f : r.findings)
    if (f.id == id) return f.message;
  for (const GameReport& g : r.games)
    for (const Finding& f : g.findings)
      if (f.id == id) return f.message;
  return "";
}

// Expects exactly these (line, id) findings, kLogIncomplete left aside.
#define EXPECT_PROBLEMS(report, ...)                                                 \
  EXPECT_EQ(::canasta::test::Problems(report), (::canasta::test::FoundList{__VA_ARGS__})) \
      << ::canasta::test::Dump(report)
// Expects no finding, kLogIncomplete left aside.
#define EXPECT_NO_PROBLEMS(report)                                             \
  EXPECT_EQ(::canasta::test::Problems(report), ::canasta::test::FoundList{}) \
      << ::canasta::test::Dump(report)
// Expects exactly these findings, kLogIncomplete included.
#define EXPECT_FINDINGS(report, ...)                                                 \
  EXPECT_EQ(::canasta::test::Findings(report), (::canasta::test::FoundList{__VA_ARGS__})) \
      << ::canasta::test::Dump(report)
// Expects no finding but kLogIncomplete.
#define EXPECT_CLEAN(report)                                                  \
  EXPECT_EQ(::canasta::test::Problems(report), ::canasta::test::FoundList{}) \
      << ::canasta::test::Dump(report)

// --- Files ---

// A fresh directory under the system's temporary one, removed with what it
// holds when the object goes.
class TempDir {
 public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "canasta-test-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  // Writes `text` to `name` (a path below the directory; folders are made)
  // and returns the file's path.
  std::string Write(const std::string& name, const std::string& text) const {
    const std::filesystem::path p = std::filesystem::path(path_) / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// --- Cards ---

inline Card C(std::string_view text) {
  std::optional<Card> c = ParseCard(text);
  if (!c) throw std::invalid_argument("bad card in a test: " + std::string(text));
  return *c;
}

inline std::vector<Card> Cs(const std::vector<std::string>& texts) {
  std::vector<Card> out;
  for (const std::string& t : texts) out.push_back(C(t));
  return out;
}

// --- Melds ---

// A meld's shape by its counts, as CheckMeldShape and MeldRefusal take it.
inline MeldShape ShapeOf(Rank rank, int naturals, int twos, int jokers, bool was_canasta = false,
                         bool is_new = true) {
  MeldShape s;
  s.rank = rank;
  s.naturals = naturals;
  s.twos = twos;
  s.jokers = jokers;
  s.was_canasta = was_canasta;
  s.is_new = is_new;
  return s;
}

// Point values of 000 §3, written out independently of Rules::value so that
// expected scores are not computed by the code under test.
inline int PointValue(Card c) {
  if (c.is_joker()) return 50;
  switch (c.rank()) {
    case Rank::kTwo:
    case Rank::kAce:
      return 20;
    case Rank::kKing:
    case Rank::kQueen:
    case Rank::kJack:
    case Rank::kTen:
    case Rank::kNine:
    case Rank::kEight:
      return 10;
    case Rank::kThree:
      return c.is_red_three() ? 100 : 5;
    default:
      return 5;  // 4 to 7
  }
}

inline int PointValue(const std::vector<Card>& cards) {
  int v = 0;
  for (Card c : cards) v += PointValue(c);
  return v;
}

// --- Building logs ---

// A deal: the cards a test cares about; the rest of the pack is filled in.
struct DealSpec {
  int hand = 1;
  int dealer = 0;
  // Cards chosen for each seat (seats not listed, or short lists, are padded
  // with filler cards to the hand size).
  std::vector<std::vector<std::string>> hands;
  std::vector<std::string> upcard = {"8C"};
  // The top of the stock, drawn first; then the rest of the pack.
  std::vector<std::string> stock;
  // The very bottom of the stock (its last card last).
  std::vector<std::string> stock_bottom;
  bool record_stock = true;
  int hand_size = 11;
  // Exact hands: no padding (for deal-size findings).
  bool pad = true;
};

// One entry of a meld event.
struct M {
  std::vector<std::string> cards;
  std::string to;  // "" for a new meld
  std::string as;
};

// Writes a canasta-log/1 file line by line. Every event method returns the
// event's line number. The builder tracks the stock, the pile, the current
// seat and each hand, so that filler turns can be generated; it never checks
// a rule (illegal events are written as asked).
class Log {
 public:
  explicit Log(int players = 4, bool header = true) : players_(players) {
    if (header) {
      std::string names[] = {"Ann", "Bob", "Cat", "Dan", "Eve", "Fay"};
      std::string s = R"({"type":"game","format":"canasta-log/1","ruleset":"classic","players":[)";
      for (int i = 0; i < players; ++i) s += std::string(i ? "," : "") + "\"" + names[i] + "\"";
      Raw(s + "]}");
    }
  }

  // Any line, as is.
  int Raw(const std::string& line) {
    lines_.push_back(line);
    return int(lines_.size());
  }

  std::string str() const {
    std::string s;
    for (const std::string& l : lines_) s += l + "\n";
    return s;
  }
  int line() const { return int(lines_.size()); }
  // The text of line `n` (1-based), to write it again.
  const std::string& Line(int n) const { return lines_.at(size_t(n - 1)); }

  // --- The deal ---

  int Deal(const DealSpec& spec) {
    const int n = players_;
    CardCounts pack;
    for (int i = 0; i < kNumFaces; ++i) {
      Card c = Card::FromIndex(i);
      pack.Add(c, c.is_joker() ? 4 : 2);
    }
    auto reserve = [&](const std::vector<std::string>& v) {
      for (const std::string& t : v) pack.Remove(C(t));  // extra copies stay as asked
    };
    for (const auto& h : spec.hands) reserve(h);
    reserve(spec.upcard);
    reserve(spec.stock);
    reserve(spec.stock_bottom);

    // Filler: cheap cards first (4-7, black threes: 5 points each), then
    // 8-K, aces, wild cards, red threes last; dealt round the table.
    std::vector<Card> filler;
    auto push_rank = [&](Rank r, std::vector<Suit> suits) {
      for (int copy = 0; copy < 2; ++copy)
        for (Suit s : suits) {
          Card c(r, s);
          if (pack.Remove(c)) filler.push_back(c);
        }
    };
    const std::vector<Suit> all = {Suit::kSpades, Suit::kHearts, Suit::kDiamonds, Suit::kClubs};
    for (Rank r : {Rank::kFour, Rank::kFive, Rank::kSix, Rank::kSeven}) push_rank(r, all);
    push_rank(Rank::kThree, {Suit::kSpades, Suit::kClubs});
    for (Rank r : {Rank::kEight, Rank::kNine, Rank::kTen, Rank::kJack, Rank::kQueen,
                   Rank::kKing, Rank::kAce, Rank::kTwo})
      push_rank(r, all);
    while (pack.Remove(Card::Joker())) filler.push_back(Card::Joker());
    push_rank(Rank::kThree, {Suit::kHearts, Suit::kDiamonds});

    hand_text_.assign(n, {});
    hands_.assign(n, CardCounts());
    for (int s = 0; s < n; ++s) {
      if (s < int(spec.hands.size())) hand_text_[s] = spec.hands[s];
    }
    size_t next = 0;
    if (spec.pad) {
      for (bool more = true; more;) {
        more = false;
        for (int s = 0; s < n; ++s) {
          if (int(hand_text_[s].size()) < spec.hand_size && next < filler.size()) {
            hand_text_[s].push_back(ToString(filler[next++]));
            more = true;
          }
        }
      }
    }
    for (int s = 0; s < n; ++s)
      for (const std::string& t : hand_text_[s]) hands_[s].Add(C(t));

    stock_.clear();
    for (const std::string& t : spec.stock) stock_.push_back(C(t));
    // The rest of the stock: what the filler did not use, in the order above.
    for (size_t i = next; i < filler.size(); ++i) stock_.push_back(filler[i]);
    for (const std::string& t : spec.stock_bottom) stock_.push_back(C(t));
    stock_pos_ = 0;
    pile_.clear();
    for (const std::string& t : spec.upcard) pile_.push_back(C(t));
    current_ = (spec.dealer + 1) % n;
    deal_ = DealMove{};
    deal_.dealer = spec.dealer;
    for (int i = 0; i < n; ++i) deal_.hands.push_back(Cs(hand_text_[i]));
    deal_.upcards = Cs(spec.upcard);
    if (spec.record_stock) deal_.stock = stock_;

    std::string s = "{\"type\":\"deal\",\"hand\":" + std::to_string(spec.hand) +
                    ",\"dealer\":" + std::to_string(spec.dealer) + ",\"hands\":[";
    for (int i = 0; i < n; ++i) s += std::string(i ? "," : "") + Quoted(hand_text_[i]);
    s += "],\"upcard\":" + Quoted(spec.upcard);
    if (spec.record_stock) {
      std::vector<std::string> st;
      for (Card c : stock_) st.push_back(ToString(c));
      s += ",\"stock\":" + Quoted(st);
    }
    return Raw(s + "}");
  }

  // --- Moves ---

  // Draws the next stock card (or `n` of them).
  int Draw(int p, int n = 1) {
    std::vector<std::string> cards;
    for (int i = 0; i < n && stock_pos_ + i < stock_.size(); ++i)
      cards.push_back(ToString(stock_[stock_pos_ + i]));
    return Draw(p, cards);
  }
  // Draws these cards, whatever the stock holds (the stock moves on as many).
  int Draw(int p, const std::vector<std::string>& cards) {
    for (const std::string& t : cards) {
      hands_[p].Add(C(t));
      if (stock_pos_ < stock_.size()) ++stock_pos_;
    }
    current_ = p;
    return Raw("{\"type\":\"draw\",\"player\":" + std::to_string(p) +
               ",\"cards\":" + Quoted(cards) + "}");
  }

  int Discard(int p, const std::string& card) {
    hands_[p].Remove(C(card));
    pile_.push_back(C(card));
    current_ = (p + 1) % players_;
    return Raw("{\"type\":\"discard\",\"player\":" + std::to_string(p) + ",\"card\":\"" + card +
               "\"}");
  }

  // A new meld or several (each a list of cards).
  int Meld(int p, const std::vector<std::vector<std::string>>& melds) {
    std::vector<M> ms;
    for (const auto& m : melds) ms.push_back(M{m, "", ""});
    return MeldEvent(p, ms);
  }
  // Cards added to the side's meld of rank `to` ("K", "wild").
  int Add(int p, const std::string& to, const std::vector<std::string>& cards) {
    return MeldEvent(p, {M{cards, to, ""}});
  }
  int MeldEvent(int p, const std::vector<M>& melds) {
    std::string s = "{\"type\":\"meld\",\"player\":" + std::to_string(p) + ",\"melds\":[";
    for (size_t i = 0; i < melds.size(); ++i) {
      s += i ? ",{" : "{";
      if (!melds[i].to.empty()) s += "\"to\":\"" + melds[i].to + "\",";
      if (!melds[i].as.empty()) s += "\"as\":\"" + melds[i].as + "\",";
      s += "\"cards\":" + Quoted(melds[i].cards) + "}";
      for (const std::string& t : melds[i].cards) hands_[p].Remove(C(t));
    }
    current_ = p;
    return Raw(s + "]}");
  }

  // Takes the pile: the top card with `with` from the hand as a new meld.
  int Take(int p, const std::string& top, const std::vector<std::string>& with,
           std::optional<int> count = std::nullopt) {
    return TakeImpl(p, top, with, "", count);
  }
  // Takes the pile: the top card onto the side's meld `to`.
  int TakeTo(int p, const std::string& top, const std::string& to) {
    return TakeImpl(p, top, {}, to, std::nullopt);
  }

  // A red three laid out; its replacement is the next stock card.
  int Three(int p, const std::string& card) {
    std::optional<std::string> r;
    if (stock_pos_ < stock_.size()) r = ToString(stock_[stock_pos_]);
    return ThreeWith(p, card, r);
  }
  // A red three laid out with this replacement (or none).
  int ThreeWith(int p, const std::string& card, std::optional<std::string> replacement) {
    hands_[p].Remove(C(card));
    std::string s = "{\"type\":\"three\",\"player\":" + std::to_string(p) + ",\"card\":\"" +
                    card + "\"";
    if (replacement) {
      hands_[p].Add(C(*replacement));
      if (stock_pos_ < stock_.size()) ++stock_pos_;
      s += ",\"replacement\":\"" + *replacement + "\"";
    }
    return Raw(s + "}");
  }

  int AskOut(int p) { return Raw("{\"type\":\"ask_out\",\"player\":" + std::to_string(p) + "}"); }
  int Answer(int p, bool yes) {
    return Raw("{\"type\":\"answer\",\"player\":" + std::to_string(p) +
               ",\"yes\":" + (yes ? "true" : "false") + "}");
  }
  int Retract(int p, const std::vector<std::string>& cards) {
    for (const std::string& t : cards) hands_[p].Add(C(t));
    return Raw("{\"type\":\"retract\",\"player\":" + std::to_string(p) +
               ",\"cards\":" + Quoted(cards) + "}");
  }
  int Note(const std::string& text) {
    return Raw("{\"type\":\"note\",\"text\":\"" + text + "\"}");
  }
  // `fields`: extra JSON members, e.g. R"("scores":[10,-20],"totals":[10,-20])".
  int EndHand(int hand, const std::string& fields = "") {
    return Raw("{\"type\":\"end_hand\",\"hand\":" + std::to_string(hand) +
               (fields.empty() ? "" : "," + fields) + "}");
  }
  int EndGame(const std::string& fields = "") {
    return Raw("{\"type\":\"end_game\"" + (fields.empty() ? "" : "," + fields) + "}");
  }

  // One ordinary turn of the seat in turn: draw the next stock card (laying
  // out red threes drawn, each replaced from the stock), then discard the
  // card drawn (or, if it is wild, the hand's first natural card that is not
  // a three). Returns the discard's line (0 if the stock ran out).
  int PassTurn() {
    if (stock_pos_ >= stock_.size()) return 0;
    const int p = current_;
    Card c = stock_[stock_pos_];
    Draw(p);
    while (c.is_red_three() && stock_pos_ < stock_.size()) {
      Card r = stock_[stock_pos_];
      Three(p, ToString(c));
      c = r;
    }
    Card out = c;
    if (c.is_wild() || c.is_red_three()) {
      for (Card h : hands_[p].ToVector()) {
        if (!h.is_wild() && !h.is_three()) {
          out = h;
          break;
        }
      }
    }
    return Discard(p, ToString(out));
  }
  // `n` such turns.
  void PassTurns(int n) {
    for (int i = 0; i < n; ++i) PassTurn();
  }
  // Such turns until the stock is empty.
  void PassTurnsUntilStockEmpty() { PassTurnsWhileStockAbove(0); }
  // Such turns while the stock holds more than `n` cards.
  void PassTurnsWhileStockAbove(int n) {
    while (stock_left() > n) PassTurn();
  }

  // --- What the builder tracked ---
  int current() const { return current_; }
  void set_current(int seat) { current_ = seat; }
  const CardCounts& hand(int seat) const { return hands_[seat]; }
  std::vector<Card> hand_cards(int seat) const { return hands_[seat].ToVector(); }
  // The cards dealt to `seat` (as written in the deal).
  const std::vector<std::string>& dealt(int seat) const { return hand_text_[seat]; }
  // The last deal as the engine's move (its tag is 0).
  const DealMove& deal_move() const { return deal_; }
  int stock_left() const { return int(stock_.size() - stock_pos_); }
  std::optional<Card> stock_next() const {
    if (stock_pos_ >= stock_.size()) return std::nullopt;
    return stock_[stock_pos_];
  }
  const std::vector<Card>& pile() const { return pile_; }
  // The point value of the cards a side holds (seats side, side + 2 with 4 players).
  int SideHandValue(int side) const {
    int v = 0;
    for (int s = 0; s < players_; ++s)
      if ((players_ == 4 ? s % 2 : s) == side) v += PointValue(hands_[s].ToVector());
    return v;
  }

  static std::string Quoted(const std::vector<std::string>& cards) {
    std::string s = "[";
    for (size_t i = 0; i < cards.size(); ++i) s += std::string(i ? "," : "") + "\"" + cards[i] + "\"";
    return s + "]";
  }

 private:
  int TakeImpl(int p, const std::string& top, const std::vector<std::string>& with,
               const std::string& to, std::optional<int> count) {
    for (const std::string& t : with) hands_[p].Remove(C(t));
    if (!pile_.empty()) {
      pile_.pop_back();
      for (Card c : pile_) hands_[p].Add(c);
      pile_.clear();
    }
    current_ = p;
    std::string s = "{\"type\":\"take_pile\",\"player\":" + std::to_string(p) + ",\"top\":\"" +
                    top + "\"";
    if (!to.empty()) s += ",\"to\":\"" + to + "\"";
    else s += ",\"with\":" + Quoted(with);
    if (count) s += ",\"count\":" + std::to_string(*count);
    return Raw(s + "}");
  }

  int players_;
  std::vector<std::string> lines_;
  std::vector<std::vector<std::string>> hand_text_;
  std::vector<CardCounts> hands_;
  std::vector<Card> stock_;
  size_t stock_pos_ = 0;
  std::vector<Card> pile_;
  int current_ = 0;
  DealMove deal_;
};

// Seat 1 melds down to one card (9S) in its first turn: a canasta of kings
// and the queens; it discards 9H. Seat 0 holds JS JH (a pair to take a JC
// with), aces and QC; the stock's next cards are 9D, JC, KC.
inline Log SeatOneDownToOneCard() {
  Log log;
  DealSpec d;
  d.hands = {{"JS", "JH", "AS", "AH", "AD", "QC"},
             {"KS", "KS", "KH", "KH", "KD", "KD", "KC", "QS", "QH", "QD", "9S"}};
  d.stock = {"9H", "9D", "JC", "KC"};
  log.Deal(d);
  log.Draw(1);  // 9H
  log.Meld(1, {{"KS", "KS", "KH", "KH", "KD", "KD", "KC"}, {"QS", "QH", "QD"}});
  log.Discard(1, "9H");
  return log;
}

// Seat 1 opens with `melds` (and holds `seat1_extra` besides); then ordinary
// turns until the stock is gone. The stock holds no wild card (they are dealt
// to seats 0 and 2) and ends with 9C, which a seat of side 0 draws and
// discards, so that side 1 is in turn with 9C on top. Returns the log, ready
// for the end_hand.
inline Log ExhaustWithNineOnTop(const std::vector<std::vector<std::string>>& melds,
                                const std::vector<std::string>& seat1_extra,
                                const std::vector<std::string>& seat3) {
  for (int variant = 0; variant < 2; ++variant) {
    Log log;
    DealSpec d;
    // A covered black three as an extra upcard changes who draws the last card.
    d.upcard = variant == 0 ? std::vector<std::string>{"8C"}
                            : std::vector<std::string>{"3S", "8C"};
    std::vector<std::string> seat1 = seat1_extra;
    for (const auto& m : melds) seat1.insert(seat1.end(), m.begin(), m.end());
    d.hands = {{"2S", "2S", "2H", "2H", "2D", "2D"}, seat1,
               {"2C", "2C", "JK", "JK", "JK", "JK"}, seat3};
    d.stock = {"AC"};
    d.stock_bottom = {"9C"};
    log.Deal(d);
    log.Draw(1);
    log.Meld(1, melds);
    log.Discard(1, "AC");
    log.PassTurnsUntilStockEmpty();
    if (log.current() % 2 == 1) return log;
  }
  ADD_FAILURE() << "no variant puts side 1 in turn";
  return Log();
}

// The only game of a report (tests build one game per log).
inline const GameReport& OnlyGame(const FileReport& r) {
  if (r.games.size() != 1) throw std::logic_error("expected exactly one game");
  return r.games[0];
}

}  // namespace test

// gtest prints findings as (line, name) with this.
inline void PrintTo(CheckId id, std::ostream* os) { *os << test::IdName(id); }

}  // namespace canasta

#endif  // CANASTA_TESTS_TEST_UTIL_H_
